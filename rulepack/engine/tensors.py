"""Fixed-length tensors of what a player knows: their layout and how they are filled.

A tensor's length depends only on the instance (:func:`tensor_layout`); the
engine's observation and information-state tensors
(:class:`rulepack.engine.observe.Observations`) are filled here as sparse
entries (index → value). The observation tensor holds what the player's view
(:func:`rulepack.engine.views.build_view`) holds, in these blocks, in order:

1. **pieces**, one row each: seen by the player, its zone (one-hot), its grid
   cell (one-hot), face up, its owner (one-hot), its place in an ordered zone
   (a stack, row or groups zone: 1 for the first; a stacked grid: its level in
   its cell, 1 for the bottom) and the group it is in (1 for
   the first; 0 while the zone is not arranged). A piece the player cannot see
   has no row: it is only counted, by its look, below;
2. **hidden pieces**: per zone how many the player cannot see; per grid cell the
   look of a hidden piece in it (the look's number + 1, 0 for none; in a stacked
   grid, of its top); per zone and look how many hidden pieces of that look it
   holds (in a stacked grid, those beneath a top); per ordered zone and place
   the look of the hidden piece there (+1);
3. who decides (one-hot over the seats, then chance), the observing seat
   (one-hot), whether the game is over;
4. **scores**: each seat's score, and whether the player may not see it (a score
   of private variables during play: its value is then 0);
5. **flow**: the program counter, decisions, turns, whether a decision is
   pending, the active seats, whether winners were named and which;
6. **variables**: one slot per ``current``, ``round``, declared variable (per
   seat for a ``per player`` one, per team for a ``per team`` one) and name the flow may hold (``let``, loop and
   parameter names: ``Instance.flow_names``), each the value as the player sees
   it (:func:`value_entries`);
7. per die (piece order), the face it shows when the player sees it, one-hot
   over its faces (none without dice);
8. for a ruleset that turns pieces (``rotate``), per grid cell the way its top
   piece points, its angle / 360 (anyone sees it, hidden or not): last.

The information-state tensor is the observation tensor, then per piece where
the player last saw it (zone and cell one-hot), then at a chance node which draw
of which statement it is (the draw, the statement's line and column, its kind
one-hot) and the decision under way as the player saw it, then, for a ruleset
that declares its longest game (``at most N decisions``, and at most
:data:`MAX_HISTORY` floats), its decisions as the player saw them. A decision is
the seat that took it (one-hot), whether the player was told what it was (not
while another seat's step is under way), its text (one-hot over the instance's
action texts) and each parameter as a value slot, a piece the player could not
see counted by its look only.

Values in a slot (``SLOT_FLAGS`` then one count per atom): none, a truth value
(and which), a number (and its value), hidden from the player, a list, a tuple, a
map, its length, the sum, count and sum of squares of the numbers inside it,
how many ``true``, ``false`` and ``none`` inside, texts outside the vocabulary,
lists inside; then how many times each seat, piece seen, look of a piece not
seen, cell, zone, pattern and text occurs in it. A list is its elements'
counts: two lists of the same elements in another order read alike.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, final

from weakref import WeakKeyDictionary

from rulepack.engine.actions import Action
from rulepack.engine.flow import current_player
from rulepack.engine.queries import groups, visible
from rulepack.engine.stacks import stack_at
from rulepack.engine.values import Cell, PatternRef, Piece, Player, ZoneRef
from rulepack.engine.views import scores_seen

if TYPE_CHECKING:  # pragma: no cover
    from rulepack.engine.position import Position
    from rulepack.engine.program import Program

#: a history block longer than this many floats is left out (a game too long for it)
MAX_HISTORY = 1_000_000
#: the fixed part of a value slot (see the module's description)
SLOT_FLAGS = 19
#: the flow block's numbers before its per-seat parts
_FLOW_NUMBERS = 4
#: the chance block's numbers before its decision: the draw, the statement's line
#: and column, its kind (one-hot)
_CHANCE_KINDS = ("random", "shuffle", "roll")
_CHANCE_NUMBERS = 3 + len(_CHANCE_KINDS)


@dataclass(frozen=True)
class TensorLayout:
    """Where each block of the tensors of one instance sits (see the module's
    description for the blocks and their order).

    :param pieces: pieces of the instance; ``zones``: zones (the box included);
        ``cells``: grid cells over all grids; ``players``: seats; ``faces``:
        faces over all dice; ``looks``: distinct looks of pieces not seen;
        ``ordered``: zones that keep an order (stack, row, groups); ``slots``:
        variable slots; ``atoms``: the atoms a value slot counts; ``decisions``:
        decisions of the history block (0: none); ``texts``: action texts;
        ``params``: the most parameters of an action; ``angles``: grid cells
        whose top's angle is observed (0 unless the ruleset turns pieces).
    """

    pieces: int
    zones: int
    cells: int
    players: int
    faces: int = 0
    looks: int = 1
    ordered: int = 0
    slots: int = 0
    atoms: int = 0
    decisions: int = 0
    texts: int = 0
    params: int = 0
    angles: int = 0

    @property
    def piece_width(self) -> int:
        return 1 + self.zones + self.cells + 1 + self.players + 2

    @property
    def hidden_at(self) -> int:
        """Where the hidden pieces' block starts."""
        return self.pieces * self.piece_width

    @property
    def hidden_width(self) -> int:
        return self.zones + self.cells + self.zones * self.looks + self.ordered * self.pieces

    @property
    def decider_at(self) -> int:
        return self.hidden_at + self.hidden_width

    @property
    def scores_at(self) -> int:
        """Where the scores start (``players`` of them, then as many hidden flags)."""
        return self.decider_at + (self.players + 1) + self.players + 1

    @property
    def flow_at(self) -> int:
        return self.scores_at + 2 * self.players

    @property
    def slot_width(self) -> int:
        return SLOT_FLAGS + self.atoms

    @property
    def slots_at(self) -> int:
        return self.flow_at + _FLOW_NUMBERS + self.players + 1 + self.players

    @property
    def faces_at(self) -> int:
        return self.slots_at + self.slots * self.slot_width

    @property
    def size(self) -> int:
        """Length of the observation tensor."""
        return self.faces_at + self.faces + self.angles

    @property
    def memory_width(self) -> int:
        return self.zones + self.cells

    @property
    def decision_width(self) -> int:
        """One decision of the history block."""
        return self.players + 1 + self.texts + self.params * self.slot_width

    @property
    def chance_at(self) -> int:
        """Where the block of the chance node under way starts."""
        return self.size + self.pieces * self.memory_width

    @property
    def history_at(self) -> int:
        return self.chance_at + _CHANCE_NUMBERS + self.decision_width

    @property
    def information_size(self) -> int:
        """Length of the information-state tensor: the observation tensor, where
        the player last saw each piece, the chance node under way, and the
        history block (if any)."""
        return self.history_at + self.decisions * self.decision_width

    def unbounded(self) -> list[tuple[int, int]]:
        """The index ranges ``[start, stop)`` of entries that may be negative or
        large (scores, the flow's counters, variable slots); every other entry is
        from 0 to ``max(pieces, looks + 1)``."""
        return [(self.scores_at, self.scores_at + self.players),
                (self.flow_at, self.flow_at + _FLOW_NUMBERS),
                (self.slots_at, self.faces_at)]


