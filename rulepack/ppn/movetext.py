"""Reading a PPN file: its games, each a YAML header and numbered moves.

A ``.ppn`` file holds one or more games, each starting with a line ``---``; a
game's header (YAML, ending with a line ``...`` or the first blank or indented
line) says its ``GameType``; its movetext is numbered moves (``1.``, ``1...``,
``setup.``), each of one or more submoves separated by blanks or ``;``, with
comments in braces. The reading follows ppgames' ``read_ppn()`` (github
``piecepackr/ppgames``, ``R/ppn.R``: ``parse_braces``, ``parse_moves``,
``clean_comments``), so the moves have ppgames' names, texts and comments:

- every token but a whole ``{comment}`` is brace-expanded as Bash does
  (``{a,b}``, ``{1..5}``, ``{a..f}``, ``{2..8..2}``);
- every ``;`` outside braces starts a new move, named after the previous one with
  one more ``.``;
- a move number is a token of letters, digits, ``_`` and ``.`` ending in ``.``;
  text before the first one is the move ``SetupFn..``.

Errors: :class:`~rulepack.errors.RulepackError` (a header that is not YAML).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import yaml

from rulepack.errors import Diagnostic, Location, RulepackError

__all__ = ["Move", "Game", "read_ppn", "split_moves"]

#: ASCII characters ICU counts as punctuation (``[[:punct:]]`` in ppgames' regular
#: expressions): not ``$ + < = > ^ ` | ~``
_PUNCT = r"""!"#%&'()*,\-./:;?@\[\\\]_{}"""
_MOVE_NUMBER = re.compile(r"(?<![\w" + _PUNCT + r"])[A-Za-z0-9_.]*\.+(?![\w" + _PUNCT +
                          r"])(?![^{]*\})")
_SEMICOLON = re.compile(r";(?![^{]*\})")
_COMMENT = re.compile(r"(?<![\w" + _PUNCT + r"])\{[^}]*\}(?![\w" + _PUNCT + r"])")
#: the most strings one token may expand to (a ``{1..1000000}`` is refused)
MAX_EXPANSION = 10_000


@dataclass(frozen=True)
class Move:
    """One move of a record: its number (``"1."``, ``"1..."``, ``"setup."``), its
    text (submoves separated by blanks: ``"h2-f4"``) and its comment (``"X wins"``)."""

    name: str
    text: str
    comment: str


@dataclass(frozen=True)
class Game:
    """One game of a PPN file: its header (``GameType`` and the rest, as YAML
    gives them) and its moves in order (the first, ``SetupFn..``, only when text
    comes before the first move number)."""

    metadata: dict[str, Any]
    moves: list[Move] = field(default_factory=list)
    #: the line of the file where the game starts (1-based)
    line: int = 1


