"""The static type check: the kind of every expression, and the values of the
wrong kind, reported before any game is played.

After an instance has compiled (names, arities), this pass infers a *kind* for
each expression — constants and options by their values, zones, components,
built-in names and functions by their signatures, pieces' attributes by the
values the pieces have (a die's by its faces), variables by their initial value
and every ``set``, ``define`` results and parameters by their bodies and calls
(a fixpoint), names bound by ``for``, ``let``, comprehensions and action
parameters by what they range over — and reports, located at the argument or
operator, a value that is not, or may not be, what is needed:

- operators (``+ - * / // %``, comparisons) and attributes (``X.NAME``) given a
  kind that fails, or a union of kinds one of which fails (a map's values, a
  variable given a number and a list), with where that kind comes from;
- ``==``/``!=`` between values that are never equal (always true or false);
- a pattern, pieces, a cell, a grid, a direction, players for the built-ins and
  statements that take them;
- a player (a seat number known now: 0 to the number of players less one) to
  index a ``per player`` variable or zone, a team for ``per team``, a key of the
  family for a ``per VALUE`` zone.

``none`` is let through where a value may be ``none`` (an optional value: what is
``none`` is a run-time matter, with its located error), and so is what no kind is
known of (a key of a map). Errors: :class:`~rulepack.errors.SemanticError`
located at the expression, code ``wrong-kind``; warnings (a number taken as a
seat): ``number-as-seat``. :func:`inferred_kinds` gives what the check infers
(``rulepack explain --types``, the language server's hover).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from rulepack.ir import Node, names_in, nodes as _nodes
from rulepack.compiler.scope import Global
from rulepack.engine.values import Cell, PatternRef, Piece, Player, ZoneRef
from rulepack.errors import Diagnostic, Location, SemanticError

if TYPE_CHECKING:  # pragma: no cover
    from rulepack.compiler.instance import Instance


@dataclass(frozen=True)
class Inferred:
    """What the check inferred for one name or expression of a ruleset: where it is
    (1-based ``line`` and ``column``), its text in short (``'rolled'``,
    ``pips[...]``, ``t.rank``, ``count(...)``) and its kind in words (``a number or
    a word``; ``unknown`` where the check knows nothing)."""

    line: int
    column: int
    text: str
    kind: str


@dataclass(frozen=True)
class Kind:
    """What an expression certainly gives: one or more basic kinds (``pattern``,
    ``zone``, ``piece``, ``cell``, ``player``, ``number``, ``bool``, ``word``,
    ``none``, ``list``, ``tuple``, ``map``), the kind of a list's items and of a
    tuple's parts where known, and one word it may be (for messages)."""

    basic: frozenset[str]
    items: "Kind | None" = None
    parts: "tuple[Kind | None, ...] | None" = None
    word: str | None = None
    #: the whole number it certainly is (a literal, a constant, ``for p in 5``)
    number: int | None = None


#: An unknown kind.
Unknown = None


def _of(*basic: str, items: Kind | None = None) -> Kind:
    return Kind(frozenset(basic), items)


def union(a: Kind | None, b: Kind | None) -> Kind | None:
    if a is None or b is None:
        return None
    both = a.basic & b.basic & {"list", "map"}
    items = union(a.items, b.items) if both else (a.items or b.items)
    parts = None
    if a.parts is not None and b.parts is not None and len(a.parts) == len(b.parts):
        parts = tuple(union(x, y) for x, y in zip(a.parts, b.parts))
    elif "tuple" not in (a.basic & b.basic):
        parts = a.parts or b.parts
    number = a.number if a.number == b.number else None
    word = a.word or b.word
    if a.word != b.word and "word" in a.basic and "word" in b.basic:
        word = None                    # (two words: neither is the one it is)
    return Kind(a.basic | b.basic, items, parts, word, number)


def of_value(value: object, depth: int = 0) -> Kind | None:
    """The kind of a value computed at compile time."""
    if depth > 8:
        return None
    # the engine's values first: some of them are numbers or texts underneath
    if isinstance(value, PatternRef):
        return _of("pattern")
    if isinstance(value, ZoneRef):
        return _of("zone")
    if isinstance(value, Piece):
        return _of("piece")
    if isinstance(value, Cell):
        return _of("cell")
    if isinstance(value, Player):
        return _of("player")
    if isinstance(value, bool):
        return _of("bool")
    if type(value) is int:
        return Kind(frozenset({"number"}), number=value)
    if isinstance(value, (int, float)):
        return _of("number")
    if isinstance(value, str):
        return Kind(frozenset({"word"}), word=value)
    if value is None:
        return _of("none")
    if isinstance(value, tuple):
        return Kind(frozenset({"tuple"}), parts=tuple(of_value(v, depth + 1) for v in value))
    if isinstance(value, list):
        items: Kind | None = Kind(frozenset())
        for v in value[:500]:
            items = union(items, of_value(v, depth + 1))
            if items is None:
                break
        return Kind(frozenset({"list"}), items)
    if isinstance(value, dict):
        values: Kind | None = Kind(frozenset())
        for v in list(value.values())[:500]:
            values = union(values, of_value(v, depth + 1))
            if values is None:
                break
        return Kind(frozenset({"map"}), values)     # (a map's items: its values' kind)
    return None


_PLAYERS = _of("list", items=_of("player"))
_DIRECTION = Kind(frozenset({"tuple"}), parts=(_of("number"), _of("number")))
_BUILTIN_NAMES: dict[str, Kind | None] = {
    "players": _PLAYERS, "others": _PLAYERS, "active": _PLAYERS,
    # (none outside any turns loop)
    "current": _of("player", "none"), "next": _of("player", "none"), "round": _of("number"),
    "nobody": Kind(frozenset({"word"}), word="nobody"),
    "everyone": Kind(frozenset({"word"}), word="everyone"),
    "owner": Kind(frozenset({"word"}), word="owner"),   # (outside a where: a word)
    "axes": _of("list", items=_DIRECTION), "directions": _of("list", items=_DIRECTION),
}
_PIECE_LIST = _of("list", items=_of("piece"))
_CALL_RESULTS: dict[str, Kind | None] = {
    "count": _of("number"), "sum": _of("number"), "abs": _of("number"),
    "cells": _of("list", items=_of("cell")), "empty": _of("list", items=_of("cell")),
    "at": _of("piece", "none"), "best": _PIECE_LIST, "matches": _of("bool"),
    "partitionable": _of("bool"), "usable": _PIECE_LIST, "is_active": _of("bool"),
    "order": _PLAYERS, "after": _of("player"), "score": _of("number"),
    "neighbours": _of("list", items=_of("cell")), "knows": _of("bool"),
    "cell": _of("cell", "none"), "step": _of("cell", "none"),
    "ends": _of("list", items=_of("cell")),
    "team": _of("number"), "any": _of("bool"), "all": _of("bool"),
    "partition": _of("list", "none", items=_PIECE_LIST),
    "stack_at": _PIECE_LIST, "height": _of("number"), "under": _of("piece", "none"),
}
#: what counts as a number in arithmetic (a seat is its number)
_NUMERIC = frozenset({"number", "player"})
#: what ``+`` joins as collections (anything else joins them as one more item)
_JOINS = frozenset({"list", "zone"})
#: what a list or tuple compared with a single value is (Python refuses it)
_SEQUENCES = frozenset({"list", "tuple"})
#: values with no attribute to read (``X.NAME`` fails in play)
_NO_ATTRIBUTES = frozenset({"number", "word", "player", "bool"})
#: the operators whose test of their operands the generated code drops where both
#: are proven numbers (:meth:`KindChecker.prove_numbers`); ``*``, ``/``, ``//`` and
#: ``%`` keep theirs (a product's size, a division's exactness and zero)
_PROVABLE = frozenset({"+", "-", "<", "<=", ">", ">="})
#: the operators whose operands :meth:`KindChecker.check_arithmetic` checks
_ARITHMETIC = frozenset({"+", "-", "*", "/", "//", "%", "<", "<=", ">", ">="})
_VERBS = {"+": "add", "-": "subtract", "*": "multiply", "/": "divide", "//": "divide",
          "%": "take the remainder"}
