"""Expression IR → Python source, compiled once per game instance.

Each expression that the flow, a score, a guard or a pattern evaluates (a *root*)
becomes one generated Python function ``expr_N(st)``: operators and built-ins
inline, loop variables of ``where``, comprehensions and ``argmax`` as Python
locals, a ``define`` as an inline ``lambda``, attribute reads as indexed lookups
(``x.attrs['rank']``, ``st.owner[x.id]``). Operators that must check their
operands call the same functions as the closures (:mod:`rulepack.engine.ops`),
so both forms give the same values and the same errors.

:class:`ExprCompiler <rulepack.compiler.expressions.ExprCompiler>` compiles each
root to closures first — that pass checks names and reports located errors —
then asks :meth:`SourceGen.function` for the generated form. A construct the
generator did not handle would keep the closures for that root (:class:`Unsupported`);
no expression of a bundled ruleset does, at any player count (a test checks it).

Every piece of source is a :class:`~rulepack.compiler.code.Code`: its text and
what is known of its value (a whole number, a new list, a piece...), so that
the generator never reads its own output back.

Safety: ruleset text reaches the source only as ``repr()`` of a string or number,
inside a comment through ``repr()``, or not at all: names of the ruleset become
numbered identifiers (``L3``), other constants are bound in the function's
namespace (``K2``). Nothing is read back from disk; the code object lives in
memory with its instance.
"""

from __future__ import annotations

import json
import math
from types import FunctionType
from functools import cached_property
import os
from typing import TYPE_CHECKING, Callable

from rulepack.engine import dice, effects, flow, moves, ops, outcome, queries, stacks
from rulepack.engine.runtime import (MAX_COLLECTION, PSEUDO_ATTRIBUTES, attribute, charge,
                                     contains, count, items)
from rulepack.engine.values import Cell, PatternRef, Piece, Player, ZoneRef
from rulepack.printable import printable
from rulepack.compiler.closures import Fn
from rulepack.compiler.code import NO_LITERAL, Code, Facts, Flags, code, join, literal, local
from rulepack.compiler.scope import Scope
from rulepack.compiler import lookup
from rulepack.errors import Location
from rulepack.ir import Node, names_in, nodes, rename, strip_positions

if TYPE_CHECKING:  # pragma: no cover
    from typing_extensions import Unpack

    from rulepack.compiler.expressions import ExprCompiler
    from rulepack.engine.position import Position

#: False: every expression stays closures only (tests compare the two forms;
#: RULEPACK_CODEGEN=0 in the environment sets it so for a whole process).
ENABLED = os.environ.get("RULEPACK_CODEGEN", "1") != "0"

#: The built-ins every generated function may use (no others).
BASE_BUILTINS: dict[str, object] = {
    "len": len, "sum": sum, "list": list, "any": any, "all": all, "bool": bool, "abs": abs,
    "max": max, "min": min, "type": type, "int": int, "tuple": tuple, "str": str, "zip": zip,
    "enumerate": enumerate, "TypeError": TypeError}

#: Names every generated function may use, besides its own constants.
BASE_NAMESPACE: dict[str, object] = {
    "__builtins__": BASE_BUILTINS,
    "Piece": Piece, "Cell": Cell, "Player": Player, "PatternRef": PatternRef,
    "attribute": attribute, "contains": contains,
    "count": count, "items": items, "_charge": charge,
    # moves and flips of several pieces, called directly (compiled: rulepack.engine.moves)
    "_move": moves.move, "_flip": moves.flip,
    # the runtime functions of a position (rulepack.engine.effects, queries, flow, outcome)
    "_move_one": effects.move_one, "_flip_one": effects.flip_one, "_shuffle": effects.shuffle,
    "_end_game": effects.end_game, "_claim": effects.claim, "_arrange": effects.arrange,
    "_eliminate": effects.eliminate, "_roll": dice.roll, "_suspend": flow.suspend, "_score": outcome.score,
    "_seats_from": queries.seats_from, "_next_active": queries.next_active,
    "_seat": queries.seat, "_grid_cells": queries.cells, "_knows": queries.knows,
    "_step": queries.step, "_piece_cells": queries.piece_cells,
    "_stack_at": stacks.stack_at, "_height": stacks.height, "_under": stacks.under,
    **{f"_{name}": getattr(ops, name) for name in (
        "neg", "plus", "minus", "times", "floordiv", "mod", "divide", "lt", "le", "gt", "ge",
        "make_range", "index", "zone_of_family", "team_of", "team_value", "total", "extreme", "distinct", "only",
        "first", "last", "flatten", "unique", "pattern", "partitionable", "usable", "at", "empty",
        "neighbours", "ends", "cell", "maximal_run", "top", "sort_by", "pieces", "number",
        "as_cell", "direction", "unpack", "random_element", "argmax_failed")},
}

_ARITH = {"-": "_minus", "*": "_times", "//": "_floordiv", "%": "_mod", "/": "_divide",
          "<": "_lt", "<=": "_le", ">": "_gt", ">=": "_ge"}

#: Built-ins that take one value and the state: ``f(st, value)``.
_UNARY = {"sum": "_total", "distinct": "_distinct", "only": "_only", "first": "_first",
          "last": "_last", "unique": "_unique", "empty": "_empty", "flatten": "_flatten",
          "neighbours": "_neighbours", "at": "_at", "stack_at": "_stack_at",
          "height": "_height", "under": "_under",
          # a chance event, drawn from the state's generator and recorded as the
          # closure does it (the checks keep it out of guards and parameters)
          "random": "_random_element"}


#: The other built-ins, as templates of their evaluated arguments ``{}``, in order.
_CALLS = {
    "count": "count(st, {})", "max": "_extreme(max, items(st, {}))",
    "min": "_extreme(min, items(st, {}))", "any": "any(items(st, {}))",
    "all": "all(items(st, {}))", "order": "_seats_from(st, {})",
    "after": "_next_active(st, {})", "is_active": "bool(st.active[_seat(st, {})])",
    "score": "_score(st, {})", "abs": "abs(_number({}, 'abs()'))",
    "cells": "_grid_cells(st, {})", "cell": "_cell(st, {}, {}, {})",
    "knows": "_knows(st, {}, {})", "step": "_step(st, _as_cell(st, {}), _direction({}))",
    "ends": "_ends(st, {}, {})",
}

#: the state's tables a generated function reads through locals of these names
#: (set at its start by :func:`table_locals`): variables, faces, owners, zones
VARS, FACE, OWNER, ZONES = local("V"), local("F"), local("O"), local("Z")
_TABLES = (("F", "face"), ("O", "owner"), ("Z", "zones"))


def table_locals(refs: frozenset[str]) -> list[str]:
    """The first lines of a generated function whose code reads the locals
    ``refs``: ``V`` (the variables), and ``F``, ``O``, ``Z`` (faces, owners,
    zones) where it reads them."""
    lines = ["    V = st.vars"]
    for short, attr in _TABLES:
        if short in refs:
            lines.append(f"    {short} = st.{attr}")
    return lines


def _stub(st: "Position") -> object:
    """The code of a root's function until it is generated: its closure."""
    return _closure(st)  # type: ignore[name-defined]  # noqa: F821 - in its own namespace


class Unsupported(Exception):
    """The generator does not handle this construct; the closures are kept."""


class GeneratedExpression:
    """One generated function: its name, source, and where its expression stands."""

    __slots__ = ("name", "source", "where", "constants", "body", "prelude")

    def __init__(self, name: str, source: str, where: Location,
                 constants: dict[str, object], body: Code, prelude: tuple[Code, ...] = ()) -> None:
        self.name = name
        self.source = source
        self.where = where
        #: the names bound in its namespace (``K0``...) and their values
        self.constants = constants
        #: the returned expression (with what is known of it: a list, a zone's
        #: pieces, a where-comprehension...) and the statements before it, which
        #: the flow's generated code inlines (names are unique within the instance)
        self.body = body
        self.prelude = prelude

    @property
    def truth(self) -> Code:
        """The body where only its truth counts (a condition)."""
        return truth(self.body)

    @property
    def refs(self) -> frozenset[str]:
        """The locals its body and prelude read."""
        out = self.body.refs
        for part in self.prelude:
            out |= part.refs
        return out


