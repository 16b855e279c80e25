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
from typing import TYPE_CHECKING, Any, Callable, Sequence

from rulepack.interpreter.values import Piece

if TYPE_CHECKING:  # pragma: no cover
    from rulepack.interpreter.state import State

#: Most candidate groups one ``best`` search may examine before it is an error.
SEARCH_BUDGET = 200_000

#: Most results a pattern remembers (per operation) before it forgets them all.
CACHE_LIMIT = 50_000


class PatternBudgetError(Exception):
    """A pattern search examined more than :data:`SEARCH_BUDGET` groups."""


Check = Callable[["State", Sequence[Piece]], bool]


class Pattern:
    """A compiled pattern.

    :param name: the ruleset's name for it.
    :param size: inclusive (min, max) group size.
    :param checks: predicates over a whole group.
    :param same: attributes all members share (used to split the search).
    :param each: predicates each member must satisfy, as ``f(state, piece)``.
    :param alternatives: for a union pattern, the patterns it is the union of.
    """

    def __init__(self, name: str, size: tuple[int, int] = (1, 1_000_000),
                 checks: list[Check] | None = None, same: list[str] | None = None,
                 each: list[Callable[["State", Piece], bool]] | None = None,
                 alternatives: list["Pattern"] | None = None) -> None:
        self.name = name
        self.size = size
        self.checks = checks or []
        self.same = same or []
        self.each = each or []
        self.alternatives = alternatives
        # Results depend only on the pieces' fixed attributes unless an ``each``
        # constraint reads the state (a piece's face, say); then nothing is cached.
        self.pure = not self.each and all(a.pure for a in (alternatives or []))
        self._best_cache: dict[tuple[int, ...], list[Piece]] = {}
        self._match_cache: dict[tuple[int, ...], bool] = {}

    def matches(self, st: "State", group: Sequence[Piece]) -> bool:
        """True if the whole group matches the pattern."""
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

    def _matches(self, st: "State", group: Sequence[Piece]) -> bool:
        if self.alternatives is not None:
            return any(p.matches(st, group) for p in self.alternatives)
        lo, hi = self.size
        if not lo <= len(group) <= hi:
            return False
        for f in self.each:
            for piece in group:
                if not f(st, piece):
                    return False
        for check in self.checks:
            if not check(st, group):
                return False
        return True

    def best(self, st: "State", pieces: Sequence[Piece]) -> list[Piece]:
        """The largest sub-group of ``pieces`` that matches, or ``[]``.

        Among groups of the same size the first in the collection's order wins.

        :raises PatternBudgetError: the search needed more than SEARCH_BUDGET groups.
        """
        if self.pure:
            key = tuple(p.id for p in pieces)
            hit = self._best_cache.get(key)
            if hit is None:
                hit = self._best(st, pieces)
                if len(self._best_cache) >= CACHE_LIMIT:
                    self._best_cache.clear()
                self._best_cache[key] = hit
            return list(hit)
        return self._best(st, pieces)

    def _best(self, st: "State", pieces: Sequence[Piece]) -> list[Piece]:
        if self.alternatives is not None:
            found: list[Piece] = []
            for p in self.alternatives:
                g = p.best(st, pieces)
                if len(g) > len(found):
                    found = g
            return found
        candidates = [x for x in pieces if all(f(st, x) for f in self.each)]
        if self.same:
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
                    if self._matches(st, combo):
                        best_group = list(combo)
                        break
                if best_group:
                    break
        return best_group


def same_check(attr: str) -> Check:
    def check(st: "State", group: Sequence[Piece]) -> bool:
        first = group[0].attrs.get(attr) if group else None
        return all(p.attrs.get(attr) == first for p in group)
    return check


def distinct_check(attr: str) -> Check:
    def check(st: "State", group: Sequence[Piece]) -> bool:
        values = [p.attrs.get(attr) for p in group]
        return len(set(values)) == len(values)
    return check


def consecutive_check(attr: str, order: dict[Any, int]) -> Check:
    """Distinct values whose positions in ``order`` form an unbroken range."""
    def check(st: "State", group: Sequence[Piece]) -> bool:
        try:
            positions = sorted(order[p.attrs.get(attr)] for p in group)
        except KeyError:
            return False
        for a, b in zip(positions, positions[1:]):
            if b != a + 1:
                return False
        return True
    return check


def covers_check(attr: str, domain: list[Any]) -> Check:
    """Every value of the attribute's domain appears in the group."""
    needed = set(domain)

    def check(st: "State", group: Sequence[Piece]) -> bool:
        return needed <= {p.attrs.get(attr) for p in group}
    return check
