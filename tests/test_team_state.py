"""Team state: ``var NAME per team`` and ``team(p)`` (docs/language.md, `game`: team state).

* grammar → IR: ``per team`` gives ``"per_team": true`` (``per_player`` false), which
  the schema accepts; ``fmt`` keeps it; the highlighter colours it as keywords;
* a ruleset without teams that declares one gets a located error (``.rules`` and IR),
  and so does ``team()``;
* play: a partnership whose points grow, read through ``inspect.variables``, a view,
  ``result()`` and a state saved and loaded; the same game on the closures alone;
* indexing with anything but a team's number is a located error in play;
* ``seen by owner``: each player sees their own team's entry (views, tensors);
* ``reset`` makes one value per team again; ``explain --json`` lists the variable.
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from pygments.token import Keyword

import rulepack
from rulepack.cli.main import main
from rulepack.compiler import codegen
from rulepack.engine import inspect
from rulepack.engine.observe import Observer
from rulepack.errors import RulepackError, RulesetRuntimeError, SemanticError
from rulepack.fmt import format_rules
from rulepack.grammar.parser import parse_rules
from rulepack.highlight import RulesLexer
from rulepack.loader import game_from_ir
from rulepack.schemas.validate import validate_ir

#: two teams of two; a player takes a point for their team or passes, three rounds;
#: ``pledge`` is private to each team; ``hits`` counts the actions per team.
PARTNERS = """\
game partnership {
  players 4
  seats north, east, south, west
  teams (north, east), (south, west)
}
var points per team = 0
var pledge per team seen by owner = 0
var hits per team = 0
score(p) = points[team(p)]
winner highest score
play {
  rounds 3 times {
    turns from north until next == north {
      choose {
        action "point" if current != west {
          set points[team(current)] = points[team(current)] + 1
          set hits[team(current)] = hits[team(current)] + 1
        }
        action "pledge" {
          set pledge[team(current)] = pledge[team(current)] + 10
        }
      }
    }
  }
}
"""


def play_first_actions(game: rulepack.Game, seed: int = 0):
    """Play by always taking the first legal action: every seat but west takes a
    point; west pledges."""
    state = game.new_game(4, seed=seed)
    while not state.is_terminal():
        state.apply_index(0)
    return state


def test_per_team_reads_as_its_own_ir_key_that_the_schema_accepts():
    ir = parse_rules(PARTNERS, "p.rules")
    points, pledge = ir["variables"][0], ir["variables"][1]
    assert points["per_team"] is True and points["per_player"] is False
    assert pledge["per_team"] is True and pledge["seen"] == "owner"
    plain = parse_rules(PARTNERS.replace("per team = 0\nvar pledge", "= 0\nvar pledge"), "p.rules")
    assert "per_team" not in plain["variables"][0]
    validate_ir(ir, "p.rules")
    broken = json.loads(json.dumps(ir))
    broken["variables"][0]["per_team"] = "yes"
    with pytest.raises(RulepackError, match="per_team"):
        validate_ir(broken, "p.rules")


def test_fmt_and_the_highlighter_know_per_team():
    messy = PARTNERS.replace("var points per team = 0", "var   points  per    team=0")
    assert format_rules(messy) == format_rules(PARTNERS)
    assert "var points per team = 0" in format_rules(messy)
    tokens = list(RulesLexer().get_tokens("var points per team = 0\n"))
    assert (Keyword, "team") in tokens and (Keyword, "per") in tokens


def test_a_team_gains_points_read_through_the_public_api():
    game = rulepack.loads(PARTNERS)
    state = game.new_game(4, seed=0)
    assert inspect.variables(state)["points"] == [0, 0]
    state.apply_index(0)                         # north: a point for north and east
    assert inspect.variables(state)["points"] == [1, 0]
    state.apply_index(0)                         # east, the same team
    assert inspect.variables(state)["points"] == [2, 0]
    state.apply_index(0)                         # south: the other team
    assert inspect.variables(state)["points"] == [2, 1]
    assert state.view(3)["variables"]["points"] == [2, 1]
    state = play_first_actions(game)
    assert inspect.variables(state)["points"] == [6, 3]   # 3 rounds: 2 + 1 per round
    assert inspect.variables(state)["hits"] == [6, 3]
    result = state.result()
    assert result["winners"] == [0, 1]
    # each partner's score is the team's points; a team's score is its players' sum
    assert result["scores"] == [6, 6, 3, 3]
    assert [t["score"] for t in result["teams"]] == [12, 6]


def test_a_saved_game_keeps_the_team_values():
    game = rulepack.loads(PARTNERS)
    state = game.new_game(4, seed=0)
    for _ in range(6):
        state.apply_index(0)
    loaded = game.state_from_json(json.loads(json.dumps(state.to_json())))
    assert inspect.variables(loaded) == inspect.variables(state)
    assert inspect.variables(loaded)["points"] == [4, 1]     # N, E, S, W (pledges), N, E


def test_the_closures_play_the_same_game(monkeypatch: pytest.MonkeyPatch):
    generated = inspect.variables(play_first_actions(rulepack.loads(PARTNERS)))
    monkeypatch.setattr(codegen, "ENABLED", False)
    closures = inspect.variables(play_first_actions(rulepack.loads(PARTNERS)))
    assert closures == generated


def test_seen_by_owner_shows_a_player_their_own_teams_entry():
    state = play_first_actions(rulepack.loads(PARTNERS))
    assert inspect.variables(state)["pledge"] == [0, 30]       # west pledged three times
    hidden = {"hidden": True}
    assert state.view(0)["variables"]["pledge"] == [0, hidden]     # north: team 0
    assert state.view(1)["variables"]["pledge"] == [0, hidden]     # east: team 0
    assert state.view(2)["variables"]["pledge"] == [hidden, 30]    # south: team 1
    assert state.view(3)["variables"]["pledge"] == [hidden, 30]    # west: team 1
    assert state.view(2)["flow"]["vars"]["pledge"] == [{"secret": True}, 30]


def test_tensors_have_a_slot_per_team_and_hide_the_other_teams_entry():
    state = rulepack.loads(PARTNERS).new_game(4, seed=0)
    observer = Observer(state.program)
    single = rulepack.loads(PARTNERS.replace("var hits per team = 0", "var hits = 0")
                            .replace("set hits[team(current)] = hits[team(current)] + 1",
                                     "set hits = hits + 1")).new_game(4, seed=0)
    # 'hits' per team takes one slot per team, one value a single slot
    assert observer.observation_tensor_shape != Observer(single.program).observation_tensor_shape
    # two positions that differ only in team 1's pledge: north and east (team 0)
    # cannot tell them apart, south and west (team 1) can; and the other way round
    a, b, c = state.clone(), state.clone(), state.clone()
    a.position.vars["pledge"] = [0, 0]
    b.position.vars["pledge"] = [0, 30]
    c.position.vars["pledge"] = [30, 0]
    for seat, sees_team in ((0, 0), (1, 0), (2, 1), (3, 1)):
        ta, tb, tc = (observer.observation_tensor(s.position, seat) for s in (a, b, c))
        assert (ta != tb) == (sees_team == 1), seat
        assert (ta != tc) == (sees_team == 0), seat


def test_only_a_teams_number_indexes_a_team_variable():
    # a player where the type check sees it: refused before play, at the index
    bad = PARTNERS.replace("set points[team(current)] = points[team(current)] + 1",
                           "set points[current] = 1")
    with pytest.raises(SemanticError, match=r"points\[\.\.\.\] needs a team \(team\(p\)\), "
                                            r"not a player") as static:
        rulepack.loads(bad, "bad.rules").new_game(4, seed=0)
    loc = static.value.diagnostics[0].location
    assert (loc.file, loc.line, loc.column) == ("bad.rules", 16, 22)
    # a player only play sees (a key of a map, which has no static kind): refused in play
    hidden = bad.replace("var points per team = 0",
                         "var points per team = 0\ndefine same(x) = first([k for k in {x: 0}])"
                         ).replace(
        "set points[current] = 1", "set points[same(current)] = 1")
    state = rulepack.loads(hidden, "bad.rules").new_game(4, seed=0)
    with pytest.raises(RulesetRuntimeError, match=r"points\[player 1\]: a player is not a "
                                                  r"team; write points\[team\(p\)\]") as err:
        state.apply_index(0)
    loc = err.value.diagnostics[0].location
    assert (loc.file, loc.line) == ("bad.rules", 17)
    read = PARTNERS.replace("set hits[team(current)] = hits[team(current)] + 1",
                            "set hits[team(current)] = points[2]")
    state = rulepack.loads(read, "read.rules").new_game(4, seed=0)
    with pytest.raises(RulesetRuntimeError, match=r"points\[2\]: not a team \(the teams are "
                                                  r"numbered 0 to 1"):
        state.apply_index(0)


def test_a_game_without_teams_cannot_declare_team_state():
    alone = "game alone {\n  players 2\n}\nvar tricks = 0\nvar points per team = 0\n"
    with pytest.raises(SemanticError, match="'points' is one value per team, but this game "
                                            "has no teams") as err:
        rulepack.loads(alone, "alone.rules")
    loc = err.value.diagnostics[0].location
    assert (loc.file, loc.line, loc.column) == ("alone.rules", 5, 1)
    # the same IR given as data (no .rules text) is refused by the compiler, located
    ir = parse_rules(alone, "alone.json")
    with pytest.raises(SemanticError, match="one value per team") as err:
        game_from_ir(ir, "alone.json").instance(2)
    assert err.value.diagnostics[0].location.line == 5


def test_team_needs_teams_and_a_player():
    no_teams = ("game alone {\n  players 2\n}\nvar n = 0\nplay {\n  set n = team(current)\n}\n")
    with pytest.raises(SemanticError, match=r"team\(\) needs teams") as err:
        rulepack.loads(no_teams, "t.rules")
    assert err.value.diagnostics[0].location.line == 6
    bad = PARTNERS.replace("set hits[team(current)] = hits[team(current)] + 1",
                           "set hits[team(current)] = team(7)")
    state = rulepack.loads(bad).new_game(4, seed=0)
    with pytest.raises(RulesetRuntimeError, match=r"team\(\) needs a player, not 7"):
        state.apply_index(0)


def test_teams_are_numbered_in_order_at_the_player_count_played():
    three = """\
