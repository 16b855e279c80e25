"""Narration: ``say "TEXT" [to PLAYERS]`` (docs/language.md, `say`).

* the text's names take their values when it is said; pieces are named only to
  players who can see them; ``to`` limits who is told;
* a narration is a history entry that survives ``to_json``/``state_from_json``
  and changes nothing else in the game;
* mistakes are located errors.
"""

from __future__ import annotations

import pytest

import rulepack
from rulepack.story import describe_entries, step
from rulepack.cli.render import event_text
from rulepack.engine.actions import Narration
from rulepack.errors import RulepackError

SAYER = """\
game sayer {
  players 3
}
use piecepack (tile)
zone stack: stack
zone hand: pile per player seen by owner
var draws = 0
setup {
  move tile to stack face down
  shuffle stack
  say "the stack holds {stack}"
}
play {
  turns from 0 until draws == 3 {
    choose {
      action "draw" {
        let t = top of stack
        move t to hand[current]
        set draws = draws + 1
        say "{current} draws {t}"
        say "you drew {t} (draw {draws})" to current
        say "north and east only" to [0, 1]
      }
    }
  }
}
"""

GAME = rulepack.loads(SAYER)


def texts(events, viewer):
    return [event_text(e, ["player 1", "player 2", "player 3"], viewer).plain for e in events]


def test_each_player_is_told_what_they_may_know():
    state = GAME.new_game(3, seed=0)
    drawn = state.position.zones[1][-1]                   # the top of the stack
    seen = step(state, state.legal_actions()[0], [0, 1, 2])
    assert texts(seen[0], 0) == [f"player 1 (you): draw → {drawn.name}",
                                 f"» player 1 draws {drawn.name}",
                                 f"» you drew {drawn.name} (draw 1)",
                                 "» north and east only"]
    assert texts(seen[1], 1) == ["player 1: draw", "» player 1 draws a tile",
                                 "» north and east only"]
    assert texts(seen[2], 2) == ["player 1: draw", "» player 1 draws a tile"]


def test_a_narration_is_history_kept_by_to_json_and_changes_nothing_else():
    state = GAME.new_game(3, seed=1)
    start = describe_entries(state, state.history, None)
    assert [e.text for e in start if e.kind == "say"] == ["the stack holds stack"]
    state.apply(state.legal_actions()[0])
    said = [e for e in state.history if isinstance(e, Narration)]
    assert [n.to for n in said] == [None, None, (0,), (0, 1)]
    assert said[2].values["draws"] == 1
    again = GAME.state_from_json(state.to_json())
    assert [e for e in again.history if isinstance(e, Narration)] == said
    quiet = rulepack.loads("\n".join(line for line in SAYER.splitlines()
                                     if not line.strip().startswith("say")))
    other = quiet.new_game(3, seed=1)
    other.apply(other.legal_actions()[0])
    assert other.to_json()["zones"] == state.to_json()["zones"]
    assert other.to_json()["variables"] == state.to_json()["variables"]


@pytest.mark.parametrize("line, message", [
    ('say "{t.suit}"', "say mentions {t.suit}: write a name in braces"),
    ('say "{tt}"', "unknown name 'tt'"),
    ('say "{t"', "bad text '{t'"),
])
def test_bad_texts_are_located_errors(line: str, message: str):
    with pytest.raises(RulepackError) as info:
        rulepack.loads(SAYER.replace('say "north and east only" to [0, 1]', line))
    diag = info.value.diagnostics[0]
    assert message in diag.message
    assert diag.location.line == 22


def test_telling_something_else_than_players_fails_at_run_time():
    game = rulepack.loads(SAYER.replace("to [0, 1]", "to [t]"))
    state = game.new_game(3, seed=0)
    with pytest.raises(RulepackError) as info:
        state.apply(state.legal_actions()[0])
    assert "say ... to needs players, not" in info.value.diagnostics[0].message
