"""Playout speed of the rulepack engine.

Plays many games of one ruleset with uniformly random legal actions and reports
how fast the engine runs, on one core (one process, no threads):

* engine playouts: ``new_game`` + ``legal_actions`` + ``apply(legal[index])`` until the
  game ends, actions drawn by a seeded :class:`~rulepack.engine.rng.Rng`;
  no views are computed. This is the figure to optimise.
* agent playouts: games with the same seeds played through the agent API
  (:class:`~rulepack.agents.bots.RandomAgent` seats and
  :func:`~rulepack.agents.bots.play_out`), which is how the CLI plays.
* ``view(p)`` calls and ``clone()`` calls per second, timed on positions
  collected from a few extra games.

Run from the repository root::

    .venv/bin/python benchmarks/playouts.py multzo --players 3 --games 500 --seed 1
    .venv/bin/python benchmarks/playouts.py multzo --players 3 --games 200 --profile
    .venv/bin/python benchmarks/playouts.py multzo --json > result.json

The same ruleset, options, seed and game count always play the same games; the
``checksum`` in the output changes only if the games themselves change, so an
optimisation that keeps behaviour keeps the checksum.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import platform
import pstats
import sys
import time
import zlib
from pathlib import Path
from typing import Any

# Run from a checkout without installing: make ``import rulepack`` find the package.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import rulepack  # noqa: E402
from rulepack.errors import RulepackError  # noqa: E402
from rulepack.agents.bots import RandomAgent, agent_seed, play_out  # noqa: E402
from rulepack.engine.rng import Rng, mix_seed  # noqa: E402
from rulepack.engine.state import ChanceEvent  # noqa: E402


def game_seed(seed: int, index: int) -> int:
    """The seed of game number ``index`` of a run seeded with ``seed``."""
    return mix_seed(seed, "game", index)


def engine_playouts(game: Any, players: int, options: dict[str, Any], games: int,
                    seed: int) -> dict[str, Any]:
    """Play ``games`` games with random legal actions straight on the engine."""
    rng = Rng(mix_seed(seed, "actions"))
    below = rng.below
    decisions = 0
    chance = 0
    crc = 0
    start = time.perf_counter()
    cpu = time.process_time()
    for i in range(games):
        state = game.new_game(players, seed=game_seed(seed, i), options=options)
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply(legal[below(len(legal))])
        decisions += state.decisions
        chance += list(map(type, state.history)).count(ChanceEvent)     # (C loops)
        crc = zlib.crc32(repr((state.decisions, state.result()["scores"])).encode(), crc)
    wall = time.perf_counter() - start
    cpu = time.process_time() - cpu
    return {
        "games": games,
        "seconds": wall,
        "cpu_seconds": cpu,
        "games_per_second": games / wall,
        "decisions_per_second": decisions / wall,
        "decisions": decisions,
        "mean_decisions": decisions / games,
        "mean_chance_events": chance / games,
        "checksum": f"{crc:08x}",
    }


def agent_playouts(game: Any, players: int, options: dict[str, Any], games: int,
                   seed: int) -> dict[str, Any]:
    """Play ``games`` games with one seeded RandomAgent per seat via ``play_out``."""
    decisions = 0
    start = time.perf_counter()
    for i in range(games):
        gs = game_seed(seed, i)
        state = game.new_game(players, seed=gs, options=options)
        agents = [RandomAgent(agent_seed(gs, seat)) for seat in range(players)]
        play_out(state, agents)
        decisions += state.decisions
    wall = time.perf_counter() - start
    return {
        "games": games,
        "seconds": wall,
        "games_per_second": games / wall,
        "decisions_per_second": decisions / wall,
        "mean_decisions": decisions / games,
    }


def sample_positions(game: Any, players: int, options: dict[str, Any], games: int,
                     seed: int) -> list[Any]:
    """Clones of every position (decision points and the end) of a few random games."""
    rng = Rng(mix_seed(seed, "sample"))
    positions = []
    for i in range(games):
        state = game.new_game(players, seed=game_seed(seed, 1_000_000 + i), options=options)
        positions.append(state.clone())
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply(legal[rng.below(len(legal))])
            positions.append(state.clone())
    return positions


def time_calls(positions: list[Any], players: int, min_calls: int,
               what: str) -> dict[str, Any]:
    """Time ``view(p)`` for every seat, or ``clone()``, over the sampled positions,
    going round them until at least ``min_calls`` calls were made."""
    calls = 0
    start = time.perf_counter()
    while calls < max(min_calls, 1):
        if what == "view":
            for state in positions:
                for p in range(players):
                    state.view(p)
            calls += len(positions) * players
        else:
            for state in positions:
                state.clone()
            calls += len(positions)
    wall = time.perf_counter() - start
    wall = max(wall, 1e-9)
    return {"calls": calls, "seconds": wall, "per_second": calls / wall,
            "microseconds_per_call": 1e6 * wall / calls}


def best_of(repeat: int, run: Any) -> dict[str, Any]:
    """Run ``run()`` ``repeat`` times; the fastest run's figures, with every run's time.

    The fastest run is the least disturbed by other processes (as ``timeit`` does).
    Runs after the first may profit from caches the engine keeps (pattern results).
    """
    runs = [run() for _ in range(max(1, repeat))]
    best = dict(min(runs, key=lambda r: r["seconds"]))
    best["runs"] = len(runs)
    best["all_seconds"] = [r["seconds"] for r in runs]
    best["first_seconds"] = runs[0]["seconds"]
    checksums = {r.get("checksum") for r in runs}
    best["deterministic"] = len(checksums) == 1
    return best


def profile_engine(game: Any, players: int, options: dict[str, Any], games: int, seed: int,
                   top: int, sort: str) -> str:
    """cProfile the engine playouts; the ``top`` functions by ``sort`` as text."""
    profiler = cProfile.Profile()
    profiler.enable()
    engine_playouts(game, players, options, games, seed)
    profiler.disable()
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out)
    stats.strip_dirs().sort_stats(sort).print_stats(top)
    return out.getvalue()


def parse_options(pairs: list[str]) -> dict[str, str]:
    options = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name:
            raise SystemExit(f"error: --option takes NAME=VALUE, not {pair!r}")
        options[name.strip()] = value.strip()
    return options


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Playout speed of the rulepack engine (one core).")
    parser.add_argument("ruleset", help="a bundled ruleset name (multzo) or a path")
    parser.add_argument("--players", type=int, default=None,
                        help="number of players (default: the ruleset's minimum)")
    parser.add_argument("--games", type=int, default=500, help="games to play (default 500)")
    parser.add_argument("--seed", type=int, default=1, help="run seed (default 1)")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="a ruleset option; repeat for several")
    parser.add_argument("--repeat", type=int, default=3,
                        help="play the games this many times and report the fastest run "
                             "(default 3)")
    parser.add_argument("--agent-games", type=int, default=None,
                        help="games played through the agent API (default: --games)")
    parser.add_argument("--sample-games", type=int, default=10,
                        help="games whose positions are used to time view() and clone() "
                             "(default 10)")
    parser.add_argument("--view-calls", type=int, default=5000,
                        help="at least this many view() calls are timed (default 5000)")
    parser.add_argument("--clone-calls", type=int, default=50000,
                        help="at least this many clone() calls are timed (default 50000)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--profile", action="store_true",
                        help="also profile the engine playouts with cProfile")
    parser.add_argument("--profile-games", type=int, default=None,
                        help="games played under the profiler (default: --games)")
    parser.add_argument("--profile-sort", default="cumulative",
                        choices=["cumulative", "tottime", "ncalls"],
                        help="order of the profile listing (default cumulative)")
    parser.add_argument("--profile-top", type=int, default=25,
                        help="functions listed by the profile (default 25)")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")

    try:
        game = rulepack.load(args.ruleset)
        players = args.players if args.players is not None else game.min_players
        options = game.parse_options(parse_options(args.option))
        game.instance(players, options)  # compile now, outside the timings
        engine = best_of(args.repeat, lambda: engine_playouts(game, players, options,
                                                              args.games, args.seed))
        agent_games = max(1, args.agent_games if args.agent_games is not None else args.games)
        agents = best_of(args.repeat, lambda: agent_playouts(game, players, options,
                                                             agent_games, args.seed))
        positions = sample_positions(game, players, options, max(1, args.sample_games),
                                     args.seed)
        views = time_calls(positions, players, args.view_calls, "view")
        clones = time_calls(positions, players, args.clone_calls, "clone")
        profile = None
        if args.profile:
            profile = profile_engine(game, players, options,
                                     args.profile_games or args.games, args.seed,
                                     args.profile_top, args.profile_sort)
    except RulepackError as exc:
        print(exc, file=sys.stderr)
        return 1

    report = {
        "ruleset": game.name,
        "players": players,
        "options": options,
        "seed": args.seed,
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "engine": engine,
        "agents": agents,
        "positions_sampled": len(positions),
        "view": views,
        "clone": clones,
    }
    if args.json:
        if profile is not None:
            report["profile"] = profile
        print(json.dumps(report, indent=2, default=str))
        return 0

    e, a = engine, agents
    opts = " ".join(f"{k}={v}" for k, v in options.items())
    print(f"{game.title}: {players} players{', ' + opts if opts else ''}, seed {args.seed}, "
          f"{report['implementation']} {report['python']}, one core, "
          f"fastest of {e['runs']} runs")
    print(f"engine  {e['games']:>6} games in {e['seconds']:7.2f} s   "
          f"{e['games_per_second']:9.1f} games/s   {e['decisions_per_second']:10.0f} decisions/s"
          f"   {e['mean_decisions']:.1f} decisions/game, "
          f"{e['mean_chance_events']:.1f} chance events/game   checksum {e['checksum']}")
    if not e["deterministic"]:
        print("warning: the runs played different games (non-deterministic engine?)")
    spread = ", ".join(f"{t:.2f}" for t in e["all_seconds"])
    print(f"        runs took {spread} s")
    print(f"agents  {a['games']:>6} games in {a['seconds']:7.2f} s   "
          f"{a['games_per_second']:9.1f} games/s   {a['decisions_per_second']:10.0f} decisions/s")
    print(f"view(p) {views['per_second']:12.0f} calls/s   "
          f"({views['microseconds_per_call']:.1f} µs per call, {len(positions)} positions)")
    print(f"clone() {clones['per_second']:12.0f} calls/s   "
          f"({clones['microseconds_per_call']:.1f} µs per call)")
    if profile is not None:
        print()
        print(profile.rstrip())
    return 0


if __name__ == "__main__":
    sys.exit(main())
