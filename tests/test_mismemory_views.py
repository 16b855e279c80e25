"""What each player of Mismemory may know: views and masked action texts.

Ruling Y2: a flipped tile is seen by everyone; a tile turned back is face down
again, and no view names it — its finder's included (remembering is the
player's job; views hold no history). When a player collects, "the others see
which cell, not which tile". The collected tiles are their owner's secret; in
the blind variant (Y4) they are hidden from the owner too, until a claim or a
challenge reveals them.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from rulepack.agents.bots import Decision
from rulepack.engine.queries import describe_for

try:
    from mismemory_positions import (board_map, cell_of, collected, collected_index, empty_cells,
                                     flip_pair, game, position, texts, tile_id)
except ImportError:  # tests/ imported as a package
    from tests.mismemory_positions import (board_map, cell_of, collected, collected_index,
                                           empty_cells, flip_pair, game, position, texts,
                                           tile_id)


def ids_in(data: Any) -> set[int]:
    """Every piece id a view holds: ``{"id": n, ...}`` entries and ``{"piece": n}``
    tags of the flow variables."""
    out: set[int] = set()
    if isinstance(data, dict):
        for key in ("id", "piece"):
            if isinstance(data.get(key), int) and not isinstance(data.get(key), bool):
                out.add(data[key])
        for v in data.values():
            out |= ids_in(v)
    elif isinstance(data, list):
        for v in data:
            out |= ids_in(v)
    return out


def reveals(state, player: int, name: str) -> bool:
    """Whether ``player``'s view identifies the tile ``name`` anywhere."""
    view = state.view(player)
    return tile_id(state, name) in ids_in(view) or name in json.dumps(view)


def cell_entry(state, player: int, cell: str):
    cells = state.view(player)["zones"]["board"]["cells"]
    return next(c["piece"] for c in cells if c["cell"] == cell)


def pile(state, viewer: int, owner: int) -> dict:
    return state.view(viewer)["zones"][f"collected[player {owner + 1}]"]


# ====================================================================== turned back
@pytest.mark.parametrize("players", [2, 3])
def test_a_tile_turned_back_is_named_by_no_view(players):
    """Y2: "Otherwise ... both are turned face down where they were." Once turned back,
    no view — the finder's included — names either tile: the cells show hidden tiles."""
    state = position(players, board={"a1": "3 of suns", "d5": "3 of moons"}, current=0)
    flip_pair(state, "3 of suns", "3 of moons")
    assert state.current_player == 1                         # different suits: turned back
    for p in range(players):
        for name in ("3 of suns", "3 of moons"):
            assert not reveals(state, p, name), (p, name)
        assert cell_entry(state, p, "a1") == {"hidden": True, "kind": "tile"}
        assert cell_entry(state, p, "d5") == {"hidden": True, "kind": "tile"}
        assert state.view(p)["variables"]["first_tile"] is None


@pytest.mark.parametrize("blind", [False, True])
def test_a_declined_pair_is_named_by_no_view(blind):
    """Y2: "or if the player declines, both are turned face down where they were"."""
    state = position(3, blind=blind, board={"b2": "ace of arms", "e4": "5 of arms"}, current=2)
    flip_pair(state, "ace of arms", "5 of arms")
    for p in range(3):                                       # while deciding: seen by all
        assert reveals(state, p, "ace of arms") and reveals(state, p, "5 of arms")
    state.apply("turn both back")
    for p in range(3):
        assert not reveals(state, p, "ace of arms") and not reveals(state, p, "5 of arms")