@dataclass
class _Vocabulary:
    """What a layout numbers: looks, texts, slots, action texts (made once)."""

    looks: dict[str, int]
    texts: dict[str, int]
    #: per slot: (variable name, seat for a per-player variable or None)
    slots: list[tuple[str, int | None]]
    templates: dict[str, int]
    #: where each kind of atom starts in a slot's counts
    seats_at: int
    pieces_at: int
    looks_at: int
    cells_at: int
    zones_at: int
    patterns_at: int
    texts_at: int
    #: per zone, where its cells start (grids) and its place among ordered zones
    cell_offsets: list[int]
    ordered: dict[int, int]
    face_offsets: dict[int, int]


def tensor_layout(program: "Program") -> TensorLayout:
    """The tensor layout of a program (made once)."""
    return _made(program)[0]


#: each program's layout and vocabulary, made when first asked for (this
#: module's: a program holds no cache)
_MADE: "WeakKeyDictionary[Program, tuple[TensorLayout, _Vocabulary]]" = WeakKeyDictionary()


def _made(program: "Program") -> tuple[TensorLayout, _Vocabulary]:
    made = _MADE.get(program)
    if made is None:
        made = _MADE[program] = _make(program)
    return made


def _make(inst: "Program") -> tuple[TensorLayout, _Vocabulary]:
    cell_offsets: list[int] = []
    cells = 0
    for z in inst.zones:
        cell_offsets.append(cells)
        if z.kind == "grid":
            cells += len(z.cells)
    ordered = {z.index: i for i, z in enumerate(
        [z for z in inst.zones if z.kind in ("stack", "row", "groups") or z.stacked])}
    face_offsets: dict[int, int] = {}
    faces = 0
    for p in inst.pieces:
        if p.rolls is not None:
            face_offsets[p.id] = faces
            faces += len(p.rolls[1])
    looks = {look: i for i, look in enumerate(dict.fromkeys(
        p.look(up) for p in inst.pieces for up in (False, True)))}
    words: set[str] = {str(v) for p in inst.pieces for v in p.attrs.values()
                       if isinstance(v, str)}
    words |= inst.words                     # symbols and texts of the ruleset
    words |= {str(v) for v in inst.options.values() if isinstance(v, str)}
    texts = {w: i for i, w in enumerate(sorted(words))}
    n = inst.num_players
    slots: list[tuple[str, int | None]] = [("current", None), ("round", None)]
    for name in inst.initial:
        entries = inst.entries(name)
        slots += [(name, None)] if entries is None else [(name, e) for e in range(entries)]
    slots += [(name, None) for name in inst.flow_names]
    templates = {t: i for i, t in enumerate(dict.fromkeys(
        alt.text for choice in inst.choices for alt in choice.alternatives))}
    params = max([0] + [len(alt.params) for choice in inst.choices
                        for alt in choice.alternatives])
    seats_at = 0
    pieces_at = seats_at + n
    looks_at = pieces_at + len(inst.pieces)
    cells_at = looks_at + len(looks)
    zones_at = cells_at + cells
    patterns_at = zones_at + len(inst.zones)
    texts_at = patterns_at + len(inst.patterns)
    atoms = texts_at + len(texts)
    vocab = _Vocabulary(looks, texts, slots, templates, seats_at, pieces_at, looks_at,
                        cells_at, zones_at, patterns_at, texts_at, cell_offsets, ordered,
                        face_offsets)
    angles = cells if inst.turns_pieces else 0
    layout = TensorLayout(len(inst.pieces), len(inst.zones), cells, n, faces, len(looks),
                          len(ordered), len(slots), atoms, 0, len(templates), params, angles)
    longest = inst.longest
    if longest is not None and longest * layout.decision_width <= MAX_HISTORY:
        layout = TensorLayout(len(inst.pieces), len(inst.zones), cells, n, faces, len(looks),
                              len(ordered), len(slots), atoms, longest, len(templates), params,
                              angles)
    return layout, vocab


