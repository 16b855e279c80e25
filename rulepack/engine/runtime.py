"""Helpers shared by compiled expressions and statements at run time.

They work on the state's zones and pieces without knowing any game: turning a
value into a list of pieces, reading pseudo-attributes (``face``, ``owner``,
``zone``), comparing by a declared order.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Sized, TypeVar

from rulepack.engine.values import Cell, Piece, ZoneRef
from rulepack.patterns.budget import EVAL_STEPS as EVAL_STEPS  # (re-exported)

if TYPE_CHECKING:  # pragma: no cover
    from rulepack.engine.position import Position


#: a collection a loop is about to visit (:func:`charge` hands it back as it is)
SizedT = TypeVar("SizedT", bound=Sized)


class RuleValueError(Exception):
    """A value of the wrong kind met an operation (turned into a located error)."""


# ---------------------------------------------------------------------- budgets
# Every evaluation is bounded by counts, never by time: the same file meets the same
# limit at the same place on every machine. The numbers are in docs/language.md
# (limits); no bundled game comes within a hundredth of them.

# EVAL_STEPS (imported from rulepack.patterns.budget, which the pattern searches
# spend too): elements that the loops of expressions (``where``, comprehensions,
# ``argmax``) may visit between two decisions (or while one decision's actions are
# listed), the steps of the pattern searches included.

#: Elements a list may have (a range, a join of lists).
MAX_COLLECTION = 1_000_000

#: Binary digits a whole number may have (a product past it is refused).
MAX_INT_BITS = 10_000


class BudgetError(RuleValueError):
    """An evaluation went over one of the budgets above (located like any rule error)."""


def charge(st: "Position", seq: SizedT) -> SizedT:
    """``seq`` (a list a loop is about to visit), its length taken from the budget of
    ``st.steps_left``. :raises BudgetError: the budget is spent."""
    left = st.steps_left - len(seq)
    st.steps_left = left
    if left < 0:
        raise BudgetError(f"the expressions went over their budget of {EVAL_STEPS:,} "
                          "elements visited by loops (where, comprehensions, argmax) "
                          "between two decisions: a loop over too large a collection, "
                          "or loops nested too deeply (the pattern searches spend the "
                          "same budget)")
    return seq


def recharge(st: "Position", n: int) -> None:
    """Take ``n`` elements from the budget again (what making a list that is made
    once and used again cost the first time). :raises BudgetError: it is spent."""
    charge(st, range(n))


def failure_text(exc: BaseException) -> str:
    """What went wrong when a Python operation failed on a ruleset's values, in the
    language's terms (never Python's own message, which names its classes):
    ``a player (player 1) cannot be used here``, ``division by zero``."""
    if isinstance(exc, ZeroDivisionError):
        return "division by zero"
    if isinstance(exc, OverflowError):
        return "a number too large"
    obj = getattr(exc, "obj", None) if isinstance(exc, AttributeError) else None
    if obj is not None:
        return f"{kind_of(obj)} ({shorten_text(show(obj))}) cannot be used here"
    if isinstance(exc, (IndexError, KeyError)):
        return "no such element"
    if isinstance(exc, TypeError) and "unhashable" in str(exc):
        return "a list or a map cannot be a key of a map or an item of a set"
    return "a value of the wrong kind reached it"


def kind_of(value: object) -> str:
    """``a player``, ``a piece``, ``a number``... for messages."""
    from rulepack.engine.values import PatternRef, Player
    for cls, name in ((Player, "a player"), (Piece, "a piece"), (Cell, "a cell"),
                      (ZoneRef, "a zone"), (PatternRef, "a pattern"), (bool, "true or false"),
                      (int, "a number"), (float, "a number"), (str, "a word"), (list, "a list"),
                      (tuple, "a tuple"), (dict, "a map")):
        if isinstance(value, cls):
            return name
    return "a value"


def shorten_text(text: str, limit: int = 80) -> str:
    return text if len(text) <= limit else text[:limit - 1] + "…"


def show(value: object) -> str:
    """A value as a message shows it, in the language's terms (``player 2``,
    ``red 4``, ``[1, 2]``, ``none``), never a Python repr."""
    from rulepack.engine.values import PatternRef, Player
    if type(value) is str:
        return repr(value)
    if type(value) is Player:
        return f"player {int(value) + 1}"
    if type(value) is Piece:
        return value.name
    if type(value) is ZoneRef:
        return value.label
    if type(value) is Cell:
        return str(value)
    if type(value) is PatternRef:
        return f"pattern {value.name}"
    if value is None:
        return "none"
    if type(value) is bool:
        return "true" if value else "false"
    if type(value) is list:
        return "[" + ", ".join(show(v) for v in value) + "]"
    if type(value) is tuple:
        return "(" + ", ".join(show(v) for v in value) + ")"
    if type(value) is dict:
        return "{" + ", ".join(f"{show(k)}: {show(v)}" for k, v in value.items()) + "}"
    return str(value)


def items(st: "Position", value: object) -> list[object]:
    """The elements a value stands for when used as a collection.

    A zone gives its pieces (grids: occupied cells only, row-major), a list or
    tuple itself, ``none`` nothing, and any other single value a list of one.
    The result must not be mutated by the caller.
    """
    if type(value) is list:
        return value
    if type(value) is ZoneRef:
        zone = st.zones[value.index]
        if st.program.zone_kinds[value.index] == "grid":
            return [p for p in zone if p is not None]
        return zone
    if type(value) is tuple:
        return list(value)
    if value is None:
        return []
    if type(value) is dict:
        return list(value)
    return [value]


def count(st: "Position", value: object) -> int:
    """Number of elements of :func:`items`; fast for zones."""
    if type(value) is ZoneRef:
        zone = st.zones[value.index]
        if st.program.zone_kinds[value.index] == "grid":
            return len(zone) - zone.count(None)
        return len(zone)
    if type(value) is list or type(value) is tuple or type(value) is dict:
        return len(value)
    if value is None:
        return 0
    return 1


PSEUDO_ATTRIBUTES = ("face", "owner", "zone", "name", "kind", "cell", "row", "col", "angle")


def attribute(st: "Position", value: object, name: str) -> object:
    """``value.name``: a piece's attribute or pseudo-attribute, a cell's row or
    column; over a list or zone, the list of each element's attribute."""
    if type(value) is Piece:
        a = value.attrs
        if name in a:
            return a[name]
        return _pseudo(st, value, name)
    if type(value) is list or type(value) is ZoneRef or type(value) is tuple:
        seq = items(st, value)
        try:     # pieces that all have it (the common case): read at C speed
            tried: list[Any] = seq    # as pieces (no cast: a hot path); else the loop below
            return [v.attrs[name] for v in tried]
        except (KeyError, AttributeError):
            return [attribute(st, v, name) for v in seq]
    if type(value) is Cell:
        if name == "row":
            return value.row + 1
        if name == "col":
            return value.col + 1
        raise RuleValueError(f"a cell has no attribute {show(name)} (it has row and col)")
    if value is None:
        return None
    raise RuleValueError(f"{show(value)} has no attribute {show(name)}")


