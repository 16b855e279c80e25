"""Checking ruleset IR against ``ruleset.schema.json`` (JSON Schema 2020-12)."""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator

from rulepack.errors import Diagnostic, Location, SchemaError
from rulepack.files import MAX_DATA_NESTING, shorten

if TYPE_CHECKING:  # pragma: no cover
    from jsonschema.exceptions import ValidationError


@lru_cache(maxsize=None)
def schema(name: str) -> dict[str, Any]:
    """A schema of this package by file name (``"record.schema.json"``), parsed once."""
    data: dict[str, Any] = json.loads(
        (Path(__file__).resolve().parent / name).read_text(encoding="utf-8"))
    return data


def ruleset_schema() -> dict[str, Any]:
    return schema("ruleset.schema.json")


def strict_validator(schema_data: dict[str, Any]) -> Any:
    """A JSON Schema 2020-12 validator of ``schema_data`` for which a whole-number
    float (``2.0``) is not an integer: it would reach list indices and seeds."""
    return _strict_class()(schema_data)


@lru_cache(maxsize=1)
def _strict_class() -> Any:
    from jsonschema import Draft202012Validator, validators
    checker = Draft202012Validator.TYPE_CHECKER.redefine(
        "integer", lambda _, x: isinstance(x, int) and not isinstance(x, bool))
    return validators.extend(Draft202012Validator, type_checker=checker,
                             validators={"pattern": _pattern})


@lru_cache(maxsize=64)
def _ecma_regex(pattern: str) -> re.Pattern[str]:
    """A schema's ``pattern`` as JSON Schema reads it (ECMA 262): a final ``$`` is
    the end of the text. In Python's ``re`` it also matches before a final line
    break, so ``"board\\n"`` passed ``^[A-Za-z_][A-Za-z0-9_]*$``."""
    if pattern.endswith("$") and not pattern.endswith("\\$"):
        pattern = pattern[:-1] + r"\Z"
    return re.compile(pattern)


def _pattern(validator: Any, pattern: str, instance: Any, schema: Any) -> Iterator[Any]:
    """The ``pattern`` keyword, with the end of the text as ECMA 262 has it."""
    from jsonschema.exceptions import ValidationError
    if validator.is_type(instance, "string") and not _ecma_regex(pattern).search(instance):
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


@lru_cache(maxsize=1)
def _validator() -> Any:
    return strict_validator(ruleset_schema())


@lru_cache(maxsize=1)
def _fast_validator() -> Any:
    """The ruleset schema compiled by ``jsonschema_rs`` (the ``fast`` extra), or ``None``."""
    import importlib
    try:
        module = importlib.import_module("jsonschema_rs")
        return module.validator_for(ruleset_schema())
    except Exception:  # noqa: BLE001 - not installed, or a schema it cannot compile
        return None


def _surely_valid(ir: Any) -> bool:
    """Whether the fast validator (if installed) finds ``ir`` valid: some hundred times
    faster than ``jsonschema``, which then only has to run to word the errors of an
    invalid file. IR with a float is left to ``jsonschema``, whose strict integers
    refuse ``2.0``."""
    fast = _fast_validator()
    if fast is None or _has_float(ir):
        return False
    try:
        return bool(fast.is_valid(ir))
    except Exception:  # noqa: BLE001 - data it cannot take (keys that are not text...)
        return False


def _values(ir: Any) -> Iterator[Any]:
    """Every list and every value that is not a map in ``ir``, depth first."""
    todo = [ir]
    while todo:
        node = todo.pop()
        if isinstance(node, dict):
            todo.extend(node.values())
        else:
            yield node
            if isinstance(node, list):
                todo.extend(node)


def _has_float(ir: Any) -> bool:
    return any(isinstance(node, float) for node in _values(ir))


@lru_cache(maxsize=None)
def record_line_validator(kind: str) -> Any:
    """The validator of one kind of line of a game record (``"header"``...)."""
    defs = schema("record.schema.json")["$defs"]
    return strict_validator({"$defs": defs, "$ref": f"#/$defs/{kind}"})


# The limits of the schema that the IR of a ``.rules`` text can break. Its shape
# always matches the schema (the transformer writes every node whole); only sizes
# come from the text. tests/test_schema.py checks that every limit of the schema
# is beyond one of these (or checked by loader.check_declarations).

