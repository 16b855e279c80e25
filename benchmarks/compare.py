"""rulepack's playout speed beside hand-written programs of the same games, in one run.

Every figure is a comparison made in the same run, so that the load of the machine
weighs on both sides alike:

* **references**: Multzo (3 players), Multiplay (2) and Mismemory (2) played by
  rulepack and by the plain Python programs of ``--reference-dir`` (``multzo_ref.py``
  ..., each ``play(players, rng) -> (result, decisions)``), and Four Field Kono (2) by
  ``benchmarks/reference/four_field_kono_ref.py``, all with uniformly random
  actions. rulepack is timed two ways: **engine** (``new_game``, ``legal_actions()``,
  ``apply(legal[index])``: no views, as ``playouts.py`` plays) and **simulate** (game by game
  as ``rulepack simulate --agent random`` plays: ``rulepack.cli.simulate.play_game``,
  seeded ``RandomAgent`` seats through ``play_out``). The contenders take turns: each
  measurement is split into ``--rounds`` rounds, in each round every contender plays
  for ``--seconds / --rounds`` seconds (or ``--games`` games), in an order that turns
  round by round, and the **median** round's rate is reported (all rounds are in the
  ``--json`` output).
* **PackKub** (3 players, ``rounds=4``; and with ``jokers=2``) from a fresh process:
  a subprocess imports rulepack, loads the ruleset and plays ``--packkub-games`` games
  as ``simulate`` does, so the partition search starts with an empty memo. Its games
  per second are given as a fraction of the Multzo reference's in this run.
* **Tic-Tac-Toe** beside OpenSpiel's pure-Python ``python_tic_tac_toe`` and **Connect
  Four** beside OpenSpiel's C++ ``connect_four``, uniformly random play on both sides
  (skipped with a message if ``open_spiel`` is not installed: ``pip install -e
  '.[bench]'``).
* **clone() + apply()**: the cost of trying one action in a copy of a mid-game Multzo
  position, as a searching bot does.
* **cold command line**: ``rulepack validate`` of the four bundled games (one
  invocation) and ``rulepack --help``, each in a fresh process, wall clock (median of
  ``--cold-runs``), with Python's bytecode cache in place as after an install (it
  lives in a temporary folder, written by unmeasured runs first, whatever
  ``PYTHONDONTWRITEBYTECODE`` says).

Run from the repository root::

    .venv/bin/python benchmarks/compare.py                   # about a minute and a half
    .venv/bin/python benchmarks/compare.py --quick           # a smoke run
    .venv/bin/python benchmarks/compare.py --json > compare.json
    .venv/bin/python benchmarks/compare.py --only multzo,tic-tac-toe --seconds 10
"""

from __future__ import annotations

import argparse
import importlib.util
import itertools
import json
import os
import platform
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
# Run from a checkout without installing: make ``import rulepack`` (and playouts) work.
for _path in (str(ROOT), str(HERE)):
    if _path not in sys.path:
        sys.path.insert(0, _path)

#: The games compared with a hand-written reference: (section name, ruleset, players,
#: reference module, target of rulepack/reference). The seed games' references are in
#: ``--reference-dir``; those of games added later are in benchmarks/reference/.
REFERENCES = [("multzo", "multzo", 3, "multzo_ref", 0.5),
              ("multiplay", "multiplay", 2, "multiplay_ref", 0.5),
              ("mismemory", "mismemory", 2, "mismemory_ref", 0.25),
              ("four-field-kono", "four-field-kono", 2, "four_field_kono_ref", 0.25),
              ("nine-mens-morris", "nine-mens-morris", 2, "nine_mens_morris_ref", 0.25)]
#: where the references of games added later are
OWN_REFERENCES = HERE / "reference"

#: PackKub from a fresh process: (label, options, target as a fraction of the Multzo
#: reference's games per second).
PACKKUB = [("rounds=4", {"rounds": 4}, 1 / 225),
           ("rounds=4 jokers=2", {"rounds": 4, "jokers": 2}, 1 / 900)]
