"""A corpus of broken rulesets, each with the error a designer should get.

Every file in ``tests/broken/`` is a small, realistic mistake (mostly a one-line
change to ``multzo.rules`` or to a small game of its own). Its expectation sits
next to it: the first line of the file, or for files that cannot hold a comment
(JSON, an empty file, a file that is not UTF-8) a sidecar ``NAME.expect``::

    # expect: LINE:COL CODE: message fragment
    # forbid: text that must not appear in any message      (optional, repeatable)

``LINE:COL`` may be ``LINE`` alone (any column) or ``-`` (no line required);
``CODE`` may list acceptable codes separated by ``|``. The
test asserts that :func:`rulepack.validation.check_path` returns an *error*
diagnostic with that line, column and code whose message (or hint) contains the
fragment, and that no diagnostic contains a forbidden text or Python internals
(``Player(``, tracebacks...). The expectation is what a good tool says, not
necessarily what rulepack says today.

The CLI is also run once over the whole folder, as ``rulepack validate
tests/broken/*`` would be, in text and in JSON; each file's diagnostics are those
the test of that file found (``check_path`` of the same file, computed once per
module), so the two runs test what the command shows, not the checks again.
"""

from __future__ import annotations

import copy
import json
import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulepack.cli.main import main
from rulepack.loader import bundled_dir, bundled_rulesets
import rulepack.validation
from rulepack.validation import check_path

BROKEN = Path(__file__).parent / "broken"
CASES = sorted(p for p in BROKEN.iterdir() if p.suffix != ".expect")

#: Texts that show Python's internals instead of the language's own terms.
INTERNALS = ("Traceback", "Player(", "object at 0x", "{'k':", "_BuildState", "KeyError",
             "AttributeError", "TypeError", "this is a bug in rulepack")
#: The code of the diagnostic check_path gives when rulepack itself failed.
INTERNAL = "internal"

EXPECT = re.compile(r"^# expect: (?P<where>-|\d+(?::\d+)?) (?P<code>[\w|-]+): (?P<fragment>.+?)\s*$")
FORBID = re.compile(r"^# forbid: (?P<text>.+?)\s*$")


@dataclass
class Expectation:
    line: int | None
    column: int | None
    code: str
    fragment: str
    forbid: list[str] = field(default_factory=list)

    def __str__(self) -> str:
        where = "-" if self.line is None else (
            f"{self.line}:{self.column}" if self.column else str(self.line))
        return f"{where} {self.code}: {self.fragment}"


def expectation(path: Path) -> Expectation:
    """The expectation of a corpus file: its sidecar ``.expect`` or its first lines."""
    sidecar = path.with_suffix(".expect")
    if sidecar.exists():
        lines = sidecar.read_text(encoding="utf-8").splitlines()
    else:
        lines = path.read_text(encoding="utf-8").splitlines()
    match = EXPECT.match(lines[0]) if lines else None
    assert match, f"{path.name}: the first line must be '# expect: LINE:COL CODE: fragment'"
    where = match["where"]
    line = column = None
    if where != "-":
        parts = where.split(":")
        line = int(parts[0])
        column = int(parts[1]) if len(parts) > 1 else None
    forbid = []
    for text in lines[1:]:
        m = FORBID.match(text)
        if not m:
            break
        forbid.append(m["text"])
    return Expectation(line, column, match["code"], match["fragment"], forbid)


def describe(diagnostics) -> str:
    return "\n".join(f"  [{d.severity} {d.code}] {d.format()}" for d in diagnostics) or "  (none)"


def text_of(d) -> str:
    return d.message + ("\n" + d.hint if d.hint else "")


def test_the_corpus_is_large_enough_and_every_file_has_an_expectation():
    assert len(CASES) >= 45
    for path in CASES:
        expectation(path)
    for sidecar in BROKEN.glob("*.expect"):
        assert [p for p in CASES if p.stem == sidecar.stem], f"{sidecar.name} has no ruleset"


#: check_path of each corpus file by its path as the CLI gets it (see :func:`checked`)
_CHECKED: dict[str, list] = {}


def checked(path: Path | str) -> list:
    """``check_path(path)``, computed once per file for this module; a copy each time."""
    key = str(path)
    if key not in _CHECKED:
        _CHECKED[key] = check_path(path)
    return copy.deepcopy(_CHECKED[key])


@pytest.fixture
def checked_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The CLI's ``check_path`` (``rulepack.validation.check_path``) as :func:`checked`."""
    monkeypatch.setattr(rulepack.validation, "check_path", checked)


