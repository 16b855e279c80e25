"""PackKub (Mark A. Biggar, v1.1), rule by rule.

Each test quotes the sentence of seeds/packkub.txt or the ruling of RULINGS.md
(P1-P8, G2, G3) it checks, and checks the outcome the rule demands: which tiles
exist, which groups are melds, what may be played, what the table becomes, when
a round ends, what it scores and who wins. Positions are hand-built from real
states with tests/packkub_positions.py; melds are also checked against that
file's own reading of P2 and P8 (``oracle_meld``). The property tests at the
end play seeded random games.
"""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter

import pytest

import rulepack
from rulepack.errors import OptionError

try:
    from packkub_positions import (DRAW, END, MELD, PASS, RANKS, SIX_SUITS, SUITS,
                                   hand_index, hand_names, matches, names, oracle_meld,
                                   pattern, play_texts, position,
                                   table_group_names, table_groups, texts, zone_index)
except ImportError:  # tests/ imported as a package
    from tests.packkub_positions import (DRAW, END, MELD, PASS, RANKS, SIX_SUITS, SUITS,
                                         hand_index, hand_names, matches, names, oracle_meld,
                                         pattern, play_texts, position,
                                         table_group_names, table_groups, texts, zone_index)

GAME = rulepack.load("packkub")

#: A random two-player game of one round takes far fewer decisions than this.
MAX_DECISIONS = 3000

SEED_TABLE = [["3 of suns", "3 of moons", "3 of crowns"]]
SEED_HAND = ["3 of arms", "2 of suns", "4 of suns"]


@pytest.fixture(scope="module")
def game():
    return GAME


def six_pack_game(players: int = 2, **options):
    """A new Six Pack game (fails while the ruleset cannot build one)."""
    return GAME.new_game(players, 0, options={"six_pack": True, **options})


def play_all(state, tiles) -> None:
    for t in tiles:
        assert f"play {t}" in texts(state), (t, texts(state))
        state.apply(f"play {t}")


def tile_count(state) -> int:
    return sum(1 for p in state.program.pieces if p.kind == "tile")


# ====================================================================== P1: the tiles
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_p1_one_set_of_24_tiles_per_player(game, players):
    """Seed: "One set of piecepack tiles per player in the game." P1: "One full set
    of 24 tiles per player." Every suit and rank once per set, so with two or more
    players there are identical tiles; nothing else is used."""
    state = game.new_game(players, 0)
    pieces = state.program.pieces
    assert len(pieces) == 24 * players
    assert {p.kind for p in pieces} == {"tile"}
    counts = Counter((p.attrs["suit"], p.attrs["rank"]) for p in pieces)
    assert set(counts) == {(s, r) for s in SUITS for r in RANKS}
    assert set(counts.values()) == {players}          # identical tiles, one per set
    names_ = Counter(p.name for p in pieces)
    assert names_["3 of suns"] == players and names_["null of arms"] == players


@pytest.mark.parametrize("players", [2, 4, 6])
def test_setup_deals_four_tiles_each_the_rest_is_the_pile(game, players):
    """Seed: "Shuffle all the tiles face-down to form the draw pile. Deal four tiles
    face-down to each player." """
    state = game.new_game(players, 3)
    for p in range(players):
        assert len(state.position.zones[hand_index(state, p)]) == 4
    assert len(state.position.zones[zone_index(state, "pile")]) == 24 * players - 4 * players
    assert state.position.zones[zone_index(state, "table")] == []
    assert state.position.zones[zone_index(state, "played")] == []
    # the hands are secret: another player sees only how many tiles there are
    view = state.view(0)
    other = view["zones"]["hand[player 2]"]
    assert other["pieces"] == [] and other["hidden"] == 4
    assert len(view["zones"]["hand[player 1]"]["pieces"]) == 4


def test_p1_sequence_order_null_ace_2_to_5_no_wrapping(game):
    """P1: "Sequence order: null, ace, 2, 3, 4, 5; no wrapping." Seed: "consecutive
    values (ordered from null to 5) with no gaps"."""
    state = game.new_game(2, 0)
    assert matches(state, "sequence", ["null of suns", "ace of suns", "2 of suns"])
    assert matches(state, "sequence", ["3 of suns", "4 of suns", "5 of suns"])
    assert matches(state, "sequence", [f"{r} of moons" for r in RANKS])   # all six
    # no wrapping: 5 is not followed by null
    assert not matches(state, "sequence", ["5 of suns", "null of suns", "ace of suns"])
    assert not matches(state, "sequence", ["4 of suns", "5 of suns", "null of suns"])
    assert not matches(state, "meld", ["5 of suns", "null of suns", "ace of suns"])
    # ace sits between null and 2 (not after 5)
    assert not matches(state, "meld", ["4 of suns", "5 of suns", "ace of suns"])


# ====================================================================== P2: melds
def test_p2_seed_examples_are_melds(game):
    """Seed: "For example: 3 of suns, 3 of crowns and 3 of moons is a set meld, while
    2 of suns, 3 of suns and 4 of suns is a sequence meld." """
    state = game.new_game(2, 0)
    assert matches(state, "set_meld", ["3 of suns", "3 of crowns", "3 of moons"])
    assert matches(state, "meld", ["3 of suns", "3 of crowns", "3 of moons"])
    assert matches(state, "sequence", ["2 of suns", "3 of suns", "4 of suns"])
    assert matches(state, "meld", ["2 of suns", "3 of suns", "4 of suns"])
    # order of the tiles in the group does not matter
    assert matches(state, "meld", ["4 of suns", "2 of suns", "3 of suns"])