PACKKUB_PLAYERS = 3

#: rulepack's Tic-Tac-Toe must play at least this many times as fast as OpenSpiel's
#: pure-Python one.
TIC_TAC_TOE_TARGET = 1.5

#: Cold command lines: ``rulepack validate`` of these rulesets, and ``rulepack --help``,
#: with their targets in seconds of wall clock.
BUNDLED_GAMES = ["multzo", "packkub", "multiplay", "mismemory"]
VALIDATE_TARGET = 0.5
HELP_TARGET = 0.3

SECTIONS = ["multzo", "multiplay", "mismemory", "four-field-kono", "nine-mens-morris", "packkub",
            "tic-tac-toe",
            "connect-four", "clone", "cli"]

#: What a contender is: ``play(n)`` plays ``n`` games and returns their decisions.
Play = Callable[[int], int]


# ---------------------------------------------------------------------- timing
def timed_round(play: Play, seconds: float, games: int | None) -> dict[str, Any]:
    """Play ``games`` games, or as many as fit in ``seconds`` (at least one), in
    batches that grow while time is left; wall and CPU time of the whole round."""
    played = decisions = 0
    batch = 1
    start, cpu = time.perf_counter(), time.process_time()
    while True:
        n = batch if games is None else games - played
        decisions += play(n)
        played += n
        wall = time.perf_counter() - start
        if (games is not None and played >= games) or (games is None and wall >= seconds):
            break
        per_game = wall / played
        batch = max(1, min(2 * batch, int((seconds - wall) / per_game) + 1))
    wall = max(time.perf_counter() - start, 1e-9)
    return {"games": played, "decisions": decisions, "seconds": wall,
            "cpu_seconds": time.process_time() - cpu, "games_per_second": played / wall}


def race(contenders: dict[str, Play], seconds: float, rounds: int,
         games: int | None) -> dict[str, dict[str, Any]]:
    """Time the contenders in turn, ``rounds`` times, each for ``seconds / rounds``
    seconds a round (or ``games`` games), the order turning by one each round, after
    one unmeasured game each.

    :returns: per contender: ``games_per_second`` (the median round's), ``best``,
        ``cpu_games_per_second`` (games per second of CPU time, the median round's),
        ``decisions_per_game``, ``games`` in all and every round's figures.
    """
    names = list(contenders)
    for play in contenders.values():
        play(1)              # unmeasured: lazy compilation, first-use caches
    rows: dict[str, list[dict[str, Any]]] = {name: [] for name in names}
    for r in range(rounds):
        for k in range(len(names)):
            name = names[(r + k) % len(names)]
            rows[name].append(timed_round(contenders[name], seconds / rounds, games))
    out = {}
    for name, runs in rows.items():
        played = sum(x["games"] for x in runs)
        out[name] = {
            "games_per_second": statistics.median(x["games_per_second"] for x in runs),
            "best": max(x["games_per_second"] for x in runs),
            "cpu_games_per_second": statistics.median(x["games"] / max(x["cpu_seconds"], 1e-9)
                                                      for x in runs),
            "decisions_per_game": sum(x["decisions"] for x in runs) / played,
            "games": played,
            "rounds": runs,
        }
    return out


# ---------------------------------------------------------------------- contenders
def load_reference(directory: Path, module: str) -> Any:
    """Import ``module`` (``multzo_ref``) from ``directory``.

    :raises FileNotFoundError: no such file.
    """
    path = directory / f"{module}.py"
    if not path.is_file():
        raise FileNotFoundError(path)
    spec = importlib.util.spec_from_file_location(module, path)
    assert spec is not None and spec.loader is not None
    found = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(found)
    return found


def reference_player(module: Any, players: int, seed: int) -> Play:
    """Games of a hand-written reference: ``module.play(players, rng)``."""
    rng = random.Random(seed)

    def play(n: int) -> int:
        return sum(module.play(players, rng)[1] for _ in range(n))
    return play


