"""Fuzz ``rulepack validate`` with mutated rulesets, without Hypothesis.

Runs the mutation loop of ``tests/test_fuzz_validate.py`` N times with a plain
seeded ``random.Random``: each case takes a bundled ruleset (or the YAML IR of
Multzo), applies one to three accidental edits, validates it with
:func:`rulepack.validation.check_path` and, if it is still valid, plays it with
two players for up to 200 random actions. It prints how many cases were

* **valid** (and how many of those raised a RulepackError while playing),
* **located errors**: every error diagnostic has a line,
* **path-only errors**: some error has only a JSON path into the IR (no line),
* **unlocated errors**: some error diagnostic has neither,
* **crashes**: an exception other than RulepackError escaped (validation or play),
  or ``check_path`` reported an ``internal`` error (its last guard caught one),
* **hangs**: a case took longer than ``--timeout`` seconds,

then every distinct crash (exception type, message, where it was raised) with
its smallest input, and the first few tracebacks. Run from the repository root::

    .venv/bin/python benchmarks/fuzz_validate.py --count 10000 --seed 1
    .venv/bin/python benchmarks/fuzz_validate.py --seed 1 --case 4711     # show one case
    .venv/bin/python benchmarks/fuzz_validate.py --count 2000 --save /tmp/crashes

Case ``i`` of seed ``S`` depends only on ``S`` and ``i``, so ``--case i``
replays it.
"""

from __future__ import annotations

import argparse
import collections
import json
import random
import sys
import tempfile
import time
import traceback
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from rulepack.validation import check_path  # noqa: E402
from test_fuzz_validate import (  # noqa: E402
    INTERNAL, Hang, RandomChooser, classify, mutate, play, reproduce_internal_error,
    seeds, time_limit)


def case_rng(seed: int, index: int) -> random.Random:
    return random.Random(f"fuzz-validate:{seed}:{index}")


def where(exc: BaseException) -> str:
    """The innermost frame of rulepack's own code in the traceback."""
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if "/rulepack/" in f.filename]
    if not frames:
        return "?"
    f = frames[-1]
    return f"{Path(f.filename).relative_to(ROOT) if f.filename.startswith(str(ROOT)) else f.filename}:{f.lineno} ({f.name})"


def play_crashing(path: Path, seed: int) -> tuple[str, BaseException | None]:
    """The test's ``play``, but returning the escaping exception instead of raising."""
    try:
        return ("runtime error" if play(path, seed) < 0 else "played"), None
    except Hang:
        raise
    except Exception as exc:  # noqa: BLE001 - what we are looking for
        return "crash", exc


def run_case(seed: int, index: int, workdir: Path, timeout: int) -> dict[str, Any]:
    rng = case_rng(seed, index)
    name, text, edits = mutate(RandomChooser(rng))
    path = workdir / name
    path.write_text(text, encoding="utf-8")
    out: dict[str, Any] = {"index": index, "seed_file": name, "edits": edits, "text": text}
    started = time.perf_counter()
    try:
        return _run(path, rng, out, timeout)
    finally:
        out["seconds"] = time.perf_counter() - started


