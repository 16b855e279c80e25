"""The TextMate grammar of editors/vscode/ (and the Pygments lexer) on every bundled ruleset.

The grammar is run by a small TextMate tokenizer written here (``match``,
``begin``/``end``, ``captures``, ``include`` of the repository; at each place the
earliest match wins, the first rule on ties, as in TextMate). Its scopes are then
compared, token by token, with what the language's own parser says each token
is: comments, strings and numbers must get their scopes, every keyword a keyword
scope, and no name a keyword's colour (a pattern called ``set``, a zone called
``stack``).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from rulepack.grammar.parser import parse_source
from rulepack.grammar.tables import tables
from rulepack.loader import bundled_dir

ROOT = Path(__file__).resolve().parent.parent
EXTENSION = ROOT / "editors" / "vscode"
GRAMMAR = json.loads((EXTENSION / "syntaxes" / "rules.tmLanguage.json").read_text())
RULESETS = sorted(bundled_dir().glob("*.rules")) + sorted((bundled_dir() / "lib").glob("*.rules")) \
    + sorted((ROOT / "tests" / "data" / "schema").glob("*.rules"))
KEYWORD_SCOPES = ("keyword", "storage", "constant.language", "support.variable")


def _rules(patterns: list[dict]) -> list[dict]:
    out = []
    for p in patterns:
        if "include" in p:
            out += _rules([GRAMMAR["repository"][p["include"][1:]]])
        elif "patterns" in p and "begin" not in p:
            out += _rules(p["patterns"])
        else:
            out.append(p)
    return out


def _first(rules: list[dict], line: str, pos: int, end: re.Pattern | None = None):
    """The earliest match at or after pos: (start, rule, match); the end pattern
    wins a tie."""
    best = None
    if end is not None:
        m = end.search(line, pos)
        if m:
            best = (m.start(), None, m)
    for rule in rules:
        m = re.compile(rule.get("match") or rule["begin"]).search(line, pos)
        if m and (best is None or m.start() < best[0]):
            best = (m.start(), rule, m)
    return best


def tokenize(line: str) -> list[list[str]]:
    """The scopes of each character of a line."""
    scopes: list[list[str]] = [[] for _ in line]

    def mark(start: int, stop: int, name: str | None) -> None:
        if name:
            for i in range(start, stop):
                scopes[i].append(name)

    def run(rules: list[dict], pos: int, end: re.Pattern | None) -> int:
        while pos <= len(line):
            found = _first(rules, line, pos, end)
            if found is None:
                return len(line)
            start, rule, m = found
            if rule is None:  # the end of the enclosing begin/end rule
                return m.end()
            if "match" in rule:
                mark(m.start(), m.end(), rule.get("name"))
                for group, capture in rule.get("captures", {}).items():
                    if m.group(int(group)) is not None:
                        mark(m.start(int(group)), m.end(int(group)), capture["name"])
                pos = m.end() if m.end() > m.start() else m.end() + 1
            else:
                stop = run(_rules(rule.get("patterns", [])), m.end(), re.compile(rule["end"]))
                mark(m.start(), stop, rule.get("name"))
                pos = max(stop, m.end() + 1)
        return pos

    run(_rules(GRAMMAR["patterns"]), 0, None)
    return scopes


def functions() -> set[str]:
    from rulepack.lsp.reference import load
    return set(load()["functions"])


@pytest.mark.parametrize("path", RULESETS, ids=[p.name for p in RULESETS])
def test_the_textmate_grammar_colours_every_token_as_the_parser_reads_it(path: Path):
    text = path.read_text(encoding="utf-8")
    lines = text.split("\n")
    scoped = [tokenize(line) for line in lines]
    _, tokens = parse_source(text)
    builtins = functions()
    wrong = []
    for i, tok in enumerate(tokens):
        line, col = (tok.line or 1) - 1, (tok.column or 1) - 1
        first = " ".join(scoped[line][col])
        last = " ".join(scoped[line][col + len(str(tok)) - 1])
        word = str(tok)
        following = tokens[i + 1] if i + 1 < len(tokens) else None
        if tok.type == "COMMENT":
            ok = "comment" in first and "comment" in last
        elif tok.type == "STRING":
            ok = "string" in first and "string" in last
        elif tok.type == "INT":
            ok = "constant.numeric" in first
        elif tok.type == "NAME":
            ok = not any(s in first for s in ("keyword", "storage", "constant.language"))
            if following is not None and str(following) == "(" and word in builtins:
                ok = ok and "support.function" in first
        elif word.isidentifier():
            ok = any(s in first for s in KEYWORD_SCOPES) and first == last
        else:
            ok = True
        if not ok:
            wrong.append(f"{path.name}:{line + 1}:{col + 1} {tok.type} {word!r}: {first!r}")
    assert not wrong, "\n".join(wrong[:20])


def test_the_grammar_knows_every_keyword_of_the_language():
    source = json.dumps(GRAMMAR)
    missing = [k.lower() for k in tables()["keywords"]
               if not re.search(r"\b%s\b" % k.lower(), source)]
    assert not missing


def test_draw_hints_are_coloured_as_keywords_and_the_attribute_after_by_as_a_name():
    line = '  draw shape disc, symbol "{n}", colour by colour {black: "#202020", white: "ivory"}'
    scopes = tokenize(line)
    for word in ("draw", "shape", "symbol", "colour by"):
        assert any(s.startswith("keyword") for s in scopes[line.index(word)]), word
    attribute = line.index("colour {")
    assert not any(s.startswith("keyword") for s in scopes[attribute])
    assert "constant.other.placeholder.rules" in scopes[line.index("{n}")]


def test_the_extension_declares_the_language_grammar_and_server():
    package = json.loads((EXTENSION / "package.json").read_text())
    [language] = package["contributes"]["languages"]
    assert language["extensions"] == [".rules"]
    [grammar] = package["contributes"]["grammars"]
    assert (EXTENSION / grammar["path"]).exists()
    assert grammar["scopeName"] == GRAMMAR["scopeName"]
    configuration = json.loads((EXTENSION / language["configuration"]).read_text())
    assert configuration["comments"]["lineComment"] == "#"
    assert "rulepack" in (EXTENSION / package["main"]).read_text() \
        and "lsp" in (EXTENSION / package["main"]).read_text()


# ---------------------------------------------------------------------- Pygments
@pytest.mark.lsp
@pytest.mark.parametrize("path", RULESETS, ids=[p.name for p in RULESETS])
def test_the_pygments_lexer_colours_every_token_as_the_parser_reads_it(path: Path):
    pygments = pytest.importorskip("pygments")
    from pygments.lexers import get_lexer_by_name
    from pygments.token import Comment, Error, Keyword, Name, Number, Operator, String
    text = path.read_text(encoding="utf-8")
    lexer = get_lexer_by_name("rules")  # through the entry point
    assert pygments is not None and type(lexer).__module__ == "rulepack.highlight"
    kinds: dict[int, object] = {}
    for at, kind, value in lexer.get_tokens_unprocessed(text):
        for i in range(len(value)):
            kinds[at + i] = kind
    _, tokens = parse_source(text)
    builtins = functions()
    wrong = []
    for i, tok in enumerate(tokens):
        kind = kinds.get(tok.start_pos or 0)
        word = str(tok)
        following = tokens[i + 1] if i + 1 < len(tokens) else None
        if kind in Error:
            ok = False
        elif tok.type == "COMMENT":
            ok = kind in Comment
        elif tok.type == "STRING":
            ok = kind in String
        elif tok.type == "INT":
            ok = kind in Number
        elif tok.type == "NAME":
            ok = kind not in Keyword and kind not in Operator.Word
            if following is not None and str(following) == "(" and word in builtins:
                ok = ok and kind in Name.Builtin
        elif word.isidentifier():
            ok = kind in Keyword or kind in Operator.Word or kind in Name.Builtin.Pseudo
        else:
            ok = True
        if not ok:
            wrong.append(f"{path.name}:{tok.line}:{tok.column} {tok.type} {word!r}: {kind}")
    assert not wrong, "\n".join(wrong[:20])
