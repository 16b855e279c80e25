"""A Pygments lexer of the rules language, for docs and other tools.

Registered as the Pygments lexer ``rules`` (entry point ``pygments.lexers`` in
pyproject.toml), so ```` ```rules ```` code blocks are highlighted once rulepack is
installed with its ``lsp`` extra (which brings Pygments). The rules follow the
TextMate grammar of ``editors/vscode``: declaration and statement words are keywords
only where a declaration or a statement starts (a pattern may be called ``set``).
"""

from __future__ import annotations

from pygments.lexer import RegexLexer, bygroups, words
from pygments.token import (Comment, Keyword, Name, Number, Operator, Punctuation, String,
                            Text, Whitespace)

_FUNCTIONS = ("abs", "after", "all", "any", "at", "best", "cell", "cells", "count", "distinct",
              "empty", "ends", "first", "flatten", "is_active", "knows", "last", "matches",
              "max", "min", "neighbours", "only", "order", "partition", "partitionable",
              "random", "score", "stack_at", "step", "sum", "team", "under", "unique",
              "usable", "height")
_STATEMENTS = ("move", "flip", "shuffle", "roll", "let", "set", "reset", "for", "if", "else", "while",
               "repeat", "rounds", "turns", "choose", "do", "eliminate", "claim", "arrange", "say",
               "action", "maximize", "rotate")
_IDENT = r"[A-Za-z_][A-Za-z0-9_]*"
_START = r"((?:^|(?<=\{)|(?<=;))[ \t]*(?:\}[ \t]*)?)"


class RulesLexer(RegexLexer):
    """Pygments lexer of rulepack ``.rules`` files."""

    name = "rulepack rules"
    aliases = ["rules", "rulepack"]
    filenames = ["*.rules"]
    url = "https://github.com/rulepack/rulepack"

    tokens = {
        "root": [
            (r"#.*?$", Comment.Single),
            (r'"', String.Double, "string"),
            (r"^([ \t]*)(game|component|zone|pattern|const|var|option|phase|define|order|"
             r"attribute)(\s+)(" + _IDENT + ")",
             bygroups(Whitespace, Keyword.Declaration, Whitespace, Name.Class)),
            (r"^([ \t]*)(winner)(\s+)(highest|lowest)(\s+)(score)\b",
             bygroups(Whitespace, Keyword.Declaration, Whitespace, Keyword, Whitespace, Keyword)),
            (r"^([ \t]*)(language|use|score|heuristic|require|setup|play)\b",
             bygroups(Whitespace, Keyword.Declaration)),
            (r"^([ \t]*)(scores)(\s+)(sum)\b", bygroups(Whitespace, Keyword, Whitespace, Keyword)),
            (r"^([ \t]*)(title|source|players|seats|teams|scores|copies|called|back|draw|rolls)\b",
             bygroups(Whitespace, Keyword)),
            (r"^([ \t]*)(at)(\s+)(most)\b", bygroups(Whitespace, Keyword, Whitespace, Keyword)),
            (r"(?<=[0-9A-Za-z_)\]] )(decisions)\b(?=[ \t]*(#.*)?$)", Keyword),
            # heuristic(p) = ... after N random decisions
            (r"\b(after)\b(?=\s+[0-9]+\s+random\s+decisions\b)", Keyword),
            (r"(?<=[0-9] )(random)\b(?=\s+decisions\b)", Keyword),
            (_START + r"(end)(\s+)(game|turn|round)\b(?:(\s+)(winners)\b)?",
             bygroups(Whitespace, Keyword, Whitespace, Keyword, Whitespace, Keyword)),
            (_START + r"(" + "|".join(_STATEMENTS) + r")\b", bygroups(Whitespace, Keyword)),
            (words(_FUNCTIONS, prefix=r"\b", suffix=r"(?=\s*\()"), Name.Builtin),
            (r"(?:(?<=draw )|(?<=, ))(shape|symbol|colour|color)\b", Keyword),
            (r"(?<=: )(stack|row|pile|groups|grid|bool|text)\b", Keyword),
            (r"(?<=: |, )(size|same|distinct|consecutive|covers|each|wild)\b", Keyword),
            (r"\b(seen)(\s+)(by)\b", bygroups(Keyword, Whitespace, Keyword)),
            (r"(?<=up |wn )(shows)\b", Keyword),       # up shows, down shows
            (r"(?<=[0-9A-Za-z_)\]] )weights\b(?= )", Keyword),   # rolls N: ... weights ...
            (r"\b(per)(\s+)(player|team)\b", bygroups(Keyword, Whitespace, Keyword)),
            (r"\b(one)(\s+)(of)\b", bygroups(Keyword, Whitespace, Keyword)),
            (r"(?<=[0-9A-Za-z_)\]] )x(?= [0-9A-Za-z_(])(?! (in|and|or|by|where|if|then|else|"
             r"for)\b)", Keyword),
            (r"\b(and|or|not|in)\b", Operator.Word),
            (words(("if", "then", "else", "for", "until", "times", "from", "to", "into",
                    "where", "by", "descending", "of", "top", "bottom", "argmax", "maximal",
                    "through", "along", "without", "per", "notation", "stacked",
                    "clockwise"), prefix=r"\b",
                   suffix=r"\b"),
             Keyword),
            (r"(?<=maximal )run\b", Keyword),
            (r"\bface(?=\s+(up|down)\b)", Keyword),
            (r"\bat(?=\s+bottom\b)", Keyword),
            (r"\b(none|true|false|up|down)\b", Keyword.Constant),
            (r"\b(players|active|others|current|next|round|box|axes|directions|owner|nobody|"
             r"everyone)\b", Name.Builtin.Pseudo),
            (_IDENT + r"(?=\s*\()", Name.Function),
            (_IDENT, Name),
            (r"[0-9]+", Number.Integer),
            (r"==|!=|<=|>=|<|>|\.\.|//|[-+*/%=]", Operator),
            (r"[{}()\[\],:.;]", Punctuation),
            (r"\n", Whitespace),
            (r"[ \t]+", Whitespace),
            (r".", Text),
        ],
        "string": [
            (r"\\.", String.Escape),
            (r"\{" + _IDENT + r"\}", String.Interpol),
            (r'"', String.Double, "#pop"),
            (r"$", String.Double, "#pop"),
            (r'[^"\\{\n]+', String.Double),
            (r"\{", String.Double),
        ],
    }
