"""Text from a ruleset, a record or a user, made safe to show.

A ruleset is shared like a document, yet its texts (a title, an action, a ``say``, a
piece's name, a string value) reach a terminal, an editor and web pages. A terminal
takes some characters as commands: ESC starts sequences that clear the screen, set
the window title or print a link (OSC 8); a line break lets a text fake a prompt on
a line of its own; bidirectional controls reorder what is shown. :func:`printable`
writes each such character out as an escape (``\\x1b``, ``\\n``, ``\\u202e``), so the
text shows what it holds and does nothing else. Every place that shows such text
calls it (the CLI's output, located messages, the language server, the report page).

>>> printable("red\\x1b[2J 4")
'red\\\\x1b[2J 4'
>>> printable("two\\nlines"), printable("two\\nlines", newlines=True)
('two\\\\nlines', 'two\\nlines')
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["CONTROL", "printable", "printable_data", "printable_json"]

#: The characters a ruleset's text may not hold raw (a ``.rules`` file is refused at
#: the first; inside a string they are written as escapes, ``"\x1b"``): C0 controls
#: but tab, line feed and carriage return, DEL, C1 controls, the line and paragraph
#: separators, and the bidirectional embeddings, overrides and isolates.
CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e"
                     "\u2066-\u2069]")
#: What :func:`printable` writes out: :data:`CONTROL`, tab and the line breaks.
_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
_UNSAFE_BUT_NEWLINE = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e"
                                 "\u2066-\u2069]")
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape(m: re.Match[str]) -> str:
    ch = m.group()
    named = _NAMED.get(ch)
    if named is not None:
        return named
    code = ord(ch)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: str, newlines: bool = False) -> str:
    """``text`` with every control character written out as a Python-style escape
    (``\\x1b``, ``\\t``, ``\\u202e``); other characters, backslashes included, as
    they are.

    :param newlines: keep ``\\n`` (a text of several lines: a message with its source
        line); by default a line break is written ``\\n`` too, so a one-line text
        stays on one line.
    """
    pattern = _UNSAFE_BUT_NEWLINE if newlines else _UNSAFE
    if pattern.search(text) is None:
        return text
    return pattern.sub(_escape, text)


def printable_data(value: Any) -> Any:
    """A copy of JSON-like data (dicts, lists, tuples) with every text in it, keys
    too, made :func:`printable`; other values as they are."""
    if isinstance(value, str):
        return printable(value)
    if isinstance(value, dict):
        return {printable_data(k): printable_data(v) for k, v in value.items()}
    if isinstance(value, list):
        return [printable_data(v) for v in value]
    if isinstance(value, tuple):
        return tuple(printable_data(v) for v in value)
    return value


def _json_escape(m: re.Match[str]) -> str:
    return f"\\u{ord(m.group()):04x}"


def printable_json(text: str) -> str:
    """JSON text (``json.dumps(..., ensure_ascii=False)``) with the characters
    :func:`printable` writes out given as ``\\uXXXX`` escapes: the same data, and
    nothing a terminal acts on. (``json.dumps`` escapes C0 controls in strings
    itself, not C1 controls nor bidirectional ones; the line breaks of its layout
    stay.)"""
    if _UNSAFE_BUT_NEWLINE.search(text) is None:
        return text
    return _UNSAFE_BUT_NEWLINE.sub(_json_escape, text)
