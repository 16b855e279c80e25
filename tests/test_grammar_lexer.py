"""rulepack's parser, loaded from its cached tables with its own contextual lexer
(rulepack.grammar.lexer) and table loader (rulepack.grammar.lalr), reads exactly as
the parser Lark itself loads from them: the same tokens (types, texts, positions),
the same callbacks, the same trees and the same errors, on every ruleset of the
repository and on mutants of them; and the table is Lark's, entry for entry."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedInput
from lark.lexer import ContextualLexer

from lark.parsers.lalr_analysis import IntParseTable

from rulepack.grammar import tables
from rulepack.grammar.lalr import CachedLALRParser
from rulepack.grammar.parser import _brackets
from rulepack.grammar.lexer import FastContextualLexer, contextual_lexer, supported

ROOT = Path(__file__).resolve().parent.parent
#: The bundled rulesets and libraries, the test data, the hostile files, and a quarter of
#: the broken corpus (most of it is Multzo with one mistake; the mutants below vary more)
FILES = sorted(p for folder in ("rulepack/rulesets", "tests/hostile", "tests/data")
               for p in (ROOT / folder).rglob("*.rules")) + \
    sorted((ROOT / "tests/broken").glob("*.rules"))[::4]


def _parsers() -> tuple[Lark, Lark, list[tuple[str, Any]], list[tuple[str, Any]]]:
    """(rulepack's parser, Lark's parser, the callback calls of each)."""
    found = tables.tables()
    calls: tuple[list[tuple[str, Any]], list[tuple[str, Any]]] = ([], [])

    def recorder(log: list[tuple[str, Any]]) -> Any:
        def seen(t: Token) -> Token:
            log.append((t.type, str(t), t.start_pos, t.end_pos, t.line, t.column))
            return t
        return seen

    def callbacks(log: list[tuple[str, Any]]) -> dict[str, Any]:
        found_cb = {name: recorder(log) for name in found["keywords"]}
        found_cb["COMMENT"] = recorder(log)
        return found_cb

    ours = tables._load(found, callbacks(calls[0]))
    lark_own = Lark._load_from_dict(found["data"], found["memo"],  # type: ignore[no-untyped-call]
                                    lexer_callbacks=callbacks(calls[1]))
    return ours, lark_own, calls[0], calls[1]


@pytest.fixture(scope="module")
def parsers() -> tuple[Lark, Lark, list[tuple[str, Any]], list[tuple[str, Any]]]:
    return _parsers()


def _token(t: Token) -> tuple[Any, ...]:
    return (t.type, str(t), t.start_pos, t.end_pos, t.line, t.column, t.end_line, t.end_column)


def _shape(tree: Any) -> Any:
    """A tree as nested tuples: rule names, positions, tokens with theirs."""
    if isinstance(tree, Tree):
        m = tree.meta
        where = (None if m.empty else (m.line, m.column, m.end_line, m.end_column, m.start_pos,
                                       m.end_pos))
        return (str(tree.data), where, tuple(_shape(c) for c in tree.children))
    if isinstance(tree, Token):
        return _token(tree)
    return tree


def _outcome(parser: Lark, text: str) -> Any:
    try:
        return ("tree", _shape(parser.parse(text)))
    except UnexpectedInput as exc:
        token = getattr(exc, "token", None)
        return ("error", type(exc).__name__, exc.line, exc.column, exc.pos_in_stream,
                sorted(getattr(exc, "expected", None) or getattr(exc, "allowed", None) or ()),
                _token(token) if isinstance(token, Token) else None)


def _same(parsers: Any, text: str) -> None:
    ours, lark_own, our_calls, lark_calls = parsers
    our_calls.clear()
    lark_calls.clear()
    assert _outcome(ours, text) == _outcome(lark_own, text)
    assert our_calls == lark_calls


def test_the_grammar_is_read_by_rulepacks_lexer(parsers: Any) -> None:
    ours, lark_own, _, _ = parsers
    assert isinstance(ours.parser.lexer, FastContextualLexer)
    assert supported(ours.lexer_conf)
    assert type(lark_own.parser.lexer) is ContextualLexer
    assert isinstance(ours.parser.parser, CachedLALRParser)


def test_the_parse_table_is_larks_entry_for_entry(parsers: Any) -> None:
    ours, lark_own, _, _ = parsers
    mine, theirs = ours.parser.parser._parse_table, lark_own.parser.parser._parse_table
    assert isinstance(mine, IntParseTable) and isinstance(theirs, IntParseTable)
    assert mine.start_states == theirs.start_states and mine.end_states == theirs.end_states
    assert mine.states.keys() == theirs.states.keys()
    for state, actions in theirs.states.items():
        assert mine.states[state].keys() == actions.keys()
        for token, (action, arg) in actions.items():
            assert mine.states[state][token][0] is action
            assert mine.states[state][token][1] == arg


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_ruleset_of_the_repository_reads_the_same(parsers: Any, path: Path) -> None:
    _same(parsers, path.read_text(encoding="utf-8", errors="replace"))


#: Edits that make texts a lexer must get right: keywords glued to words or used as
#: names, operators split or doubled, stray characters, unclosed strings and comments.
PIECES = ["move", "flip", "stack", "zone", "movex", "_", "9", "..", ".", "<=", "<", "=", "==",
          "!", "&", "'", '"', "#", "\n", " ", "{", "}", "(", ")", "-", "//", "%", "é", "\t"]


def _mutants(count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    texts = [p.read_text(encoding="utf-8") for p in FILES[:8]]
    out = []
    for _ in range(count):
        text = rng.choice(texts)
        for _ in range(rng.randint(1, 3)):
            at = rng.randrange(len(text) + 1)
            kind = rng.randrange(3)
            if kind == 0:
                text = text[:at] + rng.choice(PIECES) + text[at:]
            elif kind == 1:
                text = text[:at] + text[at + rng.randint(1, 6):]
            else:
                text = text[:at] + rng.choice(PIECES) + text[at + 1:]
        out.append(text)
    return out


def test_mutated_rulesets_read_the_same_or_fail_the_same(parsers: Any) -> None:
    for text in _mutants(30, seed=1):
        _same(parsers, text)


def test_each_state_keeps_its_own_keywords(parsers: Any) -> None:
    """A keyword where only a name fits is a name; glued to more letters it is one
    word; where only keywords fit, the lexer reads the keyword's letters."""
    for text in ("game stack { players 2 }\nzone flip { }\n",
                 "game g { players 2 }\nsetup { flipstack }\n",
                 "game g { players 2 }\nsetup { move move to move }\n",
                 "game g { players 2..4 }\nvar x = 1 <=2\n"):
        _same(parsers, text)


