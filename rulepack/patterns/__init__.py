"""Patterns over groups of pieces: match, best sub-group, partition.

Pure functions of pieces and a pattern, below the engine: they read a piece's
attributes and call the pattern's compiled predicates, nothing else.
"""

from rulepack.patterns.budget import PatternBudgetError
from rulepack.patterns.match import Pattern

__all__ = ["Pattern", "PatternBudgetError"]