def _placed(st: "Position") -> list[tuple[Piece, int, int | None, int]]:
    """Every piece with its zone, global cell index (``None`` off grids) and
    place in its zone."""
    offsets = _made(st.program)[1].cell_offsets
    kinds = st.program.zone_kinds
    out: list[tuple[Piece, int, int | None, int]] = []
    for z, content in enumerate(st.zones):
        if kinds[z] == "grid":
            base = offsets[z]
            info = st.program.zones[z]
            if info.stacked:
                # a stacked grid: each piece's place is its level in its cell (0: the
                # bottom), the tops first, then the pieces beneath them
                cells = info.cell_objects
                hs = st.heights.get(z) or (0,) * len(cells)
                out += [(piece, z, base + slot, hs[slot]) for slot, piece in
                        enumerate(content[:len(cells)]) if piece is not None]
                out += [(piece, z, base + cell.slot, level) for cell, h in zip(cells, hs)
                        for level, piece in enumerate(stack_at(st, cell)[:h])]
                continue
            out += [(piece, z, base + slot, slot) for slot, piece in enumerate(content)
                    if piece is not None]
        else:
            out += [(piece, z, None, i) for i, piece in enumerate(content)]
    return out


def observation_entries(st: "Position", p: int) -> dict[int, float]:
    """The non-zero entries of ``p``'s observation tensor (``p`` a seat)."""
    inst = st.program
    lay, vocab = _made(inst)
    out: dict[int, float] = {}
    width = lay.piece_width
    hidden_at = lay.hidden_at
    cells_at = hidden_at + lay.zones
    looks_at = cells_at + lay.cells
    places_at = looks_at + lay.zones * lay.looks
    ordered = vocab.ordered
    grouped = {}
    for z in ordered:
        if inst.zone_kinds[z] == "groups":
            for g, group in enumerate(groups(st, z) or ()):
                for piece in group:
                    grouped[piece.id] = g + 1
    placed = _placed(st)
    top_levels: dict[int, int] = {}     # a stacked grid's cell → its top's level
    for piece, z, cell, place in placed:
        if cell is not None and z in ordered:
            top_levels[cell] = max(top_levels.get(cell, 0), place)
    for piece, z, cell, place in placed:
        if _visible(st, piece, p):
            row = piece.id * width
            out[row] = 1.0
            out[row + 1 + z] = 1.0
            if cell is not None:
                out[row + 1 + lay.zones + cell] = 1.0
            if st.face[piece.id]:
                out[row + 1 + lay.zones + lay.cells] = 1.0
            owner = st.owner[piece.id]
            if owner is not None:
                out[row + 2 + lay.zones + lay.cells + int(owner)] = 1.0
            if z in ordered:
                out[row + 2 + lay.zones + lay.cells + lay.players] = float(place + 1)
                if piece.id in grouped:
                    out[row + 3 + lay.zones + lay.cells + lay.players] = float(grouped[piece.id])
        else:
            look = vocab.looks[piece.look(st.face[piece.id])]
            out[hidden_at + z] = out.get(hidden_at + z, 0.0) + 1.0
            if cell is not None and not (z in ordered and place < top_levels[cell]):
                out[cells_at + cell] = float(look + 1)      # (a stack's: its top's)
            elif cell is not None:
                at = looks_at + z * lay.looks + look        # beneath a top: counted
                out[at] = out.get(at, 0.0) + 1.0
            else:
                at = looks_at + z * lay.looks + look
                out[at] = out.get(at, 0.0) + 1.0
                if z in ordered:
                    out[places_at + ordered[z] * lay.pieces + place] = float(look + 1)
    at = lay.decider_at
    current = current_player(st)
    if current >= 0:
        out[at + current] = 1.0
    elif st.rng.node is not None:
        out[at + lay.players] = 1.0        # chance decides
    at += lay.players + 1
    out[at + p] = 1.0
    at += lay.players
    if st.terminal:
        out[at] = 1.0
    at = lay.scores_at
    for seat, score in enumerate(scores_seen(st, p) or ()):
        if score is None:
            out[at + lay.players + seat] = 1.0
        elif score:
            out[at + seat] = _number(score)
    at = lay.flow_at
    for i, number in enumerate((st.pc, st.decisions, st.turns,
                                int(st.pending is not None))):
        if number:
            out[at + i] = float(number)
    at += _FLOW_NUMBERS
    for seat, active in enumerate(st.active):
        if active:
            out[at + seat] = 1.0
    at += lay.players
    if st.winners is not None:
        out[at] = 1.0
        for seat in st.winners:
            out[at + 1 + int(seat)] = 1.0
    private = inst.private_vars
    variables = st.vars
    base, slot_width = lay.slots_at, lay.slot_width
    for name, entry in vocab.slots:
        if name in variables:
            value = variables[name]
            who = private.get(name)
            if who is not None and (who == "nobody" or entry != inst.own_entry(name, p)):
                out[base + 5] = 1.0               # hidden from the player
            else:
                value_entries(st, p, value[entry] if entry is not None else value, out, base)
        base += slot_width
    if lay.faces:
        at = lay.faces_at
        for pid, offset in vocab.face_offsets.items():
            die = inst.pieces[pid]
            rolls = die.rolls               # (a die's: face_offsets holds dice only)
            if rolls is not None and _visible(st, die, p):
                faces = rolls[1]
                out[at + offset + faces.index(st.rolled.get(pid, faces[0]))] = 1.0
    if lay.angles and st.angles:
        at = lay.faces_at + lay.faces
        for z, info in enumerate(inst.zones):
            if info.kind == "grid":
                base = at + vocab.cell_offsets[z]
                for slot, piece in enumerate(st.zones[z][:len(info.cells)]):
                    if piece is not None and st.angles.get(piece.id):
                        out[base + slot] = st.angles[piece.id] / 360
    return out


