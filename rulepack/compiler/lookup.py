"""``where`` filters that pick one grid cell by its row and column, as lookups.

``board where row == r and col == c`` (also over ``cells(board)`` or
``empty(board)``) asks every cell of the grid whether it is the one at row ``r``
and column ``c``. This module recognises that shape and compiles it into a
direct look-up of the cell on the grid's index (``ZoneInfo.slot_of``), for the
closure compiler (:func:`closure`) and the generated Python (:func:`source`):

- the condition is an ``and`` of conjuncts, in any order and nesting, one of
  them ``row == R`` (or ``R == row``) and one ``col == C`` (or ``C == col``),
  where ``R`` and ``C`` do not read the element being filtered (no bare
  attribute name) and draw no chance (no ``random``);
- the grid is one the ruleset names (``board``) or one of a family of grids
  (``board[p]``), filtered whole (its pieces), by ``cells()`` or ``empty()``;
- the other conjuncts are tested, in their order, on the one element found;
- ``R`` and ``C`` are computed once, before the look-up (the scan computes
  them for each element: the results are the same, only a ``R`` or ``C`` that
  fails is reported even when the grid holds no piece to filter).

The result is the list the scan gives: ``[]`` or the one element.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

from rulepack.compiler.closures import Fn
from rulepack.compiler.code import code
from rulepack.engine.runtime import RuleValueError, show
from rulepack.engine.values import Cell, Piece, ZoneRef
from rulepack.ir import Node, calls_in, names_in

if TYPE_CHECKING:  # pragma: no cover
    from rulepack.compiler.code import Code
    from rulepack.compiler.codegen import SourceGen
    from rulepack.compiler.expressions import ExprCompiler
    from rulepack.compiler.instance import Instance
    from rulepack.compiler.scope import Scope
    from rulepack.engine.position import Position

#: what a filtered grid collection holds: its pieces, all its cells, its empty cells
ELEMENTS = ("pieces", "cells", "empty")

_MISSING = object()


@dataclass(frozen=True)
class CellLookup:
    """A ``where`` compiled as a look-up.

    :param grid: IR of the grid zone (``board`` or ``board[p]``).
    :param elements: one of :data:`ELEMENTS`.
    :param row: IR of the row asked for (counted from 1).
    :param col: IR of the column asked for (counted from 1).
    :param rest: IR of the other conjuncts, in order (``None``: none).
    """

    grid: Node
    elements: str
    row: Node
    col: Node
    rest: Node | None


def grid_collection(of: Node, grids: set[str], families: set[str],
                    shadowed: Callable[[str], bool]) -> tuple[Node, str] | None:
    """``(IR of the grid, elements)`` when ``of`` is a grid the ruleset names
    (``board``, or one of a family: ``board[p]``), ``cells(...)`` or
    ``empty(...)`` of one; else ``None``. ``grids``: the names of grid zones,
    ``families`` of families of grids; ``shadowed(name)``: whether a name means
    something else here."""
    elements = "pieces"
    if of.get("k") == "call" and of.get("fn") in ("cells", "empty") and \
            len(of.get("args") or []) == 1 and not shadowed(of["fn"]):
        elements = "cells" if of["fn"] == "cells" else "empty"
        of = of["args"][0]
    zone, names = (of["of"], families) if of.get("k") == "index" else (of, grids)
    if zone.get("k") != "name" or shadowed(zone["name"]) or zone["name"] not in names:
        return None
    return of, elements


def conjuncts(cond: Node) -> list[Node]:
    """The conditions an ``and`` (nested any way) requires, in order."""
    if cond.get("k") == "op" and cond.get("op") == "and":
        return [c for a in cond["args"] for c in conjuncts(a)]
    return [cond]


def split(cond: Node, independent: Callable[[Node], bool]
          ) -> tuple[Node, Node, list[Node]] | None:
    """``(R, C, others)`` when ``cond`` requires ``row == R`` and ``col == C``
    (either side of ``==``) with ``independent(R)`` and ``independent(C)``; the
    other conjuncts in their order. ``None`` otherwise."""
    found: dict[str, Node] = {}
    others = []
    for c in conjuncts(cond):
        side = _equated(c, independent)
        if side is not None and side[0] not in found:
            found[side[0]] = side[1]
        else:
            others.append(c)
    if len(found) < 2:
        return None
    return found["row"], found["col"], others


def _equated(c: Node, independent: Callable[[Node], bool]
             ) -> tuple[str, Node] | None:
    if c.get("k") != "op" or c.get("op") != "==":
        return None
    a, b = c["args"]
    for x, y in ((a, b), (b, a)):
        if x.get("k") == "name" and x.get("name") in ("row", "col") and independent(y):
            return x["name"], y
    return None


def match(exprs: "ExprCompiler", node: Node, scope: "Scope") -> CellLookup | None:
    """The look-up a ``where`` node compiles to in ``scope`` (the scope around the
    ``where``, without its candidate), or ``None`` if it is not of that shape."""
    inst = exprs.inst
    if "row" in inst.domains or "col" in inst.domains:
        return None          # a component's own 'row' or 'col' attribute: not the cell's
    if "row" in scope.locals or "col" in scope.locals:
        return None
    grids, families = set(), set()
    for name, g in scope.globals.items():
        if g.kind == "zone" and inst.zone_kinds[g.value.index] == "grid":
            grids.add(name)
        elif g.kind == "zone_family" and _family_kind(inst, g.value["zones"]) == "grid":
            families.add(name)

    def shadowed(name: str) -> bool:
        return name in scope.locals or (name in ("cells", "empty")
                                        and scope.globals.get(name) is not None)
    target = grid_collection(node["of"], grids, families, shadowed)
    if target is None:
        return None

    def independent(e: Node) -> bool:
        # reads nothing of the element (no bare attribute name, unless a local of
        # that name; a define's body has no element) and draws no chance
        return "random" not in calls_in(e) and not any(
            name in scope.attributes and name not in scope.locals for name in names_in(e))
    parts = split(node["cond"], independent)
    if parts is None:
        return None
    row, col, others = parts
    rest = None
    for c in others:
        rest = c if rest is None else {"k": "op", "op": "and", "args": [rest, c],
                                       "at": node.get("at")}
    return CellLookup(target[0], target[1], row, col, rest)


def _family_kind(inst: "Instance", zones: dict[object, ZoneRef] | list[ZoneRef]) -> str | None:
    refs = list(zones.values() if isinstance(zones, dict) else zones)
    return inst.zone_kinds[refs[0].index] if refs else None


def find(st: "Position", grid: object, elements: str, row: object, col: object
         ) -> list[Cell | Piece]:
    """The elements of the grid ``grid`` (see :data:`ELEMENTS`) at ``row``,
    ``col`` (from 1) as the scan would find them: ``[]`` or one element. A row or
    column that equals no cell's (``none``, a text, 2.5) finds nothing.

    :raises RuleValueError: ``grid`` is not a grid zone (as ``cells()`` does)."""
    if type(grid) is not ZoneRef or st.program.zones[grid.index].kind != "grid":
        raise RuleValueError(f"{show(grid)} is not a grid")
    if not isinstance(row, (int, float)) or not isinstance(col, (int, float)):
        return []          # (a bool is an int: true == 1, as '==' has it)
    info = st.program.zones[grid.index]
    # (2.0 and true hash and compare as 2 and 1, as '==' has them equal)
    slot = info.slot_of.get((row - 1, col - 1))  # type: ignore[arg-type]
    if slot is None:
        return []
    if elements == "cells":
        return [info.cell_objects[slot]]
    piece = st.zones[grid.index][slot]
    if elements == "empty":
        return [] if piece is not None else [info.cell_objects[slot]]
    return [] if piece is None else [piece]


def closure(exprs: "ExprCompiler", node: Node, scope: "Scope",
            name: str) -> Fn | None:
    """The closure of a ``where`` that is a look-up (``name``: the name bound to
    the element while the other conjuncts are tested), or ``None``."""
    m = match(exprs, node, scope)
    if m is None:
        return None
    grid = exprs.compile(m.grid, scope)
    row, col = exprs.compile(m.row, scope), exprs.compile(m.col, scope)
    elements = m.elements
    if m.rest is None:
        return lambda st: find(st, grid(st), elements, row(st), col(st))
    rest = exprs.compile(m.rest, exprs.candidate_scope(scope, name))

    def lookup(st: "Position") -> list[Cell | Piece]:
        found = find(st, grid(st), elements, row(st), col(st))
        if not found:
            return found
        v = st.vars
        saved = v.get(name, _MISSING)
        v[name] = found[0]
        try:
            return found if rest(st) else []
        finally:
            if saved is _MISSING:
                v.pop(name, None)
            else:
                v[name] = saved
    return lookup


def source(gen: "SourceGen", node: Node, scope: "Scope", py: dict[str, "Code"],
           name: str) -> "Code | None":
    """The generated code of a ``where`` that is a look-up, or ``None``."""
    m = match(gen.compiler, node, scope)
    if m is None:
        return None
    grid = gen.expr(m.grid, scope, py)
    row, col = gen.expr(m.row, scope, py), gen.expr(m.col, scope, py)
    found = code("{}(st, {}, " + repr(m.elements) + ", {}, {})", gen.const(find), grid, row, col,
                 is_list=True)
    if m.rest is None:
        return found
    x = gen.local(kind="piece" if m.elements == "pieces" else "cell")
    cond = gen.condition(m.rest, gen.candidate_scope(scope, name), {**py, name: x})
    return code("[{} for {} in {} if {}]", x, x, gen.iterable(found, py), cond, is_list=True)
