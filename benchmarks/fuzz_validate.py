"""Fuzz ``rulepack validate`` and play: mutated rulesets, mutated YAML IR, hostile files.

Three kinds of case (``--kind``):

* ``rules`` (default): a bundled ruleset (``rulepack/rulesets/*.rules`` and
  ``lib/*.rules``) with one to three accidental edits (the mutations of
  ``tests/test_fuzz_validate.py``: delete, duplicate or swap tokens or lines,
  replace a token, insert a keyword, truncate);
* ``yaml``: the same edits on the YAML IR of a bundled ruleset
  (``rulepack compile NAME --format yaml``), every bundled game in turn;
* ``hostile``: the hand-made hostile files (``tests/hostile/``, and big or special
  files made here: a 10 MB string, 80 kB of brackets, deep indentation, a million
  tokens, ``/dev/zero``, ``/dev/urandom``, a named pipe, a directory, an empty name).

Each case is validated with :func:`rulepack.validation.check_path`; a mutant that is
still valid then plays ``--games`` random games (random legal actions, at most
``--decisions`` decisions each). It prints how many cases were

* **valid** (games played, and how many of them ended in a located or an
  **unlocated** RulepackError),
* **located errors** (every error has a line), **path-only errors** (a JSON path
  into the IR but no line), **unlocated errors** (neither),
* **crashes**: an exception other than RulepackError escaped (validation or play),
  or ``check_path`` reported an ``internal`` error,
* **hangs**: validation took more than ``--timeout`` seconds (default 5, the
  issue's bound), or a game more than ``--game-timeout``,

then the peak memory (the largest resident size a worker reached, and the case that
raised it) and the slowest case, every distinct crash with its smallest input, and
the first few tracebacks.

It also counts the mutants that ``validate`` accepts and whose games then fail
(``validated, then failed in play``), and among those the ones that fail with a
**type error** (``validated, then a type error in play``: a value of the wrong kind,
which a static check could have reported at validation), by the message forms of
:data:`TYPE_ERROR_FORMS` (``cannot add``, ``needs a cell``, ``is not a pattern``,
``must start from a player``, ...); errors that only play can know (an index out of
range, division by zero, the budgets and limits, no legal action:
:data:`OTHER_ERROR_FORMS`) are counted apart, and a message of neither list is
reported as unclassified. A mutant counts once, by the first type error of its games
(else by its first error). The report gives the counts by form and the most frequent
messages, each with its smallest case; ``--json`` gives them under
``validated_then_type_error``, with those cases and their texts (``inputs``), and
``--recheck JSON`` runs again the mutants stored in an earlier ``--json`` output (the
same texts, even where the code would now make other mutants for those case numbers)
and says how many of them ``validate`` rejects now. Run from the repository root::

    .venv/bin/python benchmarks/fuzz_validate.py --count 10000 --seed 1 --jobs 2
    .venv/bin/python benchmarks/fuzz_validate.py --kind yaml --count 1000 --seed 1
    .venv/bin/python benchmarks/fuzz_validate.py --kind hostile
    .venv/bin/python benchmarks/fuzz_validate.py --seed 1 --case 4711     # show one case
    .venv/bin/python benchmarks/fuzz_validate.py --count 2000 --save /tmp/crashes
    .venv/bin/python benchmarks/fuzz_validate.py --count 10000 --seed 1 --json > before.json
    .venv/bin/python benchmarks/fuzz_validate.py --seed 1 --recheck before.json

Case ``i`` of seed ``S`` depends only on the kind, ``S`` and ``i``, so ``--case i``
replays it (also with ``--jobs``).
"""

from __future__ import annotations

import argparse
import collections
import json
import multiprocessing
import os
import random
import re
import resource
import sys
import tempfile
import time
import traceback
from functools import lru_cache
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

import rulepack  # noqa: E402
from rulepack.errors import RulepackError  # noqa: E402
from rulepack.validation import check_path  # noqa: E402
from test_fuzz_validate import (  # noqa: E402
    INTERNAL, Hang, RandomChooser, classify, mutate, reproduce_internal_error,
    time_limit)

PACKAGE = Path(rulepack.__file__).parent
#: Codes of errors about a whole file (its kind, size, encoding...), which have no line.
FILE_CODES = {"file-type", "empty", "too-big", "not-a-file", "no-file"}
#: A worker's address space is capped here, so that a runaway case raises
#: MemoryError (a crash, reported) instead of taking the machine down.
ADDRESS_SPACE = 3 * 1024 ** 3


