"""``rulepack simulate``: the Wilson interval, rotated seats, and games played in
worker processes (``--jobs``) with the same results as one after the other."""

from __future__ import annotations

import io
import json
import math
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from rich.console import Console

import rulepack
from rulepack.cli.main import main
from rulepack.cli.simulate import (
    ROTATED,
    Z95,
    chunk_size,
    game_seed,
    lineup,
    resolve_jobs,
    seat_of,
    simulate,
    wilson_interval,
)
from rulepack.cli.render import rate_text, summary_renderable
from rulepack.errors import RulepackError

TIMING = ("seconds", "games_per_second")

#: The first seat always wins, with 2 points against 0.
SEAT_ONE = """\
game seatone { players 2..4 }
var points per player = 0
score(p) = points[p]
play {
  set points[players[0]] = 2
  end game winners players[0]
}
"""

#: Fails at play time, in the games whose roll is a 1 (not the first one, seed 0).
BOOM = """\
game boom { players 2 }
var roll = 0
play {
  set roll = random(1..6)
  set roll = 6 // (roll - 1)   # HERE
  end game winners players[0]
}
"""


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def without_timing(summary: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in summary.items() if k not in TIMING}


@pytest.fixture(scope="module")
def multzo():
    return rulepack.load("multzo")


@pytest.fixture
def seat_one(tmp_path: Path) -> Path:
    path = tmp_path / "seatone.rules"
    path.write_text(SEAT_ONE, encoding="utf-8")
    return path


@pytest.fixture
def boom(tmp_path: Path) -> Path:
    path = tmp_path / "boom.rules"
    path.write_text(BOOM, encoding="utf-8")
    return path


# ---------------------------------------------------------------------- Wilson interval
@pytest.mark.parametrize("k,n,lo,hi", [
    (50, 100, 0.40383, 0.59617),
    (0, 10, 0.0, 0.27753),        # upper bound z²/(n + z²)
    (10, 10, 0.72247, 1.0),
    (1, 10, 0.01788, 0.40415),
    (470, 1000, 0.43924, 0.50099),
])
def test_wilson_interval_known_values(k: int, n: int, lo: float, hi: float):
    got = wilson_interval(k, n)
    assert got == pytest.approx((lo, hi), abs=5e-5)


def test_wilson_interval_bounds_solve_the_score_equation():
    """Each bound π is a root of (p - π)² = z²·π(1 - π)/n: the defining property."""
    for k, n in [(3, 7), (17, 40), (123, 500), (999, 1000)]:
        p = k / n
        lo, hi = wilson_interval(k, n)
        assert 0 <= lo < p < hi <= 1
        for bound in (lo, hi):
            assert (p - bound) ** 2 == pytest.approx(Z95 ** 2 * bound * (1 - bound) / n)


def test_wilson_interval_edges():
    assert wilson_interval(0, 0) == (0.0, 1.0)
    assert wilson_interval(0, 5)[0] == 0.0 and wilson_interval(5, 5)[1] == 1.0
    narrow = wilson_interval(500, 1000)
    wide = wilson_interval(50, 100)
    assert narrow[1] - narrow[0] < wide[1] - wide[0]
    assert wilson_interval(50, 100, z=1.0)[1] < wide[1]
    with pytest.raises(ValueError):
        wilson_interval(11, 10)
    with pytest.raises(ValueError):
        wilson_interval(-1, 10)


def test_rate_text():
    lo, hi = wilson_interval(47, 100)
    assert rate_text({"win_rate": 0.47, "win_rate_ci95": [lo, hi]}) == "47.0% (37.5–56.7)"


# ---------------------------------------------------------------------- seating
def test_lineup_rotates_the_agents():
    agents = ["a", "b", "c"]
    assert lineup(agents, 0, rotate=False) == agents
    assert lineup(agents, 5, rotate=False) == agents
    assert lineup(agents, 0, rotate=True) == ["a", "b", "c"]
    assert lineup(agents, 1, rotate=True) == ["c", "a", "b"]     # a sits in seat 2
    assert lineup(agents, 2, rotate=True) == ["b", "c", "a"]
    assert lineup(agents, 3, rotate=True) == agents
    for i in range(7):
        seats = lineup(agents, i, rotate=True)
        for k, name in enumerate(agents):
            assert seats[seat_of(k, i, 3, rotate=True)] == name
    counts = {(k, seat_of(k, i, 3, True)) for k in range(3) for i in range(3)}
    assert len(counts) == 9                          # every agent in every seat, once