def test_p2_sets_of_three_or_four_different_suits(game):
    """P2: "Set meld: three or more tiles of one rank, all of different suits (so 3
    or 4)." """
    state = game.new_game(2, 0)
    assert matches(state, "set_meld", ["5 of suns", "5 of moons", "5 of crowns", "5 of arms"])
    assert matches(state, "meld", ["null of suns", "null of moons", "null of arms"])
    # a repeated suit (two identical tiles from two sets) is not a set
    assert not matches(state, "meld", ["3 of suns", "3 of suns", "3 of moons"])
    assert not matches(state, "meld", ["3 of suns", "3 of suns", "3 of moons", "3 of arms"])
    # two ranks
    assert not matches(state, "meld", ["3 of suns", "3 of moons", "4 of crowns"])
    # two tiles only: "A meld on the table always consists of at least three tiles."
    assert not matches(state, "meld", ["3 of suns", "3 of moons"])
    assert not matches(state, "meld", ["3 of suns"])


def test_p2_sequences_of_one_suit_without_gaps(game):
    """P2: "Sequence meld: three or more tiles of one suit with consecutive ranks
    (3 to 6)." """
    state = game.new_game(2, 0)
    assert matches(state, "meld", ["ace of arms", "2 of arms", "3 of arms", "4 of arms"])
    assert matches(state, "meld", ["ace of arms", "2 of arms", "3 of arms", "4 of arms",
                                   "5 of arms"])
    # a gap
    assert not matches(state, "meld", ["2 of suns", "3 of suns", "5 of suns"])
    assert not matches(state, "meld", ["null of suns", "2 of suns", "3 of suns"])
    # mixed suits
    assert not matches(state, "meld", ["2 of suns", "3 of moons", "4 of suns"])
    # a repeated rank
    assert not matches(state, "meld", ["2 of suns", "3 of suns", "3 of suns", "4 of suns"])
    # two tiles only
    assert not matches(state, "meld", ["2 of suns", "3 of suns"])


def _all_groups(kinds: list[tuple], sizes) -> list[tuple]:
    out = []
    for k in sizes:
        out += list(itertools.combinations_with_replacement(kinds, k))
    return out


def test_p2_meld_pattern_agrees_with_an_independent_reading(game):
    """P2 and P8, read independently (tests/packkub_positions.oracle_meld), agree
    with the ruleset's ``meld`` pattern on every group of up to four tiles (a tile
    at most twice, a joker at most twice) and on many random groups of five and six."""
    state = game.new_game(2, 0, options={"jokers": 2})
    by_type: dict[tuple, list] = {}
    for p in state.program.pieces:
        by_type.setdefault((p.kind, p.attrs.get("suit"), p.attrs.get("rank")), []).append(p)
    kinds = sorted(by_type, key=str)
    meld = pattern(state, "meld")
    checked = 0

    def check(group_types) -> None:
        nonlocal checked
        c = Counter(group_types)
        if any(n > len(by_type[t]) for t, n in c.items()):
            return
        taken = {t: list(by_type[t]) for t in c}
        group = [taken[t].pop() for t in group_types]
        assert meld.matches(state.position, group) == oracle_meld(group), names(group)
        checked += 1

    for g in _all_groups(kinds, range(1, 5)):
        check(g)
    rng = random.Random(2)
    tiles = [k for k in kinds if k[0] == "tile"]
    for _ in range(4000):
        size = rng.choice([5, 6])
        if rng.random() < 0.5:     # near-melds: one suit or one rank, some jokers
            suit, rank = rng.choice(SUITS), rng.choice(RANKS)
            pool = [k for k in tiles if k[1] == suit or k[2] == rank]
        else:
            pool = tiles
        g = [rng.choice(pool + [("joker", None, None)] * rng.randrange(2)) for _ in range(size)]
        check(tuple(g))
    assert checked > 20000


def test_p2_only_complete_melds_can_be_played(game):
    """P2 through legal play: a hand with no meld in it offers no play, only a
    draw; a hand holding duplicate suits of a rank cannot play them as a set."""
    state = position(game, {0: ["3 of suns", "3 of suns", "3 of moons", "2 of crowns",
                                "5 of crowns"]})
    assert texts(state) == [DRAW]
    state = position(game, {0: ["2 of suns", "3 of suns", "5 of suns", "3 of moons"]})
    assert texts(state) == [DRAW]
    state = position(game, {0: ["5 of suns", "null of suns", "ace of suns"]})   # wrapping
    assert texts(state) == [DRAW]
    state = position(game, {0: ["2 of suns", "3 of moons", "4 of suns"]})       # mixed suits
    assert texts(state) == [DRAW]
    # a real meld in a hand with other tiles: only its tiles are playable
    state = position(game, {0: ["2 of suns", "3 of suns", "4 of suns", "4 of moons",
                                "null of arms"]})
    assert sorted(play_texts(state)) == ["play 2 of suns", "play 3 of suns", "play 4 of suns"]


