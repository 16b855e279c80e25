"""Ludo (rulepack/rulesets/ludo.rules) against its published rules: ppgames,
inst/rules/ludo.Rtex (github piecepackr/ppgames, Trevor L. Davis, CC BY-SA 4.0). The
track is rebuilt here from ppgames' figure of the Moons player's route (its segments,
turned for the other suits); a model of the rules on it checks every decision of
random games of two to four players."""

from __future__ import annotations

import random

from hypothesis import given, settings, strategies as st

import rulepack
from rulepack.engine.inspect import grid_stacks, zone_pieces

GAME = rulepack.load("ludo")
PIPS = {"null": 6, "ace": 1, 2: 2, 3: 3, 4: 4, 5: 5}
SUITS = {2: ["moons", "arms"], 3: ["moons", "crowns", "arms"],
         4: ["moons", "crowns", "arms", "suns"]}


def turn(p: tuple[int, int]) -> tuple[int, int]:
    """A point turned a quarter clockwise about the centre (8, 8)."""
    return 8 + (p[1] - 8), 8 - (p[0] - 8)


def moons_route() -> list[tuple[int, int]]:
    """The figure's route: down from the starting point (9, 14), round the cross
    clockwise (the curves at the inner corners), up to (8, 15), then the home column
    (8, 14)...(8, 10) and the home (8, 9)."""
    arm = [(9, y) for y in range(14, 9, -1)] + [(x, 9) for x in range(10, 16)] + [(15, 8)]
    track: list[tuple[int, int]] = []
    quarter = arm + [(15, 7)]                     # one arm of the loop, 13 points
    quarter = [(9, y) for y in range(14, 9, -1)] + [(x, 9) for x in range(10, 16)] + \
        [(15, 8), (15, 7)]
    for k in range(4):
        track += quarter
        quarter = [turn(p) for p in quarter]
    assert len(set(track)) == 52 and track[0] == (9, 14)
    return track[:51] + [(8, y) for y in range(14, 8, -1)]


ROUTES = {"moons": moons_route()}
for before, after in (("moons", "crowns"), ("crowns", "arms"), ("arms", "suns")):
    ROUTES[after] = [turn(p) for p in ROUTES[before]]


def own_zone(state, name: str, seat: int) -> list:
    """The pieces of a seat's zone of a family (``staging``, ``dice``)."""
    label = next(z.label for z in state.program.zones if z.name == name and z.owner == seat)
    return zone_pieces(state, label)


def places(state) -> dict[tuple[int, int], list]:
    return {(ord(c[0]) - 96, int(c[1:])): s for c, s in grid_stacks(state, "board") if s}


def name(p) -> str:
    return f"{chr(96 + p[0])}{p[1]}"


def expected(state, seat: int, v: int) -> set[str]:
    """"Per die roll a player may either enter a coin from their staging tile into play
    at their starting point or alternatively move an already 'in play' coin"; enter on
    a null only, "Unless their starting point is blocked by multiple coins"; "An 'in
    play' coin must move exactly the number of points as the die roll"; "Opponent coins
    may not land on or pass a 'block'"; "One must roll exactly to move a coin to home"."""
    suit = SUITS[state.program.num_players][seat]
    route = ROUTES[suit]
    cells = places(state)

    def block(p):
        s = cells.get(p, [])
        return len(s) >= 2 and s[-1].attrs["suit"] != suit
    out = set()
    staged = own_zone(state, "staging", seat)
    if v == 6 and staged and not block(route[0]):
        out.add(f"{suit}@{name(route[0])}")
    for p, s in cells.items():
        if s[-1].attrs["suit"] != suit or p not in route:
            continue
        i = route.index(p)
        if i == 56 or i + v > 56:
            continue
        if all(not block(route[i + k]) for k in range(1, v + 1)):
            out.add(f"{name(p)}-{name(route[i + v])}")
    return out


def test_the_start():
    """Setup: each player's "four coins ('suit' side up)" on their staging tile and
    their die; "If exactly two players are playing then they should place their suits on
    opposite sides of each other on the track"."""
    for n in (2, 3, 4):
        state = GAME.new_game(n, seed=0)
        for seat, suit in enumerate(SUITS[n]):
            staged = own_zone(state, "staging", seat)
            assert len(staged) == 4 and {c.attrs["suit"] for c in staged} == {suit}
        assert not places(state)
    assert ROUTES["moons"][0] == (9, 14) and ROUTES["arms"][0] == (7, 2)   # opposite


def play_checked(players: int, seed: int) -> None:
    state = GAME.new_game(players, seed=seed)
    rng = random.Random(seed)
    while not state.is_terminal() and state.decisions < 400:
        seat = state.current_player
        die = own_zone(state, "dice", seat)[0]
        v = PIPS[state.position.rolled.get(die.id, "null")]
        texts = {a.text for a in state.legal_actions()}
        assert texts == expected(state, seat, v), (players, seed, state.decisions, v)
        text = rng.choice(sorted(texts))
        before = places(state)
        state.apply(text)
        # a single opponent's coin where the coin lands is hit: back to its staging
        if "-" in text and not state.is_terminal():
            to = text.split("-")[1]
            dest = (ord(to[0]) - 96, int(to[1:]))
            there = before.get(dest, [])
            suit = SUITS[players][seat]
            if len(there) == 1 and there[0].attrs["suit"] != suit:
                assert there[0].id in {c.id for q in range(players)
                                       for c in own_zone(state, "staging", q)}
    if state.is_terminal():
        (winner,) = state.result()["winners"]
        home = ROUTES[SUITS[players][winner]][56]
        # "Race all your coins around the track to home before your opponents"
        assert len(places(state)[home]) == 4


@settings(max_examples=6, deadline=None)
@given(st.sampled_from([2, 3, 4]), st.integers(0, 10_000))
def test_every_decision_of_random_games_follows_the_rules(players, seed):
    play_checked(players, seed)


def test_a_null_rolls_again_and_a_third_null_ends_the_turn():
    """"if a player rolls a null then after they (possibly) make a move with the null
    they may roll the die a second time ... if this third die roll is also a null they
    do not get to make a third move (with the null) and their turn is over": in the
    history of seeded games, a die rolls again right after a null and only then, never
    a fourth time in a row, and no move follows its third null."""
    from rulepack.engine.actions import Action, ChanceEvent
    thirds = 0
    for seed in range(12):
        state = GAME.new_game(2, seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal() and state.decisions < 300:
            state.apply(rng.choice(state.legal_actions()))
        events = [e for e in state.history
                  if isinstance(e, Action) or (isinstance(e, ChanceEvent) and e.kind == "roll")]
        rolls = [(k, e.outcome[0].id, e.outcome[1]) for k, e in enumerate(events)
                 if isinstance(e, ChanceEvent)]
        for (k, die, face), (k2, die2, _) in zip(rolls, rolls[1:]):
            streak = [r for r in rolls if r[0] <= k][-3:]
            third = len(streak) == 3 and all(d == die and f == "null" for _, d, f in streak)
            if third:
                thirds += 1
                assert die2 != die and not any(isinstance(e, Action) for e in events[k + 1:k2])
            elif die2 == die and not state.is_terminal():
                assert face == "null"          # the same die again: only after a null
    assert thirds >= 1
