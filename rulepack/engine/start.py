"""The start of an instance's games: the part of the flow that no seed changes.

Every game of an instance begins the same way until the flow first draws a
chance event (a ``shuffle``, ``random(...)``, a ``roll``): the setup, and often
more (the pieces gathered before the first shuffle). :func:`find_start` runs
that prefix once per instance, an instruction at a time (the program's
generated steps), with a generator that refuses every draw, and keeps the position as
it was before the instruction that first drew (or at the first decision, if
nothing drew before it). A game then starts from a copy of that
position and runs the flow on from that instruction with the game's own
generator (the instance starts a generated block there): the same position,
history and draws as running the whole flow from the start, for less.

No start is kept when the prefix fails, ends the game, or runs more than
:data:`PROBE_LIMIT` instructions (each is preceded by a copy of the position, so
the search is bounded in time for any ruleset): the game then runs from the
start, which reports a failure where it happens.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, NoReturn, Sequence, TypeVar

from rulepack.engine.flow import DEFAULT_MAX_DECISIONS, initial_values
from rulepack.engine.position import Position
from rulepack.engine.rng import Rng

if TYPE_CHECKING:  # pragma: no cover
    from rulepack.engine.program import Program

T = TypeVar("T")


class FirstDraw(BaseException):
    """Raised by :class:`RefusingRng` at the first draw. A ``BaseException``, so
    that no handler of the flow for ruleset errors (``except Exception``) can take
    it for one."""


class RefusingRng(Rng):
    """A generator that has nothing to give: every draw raises :class:`FirstDraw`."""

    __slots__ = ()

    def _refuse(self) -> NoReturn:
        raise FirstDraw

    def below(self, n: int) -> int:
        self._refuse()

    def choice(self, items: Sequence[T]) -> T:
        self._refuse()

    def weighted(self, weights: Sequence[int]) -> int:
        self._refuse()

    def roll(self, faces: Sequence[object], weights: Sequence[int] | None, label: str) -> int:
        self._refuse()

    def shuffle(self, items: list[T]) -> None:
        self._refuse()

    def clone(self) -> "RefusingRng":
        return self


#: the most instructions the seed-free prefix may run before no start is kept
PROBE_LIMIT = 10_000

#: a start: the position before instruction ``pc`` (``pc == -1``: at a decision)
Start = tuple["Position", int]


def find_start(fresh: "Callable[[], Position]", limit: int) -> Start | None:
    """Run the seed-free prefix of the flow of the position ``fresh()`` makes (its
    variables set, its flow not yet run, ``rng`` a :class:`RefusingRng`).

    :param limit: the most instructions to run (:data:`PROBE_LIMIT`).
    :returns: ``(position, pc)``: the position before instruction ``pc`` drew,
        never to be changed (copy it with ``copy()``), or at a decision (``pc == -1``);
        ``None`` when there is no such start (see the module's text).
    """
    try:
        st = fresh()
    except (Exception, FirstDraw):
        return None
    code = st.program.steps        # one instruction at a time
    pc = 0
    try:
        for _ in range(limit):
            before, at = st.copy(), pc
            st.block = pc
            pc = code[pc](st)
            if pc < 0:
                break
        else:
            return None
    except FirstDraw:
        return before, at
    except Exception:
        return None
    st.block = None
    if pc != -1 or st.pending is None:
        return None         # the game ended before its first decision
    return st, -1


def find_program_start(program: "Program") -> Start | None:
    """Where every game of ``program`` starts, whatever its seed (see
    :func:`find_start`), found on its instructions one at a time."""
    def unstarted() -> Position:
        st = Position.empty(program, 0, DEFAULT_MAX_DECISIONS)
        st.rng = RefusingRng()
        initial_values(st)
        return st
    return find_start(unstarted, PROBE_LIMIT)
