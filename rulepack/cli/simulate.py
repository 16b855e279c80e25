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
                      losers=() if not state.is_terminal() or result["draw"] else tuple(
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


class Tallies:
    """What a simulation's summary counts, game by game: wins, losses and draws per
    seat, agent entry and team, sums of scores, decisions, draws and ties. Nothing
    is kept per game, so a long simulation holds no more than a short one.

    :param players: the player count; ``teams`` the ruleset's teams (seats), or ``None``.
    :param rotate: agent entries change seats from game to game (:func:`lineup`).
    """

    def __init__(self, players: int, teams: Sequence[Sequence[int]] | None,
                 rotate: bool) -> None:
        self.players = players
        self.teams = teams
        self.rotate = rotate
        self.seats = [Tally() for _ in range(players)]
        self.entries = [Tally() for _ in range(players)]
        self.team_tallies = [Tally() for _ in teams or ()]
        #: every game so far has numeric scores
        self.have_scores = True
        self.games = self.decisions = self.draws = self.ties = 0

    def add(self, r: GameRecord) -> None:
        """Count one game. Sums of scores depend on the order games are added in:
        add them in index order (:class:`InOrder`) for the same sums to the last bit."""
        players, teams = self.players, self.teams
        self.games += 1
        self.decisions += r.decisions
        self.draws += int(r.draw)
        entry_in = [seat_of(k, r.index, players, self.rotate) for k in range(players)]
        for p in range(players):
            self.seats[p].add(p, r)
            self.entries[p].add(entry_in[p], r)
        if teams is None:
            self.ties += int(len(r.winners) > 1)
        else:
            for t, team in enumerate(teams):
                self.team_tallies[t].add(team[0], r)
            self.ties += int(sum(team[0] in r.winners for team in teams) > 1)
        if r.scores is None:
            self.have_scores = False
        elif self.have_scores:
            for p in range(players):
                self.seats[p].score += r.scores[p]
                self.entries[p].score += r.scores[entry_in[p]]
            for t, team in enumerate(teams or ()):
                self.team_tallies[t].score += sum(r.scores[p] for p in team)


class InOrder:
    """Hands records that come in any order (from worker processes) to ``add`` in
    index order, from ``first`` on: a record that comes early waits for those before
    it (at most the games the workers have in hand), none is kept once added.
    """

    def __init__(self, add: Callable[[GameRecord], None], first: int = 0) -> None:
        self._add = add
        self._next = first
        self._early: dict[int, GameRecord] = {}

    def __call__(self, record: GameRecord) -> None:
        if record.index != self._next:
            self._early[record.index] = record
            return
        self._add(record)
        self._next += 1
        while self._next in self._early:
            self._add(self._early.pop(self._next))
            self._next += 1


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
        Each game is counted as it finishes, in index order (:class:`Tallies`):
        the memory a simulation takes does not grow with its number of games.
    :raises RulepackError: bad options or player count, or a game that fails
        (with a note naming the game and its seed; the lowest such game).
    :raises ValueError: a negative ``jobs``.
    """
    players = len(agents)
    workers = min(resolve_jobs(jobs), games)
    started = time.perf_counter()
    inst = game.instance(players, options)  # bad player count or options: fail before playing
    tallies = Tallies(players, inst.teams, rotate)
    in_order = InOrder(tallies.add)
    done = 0

    def finished(_: int, record: GameRecord) -> None:
        nonlocal done
        in_order(record)
        done += 1
        if on_game is not None:
            on_game(done)

    task = SimulationTask(seed, tuple(agents), options, max_decisions, rotate)
    run(game, task, range(games), Backend(jobs=workers), finished)
    elapsed = time.perf_counter() - started
    summary = summary_of(game, tallies, agents, seed, options)
    summary["seconds"] = elapsed
    summary["games_per_second"] = games / elapsed if elapsed > 0 else 0.0
    return summary


def summarise(game: Game, records: list[GameRecord], agents: Sequence[str], seed: int,
              options: dict[str, Any] | None, rotate: bool) -> dict[str, Any]:
    """The summary of played games (see :func:`simulate`), without timing fields.

    The records are taken in index order, whatever order they come in, so sums
    of scores come out the same to the last bit.
    """
    players = len(agents)
    tallies = Tallies(players, game.instance(players, options).teams, rotate)
    for r in sorted(records, key=lambda r: r.index):
        tallies.add(r)
    return summary_of(game, tallies, agents, seed, options)


def summary_of(game: Game, tallies: Tallies, agents: Sequence[str], seed: int,
               options: dict[str, Any] | None) -> dict[str, Any]:
    """The summary (see :func:`simulate`) of the games counted in ``tallies``,
    without timing fields."""
    players = len(agents)
    games = tallies.games
    n = max(games, 1)
    teams = tallies.teams
    have_scores = tallies.have_scores and games > 0
    seat_names = game.instance(players, options).seat_names
    seats = [player_name(p, seat_names) for p in range(players)]
    mixed = tallies.rotate and len(set(agents)) > 1

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
        "rotate": tallies.rotate,
        "seats": [
            {"seat": p + 1, "name": seats[p], "agent": ROTATED if mixed else agents[p],
             **rate(tallies.seats[p])}
            for p in range(players)
        ],
        "agents": [
            {"entry": k + 1, "name": agents[k], "games": games, **rate(tallies.entries[k])}
            for k in range(players)
        ],
        "teams": None if teams is None else [
            {"team": t + 1, "name": " + ".join(seats[p] for p in team),
             "seats": [p + 1 for p in team], **rate(tallies.team_tallies[t])}
            for t, team in enumerate(teams)
        ],
        "mean_decisions": tallies.decisions / n,
        "draws": tallies.draws,
        "ties": tallies.ties,
    }
