"""The error every pattern search raises when it runs out of steps."""


class PatternBudgetError(Exception):
    """A pattern search (``best``, ``partition``) examined more groups than its budget."""
