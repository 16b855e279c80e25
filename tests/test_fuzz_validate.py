"""Fuzzing ``check_path``: no mutated ruleset may crash or hang the validator.

The seeds are the bundled rulesets (``rulepack/rulesets/*.rules`` and
``lib/*.rules``) and the YAML IR of Multzo (``rulepack compile multzo --format
yaml``). Each example applies one to three small edits a designer could make by
accident — delete, duplicate or swap tokens or lines, replace a token by another
token of the file or by a built-in name or call, insert a keyword, truncate — and
validates the result. The outcome must be either valid or error diagnostics that
each carry a file and a message; no exception may escape :func:`rulepack.validation.check_path`, and no
example may take more than :data:`TIME_LIMIT` seconds; the IR of a mutated text
that the loader does not schema-check (it is within the limits of
``validate_parsed``) must match the schema. A mutated ruleset that is
still valid is played with two players for up to :data:`PLAY_ACTIONS` random
actions, where only :class:`~rulepack.errors.RulepackError` may be raised.

The mutation functions are plain code driven by a :class:`Chooser`, so
``benchmarks/fuzz_validate.py`` runs the same loop with a seeded ``random.Random``.
"""

from __future__ import annotations

import random
import re
import signal
import threading
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterator, Protocol

import pytest
from hypothesis import HealthCheck, Phase, event, given, note, settings
from hypothesis import strategies as st

import rulepack
from rulepack.errors import RulepackError
from rulepack.validation import check_path

PACKAGE = Path(rulepack.__file__).parent
#: Seconds one example (validation and play) may take before it counts as a hang:
#: a guard against loops without end, far above the few seconds the validator's
#: own limits allow (the flow step limit, the pattern search budgets).
TIME_LIMIT = 30
#: Random actions played on a mutated ruleset that is still valid.
PLAY_ACTIONS = 200
#: Mutants per run (fixed: derandomized); benchmarks/fuzz_validate.py explores widely.
EXAMPLES = 120
#: The code of the diagnostic ``check_path`` gives when rulepack itself failed.
INTERNAL = "internal"

TOKEN = re.compile(r'"(?:[^"\\\n]|\\.)*"?|#[^\n]*|[A-Za-z_][A-Za-z0-9_]*|[0-9]+'
                   r'|\.\.|==|!=|<=|>=|//|\s+|.', re.S)


# ---------------------------------------------------------------------- seeds
@lru_cache(maxsize=1)
def keywords() -> tuple[str, ...]:
    """Every keyword of the grammar (the quoted words of rulepack.lark)."""
    grammar = (PACKAGE / "grammar" / "rulepack.lark").read_text(encoding="utf-8")
    return tuple(sorted(set(re.findall(r'"([a-z_]+)"', grammar))))


@lru_cache(maxsize=1)
def builtins() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The language's built-in names and functions."""
    try:
        from rulepack.compiler.expressions import BUILTIN_FUNCTIONS, BUILTIN_NAMES
        return tuple(sorted(BUILTIN_NAMES)), tuple(sorted(BUILTIN_FUNCTIONS))
    except ImportError:  # pragma: no cover - if they move, keep fuzzing with the documented ones
        return (("players", "active", "others", "current", "next", "round", "box"),
                ("count", "sum", "max", "min", "random", "order", "after", "score", "cells"))


def multzo_yaml() -> str:
    """The YAML IR of Multzo, as ``rulepack compile multzo --format yaml`` prints it."""
    from click.testing import CliRunner

    from rulepack.cli.main import main
    result = CliRunner().invoke(main, ["compile", "multzo", "--format", "yaml"])
    assert result.exit_code == 0, result.output
    return result.stdout


@lru_cache(maxsize=1)
def seeds() -> tuple[tuple[str, str], ...]:
    """(file name, text) of every seed ruleset."""
    out = [(p.name, p.read_text(encoding="utf-8"))
           for p in sorted(PACKAGE.glob("rulesets/*.rules")) + sorted(PACKAGE.glob("rulesets/lib/*.rules"))]
    out.append(("multzo.yaml", multzo_yaml()))
    return tuple(out)