# ---------------------------------------------------------------------- type errors in play
#: The message forms of a play-time error that is a **type error**: a value of the
#: wrong kind met an operation, a statement or a built-in (the messages of
#: ``RuleValueError`` in rulepack/engine/*.py and of the generated code in
#: rulepack/compiler/*.py, and those of the values computed while a game is set up).
#: (label, regular expression searched in the message); the first that matches
#: names the form. A static type system could reject each of these before play.
TYPE_ERROR_FORMS: tuple[tuple[str, str], ...] = (
    # '+' of values that do not add (a number and a piece, a list and a number...)
    ("cannot add", r"\bcannot add "),
    # '-', '*', '/', '//', '%' of values that are not numbers
    ("cannot compute", r"\bcannot compute "),
    # max()/min() of values of mixed kinds
    ("() cannot compare the values", r"\(\) cannot compare the values\b"),
    # '<', '<=', '>', '>=' (and argmax, order) of values of kinds without an order
    ("cannot compare", r"\bcannot compare "),
    # a numeric argument that is not a number (abs(), 'rounds ... times N', options...)
    ("needs a number", r"\bneeds a number, not "),
    # a score, an attribute's value or a setting that must be a number
    ("must be a number", r"\bmust be a number\b"),
    # sum() of a list with a non-number in it
    ("sum() of something that is not a number", r"\bsum\(\) of something that is not a number"),
    # a..b with ends that are not whole numbers
    ("a range needs whole numbers", r"\ba range needs whole numbers\b"),
    # cell(grid, row, col) with a row or column that is not a whole number
    ("a cell's row and column are whole numbers", r"\ba cell's row and column are whole numbers\b"),
    # top N of Z with an N that is not a number (a negative number is a play-time value)
    ("cannot take N pieces (N not a number)", r"\bcannot take (?!-?\d+(?:\.\d+)? pieces\b)"),
    # turns starting from a value that is not a player (a number that is no seat)
    ("must start from a player", r"\bturns must start from a player\b"),
    # a player expected: knows(), score(p), eliminate, var[...] per player, 'everyone'
    ("is not a player", r"\bis not a player\b|: not a player\b"),
    # a decision whose decider is not a player, team() of something else than a player
    ("needs a player", r"\bneeds a player\b"),
    # V[K] of a variable per team with a key that is not a team's number (a player)
    ("not a team", r": a player is not a team\b|: not a team\b"),
    # say ... to a value that is not a player
    ("say ... to needs players", r"\bsay \.\.\. to needs players\b"),
    # teams listing something else than players
    ("a team lists players", r"\ba team lists players\b"),
    # at() of a value that is not a cell
    ("needs a cell", r"\bneeds a cell\b"),
    # a cell expected (neighbours, distance, row/col of...), something else given
    ("a cell is needed here", r"\ba cell is needed here\b"),
    # a line of cells expected (the ends of a line), something else given
    ("a line of cells is needed here", r"\ba line of cells is needed here\b"),
    # cells(), cell() of a value that is not a grid zone
    ("is not a grid", r"\bis not a grid\b"),
    # a direction that is not a (row step, column step) pair
    ("a direction is written (row step, column step)", r"\ba direction is written \(row step"),
    # a grid's holes that are not (row, column) pairs
    ("a grid hole is written (row, column)",
     r"\ba grid's holes are a list of \(row, column\)|\ba grid hole is written \(row, column\)"),
    # a value used as a pattern (matches, partitionable...) that is not one
    ("is not a pattern", r"\bis not a pattern\b"),
    # a pattern applied to something else than pieces
    ("a pattern applies to pieces", r"\ba pattern applies to pieces\b"),
    # knows() of something that is not a piece
    ("needs a piece", r"\bneeds a piece\b"),
    # move, flip, claim of a value that is not a piece
    ("only pieces can be moved/flipped/claimed", r"\bonly pieces can be (?:moved|flipped|claimed)\b"),
    # roll of a value that is not a die (a piece whose component rolls)
    ("cannot roll (not a die)", r"\bcannot roll .*(?:only dice|its component has no 'rolls')"),
    # shuffle of a value that is not a zone, or of a pile (no order: a zone's kind)
    ("only a zone can be shuffled", r"\bonly a zone can be shuffled\b|\bwhich keeps no order to shuffle\b"),
    # arrange into a zone that is not a 'groups' zone
    ("only a 'groups' zone can be arranged", r"\bonly a 'groups' zone can be arranged\b"),
    # move ... to a value that is neither a zone nor a cell
    ("not a zone or a cell", r"\bnot a zone or a cell\b"),
    # an attribute that the value's kind (or the piece's component) does not have
    ("has no attribute", r"\bhas no attribute\b"),
    # 'in' with a right side that is not a collection
    ("'in' needs a list, a zone or a map", r"'in' needs a list, a zone or a map\b"),
    # 'in' with a left side a collection cannot hold (a list in a map)
    ("cannot look for X in Y", r"\bcannot look for .* in "),
    # random(N) of a number (a die roll is random(1..6))
    ("random() picks an element of a collection", r"\brandom\(\) picks an element of a collection\b"),
    # (a, b) = a value that is not a tuple of that size
    ("cannot unpack", r"\bcannot unpack\b"),
    # Z[K] of a family of zones (per player, per attribute value) with a key
    # outside its domain: a number where a player is needed, a non-value
    ("zone X has no [K]", r"\bzone \S+ has no \["),
    # V[K] of a value that has no elements at all (a number, none, a truth value,
    # a player), or of a list, a zone or a word with a key that is not a number (a
    # list, a word, none); V[number] out of range, or a key missing from a map, is
    # a value only play can know (in OTHER_ERROR_FORMS)
    ("no element [K] in V: K or V of the wrong kind",
     r"\bno element \[.*\] in (?:-?\d+(?:\.\d+)?|none|true|false|player \d+)$"
     r"|\bno element \[(?!(?:-?\d+(?:\.\d+)?|player \d+)\] in ).*\] in (?!\{)"),
    # a value of the wrong kind reached a Python operation that does not check it
    # (rulepack.engine.runtime.failure_text)
    ("cannot be used here", r"\) cannot be used here\b"),
    ("a value of the wrong kind reached it", r"\ba value of the wrong kind reached it\b"),
    ("a list or a map cannot be a key", r"\ba list or a map cannot be a key\b"),
)

