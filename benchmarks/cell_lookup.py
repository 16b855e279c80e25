"""How fast a ``where`` that picks one grid cell by row and column is (issue 11).

A small ruleset fills half of a square grid with stones, then asks for the piece
at every cell, row by row, over and over (up to 20,000 questions), in its setup
(so one ``new_game`` is the whole measurement). The question is written three ways:

* **lookup** — ``board where row == r and col == c``: compiled into a look-up of
  the cell (rulepack/compiler/lookup.py);
* **scan** — ``board where row + 0 == r and col == c``: the same question in a
  shape the compiler does not recognise, so every piece on the grid is asked;
* **cell()** — ``at(cell(board, r, c))``: the built-in direct lookup.

For each grid size it prints the questions answered per second (the best of
``--repeat`` runs, less the time of the same setup asking nothing) and the
lookup's speed-up over the scan; the three ways must count the same pieces
(checked). ``--json`` prints the figures as JSON::

    .venv/bin/python benchmarks/cell_lookup.py
    .venv/bin/python benchmarks/cell_lookup.py --sizes 5,9,19 --repeat 5 --json
"""

from __future__ import annotations

import argparse
import json
import time

import rulepack

RULESET = """\
game probe {{
  players 1
}}
component stone {{
  n: 1..{pieces}
}}
zone bag: stack
zone board: grid {size} x {size}
var found = 0
setup {{
  move stone to bag
  shuffle bag
  while count(board) < {placed} {{
    move top of bag to random(empty(board))
  }}
  for k in 1..{rounds} {{
    for r in 1..{size} {{
      for c in 1..{size} {{
        set found = found + {question}
      }}
    }}
  }}
}}
play {{
  turns from 0 until true {{
    choose {{
      action "stop" {{
      }}
    }}
  }}
}}
"""

QUESTIONS = {
    "nothing": "0",
    "lookup": "count(board where row == r and col == c)",
    "scan": "count(board where row + 0 == r and col == c)",
    "cell()": "(if at(cell(board, r, c)) == none then 0 else 1)",
}


def measure(size: int, repeat: int) -> dict[str, object]:
    """Questions per second of each way on a ``size`` x ``size`` grid, half full."""
    cells = size * size
    # (the scan visits every piece for every question: within the engine's budget
    # of 1,000,000 elements between two decisions)
    rounds = max(1, min(20_000, 300_000 // max(1, cells // 2)) // cells)
    out: dict[str, object] = {"size": size, "questions": cells * rounds, "pieces": cells // 2}
    counts = set()
    times = {}
    for name, question in QUESTIONS.items():
        game = rulepack.loads(RULESET.format(pieces=cells, size=size, placed=cells // 2,
                                             rounds=rounds, question=question))
        game.new_game(1, seed=0)                 # compiled and generated once, untimed
        best = float("inf")
        for _ in range(repeat):
            start = time.perf_counter()
            state = game.new_game(1, seed=0)
            best = min(best, time.perf_counter() - start)
        times[name] = best
        if name != "nothing":
            counts.add(state.position.vars["found"])
            out[name] = round(cells * rounds / (best - times["nothing"]))
    if len(counts) != 1:
        raise SystemExit(f"the three ways disagree on a {size} x {size} grid: {counts}")
    out["speed-up"] = round(out["lookup"] / out["scan"], 1)  # type: ignore[operator]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="3,8,19",
                        help="grid sizes, comma-separated (up to about 30: beyond, the scan "
                        "goes over the engine's budget of loop elements)")
    parser.add_argument("--repeat", type=int, default=7, help="runs of each; the best counts")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    rows = [measure(int(s), args.repeat) for s in args.sizes.split(",")]
    if args.json:
        print(json.dumps(rows, indent=1))
        return
    print(f"{'grid':>7}  {'lookup/s':>10}  {'scan/s':>10}  {'cell()/s':>10}  speed-up")
    for r in rows:
        print(f"{r['size']:>3} x {r['size']:<3}{r['lookup']:>10}  {r['scan']:>10}  "
              f"{r['cell()']:>10}  {r['speed-up']:>6}x")


if __name__ == "__main__":
    main()
