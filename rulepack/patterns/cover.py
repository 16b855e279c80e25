"""The exact search behind partitions, on packed count vectors.

The question: given how many pieces of each *type* must be placed (mandatory)
and how many more may be (optional), plus wild pieces of both sorts, can they
be split into groups from a fixed list of *templates* (a template: so many
pieces of each type, and so many wild pieces)? And, for the batched question,
which optional types (and are optional wild pieces) used by at least one split?
Nothing here knows pieces or patterns: :mod:`rulepack.patterns.partition`
turns a pattern into templates and pieces into counts.

How it stays fast and exact:

* A count vector is one integer: type ``s`` (its *slot*) owns ``width`` bits at
  ``s * width``, the top one a guard. Whether a template fits the pieces left is
  one subtraction (no guard bit may be borrowed), and taking it is another; the
  mandatory counts drop with a saturating subtraction done the same way.
* Every mandatory piece lies in some group, so the search branches only on the
  templates holding one slot with a mandatory piece left: the slot that fits the
  fewest templates (none: the branch ends at once; one: it is placed without
  branching), the lowest such slot on a tie. Slots are numbered so that pieces
  which group together are near each other.
  Templates that use no optional piece are tried first.
* Sub-positions are memoised for the life of one :class:`CoverSearch` (one
  question, or one batch of related questions), never longer.
* Each template tried is a step; a search over its budget raises the error the
  caller gives. The search is exhaustive, so a "no" is always a true no.
"""

from __future__ import annotations

from typing import Callable, Sequence

#: One template as the search sees it: (packed counts, wild pieces).
Packed = tuple[int, int]