#: the kinds of the names every piece has (see :func:`rulepack.engine.runtime.attribute`)
_PSEUDO_KINDS: dict[str, Kind] = {
    "owner": _of("player", "none"), "face": _of("word"), "zone": _of("zone"),
    "name": _of("word"), "kind": _of("word"), "cell": _of("cell", "none"),
    "row": _of("number", "none"), "col": _of("number", "none"), "angle": _of("number"),
}
#: values that can be equal to each other (a seat is its number; true is 1)
_EQUAL_CLASSES = {"number": "number", "player": "number", "bool": "number"}
#: Functions whose first argument is a pattern, and whose other arguments are pieces.
_PATTERN_FUNCTIONS = {"best", "matches", "partition", "partitionable", "usable"}


def describe(kind: Kind, optional: bool = False) -> str:
    """``a word ('tes')``, ``a list of players``, ``a number``...; with
    ``optional``, ``... or none`` where the value may be ``none``."""
    names = {"pattern": "a pattern", "zone": "a zone", "piece": "a piece", "cell": "a cell",
             "player": "a player", "number": "a number", "bool": "true or false",
             "word": f"a word ({kind.word!r})" if kind.word else "a word", "none": "none",
             "tuple": "a tuple", "map": "a map"}
    parts = []
    for b in sorted(kind.basic - {"none"}) or ["none"]:
        if b in ("list", "map"):
            inner = kind.items
            what = f"a {b}"
            if inner is not None and inner.basic - {"none"}:
                what += " of " + " or ".join(
                    {"pattern": "patterns", "zone": "zones", "piece": "pieces",
                     "cell": "cells", "player": "players", "number": "numbers",
                     "bool": "truth values", "word": "words", "list": "lists",
                     "tuple": "tuples", "map": "maps"}[b] for b in sorted(inner.basic - {"none"}))
            parts.append(what)
        else:
            parts.append(names[b])
    if optional and "none" in kind.basic and kind.basic - {"none"}:
        parts.append("none")
    return " or ".join(parts)


