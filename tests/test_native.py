"""The compiled pattern searches (setup.py, rulepack/patterns/native.py): a
build older than its sources is never used, and RULEPACK_PURE_PYTHON=1 runs
the sources."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import rulepack
from rulepack.patterns import native

PACKAGE_DIR = Path(rulepack.__file__).resolve().parent

PROBE = ("import rulepack, rulepack.patterns.native as n, rulepack.patterns.sweep as s; "
         "g = rulepack.load('packkub'); st = g.new_game(players=2, seed=1); "
         "assert st.legal_actions(); print(n.compiled(), n.REASON, s.__file__)")


def run_probe(path: Path, **env: str) -> list[str]:
    """``compiled()``, the reason and sweep's file, in a fresh process that
    imports rulepack from ``path``."""
    environ = {k: v for k, v in os.environ.items() if k != "RULEPACK_PURE_PYTHON"}
    environ.update(PYTHONPATH=str(path), **env)
    done = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True,
                          env=environ, cwd=path, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


def write_sources(where: Path, texts: dict[str, str]) -> None:
    for name, text in texts.items():
        (where / f"{name}.py").write_text(text)
    sums = {name: hashlib.sha256(text.encode()).hexdigest() for name, text in texts.items()}
    (where / "native.sums").write_text(json.dumps(sums))


def test_stale_lists_the_sources_edited_since_the_build(tmp_path):
    write_sources(tmp_path, {"a": "x = 1\n", "b": "y = 2\n"})
    assert native.stale(tmp_path, ("a", "b")) == []
    (tmp_path / "b.py").write_text("y = 3\n")
    assert native.stale(tmp_path, ("a", "b")) == ["b"]
    (tmp_path / "a.py").unlink()
    assert native.stale(tmp_path, ("a", "b")) == ["a", "b"]


def test_without_sums_every_source_counts_as_stale(tmp_path):
    (tmp_path / "a.py").write_text("x = 1\n")
    assert native.stale(tmp_path, ("a",)) == ["a"]
    (tmp_path / "native.sums").write_text("not json")
    assert native.stale(tmp_path, ("a",)) == ["a"]


def test_the_sources_first_finder_imports_the_py_file(tmp_path):
    (tmp_path / "m.py").write_text("WHERE = 'source'\n")
    finder = native._SourcesFirst("pkg", tmp_path, ("m",))
    spec = finder.find_spec("pkg.m")
    assert spec is not None and spec.origin == str(tmp_path / "m.py")
    assert finder.find_spec("pkg.other") is None


def test_pure_python_is_chosen_by_the_environment(tmp_path):
    compiled, *reason = run_probe(PACKAGE_DIR.parent, RULEPACK_PURE_PYTHON="1")
    assert compiled == "False"
    assert reason[-1].endswith("sweep.py")


@pytest.mark.skipif(not native.compiled(), reason="the pattern searches are not compiled "
                    "here (RULEPACK_PURE_PYTHON=1, or built without mypyc)")
def test_an_edited_source_is_used_instead_of_its_stale_build(tmp_path):
    """A copy of the installed package runs compiled; after one source is
    edited, the same copy runs every pattern module from its source."""
    copy = tmp_path / "rulepack"
    shutil.copytree(PACKAGE_DIR, copy, ignore=shutil.ignore_patterns("__pycache__"))
    for lib in PACKAGE_DIR.glob("patterns__mypyc*"):
        shutil.copy(lib, copy / lib.name)
    compiled, *rest = run_probe(tmp_path)
    assert compiled == "True" and not rest[-1].endswith(".py")
    sweep = copy / "patterns" / "sweep.py"
    sweep.write_text(sweep.read_text() + "\n# edited after the build\n")
    compiled, *rest = run_probe(tmp_path)
    assert compiled == "False"
    assert "sweep.py" in " ".join(rest[:-1]) and rest[-1] == str(sweep)


def test_version_tells_whether_the_searches_run_compiled():
    """``rulepack --version`` says whether the pattern searches run compiled, as
    :func:`native.compiled` finds them in the same process."""
    from click.testing import CliRunner

    from rulepack.cli.main import main
    done = CliRunner().invoke(main, ["--version"])
    assert done.exit_code == 0
    lines = done.output.splitlines()
    assert lines[0] == f"rulepack, version {rulepack.__version__}"
    assert lines[1] == "pattern searches: " + native.describe()
    assert ("compiled (mypyc)" in lines[1]) == native.compiled()
