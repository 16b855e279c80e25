"""Hostile input (issue 13): files as an attacker would make them are refused fast,
with a located message, exit code 1 and no traceback; type mistakes that used to
validate and then fail in a game are caught by ``validate``.

Small hostile files live in ``tests/hostile/``; big ones (a 10 MB string, 80 kB of
brackets, 1 MB of numbers) are made here, in ``tmp_path``; special files (a
symlink to ``/dev/zero``, a named pipe) too. The mutated rulesets of
``tests/data/validated_then_failed.json`` are the 19 of
``shared/repro/validated-then-failed``, stored as edits of the bundled rulesets.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import rulepack
import rulepack.grammar.parser as parser
import rulepack.loader as loader
from rulepack.cli.main import main
from rulepack.errors import RulepackError
from rulepack.files import MAX_RULESET_BYTES, nesting_error
from rulepack.validation import check_path
from rulepack.compiler.instance import instance_of

HERE = Path(__file__).parent
CORPUS = HERE / "hostile"
RULESETS = Path(rulepack.__file__).parent / "rulesets"


def run(*args: str) -> Any:
    return CliRunner().invoke(main, list(args))


def refused(path: Path | str, fragment: str, *, line: int | None = None) -> str:
    """``rulepack validate PATH`` exits 1, without a traceback, and says ``fragment``
    (at ``line``, if given); returns its output. (How fast: benchmarks/fuzz_validate.py
    --kind hostile.)"""
    result = run("validate", str(path))
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output and fragment in result.output, result.output
    if line is not None:
        assert f"{Path(path).name}:{line}:" in result.output or f"{path}:{line}:" in \
            result.output, result.output
    assert len(result.output) < 5000, "the message echoes the file"
    return str(result.output)


# ---------------------------------------------------------------------- the corpus
CORPUS_EXPECTED = {
    "alias.yaml": ("YAML aliases (*name) are not allowed", 3),
    "deep-flow.yaml": ("nested more than 200 levels deep", 6),
    "deep.json": ("nested more than 200 levels deep", 2),
    "empty.rules": ("the file is empty", None),
    "no-suffix": ("not files without a suffix", None),
    "not-utf8.rules": ("not UTF-8 text", 4),
    # budgets: counted, so the same file stops at the same place on every machine
    "budget-nested-loops.rules": ("went over their budget of 1,000,000 elements", 7),
    "budget-squaring.rules": ("a product of more than 10,000 binary digits", 10),
    "budget-doubling-list.rules": ("a list of 1,048,576 elements: more than the limit", 10),
    "budget-define-chain.rules": ("more than 50,000 parts once every define is expanded", 7),
    # issue 32: 30,000 partition searches in one loop (shared/repro/many_partitions.rules)
    # stop when the decision's steps are spent, not after the flow's 100,000 steps
    "budget-many-partitions.rules": ("partition by 'both' went over the budget of 1,000,000 "
                                     "steps between two decisions", 12),
}


@pytest.mark.parametrize("name", sorted(CORPUS_EXPECTED))
def test_the_hostile_corpus_is_refused_with_located_messages(name):
    fragment, line = CORPUS_EXPECTED[name]
    refused(CORPUS / name, fragment, line=line)


def test_every_file_of_the_corpus_is_tested():
    files = {p.name for p in CORPUS.iterdir()}
    assert files == set(CORPUS_EXPECTED) | {"cut-header.jsonl", "type-mistakes.rules"}


def test_a_record_cut_inside_its_header_says_so():
    result = run("replay", str(CORPUS / "cut-header.jsonl"))
    assert result.exit_code == 1
    assert "the last line, a header line, was cut short" in result.output
    assert "needs a whole header line" in result.output


# ---------------------------------------------------------------------- big files
def test_a_file_over_the_size_limit_is_refused_before_it_is_read(tmp_path):
    path = tmp_path / "big.rules"
    path.write_text('game g { players 2 }\nconst x = "' + "a" * 10_000_000 + '"\n',
                    encoding="utf-8")
    out = refused(path, "more than a ruleset may be (1.0 MB)")
    assert "10.0 MB" in out


def test_a_long_string_is_cut_in_the_message(tmp_path):
    path = tmp_path / "long.rules"
    path.write_text('game g { players 2 }\nconst x = "' + "a" * 300_000 + '"\n',
                    encoding="utf-8")
    assert path.stat().st_size < MAX_RULESET_BYTES
    out = refused(path, "characters) …", line=2)
    assert out.count("a") < 2000


@pytest.mark.parametrize("suffix, text", [
    (".yaml", "a: " + "[" * 80_000 + "]" * 80_000 + "\n"),
    (".json", "[" * 80_000 + "]" * 80_000 + "\n"),
    (".yaml", "".join("  " * d + f"k{d}:\n" for d in range(300)) + "  " * 300 + "v: 1\n"),
])
def test_deep_nesting_is_refused_at_its_line_before_parsing(tmp_path, monkeypatch, suffix, text):
    path = tmp_path / f"deep{suffix}"
    path.write_text(text, encoding="utf-8")
    where = nesting_error(text)
    assert where is not None
    monkeypatch.setattr(loader, "_read_data", never_called)
    refused(path, "nested more than 200 levels deep", line=where[0])


def test_the_nesting_scan_counts_what_the_yaml_parser_sees():
    """Brackets inside quotes, comments and plain words do not count; the bundled
    rulesets' IR is far below the limit."""
    assert nesting_error('a: "[[[[[["\nb: \'{{{{\'  # [[[[[[[\nc: x[[[[[[\n', limit=2) is None
    assert nesting_error("a: [[[1]]]\n", limit=3) == (1, 6)
    assert nesting_error("- - - - x\n", limit=3) == (1, 7)
    for name in ("multzo", "packkub"):
        yaml_text = run("compile", name, "--format", "yaml").stdout
        json_text = run("compile", name, "--format", "json", "--positions").stdout
        assert nesting_error(yaml_text, limit=40) is None
        assert nesting_error(json_text, limit=40) is None


