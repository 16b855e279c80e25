"""How often ``ismcts``'s determinizations contradict what the ``memory`` bot remembers.

A diagnostic, not a test: it plays games of ``ismcts`` against ``memory`` and, at
each decision of ``ismcts``, draws determinizations from its sampler and
compares them with a :class:`~rulepack.agents.bots.Memory` fed the same views
and reveals (what ``memory`` would remember in that seat). For every
remembered place that a sample shows face down it counts:

* ``remembered``: such places (over all samples);
* ``elsewhere``: the sample holds another piece there;
* ``memory right``: of those, the true state holds the remembered piece there;
* ``linked``: of those, the piece is in one of the belief's links (the player
  knows it went to one of several places, not which).

From the repository root::

    .venv/bin/python benchmarks/determinization_check.py mismemory --games 4

It looks at the true state (to score the memory), which no bot ever does.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import rulepack  # noqa: E402
from rulepack.agents.bots import Memory, make_agent, play_out  # noqa: E402
from rulepack.agents.strong import ISMCTSAgent  # noqa: E402
from rulepack.cli.simulate import game_seed  # noqa: E402


class Watched(ISMCTSAgent):
    """``ismcts`` that also keeps a ``Memory`` and scores its samples against it."""

    def __init__(self, seed: int, stats: Counter[str], samples: int, **options: Any) -> None:
        super().__init__(seed, **options)
        self.memory = Memory()
        self.stats = stats
        self.samples = samples

    def observe(self, view: dict[str, Any], reveals: list[dict[str, Any]] | None = None,
                action: tuple[Any, ...] | None = None) -> None:
        super().observe(view, reveals, action)
        self.memory.observe(view, reveals)

    def sampler(self, decision: Any, view: dict[str, Any]) -> Any:
        sampler = super().sampler(decision, view)
        self.memory.observe(view)
        truth = decision._state          # the diagnostic's privilege, never a bot's
        labels = {z.label: z.index for z in truth.program.zones}
        linked = {pid for pids, _ in self.belief.links() for pid in pids}
        rnd = random.Random(0)
        for _ in range(self.samples):
            st = sampler.sample(rnd)
            for (label, pos), pid in self.memory.places.items():
                piece = st.position.zones[labels[label]][pos]
                if piece is None or st.position.face[piece.id]:
                    continue
                self.stats["remembered"] += 1
                if piece.id == pid:
                    continue
                self.stats["elsewhere"] += 1
                real = truth.position.zones[labels[label]][pos]
                if real is not None and real.id == pid:
                    self.stats["memory right"] += 1
                    self.stats["memory right, linked"] += pid in linked
        return sampler


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("ruleset")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--seed", type=int, default=99)
    ap.add_argument("--iterations", type=int, default=50)
    ap.add_argument("--samples", type=int, default=20, help="determinizations per decision")
    args = ap.parse_args()
    game = rulepack.load(args.ruleset)
    stats: Counter[str] = Counter()
    for i in range(args.games):
        seed = game_seed(args.seed, i)
        state = game.new_game(args.players, seed=seed)
        bots = [Watched(seed, stats, args.samples, iterations=args.iterations)]
        bots += [make_agent("memory", seed, p) for p in range(1, args.players)]
        play_out(state, bots)
    for name in ("remembered", "elsewhere", "memory right", "memory right, linked"):
        print(f"{name:22} {stats[name]}")


if __name__ == "__main__":
    main()
