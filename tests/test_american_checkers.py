"""American Checkers (rulepack/rulesets/american-checkers.rules) against its published
rules: ppgames, inst/rules/american-checkers.Rtex (github piecepackr/ppgames, Trevor L.
Davis, CC BY-SA 4.0, version 1.2.2). Each test cites the sentences it checks; a
property test checks every move of random games against the rules, worked out here
independently; ppgames' two records of one game import move by move."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

import rulepack
from rulepack.engine.inspect import grid_stacks, zone_pieces
from rulepack.errors import RulepackError
from rulepack.ppn.importer import import_game
from rulepack.ppn.movetext import read_ppn

GAME = rulepack.load("american-checkers")
SIDES = (("crowns", "arms"), ("suns", "moons"))
FORWARD = (1, -1)               # PPN rows: power goes up the board, astronomical down
DATA = Path(__file__).parent / "data" / "ppn"


def board(state) -> dict[tuple[int, int], list]:
    """(x, y) as PPN counts them (a1 = (1, 1)) → the coins there, bottom first."""
    return {(ord(c[0]) - ord("a") + 1, int(c[1:])): s for c, s in grid_stacks(state, "board")
            if s}


def side_of(stack) -> int:
    return 0 if stack[-1].attrs["suit"] in SIDES[0] else 1


def test_setup_is_ppgames_starting_diagram():
    """Setup: "Make an 8x8 board with the backs of 16 tiles. Give each player all the
    coins of two suits ... and place them as in Figure" (df_american_checkers: power
    on rows 1-3, astronomical on rows 6-8, on the squares whose x + y is even)."""
    cells = board(GAME.new_game(2, seed=0))
    assert len(cells) == 24
    for (x, y), stack in cells.items():
        assert len(stack) == 1 and (x + y) % 2 == 0
        assert side_of(stack) == (0 if y <= 3 else 1), (x, y)
    assert [p.name for p in cells[(1, 1)]] == ["4 of arms coin"]
    mirrored = board(GAME.new_game(2, seed=0, options={"layout": "mirrored"}))
    assert all((x + y) % 2 == 1 for x, y in mirrored)


def test_who_starts_is_drawn_at_random():
    """The Order Of Play: "Decide by random selection which player will make the
    first move." Both seats start in some of 40 seeded games."""
    assert {GAME.new_game(2, seed=s).current_player for s in range(40)} == {0, 1}


def expected_actions(state, me: int | None = None) -> set[str]:
    """The legal moves by the rules, worked out from the board alone: "men slide
    diagonally to an empty square one square forward while kings slide ... forward
    or backwards"; the jump goes "two squares forward over an opponent's piece"
    (kings also backwards); "If possible a player must choose to do a jump instead
    of a simple move.\""""
    cells = board(state)
    me = state.current_player if me is None else me
    slides, jumps = set(), set()
    for (x, y), stack in cells.items():
        if side_of(stack) != me:
            continue
        ways = [(dx, dy) for dx in (-1, 1) for dy in (-1, 1)
                if len(stack) >= 2 or dy == FORWARD[me]]
        for dx, dy in ways:
            a, b = (x + dx, y + dy), (x + 2 * dx, y + 2 * dy)
            inside = all(1 <= v <= 8 for v in b)
            if 1 <= a[0] <= 8 and 1 <= a[1] <= 8 and a not in cells:
                slides.add(f"{name(x, y)}-{name(*a)}")
            if inside and a in cells and side_of(cells[a]) != me and b not in cells:
                jumps.add(f"{name(x, y)}-{name(*b)}")
    return jumps or slides


def name(x: int, y: int) -> str:
    return f"{'abcdefgh'[x - 1]}{y}"


def test_the_moves_of_random_games_are_the_rules_moves():
    """Every first decision of a turn in random games is exactly the moves the rules
    give (above); "After making a jump a piece must continue to jump until it can no
    longer do so" — a jump that can go on is followed by a decision of the same
    piece's jumps only."""
    for seed in range(12):
        state = GAME.new_game(2, seed=seed)
        rng = random.Random(seed)
        turn_start = True
        while not state.is_terminal() and state.decisions < 200:
            texts = {a.text for a in state.legal_actions()}
            if turn_start and not any("@" in t or "under" in t for t in texts):
                assert texts == expected_actions(state), (seed, state.decisions)
            player = state.current_player
            action = rng.choice(state.legal_actions())
            state.apply(action)
            turn_start = state.is_terminal() or state.current_player != player


