"""``rulepack fmt``: format ruleset files in place, or check that they are formatted."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from rulepack.cli.errors import InvalidInput, echo
from rulepack.errors import Diagnostic, RulepackError


def format_paths(paths: tuple[str, ...], check: bool) -> int:
    """Format each file (``-``: standard input to standard output).

    :param check: write nothing; report the files that would change.
    :returns: the exit code: 1 when a file could not be read or parsed (its located
        errors on stderr) or, with ``check``, when a file would change; else 0.
    """
    from rulepack.fmt import format_rules
    from rulepack.loader import read_stream_text, read_text
    code = 0
    failed: list[Diagnostic] = []
    for name in paths:
        try:
            if name == "-":
                text = read_stream_text(sys.stdin.buffer, "<stdin>")
                formatted = format_rules(text, "<stdin>")
                if check:
                    if formatted != text:
                        click.echo("<stdin>: would be reformatted", err=True)
                        code = 1
                else:
                    click.echo(formatted, nl=False)
                continue
            text = read_text(Path(name), name)
            formatted = format_rules(text, name)
        except RulepackError as exc:
            failed.extend(exc.diagnostics)
            continue
        if formatted == text:
            continue
        if check:
            echo(f"{name}: would be reformatted", err=True)
            code = 1
        else:
            Path(name).write_text(formatted, encoding="utf-8")
            echo(f"{name}: reformatted", err=True)
    if failed:
        InvalidInput(failed).show()
        return 1
    return code
