"""Declarative patterns over groups of pieces, evaluated by one generic engine.

A pattern is a conjunction of constraints (``size 3..4, same rank``) or a
union of named patterns (``set or run``). The operations are:

* :meth:`Pattern.matches` — does a group match?
* :meth:`Pattern.best` — the largest sub-group of a collection that matches.

Candidates are generated from the pattern's structure: pieces failing an
``each`` constraint are dropped first, and a ``same X`` constraint splits the
collection by X before any combination is tried, so only groups that can
match are enumerated. Searches are bounded by :data:`SEARCH_BUDGET`.
"""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING, Any, Callable, Final, Sequence

from rulepack.patterns.budget import Budget, PatternBudgetError
from rulepack.patterns.partition import (Index, Indexes, can_partition, find_partition,
                                        usable_pieces)

if TYPE_CHECKING:  # pragma: no cover
    from rulepack.patterns.subjects import Piece, Position

#: A condition on one piece, ``f(position, piece)`` (``each`` and ``wild``
#: constraints): called with the position and a piece the search was given, as
#: the engine has them
Predicate = Callable[[Any, Any], bool]

#: Most candidate groups one ``best`` search may examine before it is an error.
SEARCH_BUDGET = 200_000

#: Most results a pattern remembers (per operation) before it forgets them all.
CACHE_LIMIT = 50_000

#: Pattern._direct: the search best() uses: the generic one, or the direct search
#: of a pattern of one ``same``, ``distinct`` or ``consecutive`` constraint
_GENERIC: Final = 0
_SAME: Final = 1
_DISTINCT: Final = 2
_CONSECUTIVE: Final = 3

#: what _values finds for a piece it has not seen
_UNKNOWN: Final = object()

#: Most pieces the direct searches count without a dict or set (pairwise: the
#: collections a player holds are small, and a dict costs more than a few compares)
SMALL: Final = 8


