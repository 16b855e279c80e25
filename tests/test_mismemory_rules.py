"""Mismemory (Antonio Recuenco Muñoz), rule by rule.

Each test quotes the sentence of seeds/mismemory.md or the ruling of RULINGS.md
(Y1-Y5, G1-G3) it checks, and checks the outcome the rule demands: where the
tiles are and which face they show, which actions are offered to whom, who has
collected what, when the game ends and who wins. Positions are hand-built from
real states with tests/mismemory_positions.py. The property tests at the end play
random games of every grid and both variants.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from rulepack.errors import OptionError
from rulepack.engine.state import Action, ChanceEvent, Reveal

try:
    from mismemory_positions import (GRIDS, RANKS, SHAPES, SUITS, TILE_NAMES,
                                     board_index, board_map, cell_labels, cell_of, collected,
                                     collected_index, empty_cells, face_up, face_up_names,
                                     flip_cells, flip_pair, game, keep_texts, position, ranks,
                                     texts, tile_id)
except ImportError:  # tests/ imported as a package
    from tests.mismemory_positions import (GRIDS, RANKS, SHAPES, SUITS, TILE_NAMES,
                                           board_index, board_map,
                                           cell_labels, cell_of, collected, collected_index,
                                           empty_cells, face_up, face_up_names, flip_cells,
                                           flip_pair, game, keep_texts, position, ranks, texts,
                                           tile_id)

TURN_BACK = "turn both back"
CLAIM = "claim victory"

#: Six tiles, one of each rank (G1: null, ace, 2, 3, 4, 5), in mixed suits.
SIX = ["null of suns", "ace of moons", "2 of arms", "3 of crowns", "4 of suns", "5 of moons"]


@pytest.fixture(scope="module")
def g():
    return game()


def new(g, players=2, seed=0, **options):
    return g.new_game(players, seed, options=options)


def keeps(kept: str, cells) -> set[str]:
    return {f"keep {kept} and put the other face down at {c}" for c in cells}


def play_placements(state, expected_placers: list[int] | None = None) -> list[int]:
    """Take the "put ... face down at ..." decisions of a disqualification (the
    first tile and the first empty cell each time); returns who decided each."""
    deciders = []
    while not state.is_terminal() and texts(state)[0].startswith("put "):
        assert all(t.startswith("put ") for t in texts(state))
        deciders.append(state.current_player)
        state.apply(state.legal_actions()[0])
    if expected_placers is not None:
        assert deciders == expected_placers
    return deciders


# ====================================================================== G1: the components
def test_g1_all_24_piecepack_tiles(g):
    """"All 24 Piecepack tiles." G1: "suits Suns, Moons, Crowns, Arms; ranks null, ace,
    2, 3, 4, 5; one tile ... per suit and rank." Mismemory uses no coins."""
    state = new(g)
    assert sorted(p.name for p in state.program.pieces) == sorted(TILE_NAMES)
    assert {p.kind for p in state.program.pieces} == {"tile"}
    assert Counter(p.attrs["suit"] for p in state.program.pieces) == {s: 6 for s in SUITS}
    assert Counter(str(p.attrs["rank"]) for p in state.program.pieces) == {r: 4 for r in RANKS}


# ====================================================================== Y1: set-up
@pytest.mark.parametrize("players", [2, 3])
def test_y1_two_or_three_players(g, players):
    """Y1: "2–3 players." Seed: "A memory game for 2-3 players"."""
    state = new(g, players)
    assert state.program.num_players == players
    assert state.view(0)["seats"] == [f"player {i + 1}" for i in range(players)]
    assert len([z for z in state.program.zones if z.name == "collected"]) == players


@pytest.mark.parametrize("players", [1, 4])
def test_y1_other_player_counts_are_refused(g, players):
    """Y1: "2–3 players"."""
    with pytest.raises(OptionError):
        g.new_game(players, 0)


@pytest.mark.parametrize("grid", GRIDS)
def test_y1_grid_shapes_have_24_cells(g, grid):
    """Y1: "Grid option: 5×5 with an empty centre (default), 4×6 or 6×4, or a line of
    24." Seed: "the grid can be regular (such as 5x5 with a gap in the centre, 4x6 or
    6x4, 12x2 or 2x12... or even a straight line)"."""
    state = new(g, grid=grid)
    rows, cols = SHAPES[grid]
    board = state.view(0)["zones"]["board"]
    assert (board["rows"], board["cols"]) == (rows, cols)
    labels = [c["cell"] for c in board["cells"]]
    letters = "abcdefghijklmnopqrstuvwx"
    every = [f"{letters[c]}{r + 1}" for r in range(rows) for c in range(cols)]
    if grid == "5x5":
        assert "c3" not in labels                          # the gap in the centre
        assert labels == [lab for lab in every if lab != "c3"]
    else:
        assert labels == every
    assert len(labels) == 24
    assert all(c["piece"] is not None for c in board["cells"])   # every cell holds a tile


