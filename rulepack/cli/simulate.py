"""Many bot games and what they show: wins per seat and per agent, scores, length, speed.

Game ``i`` (0-based) of a simulation seeded ``S`` is seeded ``mix_seed(S, i)``
(:func:`game_seed`), so any one game can be watched again with
``rulepack play RULESET --seed <that seed>``. Every game depends only on its
index, so the games may be played in any order and in several processes
(``jobs``): the summary is the same, apart from its timing fields.

With ``rotate``, game ``i`` seats the agent list rotated by ``i``: the ``k``-th
agent sits in seat ``(k + i) % players``, so each agent plays every seat equally
often (when the number of games is a multiple of the number of players).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rulepack.analysis.runner import (  # noqa: F401 - the names simulate has always had
    MAX_CHUNK,
    Backend,
    chunk_size,
    game_seed,
    lineup,
    resolve_jobs,
    seat_of,
)
from rulepack.analysis.backends import run
from rulepack.analysis.stats import Z95, wilson_interval  # noqa: F401
from rulepack.cli.args import jsonable
from rulepack.cli.session import make_agents
from rulepack.errors import Diagnostic, Location, RulepackError
from rulepack.agents.bots import play_out
from rulepack.engine.state import DEFAULT_MAX_DECISIONS
from rulepack.engine.values import player_name

if TYPE_CHECKING:  # pragma: no cover
    from rulepack.game import Game

#: The ``agent`` of a seat row when rotating seats puts different agents in it.
ROTATED = "rotated"


@dataclass(frozen=True)
class GameRecord:
    """What one finished game adds to the summary.

    :ivar index: the game's index (0-based) in the simulation.
    :ivar winners: the winning seats (0-based); several for a shared win.
    :ivar draw: the result says draw.
    :ivar scores: the final score of each seat, or ``None`` if the game has no
        numeric scores.
    :ivar decisions: the number of decisions taken.
    :ivar losers: the losing seats (0-based): those not winning a game that is
        not a draw.
    """

    index: int
    winners: tuple[int, ...]
    draw: bool
    scores: tuple[float, ...] | None
    decisions: int
    losers: tuple[int, ...] = ()


def play_game(game: Game, index: int, seed: int, agents: Sequence[str],
              options: dict[str, Any] | None = None,
              max_decisions: int = DEFAULT_MAX_DECISIONS,
              rotate: bool = False) -> GameRecord:
    """Play game ``index`` of a simulation seeded ``seed`` to its end.

    :param agents: agent names, one per agent entry (their number is the player count).
    :param rotate: seat the agents as :func:`lineup` says for this game.
    :raises RulepackError: the game fails; its diagnostics end with a note naming
        the game (1-based) and its seed.
    """
    players = len(agents)
    s = game_seed(seed, index)
    try:
        state = game.new_game(players, seed=s, options=options, max_decisions=max_decisions)
        bots = make_agents(lineup(agents, index, rotate), s)
        play_out(state, [bots[p] for p in range(players)])
    except RulepackError as exc:
        note = Diagnostic(f"in game {index + 1} of the simulation (play it with --seed {s})",
                          Location(game.file), severity="note", code="simulation")
        raise RulepackError(list(exc.diagnostics) + [note]) from None
    result = state.result()
    scores = result["scores"]
    if scores is None or not all(isinstance(x, (int, float)) for x in scores):
        scores = None
    return GameRecord(index=index, winners=tuple(int(w) for w in result["winners"]),
                      draw=bool(result["draw"]),
                      scores=None if scores is None else tuple(scores),
                      decisions=state.decisions,
                      losers=() if not state.terminal or result["draw"] else tuple(
                          p for p in range(players) if p not in result["winners"]))


@dataclass(frozen=True)
class SimulationTask:
    """What a worker needs to play any game of one simulation (see
    :mod:`rulepack.analysis.runner`): plain, picklable data."""

    seed: int
    agents: tuple[str, ...]
    options: dict[str, Any] | None
    max_decisions: int
    rotate: bool

    def play(self, game: Game, index: int) -> GameRecord:
        return play_game(game, index, self.seed, self.agents, self.options,
                         self.max_decisions, self.rotate)


@dataclass
class Tally:
    """Wins, losses, draws and the sum of scores of one seat, agent or team."""

    wins: int = 0
    losses: int = 0
    draws: int = 0
    score: float = 0.0

    def add(self, seat: int, record: GameRecord) -> None:
        """Count one game in which this one played ``seat``."""
        if seat in record.winners:
            self.wins += 1
        elif record.draw:
            self.draws += 1
        elif seat in record.losers:
            self.losses += 1


# ---------------------------------------------------------------------- the simulation

def simulate(game: Game, games: int, agents: list[str], seed: int = 0,
             options: dict[str, Any] | None = None,
             max_decisions: int = DEFAULT_MAX_DECISIONS,
             on_game: Callable[[int], None] | None = None,
             rotate: bool = False, jobs: int = 1) -> dict[str, Any]:
    """Play ``games`` games with one agent per seat; returns the summary.

    :param agents: agent names, one per agent entry (their number is the player
        count); without ``rotate`` entry ``k`` plays seat ``k`` in every game.
    :param on_game: called with the number of games finished so far, as they finish.
    :param rotate: game ``i`` seats entry ``k`` in seat ``(k + i) % players``.
    :param jobs: worker processes to play the games in (``0``: one per CPU);
        the summary does not depend on it, apart from its timing fields. The
        workers are started with "spawn": a script calling this with ``jobs``
        above 1 needs the usual ``if __name__ == "__main__":`` guard.
    :returns: the summary, plain JSON data: ``ruleset``, ``title``, ``games``,
        ``players``, ``seed``, ``options``, ``rotate``; ``seats``, one dict per
        seat (``seat`` 1-based, ``name``, ``agent`` — ``"rotated"`` when rotation
        puts different agents there —, ``wins``, ``losses``, ``draws``,
        ``win_rate``, ``win_rate_ci95`` ``[low, high]``, ``mean_score`` or
        ``None``); ``agents``, one dict per agent entry (``entry`` 1-based,
        ``name``, ``games``, ``wins``, ``losses``, ``draws``, ``win_rate``,
        ``win_rate_ci95``, ``mean_score``); ``teams``, ``None`` or one dict per
        team of the ruleset (``team`` 1-based, ``name`` — its seats joined by
        " + " —, ``seats`` 1-based, ``wins``, ``losses``, ``draws``,
        ``win_rate``, ``win_rate_ci95``, ``mean_score`` — the sum of its seats'
        —); ``mean_decisions``, ``draws``, ``ties`` (games with several winners,
        or with teams several winning teams); and the timing fields ``seconds``
        and ``games_per_second``. A shared win counts as a win for each winner.
    :raises RulepackError: bad options or player count, or a game that fails
        (with a note naming the game and its seed; the lowest such game).
    :raises ValueError: a negative ``jobs``.
    """
    players = len(agents)
    workers = min(resolve_jobs(jobs), games)
    started = time.perf_counter()
    game.instance(players, options)       # bad player count or options: fail before playing
    records: list[GameRecord] = []

    def finished(_: int, record: GameRecord) -> None:
        records.append(record)
        if on_game is not None:
            on_game(len(records))

    task = SimulationTask(seed, tuple(agents), options, max_decisions, rotate)
    run(game, task, range(games), Backend(jobs=workers), finished)
    elapsed = time.perf_counter() - started
    summary = summarise(game, records, agents, seed, options, rotate)
    summary["seconds"] = elapsed
    summary["games_per_second"] = games / elapsed if elapsed > 0 else 0.0
    return summary


def summarise(game: Game, records: list[GameRecord], agents: Sequence[str], seed: int,
              options: dict[str, Any] | None, rotate: bool) -> dict[str, Any]:
    """The summary of played games (see :func:`simulate`), without timing fields.

    The records are taken in index order, whatever order they come in, so sums
    of scores come out the same to the last bit.
    """
    records = sorted(records, key=lambda r: r.index)
    players = len(agents)
    games = len(records)
    n = max(games, 1)
    inst = game.instance(players, options)
    teams = inst.teams
    seat_tally = [Tally() for _ in range(players)]
    entry_tally = [Tally() for _ in range(players)]
    team_tally = [Tally() for _ in teams or ()]
    have_scores = bool(records)
    decisions = draws = ties = 0
    for r in records:
        decisions += r.decisions
        draws += int(r.draw)
        entry_in = [seat_of(k, r.index, players, rotate) for k in range(players)]
        for p in range(players):
            seat_tally[p].add(p, r)
            entry_tally[p].add(entry_in[p], r)
        if teams is None:
            ties += int(len(r.winners) > 1)
        else:
            for t, team in enumerate(teams):
                team_tally[t].add(team[0], r)
            ties += int(sum(team[0] in r.winners for team in teams) > 1)
        if r.scores is None:
            have_scores = False
        elif have_scores:
            for p in range(players):
                seat_tally[p].score += r.scores[p]
                entry_tally[p].score += r.scores[entry_in[p]]
            for t, team in enumerate(teams or ()):
                team_tally[t].score += sum(r.scores[p] for p in team)
    seat_names = inst.seat_names
    seats = [player_name(p, seat_names) for p in range(players)]
    mixed = rotate and len(set(agents)) > 1

    def rate(tally: Tally) -> dict[str, Any]:
        lo, hi = wilson_interval(tally.wins, games)
        return {"wins": tally.wins, "losses": tally.losses, "draws": tally.draws,
                "win_rate": tally.wins / n, "win_rate_ci95": [lo, hi],
                "mean_score": tally.score / n if have_scores else None}

    return {
        "ruleset": game.name,
        "title": game.title,
        "games": games,
        "players": players,
        "seed": seed,
        "options": jsonable(game.parse_options(options)),
        "rotate": rotate,
        "seats": [
            {"seat": p + 1, "name": seats[p], "agent": ROTATED if mixed else agents[p],
             **rate(seat_tally[p])}
            for p in range(players)
        ],
        "agents": [
            {"entry": k + 1, "name": agents[k], "games": games, **rate(entry_tally[k])}
            for k in range(players)
        ],
        "teams": None if teams is None else [
            {"team": t + 1, "name": " + ".join(seats[p] for p in team),
             "seats": [p + 1 for p in team], **rate(team_tally[t])}
            for t, team in enumerate(teams)
        ],
        "mean_decisions": decisions / n,
        "draws": draws,
        "ties": ties,
    }
