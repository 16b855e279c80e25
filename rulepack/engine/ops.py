"""The language's operators and built-in functions, as functions of values.

Both forms of a compiled expression call these: the closures of
:mod:`rulepack.compiler.expressions` and the Python source of
:mod:`rulepack.compiler.codegen`, so an operator means the same in both. Each
takes the values already evaluated (and the state where it reads the game) and
raises :class:`~rulepack.engine.runtime.RuleValueError` for a value of the wrong
kind, with a message in the language's terms.
"""

from __future__ import annotations

from typing import NoReturn, TYPE_CHECKING, Any, Callable, cast

from rulepack.engine.runtime import (MAX_COLLECTION, MAX_INT_BITS, BudgetError, RuleValueError,
                                     attribute, items, piece_cells, show)
from rulepack.engine.effects import chance_choice
from rulepack.engine.queries import cells, step
from rulepack.engine.values import Cell, PatternRef, Piece, Player, ZoneRef
from rulepack.patterns.partition import type_key

if TYPE_CHECKING:  # pragma: no cover
    from rulepack.engine.position import Position
    from rulepack.patterns.match import Pattern

#: The four lines through a grid cell (row step, column step): along a row,
#: along a column, and the two diagonals.
AXES = [(0, 1), (1, 0), (1, 1), (1, -1)]

#: The eight directions from a grid cell.
DIRECTIONS = [(-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1)]


# ---------------------------------------------------------------------- checks

def number(x: Any, what: str) -> Any:
    """``x`` if it is a number. :raises RuleValueError: otherwise (``what`` names the use)."""
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        raise RuleValueError(f"{what} needs a number, not {show(x)}")
    return x


def as_cell(st: "Position", value: Any) -> Cell:
    """A cell, or the cell of a piece lying on a grid. :raises RuleValueError: otherwise."""
    if type(value) is Cell:
        return value
    if type(value) is Piece:
        cell = piece_cells(st)[value.id]
        if cell is not None:
            return cell
        raise RuleValueError(f"{value.name} is not on a grid")
    raise RuleValueError(f"a cell is needed here, not {show(value)}")


def direction(value: Any) -> tuple[int, int]:
    """A (row step, column step) pair. :raises RuleValueError: otherwise."""
    if isinstance(value, (tuple, list)) and len(value) == 2 and all(
            isinstance(v, int) and not isinstance(v, bool) for v in value):
        return (int(value[0]), int(value[1]))
    raise RuleValueError(f"a direction is written (row step, column step), not {show(value)}")


def pieces(st: "Position", value: Any) -> list[Piece]:
    """The elements of ``value``, all pieces. :raises RuleValueError: otherwise."""
    xs = items(st, value)
    for x in xs:
        if type(x) is not Piece:
            raise RuleValueError(f"a pattern applies to pieces, not {show(x)}")
    return xs


def unpack(value: Any, n: int, names: str) -> Any:
    """``value`` checked to destructure into ``n`` names (``names`` for the message)."""
    if not isinstance(value, (tuple, list)) or len(value) != n:
        raise RuleValueError(f"cannot unpack {show(value)} into ({names})")
    return value


# ---------------------------------------------------------------------- operators

def neg(x: Any) -> Any:
    return -number(x, "'-'")


def plus(st: "Position", x: Any, y: Any) -> Any:
    """``x + y``: numbers add; collections (a zone stands for its pieces) join."""
    tx, ty = type(x), type(y)
    if tx is int and ty is int:
        return x + y
    if tx is list or ty is list or tx is ZoneRef or ty is ZoneRef:
        a, b = as_list(st, x), as_list(st, y)
        if len(a) + len(b) > MAX_COLLECTION:
            raise BudgetError(f"a list of {len(a) + len(b):,} elements: more than the "
                              f"limit of {MAX_COLLECTION:,}")
        return a + b
    if isinstance(x, (int, float)) and isinstance(y, (int, float)) and \
            not isinstance(x, bool) and not isinstance(y, bool):
        return x + y
    raise RuleValueError(f"cannot add {show(x)} and {show(y)}")