def test_y1_default_grid_is_5x5_with_a_gap(g):
    """Y1: "5×5 with an empty centre (default)"."""
    state = g.new_game(2, 0)
    assert state.program.options["grid"] == "5x5"
    assert state.program.options["blind"] is False
    assert "c3" not in cell_labels(state) and len(cell_labels(state)) == 24
    assert "c3" not in flip_cells(state)


@pytest.mark.parametrize("bad", [{"grid": "7x7"}, {"grid": "12x2"}, {"grid": ""},
                                 {"grid": 5}, {"blind": "maybe"}, {"size": "5x5"}])
def test_y1_bad_option_values_are_refused(g, bad):
    """Y1 lists the grids the engine offers; anything else is an option error."""
    with pytest.raises(OptionError):
        g.new_game(2, 0, options=bad)


@pytest.mark.parametrize("grid", GRIDS)
def test_y1_all_tiles_face_down_and_shuffled(g, grid):
    """Y1: "All 24 tiles face down, shuffled". Seed: "The tiles are placed grid-side
    up on the table". The layout is a chance event fixed by the seed."""
    layouts = set()
    for seed in range(8):
        state = new(g, 2, seed, grid=grid)
        bm = board_map(state)
        assert sorted(bm.values()) == sorted(TILE_NAMES)
        assert face_up_names(state) == set()
        for p in range(2):
            cells = state.view(p)["zones"]["board"]["cells"]
            assert all(c["piece"] == {"hidden": True, "kind": "tile"} for c in cells)
        assert any(isinstance(h, ChanceEvent) and h.kind == "shuffle" for h in state.history)
        layouts.add(tuple(bm.values()))
        assert board_map(new(g, 2, seed, grid=grid)) == bm      # the same seed, the same layout
    assert len(layouts) == 8                                   # seed-dependent


@pytest.mark.parametrize("players", [2, 3])
def test_y1_first_player_is_random(g, players):
    """Y1: "the first player is random." Seed: "The starting player will be determined
    at random." (G3: a chance event.)"""
    firsts = Counter()
    for seed in range(60):
        state = new(g, players, seed)
        chance = [h for h in state.history if isinstance(h, ChanceEvent) and h.kind == "random"]
        assert len(chance) == 1 and chance[0].outcome == state.current_player
        firsts[state.current_player] += 1
    assert set(firsts) == set(range(players))
    assert min(firsts.values()) >= 60 // players // 3


@pytest.mark.parametrize("players", [2, 3])
def test_turn_passes_to_the_left(g, players):
    """Seed: "After this, it is the turn of the player on their left." (seat order)"""
    state = position(players, board={"a1": "3 of suns", "b1": "3 of moons",
                                     "c1": "4 of suns", "d1": "4 of moons",
                                     "e1": "5 of suns", "a2": "5 of moons"}, current=1)
    order = []
    for a, b in [("3 of suns", "3 of moons"), ("4 of suns", "4 of moons"),
                 ("5 of suns", "5 of moons")]:
        order.append(state.current_player)
        flip_pair(state, a, b)
    assert order == [(1 + k) % players for k in range(3)]


# ====================================================================== Y2: a turn
def test_y2_two_flips_are_two_decisions(g):
    """Y2: "flip one face-down tile (everyone sees it), then flip a second." The second
    flip is a decision taken after the first tile is seen: it offers only the other
    face-down cells."""
    state = position(3, board={"b2": "2 of crowns"}, current=1)
    all_cells = flip_cells(state)
    assert len(all_cells) == 24 and state.current_player == 1
    state.apply("flip the tile at b2")
    assert state.current_player == 1                        # the same player decides again
    assert face_up(state, "2 of crowns")
    assert flip_cells(state) == [c for c in all_cells if c != "b2"]
    assert all(t.startswith("flip the tile at ") for t in texts(state))
    for p in range(3):                                      # "everyone sees it"
        cells = {c["cell"]: c["piece"] for c in state.view(p)["zones"]["board"]["cells"]}
        assert cells["b2"]["name"] == "2 of crowns" and cells["b2"]["face"] == "up"
        assert sum(1 for c in cells.values() if not c.get("hidden")) == 1
    assert isinstance(state.history[-1], Reveal)
    assert [p.name for p in state.history[-1].pieces] == ["2 of crowns"]


