"""The changes the flow makes to a position: moves, flips, shuffles, claims,
random choices, eliminations and the end of the game.

Functions of a :class:`~rulepack.engine.position.Position` (``st``), called by the
flow's code. Each checks its values (a value of the wrong kind raises
:class:`~rulepack.engine.runtime.RuleValueError`, which the flow locates) and,
for chance and reveals, records what happened in the position's history. Moves
and flips of several pieces run compiled (:mod:`rulepack.engine.moves`).
"""

from __future__ import annotations

from bisect import insort
from typing import TYPE_CHECKING, Any, Sequence, cast

from rulepack.engine import moves
from rulepack.engine.actions import ChanceEvent, Reveal
from rulepack.engine.drawn import drawn_at
from rulepack.engine.queries import seat
from rulepack.engine.runtime import RuleValueError, items, show
from rulepack.engine.values import Cell, Piece, Player, ZoneRef, piece_id

if TYPE_CHECKING:  # pragma: no cover
    from rulepack.engine.position import Position
    from rulepack.patterns.match import Pattern

def move(st: "Position", pieces: Sequence[object], dest: ZoneRef | Cell, face_up: bool | None,
         bottom: bool = False) -> None:
    """Move pieces, in order, to a zone (or one grid cell); set their face if
    given (:func:`rulepack.engine.moves.move`, compiled).

    :raises RuleValueError: a value is not a piece, a piece is not where it
        should be, the cell is not empty or the grid is full."""
    moves.move(st, pieces if type(pieces) is list else list(pieces), dest, face_up, bottom)


def flip(st: "Position", pieces: Sequence[object], up: bool | None) -> None:
    """Turn pieces face up, face down, or over (``up is None``); those turned face
    up are revealed (:func:`rulepack.engine.moves.flip`, compiled).

    :raises RuleValueError: a value is not a piece."""
    moves.flip(st, pieces if type(pieces) is list else list(pieces), up)


def rotate(st: "Position", pieces: object, degrees: object, by: bool) -> None:
    """Turn pieces to point ``degrees`` counter-clockwise from up (``by`` false:
    ``rotate P to 90`` points left), or ``degrees`` clockwise from where they point
    (``by`` true: ``rotate P by 90``, PPN's ``@>90``). Angles are kept modulo 360.

    :raises RuleValueError: a value is not a piece, or ``degrees`` not a whole number."""
    if isinstance(degrees, bool) or not isinstance(degrees, int):
        raise RuleValueError(f"rotate needs a whole number of degrees, not {show(degrees)}")
    seq = [pieces] if type(pieces) is Piece else items(st, pieces)
    angles = dict(st.angles)
    for piece in seq:
        if type(piece) is not Piece:
            raise RuleValueError(f"only pieces can be rotated, not {show(piece)}")
        angle = (angles.get(piece.id, 0) - degrees if by else degrees) % 360
        if angle:
            angles[piece.id] = angle
        else:
            angles.pop(piece.id, None)
    st.angles = angles
    st.said = None


def chance_choice(st: "Position", options: list[object]) -> object:
    """A random element (a chance event, recorded in the history).

    :raises RuleValueError: ``options`` is empty."""
    if not options:
        raise RuleValueError("random() of an empty list")
    value = st.rng.choice(options) if len(options) > 1 else options[0]
    st.history.append(ChanceEvent("random", "choice", value, drawn_at(st)))
    return value


def shuffle(st: "Position", zone: object) -> None:
    """Shuffle a zone (a chance event). In a grid, the pieces change cells.

    :raises RuleValueError: ``zone`` is not a zone, or is a pile."""
    if type(zone) is not ZoneRef:
        raise RuleValueError(f"only a zone can be shuffled, not {show(zone)}")
    kind = st.program.zone_kinds[zone.index]
    if kind == "pile":
        raise RuleValueError(f"{zone.label} is a pile, which keeps no order to shuffle "
                             "(make it a stack or a row)")
    z = st.writable(zone.index)
    outcome: list[Piece | None]
    if kind == "grid":
        slots = [i for i, p in enumerate(z) if p is not None]
        pieces = [z[i] for i in slots]
        st.rng.shuffle(pieces)
        for i, p in zip(slots, pieces):
            z[i] = p
        st.cells = None
        outcome = pieces
    else:
        st.rng.shuffle(z)
        outcome = z[:]
    st.history.append(ChanceEvent("shuffle", zone.label, outcome, drawn_at(st)))


