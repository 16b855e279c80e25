"""What the language server knows of one ``.rules`` text, without the protocol.

:func:`analyse` reads a text with the language's own parser and checks it as
``rulepack validate`` does (:func:`rulepack.validation.check_text`); the other
functions answer an editor's questions about it (completion, hover, definition,
references, rename, outline). Positions here are 0-based ``(line, character)``
pairs, as in the Language Server Protocol (characters are code points).

Several syntax errors per text: after one, the top-level declaration holding it is
blanked out (spaces, so every other position stays) and the rest is read again,
up to :data:`MAX_SYNTAX_ERRORS` times. The declarations that parse give the names
for completion even while the text being typed does not parse.
"""

from __future__ import annotations

import functools

import re
from dataclasses import dataclass, field
from typing import Any

from lark import Token, Tree

from rulepack.errors import Diagnostic, RulepackError, RulesetSyntaxError

#: Syntax errors reported at most per text.
MAX_SYNTAX_ERRORS = 10

DECLARATION_KEYWORDS = ("language", "game", "use", "component", "order", "attribute", "option",
                        "zone", "pattern", "const", "define", "var", "score", "heuristic",
                        "require", "winner", "setup", "phase", "play")
STATEMENT_KEYWORDS = ("move", "flip", "shuffle", "roll", "let", "set", "reset", "for", "if", "else",
                      "while", "repeat", "rounds", "turns", "choose", "end", "do", "eliminate",
                      "claim", "arrange", "say", "maximize", "rotate")
GAME_FIELDS = ("title", "source", "players", "seats", "teams", "scores")
COMPONENT_FIELDS = ("copies", "called", "back", "draw", "rolls")
DRAW_HINTS = ("shape", "symbol", "colour", "color")
EXPRESSION_KEYWORDS = ("and", "or", "not", "in", "where", "by", "descending", "top", "bottom",
                       "of", "if", "then", "else", "argmax", "maximal", "run", "through",
                       "along", "none", "true", "false", "up", "down", "for")
_DECLARATION_START = re.compile(r"^(%s)\b" % "|".join(DECLARATION_KEYWORDS))
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")

#: Kinds of declarations that have a name, by parse-tree rule.
_NAMED = {"game_decl": "game", "component_decl": "component", "zone_decl": "zone",
          "pattern_decl": "pattern", "const_decl": "const", "define_decl": "define",
          "var_decl": "var", "option_decl": "option", "phase_decl": "phase",
          "order_decl": "attribute", "attribute_decl": "attribute"}
_UNNAMED = {"setup_decl": "setup", "play_decl": "play", "score_decl": "score",
            "heuristic_decl": "heuristic", "winner_highest": "winner", "winner_lowest": "winner",
            "require_decl": "require", "use_decl": "use",
            "language_decl": "language"}


@dataclass
class Symbol:
    """A declaration: its name's place and the whole declaration's span.

    :param kind: ``game``, ``component``, ``zone``, ``pattern``, ``const``,
        ``define``, ``var``, ``option``, ``phase``, ``attribute``, or for
        declarations without a name ``setup``, ``play``, ``score``... and
        ``action`` (an alternative of a ``choose``).
    """

    name: str
    kind: str
    start: tuple[int, int]
    end: tuple[int, int]
    span_start: tuple[int, int]
    span_end: tuple[int, int]
    detail: str = ""
    doc: str = ""
    children: list["Symbol"] = field(default_factory=list)


@dataclass
class Analysis:
    """One text, read: its diagnostics, its declarations and its tokens.

    :param attributes: component → attribute → the values its pieces take (as
        text), from compiling the ruleset; empty lists where it does not compile.
    """

    text: str
    diagnostics: list[Diagnostic]
    tokens: list[Token] = field(default_factory=list)
    outline: list[Symbol] = field(default_factory=list)
    symbols: dict[str, Symbol] = field(default_factory=dict)
    attributes: dict[str, dict[str, list[str]]] = field(default_factory=dict)
    filename: str = "<string>"


