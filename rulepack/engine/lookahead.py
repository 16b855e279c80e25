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
every decision in it is the same player's. Positions met twice (two orders of the
same moves, or a later decision of the block) are valued once.
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

#: Positions whose values one block keeps between its look-aheads.
SEEN_LIMIT = 50_000

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
    seen = _seen(st, scope)
    budget = [LOOKAHEAD_LIMIT]
    known = seen.get(_key(st))
    if known is not None:
        # met as a later decision of an earlier look-ahead of this block
        values = known[1]
    else:
        values = []
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
           seen: dict[object, tuple[object, list[object]]], budget: list[int]) -> object:
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
    found = seen.get(key)
    if found is not None:
        return found[0]
    budget[0] -= 1
    if budget[0] < 0:
        raise RuleValueError(f"the look-ahead of this maximize block visited more than "
                             f"{LOOKAHEAD_LIMIT} positions")
    values = []
    for action in listed(st):
        nxt = st.copy()
        take(nxt, action)
        values.append(_value(nxt, scope, decider, take, listed, seen, budget))
    out = max(values)  # type: ignore[type-var]
    seen[key] = (out, values)
    return out


def _seen(st: "Position", scope: "Maximize") -> dict[object, tuple[object, list[object]]]:
    """The values of the positions the look-aheads of ``scope`` have met in this game
    (by :func:`_key`: the best value from each and the value of each of its actions),
    kept with the game's memo (shared by copies: a position's values depend on the
    position only) so that a later decision of the block finds its answer there;
    begun anew past :data:`SEEN_LIMIT` positions."""
    name = ("maximize", scope.index)
    seen = st.memo.get(name)
    if seen is None or len(seen) > SEEN_LIMIT:
        seen = {}
        st.memo[name] = seen
    return seen


def _key(st: "Position") -> object:
    """What decides the rest of a probe: where the flow stands, the turn, the faces
    the dice show, the pieces, their faces and owners, the stacks and the variables
    (chance plays no part)."""
    return (st.pc, st.decider, st.turns, tuple(sorted(st.rolled.items())),
            tuple(-1 if p is None else p.id for zone in st.zones for p in zone), tuple(st.loc),
            tuple(st.face), tuple(st.owner), tuple(st.active),
            tuple(sorted(st.heights.items())), tuple(sorted(st.groupings.items())),
            repr(sorted(st.vars.items())))


def _checked(value: object) -> object:
    """``value`` if it is a number or a tuple of numbers.

    :raises RuleValueError: it is not."""
    parts = value if isinstance(value, tuple) else (value,)
    if not parts or not all(isinstance(x, (int, float)) for x in parts):
        raise RuleValueError(f"maximize needs a number or a tuple of numbers, not {show(value)}")
    return value
