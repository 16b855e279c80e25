"""Nine Men's Morris written by hand in plain Python, the yardstick of
rulepack/rulesets/nine-mens-morris.rules (benchmarks/compare.py).

The same rules (ppgames, inst/rules/nine-mens-morris.Rtex): 24 points on three squares
joined at their middles; nine coins each, put down in turn, then moved along a line to
the next point (with three left, to any empty point); three on a line make a mill,
which removes an opponent's coin not in a mill (any, when all are); a player with two
coins, or no move, loses; 50 turns each without a mill draw. Random play, the first
player drawn at random: ``play(players, rng)`` → ``(winner or None, decisions)``.
"""

from __future__ import annotations

import random

LINES = (((1, 13), (7, 13), (13, 13)), ((3, 11), (7, 11), (11, 11)), ((5, 9), (7, 9), (9, 9)),
         ((1, 7), (3, 7), (5, 7)), ((9, 7), (11, 7), (13, 7)), ((5, 5), (7, 5), (9, 5)),
         ((3, 3), (7, 3), (11, 3)), ((1, 1), (7, 1), (13, 1)),
         ((1, 1), (1, 7), (1, 13)), ((3, 3), (3, 7), (3, 11)), ((5, 5), (5, 7), (5, 9)),
         ((7, 1), (7, 3), (7, 5)), ((7, 9), (7, 11), (7, 13)), ((9, 5), (9, 7), (9, 9)),
         ((11, 3), (11, 7), (11, 11)), ((13, 1), (13, 7), (13, 13)))
POINTS = sorted({p for line in LINES for p in line})
LINES_AT = {p: [line for line in LINES if p in line] for p in POINTS}
NEXT = {p: sorted({q for line in LINES_AT[p] for a, q in zip(line, line[1:]) if a == p} |
                  {q for line in LINES_AT[p] for q, a in zip(line, line[1:]) if a == p})
        for p in POINTS}


def mill(board: dict, side: int, at: tuple[int, int]) -> bool:
    return any(all(board.get(q) == side for q in line) for line in LINES_AT[at])


def play(players: int, rng: random.Random) -> tuple[int | None, int]:
    board: dict[tuple[int, int], int] = {}
    hand = [9, 9]
    side = rng.randrange(2)
    decisions = quiet = 0
    while True:
        mine = [p for p, s in board.items() if s == side]
        if len(mine) + hand[side] <= 2:
            return 1 - side, decisions
        if quiet >= 100:
            return None, decisions
        empty = [p for p in POINTS if p not in board]
        if hand[side]:
            moves = [(None, p) for p in empty]
        elif len(mine) == 3:
            moves = [(c, p) for c in mine for p in empty]
        else:
            moves = [(c, p) for c in mine for p in NEXT[c] if p not in board]
        if not moves:
            return 1 - side, decisions
        quiet += 1
        frm, to = moves[rng.randrange(len(moves))]
        decisions += 1
        if frm is None:
            hand[side] -= 1
        else:
            del board[frm]
        board[to] = side
        if mill(board, side, to):
            quiet = 0
            theirs = [p for p, s in board.items() if s != side]
            free = [p for p in theirs if not mill(board, 1 - side, p)]
            pool = free or theirs
            decisions += 1
            del board[pool[rng.randrange(len(pool))]]
        side = 1 - side
