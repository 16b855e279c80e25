"""Determinization: a full state consistent with what one player knows.

Tree search over hidden information (PIMC, information-set MCTS) and bots that
look ahead need states, but a player only has a view. :func:`determinize`
builds a :class:`~rulepack.engine.state.State` in which every piece the
view shows is where the view shows it, and every hidden place is filled with a
piece the player has not seen, dealt at random from the player's own
generator (pieces the player remembers go where it remembers them first).
A die the view shows shows its face; a hidden one a face rolled at random.
The flow position and the variables come from the view's ``flow`` section; a
variable the player may not see (``seen by owner``, ``seen by nobody``) is
guessed as its declared initial value.

The position remembers which pieces the player truly knows (``Position.knowledge``),
so a ruleset heuristic can ask ``knows(p, piece)`` and tell a remembered tile
from a guessed one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rulepack.errors import Location, RulesetRuntimeError
from rulepack.engine.flow import run
from rulepack.engine.position import Position
from rulepack.engine.rng import Rng
from rulepack.engine.views import grid_places
from rulepack.engine.serialize import decode
from rulepack.engine.state import State
from rulepack.engine.values import Piece, piece_id

if TYPE_CHECKING:  # pragma: no cover
    from rulepack.engine.program import Program

#: A remembered place: (zone label, position in the zone) → piece id. The
#: position is the index in a stack or row, the slot of a grid, or ``None`` for
#: "somewhere in this pile".
Memory = dict[tuple[str, Any], int]


def determinize(program: "Program", view: dict[str, Any], rng: Rng,
                memory: Memory | None = None, max_decisions: int = 100_000,
                known: dict[int, tuple[str, Any]] | None = None,
                linked: list[tuple[list[int], list[tuple[str, Any]]]] | None = None
                ) -> "State":
    """A state of ``program`` consistent with ``view`` (and with ``memory``).

    :param view: ``State.view(player)`` output for this instance.
    :param rng: the caller's generator; it fixes the deal of hidden pieces and
        the new state's own chance events.
    :param memory: places where the player believes hidden pieces are.
    :param known: piece id → (zone label, position) of hidden pieces the player
        has followed (see :class:`~rulepack.agents.belief.Belief`); position
        ``None`` for a pile. They go there first, before ``memory``.
    :param linked: ``[(piece ids, places)]``: pieces the player knows went to
        these places in an order it cannot tell (see
        :meth:`~rulepack.agents.belief.Belief.links`); they are dealt among those
        places at random (each piece to a place of its back), before the others.
    :raises RulesetRuntimeError: the view does not fit the instance.
    """
    followed = known or {}
    player = int(view["player"])
    labels = {z.label: z.index for z in program.zones}
    zones: list[list[Any]] = [[] for _ in program.zones]
    for z in program.zones:
        if z.kind == "grid":
            zones[z.index] = [None] * len(z.cells)
    face = [False] * len(program.pieces)
    owner: list[Any] = [None] * len(program.pieces)
    seen: set[int] = set()
    holes: list[tuple[int, Any, str]] = []  # (zone index, position, kind) still to fill
    # two-sided pieces seen by their side up: (zone index, position, look, face up)
    sided_holes: list[tuple[int, Any, str, bool]] = []

    # the way pieces point, anyone sees it: by place (a piece dealt there points so)
    pointing: dict[tuple[int, Any], int] = {}
    pointing_seen: dict[int, int] = {}

    def hole(zi: int, pos: Any, entry: dict[str, Any]) -> None:
        if entry.get("angle") and pos is not None:
            pointing[(zi, pos)] = int(entry["angle"])
        if "look" in entry:
            sided_holes.append((zi, pos, entry["look"], entry.get("face") == "up"))
        else:
            holes.append((zi, pos, entry["kind"]))

    rolled: dict[int, Any] = {}         # the faces the dice the view shows show

    def place_visible(zi: int, pos: Any, data: dict[str, Any]) -> None:
        piece = program.pieces[data["id"]]
        seen.add(piece.id)
        if data.get("angle"):
            pointing_seen[piece.id] = int(data["angle"])
        if piece.rolls is not None:
            rolled[piece.id] = decode(program, data[piece.rolls[0]])
        face[piece.id] = data.get("face") == "up"
        if data.get("owner") is not None:
            seat = data["owner"]
            if type(seat) is not int or not 0 <= seat < program.num_players:
                raise ValueError(f"no seat {seat!r} owns a piece in a game of "
                                 f"{program.num_players} players")
            owner[piece.id] = program.seats[seat]      # every Player is a seat
        if pos is None:
            zones[zi].append(piece)
        else:
            zones[zi][pos] = piece

    # a pile counts hidden pieces by their look: those of two-sided pieces, by side
    sided_looks: dict[str, bool] = {}       # look → face up
    heights: dict[int, list[int]] = {}      # a stacked grid's pieces beneath each top
    for piece in program.pieces:
        if piece.sides is not None:
            for up in (True, False):
                if not up or piece.sides[0] is not None:     # a side that hides it
                    sided_looks[piece.look(up)] = up
    try:
        for label, zv in view["zones"].items():
            zi = labels[label]
            kind = program.zones[zi].kind
            if kind == "grid":
                # the cells' tops, then a stacked grid's pieces beneath them (the
                # order of the zone's list: rulepack.engine.stacks)
                places = grid_places(zv)
                zones[zi] = [None] * len(places)
                if len(places) > len(zv["cells"]):
                    heights[zi] = [max(0, len(c.get("stack", ())) - 1) for c in zv["cells"]]
                for pos, entry in places:
                    if entry is None:
                        continue
                    if entry.get("hidden"):
                        hole(zi, pos, entry)
                    else:
                        place_visible(zi, pos, entry)
            elif kind == "pile":
                for entry in zv["pieces"]:
                    place_visible(zi, None, entry)
                for k, n in (zv.get("hidden_kinds") or {}).items():
                    if k in sided_looks:
                        sided_holes.extend((zi, None, k, sided_looks[k]) for _ in range(int(n)))
                    else:
                        holes.extend((zi, None, k) for _ in range(int(n)))
            else:
                zones[zi] = [None] * len(zv["pieces"])
                for pos, entry in enumerate(zv["pieces"]):
                    if entry.get("hidden"):
                        hole(zi, pos, entry)
                    else:
                        place_visible(zi, pos, entry)
    except (KeyError, IndexError, TypeError, ValueError) as exc:
        raise RulesetRuntimeError.at(f"this view does not fit the ruleset: {exc!r}",
                                     Location(program.file), code="bad-view") from None

    pool: dict[str, list[Piece]] = {}
    sided: list[Piece] = []
    for piece in program.pieces:
        if piece.id not in seen:
            if piece.sides is None:
                pool.setdefault(piece.back, []).append(piece)
            else:
                sided.append(piece)
    known_ids = set(seen)
    remaining: list[tuple[int, Any, str]] = []
    memory = dict(memory or {})
    in_pile: dict[str, list[int]] = {}
    for pid, (label, pos) in followed.items():
        if pos is None:
            in_pile.setdefault(label, []).append(pid)
        else:
            memory[(label, pos)] = pid
    holes = _deal_links(program, labels, holes, linked or [], pool, zones, rng)
    for zi, pos, kind in holes:
        label = program.zones[zi].label
        remembered = memory.get((label, pos))
        candidates = pool.get(kind, [])
        if pos is None and in_pile.get(label):
            ids = {p.id for p in candidates}
            remembered = next((pid for pid in in_pile[label] if pid in ids), None)
            if remembered is not None:
                in_pile[label].remove(remembered)
        hit = next((p for p in candidates if p.id == remembered), None) \
            if remembered is not None else None
        if hit is not None:
            candidates.remove(hit)
            known_ids.add(hit.id)
            _put(zones, zi, pos, hit)
        else:
            remaining.append((zi, pos, kind))
    for kind in pool:
        rng.shuffle(pool[kind])
    for zi, pos, kind in remaining:
        left = pool.get(kind)
        if not left:
            raise RulesetRuntimeError.at(f"the view shows more hidden {kind}s than the game has",
                                         Location(program.file), code="bad-view")
        _put(zones, zi, pos, left.pop())
    if sided_holes:
        rng.shuffle(sided)
        chosen = _match([[p for p in sided if p.look(up) == look]
                         for _, _, look, up in sided_holes])
        if chosen is None:
            raise RulesetRuntimeError.at("the view shows two-sided pieces that the game's "
                                         "pieces cannot all be", Location(program.file),
                                         code="bad-view")
        for (zi, pos, _, up), piece in zip(sided_holes, chosen):
            face[piece.id] = up
            _put(zones, zi, pos, piece)
    for z in program.zones:
        if z.kind == "pile":
            zones[z.index].sort(key=piece_id)

    # a die the player cannot see shows a face rolled from the player's generator
    for piece in program.pieces:
        if piece.rolls is not None and piece.id not in rolled:
            _, faces, weights = piece.rolls
            rolled[piece.id] = faces[rng.roll(faces, weights, piece.name)]
    angles = dict(pointing_seen)
    for (zi, pos), angle in pointing.items():
        angles[zones[zi][pos].id] = angle % 360
    flow = view["flow"]
    hidden_pick = _HiddenPicker(program, zones, seen, rng, face)
    variables = {k: _decode_masked(program, v, hidden_pick) for k, v in flow["vars"].items()}
    st = Position.of(
        program, max_decisions, zones=zones, face=face, owner=owner, rolled=rolled,
        active=list(view["active"]), variables=variables, rng=Rng(rng.below(1 << 62)),
        pc=int(flow["pc"]), terminal=bool(view["terminal"]), winners=flow.get("winners"),
        decisions=int(flow.get("decisions", 0)), turns=int(flow.get("turns", 0)),
        groupings={labels[label]: tuple(len(g) for g in zv["groups"])
                   for label, zv in view["zones"].items() if zv.get("groups") is not None},
        knowledge=(player, frozenset(known_ids)),
        heights={z: tuple(hs) for z, hs in heights.items()},
        angles={i: a for i, a in angles.items() if a})
    _guess_secrets(st)
    if not st.terminal and flow.get("pending"):
        run(st, st.pc)
    return State(st)


def _deal_links(program: "Program", labels: dict[str, int], holes: list[tuple[int, Any, str]],
                linked: list[tuple[list[int], list[tuple[str, Any]]]],
                pool: dict[str, list[Piece]], zones: list[list[Any]],
                rng: Rng) -> list[tuple[int, Any, str]]:
    """Deal each link's pieces among its places (in place); returns the holes left.
    A link that no longer fits the holes and the unseen pieces is skipped."""
    left = list(holes)
    for pids, places in linked:
        pieces = [p for p in (program.pieces[pid] for pid in pids)
                  if p in pool.get(p.back, ())]
        spots = []
        free = list(left)
        for label, pos in places:
            zi = labels.get(label)
            spot = next((h for h in free if h[0] == zi and h[1] == pos), None)
            if spot is None:
                break
            free.remove(spot)
            spots.append(spot)
        if len(pieces) != len(pids) or len(spots) != len(places) or \
                sorted(p.back for p in pieces) != sorted(h[2] for h in spots):
            continue
        for back in {h[2] for h in spots}:
            mine = [p for p in pieces if p.back == back]
            rng.shuffle(mine)
            for (zi, pos, _), piece in zip([h for h in spots if h[2] == back], mine):
                pool[back].remove(piece)
                _put(zones, zi, pos, piece)
        left = free
    return left


class _Secret:
    """Stands for a variable's value (or entry) the view does not show."""


