"""The ruleset IR schema, ``rulepack/schemas/ruleset.schema.json``.

* the schema is a valid JSON Schema 2020-12 with no open objects and no dead
  definitions, and its kinds agree with what the language produces;
* every bundled ruleset and library validates, and so does a fixture that uses
  every construct of the language once (``tests/data/schema/everything.rules``);
* IR written out as JSON or YAML (with or without source positions) loads back
  into a game that plays exactly like the one read from text, and hand-written
  IR (``tests/data/schema/nim.yaml``) is the same IR as its ``.rules`` twin;
* broken IR is refused with a :class:`SchemaError` whose diagnostic names the JSON
  path of the faulty node, explains what is wrong there (one diagnostic, not a
  cascade), and for IR that came from text carries the source line.

Every broken IR is made by changing one node of Multzo's IR, found by what it is
rather than by where it is, so edits of ``multzo.rules`` do not break these tests.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest
import yaml
from jsonschema import Draft202012Validator

from rulepack.errors import SchemaError, SemanticError
from rulepack.grammar.parser import parse_rules
from rulepack.engine.rng import Rng
from rulepack.loader import bundled_dir, bundled_rulesets, game_from_ir, load, read_ir
from rulepack.schemas.validate import ruleset_schema, validate_ir

DATA = Path(__file__).parent / "data" / "schema"
MULTZO = bundled_dir() / "multzo.rules"


# ---------------------------------------------------------------------- helpers

def nodes(value: Any, path: str = "$") -> Iterator[tuple[str, Any]]:
    """Every dict of an IR with its JSON path (``$.setup[0].in``), depth first."""
    if isinstance(value, dict):
        yield path, value
        for key, item in value.items():
            yield from nodes(item, f"{path}.{key}")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from nodes(item, f"{path}[{i}]")


def find(ir: Any, pred: Callable[[dict], bool]) -> tuple[str, dict]:
    """The first node satisfying ``pred`` and its path."""
    for path, node in nodes(ir):
        if pred(node):
            return path, node
    raise AssertionError("no such node in the IR")


def strip_at(value: Any) -> Any:
    """The IR as a person would write it: no source positions."""
    if isinstance(value, dict):
        return {k: strip_at(v) for k, v in value.items() if k not in ("at", "players_at")}
    if isinstance(value, list):
        return [strip_at(v) for v in value]
    return value


def refused(ir: Any, file: str = "multzo.rules") -> list:
    with pytest.raises(SchemaError) as info:
        validate_ir(ir, file)
    return info.value.diagnostics


def subschemas(schema: Any, skip: tuple[str, ...] = ()) -> Iterator[dict]:
    """Every subschema, not entering the keywords in ``skip``."""
    if isinstance(schema, dict):
        yield schema
        for key, value in schema.items():
            if key not in skip:
                yield from subschemas(value, skip)
    elif isinstance(schema, list):
        for value in schema:
            yield from subschemas(value, skip)


def play(game: Any, players: int, seed: int) -> tuple[list[str], dict, dict]:
    """Random legal actions chosen by a seeded Rng: (action texts, result, final state)."""
    state = game.new_game(players, seed=seed)
    rng = Rng(seed)
    texts = []
    while not state.is_terminal():
        actions = state.legal_actions()
        action = actions[rng.below(len(actions))]
        texts.append(action.text)
        state.apply(action)
    data = state.to_json()
    for event in data["history"]:
        event.pop("at", None)       # where a chance event's statement is: IR without positions has none
    return texts, state.result(), data


@pytest.fixture(scope="module")
def multzo_text() -> str:
    return MULTZO.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def multzo_ir(multzo_text: str) -> dict:
    return parse_rules(multzo_text, "multzo.rules")


@pytest.fixture(scope="module")
def multzo_game() -> Any:
    return load(MULTZO)


@pytest.fixture(scope="module")
def everything_ir() -> dict:
    path = DATA / "everything.rules"
    return parse_rules(path.read_text(encoding="utf-8"), str(path))


# ---------------------------------------------------------------------- the schema itself

def test_schema_is_a_valid_2020_12_schema() -> None:
    schema = ruleset_schema()
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    Draft202012Validator.check_schema(schema)


def test_every_object_is_closed() -> None:
    """Each object schema forbids unknown keys, except the dispatchers, which only
    read the kind key and hand the node to a closed definition. (The conditions
    under "if" only test a node, they describe nothing.)"""
    for sub in subschemas(ruleset_schema(), skip=("if",)):
        if sub.get("type") != "object" or "properties" not in sub:
            continue
        if sub.get("additionalProperties") is False:
            continue
        # a dispatcher: one discriminator key with an enum, then if/then to the kinds
        assert len(sub["properties"]) == 1, sub.get("title")
        (key_schema,) = sub["properties"].values()
        assert "enum" in key_schema, sub.get("title")
        branches = sub.get("allOf", [sub])
        assert branches and all("if" in b and "then" in b for b in branches), sub.get("title")


def test_every_definition_is_used_and_every_ref_resolves() -> None:
    schema = ruleset_schema()
    defs = schema["$defs"]
    refs = {sub["$ref"] for sub in subschemas(schema) if "$ref" in sub}
    assert all(r.startswith("#/$defs/") and r.split("/")[-1] in defs for r in refs), refs
    assert {r.split("/")[-1] for r in refs} == set(defs)


def test_every_key_but_at_is_required() -> None:
    """IR has one shape: the transformer always writes every key (null when unused),
    and hand-written IR must too, except source positions, the top-level file and
    the language version (optional: a ruleset need not declare it)."""
    schema = ruleset_schema()
    assert set(schema["required"]) == set(schema["properties"]) - {
        "file", "language", "language_at"}
    closed = [sub for sub in subschemas(schema, skip=("if",))
              if sub.get("additionalProperties") is False]
    assert len(closed) > 40
    for sub in closed:
        if sub is not schema:
            # source positions ("at", "players_at") are optional: hand-written IR has none;
            # so are the game's "teams", a variable's "seen" and "per_team", a component's
            # "up_shows", "down_shows" and "rolls", the game's "longest", "scores" and
            # "score_sum", the heuristic's "after" and "search" (a second
            # heuristic) and a grid's "notation" and "stacked", added after IR files were written
            # without them
            assert set(sub["required"]) == set(sub["properties"]) - {
                "at", "players_at", "teams", "seen", "per_team", "up_shows", "down_shows",
                "rolls",
                "longest", "scores", "score_sum", "after", "search", "notation", "stacked"}, \
                sub.get("title")
            at = dict(sub["properties"]["at"])
            at.pop("description", None)  # every property is explained for editors
            assert at == {"$ref": "#/$defs/at"}, sub.get("title")


def test_schema_kinds_are_the_languages(everything_ir: dict) -> None:
    """The fixture uses every construct once: the kinds it produces are exactly the
    kinds the schema knows, so neither has one the other lacks."""
    defs = ruleset_schema()["$defs"]
    expr_kinds = set(defs["expr"]["properties"]["k"]["enum"])
    stmt_kinds = set(defs["stmt"]["properties"]["k"]["enum"])
    found = {node["k"] for _, node in nodes(everything_ir) if "k" in node}
    assert found == expr_kinds | stmt_kinds | {"action"}

    def values(key: str) -> set:
        return {node[key] for _, node in nodes(everything_ir) if key in node}
    assert {z["kind"] for z in everything_ir["zones"]} == \
        set(defs["zone"]["properties"]["kind"]["enum"])
    assert {o["type"] for o in everything_ir["options"]} == \
        set(defs["option"]["properties"]["type"]["enum"])
    assert values("c") == set(defs["constraint"]["properties"]["c"]["enum"])
    assert {n["op"] for _, n in nodes(everything_ir) if n.get("k") == "op"} == \
        set(defs["e_op"]["properties"]["op"]["enum"])
    assert {n["what"] for _, n in nodes(everything_ir) if n.get("k") == "end"} == \
        {"game", "turn", "round"}
    assert {n["end"] for _, n in nodes(everything_ir) if n.get("k") == "top"} == {"top", "bottom"}
    assert {p["any"] is None for p in everything_ir["patterns"]} == {True, False}


# ---------------------------------------------------------------------- valid IR

@pytest.mark.parametrize("name", bundled_rulesets())
def test_bundled_ruleset_validates(name: str) -> None:
    path = bundled_dir() / f"{name}.rules"
    validate_ir(parse_rules(path.read_text(encoding="utf-8"), str(path)), str(path))


@pytest.mark.parametrize("path", sorted((bundled_dir() / "lib").glob("*.rules")),
                         ids=lambda p: p.stem)
def test_bundled_library_validates(path: Path) -> None:
    validate_ir(parse_rules(path.read_text(encoding="utf-8"), str(path)), str(path))


def test_every_construct_validates_and_compiles(everything_ir: dict) -> None:
    validate_ir(everything_ir, "everything.rules")
    game_from_ir(everything_ir, "everything.rules")  # the interpreter accepts the same shapes


def test_merged_ir_validates(multzo_game: Any) -> None:
    """After ``use`` is resolved (library declarations, without positions, merged in)."""
    assert multzo_game.ir["components"] and not multzo_game.ir["uses"]
    validate_ir(multzo_game.ir)


def test_positions_and_file_are_optional(multzo_ir: dict) -> None:
    ir = strip_at(multzo_ir)
    del ir["file"]
    validate_ir(ir)
    assert not any("at" in node for _, node in nodes(ir))


def test_hand_written_yaml_is_the_ir_of_the_text() -> None:
    by_hand = read_ir(DATA / "nim.yaml")
    from_text = read_ir(DATA / "nim.rules")
    del by_hand["file"], from_text["file"]
    # each file's nodes carry positions in that file; the IR is the same without them
    assert strip_at(by_hand) == strip_at(from_text)
    texts, result, _ = play(load(DATA / "nim.yaml"), 2, 1)
    assert texts and all(t.startswith("take ") for t in texts)
    assert result["terminal"] and len(result["winners"]) == 1


# ---------------------------------------------------------------------- IR as data plays the same

@pytest.mark.parametrize("suffix,positions", [(".json", True), (".yaml", True),
                                              (".yaml", False)],
                         ids=["json", "yaml", "yaml-without-positions"])
def test_multzo_as_data_plays_like_text(tmp_path: Path, multzo_ir: dict, multzo_game: Any,
                                        suffix: str, positions: bool) -> None:
    ir = copy.deepcopy(multzo_ir) if positions else strip_at(multzo_ir)
    path = tmp_path / f"multzo{suffix}"
    if suffix == ".json":
        path.write_text(json.dumps(ir, indent=1), encoding="utf-8")
    else:
        path.write_text(yaml.safe_dump(ir, sort_keys=False), encoding="utf-8")
    data_game = load(path)
    assert (data_game.min_players, data_game.max_players) == \
        (multzo_game.min_players, multzo_game.max_players)
    for seed in (1, 2, 3):
        players = 2 + seed  # 3, 4, 5 players
        from_text = play(multzo_game, players, seed)
        from_data = play(data_game, players, seed)
        assert from_data[0] == from_text[0]        # the same actions, in the same order
        assert from_data[1] == from_text[1]        # the same result
        assert from_data[2] == from_text[2]        # the same final state
        assert from_text[1]["terminal"] and len(from_text[0]) > 10


# ---------------------------------------------------------------------- broken IR

def _zone(name: str) -> Callable[[dict], bool]:
    return lambda n: "kind" in n and n.get("name") == name


def _kind(k: str, **has: Any) -> Callable[[dict], bool]:
    return lambda n: n.get("k") == k and all(n.get(key) == v for key, v in has.items())


def _set(key: str, value: Any) -> Callable[[dict], None]:
    return lambda n: n.__setitem__(key, value)


# (id, which node, how to break it, path below the node, message fragment, source words
# expected on the reported line, number of diagnostics)
BROKEN = [
    ("zone-kind", _zone("stack"), _set("kind", "heap"), ".kind",
     "'heap' is not one of ['stack', 'row', 'pile', 'groups', 'grid']", "zone stack", 1),
    ("statement-kind", _kind("for"), _set("k", "teleport"), ".k",
     "'teleport' is not one of ['move'", "for s in suits", 1),
    ("lit-dict", lambda n: "attribute" in n and n["attribute"] == "rank",
     lambda n: n["values"][1].__setitem__("value", {"two": 2}), ".values[1].value",
     "{'two': 2} is not of type 'integer', 'string', 'boolean', 'null'", "order rank", 1),
    ("extra-key", _kind("move"), _set("colour", "red"), "",
     "unknown key(s) ('colour' was unexpected)", "move", 1),
    ("missing-key", _kind("move"), lambda n: n.pop("to"), "",
     "'to' is a required property", "move", 1),
    ("expr-not-object", _kind("shuffle"), _set("zone", "stack"), ".zone",
     "'stack' is not of type 'object'", "shuffle stack", 1),
    ("statement-not-object", _kind("for"), lambda n: n["body"].insert(0, "move"), ".body[0]",
     "'move' is not of type 'object'", "for s in suits", 1),
    ("op-arity", _kind("op", op="=="), lambda n: n["args"].pop(), ".args",
     "is too short", "==", 1),
    ("unary-arity", _kind("op", op="=="),
     lambda n: n.update(op="not"), ".args", "is too long", "==", 1),
    ("unknown-op", _kind("op", op="=="), _set("op", "==="), ".op",
     "'===' is not one of", "==", 1),
    ("bind-short", _kind("for"), _set("bind", ["s"]), ".bind", "['s'] is too short",
     "for s in suits", 1),
    ("bad-name", _kind("reset"), _set("name", "2nd"), ".name",
     "'2nd' does not match '^[A-Za-z_][A-Za-z0-9_]*$'", "reset", 1),
    ("long-name", _kind("reset"), _set("name", "x" * 65), ".name", "is too long", "reset", 1),
    ("huge-int", _kind("lit", value=4), _set("value", 10**13), ".value",
     "10000000000000 is greater than the maximum of 1000000000000", "4", 1),
    ("long-text", _kind("action"), _set("text", "x" * 10001), ".text", "is too long",
     "action", 1),
    ("lit-list", _kind("lit", value=4), _set("value", [4]), ".value",
     "[4] is not of type", "4", 1),
    ("rounds-until-and-times", _kind("rounds"), _set("times", {"k": "lit", "value": 3}),
     ".times", "is not of type 'null'", "rounds until", 1),
    ("rounds-neither", _kind("rounds"), _set("until", None), ".times",
     "None is not of type 'object'", "rounds until", 1),
    ("pattern-all-and-any", lambda n: "all" in n and n.get("name") == "flush",
     _set("any", ["prime", "set"]), ".any", "is not of type 'null'", "pattern flush", 1),
    ("constraint-arg", lambda n: n.get("c") == "same",
     _set("arg", {"k": "name", "name": "suit"}), ".arg", "is not of type 'string'",
     "same suit", 1),
    ("constraint-kind", lambda n: n.get("c") == "same", _set("c", "alike"), ".c",
     "'alike' is not one of", "same suit", 1),
    ("grid-without-rows", _zone("stack"), _set("kind", "grid"), "",
     "'rows' is a required property", "zone stack", 3),
    ("face", _kind("move", face="down"), _set("face", "sideways"), ".face",
     "'sideways' is not one of [None, 'up', 'down']", "face down", 1),
    # positions of top-level statements: no enclosing node has one either
    ("bad-position", _kind("rounds"), _set("at", [1]), ".at", "[1] is too short", None, 1),
    ("negative-position", _kind("rounds"), _set("at", [-1, 3]), ".at[0]",
     "-1 is less than the minimum of 0", None, 1),
]


@pytest.mark.parametrize("case", BROKEN,
                         ids=lambda c: (c.values[0] if hasattr(c, "values") else c)[0])
def test_broken_ir_is_refused_at_its_path(multzo_ir: dict, multzo_text: str, case: tuple) -> None:
    _, which, breaks, below, fragment, words, count = case
    ir = copy.deepcopy(multzo_ir)
    path, node = find(ir, which)
    line = node.get("at", [None])[0]
    breaks(node)
    diags = refused(ir)
    assert len(diags) == count, [d.message for d in diags]
    want = path + below
    matching = [d for d in diags if d.location.path == want and fragment in d.message]
    assert matching, (want, fragment, [d.message for d in diags])
    diag = matching[0]
    assert diag.message.startswith(f"{want}: ")
    assert diag.code == "schema" and diag.location.file == "multzo.rules"
    if words is None:  # the position itself is broken: only the path is left
        assert diag.location.line is None
        assert f"at {want}" in str(diag.location)
    else:  # the nearest position on the way down: the source line of the broken node
        assert diag.location.line == line
        assert words in multzo_text.splitlines()[line - 1]
        assert diag.format().startswith(f"multzo.rules:{line}:")


def test_end_turn_cannot_name_winners(multzo_ir: dict) -> None:
    ir = copy.deepcopy(multzo_ir)
    ir["play"].append({"k": "end", "what": "turn", "winners": {"k": "name", "name": "players"}})
    (diag,) = refused(ir)
    assert diag.location.path == f"$.play[{len(ir['play']) - 1}].winners"
    assert "is not of type 'null'" in diag.message
    ir["play"][-1]["what"] = "game"
    validate_ir(ir)


def test_players_are_bounded(multzo_ir: dict, multzo_text: str) -> None:
    ir = copy.deepcopy(multzo_ir)
    ir["game"]["players"] = [0, 99]
    diags = refused(ir)
    assert [d.location.path for d in diags] == ["$.game.players[0]", "$.game.players[1]"]
    assert "0 is less than the minimum of 1" in diags[0].message
    assert "99 is greater than the maximum of 16" in diags[1].message
    line = diags[0].location.line
    assert line == ir["game"]["at"][0] and "game multzo" in multzo_text.splitlines()[line - 1]
    ir["game"]["players"] = [2]
    (diag,) = refused(ir)
    assert diag.location.path == "$.game.players" and "too short" in diag.message


@pytest.mark.parametrize("option,path,fragment", [
    ({"type": "int", "min": 1, "max": 2_000_000, "default": {"k": "lit", "value": 1}},
     ".max", "2000000 is greater than the maximum of 1000000"),
    ({"type": "int", "min": 1, "default": {"k": "lit", "value": 1}}, "",
     "'max' is a required property"),
    ({"type": "bool", "min": 1, "default": {"k": "lit", "value": True}}, "",
     "unknown key(s) ('min' was unexpected)"),
    ({"type": "bool", "default": {"k": "lit", "value": 7}}, ".default.value",
     "7 is not of type 'boolean'"),
    ({"type": "int", "min": 1, "max": 5,
      "default": {"k": "op", "op": "+", "args": [{"k": "lit", "value": 1}] * 2}},
     ".default.k", "'op' is not one of ['lit']"),
    ({"type": "choice", "values": [], "default": {"k": "name", "name": "a"}}, ".values",
     "[] should be non-empty"),
    ({"type": "choice", "values": [{"k": "list", "items": []}],
      "default": {"k": "lit", "value": 1}},
     ".values[0].k", "'list' is not one of ['lit', 'name']"),
    ({"type": "float", "default": {"k": "lit", "value": 1}}, ".type",
     "'float' is not one of ['bool', 'int', 'choice', 'text']"),
])
def test_broken_options(multzo_ir: dict, option: dict, path: str, fragment: str) -> None:
    ir = copy.deepcopy(multzo_ir)
    ir["options"].append({"name": "speed", **option, "help": None})
    (diag,) = refused(ir)
    assert diag.location.path == "$.options[0]" + path
    assert fragment in diag.message


@pytest.mark.parametrize("change,path,fragment", [
    (lambda ir: ir.update(format="rulepack-ir/2"), "$.format", "'rulepack-ir/1' was expected"),
    (lambda ir: ir.update(extra=1), "$", "unknown key(s) ('extra' was unexpected)"),
    (lambda ir: ir.pop("phases"), "$", "'phases' is a required property"),
    (lambda ir: ir.update(setup={}), "$.setup", "{} is not of type 'array'"),
    (lambda ir: ir.update(winner={"rule": "most"}), "$.winner.rule", "'most' is not one of"),
])
def test_broken_top_level(multzo_ir: dict, change: Callable, path: str, fragment: str) -> None:
    ir = copy.deepcopy(multzo_ir)
    change(ir)
    (diag,) = refused(ir)
    assert diag.location.path == path and fragment in diag.message


def test_not_a_mapping() -> None:
    (diag,) = refused([], "x.json")
    assert diag.location.path == "$" and "is not of type 'object'" in diag.message


def test_deep_nesting_is_refused_not_crashed(multzo_ir: dict) -> None:
    expr: dict = {"k": "lit", "value": 1}
    for _ in range(5000):
        expr = {"k": "list", "items": [expr]}
    ir = copy.deepcopy(multzo_ir)
    ir["constants"].append({"name": "deep", "expr": expr})
    (diag,) = refused(ir)
    assert diag.code == "too-deep"


# ---------------------------------------------------------------------- through the loader

def test_rules_file_error_carries_the_source_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.rules"
    path.write_text('game g {\n  players 2\n}\nconst big = 10000000000000\n'
                    'const bigger = -10000000000000\n', encoding="utf-8")
    with pytest.raises(SchemaError) as info:
        load(path)
    first, second = info.value.diagnostics
    assert first.location.path == "$.constants[0].expr.value"
    assert (first.location.line, first.location.column) == (4, 13)
    assert second.location.path == "$.constants[1].expr.value"
    assert (second.location.line, second.location.column) == (5, 16)
    assert f"{path}:4:13: error: $.constants[0].expr.value:" in str(info.value)


def test_rules_file_option_default_is_checked_in_the_languages_terms(tmp_path: Path) -> None:
    """Declarations a designer writes are checked before the schema, in plain words."""
    path = tmp_path / "bad.rules"
    path.write_text('game g {\n  players 2\n}\noption quick: bool = 3\n', encoding="utf-8")
    with pytest.raises(SemanticError) as info:
        load(path)
    (diag,) = info.value.diagnostics
    assert (diag.location.line, diag.location.column) == (4, 22)
    assert diag.code == "bad-option-default" and "true or false" in diag.message


def test_rules_file_player_count(tmp_path: Path) -> None:
    path = tmp_path / "bad.rules"
    path.write_text("# players\ngame g {\n  players 0..99\n}\n", encoding="utf-8")
    with pytest.raises(SemanticError) as info:
        load(path)
    (diag,) = info.value.diagnostics
    assert (diag.location.line, diag.location.column) == (3, 3)
    assert diag.code == "bad-players" and "at least 1 player" in diag.message


@pytest.mark.parametrize("suffix", [".json", ".yaml"])
def test_data_file_error_names_the_json_path(tmp_path: Path, multzo_ir: dict,
                                             suffix: str) -> None:
    ir = strip_at(multzo_ir)
    index, _ = next((i, z) for i, z in enumerate(ir["zones"]) if z["name"] == "hand")
    ir["zones"][index]["kind"] = "heap"
    path = tmp_path / f"bad{suffix}"
    dump = json.dumps if suffix == ".json" else yaml.safe_dump
    path.write_text(dump(ir), encoding="utf-8")
    with pytest.raises(SchemaError) as info:
        load(path)
    (diag,) = info.value.diagnostics
    assert diag.location.path == f"$.zones[{index}].kind"
    # the position is that of the bad value in the data file itself
    text = path.read_text(encoding="utf-8")
    assert diag.location.line is not None and diag.location.column is not None
    line = text.splitlines()[diag.location.line - 1]
    assert line[diag.location.column - 1:].startswith(("heap", '"heap"'))
    assert "'heap' is not one of" in diag.message


# ---------------------------------------------------------------------- text IR and the limits

# The IR of a text is schema-checked only when it holds a value beyond one of the
# limits of validate_parsed (a long list, a big number, a long word or text): its
# shape always matches the schema (the tests of valid IR above, the examples of the
# docs in test_docs.py, the fuzzed texts of test_fuzz_validate.py).

#: Limits the IR of a text meets by other means: (keyword, bound, why).
LIMITS_MET_OTHERWISE = {
    ("minimum", 1): "players: loader.check_declarations refuses fewer than 1",
    ("maximum", 16): "players: loader.check_declarations refuses more than 16",
    ("minimum", 0): "positions (at) are Lark's lines and columns, never negative",
}


def schemas_in(schema: Any) -> Iterator[dict]:
    """Every subschema (not the maps of ``properties`` and ``$defs`` themselves)."""
    if isinstance(schema, dict):
        yield schema
        for key, value in schema.items():
            if key in ("properties", "$defs"):
                for sub in value.values():
                    yield from schemas_in(sub)
            elif isinstance(value, (dict, list)):
                yield from schemas_in(value)
    elif isinstance(schema, list):
        for value in schema:
            yield from schemas_in(value)


def test_every_limit_a_text_can_break_sets_off_the_schema_check() -> None:
    from rulepack.schemas import validate as v
    keywords = set()
    for sub in schemas_in(ruleset_schema()):
        keywords.update(sub)
        for key, bound in sub.items():
            if key == "maxItems":
                # 1 and 2: an operator's operands, [lo, hi], [line, column]: the grammar's
                assert bound <= 2 or bound >= v.LIST_LIMIT, sub.get("title")
            elif key == "minItems":
                assert bound <= 2, sub.get("title")  # the grammar's too
            elif key == "maxLength":
                # a name (a word: the only strings of maxLength 64 are names) or a text
                assert bound >= v.TEXT_LIMIT or (
                    bound == v.NAME_LIMIT and sub["pattern"] == "^[A-Za-z_][A-Za-z0-9_]*$"), sub
            elif key == "maximum":
                assert bound >= v.NUMBER_LIMIT or (key, bound) in LIMITS_MET_OTHERWISE, sub
            elif key == "minimum":
                assert bound <= -v.NUMBER_LIMIT or (key, bound) in LIMITS_MET_OTHERWISE, sub
    assert keywords <= {"$schema", "$defs", "$ref", "title", "description", "type", "required",
                        "properties", "additionalProperties", "items", "prefixItems", "allOf",
                        "if", "then", "else", "enum", "const", "pattern", "maxItems",
                        "minItems", "maxLength", "maximum", "minimum"}, \
        "a new keyword: decide whether text can break it (validate_parsed)"


def test_names_of_the_grammar_are_names_of_the_schema() -> None:
    """Every name of a text is a NAME token, which the schema's name pattern allows."""
    from rulepack.grammar.tables import GRAMMAR
    grammar = GRAMMAR.read_text(encoding="utf-8")
    (regex,) = [line.split("/")[1] for line in grammar.splitlines() if line.startswith("NAME:")]
    assert f"^{regex}$" == ruleset_schema()["$defs"]["name"]["pattern"]


