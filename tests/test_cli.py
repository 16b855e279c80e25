"""The command-line application, through click's CliRunner.

Exit codes (DESIGN.md): 0 ok, 1 invalid input, 2 usage error.
"""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from rich.console import Console

import rulepack
from rulepack import story as events
from rulepack.cli import render
from rulepack.cli.main import main
from rulepack.agents.bots import make_agent
from rulepack.engine.queries import visible

MULTZO = Path(rulepack.__file__).parent / "rulesets" / "multzo.rules"
PROMPT = "Choose 1-"


def run(*args: str, input: str | None = None):
    return CliRunner().invoke(main, list(args), input=input)


@pytest.fixture(scope="module")
def multzo():
    return rulepack.load("multzo")


# ---------------------------------------------------------------------- list
def test_list_shows_multzo_with_its_players():
    result = run("list")
    assert result.exit_code == 0, result.output
    assert "multzo" in result.stdout and "Multzo" in result.stdout
    assert "2-5" in result.stdout


def test_list_json():
    result = run("list", "--json")
    rows = json.loads(result.stdout)
    multzo = next(r for r in rows if r["name"] == "multzo")
    assert (multzo["min_players"], multzo["max_players"]) == (2, 5)


# ---------------------------------------------------------------------- start-up
HEAVY = ("lark", "jsonschema", "rich", "yaml", "rulepack.engine", "rulepack.compiler",
         "rulepack.patterns", "rulepack.agents", "rulepack.loader",
         "rulepack.grammar", "rulepack.schemas")


def modules_after(code: str) -> set[str]:
    """The modules a fresh interpreter has imported after running ``code``."""
    out = subprocess.run([sys.executable, "-c", code + "\nimport sys\nprint(*sys.modules)"],
                         capture_output=True, text=True, check=True).stdout
    return set(out.split())


@pytest.mark.parametrize("code", [
    "from rulepack.cli.main import main\ntry:\n  main(['--help'])\nexcept SystemExit:\n  pass",
    "import rulepack",
], ids=["rulepack --help", "import rulepack"])
def test_help_and_import_load_no_engine(code: str):
    """``rulepack --help`` and ``import rulepack`` stay fast: they import neither the
    parser, nor the schema, nor the engine, nor rich."""
    loaded = modules_after(code)
    assert "rulepack" in loaded
    assert not {m for m in loaded if m.split(".")[0] in HEAVY or m.startswith(HEAVY)}


def test_the_cli_knows_the_engines_agents_and_limits():
    """The names the options accept are written out in rulepack.cli.args (so that the
    commands load no engine to declare them); they are the engine's."""
    from rulepack.cli import args
    from rulepack.agents.bots import AGENTS, SEARCH_AGENTS
    from rulepack.engine.state import DEFAULT_MAX_DECISIONS
    assert args.AGENT_NAMES == tuple(sorted([*AGENTS, *SEARCH_AGENTS]))
    assert args.SEARCH_AGENT_NAMES == tuple(sorted(SEARCH_AGENTS))
    assert args.DEFAULT_MAX_DECISIONS == DEFAULT_MAX_DECISIONS


# ---------------------------------------------------------------------- validate
def test_validate_accepts_multzo_by_name_and_path():
    result = run("validate", "multzo", str(MULTZO))
    assert result.exit_code == 0, result.output
    assert "multzo: ok" in result.stdout
    assert f"{MULTZO}: ok" in result.stdout


@pytest.fixture
def broken(tmp_path: Path) -> Path:
    path = tmp_path / "broken.rules"
    path.write_text(MULTZO.read_text().replace("zone stack: stack", "zone stack: stak"))
    return path


def test_validate_rejects_a_broken_ruleset_with_a_located_message(broken: Path):
    result = run("validate", str(broken), "multzo")
    assert result.exit_code == 1
    out = result.stdout
    assert re.search(rf"^{re.escape(str(broken))}:\d+:\d+: error: ", out, re.M), out
    assert re.search(r"^\s*\^$", out, re.M), out            # the caret line
    assert "zone stack: stak" in out                          # the source line
    assert "multzo: ok" in out                                # the other file is still checked


def test_validate_semantic_error_gets_a_source_line_and_caret(tmp_path: Path):
    path = tmp_path / "unknown.rules"
    path.write_text(MULTZO.read_text().replace("move top of stack to hand[current]",
                                               "move top of stak to hand[current]"))
    result = run("validate", str(path))
    assert result.exit_code == 1
    assert re.search(r":\d+:\d+: error: .*stak", result.stdout)
    assert re.search(r"^\s*\^$", result.stdout, re.M), result.stdout


def test_validate_json(broken: Path):
    result = run("validate", "--json", str(broken))
    assert result.exit_code == 1
    found = json.loads(result.stdout)
    assert isinstance(found, list) and found
    first = found[0]
    assert {"file", "line", "column", "severity", "code", "message"} <= set(first)
    assert first["severity"] == "error" and first["file"] == str(broken)
    ok = run("validate", "--json", "multzo")
    assert ok.exit_code == 0
    assert all(d["severity"] != "error" for d in json.loads(ok.stdout))


def test_validate_without_paths_is_a_usage_error():
    assert run("validate").exit_code == 2


def test_validate_missing_file(tmp_path: Path):
    result = run("validate", str(tmp_path / "nope.rules"))
    assert result.exit_code == 1
    assert "error:" in result.stdout


# ---------------------------------------------------------------------- play (bots)
def test_play_bots_prints_events_and_result_deterministically():
    first = run("play", "multzo", "--players", "3", "--seed", "5")
    assert first.exit_code == 0, first.output
    assert re.search(r"^player [123]: draw the top tile of the stack$", first.stdout, re.M)
    assert "Winner" in first.stdout or "Draw" in first.stdout
    assert "decisions" in first.stdout
    again = run("play", "multzo", "--players", "3", "--seed", "5")
    assert again.stdout == first.stdout
    other = run("play", "multzo", "--players", "3", "--seed", "6")
    assert other.stdout != first.stdout


