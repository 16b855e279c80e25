"""The log's texts (rulepack/story.py, rulepack/engine/sightings.py): a move's
text names every piece the viewer saw at any moment of it.

* a player's own face-up discard reads ``(you): discard <piece> face up``, in every
  bundled ruleset that discards face up, the discard that ends a round included;
* the fourth tile of a trick, played face up and gathered face down in the same
  step, is named to every player;
* the tile drawn is named to its drawer (``→ 4 of moons``), to nobody else;
* in random games of every bundled ruleset, a piece an action names that the
  viewer can see after the step is named in the viewer's text;
* for each bundled ruleset, the exact text each viewer reads of the moves that
  show or hide pieces, written out from its rules (Multzo's face-down discard and
  showdown, PackKub's draw, play and meld, Mismemory's flip and keep (blind too,
  where the keeper does not see it either), Multiplay's claim, Partners'
  play, Ladders' turn and climb, Pig's rolls, and the open games' moves).
"""

from __future__ import annotations

import random

import pytest

from rulepack.story import step
from rulepack.cli.render import event_text
from rulepack.loader import bundled_rulesets
from rulepack.engine.inspect import round_number
from rulepack.engine.queries import cell_of, visible

try:
    from bundled import bundled
except ImportError:  # tests/ imported as a package
    from tests.bundled import bundled


#: the bundled rulesets whose players discard face up, and a player count
DISCARDING = {"multzo": 3}


def play(name: str, players: int, seed: int, pick=None):
    """Yield (state before, action, events per viewer) for a random game."""
    state = bundled(name).new_game(players, seed=seed)
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
            ended_round += int(round_number(after) != round_number(before))
    assert found > 10 and ended_round > 0


def test_the_fourth_tile_of_a_trick_is_named_to_everyone():
    checked = 0
    for before, after, action, events in play("partners", 4, 1):
        if before.position.zones[before.program.zones[6].index] and len(
                before.position.zones[before.program.zones[6].index]) == 3:      # the trick's 4th tile
            assert after.program.zones[6].name == "trick" and not after.position.zones[6]
            for v in range(4):
                assert events[v][0].text == action.text, (v, events[v][0].text)
            checked += 1
    assert checked == 6


def test_the_drawn_tile_is_named_to_its_drawer_only():
    draws = 0
    for before, after, action, events in play("multzo", 2, 0):
        if action.text != "draw the top tile of the stack":
            continue
        drawn = before.position.zones[before.program.zones[1].index][-1]       # the stack's top
        assert events[action.player][0].text == f"{action.text} → {drawn.name}"
        assert events[1 - action.player][0].text == action.text
        draws += 1
    assert draws > 5


@pytest.mark.parametrize("name", bundled_rulesets())
def test_a_piece_seen_after_the_step_is_named(name: str):
    game = bundled(name)
    players = game.min_players
    for before, after, action, events in play(name, players, 2):
        for v in range(players):
            text = events[v][0].text
            for value in action.values:
                pieces = value if isinstance(value, (list, tuple)) else [value]
                for p in pieces:
                    if type(p).__name__ == "Piece" and visible(after.position, p, v):
                        assert p.name in text, (name, v, action.text, text)


# ---------------------------------------------------------------------- exact texts
# For each bundled ruleset, the text each viewer reads of the moves that show or
# hide pieces, written out from the rules: who may see the piece at some moment
# of the move (docs/rulings.md and the rulesets' zone declarations).

def texts(events, v) -> list[str]:
    return [e.text for e in events[v]]


def everyone_reads(events, players: int, text: str) -> None:
    for v in range(players):
        assert texts(events, v)[0] == text, v


def zone(state, label: str) -> list:
    return state.position.zones[next(z.index for z in state.program.zones if z.label == label)]


def test_multzo_a_face_down_discard_is_named_to_its_owner_only():
    # a hand is seen by its owner; "discard ... face down" hides the tile from
    # the others, so they read "a tile" -- unless the tile was drawn from the
    # face-up discards (it stays face up in the hand, seen by all)
    found = public = 0
    for seed in range(3):
        for before, after, action, events in play("multzo", 3, seed):
            if not action.text.endswith("face down to end the round"):
                continue
            (tile,) = action.values
            known = before.position.face[tile.id]
            for v in range(3):
                shown = tile.name if v == action.player or known else "a tile"
                assert texts(events, v)[0] == f"discard {shown} face down to end the round"
            found += 1
            public += known
    assert found >= 3 and 0 < public < found


