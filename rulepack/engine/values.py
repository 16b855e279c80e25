"""Runtime values of the rules language.

Values are ``None``, ``bool``, ``int``, ``str`` (symbols and strings alike),
``list`` and ``tuple`` of values, ``dict`` (maps), and the small immutable
classes below: :class:`Piece`, :class:`Player`, :class:`ZoneRef`,
:class:`Cell` and :class:`PatternRef`. Lists held in state are never mutated in
place (copy on write), so a state clone may share them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from operator import attrgetter
from typing import Any, Callable, Optional, final


class Player(int):
    """A seat number (0-based) that prints as the seat's name.

    Every ``Player`` a state holds is one of its instance's seats
    (``0 <= p < num_players``): generated code indexes per-player lists with one
    unchecked.
    """

    __slots__ = ()
    names: tuple[str, ...] = ()

    def __repr__(self) -> str:
        return f"Player({int(self)})"


def player_name(p: int, seat_names: tuple[str, ...] | list[str] | None = None) -> str:
    """``"player 1"`` for seat 0, or the ruleset's seat name (``"red"``)."""
    if seat_names and 0 <= p < len(seat_names):
        return str(seat_names[p])
    return f"player {int(p) + 1}"


#: a die's faces: the attribute a roll sets, the faces in order (the first is
#: shown until the first roll), and a whole-number weight per face (``None``: alike)
Rolls = tuple[str, tuple[object, ...], Optional[tuple[int, ...]]]


@final
class Piece:
    """One physical component: a tile, coin, cube...

    :param id: index in the game instance's piece list (0-based, stable).
    :param kind: the component name (``"tile"``).
    :param attrs: attribute name → value (``{"colour": "red", "number": 4}``).
    :param name: readable text (``"red 4"``).
    :param back: the kind whose back it shows face down (default: its own).
    :param sides: for a two-sided piece, the attributes it shows face up (``None``:
        all, its identity) and face down (``None``: none); ``None`` for an
        ordinary piece.
    :param rolls: for a die, its :data:`Rolls` (the face it shows is not in
        ``attrs``: it is the state's, see :mod:`rulepack.engine.dice`).
    """

    __slots__ = ("id", "kind", "attrs", "name", "back", "sides", "rolls")

    def __init__(self, id: int, kind: str, attrs: dict[str, Any], name: str,
                 back: str | None = None,
                 sides: tuple[tuple[str, ...] | None, tuple[str, ...] | None] | None = None,
                 rolls: Rolls | None = None) -> None:
        self.id = id
        self.kind = kind
        self.attrs = attrs
        self.name = name
        #: what the piece looks like face down: its own kind unless the component
        #: says it has another kind's back (a joker with a tile's back)
        self.back = back or kind
        self.sides = sides
        self.rolls = rolls

    def shown(self, up: bool) -> tuple[str, ...]:
        """The attributes a player who cannot identify the piece sees on the side
        that is up (``up``): none for an ordinary piece."""
        sides = self.sides
        if sides is None:
            return ()
        return sides[0 if up else 1] or ()

    def look(self, up: bool) -> str:
        """What the piece looks like to a player who cannot identify it: its back's
        kind (``"tile"``), and for a two-sided piece what its side up shows
        (``"coin showing 3"``)."""
        shown = self.shown(up)
        if not shown:
            return self.back
        return f"{self.back} showing " + " ".join(describe(self.attrs[a]) for a in shown)

    def __repr__(self) -> str:
        return f"Piece({self.id}, {self.name!r})"

    def __str__(self) -> str:
        return self.name

    # No comparison methods: a Python-level ``__lt__`` (or ``__eq__``) would route
    # every ``==``, ``in`` and ``list.index`` on pieces through a slow method
    # lookup. Pieces compare by identity; piles keep them in ``id`` order with
    # an explicit key (:func:`piece_id`).


#: The sort key of pieces in a pile: their ``id`` (``piece_id(p) == p.id``; C speed).
piece_id: Callable[[Piece], int] = attrgetter("id")