GAME = "game g {\n  players 2\n}\n"


@pytest.mark.parametrize("text,line,fragment", [
    (GAME + f"zone {'z' * 65}: stack\n", 4, "is too long"),
    ("game g {\n  players 2\n  seats " + ", ".join(f"s{i}" for i in range(17)) + "\n}\n", 1,
     "is too long"),
    (GAME + "option n: 0..2000000 = 1\n", 4, "2000000 is greater than the maximum of 1000000"),
    (GAME + "option n: -2000000..0 = 0\n", 4, "-2000000 is less than the minimum of -1000000"),
    (GAME + "const big = 10000000000000\n", 4, "greater than the maximum of 1000000000000"),
    (GAME + f'require true "{"x" * 10001}"\n', 4, "is too long"),
    (GAME + "define f(" + ", ".join(f"p{i}" for i in range(21)) + ") = 1\n", 4, "is too long"),
], ids=["long-name", "seats", "option-max", "option-min", "big-number", "long-text",
        "define-params"])
def test_text_beyond_a_limit_is_refused_at_its_line(tmp_path: Path, text: str, line: int,
                                                    fragment: str) -> None:
    path = tmp_path / "limits.rules"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(SchemaError) as info:
        load(path)
    diag = info.value.diagnostics[0]
    assert diag.code == "schema" and diag.location.line == line, diag.format()
    assert fragment in diag.message


def test_text_within_the_limits_is_not_schema_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    from rulepack.schemas import validate as v

    def refuse(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("the schema check ran")
    monkeypatch.setattr(v, "validate_ir", refuse)
    for name in bundled_rulesets():
        read_ir(bundled_dir() / f"{name}.rules")
    with pytest.raises(AssertionError):
        v.validate_parsed({"constants": [{"name": "n" * 65}]})
    # a list of declarations is counted against its own (larger) limit
    assert not v.may_break_limits({"defines": [{"name": "d"}] * 20})
    assert v.may_break_limits({"defines": [{"name": "d"}] * 65})
    assert v.may_break_limits({"game": {"seats": ["s"] * 17}})