# ---------------------------------------------------------------------- mutations
class Chooser(Protocol):
    def below(self, n: int) -> int:
        """A whole number from 0 to n - 1 (n >= 1)."""


class RandomChooser:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def below(self, n: int) -> int:
        return self.rng.randrange(n)


class DataChooser:
    """Draws from Hypothesis, so failing examples shrink."""

    def __init__(self, data: Any) -> None:
        self.data = data

    def below(self, n: int) -> int:
        return self.data.draw(st.integers(0, n - 1))


def tokens(text: str) -> list[str]:
    return TOKEN.findall(text)


def _solid(toks: list[str]) -> list[int]:
    """Indexes of the tokens that are not whitespace."""
    return [i for i, t in enumerate(toks) if not t.isspace()]


def _token_edit(text: str, kind: str, choose: Chooser) -> tuple[str, str]:
    toks = tokens(text)
    solid = _solid(toks)
    if not solid:
        return text, f"{kind}: nothing to edit"
    i = solid[choose.below(len(solid))]
    if kind == "delete token":
        what = toks[i]
        toks[i] = ""
        return "".join(toks), f"delete token {what!r} (token {i})"
    if kind == "duplicate token":
        toks[i] = toks[i] + " " + toks[i]
        return "".join(toks), f"duplicate token {toks[i]!r} (token {i})"
    if kind == "swap tokens":
        j = solid[choose.below(len(solid))]
        toks[i], toks[j] = toks[j], toks[i]
        return "".join(toks), f"swap tokens {toks[j]!r} and {toks[i]!r} ({i}, {j})"
    if kind == "replace token":
        j = solid[choose.below(len(solid))]
        old, toks[i] = toks[i], toks[j]
        return "".join(toks), f"replace token {old!r} (token {i}) by {toks[j]!r}"
    if kind == "replace by built-in":
        names, functions = builtins()
        old = toks[i]
        if choose.below(2):
            toks[i] = names[choose.below(len(names))]
        else:
            arg = toks[solid[choose.below(len(solid))]]
            toks[i] = f"{functions[choose.below(len(functions))]}({arg})"
        return "".join(toks), f"replace token {old!r} (token {i}) by {toks[i]!r}"
    if kind == "insert keyword":
        words = keywords()
        word = words[choose.below(len(words))]
        toks[i] = f"{word} {toks[i]}"
        return "".join(toks), f"insert keyword {word!r} before token {i}"
    raise AssertionError(kind)


