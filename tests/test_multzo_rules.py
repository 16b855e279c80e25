"""Multzo, rule by rule.

Each test quotes the sentence of seeds/multzo.md (or the ruling of RULINGS.md)
it checks, and checks the outcome the rule demands: who wins a category, which
coins move, what is legal, who starts, who wins the game. Positions are set up
from real states with tests/multzo_positions.py.
"""

from __future__ import annotations

import json

import pytest

import rulepack
from rulepack.errors import OptionError
from rulepack.engine.outcome import score

try:
    from multzo_positions import (DRAW_TOP, arrange, coins_gained,
                                  decline_multipliers, declare_options, hand_label,
                                  is_discard_decision, is_draw_decision, is_face_up,
                                  multiplier_offered, names, play_showdown, take_turn,
                                  texts, won_label)
except ImportError:  # tests/ imported as a package
    from tests.multzo_positions import (DRAW_TOP, arrange, coins_gained,
                                        decline_multipliers, declare_options, hand_label,
                                        is_discard_decision, is_draw_decision, is_face_up,
                                        multiplier_offered, names, play_showdown, take_turn,
                                        texts, won_label)

SUITS = ["suns", "moons", "crowns", "arms"]
RANKS = ["null", 2, 3, 4, 5, "ace"]
VALUE = {"null": 0, 2: 2, 3: 3, 4: 4, 5: 5, "ace": 6}
CATEGORY_OF_SUIT = {"crowns": "flush", "arms": "prime", "suns": "set", "moons": "run"}

# Hands that are eligible for no category (no flush, prime, set or run), disjoint
# from each other, so they can be given to the other seats of a showdown.
DUDS = [
    ["null of crowns", "null of arms", "4 of crowns", "4 of arms"],
    ["2 of suns", "2 of moons", "5 of suns", "5 of moons"],
    ["3 of crowns", "3 of arms", "ace of crowns", "ace of arms"],
    ["null of suns", "null of moons", "4 of suns", "4 of moons"],
    ["2 of crowns", "2 of arms", "5 of crowns", "5 of arms"],
    ["3 of suns", "3 of moons", "ace of suns", "ace of moons"],
]


@pytest.fixture(scope="module")
def game():
    return rulepack.load("multzo")


# ---------------------------------------------------------------------- helpers
def duds_for(n: int, avoid: list[str] = ()) -> list[list[str]]:
    """``n`` dud hands sharing no tile with ``avoid``."""
    out = [d for d in DUDS if not set(d) & set(avoid)]
    assert len(out) >= n, "not enough dud hands"
    return out[:n]


def coin_categories(coins: list[str]) -> set[str]:
    """The categories a list of won coin names pays for ("2 of suns coin" → set)."""
    return {CATEGORY_OF_SUIT[c.split()[2]] for c in coins}


def categories_won(game, hand: list[str]) -> set[str]:
    """Play a two-player showdown: seat 0 holds ``hand``, seat 1 a hand that
    qualifies for nothing; the categories seat 0 is paid for (multipliers
    declined)."""
    (dud,) = duds_for(1, hand)
    before, after = play_showdown(game, 2, {0: hand, 1: dud})
    decline_multipliers(after)
    assert coins_gained(before, after, 1) == [], "the dud hand won something"
    return coin_categories(coins_gained(before, after, 0))


def hand_of(state, p: int) -> list[str]:
    return names(state, hand_label(p))


def turn_players_after(state, stop_round: int) -> list[int]:
    """Play turns (draw the top, discard face up) until round ``stop_round``
    begins; the seats that took them, in order."""
    seats = []
    while state.position.vars["round"] < stop_round:
        assert not state.is_terminal()
        if is_draw_decision(state):
            seats.append(state.current_player)
            take_turn(state)
        else:
            decline_multipliers(state)
    return seats


# ====================================================================== setup
def test_uses_only_24_tiles_and_24_coins(game):
    """"Multzo, a game for 2-5 players, uses the 24 tiles and 24 coins from a
    piecepack. (The four dice and four pawns are not used.)\""""
    state = game.new_game(3, seed=1)
    kinds = [p.kind for p in state.program.pieces]
    assert kinds.count("tile") == 24
    assert kinds.count("coin") == 24
    assert set(kinds) == {"tile", "coin"}, "no dice or pawns"
    for kind in ("tile", "coin"):
        combos = sorted((p.attrs["suit"], str(p.attrs["rank"]))
                        for p in state.program.pieces if p.kind == kind)
        assert combos == sorted((s, str(r)) for s in SUITS for r in RANKS)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_player_counts_2_to_5_allowed(game, players):
    """"Multzo, a game for 2-5 players\""""
    state = game.new_game(players, seed=0)
    assert state.program.num_players == players
    assert not state.is_terminal()


@pytest.mark.parametrize("players", [1, 6])
def test_player_counts_outside_2_to_5_rejected(game, players):
    """"Multzo, a game for 2-5 players\""""
    with pytest.raises(OptionError):
        game.new_game(players, seed=0)


def test_null_coins_removed_next_to_their_stacks(game):
    """"Remove the four null coins. ... Put the null coin of each suit
    symbol-side up next to each stack to identify it.\""""
    state = game.new_game(2, seed=0)
    for s in SUITS:
        assert names(state, f"multiplier[{s}]") == [f"null of {s} coin"]
        assert all("null" not in n for n in names(state, f"coins[{s}]"))