def analyse(text: str, filename: str = "<string>") -> Analysis:
    """Read and check a text. Never raises for bad input.

    :returns: the :class:`Analysis`; its diagnostics are those of ``rulepack
        validate`` when the text parses, else its syntax errors (one per broken
        declaration).
    """
    from rulepack.grammar.parser import parse_source
    work = text
    syntax: list[Diagnostic] = []
    tree: Tree[Token] | None = None
    tokens: list[Token] = []
    while True:
        try:
            tree, tokens = parse_source(work, filename)
            break
        except RulesetSyntaxError as exc:
            syntax.extend(exc.diagnostics)
            blanked = _blank_declaration(work, exc.diagnostics[0].location.line or 1,
                                         exc.diagnostics[0].location.column or 1)
            if blanked == work or len(syntax) >= MAX_SYNTAX_ERRORS:
                break
            work = blanked
        except RulepackError as exc:
            syntax.extend(exc.diagnostics)
            break
    if syntax:
        diagnostics = syntax
    else:
        from rulepack.validation import check_text
        diagnostics = check_text(text, filename)
    result = Analysis(text, diagnostics, tokens, filename=filename)
    if tree is not None:
        _declarations(result, tree, text)
        result.attributes = _attributes(work, filename)
    return result


def _blank_declaration(text: str, line: int, column: int) -> str:
    """The text with the top-level declaration holding ``line`` replaced by spaces."""
    lines = text.split("\n")
    starts = [i for i, t in enumerate(lines) if _DECLARATION_START.match(t)]
    index = min(max(line - 1, 0), len(lines) - 1)
    before = [s for s in starts if s <= index]
    if before and before[-1] == index and column == 1 and len(before) > 1:
        before.pop()  # the previous declaration was never closed
    first = before[-1] if before else 0
    after = [s for s in starts if s > first]
    last = after[0] if after else len(lines)
    for i in range(first, last):
        lines[i] = " " * len(lines[i])
    return "\n".join(lines)


def _pos(token: Token) -> tuple[int, int]:
    return (token.line or 1) - 1, (token.column or 1) - 1


def _end(token: Token) -> tuple[int, int]:
    return (token.end_line or 1) - 1, (token.end_column or 1) - 1


def _span(node: Tree[Token]) -> tuple[tuple[int, int], tuple[int, int]]:
    meta = node.meta
    return (meta.line - 1, meta.column - 1), (meta.end_line - 1, meta.end_column - 1)


def _doc(lines: list[str], line: int) -> str:
    """The comments just above a line (a declaration's doc comment) and after it."""
    above = []
    i = line - 1
    while i >= 0 and lines[i].strip().startswith("#"):
        above.append(lines[i].strip().lstrip("#").strip())
        i -= 1
    doc = "\n".join(reversed(above))
    code = lines[line] if line < len(lines) else ""
    trailing = _trailing_comment(code)
    if trailing:
        doc = f"{doc}\n{trailing}" if doc else trailing
    return doc


def _comment_start(code: str) -> int:
    """Where the comment of a line starts (its length if it has none)."""
    in_string = False
    for i, ch in enumerate(code):
        if ch == '"' and (i == 0 or code[i - 1] != "\\"):
            in_string = not in_string
        elif ch == "#" and not in_string:
            return i
    return len(code)


def _trailing_comment(code: str) -> str:
    start = _comment_start(code)
    return code[start + 1:].strip() if code[:start].strip() else ""


def _code(line: str) -> str:
    return line[:_comment_start(line)].strip()


def _declarations(result: Analysis, tree: Tree[Token], text: str) -> None:
    lines = text.split("\n")
    for item in tree.children:
        if not isinstance(item, Tree):
            continue
        kind = str(item.data)
        span_start, span_end = _span(item)
        detail = _code(lines[span_start[0]]) if span_start[0] < len(lines) else ""
        doc = _doc(lines, span_start[0])
        name_token = next((c for c in item.children
                           if isinstance(c, Token) and c.type == "NAME"), None)
        if kind in _NAMED and name_token is not None:
            symbol = Symbol(str(name_token), _NAMED[kind], _pos(name_token), _end(name_token),
                            span_start, span_end, detail, doc)
            result.symbols.setdefault(symbol.name, symbol)
        else:
            label = _UNNAMED.get(kind, kind)
            if kind in ("score_decl", "heuristic_decl") and name_token is not None:
                label = f"{label}({name_token})"
            symbol = Symbol(label, _UNNAMED.get(kind, kind), span_start, span_start,
                            span_start, span_end, detail, doc)
        if kind == "component_decl":
            for fld in item.children:
                if isinstance(fld, Tree) and fld.data in ("comp_attribute", "comp_derived"):
                    token = fld.children[0]
                    assert isinstance(token, Token)
                    fs, fe = _span(fld)
                    child = Symbol(str(token), "attribute", _pos(token), _end(token), fs, fe,
                                   _code(lines[fs[0]]), _doc(lines, fs[0]))
                    symbol.children.append(child)
                    result.symbols.setdefault(child.name, child)
        for node in item.iter_subtrees_topdown():
            if node.data == "alternative":
                words = node.children[0]
                s, e = _span(node)
                symbol.children.append(Symbol(str(words)[1:-1], "action", s, s, s, e,
                                              _code(lines[s[0]])))
        result.outline.append(symbol)