@pytest.mark.parametrize("suffix, text", [
    (".rules", "game g { players 2 }\nconst x = [" + "1," * 300_000 + "1]\n"),
    (".yaml", "a: [" + "1," * 300_000 + "1]\n"),
    (".json", "[" + "1," * 300_000 + "1]\n"),
])
def test_too_many_tokens_are_refused_before_parsing(tmp_path, monkeypatch, suffix, text):
    path = tmp_path / f"many{suffix}"
    path.write_text(text, encoding="utf-8")
    monkeypatch.setattr(loader, "_read_data", never_called)
    monkeypatch.setattr(parser, "_parser", never_called)
    refused(path, "more than", line=1 if suffix != ".rules" else 2)


def never_called(*args: Any) -> Any:
    raise AssertionError("the parser was reached")


# ---------------------------------------------------------------------- special files
@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero")
@pytest.mark.parametrize("device, name, command", [
    ("/dev/zero", "zero.rules", "validate"), ("/dev/urandom", "random.json", "play"),
    ("/dev/zero", "zero.jsonl", "replay")])
def test_a_device_is_refused_without_reading_it(tmp_path, device, name, command):
    path = tmp_path / name
    path.symlink_to(device)
    result = run(command, str(path))
    assert result.exit_code == 1 and "is a device" in result.output, result.output


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes")
@pytest.mark.parametrize("name, command", [("pipe.rules", "validate"),
                                           ("pipe.jsonl", "resume")])
def test_a_named_pipe_is_refused_without_waiting(tmp_path, name, command):
    path = tmp_path / name
    os.mkfifo(path)
    result = run(command, str(path))
    assert result.exit_code == 1 and "is a named pipe" in result.output, result.output


def test_a_directory_or_nothing_is_not_a_ruleset(tmp_path):
    assert "no ruleset given" in run("play", "").output
    (tmp_path / "d.rules").mkdir()
    assert "is a directory" in run("validate", str(tmp_path / "d.rules")).output