# ====================================================================== opening (P4, seed)
def test_opening_a_tile_that_only_fits_the_table_is_not_playable(game):
    """Seed: "the first meld that each player makes during a round must be such a
    complete meld from his hand." A player who has not opened cannot add the 3 of
    arms to the 3s on the table."""
    state = position(game, {0: ["3 of arms", "5 of moons"], 1: ["null of suns"]},
                     table=SEED_TABLE, opened=[False, True])
    assert texts(state) == [DRAW]
    # nor two tiles that make a sequence with a table tile
    state = position(game, {0: ["2 of suns", "4 of suns"], 1: ["null of moons"]},
                     table=SEED_TABLE, opened=[False, True])
    assert texts(state) == [DRAW]


def test_opening_meld_is_not_offered_for_an_incomplete_meld(game):
    """Seed: "If a player's hand contains a complete legal meld, then the player may
    play the whole meld to the table." "meld the played tiles" is offered only once
    the played tiles are complete melds, and a played tile commits the turn (no
    draw)."""
    state = position(game, {0: ["2 of suns", "3 of suns", "4 of suns", "null of moons"],
                            1: ["5 of arms"]})
    state.apply("play 2 of suns")
    assert MELD not in texts(state) and DRAW not in texts(state)
    assert sorted(texts(state)) == ["play 3 of suns", "play 4 of suns"]
    state.apply("play 3 of suns")
    assert texts(state) == ["play 4 of suns"]
    state.apply("play 4 of suns")
    assert texts(state) == [MELD]
    state.apply(MELD)
    assert table_group_names(state) == [["2 of suns", "3 of suns", "4 of suns"]]
    assert state.position.vars["opened"][0] is True
    assert hand_names(state, 0) == ["null of moons"]


def test_opening_tiles_of_the_table_do_not_count_for_a_first_meld(game):
    """P4: "Until a player has opened in the current round, the first meld of their
    turn must be complete melds made only from their hand." With a set of four 3s on the
    table, a hand holding two 3s cannot take a table 3 to complete a set; once
    opened, it can (the table is rearranged into two sets of three)."""
    state = position(game, {0: ["3 of suns", "3 of moons"], 1: ["null of moons"]},
                     table=[["3 of crowns", "3 of arms", "3 of suns", "3 of moons"]],
                     opened=[False, True])
    assert texts(state) == [DRAW]
    opened = position(game, {0: ["3 of suns", "3 of moons", "null of arms"],
                             1: ["null of moons"]},
                      table=[["3 of crowns", "3 of arms", "3 of suns", "3 of moons"]],
                      opened=[True, True])
    # after opening the two 3s can join a rearranged table: (3s, 3m, 3c) (3s, 3m, 3a)
    assert sorted(play_texts(opened)) == ["play 3 of moons", "play 3 of suns"]
    play_all(opened, ["3 of suns", "3 of moons"])
    opened.apply(MELD)
    groups = table_group_names(opened)
    assert groups == [["3 of arms", "3 of moons", "3 of suns"],
                      ["3 of crowns", "3 of moons", "3 of suns"]]


def test_p4_after_opening_later_melds_of_the_same_turn_may_be_partial(game):
    """P4: "later melds in the same turn may be partial." A player who opens with
    2-3-4 of suns may then, in the same turn, add the 5 of arms to the 5s on the
    table."""
    state = position(game, {0: ["2 of suns", "3 of suns", "4 of suns", "5 of arms"],
                            1: ["null of moons"]},
                     table=[["5 of suns", "5 of moons", "5 of crowns"]], opened=[False, True],
                     options={"rounds": 2})
    assert "play 5 of arms" not in texts(state)
    play_all(state, ["2 of suns", "3 of suns", "4 of suns"])
    state.apply(MELD)
    assert sorted(texts(state)) == sorted([END, "play 5 of arms"])
    state.apply("play 5 of arms")
    state.apply(MELD)
    # the hand is empty: the round is over (round 2 has been dealt)
    assert state.position.vars["round"] == 2
    assert list(state.position.vars["totals"]) == [0, 1]


def test_seed_example_partial_meld_rearranges_the_table(game):
    """Seed: "suppose the meld: 3 of suns, 3 of moons and 3 of crowns was already on
    the table and your hand contains the 3 of arms, the 2 of suns and the 4 of suns.
    Then you could play all three tiles to the table and re-arrange all six tiles to
    form the meld 3 of moons, 3 of arms, and 3 of crowns and the meld 2 of suns,
    3 of suns, and 4 of suns." (P3: the engine shows one valid arrangement.)"""
    state = position(game, {0: SEED_HAND + ["5 of moons"], 1: ["null of moons"]},
                     table=SEED_TABLE, opened=[True, True])
    assert sorted(play_texts(state)) == sorted(f"play {t}" for t in SEED_HAND)
    play_all(state, SEED_HAND)
    assert MELD in texts(state)
    state.apply(MELD)
    assert table_group_names(state) == [["2 of suns", "3 of suns", "4 of suns"],
                                        ["3 of arms", "3 of crowns", "3 of moons"]]
    assert state.position.zones[zone_index(state, "played")] == []
    assert hand_names(state, 0) == ["5 of moons"]
    for g in table_groups(state):
        assert oracle_meld(g) and pattern(state, "meld").matches(state.position, g)
    # every table tile is face up
    assert all(state.position.face[p.id] for p in state.position.zones[zone_index(state, "table")])


