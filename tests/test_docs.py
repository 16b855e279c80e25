"""The documentation, checked against the code.

* ``docs/language.md`` and ``docs/tutorial.md``: every fenced ``rules`` or ``python``
  block is preceded by an HTML comment saying how it is checked
  (``<!-- check: KIND ... -->``, see "How the examples are checked" in
  docs/language.md). Rules blocks are compiled with ``rulepack.loads`` and played
  to the end with random legal actions (smallest and largest player count, two
  seeds); a ``# = value`` comment after ``let x = ...`` / ``set x = ...`` is the
  value ``x`` has just after that line first runs (seed 0, smallest player
  count). A block marked ``error "TEXT"`` must fail with a message containing
  TEXT. Python blocks run in order, in a folder holding the tutorial's game.
  ``text`` blocks marked ``output of "rulepack ..."`` must show lines the command
  prints, in order (``...`` skips lines). ``docs/agents.md``'s Python blocks run alike.
* Every ruleset under ``docs/`` (a ``.rules`` file, or one a page builds from blocks
  marked ``part of NAME.rules``) passes ``rulepack fmt --check`` and ``validate``; the
  options and keys the pages name are the program's.
* ``docs/rulings.md``: every ruling has an **Applied:** note, and every quote in its
  notes (code in backticks; words in double quotes, from the comments) is still in the
  ruleset it quotes, comments included: the ruleset of the ruling's section (G and M:
  ``multzo.rules``, and for G1 also the piecepack library; P: ``packkub.rules``; X:
  ``multiplay.rules``; Y: ``mismemory.rules``), or the one a note names (``**Applied
  in Mismemory:**``); every ruling that a bundled ruleset cites is in docs/rulings.md;
  and where the project's shared RULINGS.md is at hand (``../shared`` next to the
  repository, or ``/work/shared``), the ruling texts are the same as there. The texts
  live in docs/rulings.md, so the suite also runs on a clean clone without
  ``../shared``.
"""

from __future__ import annotations

import os
import re
import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import rulepack
from rulepack.errors import RulepackError
from rulepack.engine.rng import Rng
from rulepack.engine.values import Piece, Player, player_name

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
RULESETS = Path(rulepack.__file__).resolve().parent / "rulesets"
SHARED_RULINGS = [ROOT.parent / "shared" / "RULINGS.md", Path("/work/shared/RULINGS.md")]

#: Decisions a documentation example may take before its random playout is cut short.
MAX_STEPS = 500
SEEDS = (0, 1)
KINDS = {"context", "game", "declarations", "statements", "tutorial", "python", "output"}


# ---------------------------------------------------------------------- reading the docs

@dataclass
class Block:
    """One fenced block of a document and the check its marker asks for."""

    doc: str
    line: int
    lang: str
    text: str
    kind: str | None        # from the marker; None if the block has no marker
    spec: str                # the whole marker text

    @property
    def where(self) -> str:
        return f"docs/{self.doc}:{self.line}"

    @property
    def error(self) -> str | None:
        m = re.search(r'\berror "(.*)"', self.spec)
        return m.group(1) if m else None


_FENCE = re.compile(r"^```(\w*)\n(.*?)^```$", re.S | re.M)
_MARKER = re.compile(r"<!-- check: (.*?) -->\s*$")


def read_blocks(doc: str) -> list[Block]:
    text = (DOCS / doc).read_text(encoding="utf-8")
    out = []
    for m in _FENCE.finditer(text):
        line = text.count("\n", 0, m.start()) + 1
        before = text[:m.start()].rstrip("\n").rsplit("\n", 1)[-1]
        marker = _MARKER.match(before.strip())
        spec = marker.group(1) if marker else ""
        kind = re.split(r"[ ,]", spec, maxsplit=1)[0] if marker else None
        out.append(Block(doc, line, m.group(1), m.group(2), kind, spec))
    return out


def checked(doc: str, lang: str) -> list[Block]:
    return [b for b in read_blocks(doc) if b.lang == lang]


def test_every_rules_and_python_block_has_a_known_marker():
    for doc in ("language.md", "tutorial.md", "agents.md"):
        for b in read_blocks(doc):
            if b.lang in ("rules", "python"):
                assert b.kind in KINDS, f"{b.where}: a {b.lang} block needs <!-- check: ... -->"
            if b.kind is not None:
                assert b.kind in KINDS, f"{b.where}: unknown check {b.spec!r}"


