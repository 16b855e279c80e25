"""Multiplay (Andy Merritt's rules), rule by rule.

Each test quotes the sentence of seeds/multiplay-andy-merritt.txt or the ruling
of RULINGS.md (X1-X6, G2) it checks, and checks the outcome the rule demands:
what is on the board, what is claimable, who scores what, when the game ends and
who wins. Positions are hand-built from real states with
tests/multiplay_positions.py; the property tests at the end compare every claim
of random games with that file's own, independent reading of X4 and X5.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rulepack
from rulepack.errors import OptionError

try:
    from multiplay_positions import (BLUE, BOARD, END_GAME, GREEN, PLAY_ON, RED, SEATS, SIZE,
                                     YELLOW, claim, claim_texts, label, numbers_grid,
                                     next_claim, oracle_delta, owners_grid, position, texts,
                                     white_around, white_count)
except ImportError:  # tests/ imported as a package
    from tests.multiplay_positions import (BLUE, BOARD, END_GAME, GREEN, PLAY_ON, RED, SEATS,
                                           SIZE, YELLOW, claim, claim_texts, label,
                                           next_claim, numbers_grid, oracle_delta, owners_grid,
                                           position, texts, white_around, white_count)

TIMES_TABLE = [a * b for a in range(1, 13) for b in range(1, 13)]

#: A random game of Multiplay takes at most 121 claims and as many end-of-turn choices.
MAX_DECISIONS = 400


GAME = rulepack.load("multiplay")


@pytest.fixture(scope="module")
def game():
    return GAME


def expected_claims(state) -> set[str]:
    """Ruling X3, read independently: every white cube showing r×k, k in 1..12."""
    r = state.position.vars["roll"]
    out = set()
    for s, p in enumerate(state.position.zones[BOARD]):
        n = int(p.attrs["number"])
        if state.position.owner[p.id] is None and n % r == 0 and 1 <= n // r <= 12:
            out.add(f"claim {n} at {label(s)}")
    return out


def pick(rng: random.Random, state, play_on: float = 0.9) -> str:
    """A random legal action; at the end-of-turn choice, "play on" with
    probability ``play_on``."""
    ts = texts(state)
    if END_GAME in ts:
        return PLAY_ON if rng.random() < play_on else END_GAME
    return rng.choice(ts)


# ====================================================================== X1: the components
def test_x1_121_cubes_two_of_each_product_five_twelves(game):
    """X1: "121 cubes: each of the 59 distinct products of the 12×12 times table on two
    cubes, except 12, on five." Seed: "there are two cubes showing each number except
    12, for which there are 5 cubes"."""
    state = game.new_game(2, 0)
    cubes = state.program.pieces
    assert len(cubes) == 121
    assert {p.kind for p in cubes} == {"cube"}
    counts = Counter(int(p.attrs["number"]) for p in cubes)
    assert len(counts) == 59
    assert set(counts) == set(TIMES_TABLE)
    assert counts[12] == 5
    assert all(c == 2 for n, c in counts.items() if n != 12)
    # "A cube shows the same number on every side": its name is its number
    assert all(p.name == str(p.attrs["number"]) for p in cubes)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_x1_players_and_colours(game, players):
    """X1: "2–4 players, colours red, yellow, green, blue." """
    state = game.new_game(players, 1)
    assert state.view(0)["seats"] == SEATS[:players]
    assert len(state.position.vars["points"]) == players


@pytest.mark.parametrize("players", [1, 5])
def test_x1_other_player_counts_are_refused(game, players):
    """X1: "2–4 players"."""
    with pytest.raises(OptionError):
        game.new_game(players, 0)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_x1_all_cubes_white_on_the_11x11_board_at_the_start(game, seed):
    """X1: "They are shuffled onto an 11×11 board, white side up." Seed: "Randomly
    shuffle the 121 cubes and place on the Multiplay board with the neutral white
    faces showing." """
    state = game.new_game(3, seed)
    info = state.program.zones[BOARD]
    assert (info.kind, info.rows, info.cols) == ("grid", 11, 11)
    board = state.position.zones[BOARD]
    assert len(board) == 121 and all(p is not None for p in board)
    assert sorted(p.id for p in board) == list(range(121))
    assert all(o is None for o in state.position.owner)
    assert state.position.vars["points"] == [0, 0, 0]


def test_x1_the_board_is_shuffled_by_the_seed(game):
    """Seed: "Randomly shuffle the 121 cubes"."""
    boards = {tuple(map(tuple, numbers_grid(game.new_game(2, s)))) for s in range(5)}
    assert len(boards) == 5
    assert numbers_grid(game.new_game(2, 7)) == numbers_grid(game.new_game(2, 7))


