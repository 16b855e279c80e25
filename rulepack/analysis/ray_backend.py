"""Games on a Ray cluster (the optional ``ray`` extra).

``Backend.cluster == "ray"`` starts a local cluster with ``jobs`` CPUs (0: all of
this machine's) and stops it afterwards; ``"auto"`` or ``"ray://HOST:PORT"``
joins a running cluster (whose workers must have rulepack installed) and leaves
it running. One actor per worker compiles the game once from its IR, then plays
chunks of games; records come back as chunks finish, and the lowest failing game
is the one reported, as on the other backends.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from rulepack.analysis.runner import (
    Backend,
    ChunkResult,
    Work,
    collect,
    play_chunk,
    resolve_jobs,
    spans,
)


class _Player:
    """A Ray actor: one compiled game, playing the chunks it is given."""

    def __init__(self, work: Work) -> None:
        from rulepack.game import Game
        self.game = Game(work.ir, work.file)
        self.task = work.task

    def play(self, keys: list[Any]) -> ChunkResult:
        return play_chunk(self.game, self.task, keys)


def run_on_ray(work: Work, keys: Sequence[Any], backend: Backend,
               on_result: Callable[[Any, Any], None]) -> None:
    """Play the games of ``keys`` on Ray; ``on_result(key, record)`` as they finish.

    :raises ImportError: ray is not installed.
    :raises RulepackError: the failing game with the lowest key.
    """
    try:
        import ray
        from ray.util import ActorPool
    except ImportError:
        raise ImportError("the Ray backend needs ray") from None
    started = False
    if not ray.is_initialized():
        if backend.cluster == "ray":
            ray.init(num_cpus=resolve_jobs(backend.jobs), include_dashboard=False,
                     log_to_driver=False, logging_level="error")
        else:
            ray.init(address=backend.cluster, log_to_driver=False, logging_level="error")
        started = True
    actors: list[Any] = []
    try:
        workers = backend.jobs or max(1, int(ray.cluster_resources().get("CPU", 1)))
        chunks = spans(keys, workers)
        player = ray.remote(num_cpus=1)(_Player)
        actors = [player.remote(work) for _ in range(min(workers, len(chunks)))]
        pool = ActorPool(actors)
        results = pool.map_unordered(lambda actor, ks: actor.play.remote(ks), chunks)
        collect(results, {c[0] for c in chunks}, on_result)
    finally:
        for actor in actors:
            ray.kill(actor)
        if started:
            ray.shutdown()
