"""The PettingZoo and Gymnasium adapters (issue 12): PettingZoo's api_test and
seed_test for every bundled ruleset, Gymnasium's check_env on a one-player
ruleset (tests/data/adapters/tens.rules, a small patience)."""

from __future__ import annotations

from pathlib import Path

import pytest
np = pytest.importorskip("numpy")

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

from rulepack.adapters import gymnasium as rp_gym  # noqa: E402
from rulepack.adapters import pettingzoo as rp_pz  # noqa: E402
from rulepack.loader import bundled_rulesets  # noqa: E402

pytestmark = pytest.mark.pettingzoo

TENS = str(Path(__file__).parent / "data" / "adapters" / "tens.rules")


@pytest.mark.parametrize("name", bundled_rulesets())
def test_api_test_and_seed_test(name):
    api_test(rp_pz.env(name, render_mode="ansi"), num_cycles=300)
    seed_test(lambda: rp_pz.env(name), num_cycles=200)


def test_an_environment_plays_a_whole_game_with_its_masks():
    env = rp_pz.env("multzo", players=3, render_mode="ansi")
    env.reset(seed=7)
    assert env.possible_agents == ["player_0", "player_1", "player_2"]
    size = env.action_space("player_0").n
    assert size == env.engine_state().program.num_distinct_actions()
    totals = dict.fromkeys(env.possible_agents, 0.0)
    rng = np.random.default_rng(7)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        assert list(legal) == env.engine_state().legal_action_ids()
        assert "to decide" in env.render()
        env.step(int(rng.choice(legal)))
    assert env.engine_state().is_terminal()
    assert totals == dict(zip(env.possible_agents, env.engine_state().returns()))
    assert set(totals.values()) <= {1.0, -1.0, 0.0}


def test_check_env_on_a_patience():
    env = rp_gym.env(TENS, render_mode="ansi")
    check_env(env, skip_render_check=True)
    obs, info = env.reset(seed=3)
    assert (obs["action_mask"] == info["action_mask"]).all()
    assert "deal" in env.render()


def test_a_patience_is_won_or_lost():
    env = rp_gym.env(TENS)
    obs, _ = env.reset(seed=0)
    give_up = next(i for i in np.flatnonzero(obs["action_mask"])
                   if env.engine_state().action_to_string(0, int(i)) == "give up")
    _, reward, terminated, truncated, info = env.step(give_up)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-1.0, True, False, False)
    env.reset(seed=0)
    illegal = next(i for i in range(env.action_space.n) if not obs["action_mask"][i])
    _, reward, terminated, _, info = env.step(illegal)
    assert (reward, terminated, info["illegal_action"]) == (0.0, False, True)


def test_gymnasium_refuses_a_game_for_several_players():
    with pytest.raises(ValueError, match="not a one-player ruleset"):
        rp_gym.env("multzo")


def test_the_length_a_ruleset_declares_is_the_default_of_max_steps(tmp_path):
    # Tic-Tac-Toe says 'at most 9 decisions'; Multzo declares no bound
    assert rp_pz.env("tic-tac-toe").max_steps == 9
    assert rp_pz.env("multzo").max_steps == 100_000
    assert rp_pz.env("tic-tac-toe", max_steps=4).max_steps == 4
    bounded = tmp_path / "tens.rules"
    text = Path(TENS).read_text(encoding="utf-8")
    assert "players 1\n" in text
    bounded.write_text(text.replace("players 1\n", "players 1\n  at most 3 decisions\n", 1),
                       encoding="utf-8")
    env = rp_gym.env(str(bounded))
    assert env.max_steps == 3
    obs, _ = env.reset(seed=0)
    truncated = terminated = False
    steps = 0
    while not (terminated or truncated):
        legal = [i for i in np.flatnonzero(obs["action_mask"])
                 if env.engine_state().action_to_string(0, int(i)) != "give up"]
        obs, _, terminated, truncated, _ = env.step(int(legal[0]))
        steps += 1
    assert steps <= 3 and (terminated or (truncated and steps == 3))


def test_step_takes_whole_numbers_only_and_says_so():
    """``step(1.5)`` played action 1 and ``step("3")`` action 3 (a silent ``int()``);
    a NumPy integer, as a space samples, is a whole number."""
    from rulepack.errors import IllegalActionError
    env = rp_pz.env("tic-tac-toe")
    env.reset(seed=1)
    for bad in (1.5, "3", True, np.float64(2.0), [3]):
        with pytest.raises(IllegalActionError, match="an action is an action id, a whole number"):
            env.step(bad)
        assert env.engine_state().decisions == 0 and env.agent_selection == "player_0"
    env.step(np.int64(4))
    assert env.engine_state().decisions == 1
    gym = rp_gym.env(TENS)
    gym.reset(seed=1)
    with pytest.raises(IllegalActionError):
        gym.step(0.0)


def test_step_before_reset_or_after_every_agent_left_is_a_plain_error():
    """After the end, ``step`` raised ``KeyError: 'player_0'``."""
    env = rp_pz.env("tic-tac-toe")
    with pytest.raises(RuntimeError, match="call reset"):
        env.step(0)
    env.reset(seed=2)
    for agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        env.step(None if terminated or truncated else int(np.flatnonzero(obs["action_mask"])[0]))
    assert env.agents == []
    with pytest.raises(RuntimeError, match="every agent has left it: call reset"):
        env.step(0)
    env.reset(seed=3)                       # and it plays again
    assert env.agents == env.possible_agents


@pytest.mark.parametrize("how", ["neighbours", "arithmetic", "map"])
def test_gymnasium_takes_a_solitaire_whose_actions_come_from_a_define(tmp_path, how):
    """Issue 34, item 7: pawns moved to ``targets(pw)`` (a define giving cells) have
    stable action ids from the cells' type; Gymnasium's own checker passes."""
    from test_action_domains import SOLITAIRE, TARGETS
    path = tmp_path / "hop.rules"
    path.write_text(SOLITAIRE.replace("TARGETS", TARGETS[how]), encoding="utf-8")
    env = rp_gym.env(str(path))
    check_env(env, skip_render_check=True)
    obs, _ = env.reset(seed=1)
    terminated = truncated = False
    while not (terminated or truncated):
        legal = np.flatnonzero(obs["action_mask"])
        obs, _, terminated, truncated, info = env.step(int(legal[0]))
        assert not info["illegal_action"]
