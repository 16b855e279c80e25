"""Cold start-up times: how long the first command of a fresh process takes.

Each case runs in a new Python process, timed by wall clock from spawn to exit
and by the CPU time (user and system) the process used, ``--runs`` times; the best
run (the one least disturbed by other processes) and the median are reported, in
seconds (the targets are wall clock; on a busy machine the CPU time is the steadier
figure):

* ``python -c pass`` — the interpreter's own start-up, the floor of every case;
* ``rulepack --help``;
* ``rulepack validate`` of the four bundled rulesets, in one invocation;
* ``python -c 'import rulepack; rulepack.load("multzo")'``;
* the last two again with an empty parser cache (the first run after installing
  rulepack or changing its grammar, see ``rulepack/grammar/tables.py``).

``--against DIR`` times the same cases on another source tree (for example
``git archive <commit> | tar -x -C DIR``), in the same run, the runs of the two
trees interleaved, so that both see the same load of the machine::

    .venv/bin/python benchmarks/load.py --runs 11
    .venv/bin/python benchmarks/load.py --runs 11 --against /tmp/rulepack-main

The processes may keep compiled bytecode (in a private ``PYTHONPYCACHEPREFIX``,
warmed by one untimed run), as an installed package does; ``--no-bytecode``
compiles every module of rulepack at each start instead (``PYTHONDONTWRITEBYTECODE``,
as some sandboxes set it). Each tree has its own parser cache folder
(``XDG_CACHE_HOME``), warmed by that untimed run; the empty-cache cases get a new
empty one at every run.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RULESETS = ("multzo", "packkub", "multiplay", "mismemory")
#: Issue 10's targets, wall-clock seconds of a fresh process.
TARGETS = {"rulepack validate (4 rulesets)": 0.5, "rulepack --help": 0.3}
#: How the ``rulepack`` console script starts (setuptools writes the same two lines).
CLI = "import sys; from rulepack.cli.main import main; sys.argv[0] = 'rulepack'; sys.exit(main())"


def cases(tree: Path) -> dict[str, tuple[list[str], bool]]:
    """Case name → (arguments after ``python``, needs an empty parser cache)."""
    files = [str(tree / "rulepack" / "rulesets" / f"{name}.rules") for name in RULESETS]
    load = "import rulepack; rulepack.load('multzo')"
    return {
        "python -c pass": (["-c", "pass"], False),
        "rulepack --help": (["-c", CLI, "--help"], False),
        "rulepack validate (4 rulesets)": (["-c", CLI, "validate", *files], False),
        "rulepack.load('multzo')": (["-c", load], False),
        "validate, empty parser cache": (["-c", CLI, "validate", *files], True),
        "load, empty parser cache": (["-c", load], True),
    }


class Tree:
    """One source tree and the environment its processes run in."""

    def __init__(self, path: Path, scratch: Path, bytecode: bool) -> None:
        self.path = path
        self.scratch = scratch
        self.env = dict(os.environ, PYTHONPATH=str(path))
        self.env["XDG_CACHE_HOME"] = str(scratch / "cache")
        if bytecode:
            self.env.pop("PYTHONDONTWRITEBYTECODE", None)
            self.env["PYTHONPYCACHEPREFIX"] = str(scratch / "pycache")
        else:
            self.env["PYTHONDONTWRITEBYTECODE"] = "1"
            self.env.pop("PYTHONPYCACHEPREFIX", None)
        self.empty = 0

    def run(self, args: list[str], empty_cache: bool) -> tuple[float, float]:
        """One fresh process: (wall seconds, CPU seconds, user and system)."""
        env = self.env
        if empty_cache:
            self.empty += 1
            env = dict(env, XDG_CACHE_HOME=str(self.scratch / f"empty-{self.empty}"))
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        done = subprocess.run([sys.executable, *args], env=env, cwd=self.scratch,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        elapsed = time.perf_counter() - started
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if done.returncode != 0:
            raise SystemExit(f"{args} failed in {self.path} ({done.returncode}):\n"
                             f"{done.stdout}{done.stderr}")
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        return elapsed, cpu


def measure(trees: dict[str, Tree], runs: int) -> dict[str, dict[str, list[tuple[float, float]]]]:
    """Case → tree label → (wall, CPU) seconds of each run; the trees' runs alternate."""
    out: dict[str, dict[str, list[tuple[float, float]]]] = {}
    for label, tree in trees.items():  # warm the bytecode and the parser caches
        for args, empty in cases(tree.path).values():
            if not empty:
                tree.run(args, False)
    names = list(cases(ROOT))
    for name in names:
        out[name] = {label: [] for label in trees}
        for _ in range(runs):
            for label, tree in trees.items():
                args, empty = cases(tree.path)[name]
                out[name][label].append(tree.run(args, empty))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=7, help="timed runs per case (default 7)")
    ap.add_argument("--against", type=Path, metavar="DIR",
                    help="another source tree to time in the same run (the reference)")
    ap.add_argument("--no-bytecode", action="store_true",
                    help="compile rulepack's modules at every start (no .pyc)")
    ap.add_argument("--json", action="store_true", help="print all run times as JSON")
    opts = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="rulepack-load-") as scratch:
        trees = {"this": Tree(ROOT, Path(scratch) / "this", not opts.no_bytecode)}
        if opts.against:
            trees["reference"] = Tree(opts.against.resolve(), Path(scratch) / "reference",
                                      not opts.no_bytecode)
        for tree in trees.values():
            tree.scratch.mkdir()
        times = measure(trees, opts.runs)
    if opts.json:
        print(json.dumps({"runs": opts.runs, "bytecode": not opts.no_bytecode,
                          "trees": {k: str(t.path) for k, t in trees.items()},
                          "times": times}, indent=2))
        return
    print(f"{opts.runs} runs per case, bytecode {'off' if opts.no_bytecode else 'on'}; "
          "seconds, best (median); wall clock, then CPU time (user + system)")
    header = f"{'case':32}" + "".join(f"{label + ' wall':>16}{label + ' CPU':>16}"
                                      for label in trees)
    print(header + (f"{'wall ratio':>12}" if len(trees) > 1 else ""))
    for name, by_tree in times.items():
        row = f"{name:32}"
        for label in trees:
            for i in (0, 1):
                values = [run[i] for run in by_tree[label]]
                row += f"{min(values):>7.3f} ({statistics.median(values):.3f})"
        if len(trees) > 1:
            best = {label: min(run[0] for run in by_tree[label]) for label in trees}
            row += f"{best['this'] / best['reference']:>12.2f}"
        print(row)
    for name, target in TARGETS.items():
        wall = min(run[0] for run in times[name]["this"])
        cpu = min(run[1] for run in times[name]["this"])
        print(f"target: {name} <= {target} s wall (issue 10): best {wall:.3f} s wall, "
              f"{cpu:.3f} s CPU: {'met' if wall <= target else 'not met'}")
    if len(trees) > 1:
        print(f"this: {ROOT}\nreference: {trees['reference'].path}")


if __name__ == "__main__":
    main()
