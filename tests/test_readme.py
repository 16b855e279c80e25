"""Every code block of README.md runs.

The ``python`` blocks run in a fresh interpreter that must finish within a minute;
every command of the ``sh`` blocks runs, in order, in one scratch folder, through the
click application, and must exit with 0. To keep the suite fast and self-contained,
a few things are adapted, each for a stated reason (``ADAPTED``):

* ``--games N`` becomes ``--games 2`` (simulate and analyze play two games, not N);
* a human seat answers ``q``: the game is quit at its first question and recorded;
* ``my-game.rules`` is a copy of the bundled Tic-Tac-Toe, ``RECORD`` the record left by
  the quit game above, ``game.jsonl`` the record an earlier README command writes;
* setting up the environment (``python3 -m venv``, ``. .venv/bin/activate``, ``pip
  install``) and ``python -m pytest`` are what this test runs inside, not run again;
  ``rulepack lsp`` is a server on stdin, driven by tests/test_lsp.py.
  ``rulepack serve`` is a web server that runs until stopped, driven by tests/test_serve.py.

Commands that need an optional extra (``render``, ``replay --html``: the render
extra; ``analyze --html``: the analysis extra) run in the tests marked for it.
"""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import rulepack
from rulepack.cli.main import main

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
_FENCE = re.compile(r"^```(\w*)\n(.*?)^```$", re.S | re.M)

#: Shell commands this test does not run, with why (see the module docstring).
NOT_RUN = {
    "python3 -m venv": "the environment this test runs in",
    ". .venv/bin/activate": "the environment this test runs in",
    "pip install": "the environment this test runs in",
    "python -m pytest": "the test suite itself",
    "rulepack lsp": "a server on stdin: tests/test_lsp.py drives it",
    "rulepack serve": "a web server that runs until stopped: tests/test_serve.py drives it",
}

#: What each extra's commands look like, and the pytest marker of their tests.
EXTRAS = {"render": re.compile(r"^rulepack (render|replay .*--html)"),
          "analysis": re.compile(r"^rulepack analyze .*--html")}


def blocks(lang: str) -> list[str]:
    return [m.group(2) for m in _FENCE.finditer(README.read_text(encoding="utf-8"))
            if m.group(1) == lang]


def commands() -> list[str]:
    """Every command of the README's sh blocks, comments dropped, ``&&`` split."""
    out = []
    for block in blocks("sh"):
        for line in block.splitlines():
            line = re.sub(r"\s+#.*$", "", line).strip()
            out.extend(c.strip() for c in line.split("&&") if c.strip())
    return out


def extra_of(command: str) -> str | None:
    return next((name for name, pattern in EXTRAS.items() if pattern.search(command)), None)


def adapted(command: str, folder: Path) -> tuple[list[str], str | None]:
    """The arguments the command runs with here, and the keyboard input it gets."""
    args = shlex.split(command)[1:]
    for i, arg in enumerate(args[:-1]):
        if arg in ("--games", "-g") and args[0] in ("simulate", "analyze"):
            args[i + 1] = "2"
    if args[0] in ("simulate", "analyze") and "--games" not in args and "-g" not in args:
        args += ["--games", "2"]
    records = sorted((folder / "records").glob("*.jsonl"))
    args = [str(records[-1]) if a == "RECORD" and records else a for a in args]
    humans = [i for i, a in enumerate(args) if a == "--seat" and args[i + 1] == "human"]
    no_seat = args[0] == "play" and "--seat" not in args and "--players" not in args
    human = bool(humans) or no_seat or args[0] == "resume"
    return args, ("q\n" if human else None)


def run_commands(folder: Path, monkeypatch: pytest.MonkeyPatch, extras: set[str]) -> int:
    """Run the README's commands in ``folder``; returns how many ran."""
    monkeypatch.chdir(folder)
    monkeypatch.setenv("RULEPACK_RECORDS", str(folder / "records"))
    source = Path(rulepack.__file__).parent / "rulesets" / "tic-tac-toe.rules"
    (folder / "my-game.rules").write_text(source.read_text(encoding="utf-8"), encoding="utf-8")
    # the PPN record the worked example imports, where the README's path says
    record = Path(__file__).parent / "data" / "ppn" / "four-field-kono.ppn"
    (folder / "tests" / "data" / "ppn").mkdir(parents=True)
    (folder / "tests" / "data" / "ppn" / record.name).write_bytes(record.read_bytes())
    ran = 0
    for command in commands():
        if any(command.startswith(prefix) for prefix in NOT_RUN):
            continue
        assert command.startswith("rulepack "), f"README runs {command!r}: add it to NOT_RUN?"
        extra = extra_of(command)
        if extra is not None and extra not in extras:
            continue
        args, keys = adapted(command, folder)
        result = CliRunner().invoke(main, args, input=keys)
        assert result.exit_code == 0, f"{command!r} (run as {args}) exited " \
            f"{result.exit_code}:\n{result.output}\n{result.exception!r}"
        ran += 1
    return ran


def test_the_readme_has_code_to_run():
    assert blocks("python") and len(commands()) > 20


def test_readme_python_blocks_run_to_the_end():
    for block in blocks("python"):
        done = subprocess.run([sys.executable, "-c", block], capture_output=True, text=True,
                              timeout=60, cwd=ROOT)
        assert done.returncode == 0, done.stderr
        assert "'terminal': True" in done.stdout, done.stdout


def test_readme_commands_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    ran = run_commands(tmp_path, monkeypatch, set())
    needing_an_extra = sum(1 for c in commands() if extra_of(c) is not None)
    assert ran >= len(commands()) - len(NOT_RUN) - needing_an_extra


@pytest.mark.render
def test_readme_commands_needing_the_render_extra_run(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch):
    assert run_commands(tmp_path, monkeypatch, {"render"}) > 0


@pytest.mark.analysis
def test_readme_commands_needing_the_analysis_extra_run(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch):
    assert run_commands(tmp_path, monkeypatch, {"analysis"}) > 0
