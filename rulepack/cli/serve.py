"""``rulepack serve [--host 127.0.0.1] [--port 8000] [--data DIR] [RULESET...]``: shared
tables in the browser (:mod:`rulepack.web`; the ``web`` extra: Starlette and uvicorn)."""

from __future__ import annotations

from pathlib import Path

import click

from rulepack.cli.errors import InvalidInput


@click.command("serve")
@click.argument("rulesets", nargs=-1, metavar="[RULESET_FILE...]")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="The address to listen on (127.0.0.1: this machine only; 0.0.0.0: every "
                   "network it is on).")
@click.option("--port", type=click.IntRange(1, 65535), default=8000, show_default=True)
@click.option("--data", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Where the tables and their records are kept (default: "
                   "$XDG_STATE_HOME/rulepack/serve or ~/.local/state/rulepack/serve).")
@click.option("--bot-delay", type=click.FloatRange(0, 10), default=0.6, show_default=True,
              help="Seconds a bot waits before each decision, so that people can follow.")
def serve_command(rulesets: tuple[str, ...], host: str, port: int, data: Path | None,
                  bot_delay: float) -> None:
    """Serve shared tables in the browser: open a table of any bundled ruleset (or of the
    RULESET_FILEs given), send each player their own link, and play; bots play at the
    table too. Every table keeps its record; a restarted server takes every table up
    where it was.

    Needs the web extra: pip install 'rulepack[web]'.
    """
    try:
        from rulepack.web.app import serve
        from rulepack.web.store import default_data_dir
    except ImportError as exc:
        raise InvalidInput(f"rulepack serve needs the web extra (pip install 'rulepack[web]'): "
                           f"{exc}") from None
    folder = data or default_data_dir()
    where = "this machine only" if host in ("127.0.0.1", "localhost", "::1") else \
        "every machine that can reach this address"
    click.echo(f"rulepack serve: http://{host}:{port}/ — open to {where}; tables kept in "
               f"{folder}", err=True)
    serve(folder, list(rulesets), host, port, bot_delay)
