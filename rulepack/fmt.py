"""``rulepack fmt``: one canonical layout for ``.rules`` text.

:func:`format_rules` reads the text with the language's own parser
(:func:`rulepack.grammar.parser.parse_source`: the parse tree and every token,
comments included) and writes the tokens out again, deciding all whitespace
itself, so two texts that differ only in layout give the same bytes:

* one declaration, field (of ``game`` and ``component``), statement or ``action``
  per line, indented two spaces per block; a block's ``{`` ends its line and its
  ``}`` starts one (``} else {``, ``} until ...`` go on);
* one space between words, none inside brackets, before ``,`` ``:`` ``.`` ``)``
  ``]`` or around ``..``, none between a function and its ``(``, a value and its
  ``[``, a minus sign and what it negates; ``;`` separators are dropped;
* a blank line between top-level declarations, except between one-line
  declarations of the same kind (a run of ``zone`` or ``var`` lines) when the
  second has no comment above it; no blank lines inside blocks (separate the
  paragraphs of a comment with an empty ``#`` line);
* every comment is kept: one on its own line stays on its own line, indented as
  what follows it; one after code on the same line stays there, starting at
  column 41 (two spaces after longer code). Code that follows such a comment
  inside a statement goes on a continuation line, indented four more spaces.

Only whitespace changes: the tokens, and so the compiled IR, stay the same.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from lark import Token, Tree

#: The indentation of one block level.
INDENT = "  "
#: Trailing comments start at this column (0-based) when the code leaves room.
COMMENT_COLUMN = 40
#: A continuation line (code after a comment inside a statement) is indented this much more.
CONTINUATION = "    "

_ONE_LINE_KINDS = {"use_decl": "use", "order_decl": "attribute", "attribute_decl": "attribute",
                   "option_decl": "option", "zone_decl": "zone", "pattern_decl": "pattern",
                   "const_decl": "const", "define_decl": "define", "var_decl": "var",
                   "score_decl": "score", "heuristic_decl": "score", "winner_highest": "score",
                   "winner_lowest": "score", "require_decl": "require"}
_NO_SPACE_BEFORE = {",", ")", "]", ".", "..", ":"}
_NO_SPACE_AFTER = {"(", "[", ".", ".."}


@dataclass
class _Line:
    indent: str
    code: list[str] = field(default_factory=list)
    comment: str | None = None
    blank_before: bool = False

    def text(self) -> str:
        code = self.indent + " ".join(self.code) if self.code else ""
        if self.comment is None:
            return code
        if not code:
            return self.indent + self.comment
        pad = max(COMMENT_COLUMN - len(code), 2)
        return code + " " * pad + self.comment


@dataclass
class _Layout:
    """What the parse tree says about the tokens, by their offsets in the text."""

    line_starts: set[int] = field(default_factory=set)
    top_level: dict[int, Tree[Token]] = field(default_factory=dict)
    opens: set[int] = field(default_factory=set)
    closes: set[int] = field(default_factory=set)
    tight: set[int] = field(default_factory=set)   # no space before this token
    prefix: set[int] = field(default_factory=set)  # no space after this token (unary minus)
    inline_open: set[int] = field(default_factory=set)  # a map's '{': no space after
    inline_close: set[int] = field(default_factory=set)


def format_rules(text: str, filename: str = "<string>") -> str:
    """The canonical layout of a ruleset's text.

    :param text: a ``.rules`` text (a ruleset or a library).
    :param filename: shown in error messages.
    :returns: the formatted text, ending with one line break (empty for an empty text).
    :raises RulesetSyntaxError: the text does not parse (located, as ``validate`` says).
    """
    from rulepack.grammar.parser import parse_source
    tree, tokens = parse_source(text, filename)
    layout = _layout(tree, [t for t in tokens if t.type not in ("WS", "COMMENT")])
    return _emit(text, [t for t in tokens if t.type not in ("WS", "SEMICOLON")], layout)


def _next_token(tokens: list[Token], starts: list[int], pos: int) -> int:
    """Index of the first token starting at or after offset ``pos``."""
    from bisect import bisect_left
    return bisect_left(starts, pos)


def _layout(tree: Tree[Token], tokens: list[Token]) -> _Layout:
    starts = [t.start_pos or 0 for t in tokens]
    out = _Layout()

    def token_at(pos: int) -> Token | None:
        i = _next_token(tokens, starts, pos)
        return tokens[i] if i < len(tokens) else None

    def after(pos: int) -> Token | None:
        """The first token starting at or after ``pos``."""
        return token_at(pos)

    def block(open_pos: int, close_pos: int) -> None:
        out.opens.add(open_pos)
        out.closes.add(close_pos)

    for item in tree.children:
        if isinstance(item, Tree):
            out.line_starts.add(item.meta.start_pos)
            out.top_level[item.meta.start_pos] = item
    for node in tree.iter_subtrees():
        if not hasattr(node.meta, "start_pos"):
            continue
        start, end = node.meta.start_pos, node.meta.end_pos
        kind = node.data
        if kind == "block":
            block(start, end - 1)
            for child in node.children:
                if isinstance(child, Tree) and hasattr(child.meta, "start_pos"):
                    out.line_starts.add(child.meta.start_pos)
        elif kind in ("game_decl", "component_decl"):
            i = _next_token(tokens, starts, start)
            block(tokens[i + 2].start_pos or 0, end - 1)
            for child in node.children:
                if isinstance(child, Tree) and hasattr(child.meta, "start_pos"):
                    out.line_starts.add(child.meta.start_pos)
        elif kind == "choose_stmt":
            alternatives = [c for c in node.children
                            if isinstance(c, Tree) and c.data == "alternative"]
            first = _next_token(tokens, starts, alternatives[0].meta.start_pos)
            brace = first - 1
            block(tokens[brace].start_pos or 0, end - 1)
            out.line_starts.update(a.meta.start_pos for a in alternatives)
        elif kind == "call" or kind in ("define_decl", "score_decl", "heuristic_decl"):
            i = _next_token(tokens, starts, start)
            while tokens[i].type != "LPAR":  # f(...), define f(...), score(...)
                i += 1
            out.tight.add(tokens[i].start_pos or 0)
        elif kind == "set_stmt" and len(node.children) == 3:
            i = _next_token(tokens, starts, start)
            out.tight.add(tokens[i + 2].start_pos or 0)  # set NAME[...]
        elif kind == "index":
            target = node.children[0]
            target_end = (target.meta.end_pos if isinstance(target, Tree)
                          else target.end_pos or 0)
            bracket = after(target_end)
            if bracket is not None:
                out.tight.add(bracket.start_pos or 0)
        elif kind == "neg" or (kind == "signed" and getattr(node.children[0], "type", "") == "MINUS"):
            out.prefix.add(start)
        elif kind in ("map_", "dh_colour_by"):
            close = end - 1
            out.inline_close.add(close)
            if kind == "map_":
                out.inline_open.add(start)
            else:
                i = _next_token(tokens, starts, start)
                while tokens[i].type != "LBRACE":
                    i += 1
                out.inline_open.add(tokens[i].start_pos or 0)
    return out


def _space(prev: Token, tok: Token, layout: _Layout) -> bool:
    """Whether a space goes between two tokens on one line."""
    p, t = str(prev), str(tok)
    pos, prev_pos = tok.start_pos or 0, prev.start_pos or 0
    if t in _NO_SPACE_BEFORE or p in _NO_SPACE_AFTER:
        return False
    if pos in layout.tight or prev_pos in layout.prefix or prev_pos in layout.inline_open:
        return False
    if pos in layout.inline_close:
        return False
    return True


def _emit(text: str, tokens: list[Token], layout: _Layout) -> str:
    lines: list[_Line] = []
    depth = 0
    cur: _Line | None = None          # the line being written
    last: _Line | None = None         # the line that holds the previous token
    prev: Token | None = None
    pending: list[str] = []           # comments on their own lines, waiting for what follows
    prev_item: Tree[Token] | None = None
    first_item = True

    def finish() -> None:
        nonlocal cur
        if cur is not None:
            lines.append(cur)
            cur = None

    def flush(indent: str, blank: bool) -> None:
        for i, comment in enumerate(pending):
            lines.append(_Line(indent, comment=comment, blank_before=blank and i == 0))
        pending.clear()

    for tok in tokens:
        if tok.type == "COMMENT":
            comment = str(tok).rstrip()
            same_line = prev is not None and "\n" not in text[prev.end_pos or 0:tok.start_pos]
            if same_line and last is not None and last.comment is None:
                last.comment = comment
                if last is cur:
                    finish()
            else:
                finish()
                pending.append(comment)
            continue
        pos = tok.start_pos or 0
        blank = False
        if pos in layout.top_level:
            item = layout.top_level[pos]
            blank = not first_item and not (
                not pending and prev_item is not None and _one_line_kind(prev_item) is not None
                and _one_line_kind(prev_item) == _one_line_kind(item))
            first_item = False
            prev_item = item
        if pos in layout.closes:
            finish()
            depth -= 1
            flush(INDENT * (depth + 1), False)
            cur = _Line(INDENT * depth)
        elif pos in layout.line_starts:
            finish()
            if pending:
                flush(INDENT * depth, blank)
                blank = False
            cur = _Line(INDENT * depth, blank_before=blank)
        elif cur is None:
            flush(INDENT * depth + CONTINUATION, False)
            cur = _Line(INDENT * depth + CONTINUATION)
        if not cur.code or (prev is not None and _space(prev, tok, layout)):
            cur.code.append(str(tok))
        else:
            cur.code[-1] += str(tok)
        last, prev = cur, tok
        if pos in layout.opens:
            finish()
            depth += 1
    finish()
    if pending:
        flush("", bool(lines))
    if lines:
        lines[0].blank_before = False
    out: list[str] = []
    for line in lines:
        if line.blank_before:
            out.append("")
        out.append(line.text())
    return "\n".join(out) + "\n" if out else ""


def _one_line_kind(item: Tree[Token]) -> str | None:
    """The kind of a top-level declaration written on one line, else ``None``."""
    return _ONE_LINE_KINDS.get(str(item.data))
