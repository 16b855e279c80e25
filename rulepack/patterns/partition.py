"""Partitioning a multiset of pieces into groups that each match a pattern.

The question tile-grouping games ask of their table: can these pieces (all of
the *mandatory* ones, and any of the *optional* ones) be split into groups
that each match the pattern? :func:`find_partition` answers it exactly and
returns one arrangement.

How the search stays fast:

* It works on *types*: pieces with the same kind and attributes are
  interchangeable for a pure pattern, so identical copies never multiply the
  work. A piece that every alternative of the pattern calls wild is not typed
  but counted.
* Every matching group is known in advance: an :class:`Index`, built once per
  pattern and game instance, lists for each type the groups (``templates``)
  that contain it, generated from the pattern's structure (a ``same X``
  constraint limits a group to one X bucket; ``distinct``/``consecutive``
  allow one piece of a type). A search step only filters them by what is left.
* At each step the most constrained mandatory type (the one with the fewest
  fitting groups) is placed first, so a piece that fits nowhere ends a branch
  at once; mandatory copies are used before optional ones.
* Positions already solved or refuted are remembered, memoised on the count
  vectors. For a pure pattern the memo lives on the index and so outlasts one
  search: a game that asks about the same table again and again (a legal-move
  generator trying each hand piece, a bot weighing several determinizations)
  finds most sub-positions solved already. It holds at most :data:`MEMO_LIMIT`
  positions and is emptied when full.

The search is bounded by :data:`PARTITION_BUDGET` steps.
"""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING, Any, Iterator, Sequence

from rulepack.patterns.budget import PatternBudgetError

if TYPE_CHECKING:  # pragma: no cover
    from rulepack.engine.state import State
    from rulepack.engine.values import Piece
    from rulepack.patterns.match import Pattern

#: Most search steps (groups tried) one partition may take.
PARTITION_BUDGET = 500_000

#: Most sub-positions an index remembers between searches.
MEMO_LIMIT = 200_000

#: One matching group: (types, wild count, bitmask of its types, (type, copies)
#: for the types it needs two or more copies of). A group fits the pieces left
#: if no bit of its mask is a type with none left, and the counts of ``multi`` hold.
Template = tuple[tuple[int, ...], int, int, tuple[tuple[int, int], ...]]


def type_key(piece: Piece) -> tuple[Any, ...]:
    """Pieces with equal keys are interchangeable for patterns."""
    return (piece.kind, tuple(sorted(piece.attrs.items(), key=lambda kv: kv[0])))