def test_coin_stacks_two_on_top_ace_at_bottom(game):
    """"Stack the other five coins of each suit number-side up, with the 2 on
    top, then 3, 4, 5, and Ace (always valued as 6 in this game) underneath.\""""
    state = game.new_game(2, seed=0)
    for s in SUITS:
        # a stack zone lists bottom to top: the top is last
        assert names(state, f"coins[{s}]") == [f"{r} of {s} coin" for r in
                                               ("ace", 5, 4, 3, 2)]
        assert all(is_face_up(state, n) for n in names(state, f"coins[{s}]"))


def test_values_ace_six_null_zero(game):
    """M1. "Ranks in order null, 2, 3, 4, 5, ace; values 0, 2, 3, 4, 5, 6 for
    tiles and coins.\""""
    state = game.new_game(2, seed=0)
    for p in state.program.pieces:
        assert p.attrs["value"] == VALUE[p.attrs["rank"]], p.name


# ====================================================================== rounds
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_deal_four_face_down_rest_form_stack(game, players):
    """"In each round, begin by dealing four tiles face-down to each player.
    Stack the leftover tiles face-down in a convenient place.\""""
    state = game.new_game(players, seed=players)
    for p in range(players):
        hand = hand_of(state, p)
        assert len(hand) == 4
        assert not any(is_face_up(state, n) for n in hand)
    stack = names(state, "stack")
    assert len(stack) == 24 - 4 * players
    assert not any(is_face_up(state, n) for n in stack)
    assert names(state, "discards") == []


def test_views_show_own_hand_only_and_hide_stack(game):
    """"In each round, begin by dealing four tiles face-down to each player.
    Stack the leftover tiles face-down in a convenient place." A player sees
    their own hand, not the others' hands nor the stack's order."""
    state = game.new_game(3, seed=5)
    stack = names(state, "stack")
    for p in range(3):
        view = state.view(p)
        zones = view["zones"]
        own = [x["name"] for x in zones[hand_label(p)]["pieces"]]
        assert sorted(own) == sorted(hand_of(state, p))
        for q in range(3):
            if q != p:
                assert zones[hand_label(q)]["pieces"] == []
                assert zones[hand_label(q)]["count"] == 4
        assert len(zones["stack"]["pieces"]) == len(stack)
        assert all(set(x) == {"hidden", "kind"} for x in zones["stack"]["pieces"])
        hidden = set(stack) | {n for q in range(3) if q != p for n in hand_of(state, q)}
        hidden_ids = {x.id for x in state.program.pieces if x.name in hidden}
        seen_names, seen_ids = set(), set()

        def walk(v):
            if isinstance(v, dict):
                if "name" in v:
                    seen_names.add(v["name"])
                if "id" in v:
                    seen_ids.add(v["id"])
                for w in v.values():
                    walk(w)
            elif isinstance(v, list):
                for w in v:
                    walk(w)
        walk(json.loads(json.dumps(view)))
        assert not seen_names & hidden
        assert not seen_ids & hidden_ids
        for t in view["legal_actions"]:
            assert not any(t.endswith(f" {n} face up") or f" {n} from" in t for n in hidden)


def test_first_round_first_player_random(game):
    """M4. "The first player of a round is the one with the highest score;
    ties (the first round included) are broken at random among the tied
    players.\""""
    firsts = set()
    for seed in range(24):
        state = game.new_game(3, seed=seed)
        assert state.current_player == state.position.vars["first"]
        firsts.add(state.current_player)
    assert firsts == {0, 1, 2}


def test_play_continues_clockwise(game):
    """"The player with the highest current score then plays first, and play
    continues clockwise.\""""
    state = game.new_game(4, seed=2)
    first = state.current_player
    seats = []
    for _ in range(7):
        seats.append(state.current_player)
        take_turn(state)
    assert seats == [(first + k) % 4 for k in range(7)]
    assert state.position.vars["round"] == 1


# ====================================================================== turns
def test_draw_takes_top_of_stack(game):
    """"A player takes their turn by drawing a tile from the face-down stack,
    or from any of the previously discarded face-up tiles.\""""
    state = game.new_game(3, seed=4)
    p = state.current_player
    stack = names(state, "stack")
    assert texts(state) == [DRAW_TOP], "a turn begins with a draw (no discard yet)"
    state.apply(DRAW_TOP)
    assert stack[-1] in hand_of(state, p)
    assert len(hand_of(state, p)) == 5
    assert names(state, "stack") == stack[:-1]


def test_draw_any_face_up_discard_gets_the_chosen_one(game):
    """"A player takes their turn by drawing a tile from the face-down stack,
    or from any of the previously discarded face-up tiles.\""""
    state = game.new_game(3, seed=6)
    take_turn(state)
    take_turn(state)
    discards = names(state, "discards")
    assert len(discards) == 2 and all(is_face_up(state, n) for n in discards)
    p = state.current_player
    offered = [t for t in texts(state) if t.endswith("from the discards")]
    assert sorted(offered) == sorted(f"draw {n} from the discards" for n in discards)
    chosen = discards[0]  # not the most recent one: any face-up discard may be drawn
    state.apply(f"draw {chosen} from the discards")
    assert chosen in hand_of(state, p)
    assert names(state, "discards") == discards[1:]
    assert len(names(state, "stack")) == 24 - 12 - 2


def test_discard_one_tile_face_up_completes_turn(game):
    """"Then, the player discards one tile face-up to complete the turn.\""""
    state = game.new_game(3, seed=7)
    p = state.current_player
    state.apply(DRAW_TOP)
    hand = hand_of(state, p)
    face_up = sorted(t for t in texts(state) if t.endswith("face up"))
    assert face_up == sorted(f"discard {n} face up" for n in hand)
    tile = hand[2]
    state.apply(f"discard {tile} face up")
    assert names(state, "discards") == [tile]
    assert is_face_up(state, tile)
    assert len(hand_of(state, p)) == 4 and tile not in hand_of(state, p)
    assert state.current_player == (p + 1) % 3 and is_draw_decision(state)