@pytest.mark.parametrize("path", CASES, ids=[p.name for p in CASES])
def test_broken_ruleset_gives_the_expected_error(path: Path):
    expected = expectation(path)
    diagnostics = checked(path)
    errors = [d for d in diagnostics if d.severity == "error"]
    assert errors, f"{path.name} is reported valid; expected {expected}\n{describe(diagnostics)}"
    assert not [d for d in errors if d.code == INTERNAL], \
        f"{path.name}: rulepack failed internally; expected {expected}\n{describe(diagnostics)}"

    def fits(d) -> bool:
        return (d.code in expected.code.split("|")
                and (expected.line is None or d.location.line == expected.line)
                and (expected.column is None or d.location.column == expected.column)
                and expected.fragment in text_of(d))

    assert any(fits(d) for d in errors), \
        f"{path.name}: expected {expected}\ngot:\n{describe(diagnostics)}"
    for d in diagnostics:
        assert d.location.file, f"{path.name}: a diagnostic without a file: {d}"
        for text in (*INTERNALS, *expected.forbid):
            assert text not in text_of(d), \
                f"{path.name}: {text!r} should not appear in:\n{describe([d])}"


# ---------------------------------------------------------------------- the command line
def run(*args: str):
    return CliRunner().invoke(main, list(args))


def test_cli_reports_every_broken_file_without_a_traceback(checked_once: None):
    paths = [str(p) for p in CASES]
    result = run("validate", *paths)
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        f"validate raised {result.exception!r}"
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    for path in paths:
        assert f"{path}:" in result.output, f"{path} is not reported"
        assert f"{path}: ok" not in result.output, f"{path} is reported valid"


def test_cli_json_has_errors_for_every_broken_file(checked_once: None):
    paths = [str(p) for p in CASES]
    result = run("validate", "--json", *paths)
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        f"validate --json raised {result.exception!r}"
    assert result.exit_code == 1
    entries = json.loads(result.stdout)
    assert isinstance(entries, list)
    by_file: dict[str, list[dict]] = {}
    for entry in entries:
        assert set(entry) >= {"file", "line", "column", "severity", "code", "message"}
        by_file.setdefault(entry["file"], []).append(entry)
    for path in paths:
        assert by_file.get(path), f"{path} has no entry in the JSON output"
        assert any(e["severity"] == "error" for e in by_file[path]), f"{path} has no error"
    internal = sorted(e["file"] for e in entries if e["code"] == INTERNAL)
    assert not internal, f"rulepack failed internally on {internal}"


@pytest.mark.parametrize("name", bundled_rulesets())
def test_cli_accepts_the_bundled_rulesets(name: str):
    result = run("validate", name, str(bundled_dir() / f"{name}.rules"))
    assert result.exit_code == 0, result.output
    assert f"{name}: ok" in result.output


@pytest.mark.parametrize("path", sorted((bundled_dir() / "lib").glob("*.rules")),
                         ids=lambda p: p.name)
def test_cli_accepts_the_bundled_libraries(path: Path):
    result = run("validate", str(path))
    assert result.exit_code == 0, result.output


def test_cli_accepts_the_yaml_ir_of_multzo(tmp_path: Path):
    result = run("compile", "multzo", "--format", "yaml")
    assert result.exit_code == 0, result.output
    path = tmp_path / "multzo.yaml"
    path.write_text(result.stdout, encoding="utf-8")
    result = run("validate", str(path))
    assert result.exit_code == 0, result.output


def test_cli_validate_without_paths_is_a_usage_error():
    result = run("validate")
    assert result.exit_code == 2
    assert "Traceback" not in result.output



def test_every_mistake_of_a_file_is_reported_not_only_the_first(tmp_path: Path) -> None:
    """Issue: "reports all errors in each (not only the first)". Four independent
    mistakes in the flow of one ruleset give four located errors."""
    path = tmp_path / "four.rules"
    path.write_text(
        "game g { players 2 }\n"
        "use piecepack (tile)\n"
        "zone stack: stack\n"
        "zone hand: pile per player seen by owner\n"
        "play {\n"
        "  move tile to stak face down\n"              # line 6: unknown zone
        "  let n = count(hnad[0])\n"                   # line 7: unknown zone
        "  turns from players[0] until count(stack) == 0 {\n"
        "    choose {\n"
        "      action \"draw\" { move top of stack to hand[curent] }\n"   # line 10
        "      action \"pass {n}\" for n in 1..2 { }\n"                   # line 11: shadowing
        "    }\n"
        "  }\n"
        "}\n", encoding="utf-8")
    errors = [d for d in check_path(path) if d.severity == "error"]
    assert [(d.location.line, d.code) for d in errors] == [
        (6, "unknown-name"), (7, "unknown-name"), (10, "unknown-name"), (11, "shadowing")]
    assert ["stack", "hand", "current"] == [d.hint.split("'")[1] for d in errors[:3]]