game trio {
  players 4..6
  teams (0, 3), (1, 4), (2, 5)
}
var points per team = 0
var mine = []
play {
  turns from 0 until next == 0 {
    choose {
      action "score" {
        set points[team(current)] = points[team(current)] + current + 1
        set mine = mine + [team(current)]
      }
    }
  }
  reset points
}
"""
    game = rulepack.loads(three)
    # seats 4 and 5 are left out of their teams with 4 players: still three teams
    for players, teams, points in ((6, [0, 1, 2, 0, 1, 2], [1 + 4, 2 + 5, 3]),
                                   (4, [0, 1, 2, 0], [1, 2, 3])):
        state = game.new_game(players, seed=0)
        for _ in range(players - 1):
            state.apply_index(0)
        assert inspect.variables(state)["mine"] == teams[:-1]
        assert inspect.variables(state)["points"] == points
        state.apply_index(0)
        assert state.is_terminal()
        assert inspect.variables(state)["mine"] == teams
        assert inspect.variables(state)["points"] == [0, 0, 0]      # reset: one per team


def test_explain_lists_the_variables_and_whether_they_are_per_team(tmp_path):
    path = tmp_path / "partnership.rules"
    path.write_text(PARTNERS, encoding="utf-8")
    out = CliRunner().invoke(main, ["explain", str(path), "--json"])
    assert out.exit_code == 0, out.output
    variables = json.loads(out.output)["variables"]
    assert variables == [{"name": "points", "per": "team", "seen_by": "everyone"},
                         {"name": "pledge", "per": "team", "seen_by": "owner"},
                         {"name": "hits", "per": "team", "seen_by": "everyone"}]
    text = CliRunner().invoke(main, ["explain", str(path)], terminal_width=120).output
    assert "Variables" in text and "pledge" in text


def test_the_play_screen_shows_a_team_variable_by_team():
    from rich.console import Console

    from rulepack.cli.render import view_renderable
    state = play_first_actions(rulepack.loads(PARTNERS))
    console = Console(width=100, record=True)
    console.print(view_renderable(state.view(2), "Partnership", set(),
                                  per_team={"points": ["north & east", "south & west"],
                                            "pledge": ["north & east", "south & west"]}))
    text = console.export_text()
    assert "north & east: 6; south & west: 3" in text
    assert "pledge" in text and "south & west: 30" in text and "north & east: 0" not in text
