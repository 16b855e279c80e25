"""PackKub's slowest ``legal_actions()`` over many random games, each from a fresh process.

``--games`` random PackKub games (uniformly random legal actions), their
players (2-6), jokers (0-3) and rounds (1-4) drawn from ``--seed``; each game
is played in a fresh Python process, so nothing a process remembers (a
pattern's index, the parser's cache) is warm when the game starts. For every
decision the CPU time of ``legal_actions()`` and the steps it spent of the
budget between two decisions (``rulepack.engine.runtime.EVAL_STEPS``) are
measured, and the steps of each ``apply()``. The report: the slowest
``legal_actions()`` with the game and the decision it was (time it again with
``--replay``), how many calls took over 0.1 s and 1 s, the most steps any
decision spent and where, and whether the pattern searches ran compiled. A game
that dies is listed and makes the exit status 1.

Run from the repository root (``--jobs 2`` plays two games at a time)::

    .venv/bin/python benchmarks/packkub_sweep.py --games 300 --seed 1
    .venv/bin/python benchmarks/packkub_sweep.py --replay 1:17:143   # seed:game:decision
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
# Run from a checkout without installing: make ``import rulepack`` find the package.
sys.path.insert(0, str(ROOT))

from rulepack.engine.rng import Rng, mix_seed  # noqa: E402
from rulepack.engine.runtime import EVAL_STEPS  # noqa: E402


def game_config(seed: int, index: int) -> tuple[int, dict[str, Any], int]:
    """Players, options and game seed of game ``index`` of a sweep seeded ``seed``."""
    rng = Rng(mix_seed(seed, "sweep", index))
    players = 2 + rng.below(5)
    options = {"rounds": 1 + rng.below(4), "jokers": rng.below(4)}
    return players, options, mix_seed(seed, "sweep game", index)


def play(players: int, options: dict[str, Any], seed: int,
         stop: int | None = None) -> dict[str, Any]:
    """One random game (in this process); its figures. With ``stop``: only up to
    that decision, whose legal actions are returned as texts."""
    import rulepack
    from rulepack.patterns import native
    game = rulepack.load("packkub")
    state = game.new_game(players, seed=seed, options=game.parse_options(options))
    rng = Rng(mix_seed(seed, "actions"))
    times: list[float] = []
    most_steps = 0
    most_steps_at = ""
    error = None
    try:
        while not state.is_terminal():
            start = time.process_time()
            legal = state.legal_actions()
            times.append(time.process_time() - start)
            if EVAL_STEPS - state.position.steps_left > most_steps:
                most_steps = EVAL_STEPS - state.position.steps_left
                most_steps_at = f"{len(times) - 1}, legal_actions()"
            if stop is not None and len(times) - 1 == stop:
                return {"actions": [a.text for a in legal], "seconds": times[-1]}
            action = legal[rng.below(len(legal))]
            state.apply(action)
            if EVAL_STEPS - state.position.steps_left > most_steps:
                most_steps = EVAL_STEPS - state.position.steps_left
                most_steps_at = f"{len(times) - 1}, apply({action.text!r})"
    except Exception as exc:  # noqa: BLE001 - any death is what is being counted
        error = f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"
    slowest = max(range(len(times)), key=times.__getitem__, default=0)
    return {"players": players, "options": options, "seed": seed,
            "decisions": len(times), "error": error, "compiled": native.describe(),
            "slowest": times[slowest] if times else 0.0, "slowest_decision": slowest,
            "over_0.1": sum(t > 0.1 for t in times), "over_1": sum(t > 1 for t in times),
            "seconds": sum(times), "most_steps": most_steps, "most_steps_at": most_steps_at}


def fresh(seed: int, index: int) -> dict[str, Any]:
    """Game ``index`` of the sweep, played in a fresh process."""
    out = subprocess.run([sys.executable, __file__, "--one", f"{seed}:{index}"], check=True,
                         capture_output=True, text=True, cwd=ROOT).stdout
    result: dict[str, Any] = json.loads(out)
    result["game"] = index
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=300, help="games (default 300)")
    parser.add_argument("--seed", type=int, default=1, help="sweep seed (default 1)")
    parser.add_argument("--jobs", type=int, default=1, help="games at a time (default 1)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--one", metavar="SEED:GAME", help=argparse.SUPPRESS)
    parser.add_argument("--replay", metavar="SEED:GAME:DECISION",
                        help="time one decision's legal_actions() again, in this process")
    args = parser.parse_args(argv)
    if args.one:
        seed, index = (int(x) for x in args.one.split(":"))
        print(json.dumps(play(*game_config(seed, index))))
        return 0
    if args.replay:
        seed, index, decision = (int(x) for x in args.replay.split(":"))
        players, options, game_seed = game_config(seed, index)
        found = play(players, options, game_seed, stop=decision)
        print(f"{players} players {options} seed {game_seed}, decision {decision}: "
              f"{found['seconds']:.3f} s, {found['actions']}")
        return 0

    started = time.perf_counter()
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        results = list(pool.map(lambda i: fresh(args.seed, i), range(args.games)))
    slowest = max(results, key=lambda r: r["slowest"])
    most = max(results, key=lambda r: r["most_steps"])
    failed = [r for r in results if r["error"]]
    report = {"games": len(results), "seed": args.seed, "failed": failed,
              "patterns": sorted({r["compiled"] for r in results}),
              "slowest_legal_actions": slowest["slowest"],
              "slowest_at": f"{args.seed}:{slowest['game']}:{slowest['slowest_decision']}",
              "slowest_game": {k: slowest[k] for k in ("players", "options", "seed")},
              "calls": sum(r["decisions"] for r in results),
              "calls_over_0.1_s": sum(r["over_0.1"] for r in results),
              "calls_over_1_s": sum(r["over_1"] for r in results),
              "legal_actions_seconds": sum(r["seconds"] for r in results),
              "most_steps": most["most_steps"],
              "most_steps_at": f"{args.seed}:{most['game']}:{most['most_steps_at']}",
              "wall_seconds": time.perf_counter() - started}
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print(f"{report['games']} games (seed {args.seed}, 2-6 players, jokers 0-3, rounds 1-4), "
              f"each in a fresh process; pattern searches {', '.join(report['patterns'])}")
        print(f"slowest legal_actions(): {report['slowest_legal_actions']:.3f} s CPU "
              f"({slowest['players']} players {slowest['options']}; --replay "
              f"{report['slowest_at']})")
        print(f"{report['calls']} calls, {report['calls_over_0.1_s']} over 0.1 s, "
              f"{report['calls_over_1_s']} over 1 s, {report['legal_actions_seconds']:.1f} s "
              f"in all; most steps of one decision {report['most_steps']:,} "
              f"(budget {EVAL_STEPS:,}; at {report['most_steps_at']})")
        for r in failed:
            print(f"died: game {r['game']} {r['players']} players {r['options']} seed "
                  f"{r['seed']}: {r['error']}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
