"""Where a run's games are played: :func:`run` hands them to one process, local
worker processes (:mod:`rulepack.analysis.runner`) or Ray
(:mod:`rulepack.analysis.ray_backend`), as a :class:`~rulepack.analysis.runner.Backend` says."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from rulepack.analysis.runner import Backend, Task, Work, resolve_jobs, run_in_processes

if TYPE_CHECKING:  # pragma: no cover
    from rulepack.game import Game


def run(game: "Game", task: Task, keys: Sequence[Any], backend: Backend,
        on_result: Callable[[Any, Any], None]) -> None:
    """Play the games of ``keys``; ``on_result(key, record)`` is called for each as it
    finishes (in any order, except in one process where it is key order).

    :raises RulepackError: the failing game with the lowest key (the task's error).
    :raises ValueError: a negative ``jobs``.
    :raises ImportError: a Ray cluster without the ``ray`` extra installed.
    """
    if backend.cluster is not None:
        from rulepack.analysis.ray_backend import run_on_ray   # the ray extra
        run_on_ray(Work(game.ir, game.file, task), keys, backend, on_result)
        return
    workers = min(resolve_jobs(backend.jobs), len(keys))
    if workers <= 1:
        for key in keys:
            on_result(key, task.play(game, key))
        return
    run_in_processes(Work(game.ir, game.file, task), keys, workers, on_result, game)
