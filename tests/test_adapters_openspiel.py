"""The OpenSpiel adapter (issue 12): OpenSpiel's own conformance test with
serialization for every bundled ruleset at every player count, its MCTSBot
end to end, and an exact algorithm on Tic-Tac-Toe (a draw)."""

from __future__ import annotations

import pytest
np = pytest.importorskip("numpy")

pyspiel = pytest.importorskip("pyspiel")

import rulepack  # noqa: E402
import rulepack.adapters.openspiel  # noqa: E402,F401  (registers "rulepack")
from rulepack.loader import bundled_rulesets  # noqa: E402

pytestmark = pytest.mark.openspiel


def _counts():
    for name in bundled_rulesets():
        game = rulepack.load(name)
        for n in range(game.min_players, game.max_players + 1):
            yield name, n


@pytest.mark.parametrize("name,players", list(_counts()))
def test_random_sim_test_with_serialization(name, players):
    params = {"ruleset": name, "players": players}
    if name == "packkub" and players > 2:
        # a random PackKub of four rounds for 3-6 players runs to hundreds of
        # moves, each deserialization replaying them all: one round (2 players
        # play the default four)
        params["rounds"] = 1
    game = pyspiel.load_game("rulepack", params)
    assert game.num_players() == players
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_the_game_reports_the_engine_contract():
    game = pyspiel.load_game("rulepack", {"ruleset": "multzo", "players": 3})
    kind = game.get_type()
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.utility == pyspiel.GameType.Utility.GENERAL_SUM
    state = game.new_initial_state()
    assert state.is_chance_node()                   # the deal
    engine = state.engine_state
    assert game.num_distinct_actions() == engine.num_distinct_actions()
    assert sum(p for _, p in state.chance_outcomes()) == pytest.approx(1.0)
    ttt = pyspiel.load_game("rulepack", {"ruleset": "tic-tac-toe"})
    assert ttt.get_type().chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC
    assert ttt.get_type().information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert ttt.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert [ttt.new_initial_state().action_to_string(0, a) for a in range(3)] == \
        ["mark a1", "mark b1", "mark c1"]


def test_a_path_and_options(tmp_path):
    source = rulepack.loader.bundled_dir() / "packkub.rules"
    game = pyspiel.load_game("rulepack", {"ruleset": str(source), "players": 2,
                                          "rounds": 1, "options": "jokers:2"})
    engine = game.new_initial_state().engine_state
    assert engine.inst.options["rounds"] == 1 and engine.inst.options["jokers"] == 2
    again = pyspiel.load_game(str(game))            # the game string loads the same game
    assert again.new_initial_state().engine_state.inst.options == engine.inst.options


def test_mcts_bot_plays_connect_four_to_the_end():
    from open_spiel.python.algorithms import mcts
    game = pyspiel.load_game("rulepack", {"ruleset": "connect-four"})
    rng = np.random.RandomState(0)
    bots = [mcts.MCTSBot(game, 2, 20, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
            for _ in range(2)]
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(bots[state.current_player()].step(state))
    assert sorted(state.returns()) in ([-1.0, 1.0], [0.0, 0.0])
    assert state.engine_state.is_terminal()


def test_tic_tac_toe_is_a_draw_by_alpha_beta():
    from open_spiel.python.algorithms import minimax
    game = pyspiel.load_game("rulepack", {"ruleset": "tic-tac-toe"})
    value, _ = minimax.alpha_beta_search(game)
    assert value == 0.0


def test_a_game_is_truncated_at_its_length():
    # decisions are counted, as OpenSpiel counts a game's length; chance is not
    game = pyspiel.load_game("rulepack", {"ruleset": "multzo", "max_game_length": 10})
    assert game.max_game_length() == 10
    state = game.new_initial_state()
    rng = np.random.RandomState(1)
    chance = 0
    while not state.is_terminal():
        if state.is_chance_node():
            chance += 1
            state.apply_action(int(rng.choice([o for o, _ in state.chance_outcomes()])))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    engine = state.engine_state
    assert engine.decisions == 10 and not engine.is_terminal()   # someone would decide
    assert len(state.history()) == 10 + chance and chance >= 23  # the deal's draws
    assert state.returns() == [0.0, 0.0] and state.current_player() == pyspiel.PlayerId.TERMINAL
    assert state.legal_actions() == []


def test_the_length_a_ruleset_declares_is_the_games_max_game_length():
    # Tic-Tac-Toe says 'at most 9 decisions', Connect Four 'at most 42 decisions'
    assert pyspiel.load_game("rulepack", {"ruleset": "tic-tac-toe"}).max_game_length() == 9
    assert pyspiel.load_game("rulepack", {"ruleset": "connect-four"}).max_game_length() == 42
    multzo = pyspiel.load_game("rulepack", {"ruleset": "multzo", "players": 3})
    assert multzo.max_game_length() == 100_000     # no bound declared: the decision limit
    # a game that ends on its last allowed decision ends as the rules say
    game = pyspiel.load_game("rulepack", {"ruleset": "tic-tac-toe"})
    state = game.new_initial_state()
    for square in (0, 1, 2, 4, 3, 5, 7, 6, 8):      # X O X / X O O / O X X: a draw
        state.apply_action(square)
    assert state.is_terminal() and state.engine_state.is_terminal()
    assert state.returns() == [0.0, 0.0] and len(state.history()) == 9


def test_sampled_chance_is_a_sampled_stochastic_game():
    game = pyspiel.load_game("rulepack", {"ruleset": "multzo", "players": 2,
                                          "chance": "sampled", "seed": 5})
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    first, second = game.new_initial_state(), game.new_initial_state()
    assert not first.is_chance_node()
    assert str(first) != str(second)                 # each game its own deal
    # (random_sim_test needs the game's generator state, which OpenSpiel's
    # Python games cannot give: a playout, a clone and a serialization instead)
    rng = np.random.RandomState(3)
    while not first.is_terminal():
        first.apply_action(int(rng.choice(first.legal_actions())))
        copy = first.clone()
        assert str(copy) == str(first)
    again = game.deserialize_state(first.serialize())
    assert str(again) == str(first) and again.returns() == first.returns()
    assert sorted(first.returns()) in ([-1.0, 1.0], [0.0, 0.0])