def engine_player(game: Any, players: int, options: dict[str, Any], seed: int) -> Play:
    """Games straight on the engine, as ``playouts.py`` plays them (new games each batch)."""
    from playouts import engine_playouts

    from rulepack.engine.rng import mix_seed
    batches = itertools.count()

    def play(n: int) -> int:
        played = engine_playouts(game, players, options, n, mix_seed(seed, next(batches)))
        return played["decisions"]
    return play


def simulate_player(game: Any, players: int, options: dict[str, Any], seed: int) -> Play:
    """Games as ``rulepack simulate --agent random`` plays them, one after the other."""
    from rulepack.cli.simulate import play_game
    agents = ["random"] * players
    index = itertools.count()

    def play(n: int) -> int:
        return sum(play_game(game, next(index), seed, agents, options).decisions
                   for _ in range(n))
    return play


def openspiel_player(spiel_game: Any, seed: int) -> Play:
    """Games of an OpenSpiel game with a uniformly random policy (no chance nodes)."""
    rng = random.Random(seed)

    def play(n: int) -> int:
        decisions = 0
        for _ in range(n):
            state = spiel_game.new_initial_state()
            while not state.is_terminal():
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
                decisions += 1
        return decisions
    return play


def rulepack_game(name: str, players: int) -> tuple[Any, dict[str, Any]]:
    """A bundled ruleset, compiled for ``players`` outside the timings, and its options."""
    import rulepack
    game = rulepack.load(name)
    options = game.parse_options({})
    game.instance(players, options)
    return game, options


def openspiel() -> Any:
    """The ``pyspiel`` module with OpenSpiel's Python games registered, or ``None``."""
    try:
        import pyspiel

        import open_spiel.python.games.tic_tac_toe  # noqa: F401  (registers python_tic_tac_toe)
    except ImportError:
        return None
    return pyspiel


# ---------------------------------------------------------------------- sections
def ratios(timed: dict[str, dict[str, Any]], yardstick: str,
           key: str = "games_per_second") -> dict[str, float]:
    """rulepack's games per second (engine, simulate) over the yardstick's; with
    ``key="cpu_games_per_second"``, per second of CPU time (steadier on a busy
    machine, where other processes take turns with this one)."""
    base = timed[yardstick][key]
    return {side: timed[side][key] / base for side in ("engine", "simulate")}


def compare_reference(name: str, ruleset: str, players: int, module: Any, target: float,
                      args: argparse.Namespace) -> dict[str, Any]:
    game, options = rulepack_game(ruleset, players)
    timed = race({"reference": reference_player(module, players, args.seed),
                  "engine": engine_player(game, players, options, args.seed),
                  "simulate": simulate_player(game, players, options, args.seed)},
                 args.seconds, args.rounds, args.games)
    return {"game": game.title, "players": players, "target": target, **timed,
            "ratios": ratios(timed, "reference"),
            "cpu_ratios": ratios(timed, "reference", "cpu_games_per_second")}


def compare_openspiel(ruleset: str, spiel_name: str, target: float | None,
                      args: argparse.Namespace, pyspiel: Any) -> dict[str, Any]:
    game, options = rulepack_game(ruleset, 2)
    timed = race({"openspiel": openspiel_player(pyspiel.load_game(spiel_name), args.seed),
                  "engine": engine_player(game, 2, options, args.seed),
                  "simulate": simulate_player(game, 2, options, args.seed)},
                 args.seconds, args.rounds, args.games)
    return {"game": game.title, "openspiel_game": spiel_name, "target": target, **timed,
            "ratios": ratios(timed, "openspiel"),
            "cpu_ratios": ratios(timed, "openspiel", "cpu_games_per_second")}


