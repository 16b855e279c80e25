"""``rulepack fmt``: one canonical layout, every comment kept, the compiled IR unchanged.

The rulesets checked are every bundled one (the examples among them), the piecepack
library and the schema test's rulesets. Besides idempotence and the IR, each one is
re-laid out at random (its tokens kept, every gap of whitespace replaced by spaces,
tabs, line breaks or blank lines, comments kept on their own lines or after code as
they were) and must format to the very same bytes.
"""

from __future__ import annotations

import io
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

import rulepack
from rulepack.cli.main import main
from rulepack.fmt import format_rules
from rulepack.grammar.parser import parse_rules, parse_source
from rulepack.loader import bundled_dir, strip_positions

ROOT = Path(__file__).resolve().parent.parent
RULESETS = sorted(bundled_dir().glob("*.rules")) + sorted((bundled_dir() / "lib").glob("*.rules")) \
    + sorted((ROOT / "tests" / "data" / "schema").glob("*.rules"))
IDS = [p.name for p in RULESETS]


def run(*args: str, input: str | None = None):
    return CliRunner().invoke(main, list(args), input=input)


def compiled_ir(text: str) -> dict:
    """The IR the ruleset compiles from (libraries merged), without positions; a
    library (no game) is compared as parsed."""
    ir = parse_rules(text)
    if ir.get("game") is None:
        return strip_positions(ir)
    return strip_positions(rulepack.loads(text, check=False).ir)


def relayout(text: str, rng: random.Random) -> str:
    """The same tokens and comments in another layout."""
    _, tokens = parse_source(text)
    out, pos = [], 0
    for i, tok in enumerate(tokens):
        gap = text[pos:tok.start_pos]
        if i == 0:
            new = ""
        elif tok.type == "COMMENT":
            # a comment after code stays after it; one on its own line stays so
            new = rng.choice([" ", "\t  "]) if "\n" not in gap else rng.choice(["\n", "\n\n  ",
                                                                               " \n\t"])
        elif tokens[i - 1].type == "COMMENT":
            new = rng.choice(["\n", "\n\n", "\n    "])
        else:
            new = rng.choice([" ", "\n", "  \n\n ", "\t"])
        out.append(new + str(tok))
        pos = tok.end_pos
    return "".join(out) + rng.choice(["", "\n", "\n\n"])


@pytest.mark.parametrize("path", RULESETS, ids=IDS)
def test_fmt_is_idempotent_keeps_comments_and_changes_no_ir(path: Path):
    text = path.read_text(encoding="utf-8")
    once = format_rules(text, str(path))
    assert format_rules(once, str(path)) == once
    assert compiled_ir(once) == compiled_ir(text)
    comments = [str(t).rstrip() for t in parse_source(text)[1] if t.type == "COMMENT"]
    assert [str(t) for t in parse_source(once)[1] if t.type == "COMMENT"] == comments


@pytest.mark.parametrize("path", RULESETS, ids=IDS)
def test_texts_differing_only_in_layout_format_to_the_same_bytes(path: Path):
    text = path.read_text(encoding="utf-8")
    expected = format_rules(text)
    for seed in range(2):
        other = relayout(text, random.Random(seed))
        assert other != text
        assert format_rules(other) == expected


MESSY = """\
# a game
game  demo{players 2..3   # how many
title "Demo" }
zone hand :pile per player seen by owner
zone   deck: stack
# the last zone
zone discard: row
option depth: -2 .. 5= 0 "how deep"
component stone { colour: black, white
  draw shape disc,symbol "{n}",colour by colour {black:"#202020",white:"ivory"}
n: 1..3 }
const pairs = [ (1,2) , (3,
   # three and four
   4) ]
define twice( x ) = x*2
score( p ) = count( hand [p] ) + - 1
setup { move stone to deck ; shuffle deck
  for p in players { move top 2 of deck to hand[p] face down }
  if count(deck)>0 { move top of deck to discard } else { }   # nothing left
}
"""