def test_y2_second_tile_is_seen_by_everyone(g):
    """Seed: "each player will flip 2 tiles on the grid, leaving them suit-face up for
    everyone to see." Both are face up in every view while the player decides."""
    state = position(3, board={"a1": "3 of suns", "e5": "4 of suns"})
    flip_pair(state, "3 of suns", "4 of suns")
    assert state.current_player == 0 and keep_texts(state)
    for p in range(3):
        cells = {c["cell"]: c["piece"] for c in state.view(p)["zones"]["board"]["cells"]}
        assert cells["a1"]["name"] == "3 of suns" and cells["e5"]["name"] == "4 of suns"


def test_y2_same_suit_offers_keep_either_and_turn_back(g):
    """Y2: "If both are the same suit and at least one of them has a rank the player has
    not collected, the player may collect: they secretly choose which eligible tile to
    keep, and put the other face down in any empty cell they choose". The cells offered:
    the empty cells and the two cells the pair leaves."""
    state = position(2, board={"a1": "3 of suns", "d4": "ace of suns"},
                     collected_by={0: ["null of moons"], 1: ["5 of arms"]}, empty=["b5", "e5"])
    assert set(empty_cells(state)) == {"b5", "e5"}
    flip_pair(state, "3 of suns", "ace of suns")
    cells = {"a1", "d4", "b5", "e5"}
    assert set(texts(state)) == keeps("3 of suns", cells) | keeps("ace of suns", cells) | {
        TURN_BACK}


def test_y2_different_suits_are_turned_back_without_a_decision(g):
    """Y2: "If both are the same suit ... Otherwise ... both are turned face down where
    they were." No decision is offered: the next player's turn begins."""
    state = position(2, board={"a1": "3 of suns", "b1": "3 of moons"}, current=0)
    before = board_map(state)
    flip_pair(state, "3 of suns", "3 of moons")
    assert state.current_player == 1
    assert all(t.startswith("flip the tile at ") for t in texts(state))
    assert board_map(state) == before
    assert face_up_names(state) == set()
    assert collected(state, 0) == [] and collected(state, 1) == []


def test_y2_declining_turns_both_back(g):
    """Seed: "If the player can't (or doesn't want to) collect a tile, the tiles won't be
    removed from the grid, but simply flipped back with their grid-side up." Y2: "or if
    the player declines, both are turned face down where they were"."""
    state = position(3, board={"c2": "2 of arms", "a5": "4 of arms"}, current=2)
    before = board_map(state)
    flip_pair(state, "2 of arms", "4 of arms")
    state.apply(TURN_BACK)
    assert board_map(state) == before
    assert not face_up(state, "2 of arms") and not face_up(state, "4 of arms")
    assert all(collected(state, p) == [] for p in range(3))
    assert state.current_player == 0                        # the turn has passed


def test_y2_a_held_rank_cannot_be_kept(g):
    """Y2: "at least one of them has a rank the player has not collected ... they
    secretly choose which eligible tile to keep". Seed: "provided they haven't already
    collected another tile before with the same number". Only the tile of a new rank
    may be kept."""
    state = position(2, board={"a1": "3 of suns", "b1": "4 of suns"},
                     collected_by={0: ["3 of moons"]})
    flip_pair(state, "3 of suns", "4 of suns")
    cells = {"a1", "b1"} | set(empty_cells(state))
    assert set(keep_texts(state)) == keeps("4 of suns", cells)
    assert TURN_BACK in texts(state)
    # the rank held by the *other* player does not matter
    other = position(2, board={"a1": "3 of suns", "b1": "4 of suns"},
                     collected_by={1: ["3 of moons", "4 of moons"]})
    flip_pair(other, "3 of suns", "4 of suns")
    assert {t.split(" and ")[0] for t in keep_texts(other)} == {"keep 3 of suns",
                                                                 "keep 4 of suns"}


def test_y2_both_ranks_held_means_no_collection(g):
    """Y2: "Otherwise" (no eligible tile) "both are turned face down where they were."
    Seed: "If the player can't ... collect a tile ... flipped back"."""
    state = position(2, board={"a1": "3 of suns", "b1": "4 of suns"},
                     collected_by={0: ["3 of moons", "4 of arms"]}, current=0)
    before = board_map(state)
    flip_pair(state, "3 of suns", "4 of suns")
    assert state.current_player == 1                        # no decision: the turn passed
    assert board_map(state) == before and face_up_names(state) == set()
    assert sorted(collected(state, 0)) == ["3 of moons", "4 of arms"]