def test_a_man_on_the_far_row_is_crowned_with_an_available_coin():
    """The Moves: "when a man reaches the farthest row of the board then their move
    ends and they are promoted to a king by placing an available coin under the
    man"; the footnote: "if coins of that player's suits are available one could
    also place a coin suit-side up on top of the man". Found in random games: every
    crown puts a captured coin on the man, and a king is two coins."""
    crowned = 0
    for seed in range(40):
        state = GAME.new_game(2, seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal() and state.decisions < 300:
            texts = [a.text for a in state.legal_actions()]
            crowns = [t for t in texts if "@" in t or "under" in t]
            if crowns:
                assert crowns == texts          # the move ends: the crown is all there is
                me = state.current_player
                off = len(zone_pieces(state, "off"))
                pick = rng.choice(crowns)
                state.apply(pick)
                crowned += 1
                assert len(zone_pieces(state, "off")) == off - 1
                where = pick.split()[-1].split("@")[-1]
                stack = board(state)[(ord(where[0]) - 96, int(where[1]))]
                assert len(stack) == 2 and stack[-1].attrs["suit"] in SIDES[me]
                continue
            state.apply(rng.choice(state.legal_actions()))
    assert crowned >= 5


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10_000))
def test_no_piece_is_lost_and_a_game_ends_by_the_rules(seed):
    """"A player wins by capturing and/or blocking all their opponent's pieces": a
    game over with a winner leaves the loser no move; every coin is on the board or
    captured ("removed from the board"), the kings two coins, the men one."""
    state = GAME.new_game(2, seed=seed)
    rng = random.Random(seed)
    while not state.is_terminal() and state.decisions < 400:
        state.apply(rng.choice(state.legal_actions()))
        stacks = board(state)
        assert sum(len(s) for s in stacks.values()) + len(zone_pieces(state, "off")) == 24
        assert all(len(s) in (1, 2) for s in stacks.values())
    if state.is_terminal() and state.result()["winners"]:
        (winner,) = state.result()["winners"]
        assert expected_actions(state, 1 - winner) == set()


def record(name: str):
    return read_ppn((DATA / name).read_text())[0]


def test_ppgames_record_imports_with_huffing():
    """ppgames' record (inst/ppn/american-checkers.ppn) imports move by move, and the
    astronomical (top) player wins as the record ends. At 11... it plays c5-d4 while
    a5 can jump b4 — against "If possible a player must choose to do a jump" — so it
    imports only under the rules' variant that makes jumps optional ("huffing"),
    where the opponent lets the move stand."""
    with pytest.raises(RulepackError, match=r"move 11\.\.\. c5-d4: no legal action .* a5-c3"):
        import_game(record("american-checkers.ppn"), GAME, "american-checkers.ppn")
    imported = import_game(record("american-checkers.ppn"), GAME, "american-checkers.ppn",
                           options={"huffing": True})
    assert imported.state.is_terminal() and imported.state.result()["winners"] == [1]
    kings = [s for s in board(imported.state).values() if len(s) == 2]
    assert kings


def test_the_2020_record_imports_on_the_mirrored_board():
    """ppgames' record of the same game from before it mirrored its setup (2021)
    imports on the mirrored board, multi-jumps written by their end square only
    (a2-a6*b3*b5: two jumps of one piece, one PPN move)."""
    imported = import_game(record("checkers-2020-mirrored.ppn"), GAME, "checkers.ppn",
                           options={"huffing": True, "layout": "mirrored"})
    assert imported.state.is_terminal() and imported.state.result()["winners"] == [1]
    six = [a.text for m, a in imported.moves if m.name == "6." and a is not None]
    assert six == ["a2-c4", "c4-a6"]