def clone_apply(args: argparse.Namespace) -> dict[str, Any]:
    """µs to clone a mid-game Multzo position (3 players) and apply one of its actions
    (``apply`` runs the flow to the next decision; the legal actions there are computed
    only when asked for, so not here), over every action of positions 30 decisions into
    a few random games; the median round."""
    from rulepack.engine.rng import Rng
    game, options = rulepack_game("multzo", 3)
    rng = Rng(args.seed)
    positions = []
    for i in range(8):
        state = game.new_game(3, seed=args.seed + i, options=options)
        while not state.is_terminal() and state.decisions < 30:
            legal = state.legal_actions()
            state.apply(legal[rng.below(len(legal))])
        if not state.is_terminal():
            positions.append(state)
    tries = [(p, k) for p in positions for k in range(len(p.legal_actions()))]
    rounds = {"clone": [], "clone_apply": []}
    budget = args.seconds / args.rounds / 2
    for _ in range(args.rounds):
        for what in rounds:
            calls = 0
            start = time.perf_counter()
            while time.perf_counter() - start < budget or calls == 0:
                for position, k in tries:
                    copy = position.clone()
                    if what == "clone_apply":
                        copy.apply(copy.legal_actions()[k])
                calls += len(tries)
            rounds[what].append(1e6 * (time.perf_counter() - start) / calls)
    return {"positions": len(positions), "actions": len(tries),
            "clone_us": statistics.median(rounds["clone"]),
            "clone_apply_us": statistics.median(rounds["clone_apply"]),
            "rounds_us": rounds}