def _line_edit(text: str, kind: str, choose: Chooser) -> tuple[str, str]:
    lines = text.splitlines(keepends=True)
    if not lines:
        return text, f"{kind}: no lines"
    i = choose.below(len(lines))
    if kind == "delete line":
        del lines[i]
        return "".join(lines), f"delete line {i + 1}"
    if kind == "duplicate line":
        lines.insert(i, lines[i] if lines[i].endswith("\n") else lines[i] + "\n")
        return "".join(lines), f"duplicate line {i + 1}"
    if kind == "swap lines":
        j = choose.below(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
        if not lines[-1].endswith("\n") and any(not x.endswith("\n") for x in lines[:-1]):
            lines = [x if x.endswith("\n") else x + "\n" for x in lines]
        return "".join(lines), f"swap lines {i + 1} and {j + 1}"
    raise AssertionError(kind)


MUTATIONS = ("delete token", "duplicate token", "swap tokens", "replace token", "insert keyword",
             "replace by built-in", "delete line", "duplicate line", "swap lines", "truncate")


def mutate_once(text: str, choose: Chooser) -> tuple[str, str]:
    kind = MUTATIONS[choose.below(len(MUTATIONS))]
    if kind.endswith("line") or kind.endswith("lines"):
        return _line_edit(text, kind, choose)
    if kind == "truncate":
        at = choose.below(len(text) + 1)
        return text[:at], f"truncate at character {at}"
    return _token_edit(text, kind, choose)


def mutate(choose: Chooser,
           pool: tuple[tuple[str, str], ...] | None = None) -> tuple[str, str, list[str]]:
    """A seed chosen by ``choose`` (from ``pool``, default :func:`seeds`) with one to
    three mutations: (file name, text, edits)."""
    all_seeds = seeds() if pool is None else pool
    name, text = all_seeds[choose.below(len(all_seeds))]
    edits = []
    for _ in range(1 + choose.below(3)):
        text, what = mutate_once(text, choose)
        edits.append(what)
    return name, text, edits


# ---------------------------------------------------------------------- checking
class Hang(BaseException):
    """An example ran longer than the time limit. A ``BaseException``, so that the
    last guard of ``check_path`` (``except Exception``) cannot mistake it for a bug
    of rulepack's own and turn it into an ``internal`` diagnostic."""


@contextmanager
def time_limit(seconds: int) -> Iterator[None]:
    """Raise :class:`Hang` in the main thread after ``seconds`` (no-op elsewhere)."""
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "SIGALRM"):
        yield
        return

    def on_alarm(signum: int, frame: Any) -> None:
        raise Hang(f"more than {seconds} s")

    previous = signal.signal(signal.SIGALRM, on_alarm)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def reproduce_internal_error(path: Path) -> None:
    """Run the steps of ``check_path`` without its last guard, so that the
    exception behind an ``internal`` diagnostic escapes with its traceback."""
    try:
        game = rulepack.load(path)
        game.new_game(game.min_players, seed=0).scores()
    except RulepackError:
        pass
    if path.suffix == ".rules":
        # a library (no game, no flow) is checked inside a game that uses it: append
        # one, which keeps the line numbers
        probe = path.with_name(f"probe-{path.name}")
        probe.write_text(path.read_text(encoding="utf-8") + "\ngame probe {\n  players 1\n}\n",
                         encoding="utf-8")
        try:
            rulepack.load(probe)
        except RulepackError:
            pass


@contextmanager
def schema_checks_skipped() -> Iterator[list[str]]:
    """Collect, while validating, the IR of every text that was let through without
    the schema check (``validate_parsed``: within the limits) and that the schema
    refuses: such IR must never be found."""
    import rulepack.loader as loader
    from rulepack.errors import SchemaError
    from rulepack.schemas.validate import may_break_limits, validate_ir
    found: list[str] = []
    original = loader.validate_parsed

    def checked(ir: Any, file: str = "<string>") -> None:
        if not may_break_limits(ir):
            try:
                validate_ir(ir, file)
            except SchemaError as exc:
                found.append(str(exc))
        original(ir, file)
    loader.validate_parsed = checked
    try:
        yield found
    finally:
        loader.validate_parsed = original


def check_outcome(path: Path) -> tuple[str, list[Any]]:
    """Validate ``path``: (outcome, diagnostics). The outcome is "valid", "located"
    (every error has a line), "path only" (some have only a JSON path into an IR
    file) or "unlocated" (some have neither).

    Raises whatever ``check_path`` lets escape, or the exception behind an
    ``internal`` diagnostic (a bug in rulepack caught by its last guard);
    asserts that every error carries a file and a message, and that the IR of a
    text that skipped the schema check matches the schema.
    """
    with schema_checks_skipped() as skipped_but_refused:
        diagnostics = check_path(path)
    assert not skipped_but_refused, f"the schema check was skipped: {skipped_but_refused}"
    if any(d.code == INTERNAL for d in diagnostics):
        reproduce_internal_error(path)
        raise AssertionError(f"check_path reported an internal error: {diagnostics}")
    return classify(diagnostics), diagnostics


