"""PackKub under random play: every game finishes, and how fast.

Two measurements, on one core:

* **budget**: ``--games`` random PackKub games (uniformly random legal actions)
  over 2-6 players and a spread of options (rounds, jokers, the Six Pack), drawn
  from ``--seed``. Every game must reach its end: a game that dies (a pattern
  search over its budget, any error) is listed with its seed and options, and
  the exit status is 1. For each game: decisions, seconds, and the slowest
  ``legal_actions()`` call.
* **rate** (``--rate``): cold games per second of 3-player, 4-round games with
  0 and 2 jokers, each measured in a fresh process
  (``benchmarks/playouts.py --repeat 1``), so no cache of an earlier run helps.
  With ``--reference PATH`` the hand-written Multzo reference is run between
  them and each rate is also given as a fraction of its rate.
* **repro** (``--repro``): the position of tests/data/packkub-6p-joker-stuck.json
  (6 players, 1 joker, a 49-tile table), replayed in a fresh process; the
  seconds its ``legal_actions()`` takes.

Run from the repository root::

    .venv/bin/python benchmarks/packkub_budget.py --games 50 --seed 1
    .venv/bin/python benchmarks/packkub_budget.py --games 0 --rate --rate-games 40 \\
        --reference /path/to/multzo_ref.py --repro
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
# Run from a checkout without installing: make ``import rulepack`` find the package.
sys.path.insert(0, str(ROOT))

import rulepack  # noqa: E402
from rulepack.engine.rng import Rng, mix_seed  # noqa: E402


def game_config(seed: int, index: int) -> tuple[int, dict[str, Any], int]:
    """Players, options and game seed of game ``index`` of a run seeded ``seed``."""
    rng = Rng(mix_seed(seed, "config", index))
    players = 2 + rng.below(5)
    options: dict[str, Any] = {"rounds": 1 + rng.below(4),
                               "jokers": rng.choice([0, 0, 0, 1, 2, 3, 6])}
    if players <= 4 and rng.below(4) == 0:
        options["six_pack"] = True
    return players, options, mix_seed(seed, "game", index)


def play_one(game: Any, players: int, options: dict[str, Any], seed: int) -> dict[str, Any]:
    """One random game; its figures, and ``error`` if it died."""
    state = game.new_game(players, seed=seed, options=game.parse_options(options))
    rng = Rng(mix_seed(seed, "actions"))
    slowest = 0.0
    start = time.perf_counter()
    error = None
    try:
        while not state.is_terminal():
            t = time.perf_counter()
            legal = state.legal_actions()
            slowest = max(slowest, time.perf_counter() - t)
            state.apply(legal[rng.below(len(legal))])
    except Exception as exc:  # noqa: BLE001 - any death is what is being counted
        error = f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"
    return {"players": players, "options": options, "seed": seed,
            "decisions": state.decisions, "seconds": time.perf_counter() - start,
            "slowest_legal_actions": slowest, "error": error}


def cold_rate(jokers: int, games: int, seed: int) -> dict[str, Any]:
    """Games/s of 3-player, 4-round PackKub with ``jokers``, in a fresh process."""
    cmd = [sys.executable, str(ROOT / "benchmarks" / "playouts.py"), "packkub",
           "--players", "3", "--option", "rounds=4", "--option", f"jokers={jokers}",
           "--games", str(games), "--seed", str(seed), "--repeat", "1",
           "--agent-games", "1", "--sample-games", "1", "--view-calls", "1",
           "--clone-calls", "1", "--json"]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    engine = json.loads(out)["engine"]
    return {"jokers": jokers, "games": games, "seconds": engine["seconds"],
            "games_per_second": engine["games_per_second"], "checksum": engine["checksum"]}


REPRO = ROOT / "tests" / "data" / "packkub-6p-joker-stuck.json"

_REPRO_SCRIPT = """
import json, sys, time
import rulepack
data = json.load(open(sys.argv[1], encoding="utf-8"))
game = rulepack.load("packkub")
state = game.new_game(data["players"], seed=data["seed"], options=data["options"])
for text in data["actions"]:
    state.apply(text)