#: Play-time errors that are **not** type errors: what only play can know (an
#: index out of range, an empty zone, a zero divisor, a full cell), the limits
#: (budgets, decisions, steps), a player without a legal action; listed so that a
#: message of neither list shows up in the report as unclassified.
OTHER_ERROR_FORMS: tuple[tuple[str, str], ...] = (
    # a zero divisor
    ("division by zero", r"\bdivision by zero\b"),
    # a number beyond the size limit (a product of too many digits, an overflow)
    ("a number too large", r"\ba number too large\b|\bbinary digits\b"),
    # an index out of range, a missing key (after the non-collection form above)
    ("no element (index out of range)", r"\bno element \[|\bno such element\b"),
    # top N of Z with a negative N
    ("cannot take N pieces (N negative)", r"\bcannot take -?\d+(?:\.\d+)? pieces\b"),
    # random() of an empty list
    ("random() of an empty list", r"\brandom\(\) of an empty list\b"),
    # a piece used as a cell that does not lie on a grid now
    ("is not on a grid", r"\bis not on a grid\b"),
    # a move to an occupied cell, a full zone
    ("is not empty / is full", r"\bcell .* is not empty\b|\bis full\b"),
    # a piece not found where the engine keeps it (a move of a piece moved meanwhile)
    ("is not where it should be", r"\bis not where it should be\b"),
    # arrange: the pieces do not split into groups of the pattern
    ("cannot be arranged into groups", r"\bcannot be arranged into groups\b"),
    # the decider has no legal action
    ("has no legal action", r"\bhas no legal action\b"),
    # the decision limit of the run or of the ruleset ('at most ... decisions')
    ("the game did not end within N decisions", r"\bdid not end within\b"),
    # the flow's step limit without a decision
    ("steps without a decision", r"\bsteps without a decision\b"),
    # the budgets of expressions and pattern searches, the size of collections
    ("over the budget / the limit", r"\bover (?:the|their) budget\b|\bmore than the limit\b"
     r"|\bexamined more than\b|\btook more than\b|\bmore than the \S+ limit\b"),
    # recursion of defines too deep
    ("recursed too deeply", r"\brecursed too deeply\b"),
    # score() in a ruleset without a score: a static mistake, but not of a value's kind
    ("the ruleset declares no score", r"\bdeclares no score\b"),
)

_TYPE_ERRORS = tuple((label, re.compile(rx)) for label, rx in TYPE_ERROR_FORMS)
_OTHER_ERRORS = tuple((label, re.compile(rx)) for label, rx in OTHER_ERROR_FORMS)


def type_error_form(message: str) -> str | None:
    """The label of the first :data:`TYPE_ERROR_FORMS` form ``message`` matches
    (a play-time type error), or None."""
    for label, rx in _TYPE_ERRORS:
        if rx.search(message):
            return label
    return None