class Layout:
    """Fields of ``width`` bits, one per slot, the top bit of each a guard.

    :param slots: number of slots (types).
    :param max_count: the largest count a field must hold.
    """

    def __init__(self, slots: int, max_count: int) -> None:
        self.slots = slots
        self.width = max(1, max_count).bit_length() + 1
        ones = 0
        for s in range(slots):
            ones |= 1 << (s * self.width)
        #: the lowest bit of every field
        self.ones = ones
        #: the guard bit of every field
        self.guards = ones << (self.width - 1)
        #: the value bits of one field
        self.low = (1 << (self.width - 1)) - 1

    def pack(self, counts_by_slot: Sequence[int]) -> int:
        """One integer for a list of counts, one per slot (each ≤ max_count)."""
        x = 0
        for s, c in enumerate(counts_by_slot):
            if c:
                x |= c << (s * self.width)
        return x

    def unpack(self, x: int) -> list[int]:
        return [(x >> (s * self.width)) & self.low for s in range(self.slots)]

    def slots_of(self, bits: int) -> list[int]:
        """The slots whose guard bit is set in ``bits``."""
        out = []
        while bits:
            low = bits & -bits
            out.append((low.bit_length() - 1) // self.width)
            bits ^= low
        return out


class Templates:
    """The templates of a pattern, arranged for the search.

    :param layout: the packing of count vectors.
    :param entries: every template as (counts by slot, wild pieces).
    """

    def __init__(self, layout: Layout, entries: Sequence[tuple[Sequence[int], int]]) -> None:
        self.layout = layout
        n = layout.slots
        by_slot: list[list[tuple[int, int, int]]] = [[] for _ in range(n)]
        wild: list[tuple[int, int, int]] = []
        for counts, w in entries:
            g = layout.pack(counts)
            size = sum(counts) + w
            if w:
                wild.append((w, -size, g))
            for s, c in enumerate(counts):
                if c:
                    by_slot[s].append((w, -size, g))
        # for each slot: groups without wild pieces first, then by wild pieces;
        # larger groups first (they place more of what must be placed)
        for pool in by_slot:
            pool.sort(key=lambda e: (e[0], e[1]))
        wild.sort(key=lambda e: (e[0], e[1]))
        #: per slot, its templates as (packed counts, wilds)
        self.by_slot: list[list[Packed]] = [[(g, w) for w, _, g in pool] for pool in by_slot]
        #: per slot, how many of its templates have no wild piece (they come first)
        self.plain: list[int] = [sum(1 for w, _, _ in pool if not w) for pool in by_slot]
        #: every template with a wild piece
        self.with_wild: list[Packed] = [(g, w) for w, _, g in wild]


#: The bit of a :meth:`CoverSearch.reach` answer that says optional wild pieces are used.
def wild_bit(layout: Layout) -> int:
    return 1 << (layout.slots * layout.width)


class CoverSearch:
    """One question (or a batch of related ones) and its memo.

    A position is ``(a, m, wm, wo)``: ``a`` the packed counts of the pieces
    left (mandatory and optional), ``m`` the packed counts of the mandatory
    ones left (``m ≤ a`` slot by slot), ``wm``/``wo`` the mandatory/optional
    wild pieces left.

    :param templates: the groups pieces may form.
    :param budget: most templates tried in all.
    :param over_budget: makes the exception raised when the budget runs out.
    """

    def __init__(self, templates: Templates, budget: int,
                 over_budget: Callable[[], Exception]) -> None:
        self.t = templates
        self.layout = templates.layout
        self.budget = budget
        self.over_budget = over_budget
        self.steps = 0
        self._feasible: dict[tuple[int, int, int, int], bool] = {}
        self._reach: dict[tuple[int, int, int, int], int] = {}
        self._free: dict[tuple[int, int], int] = {}
        self.wild = wild_bit(self.layout)

    # ------------------------------------------------------------------ helpers
    def _step(self) -> None:
        self.steps += 1
        if self.steps > self.budget:
            raise self.over_budget()

    def _choose(self, a: int, m: int, wilds: int) -> list[Packed]:
        """The fitting templates of the slot with a mandatory piece left that
        fits the fewest (the lowest such slot); with no mandatory typed piece
        left, the fitting templates with a wild piece. ``[]``: stuck."""
        lay = self.layout
        width, guards, low = lay.width, lay.guards, lay.low
        by_slot, plain = self.t.by_slot, self.t.plain
        ag = a | guards
        if not m:
            return [(g, w) for g, w in self.t.with_wild
                    if w <= wilds and (ag - g) & guards == guards]
        best: list[Packed] = []
        fewest = 1 << 30
        while m:
            bit = m & -m
            s = (bit.bit_length() - 1) // width
            m &= ~(low << (s * width))
            pool = by_slot[s]
            fits = []
            for i in range(len(pool) if wilds else plain[s]):
                g, w = pool[i]
                if w > wilds:
                    break
                if (ag - g) & guards == guards:
                    fits.append((g, w))
                    if len(fits) >= fewest:
                        break
            if len(fits) < fewest:
                best, fewest = fits, len(fits)
                if fewest <= 1:
                    break
        return best

    # ------------------------------------------------------------------ questions
    def feasible(self, a: int, m: int, wm: int, wo: int) -> bool:
        """Can every mandatory piece be placed?"""
        if not m and not wm:
            return True
        key = (a, m, wm, wo)
        known = self._feasible.get(key)
        if known is not None:
            return known
        wilds = wm + wo
        result = False
        branches = self._choose(a, m, wilds)
        if branches:
            guards, low = self.layout.guards, self.layout.low
            mg = m | guards
            first: list[tuple[int, int, int]] = []
            later: list[tuple[int, int, int]] = []
            for g, w in branches:
                d = mg - g
                ok = d & guards
                # groups that use optional pieces are tried after those that do not
                (first if ok == guards else later).append(
                    (g, w, d & ((ok >> (self.layout.width - 1)) * low)))
            for g, w, m2 in first + later:
                self._step()
                um = w if w <= wm else wm
                if self.feasible(a - g, m2, wm - um, wo - w + um):
                    result = True
                    break
        self._feasible[key] = result
        return result

    def reach(self, a: int, m: int, wm: int, wo: int) -> int:
        """``-1`` if the mandatory pieces cannot all be placed; otherwise the
        guard bits of the slots of which some split uses optional pieces (more
        than the mandatory count), plus :func:`wild_bit` if some split uses an
        optional wild piece."""
        if not m and not wm:
            return self._free_reach(a, wo)
        key = (a, m, wm, wo)
        known = self._reach.get(key)
        if known is not None:
            return known
        lay = self.layout
        guards, low, width = lay.guards, lay.low, lay.width
        wilds = wm + wo
        found = -1
        branches = self._choose(a, m, wilds)
        if branches:
            o = a - m
            full = ((o | guards) - lay.ones) & guards
            if wo:
                full |= self.wild
            mg = m | guards
            for g, w in branches:
                self._step()
                d = mg - g
                ok = d & guards
                m2 = d & ((ok >> (width - 1)) * low)
                um = w if w <= wm else wm
                sub = self.reach(a - g, m2, wm - um, wo - w + um)
                if sub < 0:
                    continue
                sub |= guards & ~ok
                if w > um:
                    sub |= self.wild
                found = sub if found < 0 else found | sub
                if found & full == full:
                    break
        self._reach[key] = found
        return found

    def _free_reach(self, a: int, wo: int) -> int:
        """With nothing mandatory left: the slots (and wild pieces) that some
        single group of the optional pieces uses."""
        key = (a, wo)
        known = self._free.get(key)
        if known is not None:
            return known
        lay = self.layout
        guards, width = lay.guards, lay.width
        by_slot, plain = self.t.by_slot, self.t.plain
        ag = a | guards
        present = ((a | guards) - lay.ones) & guards
        found = 0
        for s in lay.slots_of(present):
            pool = by_slot[s]
            limit = len(pool) if wo else plain[s]
            for i in range(limit):
                g, w = pool[i]
                if w > wo:
                    break
                if (ag - g) & guards == guards:
                    found |= 1 << (s * width + width - 1)
                    break
        if wo:
            for g, w in self.t.with_wild:
                if w > wo:
                    break
                if (ag - g) & guards == guards:
                    found |= self.wild
                    break
        self._free[key] = found
        return found
