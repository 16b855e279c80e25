"""Partitions into runs and sets, by a sweep along the runs' order.

Tile games group tiles into *runs* (``same suit, consecutive rank``) and into
groups that keep to one rank (*sets*, ``same rank``). For a pattern of that
shape — one alternative with exactly ``same A, consecutive B`` (and a size, and
maybe ``wild``), every other alternative with ``same B`` — a partition can be
decided by walking the positions of B's order once, which is much faster than
searching group by group (:mod:`rulepack.patterns.cover`) when the tiles are
many:

* Every piece type is a *cell*: a *lane* (its A value) and a *position* (the
  place of its B value in the order).
* At each position the pieces used there are split between the lanes' runs and
  the groups that stay at that position (local groups: every template of the
  pattern whose pieces all have that position). The local part is checked by
  the exact search of :mod:`rulepack.patterns.cover` on that position alone.
* A lane's open runs are summarised by how many have each length (lengths from
  the run's minimum size up are one class when no run can outgrow the order):
  a run of wild pieces and tiles continues to the next position or ends, and a
  piece at a position continues an open run rather than start a new one when
  that is never worse. So a state is one such summary per lane plus the wild
  pieces used, and the states at a position are few.
* Before a state is kept, each lane must still be able to close its runs with
  the pieces left in it and the wild pieces left (computed per lane, backwards,
  and memoised), which removes most dead ends at once.
* The positions are walked depth first, the most promising states first; when
  no run can outgrow the order, a state that a refuted state at the same
  position dominates (its runs no longer, as many wild pieces used) is refuted
  at once, so a "no" on a full table is found among a few thousand states.
* Each state built is a step of the budget the decision shares with every
  search (:mod:`rulepack.patterns.budget`), each comparison a check.

Wild pieces (those every alternative calls wild) fill run positions and local
groups, and what is left of them may form groups of wild pieces alone.
:func:`shape_of` tells whether a pattern has the shape; :class:`SweepSearch`
answers one question. Nothing here knows a game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

from rulepack.patterns.budget import Budget
from rulepack.patterns.cover import Layout

if TYPE_CHECKING:  # pragma: no cover
    from rulepack.patterns.partition import Index

#: Most lane summaries a shape may have (more: the general search is used).
MAX_CONFIGS = 20_000

_INF = 1 << 30

#: What a lane can do at a position: (its summary after, shifted to the lane's
#: place in a state; pieces left to local groups, shifted to the lane's field;
#: wild pieces in the lane; wild pieces it still needs later; the cell's bit if
#: optional pieces are used, else 0).
Option = tuple[int, int, int, int, int]


#: Lane options shared by questions: (lane, position, wild pieces, the lane's
#: mandatory and optional counts from that position on) -> summary -> options.
SharedOptions = dict[tuple[int, int, int, tuple[int, ...], tuple[int, ...]],
                     dict[int, list[Option]]]

#: Most lane counts a memo of lane options keeps (see :meth:`SweepSearch.shared_options`).
MAX_SHARED = 20_000

#: States refuted by depth-first searches, shared by related questions (those of
#: one ``usable`` or ``partition`` call): (position, mandatory and optional wild
#: pieces, the counts of every lane from that position on) -> (the states
#: refuted there, and the (code, wild pieces used) of each). Whether a state
#: before a position leads to a split depends on nothing else.
Refuted = dict[tuple[int, int, int, tuple[int, ...], tuple[int, ...]],
               tuple[set[int], list[tuple[int, int]]]]


class Shape:
    """What the sweep needs of a pattern over an index's types, all of it
    computed once per index.

    :param cells: per type, its (lane, position).
    :param lanes: number of lanes; ``positions``: length of the order.
    :param run_size: (min, max) pieces in a run, the max at most ``positions``.
    :param local: per position, the templates of groups that stay there, as
        (counts by lane, wild pieces).
    :param wild_sizes: sizes of the groups made of wild pieces alone.
    :param bounds: per cell, how many pieces of it exist; ``max_wilds``: how
        many wild pieces exist.
    """

    def __init__(self, cells: list[tuple[int, int]], lanes: int, positions: int,
                 run_size: tuple[int, int], local: list[list[tuple[list[int], int]]],
                 wild_sizes: list[int], bounds: dict[tuple[int, int], int],
                 max_wilds: int, configs: list[tuple[int, ...]]) -> None:
        self.cells = cells
        self.lanes = lanes
        self.positions = positions
        self.lo, self.hi = run_size
        self.wild_sizes = wild_sizes
        max_count = max(bounds.values(), default=1)
        self.layout = Layout(lanes, max(max_count, max_wilds))
        #: a packed (pieces by lane, wild pieces) point: the wild pieces above the lanes
        self.wild_shift = lanes * self.layout.width
        #: per position and lane: can a local group hold a piece of that lane?
        self.local_lane = [[any(c[lane] for c, _ in entries) for lane in range(lanes)]
                           for entries in local]
        #: per position, every (pieces by lane, wild pieces) that local groups can
        #: use up exactly, within the pieces that exist
        computed: dict[tuple[tuple[int, ...], int], frozenset[int]] = {}
        self.local_points = [self._points(pos, entries, bounds, max_wilds, computed)
                             for pos, entries in enumerate(local)]
        #: per position, for l = 1..lanes: the pieces of lanes 0..l-1 of those
        #: points (a choice for the first lanes that no point extends is dropped)
        self.local_prefixes: list[list[frozenset[int]]] = []
        for points in self.local_points:
            prefixes = [frozenset({0})]
            for lane in range(lanes):
                keep = (1 << ((lane + 1) * self.layout.width)) - 1
                prefixes.append(frozenset(p & keep for p in points))
            self.local_prefixes.append(prefixes)
        # lane summaries: ids, which can close, and the table of transitions
        self.configs = configs
        ids = {c: i for i, c in enumerate(configs)}
        self.config_bits = max(1, len(configs).bit_length())
        must = self.lo - 1
        #: per summary: no run still needs pieces
        self.closable = [not any(c[:must]) for c in configs]
        units = max_count + max_wilds
        #: per summary and number of pieces at the next position: the summaries after
        self.trans = [[tuple(ids[x] for x in _transitions(c, u, self.lo, self.hi, positions))
                       for u in range(units + 1)] for c in configs]
        #: per summary: how many runs must take a piece at the next position
        self.must = [sum(c[:must]) for c in configs]
        #: per summary and number of pieces: the summary after with the fewest
        #: runs that must go on (-1: none)
        self.easiest = [[min(nxt, key=lambda i: self.must[i]) if nxt else -1 for nxt in row]
                        for row in self.trans]
        # Dominance (see SweepSearch.reach): when no run can outgrow the order, a
        # lane's summary A does all that B does if B's runs can be matched to
        # longer-or-equal runs of A and A's other runs may close: tail counts (runs
        # of at least k pieces) of A no fewer, head counts (runs shorter than k)
        # no more. In coordinates (runs, runs of at least k - runs + top) that is
        # "each coordinate at least B's", one subtraction on packed fields.
        #: can summaries be compared (no run can outgrow the order)?
        self.ordered = self.hi >= positions
        classes = len(configs[0]) if configs else 1
        top = max((sum(c) for c in configs), default=0)
        width = (2 * top + 1).bit_length() + 1
        #: per summary, its coordinates packed (``width`` bits each, a guard on top)
        self.codes: list[int] = []
        #: per summary, the sum of its coordinates (larger for a dominating summary)
        self.weights: list[int] = []
        for c in configs:
            runs = sum(c)
            code = runs
            weight = runs
            for k in range(1, classes):
                tail = sum(c[k:])
                code |= (tail - runs + top) << (k * width)
                weight += tail
            self.codes.append(code)
            self.weights.append(weight)
        #: bits of one lane's coordinates in a packed state's code
        self.code_bits = classes * width
        guards = 0
        for i in range(classes * lanes):
            guards |= 1 << (i * width + width - 1)
        #: the guard bits of a state's code (every lane)
        self.code_guards = guards

    def _points(self, pos: int, entries: list[tuple[list[int], int]],
                bounds: dict[tuple[int, int], int], max_wilds: int,
                computed: dict[tuple[tuple[int, ...], int], frozenset[int]]) -> frozenset[int]:
        """Every sum of local groups at ``pos`` within the pieces that exist
        (positions alike share the answer: ``computed``)."""
        lay = self.layout
        guards = lay.guards | (lay.guards << self.wild_shift)
        limit = lay.pack([bounds.get((lane, pos), 0) for lane in range(self.lanes)])
        limit |= max_wilds << self.wild_shift
        steps = tuple(sorted({lay.pack(counts) | (w << self.wild_shift)
                              for counts, w in entries}))
        hit = computed.get((steps, limit))
        if hit is not None:
            return hit
        limit_g = limit | guards
        points = {0}
        todo = [0]
        while todo:
            p = todo.pop()
            for g in steps:
                q = p + g
                if (limit_g - q) & guards == guards and q not in points:
                    points.add(q)
                    todo.append(q)
        hit = computed[(steps, limit)] = frozenset(points)
        return hit


def _classes(lo: int, hi: int, positions: int) -> int:
    """Length classes of open runs: 1..lo when no run can outgrow the order
    (lengths from lo up behave alike), else the exact lengths 1..hi-1 (a run
    of hi pieces is closed)."""
    return lo if hi >= positions else hi - 1


def _transitions(cfg: tuple[int, ...], units: int, lo: int, hi: int,
                 positions: int) -> list[tuple[int, ...]]:
    """The summaries after ``units`` pieces at the next position: runs shorter
    than lo must take one each, the others may; the pieces left start runs.
    When no run can outgrow the order, a piece goes on with an open run rather
    than start one (the result is never worse), so there is one summary."""
    classes = len(cfg)
    must = sum(cfg[:lo - 1])
    if units < must:
        return []
    spare = units - must
    base = [0] * classes
    for i in range(lo - 1):
        if i + 1 < classes:
            base[i + 1] += cfg[i]
    if hi >= positions:
        k = min(cfg[classes - 1], spare)
        base[classes - 1] += k
        base[0] += spare - k
        return [tuple(base)]
    free = list(range(lo - 1, classes))
    results: set[tuple[int, ...]] = set()

    def choose(i: int, left: int, out: list[int]) -> None:
        if i == len(free):
            final = list(out)
            final[0] += left
            results.add(tuple(final))
            return
        c = free[i]
        for k in range(0, min(cfg[c], left) + 1):
            nxt = list(out)
            if c + 1 < classes:        # a run reaching hi pieces is closed
                nxt[c + 1] += k
            choose(i + 1, left - k, nxt)
    choose(0, spare, base)
    return sorted(results)


def _all_configs(classes: int, most: int) -> list[tuple[int, ...]] | None:
    """Every summary with at most ``most`` open runs (None if too many)."""
    out: list[tuple[int, ...]] = []

    def rec(prefix: list[int], left: int) -> bool:
        if len(prefix) == classes:
            out.append(tuple(prefix))
            return len(out) <= MAX_CONFIGS
        for k in range(0, left + 1):
            if not rec(prefix + [k], left - k):
                return False
        return True
    return out if rec([], most) else None


def shape_of(idx: "Index") -> Shape | None:
    """The sweep's view of an index's pattern, or ``None`` if the pattern does
    not have the runs-and-sets shape (then the general search is used)."""
    alternatives = idx.alternatives
    runs = [a for a in alternatives if a.consecutive]
    if len(runs) != 1 or not idx.wild_agrees:
        return None
    run = runs[0]
    if len(run.consecutive) != 1 or len(run.same) != 1 or run.distinct or run.covers \
            or run.each:
        return None
    lane_attr = run.same[0]
    pos_attr, order = run.consecutive[0]
    if any(a is not run and pos_attr not in a.same for a in alternatives):
        return None
    positions = len(order)
    lo, hi = run.size
    hi = min(hi, positions)
    if lo < 1 or lo > hi:
        return None
    lane_of: dict[Any, int] = {}
    cells: list[tuple[int, int]] = []
    for rep in idx.reps:
        if lane_attr not in rep.attrs or pos_attr not in rep.attrs:
            return None
        try:
            pos = order[rep.attrs[pos_attr]]
        except (KeyError, TypeError):
            return None
        lane = lane_of.setdefault(rep.attrs[lane_attr], len(lane_of))
        if (lane, pos) in cells:
            return None
        cells.append((lane, pos))
    lanes = max(1, len(lane_of))
    local: list[list[tuple[list[int], int]]] = [[] for _ in range(positions)]
    wild_sizes: set[int] = set()
    for types, w in idx.found:
        if not types:
            wild_sizes.add(w)
            continue
        where = {cells[t][1] for t in types}
        if len(where) == 1:
            counts = [0] * lanes
            for t in types:
                counts[cells[t][0]] += 1
            local[where.pop()].append((counts, w))
    bounds = {cells[t]: idx.total[t] for t in range(len(cells))}
    configs = _all_configs(_classes(lo, hi, positions),
                           max(idx.total, default=1) + idx.wild_total)
    if configs is None:
        return None
    return Shape(cells, lanes, positions, (lo, hi), local, sorted(wild_sizes), bounds,
                 idx.wild_total, configs)


class SweepSearch:
    """One question: counts by type, mandatory (``m``) and optional (``o``),
    and wild pieces, mandatory (``wm``) and optional (``wo``).

    A state is one integer: each lane's summary id in its own bits, the wild
    pieces used above them.

    :param shape: the pattern's shape.
    :param shared: lane options shared with the game's other questions.
    :param budget: the steps it may take (each state it builds is one); none: no
        limit.
    :param refuted: the states refuted by the searches of related questions (see
        :data:`Refuted`), shared with them.
    """

    def __init__(self, shape: Shape, m: Sequence[int], o: Sequence[int], wm: int,
                 wo: int, shared: SharedOptions | None = None,
                 budget: Budget | None = None, refuted: Refuted | None = None) -> None:
        self.shape = shape
        self.shared: SharedOptions = {} if shared is None else shared
        self.budget = Budget(_INF, "the sweep") if budget is None else budget
        self.types_m = list(m)
        self.types_o = list(o)
        lanes, positions = shape.lanes, shape.positions
        self.m = [[0] * positions for _ in range(lanes)]
        self.o = [[0] * positions for _ in range(lanes)]
        for t, (lane, pos) in enumerate(shape.cells):
            self.m[lane][pos] = m[t]
            self.o[lane][pos] = o[t]
        self.wm, self.wo = wm, wo
        self.wilds = wm + wo
        self.cb = shape.config_bits
        self.used_shift = lanes * self.cb
        #: the bit of a reach() answer (and of a split's bits) for an optional wild piece
        self.wild_bit = 1 << (lanes * positions)
        self._need: list[list[dict[int, int]]] = [[{} for _ in range(positions)]
                                                  for _ in range(lanes)]
        #: per position and lane: summary -> its options (from ``shared``, with the
        #: questions that have the same lane counts from there on)
        self._options: list[list[dict[int, list[Option]] | None]] = [
            [None] * lanes for _ in range(positions)]
        self.refuted: Refuted = {} if refuted is None else refuted
        #: per position: the states refuted there, and the (code, wild pieces
        #: used) of each (when summaries compare: see _dfs); shared with the
        #: questions that have the same counts from that position on
        self._failed: list[set[int]] = []
        self._dead: list[list[tuple[int, int]]] = []
        for pos in range(positions):
            key = (pos, wm, wo, tuple(self.m[lane][p] for lane in range(lanes)
                                      for p in range(pos, positions)),
                   tuple(self.o[lane][p] for lane in range(lanes) for p in range(pos, positions)))
            known = self.refuted.get(key)
            if known is None:
                known = self.refuted[key] = (set(), [])
            self._failed.append(known[0])
            self._dead.append(known[1])
        # the wild pieces that groups of wild pieces alone can take
        sums = {0}
        for _ in range(self.wilds):
            sums |= {x + s for x in sums for s in shape.wild_sizes if x + s <= self.wilds}
        #: wild pieces used by the end of the sweep that leave a split (the
        #: others in groups of their own)
        self.ends = {used for used in range(self.wilds + 1)
                     if any(wm <= used + x <= self.wilds for x in sums)}
        #: ... and that can use an optional wild piece
        self.ends_optional = {used for used in self.ends
                              if any(wm < used + x <= self.wilds for x in sums)}

    # ------------------------------------------------------------------ lanes
    def need(self, lane: int, pos: int, cfg: int) -> int:
        """Fewest wild pieces the lane needs after position ``pos`` to close its
        runs, any of its tiles free to go elsewhere (``_INF``: impossible): a
        lower bound, so that a state it rules out has no split."""
        memo = self._need[lane][pos]
        hit = memo.get(cfg)
        if hit is not None:
            return hit
        shape = self.shape
        if pos == shape.positions - 1:
            best = 0 if shape.closable[cfg] else _INF
        else:
            # as few pieces as possible at the next position: the runs that must
            # go on (more pieces could only start runs, which need more later).
            # Tiles that no local group can take are not made to start runs
            # here: a run they need may start with a wild piece before them, so
            # counting them would overstate the need.
            tiles = self.m[lane][pos + 1] + self.o[lane][pos + 1]
            units = shape.must[cfg]
            row = shape.easiest[cfg]
            if units >= len(row) or row[units] < 0:
                best = _INF
            else:
                best = min(_INF, (units - tiles if units > tiles else 0)
                           + self.need(lane, pos + 1, row[units]))
        memo[cfg] = best
        return best

    def shared_options(self, lane: int, pos: int) -> dict[int, list[Option]]:
        """The memo of :meth:`options` of the lane at ``pos`` (summary ->
        options) shared by the questions (``shared``: those of one game) with
        the same lane counts from ``pos`` on and as many wild pieces: what a
        lane can do depends on nothing else, and the questions of one position
        (one candidate piece after another) mostly share it. The memo is
        emptied when it holds :data:`MAX_SHARED` lane counts."""
        memo = self.shared
        key = (lane, pos, self.wilds, tuple(self.m[lane][pos:]), tuple(self.o[lane][pos:]))
        hit = memo.get(key)
        if hit is None:
            if len(memo) >= MAX_SHARED:
                memo.clear()
            hit = memo[key] = {}
        return hit

    def options(self, lane: int, pos: int, cfg: int) -> list[Option]:
        """What the lane can do at ``pos`` from summary ``cfg`` (see Option),
        fewest wild pieces first. When summaries compare (``Shape.ordered``),
        an option is left out if another one leaves as many pieces to local
        groups, uses the same wild pieces and at least its optional pieces, and
        leaves a summary that does all its summary does."""
        shape = self.shape
        mm = self.m[lane][pos]
        oo = self.o[lane][pos]
        wilds = self.wilds
        bit = 1 << (lane * shape.positions + pos)
        shift = lane * shape.layout.width
        at = lane * self.cb
        row = shape.trans[cfg]
        can_local = shape.local_lane[pos][lane]
        found: dict[tuple[int, int, int, int], int] = {}
        for u in range(mm, mm + oo + 1):
            ub = bit if u > mm else 0
            for x in range(0 if can_local else u, u + 1):
                for j in range(0, wilds + 1):
                    for c2 in row[x + j]:
                        n2 = self.need(lane, pos, c2)
                        if j + n2 > wilds:
                            continue
                        k = (c2 << at, (u - x) << shift, j, n2)
                        found[k] = found.get(k, 0) | ub
        hit = [(c2, y, j, n2, ub) for (c2, y, j, n2), ub in found.items()]
        if shape.ordered and len(hit) > 1:
            codes, guards = shape.codes, shape.code_guards
            kept: list[Option] = []
            for i in range(len(hit)):
                c2, y, j, n2, ub = hit[i]
                code = codes[c2 >> at]
                dominated = False
                for k2 in range(len(hit)):
                    d2, dy, dj, dn, dub = hit[k2]
                    if k2 == i or dy != y or dj != j or dn > n2 or ub & ~dub:
                        continue
                    other = codes[d2 >> at]
                    if other != code and ((other | guards) - code) & guards == guards:
                        dominated = True
                        break
                if not dominated:
                    kept.append(hit[i])
            hit = kept
        hit.sort(key=lambda o: (o[2], o[3]))      # fewer wild pieces first
        return hit

    def _successors(self, pos: int, state: int, bits: int) -> list[tuple[int, int]]:
        """The states after position ``pos`` from ``state``, each with ``bits``
        and the bits of the optional pieces it uses. The lanes are chosen one
        after the other, and a choice that no local groups can complete is
        dropped at once. Each state built is a step of the budget."""
        shape = self.shape
        cb = self.cb
        mask = (1 << cb) - 1
        used = state >> self.used_shift
        room = self.wilds - used
        cache = self._options[pos]
        prefixes = shape.local_prefixes[pos]
        partial = [(0, 0, 0, 0, bits)]        # (state so far, local pieces, wild, need, bits)
        for lane in range(shape.lanes):
            cfg = (state >> (lane * cb)) & mask
            known = cache[lane]
            if known is None:
                known = cache[lane] = self.shared_options(lane, pos)
            opts = known.get(cfg)
            if opts is None:
                opts = known[cfg] = self.options(lane, pos, cfg)
            allowed = prefixes[lane + 1]
            grown = []
            for key, y, j, n, b in partial:
                for c2, yl, jl, nl, ub in opts:
                    y2 = y + yl
                    if y2 not in allowed:
                        continue
                    if jl or nl:
                        if j + jl + n + nl > room:
                            continue
                        grown.append((key + c2, y2, j + jl, n + nl, b | ub))
                    else:
                        grown.append((key + c2, y2, j, n, b | ub))
            self.budget.spend(len(grown) + 1)
            if not grown:
                return []
            partial = grown
        points = shape.local_points[pos]
        used_shift = self.used_shift
        wild_shift = shape.wild_shift
        out = []
        for key, y, j, n, b in partial:
            for k in range(0, room - j - n + 1):
                if y + (k << wild_shift) in points:
                    out.append((key | ((used + j + k) << used_shift), b))
        return out

    # ------------------------------------------------------------------ questions
    def feasible(self) -> bool:
        """Is there a split? (Depth first: a split near at hand is found at once.)"""
        return self._first() >= 0

    def reach(self) -> tuple[bool, int, bool]:
        """(a split exists; the bits ``lane * positions + pos`` of the cells of
        which some split uses optional pieces; some split uses an optional wild
        piece).

        When summaries compare (:attr:`Shape.ordered`), depth first: the split
        found proves the cells whose optional pieces it uses, then each cell not
        proven yet is asked alone (one more of its pieces mandatory), and so are
        the optional wild pieces; each split found proves more. Otherwise every
        position in turn, from all the states the one before leaves."""
        shape = self.shape
        lanes, positions = shape.lanes, shape.positions
        if not shape.ordered:
            return self._every_state()
        proven = self._first()
        if proven < 0:
            return False, 0, False
        for lane in range(lanes):
            for pos in range(positions):
                bit = 1 << (lane * positions + pos)
                if not self.o[lane][pos] or proven & bit:
                    continue
                m = list(self.types_m)
                o = list(self.types_o)
                t = shape.cells.index((lane, pos))
                m[t] += 1
                o[t] -= 1
                found = SweepSearch(shape, m, o, self.wm, self.wo, self.shared,
                                    self.budget, self.refuted)._first()
                if found >= 0:
                    proven |= found | bit
        if self.wo and self.ends_optional and not proven & self.wild_bit:
            found = SweepSearch(shape, self.types_m, self.types_o, self.wm + 1, self.wo - 1,
                                self.shared, self.budget, self.refuted)._first()
            if found >= 0:
                proven |= found | self.wild_bit
        return True, proven & (self.wild_bit - 1), bool(proven & self.wild_bit)

    def _first(self) -> int:
        """The bits (cells, and :attr:`wild_bit`) of the optional pieces that the
        first split found depth first uses; -1 if there is no split."""
        return self._dfs(0, 0)

    def _dfs(self, pos: int, state: int) -> int:
        """:meth:`_first` from ``state`` before position ``pos``.

        When summaries compare, the states after a position are tried heaviest
        first (the weight of a state: its summaries' weights, less the wild
        pieces used), and a state that a state already refuted at the same
        position dominates is refuted at once: a dominating state (summaries
        that do all its summaries do, the same wild pieces used, or fewer once
        the mandatory ones are placed) has every split it has. Each comparison
        of two states is a check of the budget (rulepack.patterns.budget)."""
        shape = self.shape
        if pos == shape.positions:
            used = state >> self.used_shift
            if used not in self.ends:
                return -1
            return self.wild_bit if used in self.ends_optional else 0
        failed = self._failed[pos]
        if state in failed:
            return -1
        ordered = shape.ordered
        code = used = 0
        if ordered:
            code = self._code(state)
            used = state >> self.used_shift
            if self._refuted(pos, code, used):
                failed.add(state)
                return -1
        successors = self._successors(pos, state, 0)
        if ordered and len(successors) > 1:
            successors = self._heaviest_first(successors)
        tried = set()
        for nxt, b in successors:
            if nxt not in tried:
                tried.add(nxt)
                found = self._dfs(pos + 1, nxt)
                if found >= 0:
                    return found | b
        failed.add(state)
        if ordered:
            self._dead[pos].append((code, used))
        return -1

    def _code(self, state: int) -> int:
        """The packed coordinates of a state's summaries (see Shape.codes)."""
        shape = self.shape
        cb = self.cb
        mask = (1 << cb) - 1
        codes, code_bits = shape.codes, shape.code_bits
        code = 0
        for lane in range(shape.lanes):
            code |= codes[(state >> (lane * cb)) & mask] << (lane * code_bits)
        return code

    def _refuted(self, pos: int, code: int, used: int) -> bool:
        """Does a state refuted before at ``pos`` dominate this one?"""
        guards = self.shape.code_guards
        fewer_from = self.wm
        dead = self._dead[pos]
        n = len(dead)
        for i in range(n):
            other, other_used = dead[i]
            if (other_used == used or fewer_from <= other_used <= used) \
                    and ((other | guards) - code) & guards == guards:
                self.budget.check(i + 1)
                return True
        self.budget.check(n)
        return False

    def _heaviest_first(self, successors: list[tuple[int, int]]) -> list[tuple[int, int]]:
        """``successors`` by weight, heaviest first (the order kept among equals)."""
        shape = self.shape
        cb = self.cb
        mask = (1 << cb) - 1
        weights = shape.weights
        used_shift = self.used_shift
        keyed: list[tuple[int, int, int, int]] = []
        for i in range(len(successors)):
            state, b = successors[i]
            weight = -(state >> used_shift)
            for lane in range(shape.lanes):
                weight += weights[(state >> (lane * cb)) & mask]
            keyed.append((-weight, i, state, b))
        keyed.sort()
        return [(state, b) for _, _, state, b in keyed]

    def _every_state(self) -> tuple[bool, int, bool]:
        """:meth:`reach` by all the states of every position, with the bits of
        the optional pieces each state's splits so far use."""
        states: dict[int, int] = {0: 0}
        for pos in range(self.shape.positions):
            nxt: dict[int, int] = {}
            for state, bits in states.items():
                for state2, b in self._successors(pos, state, bits):
                    old = nxt.get(state2)
                    nxt[state2] = b if old is None else old | b
            states = nxt
            if not states:
                return False, 0, False
        found = False
        bits_all = 0
        wild_used = False
        for state, bits in states.items():
            used = state >> self.used_shift
            if used not in self.ends:
                continue
            found = True
            bits_all |= bits
            if used in self.ends_optional:
                wild_used = True
        return found, bits_all, wild_used