class Pattern:
    """A compiled pattern.

    :param name: the ruleset's name for it.
    :param size: inclusive (min, max) group size.
    :param same: attributes all members share.
    :param distinct: (attribute, number of its values): members differ in it.
    :param consecutive: (attribute, its order): members' values are distinct and
        unbroken in that order.
    :param covers: (attribute, all its values): every value appears.
    :param each: predicates every (non-wild) member must satisfy, ``f(state, piece)``.
    :param wild: predicate telling a wild piece, which stands for any piece.
    :param alternatives: for a union pattern, the patterns it is the union of.
    """

    def __init__(self, name: str, size: tuple[int, int] = (1, 1_000_000),
                 same: list[str] | None = None,
                 distinct: list[tuple[str, int]] | None = None,
                 consecutive: list[tuple[str, dict[Any, int]]] | None = None,
                 covers: list[tuple[str, list[Any]]] | None = None,
                 each: list[Predicate] | None = None,
                 wild: Predicate | None = None,
                 alternatives: list["Pattern"] | None = None) -> None:
        self.name = name
        self.size = size
        self.same = same or []
        self.distinct = distinct or []
        self.consecutive = consecutive or []
        self.covers = covers or []
        self.each = each or []
        self.wild = wild
        self.alternatives = alternatives
        if alternatives is not None:
            self.size = (min(a.size[0] for a in alternatives), max(a.size[1] for a in alternatives))
        #: at most one piece of a kind-and-attributes type fits in a group
        self.one_per_type = bool(self.distinct or self.consecutive)
        # Results depend only on the pieces' fixed attributes unless an ``each``
        # or ``wild`` condition reads the state (a piece's face, say).
        self.pure: bool = all(getattr(f, "fixed", False) for f in self.each) and \
            (self.wild is None or getattr(self.wild, "fixed", False)) and \
            all(a.pure for a in (alternatives or []))
        self._match_cache: dict[tuple[int, ...], bool] = {}
        # the direct search of best() (_GENERIC: none), and what it needs
        self._attr = ""
        self._lo, self._hi = self.size
        self._order: dict[Any, int] = {}
        self._span: _SpanTable | None = None
        self._known: dict[Any, Any] = {}     # piece -> its value of _attr (_values)
        self._direct = self._shape() if alternatives is None else _GENERIC
        # per game instance: the partition index (see rulepack.patterns.partition)
        #: its indexes for the partition searches, one per program (if pure)
        self.indexes = Indexes()

    def matches(self, st: "Position", group: Sequence[Piece]) -> bool:
        """True if the whole group matches the pattern."""
        lo, hi = self.size
        if not lo <= len(group) <= hi:     # before any key or search: the common no
            return False
        if self.pure:
            key = tuple(p.id for p in group)
            hit = self._match_cache.get(key)
            if hit is None:
                hit = self._matches(st, group)
                if len(self._match_cache) >= CACHE_LIMIT:
                    self._match_cache.clear()
                self._match_cache[key] = hit
            return hit
        return self._matches(st, group)

    def _matches(self, st: "Position", group: Sequence[Piece]) -> bool:
        if self.alternatives is not None:
            return any(p.matches(st, group) for p in self.alternatives)
        lo, hi = self.size
        size = len(group)
        if not lo <= size <= hi:
            return False
        if self.wild is not None:
            plain = [p for p in group if not self.wild(st, p)]
        else:
            plain = list(group)
        wilds = size - len(plain)
        for f in self.each:
            for piece in plain:
                if not f(st, piece):
                    return False
        for attr in self.same:
            if plain:
                first = plain[0].attrs.get(attr)
                for p in plain:
                    if p.attrs.get(attr) != first:
                        return False
        for attr, n_values in self.distinct:
            values = [p.attrs.get(attr) for p in plain]
            if len(set(values)) != len(values):
                return False
            if wilds and size > n_values:
                return False
        for attr, order in self.consecutive:
            try:
                positions = sorted(order[p.attrs.get(attr)] for p in plain)
            except KeyError:
                return False
            for a, b in zip(positions, positions[1:]):
                if b == a:
                    return False
            if positions:
                gaps = positions[-1] - positions[0] + 1 - len(positions)
                if gaps > wilds:
                    return False
            if size > len(order):
                return False
        for attr, domain in self.covers:
            missing = len(set(domain) - {p.attrs.get(attr) for p in plain})
            if missing > wilds:
                return False
        return True

    def best(self, st: "Position", pieces: Sequence[Piece]) -> list[Piece]:
        """The largest sub-group of ``pieces`` that matches, or ``[]``.

        Among groups of the same size the first in the collection's order wins
        (the first in :func:`itertools.combinations` order).

        :raises PatternBudgetError: the search needed more than SEARCH_BUDGET groups.
        """
        if self.alternatives is not None:
            # the largest; among equals the first alternative's
            return max((p.best(st, pieces) for p in self.alternatives), key=len, default=[])
        direct = self._direct
        if direct == _GENERIC:
            return self._search(st, self._candidates(st, pieces))
        # the direct searches neither change nor keep the list they are given
        if self.each:
            group = self._candidates(st, pieces)
        elif isinstance(pieces, list):
            group = pieces
        else:
            group = list(pieces)
        if direct == _SAME:
            return _best_same(self._known, self._attr, self._lo, self._hi, group)
        if direct == _DISTINCT:
            return _best_distinct(self._known, self._attr, self._lo, self._hi, group)
        span = self._span
        if span is not None:
            return span(group)
        return _best_consecutive(self._attr, self._order, self._lo, self._hi, group)

    def _best(self, st: "Position", pieces: Sequence[Piece]) -> list[Piece]:
        """:meth:`best` by the generic search alone (what the direct searches must equal)."""
        if self.alternatives is not None:
            return max((p._best(st, pieces) for p in self.alternatives), key=len, default=[])
        return self._search(st, self._candidates(st, pieces))

    def _candidates(self, st: "Position", pieces: Sequence[Piece]) -> list[Piece]:
        """The pieces that may be members: wild ones and those passing every ``each``."""
        if not self.each:
            return list(pieces)
        return [x for x in pieces if (self.wild is not None and self.wild(st, x))
                or all(f(st, x) for f in self.each)]

    def _search(self, st: "Position", candidates: list[Piece]) -> list[Piece]:
        """The generic search: every combination, largest first, within the budget
        (SEARCH_BUDGET combinations, and what the decision has left of its steps,
        ``st.steps_left``: each combination examined is one)."""
        left: int | None = getattr(st, "steps_left", None)
        if left is None:            # (no state: a pattern asked on its own)
            return self._combinations(st, candidates, None)
        decision = Budget(left, f"pattern {self.name!r}")
        try:
            return self._combinations(st, candidates, decision)
        finally:
            st.steps_left = decision.left

    def _combinations(self, st: "Position", candidates: list[Piece],
                      decision: Budget | None) -> list[Piece]:
        if self.same and self.wild is None:
            attr = self.same[0]
            buckets: dict[Any, list[Piece]] = {}
            for x in candidates:
                buckets.setdefault(x.attrs.get(attr), []).append(x)
            groups = list(buckets.values())
        else:
            groups = [candidates]
        lo, hi = self.size
        budget = SEARCH_BUDGET
        best_group: list[Piece] = []
        for size in range(min(hi, len(candidates)), lo - 1, -1):
            if size <= len(best_group) or size == 0:
                break
            for group in groups:
                if len(group) < size:
                    continue
                for combo in combinations(group, size):
                    budget -= 1
                    if budget < 0:
                        raise PatternBudgetError(
                            f"pattern {self.name!r} examined more than {SEARCH_BUDGET} groups")
                    if decision is not None:
                        decision.spend(1)
                    if self._matches(st, combo):
                        best_group = list(combo)
                        break
                if best_group:
                    break
        return best_group

    def _shape(self) -> int:
        """The direct search of :meth:`best` for a pattern of one constraint (``same
        X``, ``distinct X`` or ``consecutive X``, with a size, no wild), which finds
        what the generic search finds without trying combinations (its fields set);
        :data:`_GENERIC` for other patterns."""
        if self.wild is not None or self.covers:
            return _GENERIC
        kinds = len(self.same) + len(self.distinct) + len(self.consecutive)
        if kinds != 1:
            return _GENERIC
        if self.same:
            self._attr = self.same[0]
            return _SAME
        if self.distinct:
            self._attr = self.distinct[0][0]
            return _DISTINCT
        self._attr, self._order = self.consecutive[0]
        self._hi = min(self._hi, len(self._order))
        if max(self._order.values(), default=-1) < SPAN_TABLE_LIMIT:
            self._span = _SpanTable(self._attr, self._order, self._lo, self._hi)
        return _CONSECUTIVE

    def partition(self, st: "Position", mandatory: Sequence[Piece],
                  optional: Sequence[Piece] = ()) -> list[list[Piece]] | None:
        """Groups matching this pattern using every mandatory piece and any optional
        ones, or ``None`` (see :mod:`rulepack.patterns.partition`)."""
        return find_partition(st, self, mandatory, optional)

    def partitionable(self, st: "Position", mandatory: Sequence[Piece],
                      optional: Sequence[Piece] = ()) -> bool:
        """Is there such a partition? (See :func:`~rulepack.patterns.partition.can_partition`.)"""
        return can_partition(st, self, mandatory, optional)

    def usable(self, st: "Position", mandatory: Sequence[Piece],
               optional: Sequence[Piece]) -> list[Piece]:
        """The optional pieces that can be made mandatory and still leave a partition
        (see :func:`~rulepack.patterns.partition.usable_pieces`)."""
        return usable_pieces(st, self, mandatory, optional)


