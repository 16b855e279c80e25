"""The exact search behind partitions, on packed count vectors.

The question: given how many pieces of each *type* must be placed (mandatory)
and how many more may be (optional), plus wild pieces of both sorts, can they
be split into groups from a fixed list of *templates* (a template: so many
pieces of each type, and so many wild pieces)? And, for the batched question,
which optional types (and are optional wild pieces) used by at least one split?
Nothing here knows pieces or patterns: :mod:`rulepack.patterns.partition`
turns a pattern into templates and pieces into counts.

How it stays fast and exact:

* A count vector is packed into integers: type ``s`` (its *slot*) owns
  ``width`` bits, the top one a guard. Whether a template fits the pieces left
  is one subtraction (no guard bit may be borrowed), and taking it is another;
  the mandatory counts drop with a saturating subtraction done the same way.
  The slots are split between two integers (*limbs*) of at most
  :data:`LIMB_BITS` bits each, so that the compiled search (mypyc) keeps them
  as machine words: one integer of 24 slots of 3 bits would be a heap-allocated
  big integer, and every operation on it an allocation. Fields never borrow
  from one another, so the two limbs are worked on side by side.
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
* Each template tried is also a step of the decision's budget, which every
  search of one decision shares, and each template checked for whether it fits
  a check (:class:`~rulepack.patterns.budget.Budget`).
"""

from __future__ import annotations

from typing import Callable, Sequence

from rulepack.patterns.budget import Budget

#: Most bits of one limb: below mypyc's 62-bit short integers, a guard bit
#: (a wild piece's bit in :meth:`CoverSearch.reach`) included.
LIMB_BITS = 60

#: One template as the search sees it: (packed counts of limb 0, of limb 1, wild pieces).
Packed = tuple[int, int, int]

#: A position of the search: (pieces left in limb 0, in limb 1, mandatory pieces
#: left in limb 0, in limb 1, mandatory wild pieces left, optional wild pieces left).
Position = tuple[int, int, int, int, int, int]