@final
class ZoneRef:
    """A reference to one zone of a game instance (``hand[2]``, ``stack``)."""

    __slots__ = ("index", "name", "label")

    def __init__(self, index: int, name: str, label: str) -> None:
        self.index = index
        self.name = name
        self.label = label

    def __repr__(self) -> str:
        return f"ZoneRef({self.label!r})"

    def __str__(self) -> str:
        return self.label


@final
class Cell:
    """A cell of a grid zone: row and column, 0-based from the top left; prints as
    its ``label``.

    By default columns are letters from ``a`` and rows numbers from 1, so a 5×5 grid
    runs from ``a1`` (top left) to ``e5`` (:func:`cell_label`); a grid that declares
    ``notation ppn`` names its cells as PPN does (:func:`ppn_label`: ``a1`` bottom
    left). One object per cell of an instance: get cells from the instance
    (``ZoneInfo.cell_objects``), never build them.
    """

    __slots__ = ("zone", "row", "col", "slot", "label")

    def __init__(self, zone: int, row: int, col: int, slot: int,
                 label: str | None = None) -> None:
        self.zone = zone
        self.row = row
        self.col = col
        self.slot = slot
        self.label = cell_label(row, col) if label is None else label

    def __repr__(self) -> str:
        return f"Cell({self.zone}, {self.row}, {self.col})"

    def __str__(self) -> str:
        return self.label

    # Cells are made once per grid of an instance (``ZoneInfo.cell_objects``) and
    # shared: they compare by identity, at the speed of C (no Python ``__eq__``).


def cell_label(row: int, col: int) -> str:
    """``(0, 0)`` → ``"a1"``; columns past ``z`` continue ``aa``, ``ab``..."""
    return f"{column_letters(col)}{row + 1}"


def column_letters(col: int) -> str:
    """A column's letters, 0-based: ``0`` → ``a``, ``25`` → ``z``, ``26`` → ``aa``
    (bijective base 26, as PPN's algebraic coordinates)."""
    letters = ""
    c = col
    while True:
        letters = chr(ord("a") + c % 26) + letters
        c = c // 26 - 1
        if c < 0:
            break
    return letters


def ppn_label(x: int, y: int) -> str:
    """A point of PPN's coordinates (``x`` the column, ``y`` the row, from 1 at the
    bottom left) as PPN writes it: algebraic (``(1, 1)`` → ``"a1"``, ``(27, 12)`` →
    ``"aa12"``) where both are at least 1, else Cartesian (``(0, 5)`` → ``"(0,5)"``)."""
    if x >= 1 and y >= 1:
        return f"{column_letters(x - 1)}{y}"
    return f"({x},{y})"


@dataclass(frozen=True, slots=True)
class GridCell:
    """A cell as :meth:`Action.bindings` gives it, counted as the rules language
    counts: ``row`` and ``col`` from 1 (a cell's ``c.row``, ``c.col``; ``cell(board,
    2, 3)`` is ``c2``: row 2, column 3), ``zone`` the grid's label (``"board"``);
    prints as ``c2``, as in action texts."""

    zone: str
    row: int
    col: int
    #: its name as its grid names cells (``None``: rulepack's own, from row and col)
    label: str | None = field(default=None, compare=False)

    def __str__(self) -> str:
        return cell_label(self.row - 1, self.col - 1) if self.label is None else self.label


@final
class PatternRef:
    """A named pattern used as a value (``best(category, hand[p])``)."""

    __slots__ = ("name", "index")

    def __init__(self, name: str, index: int) -> None:
        self.name = name
        self.index = index

    def __repr__(self) -> str:
        return f"PatternRef({self.name!r})"

    def __str__(self) -> str:
        return self.name

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PatternRef) and other.name == self.name

    def __hash__(self) -> int:
        return hash(("pattern", self.name))


def describe(value: object, seat_names: tuple[str, ...] | None = None) -> str:
    """Readable text for any runtime value, as used in action texts."""
    if isinstance(value, Player):
        return player_name(value, seat_names)
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (list, tuple)):
        return ", ".join(describe(v, seat_names) for v in value)
    return str(value)
