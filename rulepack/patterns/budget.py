"""The budget of steps the pattern searches share with the loops of expressions.

One run of the flow between two decisions (or the listing of one decision's
actions) may take :data:`EVAL_STEPS` steps in all: each element a loop of
expressions visits is one (``rulepack.engine.runtime.charge``), and so is each
piece a pattern question reads, each group a search tries and each state the
sweep builds (:class:`Budget`); the cheaper checks (a group tested for whether
it fits, two states compared) count one step for every :data:`CHECKS`. The
count never depends on time or on what was remembered from earlier questions,
so the same game stops at the same place on every machine.
"""

#: Steps between two decisions (see the module's text).
EVAL_STEPS = 1_000_000

#: Checks (a group tested for fit, two states compared: a few machine operations
#: each) that count as one step.
CHECKS = 16


class PatternBudgetError(Exception):
    """A pattern search (``best``, ``partition``) went over its budget, or over what
    was left of the steps between two decisions."""


class Budget:
    """What a search may still spend of the steps between two decisions.

    :param left: the steps left (``Position.steps_left``; a search writes back what
        is left when it ends, see :mod:`rulepack.patterns.partition`).
    :param what: the search, for the message (``"partition by 'run'"``).
    """

    def __init__(self, left: int, what: str) -> None:
        self.left = left
        self.what = what
        #: checks not yet counted as a step
        self.checks = 0

    def check(self, checks: int) -> None:
        """Count ``checks`` checks (one step for every :data:`CHECKS`).

        :raises PatternBudgetError: nothing is left.
        """
        checks += self.checks
        self.checks = checks % CHECKS
        if checks >= CHECKS:
            self.spend(checks // CHECKS)

    def spend(self, steps: int) -> None:
        """Take ``steps`` from what is left.

        :raises PatternBudgetError: nothing is left.
        """
        left = self.left - steps
        self.left = left
        if left < 0:
            raise PatternBudgetError(
                f"{self.what} went over the budget of {EVAL_STEPS:,} steps between two "
                "decisions (shared by the loops of expressions and the pattern searches)")
