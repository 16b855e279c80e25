"""How strong the search bots are, and how fast they search (issue 14's targets).

Outside the test suite: the matches take hours at full size on a small machine.
From the repository root::

    .venv/bin/python benchmarks/bot_strength.py --games 200 --jobs 2        # everything
    .venv/bin/python benchmarks/bot_strength.py --only tictactoe,connect4   # some matches
    .venv/bin/python benchmarks/bot_strength.py --speed                     # speed only
    .venv/bin/python benchmarks/bot_strength.py --speed --only multzo       # one ruleset
    .venv/bin/python benchmarks/bot_strength.py --speed --rollout random    # playouts to the end
    .venv/bin/python benchmarks/bot_strength.py --games 20 --json > strength.json
    .venv/bin/python benchmarks/bot_strength.py --only packkub --games 200 --log packkub.jsonl

With ``--log FILE`` each finished game is appended to ``FILE``, and a run given
the same file plays only the games of that match and seed it does not hold
yet: a long match stopped part-way is resumed, with the result of one run.

**Matches.** Each is ``rulepack simulate RULESET --rotate`` with the agents
below (game ``i`` seats the ``k``-th agent in seat ``(k + i) mod players``), so
``rulepack simulate`` reproduces any line, e.g.::

    rulepack simulate multiplay -n 2 --rotate -g 200 -j 2 \\
        --seat mcts:iterations=300 --seat greedy

It reports each agent's wins, win rate and 95% (Wilson) interval, and whether the
target holds. The PackKub "hold" match uses the scripted player of
``benchmarks/packkub_strategies.py`` (not a registered agent), played here
with the same seating.

**Speed.** For every bundled ruleset: a position half-way through a random game
(seed 1), then ``--iterations`` iterations of ``ismcts`` (``mcts`` for games
without hidden pieces) from it, reported as iterations per second; for Multzo
(3 players) also the time of as many games of the hand-written reference
(``../shared/reference/multzo_ref.py``, in the same run) and their ratio. Each
search runs ``--rounds`` times (3) taking turns with the reference, and the
fastest run of each counts, so a burst of load on a shared machine weighs on
neither; ``--profile`` adds the share of the search's time spent in the engine.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import random
import sys
import time
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parent.parent
# Run from a checkout without installing: make ``import rulepack`` find the package.
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import rulepack  # noqa: E402
from rulepack.analysis.backends import run  # noqa: E402
from rulepack.analysis.runner import Backend, lineup  # noqa: E402
from rulepack.analysis.stats import wilson_interval  # noqa: E402
from rulepack.agents.bots import Decision, play_out  # noqa: E402
from rulepack.cli.session import make_agents  # noqa: E402
from rulepack.cli.simulate import GameRecord, SimulationTask, game_seed  # noqa: E402
from rulepack.engine.state import DEFAULT_MAX_DECISIONS  # noqa: E402


def above(rate: float) -> Callable[[dict[str, Any]], bool]:
    """Target: the first agent's win rate is at least ``rate``."""
    return lambda entry: entry["win_rate"] >= rate


def interval_above(rate: float) -> Callable[[dict[str, Any]], bool]:
    """Target: the first agent's 95% interval lies above ``rate``."""
    return lambda entry: entry["win_rate_ci95"][0] > rate


def never_loses(summary: dict[str, Any]) -> bool:
    first, *others = summary["agents"]
    return all(o["wins"] == 0 for o in others)


#: name → (ruleset, options, agents (the one measured first), target text, check).
#: A check takes the first agent's entry of the summary, or (``never_loses``) the summary.
MATCHES: dict[str, tuple[str, dict[str, Any], list[str], str, Any]] = {
    "multiplay": ("multiplay", {}, ["mcts:iterations=300", "greedy"],
                  "wins >= 65%", above(0.65)),
    "mismemory": ("mismemory", {}, ["ismcts:iterations=300", "memory"],
                  "wins >= 60%", above(0.60)),
    "packkub": ("packkub", {"rounds": 1}, ["ismcts:iterations=200", "greedy"],
                "wins >= 60%", above(0.60)),
    "packkub-hold": ("packkub", {"rounds": 1}, ["ismcts:iterations=200", "hold"],
                     "not beaten: wins >= the hold player's", None),
    "multzo": ("multzo", {}, ["ismcts:iterations=300", "lookahead", "lookahead"],
               "interval above 33%", interval_above(1 / 3)),
    "tictactoe": ("tic-tac-toe", {}, ["mcts:iterations=1000", "random"],
                  "never loses", never_loses),
    "tictactoe-self": ("tic-tac-toe", {}, ["mcts:iterations=1000", "mcts:iterations=1000"],
                       "draws >= 90%", None),
    "connect4": ("connect-four", {}, ["mcts:iterations=1000", "random"],
                 "wins >= 95%", above(0.95)),
}


