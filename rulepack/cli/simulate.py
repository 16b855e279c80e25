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

import math
import multiprocessing
import os
import signal
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rulepack.cli.args import jsonable
from rulepack.cli.session import make_agents
from rulepack.errors import Diagnostic, Location, RulepackError
from rulepack.agents.bots import play_out
from rulepack.engine.rng import mix_seed
from rulepack.engine.state import DEFAULT_MAX_DECISIONS
from rulepack.engine.values import player_name

if TYPE_CHECKING:  # pragma: no cover
    from rulepack.game import Game

#: The standard normal quantile of a two-sided 95% interval.
Z95 = 1.959963984540054

#: The ``agent`` of a seat row when rotating seats puts different agents in it.
ROTATED = "rotated"

#: Games one worker process plays per task, at most: bigger tasks cost less in
#: messages between processes, smaller ones move the progress bar more often.
MAX_CHUNK = 25


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` (0-based) of a simulation seeded ``seed``."""
    return mix_seed(seed, index)


def wilson_interval(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion: ``successes`` out of ``trials``.

    Unlike the normal approximation (p ± z·sqrt(p(1-p)/n)), it stays within
    [0, 1] and is not empty at 0 or ``trials`` successes.
    ``wilson_interval(50, 100)`` is about ``(0.404, 0.596)``.

    :param successes: the number of successes, ``0 <= successes <= trials``.
    :param trials: the number of trials; with none, the interval is ``(0.0, 1.0)``.
    :param z: the normal quantile of the confidence level (1.96 for 95%).
    :returns: ``(low, high)``, ``0.0 <= low <= high <= 1.0``.
    :raises ValueError: ``successes`` outside ``0..trials``.
    """
    if not 0 <= successes <= trials:
        raise ValueError(f"{successes} successes out of {trials} trials")
    if trials == 0:
        return (0.0, 1.0)
    n = trials
    p = successes / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return (low, high)


def seat_of(entry: int, index: int, players: int, rotate: bool) -> int:
    """The seat (0-based) of agent entry ``entry`` (0-based) in game ``index``."""
    return (entry + index) % players if rotate else entry


def lineup(agents: Sequence[str], index: int, rotate: bool) -> list[str]:
    """The agent name in each seat of game ``index``: ``agents`` itself, or with
    ``rotate`` the list rotated so that ``agents[k]`` sits in seat ``(k + index) % n``."""
    seated = list(agents)
    for k, name in enumerate(agents):
        seated[seat_of(k, index, len(agents), rotate)] = name
    return seated


def resolve_jobs(jobs: int) -> int:
    """The number of worker processes ``jobs`` asks for: itself, or for ``0`` the
    number of CPUs this process may use (at least 1).

    :raises ValueError: a negative number.
    """
    if jobs < 0:
        raise ValueError(f"jobs must be 0 (all CPUs) or more, not {jobs}")
    if jobs > 0:
        return jobs
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):     # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


@dataclass(frozen=True)
class GameRecord:
    """What one finished game adds to the summary.

    :ivar index: the game's index (0-based) in the simulation.
    :ivar winners: the winning seats (0-based); several for a shared win.
    :ivar draw: the result says draw.
    :ivar scores: the final score of each seat, or ``None`` if the game has no
        numeric scores.
    :ivar decisions: the number of decisions taken.
    """

    index: int
    winners: tuple[int, ...]
    draw: bool
    scores: tuple[float, ...] | None
    decisions: int


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
    return GameRecord(index=index, winners=tuple(result["winners"]),
                      draw=bool(result["draw"]),
                      scores=None if scores is None else tuple(scores),
                      decisions=state.decisions)


# ---------------------------------------------------------------------- worker processes

@dataclass(frozen=True)
class _Job:
    """What every worker process needs to play any game of one simulation: plain,
    picklable data (the ruleset as IR, never compiled closures)."""

    ir: dict[str, Any]
    file: str
    seed: int
    agents: tuple[str, ...]
    options: dict[str, Any] | None
    max_decisions: int
    rotate: bool


#: This worker process's game and job, set by :func:`_start_worker`.
_worker: tuple[Game, _Job] | None = None

#: What a worker task returns: the index of its first game, the games it played,
#: and the index and diagnostics of the game that failed, if one did (the task
#: stops there).
ChunkResult = tuple[int, list[GameRecord], tuple[int, list[Diagnostic]] | None]


def _start_worker(job: _Job) -> None:
    """Set a worker process up: compile the game again from its IR, and leave
    Ctrl-C to the parent process (which then stops the workers)."""
    global _worker
    from rulepack.game import Game
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _worker = (Game(job.ir, job.file), job)


def _play_chunk(span: tuple[int, int]) -> ChunkResult:
    """In a worker: play games ``span[0]`` to ``span[1] - 1`` until one fails."""
    assert _worker is not None, "worker not started"
    game, job = _worker
    records: list[GameRecord] = []
    for i in range(*span):
        try:
            records.append(play_game(game, i, job.seed, job.agents, job.options,
                                     job.max_decisions, job.rotate))
        except RulepackError as exc:
            return span[0], records, (i, list(exc.diagnostics))
    return span[0], records, None


def chunk_size(games: int, jobs: int) -> int:
    """Games per worker task: about eight tasks per worker, 1 to :data:`MAX_CHUNK`."""
    return max(1, min(MAX_CHUNK, games // (jobs * 8)))


def _play_in_processes(game: Game, games: int, agents: Sequence[str], seed: int,
                       options: dict[str, Any] | None, max_decisions: int, rotate: bool,
                       jobs: int, on_game: Callable[[int], None] | None) -> list[GameRecord]:
    """Play the games in ``jobs`` worker processes; returns their records in any order.

    Each worker compiles the game again from ``game.ir``. If games fail, the one
    with the lowest index is reported, as when the games are played one after
    the other. On any error or interruption the workers are stopped at once.

    :raises RulepackError: the first failing game's error (see :func:`play_game`).
    """
    size = chunk_size(games, jobs)
    spans = [(a, min(a + size, games)) for a in range(0, games, size)]
    job = _Job(game.ir, game.file, seed, tuple(agents), options, max_decisions, rotate)
    records: list[GameRecord] = []
    failure: tuple[int, list[Diagnostic]] | None = None
    waiting = {a for a, _ in spans}           # starts of the tasks not back yet
    context = multiprocessing.get_context("spawn")     # no fork of a threaded process
    pool = context.Pool(min(jobs, len(spans)), initializer=_start_worker, initargs=(job,))
    try:
        for start, played, failed in pool.imap_unordered(_play_chunk, spans):
            records.extend(played)
            waiting.discard(start)
            if failed is not None and (failure is None or failed[0] < failure[0]):
                failure = failed
            if failure is None:
                if on_game is not None:
                    on_game(len(records))
            elif not any(a < failure[0] for a in waiting):
                break                          # no earlier game can fail any more
    finally:                                   # done, failed or interrupted: stop them
        pool.terminate()
        pool.join()
    if failure is not None:
        raise RulepackError(failure[1]) from None
    return records


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
        puts different agents there —, ``wins``, ``win_rate``,
        ``win_rate_ci95`` ``[low, high]``, ``mean_score`` or ``None``);
        ``agents``, one dict per agent entry (``entry`` 1-based, ``name``,
        ``games``, ``wins``, ``win_rate``, ``win_rate_ci95``, ``mean_score``);
        ``mean_decisions``, ``draws``, ``ties`` (games with several winners);
        and the timing fields ``seconds`` and ``games_per_second``.
        A shared win counts as a win for each winner.
    :raises RulepackError: bad options or player count, or a game that fails
        (with a note naming the game and its seed; the lowest such game).
    :raises ValueError: a negative ``jobs``.
    """
    players = len(agents)
    workers = min(resolve_jobs(jobs), games)
    started = time.perf_counter()
    game.instance(players, options)       # bad player count or options: fail before playing
    records: list[GameRecord]
    if workers <= 1:
        records = []
        for i in range(games):
            records.append(play_game(game, i, seed, agents, options, max_decisions, rotate))
            if on_game is not None:
                on_game(i + 1)
    else:
        records = _play_in_processes(game, games, agents, seed, options, max_decisions,
                                     rotate, workers, on_game)
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
    seat_wins = [0] * players
    entry_wins = [0] * players
    seat_scores = [0.0] * players
    entry_scores = [0.0] * players
    have_scores = bool(records)
    decisions = draws = ties = 0
    for r in records:
        decisions += r.decisions
        draws += int(r.draw)
        ties += int(len(r.winners) > 1)
        entry_in = [seat_of(k, r.index, players, rotate) for k in range(players)]
        entry_at = {seat: k for k, seat in enumerate(entry_in)}
        for w in r.winners:
            seat_wins[w] += 1
            entry_wins[entry_at[w]] += 1
        if r.scores is None:
            have_scores = False
        elif have_scores:
            for p in range(players):
                seat_scores[p] += r.scores[p]
                entry_scores[p] += r.scores[entry_in[p]]
    seat_names = game.instance(players, options).seat_names
    seats = [player_name(p, seat_names) for p in range(players)]
    mixed = rotate and len(set(agents)) > 1

    def rate(wins: int) -> dict[str, Any]:
        lo, hi = wilson_interval(wins, games)
        return {"wins": wins, "win_rate": wins / n, "win_rate_ci95": [lo, hi]}

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
             **rate(seat_wins[p]),
             "mean_score": seat_scores[p] / n if have_scores else None}
            for p in range(players)
        ],
        "agents": [
            {"entry": k + 1, "name": agents[k], "games": games, **rate(entry_wins[k]),
             "mean_score": entry_scores[k] / n if have_scores else None}
            for k in range(players)
        ],
        "mean_decisions": decisions / n,
        "draws": draws,
        "ties": ties,
    }