def test_multzo_a_showdown_names_the_tiles_every_player_saw_revealed():
    # "All players reveal their four tiles" before the categories are scored, so
    # every tile a narration names was seen by every player, though the next
    # round gathers them face down in the same step
    found = 0
    for seed in range(2):
        state = bundled("multzo").new_game(2, seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            action = rng.choice(state.legal_actions())
            events = step(state, action, [0, 1, None])
            told = [e.text for e in events[None] if e.kind == "say" and " with " in e.text]
            for v in (0, 1):
                mine = [e.text for e in events[v] if e.kind == "say" and " with " in e.text]
                assert mine == told
            assert not any("a tile" in t for t in told)
            found += len(told)
    assert found >= 5


def test_multzo_a_tile_drawn_from_the_discards_is_named_to_everyone():
    found = 0
    for seed in range(4):
        for before, after, action, events in play("multzo", 3, seed):
            if action.text.startswith("draw") and action.values:
                (tile,) = action.values
                everyone_reads(events, 3, f"draw {tile.name} from the discards")
                found += 1
    assert found >= 3


def test_packkub_a_drawn_tile_is_named_to_its_drawer_only():
    found = 0
    for before, after, action, events in play("packkub", 3, 0):
        if action.text != "draw a tile":
            continue
        drawn = zone(before, "pile")[-1]                  # "move top of pile to hand"
        for v in range(3):
            tail = f" → {drawn.name}" if v == action.player else ""
            assert texts(events, v)[0] == "draw a tile" + tail
        found += 1
    assert found >= 10


def test_packkub_played_and_melded_tiles_are_named_to_everyone():
    # "play" moves a tile from the hand to the face-up 'played' row; the meld
    # says which tiles were laid: all of them face up, seen by every player
    plays = melds = 0
    for before, after, action, events in play("packkub", 2, 0):
        if action.text.startswith("play "):
            (tile,) = action.values
            everyone_reads(events, 2, f"play {tile.name}")
            plays += 1
        elif action.text == "meld the played tiles":
            laid = ", ".join(t.name for t in zone(before, "played"))
            who = f"player {action.player + 1}"
            for v in (0, 1):
                assert texts(events, v)[:2] == [
                    "meld the played tiles", f"{who} melds {laid}; the table is arranged anew"]
            melds += 1
    assert plays >= 5 and melds >= 2


@pytest.mark.parametrize("blind", [False, True])
def test_mismemory_the_kept_tile_is_named_to_its_keeper_only_who_sees_it(blind):
    # both tiles of the pair were face up; one goes to the keeper's collection
    # face down, the other face down to a cell: the others cannot tell which one
    # was kept ("a tile"); the keeper sees its collection, except in the blind
    # variant, where "collected tiles are hidden from their owner too" (ruling
    # Y4) and the log does not remember for them; a sixth rank wins, and the
    # winner shows the collection to everyone
    state_options = {"blind": blind}
    found = 0
    for seed in range(4):
        state = bundled("mismemory").new_game(2, seed=seed, options=state_options)
        rng = random.Random(seed)
        while not state.is_terminal():
            action = rng.choice(state.legal_actions())
            events = step(state, action, [0, 1])
            if action.text.startswith("keep "):
                kept, cell = action.values
                won = state.is_terminal()
                for v in (0, 1):
                    shown = kept.name if (v == action.player and not blind) or won \
                        else "a tile"
                    assert texts(events, v)[0] == \
                        f"keep {shown} and put the other face down at {cell}"
                found += 1
    assert found >= 3


def test_mismemory_a_flipped_tile_is_revealed_to_everyone():
    found = 0
    for before, after, action, events in play("mismemory", 3, 1):
        if not action.text.startswith("flip the tile at "):
            continue
        (cell,) = action.values
        tile = before.position.zones[cell.zone][cell.slot]
        for v in range(3):
            assert texts(events, v)[:2] == [action.text, f"revealed in board: {tile.name}"]
        found += 1
    assert found >= 10


def test_multiplay_a_claimed_cube_is_named_to_everyone():
    found = 0
    for before, after, action, events in play("multiplay", 3, 0):
        if action.text.startswith("claim "):
            ((cube, cell),) = action.values
            assert cell_of(before.position, cube) is cell
            everyone_reads(events, 3, f"claim {cube.name} at {cell}")
            found += 1
    assert found >= 20


def test_partners_every_tile_played_is_named_to_everyone():
    found = 0
    for before, after, action, events in play("partners", 4, 2):
        (tile,) = action.values
        everyone_reads(events, 4, f"play {tile.name}")
        found += 1
    assert found == 24


def test_ladders_the_turned_tile_is_named():
    turned = climbed = 0
    for before, after, action, events in play("ladders", 1, 0):
        if action.text == "turn the next tile":
            top = zone(before, "stock")[-1]          # "move top of stock to waste face up"
            assert texts(events, 0)[0] == f"turn the next tile → {top.name}"
            turned += 1
        elif action.text.startswith("climb "):
            (tile,) = action.values
            assert texts(events, 0)[0] == f"climb {tile.name}"
            climbed += 1
    assert turned >= 10 and climbed >= 1


@pytest.mark.parametrize("name", ["tic-tac-toe", "connect-four"])
def test_open_games_read_the_same_to_everyone(name):
    # every piece is face up: each player reads the action's own text
    for before, after, action, events in play(name, 2, 0):
        assert texts(events, 0)[0] == texts(events, 1)[0] == action.text


def test_pig_every_roll_is_told_to_everyone_with_its_face():
    # the die lies face up on the table: every player sees what each roll shows
    rolls = 0
    for before, after, action, events in play("pig", 3, 0):
        if action.text != "roll the die":
            continue
        die = after.program.kind_pieces["die"][0]
        for v in range(3):
            told = [e.text for e in events[v] if e.kind == "chance"]
            assert told[0] == f"roll {die.name}: {after.position.rolled[die.id]}"
        rolls += 1
    assert rolls >= 20


def test_the_table_viewer_is_told_what_every_seat_is_told():
    """rulepack.story.TABLE (a spectator at the table): in random games of every
    bundled ruleset, each step's lines for the table name only pieces every seat may
    see before or after the step, and a narration told to some seats only is not
    told to it; its line of a draw is the other seats' line (Multzo)."""
    from rulepack.engine.sightings import apply_watched
    from rulepack.story import TABLE, line
    for name in bundled_rulesets():
        game = bundled(name)
        n = game.min_players
        state = game.new_game(n, seed=7)
        rng = random.Random(7)
        every = state.program.pieces
        for _ in range(40):
            if state.is_terminal():
                break
            action = rng.choice(state.legal_actions())
            trial = state.clone()
            during = apply_watched(trial, action, [TABLE])[TABLE]
            saw = {p.name for p in every if visible(state.position, p, TABLE)}
            saw |= {every[i].name for i in during}
            told = step(state, action, list(range(n)) + [TABLE])
            saw |= {p.name for p in every if visible(state.position, p, TABLE)}
            text = " | ".join(line(e, [], TABLE) for e in told[TABLE])
            for piece in sorted(every, key=lambda p: -len(p.name)):
                if piece.name in saw:
                    text = text.replace(piece.name, "")
            hidden = [p.name for p in every if p.name not in saw and p.name in text]
            assert not hidden, (name, hidden)
            says = [e.text for e in told[TABLE] if e.kind == "say"]
            for e in says:       # told to the table: told to every seat
                assert all(e in [x.text for x in told[s] if x.kind == "say"] for s in range(n))
    multzo = bundled("multzo").new_game(2, seed=5)
    draw = next(a for a in multzo.legal_actions() if "draw" in a.text)
    drawer = multzo.current_player
    told = step(multzo, draw, [0, 1, TABLE])
    assert [e.text for e in told[TABLE]] == [e.text for e in told[1 - drawer]]
    assert "→" in told[drawer][0].text and "→" not in told[TABLE][0].text
    assert line(told[TABLE][0], ["ann", "bo"], TABLE) == \
        f"{['ann', 'bo'][drawer]}: draw the top tile of the stack"
    assert line(told[drawer][0], ["ann", "bo"], drawer).startswith(
        f"{['ann', 'bo'][drawer]} (you): draw the top tile of the stack → ")


def test_visible_ids_is_the_set_of_pieces_visible_to_the_viewer():
    """rulepack.engine.queries.visible_ids (the story's sight of every piece, per zone)
    is ``visible`` asked of each piece: every seat and the table, at every decision
    of random games of every bundled ruleset (stacks, hands, face-down piles)."""
    from rulepack.engine.queries import visible_ids
    from rulepack.story import TABLE
    for name in bundled_rulesets():
        game = bundled(name)
        n = game.min_players
        state = game.new_game(n, seed=11)
        rng = random.Random(11)
        for _ in range(60):
            st = state.position
            for v in [*range(n), TABLE]:
                want = {p.id for p in st.program.pieces if visible(st, p, v)}
                assert visible_ids(st, v) == want, (name, v, state.decisions)
            if state.is_terminal():
                break
            state.apply(rng.choice(state.legal_actions()))
