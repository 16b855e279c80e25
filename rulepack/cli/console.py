"""The CLI's rich console, which shows ruleset text inert.

Ruleset text (titles, action and ``say`` texts, piece and seat names, option
descriptions, quoted source lines) and record text reach the terminal only through
:func:`rulepack.printable.printable`, which writes control characters out as
escapes (``\\x1b``), and never as rich markup (``[link=...]``) or emoji codes:

- the places that build lines from such text escape it, line breaks included, so a
  text stays on its line (:func:`text`; views, summaries and reports are escaped
  whole with :func:`~rulepack.printable.printable_data`; plain lines go through
  :func:`rulepack.cli.errors.echo`);
- the console of :func:`make_console` reads no markup and no emoji codes, and
  escapes any control character left in what it prints (a last guard, for a line
  that forgot to), keeping its own colours and line breaks.
"""

from __future__ import annotations

from typing import Any

from rich.console import (Console, ConsoleOptions, ConsoleRenderable, RenderableType,
                          RenderHook, RenderResult)
from rich.measure import Measurement
from rich.segment import Segment
from rich.style import Style
from rich.text import Text

from rulepack.printable import printable


class _Escaped:
    """A renderable whose text segments have their control characters escaped
    (line breaks kept: those of a text were escaped when its line was built)."""

    def __init__(self, inner: RenderableType) -> None:
        self.inner = inner

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        for segment in console.render(self.inner, options):
            if segment.control:
                yield segment
            else:
                shown = printable(segment.text, newlines=True)
                yield segment if shown is segment.text else Segment(shown, segment.style)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement.get(console, options, self.inner)


class _EscapeHook(RenderHook):
    """Wraps everything a console prints in :class:`_Escaped`."""

    def process_renderables(self, renderables: list[ConsoleRenderable]
                            ) -> list[ConsoleRenderable]:
        return [_Escaped(r) for r in renderables]


def make_console() -> Console:
    """A console on the current stdout (so click's test runner captures it) that
    reads no markup nor emoji codes and escapes control characters."""
    console = Console(highlight=False, markup=False, emoji=False)
    console.push_render_hook(_EscapeHook())
    return console


def text(value: Any, style: str | Style = "") -> Text:
    """A one-line :class:`~rich.text.Text` of ruleset text, escaped."""
    return Text(printable(str(value)), style=style)