def classify(diagnostics: list[Any]) -> str:
    """The outcome of a validation (see :func:`check_outcome`); asserts that every
    diagnostic carries a file and a message."""
    assert isinstance(diagnostics, list)
    errors = [d for d in diagnostics if d.severity == "error"]
    for d in diagnostics:
        assert d.severity in ("error", "warning"), d
        assert isinstance(d.message, str) and d.message.strip(), f"an empty message: {d!r}"
        assert d.location.file, f"a diagnostic without a file: {d!r}"
        assert "Traceback" not in d.message
    if not errors:
        return "valid"
    if all(d.location.line is not None for d in errors):
        return "located"
    if all(d.location.line is not None or d.location.path for d in errors):
        return "path only"
    return "unlocated"


def play(path: Path, seed: int, actions: int = PLAY_ACTIONS) -> int:
    """Load the ruleset and play it with random legal actions. Only
    :class:`RulepackError` may be raised (and is swallowed). Returns actions played."""
    try:
        game = rulepack.load(path)
        players = min(max(2, game.min_players), game.max_players)
        state = game.new_game(players=players, seed=seed)
        rng = random.Random(seed)
        for n in range(actions):
            if state.is_terminal():
                return n
            legal = state.legal_actions()
            if not legal:
                return n
            state.apply(legal[rng.randrange(len(legal))])
            state.view(rng.randrange(players))
        return actions
    except RulepackError:
        return -1


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    seeds()  # compile the YAML seed outside the timed examples
    return tmp_path_factory.mktemp("fuzz")


# Derandomized, so that CI gives the same answer for the same commit (wider, random
# exploration: benchmarks/fuzz_validate.py); no shrinking, since the edits are
# already small and a failing example may take the whole time limit at each try.
@settings(max_examples=EXAMPLES, deadline=None, database=None, derandomize=True,
          phases=[Phase.explicit, Phase.reuse, Phase.generate],
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                 HealthCheck.function_scoped_fixture])
@given(data=st.data(), seed=st.integers(0, 2**32 - 1))
def test_mutated_rulesets_never_crash_the_validator(workdir: Path, data: Any, seed: int) -> None:
    name, text, edits = mutate(DataChooser(data))
    path = workdir / name
    path.write_text(text, encoding="utf-8")
    note(f"{name} after {edits}:\n{text}")
    try:
        with time_limit(TIME_LIMIT):
            outcome, _ = check_outcome(path)
            event(outcome)
            if outcome == "valid":
                played = play(path, seed)
                event("played" if played >= 0 else "runtime error while playing")
    except Hang:
        raise AssertionError(f"{name} after {edits}: validating and playing took more than "
                             f"{TIME_LIMIT} s") from None


def test_the_seeds_are_valid_and_playable(workdir: Path) -> None:
    for name, text in seeds():
        path = workdir / name
        path.write_text(text, encoding="utf-8")
        outcome, diagnostics = check_outcome(path)
        assert outcome == "valid", (name, [d.format() for d in diagnostics])
        if not name.startswith("piecepack"):  # a library has no flow to play
            assert play(path, 1) >= 0, name


def test_the_mutations_change_the_text() -> None:
    rng = RandomChooser(random.Random(7))
    changed = sum(mutate(rng)[1] not in dict(seeds()).values() for _ in range(50))
    assert changed >= 45


# ---------------------------------------------------------------------- type errors in play
# benchmarks/fuzz_validate.py counts the mutants that validate accepts and that then
# fail in play with a type error, by the message forms it keeps (TYPE_ERROR_FORMS);
# the classification is tested here, on the engine's own messages where the engine
# can raise them without a game.
BENCHMARK = Path(__file__).resolve().parent.parent / "benchmarks" / "fuzz_validate.py"


@pytest.fixture(scope="module")
def bench() -> Any:
    import importlib.util
    spec = importlib.util.spec_from_file_location("fuzz_validate_benchmark", BENCHMARK)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