def run_match(name: str, games: int, jobs: int, seed: int,
              log: Path | None = None) -> dict[str, Any]:
    """Play match ``name`` (``games`` games of ``seed``, in ``jobs`` processes).

    :param log: a file of finished games, one JSON line each (``match``, ``seed``,
        ``index``, ``winners`` — seats —, ``draw``), appended as games finish; the
        games it already holds for this match and seed are not played again, so
        a run stopped part-way is resumed, and its result is that of one run.
    """
    ruleset, options, agents, target, check = MATCHES[name]
    game = rulepack.load(ruleset)
    started = time.perf_counter()
    done = read_log(log, name, seed) if log is not None else {}
    results = {i: r for i, r in done.items() if i < games}

    def finished(index: int, record: Any) -> None:
        entry = {"match": name, "seed": seed, "index": index,
                 "winners": list(record.winners), "draw": record.draw}
        results[index] = entry
        if log is not None:
            with open(log, "a") as out:
                out.write(json.dumps(entry) + "\n")

    todo = [i for i in range(games) if i not in results]
    if "hold" in agents:
        for i in todo:
            finished(i, hold_game(game, i, agents, options, seed))
    elif todo:
        task = SimulationTask(seed, tuple(agents), options or None, DEFAULT_MAX_DECISIONS,
                              True)
        run(game, task, todo, Backend(jobs=jobs), finished)
    summary = tally([results[i] for i in range(games)], agents)
    first = summary["agents"][0]
    if name == "packkub-hold":
        ok = first["wins"] >= summary["agents"][1]["wins"]
    elif name == "tictactoe-self":
        ok = summary["draws"] >= 0.9 * games
    elif check is never_loses:
        ok = never_loses(summary)
    else:
        ok = check(first)
    return {"match": name, "ruleset": ruleset, "options": options, "agents": agents,
            "games": games, "target": target, "met": bool(ok),
            "results": summary["agents"], "draws": summary["draws"],
            "seconds": time.perf_counter() - started, "resumed": len(done),
            "command": command(ruleset, options, agents, games, seed)}


def read_log(log: Path, name: str, seed: int) -> dict[int, dict[str, Any]]:
    """The games of match ``name`` and ``seed`` that ``log`` holds, by index
    (none if the file does not exist); lines of other matches or seeds are skipped."""
    if not log.exists():
        return {}
    out = {}
    for line in log.read_text().splitlines():
        if line.strip():
            entry = json.loads(line)
            if entry["match"] == name and entry["seed"] == seed:
                out[int(entry["index"])] = entry
    return out


def tally(results: list[dict[str, Any]], agents: list[str]) -> dict[str, Any]:
    """Each agent's wins (a shared win counts for each winner), win rate and 95%
    Wilson interval, and the draws, of games seated as ``simulate --rotate`` seats
    them (``results``: log entries, see :func:`run_match`)."""
    players = len(agents)
    games = len(results)
    wins = [0] * players
    for r in results:
        for w in r["winners"]:
            wins[(w - r["index"]) % players] += 1    # the entry in seat w that game
    out = []
    for k, name in enumerate(agents):
        lo, hi = wilson_interval(wins[k], games)
        out.append({"name": name, "wins": wins[k], "win_rate": wins[k] / max(games, 1),
                    "win_rate_ci95": [lo, hi]})
    return {"agents": out, "draws": sum(bool(r["draw"]) for r in results)}


def command(ruleset: str, options: dict[str, Any], agents: list[str], games: int,
            seed: int) -> str:
    opts = " ".join(f"-o {k}={v}" for k, v in options.items())
    seats = " ".join(f"--seat {a}" for a in agents)
    return (f"rulepack simulate {ruleset} -n {len(agents)} --rotate -g {games} --seed {seed} "
            f"{opts} {seats}").replace("  ", " ")


