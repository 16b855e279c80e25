"""Finding, reading, validating and compiling rulesets.

A ruleset argument is either the name of a bundled ruleset (``multzo``) or a
path to a ``.rules`` text file or a ``.yaml``/``.json`` IR file. All three go
through the same steps: IR → JSON Schema check → library merge → compile. The
IR of a text is made by the transformer in the schema's shape, so it is
schema-checked only where its sizes could break the schema's limits
(:func:`rulepack.schemas.validate.validate_parsed`).
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path
from typing import Any, BinaryIO, cast

from rulepack.errors import (Diagnostic, Location, OptionError, RulepackError, SchemaError,
                             SemanticError)
from rulepack.files import (DATA_TOKEN, MAX_DATA_NESTING, MAX_DATA_TOKENS, MAX_RULESET_BYTES,
                            nesting_error, read_limited, read_stream_limited, shorten,
                            token_limit_error)
from rulepack.grammar.parser import parse_rules
from rulepack.game import Game
from rulepack.ir import strip_positions as strip_positions  # noqa: F401 - also importable from here
from rulepack.schemas.validate import validate_ir, validate_parsed
from rulepack.versions import check_language

RULESET_SUFFIXES = (".rules", ".yaml", ".yml", ".json")


def bundled_dir() -> Path:
    """The folder of the bundled rulesets (inside the installed package)."""
    return Path(__file__).resolve().parent / "rulesets"


def bundled_rulesets() -> list[str]:
    """Names of the rulesets shipped with rulepack, sorted."""
    return sorted(p.stem for p in bundled_dir().glob("*.rules"))


def resolve(name_or_path: str | Path) -> Path:
    """A bundled name or a path → the file to read.

    :raises RulepackError: nothing found by that name.
    """
    text = str(name_or_path)
    if not text.strip():
        raise RulepackError.at("no ruleset given: name a bundled ruleset (rulepack list) or a "
                               "file", Location("<arguments>"), code="no-file")
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


def read_ir(path: Path, display: str | None = None, library: bool = False) -> dict[str, Any]:
    """Read a ``.rules``, ``.yaml`` or ``.json`` file into (unmerged) IR, schema-checked.

    :param library: accept a file without a game declaration (a library).
    :raises RulesetSyntaxError: text that does not parse.
    :raises SchemaError: IR that does not match the schema.
    """
    name = display or str(path)
    if path.suffix not in RULESET_SUFFIXES:
        raise RulepackError.at(f"rulepack reads rulesets from .rules text files and .yaml, .yml "
                               f"or .json data files, not {path.suffix or 'files without a suffix'}"
                               " (rename it, e.g. to .rules)", Location(name), code="file-type")
    return ir_from_text(read_text(path, name), name, path.suffix, library)


def ir_from_text(text: str, name: str, suffix: str = ".rules",
                 library: bool = False) -> dict[str, Any]:
    """The text of a ``.rules``, ``.yaml`` or ``.json`` file (by ``suffix``) into
    (unmerged) IR, schema-checked: :func:`read_ir` without the file (an editor's
    unsaved text).

    :raises RulesetSyntaxError: text that does not parse.
    :raises SchemaError: IR that does not match the schema, or data nested too
        deeply or too big (refused before the YAML parser runs).
    :raises RulepackError: the ruleset says it is written in a language version
        this rulepack does not read (code ``unknown-language``, located).
    """
    if not text.strip():
        raise RulepackError.at("the file is empty: a ruleset needs at least a game declaration "
                               "(game NAME { players 2..4 })", Location(name), code="empty")
    if suffix == ".rules":
        ir = parse_rules(text, name)
        if not (library and ir.get("game") is None):
            check_declarations(ir, name)
        validate_parsed(ir, name)
    else:
        deep = nesting_error(text)
        if deep is not None:
            raise SchemaError(Diagnostic(
                f"the data is nested more than {MAX_DATA_NESTING} levels deep", Location(name, *deep),
                code="too-deep", source_line=_line(text, deep[0])))
        too_many = token_limit_error(text, DATA_TOKEN, MAX_DATA_TOKENS)
        if too_many is not None:
            raise SchemaError(Diagnostic(
                f"the data has more than {MAX_DATA_TOKENS} values, brackets and commas",
                Location(name, *too_many), code="too-big", source_line=_line(text, too_many[0])))
        # positions are those of the data file itself
        ir, node = _read_data(text, name, suffix)
        positions = _position_map(node)
        if "language" in ir:  # before the schema: a newer IR may have other fields
            at = positions.get(("language",))
            check_language(ir["language"], Location(name, *(at or (None, None))),
                           _line(text, at[0]) if at else None)
        validate_ir(ir, name, positions=positions)
    ir["file"] = name
    return ir


def read_text(path: Path, name: str) -> str:
    """The text of a file, decoded as UTF-8 (a byte-order mark at its start dropped).

    :param name: the file as shown in error messages.
    :raises RulepackError: the file cannot be read, is not a regular file, is too big
        (see :mod:`rulepack.files`), or is not UTF-8 (located at the first bad byte).
    """
    return _decoded(read_limited(path, MAX_RULESET_BYTES, "ruleset", name), name)


def read_stream_text(stream: BinaryIO, name: str) -> str:
    """The text of a stream (``rulepack fmt -``: standard input), read and decoded
    like a file's: at most :data:`~rulepack.files.MAX_RULESET_BYTES`, UTF-8.

    :param name: the stream as shown in error messages (``"<stdin>"``).
    :raises RulepackError: more than the limit (code ``too-big``, read no further),
        not UTF-8 (located at the first bad byte).
    """
    return _decoded(read_stream_limited(stream, MAX_RULESET_BYTES, "ruleset", name), name)


def _decoded(raw: bytes, name: str) -> str:
    if raw.startswith(b"\xef\xbb\xbf"):  # a UTF-8 byte-order mark some editors write
        raw = raw[3:]
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[:exc.start].count(b"\n") + 1
        column = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        raise RulepackError(Diagnostic(
            f"the file is not UTF-8 text: byte 0x{raw[exc.start]:02x} cannot be read (save it "
            "as UTF-8)", Location(name, line, column), code="encoding")) from None


def _read_data(text: str, name: str, suffix: str) -> tuple[dict[str, Any], Any]:
    """The data of a ``.yaml``/``.json`` file and its YAML node tree (for positions),
    in one pass of the YAML parser."""
    import yaml  # only data files need it
    line: int | None  # of a syntax error, 1-based
    col: int | None
    try:
        if suffix == ".json":
            data = json.loads(text)
            node = _compose(text)
        else:
            data, node = _load_yaml(text, name)
        _annotate(data, node)
    except json.JSONDecodeError as exc:
        line, col, hint = exc.lineno, exc.colno, None
        before = text[:exc.pos].rstrip()
        if before.endswith(",") and text[exc.pos:exc.pos + 1] in "]}":
            # a trailing comma: point at it
            line = before.count("\n") + 1
            col = len(before) - (before.rfind("\n") + 1)
            hint = "JSON allows no comma after the last item of a list or an object"
            message = "not valid JSON: a trailing comma before '" + text[exc.pos] + "'"
        else:
            message = f"not valid JSON: {exc.msg}"
        raise SchemaError(Diagnostic(message, Location(name, line, col), code="json",
                                     source_line=_line(text, line), hint=hint)) from None
    except ValueError as exc:
        # a whole number too long for int() (Python's limit: 4,300 digits), a date
        # YAML cannot make...
        raise _unreadable_value(text, name, exc) from None
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
                             Location(name, 1, 1, "$"), code="schema")
    return data, node


#: A number of more digits than this is no number of a ruleset (they are within
#: plus or minus 10**12), whether or not Python could read it.
MAX_NUMBER_DIGITS = 100
_LONG_NUMBER = re.compile(r"[0-9]{%d,}" % (MAX_NUMBER_DIGITS + 1))


def _unreadable_value(text: str, name: str, exc: ValueError) -> SchemaError:
    """The error for a data file with a value its reader could not make: a number too
    long to read, located at its first digit, else the reader's words (code
    ``schema``)."""
    found = _LONG_NUMBER.search(text)
    if found is None:
        return SchemaError.at(f"a value of the data cannot be read: {shorten(str(exc))}",
                              Location(name), code="schema")
    line = text.count("\n", 0, found.start()) + 1
    column = found.start() - (text.rfind("\n", 0, found.start()) + 1) + 1
    return SchemaError(Diagnostic(
        f"a number of {len(found.group())} digits: the numbers of a ruleset are within plus "
        "or minus 10**12", Location(name, line, column), code="schema",
        source_line=_line(text, line)))


def _load_yaml(text: str, name: str) -> tuple[Any, Any]:
    """(data, node tree) of a YAML text, read by libyaml where it is installed (the
    pure-Python reader takes seconds for a large file); aliases are refused."""
    import yaml
    loader_class = _yaml_loader()
    for event in yaml.parse(text, Loader=loader_class):
        if isinstance(event, yaml.AliasEvent):
            start = cast(yaml.Mark, event.start_mark)
            raise SchemaError(Diagnostic(
                "YAML aliases (*name) are not allowed in a ruleset; write the data out",
                Location(name, start.line + 1, start.column + 1), code="yaml-alias",
                source_line=_line(text, start.line + 1)))
    loader = loader_class(text)
    try:
        node = loader.get_single_node()
        data = loader.construct_document(node) if node is not None else None
    finally:
        loader.dispose()
    return data, node


def _yaml_loader() -> Any:
    """YAML's safe loader: libyaml's if installed."""
    import yaml
    return getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def _compose(text: str) -> Any:
    """The YAML node tree of a JSON file (JSON is read as YAML), for positions."""
    import yaml
    try:
        return yaml.compose(text, Loader=_yaml_loader())
    except yaml.YAMLError:
        return None


def _annotate(data: Any, node: Any, top: bool = True) -> None:
    """Give every nested mapping of a data file its position (``at``) in that file,
    so that schema and semantic errors point into it."""
    import yaml
    if node is None:
        return
    if isinstance(data, dict) and isinstance(node, yaml.MappingNode):
        if not top and "at" not in data:
            mark = node.start_mark
            for key_node, value_node in node.value:
                # a node with a name is best pointed at by its name
                if key_node.value == "name" and isinstance(value_node, yaml.ScalarNode):
                    mark = value_node.start_mark
            data["at"] = [mark.line + 1, mark.column + 1]
        for key_node, value_node in node.value:
            key = key_node.value
            if key in data and key != "at":
                _annotate(data[key], value_node, False)
    elif isinstance(data, list) and isinstance(node, yaml.SequenceNode):
        for item, item_node in zip(data, node.value):
            _annotate(item, item_node, False)


def _position_map(node: Any, path: tuple[Any, ...] = ()) -> dict[tuple[Any, ...], tuple[int, int]]:
    """JSON path → (line, column) of every node of a data file (keys of a mapping
    map to their values' positions)."""
    import yaml
    out: dict[tuple[Any, ...], tuple[int, int]] = {}
    if node is None:
        return out
    out[path] = (node.start_mark.line + 1, node.start_mark.column + 1)
    if isinstance(node, yaml.MappingNode):
        for key_node, value_node in node.value:
            out.update(_position_map(value_node, path + (key_node.value,)))
            out[path + (key_node.value, "$key")] = (key_node.start_mark.line + 1,
                                                    key_node.start_mark.column + 1)
    elif isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            out.update(_position_map(item, path + (i,)))
    return out


def check_declarations(ir: dict[str, Any], file: str) -> None:
    """Declarations of a text ruleset that must be right before anything else, with
    messages in the language's terms (the schema would catch them more bluntly).

    :raises SemanticError: located at the declaration.
    """
    def loc(at: Any) -> Location:
        at = at or [None, None]
        return Location(file, at[0] or None, at[1] or None)
    game = ir.get("game")
    if game is None:
        raise SemanticError.at("this ruleset has no game declaration (game NAME { players 2..4 })",
                               Location(file, 1, 1), code="no-game")
    lo, hi = game["players"]
    where = loc(game.get("players_at") or game.get("at"))
    if lo < 1:
        raise SemanticError.at(f"players {lo}..{hi}: a game needs at least 1 player", where,
                               code="bad-players")
    if lo > hi:
        raise SemanticError.at(f"players {lo}..{hi}: the smallest count comes first "
                               f"(players {hi}..{lo})", where, code="bad-players")
    if hi > 16:
        raise SemanticError.at(f"players {lo}..{hi}: at most 16 players", where,
                               code="bad-players")
    seats = game.get("seats")
    if seats is not None and len(seats) < hi:
        raise SemanticError.at(f"the game names {len(seats)} seats but allows up to {hi} players; "
                               "name one seat per player", loc(game.get("at")),
                               code="bad-players")
    for var in ir.get("variables", []):
        who = var.get("seen")
        if who is not None and who not in ("everyone", "owner", "nobody"):
            raise SemanticError.at(f"a variable is seen by everyone, owner or nobody, not {who!r}",
                                   loc(var.get("at")), code="bad-visibility")
        if var.get("per_team") and var.get("per_player"):
            raise SemanticError.at(f"variable {var['name']!r} is declared both per player and "
                                   "per team; choose one", loc(var.get("at")), code="bad-ir")
        if var.get("per_team") and not game.get("teams"):
            raise SemanticError.at(f"variable {var['name']!r} is one value per team, but this game "
                                   "has no teams (declare them in the game: teams (north, "
                                   "south), (east, west))", loc(var.get("at")), code="no-teams")
        if who == "owner" and not (var.get("per_player") or var.get("per_team")):
            raise SemanticError.at(f"variable {var['name']!r} has no owner: only a 'per player' "
                                   "variable can be seen by its owner, or a 'per team' one by "
                                   "its team (var NAME per player seen by owner = ...)",
                                   loc(var.get("at")), code="bad-visibility")
    seen: set[str] = set()
    for opt in ir.get("options", []):
        if opt["name"] in seen:
            raise SemanticError.at(f"option {opt['name']!r} is declared twice", loc(opt.get("at")),
                                   code="duplicate-name")
        seen.add(opt["name"])
        default = opt["default"]
        value = default.get("value") if default.get("k") == "lit" else default.get("name")
        if opt["type"] == "text" and not isinstance(value, str):
            raise SemanticError.at(f"the default of option {opt['name']} must be a text in "
                                   f"quotes, not {value!r}", loc(default.get("at") or opt.get("at")),
                                   code="bad-option-default")
        if opt["type"] == "bool" and not isinstance(value, bool):
            raise SemanticError.at(f"the default of option {opt['name']} must be true or false, "
                                   f"not {value!r}", loc(default.get("at") or opt.get("at")),
                                   code="bad-option-default")
        if opt["type"] == "int":
            if opt["min"] > opt["max"]:
                raise SemanticError.at(f"option {opt['name']}: {opt['min']}..{opt['max']} is empty "
                                       f"(write {opt['max']}..{opt['min']})", loc(opt.get("at")),
                                       code="bad-option")
            if isinstance(value, bool) or not isinstance(value, int) or \
                    not opt["min"] <= value <= opt["max"]:
                raise SemanticError.at(f"the default of option {opt['name']} must be a whole "
                                       f"number from {opt['min']} to {opt['max']}, not {value!r}",
                                       loc(default.get("at") or opt.get("at")),
                                       code="bad-option-default")


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
                if mine.get("draw") is not None:
                    merged_c["draw"] = mine["draw"]
                for key in ("rolls", "up_shows", "down_shows"):   # a die's faces, the sides
                    if mine.get(key) is not None:
                        merged_c[key] = mine[key]
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


def _relocate(node: dict[str, Any]) -> dict[str, Any]:
    """Library declarations keep no positions (they would point into another file)."""
    stripped: dict[str, Any] = strip_positions(node)
    return stripped


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
    if ir.get("game") is None:
        raise SemanticError.at("this ruleset has no game declaration (game NAME { players 2..4 })",
                               Location(file, 1, 1, "$.game"), code="no-game")
    game = Game(merge_libraries(ir), file)
    if check:
        for players in sorted({game.min_players, game.max_players}):
            try:
                game.instance(players, {})
            except OptionError as exc:
                raise _unmet_requirement(exc, game.ir, players, file) from None
    return game


def _unmet_requirement(exc: OptionError, ir: dict[str, Any], players: int,
                       file: str) -> RulepackError:
    """A ``require`` that fails for a player count the game declares, with the
    default options, is the ruleset's own contradiction: a :class:`SemanticError`
    located at the ``require`` (other option errors pass unchanged)."""
    diagnostic = exc.diagnostics[0]
    if diagnostic.code != "requirement":
        return exc
    node: dict[str, Any] = next(
        (r for r in ir.get("requirements", []) if r.get("message") == diagnostic.message), {})
    at = node.get("at") or [None, None]
    return SemanticError.at(f"this requirement fails for {players} players with the default "
                            f"options, which the game declares it is for: {diagnostic.message}",
                            Location(file, at[0] or None, at[1] or None), code="requirement")


def loads(text: str, filename: str = "<string>", check: bool = True) -> Game:
    """Compile a ruleset from its ``.rules`` text."""
    ir = parse_rules(text, filename)
    check_declarations(ir, filename)
    validate_parsed(ir, filename)
    return game_from_ir(ir, filename, check)