# ====================================================================== collecting
@pytest.mark.parametrize("target", ["a1", "b1", "e5"])
def test_others_see_the_cell_but_not_the_tile(target):
    """Y2: "they secretly choose which eligible tile to keep, and put the other face down
    in any empty cell they choose (the others see which cell, not which tile)"."""
    state = position(3, board={"a1": "2 of moons", "b1": "5 of moons"},
                     collected_by={2: ["null of arms"]}, current=1)
    flip_pair(state, "2 of moons", "5 of moons")
    action = next(a for a in state.legal_actions()
                  if a.text == f"keep 5 of moons and put the other face down at {target}")
    state.apply(action)
    for other in (0, 2):
        # the cell that received the returned tile shows a hidden tile; the others are empty
        assert cell_entry(state, other, target) == {"hidden": True, "kind": "tile"}
        for vacated in {"a1", "b1", "e5"} - {target}:
            assert cell_entry(state, other, vacated) is None
        # neither tile is identified: not the kept one, not the returned one
        assert not reveals(state, other, "5 of moons")
        assert not reveals(state, other, "2 of moons")
        mover = pile(state, other, 1)
        assert mover["pieces"] == [] and mover["hidden"] == 1 and mover["count"] == 1
        # the action as the others may read it
        assert action.render(describe_for(state.position, other)) == \
            f"keep a tile and put the other face down at {target}"
    # the mover: their tile in their pile; the returned tile is face down for them too
    own = pile(state, 1, 1)
    assert [p["name"] for p in own["pieces"]] == ["5 of moons"] and own["hidden"] == 0
    assert cell_entry(state, 1, target) == {"hidden": True, "kind": "tile"}
    assert not reveals(state, 1, "2 of moons")
    assert action.render(describe_for(state.position, 1)) == action.text
    assert action.render(describe_for(state.position, None)) == action.text


def test_the_keep_decision_is_shown_in_full_to_the_decider_only():
    """The decider reads its keep options with the tiles named (both are face up then);
    no one else has a decision, so no one else sees options."""
    state = position(2, board={"a1": "2 of moons", "b1": "5 of moons"})
    flip_pair(state, "2 of moons", "5 of moons")
    shown = Decision(state, 0).actions
    assert "keep 5 of moons and put the other face down at a1" in shown
    assert state.view(0)["legal_actions"] == shown
    assert state.view(1)["legal_actions"] == []


