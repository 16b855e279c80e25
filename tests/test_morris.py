"""Nine and Twelve Men's Morris (rulepack/rulesets/nine-mens-morris.rules,
twelve-mens-morris.rules) against their published rules: ppgames,
inst/rules/nine-mens-morris.Rtex and twelve-mens-morris.Rtex (github
piecepackr/ppgames, Trevor L. Davis, CC BY-SA 4.0). The board's lines are worked out
here from the segments ppgames draws in its figure of "the possible lines"; a model
of the rules built on them checks every decision of random games."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings, strategies as st

import rulepack
from rulepack.engine.inspect import grid_cells, zone_pieces

SIDES = (("suns", "moons"), ("crowns", "arms"))
# ppgames' figure "Possible lines on the ... board": grid.circle's points and
# grid.segments' lines (x0, y0, x1, y1)
POINTS = set(zip([1] * 3 + [3] * 3 + [5] * 3 + [7] * 6 + [9] * 3 + [11] * 3 + [13] * 3,
                 [1, 7, 13, 3, 7, 11, 5, 7, 9, 1, 3, 5, 9, 11, 13, 5, 7, 9, 3, 7, 11,
                  1, 7, 13]))
SEGMENTS = list(zip([1, 3, 5, 1, 9, 5, 3, 1], [13, 11, 9, 7, 7, 5, 3, 1],
                    [13, 11, 9, 5, 13, 9, 11, 13], [13, 11, 9, 7, 7, 5, 3, 1])) + \
    list(zip([13, 11, 9, 7, 7, 5, 3, 1], [1, 3, 5, 1, 9, 5, 3, 1],
             [13, 11, 9, 7, 7, 5, 3, 1], [13, 11, 9, 5, 13, 9, 11, 13]))
DIAGONALS = list(zip([1, 1, 13, 13], [1, 13, 13, 1], [5, 5, 9, 9], [5, 9, 9, 5]))


def lines_of(segments) -> list[list[tuple[int, int]]]:
    out = []
    for x0, y0, x1, y1 in segments:
        steps = max(abs(x1 - x0), abs(y1 - y0))
        on = [(x0 + (x1 - x0) * k // steps, y0 + (y1 - y0) * k // steps) for k in range(steps + 1)]
        out.append([p for p in on if p in POINTS])
    return out


RULES = {
    "nine-mens-morris": (9, lines_of(SEGMENTS)),
    "twelve-mens-morris": (12, lines_of(SEGMENTS) + lines_of(DIAGONALS)),
}


def name(p: tuple[int, int]) -> str:
    return f"{chr(96 + p[0])}{p[1]}"


def board(state) -> dict[tuple[int, int], object]:
    return {(ord(c[0]) - 96, int(c[1:])): p for c, p in grid_cells(state, "board")
            if p is not None}


class Model:
    """The rules over the lines above: who owns what, which moves, which mills."""

    def __init__(self, ruleset: str) -> None:
        self.men, self.lines = RULES[ruleset]
        self.links = {p: set() for p in POINTS}
        for line in self.lines:
            for a, b in zip(line, line[1:]):
                self.links[a].add(b)
                self.links[b].add(a)

    def mill(self, owned: set, p) -> bool:
        return any(p in line and all(q in owned for q in line) for line in self.lines)

    def moves(self, cells, me: int, in_hand: int, barred=None) -> set[str]:
        mine = {p for p, x in cells.items() if x.attrs["suit"] in SIDES[me]}
        empty = POINTS - set(cells)
        if in_hand:
            return {name(d) for d in empty}              # texts end with @point
        out = set()
        for c in mine:
            targets = empty if len(mine) == 3 else self.links[c] & empty
            for d in targets:
                if barred and barred == (c, d) and self.mill(mine - {c} | {d}, d):
                    continue
                out.add(f"{name(c)}-{name(d)}")
        return out

    def removable(self, cells, me: int) -> set[str]:
        theirs = {p for p, x in cells.items() if x.attrs["suit"] in SIDES[1 - me]}
        free = {p for p in theirs if not self.mill(theirs, p)}
        return {f"*{name(p)}" for p in (free or theirs)}


@pytest.mark.parametrize("ruleset", sorted(RULES))
def test_the_board_and_the_coins(ruleset):
    """Setup: "Use all the tiles to set up the board" (24 points, the centre empty);
    each player takes nine coin backs (Twelve: "all twelve of the coin backs") of two
    suits, astronomical against power; "Roll a die to determine who goes first"."""
    game = rulepack.load(ruleset)
    state = game.new_game(2, seed=0)
    cells = [c for c, _ in grid_cells(state, "board")]
    assert {(ord(c[0]) - 96, int(c[1:])) for c in cells} == POINTS
    for p in (0, 1):
        hand = zone_pieces(state, f"hand[{state.program.seat_names[p]}]")
        assert len(hand) == RULES[ruleset][0]
        assert {x.attrs["suit"] for x in hand} <= set(SIDES[p])
    assert {game.new_game(2, seed=s).current_player for s in range(30)} == {0, 1}


def play_checked(ruleset: str, seed: int) -> None:
    game = rulepack.load(ruleset)
    model = Model(ruleset)
    state = game.new_game(2, seed=seed)
    rng = random.Random(seed)
    barred = {0: None, 1: None}
    while not state.is_terminal() and state.decisions < 300:
        me = state.current_player
        cells = board(state)
        texts = {a.text for a in state.legal_actions()}
        labels = state.program.seat_names
        in_hand = len(zone_pieces(state, f"hand[{labels[me]}]"))
        if all(t.startswith("*") for t in texts):
            assert texts == model.removable(cells, me), (ruleset, seed, state.decisions)
            state.apply(rng.choice(sorted(texts)))
            continue
        expected = model.moves(cells, me, in_hand,
                               barred[me] if ruleset.startswith("twelve") else None)
        assert {t.split("@")[-1] for t in texts} == expected, (ruleset, seed, state.decisions)
        text = rng.choice(sorted(texts))
        mine = {p for p, x in cells.items() if x.attrs["suit"] in SIDES[me]}
        if "@" in text:
            to = (ord(text.split("@")[1][0]) - 96, int(text.split("@")[1][1:]))
            frm = None
            after = mine | {to}
        else:
            a, b = text.split("-")
            frm, to = (ord(a[0]) - 96, int(a[1:])), (ord(b[0]) - 96, int(b[1:]))
            after = mine - {frm} | {to}
        milled = model.mill(after, to)
        broke = frm is not None and model.mill(mine, frm)
        barred[me] = (to, frm) if frm is not None and milled and broke else None
        state.apply(text)
        if not state.is_terminal():
            # "The moment when a player makes a mill ... they must remove an opponent's
            # piece": exactly then the same player removes one
            removal = state.current_player == me and all(
                t.startswith("*") for t in (a.text for a in state.legal_actions()))
            assert removal == milled, (ruleset, seed, text)
    if state.is_terminal() and state.result()["winners"]:
        (winner,) = state.result()["winners"]
        loser = 1 - winner
        cells = board(state)
        left = sum(1 for x in cells.values() if x.attrs["suit"] in SIDES[loser])
        in_hand = len(zone_pieces(state, f"hand[{state.program.seat_names[loser]}]"))
        # "A player loses when they have been reduced to two pieces or no longer has a
        # legal move to play."
        assert left + in_hand <= 2 or not model.moves(cells, loser, in_hand), (ruleset, seed)


@settings(max_examples=8, deadline=None)
@given(st.sampled_from(sorted(RULES)), st.integers(0, 10_000))
def test_every_decision_of_random_games_follows_the_rules(ruleset, seed):
    play_checked(ruleset, seed)
