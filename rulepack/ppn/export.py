"""A rulepack game written as a PPN record: each decision as the relocation it made.

:func:`movetext_of` replays a game's decisions and writes, for each, what it did to
the pieces of the position's PPN boards (grids with ``notation ppn``), in PPN:

- a piece that left a board: ``*e3``; one that left it from the square another
  piece moved to: a capture by displacement, ``b1:b3``;
- a piece moved on a board: ``a2-a3`` (two that changed places: ``d3#e3``);
- a piece put on a board: ``S@b2`` (its specification as PPN writes it).

Numbered ``1.`` for the first seat's decisions and ``1...`` for the others' (the
number goes up with each decision of the first seat), with the narration of the
decision as a comment. :func:`ppn_text` adds the header: the game's title as
``GameType`` (with its options as keys), and the seed under ``Rulepack`` so that
``rulepack ppn import`` draws the same chance. The text reads back to the same
game (:mod:`rulepack.ppn.importer`). What the rules say to everyone after a decision
is its comment; what they say to some seats only is left out.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import yaml

from rulepack.engine.actions import Narration
from rulepack.engine.stacks import stack_at
from rulepack.engine.values import ppn_label
from rulepack.ppn.importer import ppn_piece, ppn_places

if TYPE_CHECKING:  # pragma: no cover
    from rulepack.engine.state import State
    from rulepack.game import Game

__all__ = ["board_lines", "movetext_of", "ppn_text", "place_name", "spec_of"]


def place_name(x: float, y: float) -> str:
    """PPN's name of a place: ``a1`` for ``(1, 1)``, ``(x,y)`` where a coordinate is
    below 1 or not whole."""
    if x == int(x) and y == int(y):
        return ppn_label(int(x), int(y))     # (as a PPN grid names its cells)
    return f"({x:g},{y:g})"


_RANK_CHARS = "na2345"


def spec_of(piece_side: str, suit: int, rank: int) -> str:
    """A piece's specification as PPN writes it, read back to the same piece by
    :func:`rulepack.ppn.table.parse_spec` (``("coin_back", 1, 1)`` → ``"S"``)."""
    piece, side = piece_side.split("_", 1)
    letter = "SMCA"[suit - 1]
    rank_char = _RANK_CHARS[rank - 1]
    if piece == "coin":
        return letter if side == "back" else f"c{letter}{rank_char}f"
    if piece == "tile":
        return f"t{letter}" if side == "back" else f"{letter}{rank_char}"
    return f"{piece[0]}{letter}{rank_char}"


#: a piece on a PPN board as the export sees it: (how PPN names it, x, y, level: 0 at
#: the bottom of its place's stack, angle: degrees counter-clockwise)
Placed = tuple[tuple[str, int, int], float, float, int, int]

#: where a stack waits while a piece is put under it (no PPN grid has a cell there)
ASIDE = (0.5, 0.5)


def _places(state: "State") -> dict[int, Placed]:
    """Piece id → (how PPN names it, x, y, level, angle) for the piecepack's pieces on
    the PPN boards (:func:`rulepack.ppn.importer.ppn_places`)."""
    return {piece.id: (named, x, y, level, angle)
            for piece, named, x, y, level, angle in ppn_places(state) if named is not None}


def _counted(n: int, place: tuple[float, float]) -> str:
    """The top ``n`` pieces of a place, as PPN names them (``e1``, ``2e1``)."""
    return (str(n) if n > 1 else "") + place_name(*place)


def relocation(before: dict[int, Placed], after: dict[int, Placed]) -> str:
    """The PPN submoves that take the board from ``before`` to ``after`` (piece id
    → (name, x, y, level)): removals (``*e3``, ``*2b6`` for the top two of a
    stack), moves (``a2-a3``; ``2e1-d2`` for a stack moved together; ``b1:b3``, a
    capture by displacement; ``d3#e3``, a swap), new pieces (``S@b2``; one put
    under a stack: the stack set aside, the piece put, the stack put back) and
    rotations (``b2@>90``, clockwise; ``b2[2]@>90`` for the second from the top)."""
    def place(d: dict[int, Placed], i: int) -> tuple[float, float]:
        return d[i][1], d[i][2]

    gone = [i for i in before if i not in after]
    moved = [i for i in before if i in after and place(before, i) != place(after, i)]
    new = sorted((i for i in after if i not in before), key=lambda i: after[i][3])
    groups: dict[tuple[tuple[float, float], tuple[float, float]], list[int]] = {}
    for i in moved:
        groups.setdefault((place(before, i), place(after, i)), []).append(i)
    out: list[str] = []
    captured = set()
    for (frm, to), ids in groups.items():
        taken = [g for g in gone if place(before, g) == to and g not in captured]
        if len(ids) == 1 and len(taken) == 1:
            captured.add(taken[0])
    removed: dict[tuple[float, float], int] = {}
    for g in gone:
        if g not in captured:
            removed[place(before, g)] = removed.get(place(before, g), 0) + 1
    out += ["*" + _counted(n, at) for at, n in removed.items()]
    done: set[tuple[float, float]] = set()
    for (frm, to), ids in groups.items():
        if frm in done:
            continue
        if len(ids) == 1 and groups.get((to, frm)) is not None and len(groups[(to, frm)]) == 1:
            out.append(f"{place_name(*frm)}#{place_name(*to)}")
            done |= {frm, to}
        elif len(ids) == 1 and any(place(before, g) == to for g in captured):
            out.append(f"{place_name(*frm)}:{place_name(*to)}")
        else:
            out.append(f"{_counted(len(ids), frm)}-{place_name(*to)}")
    for i in new:
        at = place(after, i)
        above = sum(1 for j, p in after.items() if j != i and (p[1], p[2]) == at and
                    p[3] > after[i][3])
        put = f"{spec_of(*after[i][0])}@{place_name(*at)}"
        if above:
            aside = place_name(*ASIDE)
            put = f"{_counted(above, at)}-{aside} {put} {above}{aside}-{place_name(*at)}" \
                if above > 1 else f"{place_name(*at)}-{aside} {put} {aside}-{place_name(*at)}"
        out.append(put)
    for i, (_, x, y, level, angle) in sorted(after.items(), key=lambda item: item[1][1:4]):
        turn = ((before[i][4] if i in before else 0) - angle) % 360
        if turn:
            above = sum(1 for j, p in after.items() if j != i and (p[1], p[2]) == (x, y) and
                        p[3] > level)
            pid = place_name(x, y) + (f"[{above + 1}]" if above else "")
            out.append(f"{pid}@>{turn}")
    return " ".join(out)


def board_lines(state: "State") -> list[str]:
    """The position's PPN boards as text, rows from the top: each cell the PPN
    specification of its top piece (``S``, ``M2``), after its stack's height when
    more than one piece lies there (``2S``); ``.`` when empty."""
    lines: list[str] = []
    position = state.position
    for info in state.program.zones:
        if info.kind != "grid" or info.notation is None:
            continue
        cells: dict[tuple[int, int], str] = {}
        for cell in info.cell_objects:
            stack = stack_at(position, cell)
            named = ppn_piece(stack[-1], bool(position.face[stack[-1].id]), state) \
                if stack else None
            text = "." if not stack else spec_of(*named) if named else "?"
            cells[(cell.row, cell.col)] = (str(len(stack)) if len(stack) > 1 else "") + text
        width = max([len(t) for t in cells.values()] + [len(c) for c in info.column_names()])
        head = max(len(r) for r in info.row_names())
        lines.append(f"{info.label}:")
        lines.append(" " * (head + 1) + " ".join(c.rjust(width) for c in info.column_names()))
        for r, name in enumerate(info.row_names()):
            row = [cells.get((r, c), "").rjust(width) for c in range(info.cols)]
            lines.append(name.rjust(head) + " " + " ".join(row))
    return lines


def movetext_of(state: "State", decisions: list[tuple[int, str]]) -> list[str]:
    """The PPN move lines of a game replayed from ``state`` (fresh from
    ``new_game``) by ``decisions`` (the deciding seat, the action's text)."""
    lines = []
    number = 0
    for seat, text in decisions:
        before = _places(state)
        since = len(state.history)
        state.apply(text)
        after = _places(state)
        if seat == 0 or number == 0:
            number += 1
        name = f"{number}." if seat == 0 else f"{number}..."
        # what the rules told everyone (a narration told to some seats only is not
        # for a public record)
        said = [e.text for e in state.history[since + 1:]
                if isinstance(e, Narration) and e.to is None]
        moves = relocation(before, after) or "{no piece moved}"
        comment = " {" + "; ".join(s.replace("{", "(").replace("}", ")") for s in said) + "}" \
            if said else ""
        lines.append(f"{name} {moves}{comment}")
    return lines


def ppn_text(game: "Game", state: "State", decisions: list[tuple[int, str]],
             seed: int) -> str:
    """A PPN record of a game: the header and the moves (see the module's docstring)."""
    options = {str(k): v for k, v in state.program.options.items()}
    kind: Any = game.title if not options else {"Name": game.title, **options}
    header = yaml.safe_dump({"GameType": kind, "Rulepack": {"Seed": seed,
                                                            "Players": state.program.num_players}},
                            sort_keys=False, allow_unicode=True)
    return "---\n" + header + "...\n" + "\n".join(movetext_of(state, decisions)) + "\n"

