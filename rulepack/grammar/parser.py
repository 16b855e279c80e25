"""Text of a ``.rules`` file → ruleset IR, with syntax errors in plain words.

:func:`parse_rules` is the only entry point. Lark's exceptions never escape: they
become :class:`~rulepack.errors.RulesetSyntaxError` with the file, line, column,
what was found and what was expected.
"""

from __future__ import annotations

import difflib
import re
import threading
from functools import lru_cache
from typing import Callable, Any, Iterator, cast

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError

from rulepack.errors import Diagnostic, Location, RulepackError, RulesetSyntaxError
from rulepack.files import MAX_RULES_TOKENS, RULES_TOKEN, token_limit_error
from rulepack.grammar.tables import load_parser
from rulepack.grammar.transformer import ToIR
from rulepack.printable import CONTROL, printable
from rulepack.versions import check_rules_header

#: Nesting deeper than this is refused before Lark or the compiler could recurse too far.
MAX_NESTING = 60

# Readable names for the grammar's terminals, used in "expected ..." lists.
_TERMINAL_WORDS = {
    "NAME": "a name", "INT": "a number", "STRING": "a quoted string",
    "LBRACE": "'{'", "RBRACE": "'}'", "LPAR": "'('", "RPAR": "')'", "LSQB": "'['",
    "RSQB": "']'", "COMMA": "','", "COLON": "':'", "EQUAL": "'='", "DOT": "'.'",
    "SEMICOLON": "';'", "CMP": "a comparison", "ADD_OP": "'+' or '-'",
    "MUL_OP": "'*', '/', '//' or '%'", "MINUS": "'-'", "$END": "the end of the file",
    "__ANON_0": "'..'",
}


_RUN = threading.local()


def _keyword_seen(token: Token) -> Token:
    """Lexer callback: a keyword glued to more letters (``flipstack``) is one
    unknown word, not a keyword followed by a name."""
    text = getattr(_RUN, "text", "")
    end = token.end_pos
    if end is not None and end < len(text) and (text[end].isalnum() or text[end] == "_"):
        _RUN.glued.append(token)
    return token


@lru_cache(maxsize=1)
def _parser() -> Lark:
    """The parser, made once per process (its tables cached per user, see
    :mod:`rulepack.grammar.tables`). Its tree nodes know where they start, which
    is all the IR keeps."""
    return load_parser(_keyword_seen, full_positions=False)


def _glued_word_error(text: str, lines: list[str], filename: str) -> RulesetSyntaxError | None:
    glued = getattr(_RUN, "glued", [])
    if not glued:
        return None
    token = glued[0]
    start = token.start_pos
    end = start
    while end < len(text) and (text[end].isalnum() or text[end] == "_"):
        end += 1
    word = text[start:end]
    rest = word[len(str(token)):]
    if len(rest) <= 2:
        message = f"unknown word '{word}'; did you mean '{token}'?"
    else:
        message = f"unknown word '{word}'; is a space missing after '{token}'?"
    return RulesetSyntaxError(Diagnostic(
        message, Location(filename, token.line, token.column), code="syntax",
        source_line=lines[token.line - 1] if token.line and token.line <= len(lines) else None))


def _word(terminal: str) -> str:
    if terminal in _TERMINAL_WORDS:
        return _TERMINAL_WORDS[terminal]
    try:
        pattern = _parser().get_terminal(terminal).pattern
        if pattern.type == "str":
            return f"'{pattern.value}'"
    except KeyError:
        pass
    return terminal.lower()


_STATEMENT_WORDS = {"'move'", "'flip'", "'shuffle'", "'choose'", "'let'", "'set'"}
_DECLARATION_WORDS = {"'zone'", "'component'", "'pattern'", "'phase'", "'var'"}


