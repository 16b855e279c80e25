"""Read-only inspection of a state by the names a ruleset uses.

A stable, public way to read a position whatever the engine keeps inside, for
tests, independent rule checkers and notebooks: every piece and where it lies,
zones by their label (``"hand[player 2]"``), the pieces in them in zone order,
a grid's cells, a ``groups`` zone's groups, each piece's face, owner and (for a
die) the face it shows, the ruleset's declared variables and the flow's names,
the seats still in the game, the round and whose turn it is, and any value as
canonical JSON data. Nothing here changes the state.

The golden playthroughs of the test suite (``tests/golden.py``) summarise
states through these functions only, so they must keep their meaning while the
engine inside changes: same labels, same zone order, same values.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from rulepack.engine.queries import cell_of, groups
from rulepack.engine.runtime import attribute
from rulepack.engine.stacks import stack_at
from rulepack.engine.values import Cell, PatternRef, Piece, Player, ZoneRef

if TYPE_CHECKING:  # pragma: no cover
    from rulepack.engine.state import State
    from rulepack.engine.zones import ZoneInfo


def zone_labels(state: "State") -> list[str]:
    """The label of every zone, in declaration order (the ``box`` of pieces out
    of play first; a ``per`` zone expands to one label per key: ``hand[player 1]``)."""
    return [info.label for info in state.program.zones]


def _zone(state: "State", label: str) -> int:
    for info in state.program.zones:
        if info.label == label:
            return info.index
    raise KeyError(f"no zone labelled {label!r}")


def zone_kind(state: "State", label: str) -> str:
    """``"stack"``, ``"row"``, ``"pile"``, ``"grid"`` or ``"groups"``.

    :raises KeyError: no zone has that label.
    """
    return state.program.zones[_zone(state, label)].kind


def zone_pieces(state: "State", label: str) -> list[Piece]:
    """The pieces in a zone, in zone order: a stack bottom to top, a row first to
    last, a pile in piece order, groups one after the other, a grid's occupied
    cells row by row (see :func:`grid_cells` for the cells).

    :raises KeyError: no zone has that label.
    """
    return [p for p in state.position.zones[_zone(state, label)] if p is not None]


def grid_cells(state: "State", label: str) -> list[tuple[str, Piece | None]]:
    """Every cell of a grid zone, row by row from the top: ``(cell label, piece or
    None)`` (cell labels as in action texts: ``"a1"`` is the top left, or the bottom
    left in a grid that declares ``notation ppn``).

    :raises KeyError: no zone has that label.
    :raises ValueError: the zone is not a grid.
    """
    info = _grid(state, label)
    return [(cell.label, piece) for cell, piece in zip(info.cell_objects,
                                                        state.position.zones[info.index])]


def _grid(state: "State", label: str) -> "ZoneInfo":
    info = state.program.zones[_zone(state, label)]
    if info.kind != "grid":
        raise ValueError(f"{label} is a {info.kind}, not a grid")
    return info


def grid_stacks(state: "State", label: str) -> list[tuple[str, list[Piece]]]:
    """Every cell of a grid zone as :func:`grid_cells` orders them, with the pieces
    in it bottom to top (a ``stacked`` grid's stacks; otherwise none or one).

    :raises KeyError: no zone has that label.
    :raises ValueError: the zone is not a grid.
    """
    return [(cell.label, stack_at(state.position, cell))
            for cell in _grid(state, label).cell_objects]


def zone_groups(state: "State", label: str) -> list[list[Piece]] | None:
    """The groups of a ``groups`` zone (lists of pieces, in order), or ``None``
    while it is not arranged or for another kind of zone.

    :raises KeyError: no zone has that label.
    """
    index = _zone(state, label)
    if state.program.zones[index].kind != "groups":
        return None
    return groups(state.position, index)


def piece_info(state: "State", piece: Piece) -> dict[str, object]:
    """A piece as it lies: ``{"id": int, "name": str, "kind": str, "attributes":
    {name: value}, "rolls": str or None, "face": "up" | "down", "owner": seat number
    or None}``. ``id`` is the piece's number in its instance (from 0, as in views);
    a die's attributes hold the face it shows under the attribute its roll sets,
    named by ``rolls`` (``None`` for a piece that is not a die), as a view shows it.
    Attribute values as :func:`canonical` gives them."""
    position = state.position
    owner = position.owner[piece.id]
    attributes = {k: canonical(state, v) for k, v in piece.attrs.items()}
    rolls = piece.rolls[0] if piece.rolls is not None else None
    if rolls is not None:
        attributes[rolls] = canonical(state, attribute(position, piece, rolls))
    return {"id": piece.id, "name": piece.name, "kind": piece.kind,
            "attributes": attributes, "rolls": rolls,
            "face": "up" if position.face[piece.id] else "down",
            "owner": None if owner is None else int(owner)}


def pieces(state: "State") -> list[Piece]:
    """Every piece of the game, by id (the box's pieces out of play included)."""
    return list(state.program.pieces)


def piece_zone(state: "State", piece: Piece) -> str:
    """The label of the zone ``piece`` lies in (``"box"`` out of play)."""
    return state.program.zones[state.position.loc[piece.id]].label


def piece_cell(state: "State", piece: Piece) -> str | None:
    """The label of the grid cell ``piece`` lies in (``"b3"``), or ``None`` off
    the grids."""
    cell = cell_of(state.position, piece)
    return None if cell is None else str(cell)


def placement(state: "State") -> list[dict[str, object]]:
    """Where every piece lies, by id: ``{"piece": piece_info(...), "zone": label,
    "place": its index in the zone's order (a grid: its cell label)}`` — the whole
    table, the box included, in one list (an outside checker's starting point)."""
    position = state.position
    out: list[dict[str, object]] = []
    for piece in state.program.pieces:
        z = position.loc[piece.id]
        info = state.program.zones[z]
        if info.kind == "grid":
            place: str | int | None = piece_cell(state, piece)
        else:
            place = position.zones[z].index(piece)
        out.append({"piece": piece_info(state, piece), "zone": info.label, "place": place})
    return out


def variables(state: "State") -> dict[str, object]:
    """The ruleset's declared variables (``var``), name → value, in declaration
    order; a ``per player`` variable is a list by seat, a ``per team`` one a list by
    team (in the order of the game's ``teams``). Values are engine values;
    :func:`canonical` turns them into JSON data. The flow's own names (``let``,
    loop variables, action parameters) are not included."""
    return {name: state.position.vars.get(name) for name in state.program.initial}


def flow_names(state: "State") -> dict[str, object]:
    """The flow's own names that hold a value now (``let``, loop variables,
    action parameters), name → engine value."""
    held = state.position.vars
    return {name: held[name] for name in state.program.flow_names if name in held}


def active_seats(state: "State") -> list[bool]:
    """Per seat, whether it is still in the game (not eliminated)."""
    return list(state.position.active)


def round_number(state: "State") -> int:
    """The number of the current round (from 1; 0 before any ``rounds`` loop)."""
    return int(state.position.vars.get("round") or 0)


def turn_player(state: "State") -> int | None:
    """The seat whose turn it is (``current``, from 0), or ``None`` outside turns."""
    current = state.position.vars.get("current")
    return None if current is None else int(current)


def canonical(state: "State", value: object) -> object:
    """A value as canonical JSON data, the same for equal values whatever the
    engine's representation: ``None``, booleans, numbers and strings as they
    are; a list as a list; a piece ``{"piece": name}``; a seat ``{"seat": n}``;
    a zone ``{"zone": label}``; a cell ``{"cell": [zone label, "b3"]}``; a
    pattern ``{"pattern": name}``; a tuple ``{"tuple": [...]}``; a map
    ``{"map": [[key, value], ...]}`` sorted by key.

    :raises TypeError: a value of no kind the rules language has.
    """
    if value is None or type(value) is bool or type(value) is str or type(value) is int \
            or type(value) is float:
        return value
    if type(value) is Player:
        return {"seat": int(value)}
    if type(value) is Piece:
        return {"piece": value.name}
    if type(value) is list:
        return [canonical(state, v) for v in value]
    if type(value) is tuple:
        return {"tuple": [canonical(state, v) for v in value]}
    if type(value) is dict:
        entries = [[canonical(state, k), canonical(state, v)] for k, v in value.items()]
        entries.sort(key=lambda kv: json.dumps(kv[0], sort_keys=True))
        return {"map": entries}
    if type(value) is ZoneRef:
        return {"zone": value.label}
    if type(value) is Cell:
        return {"cell": [state.program.zones[value.zone].label, str(value)]}
    if type(value) is PatternRef:
        return {"pattern": value.name}
    raise TypeError(f"no canonical form for {value!r}")