def test_seed_example_order_of_plays_does_not_matter(game):
    """The same seed example, tiles played in every order: each intermediate play
    is offered (it can still be completed), and the result is the same table."""
    for order in itertools.permutations(SEED_HAND):
        state = position(game, {0: list(SEED_HAND), 1: ["null of moons"]},
                         table=SEED_TABLE, opened=[True, True], options={"rounds": 1})
        play_all(state, order)
        state.apply(MELD)
        assert state.is_terminal()           # the hand emptied: the only round is over
        assert state.result()["winners"] == [0]


def test_played_tiles_and_table_are_public_hands_are_secret(game):
    """Seed: "A player's hand of tiles is secret"; melds are made "to the table" for
    all to see. The other player sees the tiles of a play being built and the
    table's melds, and only the number of tiles in the hand."""
    state = position(game, {0: SEED_HAND + ["5 of moons"], 1: ["null of moons"]},
                     table=SEED_TABLE, opened=[True, True])
    state.apply("play 3 of arms")
    other = state.view(1)["zones"]
    assert [p["name"] for p in other["played"]["pieces"]] == ["3 of arms"]
    assert sorted(p["name"] for p in other["table"]["pieces"]) == sorted(SEED_TABLE[0])
    assert [sorted(p["name"] for p in g) for g in other["table"]["groups"]] == \
        [sorted(SEED_TABLE[0])]
    mine = other["hand[player 1]"]
    assert mine["pieces"] == [] and mine["hidden"] == 3
    play_all(state, ["2 of suns", "4 of suns"])
    state.apply(MELD)
    groups = state.view(1)["zones"]["table"]["groups"]
    assert sorted(sorted(p["name"] for p in g) for g in groups) == \
        [["2 of suns", "3 of suns", "4 of suns"], ["3 of arms", "3 of crowns", "3 of moons"]]


def test_p3_a_play_that_leaves_the_table_unpartitionable_is_not_offered(game):
    """P3: "The table is a multiset of tiles that can always be partitioned into
    legal melds." Taking the 3 of suns out of 2-3-4 of suns for a set of 3s would
    leave 2 and 4 of suns alone, so the 3 of moons and 3 of crowns cannot be played;
    a tile fitting nowhere (2 of moons) is not offered either."""
    state = position(game, {0: ["3 of moons", "3 of crowns", "2 of moons"],
                            1: ["null of moons"]},
                     table=[["2 of suns", "3 of suns", "4 of suns"]], opened=[True, True])
    assert texts(state) == [DRAW]
    # but from the end of a longer sequence the 3 can be taken: null-ace-2 stays a meld
    state = position(game, {0: ["3 of moons", "3 of crowns", "2 of moons"],
                            1: ["null of moons"]},
                     table=[["null of suns", "ace of suns", "2 of suns", "3 of suns"]],
                     opened=[True, True])
    assert sorted(play_texts(state)) == ["play 3 of crowns", "play 3 of moons"]
    state.apply("play 3 of moons")
    assert MELD not in texts(state)          # 3 of moons alone cannot be placed yet
    assert texts(state) == ["play 3 of crowns"]
    state.apply("play 3 of crowns")
    state.apply(MELD)
    assert table_group_names(state) == [["2 of suns", "ace of suns", "null of suns"],
                                        ["3 of crowns", "3 of moons", "3 of suns"]]


def test_p3_one_tile_added_to_a_meld_on_the_table(game):
    """Seed: "adding those tiles to melds already on the table": the 5 of suns
    extends 2-3-4 of suns; the table then holds one sequence of four."""
    state = position(game, {0: ["5 of suns", "null of arms"], 1: ["null of moons"]},
                     table=[["2 of suns", "3 of suns", "4 of suns"]], opened=[True, True])
    assert play_texts(state) == ["play 5 of suns"]
    state.apply("play 5 of suns")
    state.apply(MELD)
    assert table_group_names(state) == [["2 of suns", "3 of suns", "4 of suns", "5 of suns"]]
    assert texts(state) == [END]
    state.apply(END)
    assert state.current_player == 1


# ====================================================================== P4: the turn
def test_p4_a_draw_ends_the_turn(game):
    """Seed: "the player must either make one or more melds to the table or draw a
    tile from the draw pile and add it to his hand." P4: "A turn is either one or
    more melds, or drawing one tile." """
    state = position(game, {0: ["2 of suns", "3 of suns", "4 of suns"], 1: ["null of moons"]},
                     pile=["5 of arms", "null of crowns"])
    assert sorted(texts(state)) == sorted([DRAW, "play 2 of suns", "play 3 of suns",
                                           "play 4 of suns"])
    pile_before = len(state.position.zones[zone_index(state, "pile")])
    state.apply(DRAW)
    assert state.current_player == 1
    assert "5 of arms" in hand_names(state, 0)                     # the top tile
    assert len(state.position.zones[hand_index(state, 0)]) == 4
    assert len(state.position.zones[zone_index(state, "pile")]) == pile_before - 1


def test_p4_a_player_may_meld_twice_in_one_turn_and_no_draw_after_a_meld(game):
    """P4: "one or more melds": after a meld the player may meld again or end the
    turn, and may no longer draw."""
    state = position(game, {0: ["2 of suns", "3 of suns", "4 of suns", "5 of moons",
                                "5 of crowns", "5 of arms", "null of suns"],
                            1: ["null of moons"]}, opened=[False, False])
    play_all(state, ["2 of suns", "3 of suns", "4 of suns"])
    state.apply(MELD)
    assert DRAW not in texts(state) and PASS not in texts(state)
    assert END in texts(state)
    assert state.current_player == 0
    play_all(state, ["5 of moons", "5 of crowns", "5 of arms"])
    assert END not in texts(state)           # played tiles must be melded first
    state.apply(MELD)
    assert table_group_names(state) == [["2 of suns", "3 of suns", "4 of suns"],
                                        ["5 of arms", "5 of crowns", "5 of moons"]]
    assert texts(state) == [END]
    state.apply(END)
    assert state.current_player == 1
    assert hand_names(state, 0) == ["null of suns"]


