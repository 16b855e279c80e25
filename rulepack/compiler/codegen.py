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
generator does not handle keeps the closures for that root.

Safety: ruleset text reaches the source only as ``repr()`` of a string or number,
inside a comment through ``repr()``, or not at all: names of the ruleset become
numbered identifiers (``L3``), other constants are bound in the function's
namespace (``K2``). Nothing is read back from disk; the code object lives in
memory with its instance.
"""

from __future__ import annotations

import json
import math
import re
from types import FunctionType
from functools import cached_property
import os
from typing import TYPE_CHECKING, Any, Callable

from rulepack.engine import moves, ops
from rulepack.engine.runtime import (MAX_COLLECTION, PSEUDO_ATTRIBUTES, attribute, charge,
                                     contains, count, items)
from rulepack.engine.values import Cell, PatternRef, Piece, Player, ZoneRef
from rulepack.printable import printable
from rulepack.compiler.scope import Scope
from rulepack.compiler import lookup
from rulepack.errors import Location
from rulepack.ir import names_in, nodes, rename, strip_positions

if TYPE_CHECKING:  # pragma: no cover
    from rulepack.compiler.expressions import ExprCompiler
    from rulepack.engine.state import State

#: False: every expression stays closures only (tests compare the two forms;
#: RULEPACK_CODEGEN=0 in the environment sets it so for a whole process).
ENABLED = os.environ.get("RULEPACK_CODEGEN", "1") != "0"

#: Names every generated function may use, besides its own constants.
BASE_NAMESPACE: dict[str, Any] = {
    "__builtins__": {"len": len, "sum": sum, "list": list, "any": any, "all": all, "bool": bool,
                     "abs": abs, "max": max, "min": min, "type": type, "int": int, "tuple": tuple,
                     "str": str, "zip": zip, "enumerate": enumerate, "TypeError": TypeError},
    "Piece": Piece, "Cell": Cell, "Player": Player, "PatternRef": PatternRef,
    "attribute": attribute, "contains": contains,
    "count": count, "items": items, "_charge": charge,
    # moves and flips of several pieces, called directly (compiled: rulepack.engine.moves)
    "_move": moves.move, "_flip": moves.flip,
    **{f"_{name}": getattr(ops, name) for name in (
        "neg", "plus", "minus", "times", "floordiv", "mod", "divide", "lt", "le", "gt", "ge",
        "make_range", "index", "zone_of_family", "total", "extreme", "distinct", "only",
        "first", "last", "flatten", "unique", "pattern", "partitionable", "usable", "at", "empty",
        "neighbours", "ends", "cell", "maximal_run", "top", "sort_by", "pieces", "number",
        "as_cell", "direction", "unpack", "random_element", "argmax_failed")},
}

_ARITH = {"-": "_minus", "*": "_times", "//": "_floordiv", "%": "_mod", "/": "_divide",
          "<": "_lt", "<=": "_le", ">": "_gt", ">=": "_ge"}

#: Built-ins that take one value and the state: ``f(st, value)``.
_UNARY = {"sum": "_total", "distinct": "_distinct", "only": "_only", "first": "_first",
          "last": "_last", "unique": "_unique", "empty": "_empty", "flatten": "_flatten",
          "neighbours": "_neighbours", "at": "_at",
          # a chance event, drawn from the state's generator and recorded as the
          # closure does it (the checks keep it out of guards and parameters)
          "random": "_random_element"}


#: The other built-ins, as templates of their evaluated arguments ``{0}``, ``{1}``...
_CALLS = {
    "count": "count(st, {0})", "max": "_extreme(max, items(st, {0}))",
    "min": "_extreme(min, items(st, {0}))", "any": "any(items(st, {0}))",
    "all": "all(items(st, {0}))", "order": "st.seats_from({0})", "after": "st.next_active({0})",
    "is_active": "bool(st.active[st.seat({0})])", "score": "st.score({0})",
    "abs": "abs(_number({0}, 'abs()'))", "cells": "st.cells({0})",
    "cell": "_cell(st, {0}, {1}, {2})", "knows": "st.knows({0}, {1})",
    "step": "st.step(_as_cell(st, {0}), _direction({1}))", "ends": "_ends(st, {0}, {1})",
}


def table_locals(text: str) -> list[str]:
    """The first lines of a generated function whose body is ``text``: ``V`` (the
    variables), and ``F``, ``O``, ``Z`` (faces, owners, zones) where it reads them."""
    lines = ["    V = st.vars"]
    for short, attr in (("F", "face"), ("O", "owner"), ("Z", "zones")):
        if f"{short}[" in text:
            lines.append(f"    {short} = st.{attr}")
    return lines


def _stub(st: "State") -> Any:
    """The code of a root's function until it is generated: its closure."""
    return _closure(st)  # type: ignore[name-defined]  # noqa: F821 - in its own namespace


class Unsupported(Exception):
    """The generator does not handle this construct; the closures are kept."""