def _attributes(text: str, filename: str) -> dict[str, dict[str, list[str]]]:
    """component → attribute → values, by compiling the ruleset for its fewest players."""
    from rulepack.grammar.parser import parse_rules
    from rulepack.loader import game_from_ir, merge_libraries
    out: dict[str, dict[str, list[str]]] = {}
    try:
        ir = merge_libraries(parse_rules(text, filename))
    except (RulepackError, RecursionError):
        return out
    for comp in ir.get("components", []):
        attrs = out.setdefault(comp["name"], {})
        for a in comp.get("attributes", []) + comp.get("derived", []):
            attrs.setdefault(a["name"], [])
    for a in ir.get("attributes", []):
        for comp_name in a.get("of") or list(out):
            out.setdefault(comp_name, {}).setdefault(a["name"], [])
    # the pieces only: without the flow and the scores, which may be half written
    ir = dict(ir, setup=[], phases=[], play=[], score=None, heuristic=None, winner=None,
              requirements=[], variables=[], defines=[])
    try:
        game = game_from_ir(ir, filename, check=False)
        pieces = game.instance(game.min_players, {}).pieces
    except Exception:  # noqa: BLE001 - a ruleset being written may not compile yet
        return out
    for piece in pieces:
        attrs = out.setdefault(piece.kind, {})
        for name, value in piece.attrs.items():
            values = attrs.setdefault(name, [])
            text_value = str(value)
            if text_value not in values:
                values.append(text_value)
    return out


# ---------------------------------------------------------------------- positions
def offset(text: str, line: int, character: int) -> int:
    """The offset in ``text`` of a 0-based (line, character)."""
    lines = text.split("\n")
    line = min(max(line, 0), len(lines) - 1)
    return sum(len(t) + 1 for t in lines[:line]) + min(character, len(lines[line]))


def diagnostic_range(text: str, d: Diagnostic) -> tuple[tuple[int, int], tuple[int, int]]:
    """Where a diagnostic points, as a 0-based range: the word, string or character
    at its line and column (the whole first line when it has no column)."""
    lines = text.split("\n")
    if d.location.line is None:
        return (0, 0), (0, len(lines[0]) if lines else 0)
    line = min(max(d.location.line - 1, 0), len(lines) - 1)
    code = lines[line]
    if d.location.column is None:
        return (line, 0), (line, len(code))
    start = min(d.location.column - 1, len(code))
    end = start
    if start < len(code):
        word = _WORD.match(code, start)
        if word:
            end = word.end()
        elif code[start] == '"':
            close = code.find('"', start + 1)
            end = close + 1 if close > 0 else len(code)
        else:
            end = start + 2 if code[start:start + 2] in ("==", "!=", "<=", ">=", "..") \
                else start + 1
    return (line, start), (line, end)


def word_at(analysis: Analysis, line: int, character: int) -> tuple[str, Token | None] | None:
    """The word under a position and its token (``None`` if it lies where the text
    did not parse); ``None`` inside a comment or a string, or off any word."""
    text = analysis.text
    at = offset(text, line, character)
    for token in analysis.tokens:
        if (token.start_pos or 0) <= at < (token.end_pos or 0) \
                and token.type in ("COMMENT", "STRING"):
            return None
    start = at
    while start > 0 and (text[start - 1].isalnum() or text[start - 1] == "_"):
        start -= 1
    match = _WORD.match(text, start)
    if match is None or match.end() < at:
        return None
    token = next((t for t in analysis.tokens if t.start_pos == start), None)
    return match.group(), token


# ---------------------------------------------------------------------- answers
def definition(analysis: Analysis, line: int, character: int) -> Symbol | None:
    """The declaration of the name under a position, if it is declared here."""
    found = word_at(analysis, line, character)
    if found is None or (found[1] is not None and found[1].type != "NAME"):
        return None
    return analysis.symbols.get(found[0])


