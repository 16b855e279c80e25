"""Partitioning a multiset of pieces into groups that each match a pattern.

The question tile-grouping games ask of their table: can these pieces (all of
the *mandatory* ones, and any of the *optional* ones) be split into groups
that each match the pattern? And the batched form a legal-move generator asks:
which of the optional pieces can be made mandatory and still leave a split?

* :func:`can_partition` answers the first question, :func:`find_partition`
  also returns one arrangement, :func:`usable_pieces` answers the second for
  every optional piece with one search.
* Pieces are *types*: pieces with the same kind and attributes are
  interchangeable for a pure pattern, so identical copies never multiply the
  work. A piece that every alternative of the pattern calls wild is not typed
  but counted.
* Every matching group is known in advance: an :class:`Index`, built once per
  pattern and game instance, lists the groups (*templates*) as counts of types
  and wild pieces, generated from the pattern's structure (a ``same X``
  constraint limits a group to one X bucket; ``distinct``/``consecutive``
  allow one piece of a type).
* Two exact searches answer (a "no" is a true no): patterns of runs and sets
  go to the sweep (:mod:`rulepack.patterns.sweep`), which walks the runs'
  order once; every pattern can go to the general search
  (:mod:`rulepack.patterns.cover`), group by group, which is quicker on few
  pieces and when a split is near at hand. :class:`_Question` chooses. What
  a game's questions share (usable-piece answers, the sweep's lane options:
  :class:`GameMemo`) lives with the game and its clones (``Position.memo``) and
  changes no answer; nothing outlives the game, so the same games played again
  cost what they cost the first time.

The arrangement :func:`find_partition` returns is the first one a depth-first
search finds when it places, at each step, the mandatory type that fits the
fewest groups, trying first the groups that use more of what must be placed
(the order this engine has always used, so a game's table is arranged as
before); the exact search tells it which group leads to a split, so it never
backtracks.

The general search is bounded by :data:`PARTITION_BUDGET` steps (groups tried)
when it answers alone. Every question also spends the steps the decision that
asks it has left (``Position.steps_left``, shared with the loops of expressions:
:mod:`rulepack.patterns.budget`): one per piece it reads, per group a search
examines, per state the sweep builds; an answer the game's memo remembers costs
what it cost the first time, so a decision's steps never depend on what was
asked before.
"""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING, Any, Callable, Iterator, Sequence

from rulepack.patterns.budget import Budget, PatternBudgetError
from rulepack.patterns.cover import CoverSearch, Layout, Templates, wild_bit
from rulepack.patterns.first_split import first_split
from rulepack.patterns.sweep import Refuted, SharedOptions, SweepSearch, shape_of

if TYPE_CHECKING:  # pragma: no cover
    from rulepack.patterns.subjects import Piece, Position
    from rulepack.patterns.match import Pattern

#: Most search steps (groups tried) one question may take in the general search
#: (patterns the sweep cannot take).
PARTITION_BUDGET = 500_000

#: With at most this many optional pieces, a pattern of runs and sets is
#: answered by the sweep (rulepack.patterns.sweep) at once; with more, the
#: general search is tried first, for SEARCH_FIRST steps. (12, not 6: on random
#: games of the bundled tile-laying ruleset of runs and sets, 7% fewer instructions
#: with 3 players, 6% fewer with 4, 5% more with 6; the answers are the same, both
#: searches being exact.)
SWEEP_OPTIONAL = 12

#: ... and at least this many mandatory pieces.
SWEEP_FROM = 20

#: Steps the general search may take before the sweep decides (runs and sets).
SEARCH_FIRST = 2_000

