"""A designer's report on a ruleset from many bot games: balance, length,
decisiveness and drama, choice, rule coverage, variants side by side
(``rulepack analyze``, docs/analysis.md).

- :mod:`~rulepack.analysis.stats` — intervals, percentiles, distributions;
- :mod:`~rulepack.analysis.runner` — game seeds, seats, chunks, local worker
  processes; :mod:`~rulepack.analysis.ray_backend` — Ray (the ``ray`` extra);
  :mod:`~rulepack.analysis.backends` — which of them plays a run's games
  (``rulepack simulate`` plays through them too);
- :mod:`~rulepack.analysis.trace` — one game watched: what every decision offered
  and took, turns, rounds, who leads;
  :mod:`~rulepack.analysis.reads` — the zones and variables a score reads, so that
  scores are read again only when one of them changed;
- :mod:`~rulepack.analysis.rules` — the alternatives and phases of a ruleset, located;
- :mod:`~rulepack.analysis.report` — the sections of one variant's report;
- :mod:`~rulepack.analysis.analyze` — the analysis: variants, backends, JSON Lines
  streaming and resuming;
- :mod:`~rulepack.analysis.html` — the report as one HTML page with plots (the
  ``analysis`` extra: matplotlib).

It sits above the agents and below the CLI (the import-linter layers in pyproject.toml).
"""
