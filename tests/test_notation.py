"""Board notation (issue 35, item 2): a grid that declares ``notation ppn`` names its
cells as Portable Piecepack Notation does — columns a, b... left to right (past z:
aa, ab...), rows 1, 2... from the bottom, ``(x,y)`` where a coordinate is below 1 —
in action texts, views, the terminal and pictures; a grid without it keeps
rulepack's own names (a1 at the top left)."""

from __future__ import annotations

import pytest

import rulepack
from rulepack.engine.values import ppn_label
from rulepack.errors import RulepackError

RULES = """\
game corner {
  players 1
}
component stone {
  n: 1..3
}
zone board: grid 3 x 4 NOTATION
zone tray: grid 2 x 1 notation ppn from (0, 5)
zone long: grid 1 x 28 notation ppn
setup {
  move first(stone) to cell(board, 3, 1)
  move last(stone) to cell(tray, 1, 1)
}
play {
  turns from 0 {
    choose {
      action "move {s} to {c}" for s in board for c in empty(board) {
        move s to c
        end game winners [current]
      }
    }
  }
}
"""


def game(notation: str = "notation ppn") -> rulepack.Game:
    return rulepack.loads(RULES.replace("NOTATION", notation), "corner.rules")


def test_ppn_names_points_as_ppgames_reads_them():
    # (ppgames' get_algebraic_x("aa12") == 27, get_algebraic_y("aa12") == 12)
    assert [ppn_label(1, 1), ppn_label(26, 3), ppn_label(27, 12), ppn_label(0, 5),
            ppn_label(3, -1)] == ["a1", "z3", "aa12", "(0,5)", "(3,-1)"]


def test_a_ppn_grid_names_its_cells_from_the_bottom_left():
    state = game().new_game(1, seed=0)
    texts = [a.text for a in state.legal_actions()]
    # the stone is in row 3 from the top of 3 rows, column 1: PPN's a1; the first
    # empty cell, row by row from the top, is a3
    assert texts[0] == "move stone 1 to a3" and "move stone 1 to a1" not in texts
    assert sorted(t.split()[-1] for t in texts) == sorted(
        f"{c}{r}" for c in "abcd" for r in "123" if f"{c}{r}" != "a1")
    view = state.view(0)
    board = next(z for z in view["zones"].values() if z["name"] == "board") \
        if isinstance(view["zones"], dict) else None
    assert board is not None
    assert [c["cell"] for c in board["cells"]][:4] == ["a3", "b3", "c3", "d3"]
    assert board["row_names"] == ["3", "2", "1"]
    assert board["column_names"] == ["a", "b", "c", "d"]


def test_from_gives_the_bottom_left_cells_coordinates():
    state = game().new_game(1, seed=0)
    inst_zones = state.program.zones
    tray = next(z for z in inst_zones if z.name == "tray")
    assert [str(c) for c in tray.cell_objects] == ["(0,6)", "(0,5)"]
    assert tray.row_names() == ["6", "5"] and tray.column_names() == ["0"]
    long = next(z for z in inst_zones if z.name == "long")
    assert [str(c) for c in long.cell_objects][24:] == ["y1", "z1", "aa1", "ab1"]


def test_without_notation_the_names_are_rulepacks_own():
    state = game("").new_game(1, seed=0)
    texts = [a.text for a in state.legal_actions()]
    assert texts[0] == "move stone 1 to a1"          # the top left
    board = next(z for z in state.view(0)["zones"].values() if z["name"] == "board")
    assert "row_names" not in board and "notation" not in board


def test_the_terminal_board_labels_rows_by_their_names():
    from rich.console import Console

    from rulepack.cli.render import grid_table
    state = game().new_game(1, seed=0)
    board = next(z for z in state.view(0)["zones"].values() if z["name"] == "board")
    console = Console(width=60, record=True)
    console.print(grid_table(board).table(False))
    lines = [line.strip() for line in console.export_text().splitlines() if line.strip()]
    assert [line.split()[0] for line in lines[1:4]] == ["3", "2", "1"]


@pytest.mark.parametrize("zone, message", [
    ("zone board: stack notation ppn", "zone 'board' is a stack: only a grid names its cells"),
    ("zone board: grid 3 x 4 notation chess", "a grid's notation is ppn"),
])
def test_a_notation_where_there_is_none_to_give_is_an_error(zone, message):
    text = RULES.replace("zone board: grid 3 x 4 NOTATION", zone)
    with pytest.raises(RulepackError, match=message) as info:
        rulepack.loads(text, "corner.rules")
    assert info.value.diagnostics[0].location.line == 7


def test_a_record_of_a_ppn_grid_replays(tmp_path):
    """Records keep cells by zone and slot, the texts by the names: a game recorded
    on a PPN grid replays to the same end."""
    from click.testing import CliRunner

    from rulepack.cli.main import main
    path = tmp_path / "corner.rules"
    path.write_text(RULES.replace("NOTATION", "notation ppn"), encoding="utf-8")
    record = tmp_path / "game.jsonl"
    played = CliRunner().invoke(main, ["play", str(path), "--seat", "random", "--seed", "3",
                                       "--record", str(record)])
    assert played.exit_code == 0, played.output
    assert " to " in played.output and any(f"to {c}" in played.output for c in
                                           ("a3", "b1", "b2", "b3", "c1", "d3"))
    replayed = CliRunner().invoke(main, ["replay", str(record)])
    assert replayed.exit_code == 0, replayed.output
