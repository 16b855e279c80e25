"""Where the rules are: each decision point's alternatives and each phase, located,
with the decision points inside each phase — what rule coverage counts against.

Phases are inlined by the compiler, so the engine does not say when one runs;
the analysis sees decisions, and reads the rest from the IR. A statement is
*conditional* inside a block when it sits in an ``if``, a ``while`` or an
action's body (which runs only when that action is taken); loops over
collections, ``turns`` and ``rounds`` count as running. A phase counts as
*reached* in a game when

- a decision of a ``choose`` inside it (or inside a phase it does) was taken; or
- none of its own ``choose``s is unconditional (it may run without deciding
  anything), and a phase that does it unconditionally was reached (the ``play``
  block always is), or an action whose body does it unconditionally was chosen.

So a phase whose every ``do`` is conditional and that decides nothing for sure
(no ``choose``, or only conditional ones) is counted only when it decides
something: its count is a lower bound.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

#: The caller name of the top-level ``play`` block.
PLAY = "play"


#: Statements whose bodies may not run when they do (see the module's docstring).
CONDITIONAL = ("if", "while", "action")


def _nodes(node: Any, kinds: tuple[str, ...],
           conditional: bool = False) -> Iterator[tuple[dict[str, Any], bool]]:
    """Every statement of ``kinds`` (``"k"`` values) inside an IR node, depth first,
    each with whether it is conditional there."""
    if isinstance(node, dict):
        if node.get("k") in kinds:
            yield node, conditional
        inner = conditional or node.get("k") in CONDITIONAL
        for value in node.values():
            yield from _nodes(value, kinds, inner)
    elif isinstance(node, list):
        for value in node:
            yield from _nodes(value, kinds, conditional)


def where(file: str, at: Sequence[int] | None) -> str:
    """``FILE:LINE`` of a source position (``FILE`` alone without one)."""
    return f"{file}:{at[0]}" if at and at[0] else file


def rule_map(inst: Any) -> dict[str, Any]:
    """The alternatives and phases of a compiled instance.

    :returns: ``{"alternatives": [...], "phases": [...]}``; each alternative
        ``{"choice", "alt", "text", "at"}`` (``at`` ``FILE:LINE``), in flat order
        (see :func:`rulepack.analysis.trace.alternative_offsets`); each phase
        ``{"name", "at", "choices", "sure", "callers"}`` with ``choices`` the
        decision points inside it or the phases it does (indices into
        ``inst.choices``), ``sure`` whether one of its own ``choose``s is
        unconditional, ``callers`` the phases, or ``"play"``, that do it
        unconditionally, and ``actions`` the alternatives (flat indices) whose
        bodies do it unconditionally.
    """
    file = inst.file
    alternatives = [{"choice": c.index, "alt": a.index, "text": a.text, "at": where(file, a.at)}
                    for c in inst.choices for a in c.alternatives]
    choices_at: dict[tuple[int, ...], list[int]] = {}
    for c in inst.choices:
        choices_at.setdefault(tuple(c.at or ()), []).append(c.index)
    phases = list(inst.ir.get("phases", []))
    own: dict[str, set[int]] = {}
    sure: dict[str, bool] = {}
    calls: dict[str, set[str]] = {p["name"]: set() for p in phases}
    callers: dict[str, list[str]] = {p["name"]: [] for p in phases}

    def add_caller(phase: str, caller: str) -> None:
        if phase in callers and caller not in callers[phase]:
            callers[phase].append(caller)

    alts_at: dict[tuple[int, ...], list[int]] = {}
    flat = 0
    for c in inst.choices:
        for a in c.alternatives:
            alts_at.setdefault(tuple(a.at or ()), []).append(flat)
            flat += 1
    by_actions: dict[str, set[int]] = {p["name"]: set() for p in phases}

    def actions_doing(body: Any) -> None:
        for action, _ in _nodes(body, ("action",)):
            for node, cond in _nodes(action.get("body", []), ("do",)):
                if not cond and node["phase"] in by_actions:
                    by_actions[node["phase"]].update(alts_at.get(tuple(action.get("at") or ()), []))

    for p in phases:
        chooses = list(_nodes(p["body"], ("choose",)))
        own[p["name"]] = {i for node, _ in chooses
                          for i in choices_at.get(tuple(node.get("at") or ()), [])}
        sure[p["name"]] = any(not cond for _, cond in chooses)
        for node, cond in _nodes(p["body"], ("do",)):
            calls[p["name"]].add(node["phase"])
            if not cond:
                add_caller(node["phase"], p["name"])
        actions_doing(p["body"])
    for node, cond in _nodes(inst.ir.get("play", []), ("do",)):
        if not cond:
            add_caller(node["phase"], PLAY)
    actions_doing(inst.ir.get("play", []))
    inside = {name: set(s) for name, s in own.items()}
    changed = True
    while changed:                           # close over the phases each one does
        changed = False
        for name, called in calls.items():
            for c in called:
                extra = inside.get(c, set()) - inside[name]
                if extra:
                    inside[name] |= extra
                    changed = True
    return {
        "alternatives": alternatives,
        "phases": [{"name": p["name"], "at": where(file, p.get("at")),
                    "choices": sorted(inside[p["name"]]), "sure": sure[p["name"]],
                    "callers": callers[p["name"]], "actions": sorted(by_actions[p["name"]])}
                   for p in phases],
    }


def phases_reached(phases: Sequence[dict[str, Any]], pending: Sequence[int],
                   chosen: Sequence[int]) -> list[bool]:
    """Which phases a game reached, from the decisions taken at each decision point
    (``pending``) and the times each alternative was chosen (``chosen``, see
    :func:`rulepack.analysis.trace.observe`), by the rule above."""
    reached = {PLAY: True}
    for p in phases:
        if any(pending[c] for c in p["choices"]):
            reached[p["name"]] = True
        elif p["sure"]:
            reached[p["name"]] = False
    changed = True
    while changed:
        changed = False
        for p in phases:
            if p["name"] not in reached and (any(reached.get(c) for c in p["callers"])
                                             or any(chosen[a] for a in p["actions"])):
                reached[p["name"]] = True
                changed = True
    return [reached.get(p["name"], False) for p in phases]
