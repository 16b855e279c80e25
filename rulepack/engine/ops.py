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

from rulepack.engine.stacks import stack_at
from rulepack.engine.runtime import (MAX_COLLECTION, MAX_INT_BITS, BudgetError, RuleValueError,
                                     SortRank, attribute, items, piece_cells, show)
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

def number(x: object, what: str) -> int | float:
    """``x`` if it is a number. :raises RuleValueError: otherwise (``what`` names the use)."""
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        raise RuleValueError(f"{what} needs a number, not {show(x)}")
    return x


def as_cell(st: "Position", value: object) -> Cell:
    """A cell, or the cell of a piece lying on a grid. :raises RuleValueError: otherwise."""
    if type(value) is Cell:
        return value
    if type(value) is Piece:
        cell = piece_cells(st)[value.id]
        if cell is not None:
            return cell
        raise RuleValueError(f"{value.name} is not on a grid")
    raise RuleValueError(f"a cell is needed here, not {show(value)}")


def direction(value: object) -> tuple[int, int]:
    """A (row step, column step) pair. :raises RuleValueError: otherwise."""
    if type(value) is tuple and len(value) == 2:
        dr, dc = value
        if type(dr) is int and type(dc) is int:      # the common case, at C speed
            return value                                # (a pair of ints already)
    if isinstance(value, (tuple, list)) and len(value) == 2 and all(
            isinstance(v, int) and not isinstance(v, bool) for v in value):
        return (int(value[0]), int(value[1]))
    raise RuleValueError(f"a direction is written (row step, column step), not {show(value)}")


def pieces(st: "Position", value: object) -> list[Piece]:
    """The elements of ``value``, all pieces. :raises RuleValueError: otherwise."""
    xs = items(st, value)
    for x in xs:
        if type(x) is not Piece:
            raise RuleValueError(f"a pattern applies to pieces, not {show(x)}")
    return cast("list[Piece]", xs)      # each checked above


def unpack(value: object, n: int, names: str) -> list[object] | tuple[object, ...]:
    """``value`` checked to destructure into ``n`` names (``names`` for the message)."""
    if not isinstance(value, (tuple, list)) or len(value) != n:
        raise RuleValueError(f"cannot unpack {show(value)} into ({names})")
    return value


# ---------------------------------------------------------------------- operators

def neg(x: object) -> int | float:
    return -number(x, "'-'")


def plus(st: "Position", x: object, y: object) -> object:
    """``x + y``: numbers add; collections (a zone stands for its pieces) join."""
    if type(x) is int and type(y) is int:
        return x + y
    tx, ty = type(x), type(y)
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


def as_list(st: "Position", x: object) -> list[object]:
    if type(x) is list or type(x) is tuple or type(x) is ZoneRef:
        return list(items(st, x))
    return [x]


def _numbers(op: str, x: object, y: object) -> tuple[int | float, int | float]:
    """``x`` and ``y`` if both are numbers (seats count as their numbers; truth
    values do not). :raises RuleValueError: otherwise."""
    if (type(x) is int or type(x) is Player) and (type(y) is int or type(y) is Player):
        return x, y
    if isinstance(x, bool) or isinstance(y, bool) or not isinstance(x, (int, float)) \
            or not isinstance(y, (int, float)):
        raise RuleValueError(f"cannot compute {show(x)} {op} {show(y)}")
    return x, y


def minus(x: object, y: object) -> int | float:
    a, b = _numbers("-", x, y)
    return a - b


def times(x: object, y: object) -> int | float:
    a, b = _numbers("*", x, y)
    if type(a) is not float and type(b) is not float and \
            int(a).bit_length() + int(b).bit_length() > MAX_INT_BITS:
        raise BudgetError(f"a product of more than {MAX_INT_BITS:,} binary digits: a number "
                          "too large")
    return a * b


def floordiv(x: object, y: object) -> int | float:
    a, b = _numbers("//", x, y)
    if b == 0:
        raise RuleValueError("division by zero")
    return a // b


def mod(x: object, y: object) -> int | float:
    a, b = _numbers("%", x, y)
    if b == 0:
        raise RuleValueError("division by zero")
    return a % b


def divide(x: object, y: object) -> int | float:
    """``x / y``: a whole number when it divides exactly."""
    a, b = _numbers("/", x, y)
    if b == 0:
        raise RuleValueError("division by zero")
    return a // b if a % b == 0 else a / b


def _compare_error(op: str, x: object, y: object) -> RuleValueError:
    return RuleValueError(f"cannot compare {show(x)} {op} {show(y)}")


def lt(x: Any, y: object) -> bool:
    try:
        return bool(x < y)
    except TypeError:
        raise _compare_error("<", x, y) from None


def le(x: Any, y: object) -> bool:
    try:
        return bool(x <= y)
    except TypeError:
        raise _compare_error("<=", x, y) from None


def gt(x: Any, y: object) -> bool:
    try:
        return bool(x > y)
    except TypeError:
        raise _compare_error(">", x, y) from None


def ge(x: Any, y: object) -> bool:
    try:
        return bool(x >= y)
    except TypeError:
        raise _compare_error(">=", x, y) from None