class KindChecker:
    """Checks one compiled instance (see the module's docstring)."""

    def __init__(self, inst: "Instance") -> None:
        self.inst = inst
        self.globals: dict[str, Global] = inst.globals
        self.file = inst.file
        #: the kind of each variable's value (of each player's, for ``per player``):
        #: its initial value's and every value a ``set`` gives it
        self.var_kinds: dict[str, Kind | None] = {}
        #: report mistakes (off while the variables' kinds are gathered)
        self.reporting = False
        self.assigned: dict[str, Kind | None] = {}
        #: each attribute's kind: of every value a piece has for it (a die's
        #: rolled attribute: of its faces)
        self.attr_kinds = attribute_kinds(inst)
        #: each define's result kind (its parameters unknown), once worked out
        self.define_kinds: dict[str, Kind | None] = {}
        self._defining: set[str] = set()
        #: each define's parameters, and the kind of each: of every argument a
        #: call gives it (``passed``: gathered by the walk now going on)
        self.define_params: dict[str, list[str]] = {
            d["name"]: [p for p in d.get("params") or [] if isinstance(p, str)]
            for d in inst.ir.get("defines", []) if isinstance(d, dict)
            and isinstance(d.get("name"), str)}
        self.param_kinds: dict[str, list[Kind | None]] = {}
        self.passed: dict[str, list[Kind | None]] = {}
        #: warnings about a valid ruleset (a number where a seat is taken)
        self.warnings: list[Diagnostic] = []
        #: a variable → the ``set`` statements that give it a number (not a player)
        self.number_sets: dict[str, list[Node]] = {}
        #: where each basic kind of a variable's value, or of a define parameter's
        #: (``(define, index)``), first comes from: the expression that gives it
        self.origins: dict[object, dict[str, Node]] = {}
        #: the define whose body the walk is in
        self.in_define: str | None = None
        #: whether the verdict read the number of players (a seat number known now)
        self.read_players = False
        #: the variables some ``set`` may give ``none`` (of the kinds it can tell
        #: outside any block: a let's name is not known there)
        self.gives_none: set[str] = set()
        #: ``id()`` of each operator node (``+ - < <= > >=``) both of whose sides
        #: are certainly numbers: the generated code needs no test of them
        self.numbers: set[int] = set()
        #: ``id()`` of an action's parameter (its IR) → the kind of the values it takes
        #: (what :mod:`rulepack.compiler.actionspace` lists where it cannot follow
        #: the values themselves)
        self.param_elements: dict[int, Kind | None] = {}
        #: (line, column, the text) → its kind in words, when recording
        self.recorded: dict[tuple[int, int, str], str] | None = None

    # ------------------------------------------------------------------ entry
    def check(self, record: bool = False) -> None:
        """Infer the kinds, then check every expression.

        :param record: instead of checking, record the kind of each name and
            expression (in :attr:`recorded`; nothing is raised).
        :raises SemanticError: a value of the wrong kind, located."""
        variables = [v for v in self.inst.ir.get("variables", []) if isinstance(v, dict)]
        self.var_kinds = {v["name"]: Kind(frozenset()) for v in variables}
        self.param_kinds = {name: [Kind(frozenset())] * len(params)
                            for name, params in self.define_params.items()}
        for _ in range(10):  # what a set gives may depend on what the variables hold
            self.assigned = {v["name"]: self.kind(v.get("expr"), {}) for v in variables}
            self.passed = {name: [Kind(frozenset())] * len(params)
                           for name, params in self.define_params.items()}
            self.define_kinds = {}
            self.walk_all()
            if self.assigned == self.var_kinds and self.passed == self.param_kinds:
                break
            self.var_kinds = dict(self.assigned)
            self.param_kinds = dict(self.passed)
        else:
            # not settled: unknown
            self.var_kinds = {name: None for name in self.var_kinds}
            self.param_kinds = {name: [None] * len(params) for name, params in
                                self.define_params.items()}
        self.define_kinds = {}
        if record:
            self.recorded = {}
            self.walk_all()
            return
        self.reporting = True
        self.walk_all()

    def record(self, node: Node, env: dict[str, Kind | None]) -> None:
        """Note the kind of a name, attribute, call or element read (see
        :meth:`check`'s ``record``); the first kind noted at a place stays."""
        at = node.get("at")
        if self.recorded is None or not at or node.get("k") not in ("name", "attr", "call",
                                                                      "index"):
            return
        place = (int(at[0]), int(at[1]), _shown(node).strip("'"))
        g = self.globals.get(str(node.get("name"))) if node.get("k") == "name" and \
            node.get("name") not in env else None
        if g is not None and g.kind == "zone_family":
            self.recorded.setdefault(place, "zones, one per key")
        elif g is not None and g.kind in ("player_var", "team_var"):
            each = "player" if g.kind == "player_var" else "team"
            self.recorded.setdefault(place, f"one value per {each}: " +
                                     in_words(self.var_kinds.get(str(node["name"]))))
        else:
            self.recorded.setdefault(place, in_words(self.kind(node, env)))

    def walk_all(self) -> None:
        ir = self.inst.ir
        for v in ir.get("variables", []):
            if isinstance(v, dict) and isinstance(v.get("expr"), dict):
                self.note_origin(v.get("name"), self.kind(v["expr"], {}), v["expr"])
        # what setup sets; current and next (players in every turn: a define, a
        # phase or a formula is read within turns, or at the end)
        known = {**self.set_by_setup(), _KNOWN + _shape(_CURRENT): None,
                 _KNOWN + _shape(_NEXT): None}
        top = {key: None for key in known if key not in (_KNOWN + _shape(_CURRENT),
                                                          _KNOWN + _shape(_NEXT))}
        for d in ir.get("defines", []):
            env: dict[str, Kind | None] = {**known, **self.define_env(d.get("name"))}
            self.in_define = d.get("name") if isinstance(d.get("name"), str) else None
            self.walk(d.get("expr"), env)
        self.in_define = None
        for key in ("score", "heuristic", "winner"):
            if isinstance(ir.get(key), dict):
                env = dict(known)
                for bind in ("player", "param", "bind"):
                    if isinstance(ir[key].get(bind), str):
                        env[ir[key][bind]] = _of("player")
                second = ir[key].get("search")      # a second heuristic, walked within
                if isinstance(second, dict) and isinstance(second.get("player"), str):
                    env[second["player"]] = _of("player")
                self.walk(ir[key], env)
        self.walk(ir.get("setup"), {})
        self.walk(ir.get("play"), dict(top))   # (current: none outside its turns loops)
        for phase in ir.get("phases", []):
            self.walk(phase.get("body"), dict(known))

    def set_by_setup(self) -> dict[str, Kind | None]:
        """Marks (see :meth:`narrowed`) of the variables the setup gives a value
        that is not ``none`` by a ``set`` of its own (not within an ``if`` or a
        loop): they are not ``none`` when play starts, nor after, unless a ``set``
        gives them ``none`` again."""
        self.gives_none = set()
        for key in ("setup", "play", "phases", "defines"):
            for n in _nodes(self.inst.ir.get(key)):
                if n.get("k") == "set" and n.get("index") is None:
                    kind = self.kind(n.get("expr"), {})
                    if kind is not None and "none" in kind.basic:
                        self.gives_none.add(str(n.get("name")))
        out: dict[str, Kind | None] = {}
        env: dict[str, Kind | None] = {}
        for item in self.inst.ir.get("setup") or []:
            if isinstance(item, dict) and item.get("k") == "let" and \
                    isinstance(item.get("bind"), str):
                env[item["bind"]] = self.kind(item.get("expr"), env)
            elif isinstance(item, dict) and item.get("k") == "set":
                mark = self.set_mark(item, env, everywhere=True)
                if mark is not None:
                    out[mark] = env[mark] = None
        return out

    def set_mark(self, node: Node, env: dict[str, Kind | None],
                 everywhere: bool = False) -> str | None:
        """The mark (see :meth:`narrowed`) that ``set X = EXPR`` gives ``X`` for what
        follows it in its block (``everywhere``: for all that runs after it, where
        no ``set`` anywhere may give ``X`` ``none``), if ``EXPR`` is never
        ``none``; else ``None``."""
        name = node.get("name")
        if not isinstance(name, str) or node.get("index") is not None or name in env \
                or (everywhere and name in self.gives_none):
            return None
        kind = self.kind(node.get("expr"), env)
        if kind is None or not kind.basic or "none" in kind.basic:
            return None
        return _KNOWN + _shape({"k": "name", "name": name})

    def error(self, message: str, node: object) -> SemanticError:
        at = (node.get("at") if isinstance(node, dict) else None) or [None, None]
        return SemanticError.at(message, Location(self.file, at[0] or None, at[1] or None),
                                code="wrong-kind")

    # ------------------------------------------------------------------ walking
    def walk(self, node: object, env: dict[str, Kind | None]) -> None:
        if isinstance(node, list):
            env = dict(env)                  # a block: its lets stay in it
            walk = self.walk
            for item in node:
                walk(item, env)
                if isinstance(item, dict) and item.get("k") == "let" and \
                        isinstance(item.get("bind"), str):
                    # (a name's kind holds wherever it is read: what a test
                    # against none tells of the value it is given is left out)
                    env[item["bind"]] = self.kind(item.get("expr"), _plain(env))
                elif isinstance(item, dict) and item.get("k") == "set":
                    # after 'set X = a player' in this block, X is not none (unless
                    # some set anywhere may give it none)
                    mark = self.set_mark(item, env)
                    if mark is not None:
                        env[mark] = None
                    elif isinstance(item.get("name"), str) and item.get("index") is None:
                        # given what may be none: what a test told of it no longer holds
                        env.pop(_KNOWN + _shape({"k": "name", "name": item["name"]}), None)
            return
        if not isinstance(node, dict):
            return
        k = node.get("k")
        inner = env
        binds = "bind" in node
        if binds and isinstance(node.get("in"), dict):
            inner = dict(env)
            self.bind(node["bind"], self.element(self.kind(node["in"], _plain(env))), inner)
            self.walk(node["in"], inner)   # its own where may read the name
        if k == "action":
            inner = dict(env)
            for param in node.get("params") or []:
                if isinstance(param, dict):
                    element = self.element(self.kind(param.get("in"), _plain(inner)))
                    self.param_elements[id(param)] = element
                    self.bind(param.get("bind"), element, inner)
                    self.walk(param.get("in"), inner)   # its own where may read the name
                    self.walk(param.get("if"), inner)
        elif k == "where":
            inner = dict(env)   # the condition reads attributes of each item by name
            of = self.kind(node.get("of"), env)
            pieces = of is not None and (of.basic == {"zone"} or (
                of.basic == {"list"} and of.items is not None and of.items.basic == {"piece"}))
            for name in self.inst.attributes:
                inner[name] = self.attr_kinds.get(name) if pieces else None
            for name, kind in _PSEUDO_KINDS.items():
                if name not in self.attr_kinds:
                    inner[name] = kind if pieces else None
        elif k == "run":
            inner = dict(env)
            for name in self.inst.attributes:
                inner[name] = None
        elif k == "set" and node.get("name") in self.assigned and \
                node.get("name") not in env:
            name = node["name"]
            given = self.kind(node.get("expr"), env)
            self.assigned[name] = union(self.assigned[name], given)
            self.note_origin(name, given, node.get("expr") or node)
            if self.reporting and given is not None and node.get("index") is None and \
                    given.basic - {"none"} == {"number"}:
                self.number_sets.setdefault(name, []).append(node)
        if k == "call" and node.get("fn") in self.passed:
            passed = self.passed[node["fn"]]
            for i, arg in enumerate((node.get("args") or [])[:len(passed)]):
                given = self.kind(arg, env)
                passed[i] = union(passed[i], given)
                self.note_origin((node["fn"], i), given, arg)
        # (a let's value, and what a where filters, are read outside the names
        # they bind)
        outside = env if k in ("let", "where") else inner
        if self.recorded is not None:
            self.record(node, outside)
        walk = self.walk
        for key, value in node.items():
            if binds and (key == "at" or key == "in"):
                continue
            if key == "params" and k == "action":
                continue
            if not isinstance(value, (dict, list)):
                continue
            if k == "where" and key == "of":
                walk(value, env)
            elif k == "if" and key in ("then", "else"):
                walk(value, self.narrowed(inner, node.get("cond"), key == "then"))
            elif k == "comp" and key == "expr":
                walk(value, self.narrowed(inner, node.get("if"), True))
            elif k == "action" and key == "body":
                walk(value, self.narrowed(inner, node.get("guard"), True))
            elif k == "while" and key == "body":
                walk(value, self.narrowed(inner, node.get("cond"), True))
            elif k == "turns" and key != "from":
                # within a turns loop, current and next are players
                walk(value, {**inner, _KNOWN + _shape(_CURRENT): None,
                             _KNOWN + _shape(_NEXT): None})
            elif k == "op" and node.get("op") in ("and", "or") and key == "args" and \
                    len(value) == 2:
                walk(value[0], inner)   # the right side is read only if the left is true
                walk(value[1], self.narrowed(inner, value[0], node["op"] == "and"))
            else:
                walk(value, inner)
        if self.reporting:       # (after its parts: the innermost mistake is reported)
            self.check_node(node, outside)

    # ------------------------------------------------------------------ none
    def narrowed(self, env: dict[str, Kind | None], cond: object,
                 truth: bool) -> dict[str, Kind | None]:
        """``env`` where ``cond`` is ``truth``: each expression it tests against
        ``none`` (``X != none``, ``X == none``, under ``not``, ``and``, ``or``) known
        not to be ``none`` where that follows (a name: its kind without ``none``;
        any other expression: a mark under its shape, see :func:`_shape`)."""
        found = _not_none(cond, truth)
        if not found:
            return env
        out = dict(env)
        for x in found:
            out[_KNOWN + _shape(x)] = None
        return out

    def optional_seat(self, node: object, env: dict[str, Kind | None], context: str) -> None:
        """Warn where a variable that may hold ``none`` (an optional player: a
        ``set`` gives it ``none`` somewhere) is taken as a player with no test of it
        before (``if X != none``, ``X != none and ...``, ``while X != none``, a
        ``set`` of a player before it in its block or at the top of the setup):
        ``none`` there fails in play. A warning, not an error: the flow may make it
        safe in ways the check does not follow (a phase run only after the set).
        A variable whose only ``none`` is its initial value is let through (``none``
        marks it as not yet set; the flow sets it before it is read), and so is
        any other value that may be ``none`` (``at(c).owner``): play stops there
        with a located error."""
        if not isinstance(node, dict) or not self.reporting:
            return
        name = node.get("name") if node.get("k") == "name" else None
        if not isinstance(name, str) or name in env or name not in self.assigned or \
                name not in self.gives_none:
            # not a variable, or one whose only none is its initial value (the flow
            # sets it before it is read)
            return
        kind = self.kind(node, env)
        if kind is None or kind.basic != {"player", "none"} or _KNOWN + _shape(node) in env:
            return
        shown = _shown(node)
        given = self.origin(node, frozenset({"none"}), env)
        self.warnings.append(self.warning(
            f"{context} takes a player, and {shown} may be none here{given}: none fails in "
            f"play (test it first: if {shown.strip(chr(39))} != none ...)", node,
            "optional-seat"))

    def note_origin(self, key: object, kind: Kind | None, node: object) -> None:
        """Remember ``node`` as where each basic kind of ``kind`` first reaches the
        variable or define parameter ``key``."""
        if kind is None or not isinstance(node, dict) or not node.get("at"):
            return
        seen = self.origins.setdefault(key, {})
        for b in kind.basic:
            seen.setdefault(b, node)

    def origin(self, node: object, basic: frozenset[str], env: dict[str, Kind | None]) -> str:
        """`` (line L, column C gives it ...)``: where a variable or a define's
        parameter named by ``node`` is first given a value of one of the ``basic``
        kinds, or ``""``."""
        if not (isinstance(node, dict) and node.get("k") == "name"):
            return ""
        name = node.get("name")
        key: object = None
        if name in env:
            params = self.define_params.get(self.in_define or "", [])
            if name in params:
                key = (self.in_define, params.index(str(name)))
        elif isinstance(name, str) and name in self.assigned:
            key = name
        given = next((n for b, n in sorted(self.origins.get(key, {}).items())
                      if b in basic), None)
        if given is None:
            return ""
        line, column = given["at"][0], given["at"][1]
        return f" (line {line}, column {column} gives it one)"

    def bind(self, bind: object, kind: Kind | None, env: dict[str, Kind | None]) -> None:
        if isinstance(bind, str):
            env[bind] = kind
        elif isinstance(bind, list):
            parts = kind.parts if kind is not None and kind.basic == {"tuple"} else None
            for i, name in enumerate(bind):
                part = parts[i] if parts is not None and i < len(parts) else None
                self.bind(name, part, env)

    # ------------------------------------------------------------------ kinds
    def element(self, kind: Kind | None) -> Kind | None:
        """The kind of an item of a value of this kind used as a collection (see
        :func:`rulepack.engine.runtime.items`): a list's items, a zone's pieces, a
        tuple's parts; any other single value is a collection of itself."""
        if kind is None:
            return None
        if kind.basic == {"list"}:
            return kind.items
        if kind.basic == {"zone"}:
            return _of("piece")
        if kind.basic == {"tuple"} and kind.parts is not None:
            merged: Kind | None = Kind(frozenset())
            for part in kind.parts:
                merged = union(merged, part)
            return merged
        if kind.basic and not kind.basic & {"list", "zone", "tuple", "map", "none"}:
            return kind
        return None

    def kind(self, node: object, env: dict[str, Kind | None]) -> Kind | None:
        found = self.kind_of(node, env)
        if found is not None and "none" in found.basic and len(found.basic) > 1 and \
                isinstance(node, dict) and any(key.startswith(_KNOWN) for key in env) and \
                _KNOWN + _shape(node) in env:
            return Kind(found.basic - {"none"}, found.items, found.parts, found.word,
                        found.number)        # tested against none before: not none here
        return found

    def kind_of(self, node: object, env: dict[str, Kind | None]) -> Kind | None:
        """:meth:`kind`, but for what a test against ``none`` tells."""
        if not isinstance(node, dict):
            return None
        k = node.get("k")
        if k == "lit":
            return of_value(node.get("value"))
        if k == "name":
            return self.name_kind(node.get("name"), env)
        if k == "list":
            items: Kind | None = Kind(frozenset())
            for item in node.get("items", []):
                items = union(items, self.kind(item, env))
            return Kind(frozenset({"list"}), items)   # no items: nothing known against it
        if k == "map":
            values: Kind | None = Kind(frozenset())
            for pair in node.get("items", []):
                if isinstance(pair, list) and len(pair) == 2:
                    values = union(values, self.kind(pair[1], env))
            return Kind(frozenset({"map"}), values)
        if k == "tuple":
            return Kind(frozenset({"tuple"}),
                        parts=tuple(self.kind(i, env) for i in node.get("items", [])))
        if k == "range":
            return _of("list", items=_of("number"))
        if k == "comp" and "bind" in node:
            inner = dict(env)
            self.bind(node["bind"], self.element(self.kind(node.get("in"), env)), inner)
            return Kind(frozenset({"list"}), self.kind(node.get("expr"), inner))
        if k == "where":
            return self.kind(node.get("of"), env)
        if k == "index":
            return self.index_kind(node, env)
        if k == "call":
            fn = node.get("fn")
            if fn in ("distinct", "unique"):
                of = self.kind((node.get("args") or [None])[0], env)
                return None if of is None else Kind(frozenset({"list"}), self.element(of))
            if fn in ("max", "min"):                        # (none if empty)
                one = self.element(self.kind((node.get("args") or [None])[0], env))
                return None if one is None else union(one, _of("none"))
            if fn == "flatten":
                part = self.element(self.kind((node.get("args") or [None])[0], env))
                if part is not None and part.basic and not part.basic & {"list", "tuple"}:
                    return Kind(frozenset({"list"}), part)
                return None
            if fn in ("random", "first", "last", "only"):     # (none: no element, or
                arg = (node.get("args") or [None])[0]       # not only one)
                one = self.element(self.kind(arg, env))
                if one is None or (fn != "only" and _never_empty(arg, self.globals)):
                    return one
                return union(one, _of("none"))
            if fn in self.globals:
                return self.define_kind(str(fn))
            return _CALL_RESULTS.get(str(fn))
        if k == "attr":
            return self.attr_kind(node, env)
        if k == "argmax":
            return Kind(frozenset({"list"}), self.element(self.kind(node.get("in"), env)))
        if k == "top":
            of = self.kind(node.get("of"), env)
            if of is None or not of.basic - {"none"}:
                return None
            basic = of.basic - {"none"}
            if basic <= {"zone", "cell"}:     # a cell: its stack's pieces
                element: Kind | None = _of("piece")
            elif basic == {"list"}:
                element = of.items
            elif not basic & {"zone", "list", "tuple", "map"}:
                element = Kind(basic, word=of.word)     # a single value: its own top
            else:
                return None
            if node.get("count") is None:
                return None if element is None else union(element, _of("none"))
            return Kind(frozenset({"list"}), element)
        if k == "run":
            return _of("list", items=_of("cell"))
        if k == "op" and node.get("op") in _ARITHMETIC and len(node.get("args") or []) == 2:
            return self.arithmetic_kind(node, env)
        if k == "op" and node.get("op") == "-" and len(node.get("args") or []) == 1:
            operand = self.kind(node["args"][0], env)
            return _of("number") if operand is not None and operand.basic and \
                operand.basic <= _NUMERIC else None
        if k == "op" and node.get("op") in ("==", "!=", "in", "not in", "not", "and", "or"):
            return _of("bool")
        if k == "if" and "then" in node and "else" in node:    # (an expression's if)
            return union(self.kind(node.get("then"), env), self.kind(node.get("else"), env))
        return None

    def name_kind(self, name: object, env: dict[str, Kind | None]) -> Kind | None:
        if name in env:
            return env[name]
        if not isinstance(name, str):
            return None
        g = self.globals.get(name)
        if g is None:
            return _BUILTIN_NAMES.get(name)
        if g.kind in ("const", "option", "symbol", "pattern"):
            return of_value(g.value)
        if g.kind == "zone":
            return _of("zone")
        if g.kind == "component":
            return _PIECE_LIST
        if g.kind == "builtin":
            return _BUILTIN_NAMES.get(name)
        if g.kind == "var":
            return self.var_kinds.get(name)
        return None

    def index_kind(self, node: Node, env: dict[str, Kind | None]) -> Kind | None:
        of = node.get("of")
        if isinstance(of, dict) and of.get("k") == "name" and of.get("name") not in env:
            g = self.globals.get(str(of.get("name")))
            if g is not None and g.kind == "zone_family":
                return _of("zone")
            if g is not None and g.kind in ("player_var", "team_var"):
                return self.var_kinds.get(str(of.get("name")))
        base = self.kind(of, env)
        if base is not None and base.basic == {"list"}:
            return base.items
        if base is not None and base.basic == {"map"}:
            key = self.constant(node.get("index"), env)
            value = self.constant(of, env)
            if isinstance(value, dict):
                self.read_players = True     # (a constant's value, not only its kind)
                try:
                    if key in value:
                        return of_value(value[key])   # a constant key of a constant map
                except TypeError:
                    pass
            return base.items
        if base is not None and base.basic == {"tuple"} and base.parts:
            index = node.get("index")
            if isinstance(index, dict) and index.get("k") == "lit" and \
                    type(index.get("value")) is int and 0 <= index["value"] < len(base.parts):
                return base.parts[index["value"]]
            merged: Kind | None = Kind(frozenset())
            for part in base.parts:
                merged = union(merged, part)
            return merged
        return None

    def define_env(self, name: object) -> dict[str, Kind | None]:
        """A define's parameters with the kinds its calls give them."""
        if not isinstance(name, str):
            return {}
        params = self.define_params.get(name, [])
        kinds = self.param_kinds.get(name) or [None] * len(params)
        return dict(zip(params, kinds))

    def define_kind(self, name: str) -> Kind | None:
        """The kind a ``define`` gives, its parameters unknown (``None`` if not
        known, or if it calls itself)."""
        if name in self.define_kinds:
            return self.define_kinds[name]
        g = self.globals.get(name)
        if g is None or g.kind != "define" or name in self._defining:
            return None
        body = next((d.get("expr") for d in self.inst.ir.get("defines", [])
                     if isinstance(d, dict) and d.get("name") == name), None)
        self._defining.add(name)
        try:
            kind = self.kind(body, self.define_env(name))
        finally:
            self._defining.discard(name)
        self.define_kinds[name] = kind
        return kind

    def attr_kind(self, node: Node, env: dict[str, Kind | None]) -> Kind | None:
        """``X.name``: a piece's attribute (of every piece that has it), a cell's
        row or column; over a zone or a list of pieces, the list of them."""
        of = self.kind(node.get("of"), env)
        name = node.get("name")
        if of is None or not isinstance(name, str):
            return None
        if not of.basic or (of.basic - {"none"} and of.basic - {"none"} <= _NO_ATTRIBUTES):
            # nothing yet (a variable while the kinds are gathered), or never a
            # value (the read fails, and is reported)
            return Kind(frozenset())
        if of.basic == {"cell"} or of.basic == {"cell", "none"}:
            return _of("number") if name in ("row", "col") else None
        attr = self.attr_kinds.get(name)
        if name not in self.attr_kinds and name in _PSEUDO_KINDS:
            attr = _PSEUDO_KINDS[name]
        if of.basic == {"piece"}:
            return attr
        if of.basic == {"piece", "none"}:
            return None if attr is None else union(attr, _of("none"))
        if of.basic == {"zone"} or (of.basic == {"list"} and of.items is not None
                                    and of.items.basic == {"piece"}):
            return None if attr is None else _of("list", items=attr)
        return None

    def arithmetic_kind(self, node: Node, env: dict[str, Kind | None]) -> Kind | None:
        """The kind of ``A op B`` for an arithmetic operator or a comparison."""
        a, b = (self.kind(x, env) for x in node["args"])
        op = node["op"]
        if op in ("<", "<=", ">", ">="):
            return _of("bool")
        if op != "+":
            return _of("number")       # (what it gives when it does not fail)
        if a is None or b is None:
            return None
        # (a kind with no basic kind is a variable's "nothing yet" while the
        # variables' kinds are gathered: the other side decides)
        sa, sb = a.basic - {"none"}, b.basic - {"none"}
        if not sa and not sb:
            return Kind(frozenset())
        if sa & _JOINS or sb & _JOINS:
            if sa <= {"list"} and sb <= {"list"}:
                return union(a, b) if sa and sb else (a if sa else b)
            if sa == {"list"} and sb and not sb & _JOINS:     # one more item
                return Kind(frozenset({"list"}), union(a.items, b))
            return None
        return _of("number")           # (numbers add; anything else fails)

    def operands(self, node: Node, env: dict[str, Kind | None]) -> tuple[
            list[object], Kind, Kind, frozenset[str], frozenset[str]] | None:
        """A binary operator's arguments, their kinds and their basic kinds but
        ``none``; ``None`` where either kind is unknown or only ``none``."""
        args = node.get("args") or []
        if len(args) != 2:
            return None
        a, b = (self.kind(x, env) for x in args)
        if a is None or b is None:
            return None
        sa, sb = a.basic - {"none"}, b.basic - {"none"}
        if not sa or not sb:
            return None
        return args, a, b, sa, sb

    def check_arithmetic(self, node: Node, env: dict[str, Kind | None]) -> None:
        """``A op B`` where a side is not, or may not be, what the operator takes:
        numbers (a seat counts as its number) for ``- * / // %``, numbers or
        collections to join for ``+``, two numbers, two texts or two sequences to
        compare. A side that may be ``none`` is let through (a run-time matter);
        one that is a number or a word (a map's values, a variable given both) is
        refused, with where the other kind comes from."""
        found = self.operands(node, env)
        if found is None:
            return
        args, a, b, sa, sb = found
        op = node["op"]
        if op in ("<", "<=", ">", ">="):
            single = _NUMERIC | {"word"}
            if (sa <= _NUMERIC and sb == {"word"}) or (sa == {"word"} and sb <= _NUMERIC) or \
                    (sa <= _SEQUENCES and sb <= single) or (sa <= single and sb <= _SEQUENCES):
                raise self.error(f"cannot compare {describe(a)} {op} {describe(b)}", node)
            # one side of a kind the other side can never be compared with
            if len(sa | sb) > 1 and (sa | sb) & (single | _SEQUENCES) == sa | sb:
                for side, s, x, o in ((a, sa, args[0], sb), (b, sb, args[1], sa)):
                    bad = {k for k in s if not all(_ordered(k, j) for j in o)}
                    if bad:
                        shown = Kind(frozenset(bad), side.items, side.parts, side.word)
                        against = b if side is a else a
                        raise self.error(f"cannot compare {_shown(x)} with {op}: it is "
                                         f"{describe(side)}, and {describe(shown)} cannot be "
                                         f"compared with {describe(against)}"
                                         f"{self.origin(x, frozenset(bad), env)}",
                                         _located(x, node))
            return
        if op == "+" and (sa & _JOINS or sb & _JOINS):
            return
        verb = _VERBS.get(op, f"compute ... {op}")
        wrong = next(((x, arg) for x, s, arg in ((a, sa, args[0]), (b, sb, args[1]))
                      if not s & _NUMERIC), None)
        if wrong is not None:          # (located at the side that is not a number)
            raise self.error(f"cannot {verb} {describe(a)} and {describe(b)}"
                             if op == "+" else f"cannot {verb}: {describe(wrong[0])} is not "
                             "a number", _located(wrong[1], node))
        # a side that is a number or something else: fails when it is the other
        for side, s, x in ((a, sa, args[0]), (b, sb, args[1])):
            other = s - _NUMERIC
            if other:
                shown = Kind(frozenset(other), side.items, side.parts, side.word)
                raise self.error(f"cannot {verb} {_shown(x)}: it is {describe(side)}, and "
                                 f"{describe(shown)} is not a number"
                                 f"{self.origin(x, frozenset(other), env)}", _located(x, node))

    def prove_numbers(self, node: Node, env: dict[str, Kind | None]) -> None:
        """Note ``node`` (``A op B``) in :attr:`numbers` if both sides are certainly
        numbers (or seats): never ``none``, a truth value, a word or a collection.
        (Not within a define, whose parameters' kinds come from the calls this
        check sees, nor where a kind is unknown.)"""
        # (what a test against none tells is left out: a set may give none later
        # in the branch; this proof must hold whatever the flow)
        found = self.operands(node, _plain(env))
        if found is None:
            return
        _, a, b, sa, sb = found
        if "none" in a.basic or "none" in b.basic:
            return
        if sa <= _NUMERIC and sb <= _NUMERIC:
            self.numbers.add(id(node))

    def check_equality(self, node: Node, env: dict[str, Kind | None]) -> None:
        """``A == B`` (or ``!=``) of values that are never equal: no kind of the one
        is a kind of the other (a seat and its number, and true and 1, are equal)
        — the test always gives the same answer, which is a mistake. ``none`` is
        let through (what may be ``none`` is a run-time matter)."""
        found = self.operands(node, env)
        if found is None:
            return
        args, a, b, sa, sb = found
        ca = {_EQUAL_CLASSES.get(x, x) for x in sa}
        cb = {_EQUAL_CLASSES.get(x, x) for x in sb}
        if ca & cb:
            return
        always = "false" if node["op"] == "==" else "true"
        raise self.error(f"this test is always {always}: {_shown(args[0])} is {describe(a)} "
                         f"and {_shown(args[1])} {describe(b)}, never equal", node)

    def check_seat(self, node: object, env: dict[str, Kind | None], context: str) -> None:
        """A value taken as a seat (``turns from X``): a player, or a number that
        counts one (which fails in play when there is no such seat). Certainly
        neither: an error; possibly a number: a warning where it is given."""
        kind = self.kind(node, env)
        if kind is None:
            return
        basic = kind.basic - {"none"}
        if basic and not basic & {"player", "number", "bool", "zone"}:
            raise self.error(f"{context} must start from a player, not {describe(kind)}", node)
        if "number" not in basic:
            return
        value = self.constant(node, env)
        if type(value) is int:      # a seat number known now: one of this game's, or not
            self.read_players = True
            if not 0 <= value < self.inst.num_players:
                raise self.error(f"{context} must start from a player, not {value} (the "
                                 f"seats are 0 to {self.inst.num_players - 1})", node)
            return
        name = node.get("name") if isinstance(node, dict) and node.get("k") == "name" else None
        sets = self.number_sets.get(name, []) if isinstance(name, str) and name not in env \
            else []
        at = (node.get("at") if isinstance(node, dict) else None) or [None, None]
        targets: list[object] = [s["expr"] if isinstance(s.get("expr"), dict) and
                                 s["expr"].get("at") else s for s in sets] or [node]
        for where in targets:
            shown = f"{name!r} here" if sets else "this"
            line = f" (line {at[0]})" if at[0] else ""
            self.warnings.append(self.warning(
                f"{shown} is a number, and the {context}{line} start from it as a seat: a "
                "number that counts no seat fails in play (a seat is a player: players[i], "
                "random(players), current...)", where, "number-as-seat"))

    def constant(self, node: object, env: dict[str, Kind | None]) -> object:
        """The value of a literal or of a constant's or option's name (else ``None``)."""
        if not isinstance(node, dict):
            return None
        if node.get("k") == "lit":
            return node.get("value")
        name = node.get("name")
        if node.get("k") == "name" and isinstance(name, str) and name not in env:
            g = self.globals.get(name)
            if g is not None and g.kind in ("const", "option"):
                return g.value
        return None

    def warning(self, message: str, node: object, code: str) -> Diagnostic:
        at = (node.get("at") if isinstance(node, dict) else None) or [None, None]
        return Diagnostic(message, Location(self.file, at[0] or None, at[1] or None),
                          "warning", code)

    def need_grid(self, node: object, env: dict[str, Kind | None], context: str) -> None:
        """A zone named where a grid is needed: a grid zone."""
        if not (isinstance(node, dict) and node.get("k") == "name"):
            return
        name = node.get("name")
        if not isinstance(name, str) or name in env:
            return
        g = self.globals.get(name)
        if g is None or g.kind != "zone" or type(g.value) is not ZoneRef:
            return
        kind = self.inst.zone_kinds[g.value.index]
        if kind != "grid":
            raise self.error(f"{context} needs a grid, not zone {name!r} (a {kind})", node)

    def need_movable(self, node: object, env: dict[str, Kind | None], verb: str) -> None:
        """What a ``move``, ``flip`` or ``claim`` takes: a piece, a zone's pieces or
        a list of pieces."""
        kind = self.kind(node, env)
        if kind is None:
            return
        shown = {"move": "moved", "flip": "flipped", "claim": "claimed"}[verb]
        basic = kind.basic - {"none"}
        if basic and not basic & {"piece", "zone", "list"}:
            raise self.error(f"only pieces can be {shown}, not {describe(kind)}", node)
        if basic == {"list"} and kind.items is not None and kind.items.basic - {"none"} and \
                not kind.items.basic & {"piece"}:
            raise self.error(f"only pieces can be {shown}, not {describe(kind)}", node)

    def need_seats(self, node: object, env: dict[str, Kind | None], context: str) -> None:
        """Players named (one, or a list of them): a player or a seat number each."""
        kind = self.kind(node, env)
        if kind is None:
            return
        basic = kind.basic - {"none"}
        element = kind.items if basic == {"list"} else kind
        if element is None:
            return
        inner = element.basic - {"none"}
        if inner and not inner & {"player", "number", "bool"}:
            raise self.error(f"{context} needs players, not {describe(kind)}", node)

    def check_attribute_of(self, node: Node, env: dict[str, Kind | None]) -> None:
        """``X.NAME`` of a value that has no attributes (a number, a text, a player,
        true or false), or of a list or tuple of such values (read of each)."""
        kind = self.kind(node.get("of"), env)
        if kind is None:
            return
        basic = kind.basic - {"none"}
        element: Kind | None = kind
        if basic == {"list"}:
            element = kind.items
        elif basic == {"tuple"} and kind.parts:
            element = Kind(frozenset())
            for part in kind.parts:
                element = union(element, part)
        if element is None:
            return
        inner = element.basic - {"none"}
        if inner and inner <= _NO_ATTRIBUTES:
            raise self.error(f"{describe(kind)} has no attribute {node.get('name')!r}"
                             if element is kind else
                             f"{describe(element)} has no attribute {node.get('name')!r} "
                             f"(read of each element of {describe(kind)})", node)
        if inner & _NO_ATTRIBUTES and inner & {"piece", "cell"}:
            # a piece or a word, say: the read fails when it is the word
            bad = Kind(frozenset(inner & _NO_ATTRIBUTES), word=element.word)
            raise self.error(f"{_shown(node.get('of'))} may be {describe(bad)}, which has no "
                             f"attribute {node.get('name')!r}"
                             f"{self.origin(node.get('of'), bad.basic, env)}", node)

    def check_where(self, node: Node, env: dict[str, Kind | None]) -> None:
        """``X where COND`` whose condition reads an attribute by name, over values
        that certainly have none."""
        kind = self.kind(node.get("of"), env)
        if kind is None:
            return
        basic = kind.basic - {"none"}
        item = kind.items.basic - {"none"} if basic == {"list"} and kind.items is not None \
            else basic
        if not item or not item <= _NO_ATTRIBUTES:
            return
        read = sorted(names_in(node.get("cond")) & (set(self.inst.attributes) | {"owner"}))
        if read:
            raise self.error(f"where reads the attribute {read[0]!r} of each element, and "
                             f"{describe(kind)} has no attributes", node)

    # ------------------------------------------------------------------ checks
    def need(self, node: object, env: dict[str, Kind | None], allowed: set[str],
             what: str, context: str) -> None:
        """Report ``node`` if its kind is certainly something ``allowed`` excludes."""
        kind = self.kind(node, env)
        if kind is None:
            return
        wrong = kind.basic - allowed - {"none"}
        if wrong:
            shown = Kind(frozenset(wrong), kind.items, kind.parts, kind.word)
            raise self.error(f"{context} needs {what}, not {describe(shown)}", node)

    def need_numbers(self, node: object, env: dict[str, Kind | None], context: str,
                     each: bool) -> None:
        """A number (``abs``), or numbers (``sum``: a collection whose elements are
        numbers; a single number is a collection of one)."""
        kind = self.kind(node, env)
        if kind is None:
            return
        element = self.element(kind) if each else kind
        if element is None:
            return
        if element.basic - _NUMERIC - {"none"}:
            raise self.error(f"{context} needs numbers, not {describe(kind)}", node)

    def need_pieces(self, node: object, env: dict[str, Kind | None], context: str) -> None:
        kind = self.kind(node, env)
        if kind is None:
            return
        self.need(node, env, {"zone", "list"}, "pieces (a zone or a list of pieces)", context)
        if kind.basic == {"list"} and kind.items is not None:
            wrong = kind.items.basic - {"piece", "none"}
            if wrong:
                raise self.error(f"{context} needs pieces (a zone or a list of pieces), not "
                                 f"{describe(kind)}", node)

    def check_node(self, node: Node, env: dict[str, Kind | None]) -> None:
        k = node.get("k")
        if k == "call":
            fn = node.get("fn")
            args = node.get("args") or []
            if fn in self.globals and self.globals[fn].kind == "define":
                return
            if fn in _PATTERN_FUNCTIONS and args:
                self.need(args[0], env, {"pattern"}, "a pattern", f"{fn}()")
                for arg in args[1:]:
                    self.need_pieces(arg, env, f"{fn}()")
            elif fn in ("at", "stack_at", "height") and args:
                self.need(args[0], env, {"cell"}, "a cell", f"{fn}()")
            elif fn == "under" and args:
                self.need(args[0], env, {"piece"}, "a piece", "under()")
            elif fn in ("cells", "empty") and args:
                self.need(args[0], env, {"zone"}, "a grid", f"{fn}()")
                self.need_grid(args[0], env, f"{fn}()")
            elif fn in ("order", "after", "is_active", "score") and args:
                self.need(args[0], env, {"player", "number"}, "a player", f"{fn}()")
                self.optional_seat(args[0], env, f"{fn}()")
            elif fn in ("step", "neighbours", "neighbors") and args:
                self.need(args[0], env, {"cell", "piece"}, "a cell", f"{fn}()")
                if fn == "step" and len(args) > 1:
                    self.need(args[1], env, {"tuple"}, "a direction (row step, column step)",
                              "step()")
            elif fn == "ends" and len(args) > 1:
                self.need(args[1], env, {"tuple"}, "a direction (row step, column step)",
                          "ends()")
            elif fn == "knows" and len(args) > 1:
                self.need(args[0], env, {"player", "number"}, "a player", "knows()")
                self.need(args[1], env, {"piece"}, "a piece", "knows()")
            elif fn in ("abs", "sum") and args:
                self.need_numbers(args[0], env, f"{fn}()", each=fn == "sum")
            elif fn == "team" and args:
                self.need(args[0], env, {"player", "number"}, "a player", "team()")
        elif k == "run":
            self.need(node.get("along"), env, {"tuple"}, "a direction (row step, column step)",
                      "along")
        elif k == "rotate":
            self.need(node.get("what"), env, {"piece", "zone", "list"},
                      "a piece or pieces", "rotate")
            self.need(node.get("degrees"), env, {"number"}, "a whole number of degrees", "rotate")
        elif k == "maximize":
            self.need(node.get("value"), env, {"number", "tuple"},
                      "a number or a tuple of numbers", "maximize")
        elif k == "attr":
            kind = self.kind(node.get("of"), env)
            if kind is not None and kind.basic - {"none"} == {"cell"} and \
                    node.get("name") not in ("row", "col"):
                raise self.error(f"a cell has no attribute {node.get('name')!r} (it has row "
                                 "and col)", node)
            self.check_attribute_of(node, env)
        elif k in ("index", "set"):
            self.check_index(node, env)
            if k == "index":
                self.check_element(node, env)
        elif k == "op" and node.get("op") in _ARITHMETIC:
            self.check_arithmetic(node, env)
            if node["op"] in _PROVABLE and self.in_define is None:
                self.prove_numbers(node, env)
        elif k == "op" and node.get("op") in ("==", "!="):
            self.check_equality(node, env)
        elif k == "turns" and node.get("from") is not None:
            self.check_seat(node["from"], env, "turns")
            self.optional_seat(node["from"], env, "turns from")
        elif k in ("move", "flip", "claim"):
            self.need_movable(node.get("what"), env, k)
            if k == "move":
                self.need(node.get("to"), env, {"zone", "cell"}, "a zone or a cell to move to",
                          "move")
        elif k == "end" and node.get("winners") is not None:
            self.need_seats(node["winners"], env, "end game winners")
        elif k == "where":
            self.check_where(node, env)

    def check_element(self, node: Node, env: dict[str, Kind | None]) -> None:
        """``X[K]`` of a value (not a ``per`` variable or zone: :meth:`check_index`):
        a list, tuple, zone or text by a whole number (its position), a map by any
        key; anything else has no elements."""
        of = node.get("of")
        if isinstance(of, dict) and of.get("k") == "name" and of.get("name") not in env:
            g = self.globals.get(str(of.get("name")))
            if g is not None and g.kind in ("zone_family", "player_var", "team_var"):
                return
        container, key = self.kind(of, env), self.kind(node.get("index"), env)
        if container is None or not container.basic - {"none"}:
            return
        basic = container.basic - {"none"}
        if "map" in basic or "pattern" in basic:
            return
        if not basic & {"list", "tuple", "zone", "word"}:
            raise self.error(f"{describe(container)} has no elements to take [...] of", node)
        if key is not None and key.basic - {"none"} and \
                not (key.basic - {"none"}) & {"number", "player", "bool"}:
            raise self.error(f"an element of {describe(container)} is taken by its position "
                             f"(a number), not by {describe(key)}", node.get("index") or node)

    def need_seat_number(self, index: object, env: dict[str, Kind | None],
                         context: str) -> None:
        """A seat given by a number known now (``points[5]``; ``p`` of ``for p in
        5``): one of this game's seats, 0 to the number of players less one."""
        kind = self.kind(index, env)
        if kind is None or kind.number is None or kind.basic != {"number"}:
            return
        n = self.inst.num_players
        self.read_players = True
        if not 0 <= kind.number < n:
            shown = "" if isinstance(index, dict) and index.get("k") == "lit" else \
                f" ({_shown(index)} is {kind.number} here)"
            raise self.error(f"{context} takes a player or a seat number, 0 to {n - 1} with "
                             f"{n} players, not {kind.number}{shown}", index)

    def check_index(self, node: Node, env: dict[str, Kind | None]) -> None:
        if node.get("k") == "set":
            name, index = node.get("name"), node.get("index")
        else:
            of = node.get("of")
            if not (isinstance(of, dict) and of.get("k") == "name"):
                return
            name, index = of.get("name"), node.get("index")
        if index is None or name in env:
            return
        g = self.globals.get(str(name))
        if g is None:
            return
        if g.kind == "player_var":
            self.need(index, env, {"player", "number"}, "a player", f"{name}[...]")
            self.need_seat_number(index, env, f"{name}[...]")
            self.optional_seat(index, env, f"{name}[...]")
        elif g.kind == "team_var":
            self.need(index, env, {"number"}, "a team (team(p))", f"{name}[...]")
        elif g.kind == "zone_family" and isinstance(g.value, dict):
            if g.value.get("per") == "player":
                self.need(index, env, {"player", "number"}, "a player", f"zone {name}[...]")
                self.need_seat_number(index, env, f"zone {name}[...]")
                self.optional_seat(index, env, f"zone {name}[...]")
            elif isinstance(g.value.get("zones"), dict):
                keys = list(g.value["zones"])
                kind = self.kind(index, env)
                if kind is None:
                    return
                shown = ", ".join(map(str, keys[:6])) + (", ..." if len(keys) > 6 else "")
                self.need(index, env, {type_kind(k) for k in keys}, f"one of {shown}",
                          f"zone {name}[...]")
                if kind.word is not None and kind.basic == {"word"} and kind.word not in keys \
                        and all(isinstance(k, str) for k in keys):
                    raise self.error(f"zone {name} has no [{kind.word}] (it has {shown})", index)