def error_form(message: str) -> tuple[str, str]:
    """(kind, label) of a play-time error message: kind ``type`` (a form of
    :data:`TYPE_ERROR_FORMS`), ``other`` (of :data:`OTHER_ERROR_FORMS`) or
    ``unclassified`` (neither: the label is the message itself)."""
    label = type_error_form(message)
    if label is not None:
        return "type", label
    for label, rx in _OTHER_ERRORS:
        if rx.search(message):
            return "other", label
    return "unclassified", message


# ---------------------------------------------------------------------- seeds and cases
@lru_cache(maxsize=1)
def rules_seeds() -> tuple[tuple[str, str], ...]:
    paths = sorted(PACKAGE.glob("rulesets/*.rules")) + sorted(PACKAGE.glob("rulesets/lib/*.rules"))
    return tuple((p.name, p.read_text(encoding="utf-8")) for p in paths)


@lru_cache(maxsize=1)
def yaml_seeds() -> tuple[tuple[str, str], ...]:
    """The YAML IR of every bundled ruleset, as ``rulepack compile NAME -f yaml`` prints it."""
    from rulepack.cli.export import dump, standalone_ir
    from rulepack.loader import bundled_rulesets
    return tuple((f"{name}.yaml", dump(standalone_ir(name, False), "yaml"))
                 for name in bundled_rulesets())


def mutant(kind: str, seed: int, index: int) -> tuple[str, str, list[str]]:
    """(file name, text, edits) of case ``index``."""
    rng = random.Random(f"fuzz-validate:{kind}:{seed}:{index}")
    return mutate(RandomChooser(rng), rules_seeds() if kind == "rules" else yaml_seeds())


def hostile_files(workdir: Path) -> list[tuple[str, Path | str]]:
    """(description, path) of every hand-made hostile file, made in ``workdir``."""
    out: list[tuple[str, Path | str]] = [
        (f"corpus {p.name}", p) for p in sorted((ROOT / "tests" / "hostile").iterdir())]

    def make(name: str, text: str) -> Path:
        path = workdir / name
        path.write_text(text, encoding="utf-8")
        return path
    out += [
        ("10 MB string literal", make("big.rules", 'game g { players 2 }\nconst x = "'
                                      + "a" * 10_000_000 + '"\n')),
        ("900 kB string literal", make("long.rules", 'game g { players 2 }\nconst x = "'
                                      + "a" * 900_000 + '"\n')),
        ("80 kB of [[[ in YAML", make("deep.yaml", "a: " + "[" * 40_000 + "]" * 40_000 + "\n")),
        ("80 kB of [[[ in JSON", make("deep.json", "[" * 40_000 + "]" * 40_000 + "\n")),
        ("300 levels of indentation", make("indent.yaml", "".join(
            "  " * d + f"k{d}:\n" for d in range(300)) + "  " * 300 + "v: 1\n")),
        ("a list of 300,000 numbers", make("list.rules", "game g { players 2 }\nconst x = ["
                                           + "1," * 300_000 + "1]\n")),
        ("YAML of 300,000 numbers", make("list.yaml", "a: [" + "1," * 300_000 + "1]\n")),
        ("1+1+... 20,000 terms", make("chain.rules", "game g { players 2 }\nconst x = 1"
                                      + "+1" * 20_000 + "\n")),
        ("1+1+... 4,000 terms", make("chain4k.rules", "game g { players 2 }\nconst x = 1"
                                     + "+1" * 4_000 + "\n")),
    ]
    for device, name in (("/dev/zero", "zero.rules"), ("/dev/urandom", "random.json")):
        if Path(device).exists():
            (workdir / name).symlink_to(device)
            out.append((f"symlink to {device}", workdir / name))
    if hasattr(os, "mkfifo"):
        os.mkfifo(workdir / "pipe.rules")
        out.append(("named pipe", workdir / "pipe.rules"))
    (workdir / "dir.rules").mkdir()
    out.append(("directory", workdir / "dir.rules"))
    out.append(("empty name", ""))
    return out


