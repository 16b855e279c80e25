"""A smoke run of benchmarks/compare.py: its plumbing, not its figures.

The run is tiny (a few games of Mismemory and the examples, against a stand-in
reference written here); the figures themselves are for the benchmark to report.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

COMPARE = Path(__file__).resolve().parent.parent / "benchmarks" / "compare.py"

#: A stand-in for mismemory_ref.py: a "game" of a fixed number of decisions.
STAND_IN = '''
def play(players, rng):
    rng.random()
    return None, 140
'''


@pytest.fixture(scope="module")
def compare():
    spec = importlib.util.spec_from_file_location("compare", COMPARE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_quick_run_reports_every_contender(compare, tmp_path: Path, capsys):
    (tmp_path / "mismemory_ref.py").write_text(STAND_IN, encoding="utf-8")
    code = compare.main(["--quick", "--only", "mismemory,tic-tac-toe", "--seconds", "0.02",
                         "--rounds", "1", "--reference-dir", str(tmp_path), "--json"])
    assert code == 0
    report = json.loads(capsys.readouterr().out)
    row = report["references"]["mismemory"]
    assert row["reference"]["decisions_per_game"] == 140
    for side in ("engine", "simulate"):
        assert row[side]["games"] >= 1
        # Mismemory for two takes over a hundred decisions (random play), far from 0
        assert 60 < row[side]["decisions_per_game"] < 400
        assert row["ratios"][side] == pytest.approx(
            row[side]["games_per_second"] / row["reference"]["games_per_second"])
    if "tic-tac-toe" in report["skipped"]:
        assert "open_spiel" in report["skipped"]["tic-tac-toe"]
    else:
        for side in ("openspiel", "engine", "simulate"):
            assert 5 <= report["tic-tac-toe"][side]["decisions_per_game"] <= 9


def test_a_missing_reference_is_skipped_with_a_message(compare, tmp_path: Path, capsys):
    code = compare.main(["--only", "mismemory", "--reference-dir", str(tmp_path)])
    assert code == 0
    out = capsys.readouterr().out
    assert "mismemory: skipped: no reference" in out and "--reference-dir" in out