#: Most answers of usable-piece questions a game's memo keeps for one index
#: (it forgets them all when it has this many: see GameMemo). A game asks some
#: questions again: random games of the bundled tile-laying ruleset of runs and
#: sets ask one in six again, a tree search many more.
MAX_ANSWERS = 20_000

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
    :param budget: spent by each group tried (an index built for one question).
    """

    def __init__(self, st: "Position", pattern: "Pattern", pieces: Sequence[Piece],
                 budget: Budget | None = None) -> None:
        self.pattern = pattern
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
        self.total = total
        # do the alternatives agree on every wild piece? (a piece wild for some only
        # is searched as a plain piece)
        self.wild_agrees = all(
            any(a.wild is not None and a.wild(st, piece) for a in alternatives)
            == self.is_wild[piece.id] for piece in pieces)
        wild_pieces = [p for p in pieces if self.is_wild[p.id]]
        self.wild_rep = wild_pieces[0] if wild_pieces else None
        wild_total = self.wild_total = len(wild_pieces)
        self.templates: list[list[Template]] = [[] for _ in range(n)]
        self.with_wild: list[Template] = []
        seen: set[tuple[tuple[int, ...], int]] = set()
        #: every matching group as (types, wild pieces), in the order generated
        self.found: list[tuple[tuple[int, ...], int]] = []
        found = self.found
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
                        if budget is not None:
                            budget.spend(1)
                        if not self._matches(st, alt, types, w):
                            continue
                        seen.add((types, w))
                        found.append((types, w))
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

        # the exact search's view: types renumbered into slots, counts packed
        slot_types = self._slot_order()
        self.slot = [0] * n
        for s, t in enumerate(slot_types):
            self.slot[t] = s
        self.layout = lay = Layout(n, max(total, default=1))
        #: per type, its field: (limb, shift within the limb)
        self.place = [(0, self.slot[t] * lay.width) if self.slot[t] < lay.split
                      else (1, (self.slot[t] - lay.split) * lay.width) for t in range(n)]
        entries = []
        for types, w in found:
            counts = [0] * n
            for t in types:
                counts[self.slot[t]] += 1
            entries.append((counts, w))
        self.search_templates = Templates(self.layout, entries)
        self.wild_bit = wild_bit(self.layout)
        # the established order's pools (rulepack.patterns.first_split), packed:
        # (counts in two limbs, wild pieces, guard bits of its types in two limbs, types)
        guard = self.layout.width - 1

        def packed(entry: Template) -> tuple[int, int, int, int, int, tuple[int, ...]]:
            types, w, _, _ = entry
            counts = [0] * n
            for t in types:
                counts[t] += 1
            masks = [0, 0]
            for t in set(types):
                limb, shift = self.place[t]
                masks[limb] |= 1 << (shift + guard)
            g0, g1 = self.pack(counts)
            return (g0, g1, w, masks[0], masks[1], types)
        self.order_pools = [[packed(e) for e in pool] for pool in self.templates]
        self.order_plain = [[packed(e) for e in pool] for pool in self.plain]
        self.order_wild = [packed(e) for e in self.with_wild]
        #: the sweep's view when the pattern is made of runs and sets, else None
        self.shape = shape_of(self)

    def _slot_order(self) -> list[int]:
        """The types in the order the search places them: pieces that group
        together close to each other. By the position in its order of the first
        ``consecutive`` attribute (runs), else by the first ``same`` attribute
        (sets), then as found."""
        n = len(self.reps)
        for alt in self.alternatives:
            if alt.consecutive:
                attr, order = alt.consecutive[0]
                far = len(order)
                return sorted(range(n), key=lambda t: (
                    order.get(self.reps[t].attrs.get(attr), far), t))
        for alt in self.alternatives:
            if alt.same:
                attr = alt.same[0]
                first: dict[Any, int] = {}
                for t, rep in enumerate(self.reps):
                    first.setdefault(rep.attrs.get(attr), t)
                return sorted(range(n), key=lambda t: (first[self.reps[t].attrs.get(attr)], t))
        return list(range(n))

    def pack(self, counts: Sequence[int]) -> tuple[int, int]:
        """The packed form (see :class:`~rulepack.patterns.cover.Layout`) of
        counts by type: its two limbs."""
        x = [0, 0]
        place = self.place
        for t, c in enumerate(counts):
            if c:
                limb, shift = place[t]
                x[limb] |= c << shift
        return x[0], x[1]

    def unpack(self, x0: int, x1: int) -> list[int]:
        """Counts by type of a packed vector (its two limbs)."""
        low = self.layout.low
        return [((x1 if limb else x0) >> shift) & low for limb, shift in self.place]

    def search(self, pattern_name: str, charge: Budget) -> CoverSearch:
        """A fresh exact search over this index's groups, spending ``charge``."""
        def over() -> Exception:
            return PatternBudgetError(f"partition by {pattern_name!r} took more than "
                                      f"{PARTITION_BUDGET} steps")
        return CoverSearch(self.search_templates, PARTITION_BUDGET, over, charge)

    def _matches(self, st: "Position", alt: "Pattern", types: tuple[int, ...], wilds: int) -> bool:
        group = [self.reps[t] for t in types]
        if wilds:
            assert self.wild_rep is not None
            group += [self.wild_rep] * wilds
        return alt.matches(st, group)


