"""Look-ahead for a ``maximize VALUE { ... }`` block: of a decision's legal
actions inside the block, keep those that let its player reach the highest
``VALUE`` when the flow leaves the block.

A rule such as backgammon's "use as many of the dice as you can, the higher one
if only one can be used" or draughts' "capture as many pieces as you can"
constrains each decision by what the decisions after it can still reach. The
block says where that reach ends: for each action, a copy of the position takes
it and runs on (a *probe*, :class:`Probe`), every later decision of the block
tried in turn, until the flow leaves the block (its end, where ``VALUE`` is read)
or the game ends (``VALUE`` read on the final position). An action is kept when
the best of its continuations is the best of all.

The block draws no chance (the compiler refuses a ``roll``, ``shuffle`` or
``random`` inside it: a probe would see the draw before the player does), and
every decision in it is the same player's. Positions met twice in one look-ahead
(two orders of the same moves) are valued once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from rulepack.engine.program import HALT
from rulepack.engine.runtime import RuleValueError, show

if TYPE_CHECKING:  # pragma: no cover
    from rulepack.engine.actions import Action
    from rulepack.engine.position import Position
    from rulepack.engine.program import Maximize

#: Positions one look-ahead may visit before it is an error (a block whose
#: decisions branch too far to be searched).
LOOKAHEAD_LIMIT = 200_000

_UNSET = object()


class Probe:
    """What a look-ahead position carries: the block it stops at and, once it has
    left that block, the ``VALUE`` read there."""

    __slots__ = ("scope", "value")

    def __init__(self, scope: "Maximize") -> None:
        self.scope = scope
        self.value: object = _UNSET

    def fresh(self) -> "Probe":
        """A probe of the same block, no value yet (for a copy of its position)."""
        return Probe(self.scope)


def leave(st: "Position", scope: "Maximize", nxt: int) -> int:
    """Run where the flow leaves ``scope`` (its end, or an ``end turn``/``end
    round`` out of it): a probe of it reads its value there and stops the flow
    (:data:`~rulepack.engine.program.HALT`); otherwise the flow goes on at ``nxt``.

    :raises RuleValueError: the value is not a number or a tuple of numbers."""
    probe = st.probe
    if probe is None or probe.scope is not scope:
        return nxt
    probe.value = _checked(scope.value(st))
    return HALT


def best(st: "Position", scope: "Maximize", actions: "list[Action]",
         take: Callable[["Position", "Action"], None],
         listed: Callable[["Position"], "list[Action]"]) -> "list[Action]":
    """The actions of ``actions`` (the pending decision's, in order) whose best
    continuation reaches the block's highest value.

    :param take: applies an action and runs the flow on (``flow.take``).
    :param listed: a probe position's legal actions (``flow.legal``: a probe's
        are not filtered).
    :raises RuleValueError: another player decides inside the block, a value is
        not a number or a tuple of numbers, or the look-ahead visits more than
        :data:`LOOKAHEAD_LIMIT` positions."""
    decider = st.decider
    seen: dict[object, object] = {}
    budget = [LOOKAHEAD_LIMIT]
    values: list[object] = []
    for action in actions:
        probe = st.copy()
        probe.probe = Probe(scope)
        take(probe, action)
        values.append(_value(probe, scope, decider, take, listed, seen, budget))
    top = max(values)  # type: ignore[type-var]
    return [a for a, v in zip(actions, values) if v == top]


def _value(st: "Position", scope: "Maximize", decider: object,
           take: Callable[["Position", "Action"], None],
           listed: Callable[["Position"], "list[Action]"],
           seen: dict[object, object], budget: list[int]) -> object:
    """The best value the block can reach from probe position ``st`` (after an
    action: at a later decision of the block, past its end, or at the game's end)."""
    probe = st.probe
    assert probe is not None
    if probe.value is not _UNSET:
        return probe.value
    if st.terminal:
        return _checked(scope.value(st))
    if st.decider != decider:
        raise RuleValueError("every decision of a maximize block must be the same player's: "
                             f"here {show(st.decider)} decides after {show(decider)}")
    key = _key(st)
    found = seen.get(key, _UNSET)
    if found is not _UNSET:
        return found
    budget[0] -= 1
    if budget[0] < 0:
        raise RuleValueError(f"the look-ahead of this maximize block visited more than "
                             f"{LOOKAHEAD_LIMIT} positions")
    out: object = _UNSET
    for action in listed(st):
        nxt = st.copy()
        take(nxt, action)
        v = _value(nxt, scope, decider, take, listed, seen, budget)
        if out is _UNSET or v > out:  # type: ignore[operator]
            out = v
    seen[key] = out
    return out


def _key(st: "Position") -> object:
    """What decides the rest of a probe: where the flow stands, the pieces, their
    faces and owners, the stacks and the variables (chance plays no part)."""
    return (st.pc, st.decider,
            tuple(-1 if p is None else p.id for zone in st.zones for p in zone), tuple(st.loc),
            tuple(st.face), tuple(st.owner), tuple(st.active),
            tuple(sorted(st.heights.items())), repr(sorted(st.vars.items())))


def _checked(value: object) -> object:
    """``value`` if it is a number or a tuple of numbers.

    :raises RuleValueError: it is not."""
    parts = value if isinstance(value, tuple) else (value,)
    if not parts or not all(isinstance(x, (int, float)) for x in parts):
        raise RuleValueError(f"maximize needs a number or a tuple of numbers, not {show(value)}")
    return value