def move_one(st: "Position", piece: Piece, dest: ZoneRef | Cell, face_up: bool | None,
             bottom: bool = False) -> None:
    """:func:`move` of one piece (the common case, without lists): the same result.
    Not compiled (see :mod:`rulepack.engine.moves`)."""
    kinds = st.program.zone_kinds
    loc = st.loc
    z = loc[piece.id]
    if type(dest) is not ZoneRef or kinds[z] == "grid" or kinds[dest.index] == "grid" \
            or st.watch is not None:
        moves.move(st, [piece], dest, face_up, bottom)
        return
    # (moves.move's loop for one piece, written out: a move of one piece costs less
    # than a call of compiled code that reads the position's fields)
    zones = st.zones
    owned = st.owned
    src = zones[z] if z in owned else st.writable(z)
    if src and src[-1] is piece:         # the top of a stack or the end of a row
        src.pop()
    else:
        moves.lift(src, piece)
    d = dest.index
    target = zones[d] if d in owned else st.writable(d)
    kind = kinds[d]
    if kind == "pile":
        insort(target, piece, key=piece_id)
    elif bottom:
        target.insert(0, piece)
    else:
        target.append(piece)
    if kind == "groups" or kinds[z] == "groups":
        st.groupings.pop(z, None)
        st.groupings.pop(d, None)
    loc[piece.id] = d
    if face_up is not None:
        st.face[piece.id] = face_up


def flip_one(st: "Position", piece: Piece, up: bool | None) -> None:
    """:func:`flip` of one piece (the common case, without lists): the same result.
    Not compiled (see :mod:`rulepack.engine.moves`)."""
    face = st.face
    i = piece.id
    if up is None:
        up = not face[i]
    elif face[i] is up:
        if st.watch is not None:
            st.watch([piece])
        return
    face[i] = up
    if up:
        z = st.loc[i]
        program = st.program
        place = None if program.zone_kinds[z] == "pile" else st.zones[z].index(piece)
        st.history.append(Reveal(program.zones[z].label, [piece], [place]))
    if st.watch is not None:
        st.watch([piece])


def set_groups(st: "Position", zone: int, groups: list[list[Piece]]) -> None:
    """Reorder a ``groups`` zone as these groups (a partition of its pieces)."""
    st.zones[zone] = [p for g in groups for p in g]
    st.owned.add(zone)
    st.groupings[zone] = tuple(len(g) for g in groups)


def arrange(st: "Position", zone: object, pattern: "Pattern") -> None:
    """Arrange a ``groups`` zone into groups that each match ``pattern`` (a
    partition of its pieces; see :meth:`rulepack.patterns.match.Pattern.partition`).

    :raises RuleValueError: ``zone`` is not a ``groups`` zone, or its pieces cannot
        be so arranged."""
    if type(zone) is not ZoneRef and type(zone) is not Cell:
        raise RuleValueError(f"cannot move pieces to {show(zone)}: not a zone or a cell")
    if type(zone) is not ZoneRef or st.program.zone_kinds[zone.index] != "groups":
        raise RuleValueError(f"only a 'groups' zone can be arranged, not {zone}")
    # (the searches give back the pieces they were given)
    groups = cast("list[list[Piece]] | None", pattern.partition(st, list(st.zones[zone.index])))
    if groups is None:
        raise RuleValueError(f"the pieces of {zone.label} cannot be arranged into groups "
                             f"that are each a {pattern.name}")
    set_groups(st, zone.index, groups)


def eliminate(st: "Position", player: object) -> None:
    """Take a seat out of the game (``active`` false).

    :raises RuleValueError: ``player`` is not a seat."""
    if not isinstance(player, int) or not 0 <= player < st.program.num_players:
        raise RuleValueError(f"cannot eliminate {show(player)}: not a player")
    st.active[player] = False


def end_game(st: "Position", winners: list[Any] | None, at: list[int] | None = None) -> None:
    """End the game, naming its winners if given (else the ruleset's winner rule
    decides); ``at``: where the rule that ends it stands (``Position.ended``)."""
    st.terminal = True
    st.ended = at
    if winners is not None:
        st.winners = [int(w) for w in winners]


def claim(st: "Position", pieces: list[object], player: object) -> None:
    """Make ``player`` (a seat, or ``None``) the owner of pieces.

    :raises RuleValueError: ``player`` is not a seat, or an element not a piece."""
    if player is not None:
        player = Player(seat(st, player))
    owner = st.owner
    for piece in pieces:
        if type(piece) is not Piece:
            raise RuleValueError(f"only pieces can be claimed, not {show(piece)}")
        owner[piece.id] = player