def test_face_down_discards_cannot_be_drawn(game):
    """M5. "Face-down discards cannot be drawn.\""""
    state = game.new_game(3, seed=8)
    take_turn(state)  # one face-up discard
    up = names(state, "discards")[0]
    take_turn(state, declare=True)
    down = names(state, "discards")[-1]
    assert not is_face_up(state, down)
    ts = texts(state)
    assert f"draw {up} from the discards" in ts
    assert not any(down in t for t in ts)
    assert ts == [DRAW_TOP, f"draw {up} from the discards"]


def test_empty_stack_draw_from_face_up_discards(game):
    """M5. "A player whose stack is empty draws from the face-up discards.\""""
    state = game.new_game(2, seed=9)
    while names(state, "stack"):
        take_turn(state)
    assert state.position.vars["round"] == 1 and is_draw_decision(state)
    discards = names(state, "discards")
    assert len(discards) == 16
    ts = texts(state)
    assert DRAW_TOP not in ts
    assert sorted(ts) == sorted(f"draw {n} from the discards" for n in discards)
    p = state.current_player
    state.apply(f"draw {discards[5]} from the discards")
    assert discards[5] in hand_of(state, p)


# ====================================================================== round end
def test_declare_by_discarding_face_down(game):
    """"A player may declare the end of a round by making their discard
    face-down instead of face-up.\""""
    state = game.new_game(3, seed=10)
    for _ in range(3):  # any player may declare on any turn before a declaration
        state.apply(DRAW_TOP)
        hand = hand_of(state, state.current_player)
        assert sorted(declare_options(state)) == sorted(
            f"discard {n} face down to end the round" for n in hand)
        state.apply([t for t in texts(state) if t.endswith("face up")][0])
    p = state.current_player
    state.apply(DRAW_TOP)
    tile = hand_of(state, p)[1]
    state.apply(f"discard {tile} face down to end the round")
    assert names(state, "discards")[-1] == tile
    assert not is_face_up(state, tile)
    assert tile not in hand_of(state, p)
    assert int(state.position.vars["declarer"]) == p
    for q in range(3):
        if q != p:  # the others do not see which tile it was
            assert state.view(q)["zones"]["discards"]["pieces"][-1] == {"hidden": True,
                                                                         "kind": "tile"}


@pytest.mark.parametrize("players,offset", [(2, 0), (3, 0), (3, 1), (4, 2), (5, 4)])
def test_declaring_gives_each_other_player_one_turn_then_showdown(game, players, offset):
    """"Each other player then gets one turn, after which the showdown
    occurs.\""""
    state = game.new_game(players, seed=11 + players)
    for _ in range(offset):
        take_turn(state)
    declarer = state.current_player
    take_turn(state, declare=True)
    seats = turn_players_after(state, stop_round=2)
    assert seats == [(declarer + k) % players for k in range(1, players)]
    # the showdown happened: a new round was dealt
    assert all(len(hand_of(state, p)) == 4 for p in range(players))
    assert names(state, "discards") == []


@pytest.mark.parametrize("players", [2, 3, 4])
def test_others_cannot_declare_after_a_declaration(game, players):
    """M5. "Instead of face up, a player may discard face down to declare the
    end of the round, once per round; then each other player takes exactly one
    more turn (they cannot declare), then the showdown.\""""
    state = game.new_game(players, seed=20 + players)
    take_turn(state, declare=True)
    for _ in range(players - 1):
        assert state.position.vars["round"] == 1
        state.apply(DRAW_TOP)
        assert is_discard_decision(state)
        assert declare_options(state) == []
        assert len([t for t in texts(state) if t.endswith("face up")]) == 5
        state.apply([t for t in texts(state) if t.endswith("face up")][0])
    decline_multipliers(state)
    assert state.position.vars["round"] == 2
    # in the new round declaring is possible again
    state.apply(DRAW_TOP)
    assert len(declare_options(state)) == 5


def test_showdown_reveals_all_hands(game):
    """"Showdown: All players reveal their four tiles.\""""
    hands = {0: ["4 of suns", "4 of moons", "4 of crowns", "2 of arms"]}  # prime and set
    hands.update(dict(zip([1, 2], duds_for(2, hands[0]))))
    before, after = play_showdown(game, 3, hands)
    assert multiplier_offered(after), "seat 0 won two categories"
    for p in range(3):
        assert all(is_face_up(after, n) for n in hands[p])
        zones = after.view((p + 1) % 3)["zones"]
        assert sorted(x["name"] for x in zones[hand_label(p)]["pieces"]) == sorted(hands[p])


# ====================================================================== categories
@pytest.mark.parametrize("hand,expected", [
    (["null of suns", "2 of suns", "4 of suns", "ace of suns"], {"flush"}),
    (["2 of arms", "3 of arms", "5 of arms", "ace of arms"], {"flush"}),
    (["null of suns", "2 of suns", "4 of suns", "ace of moons"], set()),
], ids=["four-suns", "four-arms", "three-suns"])
def test_flush_four_tiles_same_suit(game, hand, expected):
    """"Flush (Crown coins): Four tiles of the same suit.\""""
    assert categories_won(game, hand) == expected


@pytest.mark.parametrize("hand,expected", [
    (["2 of suns", "4 of moons", "ace of crowns", "null of arms"], {"prime"}),
    (["5 of suns", "2 of moons", "5 of crowns", "2 of arms"], {"prime"}),
    (["2 of suns", "4 of moons", "ace of crowns", "null of suns"], set()),
], ids=["one-of-each", "one-of-each-pairs", "three-suits"])
def test_prime_four_tiles_one_of_each_suit(game, hand, expected):
    """"Prime (Arms coins): Four tiles, one of each suit.\""""
    assert categories_won(game, hand) == expected