# ---------------------------------------------------------------------- running
def play_games(path: Path | str, seed: int, games: int, decisions: int,
               timeout: int) -> tuple[list[str], list[str], BaseException | None]:
    """Play ``games`` random games; the outcome of each (``ended``, ``cut off``,
    ``located error``, ``unlocated error: ...``, ``hang``), the message of each
    RulepackError a game ended with (its first error), and the first exception
    other than RulepackError, if one escaped."""
    outcomes: list[str] = []
    failures: list[str] = []
    game = rulepack.load(path)
    for g in range(games):
        rng = random.Random(f"{seed}:{g}")
        players = rng.randint(game.min_players, min(game.max_players, game.min_players + 2))
        try:
            with time_limit(timeout):
                state = game.new_game(players, seed=rng.randrange(2 ** 32),
                                      max_decisions=decisions)
                while not state.is_terminal():
                    legal = state.legal_actions()
                    state.apply(legal[rng.randrange(len(legal))])
                    state.view(rng.randrange(players))
                state.result()
                outcomes.append("ended")
        except Hang:
            outcomes.append("hang")
        except RulepackError as exc:
            errors = [d for d in exc.diagnostics if d.severity == "error"] or exc.diagnostics
            failures.append(errors[0].message if errors else str(exc))
            if all(d.location.line is not None for d in exc.diagnostics):
                outcomes.append("located error")
            else:
                outcomes.append(f"unlocated error: {exc.diagnostics[0].message[:100]}")
        except Exception as exc:  # noqa: BLE001 - what we are looking for
            return outcomes, failures, exc
    return outcomes, failures, None


def run_path(path: Path | str, out: dict[str, Any], args: Any) -> dict[str, Any]:
    started = time.perf_counter()
    try:
        try:
            with time_limit(args.timeout):
                diagnostics = check_path(path)
        except Hang:
            out["outcome"] = "hang"
            return out
        except Exception as exc:  # noqa: BLE001
            out.update(outcome="crash", stage="validate, escaped", exc=exc)
            return out
        out["validate_seconds"] = time.perf_counter() - started
        internal = [d for d in diagnostics if d.code == INTERNAL]
        if internal:
            try:
                reproduce_internal_error(Path(path))
                exc = RuntimeError(internal[0].message)
            except Exception as caught:  # noqa: BLE001
                exc = caught
            out.update(outcome="crash", stage="validate, internal", exc=exc,
                       diagnostics=diagnostics)
            return out
        outcome = classify(diagnostics)
        out["outcome"] = outcome
        out["diagnostics"] = diagnostics
        if outcome == "valid" and args.games and out.get("playable", True):
            try:
                games, failures, exc = play_games(path, out["index"], args.games,
                                                  args.decisions, args.game_timeout)
            except RulepackError:   # a library (lib/*.rules) validates but is no game
                games, failures, exc = ["not a game"], [], None
            out["games"] = games
            out["failures"] = failures
            if exc is not None:
                out.update(outcome="crash", stage="play", exc=exc)
        return out
    finally:
        out["seconds"] = time.perf_counter() - started


def run_case(task: tuple[str, int, int, str, Any]) -> dict[str, Any]:
    """In a worker: run one case; the result is plain data (exceptions as text)."""
    kind, seed, index, workdir, args = task
    if kind == "hostile":
        description, path = _HOSTILE[index]
        out: dict[str, Any] = {"index": index, "seed_file": description, "edits": [],
                               "text": "", "playable": False}
    else:
        name, text, edits = _STORED[index] if index in _STORED else mutant(kind, seed, index)
        path = Path(workdir) / f"{os.getpid()}-{name}"
        path.write_text(text, encoding="utf-8")
        out = {"index": index, "seed_file": name, "edits": edits, "text": text}
    run_path(path, out, args)
    # classified here, on the whole message (a long list shown in it may push the
    # words that name the form far along); the parent gets it shortened
    out["failures"] = [(*error_form(m), _shorten(m)) for m in out.get("failures", [])]
    exc = out.pop("exc", None)
    if exc is not None:
        out["exc"] = (type(exc).__name__, str(exc)[:160], where(exc),
                      "".join(traceback.format_exception(exc)))
    if "diagnostics" in out:
        out["diagnostics"] = [(d.severity, d.code, d.location.line, d.location.path,
                               d.message[:200], d.format()[:2000]) for d in out["diagnostics"]]
    out["maxrss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return out


_HOSTILE: list[tuple[str, Path | str]] = []
#: The mutants of ``--recheck`` by case (file name, text, edits), as the earlier run
#: made them: the same inputs even where this code would make other mutants (the
#: mutations read the bundled rulesets and the grammar's keywords, which change).
#: Filled before the workers start (they inherit it).
_STORED: dict[int, tuple[str, str, list[str]]] = {}


def _start_worker(kind: str, workdir: str) -> None:
    try:
        resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE, ADDRESS_SPACE))
    except (ValueError, OSError):  # pragma: no cover
        pass
    if kind == "hostile":
        mine = Path(workdir) / f"worker-{os.getpid()}"
        mine.mkdir()
        _HOSTILE[:] = hostile_files(mine)
    elif kind == "yaml":
        yaml_seeds()
    else:
        rules_seeds()