def _values(known: dict[Any, Any], attr: str, pieces: list[Piece],
            order: dict[Any, int] | None = None) -> list[Any]:
    """Each piece's value of ``attr`` (``None`` where it has none), or with an
    ``order``, the value's place in it (-1 outside). ``known``: what was found
    before, by piece (a piece's attributes never change; looking one up by the
    piece costs a third of reading it from the piece, compiled)."""
    values: list[Any] = []
    for x in pieces:
        try:
            v = known.get(x, _UNKNOWN)
        except TypeError:       # a list among the pieces: its .attrs fails below, as ever
            v = _UNKNOWN
        if v is _UNKNOWN:
            attrs: dict[str, Any] = x.attrs
            v = attrs.get(attr)
            if order is not None:
                v = order.get(v, -1)
            if len(known) >= CACHE_LIMIT:
                known.clear()
            known[x] = v        # (x has .attrs: a piece, hashable)
        values.append(v)
    return values


def _best_same(known: dict[Any, Any], attr: str, lo: int, hi: int,
               pieces: list[Piece]) -> list[Piece]:
    """``same attr``: the first group of equal values (in order of first appearance)
    with the most members, up to ``hi``; the first members of it (``known``: see
    :func:`_values`)."""
    n = len(pieces)
    if n == 0 or n < lo:
        return []
    values = _values(known, attr, pieces)
    if n > SMALL:
        return _best_same_counted(values, lo, hi, pieces)
    # pairwise: how many times each value appears (at its first appearance)
    most = 0
    for i in range(n):
        v = values[i]
        c = 1
        repeat = False
        for j in range(n):
            w = values[j]
            if j != i and (w is v or w == v):
                if j < i:
                    repeat = True
                    break
                c += 1
        if not repeat and c > most:
            most = c
    size = min(hi, most)
    if size < lo or size <= 0:
        return []
    # the first value to appear that many times, and its first members
    for i in range(n):
        v = values[i]
        out: list[Piece] = []
        repeat = False
        for k in range(n):
            w = values[k]
            if w is v or w == v:
                if k < i:
                    repeat = True
                    break
                out.append(pieces[k])
                if len(out) == size:
                    break
        if not repeat and len(out) == size:
            return out
    return []      # pragma: no cover - the largest group is among the values


def _best_same_counted(values: list[Any], lo: int, hi: int, pieces: list[Piece]) -> list[Piece]:
    """:func:`_best_same` of many pieces (``values``: theirs), counted by dict."""
    counts: dict[Any, int] = {}          # in order of first appearance
    for v in values:
        counts[v] = counts.get(v, 0) + 1
    size = min(hi, max(counts.values()))
    if size < lo or size <= 0:
        return []
    for v, c in counts.items():
        if c >= size:
            out: list[Piece] = []
            for i in range(len(values)):
                if values[i] == v:
                    out.append(pieces[i])
                    if len(out) == size:
                        break
            return out
    return []      # pragma: no cover - the largest group is among the values