def parameter_kinds(inst: "Instance") -> dict[int, Kind | None]:
    """The kind of the values each action parameter of a compiled instance takes,
    by the ``id()`` of the parameter's IR (``None``: unknown). Nothing is checked."""
    checker = KindChecker(inst)
    checker.check(record=True)
    return checker.param_elements


def in_words(kind: Kind | None) -> str:
    """A kind as ``explain --types`` shows it (``a player or none``; ``unknown``)."""
    return "unknown" if kind is None or not kind.basic else describe(kind, optional=True)


def inferred_kinds(inst: "Instance") -> list[Inferred]:
    """The kind of every name, attribute, call and element read of a compiled
    instance, in the order of the file (what ``rulepack explain --types`` and the
    language server's hover show); also the variables' and the defines'
    parameters' kinds at their declarations. Nothing is checked or raised."""
    checker = KindChecker(inst)
    checker.check(record=True)
    found = dict(checker.recorded or {})
    for v in inst.ir.get("variables", []):
        at = v.get("at") if isinstance(v, dict) else None
        if at and isinstance(v.get("name"), str):
            kind = checker.var_kinds.get(v["name"])
            each = "one value per player: " if v.get("per_player") else \
                "one value per team: " if v.get("per_team") else ""
            found[(int(at[0]), int(at[1]), f"var {v['name']}")] = each + in_words(kind)
    for d in inst.ir.get("defines", []):
        at = d.get("at") if isinstance(d, dict) else None
        name = d.get("name") if isinstance(d, dict) else None
        if at and isinstance(name, str):
            params = checker.define_params.get(name, [])
            kinds = checker.param_kinds.get(name) or [None] * len(params)
            result = checker.define_kind(name)
            shown = ", ".join(f"{p}: {in_words(k)}" for p, k in zip(params, kinds))
            found[(int(at[0]), int(at[1]), f"define {name}({shown})")] = in_words(result)
    return [Inferred(line, column, text, kind)
            for (line, column, text), kind in sorted(found.items())]


