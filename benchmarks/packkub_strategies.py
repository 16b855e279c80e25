"""PackKub strategies against each other: is playing every tile you can the best?

An analysis for the author of a ruleset, not an engine benchmark. It plays
two-player (or more) PackKub between agents and reports each one's wins with a
95% Wilson interval and the mean of its final totals (tiles counted against it;
lower is better):

* ``random``: :class:`~rulepack.agents.bots.RandomAgent`.
* ``greedy``: :class:`~rulepack.agents.bots.GreedyAgent`, which plays a tile
  whenever it can (the ruleset's heuristic guides it).
* ``hold``: a scripted player, written here and knowing PackKub: it draws
  whenever it cannot empty its hand this turn — so its tiles feed nobody's melds —
  unless an opponent is down to ``--hold-until`` tiles or fewer or the pile is
  empty; otherwise it plays like ``greedy``. It decides from its view only: its
  hand, the table, the others' hand sizes and whether it has opened.

Game ``i`` is seeded ``mix_seed(SEED, "game", i)`` and agent ``k`` sits in seat
``(k + i) % players``. Run from the repository root::

    .venv/bin/python benchmarks/packkub_strategies.py hold greedy --games 400
    .venv/bin/python benchmarks/packkub_strategies.py greedy random --games 400 --rounds 4
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

# Run from a checkout without installing: make ``import rulepack`` find the package.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import rulepack  # noqa: E402
from rulepack.cli.simulate import wilson_interval  # noqa: E402
from rulepack.agents.bots import (Decision, GreedyAgent, RandomAgent,  # noqa: E402
                                         agent_seed, play_out)
from rulepack.agents.determinize import determinize  # noqa: E402
from rulepack.patterns.partition import find_partition  # noqa: E402
from rulepack.engine.rng import Rng, mix_seed  # noqa: E402


class HoldAgent:
    """Draws until it can go out in one turn (see the module docstring).

    :param hold_until: play as soon as an opponent holds this many tiles or fewer.
    """

    name = "hold"

    def __init__(self, seed: int, hold_until: int = 3) -> None:
        self.greedy = GreedyAgent(seed)
        self.hold_until = hold_until

    def choose(self, decision: Decision) -> int:
        texts = decision.actions
        if "draw a tile" in texts and any(t.startswith("play ") for t in texts):
            view = decision.view
            me = decision.player
            zones = view["zones"]
            hands = [z for z in zones.values() if z["name"] == "hand"]
            mine = next(z for z in hands if z["owner"] == me)
            others = min(z["count"] for z in hands if z["owner"] != me)
            if others > self.hold_until and not self._can_go_out(decision, mine, zones, view):
                return texts.index("draw a tile")
        return self.greedy.choose(decision)

    @staticmethod
    def _can_go_out(decision: Decision, mine: dict[str, Any], zones: dict[str, Any],
                    view: dict[str, Any]) -> bool:
        """Whether the whole hand (with the table, once opened) splits into melds."""
        inst = decision.instance
        meld = next(p for p in inst.patterns if p.name == "meld")
        pieces = [inst.pieces[p["id"]] for p in mine["pieces"]]
        if view["variables"]["opened"][decision.player]:
            pieces += [inst.pieces[p["id"]] for p in zones["table"]["pieces"]]
        # the pattern is pure: a state rebuilt from the view only gives it a context
        context = determinize(inst, view, Rng(0))
        return find_partition(context, meld, pieces) is not None


def make(name: str, seed: int, hold_until: int) -> Any:
    if name == "hold":
        return HoldAgent(seed, hold_until)
    return {"greedy": GreedyAgent, "random": RandomAgent}[name](seed)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("agents", nargs="+", choices=["hold", "greedy", "random"],
                        help="one agent per seat (their number is the player count)")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--hold-until", type=int, default=3)
    args = parser.parse_args()
    game = rulepack.load("packkub")
    players = len(args.agents)
    wins = [0] * players
    totals = [0.0] * players
    started = time.perf_counter()
    for i in range(args.games):
        seed = mix_seed(args.seed, "game", i)
        seat_of = [(k + i) % players for k in range(players)]
        agents: list[Any] = [None] * players
        for k, name in enumerate(args.agents):
            agents[seat_of[k]] = make(name, agent_seed(seed, seat_of[k]), args.hold_until)
        state = game.new_game(players, seed=seed, options={"rounds": args.rounds})
        play_out(state, agents)
        result = state.result()
        for k in range(players):
            wins[k] += seat_of[k] in result["winners"]
            totals[k] += result["scores"][seat_of[k]]
    elapsed = time.perf_counter() - started
    print(f"PackKub, {players} players, {args.rounds} rounds, {args.games} games, "
          f"seed {args.seed}, seats rotated ({elapsed:.0f} s); a shared win counts for each")
    for k, name in enumerate(args.agents):
        lo, hi = wilson_interval(wins[k], args.games)
        print(f"  {k + 1}. {name:7} wins {wins[k]:5}  {wins[k] / args.games:6.1%} "
              f"({lo:.1%}-{hi:.1%})   mean total {totals[k] / args.games:.2f}")


if __name__ == "__main__":
    main()