@pytest.mark.parametrize("target", ["a1", "b1", "e5"])
def test_y2_keep_one_put_the_other_face_down_in_the_chosen_cell(g, target):
    """Seed: "The player will remove both tiles from the grid, choose secretly which tile
    to keep and place the other tile face-down in any gap in the grid." Y2: "put the
    other face down in any empty cell they choose". The kept tile goes to the player's
    collected tiles; the cell chosen gets the other one, face down; the other cell the
    pair left stays empty."""
    state = position(2, board={"a1": "2 of moons", "b1": "5 of moons"},
                     collected_by={0: ["null of arms"]}, current=1)
    assert empty_cells(state) == ["e5"]
    flip_pair(state, "2 of moons", "5 of moons")
    state.apply(f"keep 5 of moons and put the other face down at {target}")
    assert collected(state, 1) == ["5 of moons"]
    assert not face_up(state, "5 of moons")                 # kept secretly, face down
    assert state.position.loc[tile_id(state, "5 of moons")] == collected_index(state, 1)
    assert cell_of(state, "2 of moons") == target
    assert not face_up(state, "2 of moons")
    assert set(empty_cells(state)) == {"a1", "b1", "e5"} - {target}
    assert cell_of(state, "5 of moons") is None
    assert sum(1 for n in board_map(state).values() if n) == 22    # 24 - 2 collected
    assert state.current_player == 0                        # then the next player's turn


def test_y2_the_first_tile_may_be_the_one_kept(g):
    """Y2: "they secretly choose which eligible tile to keep" — either of the two."""
    state = position(3, board={"d2": "null of crowns", "a4": "ace of crowns"}, current=0)
    flip_pair(state, "null of crowns", "ace of crowns")
    state.apply("keep null of crowns and put the other face down at d2")
    assert collected(state, 0) == ["null of crowns"]
    assert cell_of(state, "ace of crowns") == "d2" and "a4" in empty_cells(state)


def test_y2_a_kept_tile_counts_as_held_later(g):
    """Seed: "provided they haven't already collected another tile before with the same
    number": a rank collected during the game blocks later tiles of that rank."""
    state = position(2, board={"a1": "2 of moons", "b1": "5 of moons",
                               "c1": "5 of suns", "d1": "null of suns"}, current=0)
    flip_pair(state, "2 of moons", "5 of moons")
    state.apply("keep 5 of moons and put the other face down at b1")
    flip_pair(state, "2 of moons", "5 of suns")            # player 2: different suits
    flip_pair(state, "5 of suns", "null of suns")          # player 1 again
    assert {t.split(" and ")[0] for t in keep_texts(state)} == {"keep null of suns"}


def test_y2_the_empty_centre_is_not_a_cell(g):
    """Y1: "5×5 with an empty centre": the gap in the centre is no cell, so the other
    tile can never be put there."""
    state = position(2, board={"a1": "3 of suns", "b1": "4 of suns"})
    flip_pair(state, "3 of suns", "4 of suns")
    assert not any(t.endswith(" at c3") for t in texts(state))


# ====================================================================== Y3: winning
def test_y3_six_ranks_win_at_once(g):
    """Y3: "A player who holds all six ranks wins at once." Seed: "When a player has
    collected all six tiles for their winning sequence (0-A-2-3-4-5), they will show
    them to the other players and end the game." Goal: "collect exactly six tiles to
    build a complete sequence of numbers (0 to 5), regardless of suit"."""
    five = ["null of suns", "ace of moons", "2 of arms", "3 of crowns", "4 of suns"]
    state = position(3, board={"b4": "5 of crowns", "e1": "ace of crowns"},
                     collected_by={1: five, 0: ["5 of suns"]}, current=1)
    flip_pair(state, "5 of crowns", "ace of crowns")
    assert {t.split(" and ")[0] for t in keep_texts(state)} == {"keep 5 of crowns"}
    state.apply("keep 5 of crowns and put the other face down at b4")
    assert state.is_terminal()
    result = state.result()
    assert result["winners"] == [1] and not result["draw"]
    assert result["returns"] == [0.0, 1.0, 0.0]
    assert sorted(collected(state, 1)) == sorted(five + ["5 of crowns"])
    # "they will show them to the other players"
    assert all(face_up(state, n) for n in collected(state, 1))
    reveal = state.history[-1]
    assert isinstance(reveal, Reveal) and reveal.zone == "collected[player 2]"
    assert sorted(p.name for p in reveal.pieces) == sorted(collected(state, 1))
    for p in range(3):
        shown = state.view(p)["zones"]["collected[player 2]"]
        assert sorted(x["name"] for x in shown["pieces"]) == sorted(collected(state, 1))
        assert shown["hidden"] == 0
    # the other players' tiles stay hidden from their opponents
    assert state.view(1)["zones"]["collected[player 1]"]["hidden"] == 1
    assert state.legal_actions() == []


