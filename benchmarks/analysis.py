"""The cost of ``rulepack analyze`` against the hand-written Multzo reference.

Issue 15's target: a 10,000-game Multzo analysis with random agents (3 players,
every metric: legal actions, coverage, scores at every turn) on this machine's
two cores must cost no more wall time than 30,000 games of the hand-written
reference (``multzo_ref.py``, ``play(players, rng)``) on one core. Both are run
here, one after the other, and both wall times printed with their ratio
(analysis / reference; at most 1.0 meets the target)::

    .venv/bin/python benchmarks/analysis.py                     # 10,000 and 30,000 games
    .venv/bin/python benchmarks/analysis.py --games 1000 --reference-games 3000 --json
    .venv/bin/python benchmarks/analysis.py --cluster ray       # the same on a local Ray cluster

The analysis runs in ``--jobs`` worker processes (default 2), its start-up
(spawning and compiling the game in each worker) included in its time.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))    # run from a checkout without installing

import rulepack  # noqa: E402
from rulepack.analysis.analyze import analyze  # noqa: E402
from rulepack.analysis.runner import Backend  # noqa: E402


def reference_seconds(directory: Path, games: int, players: int, seed: int) -> dict[str, Any]:
    """Wall time of ``games`` games of ``multzo_ref.play`` in this process."""
    path = directory / "multzo_ref.py"
    spec = importlib.util.spec_from_file_location("multzo_ref", path)
    if spec is None or spec.loader is None:
        raise FileNotFoundError(path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    rng = random.Random(seed)
    decisions = 0
    started = time.perf_counter()
    for _ in range(games):
        decisions += module.play(players, rng)[1]
    seconds = time.perf_counter() - started
    return {"games": games, "seconds": seconds, "decisions_per_game": decisions / games}


def analysis_seconds(games: int, players: int, seed: int, jobs: int,
                     cluster: str | None) -> dict[str, Any]:
    """Wall time of ``rulepack analyze multzo`` of ``games`` games, loading included."""
    started = time.perf_counter()
    game = rulepack.load("multzo")
    report = analyze(game, games, ["random"] * players, seed=seed,
                     backend=Backend(jobs=jobs, cluster=cluster))
    seconds = time.perf_counter() - started
    return {"games": games, "seconds": seconds, "jobs": jobs, "cluster": cluster,
            "decisions_per_game": report["variants"][0]["length"]["decisions"]["mean"]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10_000, help="analysis games")
    parser.add_argument("--reference-games", type=int, default=30_000)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--cluster", default=None, help="ray, auto or ray://HOST:PORT")
    parser.add_argument("--reference-dir", default=str(ROOT.parent / "shared" / "reference"))
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    ref = reference_seconds(Path(args.reference_dir), args.reference_games, args.players,
                            args.seed)
    ours = analysis_seconds(args.games, args.players, args.seed, args.jobs, args.cluster)
    ratio = ours["seconds"] / ref["seconds"]
    if args.json:
        print(json.dumps({"analysis": ours, "reference": ref, "ratio": ratio}, indent=2))
        return
    print(f"reference: {ref['games']} games on 1 core in {ref['seconds']:.1f} s "
          f"({ref['decisions_per_game']:.1f} decisions/game)")
    print(f"analysis:  {ours['games']} games on {args.jobs} "
          f"{'Ray workers' if args.cluster else 'processes'} in {ours['seconds']:.1f} s "
          f"({ours['decisions_per_game']:.1f} decisions/game)")
    print(f"ratio analysis/reference: {ratio:.2f} (target: at most 1.00)")


if __name__ == "__main__":
    main()
