"""Hostile text stays inert (issue 32, item 6): a ruleset's texts fill in values by
name only, never reach a terminal raw, and never become code in an export.

Each ruleset here is a small game whose texts (``called``, ``say``, action texts,
``title``...) are what an attacker would write.
"""

from __future__ import annotations

import json
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