def truth(src: Code) -> Code:
    """``src`` where only its truth counts (a condition): ``and``/``or`` keep
    their operands as they are, with no conversion to ``True``/``False``."""
    parts = src.logic
    if parts is None:
        return src
    a, op, b = parts
    if b is None:
        return truth(a)
    return code("({} " + op + " {})", truth(a), truth(b))


class _Hoist:
    """The variables a comprehension's body reads, each read once before its loop
    into a local (see :meth:`SourceGen._hoisted`): the ``for`` clause binding them."""

    __slots__ = ("clause", "locals")

    def __init__(self, clause: Code, hoisted: list[Code]) -> None:
        self.clause = clause
        self.locals = hoisted


_NO_HOIST = _Hoist(Code(""), [])


class SourceGen:
    """Generates the Python source of the root expressions of one instance.

    :param compiler: the instance's expression compiler (its scopes and instance).
    """

    def __init__(self, compiler: "ExprCompiler") -> None:
        self.compiler = compiler
        self.inst = compiler.inst
        #: every function generated so far, in order (``rulepack compile --format python``)
        self.generated: list[GeneratedExpression] = []
        #: roots whose generated source did not compile (a generator bug; closures used)
        self.failures: list[str] = []
        self._ns: dict[str, object] = {}
        self._names = 0
        self._consts = 0
        self._prelude: list[Code] = []
        #: calls computed once into a local (canonical IR text → the local)
        self._cse: dict[str, Code] = {}
        #: roots waiting for :meth:`prepare`: (function, node, scope, bind)
        self._pending: list[tuple[FunctionType, Node, Scope, str | None]] = []
        self._roots = 0
        #: generated function → its record, for the flow's code to inline
        self.by_function: dict[Fn, GeneratedExpression] = {}

    # ------------------------------------------------------------------ entry
    def function(self, node: Node, scope: Scope, closure: Fn, bind: str | None = None) -> Fn:
        """The function to use for one root expression: a function object that
        calls ``closure`` until :meth:`prepare` gives it the generated code (its
        code object is swapped in place, so whoever holds it runs the generated
        code from then on); ``closure`` itself where nothing is generated (the
        root is computed before play, once, or generation is off).

        :param bind: for the iterable of ``for NAME in ... where ...``: the name the
            ``where`` binds to each candidate.
        """
        if not ENABLED or scope.static or scope.declares_symbols:
            return closure
        name = f"expr_{self._roots}"
        self._roots += 1
        namespace = dict(BASE_NAMESPACE)
        namespace["_closure"] = closure
        stub = FunctionType(_stub.__code__, namespace, name)
        self._pending.append((stub, node, scope, bind))
        return stub

    def prepare(self) -> None:
        """Generate the source of every root expression given to :meth:`function`
        so far, compile them all at once and give each its code."""
        pending, self._pending = self._pending, []
        made: list[tuple[FunctionType, GeneratedExpression]] = []
        for stub, node, scope, bind in pending:
            record = self._generate(stub.__name__, node, scope, bind)
            if record is not None:
                made.append((stub, record))
        if not made:
            return
        functions = self._compile([record for _, record in made])
        for stub, record in made:
            fn = functions.get(record.name)
            if not isinstance(fn, FunctionType):   # pragma: no cover - a bug of the generator
                continue
            stub.__globals__.update(record.constants)
            del stub.__globals__["_closure"]
            stub.__code__ = fn.__code__
            self.generated.append(record)
            self.by_function[stub] = record

    def _compile(self, records: list[GeneratedExpression]) -> dict[str, object]:
        """The functions of ``records``, compiled as one module (one by one, to
        find the culprit, if that fails)."""
        out: dict[str, object] = {}
        try:
            compiled = compile("\n\n".join(r.source for r in records),
                               "<rulepack generated expressions>", "exec")
        except SyntaxError:  # pragma: no cover - a bug of the generator
            for r in records:
                try:
                    exec(compile(r.source, f"<rulepack generated {r.name}>", "exec"), out)  # noqa: S102
                except SyntaxError as exc:
                    self.failures.append(f"{r.where}: {exc}")
            return out
        exec(compiled, out)  # noqa: S102 - our own source, from the ruleset only reprs
        return out

    def of_one(self, name: str, node: Node, scope: Scope,
               param: str) -> Callable[["Position", object], object] | None:
        """A generated function ``f(st, value)`` of an expression of one local,
        ``param`` (a name of ``scope``'s locals), given as an argument instead of
        read from the state's variables; ``None`` if it cannot be generated (or
        generation is off), the caller then sets the variable and asks the root.

        Its errors are those of the expression (the caller locates them)."""
        if not ENABLED or scope.static or scope.declares_symbols:
            return None
        record = self._generate(name, node, scope, None, param)
        if record is None:
            return None
        namespace = dict(BASE_NAMESPACE)
        namespace.update(record.constants)
        try:
            exec(compile(record.source, f"<rulepack generated {name}>", "exec"),  # noqa: S102
                 namespace)
        except SyntaxError as exc:  # pragma: no cover - a bug of the generator
            self.failures.append(f"{record.where}: {exc}")
            return None
        fn = namespace[name]
        if not isinstance(fn, FunctionType):   # pragma: no cover - a bug of the generator
            return None
        self.generated.append(record)
        return fn

    def _generate(self, name: str, node: Node, scope: Scope,
                  bind: str | None, param: str | None = None) -> GeneratedExpression | None:
        """The generated source of one root, or ``None`` if some part of it is not
        handled (the closure stays). With ``param``: a function of ``(st, X)``
        where that local is the argument ``X``."""
        self._ns = {}
        self._prelude = []
        py = {} if param is None else {param: local("X")}
        try:
            if bind is not None and node.get("k") == "where":
                body = self._where(node, scope, py, bind)
            else:
                body = self.expr(node, scope, py)
        except Unsupported:
            return None
        where = scope.location(node)
        args = "st" if param is None else "st, X"
        record = GeneratedExpression(name, "", where, dict(self._ns), body,
                                     tuple(self._prelude))
        lines = [f"def {name}({args}):  # {where.file!r} line {where.line} column {where.column}",
                 *table_locals(record.refs)]
        lines += ["    " + line for part in self._prelude for line in part.text.split("\n")]
        lines.append(f"    return {body.text}")
        record.source = "\n".join(lines) + "\n"
        return record

    def module_source(self) -> str:
        """Every generated function as one readable module (constants as comments)."""
        parts = ["# Generated by rulepack from the ruleset's expressions: one function per\n"
                 "# expression the flow, scores, guards and patterns evaluate.\n"]
        for g in self.generated:
            consts = "".join(f"# {k} = {printable(_shorten(repr(v)))}\n"
                             for k, v in g.constants.items())
            parts.append(consts + g.source)
        return "\n\n".join(parts)

    # ------------------------------------------------------------------ helpers
    def const(self, value: object) -> Code:
        """Code for a constant: a literal for plain numbers, text and flags, else a
        name bound in the namespace (a list as a list: values are never changed
        in place, so a constant list is as good as a new one)."""
        t = type(value)
        if value is None or t is bool or t is str or t is int or \
                (type(value) is float and math.isfinite(value)):
            return literal(value, repr(value))
        name = f"K{self._consts}"
        self._consts += 1
        self._ns[name] = value
        return Code(name, ident=True, simple=True, is_list=t is list)

    def local(self, prefix: str = "L", **facts: Unpack[Facts]) -> Code:
        """A new local of the generated code (unique within the instance)."""
        self._names += 1
        return local(f"{prefix}{self._names}", **facts)

    def iterable(self, src: Code, py: dict[str, Code]) -> Code:
        """``src`` made fit for the iterable of a comprehension, where Python forbids
        ``:=``: such a source becomes a local function of the loop variables in scope."""
        if not src.walrus:
            return src
        name = self.local("W")
        params = _params(py)
        self._prelude.append(code("def {}(" + params + "):\n    return {}", name, src))
        return code("{}(" + params + ")", name, refs=_refs(py), is_list=src.is_list)

    def _once(self, src: Code) -> tuple[Code, Code]:
        """``(name, first)``: ``src`` evaluated once, as ``first`` where it is first
        read (``(T := src)``) and ``name`` after; an identifier as it is."""
        if src.ident:
            return src, src
        t = self.local("T")
        return t, code("({} := {})", t, src)

    def _attr(self, src: Code, name: str) -> Code:
        """Code reading attribute ``name`` of the value ``src``."""
        n = repr(name)
        if name in ("row", "col"):
            # a cell's row or column (counted from 1), read inline; anything else (a
            # piece on a grid, none) goes through attribute()
            if src.kind == "cell":
                return code("({}." + name + " + 1)", src, is_int=True)
            if src.simple:
                return code("({}." + name + " + 1 if type({}) is Cell else attribute(st, {}, "
                            + n + "))", src, src, src)
            t = self.local("T")
            return code("({}." + name + " + 1 if type({} := {}) is Cell else attribute(st, {}, "
                        + n + "))", t, t, src, t)
        if name in PSEUDO_ATTRIBUTES and name not in ("owner", "face", "cell"):
            return code("attribute(st, {}, " + n + ")", src)
        if src.kind == "piece":
            if name == "owner":
                return code("{}[{}.id]", OWNER, src)
            if name == "face":
                return code("('up' if {}[{}.id] else 'down')", FACE, src)
            if name == "cell":
                return code("(st.cells or _piece_cells(st))[{}.id]", src)
            if name in self._int_attributes:
                return code("{}.attrs[" + n + "]", src, is_int=True)
            if name in self._common_attributes:
                return code("{}.attrs[" + n + "]", src)
            return code("({}.attrs[" + n + "] if " + n + " in {}.attrs else attribute(st, {}, "
                        + n + "))", src, src, src)
        if src.simple:
            x = first = src
        else:
            x = self.local("T")
            first = code("({} := {})", x, src)
        if src.kind == "slot":
            # what lies on a cell: a piece or none (whose attributes are none)
            read = {"owner": code("{}[{}.id]", OWNER, x),
                    "face": code("('up' if {}[{}.id] else 'down')", FACE, x),
                    "cell": code("(st.cells or _piece_cells(st))[{}.id]", x)}.get(name)
            if read is None and name in self._common_attributes:
                read = code("{}.attrs[" + n + "]", x)
            if read is not None:
                return code("({} if {} is not None else None)", read, first)
        if name == "owner":
            return code("({}[{}.id] if type({}) is Piece else attribute(st, {}, " + n + "))",
                        OWNER, x, first, x)
        if name == "face":
            return code("(('up' if {}[{}.id] else 'down') if type({}) is Piece "
                        "else attribute(st, {}, " + n + "))", FACE, x, first, x)
        if name == "cell":
            return code("((st.cells or _piece_cells(st))[{}.id] if type({}) is Piece "
                        "else attribute(st, {}, " + n + "))", x, first, x)
        if name in self._common_attributes:      # no need to ask if the piece has it
            return code("({}.attrs[" + n + "] if type({}) is Piece else attribute(st, {}, "
                        + n + "))", x, first, x)
        return code("({}.attrs[" + n + "] if type({}) is Piece and " + n + " in {}.attrs "
                    "else attribute(st, {}, " + n + "))", x, first, x, x)

    @cached_property
    def _common_attributes(self) -> frozenset[str]:
        """Attributes that every piece of the instance has."""
        pieces = self.inst.pieces
        if not pieces:
            return frozenset()
        names = set(pieces[0].attrs)
        for p in pieces:
            names &= p.attrs.keys()
        return frozenset(names)

    @cached_property
    def _int_attributes(self) -> frozenset[str]:
        """Attributes that every piece of the instance has, as a whole number."""
        return frozenset(n for n in self._common_attributes
                         if all(type(p.attrs[n]) is int for p in self.inst.pieces))

    def _as_bool(self, src: Code) -> Code:
        """``src`` as ``True``/``False`` (its truth form is ``src`` itself)."""
        if src.literal is True or src.literal is False:
            return src
        return code("(not not {})", src, logic=(src, "", None))

    def condition(self, node: Node, scope: Scope, py: dict[str, Code]) -> Code:
        """Code of an expression whose truth only counts."""
        return truth(self.expr(node, scope, py))

    def _items(self, src: Code) -> Code:
        """Code of the elements of ``src`` as a list (:func:`items`)."""
        if src.is_list:
            return src
        if src.pieces is not None:
            return src.pieces
        return code("items(st, {})", src)

    def _binary(self, a: Code, b: Code, fast: str, slow: str, nonzero: bool = False) -> Code:
        """``a OP b`` inline when both are whole numbers (and ``b`` is not 0 where
        ``nonzero``), else the checking function ``slow`` of :mod:`ops`. With both
        known to be whole numbers, no test at all. A product is always tested:
        past 2**62 it is left to ``_times``, which refuses one of more than
        ``MAX_INT_BITS`` binary digits."""
        whole = fast in ("-", "*", "//", "%")
        if fast == "*":
            x, y = self.local("T"), self.local("T")
            m = 1 << 62
            return code("({} * {} if (type({} := {}) is int) & (type({} := {}) is int) and "
                        f"-{m} < {{}} < {m} and -{m} < {{}} < {m} else {slow}({{}}, {{}}))",
                        x, y, x, a, y, b, x, y, x, y, is_int=True)
        ints = a.is_int and b.is_int
        if ints and (not nonzero or (b.digits and b.literal != 0)):
            return code("({} " + fast + " {})", a, b, is_int=whole)
        jb = self.int_flag(b, nonzero)
        if jb is not None and (a.is_int or a.flags is not None):
            # a local read before the loop on the right: its test made once, there
            ja = None if a.is_int else self.int_flag(a, False)
            guard = jb if ja is None else code("{} and {}", ja, jb)
            return code("({} " + fast + " {} if {} else " + slow + "({}, {}))", a, b, guard, a, b,
                        is_int=whole)
        x, y = self.local("T"), self.local("T")
        if b.is_int and (type(b.literal) is int or b.simple) and \
                (not nonzero or type(b.literal) is int):
            # a whole number on the right (a nonzero literal for // and %): only the
            # left needs its test
            out = code("({} " + fast + " {} if type({} := {}) is int else " + slow + "({}, {}))",
                       x, b, x, a, x, b, is_int=whole)
        elif a.is_int:
            # a whole number on the left, which cannot fail (literals, counts,
            # attributes every piece has as a number, and arithmetic on them): it
            # may be computed after the right
            guard = code("type({} := {}) is int" + (" and {} != 0" if nonzero else ""),
                         y, b, *([y] if nonzero else []))
            out = code("({} " + fast + " {} if {} else " + slow + "({}, {}))", a, y, guard, a, y,
                       is_int=whole)
        else:
            guard = code("(type({} := {}) is int) & (type({} := {}) is int)"
                         + (" and {} != 0" if nonzero else ""), x, a, y, b, *([y] if nonzero else []))
            out = code("({} " + fast + " {} if {} else " + slow + "({}, {}))", x, y, guard, x, y,
                       is_int=whole)
        return out

    def _name_src(self, name: str, py: dict[str, Code]) -> Code:
        return py[name] if name in py else _var(name)

    # ------------------------------------------------------------------ expressions
    def expr(self, node: Node, scope: Scope, py: dict[str, Code]) -> Code:
        """Code of one expression node. ``py`` maps the names bound by generated
        loops and defines to their Python locals.

        :raises Unsupported: a construct the generator leaves to the closures.
        """
        if self._cse:
            name = self._cse.get(_canonical(node))
            if name is not None:
                return name
        method = getattr(self, f"_e_{node.get('k')}", None)
        if method is None:
            raise Unsupported(node.get("k"))
        src: Code = method(node, scope, py)
        return src

    def _e_lit(self, node: Node, scope: Scope, py: dict[str, Code]) -> Code:
        return self.const(node["value"])

    def _e_name(self, node: Node, scope: Scope, py: dict[str, Code]) -> Code:
        name = node["name"]
        if name in py:
            return py[name]
        if name in scope.locals:
            return _var(name, kind=scope.kinds.get(name))
        if scope.candidate is not None and name in scope.attributes:
            if scope.candidate == "$self":
                raise Unsupported("$self")
            return self._attr(self._name_src(scope.candidate, py), name)
        g = scope.globals.get(name)
        if g is None:
            return self._builtin_name(name)
        if g.kind in ("const", "option", "symbol", "pattern", "zone"):
            return self.const(g.value)
        if g.kind in ("var", "player_var", "team_var"):
            return _var(name)
        if g.kind == "component":
            return self.const(g.value)
        raise Unsupported(g.kind)

    def _builtin_name(self, name: str) -> Code:
        seats = self.const([Player(i) for i in range(self.inst.num_players)])
        if name == "players":
            return seats
        if name == "active":
            return code("[p for p in {} if st.active[p]]", seats)
        if name == "others":
            return code("[p for p in {} if p != {} and st.active[p]]", seats, _var("current"))
        if name == "current":
            return _var("current")
        if name == "next":
            # the seat after the current one, read from the instance's table when
            # it is active (queries.next_active otherwise, and for anything else)
            after = self.const(self.inst.next_seat)
            t = self.local("T")
            return code("({}[{}] if type({} := {}) is Player and "
                        "st.active[{}[{}]] else _next_active(st, {}))",
                        after, t, t, _var("current"), after, t, t)
        if name == "round":
            return _var("round")
        if name in ("owner", "nobody", "everyone"):
            return literal(name, repr(name))
        if name in ("axes", "directions"):
            return code("list({})", self.const(ops.AXES if name == 'axes' else ops.DIRECTIONS))
        raise Unsupported(name)

    def _constant_value(self, node: Node, scope: Scope) -> object:
        """The value of a constant node, computed once by its closure (as the closure
        compiler folds it)."""
        return self.compiler.compile_part(node, scope)(None)  # type: ignore[arg-type]

    def _e_list(self, node: Node, scope: Scope, py: dict[str, Code]) -> Code:
        if not py and self.compiler.is_constant(node, scope):
            return code("list({})", self.const(self._constant_value(node, scope)), is_list=True)
        return code("[{}]", join(", ", [self.expr(i, scope, py) for i in node["items"]]),
                    is_list=True)

    def _e_tuple(self, node: Node, scope: Scope, py: dict[str, Code]) -> Code:
        parts = [self.expr(i, scope, py) for i in node["items"]]
        return code("(" + "".join("{}, " for _ in parts) + ")", *parts)

    def _e_map(self, node: Node, scope: Scope, py: dict[str, Code]) -> Code:
        if not py and self.compiler.is_constant(node, scope):
            return self.const(self._constant_value(node, scope))
        pairs = [code("{}: {}", self.expr(a, scope, py), self.expr(b, scope, py))
                 for a, b in node["items"]]
        return code("{{{}}}", join(", ", pairs))

    def _e_range(self, node: Node, scope: Scope, py: dict[str, Code]) -> Code:
        return code("_make_range({}, {})", self.expr(node['from'], scope, py),
                    self.expr(node['to'], scope, py))

    def _e_if(self, node: Node, scope: Scope, py: dict[str, Code]) -> Code:
        c = self.expr(node["cond"], scope, py)
        a = self.expr(node["then"], scope, py)
        b = self.expr(node["else"], scope, py)
        return code("({} if {} else {})", a, c, b)

    def _e_attr(self, node: Node, scope: Scope, py: dict[str, Code]) -> Code:
        of = self.expr(node["of"], scope, py)
        name = node["name"]
        if self._element_kind(node["of"], scope) == "piece" and \
                name in self._common_attributes and name not in PSEUDO_ATTRIBUTES:
            # ZONE.NAME (or PIECES.NAME): each piece's value, read directly (every
            # piece has it); a list of whole numbers where every piece's is one
            x = self.local()
            return code("[{}.attrs[" + repr(name) + "] for {} in {}]", x, x,
                        self.iterable(self._items(of), py), is_list=True,
                        int_list=name in self._int_attributes)
        return self._attr(of, name)

    def _e_index(self, node: Node, scope: Scope, py: dict[str, Code]) -> Code:
        base = node["of"]
        idx = self.expr(node["index"], scope, py)
        if base.get("k") == "name" and base["name"] not in scope.locals and base["name"] not in py:
            g = scope.globals.get(base["name"])
            if g is not None and g.kind == "zone_family":
                zones = g.value["zones"]
                family = self.const(zones)
                name = repr(base["name"])
                if type(zones) is dict and zones and all(
                        self.inst.zone_kinds[z.index] != "grid" for z in zones.values()):
                    # per value (per suit): a key of the family's own kind (text, a
                    # whole number) is looked up inline; anything else, and a value
                    # that has no zone, goes through the check (and its error)
                    t, first = self._once(idx)
                    slow = code("_zone_of_family({}, {}, " + name + ")", family, t)
                    test = code("(type({}) is str or type({}) is int) and {} in {}",
                                first, t, t, family)
                    index = self.const({k: z.index for k, z in zones.items()})
                    in_zones = code("({}[{}[{}]] if {} else items(st, {}))",
                                    ZONES, index, t, test, slow)
                    return code("({}[{}] if {} else {})", family, t, test, slow,
                                pieces=in_zones)
                if type(zones) is not list or len(zones) != self.inst.num_players:
                    return code("_zone_of_family({}, {}, " + name + ")", family, idx)
                # per player: a seat (a Player is always one of the instance's seats)
                # indexes the list itself; anything else goes through the check
                t = idx if idx.simple else self.local("T")
                first = idx if t is idx else code("({} := {})", t, idx)
                slow = code("_zone_of_family({}, {}, " + name + ")", family, t)
                kinds = {self.inst.zone_kinds[z.index] for z in zones}
                pieces: Code | None = None
                if "grid" not in kinds:
                    index = self.const([z.index for z in zones])
                    pieces = code("({}[{}[{}]] if type({}) is Player else items(st, {}))",
                                  ZONES, index, t, first, slow)
                return code("({}[{}] if type({}) is Player else {})", family, t, first, slow,
                            pieces=pieces)
            if g is not None and g.kind == "team_var":
                # per team: only a team's number (as team() gives it) is an index
                teams = len(self.inst.teams or ())
                return code("_team_value({}, {}, " + str(teams) + ", " + repr(base["name"]) + ")",
                            _var(base["name"]), idx)
        if idx.digits:
            # a list at a literal position (cheaper inline than the call; an index
            # that is not a literal is not: its tests cost what the call saves)
            t, first = self._once(self.expr(base, scope, py))
            return code("({}[{}] if type({}) is list and len({}) > {} else _index(st, {}, {}))",
                        t, idx, first, t, idx, t, idx)
        return code("_index(st, {}, {})", self.expr(base, scope, py), idx)

    def _e_op(self, node: Node, scope: Scope, py: dict[str, Code]) -> Code:
        op = node["op"]
        if op == "and":
            args = self._and_args(node["args"], scope, py)
        else:
            args = [self.expr(a, scope, py) for a in node["args"]]
        if op == "not":
            return code("(not {})", args[0])
        if op == "neg":
            return code("_neg({})", args[0])
        a, b = args
        if op in ("and", "or"):
            # a side that is a constant (an option such as 'blind'): folded
            absorbing, neutral = (False, True) if op == "and" else (True, False)
            if a.literal is absorbing:
                return a
            if a.literal is neutral:
                return self._as_bool(b)
            if b.literal is neutral:
                return self._as_bool(a)
            return code("((not not {}) " + op + " (not not {}))", a, b, logic=(a, op, b))
        if op in ("==", "!="):
            if a.literal is None or b.literal is None:
                other = b if a.literal is None else a
                if other.literal is not NO_LITERAL:
                    # two literals ("5x5" != none): known now (Python warns at
                    # "is" with a literal)
                    equal = other.literal is None
                    return self.const(equal if op == "==" else not equal)
                # nothing but none equals none: identity, at the speed of C
                same = code("({} " + ('is' if op == '==' else 'is not') + " {})", a, b)
                if op == "!=" and b.literal is None:
                    return same.with_facts(not_none=a)
                return same
            face = self._face_test(node["args"], args, op, scope, py)
            return face if face is not None else code("({} " + op + " {})", a, b)
        if op in ("in", "not in"):
            test = self._in_constant(node["args"][1], scope, py, a)
            if test is None and b.is_list:
                test = code("({} in {})", a, b)   # a new list: contains() would do just that
            if test is None:
                test = code("contains(st, {}, {})", b, a)
            return test if op == "in" else code("(not {})", test)
        if op in ("+", "-", "<", "<=", ">", ">=") and id(node) in self.inst.proven_numbers:
            # both sides proven numbers (seats) by the type check: no test
            return code("({} " + op + " {})", a, b, is_int=a.is_int and b.is_int and op in "+-")
        if op == "+":
            if a.is_int and b.is_int:
                return code("({} + {})", a, b, is_int=True)
            x, y = self.local("T"), self.local("T")
            if b.is_list or a.is_list:
                # joining lists (ops.plus: a new list, within the size limit)
                return code("({} + {} if (type({} := {}) is list) & (type({} := {}) is list) "
                            f"and len({{}}) + len({{}}) <= {MAX_COLLECTION} else _plus(st, {{}}, {{}}))",
                            x, y, x, a, y, b, x, y, x, y, is_list=a.is_list and b.is_list)
            return code("({} + {} if (type({} := {}) is int) & (type({} := {}) is int) "
                        "else _plus(st, {}, {}))", x, y, x, a, y, b, x, y)
        if op in ("-", "*", "<", "<=", ">", ">="):
            return self._binary(a, b, op, _ARITH[op])
        if op in ("//", "%"):
            return self._binary(a, b, op, _ARITH[op], nonzero=True)
        if op in _ARITH:
            return code(_ARITH[op] + "({}, {})", a, b)
        raise Unsupported(op)

    def _and_args(self, nodes: list[Node], scope: Scope,
                  py: dict[str, Code]) -> list[Code]:
        """The code of ``A and B``; where ``A`` is ``X != none`` for a cell's
        content ``X`` (a piece or none), ``B`` reads ``X`` as the piece it then is."""
        a = self.expr(nodes[0], scope, py)
        x = a.not_none
        if x is None or not x.ident or x.kind != "slot":
            return [a, self.expr(nodes[1], scope, py)]
        piece = x.with_facts(kind="piece")
        inner = {name: piece if value is x else
                 value.with_facts(cell_piece=piece) if value.cell_piece is x else value
                 for name, value in py.items()}
        return [a, self.expr(nodes[1], scope, inner)]

    # ------------------------------------------------------------------ collections
    def _in_constant(self, node: Node, scope: Scope, py: dict[str, Code],
                     a: Code) -> Code | None:
        """``A in [3, 5, 7]`` as a set lookup when the list is a constant of whole
        numbers (and ``A`` one too; anything else takes :func:`contains`)."""
        if py or node.get("k") != "list" or not self.compiler.is_constant(node, scope):
            return None
        values = self._constant_value(node, scope)
        if not isinstance(values, list) or not all(type(v) is int for v in values):
            return None
        x = self.local("T")
        return code("({} in {} if type({} := {}) is int else contains(st, {}, {}))",
                    x, self.const(frozenset(values)), x, a, self.const(values), x)

    def _face_test(self, nodes: list[Node], args: list[Code], op: str, scope: Scope,
                   py: dict[str, Code]) -> Code | None:
        """``X.face == up`` (or ``down``, ``!=``) read from the face table directly,
        when ``X`` is a piece; ``None`` if the comparison is not of that form."""
        for i in (0, 1):
            side, other = nodes[i], nodes[1 - i]
            if other.get("k") != "lit" or other.get("value") not in ("up", "down"):
                continue
            if side.get("k") == "attr" and side.get("name") == "face":
                break
            if side.get("k") == "name" and side["name"] == "face" and "face" not in py and \
                    "face" not in scope.locals and scope.candidate not in (None, "$self") and \
                    "face" in scope.attributes:
                break                   # a where's bare 'face': the candidate's
        else:
            return None
        want = str((other["value"] == "up") == (op == "=="))
        if side.get("k") == "name":
            assert scope.candidate is not None       # checked above
            of = self._name_src(scope.candidate, py)
        else:
            of = self.expr(side["of"], scope, py)
        if of.kind == "piece":
            return code("({}[{}.id] is " + want + ")", FACE, of)
        if of.kind == "slot":      # a piece or none (whose face is none)
            x, first = of, of
            if not of.simple:
                x = self.local("T")
                first = code("({} := {})", x, of)
            return code("(({}[{}.id] is " + want + ") if {} is not None else "
                        + str(op == '!=') + ")", FACE, x, first)
        x = self.local("T")
        return code("(({}[{}.id] is " + want + ") if type({} := {}) is Piece "
                    "else (attribute(st, {}, 'face') " + op + " " + repr(other['value']) + "))",
                    FACE, x, x, of, x)

    def element_kind(self, node: Node, scope: Scope) -> str | None:
        """What the elements of the collection ``node`` certainly are: ``"cell"``,
        ``"piece"``, or ``None`` (unknown)."""
        return self._element_kind(node, scope)

    def _element_kind(self, node: Node, scope: Scope) -> str | None:
        """What the elements of the collection ``node`` are known to be: ``"cell"``
        (``cells(...)``, ``empty(...)``, ``ends(...)``, a maximal run), ``"piece"``
        (a zone), or ``None``."""
        k = node.get("k")
        if k == "call" and node.get("fn") in ("cells", "empty", "ends") and \
                scope.globals.get(node["fn"]) is None:
            return "cell"
        if k == "run":
            return "cell"
        if k == "where":
            return self._element_kind(node["of"], scope)
        if k == "name" and node["name"] not in scope.locals:
            g = scope.globals.get(node["name"])
            if g is not None and g.kind == "zone":
                return "piece"
        if k == "index" and node["of"].get("k") == "name" and \
                node["of"]["name"] not in scope.locals:
            g = scope.globals.get(node["of"]["name"])
            if g is not None and g.kind == "zone_family":
                return "piece"
        return None

    def candidate_scope(self, scope: Scope, name: str) -> Scope:
        """``scope`` inside a ``where`` whose candidate is the local ``name``."""
        s = scope.with_locals(name)
        s.candidate = name
        return s

    def _e_where(self, node: Node, scope: Scope, py: dict[str, Code]) -> Code:
        return self._where(node, scope, py, "$it")

    def _where(self, node: Node, scope: Scope, py: dict[str, Code], name: str) -> Code:
        found = lookup.source(self, node, scope, py, name)    # one grid cell by row and col
        if found is not None:
            return found
        x = self.local()
        grid = self._grid_cells(node["of"], scope)
        piece: Code | None = None
        if grid is not None:
            # the cells of a named grid: a constant, each cell's zone known, read
            # beside the grid's slots (the cells are by slot), so at(x) is a local
            of = self.const(tuple(self.inst.zones[grid].cell_objects))
            piece = self.local("A", kind="slot")
            x = x.with_facts(cell_zone=grid, cell_piece=piece)
        else:
            of = self.iterable(self.expr(node["of"], scope, py), py)
        x = x.with_facts(kind=self._element_kind(node["of"], scope))
        hoist, py = self._hoisted([node["cond"]], scope, py, (name,))
        cond = self.condition(node["cond"], self.candidate_scope(scope, name), {**py, name: x})
        head = self._flags(hoist)
        loop = code("{}for {} in", head, x)       # hoist: "for (H2,) in ((V['roll'],),) "
        zone = self._zone_index(node["of"], scope)
        if zone is not None:
            # a zone named in the ruleset: its list of pieces read directly (a grid's
            # empty cells skipped in the same comprehension)
            index, zkind = zone
            if zkind == "grid":
                clauses = code("{} _charge(st, {}[" + str(index) + "]) if {} is not None and {}",
                               loop, ZONES, x, cond)
            else:
                clauses = code("{} _charge(st, {}[" + str(index) + "]) if {}", loop, ZONES, cond)
        elif grid is not None:
            assert piece is not None
            clauses = code("{}for {}, {} in zip(_charge(st, {}), {}[" + str(grid) + "]) if {}",
                           head, x, piece, of, ZONES, cond)
        else:
            return code("[{} {} _charge(st, {}) if {}]", x, loop, self._items(of), cond,
                        is_list=True)
        by_slot = None
        if grid is not None and x.text not in head.refs | cond.refs:
            # the same loop beside anything listed by slot (nothing reads the cell itself)
            assert piece is not None
            by_slot = (head.text, piece.text, grid, cond.text, of.text)
        # pieces or cells: values fit for keys
        return code("[{} {}]", x, clauses, is_list=True, comprehension=(x.text, clauses.text),
                    by_slot=by_slot)

    def _grid_cells(self, node: Node, scope: Scope) -> int | None:
        """The index of the grid of ``cells(GRID)``, for a grid the ruleset names."""
        if node.get("k") != "call" or node.get("fn") != "cells" or \
                scope.globals.get("cells") is not None or len(node.get("args", [])) != 1:
            return None
        zone = self._zone_index(node["args"][0], scope)
        return zone[0] if zone is not None and zone[1] == "grid" else None

    @staticmethod
    def _literal_int(node: Node) -> int | None:
        """The whole number a literal node is, else ``None``."""
        value = node.get("value") if node.get("k") == "lit" else None
        return value if type(value) is int else None

    def _named_pattern(self, node: Node, scope: Scope,
                       py: dict[str, Code]) -> Code | None:
        """The compiled pattern a pattern's own name stands for, as a constant."""
        if node.get("k") != "name" or node["name"] in scope.locals or node["name"] in py:
            return None
        g = scope.globals.get(node["name"])
        if g is None or type(g.value) is not PatternRef:
            return None
        return self.const(self.inst.patterns[g.value.index])

    def _zone_index(self, node: Node, scope: Scope) -> tuple[int, str] | None:
        """``(index, kind)`` of the zone ``node`` names, if it is a zone's name."""
        if node.get("k") != "name" or node["name"] in scope.locals:
            return None
        g = scope.globals.get(node["name"])
        if g is None or g.kind != "zone" or type(g.value) is not ZoneRef:
            return None
        index: int = g.value.index
        return index, self.inst.zone_kinds[index]

    def _e_sort(self, node: Node, scope: Scope, py: dict[str, Code]) -> Code:
        from rulepack.engine.runtime import sort_key
        attr = node["by"]
        of = self.expr(node["of"], scope, py)
        key = self.const(sort_key(self.inst.orders.get(attr)))
        return code("_sort_by(st, {}, " + repr(attr) + ", {}, "
                    + str(bool(node.get('descending'))) + ")", of, key)

    def _bind(self, bind: str | list[str], py: dict[str, Code],
              kind: str | None = None) -> tuple[Code, dict[str, Code]]:
        """The ``for`` clause target for a binding, and the names it adds (one name:
        its value of ``kind``)."""
        if isinstance(bind, str):
            x = self.local(kind=kind)
            return x, {**py, bind: x}
        names = {n: self.local() for n in bind}
        return join(", ", list(names.values())), {**py, **names}

    def _e_comp(self, node: Node, scope: Scope, py: dict[str, Code]) -> Code:
        bind = node["bind"]
        names = [bind] if isinstance(bind, str) else list(bind)
        source = self.iterable(self.expr(node["in"], scope, py), py)
        body = [node["expr"]] + ([node["if"]] if node.get("if") else [])
        hoist, py = self._hoisted(body, scope, py, names)
        kind = self._element_kind(node["in"], scope) if isinstance(bind, str) else None
        target, inner_py = self._bind(bind, py, kind)
        inner = scope.with_locals(*names)
        expr = self.expr(node["expr"], inner, inner_py)
        cond = code(" if {}", self.condition(node['if'], inner, inner_py)) \
            if node.get("if") else Code("")
        head = self._flags(hoist)
        if isinstance(bind, str):
            loop = code("{}for {} in _charge(st, {})", head, target, self._items(source))
        else:
            t = self.local()
            loop = code("{}for {} in _charge(st, {}) for ({},) in "
                        "((_unpack({}, " + str(len(names)) + ", " + repr(', '.join(names))
                        + "),))", head, t, self._items(source), target, t)
        return code("[{} {}{}]", expr, loop, cond, is_list=True)

    def _hoisted(self, body: list[Node], scope: Scope, py: dict[str, Code],
                 bound: tuple[str, ...] | list[str]) -> tuple[_Hoist, dict[str, Code]]:
        """The state variables the body of a comprehension reads, each read once
        before its loop into a local (an expression changes no variable).

        :returns: the ``for`` clause binding them (empty if none), placed before
            the comprehension's own loop, and ``py`` with their locals added.
        """
        names: list[str] = []
        for node in body:
            for name in sorted(names_in(node)):
                if name in py or name in bound or name in names or \
                        (name in scope.attributes and name not in scope.locals):
                    continue
                g = scope.globals.get(name)
                if name in scope.locals or (g is not None and g.kind in ("var", "player_var", "team_var")) \
                        or (g is None and name in ("current", "round")):
                    names.append(name)
        if not names:
            return _NO_HOIST, py
        hoisted = {n: self.local("H", flags=Flags()) for n in names}
        clause = code("for ({},) in (({},),) ", join(", ", list(hoisted.values())),
                      join(", ", [_var(n) for n in names]))
        return _Hoist(clause, list(hoisted.values())), {**py, **hoisted}

    def int_flag(self, src: Code, nonzero: bool) -> Code | None:
        """For a local read before a comprehension's loop (see :meth:`_hoisted`): a
        local set there too, true when it holds a whole number (not 0 if
        ``nonzero``), so that arithmetic in the loop tests it once, not per
        element. ``None`` for any other code."""
        flags = src.flags
        if flags is None or not flags.open:
            return None
        key = "nonzero" if nonzero else "int"
        flag = flags.handed.get(key)
        if flag is None:
            flag = flags.handed[key] = self.local("J")
        return flag

    def _flags(self, hoist: _Hoist) -> Code:
        """The hoist's ``for`` clause followed by the clauses setting the flags
        :meth:`int_flag` handed out for its locals."""
        if not hoist.locals:
            return hoist.clause
        tests = [test for h in hoist.locals for test in _flag_tests(h)]
        return code("{}" + "for {} in (({}),) " * len(tests), hoist.clause,
                    *[p for j, t in tests for p in (j, t)])

    def _e_argmax(self, node: Node, scope: Scope, py: dict[str, Code]) -> Code:
        name = node["bind"]
        source = self.expr(node["in"], scope, py)
        x = self.local()
        inner = scope.with_locals(name)
        inner_py = {**py, name: x}
        shared = _shared_calls(node["if"], node["by"]) if node.get("if") else []
        return self._argmax_function(node, shared, source, x, inner, py, inner_py)

    def _argmax_function(self, node: Node, shared: list[Node],
                         source: Code, x: Code, inner: Scope, py: dict[str, Code],
                         inner_py: dict[str, Code]) -> Code:
        """``argmax ... [if C] by K`` as a local function with ``C`` and ``K`` inline
        (the same values, the same errors, as :func:`ops.argmax` with two
        lambdas); calls that ``C`` always computes and ``K`` makes too (``if
        best(c, hand[p]) != [] by count(best(c, hand[p]))``), computed once per
        element."""
        fn = self.local("R")
        lines: list[Code] = []
        saved = dict(self._cse)
        for call in shared:
            name = self.local("S")
            lines.append(code("        {} = {}", name, self.expr(call, inner, inner_py)))
            self._cse[_canonical(call)] = name
        try:
            cond = self.condition(node["if"], inner, inner_py) if node.get("if") else None
            key = self.expr(node["by"], inner, inner_py)
        finally:
            self._cse = saved
        test = [] if cond is None else [code("        if not ({}):", cond),
                                        Code("            continue")]
        params = _params(py, first="xs")
        body = [code("def {}(" + params + "):", fn),
                Code("    best = []"),
                Code("    best_key = None"),
                code("    for {} in xs:", x),
                *lines,
                *test,
                code("        k = {}", key),
                Code("        try:"),
                Code("            better = not best or k > best_key"),
                Code("        except TypeError:"),
                Code("            _argmax_failed(k, best_key)"),
                Code("        if better:"),
                code("            best, best_key = [{}], k", x),
                Code("        elif k == best_key:"),
                code("            best.append({})", x),
                Code("    return best")]
        self._prelude.append(join("\n", body))
        return code("{}(_charge(st, {})" + "".join(", " + p for p in _param_names(py)) + ")",
                    fn, self._items(source), refs=_refs(py))

    def _e_run(self, node: Node, scope: Scope, py: dict[str, Code]) -> Code:
        through = self.expr(node["through"], scope, py)
        along = self.expr(node["along"], scope, py)
        x = self.local(kind="slot")          # what lies on each cell: a piece or none
        name = "$cell_piece"
        # the variables the condition reads, read once before the walk
        _, inner_py = self._hoisted([node["where"]], scope, py, (name,))
        added = [(n, h) for n, h in inner_py.items() if n not in py]
        reads = [code("    {} = {}", h, _var(n)) for n, h in added]
        cond = self.condition(node["where"], self.candidate_scope(scope, name),
                              {**inner_py, name: x})
        reads += [code("    {} = {}", j, t) for _, h in added for j, t in _flag_tests(h)]
        # a local function with the condition inline (ops.maximal_run, unrolled)
        fn = self.local("R")
        params = _params(py, first="start, d")
        body = [code("def {}(" + params + "):", fn),
                *reads,
                Code("    if type(start) is not Cell:"),
                Code("        start = _as_cell(st, start)"),
                Code("    if not (type(d) is tuple and len(d) == 2 and type(d[0]) is int "
                     "and type(d[1]) is int):"),
                Code("        d = _direction(d)"),
                Code("    zone = st.zones[start.zone]"),
                code("    {} = zone[start.slot]", x),
                code("    if not ({}):", cond),
                Code("        return []"),
                Code("    info = st.program.zones[start.zone]"),
                Code("    backward, forward = info.ends_tables(d)"),
                Code("    line = []"),
                Code("    c = backward[start.slot]"),
                Code("    while c is not None:"),
                code("        {} = zone[c.slot]", x),
                code("        if not ({}):", cond),
                Code("            break"),
                Code("        line.append(c)"),
                Code("        c = backward[c.slot]"),
                Code("    line.reverse()"),
                Code("    line.append(start)"),
                Code("    c = forward[start.slot]"),
                Code("    while c is not None:"),
                code("        {} = zone[c.slot]", x),
                code("        if not ({}):", cond),
                Code("            break"),
                Code("        line.append(c)"),
                Code("        c = forward[c.slot]"),
                Code("    return line")]
        self._prelude.append(join("\n", body))
        return code("{}({}, {}" + "".join(", " + p for p in _param_names(py)) + ")",
                    fn, through, along, refs=_refs(py), is_list=True)   # a new list of cells

    def _e_top(self, node: Node, scope: Scope, py: dict[str, Code]) -> Code:
        n = self.expr(node["count"], scope, py) if node.get("count") else literal(None, "None")
        zone = self._zone_index(node["of"], scope)
        of: Code
        if zone is not None and zone[1] != "grid":
            of = code("{}[" + str(zone[0]) + "]", ZONES)   # a zone the ruleset names: its list
            listed = True
        else:
            of = self.expr(node["of"], scope, py)
            listed = of.pieces is not None                 # a zone's pieces: read directly
            if of.pieces is not None:
                of = of.pieces
        top = node["end"] == "top"
        if listed:
            # a zone's list: its top (last) or bottom piece, or the slice of top N
            # (the last N, top first) when N is a whole number from 1
            if n.literal is None:
                t = self.local("T")
                return code("({}[" + str(-1 if top else 0) + "] if ({} := {}) else None)", t, t, of)
            if type(n.literal) is int and n.literal >= 1:
                k = n.literal
                return code("{}[:" + str(-k - 1) + ":-1]" if top else "{}[:" + str(k) + "]", of,
                            is_list=True)
            # (the zone, then N, both evaluated, as the closures evaluate them)
            t, m = self.local("T"), self.local("T")
            cut = code("{}[:-{} - 1:-1]", t, m) if top else code("{}[:{}]", t, m)
            return code("({} if (type({} := {}) is list) & (type({} := {}) is int)"
                        " and {} >= 1 else _top(st, {}, {}, " + str(top) + "))",
                        cut, t, of, m, n, m, t, m, is_list=True)
        src = code("_top(st, {}, {}, " + str(top) + ")", of, n,
                   is_list=bool(node.get("count")))     # top N: a new list
        return src

    # ------------------------------------------------------------------ calls
    def _e_call(self, node: Node, scope: Scope, py: dict[str, Code]) -> Code:
        fn = node["fn"]
        g = scope.globals.get(fn)
        if g is not None and g.kind == "define":
            return self._define(fn, g.value, node, scope, py)
        args = [self.expr(a, scope, py) for a in node["args"]]
        if fn in _UNARY:
            if fn == "sum" and args[0].int_list:
                return code("sum({})", args[0], is_int=True)
            if fn == "at":
                c = args[0]
                if c.cell_piece is not None:
                    return c.cell_piece
                if c.cell_zone is not None:
                    return code("{}[" + str(c.cell_zone) + "][{}.slot]", ZONES, c, kind="slot")
                if c.kind == "cell":
                    return code("{}[{}.zone][{}.slot]", ZONES, c, c, kind="slot")
                first = c
                if not c.simple:
                    t = self.local("T")
                    first = code("({} := {})", t, c)
                    c = t
                return code("({}[{}.zone][{}.slot] if type({}) is Cell else _at(st, {}))",
                            ZONES, c, c, first, c)
            arg = node["args"][0]
            low = self._literal_int(arg["from"]) if arg.get("k") == "range" else None
            high = self._literal_int(arg["to"]) if arg.get("k") == "range" else None
            if fn == "random" and low is not None and high is not None:
                # random(A..B) of whole numbers: the numbers made once (the draw still
                # checks and records itself)
                if 0 <= high - low < 10_000:
                    return code("_random_element(st, {})",
                                self.const(list(range(low, high + 1))))
            return code(_UNARY[fn] + "(st, {})", args[0])
        if fn == "team":
            # each seat's team (the closure has checked that there are teams)
            team_of = self.const(self.inst.team_of)
            return code("_team_of({}, {})", team_of, args[0], is_int=True)
        if fn in _CALLS:
            if fn == "count" and args[0].is_list:
                return code("len({})", args[0], is_int=True)
            if fn == "count" and args[0].pieces is not None:
                return code("len({})", self._items(args[0]), is_int=True)
            zone = self._zone_index(node["args"][0], scope) if fn == "count" else None
            if zone is not None:
                # a zone the ruleset names: its list's length (a grid's empty cells not counted)
                index, kind = zone
                if kind != "grid":
                    return code("len({}[" + str(index) + "])", ZONES, is_int=True)
                if len(self.inst.pieces) <= 4 * len(self.inst.zones[index].cells):
                    # the pieces located there: whole numbers compared, cheaper
                    # than asking each cell whether it is empty
                    return code("st.loc.count(" + str(index) + ")", is_int=True)
                return code("(len({}[" + str(index) + "]) - {}[" + str(index) + "].count(None))",
                            ZONES, ZONES, is_int=True)
            if fn in ("any", "all") and args[0].is_list:
                return code(fn + "({})", args[0])
            if fn == "count" and args[0].simple:
                # a variable's value: most often a list
                t, first = self._once(args[0])
                return code("(len({}) if type({}) is list else count(st, {}))", t, first, t,
                            is_int=True)
            return code(_CALLS[fn], *args, is_int=fn == "count",
                        is_list=fn == "ends")     # ends: always a new list of cells
        if fn in ("best", "partition", "partitionable", "matches"):
            pat = self._named_pattern(node["args"][0], scope, py) or \
                self._pattern_src(args[0])
            if fn == "best":
                return code("{}.best(st, {})", pat, self._items(args[1]), is_list=True)
            if fn == "matches":
                return code("{}.matches(st, {})", pat, self._items(args[1]))
            if fn == "partition":
                return code("{}.partition(st, _pieces(st, {}))", pat, args[1])
            optional = args[2] if len(args) == 3 else literal(None, "None")
            return code("_partitionable(st, {}, {}, {})", pat, args[1], optional)
        if fn == "usable":
            pat = self._pattern_src(args[0])
            return code("_usable(st, {}, {}, {})", pat, args[1], args[2])
        raise Unsupported(fn)

    def _pattern_src(self, ref: Code) -> Code:
        """The compiled pattern a pattern value names (:func:`ops.pattern`, inline)."""
        pats = self.const(self.inst.patterns)
        t, first = self._once(ref)
        return code("({}[{}.index] if type({}) is PatternRef else _pattern({}, {}))",
                    pats, t, first, pats, t)

    def _define(self, fn: str, define: Node, node: Node, scope: Scope,
                py: dict[str, Code]) -> Code:
        """A call of a ``define``, inline: its body with each parameter read from a
        local that holds the argument (the argument's own local if it is one, else
        one set first, in order: ``((T1 := a), (T2 := b), body)[-1]``)."""
        params = define["params"]
        args = [self.expr(a, scope, py) for a in node["args"]]
        private = [f"${fn}:{p}" for p in params]
        body_ir = rename(define["expr"], dict(zip(params, private)))
        body_scope = Scope(scope.globals, scope.attributes, scope.file, locals=list(private),
                           deterministic=scope.deterministic, static=scope.static)
        idents: list[Code] = []
        sets: list[Code] = []
        for arg in args:
            if arg.ident and not (arg.literal is None or type(arg.literal) is bool):
                idents.append(arg)
            else:
                t = self.local("T", kind=arg.kind, is_int=arg.is_int, is_list=arg.is_list)
                sets.append(code("({} := {})", t, arg))
                idents.append(t)
        body = self.expr(body_ir, body_scope, dict(zip(private, idents)))
        if not sets:
            return code("({})", body)
        return code("(" + ", ".join("{}" for _ in sets) + ", {})[-1]", *sets, body)