def references(analysis: Analysis, name: str) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """Every place the name is written (as a name, not in strings or comments),
    its declaration included, in order."""
    return [(_pos(t), _end(t)) for t in analysis.tokens if t.type == "NAME" and str(t) == name]


def rename(analysis: Analysis, line: int, character: int,
           new_name: str) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """The places to rewrite to rename the declared name under a position.

    :raises ValueError: no declared name there, or ``new_name`` is not a name or is
        a word of the language.
    """
    symbol = definition(analysis, line, character)
    if symbol is None:
        raise ValueError("only a name declared in this file can be renamed")
    if not _WORD.fullmatch(new_name):
        raise ValueError(f"{new_name!r} is not a name (a letter or _, then letters, digits, _)")
    from rulepack.lsp.reference import load
    reserved = set(DECLARATION_KEYWORDS) | set(STATEMENT_KEYWORDS) | set(EXPRESSION_KEYWORDS) \
        | set(load()["names"]) | set(load()["functions"])
    if new_name in reserved:
        raise ValueError(f"{new_name!r} is a word of the language; choose another name")
    if new_name in analysis.symbols:
        raise ValueError(f"{new_name!r} is already declared")
    return references(analysis, symbol.name)


def hover(analysis: Analysis, line: int, character: int) -> str | None:
    """Markdown about the word under a position: the reference's text for a word of
    the language or a built-in, the declaration and its doc comment for a name."""
    from rulepack.lsp.reference import load
    found = word_at(analysis, line, character)
    if found is None:
        return None
    word, token = found
    ref = load()
    is_name = token is None or token.type == "NAME"
    inferred = types_at(analysis, token) if is_name and token is not None else ""
    if is_name and word in analysis.symbols:
        symbol = analysis.symbols[word]
        text = f"```rules\n{symbol.detail}\n```"
        return text + (f"\n\n{symbol.doc}" if symbol.doc else "") + f"\n\n({symbol.kind})" \
            + inferred
    if word in ref["functions"]:
        entry = ref["functions"][word]
        return f"```rules\n{entry['signature']}\n```\n\n{entry['doc']}"
    if word in ref["names"]:
        return f"**{word}** (built-in name): {ref['names'][word]}" + inferred
    if word in ref["constructs"]:
        return str(ref["constructs"][word])
    return inferred.strip() or None


def types_at(analysis: Analysis, token: Token) -> str:
    """Markdown lines of what the type check infers at a name's token (``pips``:
    a map of numbers; ``pips[...]``: a number), or ``""``."""
    from rulepack.printable import printable
    found = [i for i in _inferred(analysis.text, analysis.filename)
             if (i.line, i.column) == (token.line, token.column)]
    return "".join(f"\n\n`{printable(i.text)}`: {printable(i.kind)}" for i in found)


@functools.lru_cache(maxsize=4)
def _inferred(text: str, filename: str) -> tuple[Any, ...]:
    """What the type check infers of a text (see
    :func:`rulepack.validation.inferred_types`); nothing where it does not compile."""
    from rulepack.validation import inferred_types
    try:
        return tuple(inferred_types(text, filename))
    except (RulepackError, RecursionError, MemoryError):
        return ()


@dataclass
class Completion:
    """One completion: ``kind`` is ``keyword``, ``function``, ``name`` (a built-in
    name), ``attribute``, ``value``, or the kind of a declaration (``zone``...)."""

    label: str
    kind: str
    detail: str = ""
    doc: str = ""
    insert: str | None = None
    rank: int = 5