# ====================================================================== X2: the first player
@pytest.mark.parametrize("players", [2, 3, 4])
def test_x2_first_player_is_random(game, players):
    """X2: "The first player is random (the d12 roll-off, ties re-rolled, is
    equivalent)." Every seat starts some game; play then goes round clockwise
    (seed: "Play now moves in a clockwise direction to the player on the first
    player's left")."""
    firsts = Counter()
    for seed in range(60):
        state = game.new_game(players, seed)
        first = state.current_player
        assert claim_texts(state), "a full white board always has a claim"
        firsts[first] += 1
        state.apply(state.legal_actions()[0])
        if END_GAME not in texts(state) and claim_texts(state):
            assert state.current_player == (first + 1) % players
    assert set(firsts) == set(range(players)), firsts
    assert min(firsts.values()) >= 60 // players // 3, firsts     # not stuck on one seat


def test_x2_turns_go_round_in_order(game):
    """Seed: "Each player in turn follows step 4 and then play passes on." Over a whole
    game each claim is by the seat after the previous turn's (turns with no claim
    pass)."""
    state = game.new_game(4, 11)
    rng = random.Random(3)
    seen = []
    while not state.is_terminal():
        if claim_texts(state):
            seen.append(state.current_player)
        state.apply(pick(rng, state, play_on=1.0))
    assert len(seen) >= 100
    # consecutive claims are by the next seat, or further on when a turn passed
    steps = Counter((b - a) % 4 for a, b in zip(seen, seen[1:]))
    assert steps[1] > 0.6 * len(seen)
    assert steps[0] == 0 or steps[0] < 0.1 * len(seen)


# ====================================================================== X3: a turn
@pytest.mark.parametrize("seed", [0, 1, 2, 3, 4, 5])
def test_x3_claimable_cubes_are_the_multiples_of_the_roll(game, seed):
    """X3: "roll the d12 for r; choose a white cube whose number is r×k for some k in
    1–12". Seed: "the number which is be chosen must be a multiple of the number
    rolled and cannot be a multiple higher than 12 ... if 2 was rolled even numbers
    between and including 2 - 24 may be chosen, but no others." Checked against the
    numbers on the board at every claim of a game."""
    state = game.new_game(2 + seed % 3, seed)
    rng = random.Random(seed)
    rolls = Counter()
    checked = 0
    while not state.is_terminal():
        if END_GAME not in texts(state):
            r = state.position.vars["roll"]
            rolls[r] += 1
            assert 1 <= r <= 12
            assert set(texts(state)) == expected_claims(state), f"roll {r}"
            assert len(texts(state)) == len(set(texts(state)))
            checked += 1
        state.apply(pick(rng, state))
    assert checked >= 20
    assert len(rolls) >= 8                  # a d12: many different rolls


def test_x3_a_roll_of_2_allows_even_numbers_2_to_24_only(game):
    """Seed: "Thus if 2 was rolled even numbers between and including 2 - 24 may be
    chosen, but no others." """
    cubes = {"a1": (2, None), "b1": (24, None), "c1": (28, None),     # 28 = 2 × 14
             "d1": (3, None), "e1": (48, None), "f1": (22, None)}
    state = position(game, cubes, roll=2)
    claimed = {t.split(" at ")[0] for t in claim_texts(state)}
    assert {"claim 2", "claim 24", "claim 22"} <= claimed
    assert all(int(t.split()[1]) % 2 == 0 and int(t.split()[1]) <= 24 for t in claimed)
    assert "claim 28 at c1" not in texts(state) and "claim 3 at d1" not in texts(state)
    assert "claim 48 at e1" not in texts(state)
    assert set(texts(state)) == expected_claims(state)


def test_x3_only_white_cubes_may_be_turned(game):
    """Seed: "Players may only ever turn over white cubes. Once a cube has been turned to
    a player colour it is then fixed like that for the rest of the game." """
    cubes = {"a1": (12, RED), "b1": (12, YELLOW), "c1": (12, None)}
    state = position(game, cubes, roll=12)
    assert "claim 12 at c1" in texts(state)
    assert not any(t.endswith(" at a1") or t.endswith(" at b1") for t in texts(state))
    state.apply("claim 12 at c1")
    assert int(state.position.owner[state.position.zones[BOARD][2].id]) == RED
    assert int(state.position.owner[state.position.zones[BOARD][0].id]) == RED
    assert int(state.position.owner[state.position.zones[BOARD][1].id]) == YELLOW