def read_ppn(text: str, file: str = "<string>") -> list[Game]:
    """The games of a PPN file's text.

    :raises RulepackError: a header that is not YAML, or not a mapping (located at
        the game's first line)."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines = lines[:-1]
    starts = [i for i, line in enumerate(lines) if line.startswith("---")]
    if not starts or starts[0] != 0:
        starts = [0] + starts
    games = []
    for k, start in enumerate(starts):
        part = lines[start:starts[k + 1] if k + 1 < len(starts) else len(lines)]
        ends = [i for i, line in enumerate(part) if line.startswith("...")]
        if not ends:
            ends = [i for i, line in enumerate(part) if re.match(r"^[ \t]+|^$", line)]
        header, movetext = (part[:ends[0] + 1], part[ends[0] + 1:]) if ends else ([], part)
        games.append(Game(_metadata(header, file, start + 1),
                          split_moves(movetext) if movetext else [], start + 1))
    return games


def _metadata(header: list[str], file: str, line: int) -> dict[str, Any]:
    body = [h for h in header if not h.startswith(("---", "..."))]
    if not "".join(body).strip():
        return {}
    try:
        data = yaml.safe_load("\n".join(body))
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        at = line + 1 + (mark.line if mark is not None else 0)
        raise RulepackError(Diagnostic(f"the game's header is not YAML: {exc}",
                                       Location(file, at, None), code="bad-ppn")) from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise RulepackError(Diagnostic("the game's header is not a mapping of keys to values "
                                       "(GameType: ...)", Location(file, line, None),
                                       code="bad-ppn"))
    return data


def split_moves(movetext: list[str]) -> list[Move]:
    """The moves of movetext lines, named as ppgames names them."""
    text = _expand_tokens(movetext)
    text = _SEMICOLON.sub(" . ", text)
    spans = [m.span() for m in _MOVE_NUMBER.finditer(text)]
    names: list[str] = []
    raws: list[str] = []
    if not spans:
        names, raws = ["SetupFn.."], [text]
    else:
        if spans[0][0] > 0:
            names.append("")
            raws.append(text[:spans[0][0] - 1])
        for k, (s, e) in enumerate(spans):
            names.append(text[s:e])
            end = spans[k + 1][0] - 1 if k + 1 < len(spans) else len(text)
            raws.append(text[e + 1:end])
        if names[0] == "":
            names[0] = "SetupFn.."
    full = ["SetupFn."] + names
    for i in range(1, len(full)):
        if full[i] == ".":
            full[i] = full[i - 1] + "."
    out = []
    for name, raw in zip(full[1:], raws):
        comment = " ".join(re.sub(r"[{}]", "", " ".join(_COMMENT.findall(raw))).split())
        out.append(Move(name, " ".join(_COMMENT.sub("", raw).split()), comment))
    return out


def _expand_tokens(lines: list[str]) -> str:
    out: list[str] = []
    for token in " ".join(lines).split():
        if token.startswith("{") and token.endswith("}"):
            out.append(token)
        elif "{" in token:
            out.extend(e.replace("\\,", ",") for e in expand_braces(token))
        else:
            out.append(token)
    return " ".join(out)


def expand_braces(s: str) -> list[str]:
    """Bash's brace expansion of one token: ``a{1..3}`` → ``a1 a2 a3``; a brace
    that is no expansion is kept as it is. At most :data:`MAX_EXPANSION` strings."""
    depth, start = 0, 0
    for i, ch in enumerate(s):
        if ch == "{":
            if depth == 0:
                start = i
            depth += 1
        elif ch == "}" and depth:
            depth -= 1
            if depth == 0:
                inner, pre, post = s[start + 1:i], s[:start], s[i + 1:]
                alternatives = _alternatives(inner)
                if alternatives is None:
                    return [pre + "{" + inner + "}" + r for r in expand_braces(post)]
                out: list[str] = []
                for a in alternatives:
                    out.extend(expand_braces(pre + a + post))
                    if len(out) > MAX_EXPANSION:
                        return [s]
                return out
    return [s]


def _alternatives(inner: str) -> list[str] | None:
    parts, depth, current, previous = [], 0, "", ""
    for ch in inner:
        depth += (ch == "{") - (ch == "}")
        if ch == "," and depth == 0 and previous != "\\":
            parts.append(current)
            current = ""
        else:
            current += ch
        previous = ch
    parts.append(current)
    if len(parts) > 1:
        return parts
    m = re.fullmatch(r"(-?\d+)\.\.(-?\d+)(?:\.\.(-?\d+))?", inner)
    if m:
        a, b = int(m[1]), int(m[2])
        step = abs(int(m[3])) if m[3] else 1
        if step == 0 or abs(b - a) // step > MAX_EXPANSION:
            return None
        numbers = range(a, b + 1, step) if a <= b else range(a, b - 1, -step)
        return [str(v) for v in numbers]
    m = re.fullmatch(r"([A-Za-z])\.\.([A-Za-z])(?:\.\.(-?\d+))?", inner)
    if m:
        a, b = ord(m[1]), ord(m[2])
        step = abs(int(m[3])) if m[3] else 1
        if step == 0:
            return None
        codes = range(a, b + 1, step) if a <= b else range(a, b - 1, -step)
        return [chr(v) for v in codes]
    return None
