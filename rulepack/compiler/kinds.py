"""A static check of the kinds of values where the language needs one kind.

After an instance has compiled (names, arities), this pass walks every expression
and statement once more, inferring a coarse *kind* for what it can — constants and
options by their values, zones, components, built-in names and functions, and the
names bound by ``for``, ``let``, comprehensions and action parameters — and reports a
value of the wrong kind where one is needed, before any game is played:

- a pattern for ``best``, ``matches``, ``partition``, ``partitionable``, ``usable``;
- pieces (a zone or a list of pieces) for their second argument;
- a cell for ``at``; a direction for ``along``; ``row``/``col`` of a cell;
- a player (or its number) to index a ``per player`` variable or zone, a key of the family
  (a symbol of the family) to index a ``per VALUE`` zone.

A kind is only known when it is certain (a constant, a zone, a literal); anything
else (variables, ``define`` parameters, attributes of pieces) is unknown and never
reported, and ``none`` is always let through (it is a run-time matter), so a valid
ruleset is never refused. Errors: :class:`~rulepack.errors.SemanticError` located
at the expression, code ``wrong-kind``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from rulepack.ir import Node, names_in
from rulepack.compiler.scope import Global
from rulepack.engine.values import Cell, PatternRef, Piece, Player, ZoneRef
from rulepack.errors import Diagnostic, Location, SemanticError

if TYPE_CHECKING:  # pragma: no cover
    from rulepack.compiler.instance import Instance


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


#: An unknown kind.
Unknown = None


def _of(*basic: str, items: Kind | None = None) -> Kind:
    return Kind(frozenset(basic), items)


def union(a: Kind | None, b: Kind | None) -> Kind | None:
    if a is None or b is None:
        return None
    items = union(a.items, b.items) if "list" in a.basic and "list" in b.basic \
        else (a.items or b.items)
    parts = None
    if a.parts is not None and b.parts is not None and len(a.parts) == len(b.parts):
        parts = tuple(union(x, y) for x, y in zip(a.parts, b.parts))
    elif "tuple" not in (a.basic & b.basic):
        parts = a.parts or b.parts
    return Kind(a.basic | b.basic, items, parts, a.word or b.word)


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
        return _of("map")
    return None


_PLAYERS = _of("list", items=_of("player"))
_DIRECTION = Kind(frozenset({"tuple"}), parts=(_of("number"), _of("number")))
_BUILTIN_NAMES: dict[str, Kind | None] = {
    "players": _PLAYERS, "others": _PLAYERS, "active": _PLAYERS,
    "current": _of("player"), "next": _of("player"), "round": _of("number"),
    "nobody": Kind(frozenset({"word"}), word="nobody"),
    "everyone": Kind(frozenset({"word"}), word="everyone"), "owner": None,
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
    "team": _of("number"),
}
#: what counts as a number in arithmetic (a seat is its number)
_NUMERIC = frozenset({"number", "player"})
#: what ``+`` joins as collections (anything else joins them as one more item)
_JOINS = frozenset({"list", "zone"})
#: what a list or tuple compared with a single value is (Python refuses it)
_SEQUENCES = frozenset({"list", "tuple"})
#: values with no attribute to read (``X.NAME`` fails in play)
_NO_ATTRIBUTES = frozenset({"number", "word", "player", "bool"})
#: the operators whose operands :meth:`KindChecker.check_arithmetic` checks
_ARITHMETIC = frozenset({"+", "-", "*", "/", "//", "%", "<", "<=", ">", ">="})
_VERBS = {"+": "add", "-": "subtract", "*": "multiply", "/": "divide", "//": "divide",
          "%": "take the remainder"}
#: Functions whose first argument is a pattern, and whose other arguments are pieces.
_PATTERN_FUNCTIONS = {"best", "matches", "partition", "partitionable", "usable"}


def describe(kind: Kind) -> str:
    """``a word ('tes')``, ``a list of players``, ``a number``..."""
    names = {"pattern": "a pattern", "zone": "a zone", "piece": "a piece", "cell": "a cell",
             "player": "a player", "number": "a number", "bool": "true or false",
             "word": f"a word ({kind.word!r})" if kind.word else "a word", "none": "none",
             "tuple": "a tuple", "map": "a map"}
    parts = []
    for b in sorted(kind.basic - {"none"}) or ["none"]:
        if b == "list":
            inner = kind.items
            what = "a list"
            if inner is not None and inner.basic - {"none"}:
                first = sorted(inner.basic - {"none"})[0]
                what += " of " + {"pattern": "patterns", "zone": "zones", "piece": "pieces",
                                  "cell": "cells", "player": "players", "number": "numbers",
                                  "bool": "truth values", "word": "words", "list": "lists",
                                  "tuple": "tuples", "map": "maps"}[first]
            parts.append(what)
        else:
            parts.append(names[b])
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

    # ------------------------------------------------------------------ entry
    def check(self) -> None:
        """:raises SemanticError: a value of the wrong kind, located."""
        variables = [v for v in self.inst.ir.get("variables", []) if isinstance(v, dict)]
        self.var_kinds = {v["name"]: Kind(frozenset()) for v in variables}
        self.param_kinds = {name: [Kind(frozenset())] * len(params)
                            for name, params in self.define_params.items()}
        for _ in range(3):   # what a set gives may depend on what the variables hold
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
        self.reporting = True
        self.walk_all()

    def walk_all(self) -> None:
        ir = self.inst.ir
        for d in ir.get("defines", []):
            env: dict[str, Kind | None] = self.define_env(d.get("name"))
            self.walk(d.get("expr"), env)
        for key in ("score", "heuristic", "winner"):
            if isinstance(ir.get(key), dict):
                env = {}
                for bind in ("player", "param", "bind"):
                    if isinstance(ir[key].get(bind), str):
                        env[ir[key][bind]] = _of("player")
                second = ir[key].get("search")      # a second heuristic, walked within
                if isinstance(second, dict) and isinstance(second.get("player"), str):
                    env[second["player"]] = _of("player")
                self.walk(ir[key], env)
        for key in ("setup", "play"):
            self.walk(ir.get(key), {})
        for phase in ir.get("phases", []):
            self.walk(phase.get("body"), {})

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
                    env[item["bind"]] = self.kind(item.get("expr"), env)
            return
        if not isinstance(node, dict):
            return
        k = node.get("k")
        inner = env
        binds = "bind" in node
        if binds and isinstance(node.get("in"), dict):
            inner = dict(env)
            self.bind(node["bind"], self.element(self.kind(node["in"], env)), inner)
            self.walk(node["in"], inner)   # its own where may read the name
        if k == "action":
            inner = dict(env)
            for param in node.get("params") or []:
                if isinstance(param, dict):
                    self.bind(param.get("bind"), self.element(self.kind(param.get("in"), inner)),
                              inner)
                    self.walk(param.get("in"), inner)   # its own where may read the name
                    self.walk(param.get("if"), inner)
        elif k == "where":
            inner = dict(env)   # the condition reads attributes of each item by name
            of = self.kind(node.get("of"), env)
            pieces = of is not None and (of.basic == {"zone"} or (
                of.basic == {"list"} and of.items is not None and of.items.basic == {"piece"}))
            for name in self.inst.attributes:
                inner[name] = self.attr_kinds.get(name) if pieces else None
            inner["owner"] = None
        elif k == "run":
            inner = dict(env)
            for name in self.inst.attributes:
                inner[name] = None
        elif k == "set" and node.get("name") in self.assigned and \
                node.get("name") not in env:
            name = node["name"]
            given = self.kind(node.get("expr"), env)
            self.assigned[name] = union(self.assigned[name], given)
            if self.reporting and given is not None and node.get("index") is None and \
                    given.basic - {"none"} == {"number"}:
                self.number_sets.setdefault(name, []).append(node)
        if k == "call" and node.get("fn") in self.passed:
            passed = self.passed[node["fn"]]
            for i, arg in enumerate((node.get("args") or [])[:len(passed)]):
                passed[i] = union(passed[i], self.kind(arg, env))
        if self.reporting:
            self.check_node(node, inner if k != "let" else env)
        walk = self.walk
        for key, value in node.items():
            if binds and (key == "at" or key == "in"):
                continue
            if key == "params" and k == "action":
                continue
            if isinstance(value, (dict, list)):
                walk(value, inner)

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
        """The kind of an item of a collection of this kind."""
        if kind is None:
            return None
        if kind.basic == {"list"}:
            return kind.items
        if kind.basic == {"zone"}:
            return _of("piece")
        return None

    def kind(self, node: object, env: dict[str, Kind | None]) -> Kind | None:
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
        if k == "tuple":
            return Kind(frozenset({"tuple"}),
                        parts=tuple(self.kind(i, env) for i in node.get("items", [])))
        if k == "range":
            return _of("list", items=_of("number"))
        if k == "where":
            return self.kind(node.get("of"), env)
        if k == "index":
            return self.index_kind(node, env)
        if k == "call":
            fn = node.get("fn")
            if fn in ("random", "first", "last", "only"):
                return self.element(self.kind((node.get("args") or [None])[0], env))
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
            if basic == {"zone"}:
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
        if k == "op" and node.get("op") in ("==", "!=", "in", "not in", "not"):
            return _of("bool")
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
            return None
        return _of("number")           # (numbers add; anything else fails)

    def check_arithmetic(self, node: Node, env: dict[str, Kind | None]) -> None:
        """``A op B`` where either side can certainly not be what the operator
        takes: numbers (a seat counts as its number) for ``- * / // %``, numbers
        or collections to join for ``+``, two numbers or two texts to compare."""
        args = node.get("args") or []
        if len(args) != 2:
            return
        op = node["op"]
        a, b = (self.kind(x, env) for x in args)
        if a is None or b is None:
            return
        sa, sb = a.basic - {"none"}, b.basic - {"none"}
        if not sa or not sb:
            return
        if op in ("<", "<=", ">", ">="):
            single = _NUMERIC | {"word"}
            if (sa <= _NUMERIC and sb == {"word"}) or (sa == {"word"} and sb <= _NUMERIC) or \
                    (sa <= _SEQUENCES and sb <= single) or (sa <= single and sb <= _SEQUENCES):
                raise self.error(f"cannot compare {describe(a)} {op} {describe(b)}", node)
            return
        if op == "+" and (sa & _JOINS or sb & _JOINS):
            return
        wrong = next((x for x, s in ((a, sa), (b, sb)) if not s & _NUMERIC), None)
        if wrong is None:
            return
        verb = _VERBS.get(op, f"compute ... {op}")
        raise self.error(f"cannot {verb} {describe(a)} and {describe(b)}"
                         if op == "+" else f"cannot {verb}: {describe(wrong)} is not a number",
                         node)

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
            elif fn == "at" and args:
                self.need(args[0], env, {"cell"}, "a cell", "at()")
            elif fn in ("cells", "empty") and args:
                self.need(args[0], env, {"zone"}, "a grid", f"{fn}()")
                self.need_grid(args[0], env, f"{fn}()")
            elif fn in ("order", "after", "is_active", "score") and args:
                self.need(args[0], env, {"player", "number"}, "a player", f"{fn}()")
        elif k == "run":
            self.need(node.get("along"), env, {"tuple"}, "a direction (row step, column step)",
                      "along")
        elif k == "attr":
            kind = self.kind(node.get("of"), env)
            if kind is not None and kind.basic == {"cell"} and node.get("name") not in ("row",
                                                                                         "col"):
                raise self.error(f"a cell has no attribute {node.get('name')!r} (it has row "
                                 "and col)", node)
            self.check_attribute_of(node, env)
        elif k in ("index", "set"):
            self.check_index(node, env)
            if k == "index":
                self.check_element(node, env)
        elif k == "op" and node.get("op") in _ARITHMETIC:
            self.check_arithmetic(node, env)
        elif k == "turns" and node.get("from") is not None:
            self.check_seat(node["from"], env, "turns")
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
        elif g.kind == "team_var":
            self.need(index, env, {"number"}, "a team (team(p))", f"{name}[...]")
        elif g.kind == "zone_family" and isinstance(g.value, dict):
            if g.value.get("per") == "player":
                self.need(index, env, {"player", "number"}, "a player", f"zone {name}[...]")
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


#: rulesets whose check passed: ``id(ir)`` → (the IR, each signature it passed
#: with → the warnings it gave); an instance with the same IR and signature
#: passes without a walk
_PASSED: dict[int, tuple[Node, dict["Signature", list[Diagnostic]]]] = {}

#: what the check reads of an instance besides its IR (see :func:`_signature`)
Signature = tuple[tuple[tuple[object, ...], ...], frozenset[str], str]


def _signature(inst: "Instance") -> Signature:
    """All the check reads of an instance besides its IR: each global's kind, the
    kind of each constant's, option's, symbol's and pattern's value, each zone
    family's keys (not its players), the pieces' attributes and the file. Two
    instances of one ruleset (two player counts, say) with equal signatures get
    the same verdict."""
    sig: list[tuple[object, ...]] = []
    for name, g in sorted(inst.globals.items()):
        if g.kind in ("const", "option", "symbol", "pattern"):
            sig.append((name, g.kind, of_value(g.value)))
        elif g.kind == "zone_family" and isinstance(g.value, dict):
            per_player = g.value.get("per") == "player"
            zones = g.value.get("zones")
            keys = tuple(zones) if isinstance(zones, dict) and not per_player else None
            sig.append((name, g.kind, per_player, keys))
        else:
            sig.append((name, g.kind))
    return (tuple(sig), frozenset(inst.attributes), inst.file)


def check_kinds(inst: "Instance") -> list[Diagnostic]:
    """Check the kinds of values in a compiled instance (see the module's docstring).
    A second instance of the same ruleset whose constants, options and zone
    families have the kinds the first one's had is not walked again (the walk
    would find what it found).

    :returns: warnings about values that may fail in play (a number taken as a seat).
    :raises SemanticError: a value of the wrong kind, located at the expression.
    """
    ir = inst.ir
    try:
        sig = _signature(inst)
        hash(sig)
    except TypeError:          # a value of no hashable kind: check, remember nothing
        checker = KindChecker(inst)
        checker.check()
        return checker.warnings
    seen = _PASSED.get(id(ir))
    if seen is not None and seen[0] is ir and sig in seen[1]:
        return list(seen[1][sig])
    checker = KindChecker(inst)
    checker.check()
    if seen is None or seen[0] is not ir:
        if len(_PASSED) >= 64:
            _PASSED.clear()
        seen = _PASSED[id(ir)] = (ir, {})
    seen[1][sig] = list(checker.warnings)
    return checker.warnings
