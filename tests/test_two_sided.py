"""Two-sided pieces (docs/language.md, component: `up shows`, `down shows`).

* a face-up coin shows only its rank, a face-down one only its suit, to a player
  who cannot identify it; a zone seen by the player shows both sides;
* action texts and the log name what the side up shows ("a coin showing 3");
* a bot's state rebuilt from a view (determinization) shows the same view, in
  every position of random games (hypothesis): the sides are respected;
* mistakes are located errors; ordinary pieces are unchanged.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rulepack
from rulepack.agents.determinize import determinize
from rulepack.engine.rng import Rng
from rulepack.errors import RulepackError

COINS = """\
game coins {
  players 2
}
component coin {
  called "{rank} of {suit} coin"
  suit: suns, moons
  rank: 1..3
  up shows rank
  down shows suit
}
zone table: row
zone purse: pile per player seen by owner
zone pot: pile
setup {
  move coin to table face down
  shuffle table
}
play {
  turns from 0 until count(table) == 0 {
    choose {
      action "flip {c}" for c in table if c.face == down {
        flip c
      }
      action "take {c}" for c in table if c.face == up {
        move c to purse[current]
      }
      action "pot {c}" for c in table if c.face == up {
        move c to pot
      }
    }
  }
}
"""

GAME = rulepack.loads(COINS)


def test_each_side_shows_its_attributes_only():
    state = GAME.new_game(2, seed=3)
    table = state.view(0)["zones"]["table"]["pieces"]
    assert all(p["hidden"] and p["face"] == "down" and set(p["shows"]) == {"suit"}
               for p in table)
    assert sorted(p["shows"]["suit"] for p in table) == ["moons"] * 3 + ["suns"] * 3
    first = state.position.zones[state.program.zones[1].index][0]      # the table's first coin
    state.apply(state.legal_actions()[0])                                          # flip it: the number side
    shown = state.view(1)["zones"]["table"]["pieces"][0]
    assert shown == {"hidden": True, "kind": "coin", "face": "up",
                     "shows": {"rank": first.attrs["rank"]},
                     "look": f"coin showing {first.attrs['rank']}"}
    assert "id" not in shown and "name" not in shown and "suit" not in shown
    texts = [a for a in state.view(1)["legal_actions"] if a.startswith("take")]
    assert texts == [f"take a coin showing {first.attrs['rank']}"]


def test_a_zone_seen_by_its_owner_shows_both_sides():
    state = GAME.new_game(2, seed=0)
    state.apply(state.legal_actions()[0])
    state.apply(next(a for a in state.legal_actions() if a.text.startswith("take")))
    purse = state.view(1)["zones"]["purse[player 2]"]
    assert purse["pieces"][0]["name"].endswith("coin") and purse["hidden"] == 0
    other = state.view(0)["zones"]["purse[player 2]"]
    look = other["hidden_kinds"]
    assert other["pieces"] == [] and list(look.values()) == [1]
    assert list(look)[0].startswith("coin showing ")


def test_the_rules_read_every_attribute():
    text = COINS.replace('action "pot {c}" for c in table if c.face == up',
                         'action "pot {c}" for c in table if c.face == up and c.suit == suns')
    state = rulepack.loads(text).new_game(2, seed=5)
    state.apply(state.legal_actions()[0])
    flipped = state.position.zones[state.program.zones[1].index][0]
    pots = [a for a in state.legal_actions() if a.text.startswith("pot")]
    assert len(pots) == (1 if flipped.attrs["suit"] == "suns" else 0)


@settings(max_examples=10, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), choices=st.integers(0, 2**32))
def test_a_rebuilt_state_shows_the_same_view(seed: int, choices: int):
    state = GAME.new_game(2, seed=seed)
    rng = random.Random(choices)
    while not state.is_terminal():
        for p in range(2):
            view = state.view(p)
            rebuilt = determinize(state.program, view, Rng(choices))
            assert json.dumps(rebuilt.view(p), sort_keys=True) == json.dumps(view, sort_keys=True)
        state.apply(rng.choice(state.legal_actions()))


def test_an_unknown_attribute_is_a_located_error():
    with pytest.raises(RulepackError) as info:
        rulepack.loads(COINS.replace("up shows rank", "up shows value"))
    diag = info.value.diagnostics[0]
    assert "'up shows value': coin has no attribute 'value' (it has suit, rank)" in diag.message
    assert diag.location.line == 4


def test_ordinary_pieces_look_like_their_back():
    state = rulepack.load("multzo").new_game(2, seed=0)
    hand = state.view(0)["zones"]["hand[player 2]"]
    assert hand["hidden_kinds"] == {"tile": 4}