def test_resolve_jobs_and_chunks():
    assert resolve_jobs(1) == 1 and resolve_jobs(3) == 3
    assert resolve_jobs(0) >= 1
    with pytest.raises(ValueError):
        resolve_jobs(-1)
    assert chunk_size(30, 2) == 1
    assert chunk_size(100_000, 4) == 25
    assert 1 <= chunk_size(500, 4) <= 25


# ---------------------------------------------------------------------- summaries
def test_rotation_spreads_a_seat_advantage_over_the_agents(seat_one: Path):
    game = rulepack.load(str(seat_one))
    agents = ["random", "first", "random"]
    fixed = simulate(game, 6, agents)
    assert [s["wins"] for s in fixed["seats"]] == [6, 0, 0]
    assert [a["wins"] for a in fixed["agents"]] == [6, 0, 0]
    assert [s["agent"] for s in fixed["seats"]] == agents
    assert fixed["rotate"] is False
    turned = simulate(game, 6, agents, rotate=True)
    assert turned["rotate"] is True
    assert [s["wins"] for s in turned["seats"]] == [6, 0, 0]
    assert [s["agent"] for s in turned["seats"]] == [ROTATED] * 3
    assert [(a["entry"], a["name"], a["games"], a["wins"]) for a in turned["agents"]] == \
        [(1, "random", 6, 2), (2, "first", 6, 2), (3, "random", 6, 2)]
    assert [a["mean_score"] for a in turned["agents"]] == pytest.approx([2 / 3] * 3)
    assert [s["mean_score"] for s in turned["seats"]] == [2.0, 0.0, 0.0]
    for row in turned["seats"] + turned["agents"]:
        assert row["win_rate"] == row["wins"] / 6
        assert row["win_rate_ci95"] == list(wilson_interval(row["wins"], 6))
    same = simulate(game, 6, ["greedy"] * 3, rotate=True)
    assert [s["agent"] for s in same["seats"]] == ["greedy"] * 3


def test_rotated_multzo_counts_every_win_once_per_agent(multzo):
    summary = simulate(multzo, 9, ["first", "random", "random"], seed=2, rotate=True)
    assert sum(a["wins"] for a in summary["agents"]) == sum(s["wins"] for s in summary["seats"])
    seat_total = sum(s["mean_score"] for s in summary["seats"])
    assert sum(a["mean_score"] for a in summary["agents"]) == pytest.approx(seat_total)
    json.dumps(summary)                               # plain JSON data


def test_jobs_give_the_same_summary(multzo):
    agents = ["greedy", "random", "first"]
    done: list[int] = []
    one = simulate(multzo, 6, agents, seed=5, rotate=True)
    two = simulate(multzo, 6, agents, seed=5, rotate=True, jobs=2, on_game=done.append)
    assert without_timing(one) == without_timing(two)
    assert done == sorted(done) and done[-1] == 6      # the progress advanced to the end
    plain = simulate(multzo, 7, ["random"] * 3, seed=1)
    assert without_timing(plain) == without_timing(simulate(multzo, 7, ["random"] * 3,
                                                            seed=1, jobs=3))


def _failure(game: Any, games: int, jobs: int) -> RulepackError:
    with pytest.raises(RulepackError) as info:
        simulate(game, games, ["random", "random"], jobs=jobs)
    return info.value


def test_a_failing_game_is_reported_the_same_with_jobs(boom: Path):
    game = rulepack.load(str(boom))
    serial = _failure(game, 30, jobs=1)
    parallel = _failure(game, 30, jobs=2)
    assert [d.to_json() for d in parallel.diagnostics] == \
        [d.to_json() for d in serial.diagnostics]
    assert str(parallel) == str(serial)
    error, note = serial.diagnostics[0], serial.diagnostics[-1]
    assert error.location.line == 5 and "division by zero" in error.message
    assert note.severity == "note" and note.code == "simulation"
    index = int(note.message.split("in game ")[1].split()[0]) - 1
    assert index > 0, "the test wants a first game that plays"
    assert f"--seed {game_seed(0, index)}" in note.message
    ok = simulate(game, index, ["random", "random"], jobs=2)   # the games before it play
    assert ok["games"] == index


