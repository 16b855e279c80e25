"""A ``where`` that picks one grid cell by its row and column is a lookup
(rulepack/compiler/lookup.py; docs/language.md, ``where``).

``board where row == r and col == c`` (over the grid's pieces, ``cells(...)`` or
``empty(...)``, a named grid or one of a family; the conjuncts in any order,
``==`` either way round, more conjuncts tested on the cell found) compiles into a
look-up on the grid's index, in the closures and in the generated code. Over
random boards (hypothesis: seeds placing 0 to 12 stones on a 4 x 5 grid with a
hole) every query gives what the scan gives and what the board itself says,
including rows and columns off the grid, ``none`` and non-whole numbers.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rulepack
from rulepack.compiler import codegen, lookup
from rulepack.validation import check_text
from rulepack.compiler.instance import instance_of

GRIDS = """\
game grids {
  players 1
}
component stone {
  called "stone {n}"
  n: 1..12
}
zone bag: stack
zone board: grid 4 x 5 without (2, 3)
zone mat: grid 2 x 2 per player
var placed = 0
var queries = []
var pieces_at = []
var scanned = []
var cells_at = []
var empties_at = []
var picky = []
var looped = []
var family = []
var diagonal = []
var own = []
setup {
  move stone to bag
  shuffle bag
  set placed = random(0..12)
  while count(board) < placed {
    move top of bag to random(empty(board))
  }
  set queries = flatten([[(r, c) for c in [-1, 1, 3, 5, 6, 3 / 2]] for r in [0, 1, 2, 3, 4, 5, none, 4 / 2]])
  set pieces_at = [(board where row == r and col == c) for (r, c) in queries]
  set scanned = [(board where row + 0 == r and col + 0 == c) for (r, c) in queries]
  set cells_at = [(cells(board) where c == col and r == row) for (r, c) in queries]
  set empties_at = [(empty(board) where row == r and col == c) for (r, c) in queries]
  set picky = [(board where n > 2 and (col == c and n < 11) and r == row) for (r, c) in queries]
  move top of bag to cell(mat[0], 2, 1)
  set family = [(mat[if current == none then 0 else current] where row == r and col == c) == (mat[0] where row + 0 == r and col == c) for (r, c) in queries]
  set diagonal = board where row == col
  set own = board where col == 1 and row == n
  for (r, c) in queries {
    for s in board where row == r and col == c and n != 5 {
      set looped = looped + [(r, c, s)]
    }
  }
}
play {
  turns from 0 until true {
    choose {
      action "look" {
      }
    }
  }
}
"""


@pytest.fixture(scope="module")
def games():
    """The ruleset compiled twice: to generated code, and to closures only."""
    generated = rulepack.loads(GRIDS)
    saved = codegen.ENABLED
    codegen.ENABLED = False
    try:
        closures = rulepack.loads(GRIDS)
        closures.new_game(1, seed=0)          # its instance is built without code
    finally:
        codegen.ENABLED = saved
    return {"generated": generated, "closures": closures}


def expected(state, zone_name: str, r, c, what: str) -> list:
    """What the board holds at row r, column c (from 1), read off its slots."""
    info = next(z for z in state.program.zones if z.label == zone_name)
    numbers = all(isinstance(v, (int, float)) for v in (r, c))
    out = []
    for slot, (row, col) in enumerate(info.cells):
        if not numbers or (row + 1, col + 1) != (r, c):
            continue
        piece = state.position.zones[info.index][slot]
        if what == "pieces" and piece is not None:
            out.append(piece)
        elif what == "cells" or (what == "empty" and piece is None):
            out.append(info.cell_objects[slot])
    return out


def test_the_lookups_are_compiled_as_lookups(games):
    state = games["generated"].new_game(1, seed=1)
    sources = [g.source for g in instance_of(state.program).exprs.source.generated
               if lookup.find in g.constants.values()]
    assert len(sources) == 6          # pieces, cells, empty, picky, family, the for loop
    closure = games["closures"].new_game(1, seed=1)
    assert not instance_of(closure.program).exprs.source.generated


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_a_lookup_finds_what_the_scan_and_the_board_find(games, seed):
    for how, game in games.items():
        state = game.new_game(1, seed=seed)
        v = state.position.vars
        assert count_on(state) == v["placed"]
        assert v["pieces_at"] == v["scanned"], how
        for (r, c), pieces, cells, empties, picky in zip(
                v["queries"], v["pieces_at"], v["cells_at"], v["empties_at"], v["picky"]):
            assert pieces == expected(state, "board", r, c, "pieces"), (how, r, c)
            assert cells == expected(state, "board", r, c, "cells"), (how, r, c)
            assert empties == expected(state, "board", r, c, "empty"), (how, r, c)
            assert picky == [p for p in pieces if 2 < p.attrs["n"] < 11], (how, r, c)
        assert v["looped"] == [(r, c, p) for r, c in v["queries"]
                               for p in expected(state, "board", r, c, "pieces")
                               if p.attrs["n"] != 5], how
        assert all(v["family"]), how


def count_on(state) -> int:
    info = next(z for z in state.program.zones if z.label == "board")
    return sum(p is not None for p in state.position.zones[info.index])


def test_a_lookup_is_not_warned_about():
    assert [d for d in check_text(GRIDS, "grids.rules") if d.code == "slow-cell-lookup"] == []


def test_a_condition_that_reads_the_element_is_a_scan(games):
    # the diagonal, and a stone whose number is its row: no one cell to look up
    for how, game in games.items():
        state = game.new_game(1, seed=5)
        info = next(z for z in state.program.zones if z.label == "board")
        on = [(p, r + 1, c + 1) for p, (r, c) in zip(state.position.zones[info.index], info.cells)
              if p is not None]
        assert state.position.vars["diagonal"] == [p for p, r, c in on if r == c], how
        assert state.position.vars["own"] == [p for p, r, c in on if c == 1 and r == p.attrs["n"]], how
