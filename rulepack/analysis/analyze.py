"""The analysis of a ruleset: many watched bot games per variant, played on any
backend, streamed to a JSON Lines file as they finish, and reported.

Game ``i`` of every variant has the seed ``game_seed(seed, i)`` and seats the agents
as :func:`~rulepack.analysis.runner.lineup` says: variants are compared on the same
deals and bot choices as far as their rules allow, and the report depends only
on the ruleset, the arguments and the seed — never on the backend or on the order
the games finish in.

The JSON Lines file (``out``) starts with a header line ``{"analysis": {...}}``
(what was asked) and has one line per finished game (its record, see
:func:`~rulepack.analysis.trace.observe`, with ``variant``, ``index``, ``seed`` and
``seats``). With ``resume`` a file whose header matches is continued: the games
it holds are not played again (a last line cut short by an interruption is dropped).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from rulepack.analysis.report import finite, variant_report
from rulepack.analysis.rules import rule_map
from rulepack.analysis.backends import run
from rulepack.analysis.runner import Backend, game_seed, lineup
from rulepack.analysis.trace import failed_game_note, observe
from rulepack.engine.serialize import plain
from rulepack.engine.state import DEFAULT_MAX_DECISIONS
from rulepack.engine.values import player_name
from rulepack.errors import Location, RulepackError

if TYPE_CHECKING:  # pragma: no cover
    from rulepack.game import Game


@dataclass(frozen=True)
class AnalysisTask:
    """What a worker needs to play and watch any game of an analysis (picklable).
    Keys are ``(variant, index)`` pairs."""

    seed: int
    agents: tuple[str, ...]
    variants: tuple[dict[str, Any] | None, ...]
    max_decisions: int
    rotate: bool

    def play(self, game: "Game", key: tuple[int, int]) -> dict[str, Any]:
        variant, index = key
        seed = game_seed(self.seed, index)
        seats = lineup(self.agents, index, self.rotate)
        try:
            record = observe(game, seed, seats, self.variants[variant], self.max_decisions)
        except RulepackError as exc:
            raise RulepackError(list(exc.diagnostics)
                                + [failed_game_note(game, index, seed)]) from None
        return {"variant": variant, "index": index, "seed": seed, "seats": seats, **record}


def variant_label(options: dict[str, Any] | None) -> str:
    """A variant's column heading: its options as ``name=value`` pairs, or ``default``."""
    if not options:
        return "default"
    return " ".join(f"{k}={v}" for k, v in options.items())


def header(game: "Game", games: int, agents: Sequence[str], seed: int,
           variants: Sequence[dict[str, Any] | None], max_decisions: int,
           rotate: bool) -> dict[str, Any]:
    """What an analysis asks: the first line of its JSON Lines file."""
    return {"ruleset": game.name, "players": len(agents), "games": games, "seed": seed,
            "agents": list(agents), "variants": [plain(v or {}) for v in variants],
            "max_decisions": max_decisions, "rotate": rotate}


def read_stream(path: Path, expected: dict[str, Any]) -> list[dict[str, Any]]:
    """The game records of an interrupted analysis's JSON Lines file.

    :raises RulepackError: the file is not an analysis, or one of other arguments.
    """
    records: list[dict[str, Any]] = []
    where = Location(str(path))
    with path.open(encoding="utf-8") as f:
        lines = f.read().split("\n")
    try:
        first = json.loads(lines[0])
    except (json.JSONDecodeError, IndexError):
        raise RulepackError.at("not the JSON Lines file of an analysis", where,
                               code="resume") from None
    if not isinstance(first, dict) or first.get("analysis") != expected:
        raise RulepackError.at(
            "this file holds an analysis with other arguments (ruleset, players, games, "
            "seed, agents, variants, decision limit or rotation); resume needs the same",
            where, code="resume")
    for number, line in enumerate(lines[1:], start=2):
        if not line.strip():
            continue
        try:
            records.append(json.loads(line))
        except json.JSONDecodeError:
            if number < len(lines) - 1:      # only the last line may be cut short
                raise RulepackError.at(f"line {number} is not JSON", where,
                                       code="resume") from None
    return records


