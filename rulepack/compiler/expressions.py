"""Expression IR → Python closures, compiled once per game instance.

Each expression node becomes a function ``f(state) -> value``. Names are
resolved here, statically: an unknown name, attribute, zone or function is a
:class:`~rulepack.errors.SemanticError` pointing at the ruleset, never a
surprise during play. Constants and options are folded into the closures.
"""

from __future__ import annotations

import difflib
from typing import TYPE_CHECKING, Callable, cast

from rulepack.errors import SemanticError
from rulepack.ir import Node, rename
from rulepack.engine import ops, outcome, queries, stacks
from rulepack.engine import runtime as rt
from rulepack.engine.runtime import (RuleValueError, attribute, charge, contains, count, items,
                                     show)
from rulepack.compiler import lookup
from rulepack.compiler.closures import Binder, Fn
from rulepack.compiler.codegen import SourceGen
from rulepack.compiler.scope import Global, Scope
from rulepack.engine.values import Cell, Piece, Player

if TYPE_CHECKING:  # pragma: no cover
    from rulepack.compiler.instance import Instance
    from rulepack.engine.position import Position
    from rulepack.patterns.match import Pattern

#: Built-in names usable anywhere in expressions.
BUILTIN_NAMES = ("players", "others", "active", "current", "next", "round",
                 "owner", "nobody", "everyone", "axes", "directions")

#: The four lines through a grid cell (row step, column step): along a row,
#: along a column, and the two diagonals.
AXES = ops.AXES

#: The eight directions from a grid cell.
DIRECTIONS = ops.DIRECTIONS

#: Words that read as values wherever an expression may stand.
LITERAL_WORDS = ("up", "down", "none", "true", "false")

#: Built-in names whose value changes during play (not usable in constants).
PLAY_NAMES = ("others", "active", "current", "next", "round")

#: Built-in functions, with (min, max) argument counts.
BUILTIN_FUNCTIONS: dict[str, tuple[int, int]] = {
    "count": (1, 1), "sum": (1, 1), "max": (1, 1), "min": (1, 1), "any": (1, 1),
    "all": (1, 1), "distinct": (1, 1), "only": (1, 1), "random": (1, 1),
    "order": (1, 1), "after": (1, 1), "best": (2, 2), "matches": (2, 2),
    "score": (1, 1), "abs": (1, 1), "cells": (1, 1), "empty": (1, 1), "at": (1, 1),
    "is_active": (1, 1), "first": (1, 1), "last": (1, 1),
    "step": (2, 2), "neighbours": (1, 1), "ends": (2, 2), "knows": (2, 2),
    "flatten": (1, 1), "partition": (2, 2), "partitionable": (2, 3), "usable": (3, 3),
    "unique": (1, 1), "cell": (3, 3), "team": (1, 1),
    "stack_at": (1, 1), "height": (1, 1), "under": (1, 1),
}

_CHANCE_FUNCTIONS = {"random"}

#: Functions that read a game in progress (zones, cells, turn order, scores).
STATE_FUNCTIONS = {"order", "after", "is_active", "score", "cells", "cell", "empty", "at", "step",
                   "neighbours", "ends", "knows", "best", "matches", "partition",
                   "partitionable", "usable", "stack_at", "height", "under"}


def _const(value: object) -> Fn:
    return lambda st: value


_MISSING = object()


def _restore(v: dict[str, object], name: str, saved: object) -> None:
    """Put a variable back as it was before a temporary binding."""
    if saved is _MISSING:
        v.pop(name, None)
    else:
        v[name] = saved


#: Expression nodes one instance may compile, counting a define's body once for every
#: place it is used (defines are expanded where they are used). The bundled rulesets
#: compile at most about 600.
COMPILE_PARTS = 50_000