def _var(name: str, kind: str | None = None) -> Code:
    """A read of the state's variable ``name`` (``V['name']``; it reads ``V`` and
    the variable, :func:`reads_variable`)."""
    return code("{}[" + repr(name) + "]", VARS, simple=True, kind=kind,
                refs=frozenset([_VAR + name]))


#: marks a variable's name among the locals a code reads (see :func:`_var`)
_VAR = "V:"


def reads_variable(refs: frozenset[str], name: str) -> bool:
    """Whether code that reads the locals ``refs`` reads the state's variable ``name``."""
    return _VAR + name in refs


def _param_names(py: dict[str, Code]) -> list[str]:
    """The locals of ``py``, each once, in order: the parameters of a local function
    that the code in scope calls with them."""
    return list(dict.fromkeys(c.text for c in py.values()))


def _params(py: dict[str, Code], first: str = "") -> str:
    return ", ".join(([first] if first else []) + _param_names(py))


def _refs(py: dict[str, Code]) -> frozenset[str]:
    out: frozenset[str] = frozenset()
    for c in py.values():
        out |= c.refs
    return out


def _flag_tests(hoisted: Code) -> list[tuple[Code, Code]]:
    """The flags handed out for a hoisted local, each with its test; its flags are
    closed then (set once, where the local is read: none is handed out later)."""
    flags = hoisted.flags
    if flags is None or not flags.open:
        return []
    flags.open = False
    return [(j, code("type({}) is int" + (" and {} != 0" if key == "nonzero" else ""),
                     hoisted, *([hoisted] if key == "nonzero" else [])))
            for key, j in flags.handed.items()]