@pytest.mark.parametrize("hand,expected", [
    (["null of suns", "null of moons", "null of crowns", "2 of suns"], {"set"}),
    (["ace of suns", "ace of moons", "ace of arms", "4 of moons"], {"set"}),
    (["5 of suns", "5 of moons", "5 of crowns", "5 of arms"], {"set", "prime"}),
    (["3 of suns", "3 of moons", "ace of suns", "ace of moons"], set()),
], ids=["three-nulls", "three-aces", "four-fives", "two-pairs"])
def test_set_three_or_four_same_number(game, hand, expected):
    """"Set (Sun coins): Three or four tiles of the same number (null, 2, 3,
    4, 5, or Ace).\""""
    assert categories_won(game, hand) == expected


RUNS = [["null", 2, 3], [2, 3, 4], [3, 4, 5], [4, 5, "ace"],
        ["null", 2, 3, 4], [2, 3, 4, 5], [3, 4, 5, "ace"]]


def run_hand(ranks: list) -> list[str]:
    """A hand holding the run and nothing else: suits alternate suns/moons, and
    a three-tile run is padded with a second tile of its lowest rank."""
    ranks = list(ranks) + ([ranks[0]] if len(ranks) == 3 else [])
    return [f"{r} of {'suns' if i % 2 == 0 else 'moons'}" for i, r in enumerate(ranks)]


@pytest.mark.parametrize("ranks", RUNS, ids=["-".join(map(str, r)) for r in RUNS])
def test_run_sequential_numbers(game, ranks):
    """"Run (Moon coins): Three or four tiles of sequential numbers (null-2-3,
    2-3-4, 3-4-5, 4-5-Ace, null-2-3-4, 2-3-4-5, or 3-4-5-Ace.)\""""
    assert categories_won(game, run_hand(ranks)) == {"run"}


@pytest.mark.parametrize("hand,expected", [
    (["null of suns", "2 of moons", "3 of suns", "5 of moons"], {"run"}),
    (["5 of suns", "ace of moons", "null of suns", "3 of moons"], set()),
    (["ace of suns", "null of moons", "2 of suns", "4 of moons"], set()),
    (["4 of suns", "5 of moons", "ace of suns", "2 of moons"], {"run"}),
], ids=["null-2-3", "5-ace-null", "ace-null-2", "4-5-ace"])
def test_ace_is_high_only(game, hand, expected):
    """M1. "The ace is high only: null-2-3 is a run, 5-ace-null is not.\""""
    assert categories_won(game, hand) == expected


def test_two_three_four_four_holds_a_three_run(game):
    """M2. "Run: at least three tiles of distinct consecutive ranks (a 3-run or
    a 4-run); 2-3-4-4 holds a 3-run.\""""
    assert categories_won(game, ["2 of suns", "3 of moons", "4 of suns", "4 of moons"]) == {"run"}


@pytest.mark.parametrize("hand,expected", [
    (["2 of crowns", "3 of crowns", "4 of crowns", "5 of crowns"], {"flush", "run"}),
    (["4 of suns", "4 of moons", "4 of crowns", "2 of arms"], {"prime", "set"}),
    (["2 of suns", "3 of moons", "4 of crowns", "5 of arms"], {"prime", "run"}),
], ids=["flush-and-run", "prime-and-set", "prime-and-run"])
def test_same_group_in_two_categories(game, hand, expected):
    """"The same group can be flush and run, prime and set, or prime and
    run.\""""
    assert categories_won(game, hand) == expected


# ====================================================================== point values
def showdown_winners(game, hands: dict[int, list[str]], **kw):
    """Play the showdown (multipliers declined): seat → categories it was paid for."""
    before, after = play_showdown(game, len(hands), hands, **kw)
    decline_multipliers(after)
    return {p: coin_categories(coins_gained(before, after, p)) for p in hands}, before, after


def test_four_tile_set_beats_three_tile_set_with_higher_total(game):
    """"However, a four-tile set or run always beats a three-tile set or run.\""""
    four = ["2 of suns", "2 of moons", "2 of crowns", "2 of arms"]      # total 8
    three = ["5 of suns", "5 of moons", "5 of crowns", "ace of suns"]  # total 21
    won, _, _ = showdown_winners(game, {0: three, 1: four})
    assert "set" in won[1] and "set" not in won[0]


def test_four_tile_run_beats_three_tile_run_with_higher_total(game):
    """"However, a four-tile set or run always beats a three-tile set or run.\""""
    four = ["null of suns", "2 of moons", "3 of crowns", "4 of suns"]  # total 9
    three = ["4 of moons", "5 of crowns", "ace of arms", "ace of crowns"]  # total 21
    won, _, _ = showdown_winners(game, {0: three, 1: four})
    assert won == {0: set(), 1: {"run"}}


def test_highest_total_four_tile_value_wins_flush(game):
    """"Count 6 for the Ace, 5, 4, 3, 2, or 0 for the null. The highest total
    four-tile value wins in each category where it is eligible.\""""
    low = ["null of suns", "2 of suns", "4 of suns", "ace of suns"]      # 12
    high = ["2 of moons", "3 of moons", "5 of moons", "ace of moons"]    # 16
    mid = ["null of arms", "3 of arms", "4 of arms", "ace of arms"]      # 13
    won, _, _ = showdown_winners(game, {0: low, 1: high, 2: mid})
    assert won == {0: set(), 1: {"flush"}, 2: set()}