def test_x3_the_claimed_cube_turns_to_the_movers_colour(game):
    """Seed: "selects a cube showing that number, with a white side face up and turns it
    over to show that number on a background of their colour"."""
    before, after, _ = claim(game, {"f6": (35, None)}, "f6", YELLOW, players=3)
    cube = after.position.zones[BOARD][5 * SIZE + 5]
    assert cube.attrs["number"] == 35
    assert int(after.position.owner[cube.id]) == YELLOW
    assert white_count(after) == white_count(before) - 1


def test_x3_the_turn_passes_without_a_decision_when_nothing_is_claimable(game):
    """X3: "If no such white cube exists, the turn passes." Two white cubes are left:
    red claims the 1; the only other white cube shows 121 (= 11 × 11), so yellow can
    claim only on a roll of 11. On any other roll yellow's turn passes with no claim
    decision: the next decision is yellow's end-of-turn choice (X6)."""
    passed = claimed = 0
    for rng in range(40):
        state = position(game, {"a1": (1, None), "c3": (121, None)}, white=2, roll=1, rng=rng)
        state.apply("claim 1 at a1")
        assert state.current_player == RED and set(texts(state)) == {END_GAME, PLAY_ON}
        n_actions = len(state.history)
        state.apply(PLAY_ON)
        assert state.current_player == YELLOW
        roll = state.position.vars["roll"]
        if roll == 11:
            claimed += 1
            assert texts(state) == ["claim 121 at c3"]
        else:
            passed += 1
            assert set(texts(state)) == {END_GAME, PLAY_ON}, roll
            # yellow took no action: only red's "play on" and chance events since
            actions = [h for h in state.history[n_actions:] if hasattr(h, "player")]
            assert [a.text for a in actions] == [PLAY_ON]
            assert white_count(state) == 1
    assert passed > 0 and claimed > 0


# ====================================================================== X4: rows
def test_x4_a_row_of_3_scores_3(game):
    """X4: "a run of length 3, 5, 7, 9 or 11 scores its length for the mover." Seed:
    "Players score points by building horizontal, diagonal or vertical rows of 3, 5, 7,
    9 or 11 cubes in their playing colour. When such a row is formed the score for that
    row is its length." """
    _, _, delta = claim(game, {"a1": (2, RED), "b1": (3, RED), "c1": (24, None)}, "c1", RED)
    assert delta == [3, 0]


def test_x4_extending_3_to_4_scores_nothing(game):
    """X4: only runs of 3, 5, 7, 9 or 11 score: a row of 3 made 4 long scores nothing."""
    cubes = {"a1": (2, RED), "b1": (3, RED), "c1": (4, RED), "d1": (24, None)}
    _, _, delta = claim(game, cubes, "d1", RED)
    assert delta == [0, 0]


def test_x4_extending_to_5_scores_5(game):
    """Seed: "Note that a row of 3 may be further developed into a row of 5 and then
    score again and so on." """
    cubes = {"a1": (2, RED), "b1": (3, RED), "c1": (4, RED), "d1": (5, RED), "e1": (24, None)}
    _, _, delta = claim(game, cubes, "e1", RED)
    assert delta == [5, 0]


def test_x4_a_row_grown_3_then_4_then_5_scores_3_then_0_then_5(game):
    """Seed: "a row of 3 may be further developed into a row of 5 and then score
    again": the same row scores 3 when formed, nothing at 4 and 5 more at 5."""
    cubes = {"a1": (2, RED), "b1": (3, RED), "c1": (24, None)}
    state, first = claim(game, cubes, "c1", RED)[1:]
    state, second = next_claim(game, state, RED, "d1")
    state, third = next_claim(game, state, RED, "e1")
    assert [first, second, third] == [[3, 0], [0, 0], [5, 0]]


@pytest.mark.parametrize("length", range(2, 12))
def test_x4_row_lengths(game, length):
    """X4: "a run of length 3, 5, 7, 9 or 11 scores its length"; even runs score
    nothing (and a run from the board's edge is never trapped, X5)."""
    cols = "abcdefghijk"
    cubes = {f"{cols[i]}1": (None, RED) for i in range(length - 1)}
    at = f"{cols[length - 1]}1"
    cubes[at] = (7, None)
    _, _, delta = claim(game, cubes, at, RED)
    assert delta == [length if length % 2 else 0, 0]


def test_x4_joining_two_runs_scores_the_joined_length(game):
    """X4: "take the maximal run of the mover's colour containing it": a cube joining a
    run of 2 and a run of 2 makes a row of 5 and scores 5."""
    cubes = {"b3": (None, RED), "c3": (None, RED), "d3": (10, None), "e3": (None, RED),
             "f3": (None, RED)}
    _, _, delta = claim(game, cubes, "d3", RED)
    assert delta == [5, 0]


