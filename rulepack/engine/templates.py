"""Texts with ``{NAME}`` fields: action texts, ``say`` texts, ``called`` and ``symbol``.

A template is literal text and fields; a field is a name in braces (``{t}``), and
``{{`` and ``}}`` are a brace as text. Nothing else is a field: Python's format
mini-language (``{t:>9}``, ``{t!r}``, ``{t.x}``, ``{t[0]}``, ``{}``) is refused, so a
ruleset's text can neither ask for a billion characters of padding nor reach a
value's Python attributes. :func:`fields` checks a template (the compiler calls it
for every text of a ruleset); :func:`fill` fills one in with values by name.

>>> fields("discard {t} face {side}")
['t', 'side']
>>> fill("{who} plays {{{t}}}", {"who": "player 1", "t": "red 4"})
'player 1 plays {red 4}'
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache

__all__ = ["NOT_A_FORMAT", "TemplateError", "fields", "fill", "parts"]


class TemplateError(ValueError):
    """A text whose braces are not fields by name; the message says why, in the
    language's words (``a '{' that is never closed ...``).

    :param field: what the braces hold when it is not a name (``"t:>9"``, cut to 40
        characters), else ``None`` (a stray or unclosed brace).
    """

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


_UNKNOWN = object()

#: What a field may not hold, said once for every message.
NOT_A_FORMAT = "no format ':', conversion '!' or part '.' or '[]'"


def _is_name(text: str) -> bool:
    return text.isidentifier()


@lru_cache(maxsize=1024)
def parts(template: str) -> tuple[str, ...]:
    """The template split into literal text and field names, alternating and
    starting and ending with literal text (so of odd length; ``("text",)`` when it
    has no field), the literal parts with ``{{``/``}}`` already made single braces.

    :raises TemplateError: a stray ``}``, an unclosed ``{``, or braces around
        something other than a name.
    """
    out: list[str] = []
    literal: list[str] = []
    i, n = 0, len(template)
    while i < n:
        brace = _next_brace(template, i)
        if brace < 0:
            literal.append(template[i:])
            break
        literal.append(template[i:brace])
        ch = template[brace]
        if brace + 1 < n and template[brace + 1] == ch:     # {{ or }}: a brace as text
            literal.append(ch)
            i = brace + 2
            continue
        if ch == "}":
            raise TemplateError("a '}' that closes nothing (a value is written {name}; a brace "
                                "as text is '}}')")
        close = template.find("}", brace + 1)
        opened = template.find("{", brace + 1)
        if close < 0 or 0 <= opened < close:
            raise TemplateError("a '{' that is never closed (a value is written {name}; a brace "
                                "as text is '{{')")
        name = template[brace + 1:close]
        if not _is_name(name):
            shown = name if len(name) <= 40 else name[:37] + "..."
            raise TemplateError(f"{{{shown}}} is not a name in braces: a text fills in values by "
                                f"name only, like {{t}} ({NOT_A_FORMAT})", shown)
        out.append("".join(literal))
        out.append(name)
        literal = []
        i = close + 1
    out.append("".join(literal))
    return tuple(out)


def _next_brace(text: str, start: int) -> int:
    """The index of the first ``{`` or ``}`` at or after ``start``, or -1."""
    a = text.find("{", start)
    b = text.find("}", start)
    if a < 0:
        return b
    if b < 0:
        return a
    return min(a, b)


def fields(template: str) -> list[str]:
    """The names of the template's fields, in order (repeats kept).

    :raises TemplateError: see :func:`parts`.
    """
    return list(parts(template)[1::2])


@lru_cache(maxsize=1024)
def _plain(template: str) -> str:
    """The template rewritten so that ``str.format_map`` reads it exactly as
    :func:`fill` does: :func:`parts` has checked that every field is a bare name,
    so no format, conversion or attribute reaches ``str.format``."""
    p = parts(template)
    out = []
    for i, part in enumerate(p):
        out.append(part.replace("{", "{{").replace("}", "}}") if i % 2 == 0 else
                   "{" + part + "}")
    return "".join(out)


def fill(template: str, values: Mapping[str, object]) -> str:
    """The template with each field replaced by its value in ``values`` (made text
    with ``str``); a field with no value stays as written (``{pips}``).

    :raises TemplateError: the template is not valid (see :func:`parts`).
    """
    try:
        return _plain(template).format_map(values)
    except KeyError:
        pass
    p = parts(template)
    if len(p) == 1:
        return p[0]
    out = [p[0]]
    for i in range(1, len(p), 2):
        name = p[i]
        value = values.get(name, _UNKNOWN)
        out.append("{" + name + "}" if value is _UNKNOWN else
                   value if type(value) is str else str(value))
        out.append(p[i + 1])
    return "".join(out)