def test_highest_total_four_tile_value_wins_prime(game):
    """"Count 6 for the Ace, 5, 4, 3, 2, or 0 for the null. The highest total
    four-tile value wins in each category where it is eligible.\""""
    a = ["null of suns", "2 of moons", "null of crowns", "ace of arms"]   # 8
    b = ["ace of suns", "5 of moons", "5 of crowns", "null of arms"]      # 16
    c = ["2 of suns", "ace of moons", "2 of crowns", "5 of arms"]         # 15
    won, _, _ = showdown_winners(game, {0: a, 1: b, 2: c})
    assert won == {0: set(), 1: {"prime"}, 2: set()}


def test_total_is_all_four_tiles_for_set(game):
    """M3. "“Total four-tile value” is the sum of all four tiles in the hand,
    for every category. In Set and Run a four-tile group beats any three-tile
    group, then the higher total wins.\""""
    twos = ["2 of suns", "2 of moons", "2 of crowns", "ace of suns"]      # 2+2+2+6 = 12
    threes = ["3 of suns", "3 of moons", "3 of crowns", "null of suns"]   # 3+3+3+0 = 9
    won, _, _ = showdown_winners(game, {0: threes, 1: twos})
    assert won == {0: set(), 1: {"set"}}


def test_total_is_all_four_tiles_for_run(game):
    """M3. "“Total four-tile value” is the sum of all four tiles in the hand,
    for every category. In Set and Run a four-tile group beats any three-tile
    group, then the higher total wins.\""""
    low_run_high_kicker = ["null of suns", "2 of moons", "3 of suns", "ace of moons"]  # 11
    high_run = ["3 of moons", "4 of suns", "5 of moons", "null of crowns"]            # 12
    won, _, _ = showdown_winners(game, {0: low_run_high_kicker, 1: high_run})
    assert won == {0: set(), 1: {"run"}}
    # the lower run 2-3-4 with an ace (15) beats 3-4-5 with a null (12)
    low_run_high_kicker = ["2 of suns", "3 of moons", "4 of suns", "ace of moons"]     # 15
    high_run_low_kicker = ["3 of crowns", "4 of arms", "5 of crowns", "null of arms"]  # 12
    won, _, _ = showdown_winners(game, {0: high_run_low_kicker, 1: low_run_high_kicker})
    assert won == {0: set(), 1: {"run"}}


def test_tie_for_best_nobody_wins(game):
    """"If two or more tie for a category win, nobody wins that category.\""""
    a = ["null of suns", "2 of suns", "4 of suns", "ace of suns"]        # flush 12
    b = ["null of moons", "2 of moons", "4 of moons", "ace of moons"]    # flush 12
    c = ["null of crowns", "2 of crowns", "4 of crowns", "5 of crowns"]  # flush 11
    won, before, after = showdown_winners(game, {0: a, 1: b, 2: c})
    assert won == {0: set(), 1: set(), 2: set()}, "the lower flush does not win either"
    assert names(after, "coins[crowns]") == names(before, "coins[crowns]")


def test_tie_for_best_nobody_wins_set_ruling(game):
    """M3. "A category is won only by a unique best hand; if the best is tied,
    nobody wins it.\""""
    a = ["3 of suns", "3 of moons", "3 of crowns", "5 of suns"]         # set 14
    b = ["2 of moons", "2 of crowns", "2 of arms", "ace of moons"]      # set 12
    c = ["4 of suns", "4 of moons", "4 of arms", "2 of suns"]           # set 14
    won, before, after = showdown_winners(game, {0: a, 1: b, 2: c})
    assert won == {0: set(), 1: set(), 2: set()}
    assert names(after, "coins[suns]") == names(before, "coins[suns]")


# ====================================================================== rewards
def test_each_category_winner_takes_top_coin_of_its_stack(game):
    """"The winner in each category takes the top coin from the stack
    corresponding to the category won.\""""
    hands = {
        0: ["null of crowns", "2 of crowns", "4 of crowns", "ace of crowns"],  # flush
        1: ["2 of suns", "5 of moons", "5 of crowns", "2 of arms"],            # prime
        2: ["4 of suns", "4 of moons", "4 of arms", "null of suns"],           # set
        3: ["null of moons", "2 of moons", "3 of arms", "null of arms"],       # run
    }
    _, before, after = showdown_winners(game, hands)
    assert sorted(coins_gained(before, after, 0)) == ["2 of crowns coin", "3 of crowns coin"]
    assert coins_gained(before, after, 1) == ["2 of arms coin"]
    assert coins_gained(before, after, 2) == ["2 of suns coin"]
    assert coins_gained(before, after, 3) == ["2 of moons coin"]
    assert names(after, "coins[arms]") == [f"{r} of arms coin" for r in ("ace", 5, 4, 3)]
    assert names(after, "coins[suns]") == [f"{r} of suns coin" for r in ("ace", 5, 4, 3)]
    assert names(after, "coins[moons]") == [f"{r} of moons coin" for r in ("ace", 5, 4, 3)]
    assert names(after, "coins[crowns]") == [f"{r} of crowns coin" for r in ("ace", 5, 4)]


def test_winner_takes_the_current_top_coin(game):
    """"The winner in each category takes the top coin from the stack
    corresponding to the category won.\""""
    hands = {0: ["4 of suns", "4 of moons", "4 of arms", "null of suns"]}  # set
    hands[1] = duds_for(1, hands[0])[0]
    won_before = {1: ["2 of suns coin", "3 of suns coin"]}
    _, before, after = showdown_winners(game, hands, won=won_before)
    assert coins_gained(before, after, 0) == ["4 of suns coin"]
    assert names(after, "coins[suns]") == ["ace of suns coin", "5 of suns coin"]