class GeneratedExpression:
    """One generated function: its name, source, and where its expression stands."""

    __slots__ = ("name", "source", "where", "constants", "body", "prelude", "is_list", "truth",
                 "comprehension", "by_slot", "pieces")

    def __init__(self, name: str, source: str, where: Location,
                 constants: dict[str, Any], body: str = "", prelude: tuple[str, ...] = ()) -> None:
        self.name = name
        self.source = source
        self.where = where
        #: the names bound in its namespace (``K0``...) and their values
        self.constants = constants
        #: the returned expression and the statements before it, which the flow's
        #: generated code inlines (names are unique within the instance)
        self.body = body
        self.prelude = prelude
        #: whether the body always gives a new list (no ``items()`` needed)
        self.is_list = False
        #: the body where only its truth counts (a condition)
        self.truth = body
        #: for a body ``[X CLAUSES]`` (a where that keeps its candidates): ``(X,
        #: CLAUSES)``, so that a caller may build its own list from the same loop
        self.comprehension: tuple[str, str] | None = None
        #: for such a body over a grid's cells whose condition reads only what lies
        #: on each cell, the same loop beside the grid's slots: ``(HEAD, PIECE, GRID,
        #: COND, CELLS)``, as in ``[x HEADfor x, PIECE in zip(XS, _charge(st,
        #: Z[GRID])) if COND]`` where ``XS`` has one element per slot (the cell of
        #: slot ``i`` is ``CELLS[i]``)
        self.by_slot: tuple[str, str, int, str, str] | None = None
        #: for a body that gives a zone that is no grid (``hand[p]``): the source of
        #: its pieces' list, read from the state's zones (do not change the list)
        self.pieces: str | None = None


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
        self._ns: dict[str, Any] = {}
        self._names = 0
        self._consts = 0
        self._prelude: list[str] = []
        #: what is known of the values of generated loop variables: ``"cell"`` (a
        #: cell of a grid), ``"piece"``, or ``"slot"`` (what lies on a cell: a piece
        #: or ``None``); specialises the code reading them
        self._kinds: dict[str, str] = {}
        #: sources known to give a whole number (an ``int``, never a ``bool``):
        #: whole-number literals, counts, attributes every piece has as a whole
        #: number, and arithmetic on those; their operators need no type test
        self._ints: set[str] = set()
        #: loop variables known to be cells of one grid: identifier → the zone's index
        self._cell_zone: dict[str, int] = {}
        #: a cell's local -> the local holding the piece on it (a where over a grid's cells)
        self._cell_piece: dict[str, str] = {}
        #: sources known to give a new ``list`` (comprehensions, list literals):
        #: used as collections as they are, joined with ``+`` directly
        self._lists: set[str] = set()
        #: those of :attr:`_lists` known to hold whole numbers only
        self._int_lists: set[str] = set()
        #: a seat's zone of a per-player family (``hand[p]``) → the source of its
        #: pieces' list, read from the state's zones directly (families of no grid)
        self._zone_pieces: dict[str, str] = {}
        #: where-comprehensions ``[X CLAUSES]`` → ``(X, CLAUSES)``
        self._comprehensions: dict[str, tuple[str, str]] = {}
        #: those over a named grid's cells whose condition reads no cell, only what
        #: lies on it → ``(I, CLAUSES, CELLS)``: the loop by slot ``I`` (the cell is
        #: ``CELLS[I]``)
        self._slot_comprehensions: dict[str, tuple[str, str, int, str, str]] = {}
        #: ``and``/``or`` sources → their operands, to drop the conversions to a
        #: truth value where only truth counts (see :meth:`_truth`)
        self._logic: dict[str, tuple[str, str, str]] = {}
        #: calls computed once into a local (canonical IR text → the local's name)
        self._cse: dict[str, str] = {}
        #: locals read before a comprehension's loop → the flags asked of them
        #: (``"int"``/``"nonzero"`` → the flag's local), see :meth:`_int_flag`
        self._flaggable: dict[str, dict[str, str]] = {}
        #: roots waiting for :meth:`prepare`: (function, node, scope, bind)
        self._pending: list[tuple[Any, dict[str, Any], Scope, str | None]] = []
        self._roots = 0
        #: generated function → its record, for the flow's code to inline
        self.by_function: dict[Callable[["State"], Any], GeneratedExpression] = {}

    # ------------------------------------------------------------------ entry
    def function(self, node: dict[str, Any], scope: Scope, closure: Callable[["State"], Any],
                 bind: str | None = None) -> Callable[["State"], Any]:
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
        made: list[tuple[Callable[["State"], Any], GeneratedExpression]] = []
        for stub, node, scope, bind in pending:
            record = self._generate(stub.__name__, node, scope, bind)
            if record is not None:
                made.append((stub, record))
        if not made:
            return
        functions = self._compile([record for _, record in made])
        for stub, record in made:
            fn = functions.get(record.name)
            if fn is None:   # pragma: no cover - a bug of the generator
                continue
            stub.__globals__.update(record.constants)
            del stub.__globals__["_closure"]
            stub.__code__ = fn.__code__
            self.generated.append(record)
            self.by_function[stub] = record

    def _compile(self, records: list[GeneratedExpression]) -> dict[str, Any]:
        """The functions of ``records``, compiled as one module (one by one, to
        find the culprit, if that fails)."""
        out: dict[str, Any] = {}
        try:
            code = compile("\n\n".join(r.source for r in records),
                           "<rulepack generated expressions>", "exec")
        except SyntaxError:  # pragma: no cover - a bug of the generator
            for r in records:
                try:
                    exec(compile(r.source, f"<rulepack generated {r.name}>", "exec"), out)  # noqa: S102
                except SyntaxError as exc:
                    self.failures.append(f"{r.where}: {exc}")
            return out
        exec(code, out)  # noqa: S102 - our own source, from the ruleset only reprs
        return out

    def of_one(self, name: str, node: dict[str, Any], scope: Scope,
               param: str) -> Callable[["State", Any], Any] | None:
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
        self.generated.append(record)
        fn: Callable[["State", Any], Any] = namespace[name]
        return fn

    def _generate(self, name: str, node: dict[str, Any], scope: Scope,
                  bind: str | None, param: str | None = None) -> GeneratedExpression | None:
        """The generated source of one root, or ``None`` if some part of it is not
        handled (the closure stays). With ``param``: a function of ``(st, X)``
        where that local is the argument ``X``."""
        self._ns = {}
        self._prelude = []
        # a local's kind holds in its own scope only (see _e_name)
        self._kinds = {k: v for k, v in self._kinds.items() if not k.startswith("V[")}
        py = {} if param is None else {param: "X"}
        try:
            if bind is not None and node.get("k") == "where":
                body = self._where(node, scope, py, bind)
            else:
                body = self.expr(node, scope, py)
        except Unsupported:
            return None
        where = scope.location(node)
        args = "st" if param is None else "st, X"
        lines = [f"def {name}({args}):  # {where.file!r} line {where.line} column {where.column}",
                 *table_locals("\n".join([body, *self._prelude]))]
        lines += ["    " + line for part in self._prelude for line in part.split("\n")]
        lines.append(f"    return {body}")
        source = "\n".join(lines) + "\n"
        record = GeneratedExpression(name, source, where, dict(self._ns), body,
                                     tuple(self._prelude))
        record.is_list = body in self._lists
        record.truth = self._truth(body)
        record.comprehension = self._comprehensions.get(body)
        record.by_slot = self._slot_comprehensions.get(body)
        record.pieces = self._zone_pieces.get(body)
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
    def _const(self, value: Any) -> str:
        """Source for a constant: a literal for plain numbers, text and flags, else a
        name bound in the namespace."""
        t = type(value)
        if value is None or t is bool or t is str or t is int or \
                (t is float and math.isfinite(value)):
            return repr(value)
        name = f"K{self._consts}"
        self._consts += 1
        self._ns[name] = value
        if t is list:
            # (values are never changed in place: a constant list is as good as a new one)
            self._lists.add(name)
        return name

    def _local(self, prefix: str = "L") -> str:
        self._names += 1
        return f"{prefix}{self._names}"

    def _iterable(self, src: str, py: dict[str, str]) -> str:
        """``src`` made fit for the iterable of a comprehension, where Python forbids
        ``:=``: such a source becomes a local function of the loop variables in scope."""
        if ":=" not in src:
            return src
        name = self._local("W")
        params = ", ".join(dict.fromkeys(py.values()))
        self._prelude.append(f"def {name}({params}):\n    return {src}")
        call = f"{name}({params})"
        return self._list(call) if src in self._lists else call

    def _once(self, src: str) -> tuple[str, str]:
        """``(name, first)``: ``src`` evaluated once, as ``first`` where it is first
        read (``(T := src)``) and ``name`` after; an identifier as it is."""
        if src.isidentifier():
            return src, src
        t = self._local("T")
        return t, f"({t} := {src})"

    @staticmethod
    def _simple(src: str) -> bool:
        """Whether ``src`` may be evaluated twice at no cost and with no effect."""
        return src.isidentifier() or (src.startswith("V[") and src.endswith("]")
                                      and src.count("[") == 1)

    def _attr(self, src: str, name: str) -> str:
        """Source reading attribute ``name`` of the value ``src``."""
        n = repr(name)
        if name in PSEUDO_ATTRIBUTES and name not in ("owner", "face", "cell"):
            return f"attribute(st, {src}, {n})"
        if self._kinds.get(src) == "piece":
            if name == "owner":
                return f"O[{src}.id]"
            if name == "face":
                return f"('up' if F[{src}.id] else 'down')"
            if name == "cell":
                return f"(st._cells or st.piece_cells())[{src}.id]"
            if name in self._int_attributes:
                return self._int(f"{src}.attrs[{n}]")
            if name in self._common_attributes:
                return f"{src}.attrs[{n}]"
            return f"({src}.attrs[{n}] if {n} in {src}.attrs else attribute(st, {src}, {n}))"
        if self._simple(src):
            x = first = src
        else:
            x = self._local("T")
            first = f"({x} := {src})"
        if self._kinds.get(src) == "slot":
            # what lies on a cell: a piece or none (whose attributes are none)
            read = {"owner": f"O[{x}.id]", "face": f"('up' if F[{x}.id] else 'down')",
                    "cell": f"(st._cells or st.piece_cells())[{x}.id]"}.get(name)
            if read is None and name in self._common_attributes:
                read = f"{x}.attrs[{n}]"
            if read is not None:
                return f"({read} if {first} is not None else None)"
        if name == "owner":
            return f"(O[{x}.id] if type({first}) is Piece else attribute(st, {x}, {n}))"
        if name == "face":
            return (f"(('up' if F[{x}.id] else 'down') if type({first}) is Piece "
                    f"else attribute(st, {x}, {n}))")
        if name == "cell":
            return (f"((st._cells or st.piece_cells())[{x}.id] if type({first}) is Piece "
                    f"else attribute(st, {x}, {n}))")
        if name in self._common_attributes:      # no need to ask if the piece has it
            return f"({x}.attrs[{n}] if type({first}) is Piece else attribute(st, {x}, {n}))"
        return (f"({x}.attrs[{n}] if type({first}) is Piece and {n} in {x}.attrs "
                f"else attribute(st, {x}, {n}))")

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

    def _int(self, src: str) -> str:
        """``src``, noted as giving a whole number."""
        self._ints.add(src)
        return src

    def _as_bool(self, src: str) -> str:
        """``src`` as ``True``/``False`` (its truth form is ``src`` itself)."""
        if src in ("True", "False"):
            return src
        out = f"(not not {src})"
        self._logic[out] = (src, "", "")
        return out

    def _truth(self, src: str) -> str:
        """``src`` where only its truth counts (a condition): ``and``/``or`` keep
        their operands as they are, with no conversion to ``True``/``False``."""
        parts = self._logic.get(src)
        if parts is None:
            return src
        a, op, b = parts
        if not op:
            return self._truth(a)
        return f"({self._truth(a)} {op} {self._truth(b)})"

    def condition(self, node: dict[str, Any], scope: Scope, py: dict[str, str]) -> str:
        """Source of an expression whose truth only counts."""
        return self._truth(self.expr(node, scope, py))

    def _list(self, src: str) -> str:
        """``src``, noted as giving a list."""
        self._lists.add(src)
        return src

    def _items(self, src: str) -> str:
        """Source of the elements of ``src`` as a list (:func:`items`)."""
        if src in self._lists:
            return src
        return self._zone_pieces.get(src) or f"items(st, {src})"

    def _binary(self, a: str, b: str, fast: str, slow: str, nonzero: bool = False) -> str:
        """``a OP b`` inline when both are whole numbers (and ``b`` is not 0 where
        ``nonzero``), else the checking function ``slow`` of :mod:`ops`. With both
        known to be whole numbers (:attr:`_ints`), no test at all. A product is
        always tested: past 2**62 it is left to ``_times``, which refuses one of
        more than ``MAX_INT_BITS`` binary digits."""
        if fast == "*":
            x, y = self._local("T"), self._local("T")
            m = 1 << 62
            out = (f"({x} * {y} if (type({x} := {a}) is int) & (type({y} := {b}) is int) and "
                   f"-{m} < {x} < {m} and -{m} < {y} < {m} else {slow}({x}, {y}))")
            return self._int(out)
        ints = a in self._ints and b in self._ints
        if ints and (not nonzero or (b.isdigit() and b != "0")):
            out = f"({a} {fast} {b})"
            return self._int(out) if fast in ("-", "*", "//", "%") else out
        jb = self._int_flag(b, nonzero)
        if jb is not None and (a in self._ints or a in self._flaggable):
            # a local read before the loop on the right: its test made once, there
            ja = None if a in self._ints else self._int_flag(a, False)
            guard = jb if ja is None else f"{ja} and {jb}"
            out = f"({a} {fast} {b} if {guard} else {slow}({a}, {b}))"
            return self._int(out) if fast in ("-", "*", "//", "%") else out
        x, y = self._local("T"), self._local("T")
        if b in self._ints and (_literal(b) or self._simple(b)) and (not nonzero or _literal(b)):
            # a whole number on the right (a nonzero literal for // and %): only the
            # left needs its test
            out = f"({x} {fast} {b} if type({x} := {a}) is int else {slow}({x}, {b}))"
        elif a in self._ints:
            # a whole number on the left, which cannot fail (literals, counts,
            # attributes every piece has as a number, and arithmetic on them): it
            # may be computed after the right
            guard = f"type({y} := {b}) is int" + (f" and {y} != 0" if nonzero else "")
            out = f"({a} {fast} {y} if {guard} else {slow}({a}, {y}))"
        else:
            guard = f"(type({x} := {a}) is int) & (type({y} := {b}) is int)"
            if nonzero:
                guard += f" and {y} != 0"
            out = f"({x} {fast} {y} if {guard} else {slow}({x}, {y}))"
        return self._int(out) if fast in ("-", "*", "//", "%") else out

    def _name_src(self, name: str, py: dict[str, str]) -> str:
        return py[name] if name in py else f"V[{name!r}]"

    # ------------------------------------------------------------------ expressions
    def expr(self, node: dict[str, Any], scope: Scope, py: dict[str, str]) -> str:
        """Source of one expression node. ``py`` maps the names bound by generated
        loops and defines to their Python identifiers.

        :raises Unsupported: a construct the generator leaves to the closures.
        """
        if self._cse:
            name = self._cse.get(_canonical(node))
            if name is not None:
                return name
        method = getattr(self, f"_e_{node.get('k')}", None)
        if method is None:
            raise Unsupported(node.get("k"))
        src: str = method(node, scope, py)
        return src

    def _e_lit(self, node: dict[str, Any], scope: Scope, py: dict[str, str]) -> str:
        src = self._const(node["value"])
        return self._int(src) if type(node["value"]) is int else src

    def _e_name(self, node: dict[str, Any], scope: Scope, py: dict[str, str]) -> str:
        name = node["name"]
        if name in py:
            return py[name]
        if name in scope.locals:
            src = f"V[{name!r}]"
            kind = scope.kinds.get(name)
            if kind is not None:
                self._kinds[src] = kind
            return src
        if scope.candidate is not None and name in scope.attributes:
            if scope.candidate == "$self":
                raise Unsupported("$self")
            return self._attr(self._name_src(scope.candidate, py), name)
        g = scope.globals.get(name)
        if g is None:
            return self._builtin_name(name)
        if g.kind in ("const", "option", "symbol", "pattern", "zone"):
            return self._const(g.value)
        if g.kind in ("var", "player_var"):
            return f"V[{name!r}]"
        if g.kind == "component":
            return self._const(g.value)
        raise Unsupported(g.kind)

    def _builtin_name(self, name: str) -> str:
        seats = self._const([Player(i) for i in range(self.inst.num_players)])
        if name == "players":
            return seats
        if name == "active":
            return f"[p for p in {seats} if st.active[p]]"
        if name == "others":
            return f"[p for p in {seats} if p != V['current'] and st.active[p]]"
        if name == "current":
            return "V['current']"
        if name == "next":
            # the seat after the current one, read from the instance's table when
            # it is active (Table.next_active otherwise, and for anything else)
            after = self._const(self.inst.next_seat)
            t = self._local("T")
            return (f"({after}[{t}] if type({t} := V['current']) is Player and "
                    f"st.active[{after}[{t}]] else st.next_active({t}))")
        if name == "round":
            return "V['round']"
        if name in ("owner", "nobody", "everyone"):
            return repr(name)
        if name in ("axes", "directions"):
            return f"list({self._const(ops.AXES if name == 'axes' else ops.DIRECTIONS)})"
        raise Unsupported(name)

    def _constant_value(self, node: dict[str, Any], scope: Scope) -> Any:
        """The value of a constant node, computed once by its closure (as the closure
        compiler folds it)."""
        self.compiler._depth += 1
        try:
            return self.compiler.compile(node, scope)(None)  # type: ignore[arg-type]
        finally:
            self.compiler._depth -= 1

    def _e_list(self, node: dict[str, Any], scope: Scope, py: dict[str, str]) -> str:
        if not py and self.compiler.is_constant(node, scope):
            return self._list(f"list({self._const(self._constant_value(node, scope))})")
        return self._list("[" + ", ".join(self.expr(i, scope, py) for i in node["items"]) + "]")

    def _e_tuple(self, node: dict[str, Any], scope: Scope, py: dict[str, str]) -> str:
        parts = [self.expr(i, scope, py) for i in node["items"]]
        return "(" + "".join(p + ", " for p in parts) + ")"

    def _e_map(self, node: dict[str, Any], scope: Scope, py: dict[str, str]) -> str:
        if not py and self.compiler.is_constant(node, scope):
            return self._const(self._constant_value(node, scope))
        pairs = [f"{self.expr(a, scope, py)}: {self.expr(b, scope, py)}"
                 for a, b in node["items"]]
        return "{" + ", ".join(pairs) + "}"

    def _e_range(self, node: dict[str, Any], scope: Scope, py: dict[str, str]) -> str:
        return f"_make_range({self.expr(node['from'], scope, py)}, {self.expr(node['to'], scope, py)})"

    def _e_if(self, node: dict[str, Any], scope: Scope, py: dict[str, str]) -> str:
        c = self.expr(node["cond"], scope, py)
        a = self.expr(node["then"], scope, py)
        b = self.expr(node["else"], scope, py)
        return f"({a} if {c} else {b})"

    def _e_attr(self, node: dict[str, Any], scope: Scope, py: dict[str, str]) -> str:
        of = self.expr(node["of"], scope, py)
        name = node["name"]
        if self._element_kind(node["of"], scope) == "piece" and \
                name in self._common_attributes and name not in PSEUDO_ATTRIBUTES:
            # ZONE.NAME (or PIECES.NAME): each piece's value, read directly (every
            # piece has it); a list of whole numbers where every piece's is one
            x = self._local()
            out = self._list(f"[{x}.attrs[{name!r}] for {x} in {self._iterable(self._items(of), py)}]")
            if name in self._int_attributes:
                self._int_lists.add(out)
            return out
        return self._attr(of, name)

    def _e_index(self, node: dict[str, Any], scope: Scope, py: dict[str, str]) -> str:
        base = node["of"]
        idx = self.expr(node["index"], scope, py)
        if base.get("k") == "name" and base["name"] not in scope.locals and base["name"] not in py:
            g = scope.globals.get(base["name"])
            if g is not None and g.kind == "zone_family":
                zones = g.value["zones"]
                family = self._const(zones)
                name = base["name"]
                if type(zones) is dict and zones and all(
                        self.inst.zone_kinds[z.index] != "grid" for z in zones.values()):
                    # per value (per suit): a key of the family's own kind (text, a
                    # whole number) is looked up inline; anything else, and a value
                    # that has no zone, goes through the check (and its error)
                    t, first = self._once(idx)
                    slow = f"_zone_of_family({family}, {t}, {name!r})"
                    test = f"(type({first}) is str or type({t}) is int) and {t} in {family}"
                    out = f"({family}[{t}] if {test} else {slow})"
                    index = self._const({k: z.index for k, z in zones.items()})
                    self._zone_pieces[out] = f"(Z[{index}[{t}]] if {test} else items(st, {slow}))"
                    return out
                if type(zones) is not list or len(zones) != self.inst.num_players:
                    return f"_zone_of_family({family}, {idx}, {name!r})"
                # per player: a seat (a Player is always one of the instance's seats)
                # indexes the list itself; anything else goes through the check
                t = idx if self._simple(idx) else self._local("T")
                first = idx if t == idx else f"({t} := {idx})"
                slow = f"_zone_of_family({family}, {t}, {name!r})"
                out = f"({family}[{t}] if type({first}) is Player else {slow})"
                kinds = {self.inst.zone_kinds[z.index] for z in zones}
                if "grid" not in kinds:
                    index = self._const([z.index for z in zones])
                    self._zone_pieces[out] = (f"(Z[{index}[{t}]] if type({first}) is Player "
                                              f"else items(st, {slow}))")
                return out
        if idx.isdigit():
            # a list at a literal position (cheaper inline than the call; an index
            # that is not a literal is not: its tests cost what the call saves)
            t, first = self._once(self.expr(base, scope, py))
            return f"({t}[{idx}] if type({first}) is list and len({t}) > {idx} else _index(st, {t}, {idx}))"
        return f"_index(st, {self.expr(base, scope, py)}, {idx})"

    def _e_op(self, node: dict[str, Any], scope: Scope, py: dict[str, str]) -> str:
        op = node["op"]
        if op == "and":
            args = self._and_args(node["args"], scope, py)
        else:
            args = [self.expr(a, scope, py) for a in node["args"]]
        if op == "not":
            return f"(not {args[0]})"
        if op == "neg":
            return f"_neg({args[0]})"
        a, b = args
        if op in ("and", "or"):
            # a side that is a constant (an option such as 'blind'): folded
            absorbing, neutral = ("False", "True") if op == "and" else ("True", "False")
            if a == absorbing:
                return a
            if a == neutral:
                return self._as_bool(b)
            if b == neutral:
                return self._as_bool(a)
            out = f"((not not {a}) {op} (not not {b}))"
            self._logic[out] = (a, op, b)
            return out
        if op in ("==", "!="):
            if a == "None" or b == "None":
                # nothing but none equals none: identity, at the speed of C
                return f"({a} {'is' if op == '==' else 'is not'} {b})"
            face = self._face_test(node["args"], args, op, scope, py)
            return face if face is not None else f"({a} {op} {b})"
        if op in ("in", "not in"):
            test = self._in_constant(node["args"][1], scope, py, a)
            if test is None and b in self._lists:
                test = f"({a} in {b})"          # a new list: contains() would do just that
            if test is None:
                test = f"contains(st, {b}, {a})"
            return test if op == "in" else f"(not {test})"
        if op == "+":
            if a in self._ints and b in self._ints:
                return self._int(f"({a} + {b})")
            x, y = self._local("T"), self._local("T")
            if b in self._lists or a in self._lists:
                # joining lists (ops.plus: a new list, within the size limit)
                out = (f"({x} + {y} if (type({x} := {a}) is list) & (type({y} := {b}) is list) "
                       f"and len({x}) + len({y}) <= {MAX_COLLECTION} else _plus(st, {x}, {y}))")
                return self._list(out) if a in self._lists and b in self._lists else out
            return (f"({x} + {y} if (type({x} := {a}) is int) & (type({y} := {b}) is int) "
                    f"else _plus(st, {x}, {y}))")
        if op in ("-", "*", "<", "<=", ">", ">="):
            return self._binary(a, b, op, _ARITH[op])
        if op in ("//", "%"):
            return self._binary(a, b, op, _ARITH[op], nonzero=True)
        if op in _ARITH:
            return f"{_ARITH[op]}({a}, {b})"
        raise Unsupported(op)

    def _and_args(self, nodes: list[dict[str, Any]], scope: Scope,
                  py: dict[str, str]) -> list[str]:
        """The sources of ``A and B``; where ``A`` is ``X != none`` for a cell's
        content ``X`` (a piece or none), ``B`` reads ``X`` as the piece it then is."""
        a = self.expr(nodes[0], scope, py)
        x = a[1:-len(" is not None)")] if a.endswith(" is not None)") else ""
        if not (a.startswith("(") and x.isidentifier() and self._kinds.get(x) == "slot"):
            return [a, self.expr(nodes[1], scope, py)]
        self._kinds[x] = "piece"
        try:
            return [a, self.expr(nodes[1], scope, py)]
        finally:
            self._kinds[x] = "slot"

    # ------------------------------------------------------------------ collections
    def _in_constant(self, node: dict[str, Any], scope: Scope, py: dict[str, str],
                     a: str) -> str | None:
        """``A in [3, 5, 7]`` as a set lookup when the list is a constant of whole
        numbers (and ``A`` one too; anything else takes :func:`contains`)."""
        if py or node.get("k") != "list" or not self.compiler.is_constant(node, scope):
            return None
        values = self._constant_value(node, scope)
        if not isinstance(values, list) or not all(type(v) is int for v in values):
            return None
        x = self._local("T")
        return (f"({x} in {self._const(frozenset(values))} if type({x} := {a}) is int "
                f"else contains(st, {self._const(values)}, {x}))")

    def _face_test(self, nodes: list[dict[str, Any]], args: list[str], op: str, scope: Scope,
                   py: dict[str, str]) -> str | None:
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
        want = (other["value"] == "up") == (op == "==")
        if side.get("k") == "name":
            assert scope.candidate is not None       # checked above
            of = self._name_src(scope.candidate, py)
        else:
            of = self.expr(side["of"], scope, py)
        if self._kinds.get(of) == "piece":
            return f"(F[{of}.id] is {want})"
        if self._kinds.get(of) == "slot":      # a piece or none (whose face is none)
            x, first = of, of
            if not self._simple(of):
                x = self._local("T")
                first = f"({x} := {of})"
            return f"((F[{x}.id] is {want}) if {first} is not None else {op == '!='})"
        x = self._local("T")
        return (f"((F[{x}.id] is {want}) if type({x} := {of}) is Piece "
                f"else (attribute(st, {x}, 'face') {op} {other['value']!r}))")

    def element_kind(self, node: dict[str, Any], scope: Scope) -> str | None:
        """What the elements of the collection ``node`` certainly are: ``"cell"``,
        ``"piece"``, or ``None`` (unknown)."""
        return self._element_kind(node, scope)

    def _element_kind(self, node: dict[str, Any], scope: Scope) -> str | None:
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

    def _candidate(self, scope: Scope, name: str) -> Scope:
        s = scope.with_locals(name)
        s.candidate = name
        return s

    def _e_where(self, node: dict[str, Any], scope: Scope, py: dict[str, str]) -> str:
        return self._where(node, scope, py, "$it")

    def _where(self, node: dict[str, Any], scope: Scope, py: dict[str, str], name: str) -> str:
        found = lookup.source(self, node, scope, py, name)    # one grid cell by row and col
        if found is not None:
            return found
        x = self._local()
        grid = self._grid_cells(node["of"], scope)
        piece = ""
        if grid is not None:
            # the cells of a named grid: a constant, each cell's zone known, read
            # beside the grid's slots (the cells are by slot), so at(x) is a local
            of = self._const(tuple(self.inst.zones[grid].cell_objects))
            self._cell_zone[x] = grid
            piece = self._local("A")
            self._cell_piece[x] = piece
            self._kinds[piece] = "slot"
        else:
            of = self._iterable(self.expr(node["of"], scope, py), py)
        kind = self._element_kind(node["of"], scope)
        if kind is not None:
            self._kinds[x] = kind
        hoist, py = self._hoisted([node["cond"]], scope, py, (name,))
        cond = self.condition(node["cond"], self._candidate(scope, name), {**py, name: x})
        hoist = self._flags(hoist)
        loop = f"{hoist}for {x} in"       # hoist: "for (H2,) in ((V['roll'],),) "
        zone = self._zone_index(node["of"], scope)
        if zone is not None:
            # a zone named in the ruleset: its list of pieces read directly (a grid's
            # empty cells skipped in the same comprehension)
            index, kind = zone
            if kind == "grid":
                clauses = f"{loop} _charge(st, Z[{index}]) if {x} is not None and {cond}"
            else:
                clauses = f"{loop} _charge(st, Z[{index}]) if {cond}"
        elif grid is not None:
            clauses = f"{hoist}for {x}, {piece} in zip(_charge(st, {of}), Z[{grid}]) if {cond}"
        else:
            return self._list(f"[{x} {loop} _charge(st, {self._items(of)}) if {cond}]")
        out = self._list(f"[{x} {clauses}]")
        self._comprehensions[out] = (x, clauses)     # pieces or cells: values fit for keys
        if grid is not None and not re.search(rf"\b{x}\b", hoist + cond):
            # the same loop beside anything listed by slot (nothing reads the cell itself)
            self._slot_comprehensions[out] = (hoist, piece, grid, cond, of)
        return out

    def _grid_cells(self, node: dict[str, Any], scope: Scope) -> int | None:
        """The index of the grid of ``cells(GRID)``, for a grid the ruleset names."""
        if node.get("k") != "call" or node.get("fn") != "cells" or \
                scope.globals.get("cells") is not None or len(node.get("args", [])) != 1:
            return None
        zone = self._zone_index(node["args"][0], scope)
        return zone[0] if zone is not None and zone[1] == "grid" else None

    @staticmethod
    def _literal_int(node: dict[str, Any]) -> int | None:
        """The whole number a literal node is, else ``None``."""
        value = node.get("value") if node.get("k") == "lit" else None
        return value if type(value) is int else None

    def _named_pattern(self, node: dict[str, Any], scope: Scope, py: dict[str, str]) -> str | None:
        """The compiled pattern a pattern's own name stands for, as a constant."""
        if node.get("k") != "name" or node["name"] in scope.locals or node["name"] in py:
            return None
        g = scope.globals.get(node["name"])
        if g is None or type(g.value) is not PatternRef:
            return None
        return self._const(self.inst.patterns[g.value.index])

    def _zone_index(self, node: dict[str, Any], scope: Scope) -> tuple[int, str] | None:
        """``(index, kind)`` of the zone ``node`` names, if it is a zone's name."""
        if node.get("k") != "name" or node["name"] in scope.locals:
            return None
        g = scope.globals.get(node["name"])
        if g is None or g.kind != "zone" or type(g.value) is not ZoneRef:
            return None
        index: int = g.value.index
        return index, self.inst.zone_kinds[index]

    def _e_sort(self, node: dict[str, Any], scope: Scope, py: dict[str, str]) -> str:
        from rulepack.engine.runtime import sort_key
        attr = node["by"]
        of = self.expr(node["of"], scope, py)
        key = self._const(sort_key(self.inst.orders.get(attr)))
        return f"_sort_by(st, {of}, {attr!r}, {key}, {bool(node.get('descending'))})"

    def _bind(self, bind: str | list[str], py: dict[str, str]) -> tuple[str, dict[str, str]]:
        """The ``for`` clause target for a binding, and the names it adds."""
        if isinstance(bind, str):
            x = self._local()
            return x, {**py, bind: x}
        names = {n: self._local() for n in bind}
        return ", ".join(names.values()), {**py, **names}

    def _e_comp(self, node: dict[str, Any], scope: Scope, py: dict[str, str]) -> str:
        bind = node["bind"]
        names = [bind] if isinstance(bind, str) else list(bind)
        source = self._iterable(self.expr(node["in"], scope, py), py)
        body = [node["expr"]] + ([node["if"]] if node.get("if") else [])
        hoist, py = self._hoisted(body, scope, py, names)
        target, inner_py = self._bind(bind, py)
        if isinstance(bind, str):
            kind = self._element_kind(node["in"], scope)
            if kind is not None:
                self._kinds[target] = kind
        inner = scope.with_locals(*names)
        expr = self.expr(node["expr"], inner, inner_py)
        cond = f" if {self.condition(node['if'], inner, inner_py)}" if node.get("if") else ""
        hoist = self._flags(hoist)
        if isinstance(bind, str):
            loop = f"{hoist}for {target} in _charge(st, {self._items(source)})"
        else:
            t = self._local()
            loop = (f"{hoist}for {t} in _charge(st, {self._items(source)}) for ({target},) in "
                    f"((_unpack({t}, {len(names)}, {', '.join(names)!r}),))")
        return self._list(f"[{expr} {loop}{cond}]")

    def _hoisted(self, body: list[dict[str, Any]], scope: Scope, py: dict[str, str],
                 bound: tuple[str, ...] | list[str]) -> tuple[str, dict[str, str]]:
        """The state variables the body of a comprehension reads, each read once
        before its loop into a local (an expression changes no variable).

        :returns: the ``for`` clause binding them (``""`` if none), placed before
            the comprehension's own loop, and ``py`` with their locals added.
        """
        names: list[str] = []
        for node in body:
            for name in sorted(names_in(node)):
                if name in py or name in bound or name in names or \
                        (name in scope.attributes and name not in scope.locals):
                    continue
                g = scope.globals.get(name)
                if name in scope.locals or (g is not None and g.kind in ("var", "player_var")) \
                        or (g is None and name in ("current", "round")):
                    names.append(name)
        if not names:
            return "", py
        hoisted = {n: self._local("H") for n in names}
        for h in hoisted.values():
            self._flaggable[h] = {}
        reads = ", ".join(f"V[{n!r}]" for n in names)
        return f"for ({', '.join(hoisted.values())},) in (({reads},),) ", {**py, **hoisted}

    def _int_flag(self, src: str, nonzero: bool) -> str | None:
        """For a local read before a comprehension's loop (see :meth:`_hoisted`): a
        local set there too, true when it holds a whole number (not 0 if
        ``nonzero``), so that arithmetic in the loop tests it once, not per
        element. ``None`` for any other source."""
        flags = self._flaggable.get(src)
        if flags is None:
            return None
        key = "nonzero" if nonzero else "int"
        if key not in flags:
            flags[key] = self._local("J")
        return flags[key]

    def _flags(self, hoist: str) -> str:
        """``hoist`` (the ``for`` clause of :meth:`_hoisted`) followed by the
        clauses setting the flags :meth:`_int_flag` handed out for its locals."""
        if not hoist:
            return hoist
        names = hoist[hoist.index("(") + 1:hoist.index(")")].rstrip(",").split(", ")
        return hoist + "".join(f"for {j} in (({test}),) " for h in names
                               for j, test in self._flag_tests(h))

    def _flag_tests(self, local: str) -> list[tuple[str, str]]:
        """The flags handed out for ``local`` (forgotten now), each with its test."""
        return [(j, f"type({local}) is int" + (f" and {local} != 0" if key == "nonzero" else ""))
                for key, j in self._flaggable.pop(local, {}).items()]

    def _e_argmax(self, node: dict[str, Any], scope: Scope, py: dict[str, str]) -> str:
        name = node["bind"]
        source = self.expr(node["in"], scope, py)
        x = self._local()
        inner = scope.with_locals(name)
        inner_py = {**py, name: x}
        shared = _shared_calls(node["if"], node["by"]) if node.get("if") else []
        return self._argmax_function(node, shared, source, x, inner, py, inner_py)

    def _argmax_function(self, node: dict[str, Any], shared: list[dict[str, Any]], source: str,
                       x: str, inner: Scope, py: dict[str, str], inner_py: dict[str, str]) -> str:
        """``argmax ... [if C] by K`` as a local function with ``C`` and ``K`` inline
        (the same values, the same errors, as :func:`ops.argmax` with two
        lambdas); calls that ``C`` always computes and ``K`` makes too (``if
        best(c, hand[p]) != [] by count(best(c, hand[p]))``), computed once per
        element."""
        fn = self._local("R")
        lines = []
        saved = dict(self._cse)
        for call in shared:
            name = self._local("S")
            lines.append(f"        {name} = {self.expr(call, inner, inner_py)}")
            self._cse[_canonical(call)] = name
        try:
            cond = self.condition(node["if"], inner, inner_py) if node.get("if") else None
            key = self.expr(node["by"], inner, inner_py)
        finally:
            self._cse = saved
        test = [] if cond is None else [f"        if not ({cond}):", "            continue"]
        params = ", ".join(["xs"] + list(dict.fromkeys(py.values())))
        self._prelude.append("\n".join([
            f"def {fn}({params}):",
            "    best = []",
            "    best_key = None",
            f"    for {x} in xs:",
            *lines,
            *test,
            f"        k = {key}",
            "        try:",
            "            better = not best or k > best_key",
            "        except TypeError:",
            "            _argmax_failed(k, best_key)",
            "        if better:",
            f"            best, best_key = [{x}], k",
            "        elif k == best_key:",
            f"            best.append({x})",
            "    return best"]))
        args = ", ".join([f"_charge(st, {self._items(source)})"] +
                         list(dict.fromkeys(py.values())))
        return f"{fn}({args})"

    def _e_run(self, node: dict[str, Any], scope: Scope, py: dict[str, str]) -> str:
        through = self.expr(node["through"], scope, py)
        along = self.expr(node["along"], scope, py)
        x = self._local()
        self._kinds[x] = "slot"              # what lies on each cell: a piece or none
        name = "$cell_piece"
        # the variables the condition reads, read once before the walk
        _, inner_py = self._hoisted([node["where"]], scope, py, (name,))
        reads = [f"    {local} = V[{n!r}]" for n, local in inner_py.items() if n not in py]
        cond = self.condition(node["where"], self._candidate(scope, name), {**inner_py, name: x})
        reads += [f"    {j} = {test}" for n, local in inner_py.items() if n not in py
                  for j, test in self._flag_tests(local)]
        # a local function with the condition inline (ops.maximal_run, unrolled)
        fn = self._local("R")
        params = ", ".join(["start", "d"] + list(dict.fromkeys(py.values())))
        self._prelude.append("\n".join([
            f"def {fn}({params}):",
            *reads,
            "    if type(start) is not Cell:",
            "        start = _as_cell(st, start)",
            "    if not (type(d) is tuple and len(d) == 2 and type(d[0]) is int "
            "and type(d[1]) is int):",
            "        d = _direction(d)",
            "    zone = st.zones[start.zone]",
            f"    {x} = zone[start.slot]",
            f"    if not ({cond}):",
            "        return []",
            "    info = st.inst.zones[start.zone]",
            "    backward, forward = info._ends.get(d) or info.ends_tables(d)",
            "    line = []",
            "    c = backward[start.slot]",
            "    while c is not None:",
            f"        {x} = zone[c.slot]",
            f"        if not ({cond}):",
            "            break",
            "        line.append(c)",
            "        c = backward[c.slot]",
            "    line.reverse()",
            "    line.append(start)",
            "    c = forward[start.slot]",
            "    while c is not None:",
            f"        {x} = zone[c.slot]",
            f"        if not ({cond}):",
            "            break",
            "        line.append(c)",
            "        c = forward[c.slot]",
            "    return line"]))
        args = ", ".join([through, along] + list(dict.fromkeys(py.values())))
        return self._list(f"{fn}({args})")   # a new list of cells

    def _e_top(self, node: dict[str, Any], scope: Scope, py: dict[str, str]) -> str:
        n = self.expr(node["count"], scope, py) if node.get("count") else "None"
        zone = self._zone_index(node["of"], scope)
        if zone is not None and zone[1] != "grid":
            of = f"Z[{zone[0]}]"                    # a zone the ruleset names: its list
            listed = True
        else:
            of = self.expr(node["of"], scope, py)
            pieces = self._zone_pieces.get(of)      # a zone's pieces: read directly
            listed = pieces is not None
            of = of if pieces is None else pieces
        if listed:
            # a zone's list: its top (last) or bottom piece, or the slice of top N
            # (the last N, top first) when N is a whole number from 1
            top = node["end"] == "top"
            if n == "None":
                t = self._local("T")
                return f"({t}[{-1 if top else 0}] if ({t} := {of}) else None)"
            if n.isdigit() and int(n) >= 1:
                k = int(n)
                return self._list(f"{of}[:{-k - 1}:-1]" if top else f"{of}[:{k}]")
            # (the zone, then N, both evaluated, as the closures evaluate them)
            t, m = self._local("T"), self._local("T")
            cut = f"{t}[:-{m} - 1:-1]" if top else f"{t}[:{m}]"
            return self._list(f"({cut} if (type({t} := {of}) is list) & (type({m} := {n}) is int)"
                              f" and {m} >= 1 else _top(st, {t}, {m}, {top}))")
        src = f"_top(st, {of}, {n}, {node['end'] == 'top'})"
        return self._list(src) if node.get("count") else src    # top N: a new list

    # ------------------------------------------------------------------ calls
    def _e_call(self, node: dict[str, Any], scope: Scope, py: dict[str, str]) -> str:
        fn = node["fn"]
        g = scope.globals.get(fn)
        if g is not None and g.kind == "define":
            return self._define(fn, g.value, node, scope, py)
        args = [self.expr(a, scope, py) for a in node["args"]]
        if fn in _UNARY:
            if fn == "sum" and args[0] in self._int_lists:
                return self._int(f"sum({args[0]})")
            if fn == "at":
                if args[0] in self._cell_piece:
                    return self._cell_piece[args[0]]
                src = None
                if args[0] in self._cell_zone:
                    src = f"Z[{self._cell_zone[args[0]]}][{args[0]}.slot]"
                elif self._kinds.get(args[0]) == "cell":
                    src = f"Z[{args[0]}.zone][{args[0]}.slot]"
                if src is not None:
                    self._kinds[src] = "slot"
                    return src
                c = first = args[0]
                if not self._simple(c):
                    c = self._local("T")
                    first = f"({c} := {args[0]})"
                return f"(Z[{c}.zone][{c}.slot] if type({first}) is Cell else _at(st, {c}))"
            arg = node["args"][0]
            low = self._literal_int(arg["from"]) if arg.get("k") == "range" else None
            high = self._literal_int(arg["to"]) if arg.get("k") == "range" else None
            if fn == "random" and low is not None and high is not None:
                # random(A..B) of whole numbers: the numbers made once (the draw still
                # checks and records itself)
                if 0 <= high - low < 10_000:
                    return f"_random_element(st, {self._const(list(range(low, high + 1)))})"
            return f"{_UNARY[fn]}(st, {args[0]})"
        if fn in _CALLS:
            if fn == "count" and args[0] in self._lists:
                return self._int(f"len({args[0]})")
            if fn == "count" and args[0] in self._zone_pieces:
                return self._int(f"len({self._zone_pieces[args[0]]})")
            zone = self._zone_index(node["args"][0], scope) if fn == "count" else None
            if zone is not None:
                # a zone the ruleset names: its list's length (a grid's empty cells not counted)
                index, kind = zone
                if kind != "grid":
                    return self._int(f"len(Z[{index}])")
                if len(self.inst.pieces) <= 4 * len(self.inst.zones[index].cells):
                    # the pieces located there: whole numbers compared, cheaper
                    # than asking each cell whether it is empty
                    return self._int(f"st.loc.count({index})")
                return self._int(f"(len(Z[{index}]) - Z[{index}].count(None))")
            if fn in ("any", "all") and args[0] in self._lists:
                return f"{fn}({args[0]})"
            if fn == "count" and (args[0].isidentifier() or args[0].startswith("V[")):
                # a variable's value: most often a list
                t, first = self._once(args[0])
                return self._int(f"(len({t}) if type({first}) is list else count(st, {t}))")
            src = _CALLS[fn].format(*args)
            if fn == "ends":
                return self._list(src)             # always a new list of cells
            return self._int(src) if fn == "count" else src
        if fn in ("best", "partition", "partitionable", "matches"):
            pat = self._named_pattern(node["args"][0], scope, py) or \
                self._pattern_src(args[0])
            if fn == "best":
                return self._list(f"{pat}.best(st, {self._items(args[1])})")
            if fn == "matches":
                return f"{pat}.matches(st, {self._items(args[1])})"
            if fn == "partition":
                return f"{pat}.partition(st, _pieces(st, {args[1]}))"
            optional = args[2] if len(args) == 3 else "None"
            return f"_partitionable(st, {pat}, {args[1]}, {optional})"
        if fn == "usable":
            pat = self._pattern_src(args[0])
            return f"_usable(st, {pat}, {args[1]}, {args[2]})"
        raise Unsupported(fn)

    def _pattern_src(self, ref: str) -> str:
        """The compiled pattern a pattern value names (:func:`ops.pattern`, inline)."""
        pats = self._const(self.inst.patterns)
        t, first = self._once(ref)
        return f"({pats}[{t}.index] if type({first}) is PatternRef else _pattern({pats}, {t}))"

    def _define(self, fn: str, define: dict[str, Any], node: dict[str, Any], scope: Scope,
                py: dict[str, str]) -> str:
        """A call of a ``define``, inline: its body with each parameter read from a
        local that holds the argument (the argument's own local if it is one, else
        one set first, in order: ``((T1 := a), (T2 := b), body)[-1]``)."""
        params = define["params"]
        args = [self.expr(a, scope, py) for a in node["args"]]
        private = [f"${fn}:{p}" for p in params]
        body_ir = rename(define["expr"], dict(zip(params, private)))
        body_scope = Scope(scope.globals, scope.attributes, scope.file, locals=list(private),
                           deterministic=scope.deterministic, static=scope.static)
        idents = []
        sets = []
        for arg in args:
            if arg.isidentifier() and arg not in ("None", "True", "False"):
                idents.append(arg)
            else:
                t = self._local("T")
                sets.append(f"({t} := {arg})")
                idents.append(t)
                if arg in self._ints:
                    self._ints.add(t)
                if arg in self._lists:
                    self._lists.add(t)
            if arg in self._kinds:
                self._kinds[idents[-1]] = self._kinds[arg]
        body = self.expr(body_ir, body_scope, dict(zip(private, idents)))
        if not sets:
            return f"({body})"
        return "(" + ", ".join(sets + [body]) + ")[-1]"