_SECRET = _Secret()


def _guess_secrets(st: Position) -> None:
    """Put each hidden variable value back as the variable's initial value."""
    from rulepack.engine.runtime import RuleValueError
    for name in st.program.private_vars:
        value = st.vars.get(name)
        if value is _SECRET or (type(value) is list and any(v is _SECRET for v in value)):
            per, fn = st.program.initial[name]
            try:
                guess = fn(st)
            except RuleValueError:
                guess = None
            if type(value) is list:
                st.vars[name] = [guess if v is _SECRET else v for v in value]
            else:
                entries = st.program.entries(name)
                st.vars[name] = guess if entries is None else [guess] * entries


def _match(fits: list[list[Piece]]) -> list[Piece] | None:
    """One piece for each hole, each from the hole's list of pieces that fit it,
    no piece twice (a bipartite matching by augmenting paths), or ``None``.
    Two-sided pieces need it: a piece showing one side's value and another
    showing the other side's may both be the same piece, which only one is."""
    owner: dict[int, int] = {}       # piece id → hole

    def place(hole: int, tried: set[int]) -> bool:
        for piece in fits[hole]:
            if piece.id in tried:
                continue
            tried.add(piece.id)
            if piece.id not in owner or place(owner[piece.id], tried):
                owner[piece.id] = hole
                return True
        return False

    for hole in range(len(fits)):
        if not place(hole, set()):
            return None
    by_hole = {hole: pid for pid, hole in owner.items()}
    pieces = {p.id: p for f in fits for p in f}
    return [pieces[by_hole[h]] for h in range(len(fits))]


