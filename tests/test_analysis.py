"""``rulepack analyze``: each metric on small hand-made rulesets whose answers are
worked out by hand below, the same report on every backend, streaming and resuming,
and a run on every bundled ruleset.

``tests/data/analysis/lead.rules`` (2 players, 2 rounds of one turn each): seat 1
scores 2 a turn; seat 2 scores 3 in round 1 and 0 in round 2; "give up" needs a
negative score and the phase "bonus" a score above 1000, so neither ever fires and
every decision is forced. At the start of each turn the scores are 0-0 (no
leader), 2-0 (seat 1), 2-3 (seat 2), 4-3 (seat 1), and 4-3 at the end: two lead
changes, seat 1 leads for good from decision 3 of 4, wins by 1.

``tests/data/analysis/branch.rules`` (2 players, 3 rounds): every turn of round r
offers r + 1 actions, so turns 1-2 have 2, turns 3-4 have 3, turns 5-6 have 4.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import rulepack
from rulepack.analysis.analyze import analyze, read_stream
from rulepack.analysis.report import coverage
from rulepack.analysis.rules import phases_reached, rule_map
from rulepack.analysis import runner
from rulepack.analysis.runner import Backend
from rulepack.analysis.stats import distribution, percentile
from rulepack.analysis.trace import lead_story, leader, margin
from rulepack.cli.analyze import parse_team, variants
from rulepack.cli.main import main
from rulepack.errors import RulepackError
from rulepack.loader import bundled_rulesets

DATA = Path(__file__).parent / "data" / "analysis"
LEAD = str(DATA / "lead.rules")
BRANCH = str(DATA / "branch.rules")


def run(*args: str) -> Any:
    return CliRunner().invoke(main, list(args))


@pytest.fixture(scope="module")
def lead() -> dict[str, Any]:
    return analyze(rulepack.load(LEAD), 12, ["random", "random"], seed=3)["variants"][0]


# ---------------------------------------------------------------------- statistics
def test_percentiles_interpolate_between_ranks():
    assert percentile([1, 2, 3, 4, 5], 50) == 3
    assert percentile([1, 2, 3, 4], 50) == 2.5
    assert percentile(list(range(101)), 5) == 5 and percentile(list(range(101)), 95) == 95
    assert percentile([10, 20], 95) == pytest.approx(19.5)
    d = distribution([4, 1, 3, 2])
    assert (d["count"], d["mean"], d["median"], d["min"], d["max"]) == (4, 2.5, 2.5, 1, 4)
    assert distribution([])["mean"] is None
    with pytest.raises(ValueError):
        percentile([], 50)


def test_leader_and_lead_story():
    assert leader([3, 1], lowest=False) == 0 and leader([3, 1], lowest=True) == 1
    assert leader([2, 2, 1], lowest=False) is None
    # a shared lead in between is no change; the winner led for good from decision 6
    assert lead_story([(0, None), (2, 0), (4, None), (5, 0), (6, 1), (8, 1)], [1], 8) == (1, 0.75)
    assert lead_story([(0, 1), (9, 1)], [1], 9) == (0, 0.0)      # led from the start
    assert lead_story([(0, 0), (9, 0)], [1], 9) == (0, 1.0)      # named winner, never led
    assert lead_story([(0, 0), (9, 1)], [0, 1], 9) == (1, None)  # shared win
    assert margin([4, 9, 7], lowest=False) == 2 and margin([4, 9, 7], lowest=True) == 3
    assert margin(None, lowest=False) is None and margin([5], lowest=False) is None


# ---------------------------------------------------------------------- each metric
def test_balance_of_a_game_the_first_player_always_wins(lead):
    seats = lead["balance"]["seats"]
    assert [s["count"] for s in seats] == [12, 0]
    assert seats[0]["rate"] == 1.0 and seats[0]["ci95"][1] == 1.0 and seats[0]["ci95"][0] > 0.7
    first = lead["balance"]["first_player"]
    assert first["fair"] == 0.5 and first["advantage"] == 0.5
    assert lead["balance"]["draws"]["count"] == 0


def test_length_of_a_fixed_length_game(lead):
    for key, value in (("decisions", 4), ("turns", 4), ("rounds", 2)):
        d = lead["length"][key]
        assert (d["mean"], d["median"], d["p5"], d["p95"]) == (value,) * 4
    assert lead["length"]["histogram"] == [[4, 12]]
    assert lead["length"]["limit"]["count"] == 0


def test_drama_lead_changes_margin_and_decided_at(lead):
    assert lead["drama"]["lead_changes"]["mean"] == 2
    assert lead["drama"]["margin"]["mean"] == 1
    assert lead["drama"]["decided_at"]["mean"] == 0.75


def test_a_forced_move_only_game(lead):
    assert lead["choice"]["branching"] == 1.0
    assert lead["choice"]["forced"]["rate"] == 1.0 and lead["choice"]["forced"]["count"] == 48


def test_rules_that_can_never_fire_are_dead_and_located(lead):
    alts = {a["text"]: a for a in lead["coverage"]["alternatives"]}
    assert alts["score"]["offered"] == alts["score"]["legal"] == alts["score"]["chosen"] == 48
    assert alts["score"]["games_legal"] == 12 and not alts["score"]["dead"]
    assert alts["give up"]["legal"] == 0 and alts["give up"]["offered"] == 48
    assert alts["give up"]["dead"] and alts["take a bonus"]["dead"]
    phases = {p["name"]: p for p in lead["coverage"]["phases"]}
    assert phases["turn"]["reached"] == 12 and phases["bonus"]["dead"]
    assert lead["coverage"]["dead"] == [
        f"{LEAD}:18: action 'give up' was never legal",
        f"{LEAD}:9: action 'take a bonus' was never legal",
        f"{LEAD}:7: phase 'bonus' was never reached",
    ]


def test_branching_by_turn():
    v = analyze(rulepack.load(BRANCH), 8, ["random", "random"], seed=1)["variants"][0]
    assert [(r["turn"], r["mean"], r["decisions"]) for r in v["choice"]["by_turn"]] == [
        (1, 2, 8), (2, 2, 8), (3, 3, 8), (4, 3, 8), (5, 4, 8), (6, 4, 8)]
    assert v["choice"]["branching"] == 3.0 and v["choice"]["forced"]["count"] == 0
    take = v["coverage"]["alternatives"][0]
    assert take["legal_rate"] == 1.0 and take["chosen"] == 48


def test_games_stopped_at_the_decision_limit_are_counted_not_fatal():
    v = analyze(rulepack.load(LEAD), 5, ["random"] * 2, max_decisions=3)["variants"][0]
    assert v["length"]["limit"]["count"] == 5
    assert v["balance"]["seats"][0]["count"] == 0 and v["balance"]["draws"]["count"] == 0


def test_teams_and_agents():
    report = analyze(rulepack.load(LEAD), 6, ["first", "random"], teams=[[0], [1]])
    balance = report["variants"][0]["balance"]
    assert [t["count"] for t in balance["teams"]] == [6, 0] and report["teams"] == [[1], [2]]
    # seats rotated: each agent sits in seat 1, which always wins, in half the games
    assert [(a["agent"], a["games"], a["count"]) for a in balance["agents"]] == [
        ("first", 6, 3), ("random", 6, 3)]
    with pytest.raises(RulepackError):
        analyze(rulepack.load(LEAD), 2, ["random"] * 2, teams=[[2]])


def test_phase_reached_rule():
    """A phase is reached when a decision inside it is taken; one that need not
    decide (no unconditional choose of its own), when a phase that does it
    unconditionally is (play always is)."""
    phases = [{"name": "a", "choices": [0], "sure": True, "callers": ["play"], "actions": []},
              {"name": "b", "choices": [], "sure": False, "callers": ["a"], "actions": []},
              {"name": "c", "choices": [1], "sure": False, "callers": ["play"], "actions": []},
              {"name": "d", "choices": [], "sure": False, "callers": [], "actions": [1]}]
    assert phases_reached(phases, [0, 0], [0, 0]) == [False, False, True, False]
    assert phases_reached(phases, [2, 0], [2, 0]) == [True, True, True, False]
    assert phases_reached(phases, [2, 1], [1, 1]) == [True, True, True, True]


def test_phases_from_the_ir():
    """Multzo: deal decides nothing, showdown's choose sits in an if: both run in
    every game; in lead.rules the bonus phase is done only under an if."""
    rules = rule_map(rulepack.load("multzo").instance(3))
    phases = {p["name"]: p for p in rules["phases"]}
    assert (phases["deal"]["sure"], phases["turns"]["sure"], phases["showdown"]["sure"]) == (
        False, True, False)
    assert phases["showdown"]["callers"] == ["play"] and phases["showdown"]["choices"] == [2]
    assert phases_reached(rules["phases"], [5, 5, 0], [5] * 6) == [True, True, True]
    multiplay = {p["name"]: p for p in rule_map(rulepack.load("multiplay").instance(2))["phases"]}
    assert multiplay["score_lines"]["actions"] == [0]     # done by "claim {n} at {c}"
    lead = {p["name"]: p for p in rule_map(rulepack.load(LEAD).instance(2))["phases"]}
    assert lead["bonus"]["callers"] == [] and lead["bonus"]["sure"]


def test_a_phase_done_twice_counts_once_per_source_line():
    game = rulepack.load("mismemory")
    rules = rule_map(game.instance(2))
    twice = [a for a in rules["alternatives"] if a["text"] == "put {t} face down at {c}"]
    assert len(twice) == 2 and twice[0]["at"] == twice[1]["at"]
    record = {"legal": [0] * len(rules["alternatives"]), "chosen": [0] * len(rules["alternatives"]),
              "pending": [0] * 8}
    rows = coverage([record], rules)["alternatives"]
    assert len([a for a in rows if a["text"] == "put {t} face down at {c}"]) == 1


# ---------------------------------------------------------------------- variants
def test_variants_from_the_command_line():
    assert variants({}, [], []) == [None]
    assert variants({"rounds": "1"}, ["jokers=0,2"], []) == [
        {"rounds": "1", "jokers": "0"}, {"rounds": "1", "jokers": "2"}]
    assert len(variants({}, ["a=1,2", "b=x,y,z"], [])) == 6
    assert variants({}, [], ["jokers=2 rounds=3", "six_pack=yes"]) == [
        {"jokers": "2", "rounds": "3"}, {"six_pack": "yes"}]
    assert parse_team("1,3") == [0, 2]


def test_variants_side_by_side_on_the_same_seeds():
    report = analyze(rulepack.load("packkub"), 2, ["random"] * 2, seed=4,
                     variants=[{"rounds": "1", "jokers": "0"}, {"rounds": "1", "jokers": "2"}])
    assert [v["label"] for v in report["variants"]] == ["rounds=1 jokers=0", "rounds=1 jokers=2"]
    assert [v["options"]["jokers"] for v in report["variants"]] == [0, 2]
    assert all(v["games"] == 2 for v in report["variants"])


# ---------------------------------------------------------------------- backends, streams
@pytest.mark.parametrize("fork", [True, False])
def test_jobs_give_the_same_report_and_stream(tmp_path: Path, monkeypatch, fork: bool):
    """Workers forked with the compiled game, or spawned to compile it from its IR."""
    monkeypatch.setattr(runner, "can_fork", lambda: fork)
    game = rulepack.load("multzo")
    one = analyze(game, 16, ["random"] * 3, seed=9, out=tmp_path / "one.jsonl")
    two = analyze(game, 16, ["random"] * 3, seed=9, backend=Backend(jobs=2),
                  out=tmp_path / "two.jsonl")
    assert json.dumps(one) == json.dumps(two)
    lines = (tmp_path / "two.jsonl").read_text().splitlines()
    assert len(lines) == 17 and json.loads(lines[0])["analysis"]["games"] == 16
    assert sorted(json.loads(x)["index"] for x in lines[1:]) == list(range(16))


def test_resume_plays_only_the_missing_games(tmp_path: Path):
    game = rulepack.load("multzo")
    out = tmp_path / "run.jsonl"
    whole = analyze(game, 10, ["random"] * 3, seed=2, out=out)
    lines = out.read_text().splitlines(keepends=True)
    out.write_text("".join(lines[:5]) + lines[5][:20])       # interrupted mid-line
    played: list[int] = []
    resumed = analyze(game, 10, ["random"] * 3, seed=2, out=out, resume=True,
                      on_game=lambda done, total: played.append(done))
    assert json.dumps(resumed) == json.dumps(whole)
    assert played[0] == 4 and played[-1] == 10              # 4 games were kept
    assert len(read_stream(out, json.loads(lines[0])["analysis"])) == 10
    with pytest.raises(RulepackError, match="other arguments"):
        analyze(game, 10, ["random"] * 3, seed=3, out=out, resume=True)


def test_a_failing_game_is_located_with_its_seed(tmp_path: Path):
    path = tmp_path / "boom.rules"
    path.write_text("game boom { players 2 }\nvar roll = 0\nplay {\n  set roll = random(1..6)\n"
                    "  set roll = 6 // (roll - 1)\n  end game winners players[0]\n}\n")
    with pytest.raises(RulepackError) as info:
        analyze(rulepack.load(str(path)), 30, ["random"] * 2, backend=Backend(jobs=2))
    notes = [d.message for d in info.value.diagnostics]
    assert info.value.diagnostics[0].location.line == 5
    assert "of the analysis (play it with --seed" in notes[-1]


# ---------------------------------------------------------------------- the command
@pytest.mark.parametrize("name", bundled_rulesets())
def test_analyze_runs_on_every_bundled_ruleset(name: str):
    games = 1 if name == "packkub" else 3
    result = run("analyze", name, "--games", str(games), "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["variants"][0]["games"] == games
    assert report["variants"][0]["coverage"]["alternatives"]


def test_analyze_terminal_tables_and_errors():
    result = run("analyze", LEAD, "--games", "4", "--compare-option", "x=1,2")
    assert result.exit_code == 1 and "option" in result.output
    result = run("analyze", LEAD, "--games", "4", "--team", "1", "--team", "2")
    assert result.exit_code == 0, result.output
    for words in ("player 1", "100.0%", "lead changes", "forced moves", "never legal",
                  "dead rules (default):", "lead.rules:18: action 'give up' was never legal",
                  "team 1"):
        assert words in result.output
    assert run("analyze", LEAD, "--resume").exit_code == 2
    assert run("analyze", LEAD, "--cluster", "spark").exit_code == 2


def test_html_without_matplotlib_fails_before_any_game(tmp_path: Path, monkeypatch):
    monkeypatch.setitem(sys.modules, "rulepack.analysis.html", None)   # import fails
    out = tmp_path / "games.jsonl"
    result = run("analyze", LEAD, "--games", "4", "--out", str(out),
                 "--html", str(tmp_path / "r.html"))
    assert result.exit_code == 1 and "--html needs matplotlib" in result.output
    assert not out.exists()


def test_a_rulesets_teams_are_reported_without_being_named_again():
    """Partners declares its teams: analyze reports balance per team (a team wins when
    one of its players does) with no --team option, and a solitaire is '1 player'."""
    from rulepack.cli.main import main
    result = CliRunner().invoke(main, ["analyze", "partners", "--games", "4", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    teams = report["variants"][0]["balance"]["teams"]
    assert [t["seats"] for t in teams] == [[1, 3], [2, 4]]
    assert report["teams"] == [[1, 3], [2, 4]]
    text = CliRunner().invoke(main, ["analyze", "ladders", "--games", "2"]).output
    assert "1 player," in text and "1 players" not in text