def index_for(st: "Position", pattern: "Pattern", pieces: Sequence[Piece],
              budget: Budget | None = None) -> Index:
    """The index of ``pattern`` for this game instance (built once for a pure
    pattern), or a fresh one over ``pieces`` when the pattern reads the state
    (spending ``budget``: it is built for the question)."""
    if pattern.pure:
        program = st.program
        return pattern.indexes.of(program, lambda: Index(st, pattern, program.pieces))
    return Index(st, pattern, pieces, budget)


class Indexes:
    """A pure pattern's indexes, one per program (each made when first asked for:
    this object owns them)."""

    def __init__(self) -> None:
        self._by_program: dict[int, tuple[object, Index]] = {}

    def of(self, program: object, make: Callable[[], Index]) -> Index:
        """The index for ``program``, made by ``make()`` the first time."""
        cached = self._by_program.get(id(program))
        if cached is None or cached[0] is not program:
            index = make()
            self._by_program[id(program)] = (program, index)
            return index
        return cached[1]


class GameMemo:
    """What the searches of one pattern over one index keep between the
    questions of a game: the answers of usable-piece questions
    (:meth:`_Question.reach`) and the sweep's lane options
    (:meth:`rulepack.patterns.sweep.SweepSearch.shared_options`). Every search
    is exact, so they change no answer, only its cost. They live with the game
    (``Position.memo``, shared by its clones and nothing else), so a new game, or
    the same games played again, starts from nothing and costs what the first
    did."""

    def __init__(self) -> None:
        #: usable-piece answers, each with the steps it took (spent again when it
        #: is read: see the module's text)
        self.answers: dict[tuple[int, int, int, int, int, int],
                           tuple[tuple[frozenset[int], bool] | None, int]] = {}
        self.options: SharedOptions = {}


def memo_of(st: "Position", idx: Index) -> GameMemo:
    """The game's memo for ``idx`` (a fresh one, kept by no one, for an index
    built for one question: a pattern that reads the state)."""
    if not idx.pattern.pure:
        return GameMemo()
    games: dict[Any, Any] = st.memo
    memo = games.get(idx)
    if memo is None:
        memo = games[idx] = GameMemo()
    return memo


