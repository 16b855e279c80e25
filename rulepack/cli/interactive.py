"""The human seat: reading a choice from the keyboard, and sharing one screen.

A person answers each decision with the number of an action, or with a board
coordinate such as ``f6`` when exactly one action names that cell (several:
they are listed and the question is asked again). ``?`` shows the rules summary
(``rulepack explain``), ``v`` the screen again; anything else is explained and
asked again; ``q`` (or end of input, or Ctrl-C) quits the game.
When several people share the screen, the previous player's screen is hidden
and the next player is asked to take the seat before their hand is shown.
"""

from __future__ import annotations

import re
import sys
from typing import Callable, Sequence

from rich.console import Console
from rich.text import Text

from rulepack.printable import printable

QUIT_WORDS = ("q", "quit", "exit")
SHOW_WORDS = ("v", "view")
RULES_WORDS = ("?", "h", "help", "rules")

#: The xterm control sequence that erases the scrollback, so scrolling up shows no other hand.
ERASE_SCROLLBACK = "\x1b[3J"

#: Blank lines printed to push a private screen out of sight when the terminal cannot be cleared.
SCROLL_LINES = 40


#: What a typed board coordinate looks like: column letters, row number (``f6``, ``aa12``).
COORDINATE = re.compile(r"[a-z]{1,2}[0-9]{1,3}")


def actions_naming(texts: Sequence[str], cell: str) -> list[int]:
    """Indices of the action texts that name ``cell`` as a whole word, any case
    (``"f6"`` is in ``"claim 24 at F6"``, not in ``"claim 24 at f61"``)."""
    word = re.compile(rf"(?<![\w]){re.escape(cell.strip())}(?![\w])", re.IGNORECASE)
    return [i for i, t in enumerate(texts) if word.search(t)]


def first_cell(texts: Sequence[str]) -> str | None:
    """The first cell an action text names (so a coordinate may be typed), or ``None``."""
    for t in texts:
        for word in re.finditer(r"\w+", t.lower()):
            if COORDINATE.fullmatch(word[0]):
                return word[0]
    return None


def _stdin_is_terminal() -> bool:
    try:
        return sys.stdin.isatty()
    except (AttributeError, ValueError):
        return False


class Quit(Exception):
    """The person at the keyboard asked to stop the game."""


class Keyboard:
    """Reads the human seats' answers from one console.

    :param humans: the seats played by people; more than one means a shared screen.
    """

    def __init__(self, console: Console, humans: list[int]) -> None:
        self.console = console
        self.shared = len(humans) > 1
        self.owner: int | None = None

    def read(self, prompt: str) -> str:
        """One line of input. :raises Quit: ``q``, end of input or Ctrl-C."""
        try:
            line = self.console.input(Text(prompt, style="bold"))
        except (EOFError, KeyboardInterrupt):
            self.console.print()
            raise Quit() from None
        if not _stdin_is_terminal():
            # a readable transcript
            self.console.print(Text(printable(line), style="dim"), soft_wrap=True)
        if line.strip().lower() in QUIT_WORDS:
            raise Quit()
        return line

    # ------------------------------------------------------------------ sharing
    def hide(self) -> None:
        """Take the current private screen out of sight (the scrollback too)."""
        if self.console.is_terminal:
            self.console.clear()
            self.console.file.write(ERASE_SCROLLBACK)
            self.console.file.flush()
        else:
            self.console.print("\n" * SCROLL_LINES, end="")
        self.owner = None

    def hand_over(self, player: int, name: str) -> None:
        """Before showing ``player``'s private screen: on a shared screen, hide the
        previous one and wait until the next person is there."""
        if not self.shared or self.owner == player:
            self.owner = player
            return
        self.hide()
        self.read(f"Pass the screen to {name} and press Enter (q to quit) ")
        if self.console.is_terminal:
            self.console.clear()
        self.owner = player

    # ------------------------------------------------------------------ choosing
    def choose(self, count: int, show: Callable[[], None],
               texts: Sequence[str] | None = None,
               rules: Callable[[], None] | None = None) -> int:
        """Ask for an action number from 1 to ``count`` (or, given the actions'
        ``texts``, a cell they name); returns its 0-based index.

        :param show: prints the screen again (on ``v``; on ``?`` too without ``rules``).
        :param rules: prints the rules summary (on ``?``), then the screen again.
        :raises Quit: the person quits.
        """
        example = first_cell(texts) if texts is not None else None
        cells = example is not None
        hint = f", a cell like {example}" if cells else ""
        keys = "? rules, v to show again" if rules is not None else "? to show again"
        while True:
            raw = self.read(f"Choose 1-{count}{hint} ({keys}, q to quit): ").strip()
            if not raw:
                self.say(f"Type the number of an action, from 1 to {count}.")
                continue
            if raw.lower() in RULES_WORDS and rules is not None:
                rules()
                show()
                continue
            if raw.lower() in SHOW_WORDS + RULES_WORDS:
                show()
                continue
            if cells and COORDINATE.fullmatch(raw.lower()):
                assert texts is not None
                found = actions_naming(texts, raw)
                if len(found) == 1:
                    return found[0]
                if not found:
                    self.say(f"No action names {raw.lower()}: type an action's number "
                             f"from 1 to {count}, or another cell.")
                    continue
                self.say(f"{len(found)} actions name {raw.lower()}; type the number of one:")
                for i in found:
                    self.console.print(Text(f"{i + 1:>4}. {printable(texts[i])}"),
                                       soft_wrap=True)
                continue
            try:
                number = int(raw)
            except ValueError:
                if cells:
                    self.say(f"{raw!r} is not a number or a cell: type a number from 1 to "
                             f"{count}, a cell like {example}, or q to quit.")
                else:
                    self.say(f"{raw!r} is not a number: type a number from 1 to {count}, "
                             "or q to quit.")
                continue
            if not 1 <= number <= count:
                self.say(f"There is no action {number}: choose from 1 to {count}.")
                continue
            return number - 1

    def say(self, message: str) -> None:
        self.console.print(Text(message, style="yellow"))
