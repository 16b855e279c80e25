"""Pieces on pieces (issue 35, item 1): a grid declared ``stacked`` holds a stack in
each cell, bottom to top — ``at`` is the top, ``stack_at``, ``height``, ``under`` and
``top N of CELL`` read it, ``move`` puts a piece on top (``at bottom``: under), a
stack moved together keeps its order — and the views, the JSON of a position, the
determinizations, the tensors and the pictures carry the stacks, hiding what is
hidden."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings, strategies as hs

import rulepack
from rulepack.agents.determinize import determinize
from rulepack.engine.inspect import grid_stacks, zone_pieces
from rulepack.engine.observe import Observer
from rulepack.engine.rng import Rng
from rulepack.errors import RulepackError

# discs 1..4 start on a1 (1 at the bottom); a hidden tile lies under them; the
# actions move the top one or two pieces of a stack, put a disc under a stack, or
# lift a disc out of the middle of one
RULES = """\
game towers {
  players 2
}
component disc {
  n: 1..4
}
component tile {
  n: 1..2
}
zone board: grid 2 x 2 stacked
zone shelf: row
setup {
  move first(tile) to cell(board, 1, 1) face down
  for d in disc {
    move d to cell(board, 1, 1) face up
  }
  move last(tile) to shelf face down
}
play {
  turns from 0 {
    if height(cell(board, 2, 2)) >= 4 {
      end game winners [current]
    }
    choose {
      action "{k} {c}-{d}" for k in 1..2 for c in cells(board) for d in cells(board)
          if c != d and k <= height(c) {
        move top k of c to d
      }
      action "under {c}" for c in cells(board) if count(shelf) > 0 {
        move first(shelf) to c at bottom
      }
      action "lift {p}" for p in disc if under(p) != none and p != at(p.cell) {
        move p to shelf face up
      }
    }
  }
}
"""


@pytest.fixture(scope="module")
def game() -> rulepack.Game:
    return rulepack.loads(RULES, "towers.rules")


def names(state, label="board"):
    return {cell: [p.name for p in stack] for cell, stack in grid_stacks(state, label)}


def test_a_stacked_cell_holds_its_pieces_bottom_to_top(game):
    state = game.new_game(2, seed=0)
    assert names(state)["a1"] == ["tile 1", "disc 1", "disc 2", "disc 3", "disc 4"]
    # at() is the top; every piece of the stack is in the zone and in its cell
    assert [p.name for p in zone_pieces(state, "board")][0] == "disc 4"
    assert len(zone_pieces(state, "board")) == 5
    pos = state.position
    from rulepack.engine.queries import cell_of
    tile = next(p for p in state.program.pieces if p.name == "tile 1")
    assert str(cell_of(pos, tile)) == "a1"


def test_moving_the_top_two_keeps_their_order_and_lands_on_top(game):
    state = game.new_game(2, seed=0)
    state.apply("2 a1-b1")
    assert names(state)["a1"] == ["tile 1", "disc 1", "disc 2"]
    assert names(state)["b1"] == ["disc 3", "disc 4"]
    state.apply("1 a1-b1")
    assert names(state)["b1"] == ["disc 3", "disc 4", "disc 2"]
    state.apply("under b1")
    assert names(state)["b1"] == ["tile 2", "disc 3", "disc 4", "disc 2"]
    # 'lift': a disc with a piece under it and one over it (a1's disc 1 is its top)
    assert sorted(a.text for a in state.legal_actions() if a.text.startswith("lift")) == [
        "lift disc 3", "lift disc 4"]
    state.apply("lift disc 4")
    assert names(state)["b1"] == ["tile 2", "disc 3", "disc 2"]


def test_the_new_functions_read_a_stack(game):
    src = RULES.replace('''      action "under {c}"''', '''      action "probe {x}" for x in [(height(cell(board, 1, 1)), top of cell(board, 1, 1),
          top 2 of cell(board, 1, 1), under(at(cell(board, 1, 1))), count(board),
          stack_at(cell(board, 2, 2)))] {
        end game winners [current]
      }
      action "under {c}"''')
    state = rulepack.loads(src, "probe.rules").new_game(2, seed=0)
    probe = next(a.text for a in state.legal_actions() if a.text.startswith("probe"))
    # (height 5; the top; the top two, top first; the piece under the top; every piece
    # of the board; b2's empty stack)
    assert probe == "probe 5, disc 4, disc 4, disc 3, disc 3, 5, "


def test_without_stacked_a_cell_holds_one_piece():
    src = RULES.replace("grid 2 x 2 stacked", "grid 2 x 2")
    with pytest.raises(RulepackError, match="cell a1 is not empty"):
        rulepack.loads(src, "flat.rules").new_game(2, seed=0)


def test_only_a_grid_is_stacked():
    src = RULES.replace("zone shelf: row", "zone shelf: row stacked")
    with pytest.raises(RulepackError, match="only a grid is 'stacked'"):
        rulepack.loads(src, "bad.rules").new_game(2, seed=0)


def test_the_new_functions_check_their_arguments():
    src = RULES.replace("height(cell(board, 2, 2)) >= 4", "height(board) >= 4")
    with pytest.raises(RulepackError, match="height"):
        rulepack.loads(src, "bad.rules").new_game(2, seed=0)


def test_views_list_each_stack_and_hide_what_is_hidden(game):
    state = game.new_game(2, seed=0)
    view = state.view(1)
    board = view["zones"]["board"]
    a1 = board["cells"][0]
    assert board["stacked"] is True
    assert a1["piece"]["name"] == "disc 4"
    assert [e.get("name") for e in a1["stack"]] == [None, "disc 1", "disc 2", "disc 3",
                                                   "disc 4"]
    assert a1["stack"][0] == {"hidden": True, "kind": "tile", **{
        k: v for k, v in a1["stack"][0].items() if k not in ("hidden", "kind")}}
    assert "id" not in a1["stack"][0] and "tile 1" not in str(view)


def test_a_position_with_stacks_goes_to_json_and_back(game):
    state = game.new_game(2, seed=0)
    for text in ("2 a1-b1", "under b1", "1 a1-b2"):
        state.apply(text)
    data = state.to_json()
    back = game.state_from_json(data)
    assert names(back) == names(state)
    assert [a.text for a in back.legal_actions()] == [a.text for a in state.legal_actions()]
    broken = dict(data)
    broken["heights"] = [[z, [9, 0, 0, 0]] for z, _ in data["heights"]]
    with pytest.raises(RulepackError, match="one place per cell"):
        game.state_from_json(broken)


def test_a_guess_of_the_hidden_pieces_keeps_every_stack(game):
    state = game.new_game(2, seed=0)
    state.apply("2 a1-b1")
    state.apply("under b1")
    view = state.view(0)
    for k in range(5):
        guess = determinize(state.program, view, Rng(k))
        shapes = {c: len(s) for c, s in names(guess).items()}
        assert shapes == {c: len(s) for c, s in names(state).items()}
        # what the seat sees is where it is; the two tiles may trade places
        for cell, stack in names(state).items():
            assert [n for n in names(guess)[cell] if n.startswith("disc")] == \
                [n for n in stack if n.startswith("disc")]


def test_tensors_see_levels_and_count_hidden_pieces_beneath(game):
    state = game.new_game(2, seed=0)
    observer = Observer(state.program)
    tensor = observer.observation_tensor(state.position, 0)
    assert len(tensor) == observer.observation_tensor_shape[0]
    # two games that differ only in which hidden tile lies under the discs observe alike
    other = game.new_game(2, seed=0)
    pos = other.position
    tiles = [p for p in other.program.pieces if p.kind == "tile"]
    places = [(pos.loc[t.id], pos.zones[pos.loc[t.id]].index(t)) for t in tiles]
    pos.put(places, tiles[::-1])
    assert names(other)["a1"][0] == "tile 2"
    assert observer.observation_tensor(pos, 0) == tensor


def test_a_picture_draws_a_stack():
    pytest.importorskip("drawsvg")
    from rulepack.render.output import encode, picture
    game = rulepack.loads(RULES, "towers.rules")
    state = game.new_game(2, seed=0)
    svg = encode(picture(game, state, 0, ""), "svg").decode()
    assert ">5</text>" in svg          # the height of a1's stack


class Model:
    """The stacks as plain lists, moved as the language says."""

    def __init__(self, state) -> None:
        self.cells = {c: [p.name for p in s] for c, s in grid_stacks(state, "board")}
        self.shelf = ["tile 2"]

    def apply(self, text: str) -> None:
        word, *rest = text.split()
        if word == "under":
            self.cells[rest[0]].insert(0, self.shelf.pop(0))
        elif word == "lift":
            name = " ".join(rest)
            for stack in self.cells.values():
                if name in stack:
                    stack.remove(name)
            self.shelf.append(name)
        else:
            c, d = rest[0].split("-")
            k = int(word)
            moved = self.cells[c][-k:]
            del self.cells[c][-k:]
            self.cells[d] += moved


@settings(max_examples=40, deadline=None)
@given(hs.integers(0, 10_000))
def test_stacks_move_as_a_model_of_lists_says(seed):
    game = rulepack.loads(RULES, "towers.rules")
    state = game.new_game(2, seed=seed)
    model = Model(state)
    rng = random.Random(seed)
    for _ in range(30):
        if state.is_terminal():
            break
        action = rng.choice(state.legal_actions())
        model.apply(action.text)
        state.apply(action)
        assert names(state) == model.cells
        assert sum(len(s) for s in model.cells.values()) == len(zone_pieces(state, "board"))
