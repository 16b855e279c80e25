"""Hostile text stays inert (issue 32, item 6): a ruleset's texts fill in values by
name only, never reach a terminal raw, and never become code in an export.

Each ruleset here is a small game whose texts (``called``, ``say``, action texts,
``title``...) are what an attacker would write.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import rulepack
from rulepack.cli.main import main
from rulepack.engine.templates import TemplateError, fields, fill
from rulepack.errors import RulepackError

GAME = '''language 1

game t {
  title "T"
  players 2
}

component stone {
  colour: red, blue
  called "{colour} stone"
  draw symbol "{colour}"
}

zone bag: pile

setup {
  move stone to bag
}

play {
  say "{current} begins"
  turns from first(players) until false {
    choose {
      action "take {s}" for s in bag {
        move s to bag
        end game
      }
    }
  }
}
'''


def run(*args: str, input: str | None = None) -> Any:
    return CliRunner().invoke(main, list(args), input=input)


def written(tmp_path: Path, text: str, name: str = "t.rules") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


# ------------------------------------------------------------------ templates
@pytest.mark.parametrize("field", ["{colour:>9}", "{colour:>1000000000}", "{colour!r}",
                                   "{colour.__class__}", "{colour[0]}", "{}", "{0}"])
@pytest.mark.parametrize("where, old, line", [
    ("called", '"{colour} stone"', 8),
    ("symbol", 'symbol "{colour}"', 8),
])
def test_a_called_or_symbol_template_with_more_than_a_name_is_a_validate_error(
        tmp_path, field, where, old, line):
    """``called "{symbol:>1000000000}"`` took 10 s and 2 GB and validated; ``!r`` and
    ``.__class__`` were honoured. Now each is a located error at the component."""
    new = f'"{field} stone"' if where == "called" else f'symbol "{field}"'
    path = written(tmp_path, GAME.replace(old, new))
    result = run("validate", str(path))
    assert result.exit_code == 1, result.output
    assert f"t.rules:{line}:1: error: {where} " in result.output
    assert f"{field}: write an attribute's name in braces" in result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize("old, new, message", [
    ('"{current} begins"', '"{current:>9} begins"', "say mentions {current:>9}"),
    ('"{current} begins"', '"{current!r} begins"', "say mentions {current!r}"),
    ('"take {s}"', '"take {s:>9}"', "action text mentions {s:>9}"),
    ('"take {s}"', '"take {s!r}"', "action text mentions {s!r}"),
    ('"take {s}"', '"take {s} {s!s}"', "action text mentions {s!s}"),
])
def test_say_and_action_texts_with_more_than_a_name_are_validate_errors(tmp_path, old, new,
                                                                          message):
    """These validated before and padded or repr'd the value in play."""
    path = written(tmp_path, GAME.replace(old, new))
    result = run("validate", str(path))
    assert result.exit_code == 1, result.output
    assert message in result.output and "write a" in result.output
    assert "Traceback" not in result.output


def test_a_template_from_json_ir_is_checked_too(tmp_path):
    """The compiler checks the IR, whatever wrote it."""
    ir = json.loads(run("compile", str(written(tmp_path, GAME)), "--format", "json").output)
    ir["components"][0]["called"] = "{colour:>999999999}"
    path = written(tmp_path, json.dumps(ir), "t.json")
    result = run("validate", str(path))
    assert result.exit_code == 1 and "{colour:>999999999}: write an attribute's name" in \
        result.output, result.output


def test_names_braces_and_unknown_fields_are_filled_as_documented():
    game = rulepack.loads(GAME.replace('"{colour} stone"', '"{kind} {{{colour}}} {pips}"'))
    state = game.new_game(2, seed=1)
    assert sorted(a.text for a in state.legal_actions()) == \
        ["take stone {blue} {pips}", "take stone {red} {pips}"]


def test_fill_knows_only_names():
    assert fields("a {x} {{y}} {z}") == ["x", "z"]
    assert fill("a {x} {{y}} {z}", {"x": "1"}) == "a 1 {y} {z}"
    for bad in ("{x:>9}", "{x!r}", "{x.y}", "{x[0]}", "{}", "{ x }", "{x", "x}", "{x{y}}"):
        with pytest.raises(TemplateError):
            fill(bad, {"x": "1"})


def test_a_saved_state_with_a_hostile_narration_is_refused():
    """A narration's text read back from JSON goes through the same check."""
    game = rulepack.loads(GAME)
    state = game.new_game(2, seed=1)
    data = state.to_json()
    (entry,) = [h for h in data["history"] if "say" in h]
    entry["say"] = "{current:>999999999}"
    with pytest.raises(RulepackError, match="cannot load this state"):
        game.state_from_json(data)