def test_y3_five_ranks_do_not_win(g):
    """Y3 asks for all six ranks: five are not enough, the game goes on."""
    state = position(2, board={"b4": "4 of crowns", "e1": "ace of crowns"},
                     collected_by={0: ["null of suns", "2 of arms", "3 of crowns", "5 of moons"]})
    flip_pair(state, "4 of crowns", "ace of crowns")
    state.apply("keep 4 of crowns and put the other face down at b4")
    assert not state.is_terminal() and state.current_player == 1


def test_y3_blind_variant_does_not_end_by_itself(g):
    """Y4 (blind): collected tiles are hidden from their owner too, so no one can "show
    them" unasked; the ruleset's reading is that in the blind variant a player with
    six ranks must claim victory (Y4) — the game does not end on its own."""
    five = ["null of suns", "ace of moons", "2 of arms", "3 of crowns", "4 of suns"]
    state = position(2, blind=True, board={"b4": "5 of crowns", "e1": "ace of crowns"},
                     collected_by={0: five})
    flip_pair(state, "5 of crowns", "ace of crowns")
    state.apply("keep 5 of crowns and put the other face down at b4")
    assert not state.is_terminal() and state.current_player == 1
    state.apply("flip the tile at a1")
    state.apply("flip the tile at " + next(c for c in flip_cells(state)
                                           if board_map(state)[c].split(" of ")[1]
                                           != board_map(state)["a1"].split(" of ")[1]))
    assert state.current_player == 0 and CLAIM in texts(state)
    state.apply(CLAIM)
    assert state.result()["winners"] == [0]


# ====================================================================== Y4: the blind variant
def test_y4_blind_hides_the_collected_tiles_from_their_owner(g):
    """Y4: "collected tiles are hidden from their owner too". Seed: "players aren't
    allowed to look at the tiles they have already collected"."""
    state = position(2, blind=True, board={"a1": "3 of suns", "b1": "4 of suns"})
    flip_pair(state, "3 of suns", "4 of suns")
    state.apply("keep 4 of suns and put the other face down at a1")
    for p in range(2):
        pile = state.view(p)["zones"]["collected[player 1]"]
        assert pile["pieces"] == [] and pile["hidden"] == 1 and pile["count"] == 1


def test_y4_blind_a_held_rank_may_be_collected(g):
    """Y4: "the engine no longer stops a player from collecting a rank they already
    hold"."""
    state = position(2, blind=True, board={"a1": "3 of suns", "b1": "4 of suns"},
                     collected_by={0: ["3 of moons", "4 of arms"]})
    flip_pair(state, "3 of suns", "4 of suns")
    assert {t.split(" and ")[0] for t in keep_texts(state)} == {"keep 3 of suns",
                                                                 "keep 4 of suns"}
    state.apply("keep 3 of suns and put the other face down at b1")
    assert sorted(collected(state, 0)) == ["3 of moons", "3 of suns", "4 of arms"]


def test_y4_claim_and_challenge_only_in_the_blind_variant_before_flipping(g):
    """Y4: "On their turn, before flipping, a player may instead either claim victory
    ... or challenge another active player"."""
    plain = position(3)
    assert all(t.startswith("flip the tile at ") for t in texts(plain))
    blind = position(3, blind=True, current=1)
    assert texts(blind)[-3:] == [CLAIM, "challenge player 1", "challenge player 3"]
    assert "challenge player 2" not in texts(blind)          # not oneself
    blind.apply("flip the tile at a1")                       # after flipping: no longer
    assert all(t.startswith("flip the tile at ") for t in texts(blind))


def test_y4_blind_board_with_one_tile_left_offers_only_claims_and_challenges(g):
    """In the blind variant a player may collect repeated ranks, so the board can run
    down to one tile: no pair can be flipped then, and a turn is a claim or a challenge
    (Y4); the game still has a legal action."""
    held0 = [n for n in TILE_NAMES if "suns" in n or "moons" in n]          # 12 tiles
    held1 = [n for n in TILE_NAMES if "crowns" in n or "arms" in n][:11]
    state = position(2, blind=True, collected_by={0: held0, 1: held1})
    assert sum(1 for n in board_map(state).values() if n) == 1
    assert texts(state) == [CLAIM, "challenge player 2"]
    state.apply("challenge player 2")                   # no repeat? 11 tiles, 6 ranks: repeats
    assert state.position.active == [True, False]
    play_placements(state, [0] * 11)
    assert state.result()["winners"] == [0]


