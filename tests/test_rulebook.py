"""The rules in plain English (issue 36): every construct of the language has an
English form (:mod:`rulepack.rulebook.english`; one without is an error, never code
shown instead), the rulebook of every bundled ruleset says each of its rules (by the
source positions its lines carry), ``rulepack rulebook`` writes Markdown, HTML and
PDF, and ``docs/rulebooks/`` is what the rulesets give now."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

import rulepack
import rulepack.errors
from rulepack.cli.main import main
from rulepack.grammar.parser import parse_rules
from rulepack.loader import bundled_rulesets
from rulepack.rulebook.book import nodes, rule_positions, rulebook
from rulepack.rulebook.english import English, NoEnglish

ROOT = Path(__file__).resolve().parent.parent
EVERYTHING = ROOT / "tests" / "data" / "schema" / "everything.rules"


def everything() -> dict:
    return parse_rules(EVERYTHING.read_text(encoding="utf-8"), str(EVERYTHING))


def test_every_construct_of_the_language_has_english() -> None:
    """tests/data/schema/everything.rules holds every construct once (test_schema
    checks it against the schema): each expression, statement and declaration of it
    renders, and none as code."""
    ir = everything()
    english = English(ir)
    said = []
    for node in nodes([ir.get("setup"), ir.get("play"), [p["body"] for p in ir["phases"]]]):
        k = node.get("k")
        if k in ("lit", "name", "op", "call", "attr", "index", "list", "tuple", "map", "range",
                 "comp", "where", "sort", "top", "argmax", "run") or \
                (k == "if" and not isinstance(node.get("then"), list)):
            said.append(english.phrase(node))
        elif k == "action":
            said += [ln.text for ln in english.action(node, 0)]
        elif k is not None:
            said += [ln.text for ln in english.statement(node)]
    for z in ir["zones"]:
        said.append(english.zone(z).text)
    for p in ir["patterns"]:
        said.append(english.pattern(p).text)
    for key, fn in (("constants", english.constant), ("variables", english.variable),
                    ("options", english.option), ("requirements", english.requirement)):
        said += [fn(d).text for d in ir[key]]
    said += [english.score(ir["score"]).text, english.winner(ir["winner"]).text]
    assert said
    for text in said:
        # no code leaks through: no brackets of lists, no ==, no snake_case names
        assert not re.search(r"==|!=|\[\w|\bfor \w+ in \w+\(", text), text


def test_a_construct_without_english_is_an_error() -> None:
    english = English(everything())
    with pytest.raises(NoEnglish, match="teleport"):
        english.statement({"k": "teleport", "at": [1, 1]})
    with pytest.raises(NoEnglish, match="warp"):
        english.phrase({"k": "warp"})
    with pytest.raises(NoEnglish, match="'xor'"):
        english.phrase({"k": "op", "op": "xor", "args": []})


@pytest.mark.parametrize("name", bundled_rulesets())
def test_the_rulebook_says_every_rule(name: str) -> None:
    game = rulepack.load(name)
    book = rulebook(game, pictures=False)
    rules = rule_positions(game.ir)
    assert rules, name
    missing = sorted(rules - book.positions())
    assert not missing, f"{name}: rules at {missing} are not in the rulebook"


def test_a_rule_left_out_is_found() -> None:
    """The check above can fail: a rulebook that drops a section misses its rules."""
    game = rulepack.load("multzo")
    book = rulebook(game, pictures=False)
    book.sections = [s for s in book.sections if s.title != "The showdown"]
    assert rule_positions(game.ir) - book.positions()


def test_english_reads_as_english() -> None:
    text = "\n".join(ln.text for s in rulebook(rulepack.load("multzo"), 3,
                                               pictures=False).sections for ln in s.lines)
    assert "**flush**: four pieces, all of the same suit." in text
    assert "**run**: three or four pieces, of consecutive ranks" in text
    assert "“draw {t} from the discards”, for each *t* in the pieces of the discards such " \
           "that it is face up:" in text
    # an option's value, not its name (PackKub: after 4 rounds, not "rounds rounds")
    packkub = rulebook(rulepack.load("packkub"), pictures=False)
    lines = [ln.text for s in packkub.sections for ln in s.lines]
    assert any("Play 4 rounds" in t for t in lines), lines[:10]


def test_the_cli_writes_markdown_and_refuses_other_files(tmp_path: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(main, ["rulebook", "tic-tac-toe"])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("# Tic-Tac-Toe")
    assert "## Play" in result.output
    result = runner.invoke(main, ["rulebook", "tic-tac-toe", "-o", str(tmp_path / "ttt.doc")])
    assert result.exit_code == 1
    assert "a rulebook is written as .md, .html or .pdf, not .doc" in result.output
    result = runner.invoke(main, ["rulebook", "multzo", "-n", "9"])
    assert result.exit_code == 1 and "Traceback" not in result.output


@pytest.mark.render
def test_html_and_markdown_rulebooks_with_pictures(tmp_path: Path) -> None:
    pytest.importorskip("drawsvg")
    runner = CliRunner()
    out = tmp_path / "ttt.html"
    result = runner.invoke(main, ["rulebook", "tic-tac-toe", "-o", str(out)])
    assert result.exit_code == 0, result.output
    page = out.read_text(encoding="utf-8")
    assert "<svg" in page and "<h2>Setup</h2>" in page
    # self-contained: nothing fetched from elsewhere
    assert not re.search(r"""(src|href)=["']?(https?:|//)""", page)
    md = tmp_path / "ttt.md"
    result = runner.invoke(main, ["rulebook", "tic-tac-toe", "-o", str(md)])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "ttt-1.svg").exists() and "](ttt-1.svg)" in md.read_text(encoding="utf-8")


