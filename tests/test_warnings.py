"""Warnings of ``rulepack validate`` (docs/language.md §11): a score that decides
nothing (no ``winner``, no ``end game winners``); none for a ``where`` that finds
one grid cell by its row and column, which is a lookup now."""

from __future__ import annotations

import pytest

from rulepack.validation import check_text

GAME = """\
game g { players 2 }
zone board: grid 3 x 3
var points per player = 0
score(p) = points[p]
WINNER
play {
  turns from 0 until true {
    let r = 2
    LINE
  }
}
"""


def warnings(winner: str = "winner highest score", line: str = "let x = r") -> list:
    text = GAME.replace("WINNER", winner).replace("LINE", line)
    found = check_text(text, "g.rules")
    assert all(d.severity == "warning" for d in found), found
    return found


def test_no_warning_for_a_plain_ruleset():
    assert warnings() == []


def test_a_score_without_a_winner_rule_is_warned_about_at_the_score():
    [w] = warnings(winner="")
    assert w.code == "score-without-winner"
    assert "every game is a draw" in w.message
    assert (w.location.line, w.location.column) == (4, 1)


def test_end_game_winners_is_a_winner_rule_too():
    assert warnings(winner="", line="end game winners current") == []


@pytest.mark.parametrize("line", [
    "let c = first(cells(board) where row == r and col == 3)",
    "let c = first(empty(board) where col == 1 and row == r + 1)",
    "let c = first(board where row == 1 and (col == r and 1 == 1))",
    "let c = first(cells(board) where 2 == row and col == r)",
])
def test_one_cell_found_by_where_is_a_lookup_and_not_warned_about(line: str):
    # (rulepack/compiler/lookup.py; its results: tests/test_cell_lookup.py)
    assert warnings(line=line) == []


@pytest.mark.parametrize("line", [
    "let c = cells(board) where row == 2",                   # a whole row
    "let c = cells(board) where row == 2 or col == 3",       # a cross, not one cell
    "let c = cells(board) where row == col",                 # the diagonal
    "let c = cell(board, r, 3)",                             # the direct lookup
])
def test_other_wheres_over_a_grid_are_not(line: str):
    assert warnings(line=line) == []