def as_list(st: "Position", x: Any) -> list[Any]:
    if type(x) is list or type(x) is tuple or type(x) is ZoneRef:
        return list(items(st, x))
    return [x]


def _check_arith(op: str, x: Any, y: Any) -> None:
    if not (type(x) is int or type(x) is Player) or not (type(y) is int or type(y) is Player):
        if isinstance(x, bool) or isinstance(y, bool) or not isinstance(x, (int, float)) \
                or not isinstance(y, (int, float)):
            raise RuleValueError(f"cannot compute {show(x)} {op} {show(y)}")


def minus(x: Any, y: Any) -> Any:
    _check_arith("-", x, y)
    return x - y


def times(x: Any, y: Any) -> Any:
    _check_arith("*", x, y)
    if type(x) is not float and type(y) is not float and \
            int(x).bit_length() + int(y).bit_length() > MAX_INT_BITS:
        raise BudgetError(f"a product of more than {MAX_INT_BITS:,} binary digits: a number "
                          "too large")
    return x * y


def floordiv(x: Any, y: Any) -> Any:
    _check_arith("//", x, y)
    if y == 0:
        raise RuleValueError("division by zero")
    return x // y


def mod(x: Any, y: Any) -> Any:
    _check_arith("%", x, y)
    if y == 0:
        raise RuleValueError("division by zero")
    return x % y


def divide(x: Any, y: Any) -> Any:
    """``x / y``: a whole number when it divides exactly."""
    _check_arith("/", x, y)
    if y == 0:
        raise RuleValueError("division by zero")
    return x // y if x % y == 0 else x / y


def _compare_error(op: str, x: Any, y: Any) -> RuleValueError:
    return RuleValueError(f"cannot compare {show(x)} {op} {show(y)}")


def lt(x: Any, y: Any) -> bool:
    try:
        return bool(x < y)
    except TypeError:
        raise _compare_error("<", x, y) from None


def le(x: Any, y: Any) -> bool:
    try:
        return bool(x <= y)
    except TypeError:
        raise _compare_error("<=", x, y) from None


def gt(x: Any, y: Any) -> bool:
    try:
        return bool(x > y)
    except TypeError:
        raise _compare_error(">", x, y) from None


def ge(x: Any, y: Any) -> bool:
    try:
        return bool(x >= y)
    except TypeError:
        raise _compare_error(">=", x, y) from None


#: Binary operators by the language's symbol (``and``, ``or``, ``==``, ``!=``,
#: ``in`` are written inline by both compilers).
ARITHMETIC: dict[str, Callable[[Any, Any], Any]] = {
    "-": minus, "*": times, "//": floordiv, "%": mod, "/": divide,
    "<": lt, "<=": le, ">": gt, ">=": ge,
}


def make_range(a: Any, b: Any) -> list[int]:
    """``a..b``, both ends included."""
    if not isinstance(a, int) or not isinstance(b, int):
        raise RuleValueError(f"a range needs whole numbers, not {show(a)}..{show(b)}")
    if b - a >= MAX_COLLECTION:
        raise BudgetError(f"a range of {b - a + 1:,} numbers: more than the limit of "
                          f"{MAX_COLLECTION:,}")
    return list(range(a, b + 1))


def index(st: "Position", container: Any, key: Any) -> Any:
    """``container[key]`` for lists, tuples, maps and zones."""
    try:
        if type(container) is dict:
            return container[key]
        if type(container) is ZoneRef:
            return items(st, container)[key]
        return container[key]
    except (KeyError, IndexError, TypeError):
        raise RuleValueError(f"no element [{show(key)}] in {show(container)}") from None


def zone_of_family(family: Any, key: Any, name: str) -> ZoneRef:
    """``name[key]`` of a zone declared per player or per value."""
    try:
        return family[key]  # type: ignore[no-any-return]
    except (KeyError, IndexError, TypeError):
        raise RuleValueError(f"zone {name} has no [{key}]") from None


# ---------------------------------------------------------------------- built-in functions

_INT = {int}