def hold_game(game: Any, index: int, agents: list[str], options: dict[str, Any],
              seed: int) -> GameRecord:
    """Game ``index`` of the scripted hold player against a registered agent,
    seated as ``simulate --rotate`` seats them."""
    from packkub_strategies import HoldAgent

    from rulepack.agents.bots import agent_seed
    players = len(agents)
    s = game_seed(seed, index)
    seats = lineup(agents, index, True)
    bots = make_agents([k if k != "hold" else "random" for k in seats], s)
    for seat, kind in enumerate(seats):
        if kind == "hold":
            bots[seat] = HoldAgent(agent_seed(s, seat))
    state = game.new_game(players, seed=s, options=options)
    play_out(state, [bots[p] for p in range(players)])
    result = state.result()
    return GameRecord(index=index, winners=tuple(result["winners"]), draw=bool(result["draw"]),
                      scores=None, decisions=state.decisions)


# ---------------------------------------------------------------------- speed
#: ruleset, players, options for the speed table
SPEED = [("multzo", 3, {}), ("multiplay", 2, {}), ("mismemory", 2, {}),
         ("packkub", 2, {"rounds": 1}), ("tic-tac-toe", 2, {}), ("connect-four", 2, {}),
         ("partners", 4, {}), ("ladders", 1, {})]