def child_env(pycache: str) -> dict[str, str]:
    """The environment of a cold process: rulepack importable from this checkout,
    Python's bytecode cache written to and read from the folder ``pycache``."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT)] + [p for p in [env.get("PYTHONPATH")] if p])
    env["PYTHONPYCACHEPREFIX"] = pycache
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def run_cold(command: list[str], env: dict[str, str]) -> dict[str, Any]:
    """Run ``command`` in a fresh process: its wall clock and CPU seconds, and output.

    :raises RuntimeError: the command failed.
    """
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, env=env, capture_output=True, text=True, cwd=ROOT)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed ({done.returncode}):\n"
                           f"{done.stdout}{done.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"seconds": wall, "cpu_seconds": cpu, "stdout": done.stdout}


def warm_bytecode_cache(env: dict[str, str]) -> None:
    """Write the bytecode cache of every module the cold processes import (unmeasured)."""
    run_cold([sys.executable, "-c", "import rulepack.cli.main, rulepack.cli.simulate"], env)
    run_cold(rulepack_command() + ["--help"], env)
    run_cold(rulepack_command() + ["validate", BUNDLED_GAMES[0]], env)


def rulepack_command() -> list[str]:
    """How a user starts rulepack: the console script beside this Python, if installed."""
    script = Path(sys.executable).parent / "rulepack"
    if script.is_file():
        return [str(script)]
    return [sys.executable, "-c", "from rulepack.cli.main import main; main()"]


def cold_cli(args: argparse.Namespace, env: dict[str, str]) -> dict[str, Any]:
    from rulepack.loader import bundled_dir
    files = [str(bundled_dir() / f"{name}.rules") for name in BUNDLED_GAMES]
    commands = {"validate": (rulepack_command() + ["validate"] + files, VALIDATE_TARGET),
                "help": (rulepack_command() + ["--help"], HELP_TARGET)}
    out = {}
    for name, (command, target) in commands.items():
        runs = [run_cold(command, env) for _ in range(args.cold_runs)]
        shown = [Path(a).name if a in files else a for a in command[len(rulepack_command()):]]
        out[name] = {"command": " ".join(["rulepack"] + shown),
                     "target": target,
                     "seconds": statistics.median(r["seconds"] for r in runs),
                     "cpu_seconds": statistics.median(r["cpu_seconds"] for r in runs),
                     "all_seconds": [r["seconds"] for r in runs]}
    return out


def cold_packkub(options: dict[str, Any], args: argparse.Namespace,
                 env: dict[str, str]) -> dict[str, Any]:
    """PackKub played in a fresh process (see :func:`cold_child`), as the parent sees it."""
    spec = {"ruleset": "packkub", "players": PACKKUB_PLAYERS, "options": options,
            "games": args.packkub_games, "seed": args.seed}
    run = run_cold([sys.executable, str(Path(__file__).resolve()), "--cold-child",
                    json.dumps(spec)], env)
    report = json.loads(run["stdout"])
    report["process_seconds"] = run["seconds"]
    return report


def cold_child(spec: dict[str, Any]) -> dict[str, Any]:
    """In a fresh process: import rulepack, load the ruleset, play the games one after
    the other as ``simulate`` does; the time of each step."""
    start = time.perf_counter()
    import rulepack
    from rulepack.cli.simulate import play_game
    imported = time.perf_counter()
    game = rulepack.load(spec["ruleset"])
    options = game.parse_options({k: str(v) for k, v in spec["options"].items()})
    loaded = time.perf_counter()
    games = []
    for i in range(spec["games"]):
        t, cpu = time.perf_counter(), time.process_time()
        record = play_game(game, i, spec["seed"], ["random"] * spec["players"], options)
        games.append({"seconds": time.perf_counter() - t, "cpu_seconds": time.process_time() - cpu,
                      "decisions": record.decisions})
    played = sum(g["seconds"] for g in games)
    return {"import_seconds": imported - start, "load_seconds": loaded - imported,
            "games": games, "play_seconds": played,
            "games_per_second": len(games) / played,
            "cpu_games_per_second": len(games) / sum(g["cpu_seconds"] for g in games),
            "decisions_per_game": sum(g["decisions"] for g in games) / len(games)}


# ---------------------------------------------------------------------- the run
def run(args: argparse.Namespace, say: Callable[[str], None]) -> dict[str, Any]:
    """Every section asked for; ``say`` tells progress and skipped sections."""
    report: dict[str, Any] = {
        "python": platform.python_version(), "implementation": platform.python_implementation(),
        "seconds": args.seconds, "rounds": args.rounds, "games": args.games, "seed": args.seed,
        "references": {}, "skipped": {}, "patterns": patterns_status()}
    reference_dir = Path(args.reference_dir)
    for name, ruleset, players, module_name, target in REFERENCES:
        if name not in args.only and not (name == "multzo" and "packkub" in args.only):
            continue
        try:
            own = OWN_REFERENCES / f"{module_name}.py"
            module = load_reference(OWN_REFERENCES if own.is_file() else reference_dir,
                                    module_name)
        except FileNotFoundError as exc:
            report["skipped"][name] = f"no reference {exc} (give --reference-dir)"
            continue
        say(f"{name}: rulepack and {module_name}.py ...")
        report["references"][name] = compare_reference(name, ruleset, players, module, target,
                                                       args)
    if "packkub" in args.only or "cli" in args.only:
        with tempfile.TemporaryDirectory(prefix="rulepack-pycache-") as pycache:
            report.update(cold_sections(args, child_env(pycache), say))
    if "tic-tac-toe" in args.only or "connect-four" in args.only:
        pyspiel = openspiel()
        for name, spiel_name, target in [("tic-tac-toe", "python_tic_tac_toe",
                                          TIC_TAC_TOE_TARGET),
                                         ("connect-four", "connect_four", None)]:
            if name not in args.only:
                continue
            if pyspiel is None:
                report["skipped"][name] = ("open_spiel is not importable (pip install -e "
                                           "'.[bench]' or pip install open_spiel)")
                continue
            say(f"{name}: rulepack and OpenSpiel {spiel_name} ...")
            report[name] = compare_openspiel(name, spiel_name, target, args, pyspiel)
    if "clone" in args.only:
        say("clone() + apply() in mid-game Multzo ...")
        report["clone_apply"] = clone_apply(args)
    return report


def cold_sections(args: argparse.Namespace, env: dict[str, str],
                  say: Callable[[str], None]) -> dict[str, Any]:
    """PackKub and the command line, each run in fresh processes with ``env``."""
    out: dict[str, Any] = {}
    warm_bytecode_cache(env)
    if "packkub" in args.only:
        out["packkub"] = []
        for label, options, target in PACKKUB:
            say(f"packkub {label}: a fresh process ...")
            out["packkub"].append({"label": label, "players": PACKKUB_PLAYERS,
                                   "options": options, "target": target,
                                   **cold_packkub(options, args, env)})
    if "cli" in args.only:
        say("cold rulepack validate and --help ...")
        out["cold_cli"] = cold_cli(args, env)
    return out


# ---------------------------------------------------------------------- printing
def verdict(value: float, target: float) -> str:
    return "meets the target" if value >= target else "below the target"


def fraction(x: float) -> str:
    """0.004 → '1/250'."""
    return f"1/{1 / x:,.0f}" if x > 0 else "0"


def contender_line(label: str, row: dict[str, Any]) -> str:
    return (f"  {label:<22}{row['games_per_second']:10.1f} games/s"
            f"{row['decisions_per_game']:9.1f} decisions/game")


def patterns_status() -> str:
    """Whether rulepack's pattern searches run compiled (mypyc) or as Python."""
    import rulepack.patterns.match  # noqa: F401  (the package decides on import)
    from rulepack.patterns.native import describe
    return describe()