def value_entries(st: "Position", p: int, value: object, out: dict[int, float], base: int,
                  seen: "Position | _Everything | None" = None) -> None:
    """Add the entries of ``value`` as ``p`` sees it (in ``seen``, default ``st``)
    to a value slot starting at ``base`` (see the module's description)."""
    if value is None:
        out[base] = 1.0
    elif type(value) is bool:
        out[base + 1] = 1.0
        if value:
            out[base + 2] = 1.0
    elif type(value) is int or type(value) is float:
        out[base + 3] = 1.0
        if value:
            out[base + 4] = _number(value)
    elif type(value) is list or type(value) is tuple or type(value) is dict:
        t = type(value)
        out[base + (6 if t is list else 7 if t is tuple else 8)] = 1.0
        if value:
            out[base + 9] = float(len(value))
        _inner(st, p, value, out, base, seen or st)
    else:
        _atom(st, p, value, out, base, seen or st)


def _inner(st: "Position", p: int, value: list[object] | tuple[object, ...] | dict[object, object],
           out: dict[int, float], base: int, seen: "Position | _Everything") -> None:
    items: list[object] | tuple[object, ...] = \
        [x for kv in value.items() for x in kv] if isinstance(value, dict) else value
    for x in items:
        if x is None:
            _add(out, base + 15, 1.0)
        elif type(x) is bool:
            _add(out, base + (13 if x else 14), 1.0)
        elif type(x) is int or type(x) is float:
            number = _number(x)
            _add(out, base + 10, number)
            _add(out, base + 11, 1.0)
            _add(out, base + 12, number * number)
        elif type(x) is list or type(x) is tuple or type(x) is dict:
            _add(out, base + 17, 1.0)
            _add(out, base + 18, float(len(x)))
            _inner(st, p, x, out, base, seen)
        else:
            _atom(st, p, x, out, base, seen)


