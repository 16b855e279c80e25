"""Four Field Kono written by hand in plain Python, the yardstick of
rulepack/rulesets/four-field-kono.rules (benchmarks/compare.py).

The same rules (ppgames, inst/rules/four-field-kono.Rtex): a 4 x 4 board full at the
start, power (rows 1 and 2) moving first; a move is one orthogonal step onto an empty
square, or a jump over one's own coin onto an enemy coin just beyond, which is taken;
capturing seven wins, and so does leaving the other side without a move. Random play:
``play(players, rng)`` → ``(winner, decisions)``.
"""

from __future__ import annotations

import random

STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1))


def moves(board: dict[tuple[int, int], int], side: int) -> list[tuple[tuple[int, int],
                                                                        tuple[int, int], bool]]:
    """(from, to, capture) of every legal move of ``side``."""
    out = []
    for (x, y), owner in board.items():
        if owner != side:
            continue
        for dx, dy in STEPS:
            near = (x + dx, y + dy)
            if not (1 <= near[0] <= 4 and 1 <= near[1] <= 4):
                continue
            held = board.get(near)
            if held is None:
                out.append(((x, y), near, False))
            elif held == side:
                far = (x + 2 * dx, y + 2 * dy)
                if board.get(far, side) != side:       # an enemy coin (off board: no)
                    out.append(((x, y), far, True))
    return out


def play(players: int, rng: random.Random) -> tuple[int, int]:
    board = {(x, y): (0 if y <= 2 else 1) for x in range(1, 5) for y in range(1, 5)}
    taken = [0, 0]
    side, decisions = 0, 0
    while True:
        legal = moves(board, side)
        if not legal:
            return 1 - side, decisions
        start, end, capture = legal[rng.randrange(len(legal))]
        decisions += 1
        board[end] = board.pop(start)
        if capture:
            taken[side] += 1
            if taken[side] >= 7:
                return side, decisions
        side = 1 - side