#: One message of each type-error form, as the engine words it (the values vary).
TYPE_ERROR_EXAMPLES = {
    "cannot add": "cannot add 1 and 2 of suns",
    "cannot compute": "cannot compute 'x' - 1",
    "() cannot compare the values": "max() cannot compare the values [1, 'a'] (mixed numbers "
                                    "and names? compare by an attribute's order with 'by', "
                                    "or use a numeric attribute)",
    "cannot compare": "cannot compare [1, 2] < 3",
    "needs a number": "'-' needs a number, not player 1",
    "must be a number": "a score must be a number, not 'none'",
    "sum() of something that is not a number": "sum() of something that is not a number: red 4",
    "a range needs whole numbers": "a range needs whole numbers, not 1..'x'",
    "a cell's row and column are whole numbers": "a cell's row and column are whole numbers, "
                                                 "not none",
    "cannot take N pieces (N not a number)": "cannot take 'all' pieces",
    "must start from a player": "turns must start from a player, not 2",
    "is not a player": "'everyone' is not a player",
    "needs a player": "a decision needs a player to make it, not 0",
    "not a team": "points[player 1]: a player is not a team; write points[team(p)] for the "
                  "entry of the team of a player p",
    "say ... to needs players": "say ... to needs players, not 4 of crowns",
    "a team lists players": "a team lists players, not 'x'",
    "needs a cell": "at() needs a cell, not 4 of crowns",
    "a cell is needed here": "a cell is needed here, not 3",
    "a line of cells is needed here": "a line of cells is needed here, not 3",
    "is not a grid": "hand[1] is not a grid",
    "a direction is written (row step, column step)": "a direction is written (row step, "
                                                      "column step), not 1",
    "a grid hole is written (row, column)": "a grid hole is written (row, column), not 3",
    "is not a pattern": "'set' is not a pattern",
    "a pattern applies to pieces": "a pattern applies to pieces, not 3",
    "needs a piece": "knows() needs a piece, not b2",
    "only pieces can be moved/flipped/claimed": "only pieces can be flipped, not 'down'",
    "cannot roll (not a die)": "cannot roll 3 of suns: its component has no 'rolls'",
    "only a zone can be shuffled": "only a zone can be shuffled, not 3",
    "only a 'groups' zone can be arranged": "only a 'groups' zone can be arranged, not hand[1]",
    "not a zone or a cell": "cannot move pieces to 0: not a zone or a cell",
    "has no attribute": "player 1 has no attribute 'suit'",
    "'in' needs a list, a zone or a map": "'in' needs a list, a zone or a map on its right, not 3",
    "cannot look for X in Y": "cannot look for [1] in {1: 2}",
    "random() picks an element of a collection": "random() picks an element of a collection, "
                                                 "not of the number 6 (a die roll is "
                                                 "random(1..6))",
    "cannot unpack": "cannot unpack 3 into (a, b)",
    "zone X has no [K]": "zone hand has no [5]",
    "no element [K] in V: K or V of the wrong kind": "no element [[player 1, player 2]] in "
                                                      "[[(pattern set, 'suns', 1)]]",
    "cannot be used here": "this rule cannot be carried out: a player (player 1) cannot be "
                           "used here",
    "a value of the wrong kind reached it": "this rule cannot be carried out: a value of the "
                                            "wrong kind reached it",
    "a list or a map cannot be a key": "this rule cannot be carried out: a list or a map "
                                       "cannot be a key of a map or an item of a set",
}

