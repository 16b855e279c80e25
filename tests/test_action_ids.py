"""Stable action ids (issue 12): a fixed number of distinct actions per instance,
the same id for the same action in every state and game, apply_id(), and apply()
that never reads a number as a position in the legal list."""

from __future__ import annotations

import random
from pathlib import Path


import pytest

import rulepack
from rulepack.engine.flow import action_of_id
from rulepack.engine.serialize import encode
from rulepack.errors import IllegalActionError, SemanticError
from rulepack.loader import bundled_rulesets


try:  # a bundled ruleset, loaded once for every test module of the process
    from bundled import bundled as load
except ImportError:  # tests/ imported as a package
    from tests.bundled import bundled as load


def _counts():
    for name in bundled_rulesets():
        game = load(name)
        for n in range(game.min_players, game.max_players + 1):
            yield name, n


def _key(action):
    """What an action is, independently of any id: its text and values (the same
    text at two decisions is one action, as Kuhn poker's "pass" at each of its)."""
    return (action.text, repr(encode(list(action.values))))


@pytest.mark.parametrize("name,players", list(_counts()))
def test_ids_are_stable_and_bounded(name, players):
    game = load(name)
    size = game.new_game(players, seed=0).program.num_distinct_actions()
    seen: dict[int, tuple] = {}
    for seed in range(2):
        state = game.new_game(players, seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal() and state.decisions < 60:
            assert state.program.num_distinct_actions() == size
            legal = state.legal_actions()
            ids = state.legal_action_ids()
            assert ids == sorted(a.id for a in legal)
            assert len(set(ids)) == len(ids)           # distinct actions, distinct ids
            for a in legal:
                assert 0 <= a.id < size
                assert seen.setdefault(a.id, _key(a)) == _key(a)   # same id, same action
                assert action_of_id(state.position, a.id) is a
                assert state.action_to_string(state.current_player, a.id) == a.text
            state.apply_id(rng.choice(ids))
    if players != game.min_players:
        return
    # a second load of the ruleset numbers the same actions the same way
    again = rulepack.load(name).new_game(players, seed=0)
    for ident, key in list(seen.items())[:50]:
        assert _key(action_of_id(again.position, ident)) == key


def test_an_action_out_of_the_legal_list_decodes_to_its_id():
    state = load("tic-tac-toe").new_game(2, seed=0)
    state.apply("mark b2")
    taken = state.history[-1]
    assert taken.id not in state.legal_action_ids()
    rebuilt = action_of_id(state.position, taken.id)
    assert rebuilt == taken and rebuilt.id == taken.id
    with pytest.raises(IllegalActionError):
        state.apply_id(taken.id)
    with pytest.raises(ValueError):
        action_of_id(state.position, state.program.num_distinct_actions())


def test_apply_refuses_numbers():
    state = load("tic-tac-toe").new_game(2, seed=0)
    with pytest.raises(IllegalActionError, match="apply_id"):
        state.apply(0)
    assert state.decisions == 0
    first = state.legal_actions()[0]
    state.apply_id(first.id)
    assert state.history[-1] == first


def test_connect_four_ids_follow_the_columns():
    state = load("connect-four").new_game(2, seed=0)
    assert state.program.num_distinct_actions() == 7
    assert [state.action_to_string(0, i) for i in range(7)] == \
        [f"drop in column {n}" for n in range(1, 8)]


UNBOUNDED = """
game counting {
  players 1
}

component token {
  size: 1, 2, 3
}

zone pool: pile

var total = 0

setup {
  move token to pool
}

play {
  turns from 0 {
    choose {
      action "say {n}" for n in 1..count(pool) + total {
        set total = total + n
        end game
      }
    }
  }
}
"""


def test_a_parameter_without_a_finite_domain_is_a_located_error():
    game = rulepack.loads(UNBOUNDED, "counting.rules")
    state = game.new_game(1, seed=0)
    assert [a.text for a in state.legal_actions()] == ["say 1", "say 2", "say 3"]
    with pytest.raises(SemanticError) as info:
        state.program.num_distinct_actions()
    diag = info.value.diagnostics[0]
    assert diag.code == "unbounded-actions"
    assert diag.location.file == "counting.rules" and diag.location.line == 21


TIGHT = """
game tight {
  players 2
}

component tile {
  rank: 1, 2, 3
}

component coin {
  value: 1, 2
}

zone stack: stack
zone hand: pile per player
zone board: grid 2 x 2
zone bank: pile

setup {
  move tile to stack
  move coin to bank
  for x in cells(board) {
    say "{x}"
  }
}

play {
  turns from 0 {
    choose {
      action "draw" if count(stack) > 0 {
        move top of stack to hand[current]
      }
      action "place {t} at {c}" for (t, c) in [(x, x.cell) for x in hand[current]] {
        end game
      }
      action "pay {m}" for m in bank {
        move m to board[0]
      }
    }
  }
}
"""


def test_a_zone_has_only_the_pieces_moves_bring_and_a_comprehension_its_own_name():
    # the hands are dealt from the stack, which holds the 3 tiles: 'place' ranges over
    # tiles (not the 2 coins), and its x is a tile there (not also a cell, as the x
    # of the setup's loop); x.cell is a cell of the board or none (4 + 1 values)
    state = rulepack.loads(TIGHT, "tight.rules").new_game(2, seed=0)
    tiles, coins, cells = 3, 2, 4
    assert state.program.num_distinct_actions() == 1 + tiles * (cells + 1) + coins
    while not state.is_terminal():
        ids = state.legal_action_ids()
        assert all(action_of_id(state.position, i).id == i for i in ids)
        place = [i for i in ids if state.action_to_string(0, i).startswith("place")]
        state.apply_id(place[0] if place else ids[0])
    assert state.history[-1].text.startswith("place")


def test_the_bundled_games_number_fewer_actions():
    # Multiplay: a claim is one of its 121 cubes at one of the 11 x 11 cells or none,
    # plus 'end the game' and 'play on' (before: a name x bound elsewhere to cells
    # made every cell a cube too, 29,526 ids)
    cubes = len(load("multiplay").instance(2, {}).pieces)
    assert cubes == 121
    assert load("multiplay").new_game(2, seed=0).program.num_distinct_actions() == cubes * 122 + 2
    # Multzo: the stack, hands and discards hold its 24 tiles, never its 24 coins
    # (draw; draw, discard face up, discard face down one of 24 tiles; 32 multiplier
    # choices; no multiplier)
    assert load("multzo").new_game(3, seed=0).program.num_distinct_actions() == 1 + 3 * 24 + 32 + 1


# ---------------------------------------------------------------- sizes (issue 32)
ADAPTERS = Path(__file__).parent / "data" / "adapters"


def _tree(state, visit):
    """Every position of a complete game tree (explicit chance), depth first."""
    visit(state)
    if state.is_terminal():
        return
    moves = range(len(state.chance_outcomes())) if state.is_chance_node() \
        else state.legal_action_ids()
    for move in moves:
        child = state.clone()
        child.apply_id(move)
        _tree(child, visit)


@pytest.mark.parametrize("name, actions, outcomes", [
    # Kuhn poker on three piecepack tiles, a choose per betting decision: "pass" and
    # "bet" are two actions (OpenSpiel's kuhn_poker has 2), the shuffle draws among
    # the 3 tiles dealt (not the 24 of the library)
    ("kuhn-tiles", 2, 3),
    # Goofspiel with four tiles a player: a bid names one of the 8 tiles the two
    # hands hold (OpenSpiel numbers the 4 card values), the prizes' shuffle has 4
    ("goofspiel", 8, 4),
    # the same game with a bid naming a rank: OpenSpiel's 4 actions
    ("goofspiel-ranks", 4, 4),
])
def test_sizes_are_what_the_instance_can_reach(name, actions, outcomes):
    game = rulepack.load(str(ADAPTERS / f"{name}.rules"))
    start = game.new_game(2, seed=0, chance="explicit")
    assert start.program.num_distinct_actions() == actions
    assert start.program.max_chance_outcomes() == outcomes
    texts: dict[str, set[int]] = {}
    widest = [0]

    def visit(state):
        if state.is_chance_node():
            widest[0] = max(widest[0], len(state.chance_outcomes()))
        elif not state.is_terminal():
            for a in state.legal_actions():
                assert 0 <= a.id < actions
                texts.setdefault(a.text, set()).add(a.id)
                assert state.action_to_string(state.current_player, a.id) == a.text
    if name == "kuhn-tiles":
        _tree(start, visit)
    else:                                   # 13,824 games: random ones
        for seed in range(30):
            state = game.new_game(2, seed=seed, chance="explicit")
            rng = random.Random(seed)
            while not state.is_terminal():
                visit(state)
                moves = range(len(state.chance_outcomes())) if state.is_chance_node() \
                    else state.legal_action_ids()
                state.apply_id(rng.choice(list(moves)))
    assert widest[0] == outcomes                    # the bound is reached
    assert len(texts) == actions and all(len(ids) == 1 for ids in texts.values())
    assert sorted(i for ids in texts.values() for i in ids) == list(range(actions))


def test_one_text_at_two_decisions_is_one_action():
    state = rulepack.load(str(ADAPTERS / "kuhn-tiles.rules")).new_game(2, seed=1)
    assert [a.text for a in state.legal_actions()] == ["pass", "bet"]
    first = {a.text: a.id for a in state.legal_actions()}
    state.apply("pass")
    assert {a.text: a.id for a in state.legal_actions()} == first    # another choose
    state.apply("bet")
    assert {a.text: a.id for a in state.legal_actions()} == first    # and a third
    # an id out of the legal list decodes to the first decision that offers it
    assert action_of_id(state.position, first["bet"]).text == "bet"


def test_bundled_sizes():
    # what the bundled rulesets' instances can reach; their ids are unchanged but
    # for Mismemory, whose "flip the tile at {c}" and "put {t} face down at {c}" are
    # offered by two decisions each (1,804 ids before they shared them)
    sizes = {"connect-four": (7, 1), "ladders": (27, 24), "mismemory": (1204, 24),
             "multiplay": (14764, 121), "multzo": (106, 24), "packkub": (52, 48),
             "partners": (24, 24), "pig": (2, 6), "tic-tac-toe": (9, 1)}
    for name, (actions, outcomes) in sizes.items():
        state = load(name).new_game(load(name).min_players, seed=0)
        assert (state.program.num_distinct_actions(), state.program.max_chance_outcomes()) == \
            (actions, outcomes), name