def _atom(st: "Position", p: int, x: object, out: dict[int, float], base: int,
          seen: "Position | _Everything") -> None:
    vocab = _made(st.program)[1]
    at = base + SLOT_FLAGS
    if type(x) is Player:
        at += vocab.seats_at + int(x)
    elif type(x) is Piece:
        if _visible(seen, x, p):
            at += vocab.pieces_at + x.id
        else:
            at += vocab.looks_at + vocab.looks[x.look(seen.face[x.id])]
    elif type(x) is Cell:
        at += vocab.cells_at + vocab.cell_offsets[x.zone] + x.slot
    elif type(x) is ZoneRef:
        at += vocab.zones_at + x.index
    elif type(x) is PatternRef:
        at += vocab.patterns_at + x.index
    elif type(x) is str and x in vocab.texts:
        at += vocab.texts_at + vocab.texts[x]
    else:
        at = base + 16                    # a text (or value) outside the vocabulary
    _add(out, at, 1.0)


def _number(x: int | float) -> float:
    """A rules number as a float (a whole number too large for one: infinite)."""
    try:
        return float(x)
    except OverflowError:
        return math.inf if x > 0 else -math.inf


def _add(out: dict[int, float], at: int, value: float) -> None:
    total = out.get(at, 0.0) + value
    if total:
        out[at] = total
    else:
        out.pop(at, None)


