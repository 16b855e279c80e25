"""Patterns over groups of pieces: match, best sub-group, partition.

Pure functions of pieces and a pattern, below the engine: they read a piece's
attributes and call the pattern's compiled predicates, nothing else.

The searches are compiled to C by mypyc when the package is installed
(``setup.py``); :mod:`rulepack.patterns.native` tells whether they run
compiled and keeps a build older than its sources from being used.
"""

from rulepack.patterns.native import guard

guard()     # before the compiled modules: stale builds are not used (see native.py)

from rulepack.patterns.budget import PatternBudgetError  # noqa: E402
from rulepack.patterns.match import Pattern  # noqa: E402

__all__ = ["Pattern", "PatternBudgetError"]