def where(exc: BaseException) -> str:
    """The innermost frame of rulepack's own code in the traceback."""
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if "/rulepack/" in f.filename]
    if not frames:
        return "?"
    f = frames[-1]
    name = Path(f.filename)
    shown = name.relative_to(ROOT) if f.filename.startswith(str(ROOT)) else name
    return f"{shown}:{f.lineno} ({f.name})"


# ---------------------------------------------------------------------- the report
def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--kind", choices=("rules", "yaml", "hostile"), default="rules")
    parser.add_argument("--count", type=int, default=1000, help="cases to run (default 1000)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the run (default 0)")
    parser.add_argument("--timeout", type=int, default=5,
                        help="seconds validation may take before it counts as a hang (5)")
    parser.add_argument("--games", type=int, default=3,
                        help="random games played on a valid mutant (default 3)")
    parser.add_argument("--decisions", type=int, default=3000,
                        help="decisions a random game may take (default 3000)")
    parser.add_argument("--game-timeout", type=int, default=20,
                        help="seconds one random game may take (default 20)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument("--show", type=int, default=3, help="crash tracebacks to print (default 3)")
    parser.add_argument("--case", type=int, help="run only this case and print its input and outcome")
    parser.add_argument("--recheck", type=Path, metavar="JSON",
                        help="run again the mutants that were 'validated, then a type error "
                             "in play' in this earlier --json output (their stored texts; same "
                             "--kind and --seed), and say how many of them validate rejects now")
    parser.add_argument("--save", type=Path, help="write the input of every distinct crash here")
    parser.add_argument("--json", action="store_true", help="print the counts as JSON")
    args = parser.parse_args(argv)

    counts: collections.Counter[str] = collections.Counter()
    games: collections.Counter[str] = collections.Counter()
    crashes: dict[tuple[str, str, str], list[dict[str, Any]]] = {}
    unlocated: collections.Counter[tuple[str, str, str]] = collections.Counter()
    unlocated_case: dict[tuple[str, str, str], str] = {}
    hangs: list[str] = []
    tracebacks: list[str] = []
    slowest: tuple[float, int, str] = (0.0, -1, "")
    slowest_check: tuple[float, int, str] = (0.0, -1, "")
    peak: tuple[float, int, str] = (0.0, -1, "")
    # mutants that validate accepted and whose games failed: by the kind of the
    # failure (type, other, unclassified), by the form of their first type error,
    # the messages of those (with the smallest case of each, so that the report
    # does not depend on the order the workers finish in)
    failed_in_play = 0
    play_kinds: collections.Counter[str] = collections.Counter()
    type_forms: collections.Counter[str] = collections.Counter()
    type_messages: collections.Counter[str] = collections.Counter()
    other_forms: collections.Counter[str] = collections.Counter()
    play_case: dict[tuple[str, str], int] = {}
    type_cases: list[dict[str, Any]] = []
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="fuzz-validate-") as tmp:
        workdir = tmp
        if args.kind == "hostile":
            probe = Path(tmp) / "probe"
            probe.mkdir()
            indexes: list[int] = list(range(len(hostile_files(probe))))
        else:
            indexes = list(range(args.count))
        if args.case is not None:
            indexes = [args.case]
        listed = None
        changed = 0
        if args.recheck is not None:
            _STORED.clear()
            _STORED.update(recheck_cases(args.recheck, args.kind, args.seed))
            listed = sorted(_STORED)
            indexes = listed
            changed = sum(mutant(args.kind, args.seed, i)[1] != _STORED[i][1] for i in listed)
        tasks = [(args.kind, args.seed, i, workdir, args) for i in indexes]
        ctx = multiprocessing.get_context("fork")
        with ctx.Pool(max(1, args.jobs), initializer=_start_worker,
                      initargs=(args.kind, workdir)) as pool:
            for done, out in enumerate(pool.imap_unordered(run_case, tasks, chunksize=4), 1):
                if done % 500 == 0:
                    print(f"... {done} cases, {time.perf_counter() - started:.0f} s",
                          file=sys.stderr, flush=True)
                index = out["index"]
                label = f"--case {index} ({out['seed_file']})"
                if out["outcome"] == "unlocated" and all(
                        code in FILE_CODES for severity, code, line, *_ in out["diagnostics"]
                        if severity == "error" and line is None):
                    out["outcome"] = "file error"
                counts[out["outcome"]] += 1
                if out.get("failures"):
                    failed_in_play += 1
                    typed = [(form, m) for kind, form, m in out["failures"] if kind == "type"]
                    if typed:
                        form, message = typed[0]
                        play_kinds["type"] += 1
                        type_cases.append({"case": index, "file": out["seed_file"],
                                           "edits": out["edits"], "text": out["text"]})
                        keys = [("form", form), ("message", message)]
                        type_forms[form] += 1
                        type_messages[message] += 1
                    else:
                        kind, form, _ = out["failures"][0]
                        form = _shorten(form)
                        play_kinds[kind] += 1
                        keys = [("other", f"{kind}: {form}")]
                        other_forms[f"{kind}: {form}"] += 1
                    for case_key in keys:
                        play_case[case_key] = min(play_case.get(case_key, index), index)
                for g in out.get("games", []):
                    games[g if not g.startswith("unlocated") else "unlocated error"] += 1
                    if g.startswith("unlocated"):
                        key = ("in a game", "", g[len("unlocated error: "):][:90])
                        unlocated[key] += 1
                        unlocated_case.setdefault(key, label)
                    if g == "hang":
                        hangs.append(f"game of {label}")
                if out["outcome"] == "hang":
                    hangs.append(f"validate {label}")
                slowest = max(slowest, (out.get("seconds", 0.0), index, label))
                slowest_check = max(slowest_check, (out.get("validate_seconds", 0.0), index, label))
                if out["maxrss_mb"] > peak[0]:
                    peak = (out["maxrss_mb"], index, label)
                if out["outcome"] in ("unlocated", "path only"):
                    for severity, code, line, path, message, _ in out["diagnostics"]:
                        if severity == "error" and line is None:
                            kind = "path only" if path else "unlocated"
                            key = (kind, code, message[:90])
                            unlocated[key] += 1
                            unlocated_case.setdefault(key, label)
                if out["outcome"] == "crash":
                    name, message, place, tb = out["exc"]
                    key = (f"{out['stage']}: {name}", message, place)
                    crashes.setdefault(key, []).append(out)
                    if len(tracebacks) < args.show:
                        tracebacks.append(f"case {index} ({out['seed_file']} after "
                                          f"{out['edits']}):\n{tb}")
                if args.case is not None:
                    print(out["text"])
                    print(f"--- case {index}: {out['seed_file']} after {out['edits']}: "
                          f"{out['outcome']} {out.get('games', '')}")
                    for d in out.get("diagnostics", []):
                        print(d[-1])
                    for kind, form, message in out.get("failures", []):
                        print(f"in play: {message}\n  ({kind} error"
                              + (f": {form})" if kind != "unclassified" else ")"))
                    if "exc" in out:
                        print(out["exc"][-1])
    elapsed = time.perf_counter() - started

    total = sum(counts.values())
    summary = {"kind": args.kind, "count": total, "seed": args.seed, "seconds": round(elapsed, 1),
               "valid": counts["valid"], "games": dict(games),
               "located_errors": counts["located"], "whole_file_errors": counts["file error"],
               "path_only_errors": counts["path only"],
               "unlocated_errors": counts["unlocated"],
               "crashes": counts["crash"], "hangs": len(hangs),
               "distinct_crashes": len(crashes),
               "slowest_case": {"case": slowest[2], "seconds": round(slowest[0], 2)},
               "slowest_validation": {"case": slowest_check[2],
                                      "seconds": round(slowest_check[0], 2)},
               "peak_memory_mb": {"case": peak[2], "mb": round(peak[0])},
               "validated_then_failed": failed_in_play,
               "validated_then_type_error": {
                   "mutants": play_kinds["type"],
                   "of_valid": counts["valid"],
                   "of_failed_in_play": failed_in_play,
                   "other_play_errors": play_kinds["other"],
                   "unclassified_play_errors": play_kinds["unclassified"],
                   "forms": {label: {"mutants": n, "case": play_case["form", label]}
                             for label, n in _ranked(type_forms)},
                   "messages": [{"message": message, "mutants": n,
                                 "case": play_case["message", message]}
                                for message, n in _ranked(type_messages)],
                   "other": {label: {"mutants": n, "case": play_case["other", label]}
                             for label, n in _ranked(other_forms)},
                   "cases": sorted(c["case"] for c in type_cases),
                   "inputs": sorted(type_cases, key=lambda c: int(c["case"]))}}
    if listed is not None:
        summary["recheck"] = {"file": str(args.recheck), "cases": len(listed),
                              "made_otherwise_now": changed,
                              "rejected_by_validate": total - counts["valid"],
                              "still_valid": counts["valid"],
                              "still_a_type_error_in_play": play_kinds["type"]}
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        print(f"{total} {args.kind} cases, seed {args.seed}, {elapsed:.1f} s, {args.jobs} job(s)")
        print(f"  valid            {counts['valid']:6}  games: " + ", ".join(
            f"{n} {k}" for k, n in sorted(games.items())))
        print(f"  located errors   {counts['located']:6}")
        print(f"  whole-file errors{counts['file error']:6}  (size, kind of file, encoding: "
              "no line to give)")
        print(f"  path-only errors {counts['path only']:6}")
        print(f"  unlocated errors {counts['unlocated']:6}")
        print(f"  crashes          {counts['crash']:6}  ({len(crashes)} distinct)")
        print(f"  hangs            {len(hangs):6}  {', '.join(hangs[:5])}")
        print(f"  slowest case     {slowest[2]} ({slowest[0]:.2f} s, games included)")
        print(f"  slowest validate {slowest_check[2]} ({slowest_check[0]:.2f} s)")
        print(f"  peak memory      {peak[0]:.0f} MB (a worker's largest resident size; "
              f"first reached by {peak[2]})")
        print(f"  validated, then failed in play     {failed_in_play:6}  (mutants: "
              f"{play_kinds['type']} type errors, {play_kinds['other']} others, "
              f"{play_kinds['unclassified']} unclassified)")
        share = f" ({play_kinds['type'] / counts['valid']:.1%} of the valid)" if counts["valid"] else ""
        print(f"  validated, then a type error in play {play_kinds['type']:4}{share}")
        if listed is not None:
            rejected = total - counts["valid"]
            print(f"\nOf the {len(listed)} cases of {args.recheck} that validated, then failed "
                  f"in play with a type error (its mutants; {changed} of them this code "
                  f"would make otherwise): {rejected} now rejected by validate"
                  + (f" ({rejected / len(listed):.1%})" if listed else "")
                  + f", {counts['valid']} still valid ({play_kinds['type']} of them still a "
                  "type error in play)")
        if type_forms:
            print("\nType errors in play of validated mutants, by form (mutants, smallest case):")
            for label, n in _ranked(type_forms):
                print(f"  {n:5}  {label}  e.g. --case {play_case['form', label]}")
            print("\nTheir messages, most frequent first (at most 20):")
            for message, n in _ranked(type_messages)[:20]:
                shown = _shorten(message, 110)
                print(f"  {n:5}  {shown}  e.g. --case {play_case['message', message]}")
        if other_forms:
            print("\nOther errors in play of validated mutants (not type errors):")
            for label, n in _ranked(other_forms):
                shown = _shorten(label, 110)
                print(f"  {n:5}  {shown}  e.g. --case {play_case['other', label]}")
    if unlocated:
        print("\nErrors without a line (kind, code, message), unlocated first, then most frequent:")
        ranked = sorted(unlocated.items(), key=lambda kv: (kv[0][0] == "path only", -kv[1]))
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
            if args.save and smallest["text"]:
                args.save.mkdir(parents=True, exist_ok=True)
                suffix = Path(smallest["seed_file"]).suffix
                (args.save / f"crash{n}{suffix}").write_text(smallest["text"], encoding="utf-8")
    if tracebacks:
        print("\nFirst tracebacks:")
        for tb in tracebacks:
            print(tb)
    return 1 if crashes or hangs or counts["unlocated"] or games["unlocated error"] else 0