def last_seen(st: "Position", p: int) -> list[tuple[int, int | None] | None]:
    """Per piece, the zone and cell where ``p`` last saw it (kept with each
    position of an explicit-chance game, so each is computed once)."""
    cache = said(st, "seen")
    seen = cache.get(p)
    if seen is None:
        previous = getattr(st.rng, "previous", None)
        seen = list(last_seen(previous, p)) if previous is not None \
            else [None] * len(st.program.pieces)
        for piece, z, cell, _ in _placed(st):
            if _visible(st, piece, p):
                seen[piece.id] = (z, cell)
        cache[p] = seen
    return list(seen)


def information_state_entries(st: "Position", p: int) -> dict[int, float]:
    """The non-zero entries of ``p``'s information-state tensor (``p`` a seat)."""
    lay, vocab = _made(st.program)
    out = observation_entries(st, p)
    width = lay.memory_width
    at = lay.size
    for i, where in enumerate(last_seen(st, p)):
        if where is not None:
            z, cell = where
            out[at + i * width + z] = 1.0
            if cell is not None:
                out[at + i * width + lay.zones + cell] = 1.0
    node = st.rng.node
    if node is not None:                    # a chance node: which draw of what
        at = lay.chance_at
        out[at] = float(len(getattr(st.rng, "queue", ())) + 1)
        out[at + 1] = float(node.location.line or 0)
        out[at + 2] = float(node.location.column or 0)
        if node.kind in _CHANCE_KINDS:
            out[at + 3 + _CHANCE_KINDS.index(node.kind)] = 1.0
        step = getattr(st.rng, "step", None)
        if step is not None:                # and who acted (what, if it was p)
            _decision(st, p, out, lay, vocab, at + _CHANCE_NUMBERS, step, st,
                      step.player == p)
    if lay.decisions:
        _history(st, p, out, lay, vocab)
    return out


def _history(st: "Position", p: int, out: dict[int, float], lay: TensorLayout,
             vocab: _Vocabulary) -> None:
    """The decisions of the game as ``p`` saw them (the history block), each as
    the information-state string tells it: what ``p`` saw of a step is decided
    by the position after it (a step under way at a chance node is the chance
    block's)."""
    steps: list[tuple[Action, "Position"]] = []
    at: "Position | None" = st
    while at is not None:
        previous = getattr(at.rng, "previous", None)
        if at.rng.node is None:
            start = len(previous.history) if previous is not None else 0
            steps += [(e, at) for e in reversed(at.history[start:]) if isinstance(e, Action)]
        at = previous
    steps.reverse()                        # the first decision first
    base = lay.history_at
    for number, (action, seen) in enumerate(steps[:lay.decisions]):
        _decision(st, p, out, lay, vocab, base + number * lay.decision_width, action, seen,
                  True)


def _decision(st: "Position", p: int, out: dict[int, float], lay: TensorLayout,
              vocab: _Vocabulary, slot: int, action: Action, seen: "Position",
              told: bool) -> None:
    """One decision as ``p`` saw it at ``seen``: who took it, and if ``told``,
    its text and parameters (all of them for ``p``'s own)."""
    out[slot + action.player] = 1.0
    if not told:
        return
    out[slot + lay.players] = 1.0
    out[slot + lay.players + 1 + vocab.templates[action.template]] = 1.0
    params = slot + lay.players + 1 + lay.texts
    for k, value in enumerate(action.values):
        value_entries(st, p, value, out, params + k * lay.slot_width,
                      _Everything(st) if action.player == p else seen)


@final
class _Everything:
    """Stands in for a position where the player sees every piece (their own
    action names the pieces they chose)."""

    def __init__(self, st: "Position") -> None:
        self.face = st.face
        self.program = st.program

    def visible(self, piece: Piece, player: int) -> bool:
        return True


def _visible(st: "Position | _Everything", piece: Piece, player: int) -> bool:
    """Whether ``player`` sees ``piece`` in ``st`` (a position, or :class:`_Everything`)."""
    return True if type(st) is _Everything else visible(st, piece, player)


def said(st: "Position", kind: str) -> dict[Any, Any]:
    """What was noted of position ``st`` of one kind (by player), kept with the
    position until it changes (``Position.said``)."""
    notes = st.said
    if notes is None:
        notes = st.said = {}
    kept: dict[Any, Any] | None = notes.get(kind)
    if kept is None:
        kept = notes[kind] = {}
    return kept
