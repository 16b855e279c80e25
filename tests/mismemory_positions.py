"""Helpers to set up Mismemory positions and to read states in the game's terms.

A position is built from a real state at a real decision: its ``to_json()`` is
edited (which tile lies in which cell of the board, which tiles each player has
collected, which are face up, whose turn it is, the tiles flipped this turn) and
rebuilt with ``Game.state_from_json``, so the flow resumes at the real decision
of the real ruleset.

* :func:`position` builds a state at the start of a turn ("flip the tile at ..."
  or, in the blind variant, "claim victory" / "challenge ..." too).
* :func:`cell_of`, :func:`board_map`, :func:`collected` read a state back.

Nothing here knows a rule of Mismemory beyond the texts of its actions, the names
of its zones (``board``, ``collected[player N]``) and of its variables
(``first_tile``, ``second_tile``), and the piecepack (ruling G1).
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping

import rulepack
from rulepack.engine.values import cell_label

SUITS = ["suns", "moons", "crowns", "arms"]
RANKS = ["null", "ace", "2", "3", "4", "5"]
TILE_NAMES = [f"{r} of {s}" for s in SUITS for r in RANKS]
GRIDS = ["5x5", "4x6", "6x4", "line"]
SHAPES = {"5x5": (5, 5), "4x6": (4, 6), "6x4": (6, 4), "line": (1, 24)}

_GAME: Any = None


def game() -> Any:
    """The bundled ruleset (loaded once)."""
    global _GAME
    if _GAME is None:
        _GAME = rulepack.load("mismemory")
    return _GAME


# ---------------------------------------------------------------------- zones and pieces
def zone_index(state: Any, label: str) -> int:
    return next(z.index for z in state.program.zones if z.label == label)


def board_index(state: Any) -> int:
    return zone_index(state, "board")


def collected_index(state: Any, player: int) -> int:
    return zone_index(state, f"collected[player {player + 1}]")


def tile_id(state: Any, name: str) -> int:
    """The id of the tile called ``name`` ("3 of suns")."""
    for p in state.program.pieces:
        if p.kind == "tile" and p.name == name:
            return p.id
    raise KeyError(name)


def piece(state: Any, name: str) -> Any:
    return state.program.pieces[tile_id(state, name)]


def tiles(state: Any) -> list[Any]:
    return [p for p in state.program.pieces if p.kind == "tile"]


def cell_labels(state: Any) -> list[str]:
    """The board's cells in slot order (row by row, holes left out): ``a1``, ``b1``..."""
    info = state.program.zones[board_index(state)]
    return [cell_label(r, c) for r, c in info.cells]


def slot_of(state: Any, label: str) -> int:
    return cell_labels(state).index(label)


def board_map(state: Any) -> dict[str, str | None]:
    """Cell label → name of the tile in it (``None``: empty)."""
    z = state.position.zones[board_index(state)]
    return {lab: (None if p is None else p.name) for lab, p in zip(cell_labels(state), z)}


def cell_of(state: Any, name: str) -> str | None:
    """The cell holding the tile ``name``, or ``None`` if it is not on the board."""
    for lab, n in board_map(state).items():
        if n == name:
            return lab
    return None


def empty_cells(state: Any) -> list[str]:
    return [lab for lab, n in board_map(state).items() if n is None]


def collected(state: Any, player: int) -> list[str]:
    """Names of the tiles in ``player``'s collected pile."""
    return [p.name for p in state.position.zones[collected_index(state, player)]]


def face_up(state: Any, name: str) -> bool:
    return bool(state.position.face[tile_id(state, name)])


def face_up_names(state: Any) -> set[str]:
    return {p.name for p in tiles(state) if state.position.face[p.id]}


def texts(state: Any) -> list[str]:
    return [a.text for a in state.legal_actions()]


def keep_texts(state: Any) -> list[str]:
    return [t for t in texts(state) if t.startswith("keep ")]


def flip_cells(state: Any) -> list[str]:
    """The cells the "flip the tile at ..." actions name."""
    return [t.rsplit(" ", 1)[1] for t in texts(state) if t.startswith("flip the tile at ")]


# ---------------------------------------------------------------------- building positions
def position(players: int = 2, *, grid: str = "5x5", blind: bool = False,
             board: Mapping[str, str] | None = None,
             collected_by: Mapping[int, Iterable[str]] | None = None,
             empty: Iterable[str] = (), current: int = 0,
             active: Iterable[bool] | None = None, seed: int = 0) -> Any:
    """A state at the start of ``current``'s turn.

    :param board: cell label → tile name for the cells that matter; every other
        tile (not collected) fills the remaining cells in tile order, row by row.
    :param collected_by: seat → names of the tiles that player has collected
        (face down, as the game leaves them).
    :param empty: cells to leave empty. Cells left over once every tile is placed
        (the board has 24 cells, the collected tiles are off it) are empty too:
        the last ones in row order unless ``empty`` names them.
    :param active: which seats are still in the game (default: all).
    """
    g = game()
    base = g.new_game(players, seed, options={"grid": grid, "blind": blind})
    data = base.to_json()
    labels = cell_labels(base)
    bi = board_index(base)
    board = dict(board or {})
    collected_by = {int(k): list(v) for k, v in (collected_by or {}).items()}
    empty = set(empty)
    used = set(board.values()) | {n for names in collected_by.values() for n in names}
    if len(used) != len(board) + sum(len(v) for v in collected_by.values()):
        raise ValueError("a tile is placed twice")
    cells: list[int | None] = [None] * len(labels)
    for lab, name in board.items():
        if lab in empty:
            raise ValueError(f"{lab} is both empty and holds {name}")
        cells[labels.index(lab)] = tile_id(base, name)
    rest = [p.id for p in tiles(base) if p.name not in used]
    free = [i for i, lab in enumerate(labels) if cells[i] is None and lab not in empty]
    if len(rest) > len(free):
        raise ValueError(f"{len(rest)} tiles left for {len(free)} free cells")
    for i, pid in zip(free, rest):
        cells[i] = pid
    zones = [[] for _ in data["zones"]]
    zones[bi] = cells
    for p in range(players):
        zones[collected_index(base, p)] = sorted(tile_id(base, n)
                                                 for n in collected_by.get(p, []))
    data["zones"] = zones
    data["face_up"] = []
    data["active"] = list(active) if active is not None else [True] * players
    variables = data["variables"]
    variables["current"] = {"player": current}
    variables["first_tile"] = None
    variables["second_tile"] = None
    variables["placer"] = None
    data["history"] = []
    data["pending"] = True
    return g.state_from_json(data)


def flip_pair(state: Any, a: str, b: str) -> None:
    """Flip the tiles ``a`` then ``b`` (two decisions, ruling Y2)."""
    state.apply(f"flip the tile at {cell_of(state, a)}")
    state.apply(f"flip the tile at {cell_of(state, b)}")


def ranks(names: Iterable[str]) -> list[str]:
    return [n.split(" of ")[0] for n in names]


def suit(name: str) -> str:
    return name.split(" of ")[1]
