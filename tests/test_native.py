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
    from rulepack.engine import rng
    assert lines[2] == "random numbers: " + rng.describe()
    from rulepack.engine import native as engine_native
    assert lines[3] == "moves: " + engine_native.describe("moves")
    assert lines[4] == "history log: " + engine_native.describe("log")


# ------------------------------------------------------------------ the random number generator
from rulepack.engine import rng  # noqa: E402


@pytest.mark.skipif(rng.Rng is rng.PyRng, reason="the generator is not compiled here "
                    "(RULEPACK_PURE_PYTHON=1, or built without mypyc)")
def test_the_compiled_generator_gives_the_python_generators_numbers():
    """rulepack/engine/splitmix.py (64-bit words) and rng.PyRng (Python integers):
    the same draws, shuffles and states from the same seeds, whatever the bound."""
    import random
    pick = random.Random(7)
    bounds = [1, 2, 3, 7, 24, 1000, 2**31, 2**62, 2**62 + 1, 2**63 + 7, 2**64, 2**70]
    for seed in (0, 1, 5, 2**63, 2**64 - 1, 2**64 + 5, -3, 12345678901234567):
        a, b = rng.PyRng(seed), rng.Rng(seed)
        assert a.state == b.state
        for k in range(500):
            n = pick.choice(bounds)
            assert a.below(n) == b.below(n), (seed, k, n)
            xs = list(range(k % 60))
            ys = list(xs)
            a.shuffle(xs)
            b.shuffle(ys)
            assert xs == ys
            weights = [pick.randint(0, 5) for _ in range(4)] + [1]
            assert a.weighted(weights) == b.weighted(weights)
            assert a.choice("abcdefg") == b.choice("abcdefg")
            assert a.roll(range(6), None, "die") == b.roll(range(6), None, "die")
        assert a.state == b.state
        c = b.clone()
        assert c.state == b.state and c.below(99) == b.below(99)
        a.state = b.state = 77                  # as a restored game sets it
        assert a.state == b.state == 77 and a.below(10**9) == b.below(10**9)
    with pytest.raises(ValueError):
        rng.Rng(1).below(0)


def test_the_generator_is_python_when_the_build_is_stale_or_refused(monkeypatch):
    monkeypatch.setenv("RULEPACK_PURE_PYTHON", "1")
    assert rng.compiled_generator() is None
    monkeypatch.delenv("RULEPACK_PURE_PYTHON")
    monkeypatch.setattr(native, "stale", lambda where, names: list(names))
    assert rng.compiled_generator() is None


@pytest.mark.skipif(rng.Rng is rng.PyRng, reason="the generator is not compiled here")
def test_an_edited_generator_source_is_not_used_compiled(tmp_path):
    """A copy of the installed package draws with the compiled generator; once
    splitmix.py is edited, with the Python one (and the same numbers)."""
    copy = tmp_path / "rulepack"
    shutil.copytree(PACKAGE_DIR, copy, ignore=shutil.ignore_patterns("__pycache__"))
    probe = ("from rulepack.engine import rng; r = rng.Rng(5); "
             "print(rng.describe().split()[0], [r.below(10) for _ in range(5)])")
    environ = {k: v for k, v in os.environ.items() if k != "RULEPACK_PURE_PYTHON"}
    environ.update(PYTHONPATH=str(tmp_path))

    def run() -> str:
        done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                              env=environ, cwd=tmp_path, timeout=120)
        assert done.returncode == 0, done.stderr
        return done.stdout.strip()
    first = run()
    assert first.startswith("compiled ")
    source = copy / "engine" / "splitmix.py"
    source.write_text(source.read_text() + "\n# edited after the build\n")
    second = run()
    assert second.startswith("pure ") and second.split(" ", 1)[1] == first.split(" ", 1)[1]


def test_an_explicit_chance_generator_copies_and_pickles_whole():
    """ExplicitRng keeps its own fields through copy and pickle, on either base."""
    import copy
    import pickle

    from rulepack.engine.chance import ExplicitRng
    r = ExplicitRng(9, [1, 2])
    r.pos = 1
    for twin in (copy.deepcopy(r), pickle.loads(pickle.dumps(r)), copy.copy(r)):
        assert (twin.state, twin.queue, twin.pos) == (9, [1, 2], 1)
    state = rulepack.load("pig").new_game(2, seed=3, chance="explicit")
    assert copy.deepcopy(state).to_json() == state.to_json()
    plain = rng.PyRng(4)
    assert type(plain.clone()) is rng.PyRng
    assert pickle.loads(pickle.dumps(plain)).state == plain.state


# ------------------------------------------------------------------ the engine's moves
from rulepack.engine import native as engine_native  # noqa: E402

MOVES_PROBE = ("import rulepack, rulepack.engine.native as n, rulepack.engine.moves as m; "
               "g = rulepack.load('multzo'); st = g.new_game(players=3, seed=1); "
               "st.apply(st.legal_actions()[0]); print(n.compiled(), m.__file__)")


def run_moves_probe(path: Path, **env: str) -> list[str]:
    """``compiled()`` and moves' file, in a fresh process importing rulepack from ``path``."""
    environ = {k: v for k, v in os.environ.items() if k != "RULEPACK_PURE_PYTHON"}
    environ.update(PYTHONPATH=str(path), **env)
    done = subprocess.run([sys.executable, "-c", MOVES_PROBE], capture_output=True,
                          text=True, env=environ, cwd=path, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


def test_the_moves_run_from_their_source_when_asked():
    compiled, where = run_moves_probe(PACKAGE_DIR.parent, RULEPACK_PURE_PYTHON="1")
    assert compiled == "False" and where.endswith("moves.py")


@pytest.mark.skipif(not engine_native.compiled(), reason="the moves are not compiled here "
                    "(RULEPACK_PURE_PYTHON=1, or built without mypyc)")
def test_an_edited_moves_source_is_used_instead_of_its_stale_build(tmp_path):
    """A copy of the installed package moves pieces compiled; once moves.py is
    edited, the same copy runs it from its source."""
    copy = tmp_path / "rulepack"
    shutil.copytree(PACKAGE_DIR, copy, ignore=shutil.ignore_patterns("__pycache__"))
    compiled, where = run_moves_probe(tmp_path)
    assert compiled == "True" and not where.endswith(".py")
    source = copy / "engine" / "moves.py"
    source.write_text(source.read_text() + "\n# edited after the build\n")
    compiled, where = run_moves_probe(tmp_path)
    assert compiled == "False" and where == str(source)


def test_mixed_seeds_stay_the_same():
    """mix_seed (every game's and bot's seed) gives the numbers it always gave:
    values worked out by the implementation before it was written inline."""
    from rulepack.engine.rng import mix_seed
    assert [mix_seed(1, "game", 0), mix_seed(2**70, "agent", 3), mix_seed(-5, "x", "é"),
            mix_seed()] == [13995567150305232825, 7326187994558638947, 9441008331041445211,
                            2611923443488327891]
