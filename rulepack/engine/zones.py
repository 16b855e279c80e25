"""The zones of a compiled game: what each one is, and a grid's cells.

:class:`ZoneInfo` describes one zone of a :class:`~rulepack.engine.program.Program`:
its kind, label, owner, who sees it and, for a grid, its cells. The compiler
makes them (:mod:`rulepack.compiler.instance`); every game of the program shares
them and none changes them. A grid keeps the tables of its cells' neighbours by
direction, made the first time a direction is asked for (a cache this object
owns: the answers never change).
"""

from __future__ import annotations

from rulepack.engine.values import Cell, cell_label, column_letters, ppn_label

#: the kinds of zone: ``stack`` (ordered, top is last), ``row`` (ordered), ``pile``
#: (kept in piece order), ``grid`` (cells, some of them holes), ``groups``
ZONE_KINDS = ("stack", "row", "pile", "grid", "groups")

#: who sees the faces of face-down pieces in a zone
VISIBILITIES = ("owner", "nobody", "everyone")

#: for a direction (row step, column step): the neighbour of each slot, ``None``
#: off the grid or on a hole
Neighbours = list["Cell | None"]


class ZoneInfo:
    """One zone of a program.

    :param index: its index among the program's zones (the ``box`` is 0).
    :param name: the name the ruleset gives it (``hand``).
    :param label: its name with its key for a zone of a family (``hand[player 1]``).
    :param kind: one of :data:`ZONE_KINDS`.
    :param key: for a zone of a family, its key (a seat, an attribute's value).
    :param owner: the seat owning a per-player zone, else ``None``.
    :param seen_by: who sees face-down pieces here (one of :data:`VISIBILITIES`).
    :param rows: for a grid, its rows (0 otherwise).
    :param cols: for a grid, its columns.
    :param cells: for a grid, the (row, col) of each slot, 0-based, row-major
        (the holes left out).
    :param notation: for a grid that names its cells as PPN does (``notation ppn``),
        the PPN coordinates ``(x, y)`` of its bottom-left cell; ``None``: rulepack's
        own names (``a1`` top left).
    :param stacked: for a grid declared ``stacked``: each cell holds a stack of
        pieces (:mod:`rulepack.engine.stacks`), not at most one.
    """

    __slots__ = ("index", "name", "label", "kind", "key", "owner", "seen_by", "rows", "cols",
                 "cells", "slot_of", "cell_objects", "notation", "stacked", "_neighbours", "_ends")

    def __init__(self, index: int, name: str, label: str, kind: str, key: object = None,
                 owner: int | None = None, seen_by: str = "nobody", rows: int = 0,
                 cols: int = 0, cells: list[tuple[int, int]] | None = None,
                 notation: tuple[int, int] | None = None, stacked: bool = False) -> None:
        self.index = index
        self.name = name
        self.label = label
        self.kind = kind
        self.key = key
        self.owner = owner
        self.seen_by = seen_by
        self.rows = rows
        self.cols = cols
        self.cells: list[tuple[int, int]] = list(cells or [])
        #: (row, col) → slot
        self.slot_of: dict[tuple[int, int], int] = {rc: i for i, rc in enumerate(self.cells)}
        self.notation = notation
        self.stacked = stacked
        #: the cells as values, by slot (made once: every game shares them)
        self.cell_objects: tuple[Cell, ...] = tuple(
            Cell(index, r, c, i, self.name_of(r, c)) for i, (r, c) in enumerate(self.cells))
        self._neighbours: dict[tuple[int, int], Neighbours] = {}
        self._ends: dict[tuple[int, int], tuple[Neighbours, Neighbours]] = {}

    def __repr__(self) -> str:
        return f"<ZoneInfo {self.index} {self.label} {self.kind}>"

    def point(self, row: int, col: int) -> tuple[int, int] | None:
        """The PPN coordinates ``(x, y)`` of a cell (0-based row from the top and
        column) of a grid that declares ``notation ppn``, else ``None``."""
        if self.notation is None:
            return None
        x0, y0 = self.notation
        return x0 + col, y0 + self.rows - 1 - row

    def name_of(self, row: int, col: int) -> str:
        """A cell's name: in PPN's notation where the grid declares it (``a1`` at
        the bottom left, :func:`~rulepack.engine.values.ppn_label`), else
        rulepack's own (``a1`` at the top left)."""
        point = self.point(row, col)
        return cell_label(row, col) if point is None else ppn_label(*point)

    def row_names(self) -> list[str]:
        """Each row's name, top to bottom, as the cells' names write it."""
        point = [self.point(r, 0) for r in range(self.rows)]
        return [str(r + 1) if p is None else str(p[1]) for r, p in enumerate(point)]

    def column_names(self) -> list[str]:
        """Each column's name, left to right (letters; a number where PPN writes a
        column of no letter, ``x`` below 1)."""
        out = []
        for c in range(self.cols):
            p = self.point(0, c)
            out.append(column_letters(c) if p is None else
                       column_letters(p[0] - 1) if p[0] >= 1 else str(p[0]))
        return out

    def neighbours(self, direction: tuple[int, int]) -> Neighbours:
        """For each slot, the cell one step away in ``direction`` (row step, column
        step), or ``None`` off the grid or on a hole (do not change the list)."""
        table = self._neighbours.get(direction)
        if table is None:
            dr, dc = direction
            table = []
            for r, c in self.cells:
                to = self.slot_of.get((r + dr, c + dc))
                table.append(None if to is None else self.cell_objects[to])
            self._neighbours[direction] = table
        return table

    def ends_tables(self, direction: tuple[int, int]) -> tuple[Neighbours, Neighbours]:
        """The neighbour tables against ``direction`` and along it (for ``ends``
        and maximal runs)."""
        tables = self._ends.get(direction)
        if tables is None:
            back = (-direction[0], -direction[1])
            tables = self._ends[direction] = (self.neighbours(back), self.neighbours(direction))
        return tables

    def neighbour(self, slot: int, direction: tuple[int, int]) -> Cell | None:
        """The cell one step from ``slot`` in ``direction``, or ``None``."""
        return self.neighbours(direction)[slot]