def test_flush_winner_gets_two_crown_coins(game):
    """"A winner of the Flush category gets two Crown coins instead of one.\""""
    hands = {0: ["2 of arms", "3 of arms", "5 of arms", "ace of arms"]}
    hands[1] = duds_for(1, hands[0])[0]
    _, before, after = showdown_winners(game, hands)
    assert sorted(coins_gained(before, after, 0)) == ["2 of crowns coin", "3 of crowns coin"]
    assert score(after.position, 0) == 5


def test_flush_winner_gets_the_one_crown_left(game):
    """M6. "Rewards: each category's winner takes the top coin of its stack
    (Flush: the top two Crown coins, or the one left).\""""
    hands = {0: ["2 of arms", "3 of arms", "5 of arms", "ace of arms"]}
    hands[1] = duds_for(1, hands[0])[0]
    won_before = {1: ["2 of crowns coin", "3 of crowns coin", "4 of crowns coin", "5 of crowns coin"]}
    _, before, after = showdown_winners(game, hands, won=won_before)
    assert coins_gained(before, after, 0) == ["ace of crowns coin"]
    assert names(after, "coins[crowns]") == []
    assert score(after.position, 0) == 6


# ====================================================================== multiplier
PRIME_AND_SET = ["4 of suns", "4 of moons", "4 of crowns", "2 of arms"]
FLUSH_AND_RUN = ["2 of crowns", "3 of crowns", "4 of crowns", "5 of crowns"]


def test_double_winner_is_offered_the_multiplier(game):
    """"If a player won two categories, they may take the null coin (the
    multiplier) for one of the two categories, if available, in place of a
    coin from the stack.\""""
    # seat 1 wins two categories; seat 0 or 2 plays the final discard
    hands = {1: PRIME_AND_SET}
    hands.update(dict(zip([0, 2], duds_for(2, PRIME_AND_SET))))
    before, after = play_showdown(game, 3, hands)
    assert after.current_player == 1
    assert sorted(multiplier_offered(after)) == sorted([
        "take the null coin of arms for prime",
        "take the null coin of suns for set",
        "take no multiplier"])


def test_each_double_winner_gets_their_own_multiplier_decision(game):
    """"If a player won two categories, they may take the null coin (the
    multiplier) for one of the two categories, if available, in place of a
    coin from the stack.\" — every such player, each for their own categories."""
    hands = {0: FLUSH_AND_RUN,
             1: ["ace of suns", "ace of moons", "ace of crowns", "2 of arms"],  # prime and set
             2: DUDS[1]}
    before, after = play_showdown(game, 3, hands)
    deciders = []
    while multiplier_offered(after):
        p = after.current_player
        deciders.append(p)
        if p == 0:
            assert sorted(multiplier_offered(after)) == sorted([
                "take the null coin of crowns for flush", "take the null coin of moons for run",
                "take no multiplier"])
            after.apply("take the null coin of moons for run")
        else:
            assert sorted(multiplier_offered(after)) == sorted([
                "take the null coin of arms for prime", "take the null coin of suns for set",
                "take no multiplier"])
            after.apply("take no multiplier")
    assert sorted(deciders) == [0, 1]
    assert sorted(coins_gained(before, after, 0)) == [
        "2 of crowns coin", "3 of crowns coin", "null of moons coin"]
    assert sorted(coins_gained(before, after, 1)) == ["2 of arms coin", "2 of suns coin"]
    assert score(after.position, 0) == 5 * 2 and score(after.position, 1) == 4


def test_multiplier_is_the_players_decision(game):
    """M6. "A player who wins two or more categories may, for exactly one of
    them, take that category's null coin (the multiplier) instead of the stack
    coin(s), if it is still there. This is the player's decision.\""""
    for seat in range(3):
        hands = {seat: PRIME_AND_SET}
        others = [p for p in range(3) if p != seat]
        hands.update(dict(zip(others, duds_for(2, PRIME_AND_SET))))
        before, after = play_showdown(game, 3, hands)
        assert after.current_player == seat
        assert multiplier_offered(after)
        assert after.view(seat)["legal_actions"] == texts(after)


def test_taking_the_multiplier_replaces_the_stack_coin(game):
    """"If a player won two categories, they may take the null coin (the
    multiplier) for one of the two categories, if available, in place of a
    coin from the stack.\""""
    hands = {0: PRIME_AND_SET, 1: duds_for(1, PRIME_AND_SET)[0]}
    before, after = play_showdown(game, 2, hands)
    after.apply("take the null coin of suns for set")
    assert sorted(coins_gained(before, after, 0)) == ["2 of arms coin", "null of suns coin"]
    assert names(after, "multiplier[suns]") == []
    assert names(after, "coins[suns]") == names(before, "coins[suns]"), "the stack keeps its coin"
    assert names(after, "coins[arms]") == [f"{r} of arms coin" for r in ("ace", 5, 4, 3)]
    assert names(after, "multiplier[arms]") == ["null of arms coin"]
    assert score(after.position, 0) == 2 * 2


def test_taking_the_flush_multiplier_replaces_both_crown_coins(game):
    """"If a player won two categories, they may take the null coin (the
    multiplier) for one of the two categories, if available, in place of a
    coin from the stack.\""""
    hands = {0: FLUSH_AND_RUN, 1: duds_for(1, FLUSH_AND_RUN)[0]}
    before, after = play_showdown(game, 2, hands)
    assert sorted(multiplier_offered(after)) == sorted([
        "take the null coin of crowns for flush",
        "take the null coin of moons for run",
        "take no multiplier"])
    after.apply("take the null coin of crowns for flush")
    assert sorted(coins_gained(before, after, 0)) == ["2 of moons coin", "null of crowns coin"]
    assert names(after, "coins[crowns]") == names(before, "coins[crowns]")
    assert score(after.position, 0) == 4


