"""What a position holds and how to read it: zones, faces, owners, seats, cells.

:class:`Table` is the data of a position and its read-only queries (the pieces of
a cell, a piece's cell, the next active seat, what a player can see). The
:class:`~rulepack.engine.effects.Effects` that change it and the
:class:`~rulepack.engine.state.State` that runs the flow build on it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rulepack.engine.runtime import RuleValueError, show
from rulepack.engine.values import Cell, Piece, Player, ZoneRef, describe

if TYPE_CHECKING:  # pragma: no cover
    from rulepack.compiler.instance import Instance


class Table:
    """The pieces, faces, owners, seats and variables of a position.

    ``zones[z]`` lists the pieces of zone ``z`` (a grid: one slot per cell, ``None``
    when empty); ``loc``, ``face`` (``True``: face up) and ``owner`` are indexed by
    piece id; ``active`` by seat; ``vars`` maps variable names to values;
    ``rolled`` the faces dice show (see :mod:`rulepack.engine.dice`).
    """

    inst: "Instance"
    zones: list[list[Any]]
    loc: list[int]
    face: list[bool]
    owner: list[Any]
    active: list[bool]
    vars: dict[str, Any]
    groupings: dict[int, tuple[int, ...]]
    knowledge: tuple[int, frozenset[int]] | None
    #: the zones whose lists this position alone holds; the others it shares with
    #: clones and copies before it first changes them (copy on write)
    _owned: set[int]

    #: die id → the face its last roll shows (a die never rolled shows its first
    #: face); replaced, never changed in place, so clones share it
    rolled: dict[int, Any] = {}

    #: piece id → the cell it lies in (``None`` for pieces off the grids); built when
    #: first needed (:meth:`piece_cells`), dropped (``None``) whenever a grid changes.
    #: Shared by clones, never changed in place.
    _cells: list[Cell | None] | None = None

    @property
    def num_players(self) -> int:
        return self.inst.num_players

    def _writable(self, z: int) -> list[Any]:
        """Zone ``z``'s list, made this position's own first if a clone shares it."""
        if z in self._owned:
            return self.zones[z]
        zone: list[Any] = self.zones[z][:]
        self.zones[z] = zone
        self._owned.add(z)
        return zone

    def next_active(self, player: Any) -> Player | None:
        """The next active seat clockwise after ``player`` (itself if it is the only one)."""
        if type(player) is Player:
            nxt: Player = self.inst.next_seat[player]
            if self.active[nxt]:
                return nxt
        elif player is None:
            return None
        else:
            player = self.seat(player)
        n = self.inst.num_players
        active = self.active
        seats: tuple[Player, ...] = self.inst.seats
        for k in range(1, n + 1):
            q: int = (player + k) % n
            if active[q]:
                return seats[q]
        return None

    def seat(self, player: Any) -> int:
        """``player`` checked to be a seat number. :raises RuleValueError: otherwise."""
        if isinstance(player, bool) or not isinstance(player, int) or \
                not 0 <= player < self.num_players:
            raise RuleValueError(f"{show(player)} is not a player")
        return int(player)

    def seats_from(self, player: Any) -> list[Player]:
        """Active seats clockwise, starting with ``player``."""
        if type(player) is not Player:          # (a Player is always a seat)
            player = self.seat(player)
        order = self.inst.seat_orders[player]
        active = self.active
        if False not in active:
            return list(order)
        return [q for q in order if active[q]]

    def cells(self, zone: Any) -> list[Cell]:
        """All cells of a grid zone, row-major."""
        if type(zone) is not ZoneRef or self.inst.zones[zone.index].kind != "grid":
            raise RuleValueError(f"{show(zone)} is not a grid")
        return list(self.inst.zones[zone.index].cell_objects)

    def step(self, cell: Cell, direction: tuple[int, int]) -> Cell | None:
        """The cell next to ``cell`` in ``direction`` (row step, column step), or
        ``None`` off the grid or on a hole."""
        info = self.inst.zones[cell.zone]
        table = info._neighbours.get(direction)
        if table is None:
            table = info.neighbours(direction)
        return table[cell.slot]

    def piece_at(self, cell: Cell) -> Piece | None:
        """The piece in ``cell``, or ``None``."""
        piece: Piece | None = self.zones[cell.zone][cell.slot]
        return piece

    def cell_of(self, piece: Piece) -> Cell | None:
        """The cell ``piece`` lies in, or ``None`` when it is not on a grid."""
        return self.piece_cells()[piece.id]

    def piece_cells(self) -> list[Cell | None]:
        """Piece id → the cell it lies in (``None`` off the grids), made now if the
        grids changed since it was last made. Do not change the list."""
        cells = self._cells
        if cells is None:
            cells = [None] * len(self.inst.pieces)
            for info in self.inst.zones:
                if info.kind == "grid":
                    objects = info.cell_objects
                    for i, p in enumerate(self.zones[info.index]):
                        if p is not None:
                            cells[p.id] = objects[i]
            self._cells = cells
        return cells

    def groups(self, zone: int) -> list[list[Piece]] | None:
        """The groups of a ``groups`` zone, or ``None`` while it is not arranged."""
        sizes = self.groupings.get(zone)
        if sizes is None:
            return None
        out, i = [], 0
        pieces = self.zones[zone]
        for n in sizes:
            out.append(pieces[i:i + n])
            i += n
        return out

    def visible(self, piece: Piece, player: int) -> bool:
        """Whether ``player`` may see the identity of ``piece`` now."""
        if self.face[piece.id] and (piece.sides is None or piece.sides[0] is None):
            return True      # face up, and the side up shows the whole piece
        info = self.inst.zones[self.loc[piece.id]]
        seen = info.seen_by
        return seen == "everyone" or (seen == "owner" and info.owner == player)

    def knows(self, player: Any, piece: Any) -> bool:
        """Whether ``player`` knows which piece ``piece`` is: it can see it, or (in a
        state built by :func:`~rulepack.agents.determinize.determinize` for
        that player) it was placed from what the player saw or remembers."""
        p = self.seat(player)
        if type(piece) is not Piece:
            raise RuleValueError(f"knows() needs a piece, not {show(piece)}")
        if self.visible(piece, p):
            return True
        k = self.knowledge
        return k is not None and k[0] == p and piece.id in k[1]

    def describe_for(self, player: int | None) -> Any:
        """A value renderer that hides pieces ``player`` cannot see (``None``: show all)."""
        seats = self.inst.seat_names

        def render(value: Any) -> str:
            if type(value) is Piece and player is not None and not self.visible(value, player):
                return f"a {value.look(self.face[value.id])}"
            if isinstance(value, (list, tuple)):
                return ", ".join(render(v) for v in value)
            return describe(value, seats)
        return render
