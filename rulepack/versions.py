"""The versions rulepack reads and writes: the ruleset language and the record format.

A ruleset may say which version of the rules language it is written in (``language 1``
as its first declaration in a ``.rules`` file, ``language: 1`` at the top of a
``.yaml``/``.json`` IR file); a game record says which format it is in (the header's
``format_version``; records written before there was one are format 1).
:func:`check_language` and :func:`record_format_version` turn a version this rulepack
does not read into a located error with a hint, before anything else of the file is
read (a newer file may use words or fields this rulepack does not know).
"""

from __future__ import annotations

import re
from typing import Any

from rulepack.errors import Diagnostic, Location, RulepackError

#: rulepack's own version (``rulepack.__version__``; pyproject.toml says it too)
RULEPACK_VERSION = "0.1.0"

#: The rules language this rulepack writes about (docs/language.md), and every one it reads.
LANGUAGE_VERSION = 1
LANGUAGE_VERSIONS = (1,)

#: The record format this rulepack writes (docs/records.md), and every one it reads
#: (format 1: the records written before headers had a ``format_version``).
RECORD_FORMAT_VERSION = 2
RECORD_FORMAT_VERSIONS = (1, 2)

#: ``language N`` as the first word of a ``.rules`` text, after blank lines and comments
_HEADER = re.compile(r"\A(?:[ \t\r\n]*(?:#[^\n]*)?\n)*[ \t]*language[ \t]+(-?[0-9]+)\b")


def _known(versions: tuple[int, ...]) -> str:
    if len(versions) == 1:
        return f"{versions[0]} only"
    return ", ".join(str(v) for v in versions[:-1]) + f" and {versions[-1]}"


def language_error(version: Any, location: Location, source_line: str | None = None
                   ) -> RulepackError | None:
    """The error for a ruleset written in language ``version``, or ``None`` when this
    rulepack reads that version (an int in :data:`LANGUAGE_VERSIONS`)."""
    if type(version) is int and version in LANGUAGE_VERSIONS:
        return None
    if type(version) is not int or version < 1:
        message = f"there is no rules language {version!r}: its versions are whole numbers from 1"
        hint = f"write 'language {LANGUAGE_VERSION}' (docs/language.md, 'language')"
    else:
        message = (f"this ruleset is written in rules language {version}, but this rulepack "
                   f"({RULEPACK_VERSION}) reads language {_known(LANGUAGE_VERSIONS)}")
        hint = ("a newer rulepack reads it: upgrade rulepack (pip install --upgrade rulepack); "
                if version > max(LANGUAGE_VERSIONS) else "")
        hint += (f"a ruleset written for language {LANGUAGE_VERSION} says 'language "
                 f"{LANGUAGE_VERSION}'")
    return RulepackError(Diagnostic(message, location, code="unknown-language",
                                    source_line=source_line, hint=hint))


def check_language(version: Any, location: Location, source_line: str | None = None) -> None:
    """:raises RulepackError: this rulepack does not read language ``version``
    (code ``unknown-language``, located at ``location``, with a hint)."""
    error = language_error(version, location, source_line)
    if error is not None:
        raise error


def check_rules_header(text: str, name: str) -> None:
    """Check the ``language N`` a ``.rules`` text opens with, if it has one, before
    it is parsed (a newer language may have words this parser does not know).

    :raises RulepackError: an unknown version, located at the number.
    """
    if "language" not in text[:4096]:
        return
    m = _HEADER.match(text)
    if m is None:
        return
    start = m.start(1)
    line = text.count("\n", 0, start) + 1
    column = start - (text.rfind("\n", 0, start) + 1) + 1
    source = text.splitlines()[line - 1] if text else None
    check_language(int(m.group(1)), Location(name, line, column), source)


def record_format_version(header: dict[str, Any], location: Location) -> int:
    """The format version of a record from its header line: ``format_version``,
    or 1 for a header without one (records written before format 2).

    :raises RulepackError: a version this rulepack does not read, or a header
        whose ``format`` text and ``format_version`` disagree (located, with a hint).
    """
    version = header.get("format_version", 1)
    text = header.get("format")
    if type(version) is not int or version not in RECORD_FORMAT_VERSIONS:
        newer = type(version) is int and version > max(RECORD_FORMAT_VERSIONS)
        raise RulepackError(Diagnostic(
            f"this record is in format {version!r}, but this rulepack ({RULEPACK_VERSION}) reads "
            f"record formats {_known(RECORD_FORMAT_VERSIONS)}", location,
            code="unknown-record-format",
            hint="a newer rulepack reads it: upgrade rulepack (pip install --upgrade "
                 "rulepack)" if newer else "format_version is a whole number (1 or 2)"))
    if text != f"rulepack-record/{version}":
        raise RulepackError(Diagnostic(
            f"the header says format {text!r} but format_version {version}",
            location, code="unknown-record-format",
            hint=f"a record of format {version} says \"format\": \"rulepack-record/{version}\""
                 + ("" if "format_version" in header else
                    " (a header without format_version is format 1)")))
    return int(version)