def _canonical(node: Any) -> str:
    """The text of an expression node without its source positions."""
    return json.dumps(strip_positions(node), sort_keys=True)


def _shared_calls(cond: dict[str, Any], key: dict[str, Any]) -> list[dict[str, Any]]:
    """The calls that ``cond`` always computes (not behind ``and``/``or``, an
    ``if``, or inside a collection's element expression) and that ``key`` makes
    too, outermost first; none with a chance event in it."""
    def always(n: Any, out: list[dict[str, Any]]) -> None:
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

    def calls(n: Any) -> set[str]:
        return {_canonical(c) for c in nodes(n) if c.get("k") == "call"}

    in_cond: list[dict[str, Any]] = []
    always(cond, in_cond)
    in_key = calls(key)
    shared: list[dict[str, Any]] = []
    taken: set[str] = set()
    for call in in_cond:
        text = _canonical(call)
        if text in in_key and text not in taken and '"random"' not in text:
            shared.append(call)
            taken |= calls(call)          # not its parts again
    return shared


def _literal(src: str) -> bool:
    """Whether ``src`` is a whole-number literal (``12``, ``-3``)."""
    return src.lstrip("-").isdigit()


def _shorten(text: str, limit: int = 100) -> str:
    return text if len(text) <= limit else text[:limit - 3] + "..."
