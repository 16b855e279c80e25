"""Helpers to set up Multiplay positions, and an independent scoring oracle.

A position is built from a real state at its first claim decision: its
``to_json()`` is edited (which cube lies in which cell of the board, who owns
which cube, whose turn it is, the die roll and the list of claimable cubes)
and rebuilt with ``state_from_json``, so the flow resumes at the real claim
decision of the real ruleset.

* :func:`position` builds such a state from ``{"f6": (24, RED), ...}``.
* :func:`claim` builds a position, plays one claim and returns the points.
* :func:`oracle_delta` is this file's own reading of rulings X4 and X5: the
  points a claim should move, computed from the owners of the board before
  and after it without looking at the ruleset.

Nothing here knows a rule of Multiplay beyond the texts of its actions, the
names of its variables (``points``, ``roll``, ``claimable``) and the list of
claimable cubes of ruling X3 (needed so that the built position is legal).
"""

from __future__ import annotations

from typing import Any, Mapping

SIZE = 11
BOARD = 1                       # zone index of the board (zone 0 is the box)
RED, YELLOW, GREEN, BLUE = 0, 1, 2, 3
SEATS = ["red", "yellow", "green", "blue"]
COLUMNS = "abcdefghijk"
DIRECTIONS = [(0, 1), (1, 0), (1, 1), (1, -1)]   # horizontal, vertical, both diagonals
END_GAME = "end the game"
PLAY_ON = "play on"

Spec = tuple[int | None, int | None]   # (number or None for any cube, owner seat or None)


# ---------------------------------------------------------------------- cells
def slot(label: str) -> int:
    """``"a1"`` → 0, ``"k1"`` → 10, ``"a2"`` → 11 (row-major, 11 columns)."""
    label = label.strip().lower()
    col = COLUMNS.index(label[0])
    row = int(label[1:]) - 1
    if not (0 <= row < SIZE and 0 <= col < SIZE):
        raise ValueError(f"no cell {label!r}")
    return row * SIZE + col


def label(s: int) -> str:
    """The inverse of :func:`slot`."""
    return f"{COLUMNS[s % SIZE]}{s // SIZE + 1}"


def rc(label_: str) -> tuple[int, int]:
    s = slot(label_)
    return divmod(s, SIZE)


def number_of(state: Any, pid: int) -> int:
    return int(state.program.pieces[pid].attrs["number"])