def total(st: "Position", value: Any) -> Any:
    """``sum()``: ``none`` elements are skipped."""
    xs = items(st, value)
    if set(map(type, xs)) <= _INT:        # whole numbers only (the common case): at C speed
        return sum(xs)
    s: int | float = 0
    for x in xs:
        if x is None:
            continue
        if isinstance(x, bool) or not isinstance(x, (int, float)):
            raise RuleValueError(f"sum() of something that is not a number: {show(x)}")
        s += x
    return s


def extreme(pick: Any, xs: list[Any]) -> Any:
    """``max()``/``min()`` of a list; ``none`` when it is empty."""
    if not xs:
        return None
    try:
        return pick(xs)
    except TypeError:
        raise RuleValueError(f"{pick.__name__}() cannot compare the values {show(xs)} "
                             "(mixed numbers and names? compare by an attribute's order with "
                             "'by', or use a numeric attribute)") from None


def distinct(st: "Position", value: Any) -> list[Any]:
    seen: list[Any] = []
    for x in items(st, value):
        if x not in seen:
            seen.append(x)
    return seen


def only(st: "Position", value: Any) -> Any:
    xs = items(st, value)
    return xs[0] if len(xs) == 1 else None


def first(st: "Position", value: Any) -> Any:
    xs = items(st, value)
    return xs[0] if xs else None


def last(st: "Position", value: Any) -> Any:
    xs = items(st, value)
    return xs[-1] if xs else None


def flatten(st: "Position", value: Any) -> list[Any]:
    out: list[Any] = []
    for x in items(st, value):
        if type(x) is list or type(x) is tuple:
            out.extend(x)
        else:
            out.append(x)
    return out


def hashable(x: Any) -> Any:
    if isinstance(x, (list, tuple)):
        return tuple(hashable(v) for v in x)
    if isinstance(x, dict):
        return tuple(sorted((repr(k), hashable(v)) for k, v in x.items()))
    return x


def unique(st: "Position", value: Any) -> list[Any]:
    """One element of each kind: pieces alike for every pattern count as one."""
    seen: set[Any] = set()
    out = []
    for x in items(st, value):
        key = type_key(x) if type(x) is Piece else hashable(x)
        if key not in seen:
            seen.add(key)
            out.append(x)
    return out


def pattern(patterns: list["Pattern"], ref: Any) -> "Pattern":
    """The compiled pattern a pattern value names."""
    if type(ref) is not PatternRef:
        raise RuleValueError(f"{show(ref)} is not a pattern")
    return patterns[ref.index]


def partitionable(st: "Position", pat: "Pattern", group: Any, optional: Any) -> bool:
    """``partitionable(P, X)`` / ``partitionable(P, X, OPTIONAL)``."""
    extra = pieces(st, optional) if optional is not None else []
    return pat.partitionable(st, pieces(st, group), extra)


def usable(st: "Position", pat: "Pattern", group: Any, optional: Any) -> list[Piece]:
    """``usable(P, X, OPTIONAL)``: the pieces of OPTIONAL that can join X in a split."""
    return cast("list[Piece]", pat.usable(st, pieces(st, group), pieces(st, optional)))


def random_element(st: "Position", value: Any) -> Any:
    if type(value) in (int, float):
        raise RuleValueError(f"random() picks an element of a collection, not of the "
                             f"number {show(value)} (a die roll is random(1..6))")
    return chance_choice(st, items(st, value))


def at(st: "Position", c: Any) -> Any:
    """The piece in a cell, or ``none``."""
    if type(c) is not Cell:
        raise RuleValueError(f"at() needs a cell, not {show(c)}")
    return st.zones[c.zone][c.slot]


def cell(st: "Position", zone: Any, row: Any, col: Any) -> Cell | None:
    """``cell(GRID, ROW, COLUMN)``: the cell at that row and column (from 1, as the
    ``row`` and ``col`` of a cell read), or ``none`` off the grid or on a hole."""
    if type(zone) is not ZoneRef or st.program.zones[zone.index].kind != "grid":
        raise RuleValueError(f"{show(zone)} is not a grid")
    for n in (row, col):
        if isinstance(n, bool) or not isinstance(n, int):
            raise RuleValueError(f"a cell's row and column are whole numbers, not {show(n)}")
    info = st.program.zones[zone.index]
    slot = info.slot_of.get((row - 1, col - 1))
    return None if slot is None else info.cell_objects[slot]


