"""Checking ruleset IR against ``ruleset.schema.json`` (JSON Schema 2020-12)."""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from typing import TYPE_CHECKING, Any

from rulepack.errors import Diagnostic, Location, SchemaError

if TYPE_CHECKING:  # pragma: no cover
    from jsonschema.exceptions import ValidationError


@lru_cache(maxsize=None)
def schema(name: str) -> dict[str, Any]:
    """A schema of this package by file name (``"record.schema.json"``), parsed once."""
    data: dict[str, Any] = json.loads(
        (resources.files("rulepack.schemas") / name).read_text(encoding="utf-8"))
    return data


def ruleset_schema() -> dict[str, Any]:
    return schema("ruleset.schema.json")


def strict_validator(schema_data: dict[str, Any]) -> Any:
    """A JSON Schema 2020-12 validator of ``schema_data`` for which a whole-number
    float (``2.0``) is not an integer: it would reach list indices and seeds."""
    from jsonschema import Draft202012Validator, validators
    checker = Draft202012Validator.TYPE_CHECKER.redefine(
        "integer", lambda _, x: isinstance(x, int) and not isinstance(x, bool))
    return validators.extend(Draft202012Validator, type_checker=checker)(schema_data)


@lru_cache(maxsize=1)
def _validator() -> Any:
    return strict_validator(ruleset_schema())


@lru_cache(maxsize=None)
def record_line_validator(kind: str) -> Any:
    """The validator of one kind of line of a game record (``"header"``...)."""
    defs = schema("record.schema.json")["$defs"]
    return strict_validator({"$defs": defs, "$ref": f"#/$defs/{kind}"})


def _good_at(node: Any) -> tuple[int, int] | None:
    at = node.get("at") if isinstance(node, dict) else None
    if isinstance(at, list) and len(at) == 2 and all(
            isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in at):
        return (at[0], at[1])
    return None


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
        found = _good_at(node)
        if found:
            best = found
        try:
            node = node[part]
        except (KeyError, IndexError, TypeError):
            break
    found = _good_at(node)
    return found if found else best


def validate_ir(ir: Any, file: str = "<string>", limit: int = 20,
                positions: dict[tuple[Any, ...], tuple[int, int]] | None = None) -> None:
    """Check IR against the schema.

    :param positions: for a data file, JSON path → (line, column) in that file.
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
        if positions:
            where = tuple(err.absolute_path)
            if err.validator == "additionalProperties" and isinstance(err.instance, dict):
                extra = [k for k in err.instance if k not in err.schema.get("properties", {})]
                if extra:
                    where = where + (extra[0], "$key")
            while where not in positions and where:
                where = where[:-1]
            if where in positions:
                line, col = positions[where]
        diagnostics.append(Diagnostic(f"{path}: {_message(err)}", Location(file, line, col, path),
                                      code="schema"))
    raise SchemaError(diagnostics)


def _message(err: ValidationError) -> str:
    if err.validator == "additionalProperties":
        return err.message.replace("Additional properties are not allowed", "unknown key(s)")
    if err.validator in ("oneOf", "anyOf") and err.context:
        best = min(err.context, key=lambda e: len(list(e.absolute_path)))
        return best.message
    return err.message