def _ordered(a: str, b: str) -> bool:
    """Whether values of basic kinds ``a`` and ``b`` can be ordered (``<``)."""
    if a in _NUMERIC and b in _NUMERIC:
        return True
    return a == b and a in ("word", "list", "tuple")


#: the start of an environment's key that marks an expression as not none there
_KNOWN = "\x00"


def _plain(env: dict[str, Kind | None]) -> dict[str, Kind | None]:
    """``env`` without what tests against none tell (see :meth:`KindChecker.narrowed`)."""
    if not any(key.startswith(_KNOWN) for key in env):
        return env
    return {key: kind for key, kind in env.items() if not key.startswith(_KNOWN)}


def _shape(node: object) -> str:
    """An expression's shape: the same for two writings of one expression (its
    place in the file left out)."""
    if isinstance(node, dict):
        return "{" + ",".join(f"{k}:{_shape(v)}" for k, v in sorted(node.items())
                              if k != "at") + "}"
    if isinstance(node, list):
        return "[" + ",".join(_shape(v) for v in node) + "]"
    return repr(node)


#: the built-in names current and next (marked not none within a turns loop)
_CURRENT: Node = {"k": "name", "name": "current"}
_NEXT: Node = {"k": "name", "name": "next"}


def _never_empty(node: object, names: dict[str, Global]) -> bool:
    """Whether a collection is certainly never empty: ``players``, a component
    (all its pieces), a list written with items, the best of such a collection
    (``argmax`` without a filter)."""
    if not isinstance(node, dict):
        return False
    if node.get("k") == "argmax" and node.get("if") is None:
        return _never_empty(node.get("in"), names)
    if node.get("k") == "list":
        return bool(node.get("items"))
    if node.get("k") == "name" and node.get("name") not in names:
        return node.get("name") == "players"
    g = names.get(str(node.get("name"))) if node.get("k") == "name" else None
    return g is not None and g.kind == "component" and bool(g.value)