def complete(analysis: Analysis, line: int, character: int) -> list[Completion]:
    """What may be written at a position, the likeliest first (by ``rank``)."""
    text = analysis.text
    at = offset(text, line, character)
    line_text = text.split("\n")[line] if line < len(text.split("\n")) else ""
    before_line = line_text[:character]
    partial = re.search(r"[A-Za-z0-9_]*$", before_line)
    before = before_line[:partial.start()] if partial else before_line
    previous = text[:at - (len(before_line) - len(before))]
    context = _block_context(previous)
    out: list[Completion] = []
    all_attributes = sorted({a for comp in analysis.attributes.values() for a in comp})

    def attributes_of(component: str | None) -> list[str]:
        if component in analysis.attributes:
            return sorted(analysis.attributes[component])
        return all_attributes

    if re.search(r"\.\s*$", before):
        return [Completion(a, "attribute", rank=1) for a in all_attributes]
    if before.strip() == "" and context != "expression":
        words = {"top": DECLARATION_KEYWORDS, "game": GAME_FIELDS,
                 "component": COMPONENT_FIELDS, "choose": ("action",),
                 "block": STATEMENT_KEYWORDS}[context]
        out = [Completion(w, "keyword", rank=1) for w in words]
        if context == "component":
            out += [Completion(a, "attribute", rank=2) for a in all_attributes]
        return out
    tail = before.rstrip()
    if re.search(r"\bshape$", tail):
        from rulepack.grammar.transformer import DRAW_SHAPES
        return [Completion(s, "value", rank=1) for s in DRAW_SHAPES]
    if re.search(r"\b(draw|,)$", tail) and re.search(r"^\s*draw\b", line_text):
        return [Completion(w, "keyword", rank=1) for w in DRAW_HINTS]
    if re.search(r"\bface$", tail):
        return [Completion(w, "keyword", rank=1) for w in ("up", "down")]
    if re.search(r"\b(colour|color)\s+by$", tail):
        return [Completion(a, "attribute", rank=1) for a in all_attributes]
    compared = re.search(r"\b([A-Za-z_]\w*)\s*(==|!=)$", tail)
    if compared:
        values = sorted({v for comp in analysis.attributes.values()
                         for v in comp.get(compared.group(1), [])})
        out += [Completion(v, "value", detail=f"a value of {compared.group(1)}", rank=1)
                for v in values]
    where = re.search(r"\b([A-Za-z_]\w*)(\[[^\]]*\])?\s+where\b[^{}]*$", tail)
    if where and re.search(r"\b(where|and|or|not)$", tail):
        component = where.group(1)
        out += [Completion(a, "attribute", detail=f"an attribute of {component}"
                           if component in analysis.attributes else "an attribute", rank=1)
                for a in attributes_of(component)]
        out += [Completion(w, "name", rank=2) for w in ("face", "owner")]
    zones_first = bool(re.search(r"\b(top|bottom)(\s+\S+)?\s+of$|\b(to|shuffle|flip|in|"
                                 r"move|arrange|into|count)$|\($", tail))
    for name, symbol in analysis.symbols.items():
        rank = 1 if zones_first and symbol.kind == "zone" else 3
        out.append(Completion(name, symbol.kind, symbol.detail, symbol.doc, rank=rank))
    from rulepack.lsp.reference import load
    ref = load()
    for name, entry in ref["functions"].items():
        out.append(Completion(name, "function", entry["signature"], entry["doc"],
                              insert=f"{name}(", rank=4))
    for name, doc in ref["names"].items():
        out.append(Completion(name, "name", "built-in name", doc, rank=4))
    out += [Completion(w, "keyword", rank=6) for w in EXPRESSION_KEYWORDS]
    seen: set[str] = set()
    unique = []
    for c in sorted(out, key=lambda c: c.rank):
        if c.label not in seen:
            seen.add(c.label)
            unique.append(c)
    return unique


def _block_context(previous: str) -> str:
    """Where the text before a position stands: ``top`` (between declarations),
    ``game`` or ``component`` (their fields), ``choose`` (its actions), ``block``
    (statements) or ``expression`` (inside brackets of an expression)."""
    from rulepack.grammar.parser import _brackets
    opened: list[tuple[str, int, int]] = []
    for ch, line, col in _brackets(previous):
        if ch in "([{":
            opened.append((ch, line, col))
        elif opened:
            opened.pop()
    if not opened:
        return "top"
    ch, line, col = opened[-1]
    if ch != "{":
        return "expression"
    lines = previous.split("\n")
    head = "\n".join(lines[:line - 1] + [lines[line - 1][:col - 1]])
    if re.search(r"(^|\n)\s*game\s+\w+\s*$", head):
        return "game"
    if re.search(r"(^|\n)\s*component\s+\w+\s*$", head):
        return "component"
    if re.search(r"\bchoose(\s+by\s+[^{}\n]+)?\s*$", head):
        return "choose"
    if re.search(r"(=|:|,|\(|\[|\{|\bby)\s*$", head):
        return "expression"  # a map
    return "block"


def outline(analysis: Analysis) -> list[Symbol]:
    """The declarations in order: game, components (with their attributes), zones,
    patterns, phases (with their actions)..."""
    return analysis.outline


def as_dict(symbol: Symbol) -> dict[str, Any]:
    """A symbol as plain data (tests, debugging)."""
    return {"name": symbol.name, "kind": symbol.kind, "start": symbol.start,
            "children": [as_dict(c) for c in symbol.children]}
