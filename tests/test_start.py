"""Where games start (rulepack/engine/start.py): a game begun from the instance's
start — the position its seed-free prefix reaches — is the game that running the
whole flow from the first instruction gives, at every step."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import dataclasses

import pytest

import rulepack
from bundled import bundled
from rulepack.engine.rng import Rng
from rulepack.engine.serialize import position_to_json
from rulepack.engine.state import State, new_position
from rulepack.errors import RulesetRuntimeError
from rulepack.loader import bundled_rulesets

CONFIGS = [(name, n) for name in bundled_rulesets()
           for n in sorted({bundled(name).min_players, bundled(name).max_players})]


def from_scratch(game: rulepack.Game, players: int, seed: int, **kw: Any) -> Any:
    """A new game that runs its whole flow (the program's start put aside)."""
    program = game.instance(players, None).program()
    return State(new_position(dataclasses.replace(program, start=None), seed, **kw))


def play_both(a: Any, b: Any, seed: int, steps: int) -> None:
    rng = Rng(seed)
    for _ in range(steps):
        assert a.to_json() == b.to_json()
        assert [x.text for x in a.legal_actions()] == [x.text for x in b.legal_actions()]
        if a.is_terminal():
            break
        i = rng.below(len(a.legal_actions()))
        a.apply(a.legal_actions()[i])
        b.apply(b.legal_actions()[i])
    assert a.to_json() == b.to_json()


@pytest.mark.parametrize("name,players", CONFIGS, ids=[f"{n} {p}p" for n, p in CONFIGS])
def test_a_game_from_the_start_is_the_game_from_scratch(name: str, players: int) -> None:
    game = bundled(name)
    for seed in (0, 7, 123456789):
        started = game.new_game(players, seed=seed)
        assert game.instance(players, None).program().start, f"{name}: no start found"
        play_both(started, from_scratch(game, players, seed), seed, 40)


def test_the_start_is_never_changed_by_the_games_begun_from_it() -> None:
    game = bundled("multzo")
    first = game.new_game(3, seed=1)
    position, pc = game.instance(3, None).program().start
    before = position_to_json(position)
    rng = Rng(3)
    for seed in range(5):
        st = game.new_game(3, seed=seed)
        while not st.is_terminal():
            st.apply(st.legal_actions()[rng.below(len(st.legal_actions()))])
    assert position_to_json(position) == before
    assert pc >= 0 and position.pending is None
    assert first.position.memo is not game.new_game(3, seed=2).position.memo     # each game its own memo


def write(tmp_path: Path, text: str) -> rulepack.Game:
    path = tmp_path / "g.rules"
    path.write_text(text, encoding="utf-8")
    return rulepack.load(str(path))


HEAD = 'language 1\ngame g {\n  title "G"\n  source "test"\n  players 2\n}\n'


def test_a_game_with_no_chance_before_its_first_decision_starts_at_it(tmp_path: Path) -> None:
    game = write(tmp_path, HEAD + """var n = 0
play {
  set n = 3
  turns from random(players) until n >= 5 {
    choose {
      action "up" { set n = n + 1 }
    }
  }
}
""")
    st = game.new_game(2, seed=4)
    position, pc = game.instance(2, None).program().start
    assert pc >= 0 and position.vars["n"] == 3      # it stopped at random(players)
    seats = {int(game.new_game(2, seed=s).current_player) for s in range(20)}
    assert seats == {0, 1}                          # the seed still decides
    play_both(st, from_scratch(game, 2, 4), 4, 10)

    quiet = write(tmp_path, HEAD + """var n = 0
play {
  turns from 1 until n >= 2 {
    choose {
      action "up" { set n = n + 1 }
    }
  }
}
""")
    quiet.new_game(2)
    assert quiet.instance(2, None).program().start[1] == -1   # at the decision itself


def test_an_initial_value_that_draws_means_no_start(tmp_path: Path) -> None:
    game = write(tmp_path, HEAD + """var n = random(1..6)
play {
  turns from 1 until n >= 10 {
    choose {
      action "up" { set n = n + 1 }
    }
  }
}
""")
    values = {game.new_game(2, seed=s).position.vars["n"] for s in range(30)}
    assert game.instance(2, None).program().start is None
    assert len(values) > 1


def test_a_setup_that_fails_is_reported_where_it_fails(tmp_path: Path) -> None:
    game = write(tmp_path, HEAD + """var n = 0
play {
  set n = 1 // 0
  turns from 1 until n >= 2 {
    choose {
      action "up" { set n = n + 1 }
    }
  }
}
""")
    with pytest.raises(RulesetRuntimeError) as err:
        game.new_game(2)
    assert game.instance(2, None).program().start is None
    assert err.value.diagnostics[0].location.line == 9      # set n = 1 // 0


def test_a_long_prefix_means_no_start(tmp_path: Path) -> None:
    """More than PROBE_LIMIT instructions before the first draw: the games run from
    the first instruction, the same as ever."""
    game = write(tmp_path, HEAD + """var n = 0
play {
  while n < 20000 {
    set n = n + 1
  }
  turns from random(players) until n >= 20002 {
    choose {
      action "up" { set n = n + 1 }
    }
  }
}
""")
    st = game.new_game(2, seed=3)
    assert game.instance(2, None).program().start is None
    assert st.position.vars["n"] == 20000
    assert {int(game.new_game(2, seed=s).current_player) for s in range(20)} == {0, 1}


def test_the_prefix_and_the_rest_share_one_budget(tmp_path: Path) -> None:
    """From scratch the seed-free prefix and the flow after it run in one budget of
    loop elements; a game begun from the start spends the same one."""
    game = write(tmp_path, HEAD + """var x = 0
var a = 0
var b = 0
play {
  set a = count([i for i in 1..600000 if i > 0])
  let s = random(players)
  set b = count([i for i in 1..600000 if i > 0])
  turns from s until x > 3 {
    choose {
      action "up" { set x = x + 1 }
    }
  }
}
""")
    with pytest.raises(RulesetRuntimeError, match="over their budget") as started:
        game.new_game(2, seed=1)
    assert game.instance(2, None).program().start
    with pytest.raises(RulesetRuntimeError, match="over their budget") as scratch:
        from_scratch(game, 2, 1)
    assert str(started.value) == str(scratch.value)


def test_a_draw_inside_a_define_keeps_its_position(tmp_path: Path) -> None:
    """random() called through a define, before and after the start: each chance
    event is located at the statement that drew it, as from scratch."""
    game = write(tmp_path, HEAD + """define one() = random([5])
define die() = random(1..6)
var x = 0
var v = 0
play {
  set v = one()
  turns from random(players) until x > 6 {
    choose {
      action "a" { set x = x + die() }
      action "b" { set x = x + 1 }
    }
    set v = one()
  }
}
""")
    started = game.new_game(2, seed=5)
    play_both(started, from_scratch(game, 2, 5), 5, 20)
    events = [e for e in started.to_json()["history"] if "chance" in e]
    assert events[0]["at"] == [12, 3]                  # set v = one(), in the prefix
    assert {tuple(e["at"]) for e in events} >= {(12, 3), (13, 3)}