def _canonical(node: object) -> str:
    """The text of an expression node without its source positions."""
    return json.dumps(strip_positions(node), sort_keys=True)


def _shared_calls(cond: Node, key: Node) -> list[Node]:
    """The calls that ``cond`` always computes (not behind ``and``/``or``, an
    ``if``, or inside a collection's element expression) and that ``key`` makes
    too, outermost first; none with a chance event in it."""
    def always(n: object, out: list[Node]) -> None:
        if not isinstance(n, dict):
            return
        k = n.get("k")
        if k == "call":
            out.append(n)
            for a in n.get("args", []):
                always(a, out)
        elif k == "op":
            args = n.get("args", [])
            for a in (args[:1] if n.get("op") in ("and", "or") else args):
                always(a, out)
        elif k == "if":
            always(n.get("cond"), out)
        elif k in ("attr", "index"):
            always(n.get("of"), out)
            always(n.get("index"), out)
        elif k in ("list", "tuple"):
            for a in n.get("items", []):
                always(a, out)

    def calls(n: object) -> set[str]:
        return {_canonical(c) for c in nodes(n) if c.get("k") == "call"}

    in_cond: list[Node] = []
    always(cond, in_cond)
    in_key = calls(key)
    shared: list[Node] = []
    taken: set[str] = set()
    for call in in_cond:
        text = _canonical(call)
        if text in in_key and text not in taken and '"random"' not in text:
            shared.append(call)
            taken |= calls(call)          # not its parts again
    return shared


def _shorten(text: str, limit: int = 100) -> str:
    return text if len(text) <= limit else text[:limit - 3] + "..."
