"""Private variables (docs/language.md, `var ... seen by owner | nobody`).

* property (hypothesis): in every position of random games, a player's view —
  variables, flow, scores, everything — and tensors are the same whatever the
  values the player may not see (the other players' entries of a ``seen by
  owner`` variable, a ``seen by nobody`` one): views and tensors leak nothing;
* the player's own entry is shown, and the end reveals the scores;
* a bot rebuilding a state from its view guesses the hidden values and plays on;
* the screen leaves hidden values out; mistakes are located errors.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rich.console import Console

import rulepack
from rulepack.agents.determinize import determinize
from rulepack.cli.render import view_renderable
from rulepack.cli.simulate import simulate
from rulepack.engine.rng import Rng
from rulepack.errors import RulepackError
from rulepack.engine.observe import Observer

BIDS = """\
game bids {
  players 2..4
}
use piecepack (coin)
zone pot: pile
var bid per player seen by owner = 0
var hoard per player seen by owner = []
var target seen by nobody = 0
var shown per player = none
define bonus(p) = if target == 0 then 0 else 1
score(p) = if shown[p] == none then bid[p] + bonus(p) else shown[p]
winner highest score
setup {
  move coin to pot face down
  set target = random(1..5)
}
play {
  rounds 2 times {
    turns from 0 until next == 0 {
      choose {
        action "bid {n}" for n in 1..3 {
          set bid[current] = bid[current] + n
          set hoard[current] = hoard[current] + [top of pot]
        }
      }
    }
  }
  set shown = bid
}
"""

GAME = rulepack.loads(BIDS)


def altered(state: Any, viewer: int, salt: int) -> Any:
    """A copy of ``state`` whose values hidden from ``viewer`` are different."""
    other = state.clone()
    other.position.vars = copy.copy(state.position.vars)
    for name, who in state.program.private_vars.items():
        value = state.position.vars[name]
        if who == "owner":
            other.position.vars[name] = [v if p == viewer else _different(v, salt)
                                for p, v in enumerate(value)]
        else:
            other.position.vars[name] = _different(value, salt)
    return other


def _different(value: Any, salt: int) -> Any:
    if isinstance(value, list):
        return value + [salt]
    return value + 100 + salt


def view_json(state: Any, player: int) -> str:
    return json.dumps(state.view(player), sort_keys=True, default=str)


@settings(max_examples=15, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 4), seed=st.integers(0, 2**32), choices=st.integers(0, 2**32),
       salt=st.integers(1, 50))
def test_views_leak_no_private_value(players: int, seed: int, choices: int, salt: int):
    state = GAME.new_game(players, seed=seed)
    rng = Rng(choices)
    while True:
        for p in range(players):
            other = altered(state, p, salt)
            assert view_json(state, p) == view_json(other, p), f"player {p} sees a secret"
            # and so do the tensors (a score of private variables is not in them)
            assert Observer(state.program).observation_tensor(state.position, p) == Observer(other.program).observation_tensor(other.position, p)
            assert Observer(state.program).information_state_tensor(state.position, p) == Observer(other.program).information_state_tensor(other.position, p)
            # the difference is real: another player's view or the full state shows it
            assert state.to_json()["variables"] != other.to_json()["variables"]
        if state.is_terminal():
            break
        legal = state.legal_actions()
        state.apply(legal[rng.below(len(legal))])
    result = state.result()
    assert result["scores"] == [int(v) for v in state.position.vars["shown"]]
    assert state.view(0)["scores"] == result["scores"]      # the end reveals them


def test_a_player_sees_their_own_entry_and_score():
    state = GAME.new_game(3, seed=4)
    state.apply("bid 2")
    view = state.view(0)
    assert view["variables"]["bid"] == [2, {"hidden": True}, {"hidden": True}]
    assert view["variables"]["target"] == {"hidden": True}
    assert view["flow"]["vars"]["target"] == {"secret": True}
    assert view["variables"]["shown"] == [None, None, None]
    # the score reads 'target' (seen by nobody): no score is shown while playing
    assert view["scores"] == [None, None, None]
    assert state.view(1)["variables"]["bid"] == [{"hidden": True}, 0, {"hidden": True}]


def test_a_score_from_an_owner_variable_is_seen_by_its_owner_only():
    game = rulepack.loads(BIDS.replace("+ bonus(p)", ""))
    state = game.new_game(2, seed=0)
    state.apply("bid 3")
    assert game.instance(2, {}).secret_score == "owner"
    assert state.view(0)["scores"] == [3, None]
    assert state.view(1)["scores"] == [None, 0]


def test_a_bot_rebuilds_a_state_with_guesses_and_plays_on():
    state = GAME.new_game(3, seed=2)
    state.apply("bid 3")
    rebuilt = determinize(state.program, state.view(1), Rng(9))
    assert rebuilt.position.vars["bid"] == [0, 0, 0]         # player 1's own 0, the others guessed
    assert rebuilt.position.vars["target"] == 0              # the declared initial value
    summary = simulate(GAME, 4, ["lookahead", "greedy", "random"])
    assert summary["games"] == 4


def test_the_screen_leaves_hidden_values_out():
    state = GAME.new_game(2, seed=1)
    state.apply("bid 1")
    console = Console(width=120, record=True)
    console.print(view_renderable(state.view(1), "Bids", per_player={"bid", "hoard", "shown"}))
    text = console.export_text()
    assert "player 2: 0" in text and "player 1: 1" not in text
    assert "target" not in text and "'hidden'" not in text and "True" not in text


@pytest.mark.parametrize("decl, message", [
    ("var secret seen by owner = 0",
     "variable 'secret' has no owner: only a 'per player' variable can be seen by its owner"),
    ("var secret per player seen by them = 0",
     "a variable is seen by everyone, owner or nobody, not 'them'"),
])
def test_bad_visibility_is_a_located_error(decl: str, message: str):
    with pytest.raises(RulepackError) as info:
        rulepack.loads("game g { players 2 }\n" + decl + "\n")
    diag = info.value.diagnostics[0]
    assert message in diag.message
    assert (diag.location.line, diag.location.column) == (2, 1)
