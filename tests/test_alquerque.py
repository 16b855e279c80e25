"""Alquerque (rulepack/rulesets/alquerque.rules) against its published rules:
ppgames, inst/rules/alquerque.Rtex (github piecepackr/ppgames, Trevor L. Davis, CC
BY-SA 4.0). Each test cites the sentences it checks; a property test checks every
move of random games against the rules, counted here independently."""

from __future__ import annotations

import random

from hypothesis import given, settings, strategies as st

import rulepack
from rulepack.engine.inspect import grid_cells, zone_pieces

GAME = rulepack.load("alquerque")
SIDES = (("crowns", "arms"), ("suns", "moons"))
FORWARD = (1, -1)               # PPN rows: power goes up the board, astronomical down


def board(state) -> dict[tuple[int, int], object]:
    """(x, y) as PPN counts them (a1 = (1, 1)) → the piece there."""
    return {(ord(c[0]) - ord("a") + 1, int(c[1:])): p for c, p in grid_cells(state, "board")
            if p is not None}


def linked(a: tuple[int, int], b: tuple[int, int]) -> bool:
    """Whether two neighbouring points are joined by a line: "connected to each other
    by the orthogonal lines/edges of the board. Additionally the central point of each
    tile is connected diagonally to the corner points of that tile" — the diagonals
    run through the points whose coordinates add up to an even number."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    if abs(dx) + abs(dy) == 1:
        return True
    return abs(dx) == abs(dy) == 1 and (a[0] + a[1]) % 2 == 0


def test_setup_is_ppgames_starting_diagram():
    """Setup: "Give each player all the coins of two suits and place them on the
    'points' ... of the board as in Figure" (df_alquerque: astronomical on rows 4-5
    and a3, b3; power on rows 1-2 and d3, e3; the centre c3 empty)."""
    cells = board(GAME.new_game(2, seed=0))
    assert len(cells) == 24 and (3, 3) not in cells
    for (x, y), piece in cells.items():
        side = 1 if y > 3 or (y == 3 and x < 3) else 0
        assert piece.attrs["suit"] in SIDES[side], ((x, y), piece)
    assert (cells[(1, 5)].attrs["suit"], cells[(1, 5)].attrs["rank"]) == ("suns", "null")
    assert (cells[(5, 1)].attrs["suit"], cells[(5, 1)].attrs["rank"]) == ("arms", 5)


def test_who_starts_is_drawn_at_random():
    """The Order Of Play: "Decide by random selection which player will make the
    first move." Both seats start in some of 40 seeded games."""
    first = {GAME.new_game(2, seed=s).current_player for s in range(40)}
    assert first == {0, 1}


def test_a_jump_must_be_taken_and_carried_on():
    """The Moves: "If possible a player must choose to do a jump instead of a simple
    move." After the opening move into the centre, the reply is a jump."""
    state = GAME.new_game(2, seed=0)                       # astronomical starts
    assert state.current_player == 1
    state.apply("b4-c3")
    assert sorted(a.text for a in state.legal_actions()) == ["b2-b4", "d2-b4"]


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2 ** 32 - 1))
def test_every_move_keeps_the_rules(seed):
    """Over random games, each move checked against the rules:

    - a simple move slides "to an adjacent empty point that is forward or sideways
      (but not backwards)" along a line, and never back to where the coin's previous
      simple move came from ("a coin cannot undo its previous (simple) move"), and is
      only made when no jump is possible;
    - a jump goes "in a straight line diagonally or orthogonally two points over a
      point occupied by an opponent's coin onto an empty point", which is captured;
      a coin that has jumped jumps on while it can ("must continue to jump until it
      can no longer do so");
    - the game ends when a player has captured every coin of the other, or the other
      "is unable to make another move"."""
    state = GAME.new_game(2, seed=seed % 1000)
    rng = random.Random(seed)
    came_from: dict[int, tuple[int, int]] = {}
    while not state.is_terminal():
        before, mover = board(state), state.current_player
        legal = state.legal_actions()
        jumps = [a for a in legal if _distance(a.text) == 2]
        assert not jumps or len(jumps) == len(legal)        # jumps first, always
        action = legal[rng.randrange(len(legal))]
        start, end = _points(action.text)
        piece = before[start]
        assert piece.attrs["suit"] in SIDES[mover] and end not in before
        if _distance(action.text) == 2:
            middle = ((start[0] + end[0]) // 2, (start[1] + end[1]) // 2)
            assert linked(start, middle) and linked(middle, end)
            assert before[middle].attrs["suit"] not in SIDES[mover]
            came_from.pop(piece.id, None)
        else:
            assert linked(start, end) and end[1] - start[1] != -FORWARD[mover]
            assert came_from.get(piece.id) != end
            came_from[piece.id] = start
        state.apply(action)
        after = board(state)
        assert after[end] is piece and start not in after
        if _distance(action.text) == 2:
            assert middle not in after
            # it jumps on, and only it, while it can (else the turn passes)
            more = _jumps(after, end, mover)
            if more and not state.is_terminal():
                assert state.current_player == mover
                assert sorted(a.text for a in state.legal_actions()) == sorted(
                    f"{_name(end)}-{_name(p)}" for p in more)
    [winner] = state.result()["winners"]
    if len(zone_pieces(state, f"taken[{('power', 'astronomical')[winner]}]")) < 12:
        assert not _can_move(board(state), 1 - winner, came_from)


def _name(p: tuple[int, int]) -> str:
    return f"{chr(96 + p[0])}{p[1]}"


def _jumps(cells: dict, p: tuple[int, int], side: int) -> list[tuple[int, int]]:
    out = []
    for dx in (-1, 0, 1):
        for dy in (-1, 0, 1):
            over, to = (p[0] + dx, p[1] + dy), (p[0] + 2 * dx, p[1] + 2 * dy)
            if (dx, dy) != (0, 0) and 1 <= to[0] <= 5 and 1 <= to[1] <= 5 and \
                    linked(p, over) and linked(over, to) and over in cells and \
                    cells[over].attrs["suit"] not in SIDES[side] and to not in cells:
                out.append(to)
    return out


def _can_move(cells: dict, side: int, came_from: dict) -> bool:
    for p, piece in cells.items():
        if piece.attrs["suit"] not in SIDES[side]:
            continue
        if _jumps(cells, p, side):
            return True
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                to = (p[0] + dx, p[1] + dy)
                if (dx, dy) != (0, 0) and 1 <= to[0] <= 5 and 1 <= to[1] <= 5 and \
                        linked(p, to) and to not in cells and dy != -FORWARD[side] and \
                        came_from.get(piece.id) != to:
                    return True
    return False


def _points(text: str) -> tuple[tuple[int, int], tuple[int, int]]:
    a, b = text.split("-")
    return (ord(a[0]) - 96, int(a[1:])), (ord(b[0]) - 96, int(b[1:]))


def _distance(text: str) -> int:
    (x1, y1), (x2, y2) = _points(text)
    return max(abs(x1 - x2), abs(y1 - y2))
