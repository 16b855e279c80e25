"""Expression IR → Python closures, compiled once per game instance.

Each expression node becomes a function ``f(state) -> value``. Names are
resolved here, statically: an unknown name, attribute, zone or function is a
:class:`~rulepack.errors.SemanticError` pointing at the ruleset, never a
surprise during play. Constants and options are folded into the closures.
"""

from __future__ import annotations

import difflib
from typing import TYPE_CHECKING, Any, Callable

from rulepack.errors import SemanticError
from rulepack.interpreter import runtime as rt
from rulepack.interpreter.runtime import RuleValueError, attribute, contains, count, items, show
from rulepack.interpreter.scope import Global, Scope
from rulepack.interpreter.values import Cell, PatternRef, Piece, Player, ZoneRef

if TYPE_CHECKING:  # pragma: no cover
    from rulepack.interpreter.instance import Instance
    from rulepack.interpreter.state import State

Fn = Callable[["State"], Any]

#: Built-in names usable anywhere in expressions.
BUILTIN_NAMES = ("players", "others", "active", "current", "next", "round",
                 "owner", "nobody", "everyone", "axes", "directions")

#: The four lines through a grid cell (row step, column step): along a row,
#: along a column, and the two diagonals.
AXES = [(0, 1), (1, 0), (1, 1), (1, -1)]

#: The eight directions from a grid cell.
DIRECTIONS = [(-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1)]

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
    "unique": (1, 1),
}

_CHANCE_FUNCTIONS = {"random"}

#: Functions that read a game in progress (zones, cells, turn order, scores).
STATE_FUNCTIONS = {"order", "after", "is_active", "score", "cells", "empty", "at", "step",
                   "neighbours", "ends", "knows", "best", "matches", "partition",
                   "partitionable", "usable"}


def _const(value: Any) -> Fn:
    return lambda st: value


_MISSING = object()


def _restore(v: dict[str, Any], name: str, saved: Any) -> None:
    """Put a variable back as it was before a temporary binding."""
    if saved is _MISSING:
        v.pop(name, None)
    else:
        v[name] = saved