def test_p4_opening_may_be_several_melds_at_once(game):
    """P4: "the first meld of their turn must be complete melds made only from their
    hand" (plural): two complete melds may be played together as the opening."""
    state = position(game, {0: ["2 of suns", "3 of suns", "4 of suns", "5 of moons",
                                "5 of crowns", "5 of arms", "null of suns"],
                            1: ["null of moons"]})
    play_all(state, ["2 of suns", "5 of moons", "3 of suns", "5 of crowns", "4 of suns"])
    assert MELD not in texts(state)
    state.apply("play 5 of arms")
    state.apply(MELD)
    assert len(table_groups(state)) == 2


# ====================================================================== round end, scoring
def test_round_ends_when_a_hand_empties_and_is_scored(game):
    """Seed: "When one player has emptied his hand (by making melds), the round is
    over and is scored." P7: "Score per round: tiles left in hand." """
    state = position(game, {0: ["2 of suns", "3 of suns", "4 of suns"],
                            1: ["null of moons", "5 of arms", "3 of crowns"],
                            2: ["ace of arms"]},
                     players=3, totals=[1, 2, 3], options={"rounds": 2})
    play_all(state, ["2 of suns", "3 of suns", "4 of suns"])
    state.apply(MELD)
    assert END not in texts(state) or state.position.vars["round"] == 2
    assert state.position.vars["round"] == 2
    assert list(state.position.vars["totals"]) == [1, 5, 4]
    assert state.scores() == [1, 5, 4]
    # round 2 is dealt afresh: every tile back, four in each hand, table empty
    for p in range(3):
        assert len(state.position.zones[hand_index(state, p)]) == 4
    assert state.position.zones[zone_index(state, "table")] == []
    assert len(state.position.zones[zone_index(state, "pile")]) == 72 - 12
    assert list(state.position.vars["opened"]) == [False, False, False]


def test_p5_blocked_round_every_player_passes_in_succession(game):
    """P5: "If the draw pile is empty, a player who cannot or will not meld passes.
    If every player passes in succession with the draw pile empty, the round ends
    and is scored." """
    state = position(game, {0: ["null of moons", "5 of arms"],
                            1: ["3 of crowns"], 2: ["ace of arms", "ace of suns", "4 of moons"]},
                     players=3, rest="box", options={"rounds": 1})
    assert state.position.zones[zone_index(state, "pile")] == []
    assert texts(state) == [PASS]
    state.apply(PASS)
    state.apply(PASS)
    assert not state.is_terminal()
    state.apply(PASS)
    assert state.is_terminal()
    assert state.scores() == [2, 1, 3]
    assert state.result()["winners"] == [1]


def test_p5_a_meld_breaks_the_succession_of_passes(game):
    """P5: passes count only "in succession": a meld in between starts the count
    again; a player who can meld may still pass ("cannot or will not")."""
    state = position(game, {0: ["null of moons", "5 of arms"],
                            1: ["2 of suns", "3 of suns", "4 of suns", "3 of crowns"]},
                     rest="box", options={"rounds": 1})
    state.apply(PASS)                                  # player 1 passes (1 of 2)
    assert PASS in texts(state) and "play 2 of suns" in texts(state)
    assert DRAW not in texts(state)
    play_all(state, ["2 of suns", "3 of suns", "4 of suns"])
    state.apply(MELD)
    state.apply(END)                                   # player 2 melded: count restarts
    state.apply(PASS)                                  # player 1 passes (1 of 2)
    assert not state.is_terminal()
    assert state.current_player == 1
    assert PASS in texts(state)
    state.apply(PASS)                                  # player 2 passes (2 of 2)
    assert state.is_terminal()
    assert state.scores() == [2, 1]


def test_p5_a_player_who_will_not_meld_may_pass_with_a_meld_in_hand(game):
    """P5: "a player who cannot or will not meld passes": all passing ends the round
    even though a meld was possible."""
    state = position(game, {0: ["2 of suns", "3 of suns", "4 of suns"], 1: ["3 of crowns"]},
                     rest="box", options={"rounds": 1})
    assert sorted(texts(state)) == sorted([PASS, "play 2 of suns", "play 3 of suns",
                                           "play 4 of suns"])
    state.apply(PASS)
    state.apply(PASS)
    assert state.is_terminal()
    assert state.scores() == [3, 1]


# ====================================================================== P6: rounds
def test_p6_rounds_option_default_4_range_1_to_10(game):
    """P6: "The number of rounds is an option (default 4, range 1–10)." """
    assert game.default_options()["rounds"] == 4
    for good in (1, 10):
        game.new_game(2, 0, options={"rounds": good})
    for bad in (0, 11, -1):
        with pytest.raises(OptionError, match="rounds"):
            game.new_game(2, 0, options={"rounds": bad})
    # from a command line, strings are converted
    assert game.parse_options({"rounds": "6"})["rounds"] == 6


