"""Which split a partition question returns: the first in the established order.

``partition`` and ``arrange`` have always returned the split that a depth-first
search finds first when, at each step, it places the mandatory type that fits
the fewest groups (the first such type; with no mandatory type left, the groups
holding a wild piece) and tries that type's groups by how much of what must be
placed they use. A game's table is arranged by it, so it is kept: the same
pieces give the same groups as before.

That search alone can take very long to refute a wrong group. So it runs for a
few thousand steps at a time only: when it stops short, an exact search (the
caller's ``feasible``) tells which group of the step leads to a split, that
group is taken, and the depth-first search starts again from there. The result
is the same as the depth-first search's, found without its long refutations.

Each group it checks for whether it fits is a check of the decision's budget
(``budget``: rulepack.patterns.budget), each group it tries a step.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from rulepack.patterns.budget import Budget

if TYPE_CHECKING:  # pragma: no cover
    from rulepack.patterns.partition import Index

#: Groups one depth-first attempt may try before the exact search is asked.
ATTEMPT_STEPS = 300

#: A group as types (with repeats) and wild pieces.
Group = tuple[tuple[int, ...], int]

#: A position: packed counts of the pieces left and of the mandatory ones, each in
#: two limbs (see rulepack.patterns.cover.Layout), mandatory and optional wild pieces.
Position = tuple[int, int, int, int, int, int]

Feasible = Callable[[int, int, int, int, int, int], bool]


class _Stopped(Exception):
    """A depth-first attempt used up its steps."""


def first_split(idx: "Index", position: Position, feasible: Feasible,
                budget: Budget) -> list[Group] | None:
    """The groups of the established order's first split of a position, or
    None if it has no split.

    :raises PatternBudgetError: ``budget`` ran out."""
    memo: dict[Position, list[Group] | None] = {}
    out: list[Group] = []
    known = False           # the exact search said the position has a split
    while True:
        try:
            rest = _solve(idx, position, memo, [ATTEMPT_STEPS], budget)
        except _Stopped:
            pass
        else:
            assert rest is not None or not known, "the exact search said a split exists"
            return None if rest is None else out + rest
        if not known and not feasible(*position):
            return None
        known = True
        # one step, the exact search choosing among the groups
        for group, child in _children(idx, position, budget):
            if feasible(*child):
                out.append(group)
                position = child
                break
        else:  # pragma: no cover - the exact search said a split exists
            raise AssertionError("no group continues a split the search found")


def _solve(idx: "Index", position: Position, memo: dict[Position, list[Group] | None],
           steps: list[int], budget: Budget) -> list[Group] | None:
    """The depth-first search from ``position``: its first split, or None.
    Finished answers go to ``memo``. :raises _Stopped: out of steps."""
    if position in memo:
        return memo[position]
    _, _, m0, m1, wm, _ = position
    if not m0 and not m1 and not wm:
        return []
    result = None
    for group, child in _children(idx, position, budget):
        steps[0] -= 1
        if steps[0] < 0:
            raise _Stopped
        rest = _solve(idx, child, memo, steps, budget)
        if rest is not None:
            result = [group] + rest
            break
    memo[position] = result
    return result


def _children(idx: "Index", position: Position,
              budget: Budget) -> list[tuple[Group, Position]]:
    """The groups of the step at ``position``, in the order they are tried, each
    with the position it leaves (``[]``: a mandatory type fits no group).

    The step places the mandatory type (in type order) that fits the fewest
    groups, stopping at the first that fits one or none; with no mandatory type
    left, the groups holding a wild piece. Its groups are tried by how many of
    their types still have mandatory pieces, plus the mandatory wild pieces they
    take, most first (ties in the index's order)."""
    a0, a1, m0, m1, wm, wo = position
    lay = idx.layout
    G0, G1, low, width = lay.guards0, lay.guards1, lay.low, lay.width
    ag0 = a0 | G0
    ag1 = a1 | G1
    wilds = wm + wo
    pools = idx.order_pools if wilds else idx.order_plain
    chosen = None
    fewest = 1 << 30
    examined = 0
    for t, (limb, shift) in enumerate(idx.place):
        if not ((m1 if limb else m0) >> shift) & low:
            continue
        count = 0
        for g0, g1, w, _, _, _ in pools[t]:
            examined += 1
            if w <= wilds and (ag0 - g0) & G0 == G0 and (ag1 - g1) & G1 == G1:
                count += 1
                if count >= fewest:
                    break
        if count < fewest:
            chosen, fewest = t, count
            if count <= 1:
                break
    if chosen is not None and fewest == 0:
        budget.check(examined)
        return []
    pool = idx.order_wild if chosen is None else pools[chosen]
    budget.check(examined + len(pool))
    # types with mandatory pieces left: their guard bits
    pending0 = ((m0 | G0) - lay.ones0) & G0
    pending1 = ((m1 | G1) - lay.ones1) & G1
    best = [(-(pending0 & tm0).bit_count() - (pending1 & tm1).bit_count() - min(w, wm),
             g0, g1, w, types)
            for g0, g1, w, tm0, tm1, types in pool
            if w <= wilds and (ag0 - g0) & G0 == G0 and (ag1 - g1) & G1 == G1]
    best.sort(key=lambda e: e[0])
    mg0 = m0 | G0
    mg1 = m1 | G1
    up = width - 1
    out = []
    for _, g0, g1, w, types in best:
        d0 = mg0 - g0
        d1 = mg1 - g1
        n0 = d0 & (((d0 & G0) >> up) * low)
        n1 = d1 & (((d1 & G1) >> up) * low)
        use_m = w if w <= wm else wm
        out.append(((types, w), (a0 - g0, a1 - g1, n0, n1, wm - use_m, wo - (w - use_m))))
    budget.spend(len(out))
    return out