# ------------------------------------------------------------------ control characters
#: A game whose every text tries to act on a terminal: ESC sequences (clear the screen,
#: set the window title, an OSC 8 link), a bell, a C1 control, a bidirectional
#: override, rich markup and emoji codes, and line breaks that fake lines of their own.
#: The escapes are the .rules language's own (``"\x1b"`` in a string).
HOSTILE = r'''language 1

game t {
  title "T\x1b]0;TITLE\x07\x1b[2J[link=http://evil]L[/link]\x9b2J\nFAKE:title:skull:"
  source "S\x1b[31mRED\u202eabc"
  players 2
}

component stone {
  colour: "r\x1b[1med\x9b2J", blue
  called "{colour} \x1b[5mstone[bold]B[/bold]"
}

option lvl: 1..3 = 1 "desc\x1b[2J[link=http://e]x[/link]\nFAKE:option"

zone bag: pile

setup {
  move stone to bag
}

play {
  say "SAY\x1b[2J\x1b]8;;http://evil\x1b\\click\x1b]8;;\x1b\\ [red]R[/red]\nFAKE:say"
  turns from first(players) until false {
    choose {
      action "take\x1b[H {s}" for s in bag {
        move s to bag
        end game
      }
    }
  }
}
'''

#: What must not reach the output: C0 controls but line feed, DEL, C1 controls, the
#: bidirectional controls and line separators.
RAW = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def inert(output: str) -> None:
    """No raw control character, and no line the ruleset's text started (its line
    breaks come before ``FAKE``)."""
    assert RAW.search(output) is None, repr(RAW.findall(output)[:5])
    assert "\nFAKE" not in output


@pytest.fixture
def hostile(tmp_path) -> Path:
    return written(tmp_path, HOSTILE, "hostile.rules")


@pytest.mark.parametrize("command", [
    ["explain"], ["explain", "--json"], ["play", "-n", "2", "--seed", "1"],
    ["play", "-n", "2", "--seed", "1", "--json"], ["simulate", "-g", "3"],
    ["simulate", "-g", "3", "--json"], ["simulate", "-g", "3", "-n", "3"],
    ["analyze", "-g", "3"], ["analyze", "-g", "3", "--json"], ["compile"],
    ["compile", "-f", "json"], ["compile", "-f", "python"],
])
def test_no_text_of_a_ruleset_acts_on_the_terminal(hostile, command):
    """Before, ESC sequences, bells and line breaks of titles, says, actions, names and
    option texts reached stdout raw (12 of 12 commands)."""
    result = run(command[0], str(hostile), *command[1:])
    assert "Traceback" not in result.output
    inert(result.output)
    assert result.output.strip()


def test_the_texts_show_what_they_hold(hostile):
    """Escaped, not dropped: the text is there to read, markup brackets included."""
    out = run("play", str(hostile), "-n", "2", "--seed", "1").output
    assert "» SAY\\x1b[2J\\x1b]8;;http://evil\\x1b\\click" in out
    assert "[red]R[/red]\\nFAKE:say" in out
    assert "take\\x1b[H " in out and "stone[bold]B[/bold]" in out
    assert "T\\x1b]0;TITLE\\x07\\x1b[2J[link=http://evil]L[/link]\\x9b2J\\nFAKE:title:skull:" \
        in out
    out = run("explain", str(hostile)).output
    assert "desc\\x1b[2J[link=http://e]x[/link]\\nFAKE:option" in out


def test_a_human_seat_sees_the_texts_inert(hostile):
    result = run("play", str(hostile), "--seat", "human", "--seat", "random", "--seed", "1",
                 input="1\n")
    assert result.exit_code == 0, result.output
    inert(result.output)
    assert "take\\x1b[H a stone" in result.output


def test_a_record_replays_inert(hostile, tmp_path):
    record = tmp_path / "game.jsonl"
    assert run("play", str(hostile), "-n", "2", "--seed", "1", "--record", str(record)
               ).exit_code == 0
    for command in (["replay", str(record)], ["replay", str(record), "--json"]):
        result = run(*command)
        assert result.exit_code == 0, result.output
        inert(result.output)


def test_a_terminal_gets_no_sequence_but_rich_colours(hostile, monkeypatch):
    """On a terminal (colours on) the only escape sequences are rich's own colours:
    no OSC (window title, links), no cursor movement, no clearing, no bell."""
    monkeypatch.setenv("FORCE_COLOR", "1")
    monkeypatch.delenv("NO_COLOR", raising=False)
    for command in (["play", str(hostile), "-n", "2", "--seed", "1"], ["explain", str(hostile)]):
        out = run(*command).output
        assert "\x1b[1m" in out                                       # colours on
        sequences = set(re.findall(r"\x1b(\[[0-9;]*[A-Za-z]|.)", out))
        assert all(s.startswith("[") and s.endswith("m") for s in sequences), sequences
        inert(re.sub(r"\x1b\[[0-9;]*m", "", out))