def test_declining_the_multiplier_takes_the_stack_coins(game):
    """M6. "A player who wins two or more categories may, for exactly one of
    them, take that category's null coin (the multiplier) instead of the stack
    coin(s), if it is still there. This is the player's decision.\""""
    hands = {0: FLUSH_AND_RUN, 1: duds_for(1, FLUSH_AND_RUN)[0]}
    before, after = play_showdown(game, 2, hands)
    after.apply("take no multiplier")
    assert sorted(coins_gained(before, after, 0)) == [
        "2 of crowns coin", "2 of moons coin", "3 of crowns coin"]
    for s in SUITS:
        assert names(after, f"multiplier[{s}]") == [f"null of {s} coin"]
    assert score(after.position, 0) == 7


def test_multiplier_not_offered_for_one_category(game):
    """"If a player won two categories, they may take the null coin (the
    multiplier) for one of the two categories\" — not a player who won one."""
    hands = {0: ["4 of suns", "4 of moons", "4 of arms", "null of suns"],   # set only
             1: ["5 of suns", "ace of moons", "2 of crowns", "2 of arms"]}  # prime only
    hands[2] = duds_for(1, hands[0] + hands[1])[0]
    before, after = play_showdown(game, 3, hands)
    assert multiplier_offered(after) == []
    assert is_draw_decision(after) and after.position.vars["round"] == 2
    assert coins_gained(before, after, 0) == ["2 of suns coin"]
    assert coins_gained(before, after, 1) == ["2 of arms coin"]


def test_multiplier_not_offered_when_its_null_coin_is_gone(game):
    """M6. "... take that category's null coin (the multiplier) instead of the
    stack coin(s), if it is still there.\""""
    hands = {0: PRIME_AND_SET, 1: duds_for(1, PRIME_AND_SET)[0]}
    before, after = play_showdown(game, 2, hands, won={1: ["null of suns coin"]})
    offered = multiplier_offered(after)
    assert "take the null coin of suns for set" not in offered
    assert sorted(offered) == ["take no multiplier", "take the null coin of arms for prime"]
    after.apply("take the null coin of arms for prime")
    assert sorted(coins_gained(before, after, 0)) == ["2 of suns coin", "null of arms coin"]


def test_no_multiplier_decision_when_both_null_coins_are_gone(game):
    """M6. "... take that category's null coin (the multiplier) instead of the
    stack coin(s), if it is still there.\" With neither null coin there, there
    is nothing to decide: no multiplier decision, the stack coins are paid and
    the next round is dealt."""
    hands = {0: PRIME_AND_SET, 1: duds_for(1, PRIME_AND_SET)[0]}
    before, after = play_showdown(game, 2, hands,
                                  won={1: ["null of suns coin", "null of arms coin"]})
    assert multiplier_offered(after) == [], "a decision with nothing to choose is offered"
    assert is_draw_decision(after) and after.position.vars["round"] == 2
    assert sorted(coins_gained(before, after, 0)) == ["2 of arms coin", "2 of suns coin"]


# ====================================================================== scoring
def test_score_is_sum_of_coins_times_multipliers(game):
    """"A player's score is the sum of all coins they have won. One multiplier
    coin doubles the total, two triple it, and so on.\""""
    state = game.new_game(4, seed=3)
    state = arrange(state, {
        won_label(0): ["2 of suns coin", "3 of suns coin"],
        won_label(1): ["2 of moons coin", "3 of moons coin", "null of moons coin"],
        won_label(2): ["2 of arms coin", "3 of arms coin", "null of crowns coin",
                       "null of arms coin"],
        won_label(3): [],
    })
    assert [score(state.position, p) for p in range(4)] == [5, 10, 15, 0]
    assert state.result()["scores"] == [5, 10, 15, 0]


def test_score_ruling_m7(game):
    """M7. "Score = (sum of won coin values) × (1 + number of multipliers
    held).\""""
    state = game.new_game(2, seed=3)
    state = arrange(state, {
        won_label(0): ["2 of crowns coin", "3 of crowns coin", "4 of crowns coin",
                       "null of suns coin", "null of moons coin", "null of arms coin"],
        won_label(1): ["null of crowns coin"],
    })
    assert score(state.position, 0) == 9 * 4
    assert score(state.position, 1) == 0


def test_ace_coin_counts_six(game):
    """"Stack the other five coins of each suit number-side up, with the 2 on
    top, then 3, 4, 5, and Ace (always valued as 6 in this game) underneath.\""""
    state = game.new_game(2, seed=3)
    state = arrange(state, {won_label(0): [f"{r} of arms coin" for r in (2, 3, 4, 5, "ace")],
                            won_label(1): ["ace of suns coin"]})
    assert score(state.position, 0) == 2 + 3 + 4 + 5 + 6
    assert score(state.position, 1) == 6


# ====================================================================== next round
THREE_DUDS = DUDS[:3]


def test_highest_score_plays_first_next_round(game):
    """M4. "The first player of a round is the one with the highest score\"
    ("The player with the highest current score then plays first")."""
    for seed in range(6):
        hands = dict(enumerate(THREE_DUDS))
        _, after = play_showdown(game, 3, hands, seed=seed,
                                 won={0: ["2 of moons coin"], 2: ["2 of suns coin", "3 of suns coin"],
                                      1: ["2 of arms coin"]})
        assert [score(after.position, p) for p in range(3)] == [2, 2, 5]
        assert after.position.vars["round"] == 2
        assert after.current_player == 2 and int(after.position.vars["first"]) == 2