def test_x4_joining_two_single_cubes_scores_3(game):
    """X4: the maximal run through the claimed cube: 1 + 1 + 1 = 3."""
    cubes = {"b3": (None, RED), "c3": (10, None), "d3": (None, RED)}
    _, _, delta = claim(game, cubes, "c3", RED)
    assert delta == [3, 0]


def test_x4_joining_into_an_even_run_scores_nothing(game):
    """X4: runs of 2 and 1 joined make 4: nothing (the runs of 3 are gone)."""
    cubes = {"b3": (None, RED), "c3": (None, RED), "d3": (10, None), "e3": (None, RED)}
    _, _, delta = claim(game, cubes, "d3", RED)
    assert delta == [0, 0]


def test_x4_opponents_cubes_do_not_make_your_row(game):
    """Seed: "rows of 3, 5, 7, 9 or 11 cubes in their playing colour"."""
    cubes = {"b3": (None, YELLOW), "c3": (None, RED), "d3": (10, None)}
    _, _, delta = claim(game, cubes, "d3", RED)
    assert delta == [0, 0]
    cubes = {"b3": (None, YELLOW), "c3": (None, YELLOW), "d3": (10, None)}
    _, _, delta = claim(game, cubes, "d3", RED)
    assert delta == [0, 0]


@pytest.mark.parametrize("cells,at", [
    (["a1", "b2"], "c3"),          # the main diagonal
    (["k1", "j2"], "i3"),          # the other diagonal
    (["e5", "g7"], "f6"),          # diagonal, claimed in the middle
    (["h4", "f6"], "g5"),          # anti-diagonal, claimed in the middle
    (["c2", "c3"], "c4"),          # vertical
])
def test_x4_diagonal_and_vertical_rows_count(game, cells, at):
    """Seed: "building horizontal, diagonal or vertical rows of 3, 5, 7, 9 or 11
    cubes"."""
    cubes = {c: (None, GREEN) for c in cells}
    cubes[at] = (36, None)
    _, _, delta = claim(game, cubes, at, GREEN, players=3)
    assert delta == [0, 0, 3]


def test_x4_a_cube_scoring_in_several_directions_scores_each(game):
    """Seed: "It is possible that a cube scores in multiple ways ... scoring a line of 3 in
    another and scoring a line of 5 in yet another direction. All of these will get
    scored." f6 completes four rows: 3 across, 3 down, 5 on a diagonal, 3 on the other."""
    red = ["d6", "e6",              # horizontal d6 e6 f6
           "f4", "f5",              # vertical f4 f5 f6
           "d4", "e5", "g7", "h8",  # diagonal d4 e5 f6 g7 h8
           "h4", "g5"]              # anti-diagonal h4 g5 f6
    cubes = {c: (None, RED) for c in red}
    cubes["f6"] = (60, None)
    _, _, delta = claim(game, cubes, "f6", RED)
    assert delta == [3 + 3 + 5 + 3, 0]


def test_x4_a_row_of_11(game):
    """X4: a run of 11 (a whole row) scores 11."""
    cubes = {f"{c}11": (None, BLUE) for c in "abcdeghijk"}
    cubes["f11"] = (132, None)
    _, _, delta = claim(game, cubes, "f11", BLUE, players=4)
    assert delta == [0, 0, 0, 11]


def test_x4_the_long_diagonal_of_11(game):
    """X4: the diagonals are lines too: the corner-to-corner diagonal of 11."""
    cols = "abcdefghijk"
    cubes = {f"{cols[i]}{i + 1}": (None, YELLOW) for i in range(11) if i != 4}
    cubes["e5"] = (77, None)
    _, _, delta = claim(game, cubes, "e5", YELLOW)
    assert delta == [0, 11]


# ====================================================================== X5: traps
def test_x5_the_seeds_example_6_green_trapped_by_red_and_yellow(game):
    """Seed: "Thus if a row of 6 green cubes had a red cube at one end and a yellow cube
    has just been placed at the other end then green loses 6 points and red and yellow
    both gain 3 points." """
    cubes = {"a4": (None, RED), "h4": (45, None)}
    cubes.update({f"{c}4": (None, GREEN) for c in "bcdefg"})
    _, _, delta = claim(game, cubes, "h4", YELLOW, players=3)
    assert delta == [3, 3, -6]