def _best_distinct(known: dict[Any, Any], attr: str, lo: int, hi: int,
                   pieces: list[Piece]) -> list[Piece]:
    """``distinct attr``: as many pieces as there are different values (up to ``hi``),
    the first such combination: each member the earliest piece that still leaves
    enough new values after it (``known``: see :func:`_values`)."""
    values = _values(known, attr, pieces)
    n = len(values)
    size = min(hi, _different(values, 0, []))
    if size < max(lo, 1):
        return []
    chosen: list[Piece] = []
    used: list[Any] = []
    start = 0
    for k in range(size):
        need = size - k - 1
        for i in range(start, n):
            v = values[i]
            if v in used:
                continue
            used.append(v)
            if need == 0 or _different(values, i + 1, used) >= need:
                chosen.append(pieces[i])
                start = i + 1
                break
            used.pop()
    return chosen


def _different(values: list[Any], start: int, used: list[Any]) -> int:
    """How many different values ``values[start:]`` holds that are not in ``used``."""
    if len(values) - start > SMALL:
        return len(set(values[start:]) - set(used))
    seen: list[Any] = []
    for k in range(start, len(values)):
        v = values[k]
        if v not in seen and v not in used:
            seen.append(v)
    return len(seen)


def _best_consecutive(attr: str, order: dict[Any, int], lo: int, hi: int,
                      pieces: Sequence[Piece]) -> list[Piece]:
    """``consecutive attr``: the longest unbroken span of values present (up to
    ``hi``), one piece per value; among spans of that length, the combination
    first in collection order (each value's earliest piece, in collection order)."""
    get = order.get
    positions = [get(x.attrs.get(attr), -1) for x in pieces]
    present = sorted(set(positions))
    if present and present[0] == -1:
        del present[0]                  # values outside the order join no span
    if len(present) < lo:
        return []
    longest = run = 1 if present else 0
    for a, b in zip(present, present[1:]):
        run = run + 1 if b == a + 1 else 1
        if run > longest:
            longest = run
    size = min(hi, longest)
    if size < max(lo, 1):
        return []
    index = positions.index                 # each value's earliest piece
    have = set(present)
    best: list[int] | None = None
    for a in present:
        if all(a + j in have for j in range(size)):
            combo = sorted(index(a + j) for j in range(size))
            if best is None or combo < best:
                best = combo
    assert best is not None
    return [pieces[i] for i in best]


#: Longest order a consecutive search tabulates (2**n entries, built on first use).
SPAN_TABLE_LIMIT = 12


class _SpanTable:
    """:func:`_best_consecutive` by table: the values present are a bit mask over
    the order, and the spans a mask allows (the longest unbroken ones, cut to
    ``hi``) are listed once per mask, on first use. Same results, found without
    sorting or scanning; for orders of at most :data:`SPAN_TABLE_LIMIT` values."""

    __slots__ = ("attr", "order", "lo", "hi", "table", "width", "known")

    def __init__(self, attr: str, order: dict[Any, int], lo: int, hi: int) -> None:
        self.attr, self.order, self.lo, self.hi = attr, order, lo, hi
        self.table: list[tuple[tuple[int, ...], ...] | None] | None = None
        self.width = max(self.order.values(), default=-1) + 1
        self.known: dict[Any, Any] = {}     # piece -> its value's place (_values)

    def _build(self) -> list[tuple[tuple[int, ...], ...] | None]:
        width = self.width
        table: list[tuple[tuple[int, ...], ...] | None] = []
        for mask in range(1 << width):
            longest = run = 0
            for i in range(width):
                run = run + 1 if mask >> i & 1 else 0
                longest = max(longest, run)
            size = min(self.hi, longest)
            if size < max(self.lo, 1):
                table.append(None)
                continue
            table.append(tuple(tuple(range(a, a + size)) for a in range(width - size + 1)
                               if all(mask >> (a + j) & 1 for j in range(size))))
        return table

    def __call__(self, pieces: list[Piece]) -> list[Piece]:
        table = self.table
        if table is None:
            table = self.table = self._build()
        places = _values(self.known, self.attr, pieces, self.order)
        earliest = [0] * self.width                 # each value's earliest piece
        mask = 0
        for i in range(len(places)):
            p: int = places[i]
            if p >= 0 and not mask >> p & 1:
                mask |= 1 << p
                earliest[p] = i
        spans = table[mask]
        if spans is None:
            return []
        if len(spans) == 1:
            chosen = sorted([earliest[p] for p in spans[0]])
        else:
            chosen = min(sorted([earliest[p] for p in span]) for span in spans)
        return [pieces[i] for i in chosen]
