"""The log's texts (rulepack/cli/events.py, rulepack/engine/sightings.py): a move's
text names every piece the viewer saw at any moment of it.

* a player's own face-up discard reads ``(you): discard <piece> face up``, in every
  bundled ruleset that discards face up, the discard that ends a round included;
* the fourth tile of a trick, played face up and gathered face down in the same
  step, is named to every player;
* the tile drawn is named to its drawer (``→ 4 of moons``), to nobody else;
* in random games of every bundled ruleset, a piece an action names that the
  viewer can see after the step is named in the viewer's text.
"""

from __future__ import annotations

import random

import pytest

import rulepack
from rulepack.cli.events import step
from rulepack.cli.render import event_text
from rulepack.loader import bundled_rulesets

#: the bundled rulesets whose players discard face up, and a player count
DISCARDING = {"multzo": 3}


def play(name: str, players: int, seed: int, pick=None):
    """Yield (state before, action, events per viewer) for a random game."""
    state = rulepack.load(name).new_game(players, seed=seed)
    rng = random.Random(seed)
    viewers = list(range(players))
    while not state.is_terminal():
        legal = state.legal_actions()
        action = (pick or (lambda ls, r: r.choice(ls)))(legal, rng)
        before = state.clone()
        events = step(state, action, viewers)
        yield before, state, action, events


@pytest.mark.parametrize("name", sorted(DISCARDING))
def test_an_own_face_up_discard_names_the_piece(name: str):
    seats = [f"player {p + 1}" for p in range(DISCARDING[name])]
    found = ended_round = 0
    for seed in range(3):
        for before, after, action, events in play(name, DISCARDING[name], seed):
            if not action.text.endswith("face up") or not action.text.startswith("discard"):
                continue
            found += 1
            for v, evs in events.items():
                line = event_text(evs[0], seats, v).plain
                who = seats[action.player] + (" (you)" if v == action.player else "")
                assert line == f"{who}: {action.text}", line
            ended_round += int(after.round != before.round)
    assert found > 10 and ended_round > 0


def test_the_fourth_tile_of_a_trick_is_named_to_everyone():
    checked = 0
    for before, after, action, events in play("partners", 4, 1):
        if before.zones[before.inst.zones[6].index] and len(
                before.zones[before.inst.zones[6].index]) == 3:      # the trick's 4th tile
            assert after.inst.zones[6].name == "trick" and not after.zones[6]
            for v in range(4):
                assert events[v][0].text == action.text, (v, events[v][0].text)
            checked += 1
    assert checked == 6


def test_the_drawn_tile_is_named_to_its_drawer_only():
    draws = 0
    for before, after, action, events in play("multzo", 2, 0):
        if action.text != "draw the top tile of the stack":
            continue
        drawn = before.zones[before.inst.zones[1].index][-1]       # the stack's top
        assert events[action.player][0].text == f"{action.text} → {drawn.name}"
        assert events[1 - action.player][0].text == action.text
        draws += 1
    assert draws > 5


@pytest.mark.parametrize("name", bundled_rulesets())
def test_a_piece_seen_after_the_step_is_named(name: str):
    game = rulepack.load(name)
    players = game.min_players
    for before, after, action, events in play(name, players, 2):
        for v in range(players):
            text = events[v][0].text
            for value in action.values:
                pieces = value if isinstance(value, (list, tuple)) else [value]
                for p in pieces:
                    if type(p).__name__ == "Piece" and after.visible(p, v):
                        assert p.name in text, (name, v, action.text, text)