def test_y4_true_claim_wins(g):
    """Y4: "claim victory (reveal: six distinct ranks wins ...)"."""
    state = position(3, blind=True, collected_by={2: SIX, 0: ["5 of suns"]}, current=2)
    state.apply(CLAIM)
    assert state.is_terminal() and state.result()["winners"] == [2]
    assert all(face_up(state, n) for n in SIX)               # revealed
    for p in range(3):
        shown = state.view(p)["zones"]["collected[player 3]"]["pieces"]
        assert sorted(x["name"] for x in shown) == sorted(SIX)


@pytest.mark.parametrize("extra", [["4 of arms"], ["4 of arms", "null of moons"]])
def test_y4_claim_with_a_repeated_rank_is_disqualified(g, extra):
    """Y4: "claim victory (reveal: ... a repeated rank is disqualified)" — six distinct
    ranks plus a repeat is still a repeat (the goal is "exactly six tiles")."""
    state = position(2, blind=True, collected_by={0: SIX + extra})
    state.apply(CLAIM)
    assert state.position.active == [False, True]
    play_placements(state, [1] * len(SIX + extra))
    assert state.is_terminal() and state.result()["winners"] == [1]


def test_y4_claim_with_five_ranks_is_disqualified(g):
    """Y4 names a repeated rank; the ruleset also disqualifies a claim that shows no
    repeat but fewer than six ranks (a false claim — the project's decision, stated in
    the ruleset where Y4 is silent)."""
    state = position(3, blind=True, collected_by={0: SIX[:5]}, current=0)
    state.apply(CLAIM)
    assert state.position.active == [False, True, True]
    assert not state.is_terminal()


def test_y4_challenged_without_a_repeat_wins_at_once(g):
    """Y4: "challenge another active player (the challenged reveals: no repeated rank
    wins at once ...)". Seed: "if there are no repeated numbers/letters, the challenged
    player automatically wins the game"."""
    held = ["null of suns", "3 of moons", "5 of arms"]
    state = position(3, blind=True, collected_by={1: held, 0: ["3 of suns", "3 of arms"]},
                     current=0)
    state.apply("challenge player 2")
    assert state.is_terminal() and state.result()["winners"] == [1]
    assert all(face_up(state, n) for n in held)
    assert not face_up(state, "3 of suns")                   # the challenger shows nothing


def test_y4_challenged_with_no_tiles_wins(g):
    """The seed's words taken literally: a challenged player with no tiles has "no
    repeated numbers", so wins (Y4)."""
    state = position(2, blind=True, collected_by={0: ["2 of suns"]}, current=0)
    state.apply("challenge player 2")
    assert state.result()["winners"] == [1]


def test_y4_challenged_with_a_repeat_is_disqualified(g):
    """Y4: "a repeated rank is disqualified". Seed: "If there are, the challenged player
    is disqualified." The tiles are shown (flipped up) before they go back."""
    held = ["2 of suns", "2 of moons", "4 of arms"]
    state = position(3, blind=True, collected_by={2: held}, current=0)
    state.apply("challenge player 3")
    assert state.position.active == [True, True, False] and not state.is_terminal()
    reveal = [h for h in state.history if isinstance(h, Reveal)][-1]
    assert reveal.zone == "collected[player 3]"
    assert sorted(p.name for p in reveal.pieces) == sorted(held)


