"""Finding, reading, validating and compiling rulesets.

A ruleset argument is either the name of a bundled ruleset (``multzo``) or a
path to a ``.rules`` text file or a ``.yaml``/``.json`` IR file. All three go
through the same steps: IR → JSON Schema check → library merge → compile.
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

import yaml

from rulepack.errors import Diagnostic, Location, RulepackError, SchemaError
from rulepack.grammar.parser import parse_rules
from rulepack.interpreter.game import Game

RULESET_SUFFIXES = (".rules", ".yaml", ".yml", ".json")


def bundled_dir() -> Path:
    return Path(str(resources.files("rulepack") / "rulesets"))


def bundled_rulesets() -> list[str]:
    """Names of the rulesets shipped with rulepack, sorted."""
    return sorted(p.stem for p in bundled_dir().glob("*.rules"))


def resolve(name_or_path: str | Path) -> Path:
    """A bundled name or a path → the file to read.

    :raises RulepackError: nothing found by that name.
    """
    text = str(name_or_path)
    path = Path(text)
    if path.suffix in RULESET_SUFFIXES or "/" in text or path.exists():
        if not path.exists():
            raise RulepackError.at(f"no such file: {text}", Location(text), code="no-file")
        if path.is_dir():
            raise RulepackError.at(f"{text} is a directory, not a ruleset", Location(text),
                                   code="no-file")
        return path
    candidate = bundled_dir() / f"{text}.rules"
    if candidate.exists():
        return candidate
    known = ", ".join(bundled_rulesets())
    raise RulepackError.at(f"no bundled ruleset named {text!r} (bundled: {known})",
                           Location(text), code="no-file")


def read_ir(path: Path, display: str | None = None) -> dict[str, Any]:
    """Read a ``.rules``, ``.yaml`` or ``.json`` file into (unmerged) IR, schema-checked.

    :raises RulesetSyntaxError: text that does not parse.
    :raises SchemaError: IR that does not match the schema.
    """
    name = display or str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise RulepackError.at(f"cannot read the file: {exc}", Location(name),
                               code="no-file") from None
    if path.suffix == ".rules":
        ir = parse_rules(text, name)
    else:
        # positions in a data file would point into the text it was made from
        ir = strip_positions(_read_data(text, name, path.suffix))
    from rulepack.schemas.validate import validate_ir
    validate_ir(ir, name)
    ir["file"] = name
    return ir


def _read_data(text: str, name: str, suffix: str) -> dict[str, Any]:
    try:
        if suffix == ".json":
            data = json.loads(text)
        else:
            for event in yaml.parse(text, Loader=yaml.SafeLoader):
                if isinstance(event, yaml.AliasEvent):
                    mark = event.start_mark
                    raise SchemaError(Diagnostic(
                        "YAML aliases (*name) are not allowed in a ruleset; write the data out",
                        Location(name, mark.line + 1, mark.column + 1), code="yaml-alias",
                        source_line=_line(text, mark.line + 1)))
            data = yaml.safe_load(text)
    except json.JSONDecodeError as exc:
        raise SchemaError(Diagnostic(f"not valid JSON: {exc.msg}",
                                     Location(name, exc.lineno, exc.colno), code="json",
                                     source_line=_line(text, exc.lineno))) from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark else None
        col = mark.column + 1 if mark else None
        problem = getattr(exc, "problem", None) or str(exc)
        raise SchemaError(Diagnostic(f"not valid YAML: {problem}", Location(name, line, col),
                                     code="yaml", source_line=_line(text, line))) from None
    except RecursionError:
        raise SchemaError.at("the data is nested too deeply", Location(name),
                             code="too-deep") from None
    if not isinstance(data, dict):
        raise SchemaError.at("a ruleset IR file must hold a mapping at the top",
                             Location(name, None, None, "$"), code="schema")
    return data


def _line(text: str, line: int | None) -> str | None:
    if line is None:
        return None
    lines = text.splitlines()
    return lines[line - 1] if 0 < line <= len(lines) else None


@lru_cache(maxsize=8)
def library_ir(name: str) -> dict[str, Any]:
    """The IR of a bundled library (``rulesets/lib/NAME.rules``)."""
    path = bundled_dir() / "lib" / f"{name}.rules"
    return parse_rules(path.read_text(encoding="utf-8"), f"lib/{name}.rules")


def merge_libraries(ir: dict[str, Any]) -> dict[str, Any]:
    """Resolve ``use`` declarations: the library's declarations come first and
    the ruleset's own ones replace library ones of the same name.

    :raises RulepackError: an unknown library or component.
    """
    merged = {k: (list(v) if isinstance(v, list) else v) for k, v in ir.items()}
    for use in ir.get("uses", []):
        lib_name = use["library"]
        file = ir.get("file", "<string>")
        at = use.get("at") or [None, None]
        if not (bundled_dir() / "lib" / f"{lib_name}.rules").exists():
            raise RulepackError.at(f"unknown library {lib_name!r}", Location(file, at[0], at[1]),
                                   code="unknown-library")
        lib = library_ir(lib_name)
        only = use.get("only")
        lib_components = [c for c in lib["components"] if only is None or c["name"] in only]
        if only is not None:
            known = {c["name"] for c in lib["components"]}
            for n in only:
                if n not in known:
                    raise RulepackError.at(
                        f"library {lib_name} has no component {n!r} (it has "
                        f"{', '.join(sorted(known))})", Location(file, at[0], at[1]),
                        code="unknown-component")
        # the ruleset's own declarations (and earlier uses) win over the library's;
        # a component redeclared without attributes adapts the library's one
        # (``component tile { copies count(players) }``)
        own = {c["name"]: c for c in merged["components"]}
        adapted = []
        for c in lib_components:
            mine = own.get(c["name"])
            if mine is None:
                adapted.append(_relocate(c))
            elif not mine["attributes"]:
                merged_c = _relocate(c)
                merged_c["copies"] = mine["copies"] if mine["copies"] is not None else c["copies"]
                merged_c["called"] = mine["called"] or c["called"]
                merged_c["derived"] = merged_c["derived"] + mine["derived"]
                if mine.get("at"):
                    merged_c["at"] = mine["at"]
                merged["components"] = [x for x in merged["components"] if x is not mine]
                adapted.append(merged_c)
        merged["components"] = adapted + merged["components"]
        own_orders = {o["attribute"] for o in merged["orders"]}
        kept_attributes = {a["name"] for c in merged["components"] for a in c["attributes"]}
        merged["orders"] = [_relocate(o) for o in lib["orders"]
                            if o["attribute"] not in own_orders
                            and o["attribute"] in kept_attributes] + merged["orders"]
        own_consts = {c["name"] for c in merged["constants"]}
        merged["constants"] = [_relocate(c) for c in lib["constants"] if c["name"] not in own_consts] \
            + merged["constants"]
    merged["uses"] = []
    return merged


def strip_positions(node: Any) -> Any:
    """A copy of IR without source positions (``at`` keys)."""
    if isinstance(node, dict):
        return {k: strip_positions(x) for k, x in node.items() if k != "at"}
    if isinstance(node, list):
        return [strip_positions(x) for x in node]
    return node


def _relocate(node: dict[str, Any]) -> dict[str, Any]:
    """Library declarations keep no positions (they would point into another file)."""
    return strip_positions(node)


def load(name_or_path: str | Path, check: bool = True) -> Game:
    """Load a ruleset by bundled name or path and compile it.

    :param check: also compile it for its smallest and largest player count with
        default options, so semantic errors surface now rather than at play.
    :raises RulepackError: (a subclass) with a located message for any problem.
    """
    path = resolve(name_or_path)
    display = str(name_or_path) if Path(str(name_or_path)).exists() else str(path)
    try:
        ir = read_ir(path, display)
        return game_from_ir(ir, display, check)
    except RulepackError as exc:
        exc.diagnostics = [d.with_source() for d in exc.diagnostics]
        raise


def game_from_ir(ir: dict[str, Any], file: str = "<string>", check: bool = True) -> Game:
    """Compile IR (already schema-checked) into a :class:`Game`."""
    ir = dict(ir)
    ir.setdefault("file", file)
    game = Game(merge_libraries(ir), file)
    if check:
        for players in sorted({game.min_players, game.max_players}):
            game.instance(players, {})
    return game


def loads(text: str, filename: str = "<string>", check: bool = True) -> Game:
    """Compile a ruleset from its ``.rules`` text."""
    ir = parse_rules(text, filename)
    from rulepack.schemas.validate import validate_ir
    validate_ir(ir, filename)
    return game_from_ir(ir, filename, check)
