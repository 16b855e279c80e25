"""Records on the command line: where they go, and taking a game up again.

A game with a human seat is recorded by default, so that it can be resumed
(``rulepack resume RECORD``); ``--record PATH`` chooses the file (and records a
bots-only game too), ``--no-record`` turns it off. The default folder is
``$RULEPACK_RECORDS``, else ``$XDG_STATE_HOME/rulepack/records``, else
``~/.local/state/rulepack/records``.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import TYPE_CHECKING

from rulepack.cli.args import HUMAN
from rulepack.cli.session import bot_index, make_agents
from rulepack.errors import Diagnostic, Location
from rulepack.agents.bots import Agent, make_agent, notify, seen_before
from rulepack.records import Record, RecordWriter, replay

if TYPE_CHECKING:  # pragma: no cover
    from rulepack.game import Game
    from rulepack.engine.state import State


def records_dir() -> Path:
    """The folder for records nobody named (see the module's docstring)."""
    if os.environ.get("RULEPACK_RECORDS"):
        return Path(os.environ["RULEPACK_RECORDS"])
    state_home = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(state_home) / "rulepack" / "records"


def default_record_path(game: "Game") -> Path:
    """A new file in :func:`records_dir`: ``NAME-YYYYMMDD-HHMMSS.jsonl`` (``-2``,
    ``-3``... if taken). The folder is made readable by its owner only; the name
    does not give the seed away."""
    folder = records_dir()
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    stem = f"{game.name}-{time.strftime('%Y%m%d-%H%M%S')}"
    path = folder / f"{stem}.jsonl"
    n = 2
    while path.exists():
        path = folder / f"{stem}-{n}.jsonl"
        n += 1
    return path


def drop_stop_line(record: Record) -> None:
    """Remove the ``stop`` line that ends an interrupted record and a last line cut
    short (and make sure the file ends with a newline), so that the game can be
    continued in the same file."""
    path = Path(record.path)
    lines = path.read_text(encoding="utf-8", errors="replace").split("\n")
    if record.cut is not None:
        del lines[record.cut - 1:]
        record.cut = None
    if record.end is not None and record.end[1]["type"] == "stop":
        del lines[record.end[0] - 1]
        record.end = None
    text = "\n".join(lines)
    if text and not text.endswith("\n"):
        text += "\n"   # a last line cut short of its newline: the next line starts afresh
    path.write_text(text, encoding="utf-8")


class Resumed:
    """A recorded game replayed up to its last decision, with bots that followed it.

    :param record: the record read (see :func:`rulepack.records.read_record`).
    :param kinds: the kind of each seat from now on (default: the recorded ones).
    :param ruleset: the ruleset to use instead of the one the record names.
    :raises rulepack.errors.RulepackError: the record is bad or the replay
        contradicts it (located at its line).
    """

    def __init__(self, record: Record, kinds: list[str] | None = None,
                 ruleset: str | None = None) -> None:
        header = record.header
        self.record = record
        self.kinds = kinds if kinds is not None else list(header["agents"])
        self.seed: int = header["seed"]
        # a seat keeps its recorded bot, which makes every recorded choice again
        # (so its random numbers are where they were); a seat given another kind
        # gets a new one
        recorded_bots = make_agents(list(header["agents"]), self.seed)
        self.agents: dict[int, Agent] = {}
        for seat, kind in enumerate(self.kinds):
            if kind == HUMAN:
                continue
            same = seat < len(header["agents"]) and header["agents"][seat] == kind
            self.agents[seat] = recorded_bots[seat] if same else make_agent(kind, self.seed, seat)
        observers = [(s, a) for s, a in self.agents.items() if hasattr(a, "observe")]
        self.diverged: list[int] = []
        before: dict[int, set[int]] = {}

        def follow(state: "State", player: int, index: int) -> None:
            before.clear()
            before.update(seen_before(state, state.legal_actions()[index], observers))
            agent = self.agents.get(player)
            # a different choice means the bot itself has changed since
            if agent is not None and agent is recorded_bots.get(player) \
                    and bot_index(agent, state, player) != index:
                self.diverged.append(state.decisions + 1)

        def observe(state: "State", since: int) -> None:
            notify(observers, state, since, before)

        result = replay(record, on_decision=follow, after_decision=observe, ruleset=ruleset)
        self.game = result.game
        self.state = result.state
        self.warnings: list[Diagnostic] = list(result.warnings)
        self.missing = result.missing
        if self.diverged:
            self.warnings.append(Diagnostic(
                f"the bots chose differently than recorded at decision {self.diverged[0]} "
                f"({len(self.diverged)} in all): the game goes on from the record",
                Location(record.path), severity="warning", code="bots-changed"))


def append_writer(resumed: Resumed) -> RecordWriter:
    """A writer that continues the record of a resumed game in its own file."""
    drop_stop_line(resumed.record)
    writer = RecordWriter(resumed.record.path, resumed.game, resumed.state,
                          resumed.record.header["ruleset"]["source"], resumed.kinds, append=True)
    for line in resumed.missing:
        writer.write(line)
    return writer