def _expected(names: set[str]) -> str:
    words = {_word(n) for n in names}
    groups = []
    if _STATEMENT_WORDS <= words:
        groups.append("a statement (move, flip, shuffle, let, set, for, if, choose, ...)")
        words -= {"'move'", "'flip'", "'rotate'", "'shuffle'", "'let'", "'set'", "'reset'", "'for'", "'if'",
                  "'while'", "'repeat'", "'maximize'", "'rounds'", "'turns'", "'choose'", "'end'", "'do'",
                  "'eliminate'", "';'"}
    if _DECLARATION_WORDS <= words:
        groups.append("a declaration (game, use, component, order, attribute, option, zone, "
                      "pattern, const, define, var, score, heuristic, winner, require, setup, "
                      "phase, play)")
        words -= {"'game'", "'use'", "'component'", "'order'", "'attribute'", "'option'",
                  "'zone'", "'pattern'", "'const'", "'var'", "'score'", "'winner'", "'setup'",
                  "'phase'", "'play'", "'define'", "'heuristic'", "'require'",
                  "the end of the file"}
    rest = sorted(words)
    if len(rest) > 8:
        rest = rest[:8] + ["..."]
    parts = groups + rest
    if len(parts) == 1:
        return parts[0]
    return ", ".join(parts[:-1]) + " or " + parts[-1]


def _keywords(names: set[str]) -> list[str]:
    out = []
    for n in names:
        w = _word(n)
        if w.startswith("'") and w[1:-1].isidentifier():
            out.append(w[1:-1])
    return out


#: What :func:`_brackets` looks at: a comment, a string (closed, or running to the end
#: of its line), a bracket, a line break.
_BRACKET_SCAN = re.compile(r'#[^\n]*|"[^"\n]*"?|[()\[\]{}]|\n')
_BRACKET_CHARS = frozenset("([{)]}")


def _brackets(text: str) -> Iterator[tuple[str, int, int]]:
    """Each bracket of the text outside strings and comments: (char, line, column)."""
    line, start = 1, 0
    for m in _BRACKET_SCAN.finditer(text):
        ch = m.group()
        if ch == "\n":
            line, start = line + 1, m.end()
        elif ch in _BRACKET_CHARS:
            yield ch, line, m.start() - start + 1


def _open_blocks(text: str) -> list[tuple[int, int]]:
    """Positions (line, column) of the brackets still open at the end of the text."""
    stack: list[tuple[int, int]] = []
    for ch, line, col in _brackets(text):
        if ch in "([{":
            stack.append((line, col))
        elif stack:
            stack.pop()
    return stack


def _nesting_check(text: str, filename: str) -> None:
    """Refuse nesting deeper than :data:`MAX_NESTING` before the parser recurses."""
    depth = 0
    for ch, line, col in _brackets(text):
        if ch in "([{":
            depth += 1
            if depth > MAX_NESTING:
                raise RulesetSyntaxError(Diagnostic(
                    f"nesting deeper than {MAX_NESTING} levels of brackets or blocks",
                    Location(filename, line, col), code="too-deep",
                    source_line=text.splitlines()[line - 1]))
        else:
            depth = max(0, depth - 1)


def _collect(token: Token) -> Token:
    """Lexer callback of :func:`_source_parser`: keep the comments."""
    _RUN.comments.append(token)
    return token


@lru_cache(maxsize=1)
def _source_parser() -> Lark:
    """A parser that also keeps the comments (see :func:`parse_source`)."""
    return load_parser(_keyword_seen, _collect)


def _tree(text: str, filename: str, make_parser: Callable[[], Lark],
          tokens: list[Token] | None = None) -> Tree[Token]:
    """The parse tree of ``text`` by the parser ``make_parser()`` gives, Lark's errors
    turned into located ones; a text of too many tokens or nested too deeply is
    refused before the parser is even built."""
    _control_check(text, filename)
    too_many = token_limit_error(text, RULES_TOKEN, MAX_RULES_TOKENS)
    if too_many is not None:
        line, column = too_many
        raise RulesetSyntaxError(Diagnostic(
            f"the ruleset has more than {MAX_RULES_TOKENS} words, numbers and symbols",
            Location(filename, line, column), code="too-big",
            source_line=text.split("\n")[line - 1]))
    _nesting_check(text, filename)
    parser = make_parser()
    lines = text.splitlines()
    _RUN.text = text
    _RUN.glued = []
    try:
        if tokens is None:
            tree = parser.parse(text)
        else:
            interactive = parser.parse_interactive(text)
            tokens.extend(interactive.iter_parse())
            # Lark's stubs leave resume_parse unannotated; it returns the tree
            tree = cast(Tree[Token], interactive.resume_parse())  # type: ignore[no-untyped-call]
    except UnexpectedInput as exc:
        glued = _glued_word_error(text, lines, filename)
        raise (glued or _syntax_error(exc, text, lines, filename)) from None
    except RecursionError:
        raise _too_deep(text, lines, filename) from None
    glued = _glued_word_error(text, lines, filename)
    if glued is not None:
        raise glued
    return tree


