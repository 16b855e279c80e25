"""Partitioning a multiset of pieces into groups that each match a pattern.

The question tile-grouping games ask of their table: can these pieces (all of
the *mandatory* ones, and any of the *optional* ones) be split into groups
that each match the pattern? :func:`find_partition` answers it exactly and returns
one arrangement.

The search works on *types* (pieces with the same kind and attributes are
interchangeable for a pure pattern), so identical copies never multiply the
work, and it is memoised on the pair of count vectors (mandatory, optional).
At each step it takes the lowest mandatory type that is left (the *pivot*): the
pivot must belong to some group, so only groups containing it are generated,
and only from the pattern's structure: a ``same X`` constraint limits the
candidates to the pivot's X bucket, and ``distinct``/``consecutive``
constraints allow at most one piece of each type. Mandatory copies of a type
are always used before optional ones (they are interchangeable, so this loses
nothing). Wild pieces (a pattern's ``wild`` condition) are counted, not typed.

The search is bounded by :data:`PARTITION_BUDGET` candidate groups.
"""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING, Any, Sequence

from rulepack.interpreter.patterns import PatternBudgetError
from rulepack.interpreter.values import Piece

if TYPE_CHECKING:  # pragma: no cover
    from rulepack.interpreter.patterns import Pattern
    from rulepack.interpreter.state import State

#: Most candidate groups one partition search may try.
PARTITION_BUDGET = 2_000_000


def type_key(piece: Piece) -> tuple[Any, ...]:
    """Pieces with equal keys are interchangeable for patterns."""
    return (piece.kind, tuple(sorted(piece.attrs.items(), key=lambda kv: kv[0])))


class _Problem:
    """One search: the types involved, their pieces, and the pattern's parts."""

    def __init__(self, st: "State", pattern: "Pattern", pieces: Sequence[Piece]) -> None:
        self.st = st
        alternatives = pattern.alternatives if pattern.alternatives is not None else [pattern]
        self.alternatives = alternatives
        wild_tests = [a.wild for a in alternatives if a.wild is not None]
        self.keys: list[tuple[Any, ...]] = []
        self.reps: list[Piece] = []
        index: dict[tuple[Any, ...], int] = {}
        self.is_wild: dict[int, bool] = {}
        for piece in pieces:
            if piece.id in self.is_wild:
                continue
            self.is_wild[piece.id] = bool(wild_tests) and any(w(st, piece) for w in wild_tests)
        self.type_of: dict[int, int] = {}
        for piece in sorted(pieces, key=lambda p: p.id):
            if self.is_wild[piece.id]:
                continue
            key = type_key(piece)
            t = index.get(key)
            if t is None:
                t = len(self.keys)
                index[key] = t
                self.keys.append(key)
                self.reps.append(piece)
            self.type_of[piece.id] = t
        self.budget = PARTITION_BUDGET
        self.match_cache: dict[tuple[int, tuple[int, ...], int], bool] = {}
        self.wild_rep: Piece | None = None
        # per alternative: for each type, the types it may share a group with
        self.buckets: list[list[list[int]]] = []
        for alt in alternatives:
            per_type = []
            for t, rep in enumerate(self.reps):
                if alt.same:
                    attr = alt.same[0]
                    per_type.append([u for u, r in enumerate(self.reps)
                                     if r.attrs.get(attr) == rep.attrs.get(attr)])
                else:
                    per_type.append(list(range(len(self.reps))))
            self.buckets.append(per_type)

    def matches(self, alt_index: int, types: tuple[int, ...], wilds: int) -> bool:
        """Does the group of these types (and wild pieces) match the alternative?"""
        key = (alt_index, types, wilds)
        hit = self.match_cache.get(key)
        if hit is None:
            group = [self.reps[t] for t in types]
            if wilds:
                assert self.wild_rep is not None
                group += [self.wild_rep] * wilds
            hit = self.alternatives[alt_index].matches(self.st, group)
            self.match_cache[key] = hit
        return hit