def _run(path: Path, rng: random.Random, out: dict[str, Any], timeout: int) -> dict[str, Any]:
    try:
        with time_limit(timeout):
            try:
                diagnostics = check_path(path)
            except (Hang, KeyboardInterrupt):
                raise
            except Exception as exc:  # noqa: BLE001
                out.update(outcome="crash", stage="validate, escaped", exc=exc,
                           tb="".join(traceback.format_exception(exc)))
                return out
            internal = [d for d in diagnostics if d.code == INTERNAL]
            if internal:
                # check_path's last guard caught a bug: find the exception behind it
                try:
                    reproduce_internal_error(path)
                    exc = RuntimeError(internal[0].message)
                except (Hang, KeyboardInterrupt):
                    raise
                except Exception as caught:  # noqa: BLE001
                    exc = caught
                out.update(outcome="crash", stage="validate, internal", exc=exc,
                           tb="".join(traceback.format_exception(exc)), diagnostics=diagnostics)
                return out
            outcome = classify(diagnostics)
            out["outcome"] = outcome
            out["diagnostics"] = diagnostics
            if outcome == "valid":
                played, exc = play_crashing(path, rng.randrange(2**32))
                out["played"] = played
                if exc is not None:
                    out.update(outcome="crash", stage="play", exc=exc,
                               tb="".join(traceback.format_exception(exc)))
    except Hang:
        out["outcome"] = "hang"
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=1000, help="cases to run (default 1000)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the run (default 0)")
    parser.add_argument("--timeout", type=int, default=10,
                        help="seconds a case may take before it counts as a hang (default 10)")
    parser.add_argument("--show", type=int, default=3, help="crash tracebacks to print (default 3)")
    parser.add_argument("--case", type=int, help="run only this case and print its input and outcome")
    parser.add_argument("--save", type=Path, help="write the input of every distinct crash here")
    parser.add_argument("--json", action="store_true", help="print the counts as JSON")
    args = parser.parse_args(argv)

    seeds()  # compile the YAML seed once, outside the timed cases
    counts: collections.Counter[str] = collections.Counter()
    crashes: dict[tuple[str, str, str], list[dict[str, Any]]] = {}
    unlocated: collections.Counter[tuple[str, str, str]] = collections.Counter()
    unlocated_case: dict[tuple[str, str, str], str] = {}
    tracebacks: list[str] = []
    slowest: tuple[float, int] = (0.0, -1)
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="fuzz-validate-") as tmp:
        workdir = Path(tmp)
        indexes = [args.case] if args.case is not None else range(args.count)
        for index in indexes:
            out = run_case(args.seed, index, workdir, args.timeout)
            if args.case is None and index and index % 1000 == 0:
                print(f"... {index} cases, {time.perf_counter() - started:.0f} s", file=sys.stderr)
            counts[out["outcome"]] += 1
            slowest = max(slowest, (out.get("seconds", args.timeout), index))
            if out.get("played") == "runtime error":
                counts["valid, RulepackError while playing"] += 1
            if out["outcome"] in ("unlocated", "path only"):
                for d in out["diagnostics"]:
                    if d.severity == "error" and d.location.line is None:
                        label = "path only" if d.location.path else "unlocated"
                        unlocated[(label, d.code, d.message[:90])] += 1
                        unlocated_case.setdefault((label, d.code, d.message[:90]),
                                                  f"--case {index} ({out['seed_file']})")
            if out["outcome"] == "crash":
                exc = out["exc"]
                key = (f"{out['stage']}: {type(exc).__name__}", str(exc)[:160], where(exc))
                crashes.setdefault(key, []).append(out)
                if len(tracebacks) < args.show:
                    tracebacks.append(f"case {index} ({out['seed_file']} after {out['edits']}):\n"
                                      + out["tb"])
            if args.case is not None:
                print(out["text"])
                print(f"--- case {index}: {out['seed_file']} after {out['edits']}: {out['outcome']}")
                for d in out.get("diagnostics", []):
                    print(d.format())
                if "tb" in out:
                    print(out["tb"])
    elapsed = time.perf_counter() - started

    total = sum(counts[k] for k in ("valid", "located", "path only", "unlocated", "crash", "hang"))
    summary = {"count": total, "seed": args.seed, "seconds": round(elapsed, 1),
               "valid": counts["valid"],
               "valid_runtime_error_in_play": counts["valid, RulepackError while playing"],
               "located_errors": counts["located"], "path_only_errors": counts["path only"],
               "unlocated_errors": counts["unlocated"],
               "crashes": counts["crash"], "hangs": counts["hang"],
               "distinct_crashes": len(crashes),
               "slowest_case": {"index": slowest[1], "seconds": round(slowest[0], 2)}}
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        print(f"{total} cases, seed {args.seed}, {elapsed:.1f} s")
        print(f"  valid            {counts['valid']:6}  (RulepackError while playing: "
              f"{counts['valid, RulepackError while playing']})")
        print(f"  located errors   {counts['located']:6}")
        print(f"  path-only errors {counts['path only']:6}")
        print(f"  unlocated errors {counts['unlocated']:6}")
        print(f"  crashes          {counts['crash']:6}  ({len(crashes)} distinct)")
        print(f"  hangs            {counts['hang']:6}")
        print(f"  slowest case     {slowest[1]} ({slowest[0]:.2f} s)")
    if unlocated:
        print("\nErrors without a line (kind, code, message), unlocated first, then most frequent:")
        ranked = sorted(unlocated.items(), key=lambda kv: (kv[0][0] != "unlocated", -kv[1]))
        for key, n in ranked[:30]:
            label, code, message = key
            print(f"  {n:5}  {label:9} [{code}] {message}  e.g. {unlocated_case[key]}")
    if crashes:
        print("\nDistinct crashes (smallest input of each):")
        for n, (key, cases) in enumerate(sorted(crashes.items(), key=lambda kv: -len(kv[1])), 1):
            smallest = min(cases, key=lambda c: len(c["text"]))
            kind, message, place = key
            print(f"\n[{n}] {kind}: {message}\n    at {place}; {len(cases)} case(s), e.g. "
                  f"--case {smallest['index']} ({smallest['seed_file']} after {smallest['edits']})")
            if args.save:
                args.save.mkdir(parents=True, exist_ok=True)
                suffix = Path(smallest["seed_file"]).suffix
                (args.save / f"crash{n}{suffix}").write_text(smallest["text"], encoding="utf-8")
    if tracebacks:
        print("\nFirst tracebacks:")
        for tb in tracebacks:
            print(tb)
    return 1 if crashes or counts["hang"] else 0


if __name__ == "__main__":
    sys.exit(main())