def test_cli_rotate_jobs_json(seat_one: Path):
    args = ["simulate", str(seat_one), "--players", "3", "--games", "6", "--rotate",
            "--agent", "random", "--agent", "first", "--agent", "random", "--json"]
    one = run(*args)
    assert one.exit_code == 0, one.output
    two = run(*args, "--jobs", "2")
    assert two.exit_code == 0, two.output
    data = json.loads(one.stdout)
    assert without_timing(data) == without_timing(json.loads(two.stdout))
    assert [a["wins"] for a in data["agents"]] == [2, 2, 2]
    assert all(len(s["win_rate_ci95"]) == 2 for s in data["seats"])
    assert {"seat", "name", "agent", "wins", "win_rate", "mean_score"} <= set(data["seats"][0])


def test_cli_table_shows_intervals_and_agents(seat_one: Path):
    fixed = run("simulate", str(seat_one), "--players", "2", "--games", "4")
    assert fixed.exit_code == 0, fixed.output
    assert "100.0% (51.0–100.0)" in fixed.stdout and "0.0% (0.0–49.0)" in fixed.stdout
    assert "seats rotated" not in fixed.stdout
    assert fixed.stdout.count("win rate (95% CI)") == 1          # no table of agents
    turned = run("simulate", str(seat_one), "--players", "2", "--games", "4", "--rotate",
                 "--agent", "first", "--agent", "random")
    assert turned.exit_code == 0, turned.output
    assert "seats rotated" in turned.stdout and ROTATED in turned.stdout
    assert turned.stdout.count("win rate (95% CI)") == 2
    assert "50.0% (15.0–85.0)" in turned.stdout


def test_cli_failing_game_with_jobs(boom: Path):
    result = run("simulate", str(boom), "--games", "30", "--jobs", "2")
    assert result.exit_code == 1
    assert f"{boom}:5:" in result.output and "division by zero" in result.output
    assert "of the simulation (play it with --seed" in result.output
    assert "Traceback" not in result.output
    assert run("simulate", str(boom), "--jobs", "-1").exit_code == 2


def test_renderable_without_rotate_keeps_one_table(multzo):
    summary = simulate(multzo, 3, ["random", "random"])
    console = Console(file=io.StringIO(), width=100)
    console.print(summary_renderable(summary))
    text = console.file.getvalue()
    assert "win rate (95% CI)" in text and "games/s" in text
    lo, hi = summary["seats"][0]["win_rate_ci95"]
    assert f"({lo * 100:.1f}–{hi * 100:.1f})" in text
    assert math.isclose(summary["seats"][0]["win_rate"] * 3, summary["seats"][0]["wins"])


# ---------------------------------------------------------------------- memory
def test_a_simulation_keeps_nothing_per_game(seat_one: Path):
    """The main process kept every game's record to the end (about 0.3 kB a game:
    40 -> 71 MB over 100,000 games); now each is counted as it finishes. At the last
    game, no record of an earlier one is alive (only the last game's own)."""
    import gc

    from rulepack.cli.simulate import GameRecord
    game = rulepack.load(str(seat_one))
    alive: list[int] = []

    def on_game(done: int) -> None:
        if done == 300:
            gc.collect()
            alive.append(sum(type(o) is GameRecord for o in gc.get_objects()))
    summary = simulate(game, 300, ["random", "random"], seed=3, on_game=on_game)
    assert summary["games"] == 300 and summary["seats"][0]["wins"] == 300
    assert alive == [1]


def test_records_in_any_order_are_counted_in_index_order():
    """Workers hand records back in any order; they are counted in index order (the
    same float sums to the last bit), an early one waiting only for those before it."""
    from rulepack.cli.simulate import GameRecord, InOrder
    counted: list[int] = []
    add = InOrder(lambda r: counted.append(r.index))
    for i in (2, 1, 5, 0, 3, 4, 6):
        add(GameRecord(i, (0,), False, (0.1 * i, 0.0), 1))
    assert counted == list(range(7))
    assert add._early == {}