class _Question:
    """Pieces of one question as counts: by type (``m`` mandatory, ``o``
    optional) and wild (``wm``, ``wo``), the pieces themselves kept to turn
    groups of types back into pieces. It answers with the sweep when the
    pattern has its shape, else with the general search; sub-positions asked
    again (while an arrangement is built) are remembered for the question.
    It spends ``budget`` (see :func:`_budget`), one step for each piece it is
    given to begin with."""

    def __init__(self, st: "Position", pattern: "Pattern", mandatory: Sequence[Piece],
                 optional: Sequence[Piece], budget: Budget) -> None:
        self.budget = budget
        budget.spend(len(mandatory) + len(optional))
        self.mandatory = _unique(mandatory)
        chosen = {p.id for p in self.mandatory}
        self.optional = [p for p in _unique(optional) if p.id not in chosen]
        self.idx = idx = index_for(st, pattern, self.mandatory + self.optional, self.budget)
        self.m = [0] * idx.n
        self.o = [0] * idx.n
        self.wild_m: list[Piece] = []
        self.wild_o: list[Piece] = []
        for pieces, counts, wild in ((self.mandatory, self.m, self.wild_m),
                                     (self.optional, self.o, self.wild_o)):
            for p in pieces:
                if idx.is_wild[p.id]:
                    wild.append(p)
                else:
                    counts[idx.type_of[p.id]] += 1
        self.name = pattern.name
        self.memo = memo_of(st, idx)
        self._search: CoverSearch | None = None
        self._known: dict[tuple[tuple[int, ...], tuple[int, ...], int, int], bool] = {}
        #: what the sweeps of this question refuted (the sub-positions of an
        #: arrangement, the cells of a usable-piece question share it)
        self._refuted: Refuted = {}

    @property
    def search(self) -> CoverSearch:
        """The general search, one for the whole question (its memo shared)."""
        if self._search is None:
            self._search = self.idx.search(self.name, self.budget)
        return self._search

    def feasible(self, m: Sequence[int] | None = None, o: Sequence[int] | None = None,
                 wm: int | None = None, wo: int | None = None) -> bool:
        """Can the mandatory pieces (by default the question's) be placed?"""
        m = self.m if m is None else m
        o = self.o if o is None else o
        wm = len(self.wild_m) if wm is None else wm
        wo = len(self.wild_o) if wo is None else wo
        key = (tuple(m), tuple(o), wm, wo)
        hit = self._known.get(key)
        if hit is None:
            idx = self.idx
            if not any(m) and not wm:
                hit = True
            elif self._sweep_first(m, o, wm, wo):
                hit = self._sweep(m, o, wm, wo, False)[0]
            else:
                a0, a1 = idx.pack([x + y for x, y in zip(m, o)])
                m0, m1 = idx.pack(m)
                if idx.shape is None:
                    hit = self.search.feasible(a0, a1, m0, m1, wm, wo)
                else:
                    try:
                        hit = self._capped().feasible(a0, a1, m0, m1, wm, wo)
                    except _Capped:
                        hit = self._sweep(m, o, wm, wo, False)[0]
            self._known[key] = hit
        return hit

    def packed(self) -> tuple[int, int, int, int, int, int]:
        """The question as a position of the general search
        (:data:`~rulepack.patterns.cover.Position`): the two limbs of the packed
        counts of all pieces, those of the mandatory ones, mandatory wild
        pieces, optional wild pieces."""
        idx = self.idx
        a0, a1 = idx.pack([x + y for x, y in zip(self.m, self.o)])
        m0, m1 = idx.pack(self.m)
        return (a0, a1, m0, m1, len(self.wild_m), len(self.wild_o))

    def feasible_packed(self, a0: int, a1: int, m0: int, m1: int, wm: int, wo: int) -> bool:
        """:meth:`feasible` of a packed position (see :meth:`packed`)."""
        idx = self.idx
        mm = idx.unpack(m0, m1)
        return self.feasible(mm, [x - y for x, y in zip(idx.unpack(a0, a1), mm)], wm, wo)

    def _sweep_first(self, m: Sequence[int], o: Sequence[int], wm: int, wo: int) -> bool:
        """Ask the sweep at once? For runs and sets with many mandatory pieces
        and few optional ones (the general search is quicker on few pieces, and
        the sweep slower with many optional ones)."""
        return self.idx.shape is not None and sum(m) + wm >= SWEEP_FROM \
            and sum(o) + wo <= SWEEP_OPTIONAL

    def _sweep(self, m: Sequence[int], o: Sequence[int], wm: int, wo: int,
               reach: bool) -> tuple[bool, int, bool]:
        assert self.idx.shape is not None
        search = SweepSearch(self.idx.shape, m, o, wm, wo, self.memo.options, self.budget,
                             self._refuted)
        return search.reach() if reach else (search.feasible(), 0, False)

    def _capped(self) -> CoverSearch:
        """The general search, stopped after SEARCH_FIRST steps (then the sweep
        decides): it finds a split at once when one is near, which the sweep,
        walking every position, does not."""
        if self._search is None:
            self._search = CoverSearch(self.idx.search_templates, SEARCH_FIRST, _Capped,
                                       self.budget)
        return self._search

    def reach(self) -> tuple[frozenset[int], bool] | None:
        """``None`` if the question's pieces cannot be split; otherwise the
        types of which some split uses optional pieces (more than the mandatory
        ones), and whether some split uses an optional wild piece. The game's
        memo keeps the answers (the same counts, the same answer: the searches
        are exact) for the questions it asks again, up to :data:`MAX_ANSWERS`
        (see :class:`GameMemo`), each with the steps it took, spent again when
        it is read."""
        idx = self.idx
        wm, wo = len(self.wild_m), len(self.wild_o)
        a0, a1 = idx.pack([x + y for x, y in zip(self.m, self.o)])
        m0, m1 = idx.pack(self.m)
        key = (a0, a1, m0, m1, wm, wo)
        answers = self.memo.answers
        known = answers.get(key)
        if known is not None:
            self.budget.spend(known[1])
            return known[0]
        if len(answers) >= MAX_ANSWERS:
            answers.clear()
        before = self.budget.left
        found = self._reach(a0, a1, m0, m1, wm, wo)
        answer = None if found is None else (frozenset(found[0]), found[1])
        answers[key] = (answer, before - self.budget.left)
        return answer

    def _reach(self, a0: int, a1: int, m0: int, m1: int, wm: int,
               wo: int) -> tuple[set[int], bool] | None:
        """:meth:`reach`, searched (the counts packed: all pieces ``a0, a1``,
        mandatory ones ``m0, m1``; wild pieces ``wm`` and ``wo``)."""
        idx = self.idx
        if idx.shape is None:
            return self._from_bits(self.search.reach(a0, a1, m0, m1, wm, wo))
        if self._sweep_first(self.m, self.o, wm, wo):
            return self._sweep_reach(wm, wo)
        try:
            return self._from_bits(self._capped().reach(a0, a1, m0, m1, wm, wo))
        except _Capped:
            pass
        if idx.shape.ordered:
            # a long search: the sweep asks one cell at a time what no split it
            # found answers (rulepack.patterns.sweep.SweepSearch.reach)
            return self._sweep_reach(wm, wo)
        # many optional pieces and a long search: one question per optional type
        if not self.feasible():
            return None
        types = set()
        for t in range(idx.n):
            if self.o[t]:
                m2, o2 = list(self.m), list(self.o)
                m2[t] += 1
                o2[t] -= 1
                if self.feasible(m2, o2, wm, wo):
                    types.add(t)
        return types, bool(wo) and self.feasible(self.m, self.o, wm + 1, wo - 1)

    def _sweep_reach(self, wm: int, wo: int) -> tuple[set[int], bool] | None:
        """:meth:`_reach` by the sweep."""
        shape = self.idx.shape
        assert shape is not None
        ok, bits, wild = self._sweep(self.m, self.o, wm, wo, True)
        if not ok:
            return None
        positions = shape.positions
        return ({t for t, (lane, pos) in enumerate(shape.cells)
                 if bits >> (lane * positions + pos) & 1}, wild)

    def _from_bits(self, bits: tuple[int, int]) -> tuple[set[int], bool] | None:
        bits0, bits1 = bits
        if bits0 < 0:
            return None
        idx = self.idx
        guard = idx.layout.width - 1
        return ({t for t, (limb, shift) in enumerate(idx.place)
                 if (bits1 if limb else bits0) >> (shift + guard) & 1},
                bool(bits1 & idx.wild_bit))