def test_option_values_are_ascii_digits():
    for value in ("٣", "1_0", "³"):
        result = run("play", "packkub", "-n", "2", "-o", f"rounds={value}", "--json")
        assert result.exit_code == 1 and "must be a whole number" in result.output, value
    assert run("play", "packkub", "-n", "2", "-o", "rounds=1", "--seed", "1",
               "--json").exit_code == 0


# ---------------------------------------------------------------------- static checks
def repros() -> list[dict[str, Any]]:
    data: list[dict[str, Any]] = json.loads(
        (HERE / "data" / "validated_then_failed.json").read_text(encoding="utf-8"))
    return data


def apply_edits(base: str, edits: list[dict[str, Any]]) -> str:
    lines = (RULESETS / f"{base}.rules").read_text(encoding="utf-8").splitlines(keepends=True)
    for edit in reversed(edits):
        start = edit["line"] - 1
        old = edit["old"].splitlines(keepends=True)
        assert "".join(lines[start:start + len(old)]) == edit["old"], "the bundled file changed"
        lines[start:start + len(old)] = edit["new"].splitlines(keepends=True)
    return "".join(lines)


@pytest.mark.parametrize("repro", repros(), ids=lambda r: r["name"])
def test_a_mutant_that_validated_then_failed(tmp_path, repro):
    """A type mistake is reported by validate where it is; any other mutant plays
    (with random bots) to its end or to an error that carries a line."""
    path = tmp_path / repro["name"]
    path.write_text(apply_edits(repro["base"], repro["edits"]), encoding="utf-8")
    diagnostics = [d for d in check_path(path) if d.severity == "error"]
    if "validate_error" in repro:
        line, column, message = repro["validate_error"]
        assert [(d.location.line, d.location.column) for d in diagnostics] == [(line, column)]
        assert message in diagnostics[0].message
        assert diagnostics[0].code == "wrong-kind"
        return
    assert diagnostics == []
    game = rulepack.load(path)
    state = game.new_game(2, seed=repro["seed"], max_decisions=400)
    rng = random.Random(repro["seed"])
    try:
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
    except RulepackError as exc:
        assert all(d.location.line is not None for d in exc.diagnostics), exc
        assert "object" not in str(exc) and "attribute '" not in str(exc)


MISTAKES = [
    ("count(best(points, [current]))", "best() needs pieces", None),
    ("count(best(1, board))", "best() needs a pattern, not a number", None),
    ("count(best(kinds[0][1], board))", "best() needs a pattern, not a number", None),
    ("count(at(first(board)))", "at() needs a cell, not a piece", None),
    ("count(maximal run through first(cells(board)) along 1 where n == 1)",
     "along needs a direction", None),
    ("first(cells(board)).n", "a cell has no attribute 'n'", None),
    ("count(hand[players])", "zone hand[...] needs a player, not a list of players", None),
    ("count(best(pair, hand[current]))", None, None),     # all right
]


@pytest.mark.parametrize("expr, message, _", MISTAKES)
def test_type_mistakes_are_reported_by_validate(tmp_path, expr, message, _):
    text = (CORPUS / "type-mistakes.rules").read_text(encoding="utf-8")
    marked = "points[current] + 1   # MISTAKE"
    assert marked in text
    path = tmp_path / "mistake.rules"
    path.write_text(text.replace(marked, f"points[current] + {expr}"), encoding="utf-8")
    errors = [d for d in check_path(path) if d.severity == "error"]
    if message is None:
        assert errors == []
        return
    assert len(errors) == 1 and message in errors[0].message, errors
    assert errors[0].location.line == text[:text.index(marked)].count("\n") + 1