#: Binary operators by the language's symbol (``and``, ``or``, ``==``, ``!=``,
#: ``in`` are written inline by both compilers).
ARITHMETIC: dict[str, Callable[[object, object], object]] = {
    "-": minus, "*": times, "//": floordiv, "%": mod, "/": divide,
    "<": lt, "<=": le, ">": gt, ">=": ge,
}


def make_range(a: object, b: object) -> list[int]:
    """``a..b``, both ends included."""
    if not isinstance(a, int) or not isinstance(b, int):
        raise RuleValueError(f"a range needs whole numbers, not {show(a)}..{show(b)}")
    if b - a >= MAX_COLLECTION:
        raise BudgetError(f"a range of {b - a + 1:,} numbers: more than the limit of "
                          f"{MAX_COLLECTION:,}")
    return list(range(a, b + 1))


def index(st: "Position", container: object, key: object) -> object:
    """``container[key]`` for lists, tuples, maps and zones (and words)."""
    try:
        if type(container) is dict:
            return container[key]
        if isinstance(key, int):    # a whole number (a bool and a player are ints too)
            if type(container) is ZoneRef:
                return items(st, container)[key]
            if isinstance(container, (list, tuple, str)):
                return container[key]
    except (KeyError, IndexError, TypeError):
        raise RuleValueError(f"no element [{show(key)}] in {show(container)}") from None
    raise RuleValueError(f"no element [{show(key)}] in {show(container)}")


def team_entry(key: object, teams: int, name: str) -> int:
    """``key`` checked to be a team's number (``0 <= key < teams``, as ``team(p)``
    gives it) for ``name[key]`` of a ``per team`` variable.

    :raises RuleValueError: a player (whose seat number is no team), or anything
        else that is no team's number."""
    if type(key) is int and 0 <= key < teams:
        return key
    if type(key) is Player:
        raise RuleValueError(f"{name}[{show(key)}]: a player is not a team; write "
                             f"{name}[team(p)] for the entry of the team of a player p")
    raise RuleValueError(f"{name}[{show(key)}]: not a team (the teams are numbered 0 to "
                         f"{teams - 1}; team(p) gives a player's)")


def team_of(seats: tuple[int, ...], player: object) -> int:
    """``team(player)``: the team of a seat, given each seat's team.
    :raises RuleValueError: ``player`` is no seat."""
    if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < len(seats):
        raise RuleValueError(f"team() needs a player, not {show(player)}")
    return seats[player]


def team_value(values: object, key: object, teams: int, name: str) -> object:
    """``name[key]`` of a ``per team`` variable whose value is ``values`` (a list
    with one entry per team). :raises RuleValueError: ``key`` is no team's number."""
    i = team_entry(key, teams, name)
    return cast("list[object]", values)[i]


def zone_of_family(family: dict[object, ZoneRef] | list[ZoneRef], key: object,
                   name: str) -> ZoneRef:
    """``name[key]`` of a zone declared per player (a list by seat) or per value (a
    map)."""
    try:
        if type(family) is dict:
            return family[key]
        if isinstance(key, int) and type(family) is list:
            return family[key]
    except (KeyError, IndexError, TypeError):
        raise RuleValueError(f"zone {name} has no [{key}]") from None
    raise RuleValueError(f"zone {name} has no [{key}]")


# ---------------------------------------------------------------------- built-in functions

_INT = {int}


def total(st: "Position", value: object) -> int | float:
    """``sum()``: ``none`` elements are skipped."""
    xs = items(st, value)
    if set(map(type, xs)) <= _INT:        # whole numbers only (the common case): at C speed
        return sum(cast("list[int]", xs))
    s: int | float = 0
    for x in xs:
        if x is None:
            continue
        if isinstance(x, bool) or not isinstance(x, (int, float)):
            raise RuleValueError(f"sum() of something that is not a number: {show(x)}")
        s += x
    return s


def extreme(pick: Callable[[list[Any]], object], xs: list[object]) -> object:
    """``max()``/``min()`` (``pick``: the builtin, which compares the elements as
    they are, raising TypeError where they cannot be) of a list; ``none`` when it
    is empty."""
    if not xs:
        return None
    try:
        return pick(xs)
    except TypeError:
        raise RuleValueError(f"{pick.__name__}() cannot compare the values {show(xs)} "
                             "(mixed numbers and names? compare by an attribute's order with "
                             "'by', or use a numeric attribute)") from None


def distinct(st: "Position", value: object) -> list[object]:
    seen: list[object] = []
    for x in items(st, value):
        if x not in seen:
            seen.append(x)
    return seen


def only(st: "Position", value: object) -> object:
    xs = items(st, value)
    return xs[0] if len(xs) == 1 else None


def first(st: "Position", value: object) -> object:
    xs = items(st, value)
    return xs[0] if xs else None


def last(st: "Position", value: object) -> object:
    xs = items(st, value)
    return xs[-1] if xs else None


def flatten(st: "Position", value: object) -> list[object]:
    out: list[object] = []
    for x in items(st, value):
        if type(x) is list or type(x) is tuple:
            out.extend(x)
        else:
            out.append(x)
    return out


