"""Four Field Kono (rulepack/rulesets/four-field-kono.rules) against its published
rules: ppgames, inst/rules/four-field-kono.Rtex (github piecepackr/ppgames, Trevor L.
Davis, CC BY-SA 4.0; version 2.0, 2019-05-18). Each test cites the sentence it
checks (section "Setup" or "Rules" of that file); the record of a game in ppgames
(tests/data/ppn/four-field-kono.ppn) is replayed move by move."""

from __future__ import annotations

import random
from pathlib import Path

from hypothesis import given, settings, strategies as st

import rulepack
from rulepack.engine.inspect import grid_cells, zone_pieces
from rulepack.ppn.movetext import read_ppn

GAME = rulepack.load("four-field-kono")
RECORD = Path(__file__).parent / "data" / "ppn" / "four-field-kono.ppn"
POWER, ASTRONOMICAL = ("crowns", "arms"), ("suns", "moons")


def board(state) -> dict[str, object]:
    return {cell: piece for cell, piece in grid_cells(state, "board") if piece is not None}


def test_setup_fills_each_half_with_eight_coins_of_two_suits():
    """Setup: "give each player eight of the coin backs of two suits ... which they
    each use to populate the half of the board closest to them so that all squares
    are occupied at the beginning of the game" (ppgames' diagram: crowns and arms on
    rows 1-2, suns and moons on rows 3-4, a1 at the bottom left)."""
    state = GAME.new_game(2, seed=0)
    cells = board(state)
    assert len(cells) == 16
    for cell, piece in cells.items():
        suits = POWER if cell[-1] in "12" else ASTRONOMICAL
        assert piece.kind == "coin" and piece.attrs["suit"] in suits, (cell, piece)
    # ppgames' starting diagram, piece by piece (its setup df_four_field_kono())
    assert {c: (p.attrs["suit"], p.attrs["rank"]) for c, p in cells.items() if c in
            ("a1", "b2", "c1", "d2", "a4", "b3", "c4", "d3")} == {
        "a1": ("arms", 4), "b2": ("arms", 3), "c1": ("crowns", 4), "d2": ("crowns", 3),
        "a4": ("suns", 2), "b3": ("suns", 5), "c4": ("moons", 2), "d3": ("moons", 5)}
    # "coin backs": every coin lies face down, showing its suit
    view = state.view(1)
    shown = [c["piece"] for z in view["zones"].values() if z["name"] == "board"
             for c in z["cells"]]
    assert all(p["hidden"] and set(p["shows"]) == {"suit"} for p in shown)


def test_the_first_player_owns_the_highest_suit():
    """Rules: "One player goes first," with the footnote "Such as the player owning
    coins of the highest suit" (arms: the power suits)."""
    state = GAME.new_game(2, seed=0)
    assert state.current_player == 0 and GAME.instance(2).seat_names[0] == "power"


def test_moves_are_orthogonal_steps_onto_empty_squares_or_captures():
    """Rules: "All movements are orthogonal. Captures are made by jumping over a
    friendly piece to land on and capture an enemy piece just beyond. Non-capturing
    moves consist of moving one space onto an empty square." At the start the board
    is full: the only moves are the four captures straight ahead from row 1."""
    state = GAME.new_game(2, seed=0)
    assert sorted(a.text for a in state.legal_actions()) == ["a1:a3", "b1:b3", "c1:c3",
                                                              "d1:d3"]
    state.apply("b1:b3")
    cells = board(state)
    assert "b1" not in cells and cells["b3"].attrs["suit"] in POWER
    assert [p.attrs["suit"] for p in zone_pieces(state, "taken[power]")] == ["suns"]
    # now the astronomical side: captures over its own coins, and steps onto b1's square
    # are not theirs to take (b1 is not next to any of their coins)
    texts = sorted(a.text for a in state.legal_actions())
    assert texts
    for text in texts:
        start, end = text.replace(":", "-").split("-")
        (c1, r1), (c2, r2) = (start[0], int(start[1:])), (end[0], int(end[1:]))
        distance = abs(ord(c1) - ord(c2)) + abs(r1 - r2)
        assert (c1 == c2 or r1 == r2) and distance == (2 if ":" in text else 1), text


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2 ** 32 - 1))
def test_every_move_keeps_the_rules(seed):
    """Over random games: a step moves one coin one square orthogonally onto an empty
    square; a capture jumps over a coin of the mover onto an enemy coin, which goes
    to the mover's captured coins; the coins are never more than 16; a game ends
    when a player has captured seven ("A player wins by capturing seven of the other
    player's coins") or cannot move ("or by depriving the other player of a move")."""
    state = GAME.new_game(2, seed=seed % 1000)
    rng = random.Random(seed)
    while not state.is_terminal():
        before = board(state)
        legal = state.legal_actions()
        action = legal[rng.randrange(len(legal))]
        mover = state.current_player
        mine = POWER if mover == 0 else ASTRONOMICAL
        start, end = action.text.replace(":", "-").split("-")
        assert before[start].attrs["suit"] in mine
        if ":" in action.text:
            over = f"{chr((ord(start[0]) + ord(end[0])) // 2)}{(int(start[1:]) + int(end[1:])) // 2}"
            assert before[over].attrs["suit"] in mine
            assert before[end].attrs["suit"] not in mine
        else:
            assert end not in before
        state.apply(action)
        after = board(state)
        assert after[end] is before[start] and start not in after
        taken = [len(zone_pieces(state, f"taken[{s}]")) for s in ("power", "astronomical")]
        assert len(after) + sum(taken) == 16
    [winner] = state.result()["winners"]
    taken = len(zone_pieces(state, f"taken[{('power', 'astronomical')[winner]}]"))
    assert taken >= 7 or not can_move(board(state), 1 - winner)


def can_move(cells: dict[str, object], player: int) -> bool:
    """Whether ``player`` has a step or a capture on a board (cell -> piece), counted
    here from the rules' sentences, not by the ruleset."""
    mine = POWER if player == 0 else ASTRONOMICAL

    def at(col: int, row: int) -> object:
        return cells.get(f"{chr(ord('a') + col - 1)}{row}") if 1 <= col <= 4 and \
            1 <= row <= 4 else "edge"

    for cell, piece in cells.items():
        if piece.attrs["suit"] not in mine:
            continue
        col, row = ord(cell[0]) - ord("a") + 1, int(cell[1:])
        for dc, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            near, far = at(col + dc, row + dr), at(col + 2 * dc, row + 2 * dr)
            if near is None:
                return True
            if near != "edge" and near.attrs["suit"] in mine and far not in (None, "edge") \
                    and far.attrs["suit"] not in mine:
                return True
    return False


def test_ppgames_record_plays_move_by_move_and_ends_as_recorded():
    """The record of a game in ppgames (inst/ppn/four-field-kono.ppn): every one of its
    32 moves is a legal action (the ruleset writes its actions as PPN writes moves),
    and the game ends where the record does, "Player 2 wins" (astronomical, who moves
    second)."""
    [game] = read_ppn(RECORD.read_text(encoding="utf-8"), RECORD.name)
    assert game.metadata == {"GameType": "Four Field Kono"}
    state = GAME.new_game(2, seed=0)
    for move in game.moves:
        assert move.text in [a.text for a in state.legal_actions()], move
        state.apply(move.text)
    assert game.moves[-1].comment == "Player 2 wins"
    assert state.is_terminal() and state.result()["winners"] == [1]
    assert len(zone_pieces(state, "taken[astronomical]")) == 7
