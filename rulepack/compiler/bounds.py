"""The range of a ruleset's final scores, for the adapters' score returns.

A ruleset may declare it (``scores from LO to HI`` in its ``game``
declaration, checked at the end of every game); otherwise it is derived from the
``score`` formula when the formula bounds itself: numbers and the values the
action-space analysis can list (:class:`~rulepack.compiler.actionspace.Domains`),
``count(X)`` (0 to the most elements ``X`` can hold), ``abs``, ``if``, and ``+``,
``-``, ``*`` and negation of those. A score read from a variable that grows by
arithmetic (chips won, points banked) has no derived range: declare it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulepack.compiler.actionspace import Domains, NotFinite
from rulepack.ir import Node

if TYPE_CHECKING:  # pragma: no cover
    from rulepack.compiler.instance import Instance

#: the least and the greatest number
Range = tuple[float, float]


def score_bounds(inst: "Instance") -> Range | None:
    """The lowest and highest score a player can end a game of ``inst`` with:
    declared, else derived (see the module's description); ``None`` when the
    ruleset has no score, or no range can be derived."""
    if inst.score_range is not None:
        return inst.score_range
    score = inst.ir.get("score")
    if score is None:
        return None
    domains = Domains(inst)
    try:
        found: Range = domains.in_scope({score["player"]: domains.seats},
                                        lambda: _range(domains, score["expr"]))
    except NotFinite:
        return None
    return found


def _range(domains: Domains, node: Node) -> Range:
    """The least and greatest number ``node`` can be. :raises NotFinite: unknown."""
    try:
        values = domains.value(node)
    except NotFinite:
        values = None
    if values is not None:
        numbers = [v for v in values if type(v) is int or type(v) is float]
        if not numbers or len(numbers) != len(values):
            raise NotFinite("a score that is not always a number", node)
        return min(numbers), max(numbers)
    k = node.get("k") if isinstance(node, dict) else None
    if k == "if":
        a, b = _range(domains, node["then"]), _range(domains, node["else"])
        return min(a[0], b[0]), max(a[1], b[1])
    if k == "call" and node.get("fn") == "count" and len(node.get("args") or []) == 1:
        return 0, domains.max_length(node["args"][0])
    if k == "call" and node.get("fn") == "abs" and len(node.get("args") or []) == 1:
        low, high = _range(domains, node["args"][0])
        if low <= 0 <= high:
            return 0, max(-low, high)
        return min(abs(low), abs(high)), max(abs(low), abs(high))
    if k == "op":
        args = [_range(domains, a) for a in node["args"]]
        op = node["op"]
        if op == "neg" and len(args) == 1:
            return -args[0][1], -args[0][0]
        if op == "+" and args:
            return sum(a[0] for a in args), sum(a[1] for a in args)
        if op == "-" and len(args) == 2:
            return args[0][0] - args[1][1], args[0][1] - args[1][0]
        if op == "*" and len(args) == 2:
            ends = [x * y for x in args[0] for y in args[1]]
            return min(ends), max(ends)
    raise NotFinite("a score whose range cannot be derived", node)
