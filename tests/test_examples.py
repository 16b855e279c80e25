"""The example rulesets Tic-Tac-Toe and Connect Four.

Each game is checked against a small plain-Python model of its rules written here,
independently of the ruleset: the perft counts from the start (the leaves of the
legal-action tree; for both games the known values, since no game can end before
move 5 of Tic-Tac-Toe or move 7 of Connect Four), hand-made games that end in a line
across, down, along either diagonal or in a draw, and random games in which the
ruleset's legal actions and result must agree with the model's at every step.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from click.testing import CliRunner

import rulepack
from rulepack.cli.main import main
from rulepack.loader import bundled_rulesets

LINES = [(0, 1), (1, 0), (1, 1), (1, -1)]


def run(*args: str):
    return CliRunner().invoke(main, list(args))


@pytest.fixture(scope="module")
def tic_tac_toe():
    return rulepack.load("tic-tac-toe")


@pytest.fixture(scope="module")
def connect_four():
    return rulepack.load("connect-four")


# ---------------------------------------------------------------------- the models
class Board:
    """A grid of ``rows`` x ``cols`` cells holding seat numbers (0, 1) or None;
    row 1 is the top row, as in the rulesets."""

    def __init__(self, rows: int, cols: int, needed: int) -> None:
        self.rows, self.cols, self.needed = rows, cols, needed
        self.cells: dict[tuple[int, int], int] = {}
        self.moves = 0
        self.winner: int | None = None

    def full(self) -> bool:
        return len(self.cells) == self.rows * self.cols

    def over(self) -> bool:
        return self.winner is not None or self.full()

    def put(self, row: int, col: int) -> None:
        seat = self.moves % 2
        assert (row, col) not in self.cells and not self.over()
        self.cells[(row, col)] = seat
        self.moves += 1
        for dr, dc in LINES:
            n = 1
            for sign in (1, -1):
                r, c = row + sign * dr, col + sign * dc
                while self.cells.get((r, c)) == seat:
                    n += 1
                    r, c = r + sign * dr, c + sign * dc
            if n >= self.needed:
                self.winner = seat

    def result(self) -> tuple[list[int], bool]:
        """(winners, draw) as ``State.result()`` gives them."""
        if self.winner is not None:
            return [self.winner], False
        assert self.full()
        return [], True


class TicTacToe(Board):
    def __init__(self) -> None:
        super().__init__(3, 3, 3)

    def legal(self) -> list[str]:
        if self.over():
            return []
        return [f"mark {'abc'[c - 1]}{r}" for r in (1, 2, 3) for c in (1, 2, 3)
                if (r, c) not in self.cells]

    def play(self, text: str) -> None:
        cell = text.removeprefix("mark ")
        self.put(int(cell[1]), "abc".index(cell[0]) + 1)


class ConnectFour(Board):
    def __init__(self) -> None:
        super().__init__(6, 7, 4)

    def height(self, col: int) -> int:
        return sum(1 for (_, c) in self.cells if c == col)

    def legal(self) -> list[str]:
        if self.over():
            return []
        return [f"drop in column {c}" for c in range(1, 8) if self.height(c) < 6]

    def play(self, text: str) -> None:
        col = int(text.removeprefix("drop in column "))
        self.put(6 - self.height(col), col)


def replay(game, model: Board, moves: list[str]):
    """Play ``moves`` in the ruleset and in the model, checking the legal actions
    of both agree before each move; returns the final state."""
    state = game.new_game(2)
    for text in moves:
        assert [a.text for a in state.legal_actions()] == model.legal()
        assert state.current_player == model.moves % 2
        state.apply(text)
        model.play(text)
    return state


# ---------------------------------------------------------------------- loading
def test_the_examples_are_bundled(tic_tac_toe, connect_four):
    """``rulepack list`` and loading by name find the bundled rulesets this way."""
    assert {"tic-tac-toe", "connect-four"} <= set(bundled_rulesets())
    assert (tic_tac_toe.title, tic_tac_toe.min_players, tic_tac_toe.max_players) == \
        ("Tic-Tac-Toe", 2, 2)
    assert (connect_four.title, connect_four.min_players, connect_four.max_players) == \
        ("Connect Four", 2, 2)


def test_the_examples_validate():
    result = run("validate", "tic-tac-toe", "connect-four")
    assert result.exit_code == 0, result.output
    assert "tic-tac-toe: ok" in result.output and "connect-four: ok" in result.output
    assert "warning" not in result.output


def test_bots_play_them_from_the_command_line():
    result = run("play", "tic-tac-toe", "--players", "2", "--seed", "1")
    assert result.exit_code == 0, result.output
    assert "X: mark " in result.output and "decisions" in result.output
    result = run("play", "connect-four", "--players", "2", "--seed", "1")
    assert result.exit_code == 0, result.output
    assert "red: drop in column " in result.output


# ---------------------------------------------------------------------- perft
def perft(state, depth: int) -> int:
    """The number of leaves of the legal-action tree ``depth`` decisions deep."""
    legal = state.legal_actions()
    if depth == 1:
        return len(legal)
    total = 0
    for action in legal:
        child = state.clone()
        child.apply(action)
        total += perft(child, depth - 1)
    return total


@pytest.mark.parametrize("depth, expected", [(1, 9), (2, 72), (3, 504), (4, 3024)])
def test_tic_tac_toe_perft(tic_tac_toe, depth: int, expected: int):
    assert perft(tic_tac_toe.new_game(2), depth) == expected


@pytest.mark.parametrize("depth, expected", [(1, 7), (2, 49), (3, 343), (4, 2401)])
def test_connect_four_perft(connect_four, depth: int, expected: int):
    assert perft(connect_four.new_game(2), depth) == expected


# ---------------------------------------------------------------------- hand-made games
TIC_TAC_TOE_GAMES = {
    # X: a1 b1 c1, a row
    "row": ("a1 a2 b1 b2 c1", [0]),
    # O: b1 b2 b3, a column
    "column": ("a1 b1 a2 b2 c3 b3", [1]),
    # X: a1 b2 c3
    "diagonal": ("a1 b1 b2 c1 c3", [0]),
    # X: c1 b2 a3
    "other diagonal": ("c1 a1 b2 a2 a3", [0]),
    # X's column c is made by the ninth mark, which fills the grid: a win, not a draw
    "last mark": ("a1 b1 c1 b2 b3 a2 c2 a3 c3", [0]),
    # X O X / X O O / O X X
    "draw": ("a1 b2 c3 b1 b3 a3 c1 c2 a2", []),
}


@pytest.mark.parametrize("name", TIC_TAC_TOE_GAMES)
def test_tic_tac_toe_games(tic_tac_toe, name: str):
    cells, winners = TIC_TAC_TOE_GAMES[name]
    model = TicTacToe()
    state = replay(tic_tac_toe, model, [f"mark {c}" for c in cells.split()])
    assert model.result() == (winners, not winners)          # the model agrees with the comment
    result = state.result()
    assert state.is_terminal()
    assert (result["winners"], result["draw"]) == (winners, not winners)


#: A full board without four in a line (found by a search in the model; the model
#: checks it again below).
CONNECT_FOUR_DRAW = [7, 4, 6, 3, 3, 6, 6, 3, 7, 4, 7, 3, 5, 7, 4, 1, 6, 6, 4, 5, 7, 7, 3, 6,
                     3, 5, 4, 1, 1, 1, 1, 4, 1, 5, 2, 2, 2, 2, 5, 2, 5, 2]

CONNECT_FOUR_GAMES = {
    # red along the bottom row, columns 1-4
    "row": ([1, 1, 2, 2, 3, 3, 4], [0]),
    # yellow up column 2
    "column": ([1, 2, 1, 2, 1, 2, 3, 2], [1]),
    # red rising to the right: (6, 1), (5, 2), (4, 3), (3, 4)
    "diagonal": ([1, 2, 2, 3, 3, 4, 3, 4, 5, 4, 4], [0]),
    # the same mirrored: rising to the left
    "other diagonal": ([7, 6, 6, 5, 5, 4, 5, 4, 3, 4, 4], [0]),
    "draw": (CONNECT_FOUR_DRAW, []),
}


@pytest.mark.parametrize("name", CONNECT_FOUR_GAMES)
def test_connect_four_games(connect_four, name: str):
    columns, winners = CONNECT_FOUR_GAMES[name]
    model = ConnectFour()
    state = replay(connect_four, model, [f"drop in column {c}" for c in columns])
    assert model.result() == (winners, not winners)
    result = state.result()
    assert state.is_terminal()
    assert (result["winners"], result["draw"]) == (winners, not winners)


def test_a_full_column_takes_no_disc(connect_four):
    model = ConnectFour()
    state = replay(connect_four, model, ["drop in column 1"] * 6)
    texts = [a.text for a in state.legal_actions()]
    assert "drop in column 1" not in texts and len(texts) == 6
    board = state.view(0)["zones"]["board"]
    column = [c["piece"]["owner"] for c in board["cells"] if c["col"] == 1]
    assert column == [1, 0, 1, 0, 1, 0]                      # rows 1 (top) to 6


def test_a_disc_falls_to_the_lowest_free_cell(connect_four):
    state = connect_four.new_game(2)
    for text in ["drop in column 4", "drop in column 4", "drop in column 5"]:
        state.apply(text)
    board = state.view(0)["zones"]["board"]
    owners = {c["cell"]: c["piece"]["owner"] for c in board["cells"] if c["piece"]}
    assert owners == {"d6": 0, "d5": 1, "e6": 0}


# ---------------------------------------------------------------------- random games
@pytest.mark.parametrize("name, model_class, games", [("tic-tac-toe", TicTacToe, 300),
                                                      ("connect-four", ConnectFour, 200)])
def test_random_games_agree_with_the_model(name: str, model_class: Callable[[], Board],
                                           games: int):
    game = rulepack.load(name)
    rng = random.Random(7)
    outcomes = set()
    for _ in range(games):
        model = model_class()
        state = game.new_game(2)
        while not state.is_terminal():
            legal = [a.text for a in state.legal_actions()]
            assert legal == model.legal()
            text = rng.choice(legal)
            state.apply(text)
            model.play(text)
        assert model.over()
        result = state.result()
        assert (result["winners"], result["draw"]) == model.result()
        outcomes.add((tuple(result["winners"]), result["draw"]))
    # random play reaches every outcome: a win for either side and a draw
    assert outcomes == {((0,), False), ((1,), False), ((), True)}
