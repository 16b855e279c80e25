"""Action domains from types (issue 34, item 7): a parameter drawn from a ``define``
(``for c in targets(pw)``), or from any expression whose values the ruleset cannot
follow but whose type has finitely many values (a cell of the grids, a piece, a
player), gets stable action ids; only a truly unbounded type (a number from
arithmetic) is refused, located at the expression that made it so."""

from __future__ import annotations

import random

import pytest

import rulepack
from rulepack.errors import SemanticError

#: a pawn solitaire in the style of those written from the docs by outside
#: designers: pawns on a grid, each moved to one of its targets, a define giving
#: cells; TARGETS is the define's body
SOLITAIRE = """
game hop {
  players 1
}
component pawn {
  called "pawn {n}"
  n: 1..3
}
zone board: grid 4 x 4
zone home: pile
var moves = 0
define targets(pw) = TARGETS
setup {
  for pw in pawn {
    move pw to random(empty(board))
  }
}
play {
  turns from 0 until moves >= 6 {
    choose {
      action "move {pw} to {c}" for pw in board for c in targets(pw) {
        move pw to c
        set moves = moves + 1
      }
      action "rest" {
        set moves = moves + 1
      }
    }
  }
}
"""

#: two ways the docs allow to say where a pawn may go
TARGETS = {
    # the neighbours that are empty (followed through the define's body)
    "neighbours": "[c for c in neighbours(pw.cell) if at(c) == none]",
    # one step down or right, by arithmetic on the row and column (a cell of the
    # board by its type: cell() gives a cell or none)
    "arithmetic": "[x for x in [cell(board, pw.row + 1, pw.col), cell(board, pw.row, "
                  "pw.col + 1)] if x != none and at(x) == none]",
    # a corner picked from a map by a number only play knows: the values are
    # not followed (a map), the type is (a cell or none)
    "map": "[x for x in [{0: cell(board, 1, 1), 1: cell(board, 4, 4)}[moves % 2]] "
           "if at(x) == none]",
}


@pytest.mark.parametrize("how", sorted(TARGETS))
def test_a_parameter_drawn_from_a_define_has_stable_ids(how):
    game = rulepack.loads(SOLITAIRE.replace("TARGETS", TARGETS[how]), "hop.rules")
    for seed in range(5):
        state = game.new_game(1, seed=seed)
        size = state.program.num_distinct_actions()
        # 3 pawns x (16 cells and none, at most) + rest: bounded, whatever the way
        assert 2 <= size <= 3 * 17 + 1
        rng = random.Random(seed)
        while not state.is_terminal():
            ids = state.legal_action_ids()
            assert len(set(ids)) == len(ids) == len(state.legal_actions())
            assert all(0 <= i < size for i in ids)
            state.apply_id(ids[rng.randrange(len(ids))])


def test_a_parameter_of_an_unbounded_type_is_refused_at_the_expression():
    text = SOLITAIRE.replace("TARGETS", "[moves + 1, moves + 2]").replace(
        'action "move {pw} to {c}" for pw in board for c in targets(pw) {\n        move pw to c',
        'action "count {c}" for c in targets(0) {')
    state = rulepack.loads(text, "hop.rules").new_game(1, seed=0)
    assert [a.text for a in state.legal_actions()] == ["count 1", "count 2", "rest"]
    with pytest.raises(SemanticError, match=r"the result of '\+' cannot be listed before "
                       r"play; its values are a number, which cannot be listed") as info:
        state.program.num_distinct_actions()
    # at the arithmetic that makes 'moves' (read by the define) any number
    line = text.splitlines().index("        set moves = moves + 1") + 1
    [diag] = info.value.diagnostics
    assert (diag.code, diag.location.line, diag.location.column) == (
        "unbounded-actions", line, 21)


def test_arithmetic_over_known_numbers_is_listed_and_over_a_counter_is_not():
    """A number made by arithmetic on values the ruleset fixes — a cell's row and
    column, a constant — is listed (the Morris rulesets' point coordinates); one made
    from a variable that grows by itself (``moves + 1``) is not, whatever its start."""
    text = SOLITAIRE.replace("TARGETS", "[x for x in cells(board) if x.row + x.col == "
                                        "pw.row * 2 + 1]").replace(
        'action "rest" {', 'action "rest {k}" for k in [pw.row * 10 + pw.col for pw in board] {')
    state = rulepack.loads(text, "hop.rules").new_game(1, seed=0)
    # rows and columns 1-4: 11..44, sixteen numbers, beside the pawns' cell moves
    size = state.program.num_distinct_actions()
    assert 16 < size <= 3 * 17 + 16
    rests = {state.action_to_string(0, i) for i in range(size)} - {
        a for a in (state.action_to_string(0, i) for i in range(size)) if a.startswith("move")}
    assert rests == {f"rest {r * 10 + c}" for r in range(1, 5) for c in range(1, 5)}
    grows = SOLITAIRE.replace("TARGETS", "[]").replace(
        'action "rest" {', 'action "rest {k}" for k in [moves * 2] {')
    with pytest.raises(SemanticError, match=r"cannot be listed before play"):
        rulepack.loads(grows, "hop.rules").new_game(1, seed=0).program.num_distinct_actions()