def owners_grid(state: Any) -> list[list[int | None]]:
    """The owner seat of the cube in each cell (``None``: white), ``grid[row][col]``."""
    grid: list[list[int | None]] = [[None] * SIZE for _ in range(SIZE)]
    for s, p in enumerate(state.position.zones[BOARD]):
        o = state.position.owner[p.id]
        grid[s // SIZE][s % SIZE] = None if o is None else int(o)
    return grid


def numbers_grid(state: Any) -> list[list[int]]:
    grid = [[0] * SIZE for _ in range(SIZE)]
    for s, p in enumerate(state.position.zones[BOARD]):
        grid[s // SIZE][s % SIZE] = int(p.attrs["number"])
    return grid


def texts(state: Any) -> list[str]:
    return [a.text for a in state.legal_actions()]


def claim_texts(state: Any) -> list[str]:
    return [t for t in texts(state) if t.startswith("claim ")]


def white_count(state: Any) -> int:
    return sum(1 for p in state.position.zones[BOARD] if state.position.owner[p.id] is None)


def white_around(*labels: str) -> dict[str, Spec]:
    """White cubes on every cell next to the given cells (those not given), so that
    the cubes owned by ``position(white=...)`` touch nothing there."""
    out: dict[str, Spec] = {}
    for lab in labels:
        r, c = rc(lab)
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                rr, cc = r + dr, c + dc
                if 0 <= rr < SIZE and 0 <= cc < SIZE and (dr or dc):
                    cell = label(rr * SIZE + cc)
                    if cell not in labels:
                        out[cell] = (None, None)
    return out


# ---------------------------------------------------------------------- X3, for legal set-ups
def smallest_roll(number: int) -> int:
    """A die roll ``r`` (1-12) for which ``number`` is ``r × k`` with ``k`` ≤ 12."""
    for r in range(1, 13):
        if number % r == 0 and number // r <= 12:
            return r
    raise ValueError(f"{number} is not in the 12x12 times table")


def claimable_json(data: dict[str, Any], numbers: list[int], roll: int) -> list[dict[str, Any]]:
    """The ``claimable`` variable for ``roll`` (ruling X3), in board order."""
    owned = {pid for pid, _ in data["owner"]}
    out = []
    for s, pid in enumerate(data["zones"][BOARD]):
        n = numbers[pid]
        if pid not in owned and n % roll == 0 and n // roll <= 12:
            out.append({"tuple": [{"piece": pid}, {"cell": [BOARD, s]}]})
    return out


# ---------------------------------------------------------------------- building positions
def position(game: Any, cubes: Mapping[str, Spec], *, players: int = 2, current: int = 0,
             roll: int | None = None, seed: int = 0, white: int | None = None,
             points: list[int] | None = None, rng: int | None = None) -> Any:
    """A state at the claim decision of ``current``, the board holding ``cubes``.

    :param cubes: cell label → ``(number, owner)``; a ``None`` number takes any
        cube not otherwise needed; ``None`` owner leaves the cube white.
    :param roll: the die roll (default: one that makes every white cube of
        ``cubes`` with a number claimable, see :func:`smallest_roll`, or 1).
    :param white: if given, so many white cubes remain: other cubes (never
        those of ``cubes``) are given to seats in turn, from the bottom right
        corner up, until only ``white`` are white.
    :param points: the score sheet (default: all 0).
    :param rng: replaces the state of the random generator (the next rolls).
    """
    state = game.new_game(players, seed)
    assert claim_texts(state), "the seed's first turn has nothing to claim"
    data = state.to_json()
    board: list[int] = data["zones"][BOARD]
    assert len(board) == SIZE * SIZE and all(p is not None for p in board)
    numbers = [int(p.attrs["number"]) for p in state.program.pieces]

    # choose real cubes: first those with a given number, then the "any" ones
    chosen: dict[str, int] = {}
    used: set[int] = set()
    for lab, (number, _) in cubes.items():
        if number is None:
            continue
        pid = next((i for i, n in enumerate(numbers) if n == number and i not in used), None)
        if pid is None:
            raise ValueError(f"not enough cubes showing {number}")
        chosen[lab] = pid
        used.add(pid)
    for lab, (number, _) in cubes.items():
        if number is None:
            pid = next(i for i in range(len(numbers)) if i not in used)
            chosen[lab] = pid
            used.add(pid)
    # swap each chosen cube into its cell
    for lab, pid in chosen.items():
        target = slot(lab)
        here = board.index(pid)
        board[here], board[target] = board[target], board[here]
    for lab, pid in chosen.items():
        assert board[slot(lab)] == pid
    assert sorted(board) == list(range(SIZE * SIZE)), "cubes lost or duplicated"

    owner = {pid: o for lab, pid in chosen.items() if (o := cubes[lab][1]) is not None}
    if white is not None:
        free = [s for s in reversed(range(SIZE * SIZE)) if board[s] not in used]
        to_own = SIZE * SIZE - len(owner) - white
        assert 0 <= to_own <= len(free), "cannot leave that many white cubes"
        for k, s in enumerate(free[:to_own]):
            owner[board[s]] = k % players
    data["owner"] = [[pid, {"player": o}] for pid, o in sorted(owner.items())]

    if roll is None:
        wanted = [n for (n, o) in cubes.values() if o is None and n is not None]
        roll = smallest_roll(wanted[0]) if wanted else 1
    if points is not None:
        assert len(points) == players
        data["variables"]["points"] = list(points)
    if rng is not None:
        data["rng"] = rng
    return _at_claim(game, data, current, roll)


def _claim_pc(game: Any, players: int) -> int:
    """The program counter of the claim decision (a new game's first decision:
    the full white board always has a claim)."""
    return int(game.new_game(players, 0).to_json()["pc"])


def _at_claim(game: Any, data: dict[str, Any], current: int, roll: int) -> Any:
    """Rebuild ``data`` at ``current``'s claim decision with die roll ``roll``."""
    inst = game.instance(int(data["players"]), data.get("options") or {})
    numbers = [int(p.attrs["number"]) for p in inst.pieces]
    variables = data["variables"]
    variables["current"] = {"player": current}
    variables["roll"] = roll
    variables["claimable"] = claimable_json(data, numbers, roll)
    assert variables["claimable"], f"nothing to claim on a roll of {roll}"
    data["pc"] = _claim_pc(game, int(data["players"]))
    data["pending"] = True
    data["terminal"] = False
    built = game.state_from_json(data)
    assert built.current_player == current
    assert built.position.vars["roll"] == roll
    return built


def next_claim(game: Any, state: Any, mover: int, at: str) -> tuple[Any, list[int]]:
    """From ``state`` (any position), let ``mover`` claim the white cube at ``at``
    as their next turn: the same board, ``mover`` to move, a roll that allows it.
    :returns: the state after the claim and the points change per seat."""
    data = state.to_json()
    number = int(state.program.pieces[data["zones"][BOARD][slot(at)]].attrs["number"])
    built = _at_claim(game, data, mover, smallest_roll(number))
    was = list(built.position.vars["points"])
    built.apply(f"claim {number} at {at}")
    return built, [a - b for a, b in zip(built.position.vars["points"], was)]


def claim(game: Any, cubes: Mapping[str, Spec], at: str, mover: int, *,
          players: int = 2, seed: int = 0, **kwargs: Any) -> tuple[Any, Any, list[int]]:
    """Build ``cubes`` (the cell ``at`` holding a white cube with a number), let
    ``mover`` claim it and return ``(before, after, points change per seat)``."""
    number, owner = cubes[at]
    assert number is not None and owner is None, "the claimed cube must be white with a number"
    before = position(game, cubes, players=players, current=mover, roll=smallest_roll(number),
                      seed=seed, **kwargs)
    after = before.clone()
    after.apply(f"claim {number} at {at}")
    delta = [a - b for a, b in zip(after.position.vars["points"], before.position.vars["points"])]
    return before, after, delta


# ---------------------------------------------------------------------- the oracle (X4, X5)
Run = tuple[int, tuple[tuple[int, int], ...], tuple[int, int]]


def _runs(grid: list[list[int | None]]) -> set[Run]:
    """Every maximal one-colour run of owned cubes on every line of the board:
    ``(colour, cells in order, direction)``; single cubes included."""
    out = set()
    for dr, dc in DIRECTIONS:
        for r in range(SIZE):
            for c in range(SIZE):
                colour = grid[r][c]
                if colour is None:
                    continue
                pr, pc = r - dr, c - dc
                if 0 <= pr < SIZE and 0 <= pc < SIZE and grid[pr][pc] == colour:
                    continue                     # not the start of its run
                cells = []
                rr, cc = r, c
                while 0 <= rr < SIZE and 0 <= cc < SIZE and grid[rr][cc] == colour:
                    cells.append((rr, cc))
                    rr, cc = rr + dr, cc + dc
                out.add((colour, tuple(cells), (dr, dc)))
    return out


def _trap_ends(grid: list[list[int | None]], run: tuple) -> list[int] | None:
    """The owners of the two end cubes trapping ``run``, or ``None`` if it is not
    trapped (odd or too long, an end off the board, white, or its own colour)."""
    colour, cells, (dr, dc) = run
    if len(cells) not in (2, 4, 6, 8, 10):
        return None
    (r0, c0), (r1, c1) = cells[0], cells[-1]
    ends = []
    for r, c in ((r0 - dr, c0 - dc), (r1 + dr, c1 + dc)):
        if not (0 <= r < SIZE and 0 <= c < SIZE):
            return None
        o = grid[r][c]
        if o is None or o == colour:
            return None
        ends.append(o)
    return ends


def oracle_delta(before: list[list[int | None]], after: list[list[int | None]],
                 mover: int, players: int) -> list[int]:
    """The points a claim moves, from the board's owners before and after it.

    Read independently of the ruleset: a claim scores every run of the mover
    of length 3, 5, 7, 9 or 11 that exists after it and did not before (X4),
    and every trapped run (X5) that is trapped after it and was not before —
    the trapped colour loses n, each trapping end's owner gains n/2.
    """
    delta = [0] * players
    runs_before, runs_after = _runs(before), _runs(after)
    for run in runs_after - runs_before:
        colour, cells, _ = run
        if colour == mover and len(cells) in (3, 5, 7, 9, 11):
            delta[mover] += len(cells)
    trapped_before = {run for run in runs_before if _trap_ends(before, run) is not None}
    for run in runs_after:
        ends = _trap_ends(after, run)
        if ends is None or run in trapped_before:
            continue
        n = len(run[1])
        delta[run[0]] -= n
        for o in ends:
            delta[o] += n // 2
    return delta