def analyze(game: "Game", games: int, agents: Sequence[str], seed: int = 0,
            variants: Sequence[dict[str, Any] | None] = (None,),
            max_decisions: int = DEFAULT_MAX_DECISIONS, rotate: bool = True,
            teams: Sequence[Sequence[int]] = (), backend: Backend = Backend(),
            out: str | Path | None = None, resume: bool = False,
            on_game: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """Play and watch ``games`` games of each variant; returns the report.

    :param agents: agent names, one per agent entry (their number is the player count).
    :param variants: the option sets compared, one report column each.
    :param rotate: game ``i`` seats entry ``k`` in seat ``(k + i) % players``.
    :param teams: seats (0-based) reported together as teams.
    :param backend: where the games run (see :class:`~rulepack.analysis.runner.Backend`).
    :param out: a JSON Lines file the games stream to (overwritten unless ``resume``).
    :param on_game: called as ``on_game(done, total)`` as games finish.
    :returns: plain JSON data: ``ruleset``, ``title``, ``players``, ``games``,
        ``seed``, ``agents``, ``rotate``, ``max_decisions``, ``teams`` (1-based
        seats), and ``variants``: per variant ``label``, ``options`` (all of
        them, parsed) and the sections of
        :func:`~rulepack.analysis.report.variant_report`.
    :raises RulepackError: bad options, player count or teams, a resume file of
        another analysis, or a game that fails other than by the decision limit
        (the lowest such game, with a note naming it and its seed).
    :raises ValueError: a negative ``jobs``.
    :raises ImportError: a Ray cluster asked for without the ``ray`` extra.
    """
    players = len(agents)
    instances = [game.instance(players, v) for v in variants]   # bad options fail here
    for team in teams:
        for p in team:
            if not 0 <= p < players:
                raise RulepackError.at(f"team seat {p + 1} is not a seat of a game of "
                                       f"{players} players", Location(game.file), code="team")
    asked = header(game, games, agents, seed, variants, max_decisions, rotate)
    records: list[dict[str, Any]] = []
    stream: IO[str] | None = None
    if out is not None:
        path = Path(out)
        if resume and path.exists() and path.stat().st_size > 0:
            records = read_stream(path, asked)
            with path.open("r+", encoding="utf-8") as f:   # drop a line cut short
                text = f.read()
                keep = text[:text.rfind("\n") + 1] if not text.endswith("\n") else text
                f.seek(0)
                f.truncate()
                f.write(keep)
            stream = path.open("a", encoding="utf-8")
        else:
            stream = path.open("w", encoding="utf-8")
            stream.write(json.dumps({"analysis": asked}) + "\n")
            stream.flush()
    done = {(r["variant"], r["index"]) for r in records}
    keys = [(v, i) for v in range(len(variants)) for i in range(games) if (v, i) not in done]
    total = games * len(variants)

    def finished(_: Any, record: dict[str, Any]) -> None:
        records.append(record)
        if stream is not None:
            stream.write(json.dumps(record) + "\n")
            stream.flush()
        if on_game is not None:
            on_game(len(records), total)

    if on_game is not None:
        on_game(len(records), total)
    task = AnalysisTask(seed, tuple(agents), tuple(variants), max_decisions, rotate)
    try:
        if keys:
            run(game, task, keys, backend, finished)
    finally:
        if stream is not None:
            stream.close()
    seat_names = [player_name(p, instances[0].seat_names) for p in range(players)]
    columns = []
    for v, options in enumerate(variants):
        mine = [r for r in records if r["variant"] == v]
        columns.append({"label": variant_label(options),
                        "options": plain(game.parse_options(options)),
                        **variant_report(mine, rule_map(instances[v]), seat_names, agents,
                                         teams)})
    return finite({
        "ruleset": game.name, "title": game.title, "players": players, "games": games,
        "seed": seed, "agents": list(agents), "rotate": rotate,
        "max_decisions": max_decisions, "teams": [[p + 1 for p in t] for t in teams],
        "seats": seat_names, "variants": columns,
    })
