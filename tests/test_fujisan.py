"""Fuji-san (rulepack/rulesets/fujisan.rules) against its published rules: the piecepack
wiki's Fuji-san (James "Kyle" Droscha, version 1.0.1, public domain), the moves of
ppgames' solver (R/fujisan.R) and the rules of the game's domino adaptation. A model
of the moves written here from those texts checks every decision of random games;
ppgames' record (inst/ppn/fujisan.ppn) solves the puzzle move by move."""

from __future__ import annotations

import random
from pathlib import Path

from hypothesis import given, settings, strategies as st

import rulepack
from rulepack.engine.inspect import grid_stacks
from rulepack.ppn.importer import import_game
from rulepack.ppn.movetext import read_ppn

GAME = rulepack.load("fujisan")
DATA = Path(__file__).parent / "data" / "ppn"
RECORD = read_ppn((DATA / "fujisan.ppn").read_text())[0]
VALUE = {"null": 0, "ace": 1, 2: 2, 3: 3, 4: 4, 5: 5}
LETTER = {"null": "n", "ace": "a", 2: "2", 3: "3", 4: "4", 5: "5"}


def spaces(state) -> dict[tuple[int, int], list]:
    """(column 1-14, row 1-2 from the bottom) → the pieces there, bottom first."""
    return {(ord(c[0]) - 96, int(c[1:])): s for c, s in grid_stacks(state, "board")}


def coins_string(state) -> str:
    cells = spaces(state)
    rows = ["".join(LETTER[cells[(x, y)][0].attrs["rank"]] for x in range(2, 14))
            for y in (2, 1)]
    return "/".join(rows)


def test_a_coins_string_sets_the_mountain_as_ppgames_does():
    """ppgames' df_fujisan: the Coins string's first half is the top row (y = 2), its
    second the bottom row, columns b to m; the priests beside the mountain: suns a2,
    moons n2, crowns n1, arms a1."""
    coins = RECORD.metadata["GameType"]["Coins"]
    state = GAME.new_game(1, seed=0, options={"coins": coins})
    assert coins_string(state) == coins
    cells = spaces(state)
    assert [(xy, s[-1].attrs["suit"]) for xy, s in sorted(cells.items())
            if s and s[-1].kind == "pawn"] == [
        ((1, 1), "arms"), ((1, 2), "suns"), ((14, 1), "crowns"), ((14, 2), "moons")]


def test_a_shuffled_start_puts_each_suit_on_its_steps():
    """Setup: "Shuffle all coins face down ... Turn one coin face up onto each space of
    the mountain thusly: place two sun coins on the rightmost step of the mountain, then
    moons on the next, then crowns, then arms, then suns, and so on up, then down"."""
    starts = set()
    for seed in range(6):
        cells = spaces(GAME.new_game(1, seed=seed))
        for x in range(2, 14):
            for y in (1, 2):
                coin = cells[(x, y)][0]
                assert coin.kind == "coin"
                assert coin.attrs["suit"] == ("suns", "moons", "crowns", "arms")[(13 - x) % 4]
        starts.add(coins_string(GAME.new_game(1, seed=seed)))
    assert len(starts) == 6                 # shuffled: each seed its own mountain


def expected_moves(state) -> set[str]:
    """The moves as the texts give them: "A Priest may move onto a space if the number
    matches the number of unoccupied spaces the Priest must move in a straight line to
    get there (including the destination space itself ...)", "Occupied spaces
    (containing intervening Priests) are not counted"; ppgames' solver adds the step to
    the other row on the mountain and the step along the summit (g, h), and moves
    nobody off the summit otherwise."""
    cells = spaces(state)
    priests = {xy for xy, s in cells.items() if s and s[-1].kind == "pawn"}
    out = set()
    for (x, y) in priests:
        name = f"{chr(96 + x)}{y}"
        if 2 <= x <= 13 and (x, 3 - y) not in priests:
            out.add(f"{name}-{chr(96 + x)}{3 - y}")
        if x in (7, 8):
            other = 15 - x
            if (other, y) not in priests:
                out.add(f"{name}-{chr(96 + other)}{y}")
            continue
        for d in range(2, 14):
            if d == x or (d, y) in priests:
                continue
            between = range(x + 1, d + 1) if d > x else range(d, x)
            free = sum(1 for e in between if (e, y) not in priests)
            value = VALUE[cells[(d, y)][0].attrs["rank"]]
            if value > 0 and free == value:
                out.add(f"{name}-{chr(96 + d)}{y}")
    return out


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 10_000))
def test_every_decision_of_random_games_is_the_texts_moves(seed):
    state = GAME.new_game(1, seed=seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        texts = {a.text for a in state.legal_actions()}
        if all("-" in t for t in texts):
            assert texts == expected_moves(state), (seed, state.decisions)
        state.apply(rng.choice(sorted(texts)))
    # the end: "The Priests will be content when they all reach the top of the
    # mountain" (a win), or no move left, or 200 moves (a loss)
    cells = spaces(state)
    up = all(x in (7, 8) for (x, _), s in cells.items() if s and s[-1].kind == "pawn")
    assert (state.result()["winners"] == [0]) == up


def test_the_dice_move_a_priest_when_the_start_has_no_move():
    """"If, after setup, there are no legal moves ..., roll all four dice. Choose one of
    the dice and move the Priest whose suit matches that die the number of spaces shown
    on the die." A Coins string whose start has no move (found by the model above)."""
    rng = random.Random(7)
    ranks = [r for r in ("n", "a", "2", "3", "4", "5") for _ in range(4)]
    while True:
        rng.shuffle(ranks)
        coins = "".join(ranks[:12]) + "/" + "".join(ranks[12:])
        state = GAME.new_game(1, seed=1, options={"coins": coins})
        probe = GAME.new_game(1, seed=1, options={"coins": coins})
        if not expected_moves(probe):
            break
    texts = [a.text for a in state.legal_actions()]
    assert texts and all(t.endswith("die") for t in texts)
    die = next(a for a in state.legal_actions())
    suit = die.text.split()[0]
    before = {s[-1].attrs["suit"]: xy for xy, s in spaces(state).items()
              if s and s[-1].kind == "pawn"}
    state.apply(die)
    after = {s[-1].attrs["suit"]: xy for xy, s in spaces(state).items()
             if s and s[-1].kind == "pawn"}
    moved = [k for k in before if before[k] != after[k]]
    assert moved == [suit]


def test_ppgames_record_solves_the_puzzle():
    """ppgames' record (inst/ppn/fujisan.ppn, 27 moves) imports move by move from its
    Coins, and its last move brings the fourth priest to the summit: a win."""
    imported = import_game(RECORD, GAME, "fujisan.ppn")
    assert imported.state.is_terminal() and imported.state.result()["winners"] == [0]
    assert sum(1 for _, a in imported.moves if a is not None) == 27
