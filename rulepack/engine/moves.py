"""Moving and flipping several pieces: the loops a playout runs most, compiled.

:mod:`rulepack.engine.effects` hands its moves and flips of several pieces to
these functions, and generated flow code calls them directly (``_move(st,
...)``). Each takes the position ``st`` first and changes its zone lists
(copied on write: a list a copy shares is copied before it first changes),
``loc`` and ``face``, and records reveals in its history.

One piece is moved or flipped by :func:`~rulepack.engine.effects.move_one` and
:func:`~rulepack.engine.effects.flip_one`, which stay Python: compiled code reads
an attribute of a Python object through the generic ``getattr`` (about 150
machine instructions, ten times what the interpreter's specialised read costs),
so a compiled function pays off only where it loops over pieces. (Compiling the
:class:`~rulepack.engine.position.Position` itself with these functions would
make those reads native fields.)

The module is plain ``mypy --strict`` Python. ``pip install`` compiles it to C
with mypyc (``setup.py``), as it does the pattern searches; when it is not
compiled, or its source changed since the build, the same source runs as Python
(:mod:`rulepack.engine.native`), with the same results (``.ci/run`` runs the golden
playthroughs both ways).

Errors: :class:`~rulepack.engine.runtime.RuleValueError` for a value that is not
a piece, a piece not where it should be, a full zone or an occupied cell (the
flow locates it at the ``move`` or ``flip``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from rulepack.engine import stacks
from rulepack.engine.actions import Reveal
from rulepack.engine.runtime import RuleValueError, show
from rulepack.engine.values import Cell, Piece, ZoneRef, piece_id

if TYPE_CHECKING:  # pragma: no cover
    from rulepack.engine.position import Position

# (held in C variables when compiled: an imported name is otherwise looked up in
# the module's dict at every use)
_PIECE: Final = Piece
_ZONE: Final = ZoneRef
_CELL: Final = Cell
_REVEAL: Final = Reveal
_ID: Final = piece_id


def _own(zones: list[list[Any]], owned: set[int], z: int) -> list[Any]:
    """Zone ``z``'s list (``zones`` and ``owned``: a position's), made the position's
    own first if a clone shares it (:meth:`~rulepack.engine.position.Position.writable`)."""
    if z in owned:
        return zones[z]
    zone: list[Any] = zones[z][:]
    zones[z] = zone
    owned.add(z)
    return zone


def _leave(st: "Position", zones: list[list[Any]], owned: set[int], kinds: tuple[str, ...],
           loc: list[int], piece: Any) -> int:
    """Take ``piece`` from its place (``zones``... are ``st``'s): a grid's slot is
    emptied; an arranged ``groups`` zone forgets its groups. Returns its id.
    :raises RuleValueError: it is not a piece, or not where it should be."""
    if type(piece) is not _PIECE:
        raise RuleValueError(f"only pieces can be moved, not {show(piece)}")
    i: int = piece.id
    z = loc[i]
    src = _own(zones, owned, z)
    kind = kinds[z]
    if kind == "grid":
        if st.program.zones[z].stacked:
            stacks.take(st, src, z, piece)
            st.cells = None
        else:
            off_grid(st, src, piece)
    elif src and src[-1] is piece:      # lift(), inline: the top of a stack
        src.pop()
    else:
        lift(src, piece)
    if kind == "groups":
        st.groupings.pop(z, None)
    return i


def lift(src: list[Any], piece: Piece) -> None:
    """Take ``piece`` out of a zone's list that is not a grid (the top of a stack or
    the last of a row at once). :raises RuleValueError: it is not there."""
    if src and src[-1] is piece:
        src.pop()
        return
    try:
        del src[src.index(piece)]
    except ValueError:
        raise RuleValueError(f"{piece.name} is not where it should be") from None


def off_grid(st: "Position", cells: list[Any], piece: Piece) -> None:
    """Take ``piece`` off the grid whose (writable) list is ``cells``.
    :raises RuleValueError: it is not there."""
    try:
        cells[cells.index(piece)] = None
    except ValueError:
        raise RuleValueError(f"{piece.name} is not where it should be") from None
    st.cells = None


def move(st: "Position", pieces: list[Any], dest: Any, face_up: Any, bottom: Any) -> None:
    """Move pieces, in order, to a zone (a :class:`ZoneRef`) or one grid cell (a
    :class:`Cell`); set their face if ``face_up`` is not ``None``; to the bottom of
    a stack or the start of a row if ``bottom``."""
    kinds: tuple[str, ...] = st.program.zone_kinds
    if type(dest) is _ZONE and kinds[dest.index] != "grid":
        if len(pieces) <= 8 or not move_many(st, pieces, dest, face_up, bottom):
            move_to_zone(st, pieces, dest.index, face_up, bottom)
    else:
        _move_cells(st, pieces, dest, face_up, bottom)
    watch = st.watch
    if watch is not None:
        watch(pieces)


def _move_cells(st: "Position", pieces: list[Any], dest: Any, face_up: Any,
                bottom: Any) -> None:
    """:func:`move` to a grid or one of its cells (of a ``stacked`` grid: onto its
    stack, or under it when ``bottom``; several pieces of one stack keep their
    order: :func:`rulepack.engine.stacks.as_stack`)."""
    kinds: tuple[str, ...] = st.program.zone_kinds
    loc: list[int] = st.loc
    zones: list[list[Any]] = st.zones
    owned: set[int] = st.owned
    stacked = type(dest) is _CELL and st.program.zones[dest.zone].stacked
    if stacked and len(pieces) > 1:
        pieces = stacks.as_stack(st, pieces)
    for piece in pieces:
        i = _leave(st, zones, owned, kinds, loc, piece)
        if type(dest) is _CELL:
            target = _own(zones, owned, dest.zone)
            if stacked:
                stacks.push(st, target, dest.zone, dest.slot, piece, bool(bottom))
            elif target[dest.slot] is not None:
                raise RuleValueError(f"cell {dest} is not empty")
            else:
                target[dest.slot] = piece
            loc[i] = dest.zone
        else:
            d: int = dest.index
            target = _own(zones, owned, d)
            try:
                target[target.index(None)] = piece
            except ValueError:
                raise RuleValueError(f"{dest.label} is full") from None
            loc[i] = d
        st.cells = None
        if face_up is not None:
            st.face[i] = face_up


def move_to_zone(st: "Position", pieces: list[Any], d: int, face_up: Any, bottom: Any) -> None:
    """:func:`move` to zone ``d``, which is not a grid, one piece at a time."""
    kinds: tuple[str, ...] = st.program.zone_kinds
    loc: list[int] = st.loc
    face: list[Any] = st.face
    zones: list[list[Any]] = st.zones
    owned: set[int] = st.owned
    target = _own(zones, owned, d)
    kind = kinds[d]
    for piece in pieces:
        i = _leave(st, zones, owned, kinds, loc, piece)
        if kind == "pile":
            _insert_by_id(target, piece, i)
        elif bottom:
            target.insert(0, piece)
        else:
            target.append(piece)
        if kind == "groups":
            st.groupings.pop(d, None)
        loc[i] = d
        if face_up is not None:
            face[i] = face_up


def _insert_by_id(pile: list[Any], piece: Any, i: int) -> None:
    """Put ``piece`` (id ``i``) into ``pile``, which is in order of piece id, in order:
    ``bisect.insort(pile, piece, key=id)`` (the same place, in a pile out of order
    too, as a restored position may hold), without the call with a key."""
    lo, hi = 0, len(pile)
    while lo < hi:
        mid = (lo + hi) // 2
        if i < pile[mid].id:
            hi = mid
        else:
            lo = mid + 1
    pile.insert(lo, piece)


def move_many(st: "Position", pieces: list[Any], dest: ZoneRef, face_up: Any, bottom: Any) -> bool:
    """:func:`move` of several pieces between zones that are not grids, each source
    filtered once (or emptied, when every piece of it moves) instead of searched
    once per piece. The same result as moving them one by one; ``False`` (nothing
    changed) when that is not sure: a value that is not a piece, a piece twice, a
    piece on a grid or missing."""
    kinds: tuple[str, ...] = st.program.zone_kinds
    loc: list[int] = st.loc
    zones: list[list[Any]] = st.zones
    moving = [False] * len(loc)         # by piece id (no set: ids are small numbers)
    ids: list[int] = []
    sources: list[int] = []             # the zones they leave, and how many leave each
    leaving: list[int] = []
    for piece in pieces:
        if type(piece) is not _PIECE:
            return False
        i: int = piece.id
        if moving[i]:
            return False                # a piece twice
        moving[i] = True
        ids.append(i)
        z = loc[i]
        k = 0
        while k < len(sources) and sources[k] != z:
            k += 1
        if k == len(sources):
            if kinds[z] == "grid":
                return False
            sources.append(z)
            leaving.append(1)
        else:
            leaving[k] += 1
    kept: list[list[Any]] = []
    for k in range(len(sources)):
        src = zones[sources[k]]
        if leaving[k] == len(src):
            # as many different pieces located there as it holds: all of them move
            kept.append([])
        else:
            rest = [p for p in src if not moving[p.id]]
            if len(src) - len(rest) != leaving[k]:
                return False
            kept.append(rest)
    owned = st.owned
    for k in range(len(sources)):
        z = sources[k]
        zones[z] = kept[k]
        owned.add(z)
        if kinds[z] == "groups":
            st.groupings.pop(z, None)
    d = dest.index
    target = _own(zones, owned, d)
    kind = kinds[d]
    if kind == "pile":
        target.extend(pieces)
        target.sort(key=_ID)
    elif bottom:
        target[:0] = pieces[::-1]
    else:
        target.extend(pieces)
    if kind == "groups":
        st.groupings.pop(d, None)
    for i in ids:
        loc[i] = d
    if face_up is not None:
        face: list[Any] = st.face
        for i in ids:
            face[i] = face_up
    return True


def flip(st: "Position", pieces: list[Any], up: Any) -> None:
    """Turn pieces face up (``up`` true), face down, or over (``None``); the pieces
    turned face up are revealed (one :class:`Reveal` per zone, in the history)."""
    face: list[Any] = st.face
    revealed: list[Any] = []
    loc: list[int] | None = None    # the state's, read at the first piece turned up
    first = -1                  # the zone of the pieces turned up, if all in one
    for piece in pieces:
        if type(piece) is not _PIECE:
            raise RuleValueError(f"only pieces can be flipped, not {show(piece)}")
        i: int = piece.id      # (read once: a getattr here)
        if up is None:
            now = not face[i]
            face[i] = now
            if not now:
                continue
        elif face[i] is up:
            continue
        else:
            face[i] = up
            if not up:
                continue
        if loc is None:
            loc = st.loc
            first = loc[i]
        elif first >= 0 and loc[i] != first:
            first = -1
        revealed.append(piece)
    if loc is not None:
        if first >= 0:                  # (the common case: all in one zone)
            _reveal(st, first, revealed)
        else:
            by_zone: dict[int, list[Any]] = {}
            for piece in revealed:
                by_zone.setdefault(loc[piece.id], []).append(piece)
            for z, group in by_zone.items():
                _reveal(st, z, group)
    watch = st.watch
    if watch is not None:
        watch(pieces)


def _reveal(st: "Position", z: int, pieces: list[Any]) -> None:
    """Record that ``pieces``, all in zone ``z``, were turned face up."""
    program = st.program
    kinds: tuple[str, ...] = program.zone_kinds
    if kinds[z] == "pile":
        places: list[Any] = [None for _ in pieces]
    else:
        zone: list[Any] = st.zones[z]
        places = []
        for p in pieces:
            try:
                places.append(zone.index(p))
            except ValueError:      # (the message of Python's list.index, compiled or not)
                raise ValueError(f"{p!r} is not in list") from None
    st.history.append(_REVEAL(program.zones[z].label, pieces, places))