def test_x5_both_ends_owned_by_one_player_gains_twice(game):
    """Seed: "It is perfectly possible for a single player to gain the points from both
    ends of a trapped line." X5: "both ends may belong to one player"."""
    cubes = {"c2": (None, RED), "d2": (None, GREEN), "e2": (None, GREEN),
             "f2": (None, GREEN), "g2": (None, GREEN), "h2": (45, None)}
    _, _, delta = claim(game, cubes, "h2", RED, players=3)
    assert delta == [4, 0, -4]


def test_x5_a_run_of_2_trapped(game):
    """X5: "of even length 2–10 ... its owner loses its length n and the owner of each
    end cube gains n/2"."""
    cubes = {"c2": (None, RED), "d2": (None, YELLOW), "e2": (None, YELLOW), "f2": (45, None)}
    _, _, delta = claim(game, cubes, "f2", RED)
    assert delta == [2, -2]


def test_x5_a_run_of_8_trapped(game):
    """X5: an even run of 8 with the other colours at both ends: −8, +4 and +4."""
    cubes = {"a9": (None, YELLOW), "j9": (99, None)}
    cubes.update({f"{c}9": (None, BLUE) for c in "bcdefghi"})
    _, _, delta = claim(game, cubes, "j9", GREEN, players=4)
    assert delta == [0, 4, 4, -8]


def test_x5_traps_on_vertical_and_diagonal_lines(game):
    """Seed: "a row of 2,4,6,8, or 10 cubes all of one colour in a horizontal, vertical or
    diagonal row have opponents' pieces placed at both ends"."""
    # vertical: red c3, green c4 c5, red claims c6
    _, _, delta = claim(game, {"c3": (None, RED), "c4": (None, GREEN), "c5": (None, GREEN),
                               "c6": (6, None)}, "c6", RED, players=3)
    assert delta == [2, 0, -2]
    # diagonal: yellow b2, green c3 d4, red claims e5
    _, _, delta = claim(game, {"b2": (None, YELLOW), "c3": (None, GREEN), "d4": (None, GREEN),
                               "e5": (6, None)}, "e5", RED, players=3)
    assert delta == [1, 1, -2]
    # anti-diagonal: yellow h2, green g3 f4, red claims e5
    _, _, delta = claim(game, {"h2": (None, YELLOW), "g3": (None, GREEN), "f4": (None, GREEN),
                               "e5": (6, None)}, "e5", RED, players=3)
    assert delta == [1, 1, -2]


def test_x5_self_trap(game):
    """Seed: "It is possible to cause your own row to become trapped by turning over a
    cube which then forms an even length row with opposing cubes at both ends. Doing
    this still causes the trapping scoring to occur". X5: "This includes a mover's own
    run (self-trap)". Yellow turns c5, making yellow b5 c5 between red a5 and green d5."""
    cubes = {"a5": (None, RED), "b5": (None, YELLOW), "c5": (20, None), "d5": (None, GREEN)}
    _, _, delta = claim(game, cubes, "c5", YELLOW, players=3)
    assert delta == [1, -2, 1]


def test_x5_self_trap_of_4_between_one_opponent(game):
    """X5: a self-trap of 4 between two red cubes: the mover loses 4, red gains 2 + 2."""
    cubes = {"a5": (None, RED), "b5": (None, YELLOW), "c5": (None, YELLOW), "d5": (20, None),
             "e5": (None, YELLOW), "f5": (None, RED)}
    _, _, delta = claim(game, cubes, "d5", YELLOW)
    assert delta == [4, -4]


def test_x5_a_run_at_the_edge_is_never_trapped(game):
    """Seed: "A row which extends to the edge of the board cannot be trapped as it cannot
    have an opposing cube placed at both ends." """
    # green a1-d1 runs from the edge; red closes the other end
    cubes = {f"{c}1": (None, GREEN) for c in "abcd"}
    cubes["e1"] = (8, None)
    _, _, delta = claim(game, cubes, "e1", RED, players=3)
    assert delta == [0, 0, 0]
    # a run to the right edge
    cubes = {"g6": (8, None), "h6": (None, GREEN), "i6": (None, GREEN), "j6": (None, GREEN),
             "k6": (None, GREEN)}
    _, _, delta = claim(game, cubes, "g6", RED, players=3)
    assert delta == [0, 0, 0]
    # in a column: green c9 c10 is trapped by red c8 and c11, green c10 c11 (to the
    # bottom edge) is not trapped by red c9
    cubes = {"c8": (8, None), "c9": (None, GREEN), "c10": (None, GREEN), "c11": (None, RED)}
    _, _, delta = claim(game, cubes, "c8", RED, players=3)
    assert delta == [2, 0, -2]
    cubes = {"c9": (8, None), "c10": (None, GREEN), "c11": (None, GREEN)}
    _, _, delta = claim(game, cubes, "c9", RED, players=3)
    assert delta == [0, 0, 0]