#: Errors that only play can know, or limits: not type errors (label of OTHER_ERROR_FORMS).
OTHER_ERROR_EXAMPLES = {
    "division by zero": "this rule cannot be carried out: division by zero",
    "no element (index out of range)": "no element [player 2] in played",
    "cannot take N pieces (N negative)": "cannot take -1 pieces",
    "random() of an empty list": "random() of an empty list",
    "has no legal action": "player 1 has no legal action here",
    "the game did not end within N decisions": "the game did not end within 3000 decisions "
                                               "(if the game is simply long, raise the limit)",
    "steps without a decision": "the flow ran 100000 steps without a decision, going round "
                                "this loop (does it never end?)",
    "over the budget / the limit": "pattern 'meld' examined more than 50000 groups",
    "is not empty / is full": "cell b2 is not empty",
    "is not on a grid": "4 of crowns is not on a grid",
}
#: More messages of both kinds, where the values decide the kind.
MORE_EXAMPLES = [
    ("type", "no element [K] in V: K or V of the wrong kind", "no element [1] in 7"),
    ("type", "no element [K] in V: K or V of the wrong kind", "no element ['x'] in hand[1]"),
    ("type", "is not a player", "points[none]: not a player"),
    ("type", "is not a player", "score() of 'x', which is not a player"),
    ("type", "needs a player", "team() needs a player, not 'x'"),
    ("type", "not a team", "points[5]: not a team (the teams are numbered 0 to 1; team(p) "
                           "gives a player's)"),
    ("type", "has no attribute", "a cell has no attribute 'owner' (it has row and col)"),
    ("type", "cannot roll (not a die)", "cannot roll 3: only dice (pieces whose component "
                                        "'rolls') roll"),
    ("type", "only a zone can be shuffled", "pool is a pile, which keeps no order to shuffle "
                                            "(make it a stack or a row)"),
    ("other", "no element (index out of range)", "no element [5] in [1, 2]"),
    ("other", "no element (index out of range)", "no element ['x'] in {'y': 1}"),
    ("other", "cannot take N pieces (N negative)", "cannot take -2 pieces"),
    ("other", "over the budget / the limit", "a range of 2,000,000 numbers: more than the "
                                             "limit of 1,000,000"),
    ("other", "a number too large", "this rule cannot be carried out: a number too large"),
]


def test_every_type_error_form_is_recognised(bench: Any) -> None:
    labels = [label for label, _ in bench.TYPE_ERROR_FORMS]
    assert len(labels) == len(set(labels))
    assert set(TYPE_ERROR_EXAMPLES) == set(labels), "a form without an example, or the reverse"
    for label, message in TYPE_ERROR_EXAMPLES.items():
        assert bench.error_form(message) == ("type", label), message
        # as the initial value of a variable or the score wraps it
        wrapped = f"the initial value of 'x' cannot be computed: {message}"
        assert bench.type_error_form(wrapped) == label, wrapped


def test_errors_only_play_can_know_are_not_type_errors(bench: Any) -> None:
    for label, message in OTHER_ERROR_EXAMPLES.items():
        assert bench.type_error_form(message) is None, message
        assert bench.error_form(message) == ("other", label), message
    for kind, label, message in MORE_EXAMPLES:
        assert bench.error_form(message) == (kind, label), message
    odd = "something no engine says"
    assert bench.error_form(odd) == ("unclassified", odd)


def test_the_engine_s_own_messages_are_classified(bench: Any) -> None:
    """The messages the engine raises for values of the wrong kind (and for values
    only play can know), raised here without a game: what the forms must match."""
    from rulepack.engine import ops
    from rulepack.engine.runtime import RuleValueError, attribute

    def message(call: Any) -> str:
        with pytest.raises(RuleValueError) as caught:
            call()
        return str(caught.value)

    type_errors = [
        lambda: ops.plus(None, 1, "x"), lambda: ops.minus("x", 1), lambda: ops.lt([1], 2),
        lambda: ops.number("x", "abs()"), lambda: ops.direction(1),
        lambda: ops.make_range(1, "x"), lambda: ops.pattern([], 3),
        lambda: ops.random_element(None, 4), lambda: ops.at(None, 4),
        lambda: ops.as_cell(None, 4), lambda: ops.unpack(3, 2, "a, b"),
        lambda: ops.index(None, 4, 1), lambda: ops.top(None, [1, 2], "x", True),
        lambda: attribute(None, 4, "suit"), lambda: ops.extreme(max, [1, "a"]),
    ]
    for call in type_errors:
        text = message(call)
        assert bench.type_error_form(text) is not None, text
    others = [lambda: ops.divide(1, 0), lambda: ops.index(None, [1], 5),
              lambda: ops.top(None, [1, 2], -1, True)]
    for call in others:
        text = message(call)
        assert bench.error_form(text)[0] == "other", text
