"""Observation and information-state tensors (issue 32): a tensor tells apart
what its string tells apart, and nothing more.

For every position and every seat, over complete game trees of small rulesets
(Kuhn poker twice, a game of face-down chips in a row with a private variable)
and random positions of every bundled ruleset:

* the tensor is a function of the string (two positions the player cannot tell
  apart give one tensor: it shows nothing hidden), and
* it is injective over the strings (two positions the player can tell apart give
  two tensors): the observation tensor over observation strings, the
  information-state tensor over information-state strings.

Before, the tensors left out the variables and the flow (Kuhn's 6 information
states per player gave 3 tensors: first to act and facing a bet read alike).
Leduc hold'em's complete tree (468 information states per player, 9,457
positions) is checked by the OpenSpiel tests (``-m openspiel``), for time.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import rulepack
from rulepack.engine.tensors import tensor_layout
from rulepack.loader import bundled_rulesets
from rulepack.engine.observe import Observer

try:  # a bundled ruleset, loaded once for every test module of the process
    from bundled import bundled as load
except ImportError:  # tests/ imported as a package
    from tests.bundled import bundled as load

ADAPTERS = Path(__file__).parent / "data" / "adapters"

# Two players hide their two chips face down in a row, in turn; a face-down chip
# shows its colour. Each keeps a private tally of what they hid (their score).
HIDEAWAY = """\
game hideaway {
  players 2
  at most 4 decisions
}
component chip {
  called "{colour} {n}"
  colour: red, blue
  n: 1, 2
  down shows colour
}
zone hand: pile per player seen by owner
zone line: row
var tally per player seen by owner = 0
score(p) = tally[p]
winner highest score
setup {
  move chip where colour == red to hand[0]
  move chip where colour == blue to hand[1]
}
play {
  turns from 0 until count(line) == 4 {
    choose {
      action "hide {c}" for c in hand[current] {
        move c to line face down
        set tally[current] = tally[current] + c.n
      }
    }
  }
}
"""


def tree(state):
    """Every position of the complete game tree under ``state`` (explicit chance)."""
    out = [state]
    if state.is_terminal():
        return out
    moves = range(len(state.chance_outcomes())) if state.is_chance_node() \
        else state.legal_action_ids()
    for move in moves:
        child = state.clone()
        child.apply_id(move)
        out += tree(child)
    return out


def random_positions(game, players, games, decisions, options=None):
    out = []
    for seed in range(games):
        state = game.new_game(players, seed=seed, chance="explicit", options=options)
        rng = random.Random(seed)
        while True:
            out.append(state.clone())
            if state.is_terminal() or state.decisions >= decisions:
                break
            moves = range(len(state.chance_outcomes())) if state.is_chance_node() \
                else state.legal_action_ids()
            state.apply_id(rng.choice(list(moves)))
    return out


def assert_faithful(positions, players):
    """Per seat: each string has one tensor, and no two strings share one."""
    for p in range(players):
        for string, tensor in (("observation_string", "observation_tensor"),
                               ("information_state_string", "information_state_tensor")):
            by_string: dict[str, tuple] = {}
            by_tensor: dict[tuple, str] = {}
            for state in positions:
                text = getattr(state, string)(p)
                values = tuple(getattr(Observer(state.program), tensor)(state.position, p))
                assert by_string.setdefault(text, values) == values, \
                    f"seat {p}: one {string} gives two tensors:\n{text}"
                other = by_tensor.setdefault(values, text)
                assert other == text, f"seat {p}: two {string}s give one tensor:\n{text}\n{other}"


@pytest.mark.parametrize("name", ["kuhn", "kuhn-tiles"])
def test_kuhn_poker_trees(name):
    game = rulepack.load(str(ADAPTERS / f"{name}.rules"))
    positions = tree(game.new_game(2, seed=0, chance="explicit"))
    assert len(positions) == 58
    assert_faithful(positions, 2)
    # OpenSpiel's 6 information states per player, now 6 tensors (3 before)
    for p in (0, 1):
        states = {s.information_state_string(p): tuple(Observer(s.program).information_state_tensor(s.position, p))
                  for s in positions if s.current_player == p}
        assert len(states) == 6 and len(set(states.values())) == 6


def test_face_down_chips_in_a_row_and_a_private_tally():
    game = rulepack.loads(HIDEAWAY)
    positions = tree(game.new_game(2, seed=0, chance="explicit"))
    assert_faithful(positions, 2)
    ends = [s for s in positions if s.is_terminal()]
    assert len(ends) == 4 and tensor_layout(ends[0].program).decisions == 4
    # the row shows where the hidden chips lie and what colour they show, not which
    # they are: every end looks alike to seat 1, which remembers the order it hid
    # its own two in (its decisions, in the history block) and nothing of seat 2's
    assert len({s.observation_string(0) for s in ends}) == 1
    assert len({tuple(Observer(s.program).observation_tensor(s.position, 0)) for s in ends}) == 1
    assert len({tuple(Observer(s.program).information_state_tensor(s.position, 0)) for s in ends}) == 2


def _counts():
    for name in bundled_rulesets():
        game = load(name)
        yield name, game.min_players


@pytest.mark.parametrize("name,players", list(_counts()))
def test_random_positions_of_the_bundled_rulesets(name, players):
    options = {"rounds": 1} if name == "packkub" else None
    games = 1 if name == "multiplay" else 2          # (its tensors are the longest)
    positions = random_positions(load(name), players, games, 40, options)
    assert_faithful(positions, players)


def test_a_value_slot_of_numbers_lists_and_pieces():
    from rulepack.engine.tensors import SLOT_FLAGS, value_entries
    state = rulepack.loads(HIDEAWAY).new_game(2, seed=0)
    red = next(c for c in state.program.pieces if c.name == "red 1")
    out: dict[int, float] = {}
    value_entries(state.position, 0, [3, -1, None, True, (red, 2)], out, 0)
    assert (out[6], out[9]) == (1.0, 5.0)               # a list of 5
    assert (out[10], out[11], out[12]) == (4.0, 3.0, 14.0)  # 3, -1 and 2: sum, count, squares
    assert (out[13], out[15], out[17], out[18]) == (1.0, 1.0, 1.0, 2.0)
    # red 1 is face down in player 1's hand (seen by its owner): player 1 sees which
    # chip it is, player 2 only its look, "chip showing red"
    seen = [i - SLOT_FLAGS for i in out if i >= SLOT_FLAGS]
    other: dict[int, float] = {}
    value_entries(state.position, 1, (red,), other, 0)
    assert seen != [i - SLOT_FLAGS for i in other if i >= SLOT_FLAGS]
    assert red.id + 2 in seen                            # after the 2 seats
    huge: dict[int, float] = {}
    value_entries(state.position, 0, 10 ** 400, huge, 0)          # too large for a float
    assert huge == {3: 1.0, 4: float("inf")}