def test_x5_a_diagonal_run_into_the_corner_is_never_trapped(game):
    """Seed: "A row which extends to the edge of the board cannot be trapped"."""
    cubes = {"k11": (None, GREEN), "j10": (None, GREEN), "i9": (8, None)}
    _, _, delta = claim(game, cubes, "i9", RED, players=3)
    assert delta == [0, 0, 0]


@pytest.mark.parametrize("length", [1, 3, 5])
def test_x5_an_odd_run_is_never_trapped(game, length):
    """Seed: "A 'trapped' row of an odd length does not count as a trapped row at all, and
    no penalty occurs." """
    cols = "bcdefghij"
    cubes = {"a7": (None, RED)}
    cubes.update({f"{cols[i]}7": (None, GREEN) for i in range(length)})
    at = f"{cols[length]}7"
    cubes[at] = (8, None)
    _, _, delta = claim(game, cubes, at, RED, players=3)
    assert delta == [0, 0, 0]


def test_x5_an_odd_self_run_is_never_trapped(game):
    """Seed: "A 'trapped' row of an odd length does not count": a mover's own row of 3
    between opponents scores 3 as a row and nothing as a trap."""
    cubes = {"a5": (None, RED), "b5": (None, YELLOW), "c5": (None, YELLOW), "d5": (20, None),
             "e5": (None, RED)}
    _, _, delta = claim(game, cubes, "d5", YELLOW)
    assert delta == [0, 3]


def test_x5_a_white_end_does_not_trap_until_it_is_turned(game):
    """X5: "whose two end neighbours on that line are both cubes of other colours (not
    white, not off the board)". Green c8-f8 with a white b8 is not trapped by red's g8;
    it is trapped when red turns b8."""
    cubes = {f"{c}8": (None, GREEN) for c in "cdef"}
    cubes["b8"] = (9, None)
    cubes["g8"] = (10, None)
    _, after, delta = claim(game, cubes, "g8", RED, players=3)
    assert delta == [0, 0, 0]
    # now red turns the white end b8 (the same board, red's next turn)
    _, delta = next_claim(game, after, RED, "b8")
    assert delta == [4, 0, -4]


def test_x5_a_run_ended_by_its_own_colour_is_not_trapped(game):
    """X5: the end cubes must be "of other colours": green's run is maximal, so a green
    cube at an end makes the run longer, not trapped (here 5, odd)."""
    cubes = {"a3": (None, RED), "b3": (None, GREEN), "c3": (None, GREEN), "d3": (None, GREEN),
             "e3": (None, GREEN), "f3": (40, None), "g3": (None, RED)}
    _, _, delta = claim(game, cubes, "f3", GREEN, players=3)
    assert delta == [0, 0, 5]


def test_x5_a_trap_is_scored_once(game):
    """X5 scores the runs "on a line through or next to the turned cube": an old trap
    elsewhere is not scored again by a later claim."""
    cubes = {"a3": (None, RED), "b3": (None, GREEN), "c3": (None, GREEN), "d3": (None, RED),
             "f7": (40, None)}
    _, _, delta = claim(game, cubes, "f7", RED, players=3)
    assert delta == [0, 0, 0]
    # nor by a claim next to the trapping cube on another line
    cubes = {"a3": (None, RED), "b3": (None, GREEN), "c3": (None, GREEN), "d3": (None, RED),
             "d4": (40, None)}
    _, _, delta = claim(game, cubes, "d4", RED, players=3)
    assert delta == [0, 0, 0]


def test_x5_two_runs_trapped_by_one_cube(game):
    """X5: "every maximal one-colour run on a line through or next to the turned cube":
    red's f6 closes a green run on its left and a yellow run on its right."""
    cubes = {"c6": (None, RED), "d6": (None, GREEN), "e6": (None, GREEN), "f6": (12, None),
             "g6": (None, YELLOW), "h6": (None, YELLOW), "i6": (None, YELLOW),
             "j6": (None, YELLOW), "k6": (None, BLUE)}
    _, _, delta = claim(game, cubes, "f6", RED, players=4)
    assert delta == [2 + 2, -4, -2, 2]