def fast_policy(rng: random.Random, state) -> str:
    """A random policy that melds whenever it can (rounds end quickly)."""
    ts = texts(state)
    if MELD in ts:
        return MELD
    plays = [t for t in ts if t.startswith("play ")]
    if plays:
        return rng.choice(plays)
    return rng.choice(ts)


def play_out(state, rng, policy=fast_policy, on_step=None) -> list[tuple[int, int]]:
    """Play to the end; returns (round, first player) for every round started."""
    starts = [(state.position.vars["round"], state.current_player)]
    for _ in range(MAX_DECISIONS):
        if state.is_terminal():
            return starts
        before = state.clone() if on_step else None
        action = policy(rng, state)
        state.apply(action)
        if on_step:
            on_step(before, action, state)
        if not state.is_terminal() and state.position.vars["round"] != starts[-1][0]:
            starts.append((state.position.vars["round"], state.current_player))
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_p6_each_later_round_starts_with_the_next_player(game, players):
    """P6: "Round 1's first player is random (G3); each later round starts with the
    next player clockwise." Each round is ended at once by its first player melding
    a whole hand (the position is edited, the game's own flow is kept); the game
    plays exactly the agreed number of rounds."""
    firsts = set()
    for seed in range(6):
        state = game.new_game(players, seed, options={"rounds": 4})
        starters = []
        while not state.is_terminal():
            assert state.position.vars["round"] == len(starters) + 1
            me = state.current_player
            starters.append(me)
            others = {p: [f"null of {SUITS[p]}"] for p in range(players) if p != me}
            state = position(game, {me: ["2 of suns", "3 of suns", "4 of suns"], **others},
                             base=state, current=me)
            play_all(state, ["2 of suns", "3 of suns", "4 of suns"])
            state.apply(MELD)
        assert len(starters) == 4
        first = starters[0]
        firsts.add(first)
        assert starters == [(first + k) % players for k in range(4)]
        # every other player kept their one tile in each round (P7)
        assert state.scores() == [sum(1 for k in range(4) if starters[k] != p)
                                  for p in range(players)]
    assert len(firsts) > 1, "round 1's first player is always the same"


def test_g3_first_player_is_a_recorded_chance_event(game):
    """G3: the first player is chosen at random (a chance event in the history)."""
    state = game.new_game(3, 5)
    chances = [h for h in state.to_json()["history"] if "chance" in h]
    assert chances and chances[0]["chance"] == "random"
    assert chances[0]["outcome"] == {"player": state.current_player}


# ====================================================================== P7: winning
def test_p7_lowest_total_wins(game):
    """Seed: "After the agreed number of rounds is played and scored, the player with
    the lowest total score over all the rounds is the winner." """
    state = position(game, {0: ["2 of suns", "3 of suns", "4 of suns"],
                            1: ["null of moons", "5 of arms", "3 of crowns", "ace of arms"]},
                     totals=[3, 0], round=4, options={"rounds": 4})
    play_all(state, ["2 of suns", "3 of suns", "4 of suns"])
    state.apply(MELD)
    assert state.is_terminal()
    assert state.scores() == [3, 4]
    assert state.result()["winners"] == [0]


def test_p7_g2_ties_are_shared(game):
    """P7 and G2: "Ties for the win are shared: every tied player is a winner." """
    state = position(game, {0: ["2 of suns", "3 of suns", "4 of suns"],
                            1: ["null of moons", "5 of arms", "3 of crowns"],
                            2: ["ace of arms"]},
                     players=3, totals=[3, 0, 5], options={"rounds": 1})
    play_all(state, ["2 of suns", "3 of suns", "4 of suns"])
    state.apply(MELD)
    assert state.is_terminal()
    assert state.scores() == [3, 3, 6]
    result = state.result()
    assert result["winners"] == [0, 1] and not result["draw"]


# ====================================================================== P8: jokers
def test_p8_jokers_option_adds_wild_tiles(game):
    """P8: "`jokers=N` adds N wild tiles that stand for any tile in a meld"; none by
    default."""
    assert not any(p.kind == "joker" for p in game.new_game(2, 0).program.pieces)
    state = game.new_game(3, 0, options={"jokers": 2})
    jokers = [p for p in state.program.pieces if p.kind == "joker"]
    assert len(jokers) == 2 and all(p.name == "joker" for p in jokers)
    assert tile_count(state) == 72
    # they are shuffled into the pile and dealt like tiles
    held = sum(len(state.position.zones[i]) for i in range(len(state.position.zones)))
    assert held == 74


def test_p8_joker_completes_a_two_tile_set_and_fills_a_gap(game):
    """P8: a joker stands for any tile: with 3 of suns and 3 of moons it is a set;
    with 2 and 4 of suns a sequence (as the 3); but not two tiles of a gap of two."""
    state = game.new_game(2, 0, options={"jokers": 1})
    assert matches(state, "meld", ["3 of suns", "3 of moons", "joker"])
    assert matches(state, "meld", ["2 of suns", "4 of suns", "joker"])
    assert matches(state, "meld", ["4 of suns", "5 of suns", "joker"])          # as the 3
    assert matches(state, "meld", ["null of suns", "ace of suns", "joker"])     # as the 2
    assert not matches(state, "meld", ["2 of suns", "5 of suns", "joker"])
    assert not matches(state, "meld", ["3 of suns", "3 of suns", "joker"])      # suit twice
    assert not matches(state, "meld", ["3 of suns", "joker"])
    # a four-suit set is full: no fifth tile, joker or not
    assert not matches(state, "meld", ["3 of suns", "3 of moons", "3 of crowns", "3 of arms",
                                       "joker"])


