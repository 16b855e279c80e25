"""``draw`` hints in the language (no render extra needed): how they read into IR,
their located errors, and that they change neither play nor a record's ruleset
hash. Their effect on pictures: tests/test_render.py. The CLI loads no picture
code until a picture is asked for."""

from __future__ import annotations

import subprocess
import sys

import pytest

import rulepack
from rulepack.errors import RulepackError
from rulepack.records import ruleset_hash

BASE = """
game hinted {
  players 2
}
component stone {
  called "{colour} stone"
  colour: black, white
HINT
}
zone bag: pile
setup {
  move stone to bag
}
"""


def load(tmp_path, hint: str) -> rulepack.Game:
    path = tmp_path / "h.rules"
    path.write_text(BASE.replace("HINT", hint), encoding="utf-8")
    return rulepack.load(str(path))


def test_hints_read_into_ir(tmp_path):
    game = load(tmp_path, '  draw shape disc, symbol "{colour}", '
                          'color by colour {black: "#000", white: "ivory", 3: "red", "x": "blue"}')
    draw = game.ir["components"][0]["draw"]
    assert draw["shape"] == "disc" and draw["symbol"] == "{colour}" and draw["colour"] is None
    assert draw["colour_by"]["attribute"] == "colour"
    assert draw["colour_by"]["colours"] == [["black", "#000"], ["white", "ivory"], [3, "red"],
                                            ["x", "blue"]]
    assert load(tmp_path, "").ir["components"][0]["draw"] is None


def test_hints_change_neither_play_nor_the_hash(tmp_path):
    plain, hinted = load(tmp_path, ""), load(tmp_path, '  draw colour "gold"')
    assert ruleset_hash(plain) == ruleset_hash(hinted)
    assert plain.new_game(2, seed=3).to_json() == hinted.new_game(2, seed=3).to_json()
    assert ruleset_hash(plain) != ruleset_hash(load(tmp_path, "  copies 2"))


@pytest.mark.parametrize("hint,message,line,col", [
    ("  draw shape blob", "unknown shape 'blob'", 8, 14),
    ('  draw colour "red", colour "blue"', "'draw' gives the colour twice", 8, 3),
    ("  draw", "", 9, 1),                       # a hint is missing where the '}' is
])
def test_bad_hints_are_located(tmp_path, hint, message, line, col):
    with pytest.raises(RulepackError) as info:
        load(tmp_path, hint)
    d = info.value.diagnostics[0]
    assert message in d.message
    assert (d.location.line, d.location.column) == (line, col)


def test_the_cli_loads_no_picture_code_until_asked():
    code = ("import sys; from click.testing import CliRunner; from rulepack.cli.main import main; "
            "r = CliRunner().invoke(main, ['--help']); assert r.exit_code == 0; "
            "r = CliRunner().invoke(main, ['render', '--help']); assert r.exit_code == 0; "
            "print(sorted(m for m in sys.modules if m.startswith(('rulepack.render', 'drawsvg', "
            "'cairosvg'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


def test_the_schema_knows_the_shapes_the_grammar_does():
    from rulepack.grammar.transformer import DRAW_SHAPES
    from rulepack.schemas.validate import ruleset_schema
    draw = ruleset_schema()["$defs"]["component"]["properties"]["draw"]["else"]
    assert tuple(draw["properties"]["shape"]["else"]["enum"]) == DRAW_SHAPES