class _Capped(Exception):
    """The general search reached SEARCH_FIRST steps (the sweep takes over)."""


def _unique(pieces: Sequence[Piece]) -> list[Piece]:
    """The pieces, each once (a piece listed twice is still one piece)."""
    seen: set[int] = set()
    out = []
    for p in pieces:
        if p.id not in seen:
            seen.add(p.id)
            out.append(p)
    return out


def _budget(st: "Position", pattern: "Pattern") -> Budget:
    """The steps a question of ``pattern`` may take: what the decision has left
    (``st.steps_left``, written back when the question ends)."""
    return Budget(st.steps_left, f"partition by {pattern.name!r}")


def can_partition(st: "Position", pattern: "Pattern", mandatory: Sequence[Piece],
                  optional: Sequence[Piece] = ()) -> bool:
    """Is there a split of every mandatory piece and any optional ones into
    groups that each match ``pattern``? (True for no mandatory piece.)

    :raises PatternBudgetError: the search took more than PARTITION_BUDGET steps,
        or the decision's steps ran out.
    """
    budget = _budget(st, pattern)
    try:
        return _Question(st, pattern, mandatory, optional, budget).feasible()
    finally:
        st.steps_left = budget.left


def usable_pieces(st: "Position", pattern: "Pattern", mandatory: Sequence[Piece],
                  optional: Sequence[Piece]) -> list[Piece]:
    """The optional pieces ``x``, in their order, for which
    ``can_partition(mandatory + [x], optional without x)`` holds — answered for
    all of them by one search (which optional types, and are optional wild
    pieces, used by some split). A piece that is also mandatory is usable when
    the mandatory pieces can be split.

    :raises PatternBudgetError: the search took more than PARTITION_BUDGET steps,
        or the decision's steps ran out.
    """
    if not optional:
        return []
    budget = _budget(st, pattern)
    try:
        q = _Question(st, pattern, mandatory, optional, budget)
        reach = q.reach()
    finally:
        st.steps_left = budget.left
    if reach is None:
        return []
    types, wild = reach
    idx = q.idx
    mandatory_ids = {p.id for p in q.mandatory}
    out = []
    for p in optional:
        if p.id in mandatory_ids or (wild if idx.is_wild[p.id] else idx.type_of[p.id] in types):
            out.append(p)
    return out


def find_partition(st: "Position", pattern: "Pattern", mandatory: Sequence[Piece],
                   optional: Sequence[Piece] = ()) -> list[list[Piece]] | None:
    """Groups, each matching ``pattern``, that use every mandatory piece and
    any optional ones; ``None`` if there are none. ``[]`` for no mandatory piece.
    The groups are those of the search order described in the module's text;
    each group lists its typed pieces (mandatory copies first, each type's
    copies in the order given) then its wild pieces.

    :raises PatternBudgetError: the search took more than PARTITION_BUDGET steps,
        or the decision's steps ran out.
    """
    budget = _budget(st, pattern)
    try:
        q = _Question(st, pattern, mandatory, optional, budget)
        found = first_split(q.idx, q.packed(), q.feasible_packed, budget)
    finally:
        st.steps_left = budget.left
    if found is None:
        return None
    idx = q.idx
    # types back into pieces: mandatory copies first, then optional ones
    pools: dict[int, list[Piece]] = {}
    for p in q.mandatory + q.optional:
        if not idx.is_wild[p.id]:
            pools.setdefault(idx.type_of[p.id], []).append(p)
    wild_pool = q.wild_m + q.wild_o
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
