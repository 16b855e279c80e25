"""Checking ruleset IR against ``ruleset.schema.json`` (JSON Schema 2020-12)."""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from typing import Any

from rulepack.errors import Diagnostic, Location, SchemaError


@lru_cache(maxsize=1)
def ruleset_schema() -> dict[str, Any]:
    return json.loads((resources.files("rulepack.schemas") / "ruleset.schema.json")
                      .read_text(encoding="utf-8"))


@lru_cache(maxsize=1)
def _validator() -> Any:
    from jsonschema import Draft202012Validator
    return Draft202012Validator(ruleset_schema())


def _json_path(path: Any) -> str:
    out = "$"
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else f".{part}"
    return out


def _position(ir: Any, path: Any) -> tuple[int | None, int | None]:
    """The nearest source position (``at``) on the way down the JSON path."""
    node = ir
    best: tuple[int | None, int | None] = (None, None)
    for part in path:
        if isinstance(node, dict) and isinstance(node.get("at"), list) and len(node["at"]) == 2:
            if node["at"][0]:
                best = (node["at"][0], node["at"][1])
        try:
            node = node[part]
        except (KeyError, IndexError, TypeError):
            break
    if isinstance(node, dict) and isinstance(node.get("at"), list) and len(node["at"]) == 2 \
            and node["at"][0]:
        best = (node["at"][0], node["at"][1])
    return best


def validate_ir(ir: Any, file: str = "<string>", limit: int = 20) -> None:
    """Check IR against the schema.

    :raises SchemaError: with one diagnostic per problem (at most ``limit``), each
        naming the JSON path and, where the IR came from text, the source position.
    """
    try:
        errors = sorted(_validator().iter_errors(ir), key=lambda e: list(map(str, e.absolute_path)))
    except RecursionError:
        raise SchemaError.at("the ruleset data is nested too deeply", Location(file),
                             code="too-deep") from None
    if not errors:
        return
    diagnostics = []
    for err in errors[:limit]:
        path = _json_path(err.absolute_path)
        line, col = _position(ir, err.absolute_path)
        diagnostics.append(Diagnostic(f"{path}: {_message(err)}", Location(file, line, col, path),
                                      code="schema"))
    raise SchemaError(diagnostics)


def _message(err: Any) -> str:
    if err.validator == "additionalProperties":
        return err.message.replace("Additional properties are not allowed", "unknown key(s)")
    if err.validator in ("oneOf", "anyOf") and err.context:
        best = min(err.context, key=lambda e: len(list(e.absolute_path)))
        return best.message
    return err.message