def _control_check(text: str, filename: str) -> None:
    """Refuse a raw control character (:data:`rulepack.printable.CONTROL`: an ESC, a
    bidirectional override...) anywhere in the text, comments and strings included:
    a terminal or an editor showing the file would act on it. A string may hold one
    written as an escape (``"\\x1b"``).

    :raises RulesetSyntaxError: code ``control-character``, at the first one.
    """
    found = CONTROL.search(text)
    if found is None:
        return
    pos = found.start()
    line = text.count("\n", 0, pos) + 1
    start = text.rfind("\n", 0, pos) + 1
    end = text.find("\n", pos)
    raise RulesetSyntaxError(Diagnostic(
        f"the control character {found.group()!r} is not allowed in a ruleset (a terminal or "
        "an editor showing the file would act on it)", Location(filename, line, pos - start + 1),
        code="control-character", source_line=text[start:end if end >= 0 else len(text)],
        hint=f"inside a string, write it as an escape: \"{printable(found.group())}\""))


def parse_source(text: str, filename: str = "<string>") -> tuple[Tree[Token], list[Token]]:
    """Parse the text of a ruleset into its parse tree and its tokens, for tools that
    work on the text itself (the formatter, the language server).

    :returns: ``(tree, tokens)``: the Lark tree (with positions) and every token in
        order, comments (``COMMENT``) included, each with ``start_pos``/``end_pos``
        offsets and 1-based ``line``/``column``; a keyword used as a name is a ``NAME``.
    :raises RulesetSyntaxError: the text does not follow the grammar.
    """
    check_rules_header(text, filename)
    _RUN.comments = []
    tokens: list[Token] = []
    try:
        tree = _tree(text, filename, _source_parser, tokens)
        merged = sorted(tokens + _RUN.comments, key=lambda t: t.start_pos or 0)
        return tree, [t for t in merged if t.type != "$END"]
    finally:
        _RUN.comments = []


def parse_rules(text: str, filename: str = "<string>") -> dict[str, Any]:
    """Parse the text of a ruleset into its IR.

    :param text: the ``.rules`` source.
    :param filename: shown in error messages.
    :returns: the ruleset IR (a JSON-able dict, see ``schemas/ruleset.schema.json``).
    :raises RulesetSyntaxError: the text does not follow the grammar.
    :raises RulepackError: the text opens with ``language N`` for a version this
        rulepack does not read (code ``unknown-language``, at the number).
    """
    check_rules_header(text, filename)
    tree = _tree(text, filename, _parser)
    lines = text.splitlines()
    try:
        ir = ToIR().transform(tree)
    except VisitError as exc:
        if isinstance(exc.orig_exc, RulepackError):
            error = exc.orig_exc
            for d in error.diagnostics:
                d.location.file = filename
                if d.source_line is None and d.location.line and 0 < d.location.line <= len(lines):
                    d.source_line = lines[d.location.line - 1]
            raise error from None
        raise RulesetSyntaxError.at(f"cannot read this ruleset: {exc.orig_exc}",
                                    Location(filename), code="syntax") from None
    except RecursionError:
        raise _too_deep(text, lines, filename) from None
    ir["file"] = filename
    return ir


def _too_deep(text: str, lines: list[str], filename: str) -> RulesetSyntaxError:
    """The ruleset recursed too deeply in the parser or the transformer: most likely
    a very long chain of operators (``1+1+1+...``), located at the line with the
    most tokens."""
    counts = [len(RULES_TOKEN.findall(line)) for line in lines] or [0]
    line = counts.index(max(counts)) + 1
    return RulesetSyntaxError(Diagnostic(
        "the ruleset is nested too deeply: an expression here is too long (split it with "
        "let or define)", Location(filename, line, 1), code="too-deep",
        source_line=lines[line - 1] if lines else None))