def test_p8_joker_played_into_melds(game):
    """P8 through legal play: a hand of 3 of suns, 3 of moons and a joker opens with
    a set; a hand of 2 and 4 of suns and a joker opens with a sequence."""
    for hand in (["3 of suns", "3 of moons", "joker"], ["2 of suns", "4 of suns", "joker"]):
        state = position(game, {0: hand + ["null of arms"], 1: ["5 of moons"]},
                         options={"jokers": 1})
        assert sorted(play_texts(state)) == sorted(f"play {t}" for t in hand)
        play_all(state, hand)
        state.apply(MELD)
        groups = table_groups(state)
        assert len(groups) == 1 and sorted(names(groups[0])) == sorted(hand)
        assert pattern(state, "meld").matches(state.position, groups[0])
    # after opening, a joker on the table may be moved to make room (P3: rearranging):
    # the 3 of suns takes its place, the joker joins 3 of crowns and 3 of moons
    hand = ["3 of suns", "3 of crowns", "3 of moons"]
    state = position(game, {0: hand + ["null of arms"], 1: ["5 of moons"]},
                     table=[["2 of suns", "joker", "4 of suns"]], opened=[True, True],
                     options={"jokers": 1})
    assert sorted(play_texts(state)) == sorted(f"play {t}" for t in hand)
    play_all(state, ["3 of crowns", "3 of moons"])
    assert MELD not in texts(state)           # the joker is still needed between 2 and 4
    state.apply("play 3 of suns")
    state.apply(MELD)
    # any valid arrangement: 2-3-4 with the 3s and the joker, or 2-joker-4 with the 3s
    assert table_group_names(state) in (
        [["2 of suns", "3 of suns", "4 of suns"], ["3 of crowns", "3 of moons", "joker"]],
        [["2 of suns", "4 of suns", "joker"], ["3 of crowns", "3 of moons", "3 of suns"]])
    # without the 3 of suns the 3 of crowns fits nowhere: the joker cannot leave the gap
    state = position(game, {0: ["3 of crowns", "null of arms"], 1: ["5 of moons"]},
                     table=[["2 of suns", "joker", "4 of suns"]], opened=[True, True],
                     options={"jokers": 1})
    assert texts(state) == [DRAW]


# ====================================================================== P8: the Six Pack
def test_p8_six_pack_two_players_36_tiles_six_suits(game):
    """Seed: "play with the tiles from a "Six Pack". This is using the tiles of the
    suns and moons suits from a standard piecepack along with the tiles of the four
    suits from the Mesomorph Playing Card expansion set." (P8: six suits, 36 tiles.)"""
    state = six_pack_game(2)
    tiles = [p for p in state.program.pieces if p.kind == "tile"]
    assert len(tiles) == 36
    assert {p.attrs["suit"] for p in tiles} == set(SIX_SUITS)
    assert Counter((p.attrs["suit"], p.attrs["rank"]) for p in tiles) == \
        Counter({(s, r): 1 for s in SIX_SUITS for r in RANKS})


@pytest.mark.parametrize("players", [3, 4])
def test_p8_double_six_pack_for_three_or_four_players(game, players):
    """Seed: "A similar variant for 3 or 4 players uses a double "Six Pack", with the
    additional rule that all of the tiles in a set meld must be different suits." """
    state = six_pack_game(players)
    tiles = [p for p in state.program.pieces if p.kind == "tile"]
    assert len(tiles) == 72
    assert set(Counter((p.attrs["suit"], p.attrs["rank"]) for p in tiles).values()) == {2}
    assert not matches(state, "meld", ["3 of hearts", "3 of hearts", "3 of suns"])
    assert matches(state, "meld", ["3 of hearts", "3 of spades", "3 of suns"])


@pytest.mark.parametrize("players", [5, 6])
def test_p8_six_pack_is_not_for_five_or_six_players(game, players):
    """Seed: the Six Pack is for two players, the double Six Pack for 3 or 4: with 5
    or 6 players the option is refused with a clear message."""
    with pytest.raises(OptionError, match="Six Pack"):
        game.new_game(players, 0, options={"six_pack": True})


def test_p8_six_pack_set_melds_up_to_six_tiles(game):
    """P2 with the Six Pack: a set holds "all different suits", so up to six tiles;
    sequences are still one suit, null to 5."""
    state = six_pack_game(2, jokers=1)
    six = [f"4 of {s}" for s in SIX_SUITS]
    assert matches(state, "meld", six)
    assert matches(state, "meld", six[:5])
    assert matches(state, "meld", six[:5] + ["joker"])
    assert not matches(state, "meld", six + ["joker"])
    assert matches(state, "meld", ["2 of clubs", "3 of clubs", "4 of clubs"])
    assert not matches(state, "meld", ["2 of clubs", "3 of hearts", "4 of clubs"])
    assert not any(p.attrs.get("suit") in ("crowns", "arms") for p in state.program.pieces)


def test_p8_six_pack_game_plays_a_six_tile_set(game):
    """The Six Pack through legal play: a hand of the six 4s opens with one set."""
    six = [f"4 of {s}" for s in SIX_SUITS]
    state = position(game, {0: six + ["null of suns"], 1: ["5 of moons"]},
                     options={"six_pack": True})
    play_all(state, six)
    state.apply(MELD)
    assert table_group_names(state) == [sorted(six)]