def mid_game(game: Any, players: int, options: dict[str, Any], seed: int = 1) -> Any:
    """A position half-way through a random game of this seed."""
    rng = random.Random(seed)
    full = game.new_game(players, seed=seed, options=options)
    length = 0
    while not full.is_terminal():
        full.apply(rng.choice(full.legal_actions()))
        length += 1
    rng = random.Random(seed)
    state = game.new_game(players, seed=seed, options=options)
    for _ in range(length // 2):
        state.apply(rng.choice(state.legal_actions()))
    return state


def speed(iterations: int, reference_dir: Path, rounds: int = 3,
          profile: bool = False, only: list[str] | None = None,
          rollout: str = "auto") -> list[dict[str, Any]]:
    """The speed table. Each search runs ``rounds`` times from its position (the
    same work each time) and the fastest run counts; for Multzo the runs take
    turns with as many rounds of the reference, whose fastest round counts (the
    machine's load then weighs on both alike). ``profile``: also the share of
    the search's time spent in the engine (``legal_actions`` and ``_apply``).
    ``only``: these rulesets of :data:`SPEED` alone. ``rollout``: the searches'
    option of that name (``random``: playouts to the end, heuristic or not)."""
    rows = []
    for name, players, options in SPEED:
        if only is not None and name not in only:
            continue
        game = rulepack.load(name)
        state = mid_game(game, players, options)
        p = state.current_player
        view = Decision(state, p).view
        search = _searcher(state, p, view, iterations, rollout)
        times, refs = [], []
        for _ in range(rounds):
            started = time.perf_counter()
            search().run()
            times.append(time.perf_counter() - started)
            if name == "multzo":
                refs.append(reference(reference_dir, players, iterations))
        seconds = min(times)
        row = {"ruleset": name, "players": players, "agent": search.agent,
               "decision": state.decisions, "iterations": iterations, "seconds": seconds,
               "iterations_per_second": iterations / seconds}
        if refs and refs[0] is not None:
            ref = min(refs)
            row.update({"reference_games": iterations, "reference_seconds": ref,
                        "search_over_reference": seconds / ref})
        elif name == "multzo":
            row["reference"] = f"no {reference_dir / 'multzo_ref.py'}"
        if profile:
            row["engine_share"] = engine_share(search)
        rows.append(row)
    return rows


def _searcher(state: Any, player: int, view: dict[str, Any], iterations: int,
              rollout: str = "auto") -> Any:
    """A function that builds a fresh search of ``state`` as the agent would
    (``ismcts``, observing and by move groups, where the view hides pieces, else
    ``mcts``), with ``prior=0`` (iterations only) and the given ``rollout``; its
    ``agent`` attribute names the bot."""
    from rulepack.agents.search import Search, SearchOptions, exact_key, masked_key
    from rulepack.agents.determinize import Sampler
    from rulepack.agents.value import has_hidden
    from rulepack.engine.rng import Rng
    hidden = has_hidden(view)
    sampler = Sampler(state.program, view, Rng(1))
    sample = sampler.sample if hidden else (lambda rnd: sampler.base.clone())

    def build() -> Any:
        return Search(sample, player, masked_key if hidden else exact_key,
                      SearchOptions(iterations=iterations, prior=0, rollout=rollout), Rng(2),
                      observe=hidden, groups=hidden)
    build.agent = "ismcts" if hidden else "mcts"          # type: ignore[attr-defined]
    return build


def engine_share(build: Callable[[], Any]) -> float:
    """The share of one search's time (under the profiler) spent in the engine's
    ``legal_actions`` and ``_apply``."""
    import cProfile
    import pstats
    profiler = cProfile.Profile()
    search = build()
    profiler.runcall(search.run)
    stats = pstats.Stats(profiler).stats          # type: ignore[attr-defined]
    total = engine = 0.0
    for (path, _, func), (_, _, _, cumulative, _) in stats.items():
        if func == "run" and path.endswith("search.py"):
            total = cumulative
        if path.endswith("engine/state.py") and func in ("_apply", "legal_actions"):
            engine += cumulative
    return engine / total if total else 0.0


def reference(directory: Path, players: int, games: int) -> float | None:
    """Seconds for ``games`` games of the hand-written reference (``None``: not found)."""
    path = directory / "multzo_ref.py"
    if not path.is_file():
        return None
    spec = importlib.util.spec_from_file_location("multzo_ref", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    rng = random.Random(1)
    started = time.perf_counter()
    for _ in range(games):
        module.play(players, rng)
    return time.perf_counter() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200, help="games per match")
    parser.add_argument("--jobs", "-j", type=int, default=1, help="worker processes")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--only", help="comma-separated match names: " + ", ".join(MATCHES)
                        + "; with --speed, ruleset names")
    parser.add_argument("--speed", action="store_true", help="only the speed table")
    parser.add_argument("--iterations", type=int, default=1000,
                        help="iterations of the speed table")
    parser.add_argument("--rounds", type=int, default=3,
                        help="runs of each search (and of the reference); the fastest counts")
    parser.add_argument("--profile", action="store_true",
                        help="also the engine's share of each search's time")
    parser.add_argument("--rollout", default="auto", choices=["auto", "random", "heuristic"],
                        help="the searches' rollout option in the speed table")
    parser.add_argument("--reference-dir", default=str(ROOT.parent / "shared" / "reference"))
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--log", type=Path,
                        help="append each finished game to this file, and resume from it: "
                             "the games it holds for a match and seed are not played again")
    args = parser.parse_args(argv)
    report: dict[str, Any] = {"matches": [], "speed": []}
    names = [] if args.speed else (args.only.split(",") if args.only else list(MATCHES))
    for name in names:
        row = run_match(name.strip(), args.games, args.jobs, args.seed, args.log)
        report["matches"].append(row)
        if not args.json:
            res = ", ".join(f"{r['name']} {r['wins']}/{args.games} {r['win_rate']:.1%} "
                            f"[{r['win_rate_ci95'][0]:.1%}, {r['win_rate_ci95'][1]:.1%}]"
                            for r in row["results"])
            print(f"{name}: {res}; draws {row['draws']}; target {row['target']}: "
                  f"{'met' if row['met'] else 'NOT met'} ({row['seconds']:.0f} s)", flush=True)
    if args.speed or not args.only:
        report["speed"] = speed(args.iterations, Path(args.reference_dir), args.rounds,
                                args.profile, args.only.split(",") if args.only else None,
                                args.rollout)
        if not args.json:
            for r in report["speed"]:
                extra = ""
                if "engine_share" in r:
                    extra += f"; engine {r['engine_share']:.0%} of the search's time"
                if "search_over_reference" in r:
                    extra += (f"; {r['reference_games']} reference games "
                             f"{r['reference_seconds']:.2f} s, ratio "
                             f"{r['search_over_reference']:.2f}")
                print(f"speed {r['ruleset']} ({r['players']}p, {r['agent']}, decision "
                      f"{r['decision']}): {r['iterations_per_second']:.0f} iterations/s{extra}",
                      flush=True)
    if args.json:
        print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