class Index:
    """Types, buckets and all matching groups of a pattern over a set of pieces.

    :param pieces: every piece a search may meet (for a pure pattern, all the
        instance's pieces, so the index is built once and reused).
    """

    def __init__(self, st: "State", pattern: "Pattern", pieces: Sequence[Piece]) -> None:
        self.pattern = pattern
        #: solved sub-positions, (mandatory counts, optional counts, mandatory
        #: wilds, optional wilds) -> groups or None; shared by searches on this index
        self.memo: dict[tuple[tuple[int, ...], tuple[int, ...], int, int], Any] = {}
        alternatives = pattern.alternatives if pattern.alternatives is not None else [pattern]
        self.alternatives = alternatives
        # a piece is counted as wild only if every alternative says it is wild
        self.is_wild: dict[int, bool] = {}
        for piece in pieces:
            self.is_wild[piece.id] = all(a.wild is not None and a.wild(st, piece)
                                         for a in alternatives)
        self.keys: list[tuple[Any, ...]] = []
        self.reps: list[Piece] = []
        self.type_of: dict[int, int] = {}
        index: dict[tuple[Any, ...], int] = {}
        total: list[int] = []
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
                total.append(0)
            total[t] += 1
            self.type_of[piece.id] = t
        n = len(self.reps)
        self.n = n
        wild_pieces = [p for p in pieces if self.is_wild[p.id]]
        self.wild_rep = wild_pieces[0] if wild_pieces else None
        wild_total = len(wild_pieces)
        self.templates: list[list[Template]] = [[] for _ in range(n)]
        self.with_wild: list[Template] = []
        seen: set[tuple[tuple[int, ...], int]] = set()
        for alt in alternatives:
            lo, hi = alt.size
            cap = 1 if alt.one_per_type else None
            # pieces this alternative alone calls wild stand for anything in its groups
            wild_here = [alt.wild is not None and alt.wild(st, r) for r in self.reps]
            buckets: list[list[int]] = []
            for t, rep in enumerate(self.reps):
                if alt.same and not wild_here[t]:
                    attr = alt.same[0]
                    buckets.append([u for u, r in enumerate(self.reps)
                                    if wild_here[u] or r.attrs.get(attr) == rep.attrs.get(attr)])
                else:
                    buckets.append(list(range(n)))
            for pivot in list(range(n)) + [None]:
                if pivot is None:
                    if not wild_total:
                        continue
                    groups: Any = [()]
                else:
                    groups = _groups(buckets[pivot], pivot, total, cap, hi)
                for types in groups:
                    for w in range(0, min(wild_total, hi - len(types)) + 1):
                        size = len(types) + w
                        if size < lo or size == 0 or (types, w) in seen:
                            continue
                        if not self._matches(st, alt, types, w):
                            continue
                        seen.add((types, w))
                        mask = 0
                        for t in types:
                            mask |= 1 << t
                        multi = tuple(sorted((t, types.count(t)) for t in set(types)
                                             if types.count(t) > 1))
                        entry = (types, w, mask, multi)
                        if w:
                            self.with_wild.append(entry)
                        for t in set(types):
                            self.templates[t].append(entry)

        # for each type, its groups without wild pieces first: a search with no
        # wild piece left looks only at those (``plain``)
        for pool in self.templates:
            pool.sort(key=lambda entry: entry[1] > 0)
        self.plain: list[list[Template]] = [[e for e in pool if not e[1]]
                                            for pool in self.templates]

    def _matches(self, st: "State", alt: "Pattern", types: tuple[int, ...], wilds: int) -> bool:
        group = [self.reps[t] for t in types]
        if wilds:
            assert self.wild_rep is not None
            group += [self.wild_rep] * wilds
        return alt.matches(st, group)

    def covers(self, pieces: Sequence[Piece]) -> bool:
        return all(p.id in self.is_wild for p in pieces)


def index_for(st: "State", pattern: "Pattern", pieces: Sequence[Piece]) -> Index:
    """The index of ``pattern`` for this game instance (built once for a pure
    pattern), or a fresh one over ``pieces`` when the pattern reads the state."""
    if pattern.pure:
        cached = pattern._partition_index.get(id(st.inst))
        if cached is None or cached[0] is not st.inst:
            index = Index(st, pattern, st.inst.pieces)
            pattern._partition_index[id(st.inst)] = (st.inst, index)
            return index
        return cached[1]
    return Index(st, pattern, pieces)