def test_x5_trap_and_rows_in_one_claim(game):
    """Seed: "It is possible that a cube scores in multiple ways, eg. Trapping in one
    direction, scoring a line of 3 in another and scoring a line of 5 in yet another
    direction. All of these will get scored." Red's f6 traps green d6 e6 (red c6),
    makes f4 f5 f6 (3) and d4 e5 f6 g7 h8 (5)."""
    cubes = {"c6": (None, RED), "d6": (None, GREEN), "e6": (None, GREEN),
             "f4": (None, RED), "f5": (None, RED),
             "d4": (None, RED), "e5": (None, RED), "g7": (None, RED), "h8": (None, RED),
             "f6": (60, None)}
    _, _, delta = claim(game, cubes, "f6", RED, players=3)
    assert delta == [2 + 3 + 5, 0, -2]


# ====================================================================== X6: the end
def test_x6_no_end_choice_at_26_white_cubes(game):
    """X6: "At the end of a turn, if at most 25 white cubes remain, the current player
    may end the game." With 26 left after the claim there is no such choice."""
    state = position(game, {"a1": (1, None)}, white=27, roll=1)
    state.apply("claim 1 at a1")
    assert white_count(state) == 26
    assert END_GAME not in texts(state)
    assert not state.is_terminal()


def test_x6_end_choice_at_25_white_cubes(game):
    """X6: "if at most 25 white cubes remain, the current player may end the game".
    Seed: "The game finishes at the end of a player's turn when there are 25 or less
    white cubes face up, and the current player observes this and chooses to end the
    game." """
    state = position(game, {"a1": (1, None)}, white=26, roll=1)
    state.apply("claim 1 at a1")
    assert white_count(state) == 25
    assert set(texts(state)) == {END_GAME, PLAY_ON}
    assert state.current_player == RED          # the player whose turn it was
    on = state.clone()
    on.apply(PLAY_ON)
    assert not on.is_terminal() and on.current_player == YELLOW
    state.apply(END_GAME)
    assert state.is_terminal()


def test_x6_the_end_choice_is_offered_every_turn_below_25(game):
    """X6: the choice comes at the end of every turn once at most 25 white cubes remain."""
    state = position(game, {"a1": (1, None)}, white=20, roll=1, players=3)
    rng = random.Random(0)
    offers = 0
    while not state.is_terminal():
        ts = texts(state)
        if END_GAME in ts:
            offers += 1
            assert 0 < white_count(state) <= 25
            state.apply(PLAY_ON)
        else:
            assert all(t.startswith("claim ") for t in ts)
            state.apply(rng.choice(ts))
    assert offers >= 19
    assert white_count(state) == 0


def test_x6_highest_score_wins_and_scores_may_be_negative(game):
    """X6: "Highest score wins (G2). Scores may be negative." Seed: "To win you must have
    scored the most points when the game ends." Red, already at −1, self-traps (−2) and
    ends the game: red −1 − 2 = −3, yellow −6 + 2 = −4; red, the highest, wins."""
    cubes = {**white_around("a1", "b1", "c1", "d1"),
             "a1": (None, YELLOW), "b1": (None, RED), "c1": (20, None), "d1": (None, YELLOW)}
    state = position(game, cubes, white=10, roll=10, points=[-1, -6])
    state.apply("claim 20 at c1")
    assert state.position.vars["points"] == [-3, -4]
    assert END_GAME in texts(state)
    state.apply(END_GAME)
    result = state.result()
    assert state.is_terminal()
    assert result["scores"] == [-3, -4]
    assert result["winners"] == [RED]


def test_x6_highest_score_wins(game):
    """X6: "Highest score wins". Seed: "To win you must have scored the most points when
    the game ends." """
    cubes = {"k11": (1, None), **white_around("k11")}
    state = position(game, cubes, white=5, roll=1, points=[10, 12, 11], players=3)
    state.apply("claim 1 at k11")
    state.apply(END_GAME)
    assert state.result()["scores"] == [10, 12, 11]
    assert state.result()["winners"] == [YELLOW]


def test_x6_ties_are_shared(game):
    """G2: "Ties for the win are shared: every tied player is a winner." """
    cubes = {"a1": (1, None), **white_around("a1")}
    state = position(game, cubes, white=5, roll=1, points=[3, 7, 7, 1], players=4)
    state.apply("claim 1 at a1")
    assert state.position.vars["points"] == [3, 7, 7, 1]
    state.apply(END_GAME)
    assert state.result()["winners"] == [YELLOW, GREEN]


def test_x6_the_game_ends_when_no_white_cube_remains(game):
    """X6: "The game also ends when no white cube remains." The last claim ends the game
    with no end-of-turn choice."""
    state = position(game, {"f6": (1, None)}, white=1, roll=1)
    state.apply("claim 1 at f6")
    assert white_count(state) == 0
    assert state.is_terminal()
    assert state.legal_actions() == []