def _not_none(cond: object, truth: bool) -> list[Node]:
    """The expressions that ``cond`` being ``truth`` shows are not ``none``."""
    if not isinstance(cond, dict) or cond.get("k") != "op":
        return []
    op, args = cond.get("op"), cond.get("args") or []
    if op == "not" and len(args) == 1:
        return _not_none(args[0], not truth)
    if len(args) != 2:
        return []
    if (op == "and" and truth) or (op == "or" and not truth):
        return _not_none(args[0], truth) + _not_none(args[1], truth)
    if op in ("!=", "==") and (op == "!=") == truth:
        for x, y in (args, args[::-1]):
            if isinstance(y, dict) and y.get("k") == "lit" and y.get("value") is None and \
                    isinstance(x, dict):
                return [x]
    return []


def _located(node: object, fallback: Node) -> object:
    """``node`` if it carries its place in the file, else ``fallback``."""
    return node if isinstance(node, dict) and node.get("at") else fallback


def _shown(node: object) -> str:
    """A short name for an expression in a message: its name, ``X[...]``, ``X.NAME``
    or ``this``."""
    if isinstance(node, dict):
        k = node.get("k")
        name = node.get("name")
        if k == "name" and isinstance(name, str):
            return repr(name)
        if k == "index":
            of = node.get("of")
            inner = {"map": "{...}", "list": "[...]"}.get(str(of.get("k")), "") \
                if isinstance(of, dict) else ""
            inner = inner or _shown(of).strip("'")
            return "it" if inner == "it" else inner + "[...]"
        if k == "attr" and isinstance(name, str):
            return f"{_shown(node.get('of')).strip(chr(39))}.{name}"
        fn = node.get("fn")
        if k == "call" and isinstance(fn, str):
            return f"{fn}(...)"
    return "it"


