"""rulepack.engine.inspect: a state read by the ruleset's names."""

from __future__ import annotations

import random

import pytest

import rulepack
from rulepack.engine import inspect
from rulepack.engine.values import Piece

try:
    from bundled import bundled
except ImportError:  # tests/ imported as a package
    from tests.bundled import bundled


def test_zones_by_label_in_zone_order() -> None:
    state = bundled("multzo").new_game(3, seed=2)
    labels = inspect.zone_labels(state)
    assert labels[:3] == ["box", "stack", "discards"]
    assert "hand[player 3]" in labels
    assert inspect.zone_kind(state, "stack") == "stack"
    hand = inspect.zone_pieces(state, "hand[player 1]")
    assert len(hand) == 4 and all(type(p) is Piece for p in hand)
    assert hand == sorted(hand, key=lambda p: p.id)   # a pile keeps piece order
    info = inspect.piece_info(state, hand[0])
    assert info == {"id": hand[0].id, "name": hand[0].name, "kind": hand[0].kind,
                    "face": "down", "owner": None, "rolls": None,
                    "attributes": {"suit": hand[0].attrs["suit"], "rank": hand[0].attrs["rank"],
                                   "value": hand[0].attrs["value"]}}
    with pytest.raises(KeyError, match="no zone labelled 'hand'"):
        inspect.zone_pieces(state, "hand")
    with pytest.raises(ValueError, match="not a grid"):
        inspect.grid_cells(state, "stack")
    assert inspect.zone_groups(state, "stack") is None


def test_grid_cells_row_by_row() -> None:
    state = bundled("mismemory").new_game(2, seed=0, options={"grid": "4x6"})
    cells = inspect.grid_cells(state, "board")
    assert [c for c, _ in cells[:7]] == ["a1", "b1", "c1", "d1", "e1", "f1", "a2"]
    assert [p for _, p in cells if p is not None] == inspect.zone_pieces(state, "board")


def test_declared_variables_only_and_canonical_values() -> None:
    state = bundled("multzo").new_game(3, seed=1)
    rng = random.Random(1)
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    values = inspect.variables(state)
    assert list(values) == ["declarer", "first", "won_categories", "multiplied"]
    first = values["first"]
    assert inspect.canonical(state, first) == {"seat": int(first)}
    won = [entry for seat in values["won_categories"] for entry in seat]
    category, suit, coins = won[0]
    assert inspect.canonical(state, won[0]) == {"tuple": [{"pattern": category.name}, suit, coins]}
    piece = inspect.zone_pieces(state, "discards")[0]
    assert inspect.canonical(state, [piece, {2: True, 1: None}, 0.5]) == [
        {"piece": piece.name}, {"map": [[1, None], [2, True]]}, 0.5]
    with pytest.raises(TypeError):
        inspect.canonical(state, object())


def test_piece_info_gives_the_attributes_and_the_face():
    state = bundled("multzo").new_game(3, seed=1)
    hand = inspect.zone_pieces(state, "hand[player 1]")
    info = inspect.piece_info(state, hand[0])
    assert info["kind"] == "tile" and info["face"] == "down"
    assert set(info["attributes"]) >= {"suit", "rank", "value"}
    assert info["attributes"]["value"] == hand[0].attrs["value"]


DICE = """\
game dice { players 2 }
component die {
  called "{colour} die"
  colour: red, blue
  rolls pips: 1..6
}
zone cup: row
setup { move die to cup face up }
play {
  turns from 0 until false {
    choose { action "roll" { roll cup } }
  }
}
"""


def test_piece_info_gives_the_id_and_a_rolled_dies_face() -> None:
    """As the view does: a die's face under its attribute's name, and the piece's id."""
    state = rulepack.loads(DICE).new_game(2, seed=4)
    red, blue = inspect.zone_pieces(state, "cup")
    assert inspect.piece_info(state, red)["attributes"] == {"colour": "red", "pips": 1}
    faces = set()
    for _ in range(6):
        state.apply("roll")
        view = {p["id"]: p for p in state.view(0)["zones"]["cup"]["pieces"]}
        for die in (red, blue):
            info = inspect.piece_info(state, die)
            assert info["id"] == die.id and info["rolls"] == "pips"
            assert info["attributes"]["pips"] == view[die.id]["pips"]
            faces.add(info["attributes"]["pips"])
    assert len(faces) > 1                   # the faces rolled, not the first one
    multzo = bundled("multzo").new_game(2, seed=1)
    tile = inspect.zone_pieces(multzo, "stack")[0]
    info = inspect.piece_info(multzo, tile)
    assert info["id"] == tile.id and info["rolls"] is None