def _put(zones: list[list[Any]], zi: int, pos: Any, piece: Piece) -> None:
    if pos is None:
        zones[zi].append(piece)
    else:
        zones[zi][pos] = piece


class _HiddenPicker:
    """Stands in a guessed piece for a hidden piece held in a variable."""

    def __init__(self, program: "Program", zones: list[list[Any]], seen: set[int], rng: Rng,
                 face: list[bool]) -> None:
        self.by_kind: dict[str, list[Piece]] = {}
        for zone in zones:
            for p in zone:
                if p is not None and p.id not in seen:
                    self.by_kind.setdefault(p.look(face[p.id]), []).append(p)
        self.rng = rng

    def __call__(self, kind: str) -> Piece | None:
        options = self.by_kind.get(kind)
        return self.rng.choice(options) if options else None


def _decode_masked(program: "Program", data: Any, pick: _HiddenPicker) -> Any:
    if isinstance(data, list):
        return [_decode_masked(program, v, pick) for v in data]
    if isinstance(data, dict):
        if "secret" in data:
            return _SECRET
        if "hidden" in data:
            return pick(data["hidden"])
        if "tuple" in data:
            return tuple(_decode_masked(program, v, pick) for v in data["tuple"])
        if "map" in data:
            return {_decode_masked(program, k, pick): _decode_masked(program, v, pick)
                    for k, v in data["map"]}
        return decode(program, data)
    return data