def attribute_kinds(inst: "Instance") -> dict[str, Kind | None]:
    """Each attribute name → the kind of every value a piece has for it (a die's
    rolled attribute: of every face it can show); ``None`` where no kind is
    certain."""
    out: dict[str, Kind | None] = {}
    for piece in inst.pieces:
        values: list[tuple[str, object]] = list(piece.attrs.items())
        if piece.rolls is not None:
            rolled, faces = piece.rolls[0], piece.rolls[1]
            values = [(n, v) for n, v in values if n != rolled] + [(rolled, f) for f in faces]
        for name, value in values:
            out[name] = union(out.get(name, Kind(frozenset())), of_value(value))
    return {name: (None if kind is not None and not kind.basic else kind)
            for name, kind in out.items()}


def type_kind(value: object) -> str:
    kind = of_value(value)
    return next(iter(kind.basic)) if kind is not None and len(kind.basic) == 1 else "word"


@dataclass(frozen=True)
class Verdict:
    """What the check of an instance gives besides its errors.

    :param warnings: values that may fail in play (a number taken as a seat).
    :param numbers: ``id()`` of each operator node of the IR whose sides are both
        proven numbers (the generated code computes it without testing them).
    """

    warnings: tuple[Diagnostic, ...]
    numbers: frozenset[int]