# ====================================================================== properties
def play_game(players: int, seed: int, choice_seed: int, play_on: float, check) -> object:
    """A random game; ``check(before, after, action_text)`` after every action."""
    state = GAME.new_game(players, seed)
    rng = random.Random(choice_seed)
    for _ in range(MAX_DECISIONS):
        if state.is_terminal():
            return state
        before = state.clone()
        text = pick(rng, state, play_on)
        state.apply(text)
        check(before, state, text)
    raise AssertionError(f"game {players}p seed {seed} did not end in {MAX_DECISIONS} decisions")


def check_claim(before, after, text: str) -> None:
    """Cubes conserved, owners fixed once set, and the points moved exactly as the
    oracle of X4/X5 says (only by a claim)."""
    board = after.position.zones[BOARD]
    assert len(board) == 121 and sorted(p.id for p in board) == list(range(121))
    assert [p.id for p in board] == [p.id for p in before.position.zones[BOARD]]   # cubes never move
    assert all(len(z) == 0 for i, z in enumerate(after.position.zones) if i != BOARD)
    changed = [i for i, (a, b) in enumerate(zip(before.position.owner, after.position.owner)) if a != b]
    for i in changed:
        assert before.position.owner[i] is None and after.position.owner[i] is not None
    players = len(before.position.vars["points"])
    delta = [a - b for a, b in zip(after.position.vars["points"], before.position.vars["points"])]
    if text.startswith("claim "):
        mover = before.current_player
        assert len(changed) == 1 and int(after.position.owner[changed[0]]) == mover
        assert text.endswith(" at " + label(next(s for s, p in enumerate(board)
                                                 if p.id == changed[0])))
        expected = oracle_delta(owners_grid(before), owners_grid(after), mover, players)
        assert delta == expected, (text, mover, delta, expected)
    else:
        assert changed == [] and delta == [0] * players


@pytest.mark.parametrize("players", [2, 3, 4])
def test_property_random_games_follow_the_oracle(players):
    """Every claim of random games moves the points exactly as an independent reading of
    X4 and X5 says; cubes are conserved (121 on the board, never moving); a white cube
    only ever turns to the mover's colour and stays so; games end."""
    claims = 0
    for seed in range(8):
        def check(before, after, text):
            nonlocal claims
            claims += text.startswith("claim ")
            check_claim(before, after, text)
        final = play_game(players, seed, seed * 7 + players, play_on=0.97, check=check)
        assert final.is_terminal()
        result = final.result()
        best = max(result["scores"])
        assert result["winners"] == [p for p in range(players) if result["scores"][p] == best]
    assert claims > 400


@settings(max_examples=10, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 4), seed=st.integers(0, 2**32), choice=st.integers(0, 2**32),
       play_on=st.sampled_from([0.0, 0.5, 0.95, 1.0]))
def test_property_hypothesis_games(players, seed, choice, play_on):
    """Hypothesis: the same checks on arbitrary seeds and end-of-game appetites (a few
    games beside the 24 above: their checks are the same)."""
    final = play_game(players, seed, choice, play_on, check_claim)
    assert final.is_terminal()
    assert white_count(final) <= 25
    if play_on == 1.0:
        assert white_count(final) == 0


def test_property_determinism_by_seed():
    """One seed fixes the whole game: same seed and choices, same record."""
    def record(seed: int) -> str:
        final = play_game(3, seed, 5, 0.9, lambda *a: None)
        data = final.to_json()
        return json.dumps(data, sort_keys=True)
    assert record(4) == record(4)
    assert record(4) != record(5)


def test_property_clone_and_json_continue_identically(game):
    """to_json / state_from_json and clone() give states that continue identically."""
    state = game.new_game(3, 9)
    rng = random.Random(1)
    for _ in range(40):
        state.apply(pick(rng, state))
    copy = state.clone()
    rebuilt = game.state_from_json(json.loads(json.dumps(state.to_json())))
    for s in (state, copy, rebuilt):
        r = random.Random(2)
        while not s.is_terminal():
            s.apply(pick(r, s))
    assert state.to_json() == copy.to_json() == rebuilt.to_json()


def test_oracle_self_check():
    """The oracle itself, on the seed's example: green 6 trapped by red and yellow."""
    before = [[None] * SIZE for _ in range(SIZE)]
    before[0][0] = RED
    for c in range(1, 7):
        before[0][c] = GREEN
    after = [row[:] for row in before]
    after[0][7] = YELLOW
    assert oracle_delta(before, after, YELLOW, 3) == [3, 3, -6]
