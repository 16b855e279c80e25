"""Pieces on pieces: the cells of a ``stacked`` grid, each a stack bottom to top.

A grid declared ``stacked`` (``zone board: grid 8 x 8 stacked``) keeps, like any
grid, one slot per cell in its zone's list; a slot holds the *top* piece of its
cell (``None``: the cell is empty), so everything that reads a grid — ``at(c)``,
patterns, lines, the views of the other grids — reads the top. The pieces
*beneath* the tops follow the slots in the same list, cell after cell (in slot
order), each cell's from the bottom up; the position's ``heights[z]`` says how
many lie beneath each cell's top. So the zone's list holds every piece on the
grid once (``pieces in board``, ``count``, a piece's zone and a seat's guess of
hidden pieces need nothing more), and the order of each stack is known.

What this module does with them, each on a :class:`~rulepack.engine.position.Position`
``st`` (the zone's list written only through ``st.writable``):

- :func:`stack_at`, :func:`height`, :func:`under`, :func:`place_of`: what a cell
  holds, bottom to top; how many; the piece under a piece; a piece's cell and level;
- :func:`push` (onto a cell: the top goes beneath it; ``bottom``: under the
  stack) and :func:`take` (a piece out of its stack: the one beneath a top
  becomes the top);
- :func:`as_stack`: the pieces a move takes from one stack, bottom first, so that
  a stack moved onto a cell stays in its order (PPN's ``2e1-d2``).

Errors: :class:`~rulepack.engine.runtime.RuleValueError` (a value that is not a
cell of a grid, a piece that is not on it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rulepack.engine.runtime import RuleValueError, show
from rulepack.engine.values import Cell, Piece

if TYPE_CHECKING:  # pragma: no cover
    from rulepack.engine.position import Position

__all__ = ["as_stack", "height", "place_of", "push", "stack_at", "take", "under",
           "beneath_cells"]


def _heights(st: "Position", z: int) -> tuple[int, ...]:
    hs = st.heights.get(z)
    if hs is None:
        return (0,) * len(st.program.zones[z].cells)
    return hs


def _set_heights(st: "Position", z: int, hs: list[int]) -> None:
    # replaced, never changed in place: copies of the position share the map
    st.heights = {**st.heights, z: tuple(hs)}


def _offset(hs: tuple[int, ...] | list[int], slot: int) -> int:
    """Where the pieces beneath ``slot``'s top start in the zone's list."""
    return len(hs) + sum(hs[:slot])


def stack_at(st: "Position", cell: object) -> list[Piece]:
    """``stack_at(C)``: the pieces in cell ``C``, bottom to top (``[]``: empty; one
    piece in a grid that is not stacked).

    :raises RuleValueError: ``C`` is not a cell."""
    if type(cell) is not Cell:
        raise RuleValueError(f"stack_at() needs a cell, not {show(cell)}")
    zone = st.zones[cell.zone]
    top = zone[cell.slot]
    if top is None:
        return []
    hs = st.heights.get(cell.zone)
    if hs is None or not hs[cell.slot]:
        return [top]
    start = _offset(hs, cell.slot)
    return [*zone[start:start + hs[cell.slot]], top]


def height(st: "Position", cell: object) -> int:
    """``height(C)``: how many pieces lie in cell ``C`` (0 when empty).

    :raises RuleValueError: ``C`` is not a cell."""
    if type(cell) is not Cell:
        raise RuleValueError(f"height() needs a cell, not {show(cell)}")
    if st.zones[cell.zone][cell.slot] is None:
        return 0
    hs = st.heights.get(cell.zone)
    return 1 + (hs[cell.slot] if hs is not None else 0)


def place_of(st: "Position", piece: Piece) -> tuple[Cell, int] | None:
    """The cell of a stacked grid ``piece`` lies in and its level there (0: the
    bottom), or ``None`` when it lies elsewhere."""
    z = st.loc[piece.id]
    info = st.program.zones[z]
    if not info.stacked:
        return None
    zone = st.zones[z]
    hs = _heights(st, z)
    i = zone.index(piece)
    n = len(hs)
    if i < n:
        return info.cell_objects[i], hs[i]
    start = n
    for slot, h in enumerate(hs):
        if i < start + h:
            return info.cell_objects[slot], i - start
        start += h
    raise RuleValueError(f"{piece.name} is not where it should be")    # pragma: no cover


def under(st: "Position", piece: object) -> Piece | None:
    """``under(P)``: the piece directly under piece ``P`` in its stack, or ``none``
    (the bottom of its stack, or not on a stacked grid).

    :raises RuleValueError: ``P`` is not a piece."""
    if type(piece) is not Piece:
        raise RuleValueError(f"under() needs a piece, not {show(piece)}")
    place = place_of(st, piece)
    if place is None or place[1] == 0:
        return None
    return stack_at(st, place[0])[place[1] - 1]


def beneath_cells(st: "Position", z: int) -> list[Cell]:
    """The cell of each piece beneath a top in stacked grid ``z``, in the order the
    zone's list holds them (after its slots)."""
    cells = st.program.zones[z].cell_objects
    out: list[Cell] = []
    for slot, h in enumerate(_heights(st, z)):
        out.extend([cells[slot]] * h)
    return out


def push(st: "Position", zone: list[Any], z: int, slot: int, piece: Piece,
         bottom: bool = False) -> None:
    """Put ``piece`` on the stack of slot ``slot`` of stacked grid ``z`` (``zone``:
    its writable list): on top (the top before goes beneath it), or under the
    whole stack when ``bottom``."""
    top = zone[slot]
    if top is None:
        zone[slot] = piece
        return
    hs = list(_heights(st, z))
    start = _offset(hs, slot)
    if bottom:
        zone.insert(start, piece)
    else:
        zone.insert(start + hs[slot], top)
        zone[slot] = piece
    hs[slot] += 1
    _set_heights(st, z, hs)


def take(st: "Position", zone: list[Any], z: int, piece: Piece) -> None:
    """Take ``piece`` out of stacked grid ``z`` (``zone``: its writable list): from
    the top of its stack (the piece beneath becomes the top) or from within it.

    :raises RuleValueError: it is not there."""
    try:
        i = zone.index(piece)
    except ValueError:
        raise RuleValueError(f"{piece.name} is not where it should be") from None
    hs = list(_heights(st, z))
    n = len(hs)
    if i < n:
        if hs[i]:
            j = _offset(hs, i) + hs[i] - 1
            zone[i] = zone.pop(j)
            hs[i] -= 1
            _set_heights(st, z, hs)
        else:
            zone[i] = None
        return
    start = n
    for slot, h in enumerate(hs):
        if i < start + h:
            del zone[i]
            hs[slot] -= 1
            _set_heights(st, z, hs)
            return
        start += h
    raise RuleValueError(f"{piece.name} is not where it should be")    # pragma: no cover


def as_stack(st: "Position", pieces: list[Any]) -> list[Any]:
    """``pieces`` in the order to put them onto a cell: bottom first when all of
    them lie in one stack of a stacked grid (a stack moved keeps its order: ``move
    top 2 of c to d``), else as given."""
    first = pieces[0]
    if type(first) is not Piece:
        return pieces
    place = place_of(st, first)
    if place is None:
        return pieces
    levels: list[tuple[int, Any]] = []
    for p in pieces:
        if type(p) is not Piece:
            return pieces
        q = place_of(st, p)
        if q is None or q[0] != place[0]:
            return pieces
        levels.append((q[1], p))
    levels.sort(key=lambda lp: lp[0])
    return [p for _, p in levels]