def _pseudo(st: "Position", piece: Piece, name: str) -> object:
    if name == "face":
        return "up" if st.face[piece.id] else "down"
    if name == "owner":
        return st.owner[piece.id]
    if name == "zone":
        return st.program.zone_refs[st.loc[piece.id]]
    if name == "name":
        return piece.name
    if name == "kind":
        return piece.kind
    if name == "angle":
        return st.angles.get(piece.id, 0)
    if name == "cell":
        return piece_cells(st)[piece.id]
    if name in ("row", "col"):
        cell = piece_cells(st)[piece.id]
        return None if cell is None else attribute(st, cell, name)
    rolls = piece.rolls
    if rolls is not None and name == rolls[0]:
        # a die's face: the last roll's, else its first face (rulepack.engine.dice)
        return st.rolled.get(piece.id, rolls[1][0])
    raise RuleValueError(f"{piece.name} has no attribute {show(name)}")


def piece_cells(st: "Position") -> list[Cell | None]:
    """Piece id → the cell it lies in (``None`` off the grids), made now if the
    grids changed since it was last made (``st.cells``). Do not change the list."""
    cells = st.cells
    if cells is None:
        cells = [None] * len(st.program.pieces)
        for info in st.program.zones:
            if info.kind == "grid":
                objects = info.cell_objects
                zone = st.zones[info.index]
                for cell, p in zip(objects, zone):      # (the slots: a stacked grid's
                    if p is not None:                   # pieces beneath follow them)
                        cells[p.id] = cell
                hs = st.heights.get(info.index)
                if hs is not None:      # a stacked grid: the pieces beneath the tops
                    i = len(objects)
                    for slot, h in enumerate(hs):
                        for p in zone[i:i + h]:
                            cells[p.id] = objects[slot]
                        i += h
        st.cells = cells
    return cells


def contains(st: "Position", container: object, element: object) -> bool:
    """``element in container`` for lists, tuples, maps and zones."""
    if type(container) is ZoneRef:
        if type(element) is Piece:
            index: int = container.index
            return st.loc[element.id] == index
        return False
    if type(container) is Cell:
        return st.zones[container.zone][container.slot] is element
    if container is None:
        return False
    if type(container) is list or type(container) is tuple or type(container) is dict \
            or type(container) is str:
        try:
            return element in container
        except TypeError:
            raise RuleValueError(f"cannot look for {show(element)} in {show(container)}") from None
    raise RuleValueError(f"'in' needs a list, a zone or a map on its right, not {show(container)}")


#: what :func:`sort_key` orders by: a value's place in a declared order, or
#: (rank of its kind, number, text)
SortRank = tuple[int, int, str] | int


def sort_key(order: dict[object, int] | None) -> Callable[[object], SortRank]:
    """A key function for values of an attribute with a declared order (its
    values' names → their places)."""
    if order is None:
        return _natural_key
    big = len(order)
    return lambda v: order.get(v, big)


def _natural_key(v: object) -> SortRank:
    if isinstance(v, bool) or v is None:
        return (0, int(bool(v)), "")
    if isinstance(v, int):
        return (1, v, "")
    return (2, 0, str(v))