def recheck_cases(path: Path, kind: str,
                  seed: int) -> dict[int, tuple[str, str, list[str]]]:
    """The mutants that were "validated, then a type error in play" in ``path`` (an
    earlier ``--json`` output), by case: (file name, text, edits).
    :raises SystemExit: it is not one, or of another kind or seed."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        inputs = data["validated_then_type_error"]["inputs"]
        if (data["kind"], data["seed"]) != (kind, seed):
            raise SystemExit(f"{path}: cases of --kind {data['kind']} --seed {data['seed']}; "
                             f"run with those")
        return {int(c["case"]): (str(c["file"]), str(c["text"]), list(c["edits"]))
                for c in inputs}
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise SystemExit(f"{path}: not a --json output of this benchmark with its cases "
                         f"({exc})") from None


def _shorten(message: str, limit: int = 300) -> str:
    """``message`` within ``limit`` characters: its start and its end (where a long
    list shown in it ends and the words after it begin), ``...`` between."""
    if len(message) <= limit:
        return message
    tail = limit // 3
    return message[:limit - tail - 5] + " ... " + message[-tail:]


def _ranked(counter: collections.Counter[str]) -> list[tuple[str, int]]:
    """The counts, most frequent first, ties in alphabetical order (deterministic)."""
    return sorted(counter.items(), key=lambda kv: (-kv[1], kv[0]))


if __name__ == "__main__":
    sys.exit(main())