def hashable(x: object) -> object:
    if isinstance(x, (list, tuple)):
        return tuple(hashable(v) for v in x)
    if isinstance(x, dict):
        return tuple(sorted((repr(k), hashable(v)) for k, v in x.items()))
    return x


def unique(st: "Position", value: object) -> list[object]:
    """One element of each kind: pieces alike for every pattern count as one."""
    seen: set[object] = set()
    out = []
    for x in items(st, value):
        key = type_key(x) if type(x) is Piece else hashable(x)
        if key not in seen:
            seen.add(key)
            out.append(x)
    return out


def pattern(patterns: list["Pattern"], ref: object) -> "Pattern":
    """The compiled pattern a pattern value names."""
    if type(ref) is not PatternRef:
        raise RuleValueError(f"{show(ref)} is not a pattern")
    return patterns[ref.index]


def partitionable(st: "Position", pat: "Pattern", group: object, optional: object) -> bool:
    """``partitionable(P, X)`` / ``partitionable(P, X, OPTIONAL)``."""
    extra = pieces(st, optional) if optional is not None else []
    return pat.partitionable(st, pieces(st, group), extra)


def usable(st: "Position", pat: "Pattern", group: object, optional: object) -> list[Piece]:
    """``usable(P, X, OPTIONAL)``: the pieces of OPTIONAL that can join X in a split."""
    return cast("list[Piece]", pat.usable(st, pieces(st, group), pieces(st, optional)))


def random_element(st: "Position", value: object) -> object:
    if type(value) in (int, float):
        raise RuleValueError(f"random() picks an element of a collection, not of the "
                             f"number {show(value)} (a die roll is random(1..6))")
    return chance_choice(st, items(st, value))


def at(st: "Position", c: object) -> Piece | None:
    """The piece in a cell, or ``none``."""
    if type(c) is not Cell:
        raise RuleValueError(f"at() needs a cell, not {show(c)}")
    piece: Piece | None = st.zones[c.zone][c.slot]
    return piece


def cell(st: "Position", zone: object, row: object, col: object) -> Cell | None:
    """``cell(GRID, ROW, COLUMN)``: the cell at that row and column (from 1, as the
    ``row`` and ``col`` of a cell read), or ``none`` off the grid or on a hole."""
    if type(zone) is not ZoneRef or st.program.zones[zone.index].kind != "grid":
        raise RuleValueError(f"{show(zone)} is not a grid")
    if isinstance(row, bool) or not isinstance(row, int):
        raise RuleValueError(f"a cell's row and column are whole numbers, not {show(row)}")
    if isinstance(col, bool) or not isinstance(col, int):
        raise RuleValueError(f"a cell's row and column are whole numbers, not {show(col)}")
    info = st.program.zones[zone.index]
    slot = info.slot_of.get((row - 1, col - 1))
    return None if slot is None else info.cell_objects[slot]


def empty(st: "Position", zone: object) -> list[Cell]:
    zones = st.zones
    return [c for c in cells(st, zone) if zones[c.zone][c.slot] is None]


def neighbours(st: "Position", cell: object) -> list[Cell]:
    c = as_cell(st, cell)
    return [n for n in (step(st, c, d) for d in DIRECTIONS) if n is not None]


def ends(st: "Position", line: object, along: object) -> list[Cell]:
    """The cells just beyond both ends of a line of cells (those on the grid)."""
    cells: list[object] = line if type(line) is list else items(st, line)
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
    if type(first) is not Cell or type(last) is not Cell:   # never: all are cells now
        raise RuleValueError(f"a line of cells is needed here, not {show(line)}")
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


def maximal_run(st: "Position", through: object, along: object,
                ok: Callable[[Piece | None], object]) -> list[Cell]:
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

def top(st: "Position", of: object, n: object, from_top: bool) -> object:
    """``top of Z`` / ``top N of Z`` (``bottom`` when not ``from_top``); of a cell,
    its stack's (:func:`rulepack.engine.stacks.stack_at`)."""
    xs = stack_at(st, of) if type(of) is Cell else items(st, of)
    if n is None:
        if not xs:
            return None
        return xs[-1] if from_top else xs[0]
    if not isinstance(n, int) or n < 0:
        raise RuleValueError(f"cannot take {show(n)} pieces")
    if n == 0:
        return []
    return xs[:-n - 1:-1] if from_top else xs[:n]     # the last n, top first


def sort_by(st: "Position", value: object, attr: str, key: Callable[[object], SortRank],
            reverse: bool) -> list[object]:
    xs = items(st, value)
    return sorted(xs, key=lambda x: key(attribute(st, x, attr)), reverse=reverse)


def argmax_failed(k: object, best_key: object) -> NoReturn:
    """The error of an ``argmax`` whose keys cannot be compared."""
    raise RuleValueError(f"argmax cannot compare {show(k)} with {show(best_key)}") from None


def argmax(xs: list[object], key: Callable[[object], object],
           cond: Callable[[object], object] | None) -> list[object]:
    """The elements with the greatest key (all of them on a tie), in order."""
    best: list[object] = []
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
