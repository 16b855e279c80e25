"""The OpenSpiel adapter (issue 12): OpenSpiel's own conformance test with
serialization for every bundled ruleset at every player count, its MCTSBot
end to end, and an exact algorithm on Tic-Tac-Toe (a draw). Issue 32: Kuhn poker
and Leduc hold'em as rulesets are OpenSpiel's trees, and with score returns CFR
solves Kuhn poker to its value."""

from __future__ import annotations

from pathlib import Path

import pytest
np = pytest.importorskip("numpy")

pyspiel = pytest.importorskip("pyspiel")

import rulepack  # noqa: E402
import rulepack.adapters.openspiel  # noqa: E402,F401  (registers "rulepack")
from rulepack.loader import bundled_rulesets  # noqa: E402
from rulepack.engine.observe import Observer

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
    assert game.num_distinct_actions() == engine.program.num_distinct_actions()
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
    assert engine.program.options["rounds"] == 1 and engine.program.options["jokers"] == 2
    again = pyspiel.load_game(str(game))            # the game string loads the same game
    assert again.new_initial_state().engine_state.program.options == engine.program.options


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


# ---------------------------------------------------------------- poker (issue 32)
ADAPTERS = Path(__file__).parent / "data" / "adapters"
KUHN = str(ADAPTERS / "kuhn.rules")
LEDUC = str(ADAPTERS / "leduc.rules")


def _walk(state, seen, terminals):
    """Every information state of a complete tree with its tensor, by player, and
    the terminals."""
    if state.is_terminal():
        terminals.append(state.returns())
        return
    if state.is_chance_node():
        assert sum(p for _, p in state.chance_outcomes()) == pytest.approx(1.0)
        for outcome, _ in state.chance_outcomes():
            _walk(state.child(outcome), seen, terminals)
        return
    player = state.current_player()
    seen[player].add((state.information_state_string(player),
                      tuple(state.information_state_tensor(player))))
    for action in state.legal_actions():
        _walk(state.child(action), seen, terminals)


@pytest.mark.parametrize("path, states, histories, bound", [(KUHN, 6, 30, 2),
                                                           (LEDUC, 468, 5520, 13)])
def test_the_poker_rulesets_are_openspiels_games(path, states, histories, bound):
    # the trees of OpenSpiel's kuhn_poker and leduc_poker: information states per
    # player and terminal histories; with score returns, their utilities
    game = pyspiel.load_game("rulepack", {"ruleset": path, "returns": "score"})
    seen, terminals = [set(), set()], []
    _walk(game.new_initial_state(), seen, terminals)
    assert len(terminals) == histories
    for pairs in seen:
        # as many tensors as information states, one each (issue 32: 3 and 36 before)
        assert len({text for text, _ in pairs}) == states
        assert len({tensor for _, tensor in pairs}) == states and len(pairs) == states
    assert (game.min_utility(), game.max_utility()) == (-bound, bound)
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert game.utility_sum() == 0.0
    assert {sum(r) for r in terminals} == {0.0}
    assert min(min(r) for r in terminals) == -bound and max(max(r) for r in terminals) == bound


def test_score_returns_solve_kuhn_poker_to_its_value():
    # Kuhn poker is worth -1/18 to the first player (read as win/loss, the default
    # returns, it is another game, worth about 0)
    from open_spiel.python.algorithms import cfr, expected_game_score
    game = pyspiel.load_game("rulepack", {"ruleset": KUHN, "returns": "score"})
    solver = cfr.CFRSolver(game)
    for _ in range(100):
        solver.evaluate_and_update_policy()
    policy = solver.average_policy()
    value = expected_game_score.policy_value(game.new_initial_state(), [policy] * 2)
    assert value[0] == pytest.approx(-1 / 18, abs=1e-3) and sum(value) == pytest.approx(0)


def test_outcome_returns_are_as_before():
    def showdown(returns):
        game = pyspiel.load_game("rulepack", {"ruleset": KUHN, "returns": returns})
        state = game.new_initial_state()
        while state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        for action in (1, 1):                     # bet, call: the showdown for 2 chips
            state.apply_action(action)
        return game, state

    game, state = showdown("outcome")
    assert (game.min_utility(), game.max_utility()) == (-1.0, 1.0)
    assert sorted(state.returns()) == [-1.0, 1.0]
    game, state = showdown("score")
    assert sorted(state.returns()) == [-2.0, 2.0]
    assert sorted(game.deserialize_state(state.serialize()).returns()) == [-2.0, 2.0]


def test_score_returns_need_a_score_and_its_range(tmp_path):
    with pytest.raises(ValueError, match="declare it in its game declaration"):
        pyspiel.load_game("rulepack", {"ruleset": "pig", "returns": "score"})
    with pytest.raises(ValueError, match="has no score"):
        pyspiel.load_game("rulepack", {"ruleset": "tic-tac-toe", "returns": "score"})
    with pytest.raises(ValueError, match="returns must be 'outcome' or 'score'"):
        pyspiel.load_game("rulepack", {"ruleset": KUHN, "returns": "chips"})
    # a range the score bounds itself: Tens counts the cards taken away (general-sum)
    tens = pyspiel.load_game("rulepack", {"ruleset": str(ADAPTERS / "tens.rules"),
                                          "returns": "score"})
    assert (tens.min_utility(), tens.max_utility()) == (0.0, 18.0)
    assert tens.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM


def test_a_constant_sum_and_a_broken_zero_sum_declaration(tmp_path):
    text = (ADAPTERS / "kuhn.rules").read_text(encoding="utf-8")
    shifted = tmp_path / "shifted.rules"          # each score 1 more: they sum to 2
    shifted.write_text(text.replace("scores from -2 to 2", "scores from -1 to 3")
                       .replace("scores sum to 0", "scores sum to 2")
                       .replace("score(p) = if", "score(p) = 1 + (if").replace(
                           "else 0 - pot[p])\n", "else 0 - pot[p]))\n"), encoding="utf-8")
    game = pyspiel.load_game("rulepack", {"ruleset": str(shifted), "returns": "score"})
    assert game.get_type().utility == pyspiel.GameType.Utility.CONSTANT_SUM
    assert game.utility_sum() == 2.0 and (game.min_utility(), game.max_utility()) == (-1, 3)
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)
    broken = tmp_path / "broken.rules"            # declared zero-sum, but it is not
    broken.write_text(text.replace("else 0 - pot[p])\n", "else 0)\n"), encoding="utf-8")
    game = pyspiel.load_game("rulepack", {"ruleset": str(broken), "returns": "score"})
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    state.apply_action(1)
    state.apply_action(1)
    with pytest.raises(rulepack.errors.RulesetRuntimeError, match="not the 0 its ruleset declares"):
        state.returns()
