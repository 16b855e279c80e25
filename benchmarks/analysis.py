"""The cost of ``rulepack analyze`` against the hand-written Multzo reference.

Issue 15's target: a 10,000-game Multzo analysis with random agents (3 players,
every metric: legal actions, coverage, scores at every turn) on this machine's
two cores must cost no more wall time than 30,000 games of the hand-written
reference (``multzo_ref.py``, ``play(players, rng)``) on one core. Both are run
here, in the same run, taking turns ``--rounds`` times (the best round of each
counts, the one least disturbed by other processes), and both wall times are
printed with their ratio (analysis / reference; at most 1.00 meets the target).
With fewer games than 10,000 and 30,000 the run is scaled down, and says so.

Beside wall time, CPU time: the reference's, and the analysis's in all its
processes (this one and its workers, which end before it is read); CPU time over
``--jobs`` is what the analysis's wall time would be on that many idle cores, a
steadier figure on a shared machine (Ray's workers are not counted).

Then where an analysis game's cost goes (``--breakdown-games``, on one core, CPU
time per game, same seeds and seats as the analysis, the faster of two turns each): a plain playout (random
agents through ``play_out``, as ``rulepack simulate`` plays), the same game
watched (:func:`rulepack.analysis.trace.observe`: everything recorded), and the
report from the records; and the start-up of ``--jobs`` workers (an analysis of
one game per worker, wall time). ::

    .venv/bin/python benchmarks/analysis.py                     # 10,000 and 30,000 games
    .venv/bin/python benchmarks/analysis.py --games 2000 --reference-games 6000 --rounds 3
    .venv/bin/python benchmarks/analysis.py --games 1000 --reference-games 3000 --json
    .venv/bin/python benchmarks/analysis.py --cluster ray       # the same on a local Ray cluster
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
import os
import random
import resource
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))    # run from a checkout without installing

import rulepack  # noqa: E402
from rulepack.agents.bots import make_agent, play_out  # noqa: E402
from rulepack.analysis.analyze import analyze  # noqa: E402
from rulepack.analysis.report import variant_report  # noqa: E402
from rulepack.analysis.rules import rule_map  # noqa: E402
from rulepack.analysis.runner import Backend, game_seed, lineup  # noqa: E402
from rulepack.analysis.trace import observe  # noqa: E402

#: The target's figures: analysis games on two cores, reference games on one.
TARGET_GAMES, TARGET_REFERENCE_GAMES = 10_000, 30_000


def cpu_seconds() -> float:
    """CPU time of this process and of its children that have ended."""
    me = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + children.ru_utime + children.ru_stime


def reference_run(module: Any, games: int, players: int, seed: int) -> dict[str, Any]:
    """``games`` games of ``multzo_ref.play`` in this process: wall and CPU seconds."""
    rng = random.Random(seed)
    decisions = 0
    cpu = cpu_seconds()
    started = time.perf_counter()
    for _ in range(games):
        decisions += module.play(players, rng)[1]
    return {"seconds": time.perf_counter() - started, "cpu_seconds": cpu_seconds() - cpu,
            "decisions_per_game": decisions / games}


def analysis_run(games: int, players: int, seed: int, jobs: int,
                 cluster: str | None) -> dict[str, Any]:
    """``rulepack analyze multzo`` of ``games`` games, loading included: wall and
    CPU seconds (this process and its workers)."""
    cpu = cpu_seconds()
    started = time.perf_counter()
    game = rulepack.load("multzo")
    report = analyze(game, games, ["random"] * players, seed=seed,
                     backend=Backend(jobs=jobs, cluster=cluster))
    return {"seconds": time.perf_counter() - started, "cpu_seconds": cpu_seconds() - cpu,
            "decisions_per_game": report["variants"][0]["length"]["decisions"]["mean"]}


def breakdown(games: int, players: int, seed: int, jobs: int,
              cluster: str | None) -> dict[str, Any]:
    """Milliseconds of CPU per game on one core: plain playout, watched game, report;
    and the wall seconds of starting ``jobs`` workers."""
    game = rulepack.load("multzo")
    game.instance(players, None).prepare()
    agents = ["random"] * players
    deals = [(game_seed(seed, i), lineup(agents, i, True)) for i in range(games)]
    out: dict[str, Any] = {"games": games, "playout_ms": math.inf, "watched_ms": math.inf}
    records: list[dict[str, Any]] = []
    for _ in range(2):                       # each twice, taking turns; the faster counts
        started = time.process_time()
        for s, seats in deals:
            play_out(game.new_game(players, seed=s),
                     [make_agent(name, s, p) for p, name in enumerate(seats)])
        out["playout_ms"] = min(out["playout_ms"], (time.process_time() - started) / games * 1000)
        started = time.process_time()
        records = [{"index": i, "seats": seats, **observe(game, s, seats, None, 100_000)}
                   for i, (s, seats) in enumerate(deals)]
        out["watched_ms"] = min(out["watched_ms"], (time.process_time() - started) / games * 1000)
    started = time.process_time()
    variant_report(records, rule_map(game.instance(players, None)),
                   [str(p + 1) for p in range(players)], agents, ())
    out["report_ms"] = (time.process_time() - started) / games * 1000
    out["recording_share"] = out["watched_ms"] / out["playout_ms"] - 1
    if jobs > 1 or cluster:
        started = time.perf_counter()
        analyze(game, max(jobs, 1), agents, seed=seed, backend=Backend(jobs=jobs, cluster=cluster))
        out["startup_seconds"] = time.perf_counter() - started
    return out


def load_reference(directory: Path) -> Any:
    path = directory / "multzo_ref.py"
    spec = importlib.util.spec_from_file_location("multzo_ref", path)
    if spec is None or spec.loader is None:
        raise FileNotFoundError(path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=TARGET_GAMES, help="analysis games")
    parser.add_argument("--reference-games", type=int, default=TARGET_REFERENCE_GAMES)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--cluster", default=None, help="ray, auto or ray://HOST:PORT")
    parser.add_argument("--rounds", type=int, default=1,
                        help="turns each side takes; the best round of each counts")
    parser.add_argument("--breakdown-games", type=int, default=300,
                        help="games of the one-core breakdown (0: none)")
    parser.add_argument("--reference-dir", default=str(ROOT.parent / "shared" / "reference"))
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    module = load_reference(Path(args.reference_dir))
    load_before = os.getloadavg()[0]
    refs, ours = [], []
    for _ in range(args.rounds):
        refs.append(reference_run(module, args.reference_games, args.players, args.seed))
        ours.append(analysis_run(args.games, args.players, args.seed, args.jobs, args.cluster))
    ref = min(refs, key=lambda r: r["seconds"])
    mine = min(ours, key=lambda r: r["seconds"])
    parts = (breakdown(args.breakdown_games, args.players, args.seed, args.jobs, args.cluster)
             if args.breakdown_games else None)
    scaled = (args.games, args.reference_games) != (TARGET_GAMES, TARGET_REFERENCE_GAMES)
    workers = max(args.jobs, 1)
    result = {
        "reference": {"games": args.reference_games, **ref,
                      "all_seconds": [r["seconds"] for r in refs]},
        "analysis": {"games": args.games, "jobs": args.jobs, "cluster": args.cluster, **mine,
                     "all_seconds": [r["seconds"] for r in ours]},
        "ratio": mine["seconds"] / ref["seconds"],
        "cpu_ratio": mine["cpu_seconds"] / workers / ref["cpu_seconds"],
        "scaled_down": scaled,
        "load_average": [load_before, os.getloadavg()[0]],
        "breakdown": parts,
    }
    if args.json:
        print(json.dumps(result, indent=2))
        return
    if scaled:
        print(f"scaled down: {args.games} analysis games against {args.reference_games} "
              f"reference games (the target is {TARGET_GAMES} against {TARGET_REFERENCE_GAMES})")
    print(f"reference: {args.reference_games} games on 1 core in {ref['seconds']:.1f} s, "
          f"CPU {ref['cpu_seconds']:.1f} s ({ref['decisions_per_game']:.1f} decisions/game)")
    where = "Ray workers" if args.cluster else "processes"
    print(f"analysis:  {args.games} games on {args.jobs} {where} in {mine['seconds']:.1f} s, "
          f"CPU {mine['cpu_seconds']:.1f} s ({mine['decisions_per_game']:.1f} decisions/game)")
    print(f"ratio analysis/reference: {result['ratio']:.2f} by wall time, "
          f"{result['cpu_ratio']:.2f} by CPU time over {workers} cores (target: at most 1.00)")
    print(f"load average {load_before:.1f} before, {result['load_average'][1]:.1f} after "
          f"({os.cpu_count()} CPUs)")
    if parts:
        print(f"one core, ms of CPU per game ({parts['games']} games): playout "
              f"{parts['playout_ms']:.2f}, watched {parts['watched_ms']:.2f} "
              f"(recording +{parts['recording_share']:.0%}), report {parts['report_ms']:.3f}")
        if "startup_seconds" in parts:
            print(f"start-up of {args.jobs} {where}: {parts['startup_seconds']:.2f} s wall")


if __name__ == "__main__":
    main()
