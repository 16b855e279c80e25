"""Awithlaknannai Mosona (rulepack/rulesets/awithlaknannai-mosona.rules) against its
published rules: ppgames, inst/rules/awithlaknannai-mosona.Rtex (github
piecepackr/ppgames, Trevor L. Davis, CC BY-SA 4.0). The network is worked out here
from ppgames' figure of it (its segments and curves, in units of half a tile's
diagonal); a model of the moves on it checks every decision of random games."""

from __future__ import annotations

import random

from hypothesis import given, settings, strategies as st

import rulepack
from rulepack.engine.inspect import grid_cells, zone_pieces

GAME = rulepack.load("awithlaknannai-mosona")
SIDES = (("suns", "moons"), ("crowns", "arms"))
# the tiles' centres: x = 2, 4 ... 16 at y = 2; "Nodes are the corners of the tiles"
TILES = [(x, 2) for x in range(2, 17, 2)]
NODES = {(x + dx, y + dy) for x, y in TILES for dx, dy in ((-1, 0), (0, 1), (1, 0), (0, -1))}
# the figure's lines: the three rows; segments from each tile's bottom corner to the
# next tile's top corner and back; the curves joining the end tiles' corners
LINES = [sorted((n for n in NODES if n[1] == y), key=lambda n: n[0]) for y in (1, 2, 3)]
LINES += [[(x, 1), (x + 1, 2), (x + 2, 3)] for x, _ in TILES[:7]]
LINES += [[(x, 3), (x + 1, 2), (x + 2, 1)] for x, _ in TILES[:7]]
LINES += [[(2, 1), (1, 2), (2, 3)], [(16, 1), (17, 2), (16, 3)]]


def board(state) -> dict[tuple[int, int], object]:
    """(x, y) → the coin there; rows a1... from the top: row 1 is y = 3."""
    return {(ord(c[0]) - 96, 4 - int(c[1:])): p for c, p in grid_cells(state, "board")
            if p is not None}


def name(n: tuple[int, int]) -> str:
    return f"{chr(96 + n[0])}{4 - n[1]}"


def ways(n):
    for line in LINES:
        if n in line:
            k = line.index(n)
            for step in (1, -1):
                if 0 <= k + step < len(line):
                    beyond = line[k + 2 * step] if 0 <= k + 2 * step < len(line) else None
                    yield line[k + step], beyond


def expected(cells, me: int, only_from=None) -> set[str]:
    """"The non-capturing simple move is a sideways or diagonal move to an empty,
    adjacent node"; "A capturing jump move ... jumping over an enemy-occupied adjacent
    node to an empty node past it on the same line"; "If possible a player must choose
    to do a jump instead of a simple move"; a coin that has jumped goes on while it can."""
    mine = [n for n, x in cells.items() if x.attrs["suit"] in SIDES[me]]
    jumps, slides = set(), set()
    for n in mine:
        for nxt, beyond in ways(n):
            enemy = nxt in cells and cells[nxt].attrs["suit"] not in SIDES[me]
            if enemy and beyond is not None and beyond not in cells:
                jumps.add((n, beyond))
            if nxt not in cells:
                slides.add((n, nxt))
    if only_from is not None:
        return {f"{name(a)}-{name(b)}" for a, b in jumps if a == only_from}
    return {f"{name(a)}-{name(b)}" for a, b in (jumps or slides)}


def test_the_board_and_the_start():
    """Setup: "Use 8 tiles and all 24 coins": 25 nodes, the centre one empty; each
    player "all twelve of the coin backs from two suits"; "Each player rolls a die to see
    who goes first"."""
    state = GAME.new_game(2, seed=0)
    cells = board(state)
    assert {(ord(c[0]) - 96, 4 - int(c[1:])) for c, _ in grid_cells(state, "board")} == NODES
    assert len(cells) == 24 and (9, 2) not in cells
    for p in (0, 1):
        assert sum(1 for x in cells.values() if x.attrs["suit"] in SIDES[p]) == 12
    assert {GAME.new_game(2, seed=s).current_player for s in range(30)} == {0, 1}


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 10_000))
def test_every_decision_of_random_games_follows_the_rules(seed):
    state = GAME.new_game(2, seed=seed)
    rng = random.Random(seed)
    going_on = None
    while not state.is_terminal():
        me = state.current_player
        cells = board(state)
        texts = {a.text for a in state.legal_actions()}
        assert texts == expected(cells, me, going_on), (seed, state.decisions)
        text = rng.choice(sorted(texts))
        a, b = text.split("-")
        frm, to = (ord(a[0]) - 96, 4 - int(a[1:])), (ord(b[0]) - 96, 4 - int(b[1:]))
        jumped = to not in dict(ways(frm))
        state.apply(text)
        going_on = to if jumped and not state.is_terminal() and state.current_player == me \
            else None
        if jumped and not state.is_terminal():
            # "After making a jump a piece must continue to jump until it can no longer"
            assert (state.current_player == me) == bool(expected(board(state), me, to))
    if state.result()["winners"]:
        (winner,) = state.result()["winners"]
        taken = [len(zone_pieces(state, f"taken[{n}]")) for n in state.program.seat_names]
        left = sum(1 for x in board(state).values() if x.attrs["suit"] in SIDES[1 - winner])
        # "Capture all your opponent's pieces to win" (or they cannot move, or — the
        # footnote — more captures when no more are made)
        assert left == 0 or not expected(board(state), 1 - winner) or \
            taken[winner] > taken[1 - winner]