# ====================================================================== properties
def conserved(state) -> None:
    """Every piece is in exactly one zone, once."""
    ids = [p.id for z in state.position.zones for p in z if p is not None]
    assert sorted(ids) == list(range(len(state.program.pieces)))


def table_is_arranged_into_melds(state) -> None:
    """The table's groups each match ``meld`` (and the independent reading), and
    together hold exactly the table's tiles."""
    table = state.position.zones[zone_index(state, "table")]
    groups = table_groups(state)
    if not table:
        return
    assert groups is not None, "the table holds tiles but is not arranged"
    assert sorted(p.id for g in groups for p in g) == sorted(p.id for p in table)
    six = bool(state.program.options.get("six_pack"))
    meld = pattern(state, "meld")
    for g in groups:
        assert meld.matches(state.position, g), names(g)
        assert oracle_meld(g, six), names(g)


def random_policy(rng: random.Random, state) -> str:
    return rng.choice(texts(state))


GAMES = [(2, 0, {}), (2, 1, {"jokers": 1}), (3, 2, {}), (2, 3, {"jokers": 2}),
         (4, 4, {"rounds": 1}), (2, 5, {})]


@pytest.mark.parametrize("players,seed,options", GAMES)
def test_property_random_games_end_conserve_tiles_and_keep_the_table_in_melds(
        game, players, seed, options):
    """Random games (seeded): they end; tiles are conserved after every decision;
    after every "meld the played tiles" the table's groups are melds holding exactly
    the table's tiles; each round adds the tiles left in hand to the totals (P7)."""
    opts = {"rounds": 2, **options}
    state = game.new_game(players, seed, options=opts)
    rng = random.Random(seed)
    melds = 0

    def on_step(before, action, after) -> None:
        nonlocal melds
        conserved(after)
        assert after.legal_actions() or after.is_terminal()
        if action == MELD:
            melds += 1
            if not after.is_terminal() and after.position.vars["round"] == before.position.vars["round"]:
                table_is_arranged_into_melds(after)
        ended = after.is_terminal() or after.position.vars["round"] != before.position.vars["round"]
        if ended:
            left = [len(before.position.zones[hand_index(before, p)]) for p in range(players)]
            gained = [a - b for a, b in zip(after.position.vars["totals"], before.position.vars["totals"])]
            assert gained == left
        else:
            assert list(after.position.vars["totals"]) == list(before.position.vars["totals"])
    policy = random_policy if seed % 2 else fast_policy
    starts = play_out(state, rng, policy, on_step)
    assert len(starts) == opts["rounds"]
    assert melds > 0
    assert state.result()["terminal"]
    scores = state.scores()
    best = min(scores)
    assert state.result()["winners"] == [p for p in range(players) if scores[p] == best]


def test_property_every_meld_arrangement_in_a_fast_game(game):
    """The same check on a game that melds whenever it can (many rearrangements)."""
    for seed in range(3):
        state = game.new_game(3, 10 + seed, options={"rounds": 1, "jokers": 1})
        rng = random.Random(seed)

        def on_step(before, action, after) -> None:
            conserved(after)
            if action == MELD and not after.is_terminal():
                table_is_arranged_into_melds(after)
        play_out(state, rng, fast_policy, on_step)


def _logged_game(game, seed: int, options: dict) -> tuple[list, dict]:
    state = game.new_game(2, seed, options=options)
    rng = random.Random(99)
    log = []
    while not state.is_terminal():
        action = fast_policy(rng, state)
        log.append((state.current_player, action, state.to_json()["zones"]))
        state.apply(action)
    return log + [state.scores()], state.to_json()


def test_property_determinism_by_seed(game):
    """The same seed and the same choices give the same game, move for move (the
    actions, every zone's contents after every move, the scores)."""
    options = {"rounds": 1, "jokers": 1}
    assert _logged_game(game, 4, options)[0] == _logged_game(game, 4, options)[0]
    assert _logged_game(game, 4, options)[0] != _logged_game(game, 5, options)[0]


def test_property_determinism_of_the_saved_state():
    """The same game played twice saves the same state (``to_json``), the first
    game of a freshly compiled instance included."""
    fresh = rulepack.load("packkub")            # its pattern caches are cold
    options = {"rounds": 1, "jokers": 1}
    first = _logged_game(fresh, 4, options)[1]
    second = _logged_game(fresh, 4, options)[1]
    assert first["variables"] == second["variables"]
    assert first == second


def test_property_clone_and_json_continue_identically(game):
    """A clone and a JSON round trip of a mid-game state (table arranged, tiles in
    the played row) offer the same actions and continue the same way."""
    state = game.new_game(2, 6, options={"rounds": 1})
    rng = random.Random(6)
    seen_played = False
    for _ in range(400):
        if state.is_terminal():
            break
        if state.position.zones[zone_index(state, "played")] and table_groups(state):
            seen_played = True
            copy = state.clone()
            rebuilt = game.state_from_json(json.loads(json.dumps(state.to_json())))
            assert texts(copy) == texts(state) == texts(rebuilt)
            assert table_group_names(rebuilt) == table_group_names(state)
            action = texts(state)[-1]
            for s in (state, copy, rebuilt):
                s.apply(action)
            assert copy.to_json() == state.to_json() == rebuilt.to_json()
            continue
        state.apply(fast_policy(rng, state))
    assert seen_played