class ExprCompiler:
    """Compiles expression IR for one :class:`~rulepack.compiler.instance.Instance`."""

    def __init__(self, inst: "Instance") -> None:
        self.inst = inst
        #: the Python source generator for root expressions (see :mod:`codegen`)
        self.source = SourceGen(self)
        self._depth = 0
        #: expression nodes compiled so far in this instance (see COMPILE_PARTS)
        self.parts = 0

    # ------------------------------------------------------------------ entry
    def compile(self, node: Node, scope: Scope) -> Fn:
        """Compile one expression node. A root expression (one not compiled as part
        of another) becomes generated Python code where :mod:`codegen` handles it,
        after the closures have checked it.

        :raises SemanticError: unknown names, functions, attributes, bad arity.
        """
        kind = node.get("k")
        method = getattr(self, f"_e_{kind}", None)
        if method is None:
            raise SemanticError.at(f"unknown expression kind {kind!r}", scope.location(node),
                                   code="bad-ir")
        self.parts += 1
        if self.parts > COMPILE_PARTS:
            chain = self.inst.defines_active
            through = f" (expanding {' → '.join(chain)})" if chain else ""
            raise self.error(f"the ruleset's expressions are too large: more than "
                             f"{COMPILE_PARTS:,} parts once every define is expanded "
                             f"where it is used{through}", node, scope, code="too-large",
                             hint="a define that uses another define several times, "
                             "in a chain, doubles at each step: compute the value once "
                             "with a 'let' or a 'const'")
        self._depth += 1
        try:
            fn: Fn = method(node, scope)
        finally:
            self._depth -= 1
        if self._depth == 0:
            return self.source.function(node, scope, fn)
        return fn

    def compile_part(self, node: Node, scope: Scope) -> Fn:
        """Compile ``node`` as a part of another expression: its closure, never a
        generated root (the generator folds constants with it).

        :raises SemanticError: as :meth:`compile`."""
        self._depth += 1
        try:
            return self.compile(node, scope)
        finally:
            self._depth -= 1

    def error(self, message: str, node: Node, scope: Scope,
              code: str = "semantic", hint: str | None = None) -> SemanticError:
        return SemanticError.at(message, scope.location(node), code=code, hint=hint)

    def is_constant(self, node: Node, scope: Scope) -> bool:
        """True if the node can be evaluated once, without a state."""
        k = node.get("k")
        if k == "lit":
            return True
        if k == "name":
            name = node["name"]
            if name in scope.locals or name == scope.candidate:
                return False
            g = scope.globals.get(name)
            return g is not None and g.kind in ("const", "option", "symbol", "pattern")
        if k in ("list", "tuple"):
            return all(self.is_constant(i, scope) for i in node["items"])
        if k == "map":
            return all(self.is_constant(a, scope) and self.is_constant(b, scope)
                       for a, b in node["items"])
        if k == "op":
            return all(self.is_constant(a, scope) for a in node["args"])
        if k == "range":
            return self.is_constant(node["from"], scope) and self.is_constant(node["to"], scope)
        if k == "index":
            return self.is_constant(node["of"], scope) and self.is_constant(node["index"], scope)
        return False

    # ------------------------------------------------------------------ leaves
    def _e_lit(self, node: Node, scope: Scope) -> Fn:
        return _const(node["value"])

    def _e_name(self, node: Node, scope: Scope) -> Fn:
        name = node["name"]
        if name in scope.locals:
            return lambda st: st.vars[name]
        if scope.candidate is not None and name in scope.attributes:
            cand = scope.candidate
            if cand == "$self" and name in rt.PSEUDO_ATTRIBUTES and name not in ("kind", "name"):
                raise self.error(f"{name!r} changes during play, so a piece's fixed attribute "
                                 "cannot be computed from it", node, scope, code="pseudo-in-derived")
            if name == "owner":
                def cand_owner(st: "Position") -> object:
                    x = st.vars[cand]
                    if type(x) is Piece:
                        return st.owner[x.id]
                    return attribute(st, x, name)
                return cand_owner
            if name == "face":
                def cand_face(st: "Position") -> object:
                    x = st.vars[cand]
                    if type(x) is Piece:
                        return "up" if st.face[x.id] else "down"
                    return attribute(st, x, name)
                return cand_face
            if name in rt.PSEUDO_ATTRIBUTES:
                return lambda st: attribute(st, st.vars[cand], name)

            def cand_attr(st: "Position") -> object:
                piece = st.vars[cand]
                try:
                    return piece.attrs[name]
                except (KeyError, AttributeError):
                    return attribute(st, piece, name)
            return cand_attr
        g = scope.globals.get(name)
        if (scope.static or scope.declares_symbols) and (
                name in PLAY_NAMES or (g is not None and g.kind in ("var", "player_var", "team_var"))):
            raise self.error(f"{name!r} changes during play and cannot be used in a constant, "
                             "an attribute, a zone's shape or a pattern's size", node, scope,
                             code="play-name-in-constant")
        if g is None:
            if scope.declares_symbols:
                if name in self.inst.later_names:
                    raise self.error(
                        f"{name!r} is a {self.inst.later_names[name]}, which does not exist yet "
                        "where constants and attribute values are computed", node, scope,
                        code="used-too-early")
                if name in PLAY_NAMES:
                    raise self.error(f"{name!r} changes during play and cannot be used in a "
                                     "constant, an attribute or a zone's shape", node, scope,
                                     code="play-name-in-constant")
                if name not in BUILTIN_NAMES:
                    scope.globals[name] = Global("symbol", name)
                    return _const(name)
            if name in BUILTIN_NAMES:
                return self._builtin_name(name, node, scope)
            hint = None
            if name in scope.attributes:
                hint = f"{name!r} is an attribute: write it inside a 'where' filter or as x.{name}"
            else:
                known = list(scope.locals) + list(scope.globals) + list(BUILTIN_NAMES) + \
                    list(LITERAL_WORDS)
                if scope.candidate is not None:
                    known = [a for a in scope.attributes if not a.startswith("$")] + known
                lowered = {k.lower(): k for k in known}
                close = [lowered[name.lower()]] if name.lower() in lowered else \
                    difflib.get_close_matches(name, known, n=1, cutoff=0.75)
                if close:
                    hint = f"did you mean {close[0]!r}?"
            raise self.error(f"unknown name {name!r}", node, scope, code="unknown-name",
                             hint=hint)
        if g.kind in ("const", "option", "symbol", "pattern"):
            return _const(g.value)
        if g.kind in ("var", "player_var", "team_var"):
            return lambda st: st.vars[name]
        if g.kind in ("zone", "zone_family") and (scope.static or scope.declares_symbols):
            raise self.error(f"zone {name!r} has no pieces yet where constants, attributes, "
                             "copies, zone shapes and pattern sizes are computed", node, scope,
                             code="play-name-in-constant")
        if g.kind == "zone":
            return _const(g.value)
        if g.kind == "zone_family":
            raise self.error(f"zone {name!r} is one zone per {g.value['per']}: write {name}[...]",
                             node, scope, code="zone-family")
        if g.kind == "component":
            pieces = g.value
            return lambda st: pieces
        raise self.error(f"name {name!r} cannot be used here", node, scope)  # pragma: no cover

    def _builtin_name(self, name: str, node: Node, scope: Scope) -> Fn:
        n = self.inst.num_players
        seats = [Player(i) for i in range(n)]
        if name == "players":
            return _const(seats)
        if name == "active":
            return lambda st: [p for p in seats if st.active[p]]
        if name == "others":
            return lambda st: [p for p in seats if p != st.vars["current"] and st.active[p]]
        if name == "current":
            return lambda st: st.vars["current"]
        if name == "next":
            return lambda st: queries.next_active(st, st.vars["current"])
        if name == "round":
            return lambda st: st.vars["round"]
        if name in ("owner", "nobody", "everyone"):
            return _const(name)
        if name == "axes":
            return lambda st: list(AXES)
        if name == "directions":
            return lambda st: list(DIRECTIONS)
        raise self.error(f"unknown name {name!r}", node, scope)  # pragma: no cover

    # ------------------------------------------------------------------ structure
    def _e_list(self, node: Node, scope: Scope) -> Fn:
        fns = [self.compile(i, scope) for i in node["items"]]
        if self.is_constant(node, scope):
            value = [f(None) for f in fns]  # type: ignore[arg-type]
            return lambda st: list(value)
        return lambda st: [f(st) for f in fns]

    def _e_tuple(self, node: Node, scope: Scope) -> Fn:
        fns = [self.compile(i, scope) for i in node["items"]]
        return lambda st: tuple(f(st) for f in fns)

    def _e_map(self, node: Node, scope: Scope) -> Fn:
        pairs = [(self.compile(a, scope), self.compile(b, scope)) for a, b in node["items"]]
        if self.is_constant(node, scope):
            value = {a(None): b(None) for a, b in pairs}  # type: ignore[arg-type]
            return lambda st: value
        return lambda st: {a(st): b(st) for a, b in pairs}

    def _e_range(self, node: Node, scope: Scope) -> Fn:
        lo = self.compile(node["from"], scope)
        hi = self.compile(node["to"], scope)
        return lambda st: ops.make_range(lo(st), hi(st))

    def _e_if(self, node: Node, scope: Scope) -> Fn:
        c = self.compile(node["cond"], scope)
        a = self.compile(node["then"], scope)
        b = self.compile(node["else"], scope)
        return lambda st: a(st) if c(st) else b(st)

    def _e_attr(self, node: Node, scope: Scope) -> Fn:
        name = node["name"]
        if name not in scope.attributes:
            raise self.error(f"unknown attribute {name!r}", node, scope, code="unknown-attribute",
                             hint="attributes here: " + ", ".join(sorted(scope.attributes)))
        of = self.compile(node["of"], scope)
        if name == "owner":
            def owner_of(st: "Position") -> object:
                v = of(st)
                if type(v) is Piece:
                    return st.owner[v.id]
                return attribute(st, v, name)
            return owner_of
        if name in rt.PSEUDO_ATTRIBUTES:
            return lambda st: attribute(st, of(st), name)

        def attr_of(st: "Position") -> object:
            v = of(st)
            if type(v) is Piece:
                a = v.attrs
                if name in a:
                    return a[name]
            return attribute(st, v, name)
        return attr_of

    def _e_index(self, node: Node, scope: Scope) -> Fn:
        base = node["of"]
        idx = self.compile(node["index"], scope)
        if base.get("k") == "name" and base["name"] not in scope.locals:
            g = scope.globals.get(base["name"])
            if g is not None and g.kind == "zone_family":
                if scope.static or scope.declares_symbols:
                    raise self.error(f"zone {base['name']!r} has no pieces yet where constants, "
                                     "attributes and zone shapes are computed", node, scope,
                                     code="play-name-in-constant")
                family = g.value["zones"]
                zname = base["name"]
                return lambda st: ops.zone_of_family(family, idx(st), zname)
            if g is not None and g.kind == "team_var":
                vname, teams = base["name"], len(self.inst.teams or ())
                return lambda st: ops.team_value(st.vars[vname], idx(st), teams, vname)
        of = self.compile(base, scope)
        return lambda st: ops.index(st, of(st), idx(st))

    # ------------------------------------------------------------------ operators
    def _e_op(self, node: Node, scope: Scope) -> Fn:
        op = node["op"]
        args = [self.compile(a, scope) for a in node["args"]]
        if op == "not":
            (a,) = args
            return lambda st: not a(st)
        if op == "neg":
            (a,) = args
            return lambda st: ops.neg(a(st))
        a, b = args
        if op == "and":
            return lambda st: bool(a(st)) and bool(b(st))
        if op == "or":
            return lambda st: bool(a(st)) or bool(b(st))
        if op == "==":
            return lambda st: a(st) == b(st)
        if op == "!=":
            return lambda st: a(st) != b(st)
        if op == "in":
            return lambda st: contains(st, b(st), a(st))
        if op == "not in":
            return lambda st: not contains(st, b(st), a(st))
        if op == "+":
            return lambda st: ops.plus(st, a(st), b(st))
        if op in ops.ARITHMETIC:
            f = ops.ARITHMETIC[op]
            return lambda st: f(a(st), b(st))
        raise self.error(f"unknown operator {op!r}", node, scope, code="bad-ir")

    # ------------------------------------------------------------------ collections
    def candidate_scope(self, scope: Scope, name: str) -> Scope:
        s = scope.with_locals(name)
        s.candidate = name
        return s

    def compile_filtered(self, node: Node, scope: Scope, name: str) -> Fn:
        """Compile the iterable of ``for name in ...``: a ``where`` directly under it
        binds ``name`` to each candidate (so ``for t in hand where suit == s``)."""
        if node.get("k") == "where":
            self._depth += 1
            try:
                fn = self._where(node, scope, name)
            finally:
                self._depth -= 1
            if self._depth == 0:
                return self.source.function(node, scope, fn, bind=name)
            return fn
        return self.compile(node, scope)

    def _e_where(self, node: Node, scope: Scope) -> Fn:
        return self._where(node, scope, "$it")

    def _where(self, node: Node, scope: Scope, name: str) -> Fn:
        found = lookup.closure(self, node, scope, name)    # one grid cell by row and col
        if found is not None:
            return found
        of = self.compile(node["of"], scope)
        cond = self.compile(node["cond"], self.candidate_scope(scope, name))

        def where(st: "Position") -> list[object]:
            v = st.vars
            saved = v.get(name, _MISSING)
            out = []
            try:
                for x in charge(st, items(st, of(st))):
                    v[name] = x
                    if cond(st):
                        out.append(x)
            finally:
                _restore(v, name, saved)
            return out
        return where

    def _e_sort(self, node: Node, scope: Scope) -> Fn:
        attr = node["by"]
        if attr not in scope.attributes:
            raise self.error(f"unknown attribute {attr!r}", node, scope, code="unknown-attribute")
        of = self.compile(node["of"], scope)
        key = rt.sort_key(self.inst.orders.get(attr))
        reverse = bool(node.get("descending"))

        return lambda st: ops.sort_by(st, of(st), attr, key, reverse)

    def _e_comp(self, node: Node, scope: Scope) -> Fn:
        names = _bind_names(node["bind"])
        inner = scope.with_locals(*names)
        source = self.compile(node["in"], scope)
        expr = self.compile(node["expr"], inner)
        cond = self.compile(node["if"], inner) if node.get("if") else None
        bind = make_binder(node["bind"])

        def comp(st: "Position") -> list[object]:
            v = st.vars
            saved = [v.get(n, _MISSING) for n in names]
            out = []
            try:
                for x in charge(st, items(st, source(st))):
                    bind(st, x)
                    if cond is None or cond(st):
                        out.append(expr(st))
            finally:
                for n, old in zip(names, saved):
                    _restore(v, n, old)
            return out
        return comp

    def _e_argmax(self, node: Node, scope: Scope) -> Fn:
        name = node["bind"]
        inner = scope.with_locals(name)
        source = self.compile(node["in"], scope)
        cond = self.compile(node["if"], inner) if node.get("if") else None
        key = self.compile(node["by"], inner)

        def argmax(st: "Position") -> list[object]:
            v = st.vars
            saved = v.get(name, _MISSING)

            def bound(f: Fn) -> Callable[[object], object]:
                def at(x: object) -> object:
                    v[name] = x
                    return f(st)
                return at
            try:
                return ops.argmax(charge(st, items(st, source(st))), bound(key),
                                  None if cond is None else bound(cond))
            finally:
                _restore(v, name, saved)
        return argmax

    def _e_run(self, node: Node, scope: Scope) -> Fn:
        """``maximal run through C along D where COND``: the longest unbroken line
        of cells through C, in direction D and its opposite, whose pieces all
        satisfy COND (bare attribute names mean the piece in the cell). Cells
        come in order from the far end against D to the far end along D; an
        empty list if C itself fails."""
        through = self.compile(node["through"], scope)
        along = self.compile(node["along"], scope)
        name = "$cell_piece"
        cond = self.compile(node["where"], self.candidate_scope(scope, name))

        def run(st: "Position") -> list[Cell]:
            v = st.vars
            saved = v.get(name, _MISSING)

            def ok(piece: object) -> object:
                v[name] = piece
                return cond(st)
            try:
                return ops.maximal_run(st, through(st), along(st), ok)
            finally:
                _restore(v, name, saved)
        return run

    def _e_top(self, node: Node, scope: Scope) -> Fn:
        if scope.static or scope.declares_symbols:
            raise self.error("'top of' reads a zone of a game in progress; it cannot be used in "
                             "a constant, an attribute or a zone's shape", node, scope,
                             code="play-name-in-constant")
        of = self.compile(node["of"], scope)
        n = self.compile(node["count"], scope) if node.get("count") else None
        from_top = node["end"] == "top"

        if n is None:
            return lambda st: ops.top(st, of(st), None, from_top)
        return lambda st: ops.top(st, of(st), n(st), from_top)

    # ------------------------------------------------------------------ calls
    def _e_call(self, node: Node, scope: Scope) -> Fn:
        fn = node["fn"]
        g = scope.globals.get(fn)
        if g is not None and g.kind == "define":
            return self._call_define(fn, g.value, node, scope)
        if fn not in BUILTIN_FUNCTIONS:
            raise self.error(f"unknown function {fn!r}", node, scope, code="unknown-function",
                             hint="functions: " + ", ".join(sorted(BUILTIN_FUNCTIONS)))
        lo, hi = BUILTIN_FUNCTIONS[fn]
        raw = node["args"]
        if not lo <= len(raw) <= hi:
            want = str(lo) if lo == hi else f"{lo} to {hi}"
            raise self.error(f"{fn}() takes {want} argument(s), not {len(raw)}", node, scope,
                             code="arity")
        if fn in STATE_FUNCTIONS and (scope.static or scope.declares_symbols):
            raise self.error(f"{fn}() reads a game in progress and cannot be used in a constant, "
                             "an attribute, copies, a zone's shape or a pattern's size", node,
                             scope, code="play-name-in-constant")
        if fn in _CHANCE_FUNCTIONS and (scope.static or scope.declares_symbols):
            raise self.error(f"{fn}() is a chance event of play; a constant, an attribute or a "
                             "zone's shape is fixed before any chance (set a variable in setup "
                             "instead)", node, scope, code="chance-in-constant")
        if fn in _CHANCE_FUNCTIONS and scope.deterministic:
            raise self.error(f"{fn}() is a chance event and cannot be used in a condition or "
                             "an action parameter", node, scope, code="chance-in-guard")
        args = [self.compile(a, scope) for a in raw]
        compiled: Fn = getattr(self, f"_f_{fn}")(args, node, scope)
        return compiled

    def _call_define(self, fn: str, define: Node, node: Node,
                     scope: Scope) -> Fn:
        """A call of a ``define``: arguments are evaluated, bound to the parameters
        under private names, and the body evaluated (then the names are restored)."""
        params = define["params"]
        if len(node["args"]) != len(params):
            raise self.error(f"{fn}() takes {len(params)} argument(s), not {len(node['args'])}",
                             node, scope, code="arity")
        active: list[str] = self.inst.defines_active
        if fn in active:
            raise self.error(f"{fn}() uses itself (through {' → '.join(active + [fn])}); a "
                             "define cannot be recursive", node, scope, code="recursive-define")
        args = [self.compile(a, scope) for a in node["args"]]
        private = [f"${fn}:{p}" for p in params]
        body_ir = rename(define["expr"], dict(zip(params, private)))
        body_scope = Scope(scope.globals, scope.attributes, scope.file, locals=list(private),
                           deterministic=scope.deterministic, static=scope.static or
                           scope.declares_symbols)
        active.append(fn)
        try:
            body = self.compile(body_ir, body_scope)
        finally:
            active.pop()

        def call(st: "Position") -> object:
            v = st.vars
            values = [a(st) for a in args]
            saved = [v.get(k, _MISSING) for k in private]
            for k, x in zip(private, values):
                v[k] = x
            try:
                return body(st)
            finally:
                for k, old in zip(private, saved):
                    _restore(v, k, old)
        return call

    def _f_count(self, args: list[Fn], node: Node, scope: Scope) -> Fn:
        (a,) = args
        return lambda st: count(st, a(st))

    def _unary(self, args: list[Fn], f: Callable[["Position", object], object]) -> Fn:
        (a,) = args
        return lambda st: f(st, a(st))

    def _f_sum(self, args: list[Fn], node: Node, scope: Scope) -> Fn:
        return self._unary(args, ops.total)

    def _f_max(self, args: list[Fn], node: Node, scope: Scope) -> Fn:
        (a,) = args
        return lambda st: ops.extreme(max, items(st, a(st)))

    def _f_min(self, args: list[Fn], node: Node, scope: Scope) -> Fn:
        (a,) = args
        return lambda st: ops.extreme(min, items(st, a(st)))

    def _f_any(self, args: list[Fn], node: Node, scope: Scope) -> Fn:
        (a,) = args
        return lambda st: any(items(st, a(st)))

    def _f_all(self, args: list[Fn], node: Node, scope: Scope) -> Fn:
        (a,) = args
        return lambda st: all(items(st, a(st)))

    def _f_distinct(self, args: list[Fn], node: Node, scope: Scope) -> Fn:
        return self._unary(args, ops.distinct)

    def _f_only(self, args: list[Fn], node: Node, scope: Scope) -> Fn:
        return self._unary(args, ops.only)

    def _f_first(self, args: list[Fn], node: Node, scope: Scope) -> Fn:
        return self._unary(args, ops.first)

    def _f_last(self, args: list[Fn], node: Node, scope: Scope) -> Fn:
        return self._unary(args, ops.last)

    def _f_random(self, args: list[Fn], node: Node, scope: Scope) -> Fn:
        arg = node["args"][0]
        if arg.get("k") == "lit" and type(arg.get("value")) in (int, float):
            raise self.error(f"random() picks an element of a collection, not of the number "
                             f"{arg['value']}", arg, scope, code="random-of-number",
                             hint=f"a die roll is random(1..{arg['value']})")
        return self._unary(args, ops.random_element)

    def _f_order(self, args: list[Fn], node: Node, scope: Scope) -> Fn:
        (a,) = args
        return lambda st: queries.seats_from(st, a(st))

    def _f_after(self, args: list[Fn], node: Node, scope: Scope) -> Fn:
        (a,) = args
        return lambda st: queries.next_active(st, a(st))

    def _f_team(self, args: list[Fn], node: Node, scope: Scope) -> Fn:
        """``team(p)``: the number of ``p``'s team (from 0, in the order the game's
        ``teams`` lists them)."""
        team_of = self.team_of(node, scope)
        (a,) = args
        return lambda st: ops.team_of(team_of, a(st))

    def team_of(self, node: Node, scope: Scope) -> tuple[int, ...]:
        """Each seat's team, for ``team(p)`` at ``node``.

        :raises SemanticError: the game has no teams, or ``team()`` stands where
            the teams are not known yet (a constant, which the teams may use)."""
        if scope.static or scope.declares_symbols:
            raise self.error("team() cannot be used in a constant, an attribute or a zone's "
                             "shape (the teams are made from them)", node, scope,
                             code="play-name-in-constant")
        if self.inst.teams is None:
            raise self.error("team() needs teams, and this game has none (declare them in the "
                             "game: teams (north, south), (east, west))", node, scope,
                             code="no-teams")
        return self.inst.team_of

    def _f_is_active(self, args: list[Fn], node: Node, scope: Scope) -> Fn:
        (a,) = args
        return lambda st: bool(st.active[queries.seat(st, a(st))])

    def _pattern_arg(self, f: Fn) -> Callable[["Position"], "Pattern"]:
        patterns = self.inst.patterns
        return lambda st: ops.pattern(patterns, f(st))

    def _f_best(self, args: list[Fn], node: Node, scope: Scope) -> Fn:
        pat, group = self._pattern_arg(args[0]), args[1]
        # (items, not ops.pieces: best and matches read the group as the generated
        # code hands it to them, non-pieces included)
        return lambda st: pat(st).best(st, cast("list[Piece]", items(st, group(st))))

    def _f_partition(self, args: list[Fn], node: Node, scope: Scope) -> Fn:
        pat, group = self._pattern_arg(args[0]), args[1]
        return lambda st: pat(st).partition(st, ops.pieces(st, group(st)))

    def _f_partitionable(self, args: list[Fn], node: Node, scope: Scope) -> Fn:
        pat, group = self._pattern_arg(args[0]), args[1]
        optional = args[2] if len(args) == 3 else None
        if optional is None:
            return lambda st: ops.partitionable(st, pat(st), group(st), None)
        return lambda st: ops.partitionable(st, pat(st), group(st), optional(st))

    def _f_usable(self, args: list[Fn], node: Node, scope: Scope) -> Fn:
        pat, group, optional = self._pattern_arg(args[0]), args[1], args[2]
        return lambda st: ops.usable(st, pat(st), group(st), optional(st))

    def _f_unique(self, args: list[Fn], node: Node, scope: Scope) -> Fn:
        return self._unary(args, ops.unique)

    def _f_matches(self, args: list[Fn], node: Node, scope: Scope) -> Fn:
        pat, group = self._pattern_arg(args[0]), args[1]
        return lambda st: pat(st).matches(st, cast("list[Piece]", items(st, group(st))))

    def _f_score(self, args: list[Fn], node: Node, scope: Scope) -> Fn:
        (a,) = args
        if self.inst.ir.get("score") is None:
            raise self.error("score() is used but the ruleset declares no score", node, scope,
                             code="no-score")
        return lambda st: outcome.score(st, a(st))

    def _f_abs(self, args: list[Fn], node: Node, scope: Scope) -> Fn:
        (a,) = args
        return lambda st: abs(ops.number(a(st), "abs()"))

    def _f_cells(self, args: list[Fn], node: Node, scope: Scope) -> Fn:
        (a,) = args
        return lambda st: queries.cells(st, a(st))

    def _f_cell(self, args: list[Fn], node: Node, scope: Scope) -> Fn:
        grid, row, col = args
        return lambda st: ops.cell(st, grid(st), row(st), col(st))

    def _f_empty(self, args: list[Fn], node: Node, scope: Scope) -> Fn:
        return self._unary(args, ops.empty)

    def _f_flatten(self, args: list[Fn], node: Node, scope: Scope) -> Fn:
        return self._unary(args, ops.flatten)

    def _f_knows(self, args: list[Fn], node: Node, scope: Scope) -> Fn:
        player, piece = args
        return lambda st: queries.knows(st, player(st), piece(st))

    def _f_step(self, args: list[Fn], node: Node, scope: Scope) -> Fn:
        cell, direction = args
        return lambda st: queries.step(st, ops.as_cell(st, cell(st)), ops.direction(direction(st)))

    def _f_neighbours(self, args: list[Fn], node: Node, scope: Scope) -> Fn:
        return self._unary(args, ops.neighbours)

    def _f_ends(self, args: list[Fn], node: Node, scope: Scope) -> Fn:
        line, direction = args
        return lambda st: ops.ends(st, line(st), direction(st))

    def _f_at(self, args: list[Fn], node: Node, scope: Scope) -> Fn:
        return self._unary(args, ops.at)

    def _f_stack_at(self, args: list[Fn], node: Node, scope: Scope) -> Fn:
        return self._unary(args, stacks.stack_at)

    def _f_height(self, args: list[Fn], node: Node, scope: Scope) -> Fn:
        return self._unary(args, stacks.height)

    def _f_under(self, args: list[Fn], node: Node, scope: Scope) -> Fn:
        return self._unary(args, stacks.under)


# ---------------------------------------------------------------------- helpers

def _bind_names(bind: str | list[str]) -> list[str]:
    return [bind] if isinstance(bind, str) else list(bind)


def make_binder(bind: str | list[str]) -> Binder:
    """A function storing a value into the state's variables for ``bind``
    (a name, or a tuple of names that destructures a tuple or list)."""
    if isinstance(bind, str):
        name = bind

        def bind_one(st: "Position", value: object) -> None:
            st.vars[name] = value
        return bind_one
    names = list(bind)

    def bind_many(st: "Position", value: object) -> None:
        if not isinstance(value, (tuple, list)) or len(value) != len(names):
            raise RuleValueError(f"cannot unpack {show(value)} into ({', '.join(names)})")
        v = st.vars
        for n, x in zip(names, value):
            v[n] = x
    return bind_many
