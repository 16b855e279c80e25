"""Where the rules are: each decision point's alternatives and each phase, located,
with the decision points inside each phase — what rule coverage counts against.

Phases are inlined by the compiler, so the engine does not say when one runs;
the analysis sees decisions. A phase counts as *reached* in a game when a
decision of a ``choose`` inside it (or inside a phase it does) was taken; a phase
with no ``choose`` anywhere inside counts as reached when a phase that does it
is reached (the ``play`` block always is). This comes from the IR alone.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

#: The caller name of the top-level ``play`` block.
PLAY = "play"


def _nodes(node: Any, kinds: tuple[str, ...]) -> Iterator[dict[str, Any]]:
    """Every statement of ``kinds`` (``"k"`` values) inside an IR node, depth first."""
    if isinstance(node, dict):
        if node.get("k") in kinds:
            yield node
        for value in node.values():
            yield from _nodes(value, kinds)
    elif isinstance(node, list):
        for value in node:
            yield from _nodes(value, kinds)


def where(file: str, at: Sequence[int] | None) -> str:
    """``FILE:LINE`` of a source position (``FILE`` alone without one)."""
    return f"{file}:{at[0]}" if at and at[0] else file


def rule_map(inst: Any) -> dict[str, Any]:
    """The alternatives and phases of a compiled instance.

    :returns: ``{"alternatives": [...], "phases": [...]}``; each alternative
        ``{"choice", "alt", "text", "at"}`` (``at`` ``FILE:LINE``), in flat order
        (see :func:`rulepack.analysis.trace.alternative_offsets`); each phase
        ``{"name", "at", "choices", "callers"}`` with ``choices`` the decision
        points inside it or the phases it does (indices into ``inst.choices``) and
        ``callers`` the phases, or ``"play"``, that do it.
    """
    file = inst.file
    alternatives = [{"choice": c.index, "alt": a.index, "text": a.text, "at": where(file, a.at)}
                    for c in inst.choices for a in c.alternatives]
    choices_at: dict[tuple[int, ...], list[int]] = {}
    for c in inst.choices:
        choices_at.setdefault(tuple(c.at or ()), []).append(c.index)
    phases = list(inst.ir.get("phases", []))
    own: dict[str, set[int]] = {}
    calls: dict[str, set[str]] = {p["name"]: set() for p in phases}
    callers: dict[str, list[str]] = {p["name"]: [] for p in phases}
    for p in phases:
        own[p["name"]] = {i for node in _nodes(p["body"], ("choose",))
                          for i in choices_at.get(tuple(node.get("at") or ()), [])}
        for node in _nodes(p["body"], ("do",)):
            calls[p["name"]].add(node["phase"])
    for name, called in calls.items():
        for c in sorted(called):
            if c in callers:
                callers[c].append(name)
    for node in _nodes(inst.ir.get("play", []), ("do",)):
        if node["phase"] in callers and PLAY not in callers[node["phase"]]:
            callers[node["phase"]].append(PLAY)
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
                    "choices": sorted(inside[p["name"]]), "callers": callers[p["name"]]}
                   for p in phases],
    }


def phases_reached(phases: Sequence[dict[str, Any]], pending: Sequence[int]) -> list[bool]:
    """Which phases a game reached, from the decisions taken at each decision point
    (``pending``, see :func:`rulepack.analysis.trace.observe`) and the rule above."""
    reached = {PLAY: True}
    for p in phases:
        if p["choices"]:
            reached[p["name"]] = any(pending[c] for c in p["choices"])
    changed = True
    while changed:
        changed = False
        for p in phases:
            if p["name"] not in reached and any(reached.get(c) for c in p["callers"]):
                reached[p["name"]] = True
                changed = True
    return [reached.get(p["name"], False) for p in phases]