def test_a_run_time_failure_is_told_in_the_languages_words(tmp_path):
    """What no static check can see (a value read from a map whose values are of two
    kinds, by a key only play knows) fails in a game with a located message that
    names no Python class or attribute."""
    text = (CORPUS / "type-mistakes.rules").read_text(encoding="utf-8")
    text = text.replace("points[current] + 1   # MISTAKE",
                        "points[current] + f({0: players, 1: board}[round])")
    text = text.replace("pattern pair: size 2, same n\n",
                        "pattern pair: size 2, same n\ndefine f(x) = count(best(pair, x))\n")
    path = tmp_path / "late.rules"
    path.write_text(text, encoding="utf-8")
    assert [d for d in check_path(path) if d.severity == "error"] == []
    result = run("play", str(path), "--players", "2", "--seed", "1")
    assert result.exit_code == 1
    assert "late.rules:23:9: error: this rule cannot be carried out: a player (player 1) " \
        "cannot be used here" in result.output
    assert "object" not in result.output and "attribute" not in result.output


def test_an_expression_too_long_to_parse_is_located(tmp_path):
    path = tmp_path / "chain.rules"
    path.write_text("game g { players 2 }\nconst x = 1" + "+1" * 4000 + "\n", encoding="utf-8")
    refused(path, "an expression here is too long", line=2)


@pytest.mark.parametrize("edit, message, line", [
    (("  n: 1, 2, 3\n", "  n: 1, 2, 3\n  n: 1, 2\n"), "declares attribute 'n' twice", 9),
    (("game g {\n  players 2\n}\n", ""), "has no game declaration", 1),
])
def test_found_by_fuzzing_and_now_located(tmp_path, edit, message, line):
    """A duplicated attribute line made a game six times bigger; a library cut short
    lost its game, and said so without a line."""
    text = (CORPUS / "type-mistakes.rules").read_text(encoding="utf-8")
    assert edit[0] in text
    path = tmp_path / "fuzzed.rules"
    path.write_text(text.replace(edit[0], edit[1]), encoding="utf-8")
    (error,) = [d for d in check_path(path) if d.severity == "error"]
    assert message in error.message and error.location.line == line


def test_an_order_from_a_library_that_leaves_a_value_out_points_at_the_component(tmp_path):
    path = tmp_path / "order.rules"
    path.write_text("game g {\n  players 2\n}\nuse piecepack\ncomponent chip {\n"
                    "  rank: null, ace, 2, 3, 4, 5, 6\n}\n"
                    "play {\n  end game\n}\n", encoding="utf-8")
    errors = [d for d in check_path(path) if d.severity == "error"]
    assert [(e.location.line, "order rank leaves out 6" in e.message) for e in errors] == \
        [(5, True)]


def test_the_fast_schema_check_is_no_laxer_than_jsonschema():
    """With the ``fast`` extra, a valid ruleset skips jsonschema; what jsonschema
    refuses must not be found valid by the fast check."""
    pytest.importorskip("jsonschema_rs")
    import copy

    import yaml

    from rulepack.schemas.validate import _surely_valid, validate_ir
    ir = yaml.safe_load(run("compile", "multzo", "--format", "yaml").stdout)
    assert _surely_valid(ir)
    float_count = copy.deepcopy(ir)
    float_count["game"]["players"] = [2.0, 3]
    long_name = copy.deepcopy(ir)
    long_name["constants"][0]["name"] = "x" * 65
    extra_key = copy.deepcopy(ir)
    extra_key["zones"][0]["size"] = 3
    for bad in (float_count, long_name, extra_key):
        assert not _surely_valid(bad)
        with pytest.raises(RulepackError):
            validate_ir(bad)


def test_a_value_that_cannot_be_computed_at_compile_time_is_located(tmp_path):
    """Found by fuzzing: a list as the key of a map in a constant."""
    path = tmp_path / "map.rules"
    path.write_text("game g {\n  players 2\n}\nconst m = {directions: 4}\n", encoding="utf-8")
    (error,) = [d for d in check_path(path) if d.severity == "error"]
    assert (error.location.line, error.location.column) == (4, 11)
    assert "a list or a map cannot be a key of a map" in error.message