class ExprCompiler:
    """Compiles expression IR for one :class:`~rulepack.interpreter.instance.Instance`."""

    def __init__(self, inst: "Instance") -> None:
        self.inst = inst

    # ------------------------------------------------------------------ entry
    def compile(self, node: dict[str, Any], scope: Scope) -> Fn:
        """Compile one expression node.

        :raises SemanticError: unknown names, functions, attributes, bad arity.
        """
        kind = node.get("k")
        method = getattr(self, f"_e_{kind}", None)
        if method is None:
            raise SemanticError.at(f"unknown expression kind {kind!r}", scope.location(node),
                                   code="bad-ir")
        return method(node, scope)

    def error(self, message: str, node: dict[str, Any], scope: Scope,
              code: str = "semantic", hint: str | None = None) -> SemanticError:
        return SemanticError.at(message, scope.location(node), code=code, hint=hint)

    def is_constant(self, node: dict[str, Any], scope: Scope) -> bool:
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
    def _e_lit(self, node: dict[str, Any], scope: Scope) -> Fn:
        return _const(node["value"])

    def _e_name(self, node: dict[str, Any], scope: Scope) -> Fn:
        name = node["name"]
        if name in scope.locals:
            return lambda st: st.vars[name]
        if scope.candidate is not None and name in scope.attributes:
            cand = scope.candidate
            if cand == "$self" and name in rt.PSEUDO_ATTRIBUTES and name not in ("kind", "name"):
                raise self.error(f"{name!r} changes during play, so a piece's fixed attribute "
                                 "cannot be computed from it", node, scope, code="pseudo-in-derived")
            if name == "owner":
                def cand_owner(st: "State") -> Any:
                    x = st.vars[cand]
                    if type(x) is Piece:
                        return st.owner[x.id]
                    return attribute(st, x, name)
                return cand_owner
            if name == "face":
                def cand_face(st: "State") -> Any:
                    x = st.vars[cand]
                    if type(x) is Piece:
                        return "up" if st.face[x.id] else "down"
                    return attribute(st, x, name)
                return cand_face
            if name in rt.PSEUDO_ATTRIBUTES:
                return lambda st: attribute(st, st.vars[cand], name)

            def cand_attr(st: "State") -> Any:
                piece = st.vars[cand]
                try:
                    return piece.attrs[name]
                except (KeyError, AttributeError):
                    return attribute(st, piece, name)
            return cand_attr
        g = scope.globals.get(name)
        if (scope.static or scope.declares_symbols) and (
                name in PLAY_NAMES or (g is not None and g.kind in ("var", "player_var"))):
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
        if g.kind in ("var", "player_var"):
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

    def _builtin_name(self, name: str, node: dict[str, Any], scope: Scope) -> Fn:
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
            return lambda st: st.next_active(st.vars["current"])
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
    def _e_list(self, node: dict[str, Any], scope: Scope) -> Fn:
        fns = [self.compile(i, scope) for i in node["items"]]
        if self.is_constant(node, scope):
            value = [f(None) for f in fns]  # type: ignore[arg-type]
            return lambda st: list(value)
        return lambda st: [f(st) for f in fns]

    def _e_tuple(self, node: dict[str, Any], scope: Scope) -> Fn:
        fns = [self.compile(i, scope) for i in node["items"]]
        return lambda st: tuple(f(st) for f in fns)

    def _e_map(self, node: dict[str, Any], scope: Scope) -> Fn:
        pairs = [(self.compile(a, scope), self.compile(b, scope)) for a, b in node["items"]]
        if self.is_constant(node, scope):
            value = {a(None): b(None) for a, b in pairs}  # type: ignore[arg-type]
            return lambda st: value
        return lambda st: {a(st): b(st) for a, b in pairs}

    def _e_range(self, node: dict[str, Any], scope: Scope) -> Fn:
        lo = self.compile(node["from"], scope)
        hi = self.compile(node["to"], scope)

        def rng(st: "State") -> list[int]:
            a, b = lo(st), hi(st)
            if not isinstance(a, int) or not isinstance(b, int):
                raise RuleValueError(f"a range needs whole numbers, not {show(a)}..{show(b)}")
            if b - a > 1_000_000:
                raise RuleValueError("a range of more than a million numbers")
            return list(range(a, b + 1))
        return rng

    def _e_if(self, node: dict[str, Any], scope: Scope) -> Fn:
        c = self.compile(node["cond"], scope)
        a = self.compile(node["then"], scope)
        b = self.compile(node["else"], scope)
        return lambda st: a(st) if c(st) else b(st)

    def _e_attr(self, node: dict[str, Any], scope: Scope) -> Fn:
        name = node["name"]
        if name not in scope.attributes:
            raise self.error(f"unknown attribute {name!r}", node, scope, code="unknown-attribute",
                             hint="attributes here: " + ", ".join(sorted(scope.attributes)))
        of = self.compile(node["of"], scope)
        if name == "owner":
            def owner_of(st: "State") -> Any:
                v = of(st)
                if type(v) is Piece:
                    return st.owner[v.id]
                return attribute(st, v, name)
            return owner_of
        if name in rt.PSEUDO_ATTRIBUTES:
            return lambda st: attribute(st, of(st), name)

        def attr_of(st: "State") -> Any:
            v = of(st)
            if type(v) is Piece:
                a = v.attrs
                if name in a:
                    return a[name]
            return attribute(st, v, name)
        return attr_of

    def _e_index(self, node: dict[str, Any], scope: Scope) -> Fn:
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

                def zone_of(st: "State") -> ZoneRef:
                    key = idx(st)
                    try:
                        return family[key]
                    except (KeyError, IndexError, TypeError):
                        raise RuleValueError(f"zone {zname} has no [{key}]") from None
                return zone_of
        of = self.compile(base, scope)

        def index(st: "State") -> Any:
            container = of(st)
            key = idx(st)
            try:
                if type(container) is dict:
                    return container[key]
                if type(container) is ZoneRef:
                    return items(st, container)[key]
                return container[key]
            except (KeyError, IndexError, TypeError):
                raise RuleValueError(f"no element [{show(key)}] in {show(container)}") from None
        return index

    # ------------------------------------------------------------------ operators
    def _e_op(self, node: dict[str, Any], scope: Scope) -> Fn:
        op = node["op"]
        args = [self.compile(a, scope) for a in node["args"]]
        if op == "not":
            (a,) = args
            return lambda st: not a(st)
        if op == "neg":
            (a,) = args
            return lambda st: -_number(a(st), "'-'")
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
        if op in ("<", "<=", ">", ">="):
            return _comparison(op, a, b)
        if op == "+":
            return _plus(a, b)
        if op in ("-", "*", "//", "/", "%"):
            return _arith(op, a, b)
        raise self.error(f"unknown operator {op!r}", node, scope, code="bad-ir")

    # ------------------------------------------------------------------ collections
    def _candidate_scope(self, scope: Scope, name: str) -> Scope:
        s = scope.with_locals(name)
        s.candidate = name
        return s

    def compile_filtered(self, node: dict[str, Any], scope: Scope, name: str) -> Fn:
        """Compile the iterable of ``for name in ...``: a ``where`` directly under it
        binds ``name`` to each candidate (so ``for t in hand where suit == s``)."""
        if node.get("k") == "where":
            return self._where(node, scope, name)
        return self.compile(node, scope)

    def _e_where(self, node: dict[str, Any], scope: Scope) -> Fn:
        return self._where(node, scope, "$it")

    def _where(self, node: dict[str, Any], scope: Scope, name: str) -> Fn:
        of = self.compile(node["of"], scope)
        cond = self.compile(node["cond"], self._candidate_scope(scope, name))

        def where(st: "State") -> list[Any]:
            v = st.vars
            saved = v.get(name, _MISSING)
            out = []
            try:
                for x in items(st, of(st)):
                    v[name] = x
                    if cond(st):
                        out.append(x)
            finally:
                _restore(v, name, saved)
            return out
        return where

    def _e_sort(self, node: dict[str, Any], scope: Scope) -> Fn:
        attr = node["by"]
        if attr not in scope.attributes:
            raise self.error(f"unknown attribute {attr!r}", node, scope, code="unknown-attribute")
        of = self.compile(node["of"], scope)
        key = rt.sort_key(self.inst.orders.get(attr))
        reverse = bool(node.get("descending"))

        def sort(st: "State") -> list[Any]:
            xs = items(st, of(st))
            return sorted(xs, key=lambda x: key(attribute(st, x, attr)), reverse=reverse)
        return sort

    def _e_comp(self, node: dict[str, Any], scope: Scope) -> Fn:
        names = _bind_names(node["bind"])
        inner = scope.with_locals(*names)
        source = self.compile(node["in"], scope)
        expr = self.compile(node["expr"], inner)
        cond = self.compile(node["if"], inner) if node.get("if") else None
        bind = make_binder(node["bind"])

        def comp(st: "State") -> list[Any]:
            v = st.vars
            saved = [v.get(n, _MISSING) for n in names]
            out = []
            try:
                for x in items(st, source(st)):
                    bind(st, x)
                    if cond is None or cond(st):
                        out.append(expr(st))
            finally:
                for n, old in zip(names, saved):
                    _restore(v, n, old)
            return out
        return comp

    def _e_argmax(self, node: dict[str, Any], scope: Scope) -> Fn:
        name = node["bind"]
        inner = scope.with_locals(name)
        source = self.compile(node["in"], scope)
        cond = self.compile(node["if"], inner) if node.get("if") else None
        key = self.compile(node["by"], inner)

        def argmax(st: "State") -> list[Any]:
            best: list[Any] = []
            best_key: Any = None
            v = st.vars
            saved = v.get(name, _MISSING)
            try:
                for x in items(st, source(st)):
                    v[name] = x
                    if cond is not None and not cond(st):
                        continue
                    k = key(st)
                    try:
                        better = not best or k > best_key
                    except TypeError:
                        raise RuleValueError(f"argmax cannot compare {show(k)} with {show(best_key)}") \
                            from None
                    if better:
                        best, best_key = [x], k
                    elif k == best_key:
                        best.append(x)
            finally:
                _restore(v, name, saved)
            return best
        return argmax

    def _e_run(self, node: dict[str, Any], scope: Scope) -> Fn:
        """``maximal run through C along D where COND``: the longest unbroken line
        of cells through C, in direction D and its opposite, whose pieces all
        satisfy COND (bare attribute names mean the piece in the cell). Cells
        come in order from the far end against D to the far end along D; an
        empty list if C itself fails."""
        through = self.compile(node["through"], scope)
        along = self.compile(node["along"], scope)
        name = "$cell_piece"
        cond = self.compile(node["where"], self._candidate_scope(scope, name))

        def run(st: "State") -> list[Cell]:
            start = _as_cell(st, through(st))
            d = _direction(along(st))
            v = st.vars
            saved = v.get(name, _MISSING)

            def ok(cell: Cell | None) -> bool:
                if cell is None:
                    return False
                v[name] = st.piece_at(cell)
                return bool(cond(st))
            try:
                if not ok(start):
                    return []
                back: list[Cell] = []
                c = st.step(start, (-d[0], -d[1]))
                while ok(c):
                    back.append(c)  # type: ignore[arg-type]
                    c = st.step(c, (-d[0], -d[1]))  # type: ignore[arg-type]
                ahead: list[Cell] = []
                c = st.step(start, d)
                while ok(c):
                    ahead.append(c)  # type: ignore[arg-type]
                    c = st.step(c, d)  # type: ignore[arg-type]
            finally:
                _restore(v, name, saved)
            return back[::-1] + [start] + ahead
        return run

    def _e_top(self, node: dict[str, Any], scope: Scope) -> Fn:
        if scope.static or scope.declares_symbols:
            raise self.error("'top of' reads a zone of a game in progress; it cannot be used in "
                             "a constant, an attribute or a zone's shape", node, scope,
                             code="play-name-in-constant")
        of = self.compile(node["of"], scope)
        n = self.compile(node["count"], scope) if node.get("count") else None
        from_top = node["end"] == "top"

        def top(st: "State") -> Any:
            xs = items(st, of(st))
            if n is None:
                if not xs:
                    return None
                return xs[-1] if from_top else xs[0]
            k = n(st)
            if not isinstance(k, int) or k < 0:
                raise RuleValueError(f"cannot take {show(k)} pieces")
            if k == 0:
                return []
            return xs[::-1][:k] if from_top else xs[:k]
        return top

    # ------------------------------------------------------------------ calls
    def _e_call(self, node: dict[str, Any], scope: Scope) -> Fn:
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
        return getattr(self, f"_f_{fn}")(args, node, scope)

    def _call_define(self, fn: str, define: dict[str, Any], node: dict[str, Any],
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
        body_ir = _rename(define["expr"], dict(zip(params, private)))
        body_scope = Scope(scope.globals, scope.attributes, scope.file, locals=list(private),
                           deterministic=scope.deterministic, static=scope.static or
                           scope.declares_symbols)
        active.append(fn)
        try:
            body = self.compile(body_ir, body_scope)
        finally:
            active.pop()

        def call(st: "State") -> Any:
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

    def _f_count(self, args: list[Fn], node: Any, scope: Scope) -> Fn:
        (a,) = args
        return lambda st: count(st, a(st))

    def _f_sum(self, args: list[Fn], node: Any, scope: Scope) -> Fn:
        (a,) = args

        def total(st: "State") -> Any:
            s = 0
            for x in items(st, a(st)):
                if x is None:
                    continue
                if isinstance(x, bool) or not isinstance(x, (int, float)):
                    raise RuleValueError(f"sum() of something that is not a number: {show(x)}")
                s += x
            return s
        return total

    def _f_max(self, args: list[Fn], node: Any, scope: Scope) -> Fn:
        (a,) = args
        return lambda st: _extreme(max, items(st, a(st)))

    def _f_min(self, args: list[Fn], node: Any, scope: Scope) -> Fn:
        (a,) = args
        return lambda st: _extreme(min, items(st, a(st)))

    def _f_any(self, args: list[Fn], node: Any, scope: Scope) -> Fn:
        (a,) = args
        return lambda st: any(items(st, a(st)))

    def _f_all(self, args: list[Fn], node: Any, scope: Scope) -> Fn:
        (a,) = args
        return lambda st: all(items(st, a(st)))

    def _f_distinct(self, args: list[Fn], node: Any, scope: Scope) -> Fn:
        (a,) = args

        def distinct(st: "State") -> list[Any]:
            seen: list[Any] = []
            for x in items(st, a(st)):
                if x not in seen:
                    seen.append(x)
            return seen
        return distinct

    def _f_only(self, args: list[Fn], node: Any, scope: Scope) -> Fn:
        (a,) = args

        def only(st: "State") -> Any:
            xs = items(st, a(st))
            return xs[0] if len(xs) == 1 else None
        return only

    def _f_first(self, args: list[Fn], node: Any, scope: Scope) -> Fn:
        (a,) = args

        def first(st: "State") -> Any:
            xs = items(st, a(st))
            return xs[0] if xs else None
        return first

    def _f_last(self, args: list[Fn], node: Any, scope: Scope) -> Fn:
        (a,) = args

        def last(st: "State") -> Any:
            xs = items(st, a(st))
            return xs[-1] if xs else None
        return last

    def _f_random(self, args: list[Fn], node: Any, scope: Scope) -> Fn:
        (a,) = args
        arg = node["args"][0]
        if arg.get("k") == "lit" and type(arg.get("value")) in (int, float):
            raise self.error(f"random() picks an element of a collection, not of the number "
                             f"{arg['value']}", arg, scope, code="random-of-number",
                             hint=f"a die roll is random(1..{arg['value']})")

        def random_element(st: "State") -> Any:
            value = a(st)
            if type(value) in (int, float):
                raise RuleValueError(f"random() picks an element of a collection, not of the "
                                     f"number {show(value)} (a die roll is random(1..6))")
            return st.chance_choice(items(st, value))
        return random_element

    def _f_order(self, args: list[Fn], node: Any, scope: Scope) -> Fn:
        (a,) = args
        return lambda st: st.seats_from(a(st))

    def _f_after(self, args: list[Fn], node: Any, scope: Scope) -> Fn:
        (a,) = args
        return lambda st: st.next_active(a(st))

    def _f_is_active(self, args: list[Fn], node: Any, scope: Scope) -> Fn:
        (a,) = args
        return lambda st: bool(st.active[st.seat(a(st))])

    def _pattern_arg(self, f: Fn) -> Callable[["State"], Any]:
        patterns = self.inst.patterns

        def get(st: "State") -> Any:
            ref = f(st)
            if type(ref) is not PatternRef:
                raise RuleValueError(f"{show(ref)} is not a pattern")
            return patterns[ref.index]
        return get

    def _f_best(self, args: list[Fn], node: Any, scope: Scope) -> Fn:
        pat, group = self._pattern_arg(args[0]), args[1]
        return lambda st: pat(st).best(st, items(st, group(st)))

    def _f_partition(self, args: list[Fn], node: Any, scope: Scope) -> Fn:
        pat, group = self._pattern_arg(args[0]), args[1]
        return lambda st: pat(st).partition(st, _pieces(st, group(st)))

    def _f_partitionable(self, args: list[Fn], node: Any, scope: Scope) -> Fn:
        pat, group = self._pattern_arg(args[0]), args[1]
        optional = args[2] if len(args) == 3 else None

        def partitionable(st: "State") -> bool:
            extra = _pieces(st, optional(st)) if optional is not None else []
            return pat(st).partitionable(st, _pieces(st, group(st)), extra)
        return partitionable

    def _f_usable(self, args: list[Fn], node: Any, scope: Scope) -> Fn:
        pat, group, optional = self._pattern_arg(args[0]), args[1], args[2]
        return lambda st: pat(st).usable(st, _pieces(st, group(st)), _pieces(st, optional(st)))

    def _f_unique(self, args: list[Fn], node: Any, scope: Scope) -> Fn:
        (a,) = args
        from rulepack.interpreter.partition import type_key

        def unique(st: "State") -> list[Any]:
            seen: set[Any] = set()
            out = []
            for x in items(st, a(st)):
                key = type_key(x) if type(x) is Piece else _hashable(x)
                if key not in seen:
                    seen.add(key)
                    out.append(x)
            return out
        return unique

    def _f_matches(self, args: list[Fn], node: Any, scope: Scope) -> Fn:
        pat, group = self._pattern_arg(args[0]), args[1]
        return lambda st: pat(st).matches(st, items(st, group(st)))

    def _f_score(self, args: list[Fn], node: Any, scope: Scope) -> Fn:
        (a,) = args
        if self.inst.ir.get("score") is None:
            raise self.error("score() is used but the ruleset declares no score", node, scope,
                             code="no-score")
        return lambda st: st.score(a(st))

    def _f_abs(self, args: list[Fn], node: Any, scope: Scope) -> Fn:
        (a,) = args
        return lambda st: abs(_number(a(st), "abs()"))

    def _f_cells(self, args: list[Fn], node: Any, scope: Scope) -> Fn:
        (a,) = args
        return lambda st: st.cells(a(st))

    def _f_empty(self, args: list[Fn], node: Any, scope: Scope) -> Fn:
        (a,) = args
        return lambda st: [c for c in st.cells(a(st)) if st.piece_at(c) is None]

    def _f_flatten(self, args: list[Fn], node: Any, scope: Scope) -> Fn:
        (a,) = args

        def flatten(st: "State") -> list[Any]:
            out: list[Any] = []
            for x in items(st, a(st)):
                if type(x) is list or type(x) is tuple:
                    out.extend(x)
                else:
                    out.append(x)
            return out
        return flatten

    def _f_knows(self, args: list[Fn], node: Any, scope: Scope) -> Fn:
        player, piece = args
        return lambda st: st.knows(player(st), piece(st))

    def _f_step(self, args: list[Fn], node: Any, scope: Scope) -> Fn:
        cell, direction = args
        return lambda st: st.step(_as_cell(st, cell(st)), _direction(direction(st)))

    def _f_neighbours(self, args: list[Fn], node: Any, scope: Scope) -> Fn:
        (cell,) = args

        def neighbours(st: "State") -> list[Cell]:
            c = _as_cell(st, cell(st))
            return [n for n in (st.step(c, d) for d in DIRECTIONS) if n is not None]
        return neighbours

    def _f_ends(self, args: list[Fn], node: Any, scope: Scope) -> Fn:
        line, direction = args

        def ends(st: "State") -> list[Cell]:
            cells = [_as_cell(st, c) for c in items(st, line(st))]
            if not cells:
                return []
            d = _direction(direction(st))
            out = []
            before = st.step(cells[0], (-d[0], -d[1]))
            after = st.step(cells[-1], d)
            for c in (before, after):
                if c is not None:
                    out.append(c)
            return out
        return ends

    def _f_at(self, args: list[Fn], node: Any, scope: Scope) -> Fn:
        (a,) = args

        def at(st: "State") -> Any:
            c = a(st)
            if type(c) is not Cell:
                raise RuleValueError(f"at() needs a cell, not {show(c)}")
            return st.piece_at(c)
        return at


# ---------------------------------------------------------------------- helpers

def _bind_names(bind: str | list[str]) -> list[str]:
    return [bind] if isinstance(bind, str) else list(bind)


def make_binder(bind: str | list[str]) -> Callable[["State", Any], None]:
    """A function storing a value into the state's variables for ``bind``
    (a name, or a tuple of names that destructures a tuple or list)."""
    if isinstance(bind, str):
        name = bind

        def bind_one(st: "State", value: Any) -> None:
            st.vars[name] = value
        return bind_one
    names = list(bind)

    def bind_many(st: "State", value: Any) -> None:
        if not isinstance(value, (tuple, list)) or len(value) != len(names):
            raise RuleValueError(f"cannot unpack {show(value)} into ({', '.join(names)})")
        v = st.vars
        for n, x in zip(names, value):
            v[n] = x
    return bind_many


def _hashable(x: Any) -> Any:
    if isinstance(x, (list, tuple)):
        return tuple(_hashable(v) for v in x)
    if isinstance(x, dict):
        return tuple(sorted((repr(k), _hashable(v)) for k, v in x.items()))
    return x


def _rename(node: Any, names: dict[str, str]) -> Any:
    """A copy of expression IR with bare names renamed (a define's parameters)."""
    if isinstance(node, list):
        return [_rename(x, names) for x in node]
    if not isinstance(node, dict):
        return node
    if node.get("k") == "name" and node.get("name") in names:
        return {**node, "name": names[node["name"]]}
    return {k: _rename(v, names) for k, v in node.items()}


def _pieces(st: "State", value: Any) -> list[Piece]:
    xs = items(st, value)
    for x in xs:
        if type(x) is not Piece:
            raise RuleValueError(f"a pattern applies to pieces, not {show(x)}")
    return xs


def _as_cell(st: "State", value: Any) -> Cell:
    """A cell, or the cell of a piece lying on a grid. :raises RuleValueError: otherwise."""
    if type(value) is Cell:
        return value
    if type(value) is Piece:
        cell = st.cell_of(value)
        if cell is not None:
            return cell
        raise RuleValueError(f"{value.name} is not on a grid")
    raise RuleValueError(f"a cell is needed here, not {show(value)}")


def _direction(value: Any) -> tuple[int, int]:
    if isinstance(value, (tuple, list)) and len(value) == 2 and all(
            isinstance(v, int) and not isinstance(v, bool) for v in value):
        return (int(value[0]), int(value[1]))
    raise RuleValueError(f"a direction is written (row step, column step), not {show(value)}")


def _number(x: Any, what: str) -> Any:
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        raise RuleValueError(f"{what} needs a number, not {show(x)}")
    return x


def _extreme(pick: Any, xs: list[Any]) -> Any:
    if not xs:
        return None
    try:
        return pick(xs)
    except TypeError:
        raise RuleValueError(f"{pick.__name__}() cannot compare the values {show(xs)} "
                             "(mixed numbers and names? compare by an attribute's order with "
                             "'by', or use a numeric attribute)") from None


def _comparison(op: str, a: Fn, b: Fn) -> Fn:
    def check(x: Any, y: Any) -> None:
        if type(x) is Piece or type(y) is Piece or x is None or y is None:
            raise RuleValueError(f"cannot compare {show(x)} {op} {show(y)}")
    if op == "<":
        def lt(st: "State") -> bool:
            x, y = a(st), b(st)
            try:
                return x < y
            except TypeError:
                check(x, y)
                raise RuleValueError(f"cannot compare {show(x)} < {show(y)}") from None
        return lt
    if op == "<=":
        def le(st: "State") -> bool:
            x, y = a(st), b(st)
            try:
                return x <= y
            except TypeError:
                raise RuleValueError(f"cannot compare {show(x)} <= {show(y)}") from None
        return le
    if op == ">":
        def gt(st: "State") -> bool:
            x, y = a(st), b(st)
            try:
                return x > y
            except TypeError:
                raise RuleValueError(f"cannot compare {show(x)} > {show(y)}") from None
        return gt

    def ge(st: "State") -> bool:
        x, y = a(st), b(st)
        try:
            return x >= y
        except TypeError:
            raise RuleValueError(f"cannot compare {show(x)} >= {show(y)}") from None
    return ge


def _plus(a: Fn, b: Fn) -> Fn:
    def plus(st: "State") -> Any:
        x, y = a(st), b(st)
        tx, ty = type(x), type(y)
        if tx is list or ty is list or tx is ZoneRef or ty is ZoneRef:
            # collections join: a zone stands for its pieces, a single value for itself
            return _as_list(st, x) + _as_list(st, y)
        if isinstance(x, (int, float)) and isinstance(y, (int, float)) and \
                not isinstance(x, bool) and not isinstance(y, bool):
            return x + y
        raise RuleValueError(f"cannot add {show(x)} and {show(y)}")
    return plus


def _as_list(st: "State", x: Any) -> list[Any]:
    if type(x) is list or type(x) is tuple or type(x) is ZoneRef:
        return list(items(st, x))
    return [x]


def _arith(op: str, a: Fn, b: Fn) -> Fn:
    def check(x: Any, y: Any) -> None:
        if not (type(x) is int or type(x) is Player) or not (type(y) is int or type(y) is Player):
            if isinstance(x, bool) or isinstance(y, bool) or not isinstance(x, (int, float)) \
                    or not isinstance(y, (int, float)):
                raise RuleValueError(f"cannot compute {show(x)} {op} {show(y)}")

    if op == "-":
        def minus(st: "State") -> Any:
            x, y = a(st), b(st)
            check(x, y)
            return x - y
        return minus
    if op == "*":
        def times(st: "State") -> Any:
            x, y = a(st), b(st)
            check(x, y)
            return x * y
        return times

    def divide(st: "State") -> Any:
        x, y = a(st), b(st)
        check(x, y)
        if y == 0:
            raise RuleValueError("division by zero")
        if op == "//":
            return x // y
        if op == "%":
            return x % y
        return x // y if x % y == 0 else x / y
    return divide
