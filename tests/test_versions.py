"""Versions (issue 12, part 6): the rules language a ruleset is written in, the
format a record is in, and the longest game a ruleset declares.

A ruleset may say ``language 1``; a version this rulepack does not read is a
located error with a hint, before anything else of the file is read. Records
carry a ``format_version``; a record of the previous format (format 1, written
before there was one: ``tests/data/records-v1/``, made by the code of that time)
still replays. ``at most N decisions`` is the engine's ``max_game_length``.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

import rulepack
from rulepack.cli.main import main
from rulepack.engine.observe import max_game_length
from rulepack.errors import RulepackError, RulesetRuntimeError, SemanticError
from rulepack.grammar.parser import parse_rules
from rulepack.loader import bundled_dir
from rulepack.records import RecordError, read_record, replay
from rulepack.versions import LANGUAGE_VERSION, RECORD_FORMAT_VERSION

V1 = Path(__file__).parent / "data" / "records-v1"

COUNTING = """\
game counting {
  players 2..3
  BOUND
}
option length: 1..20 = 4 "how many decisions the game takes"
var n = 0
play {
  turns from 0 until n == length {
    choose {
      action "count" {
        set n = n + 1
      }
    }
  }
}
"""


def counting(bound: str = "") -> str:
    return COUNTING.replace("BOUND", bound)


def run(*args: str) -> object:
    return CliRunner().invoke(main, list(args))


# ---------------------------------------------------------------- the language
def test_a_ruleset_may_declare_the_language_it_is_written_in():
    game = rulepack.loads("# a comment first\n\nlanguage 1\n\n" + counting())
    assert game.ir["language"] == LANGUAGE_VERSION == 1
    assert game.new_game(2).legal_actions()[0].text == "count"
    assert "language" not in rulepack.loads(counting()).ir   # optional


@pytest.mark.parametrize("version", [2, 17])
def test_a_future_language_is_a_located_error_with_a_hint_before_the_text_is_parsed(version):
    # the rest of the text is not language 1 at all: the version is read first
    text = f"# made by a newer rulepack\nlanguage {version}\ngame g {{ players 2 }} frobnicate x\n"
    with pytest.raises(RulepackError) as info:
        rulepack.loads(text, "new.rules")
    d = info.value.diagnostics[0]
    assert d.code == "unknown-language"
    assert (d.location.file, d.location.line, d.location.column) == ("new.rules", 2, 10)
    assert f"written in rules language {version}" in d.message
    assert "reads language 1 only" in d.message
    assert "upgrade rulepack" in d.hint


def test_language_0_and_a_late_language_line_are_refused_at_the_number():
    with pytest.raises(RulepackError) as info:
        rulepack.loads("language 0\n" + counting(), "zero.rules")
    d = info.value.diagnostics[0]
    assert (d.code, d.location.line, d.location.column) == ("unknown-language", 1, 10)
    assert "there is no rules language 0" in d.message
    with pytest.raises(SemanticError) as late:
        rulepack.loads(counting() + "language 1\n", "late.rules")
    d = late.value.diagnostics[0]
    assert d.code == "language-not-first"
    assert (d.location.file, d.location.line) == ("late.rules", counting().count("\n") + 1)


@pytest.mark.parametrize("suffix", [".yaml", ".json"])
def test_an_ir_file_says_its_language_at_the_top_and_a_future_one_is_located(tmp_path, suffix):
    result = run("compile", "tic-tac-toe", "--format", suffix[1:])
    assert result.exit_code == 0, result.output
    path = tmp_path / f"ttt{suffix}"
    path.write_text(result.output, encoding="utf-8")
    assert rulepack.load(str(path)).ir["language"] == 1
    if suffix == ".json":
        data = json.loads(result.output)
        data["language"] = 3
        data["a_field_of_language_3"] = True     # not in this rulepack's schema
        path.write_text(json.dumps(data, indent=1), encoding="utf-8")
        needle = '"language": 3'
    else:
        path.write_text(result.output.replace("\nlanguage: 1\n", "\nlanguage: 3\n"),
                        encoding="utf-8")
        needle = "language: 3"
    lines = path.read_text(encoding="utf-8").splitlines()
    line = next(i for i, text in enumerate(lines, 1) if text.strip().startswith(needle))
    with pytest.raises(RulepackError) as info:
        rulepack.load(str(path))
    d = info.value.diagnostics[0]
    assert d.code == "unknown-language" and d.location.line == line
    assert lines[line - 1][d.location.column - 1] == "3"
    cli = run("validate", str(path))
    assert cli.exit_code == 1 and "Traceback" not in cli.output
    assert f":{line}:{d.location.column}: error: this ruleset is written in rules language 3" \
        in cli.output


def test_every_bundled_ruleset_and_library_declares_language_1():
    files = sorted(bundled_dir().glob("*.rules")) + sorted(bundled_dir().glob("lib/*.rules"))
    assert len(files) >= 8
    for path in files:
        assert parse_rules(path.read_text(encoding="utf-8"), path.name).get("language") == 1, \
            path.name


def test_the_declared_language_does_not_change_a_records_ruleset_hash():
    from rulepack.records import ruleset_hash
    plain = rulepack.loads(counting(), "c.rules")
    declared = rulepack.loads("language 1\n\n" + counting(), "c.rules")
    assert ruleset_hash(plain) == ruleset_hash(declared)
    assert ruleset_hash(plain) != ruleset_hash(rulepack.loads(counting("at most 9 decisions")))


# ---------------------------------------------------------------- the longest game
def test_a_declared_bound_is_the_max_game_length_else_the_decision_limit():
    game = rulepack.loads(counting("at most 3 * count(players) decisions"))
    assert max_game_length(game.new_game(2).position) == 6
    assert max_game_length(game.new_game(3).position) == 9
    assert max_game_length(game.new_game(3, max_decisions=5).position) == 5   # the smaller
    assert max_game_length(rulepack.loads(counting()).new_game(2).position) == 100_000
    assert max_game_length(rulepack.loads(counting()).new_game(2, max_decisions=7).position) == 7
    assert max_game_length(rulepack.load("tic-tac-toe").new_game(2).position) == 9
    assert max_game_length(rulepack.load("connect-four").new_game(2).position) == 42


def play_out(state):
    while not state.is_terminal():
        state.apply(state.legal_actions()[0])
    return state


def test_a_game_within_its_bound_ends_and_one_past_it_is_a_located_error():
    game = rulepack.loads(counting("at most 2 * count(players) decisions"), "c.rules")
    assert play_out(game.new_game(2, options={"length": 4})).decisions == 4   # exactly
    state = game.new_game(2, options={"length": 5})
    with pytest.raises(RulesetRuntimeError) as info:
        play_out(state)
    d = info.value.diagnostics[0]
    assert d.code == "past-longest" and state.decisions == 5
    assert "did not end within the 4 decisions its ruleset declares" in d.message
    assert (d.location.file, d.location.line, d.location.column) == ("c.rules", 3, 11)


@pytest.mark.parametrize("bound, shown", [("count(players) - 2", "0"), ('"long"', "long")])
def test_a_bound_that_is_not_a_whole_number_of_at_least_1_is_refused(bound, shown):
    with pytest.raises(SemanticError) as info:
        rulepack.loads(counting(f"at most {bound} decisions"), "c.rules")
    d = info.value.diagnostics[0]
    assert d.code == "bad-length" and d.location.line == 3
    assert f"needs a whole number of at least 1, not {shown}" in d.message


# ---------------------------------------------------------------- records
def v1_records() -> list[Path]:
    return sorted(V1.glob("*.jsonl"))


def test_the_format_1_fixtures_are_what_the_earlier_code_wrote():
    # written by the code before format_version existed (never edited since)
    assert len(v1_records()) == 7
    for path in v1_records():
        header = json.loads(path.read_text(encoding="utf-8").splitlines()[0])
        assert header["format"] == "rulepack-record/1"
        assert "format_version" not in header and "language" not in header


@pytest.mark.parametrize("path", v1_records(), ids=lambda p: p.stem)
def test_a_record_of_format_1_still_replays(path):
    record = read_record(path)
    assert record.format_version == 1
    done = replay(record)
    # only a warning that the rules have changed since (tic-tac-toe and connect-four
    # have declared their longest game since), never another
    assert {w.code for w in done.warnings} <= {"ruleset-changed"}
    if record.finished:
        assert done.state.is_terminal()
        assert done.state.decisions == record.end[1]["decisions"]
    else:
        assert done.state.decisions == record.decisions


def test_a_format_1_record_resumes_in_its_own_format(tmp_path):
    path = tmp_path / "quit.jsonl"
    shutil.copy(V1 / "multzo-quit.jsonl", path)
    result = run("resume", str(path), "--seat", "random", "--seat", "random")
    assert result.exit_code == 0, result.output
    record = read_record(path)
    assert record.finished and record.format_version == 1
    assert run("replay", str(path)).exit_code == 0


def test_a_new_record_carries_format_version_2_and_the_language(tmp_path):
    path = tmp_path / "game.jsonl"
    result = run("play", "tic-tac-toe", "--seed", "3", "--record", str(path))
    assert result.exit_code == 0, result.output
    header = json.loads(path.read_text(encoding="utf-8").splitlines()[0])
    assert header["format"] == "rulepack-record/2"
    assert header["format_version"] == RECORD_FORMAT_VERSION == 2
    assert header["language"] == 1
    assert read_record(path).format_version == 2
    assert run("replay", str(path)).exit_code == 0


@pytest.mark.parametrize("change, message, hint", [
    ({"format": "rulepack-record/3", "format_version": 3},
     "this record is in format 3, but this rulepack (0.1.0) reads record formats 1 and 2",
     "upgrade rulepack"),
    ({"format_version": 1},
     "the header says format 'rulepack-record/2' but format_version 1",
     'says "format": "rulepack-record/1"'),
    ({"format": "rulepack-record/2", "format_version": None},
     "the header says format 'rulepack-record/2' but format_version 1",
     "a header without format_version is format 1"),
])
def test_a_record_format_this_rulepack_does_not_read_is_a_located_error(
        tmp_path, change, message, hint):
    path = tmp_path / "game.jsonl"
    assert run("play", "tic-tac-toe", "--seed", "3", "--record", str(path)).exit_code == 0
    lines = path.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    header.update(change)
    if change.get("format_version", 0) is None:
        del header["format_version"]
    path.write_text("\n".join([json.dumps(header)] + lines[1:]) + "\n", encoding="utf-8")
    with pytest.raises(RecordError) as info:
        read_record(path)
    d = info.value.diagnostics[0]
    assert (d.location.file, d.location.line, d.code) == (str(path), 1,
                                                          "unknown-record-format")
    assert message.replace("0.1.0", rulepack.__version__) == d.message and hint in d.hint
    cli = run("replay", str(path))
    assert cli.exit_code == 1 and "Traceback" not in cli.output
    assert f"{path}:1: error: " in cli.output