class Layout:
    """Fields of ``width`` bits, one per slot, the top bit of each a guard.

    The whole vector can be one integer (:meth:`pack`, :attr:`guards`...: few
    slots, as :mod:`rulepack.patterns.sweep` uses it) or two limbs: slots
    ``0 .. split-1`` in limb 0 and the others in limb 1, each from bit 0
    (:meth:`pack2`, :attr:`guards0`, :attr:`guards1`...).

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
        #: the slots in limb 0 (the others are in limb 1)
        self.split = min(slots, max(1, LIMB_BITS // self.width))
        bits0 = self.split * self.width
        #: the lowest bit of every field of limb 0, of limb 1
        self.ones0 = ones & ((1 << bits0) - 1)
        self.ones1 = ones >> bits0
        #: the guard bits of limb 0, of limb 1
        self.guards0 = self.ones0 << (self.width - 1)
        self.guards1 = self.ones1 << (self.width - 1)
        #: the bit of limb 1 just above its fields
        self.top1 = 1 << ((slots - self.split) * self.width)

    def pack(self, counts_by_slot: Sequence[int]) -> int:
        """One integer for a list of counts, one per slot (each ≤ max_count)."""
        x = 0
        for s, c in enumerate(counts_by_slot):
            if c:
                x |= c << (s * self.width)
        return x

    def unpack(self, x: int) -> list[int]:
        return [(x >> (s * self.width)) & self.low for s in range(self.slots)]

    def pack2(self, counts_by_slot: Sequence[int]) -> tuple[int, int]:
        """The two limbs of a list of counts, one per slot (each ≤ max_count)."""
        x = self.pack(counts_by_slot)
        bits0 = self.split * self.width
        return x & ((1 << bits0) - 1), x >> bits0

    def slot_of(self, limb: int, bit: int) -> int:
        """The slot whose field holds bit ``bit`` of limb ``limb`` (0 or 1)."""
        return bit // self.width + (self.split if limb else 0)

    def slots_of(self, bits0: int, bits1: int) -> list[int]:
        """The slots whose guard bit is set in the limbs ``bits0``, ``bits1``."""
        out = []
        for limb, bits in ((0, bits0), (1, bits1)):
            while bits:
                low = bits & -bits
                out.append(self.slot_of(limb, low.bit_length() - 1))
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
        by_slot: list[list[tuple[int, int, int, int]]] = [[] for _ in range(n)]
        wild: list[tuple[int, int, int, int]] = []
        for counts, w in entries:
            g0, g1 = layout.pack2(counts)
            size = sum(counts) + w
            if w:
                wild.append((w, -size, g0, g1))
            for s, c in enumerate(counts):
                if c:
                    by_slot[s].append((w, -size, g0, g1))
        # for each slot: groups without wild pieces first, then by wild pieces;
        # larger groups first (they place more of what must be placed)
        for pool in by_slot:
            pool.sort(key=lambda e: (e[0], e[1]))
        wild.sort(key=lambda e: (e[0], e[1]))
        #: per slot, its templates as (limb 0, limb 1, wilds)
        self.by_slot: list[list[Packed]] = [[(g0, g1, w) for w, _, g0, g1 in pool]
                                            for pool in by_slot]
        #: per slot, how many of its templates have no wild piece (they come first)
        self.plain: list[int] = [sum(1 for e in pool if not e[0]) for pool in by_slot]
        #: every template with a wild piece
        self.with_wild: list[Packed] = [(g0, g1, w) for w, _, g0, g1 in wild]


#: The bit of limb 1 of a :meth:`CoverSearch.reach` answer that says optional
#: wild pieces are used.
def wild_bit(layout: Layout) -> int:
    return layout.top1


class CoverSearch:
    """One question (or a batch of related ones) and its memo.

    A position is ``(a0, a1, m0, m1, wm, wo)`` (:data:`Position`): ``a0``,
    ``a1`` the limbs of the packed counts of the pieces left (mandatory and
    optional), ``m0``, ``m1`` those of the mandatory ones left (``m ≤ a``
    slot by slot), ``wm``/``wo`` the mandatory/optional wild pieces left.

    :param templates: the groups pieces may form.
    :param budget: most templates tried in all.
    :param over_budget: makes the exception raised when the budget runs out.
    :param charge: the decision's budget, spent by every template examined
        (none: no limit but ``budget``).
    """

    def __init__(self, templates: Templates, budget: int,
                 over_budget: Callable[[], Exception], charge: Budget | None = None) -> None:
        self.t = templates
        self.layout = templates.layout
        self.budget = budget
        self.over_budget = over_budget
        self.charge = Budget(1 << 62, "the search") if charge is None else charge
        self.steps = 0
        self._feasible: dict[Position, bool] = {}
        self._reach: dict[Position, tuple[int, int]] = {}
        self._free: dict[tuple[int, int, int], tuple[int, int]] = {}
        self.wild = wild_bit(self.layout)

    # ------------------------------------------------------------------ helpers
    def _step(self) -> None:
        self.steps += 1
        if self.steps > self.budget:
            raise self.over_budget()
        self.charge.spend(1)

    def _choose(self, a0: int, a1: int, m0: int, m1: int, wilds: int) -> list[Packed]:
        """The fitting templates of the slot with a mandatory piece left that
        fits the fewest (the lowest such slot); with no mandatory typed piece
        left, the fitting templates with a wild piece. ``[]``: stuck."""
        lay = self.layout
        width, low, split = lay.width, lay.low, lay.split
        G0, G1 = lay.guards0, lay.guards1
        by_slot, plain = self.t.by_slot, self.t.plain
        ag0 = a0 | G0
        ag1 = a1 | G1
        if not m0 and not m1:
            self.charge.check(len(self.t.with_wild))
            return [e for e in self.t.with_wild
                    if e[2] <= wilds and (ag0 - e[0]) & G0 == G0 and (ag1 - e[1]) & G1 == G1]
        best: list[Packed] = []
        fewest = 1 << 30
        examined = 0
        # the slots with a mandatory piece left, limb 0's first (slot order)
        m = m0
        base = 0
        while True:
            if not m:
                if base:
                    break
                m = m1
                base = split
                if not m:
                    break
            bit = m & -m
            f = (bit.bit_length() - 1) // width
            m &= ~(low << (f * width))
            s = base + f
            pool = by_slot[s]
            fits = []
            for i in range(len(pool) if wilds else plain[s]):
                e = pool[i]
                g0, g1, w = e
                examined += 1
                if w > wilds:
                    break
                if (ag0 - g0) & G0 == G0 and (ag1 - g1) & G1 == G1:
                    fits.append(e)
                    if len(fits) >= fewest:
                        break
            if len(fits) < fewest:
                best, fewest = fits, len(fits)
                if fewest <= 1:
                    break
        self.charge.check(examined)
        return best

    # ------------------------------------------------------------------ questions
    def feasible(self, a0: int, a1: int, m0: int, m1: int, wm: int, wo: int) -> bool:
        """Can every mandatory piece be placed?"""
        if not m0 and not m1 and not wm:
            return True
        key = (a0, a1, m0, m1, wm, wo)
        known = self._feasible.get(key)
        if known is not None:
            return known
        wilds = wm + wo
        result = False
        branches = self._choose(a0, a1, m0, m1, wilds)
        if branches:
            lay = self.layout
            G0, G1, low, up = lay.guards0, lay.guards1, lay.low, lay.width - 1
            mg0 = m0 | G0
            mg1 = m1 | G1
            first: list[tuple[int, int, int, int, int]] = []
            later: list[tuple[int, int, int, int, int]] = []
            for g0, g1, w in branches:
                d0 = mg0 - g0
                d1 = mg1 - g1
                ok0 = d0 & G0
                ok1 = d1 & G1
                # groups that use optional pieces are tried after those that do not
                (first if ok0 == G0 and ok1 == G1 else later).append(
                    (g0, g1, w, d0 & ((ok0 >> up) * low), d1 & ((ok1 >> up) * low)))
            for g0, g1, w, n0, n1 in first + later:
                self._step()
                um = w if w <= wm else wm
                if self.feasible(a0 - g0, a1 - g1, n0, n1, wm - um, wo - w + um):
                    result = True
                    break
        self._feasible[key] = result
        return result

    def reach(self, a0: int, a1: int, m0: int, m1: int, wm: int,
              wo: int) -> tuple[int, int]:
        """``(-1, 0)`` if the mandatory pieces cannot all be placed; otherwise
        the limbs of the guard bits of the slots of which some split uses
        optional pieces (more than the mandatory count), plus :func:`wild_bit`
        in limb 1 if some split uses an optional wild piece."""
        if not m0 and not m1 and not wm:
            return self._free_reach(a0, a1, wo)
        key = (a0, a1, m0, m1, wm, wo)
        known = self._reach.get(key)
        if known is not None:
            return known
        lay = self.layout
        G0, G1, low, up = lay.guards0, lay.guards1, lay.low, lay.width - 1
        wilds = wm + wo
        found0 = -1
        found1 = 0
        branches = self._choose(a0, a1, m0, m1, wilds)
        if branches:
            full0 = (((a0 - m0) | G0) - lay.ones0) & G0
            full1 = (((a1 - m1) | G1) - lay.ones1) & G1
            if wo:
                full1 |= self.wild
            mg0 = m0 | G0
            mg1 = m1 | G1
            for g0, g1, w in branches:
                self._step()
                d0 = mg0 - g0
                d1 = mg1 - g1
                ok0 = d0 & G0
                ok1 = d1 & G1
                um = w if w <= wm else wm
                sub0, sub1 = self.reach(a0 - g0, a1 - g1, d0 & ((ok0 >> up) * low),
                                        d1 & ((ok1 >> up) * low), wm - um, wo - w + um)
                if sub0 < 0:
                    continue
                sub0 |= G0 & ~ok0
                sub1 |= G1 & ~ok1
                if w > um:
                    sub1 |= self.wild
                if found0 < 0:
                    found0, found1 = sub0, sub1
                else:
                    found0 |= sub0
                    found1 |= sub1
                if found0 & full0 == full0 and found1 & full1 == full1:
                    break
        result = (found0, found1 if found0 >= 0 else 0)
        self._reach[key] = result
        return result

    def _free_reach(self, a0: int, a1: int, wo: int) -> tuple[int, int]:
        """With nothing mandatory left: the slots (and wild pieces) that some
        single group of the optional pieces uses."""
        key = (a0, a1, wo)
        known = self._free.get(key)
        if known is not None:
            return known
        lay = self.layout
        G0, G1, width, split = lay.guards0, lay.guards1, lay.width, lay.split
        by_slot, plain = self.t.by_slot, self.t.plain
        ag0 = a0 | G0
        ag1 = a1 | G1
        found0 = 0
        found1 = 0
        examined = 0
        for s in lay.slots_of((ag0 - lay.ones0) & G0, (ag1 - lay.ones1) & G1):
            pool = by_slot[s]
            limit = len(pool) if wo else plain[s]
            for i in range(limit):
                g0, g1, w = pool[i]
                examined += 1
                if w > wo:
                    break
                if (ag0 - g0) & G0 == G0 and (ag1 - g1) & G1 == G1:
                    if s < split:
                        found0 |= 1 << (s * width + width - 1)
                    else:
                        found1 |= 1 << ((s - split) * width + width - 1)
                    break
        if wo:
            for g0, g1, w in self.t.with_wild:
                examined += 1
                if w > wo:
                    break
                if (ag0 - g0) & G0 == G0 and (ag1 - g1) & G1 == G1:
                    found1 |= self.wild
                    break
        self.charge.check(examined)
        result = (found0, found1)
        self._free[key] = result
        return result
