"""Errors on the command line: located messages and exit codes, never tracebacks;
and :func:`echo`, the plain line that may quote ruleset or record text.

Exit codes (DESIGN.md): 0 ok, 1 invalid input (a bad ruleset, option or player
count), 2 usage error (click's own).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import IO, Any

import click

from rulepack.errors import Diagnostic, RulepackError
from rulepack.printable import printable

#: Exit code for invalid input.
INVALID_INPUT = 1


class InvalidInput(click.ClickException):
    """Invalid input (exit 1), shown as located diagnostics on stderr."""

    exit_code = INVALID_INPUT

    def __init__(self, diagnostics: list[Diagnostic] | str) -> None:
        if isinstance(diagnostics, str):
            self.diagnostics: list[Diagnostic] = []
            super().__init__(diagnostics)
        else:
            self.diagnostics = list(diagnostics)
            super().__init__("\n".join(d.format() for d in self.diagnostics))

    def show(self, file: IO[Any] | None = None) -> None:
        if self.diagnostics:
            for d in self.diagnostics:
                click.echo(d.with_source().format(), file=file, err=True)
        else:
            click.echo(f"error: {printable(self.message)}", file=file, err=True)


def echo(line: str, err: bool = False) -> None:
    """``click.echo`` of one line that may quote ruleset or record text (a title, a
    seat name, a path): its control characters, line breaks included, written out as
    escapes (see :func:`rulepack.printable.printable`)."""
    click.echo(printable(line), err=err)


@contextmanager
def reported() -> Iterator[None]:
    """Turn any :class:`RulepackError` raised inside into :class:`InvalidInput`, and
    a ``MemoryError`` too (exit 1 with a message, not a traceback)."""
    try:
        yield
    except RulepackError as exc:
        raise InvalidInput(exc.diagnostics) from None
    except MemoryError:
        # the last guard: a ruleset whose values grow without end (never a traceback)
        raise InvalidInput("rulepack ran out of memory: the ruleset builds values too large "
                           "to hold") from None