#: rulesets whose check passed: ``id(ir)`` → (the IR, each signature it passed
#: with → the warnings it gave); an instance with the same IR and signature
#: passes without a walk. A verdict that read a seat number known now (which
#: depends on the constants' values and the number of players) is kept under the
#: signature with the numbers and the number of players; any other, without.
_PASSED: dict[int, tuple[Node, dict[tuple["Signature", int | None], Verdict]]] = {}

#: what the check reads of an instance besides its IR (see :func:`_signature`)
Signature = tuple[tuple[tuple[object, ...], ...], frozenset[str], str]


def _without_numbers(kind: Kind | None) -> Kind | None:
    if kind is None:
        return None
    return Kind(kind.basic, _without_numbers(kind.items),
                None if kind.parts is None else tuple(_without_numbers(p) for p in kind.parts),
                kind.word)


def _signature(inst: "Instance", numbers: bool) -> Signature:
    """All the check reads of an instance besides its IR: each global's kind, the
    kind of each constant's, option's, symbol's and pattern's value (with the
    whole numbers they are, if ``numbers``), each zone family's keys (not its
    players), the pieces' attributes and the file. Two instances of one ruleset
    (two player counts, say) with equal signatures get the same verdict."""
    sig: list[tuple[object, ...]] = []
    for name, g in sorted(inst.globals.items()):
        if g.kind in ("const", "option", "symbol", "pattern"):
            kind = of_value(g.value)
            sig.append((name, g.kind, kind if numbers else _without_numbers(kind)))
        elif g.kind == "zone_family" and isinstance(g.value, dict):
            per_player = g.value.get("per") == "player"
            zones = g.value.get("zones")
            keys = tuple(zones) if isinstance(zones, dict) and not per_player else None
            sig.append((name, g.kind, per_player, keys))
        else:
            sig.append((name, g.kind))
    return (tuple(sig), frozenset(inst.attributes), inst.file)


def check_kinds(inst: "Instance") -> Verdict:
    """Check the kinds of values in a compiled instance (see the module's docstring).
    A second instance of the same ruleset whose constants, options and zone
    families have the kinds the first one's had is not walked again (the walk
    would find what it found), unless the verdict read a seat number known now
    and the numbers or the number of players differ.

    :returns: the warnings (values that may fail in play: a number taken as a
        seat) and the operators proven to take numbers.
    :raises SemanticError: a value of the wrong kind, located at the expression.
    """
    ir = inst.ir
    try:
        keys = ((_signature(inst, False), None), (_signature(inst, True), inst.num_players))
        hash(keys)
    except TypeError:          # a value of no hashable kind: check, remember nothing
        checker = KindChecker(inst)
        checker.check()
        return Verdict(tuple(checker.warnings), frozenset(checker.numbers))
    seen = _PASSED.get(id(ir))
    if seen is not None and seen[0] is ir:
        for key in keys:
            if key in seen[1]:
                return seen[1][key]
    checker = KindChecker(inst)
    checker.check()
    if seen is None or seen[0] is not ir:
        if len(_PASSED) >= 64:
            _PASSED.clear()
        seen = _PASSED[id(ir)] = (ir, {})
    verdict = Verdict(tuple(checker.warnings), frozenset(checker.numbers))
    seen[1][keys[1] if checker.read_players else keys[0]] = verdict
    return verdict