def find_partition(st: "State", pattern: "Pattern", mandatory: Sequence[Piece],
                   optional: Sequence[Piece] = ()) -> list[list[Piece]] | None:
    """Groups, each matching ``pattern``, that use every mandatory piece and
    any optional ones; ``None`` if there are none. ``[]`` for no mandatory piece.

    :raises PatternBudgetError: the search tried more than PARTITION_BUDGET groups.
    """
    mandatory = list(mandatory)
    optional = [p for p in optional if p not in mandatory]
    problem = _Problem(st, pattern, mandatory + optional)
    n = len(problem.reps)
    m = [0] * n
    o = [0] * n
    wild_m: list[Piece] = []
    wild_o: list[Piece] = []
    for p in mandatory:
        if problem.is_wild[p.id]:
            wild_m.append(p)
        else:
            m[problem.type_of[p.id]] += 1
    for p in optional:
        if problem.is_wild[p.id]:
            wild_o.append(p)
        else:
            o[problem.type_of[p.id]] += 1
    if wild_m or wild_o:
        problem.wild_rep = (wild_m + wild_o)[0]
    caps = []
    for alt in problem.alternatives:
        caps.append(1 if alt.one_per_type else None)
    memo: dict[tuple[tuple[int, ...], tuple[int, ...], int, int], Any] = {}

    wild_total = len(wild_m) + len(wild_o)
    total = [m[t] + o[t] for t in range(n)]

    # Every matching group containing a type, ignoring what is left: computed once,
    # then filtered by availability at each step of the search.
    templates: list[list[tuple[tuple[int, ...], int, tuple[tuple[int, int], ...]]]] = \
        [[] for _ in range(n)]
    # groups with at least one wild (a wild left to place may need optional pieces)
    with_wild: list[tuple[tuple[int, ...], int, tuple[tuple[int, int], ...]]] = []
    seen: set[tuple[tuple[int, ...], int]] = set()
    for alt_index, alt in enumerate(problem.alternatives):
        lo, hi = alt.size
        cap = caps[alt_index]
        for pivot in list(range(n)) + [None]:
            if pivot is None:
                if not wild_total:
                    continue
                bucket = list(range(n))
            else:
                bucket = problem.buckets[alt_index][pivot]
            groups = [()] if pivot is None else _groups(bucket, pivot, total, [0] * n, cap, hi)
            for types in groups:
                for w in range(0, min(wild_total, hi - len(types)) + 1):
                    size = len(types) + w
                    if size < lo or size == 0 or (types, w) in seen:
                        continue
                    problem.budget -= 1
                    if problem.budget < 0:
                        raise PatternBudgetError(
                            f"partition by {pattern.name!r} tried more than {PARTITION_BUDGET} "
                            "groups")
                    if not problem.matches(alt_index, types, w):
                        continue
                    seen.add((types, w))
                    need = tuple(sorted((t, types.count(t)) for t in set(types)))
                    entry = (types, w, need)
                    if w:
                        with_wild.append(entry)
                    for t in set(types):
                        templates[t].append(entry)

    def candidates(pivot: int | None, m: tuple[int, ...], o: tuple[int, ...],
                   wilds: int) -> list[tuple[tuple[int, ...], int]]:
        """Matching groups (types, wild count) that contain the pivot type (or, with
        no pivot, at least one wild) and fit in what is left."""
        pool = templates[pivot] if pivot is not None else with_wild
        out = []
        for types, w, need in pool:
            if w > wilds:
                continue
            for t, k in need:
                if m[t] + o[t] < k:
                    break
            else:
                out.append((types, w))
        return out

    def solve(m: tuple[int, ...], o: tuple[int, ...], wm: int, wo: int) -> Any:
        """A list of (types, wilds) groups, or None."""
        key = (m, o, wm, wo)
        if key in memo:
            return memo[key]
        memo[key] = None  # guards against cycles (none expected: every group uses pieces)
        pending = [t for t in range(n) if m[t] > 0]
        if not pending and wm == 0:
            memo[key] = []
            return []
        # the most constrained piece first: the one that fits the fewest groups
        best: list[tuple[tuple[int, ...], int]] | None = None
        for t in pending:
            options = candidates(t, m, o, wm + wo)
            if best is None or len(options) < len(best):
                best = options
                if len(best) <= 1:
                    break
        if best is None:
            best = candidates(None, m, o, wm + wo)
        if not best:
            return None
        # groups that use up more of what must be placed are tried first
        best.sort(key=lambda g: -sum(1 for t in set(g[0]) if m[t] > 0) - min(g[1], wm))
        result = None
        for types, w in best:
            m2, o2 = list(m), list(o)
            for t in types:
                if m2[t] > 0:
                    m2[t] -= 1
                else:
                    o2[t] -= 1
            use_m = min(w, wm)
            rest = solve(tuple(m2), tuple(o2), wm - use_m, wo - (w - use_m))
            if rest is not None:
                result = [(types, w)] + rest
                break
        memo[key] = result
        return result

    found = solve(tuple(m), tuple(o), len(wild_m), len(wild_o))
    if found is None:
        return None
    # turn types back into pieces: mandatory copies first, then optional ones
    pools: dict[int, list[Piece]] = {}
    for p in mandatory + optional:
        if not problem.is_wild[p.id]:
            pools.setdefault(problem.type_of[p.id], []).append(p)
    wild_pool = wild_m + wild_o
    groups: list[list[Piece]] = []
    for types, w in found:
        group = [pools[t].pop(0) for t in types]
        group += [wild_pool.pop(0) for _ in range(w)]
        groups.append(group)
    return groups


def _groups(bucket: list[int], pivot: int | None, m: Sequence[int], o: Sequence[int],
            cap: int | None, hi: int) -> Any:
    """Sub-multisets of ``bucket`` types (as sorted tuples) that contain the pivot,
    at most ``cap`` of a type (None: as many as available), at most ``hi`` in all."""
    others = [t for t in bucket if t != pivot]
    avail = {t: m[t] + o[t] for t in bucket}
    base: tuple[int, ...] = () if pivot is None else (pivot,)
    room = hi - len(base)
    if cap == 1:
        for k in range(0, min(room, len(others)) + 1):
            for combo in combinations(others, k):
                yield tuple(sorted(base + combo))
        return
    # general case: multiplicities
    extra_pivot = 0 if pivot is None else min(avail[pivot] - 1, room)

    def rec(i: int, left: int, chosen: list[int]) -> Any:
        if i == len(others):
            yield tuple(sorted(base + tuple(chosen)))
            return
        t = others[i]
        for k in range(0, min(avail[t], left) + 1):
            yield from rec(i + 1, left - k, chosen + [t] * k)
    for k in range(0, extra_pivot + 1):
        yield from rec(0, room - k, [pivot] * k if pivot is not None else [])
