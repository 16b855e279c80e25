"""Orientation (issue 35, item 1: "Orientation where a game needs it (PPN rotations
@>, v, <)"): ``rotate P to A`` points a piece (degrees counter-clockwise from up, as
PPN's angles: ``<`` 90, ``v`` 180, ``>`` 270), ``rotate P clockwise N`` turns it (PPN's
``@>N``), ``P.angle`` reads it — and the views (hidden pieces too: anyone sees which way
a piece points), the JSON of a position, the determinizations, the tensors, the
pictures, the terminal board and PPN records in and out carry it."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings, strategies as hs

import rulepack
from rulepack.agents.determinize import determinize
from rulepack.engine.inspect import grid_cells
from rulepack.engine.observe import Observer
from rulepack.engine.rng import Rng
from rulepack.errors import RulepackError
from rulepack.ppn.export import ppn_text
from rulepack.ppn.importer import import_game
from rulepack.ppn.movetext import read_ppn

# four coins on a 3 x 3 board named as PPN names it; a hidden tile on b2 (face
# down); a turn moves a coin to a next empty cell, turns one a quarter clockwise or
# points one that points up down; all four coins pointing down wins
RULES = """\
game compass {
  players 2
}
use piecepack (tile, coin)
zone board: grid 3 x 3 notation ppn
zone shelf: pile
const steps = [(-1, 0), (1, 0), (0, -1), (0, 1)]
define mine() = [x for x in coin if x.zone == board]
setup {
  move tile to shelf face down
  move first(tile) to cell(board, 2, 2) face down
  move coin where rank == null to board face up
  for c in coin where rank != null {
    move c to shelf
  }
}
play {
  turns from 0 {
    choose {
      action "{x}-{d}" for x in mine() for d in [step(x.cell, s) for s in steps]
          if d != none and at(d) == none {
        move x to d
      }
      action "{x}@>90" for x in mine() {
        rotate x clockwise 90
      }
      action "{x} down" for x in mine() if x.angle == 0 {
        rotate x to 180
      }
      action "tile@>90" {
        rotate at(cell(board, 2, 2)) clockwise 90
      }
    }
    if all([x.angle == 180 for x in mine()]) {
      end game winners [current]
    }
  }
}
"""
GAME = rulepack.loads(RULES, "compass.rules")


def played(*texts: str, seed: int = 0):
    state = GAME.new_game(seed=seed)
    for t in texts:
        state.apply(t)
    return state


def angles(state) -> dict[str, int]:
    return {c["cell"]: (c["piece"] or {}).get("angle", 0)
            for c in state.view(0)["zones"]["board"]["cells"] if c["piece"]}


def first_coin(state) -> str:
    return next(a.text for a in state.legal_actions() if a.text.endswith("@>90")
                and not a.text.startswith("tile")).removesuffix("@>90")


def test_rotate_to_and_clockwise_as_ppn_counts_angles() -> None:
    state = GAME.new_game()
    coin = first_coin(state)
    state.apply(f"{coin}@>90")        # a quarter clockwise: now pointing right (>, 270)
    piece = next(p for p in state.position.program.pieces if p.name == coin)
    assert state.position.angles[piece.id] == 270
    state.apply(f"{coin}@>90")        # then down (v, 180)
    assert state.position.angles[piece.id] == 180
    state.apply(f"{coin}@>90")
    state.apply(f"{coin}@>90")        # all the way round: up again, no angle kept
    assert piece.id not in state.position.angles
    state.apply(f"{coin} down")
    assert state.position.angles[piece.id] == 180


def test_the_angle_is_read_and_a_game_ends_by_it() -> None:
    state = GAME.new_game()
    coins = [a.text.removesuffix(" down") for a in state.legal_actions()
             if a.text.endswith(" down")]
    assert len(coins) == 4
    for coin in coins:
        assert not state.is_terminal()
        state.apply(f"{coin} down")
    assert state.is_terminal()


def test_views_show_the_way_pieces_point_hidden_ones_too() -> None:
    state = played("tile@>90")
    cells = {c["cell"]: c["piece"] for c in state.view(1)["zones"]["board"]["cells"]}
    tile = cells["b2"]
    # a hidden tile: its identity is not shown, the way it points is
    assert tile["hidden"] is True and tile["angle"] == 270 and "id" not in tile
    # pieces never turned say nothing of it
    assert all("angle" not in p for c, p in cells.items() if p and c != "b2")


def test_json_keeps_angles_and_refuses_a_piece_the_game_has_not() -> None:
    state = played("tile@>90")
    state.apply(f"{first_coin(state)} down")
    data = state.to_json()
    assert data["angles"]
    assert GAME.state_from_json(data).to_json() == data
    data["angles"] = [[999, 90]]
    with pytest.raises(RulepackError, match="an angle of a piece the game does not have"):
        GAME.state_from_json(data)


def test_a_determinization_keeps_each_place_pointing_as_it_did() -> None:
    # the hidden tile on b2 is any of the tiles for player 1; whichever it is dealt,
    # b2's tile points as it did
    state = played("tile@>90")
    view = state.view(1)
    dealt = set()
    for k in range(12):
        guess = determinize(state.program, view, Rng(k))
        tile = dict(grid_cells(guess, "board"))["b2"]
        assert guess.position.angles == {tile.id: 270}
        dealt.add(tile.id)
    assert len(dealt) > 1          # other tiles were dealt there


def test_tensors_observe_the_angle_of_a_hidden_piece_and_not_its_identity() -> None:
    turned, plain = played("tile@>90"), played()
    observer = Observer(turned.program)
    tensor = observer.observation_tensor(turned.position, 1)
    assert len(tensor) == observer.observation_tensor_shape[0]
    assert tensor != observer.observation_tensor(plain.position, 1)
    # another tile dealt to b2 (it keeps the place's angle): observed alike
    pos = turned.position
    tiles = [p for p in turned.program.pieces if p.kind == "tile"]
    on_board = next(t for t in tiles if pos.loc[t.id] == pos.loc[tiles[0].id] and
                    turned.program.zones[pos.loc[t.id]].kind == "grid")
    other = next(t for t in tiles if t is not on_board)
    places = [(pos.loc[t.id], pos.zones[pos.loc[t.id]].index(t)) for t in (on_board, other)]
    pos.put(places, [other, on_board])
    assert pos.angles == {other.id: 270}
    assert observer.observation_tensor(pos, 1) == tensor


def test_pictures_and_the_terminal_draw_a_piece_turned() -> None:
    pytest.importorskip("drawsvg")
    from rulepack.cli.render import GridBoard
    from rulepack.render.output import encode, picture
    state = GAME.new_game()
    coin = first_coin(state)
    state.apply(f"{coin}@>90")
    svg = encode(picture(GAME, state, 0, ""), "svg").decode()
    assert 'transform="rotate(-270' in svg
    board = GridBoard(state.view(0)["zones"]["board"])
    assert any(p and str(p.get("name", "")).endswith(" >") for p in board.cells.values())


@settings(max_examples=15, deadline=None)
@given(hs.integers(0, 2 ** 31 - 1))
def test_ppn_export_writes_rotations_that_import_back(seed: int) -> None:
    """``ppn export`` writes a turn as PPN's ``@>`` (``b2@>90``; ``b2[2]@>90`` under
    another piece) and ``ppn import`` reads it back: the same actions, the same end."""
    state = GAME.new_game(seed=seed)
    rng = random.Random(seed)
    decisions = []
    while not state.is_terminal() and len(decisions) < 30:
        legal = state.legal_actions()
        action = legal[rng.randrange(len(legal))]
        decisions.append((state.current_player, action.text))
        state.apply(action)
    text = ppn_text(GAME, GAME.new_game(seed=seed), decisions, seed)
    assert "@>" in text or not any(t.endswith(("@>90", "down")) for _, t in decisions)
    [record] = read_ppn(text, "exported.ppn")
    imported = import_game(record, GAME, "exported.ppn")
    assert [a.text for _, a in imported.moves if a is not None] == [t for _, t in decisions]


def test_a_record_turning_pieces_imports_and_one_turning_wrongly_fails() -> None:
    state = GAME.new_game()
    coin = first_coin(state)
    where = next(c["cell"] for c in state.view(0)["zones"]["board"]["cells"]
                 if c["piece"] and c["piece"].get("name") == coin)
    good = f"---\nRulepack: {{Seed: 0, Players: 2}}\n...\n1. {where}@>90 1... {where}@>90\n"
    [record] = read_ppn(good, "good.ppn")
    imported = import_game(record, GAME, "good.ppn")
    assert [a.text for _, a in imported.moves if a is not None] == [f"{coin}@>90"] * 2
    bad = f"---\nRulepack: {{Seed: 0, Players: 2}}\n...\n1. {where}@>45\n"
    [record] = read_ppn(bad, "bad.ppn")
    with pytest.raises(RulepackError, match="move 1"):
        import_game(record, GAME, "bad.ppn")


@pytest.mark.parametrize("statement, message", [
    ("rotate 3 to 90", "rotate needs a piece or pieces"),
    ('rotate first(coin) to "up"', "rotate needs a whole number of degrees"),
])
def test_what_rotate_refuses(statement: str, message: str) -> None:
    text = RULES.replace('      action "tile@>90" {', f'      action "odd" {{\n        {statement}\n      }}\n      action "tile@>90" {{')
    with pytest.raises(RulepackError, match=message):
        rulepack.loads(text, "odd.rules")
