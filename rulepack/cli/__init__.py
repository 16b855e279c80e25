"""The ``rulepack`` command-line application (click).

Modules, one job each:

- :mod:`~rulepack.cli.main` — the click group and its commands (thin).
- :mod:`~rulepack.cli.errors` — turning :class:`~rulepack.errors.RulepackError` into
  located messages and exit codes; ``echo`` of a line quoting ruleset text.
- :mod:`~rulepack.cli.console` — the rich console, which shows ruleset text inert
  (no control character, markup or emoji code acts).
- :mod:`~rulepack.cli.args` — reading command-line values: rulesets, ``--option``, seats.
- :mod:`~rulepack.cli.render` — views, results and summaries as rich renderables.
- :mod:`~rulepack.cli.interactive` — the human seat: prompts, input, passing the screen.
- :mod:`~rulepack.cli.session` — one game from the first decision to the result.
- :mod:`~rulepack.cli.simulate` — many bot games and their statistics.
- :mod:`~rulepack.cli.analyze` — ``rulepack analyze``: variants from the command line,
  the report as tables (the analysis itself is :mod:`rulepack.analysis`).
- :mod:`~rulepack.cli.export` — the ruleset IR as stand-alone YAML or JSON.
"""