def test_a_keyword_left_out_of_the_whole_grammars_expression_still_comes_first() -> None:
    """``KW`` is read by ``WORD`` (so the expression of all terminals leaves it out),
    but the first state does not expect ``WORD``: there ``abc`` is ``KW``, which
    comes before ``T`` in Lark's order, though ``T`` matches too and ``WORD``
    does not match ``abc1`` (its letters may not be followed by a digit)."""
    grammar = """
        start: KW NUM | T "b" WORD
        KW: "abc"
        WORD: /[a-z]++(?![0-9])/
        T: /a/
        NUM: /[0-9]+/
    """
    ours = Lark(grammar, parser="lalr", _plugins={"ContextualLexer": contextual_lexer})
    lark_own = Lark(grammar, parser="lalr")
    assert isinstance(ours.parser.lexer, FastContextualLexer)
    for text in ("abc1", "abxyz", "ab1", "abc"):
        assert _outcome(ours, text) == _outcome(lark_own, text)
    assert _outcome(ours, "abc1")[0] == "tree"


def _brackets_char_by_char(text: str) -> list[tuple[str, int, int]]:
    """The brackets outside strings and comments, read one character at a time: a
    string ends at its closing quote or its line's end, a comment at its line's end."""
    out = []
    line, col = 1, 0
    in_comment = in_string = False
    for ch in text:
        col += 1
        if ch == "\n":
            line, col, in_comment, in_string = line + 1, 0, False, False
        elif in_comment:
            continue
        elif in_string:
            in_string = ch != '"'
        elif ch == "#":
            in_comment = True
        elif ch == '"':
            in_string = True
        elif ch in "([{)]}":
            out.append((ch, line, col))
    return out


def test_the_bracket_scan_skips_strings_and_comments() -> None:
    """The scan behind the nesting limit and "the bracket opened at line L, column C
    is never closed" (rulepack.grammar.parser._brackets)."""
    rng = random.Random(7)
    texts = [p.read_text(encoding="utf-8", errors="replace") for p in FILES[:10]]
    texts += ["".join(rng.choice('ab"#\n(){}[] \r\t') for _ in range(rng.randrange(60)))
              for _ in range(2000)]
    for text in texts:
        assert list(_brackets(text)) == _brackets_char_by_char(text), repr(text)
