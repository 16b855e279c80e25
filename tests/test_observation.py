"""What a player observes of a step (rulepack.agents.observation), and the
information-set search that branches on it.

* A flip is observed by the tile it shows: equal keys when the same tile turns up,
  different keys when another does, whatever lies in the cells not flipped.
* A step that moves pieces out of a player's sight is observed as that player
  sees it: keeping one tile of a pair or the other looks the same to the
  opponent (same cell, same pile count), not to the player who kept it; no key
  holds the id of a piece its player cannot see.
* ``ismcts`` branches on what a flip shows (one outcome node per tile seen),
  ``observe=false`` does not.
"""

from __future__ import annotations

import rulepack
from rulepack.agents.determinize import Sampler
from rulepack.agents.observation import observe, watch
from rulepack.agents.bots import Decision
from rulepack.agents.search import Search, SearchOptions, masked_key
from rulepack.engine.rng import Rng
from rulepack.engine.queries import visible

try:
    from mismemory_positions import board_index, position, tile_id
except ImportError:  # pragma: no cover - run from the repository root
    from tests.mismemory_positions import board_index, position, tile_id


def _observed(state, text, player):
    action = next(a for a in state.legal_actions() if a.text == text)
    start = watch(state)
    state.apply(action)
    return observe(state, start, player)


def _ids(key):
    """The piece ids in a key: the whole numbers in what each zone shows."""
    return set().union(*(_numbers(contents) for _, contents in key))


def _numbers(key):
    if isinstance(key, bool):
        return set()
    if isinstance(key, int):
        return {key}
    if isinstance(key, tuple):
        return set().union(*(_numbers(k) for k in key)) if key else set()
    return set()


def test_a_flip_is_observed_by_the_tile_it_shows():
    three = position(board={"b2": "3 of suns", "d4": "4 of moons"})
    again = position(board={"b2": "3 of suns", "d4": "null of arms", "a1": "4 of moons"})
    four = position(board={"b2": "4 of suns", "d4": "4 of moons"})
    assert three.view(0) == again.view(0) == four.view(0)     # all face down
    keys = [_observed(st.clone(), "flip the tile at b2", p) for st in (three, again, four)
            for p in (0, 1)]
    assert keys[0] == keys[1] == keys[2] == keys[3]            # the same tile shows
    assert keys[4] == keys[5] != keys[0]                       # another one
    assert tile_id(three, "3 of suns") in _ids(keys[0])
    assert board_index(three) == keys[0][0][0]                 # the board is what changed


def test_the_opponent_sees_the_same_pile_and_cell_whichever_tile_was_kept():
    """Player 2 flips a pair and keeps one; the other goes face down to b2 (where
    the 3 lay). Player 1 observes a face-down tile at b2 and one more hidden tile
    in player 2's pile, whichever was kept; player 2 observes which. No key holds
    the id of a tile its player cannot see."""
    keys = []
    for keep in ("3 of suns", "4 of suns"):
        st = position(2, board={"b2": "3 of suns", "d4": "4 of suns"}, current=1)
        _observed(st, "flip the tile at b2", 0)
        _observed(st, "flip the tile at d4", 0)
        text = f"keep {keep} and put the other face down at b2"
        pair = []
        for player in (0, 1):
            after = st.clone()
            key = _observed(after, text, player)
            hidden = {p.id for p in after.program.pieces if not visible(after.position, p, player)}
            assert not _ids(key) & hidden, (keep, player)
            pair.append(key)
        keys.append(pair)
    (mine_a, theirs_a), (mine_b, theirs_b) = keys
    assert mine_a == mine_b
    assert theirs_a != theirs_b


def _search(state, player, observing, iterations=150):
    view = Decision(state, player).view
    sampler = Sampler(state.program, view, Rng(1))
    search = Search(sampler.sample, player, masked_key, SearchOptions(iterations=iterations),
                    Rng(2), observe=observing)
    return search.run()


def test_ismcts_branches_on_what_a_flip_shows():
    state = position(board={"b2": "3 of suns", "d4": "4 of suns"})
    root = _search(state, 0, True)
    branched = [child for child in root.children.values() if child.outcomes]
    assert branched
    for child in branched:
        # one outcome per tile the flip may show (all 24 are unseen): never merged
        assert len(child.outcomes) <= 24
        assert len(child.outcomes) == len({k for k in child.outcomes})
    assert max(len(child.outcomes) for child in branched) > 1
    flat = _search(state, 0, False)
    assert all(child.outcomes is None for child in flat.children.values())


def test_the_search_with_observations_is_deterministic():
    state = position(board={"b2": "3 of suns", "d4": "4 of suns"})
    first = _search(state, 0, True, 60)
    second = _search(state, 0, True, 60)
    assert {k: (c.visits, c.reward) for k, c in first.children.items()} == \
        {k: (c.visits, c.reward) for k, c in second.children.items()}


def test_another_players_secret_choice_does_not_branch_the_searchers_later_nodes():
    """Player 2 has flipped a pair and chooses which tile to keep; player 1
    searches. "keep 3 ... at c" and "keep 4 ... at c" are player 2's own choices
    (their statistics stay apart), but what follows is keyed by the action as
    player 1 reads it afterwards, "keep a tile ... at c": no later node of player
    1 knows which tile was kept."""
    state = position(2, board={"b2": "3 of suns", "d4": "4 of suns"}, current=1)
    for text in ("flip the tile at b2", "flip the tile at d4"):
        state.apply(next(a for a in state.legal_actions() if a.text == text))
    root = _search(state, 0, True)
    keeps = [c for c in root.children.values() if c.action.text.startswith("keep ")]
    kept = {c.action.values[0].id for c in keeps}
    assert kept == {tile_id(state, "3 of suns"), tile_id(state, "4 of suns")}
    assert all(not c.outcomes for c in keeps)
    after = [k[1] for k in root.outcomes]
    assert after and all(values[0] == ("hidden", "tile") for _, _, values in after)
    # as many next nodes as cells the other tile went to, whichever was kept
    cells = {c.action.values[1] for c in keeps if c.visits}
    assert len({values[1] for _, _, values in after}) == len(cells)


def test_a_shared_cache_of_looks_changes_no_observation():
    """``observe(..., looks)``, the cache a search keeps over its iterations,
    gives every player the key it gets without one, step after step of random
    games (pieces turned face up and down, moved into and out of sight)."""
    import random

    import rulepack
    for name, players, options in (("mismemory", 2, None), ("multzo", 3, None),
                                   ("packkub", 2, {"rounds": 1})):
        state = rulepack.load(name).new_game(players, seed=3, options=options)
        rnd = random.Random(3)
        looks: dict = {}
        for _ in range(60):
            if state.is_terminal():
                break
            action = rnd.choice(state.legal_actions())
            before = state.clone()
            start = watch(state)
            state.apply(action)
            for p in range(players):
                again = before.clone()
                begin = watch(again)
                again.apply(action)
                assert observe(state, start, p, looks) == observe(again, begin, p)
        assert looks                       # the cache was used


def test_what_was_said_of_a_position_is_forgotten_when_it_changes():
    """A sampled game's observation and information state strings are of its
    position now: asked before an action, then after it, they differ (they were
    kept with the state and shown again, stale, after the action)."""
    state = rulepack.load("tic-tac-toe").new_game(2, seed=1)
    before = state.observation_string(0), state.information_state_string(0)
    state.apply(state.legal_actions()[0])
    after = state.observation_string(0), state.information_state_string(0)
    assert after[0] != before[0] and after[1] != before[1]
    assert after == (state.clone().observation_string(0), state.clone().information_state_string(0))