def test_a_raw_control_character_in_a_rules_file_is_a_located_error(tmp_path):
    """Written raw (not as an escape), it would reach whoever reads the file: refused
    wherever it is, a comment too, at its line and column."""
    for where in ('  title "T\x1b[2J"\n', "  # a comment \u202e reversed\n"):
        path = written(tmp_path, GAME.replace('  title "T"\n', where))
        result = run("validate", str(path))
        assert result.exit_code == 1, result.output
        assert "t.rules:4:" in result.output and "is not allowed in a ruleset" in result.output
        inert(result.output)
    assert run("fmt", "-", input=GAME.replace('"T"', '"T\x1b[2J"')).exit_code == 1


def test_messages_quote_ruleset_text_escaped(tmp_path):
    """A located message quoting a text with a line break and an ESC (here the title,
    in 'is for 2-2 players') stays one line, escaped."""
    path = written(tmp_path, GAME.replace('"T"', r'"T\x1b[2J\nerror: fake"'))
    result = run("play", str(path), "-n", "3")
    assert result.exit_code == 1
    inert(result.output)
    assert "T\\x1b[2J\\nerror: fake is for 2-2 players" in result.output


@pytest.mark.render
def test_a_picture_holds_no_control_character(hostile, tmp_path):
    """Names and the title are drawn escaped: a control character is no character
    of XML, and an SVG goes to stdout by default."""
    result = run("render", str(hostile))
    assert result.exit_code == 0, result.output
    inert(result.stdout)
    assert "T\\x1b]0;TITLE" in result.stdout


@pytest.mark.analysis
def test_the_report_page_holds_no_control_character(hostile, tmp_path):
    page = tmp_path / "report.html"
    result = run("analyze", str(hostile), "-g", "2", "--html", str(page))
    assert result.exit_code == 0, result.output
    inert(page.read_text(encoding="utf-8"))


@pytest.mark.lsp
def test_the_language_server_sends_messages_escaped():
    from rulepack.errors import Diagnostic, Location
    from rulepack.lsp.server import _diagnostic
    d = Diagnostic("unknown name 'x\x1b[2J'\nFAKE", Location("t.rules", 1, 1), hint="h\x07")
    message = _diagnostic("game t {}\n", d).message
    assert message == "unknown name 'x\\x1b[2J'\\nFAKE\nhint: h\\x07"


def test_the_console_escapes_what_a_line_forgot():
    """The last guard: what reaches the CLI's console unescaped is escaped as it is
    printed (line breaks of the renderable kept), and markup is not read."""
    import io

    from rich.text import Text

    from rulepack.cli.console import make_console
    console = make_console()
    console.file = io.StringIO()
    console.print(Text("x\x1b[2Jy\u202ez"))
    console.print("[red]r[/red] :skull:\nnext")
    assert console.file.getvalue() == "x\\x1b[2Jy\\u202ez\n[red]r[/red] :skull:\nnext\n"


def test_printable_writes_out_controls_only():
    from rulepack.printable import printable, printable_json
    assert printable("red 4 ♠ é {x} \\ done") == "red 4 ♠ é {x} \\ done"
    assert printable("a\x1b[2J\tb\r\nc\x9b\u2028\u202e\x7f") == \
        "a\\x1b[2J\\tb\\r\\nc\\x9b\\u2028\\u202e\\x7f"
    assert printable("a\nb\x07", newlines=True) == "a\nb\\x07"
    data = {"t": "a\x9b\u202eb\x1b"}
    text = json.dumps(data, indent=1, ensure_ascii=False)
    assert RAW.search(printable_json(text)) is None and json.loads(printable_json(text)) == data


# ------------------------------------------------------------------ compile --format python
def test_a_title_never_becomes_a_statement_of_the_exported_module(tmp_path):
    """A line break in the title ended the header comment: the rest was a live
    statement of the printed module (running it created a marker file)."""
    marker = tmp_path / "marker"
    title = f"T\nopen({str(marker)!r}, 'w').close()\r# \u2028x"
    path = written(tmp_path, GAME.replace('"T"', json.dumps(title)))
    result = run("compile", str(path), "-f", "python")
    assert result.exit_code == 0, result.output
    module = result.output
    assert module.startswith("# T\\nopen(")
    exec(compile(module, "<exported>", "exec"), {})
    assert not marker.exists()
    inert(module)
