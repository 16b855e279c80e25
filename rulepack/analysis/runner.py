"""Playing many games of one ruleset: seeds, seats, and where the games run.

Game ``i`` (0-based) of a run seeded ``S`` is seeded ``mix_seed(S, i)``
(:func:`game_seed`), so every game depends only on the run seed and its index:
the games may be played in any order, in one process, in several local worker
processes (``jobs``) or on a Ray cluster, and each comes out the same.

What is played is a :class:`Task`: plain, picklable data with a ``play(game,
key)`` method returning one game's record. A key identifies a game (an index, or
a ``(variant, index)`` pair); keys must be comparable, since when games fail the
lowest failing key is the one reported, as when the games are played one after
the other.
"""

from __future__ import annotations

import gc
import multiprocessing
import os
import signal
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from rulepack.errors import Diagnostic, RulepackError
from rulepack.ir import Node
from rulepack.engine.rng import mix_seed

if TYPE_CHECKING:  # pragma: no cover
    from rulepack.game import Game

#: Games one worker plays per task, at most: bigger tasks cost less in messages
#: between processes, smaller ones move the progress bar more often.
MAX_CHUNK = 25


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` (0-based) of a run seeded ``seed``."""
    return mix_seed(seed, index)


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
    """The number of workers ``jobs`` asks for: itself, or for ``0`` the number of
    CPUs this process may use (at least 1).

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


def chunk_size(games: int, jobs: int) -> int:
    """Games per worker task: about eight tasks per worker, 1 to :data:`MAX_CHUNK`."""
    return max(1, min(MAX_CHUNK, games // (jobs * 8)))


class Task(Protocol):
    """What every worker needs to play any game of a run (picklable)."""

    def play(self, game: "Game", key: Any) -> Any:
        """One game's record. :raises RulepackError: the game fails."""


@dataclass(frozen=True)
class Backend:
    """Where the games run.

    :ivar jobs: workers (``0``: one per CPU); ``1`` without a cluster plays the
        games in this process.
    :ivar cluster: ``None`` for local processes; ``"ray"`` starts a local Ray
        cluster of ``jobs`` workers; ``"auto"`` or ``"ray://HOST:PORT"`` joins a
        running one (``jobs`` 0: one worker per CPU of the cluster).
    """

    jobs: int = 1
    cluster: str | None = None


@dataclass(frozen=True)
class Work:
    """A run as workers get it: the ruleset as IR (never compiled closures) and the task."""

    ir: Node
    file: str
    task: Task


#: A chunk's outcome: its first key, the ``(key, record)`` pairs it played, and the
#: key and diagnostics of the game that failed, if one did (the chunk stops there).
ChunkResult = tuple[Any, list[tuple[Any, Any]], tuple[Any, list[Diagnostic]] | None]


def play_chunk(game: "Game", task: Task, keys: Sequence[Any]) -> ChunkResult:
    """Play the games of ``keys`` in order until one fails."""
    played: list[tuple[Any, Any]] = []
    for key in keys:
        try:
            played.append((key, task.play(game, key)))
        except RulepackError as exc:
            return keys[0], played, (key, list(exc.diagnostics))
    return keys[0], played, None


def spans(keys: Sequence[Any], workers: int) -> list[Sequence[Any]]:
    """``keys`` cut into the chunks workers take (see :func:`chunk_size`): slices of
    ``keys``, so the games of a ``range`` are ranges (a few bytes each, not a number
    object per game for the whole run)."""
    size = chunk_size(len(keys), workers)
    return [keys[a:a + size] for a in range(0, len(keys), size)]


def collect(chunks: Any, pending: set[Any], on_result: Callable[[Any, Any], None]) -> None:
    """Hand the records of finished chunks (an iterator of :data:`ChunkResult`) to
    ``on_result`` until all are back or a failure is certain to be the lowest one;
    ``pending`` holds the first keys of the chunks not back yet.

    :raises RulepackError: the failing game with the lowest key.
    """
    failure: tuple[Any, list[Diagnostic]] | None = None
    for start, played, failed in chunks:
        pending.discard(start)
        if failed is not None and (failure is None or failed[0] < failure[0]):
            failure = failed
        if failure is None:
            for key, record in played:
                on_result(key, record)
        elif not any(a < failure[0] for a in pending):
            break                              # no earlier game can fail any more
    if failure is not None:
        raise RulepackError(failure[1]) from None


# ---------------------------------------------------------------------- local processes

#: This worker process's game and task, set by :func:`_start_worker`.
_worker: tuple[Game, Task] | None = None


def _start_worker(work: "Work | tuple[Game, Task]") -> None:
    """Set a worker process up: compile the game again from its IR (a spawned
    worker) or keep the parent's compiled game (a forked one), and leave Ctrl-C
    to the parent process (which then stops the workers). What exists then lives
    as long as the worker: it is frozen out of the garbage collector's sight
    (``gc.freeze``), which then walks only what the games make (and, forked, no
    longer writes to the pages shared with the parent)."""
    global _worker
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if isinstance(work, Work):
        from rulepack.game import Game
        _worker = (Game(work.ir, work.file), work.task)
    else:
        _worker = work
    gc.freeze()


def _play_span(keys: Sequence[Any]) -> ChunkResult:
    assert _worker is not None, "worker not started"
    return play_chunk(_worker[0], _worker[1], keys)


def can_fork() -> bool:
    """Whether worker processes may be forked from this one: the platform forks,
    and this process runs one thread (a fork copies only the calling thread, so a
    lock another thread holds would stay locked in the worker for ever)."""
    return "fork" in multiprocessing.get_all_start_methods() and threading.active_count() == 1


def run_in_processes(work: Work, keys: Sequence[Any], workers: int,
                     on_result: Callable[[Any, Any], None],
                     game: "Game | None" = None) -> None:
    """Play the games in ``workers`` local processes. With ``game`` (``work``'s
    ruleset, compiled) and :func:`can_fork`, they are forked: each starts with the
    compiled game, importing and compiling nothing; otherwise they are started with
    "spawn" (a script calling this needs the usual ``if __name__ == "__main__":``
    guard) and compile the game from its IR. On any error or interruption the
    workers are stopped at once.

    :raises RulepackError: the failing game with the lowest key.
    """
    chunks = spans(keys, workers)
    start: Work | tuple[Game, Task] = work
    context: multiprocessing.context.BaseContext
    if game is not None and can_fork():
        context = multiprocessing.get_context("fork")
        start = (game, work.task)
    else:
        context = multiprocessing.get_context("spawn")
    pool = context.Pool(min(workers, len(chunks)), initializer=_start_worker, initargs=(start,))
    try:
        collect(pool.imap_unordered(_play_span, chunks), {c[0] for c in chunks}, on_result)
    finally:                                   # done, failed or interrupted: stop them
        pool.terminate()
        pool.join()
