"""Teams and one-player results (docs/language.md, `game`: teams, one player).

* partners share one result: a team's score is the sum of its players' own
  scores (nothing copied between partners), the winner rule compares teams, a
  player named by ``end game winners`` wins with their team;
* the bundled ``partners`` (a trick-taking game in two teams) and ``ladders`` (a
  patience) are checked on ``result()``: whole teams win, a lost patience is a
  loss and never a draw;
* ``simulate`` and ``simulate --json`` count wins, losses and draws per seat,
  per agent and per team; a record's result line carries the teams.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner
from rich.console import Console

import rulepack
from rulepack.cli.main import main
from rulepack.cli.render import summary_renderable, winners_text
from rulepack.cli.simulate import simulate
from rulepack.engine import inspect
from rulepack.errors import RulepackError

#: east alone scores 2 at most; north and south take one point each.
PAIRS = """\
game pairs {
  players 4
  seats north, east, south, west
  teams (north, south), (east, west)
}
var points per player = 0
score(p) = points[p]
winner highest score
play {
  set points[north] = 1
  set points[south] = 2
  set points[east] = 2
  set points[west] = 0
}
"""

#: the first seat named by 'end game winners' brings its partner along.
NAMED = """\
game named {
  players 4
  teams (0, 2), (1, 3)
}
play {
  end game winners 3
}
"""


def play_random(state, seed: int):
    rng = random.Random(seed)
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    return state


def test_team_scores_are_sums_and_the_rule_compares_teams():
    result = rulepack.loads(PAIRS).new_game(4, seed=0).result()
    assert result["scores"] == [1, 2, 2, 0]          # each player's own score
    # east has the best single score, but north + south (3) beat east + west (2)
    assert result["winners"] == [0, 2]
    assert result["teams"] == [{"players": [0, 2], "score": 3, "winner": True},
                               {"players": [1, 3], "score": 2, "winner": False}]
    assert result["returns"] == [1.0, 0.0, 1.0, 0.0]
    assert result["draw"] is False


def test_a_named_winner_wins_with_the_whole_team():
    result = rulepack.loads(NAMED).new_game(4, seed=0).result()
    assert result["winners"] == [1, 3]
    assert [t["winner"] for t in result["teams"]] == [False, True]


def test_a_game_without_teams_has_no_teams_entry():
    state = rulepack.load("tic-tac-toe").new_game(2, seed=0)
    assert "teams" not in play_random(state, 0).result()


@pytest.mark.parametrize("teams, message", [
    ("(north, south), west", "east is in no team (with 4 players every seat needs a team)"),
    ("(north, south), (south, east, west)", "south is in two teams"),
    ("(north, south), (east, \"west\")", "a team lists players, not 'west'"),
])
def test_bad_teams_are_located_errors(teams: str, message: str):
    text = PAIRS.replace("(north, south), (east, west)", teams)
    with pytest.raises(RulepackError) as info:
        rulepack.loads(text)
    diag = info.value.diagnostics[0]
    assert message in diag.message
    assert diag.location.line is not None


def test_seats_beyond_the_player_count_are_left_out():
    text = PAIRS.replace("players 4", "players 2..4").replace(
        "set points[south] = 2\n  set points[east] = 2\n  set points[west] = 0\n",
        "set points[1] = 5\n")
    result = rulepack.loads(text).new_game(2, seed=0).result()
    assert [t["players"] for t in result["teams"]] == [[0], [1]]
    assert result["winners"] == [1]


@pytest.mark.parametrize("seed", range(4))
def test_partners_whole_teams_win_and_no_points_are_copied(seed: int):
    state = play_random(rulepack.load("partners").new_game(4, seed=seed), seed)
    result = state.result()
    teams = result["teams"]
    assert [t["players"] for t in teams] == [[0, 2], [1, 3]]
    # the seven points (six tricks, the last one twice) are split between the
    # teams, each player keeping the tricks they took: no copying
    tricks = [len(inspect.zone_pieces(state, f"won[{seat}]")) // 4
              for seat in ("north", "east", "south", "west")]
    assert sum(result["scores"]) == 7 == sum(tricks) + 1
    assert [t["score"] for t in teams] == [result["scores"][0] + result["scores"][2],
                                           result["scores"][1] + result["scores"][3]]
    best = max(teams, key=lambda t: t["score"])
    assert result["winners"] == best["players"]     # one whole team wins (7 is odd)
    assert result["draw"] is False


@pytest.mark.parametrize("seed", range(6))
def test_a_solitaire_is_won_or_lost_never_drawn(seed: int):
    state = play_random(rulepack.load("ladders").new_game(1, seed=seed), seed)
    result = state.result()
    assert result["draw"] is False
    climbed = sum(len(inspect.zone_pieces(state, f"ladder[{s}]")) for s in
                  ("suns", "moons", "crowns", "arms"))
    assert result["winners"] == ([0] if climbed == 24 else [])
    text = winners_text(result, ["player 1"]).plain
    assert text == ("Winner: player 1" if climbed == 24 else "Lost: nobody wins.")


def test_simulate_counts_wins_losses_and_draws_per_seat_agent_and_team():
    game = rulepack.load("partners")
    summary = simulate(game, 12, ["random", "greedy", "random", "greedy"], seed=3)
    teams = summary["teams"]
    assert [t["name"] for t in teams] == ["north + south", "east + west"]
    assert [t["seats"] for t in teams] == [[1, 3], [2, 4]]
    assert teams[0]["wins"] == teams[1]["losses"] and teams[1]["wins"] == teams[0]["losses"]
    for t in teams:
        assert t["wins"] + t["losses"] + t["draws"] == 12
        for s in t["seats"]:        # partners share their team's record
            seat = summary["seats"][s - 1]
            assert (seat["wins"], seat["losses"], seat["draws"]) == \
                (t["wins"], t["losses"], t["draws"])
    for row in summary["seats"] + summary["agents"]:
        assert row["wins"] + row["losses"] + row["draws"] == 12
    assert summary["ties"] == 0         # one team wins each game


def test_simulate_of_a_solitaire_says_one_player_and_counts_losses():
    summary = simulate(rulepack.load("ladders"), 8, ["random"], seed=0)
    seat = summary["seats"][0]
    assert summary["draws"] == 0 and seat["draws"] == 0
    assert seat["wins"] + seat["losses"] == 8 and seat["losses"] > 0
    assert summary["teams"] is None
    console = Console(width=100, record=True)
    console.print(summary_renderable(dict(summary, seconds=1.0, games_per_second=8.0)))
    assert "8 games, 1 player, seed 0" in console.export_text()


def test_cli_simulate_json_has_team_rows_and_the_table_shows_them():
    out = CliRunner().invoke(main, ["simulate", "partners", "-n", "4", "--games", "4",
                                    "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert {"wins", "losses", "draws"} <= set(data["teams"][0])
    assert {"wins", "losses", "draws"} <= set(data["agents"][0])
    table = CliRunner().invoke(main, ["simulate", "partners", "-n", "4", "--games", "4"])
    assert "north + south" in table.output and "losses" in table.output


def test_a_records_result_line_has_the_teams(tmp_path: Path):
    record = tmp_path / "game.jsonl"
    out = CliRunner().invoke(main, ["play", "partners", "-n", "4", "--seat", "random",
                                    "--seed", "2", "--record", str(record)])
    assert out.exit_code == 0, out.output
    last = json.loads(record.read_text().splitlines()[-1])
    assert last["type"] == "result"
    assert [t["players"] for t in last["teams"]] == [[0, 2], [1, 3]]
    assert sum(t["winner"] for t in last["teams"]) == 1
    replay = CliRunner().invoke(main, ["replay", str(record)])
    assert replay.exit_code == 0, replay.output


def test_the_ending_summary_tells_of_teams_and_of_a_lost_patience():
    from rulepack.cli.ending import ending
    partners = ending(rulepack.load("partners"))
    assert partners[-1] == ("Teams: partners share one result; a team's score is the sum of "
                            "its players' scores, and the winner rule compares teams "
                            "((north, south), (east, west))")
    assert ending(rulepack.load("ladders"))[-1].endswith("a game that ends otherwise is lost")