@pytest.mark.parametrize("players", [2, 3])
def test_collected_tiles_are_never_in_another_players_view(players):
    """The collected tiles are their owner's secret (non-blind): over random games,
    after every action, no other player's view identifies a tile held face down in a
    collected pile, which shows them only as a count; its owner's view lists them; the
    history's keep actions read "keep a tile ..." for everyone else."""
    g = game()
    for seed in range(5):
        state = g.new_game(players, seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            state.apply(rng.choice(state.legal_actions()))
            # each player's view once per position (what it shows is checked for every pile)
            views = [state.view(viewer) for viewer in range(players)]
            texts = [json.dumps(view) for view in views]
            found = [ids_in(view) for view in views]
            for q in range(players):
                held = [p for p in state.position.zones[collected_index(state, q)]
                        if not state.position.face[p.id]]
                for viewer in range(players):
                    zone = views[viewer]["zones"][f"collected[player {q + 1}]"]
                    if viewer == q:
                        assert sorted(x["id"] for x in zone["pieces"]) == \
                            sorted(p.id for p in state.position.zones[collected_index(state, q)])
                        continue
                    assert zone["hidden"] == len(held)
                    for p in held:
                        assert p.id not in found[viewer] and p.name not in texts[viewer], \
                            (seed, viewer, p.name)
                        assert not any(p.name in t for t in views[viewer]["legal_actions"])
        for entry in state.history:
            if getattr(entry, "text", "").startswith("keep ") and hasattr(entry, "render"):
                kept = entry.values[0]
                if state.position.face[kept.id]:
                    continue                                     # shown at the end (Y3)
                for viewer in range(players):
                    if viewer != entry.player:
                        assert entry.render(describe_for(state.position, viewer)).startswith(
                            "keep a tile and put the other face down at ")


# ====================================================================== the blind variant
def test_blind_owner_sees_only_a_count_of_their_tiles():
    """Y4: "Blind variant: collected tiles are hidden from their owner too". Seed:
    "players aren't allowed to look at the tiles they have already collected"."""
    state = position(2, blind=True, board={"a1": "3 of suns", "b1": "4 of suns"},
                     collected_by={0: ["null of moons"]})
    flip_pair(state, "3 of suns", "4 of suns")
    action = next(a for a in state.legal_actions()
                  if a.text == "keep 4 of suns and put the other face down at b1")
    state.apply(action)
    for viewer in range(2):
        zone = pile(state, viewer, 0)
        assert zone["pieces"] == [] and zone["hidden"] == 2 and zone["count"] == 2
        for name in ("4 of suns", "null of moons", "3 of suns"):
            assert not reveals(state, viewer, name)
        # not even the history reminds the owner which tile they kept
        assert action.render(describe_for(state.position, viewer)) == \
            "keep a tile and put the other face down at b1"


def test_blind_tiles_stay_hidden_in_random_games():
    """Y4, over random blind games: while a collected tile is face down, no view —
    its owner's included — identifies it."""
    g = game()
    for seed in range(8):
        state = g.new_game(2 + seed % 2, seed, options={"blind": True})
        rng = random.Random(seed)
        while not state.is_terminal():
            legal = state.legal_actions()
            flips = [a for a in legal if a.text.startswith("flip")]
            state.apply(rng.choice(flips if flips and rng.random() < 0.95 else legal))
            views = [state.view(viewer) for viewer in range(state.program.num_players)]
            seen = [(ids_in(view), json.dumps(view)) for view in views]
            for q in range(state.program.num_players):
                held = [p for p in state.position.zones[collected_index(state, q)]
                        if not state.position.face[p.id]]
                for viewer, view in enumerate(views):
                    zone = view["zones"][f"collected[player {q + 1}]"]
                    assert zone["hidden"] == len(held)
                    found, text = seen[viewer]
                    assert not any(p.id in found or p.name in text for p in held)


def test_blind_claim_reveals_the_tiles_to_everyone():
    """Y4: "claim victory (reveal: ...)": the claim shows the tiles, to the owner too."""
    six = ["null of suns", "ace of moons", "2 of arms", "3 of crowns", "4 of suns", "5 of moons"]
    state = position(3, blind=True, collected_by={1: six}, current=1)
    assert pile(state, 1, 1)["pieces"] == []
    state.apply("claim victory")
    for viewer in range(3):
        zone = pile(state, viewer, 1)
        assert sorted(x["name"] for x in zone["pieces"]) == sorted(six) and zone["hidden"] == 0


def test_blind_challenge_reveals_then_the_tiles_go_back_face_down():
    """Y4: "the challenged reveals"; Y5: the tiles are then "put face down into empty
    cells". While they are being placed everyone sees them (they were shown); once on
    the board, face down, no view names them."""
    held = ["2 of suns", "2 of moons", "4 of arms"]
    state = position(3, blind=True, collected_by={2: held}, current=0)
    state.apply("challenge player 3")
    for viewer in range(3):
        assert sorted(x["name"] for x in pile(state, viewer, 2)["pieces"]) == sorted(held)
    while texts(state)[0].startswith("put "):
        state.apply(state.legal_actions()[0])
    assert collected(state, 2) == []
    for name in held:
        cell = cell_of(state, name)
        assert cell is not None
        for viewer in range(3):
            assert cell_entry(state, viewer, cell) == {"hidden": True, "kind": "tile"}
            assert not reveals(state, viewer, name)


def test_views_show_the_grid_with_coordinates_and_the_gap():
    """Y1: the view of the board is a grid with its coordinates; the gap in the centre
    of the 5x5 grid is no cell; an empty cell is ``None``."""
    state = position(2, collected_by={0: ["5 of arms"]})
    board = state.view(1)["zones"]["board"]
    assert board["kind"] == "grid" and (board["rows"], board["cols"]) == (5, 5)
    by_label = {c["cell"]: c for c in board["cells"]}
    assert "c3" not in by_label and len(by_label) == 24
    assert by_label["b4"]["row"] == 4 and by_label["b4"]["col"] == 2
    assert by_label[empty_cells(state)[0]]["piece"] is None
    assert sum(1 for n in board_map(state).values() if n) == 23
