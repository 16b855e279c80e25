"""benchmarks/bot_strength.py's plumbing (not its figures): a match's tally is
``rulepack simulate --rotate``'s, and a match logged part-way and resumed from
its log gives the result of one run, playing only the missing games."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

import rulepack
from rulepack.cli.simulate import simulate

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "bot_strength.py"


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("bot_strength", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    # a fast stand-in match (the real ones search for seconds a move)
    module.MATCHES["quick"] = ("tic-tac-toe", {}, ["random", "first"], "wins >= 50%",
                               module.above(0.5))
    return module


def test_a_match_is_tallied_as_simulate_tallies_it(bench):
    row = bench.run_match("quick", 9, 1, 4)
    summary = simulate(rulepack.load("tic-tac-toe"), 9, ["random", "first"], seed=4,
                       rotate=True)
    assert [r["wins"] for r in row["results"]] == [a["wins"] for a in summary["agents"]]
    assert [r["win_rate_ci95"] for r in row["results"]] == \
        [a["win_rate_ci95"] for a in summary["agents"]]
    assert row["draws"] == summary["draws"]
    assert row["resumed"] == 0


def test_a_logged_match_resumes_where_it_stopped(bench, tmp_path):
    log = tmp_path / "games.jsonl"
    whole = bench.run_match("quick", 9, 1, 4)
    part = bench.run_match("quick", 5, 1, 4, log)
    assert part["resumed"] == 0 and len(log.read_text().splitlines()) == 5
    # another seed's games in the same file are not taken for this one's
    bench.run_match("quick", 2, 1, 5, log)
    resumed = bench.run_match("quick", 9, 1, 4, log)
    assert resumed["resumed"] == 5
    entries = [json.loads(line) for line in log.read_text().splitlines()]
    assert sorted(e["index"] for e in entries if e["seed"] == 4) == list(range(9))
    assert resumed["results"] == whole["results"] and resumed["draws"] == whole["draws"]


def test_the_speed_table_searches_with_the_rollout_asked_for(bench):
    game = rulepack.load("multzo")
    state = bench.mid_game(game, 3, {})
    view = state.view(state.current_player)
    for rollout in ("auto", "random"):
        search = bench._searcher(state, state.current_player, view, 10, rollout)()
        assert search.options.rollout == rollout
    rows = bench.speed(10, Path("no-reference"), rounds=1, only=["tic-tac-toe"],
                       rollout="random")
    assert [row["ruleset"] for row in rows] == ["tic-tac-toe"]
