"""Small helpers over ruleset IR (plain JSON-able data)."""

from __future__ import annotations

from typing import Any, Iterator, TypeAlias

#: an IR node: JSON data (``{"k": "op", ...}``, a statement, a zone...) as
#: ``schemas/ruleset.schema.json`` shapes it. Its fields are ``Any`` to Python
#: because the schema, not the type checker, checks them.
Node: TypeAlias = dict[str, Any]


#: the keys of source positions (``[line, column]``)
_POSITIONS = ("at", "players_at", "language_at")


def nodes(ir: Any) -> Iterator[dict[str, Any]]:
    """Every dict in an IR tree, depth first (source positions are not entered)."""
    stack = [ir]
    pop, push = stack.pop, stack.append
    while stack:
        node = pop()
        if isinstance(node, dict):
            yield node
            for k, v in node.items():
                if isinstance(v, (dict, list)) and k not in _POSITIONS:
                    push(v)
        elif isinstance(node, list):
            for v in node:
                if isinstance(v, (dict, list)):
                    push(v)


def strip_positions(node: Any) -> Any:
    """A copy of IR without source positions (``at`` keys)."""
    if isinstance(node, dict):
        return {k: strip_positions(x) for k, x in node.items() if k not in _POSITIONS}
    if isinstance(node, list):
        return [strip_positions(x) for x in node]
    return node


def names_in(ir: Any) -> set[str]:
    """Bare names an IR tree mentions (``{"k": "name"}`` nodes)."""
    return {n["name"] for n in nodes(ir) if n.get("k") == "name"}


def calls_in(ir: Any) -> set[str]:
    """Functions an IR tree calls."""
    return {n["fn"] for n in nodes(ir) if n.get("k") == "call"}


def rename(node: Any, names: dict[str, str]) -> Any:
    """A copy of expression IR with bare names renamed (a define's parameters)."""
    if isinstance(node, list):
        return [rename(x, names) for x in node]
    if not isinstance(node, dict):
        return node
    if node.get("k") == "name" and node.get("name") in names:
        return {**node, "name": names[node["name"]]}
    return {k: rename(v, names) for k, v in node.items()}


def chance_names(ir: dict[str, Any]) -> list[str]:
    """Names the flow binds to a chance outcome (``let roll = random(1..12)``), in
    the order of the ruleset: a player should see the die they must play with."""
    out: list[str] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            expr = node.get("expr")
            if (node.get("k") == "let" and isinstance(node.get("bind"), str)
                    and isinstance(expr, dict) and expr.get("k") == "call"
                    and expr.get("fn") == "random" and node["bind"] not in out):
                out.append(node["bind"])
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)
    walk(ir.get("setup"))
    walk(ir.get("phases"))
    walk(ir.get("play"))
    return out