# ---------------------------------------------------------------------- playing examples

_CHECK = re.compile(r"^(\s*)(?:let|set) (\w+) = .*?#\s*=\s*(.+?)\s*$")
LOG = "doccheck_log"


def with_value_checks(text: str) -> tuple[str, list[tuple[str, str]]]:
    """The block with a logging statement after each ``# = value`` line, and the
    (name, expected value) pairs in order."""
    lines, checks = [], []
    for line in text.splitlines():
        lines.append(line)
        m = _CHECK.match(line)
        if m:
            indent, name, want = m.groups()
            lines.append(f"{indent}set {LOG} = {LOG} + [({len(checks)}, {name})]")
            checks.append((name, want))
    return "\n".join(lines) + "\n", checks


def render(value: Any, seats: tuple[str, ...]) -> str:
    """A value as the docs write it in ``# = value`` comments."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "none"
    if isinstance(value, Player):
        return player_name(value, seats)
    if isinstance(value, Piece):
        return value.name
    if isinstance(value, list):
        return "[" + ", ".join(render(x, seats) for x in value) + "]"
    if isinstance(value, tuple):
        return "(" + ", ".join(render(x, seats) for x in value) + ")"
    return str(value)


def play(game: Any, checks: list[tuple[str, str]], where: str) -> None:
    """Play the game to the end with random legal actions for each player count
    and seed, looking at every view on the way; check the logged values."""
    seen: dict[int, Any] = {}
    for n in sorted({game.min_players, game.max_players}):
        for seed in SEEDS:
            watch = checks and n == game.min_players and seed == 0
            state = game.new_game(n, seed=seed)
            rng = Rng(seed)
            for _ in range(MAX_STEPS):
                if watch:
                    for index, value in state.position.vars.get(LOG) or []:
                        seen.setdefault(index, value)
                for p in range(n):
                    state.view(p)
                if state.is_terminal():
                    break
                actions = state.legal_actions()
                state.apply(actions[rng.below(len(actions))])
            assert state.is_terminal(), f"{where}: no end after {MAX_STEPS} decisions"
            state.result()
            data = state.to_json()
            assert game.state_from_json(data).to_json() == data, where
    seats = game.instance(game.min_players).seat_names
    for index, (name, want) in enumerate(checks):
        assert index in seen, f"{where}: the line of {name} (# = {want}) never ran"
        got = render(seen[index], seats)
        assert got == want, f"{where}: {name} is {got}, the docs say {want}"


def language_cases() -> list[Block]:
    return checked("language.md", "rules")


@pytest.fixture(scope="module")
def context() -> str:
    blocks = language_cases()
    assert blocks and blocks[0].kind == "context", "the first rules block is the context"
    assert [b.kind for b in blocks].count("context") == 1
    return blocks[0].text


def source_of(block: Block, context: str) -> tuple[str, list[tuple[str, str]]]:
    """The ruleset a block is checked as, and its value checks."""
    body, checks = with_value_checks(block.text)
    log_var = f"\nvar {LOG} = []\n" if checks else ""
    if block.kind in ("context", "game"):
        return body + log_var, checks
    if block.kind == "declarations":
        return context + "\n" + body + log_var, checks
    assert block.kind == "statements", f"{block.where}: {block.spec!r}"
    inner = "\n".join("      " + line for line in body.splitlines())
    wrapped = ("play {\n  rounds 1 times {\n    turns from 0 until true {\n" + inner
               + "\n    }\n  }\n}\n")
    return context + "\n" + log_var + wrapped, checks


@pytest.mark.parametrize("block", language_cases(), ids=lambda b: b.where)
def test_language_example(block: Block, context: str):
    source, checks = source_of(block, context)
    if block.error is not None:
        with pytest.raises(RulepackError) as info:
            play(rulepack.loads(source, filename=block.where), [], block.where)
        messages = " | ".join(d.message for d in info.value.diagnostics)
        assert block.error in messages, f"{block.where}: expected {block.error!r}, got {messages}"
        return
    game = rulepack.loads(source, filename=block.where)
    play(game, checks, block.where)


def test_the_ir_of_every_example_has_the_schemas_shape(context: str):
    """``rulepack.loads`` checks the IR of a text against the schema only for its
    sizes (rulepack.schemas.validate.validate_parsed): the whole schema holds for
    the IR of every example, and of the tutorial's game."""
    from rulepack.grammar.parser import parse_rules
    from rulepack.schemas.validate import validate_ir
    blocks = language_cases()
    sources = [(b.where, source_of(b, context)[0]) for b in blocks]
    sources.append(("docs/tutorial.md", tutorial_ruleset()))
    shared = parse_rules(context)
    validate_ir(shared)
    read = 0
    for where, source in sources:
        try:
            ir = parse_rules(source, where)
        except RulepackError:
            continue  # an example of a mistake that the parser reports
        # the declarations of the context, checked above, are left out
        validate_ir({key: [x for x in value if x not in shared[key]]
                     if isinstance(value, list) and key in shared else value
                     for key, value in ir.items()}, where)
        read += 1
    assert read >= len(blocks) - 5


