"""Backgammon (rulepack/rulesets/backgammon.rules) against its published rules: ppgames,
inst/rules/backgammon.Rtex (github piecepackr/ppgames, Trevor L. Davis, CC BY-SA 4.0),
and its starting diagram df_backgammon (R/game_starts_traditional.R). The board and
routes are rebuilt here from ppgames' coordinates (tiles at x = 1, 3, ... 11 and 15,
... 25, astronomical's row at y = 5, power's at y = 1; the track figures); a model of
the rules on them — every way of playing the dice tried, as "use as many as possible,
the higher if only one" asks — checks every decision of random games."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings, strategies as st

import rulepack
from rulepack.engine.inspect import grid_stacks

GAME = rulepack.load("backgammon")
DOUBLING = GAME  # the same ruleset, played with the option doubling=true
PIPS = {"null": 6, "ace": 1, 2: 2, 3: 3, 4: 4, 5: 5}
SIDES = [("suns", "moons"), ("crowns", "arms")]      # "astronomical" versus "power"

# ppgames' tiles: x = 27 - 2k and 13 - 2k; the gap (the bar) at x = 13
XS = [1, 3, 5, 7, 9, 11, 15, 17, 19, 21, 23, 25]


def cell_of(x: int, y: int) -> str:
    """The rulepack label of the tile at ppgames' (x, y): column (x + 1) / 2, row 1
    astronomical's (y = 5), row 2 power's (y = 1)."""
    return f"{chr(96 + (x + 1) // 2)}{1 if y == 5 else 2}"


# "The 'Astronomical' player moves one direction on the U-shaped board while the
# 'Power' player moves in the opposite direction": astronomical's arrow runs along
# the top row to (25, 5), entering from the bottom row's right end; power's to (25, 1)
ROUTES = [[cell_of(x, 1) for x in reversed(XS)] + [cell_of(x, 5) for x in XS],
          [cell_of(x, 5) for x in reversed(XS)] + [cell_of(x, 1) for x in XS]]


def board(state: Any) -> dict[str, tuple[int, int]]:
    """cell → (owner, tokens) for each cell with tokens (the tile beneath not counted)."""
    out = {}
    for label, stack in grid_stacks(state, "board"):
        assert stack and stack[0].kind == "tile", "every point is a tile, face up"
        tokens = stack[1:]
        if tokens:
            owners = {0 if t.attrs["suit"] in SIDES[0] else 1 for t in tokens}
            assert len(owners) == 1, "Each point holds between 0--15 tokens of a single player"
            out[label] = (owners.pop(), len(tokens))
    return out


def zone_count(state: Any, name: str, seat: int) -> int:
    view = state.view(seat)
    return next(z["count"] for z in view["zones"].values()
                if z["name"] == name and z.get("owner") == seat)


class Model:
    """A position as the rules see it: tokens per cell, on the bar, borne off."""

    def __init__(self, cells: dict[str, tuple[int, int]], bar: list[int], off: list[int]):
        self.cells, self.bar, self.off = dict(cells), list(bar), list(off)

    def mine(self, p: int) -> list[int]:
        return [i for i, c in enumerate(ROUTES[p]) if self.cells.get(c, (None, 0))[0] == p]

    def blocked(self, p: int, c: str) -> bool:
        owner, n = self.cells.get(c, (None, 0))
        return owner == 1 - p and n >= 2       # "two or more opponent pieces"

    def moves(self, p: int, k: int) -> list[tuple[str, "Model"]]:
        route = ROUTES[p]
        out = []
        if self.bar[p]:
            # "If you have any pieces on the bar ... one must enter them"
            if not self.blocked(p, route[k - 1]):
                out.append((f"bar/{25 - k}", self.moved(p, None, k - 1)))
            return out
        mine = self.mine(p)
        home = all(i >= 18 for i in mine)
        for i in mine:
            t = i + k
            if t <= 23 and not self.blocked(p, route[t]):
                out.append((f"{24 - i}/{24 - t}", self.moved(p, i, t)))
            elif home and t == 24:
                out.append((f"{24 - i}/off", self.moved(p, i, None)))
            elif home and t > 24 and i == min(mine):
                out.append((f"{24 - i}/off with {k}", self.moved(p, i, None)))
        return out

    def moved(self, p: int, i: int | None, t: int | None) -> "Model":
        m = Model(self.cells, self.bar, self.off)
        route = ROUTES[p]
        if i is None:
            m.bar[p] -= 1
        else:
            owner, n = m.cells[route[i]]
            m.cells[route[i]] = (owner, n - 1)
            if n == 1:
                del m.cells[route[i]]
        if t is None:
            m.off[p] += 1
            return m
        owner, n = m.cells.get(route[t], (p, 0))
        if owner != p:          # "exactly one opponent piece ... it is hit"
            m.bar[owner] += 1
            n = 0
        m.cells[route[t]] = (p, n + 1)
        return m

    def best(self, p: int, left: tuple[int, ...]) -> tuple[int, int]:
        top = (0, 0)
        for k in sorted(set(left)):
            rest = list(left)
            rest.remove(k)
            for _, after in self.moves(p, k):
                used, pips = after.best(p, tuple(rest))
                top = max(top, (used + 1, pips + k))
        return top

    def legal(self, p: int, left: tuple[int, ...]) -> dict[str, tuple["Model", int]]:
        """"If possible one must use all the die rolls, if not possible to use all of them
        then use as many as possible---one must prefer the higher di(c)e roll(s) if able
        to use either."""
        top = self.best(p, left)
        out = {}
        for k in sorted(set(left)):
            rest = list(left)
            rest.remove(k)
            for text, after in self.moves(p, k):
                used, pips = after.best(p, tuple(rest))
                if (used + 1, pips + k) == top:
                    out[text] = (after, k)
        return out


def model_of(state: Any) -> Model:
    return Model(board(state), [zone_count(state, "bar", p) for p in (0, 1)],
                 [zone_count(state, "off", p) for p in (0, 1)])


def dice(state: Any) -> list[int]:
    pieces = next(z for z in state.view(0)["zones"].values() if z["name"] == "dice")["pieces"]
    return [PIPS[d["rank"]] for d in pieces]


def test_the_starting_position_is_ppgames_diagram() -> None:
    # df_backgammon: power's arms coins (4) and arms die on x_6 = 15 at y = 1, crowns
    # coins (5) on x_12 = 1 at y = 5, three coins on x_08 = 9 at y = 1, the pawns on
    # x_1 = 25 at y = 5; astronomical the same with the rows exchanged
    state = GAME.new_game(seed=0)
    cells = board(state)
    for seat, (home, far) in enumerate(((5, 1), (1, 5))):
        assert cells[cell_of(15, home)] == (seat, 5)     # the 6-point
        assert cells[cell_of(9, home)] == (seat, 3)      # the 8-point
        assert cells[cell_of(1, far)] == (seat, 5)       # the 13-point
        assert cells[cell_of(25, far)] == (seat, 2)      # the 24-point
    assert len(cells) == 8
    # "each player needs 15 tokens ... twelve coins (face down), two pawns, and one die"
    for seat in (0, 1):
        assert sum(n for owner, n in cells.values() if owner == seat) == 15
    # "The two remaining dice are to be shared by both players"
    shared = next(z for z in state.view(0)["zones"].values() if z["name"] == "dice")
    assert [d["suit"] for d in shared["pieces"]] == ["moons", "crowns"]


@pytest.mark.parametrize("seed", range(12))
def test_the_higher_first_die_goes_first(seed: int) -> None:
    # "Each player rolls a die to see who goes first." (astronomical the first shared
    # die, power the second; both again on a tie)
    state = GAME.new_game(seed=seed)
    rolls = [PIPS[e.outcome[1]] for e in state.history if type(e).__name__ == "ChanceEvent"]
    # the rolls for the start come in pairs up to the first unequal pair; the pair
    # after it is the first player's own roll
    pairs = [rolls[i:i + 2] for i in range(0, len(rolls) - 2, 2)]
    assert all(a == b for a, b in pairs[:-1]) and pairs[-1][0] != pairs[-1][1]
    assert state.current_player == (0 if pairs[-1][0] > pairs[-1][1] else 1)


def play_against_the_model(seed: int, max_decisions: int = 400) -> Any:
    state = GAME.new_game(seed=seed)
    rng = random.Random(seed)
    left: list[int] = []
    turn = None
    for _ in range(max_decisions):
        if state.is_terminal():
            break
        seat = state.current_player
        rolled = sum(1 for e in state.history if type(e).__name__ == "ChanceEvent")
        if rolled != turn:          # a new roll: a new turn
            turn = rolled
            a, b = dice(state)
            # "If the die values are the same ... the player has to make four moves"
            left = [a] * 4 if a == b else [a, b]
        model = model_of(state)
        expected = model.legal(seat, tuple(left))
        actual = [a.text for a in state.legal_actions()]
        assert set(actual) == set(expected), (seed, left, actual, sorted(expected))
        text = rng.choice(actual)
        after, k = expected[text]
        left.remove(k)
        state.apply(text)
        if not state.is_terminal():
            now = model_of(state)
            assert (now.cells, now.bar, now.off) == (after.cells, after.bar, after.off)
    return state


@settings(max_examples=4, deadline=None)
@given(st.integers(0, 2**31 - 1))
def test_every_decision_is_the_rules_and_the_winner_scores_the_stakes(seed: int) -> None:
    state = play_against_the_model(seed, 1000)
    assert state.is_terminal()
    # "a player wins after they bear off all their pieces off the board"
    winner = state.result()["winners"][0]
    assert zone_count(state, "off", winner) == 15
    loser = 1 - winner
    m = model_of(state)
    # "If at the end of a game a player has not borne off any pieces they are gammoned
    # and must pay twice the stakes. If they have not borne off any pieces and still
    # has a piece on the bar or their opponents 'home board' they are backgammoned"
    in_their_home = any(i <= 5 for i in m.mine(loser))
    times = 1 if m.off[loser] else 3 if m.bar[loser] or in_their_home else 2
    assert state.scores() == [times if p == winner else 0 for p in (0, 1)]


def test_a_double_offered_and_accepted_and_refused() -> None:
    # "When playing for stakes a player may offer to double the stakes at any time. If
    # their opponent agrees double the stakes else the opponent forfeits and must pay
    # the (pre-doubled) stakes. The same player can't offer to double the stakes twice
    # in a row"
    state = GAME.new_game(seed=5, options={"doubling": True})
    opener = state.current_player
    assert [a.text for a in state.legal_actions()] == ["roll", "double"]
    state.apply("double")
    assert state.current_player == 1 - opener
    assert [a.text for a in state.legal_actions()] == ["accept", "refuse"]
    state.apply("accept")
    assert state.position.vars["stakes"] == 2
    # the doubler plays their turn, then the other may redouble, the doubler not
    while state.current_player == opener:
        state.apply(state.legal_actions()[0])
    assert [a.text for a in state.legal_actions()] == ["roll", "double"]
    state.apply("double")
    state.apply("refuse")
    assert state.is_terminal()
    assert state.scores() == [2 if p == 1 - opener else 0 for p in (0, 1)]


def test_without_the_cube_a_turn_starts_with_the_roll() -> None:
    state = GAME.new_game(seed=5)
    assert all("double" not in a.text and a.text != "roll" for a in state.legal_actions())
