"""What a position answers: seats in turn, a grid's cells, what lies where, who sees what.

Functions of a :class:`~rulepack.engine.position.Position` that change nothing;
the rules' built-ins (``order``, ``after``, ``cells``, ``step``, ``knows``...) and
the engine call them. A value of the wrong kind raises
:class:`~rulepack.engine.runtime.RuleValueError`, which the flow locates.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from rulepack.engine.runtime import RuleValueError, piece_cells, show
from rulepack.engine.values import Cell, Piece, Player, ZoneRef, describe

if TYPE_CHECKING:  # pragma: no cover
    from rulepack.engine.position import Position

__all__ = ["next_active", "seat", "seats_from", "cells", "step", "piece_at", "cell_of",
           "piece_cells", "groups", "visible", "knows", "describe_for"]


def next_active(st: "Position", player: object) -> Player | None:
    """The next active seat clockwise after ``player`` (itself if it is the only
    one); ``None`` when ``player`` is ``None`` or no seat is active.

    :raises RuleValueError: ``player`` is not a seat."""
    program = st.program
    if type(player) is Player:
        nxt: Player = program.next_seat[player]
        if st.active[nxt]:
            return nxt
    elif player is None:
        return None
    else:
        player = seat(st, player)
    n = program.num_players
    active = st.active
    seats: tuple[Player, ...] = program.seats
    for k in range(1, n + 1):
        q: int = (player + k) % n
        if active[q]:
            return seats[q]
    return None


def seat(st: "Position", player: object) -> int:
    """``player`` checked to be a seat number. :raises RuleValueError: otherwise."""
    if isinstance(player, bool) or not isinstance(player, int) or \
            not 0 <= player < st.program.num_players:
        raise RuleValueError(f"{show(player)} is not a player")
    return int(player)


def seats_from(st: "Position", player: object) -> list[Player]:
    """Active seats clockwise, starting with ``player``.

    :raises RuleValueError: ``player`` is not a seat."""
    if type(player) is not Player:          # (a Player is always a seat)
        player = seat(st, player)
    order = st.program.seat_orders[player]
    active = st.active
    if False not in active:
        return list(order)
    return [q for q in order if active[q]]


def cells(st: "Position", zone: object) -> list[Cell]:
    """All cells of a grid zone, row-major. :raises RuleValueError: not a grid."""
    if type(zone) is not ZoneRef or st.program.zones[zone.index].kind != "grid":
        raise RuleValueError(f"{show(zone)} is not a grid")
    return list(st.program.zones[zone.index].cell_objects)


def step(st: "Position", cell: Cell, direction: tuple[int, int]) -> Cell | None:
    """The cell next to ``cell`` in ``direction`` (row step, column step), or
    ``None`` off the grid or on a hole."""
    return st.program.zones[cell.zone].neighbours(direction)[cell.slot]


def piece_at(st: "Position", cell: Cell) -> Piece | None:
    """The piece in ``cell``, or ``None``."""
    piece: Piece | None = st.zones[cell.zone][cell.slot]
    return piece


def cell_of(st: "Position", piece: Piece) -> Cell | None:
    """The cell ``piece`` lies in, or ``None`` when it is not on a grid."""
    return piece_cells(st)[piece.id]


def groups(st: "Position", zone: int) -> list[list[Piece]] | None:
    """The groups of a ``groups`` zone, or ``None`` while it is not arranged."""
    sizes = st.groupings.get(zone)
    if sizes is None:
        return None
    out, i = [], 0
    pieces = st.zones[zone]
    for n in sizes:
        out.append(pieces[i:i + n])
        i += n
    return out


def visible(st: "Position", piece: Piece, player: int) -> bool:
    """Whether ``player`` may see the identity of ``piece`` now."""
    if st.face[piece.id] and (piece.sides is None or piece.sides[0] is None):
        return True      # face up, and the side up shows the whole piece
    info = st.program.zones[st.loc[piece.id]]
    seen = info.seen_by
    return seen == "everyone" or (seen == "owner" and info.owner == player)


def visible_ids(st: "Position", player: int) -> set[int]:
    """The ids of every piece ``player`` may see the identity of now: the same set as
    ``{p.id for p in st.program.pieces if visible(st, p, player)}``, computed per zone
    (a story told to several viewers asks it for each, at each step)."""
    whole = [info.seen_by == "everyone" or (info.seen_by == "owner" and info.owner == player)
             for info in st.program.zones]
    loc, face = st.loc, st.face
    return {p.id for p in st.program.pieces
            if whole[loc[p.id]] or (face[p.id] and (p.sides is None or p.sides[0] is None))}


def knows(st: "Position", player: object, piece: object) -> bool:
    """Whether ``player`` knows which piece ``piece`` is: it can see it, or (in a
    position built by :func:`~rulepack.agents.determinize.determinize` for that
    player) it was placed from what the player saw or remembers.

    :raises RuleValueError: ``player`` is not a seat, or ``piece`` not a piece."""
    p = seat(st, player)
    if type(piece) is not Piece:
        raise RuleValueError(f"knows() needs a piece, not {show(piece)}")
    if visible(st, piece, p):
        return True
    k = st.knowledge
    return k is not None and k[0] == p and piece.id in k[1]


def describe_for(st: "Position", player: int | None) -> Callable[[object], str]:
    """A value renderer that hides pieces ``player`` cannot see (``None``: show all)."""
    seats = st.program.seat_names

    def render(value: object) -> str:
        if type(value) is Piece and player is not None and not visible(st, value, player):
            return f"a {value.look(st.face[value.id])}"
        if isinstance(value, (list, tuple)):
            return ", ".join(render(v) for v in value)
        return describe(value, seats)
    return render
