"""How the memory of ``simulate``'s main process grows with the number of games.

    .venv/bin/python benchmarks/simulate_memory.py tic-tac-toe --games 100000 --jobs 2

Plays the games with random agents through :func:`rulepack.cli.simulate.simulate`
(as ``rulepack simulate`` does) and prints the resident memory (VmRSS, Linux) of this
process before the games, after every tenth of them and at the end, with the growth
per game. A warm-up simulation of 200 games runs first, so imports and compiled code
are in place before the first figure.
"""

from __future__ import annotations

import argparse
import gc
import json
import time


def rss_mb() -> float:
    """This process's resident memory in MB (``/proc/self/status``)."""
    with open("/proc/self/status", encoding="ascii") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS in /proc/self/status")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("ruleset")
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()

    import rulepack
    from rulepack.cli.simulate import simulate
    game = rulepack.load(args.ruleset)
    agents = ["random"] * (args.players or game.min_players)
    simulate(game, 200, agents, seed=1)                 # warm up
    gc.collect()
    before = rss_mb()
    marks: list[tuple[int, float]] = []
    step = max(1, args.games // 10)

    def on_game(done: int) -> None:
        if done % step == 0 or done == args.games:
            marks.append((done, round(rss_mb(), 1)))

    started = time.perf_counter()
    simulate(game, args.games, agents, seed=0, jobs=args.jobs, on_game=on_game)
    seconds = time.perf_counter() - started
    last = marks[-1][1]
    figures = {"ruleset": args.ruleset, "games": args.games, "jobs": args.jobs,
               "rss_before_mb": round(before, 1), "rss_at_last_game_mb": last,
               "growth_mb": round(last - before, 1),
               "growth_kb_per_game": round(1024 * (last - before) / args.games, 4),
               "marks": marks, "seconds": round(seconds, 1)}
    if args.json:
        print(json.dumps(figures))
        return
    print(f"{args.ruleset}, {args.games} games, jobs {args.jobs}: RSS {before:.1f} MB before, "
          f"{last:.1f} MB at the last game: {last - before:+.1f} MB "
          f"({figures['growth_kb_per_game']} kB a game), {seconds:.0f} s")
    print("after games: " + ", ".join(f"{n}: {mb} MB" for n, mb in marks))


if __name__ == "__main__":
    main()