#: A list of more items may break a ``maxItems`` (the smallest: 16 seats).
LIST_LIMIT = 16
#: A whole number beyond plus or minus this may break a ``minimum`` or ``maximum``
#: (the narrowest: an option's range, within 10**6).
NUMBER_LIMIT = 10**6
#: A name (a word) of more characters breaks the ``maxLength`` of names.
NAME_LIMIT = 64
#: A text of more characters breaks the ``maxLength`` of texts.
TEXT_LIMIT = 10000


def validate_parsed(ir: Any, file: str = "<string>") -> None:
    """Check the IR made of a ``.rules`` text against the schema where it could
    break it: only when it holds a list of more than :data:`LIST_LIMIT` items, a
    number beyond :data:`NUMBER_LIMIT`, a word longer than :data:`NAME_LIMIT` or a
    text longer than :data:`TEXT_LIMIT` does the whole schema check run (a few
    milliseconds of walking the IR instead of a tenth of a second).

    :raises SchemaError: as :func:`validate_ir`.
    """
    if may_break_limits(ir):
        validate_ir(ir, file)


#: The fewest items a list of declarations (the IR's top-level lists: ``defines``,
#: ``zones``...) may break (the ``uses`` list's ``maxItems``).
SECTION_LIMIT = 64


def may_break_limits(ir: Any) -> bool:
    """Whether IR holds a value beyond one of the limits above (a list of
    declarations: beyond :data:`SECTION_LIMIT`)."""
    sections = [v for v in ir.values() if isinstance(v, list)] if isinstance(ir, dict) else []
    if any(len(v) > SECTION_LIMIT for v in sections):
        return True
    top = {id(v) for v in sections}
    for node in _values(ir):
        if isinstance(node, list):
            if len(node) > LIST_LIMIT and id(node) not in top:
                return True
        elif isinstance(node, str):
            if len(node) > NAME_LIMIT and (len(node) > TEXT_LIMIT or node.isidentifier()):
                return True
        elif isinstance(node, int) and not isinstance(node, bool):
            if not -NUMBER_LIMIT <= node <= NUMBER_LIMIT:
                return True
        elif node is not None and not isinstance(node, bool):
            return True  # not JSON data: let the schema say what it is
    return False


#: The largest ``maxItems`` of the schema: a longer list is refused at once.
MAX_ITEMS = 10_000


def _long_list(ir: Any, file: str) -> tuple[Any, ...] | None:
    """The JSON path of a list of more than :data:`MAX_ITEMS` items in ``ir``, if any.

    :raises SchemaError: code ``too-deep``, for IR nested more than
        :data:`~rulepack.files.MAX_DATA_NESTING` levels deep (IR given to the API
        directly; a file is scanned for that before it is parsed).
    """
    todo: list[tuple[Any, tuple[Any, ...]]] = [(ir, ())]
    while todo:
        node, path = todo.pop()
        if len(path) > MAX_DATA_NESTING:
            raise SchemaError.at(f"the ruleset data is nested more than {MAX_DATA_NESTING} "
                                 "levels deep", Location(file, path=_json_path(path[:20]) + "..."),
                                 code="too-deep")
        if isinstance(node, dict):
            todo.extend((v, path + (k,)) for k, v in node.items())
        elif isinstance(node, list):
            if len(node) > MAX_ITEMS:
                return path
            todo.extend((v, path + (i,)) for i, v in enumerate(node))
    return None


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
    long_list = _long_list(ir, file)
    if long_list is not None:   # refused before the schema check walks every item
        path = _json_path(long_list)
        line, col = _position(ir, long_list)
        if positions:
            where = long_list
            while where not in positions and where:
                where = where[:-1]
            line, col = positions.get(where, (line, col))
        raise SchemaError(Diagnostic(f"{path}: a list of more than {MAX_ITEMS} items",
                                     Location(file, line, col, path), code="schema"))
    if _surely_valid(ir):
        return
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
    return shorten(_full_message(err), 300)


def _full_message(err: ValidationError) -> str:
    if err.validator == "additionalProperties":
        return err.message.replace("Additional properties are not allowed", "unknown key(s)")
    if err.validator in ("oneOf", "anyOf") and err.context:
        best = min(err.context, key=lambda e: len(list(e.absolute_path)))
        return best.message
    return err.message