def test_play_json(multzo):
    result = run("play", "multzo", "--players", "2", "--seed", "2", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["ruleset"] == "multzo" and data["seed"] == 2 and data["players"] == 2
    assert data["winners"] and data["terminal"] is True
    assert data["decisions"] > 0 and len(data["scores"]) == 2
    # the same game as the library plays with the same seats and seed
    state = multzo.new_game(2, seed=2)
    bots = [make_agent("random", 2, seat) for seat in range(2)]
    while not state.is_terminal():
        from rulepack.agents.bots import Decision
        p = state.current_player
        state.apply(state.legal_actions()[bots[p].choose(Decision(state, p))])
    assert state.result()["scores"] == data["scores"]


def test_play_json_refuses_human_seats():
    assert run("play", "multzo", "--seat", "human", "--seat", "random", "--json").exit_code == 2


def test_unknown_option_is_invalid_input():
    result = run("play", "multzo", "--players", "2", "--option", "speed=fast")
    assert result.exit_code == 1
    assert "no option 'speed'" in result.stderr
    assert "Traceback" not in result.output


def test_option_without_value_is_a_usage_error():
    assert run("play", "multzo", "--players", "2", "--option", "speed").exit_code == 2


def test_too_many_players_is_invalid_input():
    result = run("play", "multzo", "--players", "9")
    assert result.exit_code == 1
    assert "2-5 players, not 9" in result.stderr


def test_unknown_ruleset_is_invalid_input():
    result = run("play", "no-such-game", "--players", "2")
    assert result.exit_code == 1
    assert "no bundled ruleset named 'no-such-game'" in result.stderr


def test_unknown_seat_kind_is_a_usage_error():
    assert run("play", "multzo", "--seat", "robot", "--seat", "random").exit_code == 2


def test_more_seats_than_players_is_a_usage_error():
    assert run("play", "multzo", "--players", "2", "--seat", "human", "--seat", "random",
               "--seat", "random").exit_code == 2


def test_runaway_game_is_stopped_cleanly():
    result = run("play", "multzo", "--players", "2", "--max-decisions", "3")
    assert result.exit_code == 1
    assert "did not end within 3 decisions" in result.stderr
    assert "Traceback" not in result.output


# ---------------------------------------------------------------------- play (human)
def test_human_seat_shows_its_view_and_rejects_bad_input():
    result = run("play", "multzo", "--seat", "human", "--seat", "random", "--seed", "3",
                 input="abc\n\n99\n1\n1\nq\n")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "player 1" in out and "(yours)" in out and "Your move:" in out
    assert "'abc' is not a number" in out
    assert "Type the number of an action" in out
    assert "There is no action 99" in out
    assert "player 1 (you): draw the top tile of the stack" in out
    assert "Game abandoned" in out
    assert out.count(PROMPT) >= 6


def test_end_of_input_quits_cleanly():
    result = run("play", "multzo", "--seat", "human", "--seat", "random", input="1\n")
    assert result.exit_code == 0
    assert "Game abandoned" in result.stdout


def _tile_pattern(name: str) -> re.Pattern[str]:
    # "2 of arms" but not the coin "2 of arms coin" (maybe wrapped before "coin")
    return re.compile(rf"(?<![\w]){re.escape(name)}(?!\s+coin)")


def test_a_human_never_sees_the_bots_hidden_tiles(multzo):
    """Replay the CLI's game next to it: between two prompts, the human's screen
    may name a tile hidden from them at the second prompt (in the bot's hand, in
    the stack, discarded face down) only if they could see that tile at some
    moment of that stretch (a face-up discard the bot drew back, say)."""
    seed, human, bot_seat = 3, 0, 1
    state = multzo.new_game(2, seed=seed)
    bot = make_agent("random", seed, bot_seat)
    hand = next(z.index for z in state.program.zones if z.label == "hand[player 2]")
    tiles = [p for p in state.program.pieces if p.kind == "tile"]

    def seen_now() -> set[str]:
        return {p.name for p in tiles if visible(state.position, p, human)}

    windows: list[tuple[set[str], set[str]]] = []     # (hidden bot tiles, allowed names)
    allowed = seen_now()
    from rulepack.agents.bots import Decision
    from rulepack.engine.state import Reveal
    while not state.is_terminal():
        p = state.current_player
        start = len(state.history)
        if p == human and len(state.legal_actions()) == 1:
            state.apply(state.legal_actions()[0])                  # a forced move: played with a notice, no prompt
        elif p == human:
            hidden = {t.name for t in tiles if not visible(state.position, t, human)}
            windows.append((hidden, set(allowed)))
            allowed = seen_now()
            state.apply(state.legal_actions()[0])
        else:
            state.apply(state.legal_actions()[bot.choose(Decision(state, p))])
        allowed |= seen_now()
        # pieces the flow turned face up (the showdown) were shown to everyone
        for entry in state.history[start:]:
            if isinstance(entry, Reveal):
                allowed |= {piece.name for piece in entry.pieces}
    first_hand = {t.name for t in multzo.new_game(2, seed=seed).position.zones[hand]}
    assert windows and len(first_hand) == 4

    result = run("play", "multzo", "--seat", "human", "--seat", "random", "--seed", str(seed),
                 input="1\n" * (len(windows) + 5))
    assert result.exit_code == 0, result.output
    segments = result.stdout.split(PROMPT)
    assert len(segments) == len(windows) + 1
    for k, ((hidden, ok), text) in enumerate(zip(windows, segments)):
        for name in hidden - ok:
            assert not _tile_pattern(name).search(text), f"screen {k} shows {name!r}"
    # the first screen: none of the bot's four dealt tiles
    for name in first_hand - windows[0][1]:
        assert not _tile_pattern(name).search(segments[0])


def test_face_down_discard_is_masked_for_the_others_only(multzo):
    state = multzo.new_game(2, seed=3)
    actor = state.current_player
    other = 1 - actor
    state.apply(state.legal_actions()[0])                                  # draw the top tile
    down = next(a for a in state.legal_actions() if "face down" in a.text)
    up = next(a for a in state.legal_actions() if "face up" in a.text)
    tile = down.values[0].name
    told = events.step(state.clone(), down, [actor, other, None])
    assert tile in told[actor][0].text and tile in told[None][0].text
    assert told[other][0].text == "discard a tile face down to end the round"
    told = events.step(state.clone(), up, [other])
    assert up.values[0].name in told[other][0].text   # seen once it is face up


def test_two_humans_pass_the_screen():
    result = run("play", "multzo", "--seat", "human", "--seat", "human", "--seed", "3",
                 input="\n1\n1\n\nq\n")
    assert result.exit_code == 0, result.output
    out = result.stdout
    first = out.index("Pass the screen to player 2")
    second = out.index("Pass the screen to player 1")
    assert first < out.index("hand[player 2] (yours)") < second
    # player 1's hand is never on screen while player 2 plays
    assert "hand[player 1] (yours)" not in out[:second]


# ---------------------------------------------------------------------- simulate
def test_simulate_json():
    result = run("simulate", "multzo", "--games", "20", "--players", "3", "--seed", "1",
                 "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["games"] == 20 and len(data["seats"]) == 3
    wins = sum(s["wins"] for s in data["seats"])
    assert wins >= 20 - data["draws"]
    if data["ties"] == 0:
        assert wins == 20 - data["draws"]
    else:
        assert wins > 20 - data["draws"]               # a shared win counts for each winner
    assert data["mean_decisions"] > 0 and data["games_per_second"] > 0
    assert all(0 <= s["win_rate"] <= 1 and s["mean_score"] is not None for s in data["seats"])
    again = json.loads(run("simulate", "multzo", "--games", "20", "--players", "3", "--seed",
                           "1", "--json").stdout)
    assert [s["wins"] for s in again["seats"]] == [s["wins"] for s in data["seats"]]


def test_simulate_table_and_agents():
    result = run("simulate", "multzo", "--games", "5", "--agent", "random", "--agent", "first")
    assert result.exit_code == 0, result.output
    assert "win rate" in result.stdout and "first" in result.stdout
    assert "games/s" in result.stdout
    bad = run("simulate", "multzo", "--games", "5", "--players", "3", "--agent", "random",
              "--agent", "first")
    assert bad.exit_code == 2
    assert run("simulate", "multzo", "--games", "5", "--players", "9").exit_code == 1


# ---------------------------------------------------------------------- compile
@pytest.mark.parametrize("fmt", ["yaml", "json"])
def test_compile_round_trip(fmt: str, tmp_path: Path):
    result = run("compile", "multzo", "--format", fmt)
    assert result.exit_code == 0, result.output
    path = tmp_path / f"multzo.{fmt}"
    path.write_text(result.stdout)
    assert run("validate", str(path)).exit_code == 0
    ours = run("play", str(path), "--players", "3", "--seed", "4", "--json")
    bundled = run("play", "multzo", "--players", "3", "--seed", "4", "--json")
    assert ours.exit_code == 0, ours.output
    assert json.loads(ours.stdout) == json.loads(bundled.stdout)
    # and the compiled file compiles to itself
    again = run("compile", str(path), "--format", fmt)
    assert again.stdout == result.stdout


def test_compile_unknown_ruleset():
    assert run("compile", "nope").exit_code == 1


# ---------------------------------------------------------------------- rendering
def _text(renderable) -> str:
    console = Console(file=io.StringIO(), width=100, color_system=None)
    console.print(renderable)
    return console.file.getvalue()


def test_render_grid_and_masked_values():
    view = {
        "player": 0, "seats": ["player 1", "player 2"], "round": 2, "scores": [3, 4],
        "zones": {
            "board": {"name": "board", "kind": "grid", "rows": 2, "cols": 2, "cells": [
                {"cell": "a1", "row": 1, "col": 1, "piece": {"id": 1, "kind": "tile",
                                                             "name": "ace of suns", "face": "up"}},
                {"cell": "b1", "row": 1, "col": 2, "piece": {"hidden": True, "kind": "tile"}},
                {"cell": "a2", "row": 2, "col": 1, "piece": None},
            ]},
            "hand[player 2]": {"name": "hand", "kind": "pile", "owner": 1, "pieces": [],
                               "hidden": 3, "count": 3},
        },
        "variables": {"picked": {"hidden": True, "kind": "tile"}, "who": {"player": 1},
                      "pairs": [[{"pattern": "run"}, "moons", 1]]},
    }
    text = _text(render.view_renderable(view, "Test", set()))
    assert "ace of suns" in text and "3 hidden pieces" in text
    assert "a face-down tile" in text and "player 2" in text and "(run, moons, 1)" in text
    assert "round 2" in text


# ---------------------------------------------------------------------- multiplay: the board
@pytest.fixture(scope="module")
def multiplay():
    return rulepack.load("multiplay")


def _multiplay_midgame(multiplay, players: int = 3, seed: int = 2, moves: int = 20):
    state = multiplay.new_game(players, seed)
    for _ in range(moves):
        texts = [a.text for a in state.legal_actions()]
        state.apply("play on" if "play on" in texts else texts[0])
    return state


def _segments(renderable, color_system: str | None, width: int = 100):
    console = Console(file=io.StringIO(), width=width, color_system=color_system,
                      force_terminal=color_system is not None)
    return list(console.render(renderable)), console


def test_multiplay_board_has_coordinates_numbers_and_owner_marks(multiplay):
    """Without colour: column letters a-k, row numbers 1-11, every cube's number in
    its cell, owned cubes marked with their seat's initial and a legend."""
    state = _multiplay_midgame(multiplay)
    view = state.view(0)
    text = _text(render.view_renderable(view, "Multiplay", {"points"},
                                        render.chance_names(multiplay.ir)))
    assert re.search(r"^\s*board\s+121\s+a\s+b\s+c\s+d\s+e\s+f\s+g\s+h\s+i\s+j\s+k\s*$",
                     text, re.M), text
    rows = dict(m.groups() for m in re.finditer(r"^\s*(\d+)((?:\s+\d+[rygb]?){11})\s*$",
                                                text, re.M))
    assert sorted(map(int, rows)) == list(range(1, 12)), text
    cells = {c["cell"]: c["piece"] for c in view["zones"]["board"]["cells"]}
    marks = {0: "r", 1: "y", 2: "g"}
    for row in range(1, 12):
        tokens = rows[str(row)].split()
        want = []
        for col in "abcdefghijk":
            piece = cells[f"{col}{row}"]
            owner = piece.get("owner")
            want.append(f"{piece['number']}{'' if owner is None else marks[owner]}")
        assert tokens == want, (row, tokens)
    assert "r = red" in text and "y = yellow" in text and "g = green" in text
    # the roll of the current turn is shown with the variables
    roll = state.position.vars["roll"]
    assert re.search(rf"^\s*roll\s+{roll}\s*$", text, re.M), text
    assert re.search(r"^\s*points\s+red: -?\d+; yellow: -?\d+; green: -?\d+", text, re.M)


def test_multiplay_board_colours_cubes_by_owner(multiplay):
    """With colour: an owned cube's number is on its owner's colour (the seat name,
    red/yellow/green/blue); white cubes have no background."""
    state = _multiplay_midgame(multiplay, players=4, moves=30)
    view = state.view(0)
    segments, _ = _segments(render.grid_table(view["zones"]["board"], view["seats"]), "truecolor")
    bg: dict[str, set[str | None]] = {}
    for seg in segments:
        word = seg.text.strip()
        if word.isdigit():
            colour = seg.style.bgcolor.name if seg.style and seg.style.bgcolor else None
            bg.setdefault(word, set()).add(colour)
    owned = [c["piece"] for c in view["zones"]["board"]["cells"]
             if c["piece"].get("owner") is not None]
    white = [c["piece"] for c in view["zones"]["board"]["cells"]
             if c["piece"].get("owner") is None]
    assert owned and white
    names = ["red", "yellow", "green", "blue"]
    for piece in owned:
        assert names[piece["owner"]] in bg[str(piece["number"])]
    assert any(None in bg[str(p["number"])] for p in white)
    # no owner marks when colours show
    plain = "".join(seg.text for seg in segments)
    assert not re.search(r"\d[rygb]\b", plain)


def test_seat_colours_and_marks():
    assert render.seat_colour(["red", "yellow"], 1) == "yellow"
    assert render.seat_colour(["player 1", "player 2"], 1) == render.SEAT_PALETTE[1]
    assert render.seat_colour(["Suns", "Moons"], 0) == render.SEAT_PALETTE[0]
    assert render.seat_marks(["red", "yellow", "green", "blue"]) == ["r", "y", "g", "b"]
    assert render.seat_marks(["player 1", "player 2"]) == ["A", "B"]
    # readable text on each colour
    assert render.seat_style(["yellow"], 0).color.name == "black"
    assert render.seat_style(["blue"], 0).color.name == "bright_white"


def test_grid_without_owners_is_unchanged_in_spirit():
    """A grid with no owned piece: no legend, names in their cells, holes blank."""
    zone = {"name": "board", "kind": "grid", "rows": 1, "cols": 3, "cells": [
        {"cell": "a1", "row": 1, "col": 1, "piece": {"id": 1, "kind": "tile", "name": "x",
                                                     "face": "up"}},
        {"cell": "c1", "row": 1, "col": 3, "piece": None}]}
    text = _text(render.grid_table(zone, ["p1", "p2"]))
    assert "x" in text and "·" in text and "nobody" not in text


# ---------------------------------------------------------------------- multiplay: typing a cell
def _human_first_decision(multiplay, seed: int):
    """The state at the human's (seat 0) first decision, bots as the CLI plays them."""
    from rulepack.agents.bots import Decision
    state = multiplay.new_game(2, seed)
    bot = make_agent("random", seed, 1)
    while state.current_player != 0:
        state.apply(state.legal_actions()[bot.choose(Decision(state, 1))])
    return state


@pytest.mark.parametrize("seed", [3, 4])
def test_play_multiplay_accepts_a_cell_coordinate(multiplay, seed):
    state = _human_first_decision(multiplay, seed)
    texts = [a.text for a in state.legal_actions()]
    target = texts[len(texts) // 2]
    cell = target.rsplit(" ", 1)[1]
    missing = next(f"{c}{r}" for r in range(1, 12) for c in "abcdefghijk"
                   if not any(t.endswith(f" at {c}{r}") for t in texts))
    result = run("play", "multiplay", "--seat", "human", "--seat", "random", "--seed", str(seed),
                 input=f"{missing}\nzz\n{cell.upper()}\nq\n")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert f"No action names {missing}" in out
    assert "'zz' is not a number or a cell" in out
    assert f"red (you): {target}" in out
    assert "a cell like" in out
    assert re.search(rf"^\s*roll\s+{state.position.vars['roll']}\s*$", out, re.M)
    assert "Game abandoned" in out


def test_typing_a_cell_named_by_several_actions_lists_them():
    from rulepack.cli.interactive import Keyboard
    console = Console(file=io.StringIO(), width=100, color_system=None)
    answers = iter(["b2", "a1", "c3", "2"])
    console.input = lambda prompt="": next(answers)           # type: ignore[method-assign]
    texts = ["move a1 to b2", "move b2 to c3", "move a11 to a2"]
    index = Keyboard(console, [0]).choose(len(texts), lambda: None, texts)
    out = console.file.getvalue()
    assert "2 actions name b2" in out and "1. move a1 to b2" in out and "2. move b2 to c3" in out
    assert index == 0                                         # "a1": not a11
    assert Keyboard(console, [0]).choose(len(texts), lambda: None, texts) == 1   # "c3"
    assert Keyboard(console, [0]).choose(len(texts), lambda: None, texts) == 1   # "2"


def test_cells_are_not_offered_when_no_action_names_one():
    from rulepack.cli.interactive import first_cell
    assert first_cell(["draw the top tile of the stack", "discard 2 of suns face up"]) is None
    assert first_cell(["end the game", "play on"]) is None
    assert first_cell(["claim 24 at f6"]) == "f6"


# ---------------------------------------------------------------------- multiplay: bots
def test_play_multiplay_four_bots():
    result = run("play", "multiplay", "--players", "4", "--seed", "1")
    assert result.exit_code == 0, result.output
    assert re.search(r"^(red|yellow|green|blue): claim \d+ at [a-k]\d+$", result.stdout, re.M)
    assert "Winner" in result.stdout
    assert "Traceback" not in result.output


def test_simulate_multiplay():
    result = run("simulate", "multiplay", "--games", "20", "--players", "3", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["games"] == 20 and len(data["seats"]) == 3
    assert [s["name"] for s in data["seats"]] == ["red", "yellow", "green"]


# ---------------------------------------------------------------------- packkub
PACKKUB_SUITS = ["suns", "moons", "crowns", "arms"]
PACKKUB_RANKS = ["null", "ace", "2", "3", "4", "5"]


def _packkub_plan(seed: int, decisions: int) -> tuple[list[int], list[str]]:
    """Replay ``play packkub --seat human --seat random --seed <seed>`` next to the
    CLI: the human (player 1) melds when it can, else plays a tile, else ends the
    turn, else draws. Returns the numbers to type and the actions they choose."""
    from rulepack.cli.session import bot_index
    state = rulepack.load("packkub").new_game(2, seed)
    bot = make_agent("random", seed, 1)
    numbers: list[int] = []
    chosen: list[str] = []
    while not state.is_terminal() and len(numbers) < decisions:
        texts = [a.text for a in state.legal_actions()]
        if state.current_player == 0:
            pick = next((t for t in texts if t == "meld the played tiles"), None) \
                or next((t for t in texts if t.startswith("play ")), None) \
                or next((t for t in texts if t == "end the turn"), None) or texts[0]
            if len(texts) > 1:              # a forced move is played without a prompt
                numbers.append(texts.index(pick) + 1)
            chosen.append(pick)
            state.apply(pick)
        else:
            state.apply(state.legal_actions()[bot_index(bot, state, 1)])
    return numbers, chosen


def _hand_lines(out: str) -> list[list[str]]:
    """The tiles of every "hand[player 1] (yours)" row printed, in order (a row may
    wrap onto the next lines of the pieces column)."""
    hands = []
    lines = out.splitlines()
    for i, line in enumerate(lines):
        m = re.match(r"^\s*hand\[player 1\] \(yours\)\s+\d+\s+(.*)$", line)
        if not m:
            continue
        text = m.group(1).strip()
        for more in lines[i + 1:]:
            if re.match(r"^\s*(hand\[|table|played|box|pile)", more):
                break
            text += " " + more.strip()
        hands.append([t.strip() for t in text.split(",")])
    return hands


def _suit_rank_key(name: str) -> tuple[int, int]:
    rank, suit = name.split(" of ")
    return PACKKUB_SUITS.index(suit), PACKKUB_RANKS.index(rank)


def test_play_packkub_human_builds_melds_from_the_played_row():
    """A person plays PackKub: their hand is shown sorted by suit then rank, a play
    is built with "play ..." actions (the ``played`` row shows the tiles so far)
    and "meld the played tiles" puts them on the table, shown as numbered melds."""
    seed = 8
    numbers, chosen = _packkub_plan(seed, 8)
    assert "meld the played tiles" in chosen and any(c.startswith("play ") for c in chosen)
    result = run("play", "packkub", "--seat", "human", "--seat", "random", "--seed", str(seed),
                 input="".join(f"{n}\n" for n in numbers) + "q\n")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Traceback" not in result.output
    for action in chosen:
        assert f"player 1 (you): {action}" in out, action
    # the hand, every time it is shown, is sorted by suit, then rank
    hands = _hand_lines(out)
    assert len(hands) >= len(numbers)
    for hand in hands:
        assert hand == sorted(hand, key=_suit_rank_key), hand
    # the played row shows the tiles of the play being built, in the order played
    first_meld = chosen.index("meld the played tiles")
    played = [c[len("play "):] for c in chosen[:first_meld] if c.startswith("play ")]
    row = ", ".join(played)
    assert re.search(rf"^\s*played\s+{len(played)}\s+{re.escape(row)}\s*$", out, re.M), out
    # after the meld, the table is one numbered meld holding those tiles
    m = re.search(r"^\s*table\s+(\d+)\s+1\. (.*)$", out, re.M)
    assert m, out
    assert sorted(t.strip() for t in m.group(2).split(",")) == sorted(played)
    assert "Game abandoned" in out


def test_render_packkub_table_melds_and_unarranged_groups():
    """A groups zone shows one numbered line per group; a groups zone holding
    pieces but not arranged (``groups`` is None) lists its pieces, not "empty"."""
    tile = lambda i, n: {"id": i, "kind": "tile", "name": n, "face": "up"}  # noqa: E731
    groups = [[tile(i, f"{r} of suns") for i, r in enumerate((2, 3, 4))]] + \
        [[tile(10 + k, f"5 of {s}") for k, s in enumerate(PACKKUB_SUITS[:3])]] * 5
    table = {"name": "table", "kind": "groups", "pieces": [p for g in groups for p in g],
             "count": 18, "groups": groups}
    view = {"player": 0, "seats": ["player 1", "player 2"], "zones": {
        "table": table,
        "played": {"name": "played", "kind": "row", "count": 1,
                   "pieces": [tile(30, "ace of moons")]},
        "loose": {"name": "loose", "kind": "groups", "count": 2, "groups": None,
                  "pieces": [tile(40, "null of arms"), tile(41, "ace of arms")]},
        "none": {"name": "none", "kind": "groups", "count": 0, "groups": None, "pieces": []},
    }}
    text = _text(render.view_renderable(view, "PackKub", set()))
    assert re.search(r"^\s*table\s+18\s+1\. 2 of suns, 3 of suns, 4 of suns\s*$", text, re.M)
    assert re.search(r"^\s+6\. 5 of suns, 5 of moons, 5 of crowns\s*$", text, re.M), text
    assert re.search(r"^\s*played\s+1\s+ace of moons\s*$", text, re.M)
    assert re.search(r"^\s*loose\s+2\s+null of arms, ace of arms\s*$", text, re.M), text
    assert re.search(r"^\s*none\s+0\s+empty\s*$", text, re.M)


def test_render_packkub_view_of_a_real_game():
    """The view of a real PackKub position: numbered melds on the table, the played
    row, the other hand hidden."""
    game = rulepack.load("packkub")
    state = game.new_game(2, 8)
    numbers, chosen = _packkub_plan(8, 8)
    # replay to just after the first meld of player 1
    from rulepack.cli.session import bot_index
    bot = make_agent("random", 8, 1)
    done = 0
    while done < chosen.index("meld the played tiles") + 1:
        if state.current_player == 0:
            state.apply(chosen[done])
            done += 1
        else:
            state.apply(state.legal_actions()[bot_index(bot, state, 1)])
    text = _text(render.view_renderable(state.view(0), "PackKub", {"opened", "totals"}))
    assert re.search(r"^\s*table\s+\d+\s+1\. ", text, re.M), text
    assert re.search(r"^\s*played\s+0\s+empty\s*$", text, re.M), text
    assert re.search(r"^\s*hand\[player 2\]\s+\d+\s+\d+ hidden pieces\s*$", text, re.M), text
    assert re.search(r"^\s*opened\s+player 1: yes; player 2: (yes|no)\s*$", text, re.M), text


def test_play_packkub_bots_and_simulate():
    result = run("play", "packkub", "--players", "3", "--seed", "1", "-o", "rounds=1")
    assert result.exit_code == 0, result.output
    assert re.search(r"^player \d: meld the played tiles$", result.stdout, re.M)
    assert "Winner" in result.stdout and "Traceback" not in result.output
    result = run("simulate", "packkub", "--games", "3", "--players", "2", "-o", "rounds=1",
                 "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["games"] == 3 and len(data["seats"]) == 2


def test_play_packkub_bad_options_are_invalid_input():
    result = run("play", "packkub", "--players", "5", "-o", "six_pack=true")
    assert result.exit_code != 0
    assert "Six Pack" in result.output and "Traceback" not in result.output
    result = run("play", "packkub", "-o", "rounds=11")
    assert result.exit_code != 0
    assert "rounds" in result.output and "Traceback" not in result.output


# ---------------------------------------------------------------------- mismemory
@pytest.fixture(scope="module")
def mismemory():
    return rulepack.load("mismemory")


def _mismemory_board_lines(out: str, rows: int) -> tuple[str, list[str]]:
    """The first board printed: its header line (column letters) and one line per row
    (a row whose names wrap continues on the next lines; those are skipped)."""
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if re.match(r"^\s*board\s+\d+\s+a\s", line))
    found: list[str] = []
    for line in lines[start + 1:]:
        if re.match(rf"^\s+{len(found) + 1}\s", line):
            found.append(line)
            if len(found) == rows:
                break
    return lines[start], found


def test_play_mismemory_three_bots():
    """`rulepack play mismemory --players 3 --seed 1` plays a whole game: flips named by
    cell, the winner's six tiles shown (ruling Y3), a winner."""
    result = run("play", "mismemory", "--players", "3", "--seed", "1")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Traceback" not in result.output
    assert re.search(r"^player [123]: flip the tile at [a-e][1-5]$", out, re.M)
    assert re.search(r"^revealed in board: \S+ of \w+$", out, re.M)
    assert re.search(r"^player [123]: keep \S+ of \w+ and put the other face down at "
                     r"[a-e][1-5]$", out, re.M)
    m = re.search(r"^Winner: player ([123])$", out, re.M)
    assert m, out
    shown = re.search(rf"^revealed in collected\[player {m.group(1)}\]: (.*)$", out, re.M)
    assert shown and len(shown.group(1).split(", ")) == 6
    assert run("play", "mismemory", "--players", "3", "--seed", "1").stdout == out


def test_play_mismemory_blind_two_bots():
    """`rulepack play mismemory --players 2 --option blind=true --seed 2` plays to a
    result: in the blind variant the bots claim or challenge (ruling Y4)."""
    result = run("play", "mismemory", "--players", "2", "--option", "blind=true", "--seed", "2")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Traceback" not in result.output
    assert re.search(r"^player [12]: (claim victory|challenge player [12])$", out, re.M), out
    assert re.search(r"^(Winner: player [12]|Draw: nobody wins\.)$", out, re.M)
    data = json.loads(run("play", "mismemory", "--players", "2", "--option", "blind=true",
                          "--seed", "2", "--json").stdout)
    assert data["terminal"] is True and data["options"]["blind"] is True


def test_simulate_mismemory_500_games():
    result = run("simulate", "mismemory", "--games", "500", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["games"] == 500 and data["draws"] == 0 and data["ties"] == 0
    assert sum(s["wins"] for s in data["seats"]) == 500
    assert all(0.35 < s["win_rate"] < 0.65 for s in data["seats"])


def test_mismemory_bad_options_are_invalid_input():
    for args in (["-o", "grid=7x7"], ["-o", "blind=maybe"], ["--players", "4"]):
        result = run("play", "mismemory", *args)
        assert result.exit_code == 1, (args, result.output)
        assert "Traceback" not in result.output


def test_mismemory_board_is_a_grid_with_coordinates_and_a_gap():
    """The 5x5 board: column letters a-e, row numbers 1-5, every tile a face-down chip,
    and in row 3 a gap under column c (ruling Y1: "5×5 with an empty centre")."""
    result = run("play", "mismemory", "--seat", "human", "--seat", "random", "--seed", "1",
                 input="q\n")
    assert result.exit_code == 0, result.output
    header, rows = _mismemory_board_lines(result.stdout, 5)
    assert re.search(r"\sa\s+b\s+c\s+d\s+e\s*$", header), header
    assert [len(re.findall("▒+", line)) for line in rows] == [5, 5, 4, 5, 5], rows
    c = header.rindex(" c") + 1
    assert rows[1][c] == "▒" and rows[2][c] == " ", (header, rows)


@pytest.mark.parametrize("grid,rows,cols", [("4x6", 4, 6), ("6x4", 6, 4)])
def test_mismemory_other_grids_show_their_shape(grid, rows, cols):
    result = run("play", "mismemory", "--seat", "human", "--seat", "random", "--seed", "1",
                 "-o", f"grid={grid}", input="q\n")
    assert result.exit_code == 0, result.output
    header, lines = _mismemory_board_lines(result.stdout, rows)
    letters = " +".join("abcdef"[:cols])
    assert re.search(rf"\s{letters}\s*$", header), header
    assert [len(re.findall("▒+", line)) for line in lines] == [cols] * rows


def test_mismemory_line_of_24_is_printed_in_bands():
    """A line of 24 cells does not fit 80 columns: it is printed in bands of columns,
    each with its letters, all 24 cells in order."""
    result = run("play", "mismemory", "--seat", "human", "--seat", "random", "--seed", "1",
                 "-o", "grid=line", input="q\n")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert max(len(line) for line in out.splitlines()) <= 80
    start = out.index("board")
    board = out[start:out.index("Your move", start)]   # empty zones are not shown
    letters = re.findall(r"^\s*(?:board\s+24\s+)?((?:[a-x]\s+)*[a-x])\s*$", board, re.M)
    assert " ".join(letters).split() == list("abcdefghijklmnopqrstuvwx"), board
    assert len(re.findall("▒+", board)) == 24


def test_mismemory_names_wrap_inside_the_board(mismemory):
    """Face-up tiles are named in their cells; on 80 columns long names wrap inside
    their chip so that all five columns still show."""
    state = mismemory.new_game(2, 1)
    state.apply("flip the tile at a1")
    view = state.view(1)
    narrow = Console(file=io.StringIO(), width=80, color_system=None)
    narrow.print(render.view_renderable(view, "Mismemory", set()))
    text = narrow.file.getvalue()
    assert max(len(line) for line in text.splitlines()) <= 80
    header, rows = _mismemory_board_lines(text, 5)
    assert re.search(r"\sa\s+b\s+c\s+d\s+e\s*$", header), text
    name = next(c["piece"]["name"] for c in view["zones"]["board"]["cells"]
                if c["piece"] and not c["piece"].get("hidden"))
    board = text[text.index("board"):text.index("collected[")]
    assert all(word in board for word in name.split())
    wide = Console(file=io.StringIO(), width=160, color_system=None)
    wide.print(render.view_renderable(view, "Mismemory", set()))
    assert re.search(rf"^\s*1 {re.escape(name)}\s", wide.file.getvalue(), re.M)


def test_play_mismemory_human_types_cells():
    """A person plays by typing cells: on the 5x5 grid "c3" is the gap, which no action
    names; "b2" flips the tile at b2; then a second cell."""
    result = run("play", "mismemory", "--seat", "human", "--seat", "random", "--seed", "1",
                 input="c3\nb2\nd4\nq\n")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "No action names c3" in out
    assert "player 1 (you): flip the tile at b2" in out
    assert "player 1 (you): flip the tile at d4" in out
    assert "a cell like a1" in out
    assert re.search(r"^revealed in board: \S+ of \w+$", out, re.M)


def test_play_mismemory_4x6_accepts_c3():
    result = run("play", "mismemory", "--seat", "human", "--seat", "random", "--seed", "0",
                 "-o", "grid=4x6", input="C3\nf4\nq\n")
    assert result.exit_code == 0, result.output
    assert "player 1 (you): flip the tile at c3" in result.stdout
    assert "player 1 (you): flip the tile at f4" in result.stdout


def test_mismemory_keep_is_masked_for_the_others(mismemory):
    """Ruling Y2: "they secretly choose which eligible tile to keep ... (the others see
    which cell, not which tile)". Both tiles were face up before the keep, yet the
    event line names the kept tile only for its keeper (and a spectator)."""
    state = mismemory.new_game(2, 1)
    by_suit: dict[str, list[str]] = {}
    cells = {c["cell"]: c for c in state.view(0)["zones"]["board"]["cells"]}
    for label, piece in zip(cells, state.position.zones[1]):
        by_suit.setdefault(piece.attrs["suit"], []).append(label)
    a, b = by_suit["suns"][:2]
    actor = state.current_player
    state.apply(f"flip the tile at {a}")
    state.apply(f"flip the tile at {b}")
    keep = next(x for x in state.legal_actions() if x.text.startswith("keep "))
    kept = keep.values[0].name
    told = events.step(state.clone(), keep, [actor, 1 - actor, None])
    assert told[actor][0].text == keep.text and kept in told[None][0].text
    assert told[1 - actor][0].text == \
        f"keep a tile and put the other face down at {keep.text.rsplit(' ', 1)[1]}"
    # blind: not even the keeper's story names it (Y4)
    blind = mismemory.new_game(2, 1, options={"blind": True})
    blind.apply(f"flip the tile at {a}")
    blind.apply(f"flip the tile at {b}")
    keep = next(x for x in blind.legal_actions() if x.text.startswith("keep "))
    told = events.step(blind.clone(), keep, [actor, 1 - actor])
    assert told[actor][0].text.startswith("keep a tile and put the other face down at ")


def test_a_face_up_discard_drawn_is_still_named(multzo):
    """The masking above is for pieces that go out of sight together: a face-up discard
    drawn into a hand (the only piece leaving the others' sight) is still named."""
    from rulepack.agents.bots import Decision
    state = multzo.new_game(2, 3)
    bot = make_agent("random", 3, 0)
    for _ in range(200):
        draws = [x for x in state.legal_actions() if x.text.endswith(" from the discards")]
        if draws:
            break
        state.apply(state.legal_actions()[bot.choose(Decision(state, state.current_player))])
    assert draws
    actor = state.current_player
    told = events.step(state.clone(), draws[0], [actor, 1 - actor])
    assert told[1 - actor][0].text == draws[0].text


def test_a_human_never_reads_which_tile_a_bot_kept(mismemory):
    """Replay a human-vs-bot game next to the CLI: every tile the bot keeps is read by
    the human as "keep a tile and put the other face down at XX"."""
    from rulepack.agents.bots import Decision
    seed = 1
    state = mismemory.new_game(2, seed)
    bot = make_agent("random", seed, 1)
    human_moves, bot_keeps = 0, []
    while not state.is_terminal() and len(bot_keeps) < 2:
        if state.current_player == 0:
            state.apply(state.legal_actions()[0])
            human_moves += 1
        else:
            action = state.legal_actions()[bot.choose(Decision(state, 1))]
            if action.text.startswith("keep "):
                bot_keeps.append(action)
            state.apply(action)
    assert bot_keeps
    result = run("play", "mismemory", "--seat", "human", "--seat", "random", "--seed", str(seed),
                 input="1\n" * human_moves + "q\n")
    assert result.exit_code == 0, result.output
    out = result.stdout
    for action in bot_keeps:
        cell = action.text.rsplit(" ", 1)[1]
        assert f"player 2: keep a tile and put the other face down at {cell}" in out
        assert f"player 2: {action.text}" not in out


def test_explain_lists_options_patterns_and_the_rulings_applied():
    """RULINGS.md: "the CLI's explain output and the docs state them"."""
    from click.testing import CliRunner

    from rulepack.cli.main import main as cli
    result = CliRunner().invoke(cli, ["explain", "packkub"], terminal_width=160)
    assert result.exit_code == 0, result.output
    for text in ("PackKub", "2-6 players", "rounds", "1..10", "jokers", "six_pack",
                 "set_meld", "sequence", "Rulings applied", "P6", "P8"):
        assert text in result.output
    bad = CliRunner().invoke(cli, ["explain", "no-such-game"])
    assert bad.exit_code == 1 and "Traceback" not in bad.output


# ---------------------------------------------------------------------- seeds
def test_play_draws_its_seed_from_the_os_and_hides_it_from_a_human_until_the_end():
    """The seed fixes every hidden piece: a human seat never sees it while the game
    runs, and without --seed every game is dealt differently."""
    seeds = {json.loads(run("play", "tic-tac-toe", "--players", "2", "--json").stdout)["seed"]
             for _ in range(3)}
    assert len(seeds) == 3
    moves = "".join("1\n" for _ in range(9))
    result = run("play", "tic-tac-toe", "--seat", "human", "--seat", "first", input=moves)
    assert result.exit_code == 0, result.output
    out = result.stdout
    record = next(iter(records_folder().glob("tic_tac_toe-*.jsonl")))
    seed = json.loads(record.read_text(encoding="utf-8").splitlines()[0])["seed"]
    end = out.rindex("decisions")
    assert str(seed) not in out[:end] and f"seed {seed}" in out[end:]
    assert "seed" not in record.name and record.stat().st_mode & 0o777 == 0o600
    fixed = run("play", "tic-tac-toe", "--seat", "human", "--seat", "first", "--seed", "5",
                input=moves)
    assert "seed 5" in fixed.stdout


def records_folder() -> Path:
    import os
    return Path(os.environ["RULEPACK_RECORDS"])


def test_explain_json_has_the_tables_and_cites_real_lines():
    """Issue 11: `explain` has `--json`, and its source lines point at real files."""
    import json
    from pathlib import Path

    from click.testing import CliRunner

    import rulepack
    from rulepack.cli.main import main as cli
    rulesets = Path(rulepack.__file__).parent / "rulesets"
    root = Path(__file__).resolve().parent.parent
    result = CliRunner().invoke(cli, ["explain", "packkub", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert (data["min_players"], data["max_players"]) == (2, 6)
    assert "jokers" in data["options"] and "set_meld" in data["patterns"]
    assert any("lowest score" in line for line in data["ending"])
    assert (root / data["rulings_doc"]).is_file()
    cited = {r["rulings"] for r in data["rulings"]}
    assert any("P6" in ids for ids in cited)
    for r in data["rulings"]:
        line = (rulesets / r["file"]).read_text(encoding="utf-8").splitlines()[r["line"] - 1]
        assert r["comment"] in line
    # every file the text names exists, or is said not to be shipped
    for name in ("multzo", "packkub", "multiplay", "mismemory"):
        out = CliRunner().invoke(cli, ["explain", name, "--json"]).output
        assert "RULINGS.md" not in out and "RULINGS.md" not in \
            CliRunner().invoke(cli, ["explain", name]).output
        for m in re.finditer(r"([\w./-]+\.(?:md|txt|rules))(:\d+)?( \(the original rules, not)?",
                             out):
            path, shipped = m.group(1), m.group(3) is None
            if shipped:
                assert (root / path).is_file() or (rulesets / path).is_file(), path


def test_explain_says_how_each_game_ends_and_who_wins():
    from rulepack.cli.ending import ending
    import rulepack
    multzo = ending(rulepack.load("multzo"))
    assert multzo[0].startswith("Ends: rounds are played until any(")
    assert multzo[-1].startswith("Wins: the highest score")
    ttt = " ".join(ending(rulepack.load("tic-tac-toe")))
    assert "'end game winners current'" in ttt and "Wins: whoever" in ttt
    plain = rulepack.loads('game g {\n  players 2\n}\nuse piecepack (tile)\nzone s: stack\n'
                           'setup {\n  move tile to s\n}\nplay {\n  turns from 0 until true {\n'
                           '    choose {\n      action "pass" {\n      }\n    }\n  }\n}\n')
    assert ending(plain)[-1].startswith("Wins: nobody")


@pytest.mark.parametrize("command", ["play", "simulate"])
def test_seat_and_agent_are_both_accepted(command: str):
    """Issue 11: one name for seats in play and simulate, the other kept as an alias."""
    import json

    from click.testing import CliRunner

    from rulepack.cli.main import main as cli
    outs = []
    for flag in ("--seat", "--agent"):
        args = [command, "tic-tac-toe", flag, "first", flag, "random", "--json",
                "--seed", "3"]       # play's default seed is drawn from the OS
        if command == "simulate":
            args += ["--games", "3"]
        result = CliRunner().invoke(cli, args)
        assert result.exit_code == 0, result.output
        outs.append(json.loads(result.output))
    assert outs[0] == {**outs[1], **{k: outs[0][k] for k in ("seconds", "games_per_second")
                                     if k in outs[0]}}
    seats = outs[0]["seats"]
    assert [s if isinstance(s, str) else s["agent"] for s in seats] == ["first", "random"]


# ---------------------------------------------------------------------- the compact screen

def test_compact_view_leaves_out_empty_zones_internal_variables_and_stacked_pieces():
    tile = lambda i, n: {"id": i, "kind": "tile", "name": n, "face": "up"}  # noqa: E731
    view = {"player": 0, "seats": ["player 1", "player 2"], "zones": {
        "box": {"name": "box", "kind": "pile", "count": 0, "pieces": [], "hidden": 0},
        "board": {"name": "board", "kind": "grid", "rows": 1, "cols": 2, "count": 0,
                  "cells": [{"row": 1, "col": 1, "piece": None},
                            {"row": 1, "col": 2, "piece": None}]},
        "pile": {"name": "pile", "kind": "stack", "count": 3,
                 "pieces": [tile(1, "ace of suns"), tile(2, "2 of suns"), tile(3, "3 of suns")]},
    }, "variables": {"_helper": 7, "declarer": None}}
    compact = _text(render.view_renderable(view, "G", set(), compact=True))
    full = _text(render.view_renderable(view, "G", set()))
    assert "box" in full and not re.search(r"^\s*box\b", compact, re.M)
    assert re.search(r"^\s*board\b", compact, re.M)          # a grid, even empty, is shown
    assert re.search(r"^\s*pile\s+3\s+top: 3 of suns\s*$", compact, re.M), compact
    assert "ace of suns" in full and "ace of suns" not in compact
    assert "_helper" in full and "_helper" not in compact and "declarer" in compact


def test_play_screen_is_compact_unless_verbose():
    """Multzo's screen: no empty box/discards zones and one line per coin stack
    (count and top coin); --verbose shows the empty zones and every coin."""
    args = ("play", "multzo", "--seat", "human", "--seat", "random", "--seed", "1",
            "--no-record")
    compact = run(*args, input="q\n")
    verbose = run(*args, "--verbose", input="q\n")
    assert compact.exit_code == 0 and verbose.exit_code == 0, compact.output
    first = lambda out: out[:out.index(PROMPT)]  # noqa: E731
    assert not re.search(r"^\s*discards\s+0\s+empty", first(compact.stdout), re.M)
    assert re.search(r"^\s*discards\s+0\s+empty", first(verbose.stdout), re.M)
    assert re.search(r"^\s*box\b", first(verbose.stdout), re.M)
    assert not re.search(r"^\s*box\b", first(compact.stdout), re.M)
    assert re.search(r"^\s*coins\[suns\]\s+5\s+top: \S+ of suns coin\s*$",
                     first(compact.stdout), re.M), compact.stdout
    assert first(compact.stdout).count("of suns coin") < first(verbose.stdout).count(
        "of suns coin")


def test_play_forced_move_has_a_notice_and_no_prompt(multzo):
    """Multzo's first move of a turn, drawing, is the only legal action: it is played
    with a one-line notice; the next decision (a discard) is asked."""
    state = multzo.new_game(2, seed=0)
    assert state.current_player == 0 and len(state.legal_actions()) == 1
    only = state.legal_actions()[0].text
    result = run("play", "multzo", "--seat", "human", "--seat", "random", "--seed", "0",
                 "--no-record", input="q\n")
    assert result.exit_code == 0, result.output
    before = result.stdout[:result.stdout.index(PROMPT)]
    assert f"Your only move: {only} (played for you)" in before
    assert f"player 1 (you): {only}" in before


def test_question_mark_shows_the_short_rules_and_the_start_says_how_to_win():
    """Issue 36: the start says in English how the game ends and who wins, with the
    options' values (PackKub: after 4 rounds, not 'rounds rounds'); ? shows the
    rulebook's play, terms and end for this game (not the designer's tables); the
    end says why the game ended."""
    result = run("play", "packkub", "--seat", "human", "--seat", "random", "--seed", "2",
                 "--no-record", input="?\nq\n")
    assert result.exit_code == 0, result.output
    out = result.stdout
    start = out[:out.index(PROMPT)]
    assert "Ends: after 4 rounds." in start
    assert "Wins: the player with the lowest score wins" in start and "Patterns" not in start
    after = out[out.index(PROMPT):]
    assert "“draw a tile”" in after and "The end of the game" in after
    assert "Rulings applied" not in after and "{" not in after.split("“")[0]
    assert after.count(PROMPT) == 2          # asked again after the rules


def test_the_end_of_a_game_says_why_and_how_a_score_was_made():
    result = run("play", "multzo", "-n", "3", "--seed", "3", "--no-record")
    assert result.exit_code == 0, result.output
    assert "The game ended because for some suit s, the coins of s holds nothing." in \
        result.stdout
    assert "player 3: 15 × 2 = 30" in result.stdout