MESSY_FORMATTED = """\
# a game
game demo {
  players 2..3                          # how many
  title "Demo"
}

zone hand: pile per player seen by owner
zone deck: stack

# the last zone
zone discard: row

option depth: -2..5 = 0 "how deep"

component stone {
  colour: black, white
  draw shape disc, symbol "{n}", colour by colour {black: "#202020", white: "ivory"}
  n: 1..3
}

const pairs = [(1, 2), (3,
    # three and four
    4)]

define twice(x) = x * 2

score(p) = count(hand[p]) + -1

setup {
  move stone to deck
  shuffle deck
  for p in players {
    move top 2 of deck to hand[p] face down
  }
  if count(deck) > 0 {
    move top of deck to discard
  } else {
  }                                     # nothing left
}
"""


def test_a_messy_ruleset_gets_the_documented_layout():
    assert format_rules(MESSY) == MESSY_FORMATTED
    assert compiled_ir(MESSY_FORMATTED) == compiled_ir(MESSY)


def test_a_trailing_comment_after_long_code_is_two_spaces_after_it():
    text = "var a_rather_long_variable_name_for_a_test = none # note\n"
    assert format_rules(text) == "var a_rather_long_variable_name_for_a_test = none  # note\n"


def test_a_comment_inside_a_statement_keeps_the_rest_on_a_continuation_line():
    text = "play {\n  let x = [1, # one\n 2]\n}\n"
    code = "  let x = [1,"  # the comment starts at column 41
    assert format_rules(text) == f"play {{\n{code}{' ' * (40 - len(code))}# one\n      2]\n}}\n"


# ---------------------------------------------------------------------- the command
def test_fmt_rewrites_a_file_in_place_and_check_then_passes(tmp_path: Path):
    path = tmp_path / "demo.rules"
    path.write_text(MESSY, encoding="utf-8")
    checked = run("fmt", "--check", str(path))
    assert checked.exit_code == 1
    assert "would be reformatted" in checked.output
    assert path.read_text(encoding="utf-8") == MESSY
    result = run("fmt", str(path))
    assert result.exit_code == 0, result.output
    assert path.read_text(encoding="utf-8") == MESSY_FORMATTED
    assert run("fmt", "--check", str(path)).exit_code == 0


def test_fmt_dash_reads_stdin_and_writes_stdout():
    result = run("fmt", "-", input=MESSY)
    assert result.exit_code == 0
    assert result.stdout == MESSY_FORMATTED


class _Zeros(io.RawIOBase):
    """Standard input that never ends (``/dev/zero``), counting what is read; it
    gives up after 8 MB so that a reader without a limit fails the test, not the
    machine."""

    def __init__(self) -> None:
        self.read_bytes = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:   # type: ignore[no-untyped-def]
        if self.read_bytes >= 8_000_000:
            return 0
        n = min(len(buffer), 8_000_000 - self.read_bytes)
        buffer[:n] = bytes(n)
        self.read_bytes += n
        return n


def test_fmt_dash_reads_at_most_a_ruleset_of_stdin():
    """``fmt - < /dev/zero`` read it all (a MemoryError traceback at 1.3 GB); now
    standard input is bounded like a file (1 MB), with the same message."""
    zeros = _Zeros()
    result = CliRunner().invoke(main, ["fmt", "-"], input=zeros)
    assert result.exit_code == 1, result.output
    assert "<stdin>: error: <stdin> holds more than 1.0 MB, more than a ruleset may be" in \
        result.output
    assert "Traceback" not in result.output
    assert zeros.read_bytes <= 1_000_001 + (1 << 20)


def test_fmt_of_a_broken_file_is_a_located_error(tmp_path: Path):
    path = tmp_path / "broken.rules"
    path.write_text("game x {\n  players 2\n", encoding="utf-8")
    result = run("fmt", str(path))
    assert result.exit_code == 1
    assert (f"{path}:2:11: error: the file ended inside a block: the bracket opened at line 1, "
            "column 8 is never closed") in result.output
    assert "Traceback" not in result.output
    assert path.read_text(encoding="utf-8") == "game x {\n  players 2\n"
