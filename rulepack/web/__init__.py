"""``rulepack serve``: shared tables in the browser (the ``web`` extra: Starlette and
uvicorn). :mod:`~rulepack.web.store` keeps the index of tables (SQLite) and their
records; :mod:`~rulepack.web.table` runs one table (its game, its bots, what each
seat is sent); :mod:`~rulepack.web.app` is the ASGI application (pages and
websockets); :mod:`~rulepack.web.pages` the pages' HTML."""
