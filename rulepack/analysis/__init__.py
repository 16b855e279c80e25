"""A designer's report on a ruleset from many bot games: balance, length,
decisiveness and drama, choice, rule coverage, variants side by side.

- :mod:`~rulepack.analysis.stats` — intervals, percentiles, distributions;
- :mod:`~rulepack.analysis.runner` — game seeds, seats, and where games run
  (one process, local worker processes, or Ray via :mod:`~rulepack.analysis.ray_backend`);
"""