# ---------------------------------------------------------------------- the tutorial

def tutorial_ruleset() -> str:
    blocks = checked("tutorial.md", "rules")
    assert blocks and all(b.kind == "tutorial" for b in blocks)
    return "\n".join(b.text for b in blocks)


@pytest.fixture
def tutorial_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder holding the tutorial's hightide.rules, made the working directory."""
    (tmp_path / "hightide.rules").write_text(tutorial_ruleset(), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_tutorial_game_plays_to_the_end(tutorial_dir: Path):
    game = rulepack.load("hightide.rules")
    assert (game.min_players, game.max_players) == (2, 4)
    for n in range(2, 5):
        for tides in (1, 4, 6):
            for seed in SEEDS:
                state = game.new_game(n, seed=seed, options={"tides": tides})
                rng = Rng(seed)
                while not state.is_terminal():
                    for p in range(n):
                        state.view(p)
                    actions = state.legal_actions()
                    state.apply(actions[rng.below(len(actions))])
                assert sum(len(z) for z in state.position.zones) == 24   # no tile lost or made
                assert state.result()["terminal"]


def _normal(line: str) -> str:
    return " ".join(re.sub("─+", "─", line).split())


def _shows(expected: str, output: str) -> str | None:
    """None if the expected lines appear in the output in order (``...`` skips any
    number of lines, else they must follow each other), or what is missing."""
    got = [_normal(x) for x in output.splitlines() if x.strip()]
    i = 0
    skipping = True     # the shown lines may start anywhere
    for want in (_normal(x) for x in expected.splitlines() if x.strip()):
        if want == "...":
            skipping = True
            continue
        if skipping:
            while i < len(got) and got[i] != want:
                i += 1
        if i >= len(got) or got[i] != want:
            return want
        i += 1
        skipping = False
    return None


@pytest.mark.parametrize("block", [b for b in checked("tutorial.md", "text")
                                   if b.kind == "output"], ids=lambda b: b.where)
def test_tutorial_output(block: Block, tutorial_dir: Path):
    from rulepack.cli.main import main
    m = re.match(r'output of "rulepack (.*?)"(?:, with "(.*?)" written "(.*?)")?$', block.spec)
    assert m, f"{block.where}: cannot read {block.spec!r}"
    args, old, new = m.groups()
    if old is not None:
        path = tutorial_dir / "hightide.rules"
        text = path.read_text(encoding="utf-8")
        assert old in text, f"{block.where}: {old!r} is not in the tutorial's ruleset"
        path.write_text(text.replace(old, new, 1), encoding="utf-8")
    result = CliRunner().invoke(main, shlex.split(args))
    missing = _shows(block.text, result.output)
    assert missing is None, f"{block.where}: {missing!r} not in the output of {args}:\n" \
                            f"{result.output}"


# ---------------------------------------------------------------------- rulesets in the docs

_PART_OF = re.compile(r"\bpart of ([\w.-]+\.rules)\b")


def docs_rulesets() -> list[tuple[str, str]]:
    """(where, text) of every ruleset under docs/: each ``*.rules`` file there, and each
    file a page builds from its ``rules`` blocks marked ``part of NAME.rules`` (the
    tutorial's ``hightide.rules``), the blocks one after the other as the page says."""
    found = [(str(path.relative_to(ROOT)), path.read_text(encoding="utf-8"))
             for path in sorted(DOCS.rglob("*.rules"))]
    for page in sorted(DOCS.rglob("*.md")):
        parts: dict[str, list[str]] = {}
        for b in read_blocks(str(page.relative_to(DOCS))):
            m = _PART_OF.search(b.spec)
            if b.lang == "rules" and m:
                parts.setdefault(m.group(1), []).append(b.text)
        found += [(f"docs/{page.relative_to(DOCS)}: {name}", "\n".join(texts))
                  for name, texts in parts.items()]
    return found


def test_the_docs_rulesets_include_the_tutorials():
    assert "docs/tutorial.md: hightide.rules" in [where for where, _ in docs_rulesets()]


@pytest.mark.parametrize("where,text", docs_rulesets(), ids=[w for w, _ in docs_rulesets()])
def test_every_ruleset_under_docs_is_formatted_and_valid(where: str, text: str,
                                                         tmp_path: Path):
    """What a reader copies from the docs is a clean ruleset: ``rulepack fmt --check``
    and ``rulepack validate`` pass (exit 0, no warning)."""
    from rulepack.cli.main import main
    path = tmp_path / where.rsplit("/", 1)[-1].split(": ")[-1]
    path.write_text(text, encoding="utf-8")
    formatted = CliRunner().invoke(main, ["fmt", "--check", str(path)])
    assert formatted.exit_code == 0, f"{where}: rulepack fmt would change it:\n" \
        f"{formatted.output}"
    validated = CliRunner().invoke(main, ["validate", str(path)])
    assert validated.exit_code == 0 and "warning" not in validated.output, \
        f"{where}: {validated.output}"


# ---------------------------------------------------------------------- Python blocks

@pytest.mark.parametrize("doc", ["language.md", "tutorial.md", "agents.md"])
def test_python_blocks_run(doc: str, tutorial_dir: Path, capsys: pytest.CaptureFixture):
    blocks = checked(doc, "python")
    assert blocks and all(b.kind == "python" for b in blocks)
    namespace: dict[str, Any] = {"__name__": "docs"}
    for b in blocks:
        exec(compile(b.text, b.where, "exec"), namespace)
    assert capsys.readouterr().out      # the examples print something


def doc_commands() -> list[tuple[str, list[str]]]:
    """(where, arguments) of every ``rulepack`` command line in the ``sh`` blocks of
    docs/*.md and README.md (comments after `` #`` left out)."""
    out = []
    for path in sorted(DOCS.glob("*.md")) + [ROOT / "README.md"]:
        text = path.read_text(encoding="utf-8")
        for m in _FENCE.finditer(text):
            if m.group(1) != "sh":
                continue
            first = text.count("\n", 0, m.start(2)) + 1
            for i, line in enumerate(m.group(2).splitlines()):
                line = re.sub(r"\s+#.*$", "", line).strip()
                if line.startswith("rulepack "):
                    out.append((f"{path.relative_to(ROOT)}:{first + i}", shlex.split(line)[1:]))
    return out


def test_options_in_the_docs_commands_are_written_as_explain_lists_them():
    """``-o NAME=VALUE`` in a documented command names an option of that bundled ruleset,
    with a value among those ``rulepack explain`` lists (``blind=true``, not ``yes``)."""
    from rulepack.cli.explain import explain_data
    from rulepack.loader import bundled_rulesets
    checked = 0
    for where, args in doc_commands():
        if len(args) < 2 or args[1] not in bundled_rulesets():
            continue
        listed = explain_data(rulepack.load(args[1]), None)["options"]
        for flag, value in zip(args, args[1:]):
            if flag not in ("-o", "--option") or "=" not in value:
                continue
            name, text = value.split("=", 1)
            assert name in listed, f"{where}: {args[1]} has no option {name}"
            values = listed[name]["values"]
            span = re.fullmatch(r"(-?\d+)\.\.(-?\d+)", values)
            if span and re.fullmatch(r"-?\d+", text):
                ok = int(span[1]) <= int(text) <= int(span[2])
            else:
                ok = text in values.split(", ")
            assert ok, f"{where}: {name}={text}, but rulepack explain {args[1]} lists {values}"
            checked += 1
    assert checked >= 5


def _documented_plays() -> list[tuple[str, list[str]]]:
    from rulepack.loader import bundled_rulesets
    return [(where, args) for where, args in doc_commands()
            if args[:1] == ["play"] and len(args) > 1 and args[1] in bundled_rulesets()]


@pytest.mark.parametrize("where,args", _documented_plays(),
                         ids=[where for where, _ in _documented_plays()])
def test_documented_play_commands_start(where: str, args: list[str], tmp_path: Path,
                                        monkeypatch: pytest.MonkeyPatch):
    """Each ``rulepack play`` command of the docs starts its game: a person quits at
    the first question (``q``), bots play to the end (seed 1 where none is given)."""
    from rulepack.cli.main import main
    monkeypatch.setenv("RULEPACK_RECORDS", str(tmp_path))
    monkeypatch.chdir(tmp_path)            # where a --record FILE of the docs goes
    seeded = args if "--seed" in args else args + ["--seed", "1"]
    result = CliRunner().invoke(main, seeded, input="q\n")
    assert result.exit_code == 0, f"{where}: rulepack {' '.join(args)}:\n{result.output}"


def test_the_keys_the_games_page_names_do_what_it_says():
    """docs/games.md tells a player which key shows the rules, which the screen, which
    quits: each is a key the keyboard reads so."""
    from rulepack.cli.interactive import QUIT_WORDS, RULES_WORDS, SHOW_WORDS
    text = _squash((DOCS / "games.md").read_text(encoding="utf-8"))
    said = {what: key for key, what in
            re.findall(r"`(\S+)` to (show the rules|show the screen again|quit)", text)}
    assert set(said) == {"show the rules", "show the screen again", "quit"}, said
    assert said["show the rules"] in RULES_WORDS
    assert said["show the screen again"] in SHOW_WORDS
    assert said["quit"] in QUIT_WORDS


def test_the_api_section_names_every_kind_of_history_entry():
    """§12's ``history`` row names each class a history entry can be (those of
    ``rulepack.engine.actions``: narrations too) and the module they are imported from."""
    import inspect

    from rulepack.engine import actions
    text = (DOCS / "language.md").read_text(encoding="utf-8")
    row = next(line for line in text.splitlines() if line.startswith("| `history` |"))
    kinds = [name for name, value in vars(actions).items()
             if inspect.isclass(value) and value.__module__ == actions.__name__]
    assert "Narration" in kinds
    for name in kinds:
        assert f"`{name}`" in row, f"docs/language.md §12: the history row misses {name}"
    assert "rulepack.engine.actions import" in row


# ---------------------------------------------------------------------- rulings

RULING = re.compile(r"^- \*\*([A-Z]\d+)\.\*\* ", re.M)


def rulings() -> dict[str, tuple[str, str]]:
    """Ruling id → (its text, its Applied note or the 'later ruleset' mark), from docs/rulings.md."""
    text = (DOCS / "rulings.md").read_text(encoding="utf-8")
    found = {}
    starts = list(RULING.finditer(text))
    for i, m in enumerate(starts):
        end = starts[i + 1].start() if i + 1 < len(starts) else len(text)
        chunk = text[m.end():end]
        chunk = re.split(r"^## ", chunk, flags=re.M)[0]
        paragraphs = [p.strip() for p in re.split(r"\n\s*\n", chunk) if p.strip()]
        found[m.group(1)] = (paragraphs[0], "\n".join(paragraphs[1:]))
    return found


def _squash(text: str) -> str:
    return " ".join(text.split())


#: The ruleset that applies the rulings of each section (by the letter of their ids).
SECTION_RULESET = {"G": "multzo", "M": "multzo", "P": "packkub", "X": "multiplay",
                   "Y": "mismemory"}
#: The bundled rulesets as the notes name them (``**Applied in PackKub:**``).
RULESET_TITLES = {"Multzo": "multzo", "PackKub": "packkub", "Multiplay": "multiplay",
                  "Mismemory": "mismemory"}
#: How a note starts: ``**Applied:**``, ``**Applied in Mismemory:**``, ``**Project decision:**``.
NOTE_LABEL = re.compile(r"^\*\*(Applied|Project decision)(?: in (\w+))?:\*\*")
#: The rulings each bundled ruleset must apply (and quote).
EXPECTED = {"multzo": [f"G{i}" for i in range(1, 4)] + [f"M{i}" for i in range(1, 9)],
            "packkub": [f"P{i}" for i in range(1, 9)],
            "multiplay": [f"X{i}" for i in range(1, 7)],
            "mismemory": [f"Y{i}" for i in range(1, 6)]}


def _ruleset_text(name: str) -> str:
    """A ruleset's text as quotes are matched against it: whitespace squashed, once as
    written and once with the comment marks taken out (so a quote of a comment may run
    over several lines)."""
    text = (RULESETS / f"{name}.rules").read_text(encoding="utf-8")
    prose = re.sub(r"(^|\s)#+[ \t]?", " ", text, flags=re.M)
    return _squash(text) + " \n " + _squash(prose)


def _notes(rid: str, note: str) -> list[tuple[str, str]]:
    """(ruleset name, text) for each labelled note of a ruling, with the paragraphs that
    follow it: ``**Applied in Mismemory:**`` names its ruleset, ``**Applied:**`` and
    ``**Project decision:**`` take the section's."""
    current = SECTION_RULESET[rid[0]]
    out = []
    for paragraph in re.split(r"\n(?=\*\*(?:Applied|Project decision))", note):
        m = NOTE_LABEL.match(paragraph)
        if m:
            named = m.group(2)
            assert named is None or named in RULESET_TITLES, \
                f"{rid}: no bundled ruleset is called {named!r}"
            current = RULESET_TITLES[named] if named else SECTION_RULESET[rid[0]]
        out.append((current, paragraph))
    return out


@pytest.mark.parametrize("ruleset", sorted(EXPECTED))
def test_rulings_are_applied_and_quote_the_ruleset(ruleset: str):
    library = _squash((RULESETS / "lib" / "piecepack.rules").read_text(encoding="utf-8"))
    found = rulings()
    for rid in EXPECTED[ruleset]:
        assert rid in found, f"ruling {rid} is missing from docs/rulings.md"
        note = found[rid][1]
        assert note.startswith("**Applied:**"), f"{rid} has no Applied note"
        quoted = False
        for name, paragraph in _notes(rid, note):
            sources = _ruleset_text(name)
            if rid == "G1" and name == "multzo":
                sources += " " + library
            code = re.findall(r"`([^`]+)`", paragraph)
            # words in double quotes (outside code) come from the ruleset's comments
            words = [q for q in re.findall(r'"([^"]+)"', re.sub(r"`[^`]*`", "", paragraph))
                     if len(q.split()) > 1]
            for quote in code + words:
                quoted = quoted or (name == ruleset and quote in code)
                for part in (p.strip() for p in quote.split("...")):
                    if part:
                        assert _squash(part) in sources, \
                            f"{rid}: {quote!r} is not in {name}.rules (looking for {part!r})"
        assert quoted, f"{rid}: the Applied note quotes nothing from {ruleset}.rules"


def test_every_ruling_is_applied():
    """Every ruleset the rulings were written for exists now: no ruling waits."""
    expected = {rid for rids in EXPECTED.values() for rid in rids}
    for rid, (_, note) in rulings().items():
        assert rid in expected, f"{rid} is not expected to be applied by any ruleset"
        assert "later ruleset" not in note, f"{rid} still says it applies to a later ruleset"


def test_general_rulings_are_applied_by_the_other_rulesets_too():
    """G1-G3 name where PackKub, Multiplay and Mismemory apply them, where they do."""
    notes = {rid: {name for name, _ in _notes(rid, note)}
             for rid, (_, note) in rulings().items() if rid[0] == "G"}
    assert notes["G1"] >= {"multzo", "packkub", "mismemory"}    # Multiplay has no piecepack
    assert notes["G2"] >= {"multzo", "packkub", "multiplay", "mismemory"}
    assert notes["G3"] >= {"multzo", "packkub", "multiplay", "mismemory"}


def _cited(text: str) -> set[str]:
    """Ruling ids named in the comments of a ruleset (``M5``, ``M1-M8``)."""
    ids = set()
    for comment in re.findall(r"#(.*)", text):
        for letter, a, b in re.findall(r"\b([GMPXY])(\d+)(?:-\1?(\d+))?\b", comment):
            ids.update(f"{letter}{i}" for i in range(int(a), int(b or a) + 1))
    return ids


@pytest.mark.parametrize("ruleset", sorted(EXPECTED))
def test_rulings_cited_by_the_rulesets_are_in_the_docs(ruleset: str):
    cited = _cited((RULESETS / f"{ruleset}.rules").read_text(encoding="utf-8"))
    if ruleset == "multzo":
        cited |= _cited((RULESETS / "lib" / "piecepack.rules").read_text(encoding="utf-8"))
        assert {"M1", "M5", "G1"} <= cited      # the reader works
    assert cited, f"{ruleset}.rules cites no ruling"
    missing = sorted(cited - set(rulings()))
    assert not missing, f"cited in {ruleset}.rules but not in docs/rulings.md: {missing}"


def _shared_rulings() -> Path | None:
    for path in SHARED_RULINGS:
        if path.is_file():
            return path
    return None


@pytest.mark.skipif(_shared_rulings() is None, reason="no shared RULINGS.md next to the repository")
def test_ruling_texts_match_the_shared_rulings():
    shared_text = _shared_rulings().read_text(encoding="utf-8")  # type: ignore[union-attr]
    shared = {}
    items = list(re.finditer(r"^- ([A-Z]\d+)\. ", shared_text, re.M))
    for i, m in enumerate(items):
        end = items[i + 1].start() if i + 1 < len(items) else len(shared_text)
        shared[m.group(1)] = _squash(re.split(r"^## ", shared_text[m.end():end], flags=re.M)[0])
    ours = {rid: _squash(text) for rid, (text, _) in rulings().items()}
    assert sorted(ours) == sorted(shared)
    for rid in shared:
        assert ours[rid] == shared[rid], f"ruling {rid} differs from {os.fspath(_shared_rulings())}"


def test_the_idioms_section_has_a_checked_example_for_each_idiom():
    """Issue 11: an idioms section, each idiom with an example the tests run."""
    text = (DOCS / "language.md").read_text(encoding="utf-8")
    section = text[text.index("## 16. Idioms"):]
    idioms = ("Carrying a piece between two decisions of one turn", "Identical spaces",
              "Changing one element of a list", "Arithmetic on players",
              "Rolling piecepack dice")
    starts = [section.index(f"**{name}") for name in idioms] + [len(section)]
    for name, start, end in zip(idioms, starts, starts[1:]):
        part = section[start:end]
        assert re.search(r"<!-- check: (game|declarations|statements) -->\n```rules\n", part), \
            f"the idiom {name!r} has no checked rules example"


def test_the_editor_reference_matches_the_language_reference():
    """The language server's hover texts (rulepack/lsp/reference.json, no extra
    needed to read them) are made from docs/language.md: a change of the docs must
    regenerate them, or editors explain the old language."""
    import json

    from rulepack.lsp import reference
    root = Path(__file__).resolve().parent.parent
    language = (root / "docs" / "language.md").read_text(encoding="utf-8")
    assert reference.build(language) == json.loads(reference.DATA.read_text(encoding="utf-8")), \
        "run: python -m rulepack.lsp.reference docs/language.md"


#: issue 34's mistakes in the tutorial's hightide.rules: (the line as the tutorial has
#: it, as mistyped, the severity and message validate gives, and where)
HIGHTIDE_MISTAKES = [
    ("set swaps[current] = swaps[current] - 1", "set swaps[current] = swaps[current] + t",
     "error", "cannot add a number and a piece", (43, 49)),
    ("set swaps[current] = swaps[current] - 1", 'set swaps[current] = swaps[current] + "x"',
     "error", "cannot add a number and a word ('x')", (43, 49)),
    ("set leader = random(players)", "set leader = random(players) + 1",
     "warning", "'leader' here is a number, and the turns (line 38) start from it as a seat",
     (32, 16)),
]


@pytest.mark.parametrize("line, mistake, severity, message, where", HIGHTIDE_MISTAKES)
def test_validate_finds_the_type_mistakes_of_issue_34_in_the_tutorial(tmp_path, line, mistake,
                                                                     severity, message, where):
    """Each mistake once validated and failed only in play (some seeds only, far
    from the mistake); now validate reports it where it is written."""
    from rulepack.validation import check_path
    text = tutorial_ruleset()
    assert line in text
    path = tmp_path / "hightide.rules"
    path.write_text(text.replace(line, mistake, 1), encoding="utf-8")
    found = [d for d in check_path(path) if d.code in ("wrong-kind", "number-as-seat")]
    assert [(d.severity, d.location.line, d.location.column) for d in found] == \
        [(severity, *where)], found
    assert found[0].message.startswith(message), found[0].message