def find_partition(st: "State", pattern: "Pattern", mandatory: Sequence[Piece],
                   optional: Sequence[Piece] = ()) -> list[list[Piece]] | None:
    """Groups, each matching ``pattern``, that use every mandatory piece and
    any optional ones; ``None`` if there are none. ``[]`` for no mandatory piece.

    :raises PatternBudgetError: the search took more than PARTITION_BUDGET steps.
    """
    mandatory = list(mandatory)
    chosen = {p.id for p in mandatory}
    optional = [p for p in optional if p.id not in chosen]
    idx = index_for(st, pattern, mandatory + optional)
    n = idx.n
    m = [0] * n
    o = [0] * n
    wild_m: list[Piece] = []
    wild_o: list[Piece] = []
    for p in mandatory:
        if idx.is_wild[p.id]:
            wild_m.append(p)
        else:
            m[idx.type_of[p.id]] += 1
    for p in optional:
        if idx.is_wild[p.id]:
            wild_o.append(p)
        else:
            o[idx.type_of[p.id]] += 1
    templates = idx.templates
    plain = idx.plain
    with_wild = idx.with_wild
    memo = idx.memo
    if len(memo) > MEMO_LIMIT:
        memo.clear()
    budget = [PARTITION_BUDGET]

    def candidates(pool: list[Template], avail: list[int], missing: int,
                   wilds: int) -> list[tuple[tuple[int, ...], int]]:
        """The groups of ``pool`` that the pieces left can form: ``avail`` counts
        by type, ``missing`` the bitmask of the types with none left, ``wilds``."""
        return [(types, w) for types, w, mask, multi in pool
                if not mask & missing and w <= wilds
                and (not multi or all(avail[t] >= k for t, k in multi))]

    def fitting(pool: list[Template], avail: list[int], missing: int, wilds: int,
                enough: float) -> int:
        """How many groups of ``pool`` fit (see :func:`candidates`), counting no
        further than ``enough``."""
        count = 0
        for _, w, mask, multi in pool:
            if not mask & missing and w <= wilds \
                    and (not multi or all(avail[t] >= k for t, k in multi)):
                count += 1
                if count >= enough:
                    break
        return count

    def solve(m: tuple[int, ...], o: tuple[int, ...], wm: int, wo: int) -> Any:
        """A list of (types, wilds) groups, or None."""
        key = (m, o, wm, wo)
        if key in memo:
            return memo[key]
        memo[key] = None
        pending = [t for t in range(n) if m[t] > 0]
        if not pending and wm == 0:
            memo[key] = []
            return []
        avail = [a + b for a, b in zip(m, o)]
        missing = 0
        for t, a in enumerate(avail):
            if not a:
                missing |= 1 << t
        wilds = wm + wo
        # the most constrained piece first: the one that fits the fewest groups
        # (the first such type; counting stops once a type cannot beat the best)
        chosen = -1
        fewest = float("inf")
        pools = templates if wilds else plain
        for t in pending:
            count = fitting(pools[t], avail, missing, wilds, fewest)
            if count < fewest:
                chosen, fewest = t, count
                if count <= 1:
                    break
        if chosen < 0:  # only wild pieces are left to place
            best = candidates(with_wild, avail, missing, wilds)
        elif fewest == 0:
            return None
        else:
            best = candidates(pools[chosen], avail, missing, wilds)
        if not best:
            return None
        # groups that use up more of what must be placed are tried first
        best.sort(key=lambda g: -sum(1 for t in set(g[0]) if m[t] > 0) - min(g[1], wm))
        result = None
        for types, w in best:
            budget[0] -= 1
            if budget[0] < 0:
                raise PatternBudgetError(f"partition by {pattern.name!r} took more than "
                                         f"{PARTITION_BUDGET} steps")
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

    try:
        found = solve(tuple(m), tuple(o), len(wild_m), len(wild_o))
    except BaseException:
        # positions on the abandoned search path are marked unsolvable in the
        # memo while they are being explored: forget them all
        memo.clear()
        raise
    if found is None:
        return None
    # types back into pieces: mandatory copies first, then optional ones
    pools: dict[int, list[Piece]] = {}
    for p in mandatory + optional:
        if not idx.is_wild[p.id]:
            pools.setdefault(idx.type_of[p.id], []).append(p)
    wild_pool = wild_m + wild_o
    groups: list[list[Piece]] = []
    for types, w in found:
        group = [pools[t].pop(0) for t in types]
        group += [wild_pool.pop(0) for _ in range(w)]
        groups.append(group)
    return groups


def _groups(bucket: list[int], pivot: int, total: Sequence[int], cap: int | None,
            hi: int) -> Iterator[tuple[int, ...]]:
    """Sub-multisets of ``bucket`` types (as sorted tuples) that contain the pivot:
    at most ``cap`` of a type (``None``: as many as exist), at most ``hi`` in all."""
    others = [t for t in bucket if t != pivot]
    room = hi - 1
    if cap == 1:
        for k in range(0, min(room, len(others)) + 1):
            for combo in combinations(others, k):
                yield tuple(sorted((pivot,) + combo))
        return
    extra_pivot = min(total[pivot] - 1, room)

    def rec(i: int, left: int, chosen: list[int]) -> Iterator[tuple[int, ...]]:
        if i == len(others):
            yield tuple(sorted([pivot] + chosen))
            return
        t = others[i]
        for k in range(0, min(total[t], left) + 1):
            yield from rec(i + 1, left - k, chosen + [t] * k)
    for k in range(0, extra_pivot + 1):
        yield from rec(0, room - k, [pivot] * k)