def test_a_budget_overrun_in_play_is_the_same_located_error(tmp_path):
    """``play`` and ``simulate`` meet a budget where ``validate`` does: one located
    error, exit code 1, no traceback."""
    text = (CORPUS / "budget-doubling-list.rules").read_text(encoding="utf-8")
    for command in (["play", "--seat", "random", "--seat", "random", "--seed", "1"],
                    ["simulate", "--games", "1"]):
        result = run(command[0], str(CORPUS / "budget-doubling-list.rules"), *command[1:])
        assert result.exit_code == 1, result.output
        assert "budget-doubling-list.rules:10:5: error: a list of 1,048,576 elements" in \
            result.output and "Traceback" not in result.output
    assert "set v = v + v" in text


def test_the_loop_budget_counts_elements_the_same_in_both_compiled_forms(monkeypatch):
    """The generated code and the closures charge the same loops: a comprehension
    over a zone, a where and an argmax spend the budget by the elements they visit."""
    import rulepack.compiler.codegen as codegen
    from rulepack.engine import runtime
    spent = []
    for enabled in (True, False):
        monkeypatch.setattr(codegen, "ENABLED", enabled)
        game = rulepack.loads((RULESETS / "multiplay.rules").read_text(encoding="utf-8"))
        st = game.new_game(players=2, seed=3)
        assert bool(instance_of(st.program).flow_source) is enabled    # the form under test
        st.apply(st.legal_actions()[0])      # the flow runs to the next decision
        spent.append(runtime.EVAL_STEPS - st.position.steps_left)
    assert spent[0] == spent[1] > 121     # at least one loop over the 121 cubes


# ------------------------------------------------------------------ issue 32
def _pig_json(tmp_path: Path, edit: Any) -> Path:
    """Pig's stand-alone IR as JSON, changed by ``edit(text) -> text``."""
    text = run("compile", "pig", "--format", "json").output
    path = tmp_path / "pig.json"
    path.write_text(edit(text), encoding="utf-8")
    return path


def test_a_name_ending_in_a_line_break_is_not_a_name(tmp_path):
    """Python's ``$`` matches before a final line break: the schema's name pattern
    let ``"table\\n"`` through, and the game validated and played."""
    path = _pig_json(tmp_path, lambda t: t.replace('"table"', '"table\\n"'))
    result = refused(path, "'table\\n' does not match '^[A-Za-z_][A-Za-z0-9_]*$'")
    assert "pig.json:" in result and ".name: " in result
    from rulepack.schemas.validate import validate_ir
    ir = json.loads(path.read_text(encoding="utf-8"))
    with pytest.raises(RulepackError, match="does not match"):
        validate_ir(ir)


@pytest.mark.parametrize("suffix", [".json", ".yaml"])
def test_a_number_too_long_to_read_is_located(tmp_path, suffix):
    """A 5,000-digit number (beyond Python's 4,300 for int()) was 'a bug in
    rulepack', unlocated."""
    digits = "9" * 5000
    if suffix == ".json":
        path = _pig_json(tmp_path, lambda t: t.replace('"players": [\n      2,',
                                                      f'"players": [\n      {digits},', 1))
        line, column = 9, 7
    else:
        path = tmp_path / "big.yaml"
        path.write_text(f"format: rulepack-ir/1\nlanguage: 1\ngame:\n  name: t\n"
                        f"  players: [2, {digits}]\n", encoding="utf-8")
        line, column = 5, 16
    out = refused(path, "a number of 5000 digits: the numbers of a ruleset are within plus "
                        "or minus 10**12", line=line)
    assert f"{path.name}:{line}:{column}:" in out


def test_a_record_with_a_number_too_long_to_read_is_located(tmp_path):
    record = tmp_path / "game.jsonl"
    assert run("play", "pig", "-n", "2", "--seed", "1", "--record", str(record)).exit_code == 0
    lines = record.read_text(encoding="utf-8").split("\n")
    lines[0] = lines[0].replace('"seed": 1,', f'"seed": {"9" * 5000},')
    record.write_text("\n".join(lines), encoding="utf-8")
    result = run("replay", str(record))
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "game.jsonl:1: error: not a JSON line: a number too long to read" in result.output
