"""Errors a user can cause, each carrying a location.

Every stage of the pipeline raises a subclass of :class:`RulepackError`; the CLI
prints them as ``FILE:LINE:COL: error: message`` with the source line and a
caret, and exits with code 1. Nothing in rulepack lets a traceback reach a user
for bad input.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

from rulepack.printable import printable

_E = TypeVar("_E", bound="RulepackError")

#: The longest message shown, in characters (a longer one is cut in the middle).
MAX_MESSAGE = 2_000
#: The most of a source line shown around its caret, in characters.
MAX_SOURCE_SHOWN = 160
#: A source line is read for a caret only from a regular file of at most this many bytes.
MAX_SOURCE_FILE = 64_000_000


def _cut(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    half = limit // 2
    return f"{text[:half]}… ({len(text)} characters) …{text[-half:]}"


@dataclass
class Location:
    """A place in a ruleset: a file, a 1-based line and column, or a JSON path.

    :param file: the path as the user gave it, or ``"<string>"``.
    :param line: 1-based line, or ``None`` when unknown (IR loaded from JSON).
    :param column: 1-based column, or ``None``.
    :param path: a JSON path into the IR such as ``$.zones[2].kind``, or ``None``.
    """

    file: str = "<string>"
    line: int | None = None
    column: int | None = None
    path: str | None = None

    def __str__(self) -> str:
        parts = [self.file]
        if self.line is not None:
            parts.append(str(self.line))
            if self.column is not None:
                parts.append(str(self.column))
        text = ":".join(parts)
        if self.path and self.line is None:
            text += f": at {self.path}"
        return text


@dataclass
class Diagnostic:
    """One message about a ruleset: an error or a warning, with its place.

    :param severity: ``"error"`` or ``"warning"``.
    :param code: a short stable identifier such as ``"syntax"``, ``"unknown-name"``.
    """

    message: str
    location: Location = field(default_factory=Location)
    severity: str = "error"
    code: str = "error"
    source_line: str | None = None
    hint: str | None = None

    def format(self) -> str:
        """Render as ``FILE:LINE:COL: severity: message`` plus source line and caret.
        Control characters and line breaks of the file name, the message, the source
        line and the hint are written out as escapes (:func:`printable`): a message
        quotes ruleset text, which never reaches a terminal raw nor starts a line."""
        text = f"{printable(_cut(str(self.location), 300))}: {self.severity}: " \
            f"{printable(_cut(self.message, MAX_MESSAGE))}"
        if self.source_line is not None and self.location.column is not None:
            line = self.source_line.rstrip("\n").expandtabs(1)
            column = self.location.column - 1
            if len(line) > MAX_SOURCE_SHOWN:  # a window around the caret
                start = max(0, min(column - MAX_SOURCE_SHOWN // 2, len(line) - MAX_SOURCE_SHOWN))
                end = start + MAX_SOURCE_SHOWN
                shown = ("…" if start else "") + line[start:end] + ("…" if end < len(line) else "")
                column = column - start + (1 if start else 0)
                line = shown
            # the caret under the same character once the line's controls are escaped
            caret = " " * len(printable(line[:column])) + "^"
            text += f"\n    {printable(line)}\n    {caret}"
        if self.hint:
            text += f"\n  hint: {printable(_cut(self.hint, MAX_MESSAGE))}"
        return text

    def with_source(self) -> "Diagnostic":
        """This diagnostic with its source line read from its file, if it has a
        line and column but no source line yet (so it prints with a caret)."""
        loc = self.location
        if self.source_line is not None or loc.line is None or loc.column is None:
            return self
        try:
            # only a regular file of a sane size (never a pipe or a device)
            if not os.path.isfile(loc.file) or os.path.getsize(loc.file) > MAX_SOURCE_FILE:
                return self
            with open(loc.file, encoding="utf-8") as f:
                for number, text in enumerate(f, 1):
                    if number == loc.line:
                        return replace(self, source_line=_cut(text.rstrip("\n"), 100_000))
        except (OSError, UnicodeDecodeError, ValueError):
            pass
        return self

    def to_json(self) -> dict[str, Any]:
        """A JSON-able dict: file, line, column, path, severity, code, message."""
        return {
            "file": self.location.file,
            "line": self.location.line,
            "column": self.location.column,
            "path": self.location.path,
            "severity": self.severity,
            "code": self.code,
            "message": _cut(self.message, MAX_MESSAGE),
        }


class RulepackError(Exception):
    """Base of all errors caused by user input; carries one or more diagnostics."""

    def __init__(self, diagnostics: Diagnostic | list[Diagnostic]) -> None:
        if isinstance(diagnostics, Diagnostic):
            diagnostics = [diagnostics]
        self.diagnostics: list[Diagnostic] = diagnostics
        super().__init__("\n".join(d.format() for d in diagnostics))

    def __str__(self) -> str:
        return "\n".join(d.format() for d in self.diagnostics)

    @classmethod
    def at(cls: type[_E], message: str, location: Location | None = None, code: str = "error",
           hint: str | None = None) -> _E:
        """Build an error with a single diagnostic."""
        return cls(Diagnostic(message, location or Location(), "error", code, hint=hint))


class RulesetSyntaxError(RulepackError):
    """The text of a ``.rules`` file does not follow the grammar."""


class SchemaError(RulepackError):
    """The ruleset IR does not match ``schemas/ruleset.schema.json``."""


class SemanticError(RulepackError):
    """The ruleset is well-formed but says something impossible (unknown zone, ...)."""


class RulesetRuntimeError(RulepackError):
    """A ruleset went wrong while a game ran (no legal action, step limit, bad value)."""


class IllegalActionError(ValueError):
    """An action that is not among the legal actions of the state was applied."""


class OptionError(RulepackError):
    """A game option or player count outside what the ruleset allows."""