def print_report(report: dict[str, Any], multzo_ref: dict[str, Any] | None) -> None:
    print(f"rulepack beside hand-written programs: {report['implementation']} {report['python']}, "
          "one core; median of "
          f"{report['rounds']} rounds of "
          + (f"{report['games']} games" if report["games"] else
             f"{report['seconds'] / report['rounds']:.2f} s")
          + " per contender")
    print(f"pattern searches: {report.get('patterns', 'unknown')}")
    for name, row in report["references"].items():
        print(f"\n{row['game']}, {row['players']} players "
              f"(target: rulepack/reference ≥ {row['target']})")
        print(contender_line("reference", row["reference"]))
        for side in ("engine", "simulate"):
            ratio = row["ratios"][side]
            print(f"{contender_line('rulepack ' + side, row[side])}   ratio {ratio:.3f}  "
                  f"{verdict(ratio, row['target'])} (by CPU time: {row['cpu_ratios'][side]:.3f})")
    for row in report.get("packkub", []):
        games = len(row["games"])
        print(f"\nPackKub, {row['players']} players, {row['label']}, from a fresh process "
              f"(target ≥ {fraction(row['target'])} of the Multzo reference)")
        print(f"  import {row['import_seconds']:.2f} s, load {row['load_seconds']:.2f} s, "
              f"{games} game{'s' if games != 1 else ''} in {row['play_seconds']:.2f} s "
              f"({row['decisions_per_game']:.0f} decisions/game); the process took "
              f"{row['process_seconds']:.2f} s")
        line = f"  {row['games_per_second']:.3f} games/s"
        share = row["fraction_of_multzo_reference"]
        if share is not None:
            line += (f" = {fraction(share)} of the Multzo reference's "
                     f"{multzo_ref['games_per_second']:.0f}  {verdict(share, row['target'])} "
                     f"(by CPU time: {fraction(row['cpu_fraction_of_multzo_reference'])})")
        print(line)
    for name in ("tic-tac-toe", "connect-four"):
        row = report.get(name)
        if row is None:
            continue
        target = row["target"]
        print(f"\n{row['game']} beside OpenSpiel's {row['openspiel_game']}"
              + (f" (target: rulepack ≥ {target}× OpenSpiel)" if target else " (C++)"))
        print(contender_line("OpenSpiel", row["openspiel"]))
        for side in ("engine", "simulate"):
            ratio = row["ratios"][side]
            tail = f"  {verdict(ratio, target)}" if target else ""
            print(f"{contender_line('rulepack ' + side, row[side])}   ratio {ratio:.3f}{tail}"
                  f" (by CPU time: {row['cpu_ratios'][side]:.3f})")
    if "clone_apply" in report:
        c = report["clone_apply"]
        print(f"\nMultzo mid-game (3 players, {c['positions']} positions, {c['actions']} "
              "actions; apply() runs the flow to the next decision, whose legal actions are "
              "not listed):")
        print(f"  clone() {c['clone_us']:.1f} µs, "
              f"clone() then apply() {c['clone_apply_us']:.1f} µs")
    if "cold_cli" in report:
        print("\nCold command line (a fresh process each, with Python's bytecode cache, "
              "median wall clock):")
        for row in report["cold_cli"].values():
            met = "meets the target" if row["seconds"] <= row["target"] else "above the target"
            print(f"  {row['command']}\n    {row['seconds']:.2f} s "
                  f"(CPU {row['cpu_seconds']:.2f} s), target {row['target']} s: {met}")
    for name, why in report["skipped"].items():
        print(f"\n{name}: skipped: {why}")


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description="rulepack's playout speed beside hand-written programs and OpenSpiel, "
                    "in one run (one core).")
    parser.add_argument("--reference-dir", default=str(ROOT.parent / "shared" / "reference"),
                        help="the folder of multzo_ref.py, multiplay_ref.py and "
                             "mismemory_ref.py (default: ../shared/reference from the "
                             "repository root)")
    parser.add_argument("--seconds", type=float, default=None,
                        help="seconds each contender plays in each comparison, over all "
                             "rounds (default 2; --quick 0.3)")
    parser.add_argument("--games", type=int, default=None,
                        help="play this many games per round instead of a time budget")
    parser.add_argument("--rounds", type=int, default=None,
                        help="rounds in which the contenders take turns (default 5; --quick 2)")
    parser.add_argument("--packkub-games", type=int, default=None,
                        help="PackKub games played in each fresh process (default 3; "
                             "--quick 1)")
    parser.add_argument("--cold-runs", type=int, default=None,
                        help="fresh processes per cold command line (default 3; --quick 1)")
    parser.add_argument("--only", default=",".join(SECTIONS),
                        help=f"comma-separated sections to run (default all: "
                             f"{','.join(SECTIONS)})")
    parser.add_argument("--seed", type=int, default=1, help="seed of every game (default 1)")
    parser.add_argument("--quick", action="store_true",
                        help="a smoke run: small budgets (about half a minute)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--cold-child", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    quick = args.quick
    for name, normal, small in [("seconds", 2.0, 0.3), ("rounds", 5, 2), ("packkub_games", 3, 1),
                                ("cold_runs", 3, 1)]:
        if getattr(args, name) is None:
            setattr(args, name, small if quick else normal)
    args.only = {s.strip() for s in args.only.split(",") if s.strip()}
    unknown = sorted(args.only - set(SECTIONS))
    if unknown:
        parser.error(f"unknown section(s) {', '.join(unknown)}; sections: {', '.join(SECTIONS)}")
    for name in ("seconds", "rounds", "packkub_games", "cold_runs", "games"):
        value = getattr(args, name)
        if value is not None and value <= 0:
            parser.error(f"--{name.replace('_', '-')} must be positive")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.cold_child:
        print(json.dumps(cold_child(json.loads(args.cold_child))))
        return 0

    def say(text: str) -> None:
        print(text, file=sys.stderr, flush=True)
    report = run(args, say if not args.json else lambda text: None)
    multzo = report["references"].get("multzo")
    multzo_ref = multzo["reference"] if multzo else None
    for row in report.get("packkub", []):
        # PackKub's games per second over the Multzo reference's, by wall clock and CPU time
        row["fraction_of_multzo_reference"] = row["cpu_fraction_of_multzo_reference"] = None
        if multzo_ref:
            row["fraction_of_multzo_reference"] = (row["games_per_second"]
                                                   / multzo_ref["games_per_second"])
            row["cpu_fraction_of_multzo_reference"] = (row["cpu_games_per_second"]
                                                       / multzo_ref["cpu_games_per_second"])
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print_report(report, multzo_ref)
    return 0


if __name__ == "__main__":
    sys.exit(main())