@pytest.mark.browser
def test_a_pdf_rulebook(tmp_path: Path) -> None:
    pytest.importorskip("selenium")
    pytest.importorskip("drawsvg")
    out = tmp_path / "pig.pdf"
    result = CliRunner().invoke(main, ["rulebook", "pig", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert out.read_bytes().startswith(b"%PDF")


@pytest.mark.render
@pytest.mark.parametrize("name", bundled_rulesets())
def test_docs_rulebooks_are_up_to_date(name: str) -> None:
    """docs/rulebooks/<name>.md and its pictures are what tests/rulebooks.py writes now."""
    pytest.importorskip("drawsvg")
    import sys
    sys.path.insert(0, str(ROOT / "tests"))
    from rulebooks import FOLDER, expected
    for file, text in expected(name).items():
        path = FOLDER / file
        assert path.exists() and path.read_text(encoding="utf-8") == text, \
            f"docs/rulebooks/{file} is out of date: run .venv/bin/python tests/rulebooks.py"


@pytest.mark.parametrize("name", bundled_rulesets())
def test_every_game_says_in_english_how_it_ends_and_why_it_ended(name: str) -> None:
    """The screen's header lines (Ends/Wins) and, at the end of a random game, why it
    ended: English with no code in it (issue 36, item 3)."""
    from rulepack.engine.rng import Rng
    from rulepack.rulebook.screen import ending_lines, why_ended
    game = rulepack.load(name)
    lines = ending_lines(game, game.min_players, {})
    assert lines[-1].startswith("Wins: ")
    for line in lines:
        assert not re.search(r"==|!=|\(\w+\)|\bfor \w+ in \w+\(", line), line
    state = game.new_game(game.min_players, seed=2)
    rng = Rng(2)
    while not state.is_terminal() and state.decisions < 3000:
        actions = state.legal_actions()
        state.apply(actions[rng.below(len(actions))])
    if state.is_terminal():
        why = why_ended(game, state, {})
        assert why is not None and why.startswith("The game ended"), (name, why)
        assert state.position.ended is not None


def test_the_rule_that_ended_the_game_is_kept_with_the_position() -> None:
    """An 'end game' keeps where it stands; a play that runs out, its last statement."""
    ttt = rulepack.load("tic-tac-toe")
    state = ttt.new_game(seed=0)
    for text in ("a1", "b1", "a2", "b2", "a3"):
        state.apply(next(a for a in state.legal_actions() if text in a.text))
    assert state.is_terminal()
    line = (ROOT / "rulepack" / "rulesets" / "tic-tac-toe.rules").read_text().splitlines()[
        state.position.ended[0] - 1]
    assert "end game" in line
    packkub = rulepack.load("packkub")
    state = packkub.new_game(2, seed=1, options={"rounds": "1"})
    from rulepack.engine.rng import Rng
    rng = Rng(1)
    while not state.is_terminal():
        actions = state.legal_actions()
        state.apply(actions[rng.below(len(actions))])
    last = packkub.ir["play"][-1]
    assert state.position.ended == last["at"]


def _other_rulesets() -> list[tuple[str, str]]:
    """The tests' ruleset files and the docs' complete games (``check: game`` blocks
    of language.md and tutorial.md, the tutorial's hightide.rules): (where, text)."""
    out = [(str(p.relative_to(ROOT)), p.read_text(encoding="utf-8"))
           for p in sorted((ROOT / "tests" / "data").rglob("*.rules"))]
    fence = re.compile(r"<!-- check: game[^>]*-->\s*\n```rules\n(.*?)^```$", re.S | re.M)
    for doc in ("language.md", "tutorial.md"):
        text = (ROOT / "docs" / doc).read_text(encoding="utf-8")
        for m in fence.finditer(text):
            if "error" not in text[m.start():m.start() + 80]:
                out.append((f"docs/{doc}:{text.count(chr(10), 0, m.start()) + 1}", m.group(1)))
    return out


@pytest.mark.parametrize("where, text", _other_rulesets(), ids=lambda x: x if "/" in x else "")
def test_the_rulebooks_of_the_docs_and_tests_rulesets_say_every_rule(where: str,
                                                                     text: str) -> None:
    try:
        game = rulepack.loads(text, where)
    except rulepack.errors.RulepackError:       # (a ruleset kept to fail a check)
        pytest.skip(f"{where} does not compile")
    book = rulebook(game, pictures=False, examples=False)
    missing = sorted(rule_positions(game.ir) - book.positions())
    assert not missing, f"{where}: rules at {missing} are not in the rulebook"


@pytest.mark.parametrize("name", bundled_rulesets())
def test_the_short_rules_screen_of_every_game(name: str) -> None:
    from rulepack.rulebook.screen import plain, short_rules
    game = rulepack.load(name)
    text = plain(short_rules(game, game.min_players, {}))
    assert "Play" in text and "The end of the game" in text
    assert "**" not in text and not re.search(r"==|!=|\w\(\w", text)
