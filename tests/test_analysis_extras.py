"""``rulepack analyze`` with its optional extras: the HTML report (marked
``analysis``: matplotlib) and a local two-worker Ray cluster (marked ``ray``),
which must give the same report as one process."""

from __future__ import annotations

import base64
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

import rulepack
from rulepack.analysis.analyze import analyze
from rulepack.analysis.runner import Backend
from rulepack.cli.main import main
from rulepack.errors import RulepackError

LEAD = str(Path(__file__).parent / "data" / "analysis" / "lead.rules")


@pytest.mark.analysis
def test_html_report_is_one_self_contained_page_with_four_plots(tmp_path: Path):
    page = tmp_path / "report.html"
    result = CliRunner().invoke(main, ["analyze", "packkub", "-n", "2", "--games", "2",
                                       "-o", "rounds=1", "--compare-option", "jokers=0,2",
                                       "--html", str(page)])
    assert result.exit_code == 0, result.output
    text = page.read_text(encoding="utf-8")
    images = re.findall(r"src='data:image/png;base64,([^']+)'", text)
    assert len(images) == 4
    assert all(base64.b64decode(b).startswith(b"\x89PNG") for b in images)
    assert not re.search(r"(src|href)=['\"](?!data:)", text)     # nothing to fetch
    # the rule coverage names rules by file and line: PackKub's "pass" alternative among them
    source = (Path(rulepack.__file__).parent / "rulesets" / "packkub.rules").read_text()
    line = next(i for i, text_line in enumerate(source.splitlines(), 1)
                if 'action "pass"' in text_line)
    for words in ("Length", "Win rate per seat", "Branching factor by turn", "Rule coverage",
                  "rounds=1 jokers=0", "rounds=1 jokers=2", f"packkub.rules:{line}"):
        assert words in text


@pytest.mark.ray
def test_a_local_two_worker_ray_cluster_gives_the_same_report(tmp_path: Path):
    game = rulepack.load("multzo")
    local = analyze(game, 12, ["random"] * 3, seed=7)
    on_ray = analyze(game, 12, ["random"] * 3, seed=7, backend=Backend(jobs=2, cluster="ray"),
                     out=tmp_path / "ray.jsonl")
    assert json.dumps(on_ray) == json.dumps(local)
    assert len((tmp_path / "ray.jsonl").read_text().splitlines()) == 13
    boom = tmp_path / "boom.rules"
    boom.write_text("game boom { players 2 }\nvar roll = 0\nplay {\n  set roll = random(1..6)\n"
                    "  set roll = 6 // (roll - 1)\n  end game winners players[0]\n}\n")
    with pytest.raises(RulepackError) as info:
        analyze(rulepack.load(str(boom)), 20, ["random"] * 2,
                backend=Backend(jobs=2, cluster="ray"))
    assert info.value.diagnostics[0].location.line == 5
    assert "play it with --seed" in info.value.diagnostics[-1].message


@pytest.mark.slow
def test_the_worked_example_of_docs_analysis_md_prints_what_the_page_shows():
    """Every line of the worked example's output block in docs/analysis.md is printed
    by the command above it today (2000 games: in the slow step)."""
    page = (Path(__file__).parent.parent / "docs" / "analysis.md").read_text(encoding="utf-8")
    section = page[page.index("## A worked example"):]
    command = re.search(r"```sh\nrulepack (analyze [^\n]+)\n```", section)
    shown = re.search(r"```text\n(.*?)```", section, re.S)
    assert command and shown
    result = CliRunner().invoke(main, command.group(1).split(), env={"COLUMNS": "160"})
    assert result.exit_code == 0, result.output
    printed = " ".join(result.output.split())      # a table's title wraps at its width
    for line in shown.group(1).splitlines():
        assert " ".join(line.split()) in printed, line