start = time.perf_counter()
actions = state.legal_actions()
print(time.perf_counter() - start, len(actions))
"""


def repro_seconds() -> tuple[float, int]:
    """Seconds of the repro position's ``legal_actions()`` (fresh process), and
    how many actions it lists."""
    out = subprocess.run([sys.executable, "-c", _REPRO_SCRIPT, str(REPRO)], check=True,
                         capture_output=True, text=True, cwd=ROOT).stdout.split()
    return float(out[0]), int(out[1])


def reference_rate(path: str) -> float:
    """Games/s printed by the hand-written Multzo reference (3 players, 2000 games)."""
    out = subprocess.run([sys.executable, path, "3", "2000"], check=True,
                         capture_output=True, text=True).stdout
    field = next(w for w in out.split() if w.startswith("games/s="))
    return float(field.split("=", 1)[1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=50,
                        help="random games over 2-6 players and options (default 50)")
    parser.add_argument("--seed", type=int, default=1, help="run seed (default 1)")
    parser.add_argument("--rate", action="store_true",
                        help="also measure cold games/s of 3 players, rounds=4, jokers 0 and 2")
    parser.add_argument("--rate-games", type=int, default=40,
                        help="games per cold rate measurement (default 40)")
    parser.add_argument("--reference", metavar="PATH",
                        help="the hand-written Multzo reference script, run for comparison")
    parser.add_argument("--repro", action="store_true",
                        help="also time legal_actions() at the end of " + REPRO.name)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)

    game = rulepack.load("packkub")
    results = []
    for i in range(args.games):
        players, options, seed = game_config(args.seed, i)
        r = play_one(game, players, options, seed)
        results.append(r)
        if not args.json:
            opts = " ".join(f"{k}={v}" for k, v in options.items())
            status = r["error"] or "ok"
            print(f"game {i:3}: {players}p {opts:<32} {r['decisions']:5} decisions "
                  f"{r['seconds']:7.2f} s  slowest legal_actions "
                  f"{r['slowest_legal_actions']:6.3f} s"
                  f"  {status}", flush=True)
    failed = [r for r in results if r["error"]]
    report: dict[str, Any] = {"games": len(results), "failed": failed,
                              "seconds": sum(r["seconds"] for r in results),
                              "slowest_legal_actions": max(
                                  (r["slowest_legal_actions"] for r in results), default=0.0)}
    if args.rate:
        rates = [cold_rate(0, args.rate_games, args.seed)]
        if args.reference:
            report["reference_games_per_second"] = reference_rate(args.reference)
        rates.append(cold_rate(2, args.rate_games, args.seed))
        ref = report.get("reference_games_per_second")
        for r in rates:
            if ref:
                r["fraction_of_reference"] = r["games_per_second"] / ref
        report["rates"] = rates
    if args.repro:
        seconds, count = repro_seconds()
        report["repro"] = {"seconds": seconds, "actions": count}
    if args.json:
        print(json.dumps(report, indent=2, default=str))
    else:
        if results:
            print(f"{len(results)} games, {len(failed)} died, {report['seconds']:.1f} s in all, "
                  f"slowest legal_actions {report['slowest_legal_actions']:.3f} s")
        for r in report.get("rates", []):
            line = (f"cold: 3 players rounds=4 jokers={r['jokers']}: {r['games']} games in "
                    f"{r['seconds']:.2f} s = {r['games_per_second']:.2f} games/s "
                    f"(checksum {r['checksum']})")
            if "fraction_of_reference" in r:
                line += (f", 1/{1 / r['fraction_of_reference']:.0f} of the Multzo reference "
                         f"({report['reference_games_per_second']:.0f} games/s)")
            print(line)
        if "repro" in report:
            print(f"repro: legal_actions() of {REPRO.name}: {report['repro']['actions']} "
                  f"actions in {report['repro']['seconds']:.3f} s")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