# ====================================================================== Y5: disqualification
def test_y5_other_players_put_the_tiles_back_one_at_a_time_in_turn_order(g):
    """Y5: "A disqualified player's tiles are put face down into empty cells by the
    other active players, one tile at a time in turn order, each choosing the cell."
    Seed: "their tiles repositioned in free gaps in the grid by the other players, each
    player placing one at a time". Turn order starts after the disqualified player."""
    held = ["2 of suns", "2 of moons", "4 of arms", "null of crowns"]
    state = position(3, blind=True, collected_by={1: held, 2: ["5 of suns"]}, current=2)
    state.apply("challenge player 2")                        # player 3 challenges player 2
    empties = set(empty_cells(state))
    assert len(empties) == 5                                 # 24 cells, 5 tiles collected
    chosen: dict[str, str] = {}
    deciders = []
    while texts(state)[0].startswith("put "):
        deciders.append(state.current_player)
        left = collected(state, 1)
        free = empty_cells(state)
        # every tile left and every empty cell: the placer chooses the cell (and the tile)
        assert set(texts(state)) == {f"put {t} face down at {c}" for t in left for c in free}
        tile, cell = left[-1], free[len(free) // 2]
        state.apply(f"put {tile} face down at {cell}")
        chosen[cell] = tile
    assert deciders == [2, 0, 2, 0]                          # after player 2: 3, 1, 3, 1
    assert collected(state, 1) == []
    for cell, tile in chosen.items():
        assert board_map(state)[cell] == tile and not face_up(state, tile)
    assert set(empty_cells(state)) == empties - set(chosen)
    # the game goes on with the next active player after the challenger
    assert not state.is_terminal() and state.current_player == 0
    assert "challenge player 2" not in texts(state)          # no longer active
    assert "challenge player 3" in texts(state)


def test_y5_false_claim_placements_start_after_the_claimant(g):
    """Y5 with the claimant disqualified: the placements start with the player after
    them, and the turn passes to that player."""
    state = position(3, blind=True, collected_by={0: ["ace of suns", "ace of moons", "5 of arms"]},
                     current=0)
    state.apply(CLAIM)
    play_placements(state, [1, 2, 1])
    assert not state.is_terminal() and state.current_player == 1
    assert face_up_names(state) == set()


def test_y5_disqualified_player_gets_no_more_turns(g):
    """Y5: a disqualified player is out: turns skip them."""
    state = position(3, blind=True, collected_by={1: ["2 of suns", "2 of moons"]}, current=0)
    state.apply("challenge player 2")
    play_placements(state)
    seen = []
    for _ in range(6):
        seen.append(state.current_player)
        state.apply(f"flip the tile at {flip_cells(state)[0]}")
        state.apply(f"flip the tile at {flip_cells(state)[0]}")
        if TURN_BACK in texts(state):                        # a pair: decline
            state.apply(TURN_BACK)
    assert seen == [2, 0, 2, 0, 2, 0]                       # player 2 is skipped


def test_y5_two_players_a_disqualification_ends_the_game(g):
    """Y5: "If one active player remains, they win." With two players the other one
    wins: they alone put the tiles back, then the game ends."""
    state = position(2, blind=True, collected_by={1: ["2 of suns", "2 of moons", "3 of arms"]},
                     current=0)
    state.apply("challenge player 2")
    play_placements(state, [0, 0, 0])
    assert state.is_terminal()
    assert state.result()["winners"] == [0] and not state.result()["draw"]
    assert sum(1 for n in board_map(state).values() if n) == 24


def test_y5_last_player_standing_wins(g):
    """Y5: "If one active player remains, they win." Three players, two disqualified in
    sequence: the third wins."""
    state = position(3, blind=True, collected_by={1: ["2 of suns", "2 of moons"],
                                                  2: ["ace of arms", "ace of suns", "3 of suns"]},
                     current=0)
    state.apply("challenge player 2")                        # player 2 out
    play_placements(state, [2, 0])
    assert state.current_player == 2                         # player 3's turn
    state.apply(CLAIM)                                       # a false claim: player 3 out
    play_placements(state, [0, 0, 0])
    assert state.is_terminal()
    assert state.result()["winners"] == [0]
    assert state.position.active == [True, False, False]


def test_y5_all_disqualified_is_a_draw(g):
    """Y5: "if none remains, the game is a draw." Seed: "If all players get disqualified,
    the game ends in a draw." (G2.)

    Through play this cannot happen: a player is only disqualified by a claim or a
    challenge, which disqualifies exactly one player, and the game ends as soon as a
    disqualification leaves a single active player — so a turn never starts with fewer
    than two active players, and at least one always remains. (The seed's rule covers
    table play, where several players could be caught at once.) The rule is checked on a
    state built so that the last active player is disqualified: player 1, alone in the
    game, makes a false claim."""
    state = position(3, blind=True, collected_by={0: ["ace of suns", "ace of moons"]},
                     active=[True, False, False], current=0)
    assert state.current_player == 0 and CLAIM in texts(state)
    assert not any(t.startswith("challenge") for t in texts(state))   # nobody to challenge
    state.apply(CLAIM)
    assert state.is_terminal()
    result = state.result()
    assert result["draw"] is True and result["winners"] == []
    assert result["returns"] == [0.0, 0.0, 0.0]
    assert state.position.active == [False, False, False]


def test_y5_all_disqualified_is_unreachable_in_random_blind_games(g):
    """The argument of the previous test, checked on play: whenever the game ends, at
    least one player is active, and every disqualification leaves at least one."""
    for seed in range(60):
        state = g.new_game(2 + seed % 2, seed, options={"blind": True})
        rng = random.Random(seed)
        while not state.is_terminal():
            assert sum(state.position.active) >= 1
            state.apply(rng.choice(state.legal_actions()))
        assert sum(state.position.active) >= 1
        assert state.result()["winners"] and not state.result()["draw"]


# ====================================================================== properties
def _pick(rng: random.Random, state, bold: float) -> Action:
    """A random legal action; claims and challenges only with probability ``bold``
    (so blind games last long enough to exercise collecting)."""
    legal = state.legal_actions()
    flips = [a for a in legal if a.text.startswith("flip ")]
    if flips and rng.random() > bold:
        return rng.choice(flips)
    return rng.choice(legal)


def _conserved(state) -> None:
    """Every tile exactly once: on the board or in a collected pile (none in the box)."""
    where = Counter()
    for z in state.position.zones:
        for p in z:
            if p is not None:
                where[p.id] += 1
    assert sorted(where) == list(range(24)) and set(where.values()) == {1}
    assert state.position.zones[0] == []                              # the box is empty
    bi = board_index(state)
    on_board = sum(1 for p in state.position.zones[bi] if p is not None)
    held = sum(len(state.position.zones[collected_index(state, p)]) for p in range(state.program.num_players))
    assert on_board + held == 24
    assert all(state.position.loc[p.id] == zi for zi, z in enumerate(state.position.zones) for p in z if p)


def _random_game(players: int, seed: int, grid: str, blind: bool, bold: float = 0.05,
                 check=None, limit: int = 3000):
    state = game().new_game(players, seed, options={"grid": grid, "blind": blind})
    rng = random.Random(seed * 7 + 1)
    taken = []
    for _ in range(limit):
        if state.is_terminal():
            break
        action = _pick(rng, state, bold)
        taken.append(action.text)
        state.apply(action)
        if check:
            check(state)
    assert state.is_terminal(), f"no end after {limit} decisions"
    return state, taken


@pytest.mark.parametrize("blind", [False, True])
@pytest.mark.parametrize("grid", GRIDS)
def test_property_random_games_end_and_conserve_tiles(g, grid, blind):
    """Random games end, in every grid and both variants, 2 and 3 players; the 24 tiles
    are conserved after every action; a non-blind player never holds a repeated rank
    and wins exactly with six; a winner is always an active player."""
    def check(state):
        _conserved(state)
        if not blind:
            for p in range(state.program.num_players):
                held = ranks(collected(state, p))
                assert len(held) == len(set(held)) <= 6
    for seed in range(10 * GRIDS.index(grid), 10 * GRIDS.index(grid) + 6):
        state, _ = _random_game(2 + seed % 2, seed, grid, blind, check=check)
        winners = state.result()["winners"]
        assert winners and all(state.position.active[w] for w in winners)
        if not blind:
            (w,) = winners
            assert sorted(ranks(collected(state, w))) == sorted(RANKS)


def test_property_blind_random_games_with_frequent_claims_end(g):
    """Blind games where claims and challenges are common end too (and conserve tiles)."""
    for seed in range(40):
        _random_game(2 + seed % 2, seed, GRIDS[seed % 4], True, bold=0.5, check=_conserved)


@pytest.mark.parametrize("blind", [False, True])
def test_property_determinism_by_seed(g, blind):
    """One seed fixes the game: the same seed and the same choices give the same states;
    another seed another layout."""
    for seed in range(4):
        a, ta = _random_game(3, seed, "4x6", blind)
        b, tb = _random_game(3, seed, "4x6", blind)
        assert ta == tb
        ja, jb = a.to_json(), b.to_json()
        assert ja == jb
    firsts = {tuple(board_map(g.new_game(2, s, options={"blind": blind})).values())
              for s in range(5)}
    assert len(firsts) == 5


def test_property_clone_and_json_continue_identically(g):
    """A clone and a state rebuilt from JSON mid-game continue exactly as the original."""
    for seed in range(4):
        state = g.new_game(2, seed, options={"blind": seed % 2 == 1})
        rng = random.Random(seed)
        for _ in range(15):
            if state.is_terminal():
                break
            state.apply(_pick(rng, state, 0.05))
        copies = [state.clone(), g.state_from_json(state.to_json())]
        rng_state = rng.getstate()
        for s in [state] + copies:
            rng.setstate(rng_state)
            while not s.is_terminal():
                s.apply(_pick(rng, s, 0.05))
        final = state.to_json()
        for s in copies:
            other = s.to_json()
            for key in ("zones", "face_up", "active", "winners", "decisions"):
                assert other[key] == final[key], key