class Sampler:
    """Draws determinizations of one view quickly, for a search that wants a new
    one at every iteration.

    The first is built by :func:`determinize`; each sample is a clone of it in
    which the pieces the player neither sees nor knows (see
    ``Position.knowledge``) are dealt anew among their places, piece for
    piece of the same back. (A variable holding a hidden piece keeps the
    piece :func:`determinize` guessed for it, as good a guess as any.)

    Linked pieces (``linked``) are dealt anew among their link's places only.

    :param program, view, rng, memory, known, linked: as for :func:`determinize`.
    """

    def __init__(self, program: "Program", view: dict[str, Any], rng: Rng,
                 memory: Memory | None = None,
                 known: dict[int, tuple[str, Any]] | None = None,
                 linked: list[tuple[list[int], list[tuple[str, Any]]]] | None = None
                 ) -> None:
        self.base = determinize(program, view, rng, memory, known=known, linked=linked)
        base = self.base.position
        assert base.knowledge is not None
        sure = base.knowledge[1]
        # a link determinize could not deal (it no longer fits) is not kept apart
        link_of = {pid: k for k, (pids, places) in enumerate(linked or [])
                   if sorted(map(repr, (_where(base, pid) for pid in pids))) ==
                   sorted(map(repr, places)) for pid in pids}
        groups: dict[tuple[str, int], list[tuple[int, int]]] = {}
        for zi, zone in enumerate(base.zones):
            for pos, p in enumerate(zone):
                if p is not None and p.id not in sure:
                    groups.setdefault((p.back, link_of.get(p.id, -1)), []).append((zi, pos))
        self.groups = [g for g in groups.values() if len(g) > 1]

    def sample(self, rnd: Any) -> "State":
        """A new determinization; ``rnd`` is a :class:`random.Random`."""
        state = self.base.clone()
        zones = state.position.zones
        places: list[tuple[int, int]] = []
        pieces: list[Piece] = []
        for group in self.groups:
            dealt = [zones[zi][pos] for zi, pos in group]
            rnd.shuffle(dealt)
            places += group
            pieces += dealt
        state.position.put(places, pieces)
        return state


def _where(st: Position, pid: int) -> tuple[str, Any]:
    """(zone label, position) of a piece; position ``None`` in a pile."""
    zi = st.loc[pid]
    info = st.program.zones[zi]
    if info.kind == "pile":
        return (info.label, None)
    return (info.label, next(pos for pos, p in enumerate(st.zones[zi])
                             if p is not None and p.id == pid))