def test_highest_score_starts_after_winning(game):
    """"The player with the highest current score then plays first, and play
    continues clockwise.\""""
    hands = {1: ["2 of arms", "3 of arms", "5 of arms", "ace of arms"]}  # flush: 2 + 3 crowns
    hands[0], hands[2] = duds_for(2, hands[1])
    for seed in range(4):
        _, after = play_showdown(game, 3, hands, seed=seed, won={2: ["2 of suns coin"]})
        assert [score(after.position, p) for p in range(3)] == [0, 5, 2]
        assert after.current_player == 1


def test_tied_top_scores_broken_at_random_among_tied(game):
    """M4. "ties (the first round included) are broken at random among the
    tied players.\""""
    firsts = []
    for seed in range(16):
        hands = dict(enumerate(THREE_DUDS))
        _, after = play_showdown(game, 3, hands, seed=seed,
                                 won={0: ["2 of suns coin", "3 of suns coin"],
                                      1: ["2 of moons coin"],
                                      2: ["2 of arms coin", "3 of arms coin"]})
        assert [score(after.position, p) for p in range(3)] == [5, 2, 5]
        assert after.current_player == int(after.position.vars["first"])
        firsts.append(after.current_player)
    assert set(firsts) == {0, 2}


def test_new_round_gathers_and_reshuffles_all_tiles(game):
    """M8. "Otherwise all tiles are gathered and shuffled and a new round
    begins." ("If there are still coins in all stacks, then begin a new
    round.")"""
    hands = {0: ["2 of arms", "3 of arms", "5 of arms", "ace of arms"]}
    hands[1], hands[2] = duds_for(2, hands[0])
    before, after = play_showdown(game, 3, hands)
    assert not after.is_terminal()
    assert after.position.vars["round"] == before.position.vars["round"] + 1
    assert any(getattr(h, "kind", None) == "shuffle" for h in after.history[1:])
    assert names(after, "discards") == []
    tiles = names(after, "stack") + [n for p in range(3) for n in hand_of(after, p)]
    assert len(tiles) == 24 and len(names(after, "stack")) == 12
    assert not any(is_face_up(after, n) for n in tiles)
    assert all(len(hand_of(after, p)) == 4 for p in range(3))
    # the coins stay won
    assert sorted(names(after, won_label(0))) == ["2 of crowns coin", "3 of crowns coin"]
    # the new deal is a fresh shuffle, not the old hands
    assert [sorted(hand_of(after, p)) for p in range(3)] != [sorted(hands[p]) for p in range(3)]


# ====================================================================== game end
def test_game_ends_when_a_stack_is_emptied_highest_score_wins(game):
    """"If one or more stacks are empty, then the player with the highest score
    has won the game.\""""
    hands = {0: ["null of suns", "2 of moons", "3 of suns", "4 of moons"]}  # run: the last moon coin
    hands[1] = duds_for(1, hands[0])[0]
    won = {0: ["2 of moons coin", "3 of moons coin", "2 of suns coin"],               # 7
           1: ["4 of moons coin", "5 of moons coin", "3 of suns coin",
               "2 of arms coin", "3 of arms coin"]}                                  # 17
    _, after = play_showdown(game, 2, hands, won=won)
    assert names(after, "coins[moons]") == []
    assert after.is_terminal()
    assert after.legal_actions() == []
    result = after.result()
    assert result["scores"] == [13, 17]
    assert result["winners"] == [1]
    assert result["returns"] == [0.0, 1.0]
    assert result["draw"] is False


def test_game_end_unique_winner_is_the_one_who_emptied(game):
    """M8. "After the showdown, if any stack is empty the game ends and the
    highest score wins (G2).\""""
    hands = {0: ["null of suns", "2 of moons", "3 of suns", "4 of moons"]}
    hands[1] = duds_for(1, hands[0])[0]
    won = {0: ["2 of moons coin", "3 of moons coin", "2 of suns coin"],   # 7 + 6
           1: ["4 of moons coin", "5 of moons coin"]}                    # 9
    _, after = play_showdown(game, 2, hands, won=won)
    assert after.is_terminal()
    assert after.result()["winners"] == [0]


def test_game_end_ties_are_shared(game):
    """G2. "Ties for the win are shared: every tied player is a winner.\""""
    hands = {0: ["null of suns", "2 of moons", "3 of suns", "4 of moons"]}
    hands[1] = duds_for(1, hands[0])[0]
    won = {0: ["2 of moons coin", "3 of moons coin", "2 of suns coin"],                # 7 + 6
           1: ["4 of moons coin", "5 of moons coin", "2 of arms coin", "2 of crowns coin"]}  # 13
    _, after = play_showdown(game, 2, hands, won=won)
    assert after.is_terminal()
    result = after.result()
    assert result["scores"] == [13, 13]
    assert result["winners"] == [0, 1]
    assert result["returns"] == [1.0, 1.0]
    assert result["draw"] is False


def test_game_does_not_end_while_all_stacks_have_coins(game):
    """"If there are still coins in all stacks, then begin a new round.\" — even
    a stack down to its last coin."""
    hands = {0: ["2 of suns", "3 of arms", "5 of moons", "ace of crowns"]}  # prime only
    hands[1] = duds_for(1, hands[0])[0]
    won = {1: ["2 of moons coin", "3 of moons coin", "4 of moons coin", "5 of moons coin",
               "2 of arms coin", "3 of arms coin", "4 of arms coin"]}
    _, after = play_showdown(game, 2, hands, won=won)
    assert names(after, "coins[arms]") == ["ace of arms coin"]
    assert not after.is_terminal()
    assert after.position.vars["round"] == 2 and is_draw_decision(after)
