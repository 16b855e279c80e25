"""The seats' pictures of ``rulepack serve``, drawn off the server's event loop.

A picture (the render package's SVG of one seat's view, a few milliseconds of work)
is sent after the position it shows, in its own ``picture`` message, so that a
position — whose turn, the legal actions, the story — reaches every seat at once,
however many tables are busy. A page whose picture is being drawn while newer
positions arrive gets only the newest picture (stale pictures are never drawn).

The server computes the seat's view itself (:func:`rulepack.render.tableview.seat_view`:
only what that seat may know) and hands that view, and nothing else, to the drawer:

- ``workers=0``: drawn in the calling thread (tests, where order matters);
- ``workers=N``: drawn by N worker processes (``rulepack serve``: one), each keeping
  the looks of the rulesets it has drawn.
"""

from __future__ import annotations

import asyncio
import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

#: the looks each process has built, by ruleset (see :func:`draw`)
_LOOKS: dict[str, Any] = {}


def draw(key: str, components: list[dict[str, Any]], seats: list[str], chance: list[str],
         title: str, view: dict[str, Any]) -> str:
    """The SVG of ``view`` (a seat's view, or the table's), its clickable places marked
    (:attr:`rulepack.render.appearance.Appearance.marks`).

    :param key: names the ruleset, so that its looks are built once per process.
    :raises RulepackError: a ``draw`` hint of the ruleset is bad."""
    from rulepack.render.appearance import Appearance
    from rulepack.render.picture import drawing, svg_text
    looks = _LOOKS.get(key)
    if looks is None:
        looks = Appearance(components, seats, key, chance)
        looks.marks = True
        _LOOKS[key] = looks
    return svg_text(drawing(looks, view, title))


def _warm() -> None:
    """A new worker: lower its priority (a picture may wait; a position, whose turn
    and what may be done, should not), leave when the server is gone (killed with
    SIGKILL, it cannot tell its workers: a worker left waiting would live on for ever),
    and import the render package."""
    import os
    import threading
    import time
    try:
        os.nice(10)
    except (AttributeError, OSError):  # pragma: no cover - not on every system
        pass
    server = os.getppid()

    def watch() -> None:
        while os.getppid() == server:
            time.sleep(1.0)
        os._exit(0)
    threading.Thread(target=watch, name="rulepack-watch-server", daemon=True).start()
    import rulepack.render.picture  # noqa: F401


class Drawer:
    """Draws pictures with :func:`draw`, in this thread or in worker processes."""

    def __init__(self, workers: int = 0) -> None:
        self.workers = workers
        self._pool: ProcessPoolExecutor | None = None

    async def draw(self, *args: Any) -> str:
        """:func:`draw` of ``args``, awaited (see the module's description); a worker
        that died is replaced once.

        :raises RulepackError: as :func:`draw`.
        :raises BrokenProcessPool: the new worker died too."""
        if self.workers <= 0:
            return draw(*args)
        for attempt in (1, 2):
            if self._pool is None:
                # spawned, not forked: the server runs threads (uvicorn's, the bots')
                self._pool = ProcessPoolExecutor(self.workers,
                                                 multiprocessing.get_context("spawn"),
                                                 initializer=_warm)
            try:
                return await asyncio.get_running_loop().run_in_executor(self._pool, draw, *args)
            except BrokenProcessPool:
                self._pool = None          # a worker died (killed, out of memory): anew
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")  # pragma: no cover

    def close(self) -> None:
        """Stop the worker processes."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