def empty(st: "Position", zone: Any) -> list[Cell]:
    zones = st.zones
    return [c for c in cells(st, zone) if zones[c.zone][c.slot] is None]


def neighbours(st: "Position", cell: Any) -> list[Cell]:
    c = as_cell(st, cell)
    return [n for n in (step(st, c, d) for d in DIRECTIONS) if n is not None]


def ends(st: "Position", line: Any, along: Any) -> list[Cell]:
    """The cells just beyond both ends of a line of cells (those on the grid)."""
    cells = line if type(line) is list else items(st, line)
    if not cells:
        return []
    for c in cells:
        if type(c) is not Cell:
            cells = [as_cell(st, c) for c in cells]
            break
    d = along if type(along) is tuple and len(along) == 2 and type(along[0]) is int and \
        type(along[1]) is int else direction(along)
    first = cells[0]
    last = cells[-1]
    zones = st.program.zones
    info = zones[first.zone]
    backward, forward = info.ends_tables(d)
    before = backward[first.slot]
    if last.zone != first.zone:
        forward = zones[last.zone].ends_tables(d)[1]
    after = forward[last.slot]
    if before is None:
        return [] if after is None else [after]
    return [before] if after is None else [before, after]


def maximal_run(st: "Position", through: Any, along: Any, ok: Callable[[Any], Any]) -> list[Cell]:
    """``maximal run through C along D where ...``: the longest unbroken line of cells
    through C whose pieces all pass ``ok(piece)``, from the far end against D to the
    far end along D; empty if C itself fails."""
    start = through if type(through) is Cell else as_cell(st, through)
    if type(along) is tuple and len(along) == 2 and type(along[0]) is int and \
            type(along[1]) is int:
        d: tuple[int, int] = along
    else:
        d = direction(along)
    zone = st.zones[start.zone]
    if not ok(zone[start.slot]):
        return []
    info = st.program.zones[start.zone]
    backward, forward = info.ends_tables(d)
    back: list[Cell] = []
    c = backward[start.slot]
    while c is not None and ok(zone[c.slot]):
        back.append(c)
        c = backward[c.slot]
    back.reverse()
    back.append(start)
    c = forward[start.slot]
    while c is not None and ok(zone[c.slot]):
        back.append(c)
        c = forward[c.slot]
    return back

def top(st: "Position", of: Any, n: Any, from_top: bool) -> Any:
    """``top of Z`` / ``top N of Z`` (``bottom`` when not ``from_top``)."""
    xs = items(st, of)
    if n is None:
        if not xs:
            return None
        return xs[-1] if from_top else xs[0]
    if not isinstance(n, int) or n < 0:
        raise RuleValueError(f"cannot take {show(n)} pieces")
    if n == 0:
        return []
    return xs[:-n - 1:-1] if from_top else xs[:n]     # the last n, top first


def sort_by(st: "Position", value: Any, attr: str, key: Callable[[Any], Any],
            reverse: bool) -> list[Any]:
    xs = items(st, value)
    return sorted(xs, key=lambda x: key(attribute(st, x, attr)), reverse=reverse)


def argmax_failed(k: Any, best_key: Any) -> NoReturn:
    """The error of an ``argmax`` whose keys cannot be compared."""
    raise RuleValueError(f"argmax cannot compare {show(k)} with {show(best_key)}") from None


def argmax(xs: list[Any], key: Callable[[Any], Any],
           cond: Callable[[Any], Any] | None) -> list[Any]:
    """The elements with the greatest key (all of them on a tie), in order."""
    best: list[Any] = []
    best_key: Any = None
    for x in xs:
        if cond is not None and not cond(x):
            continue
        k = key(x)
        try:
            better = not best or k > best_key
        except TypeError:
            argmax_failed(k, best_key)
        if better:
            best, best_key = [x], k
        elif k == best_key:
            best.append(x)
    return best
