"""Checking ruleset files: every problem as a located diagnostic.

:func:`check_path` runs every layer (syntax, schema, semantics, and warnings
such as unused definitions) and returns diagnostics instead of raising, so
``rulepack validate`` can report all the files it is given.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any, Callable

from rulepack.errors import Diagnostic, Location, RulepackError
from rulepack.ir import calls_in, names_in, nodes


def check_path(name_or_path: str | Path) -> list[Diagnostic]:
    """All diagnostics (errors and warnings) for one ruleset file or bundled name.

    Never raises for bad input: problems come back as diagnostics with
    severity ``"error"``; an empty list means the ruleset is valid.
    """
    from rulepack.loader import read_ir, resolve
    display = str(name_or_path)
    try:
        path = resolve(name_or_path)
        if not Path(display).exists():
            display = str(path)
        return _check(lambda: read_ir(path, display, library=True), display)
    except RulepackError as exc:
        return [d.with_source() for d in exc.diagnostics]


def check_text(text: str, display: str, suffix: str = ".rules") -> list[Diagnostic]:
    """:func:`check_path` of a ruleset's text rather than its file (an editor's
    buffer): the same diagnostics, each located in ``display``.

    :param suffix: how the text is read: ``.rules``, ``.yaml`` or ``.json``.
    """
    from rulepack.loader import ir_from_text
    lines = text.splitlines()
    found = _check(lambda: ir_from_text(text, display, suffix, library=True), display)
    out = []
    for d in found:
        line = d.location.line
        if d.source_line is None and line is not None and 0 < line <= len(lines):
            d = replace(d, source_line=lines[line - 1])
        out.append(d)
    return out


def inferred_types(text: str, display: str, suffix: str = ".rules",
                   players: int | None = None) -> list[Any]:
    """What the type check infers of a ruleset's text (an editor's buffer, a file's
    text): the kind of each name, attribute, call and element read, and each
    variable's and define's, as :class:`rulepack.compiler.kinds.Inferred` in the
    order of the file — also for a ruleset the check refuses (it shows what the
    check saw).

    :param players: the player count compiled (default: the smallest).
    :raises RulepackError: the text does not parse or compile (but for the type
        check); bad player count.
    """
    from rulepack.compiler.instance import Instance
    from rulepack.compiler.kinds import inferred_kinds
    from rulepack.loader import game_from_ir, ir_from_text
    game = game_from_ir(ir_from_text(text, display, suffix, library=True), display,
                        check=False)
    count = game.min_players if players is None else players
    if not game.min_players <= count <= game.max_players:
        game.instance(count, {})        # (raises the usual error)
    inst = Instance(game.ir, count, game.parse_options({}), game.file, kinds=False)
    return inferred_kinds(inst)


def _check(read: Callable[[], dict[str, Any]], display: str) -> list[Diagnostic]:
    from rulepack.loader import game_from_ir
    try:
        ir = read()
        if ir.get("game") is None and not (ir.get("setup") or ir.get("play") or ir.get("phases")) \
                and (ir.get("components") or ir.get("constants") or ir.get("patterns")):
            # a library (like lib/piecepack.rules): check it by compiling a game that uses it all
            probe = dict(ir)
            probe["game"] = {"name": "library", "title": "library", "source": None,
                             "players": [1, 1], "seats": None}
            game_from_ir(probe, display, check=True)
            return warnings(ir, None, display)
        game = game_from_ir(ir, display, check=True)
        # a dry run: set the game up to its first decision and compute the scores,
        # so mistakes that show only when a game starts are found now (on the
        # reference backend, the closures: the same values and errors as the
        # generated code, which would cost this check about 40% more to generate)
        state = game.new_game(game.min_players, seed=0, generate=False)
        state.scores()
    except RulepackError as exc:
        return [d.with_source() for d in exc.diagnostics]
    except RecursionError:
        return [Diagnostic("the ruleset is nested too deeply", Location(display), code="too-deep")]
    except MemoryError:
        return [Diagnostic("rulepack ran out of memory checking this ruleset: it builds values "
                           "too large to hold", Location(display), code="out-of-memory")]
    except Exception as exc:  # noqa: BLE001 - the last guard: never a traceback for a user
        return [Diagnostic(f"rulepack could not check this ruleset ({type(exc).__name__}); "
                           "this is a bug in rulepack, please report it with the file",
                           Location(display), code="internal")]
    return warnings(game.ir, game, display)


def warnings(ir: dict[str, Any], game: Any, file: str) -> list[Diagnostic]:
    """Warnings about a valid ruleset: values that may fail in play (a number
    taken as a seat: :mod:`rulepack.compiler.kinds`); patterns, variables and defines never used;
    a score that decides nothing (no ``winner`` rule, no ``end game winners``). (A
    ``where`` that finds one grid cell by its row and column is no longer warned
    about: it compiles to a lookup, see :mod:`rulepack.compiler.lookup`.)"""
    out: list[Diagnostic] = []
    if game is not None:       # the type check's, for the smallest player count
        out += game.instance(game.min_players).kind_warnings
    used = _names_used(ir)
    for p in ir.get("patterns", []):
        if p["name"] not in used:
            out.append(_warn(f"pattern {p['name']!r} is never used", p, file, "unused-pattern"))
    for v in ir.get("variables", []):
        if v["name"] not in used:
            out.append(_warn(f"variable {v['name']!r} is never used", v, file, "unused-variable"))
    calls = calls_in(ir)
    for d in ir.get("defines", []):
        if d["name"] not in calls:
            out.append(_warn(f"define {d['name']!r} is never used", d, file, "unused-define"))
    score = ir.get("score")
    if score is not None and ir.get("winner") is None and not any(
            n.get("k") == "end" and n.get("winners") is not None for n in nodes(ir)):
        out.append(_warn("the ruleset has a score but no winner rule, so every game is a draw "
                         "(add 'winner highest score' or 'winner lowest score', or say who wins "
                         "with 'end game winners ...')", score, file, "score-without-winner"))
    return out


def _warn(message: str, node: dict[str, Any], file: str, code: str) -> Diagnostic:
    at = node.get("at") or [None, None]
    return Diagnostic(message, Location(file, at[0] or None, at[1] or None), "warning", code)


def _names_used(ir: dict[str, Any]) -> set[str]:
    """Names read, variables set, and patterns named in unions."""
    found = names_in(ir)
    for node in nodes(ir):
        if node.get("k") in ("set", "reset"):
            found.add(node["name"])
        if isinstance(node.get("any"), list):
            found.update(n for n in node["any"] if isinstance(n, str))
    return found