def _syntax_error(exc: UnexpectedInput, text: str, lines: list[str],
                  filename: str) -> RulesetSyntaxError:
    line = getattr(exc, "line", None) or (len(lines) if lines else 1)
    column = getattr(exc, "column", None) or 1
    if line == -1 or column == -1:  # Lark reports EOF this way sometimes
        line = max(1, len(lines))
        column = len(lines[-1]) + 1 if lines else 1
    source_line = lines[line - 1] if 0 < line <= len(lines) else ""
    # an offset into ``text`` whenever it is read below (Lark's stubs say ``None``)
    pos = cast(int, exc.pos_in_stream)
    hint = None
    code = "syntax"
    if isinstance(exc, UnexpectedCharacters):
        char = text[pos] if pos < len(text) else ""
        message = f"unexpected character {char!r}"
        if char == "'":
            hint = 'strings are written in double quotes: "like this"'
        elif char in "&|!":
            nxt = text[pos + 1:pos + 2]
            word = {"&": "and", "|": "or", "!": "not"}[char]
            if char == "!" and nxt == "=":
                pass
            else:
                message = f"unexpected character {char!r}; this language writes {word!r}"
                hint = "conditions combine with 'and', 'or' and 'not'"
        elif char == '"':
            message = "a string is not closed"
            hint = 'a string must end with " on the same line'
            code = "unclosed-string"
    elif isinstance(exc, UnexpectedEOF) or (isinstance(exc, UnexpectedToken)
                                            and exc.token.type == "$END"):
        expected = set(exc.expected)
        message = f"the file ended too early; expected {_expected(expected)}"
        code = "unexpected-end"
        open_blocks = _open_blocks(text)
        if open_blocks:
            oline, ocol = open_blocks[-1]
            message = (f"the file ended inside a block: the bracket opened at line {oline}, "
                       f"column {ocol} is never closed")
            hint = "add the missing closing bracket"
            code = "unclosed-block"
    elif isinstance(exc, UnexpectedToken):
        token: Token = exc.token
        expected = set(exc.expected)
        if token.type in ("NAME", "INT"):
            found = f"{'name' if token.type == 'NAME' else 'number'} '{token}'"
        else:
            found = f"'{token}'"
        message = f"unexpected {found}; expected {_expected(expected)}"
        keywords = _keywords(expected)
        if token.type == "NAME":
            close = difflib.get_close_matches(str(token), keywords, n=1, cutoff=0.6)
            if close:
                message = f"unknown word '{token}'; did you mean '{close[0]}'?"
                code = "misspelt-keyword"
        if str(token) == "=" and pos > 0 and text[pos - 1] == "=":
            column = max(1, column - 1)
            message = ("unexpected '=='; '==' compares two values, but 'let' and 'set' assign "
                       "with a single '='")
        elif str(token) in ("<", ">", "<=", ">=", "==", "!=") and "CMP" not in expected:
            message = (f"unexpected '{token}': comparisons cannot be chained (a < b < c); "
                       "write a < b and b < c")
            code = "syntax"
        elif str(token) == "=" and "EQUAL" not in expected and "COLON" not in expected:
            hint = "to compare two values write ==; = only assigns (let x = ..., set x = ...)"
            code = "assign-in-condition"
        elif str(token) == "-" and "__ANON_0" in expected:
            hint = "write a range of numbers as 2..5"
            code = "bad-range"
        elif str(token) == "}" and not _open_blocks(text[:pos]):
            message = "unexpected '}': there is no open block to close here"
            code = "extra-bracket"
        elif token.type == "STRING" and "COLON" in expected:
            hint = "a ':' is missing before this"
        elif "COLON" in expected and len(expected) <= 2:
            hint = "a ':' is missing here"
            code = "missing-colon"
    else:  # pragma: no cover - Lark has no other kinds today
        message = "syntax error"
    return RulesetSyntaxError(Diagnostic(message, Location(filename, line, column),
                                         code=code, source_line=source_line, hint=hint))
