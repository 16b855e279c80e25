"""The changes the flow makes to a position: moves, flips, shuffles, claims,
random choices, eliminations and the end of the game.

Each is a method of :class:`Effects`, checked (a value of the wrong kind raises
:class:`~rulepack.engine.runtime.RuleValueError`, which the flow locates) and, for
chance, recorded in the history.
"""

from __future__ import annotations

from bisect import insort
from typing import Any

from rulepack.engine.actions import ChanceEvent, Reveal
from rulepack.engine.drawn import drawn_at
from rulepack.engine.log import Log
from rulepack.engine.rng import Rng
from rulepack.engine.runtime import RuleValueError, show
from rulepack.engine.table import Table
from rulepack.engine.values import Cell, Piece, Player, ZoneRef, piece_id


class Effects(Table):
    """A :class:`~rulepack.engine.table.Table` that the rules' effects change."""

    rng: Rng
    history: Log
    terminal: bool
    explicit_winners: list[int] | None

    def chance_choice(self, options: list[Any]) -> Any:
        """A random element (a chance event, recorded in :attr:`history`)."""
        if not options:
            raise RuleValueError("random() of an empty list")
        value = self.rng.choice(options) if len(options) > 1 else options[0]
        _log_chance(self.history, "random", "choice", value, drawn_at(self))
        return value

    def shuffle(self, zone: ZoneRef) -> None:
        """Shuffle a zone (a chance event). In a grid, the pieces change cells.

        :raises RuleValueError: ``zone`` is not a zone, or is a pile."""
        if type(zone) is not ZoneRef:
            raise RuleValueError(f"only a zone can be shuffled, not {show(zone)}")
        kind = self.inst.zone_kinds[zone.index]
        if kind == "pile":
            raise RuleValueError(f"{zone.label} is a pile, which keeps no order to shuffle "
                                 "(make it a stack or a row)")
        z = self._writable(zone.index)
        if kind == "grid":
            slots = [i for i, p in enumerate(z) if p is not None]
            pieces = [z[i] for i in slots]
            self.rng.shuffle(pieces)
            for i, p in zip(slots, pieces):
                z[i] = p
            self._cells = None
            outcome = pieces
        else:
            self.rng.shuffle(z)
            outcome = z[:]
        _log_chance(self.history, "shuffle", zone.label, outcome, drawn_at(self))

    def move(self, pieces: list[Piece], dest: ZoneRef | Cell, face_up: bool | None,
             bottom: bool = False) -> None:
        """Move pieces, in order, to a zone (or one grid cell); set their face if given."""
        if type(dest) is ZoneRef and self.inst.zone_kinds[dest.index] != "grid":
            if len(pieces) > 8 and self._move_many(pieces, dest, face_up, bottom):
                return
            self._move_to_zone(pieces, dest.index, face_up, bottom)
            return
        kinds = self.inst.zone_kinds
        loc = self.loc
        zones = self.zones
        owned = self._owned
        for piece in pieces:
            if type(piece) is not Piece:
                raise RuleValueError(f"only pieces can be moved, not {show(piece)}")
            z = loc[piece.id]
            src = zones[z] if z in owned else self._writable(z)
            if kinds[z] == "grid":
                self._off_grid(src, piece)
            else:
                _lift(src, piece)
                if kinds[z] == "groups":
                    self.groupings.pop(z, None)
            if type(dest) is Cell:
                target = self._writable(dest.zone)
                if target[dest.slot] is not None:
                    raise RuleValueError(f"cell {dest} is not empty")
                target[dest.slot] = piece
                loc[piece.id] = dest.zone
                self._cells = None
            else:
                d = dest.index
                target = zones[d] if d in owned else self._writable(d)
                try:
                    target[target.index(None)] = piece
                except ValueError:
                    raise RuleValueError(f"{dest.label} is full") from None
                self._cells = None
                loc[piece.id] = d
            if face_up is not None:
                self.face[piece.id] = face_up

    def _move_to_zone(self, pieces: list[Piece], d: int, face_up: bool | None,
                      bottom: bool) -> None:
        """:meth:`move` to zone ``d``, which is not a grid: its list, kind and
        ownership looked up once, not once per piece."""
        kinds = self.inst.zone_kinds
        loc = self.loc
        zones = self.zones
        owned = self._owned
        face = self.face
        target = zones[d] if d in owned else self._writable(d)
        kind = kinds[d]
        for piece in pieces:
            if type(piece) is not Piece:
                raise RuleValueError(f"only pieces can be moved, not {show(piece)}")
            i = piece.id
            z = loc[i]
            src = zones[z] if z in owned else self._writable(z)
            if kinds[z] == "grid":
                self._off_grid(src, piece)
            else:
                if src and src[-1] is piece:     # _lift, inline: the top of a stack
                    src.pop()
                else:
                    _lift(src, piece)
                if kinds[z] == "groups":
                    self.groupings.pop(z, None)
            if kind == "pile":
                insort(target, piece, key=piece_id)
            elif bottom:
                target.insert(0, piece)
            else:
                target.append(piece)
            if kind == "groups":
                self.groupings.pop(d, None)
            loc[i] = d
            if face_up is not None:
                face[i] = face_up

    def _off_grid(self, cells: list[Piece | None], piece: Piece) -> None:
        """Take ``piece`` off the grid whose (writable) list is ``cells``.
        :raises RuleValueError: it is not there."""
        try:
            cells[cells.index(piece)] = None
        except ValueError:
            raise RuleValueError(f"{piece.name} is not where it should be") from None
        self._cells = None

    def move_one(self, piece: Piece, dest: ZoneRef | Cell, face_up: bool | None,
                 bottom: bool = False) -> None:
        """:meth:`move` of one piece (the common case, without lists); the same result."""
        kinds = self.inst.zone_kinds
        z = self.loc[piece.id]
        if type(dest) is not ZoneRef or kinds[z] == "grid" or kinds[dest.index] == "grid":
            self.move([piece], dest, face_up, bottom)
            return
        # (what follows is _move_to_zone's loop for one piece, written out: a call
        # to it with a list of one costs about 2% of a playout's instructions)
        zones = self.zones
        owned = self._owned
        _lift(zones[z] if z in owned else self._writable(z), piece)
        d = dest.index
        target = zones[d] if d in owned else self._writable(d)
        kind = kinds[d]
        if kind == "pile":
            insort(target, piece, key=piece_id)
        elif bottom:
            target.insert(0, piece)
        else:
            target.append(piece)
        if kind == "groups" or kinds[z] == "groups":
            self.groupings.pop(z, None)
            self.groupings.pop(d, None)
        self.loc[piece.id] = d
        if face_up is not None:
            self.face[piece.id] = face_up

    def _move_many(self, pieces: list[Piece], dest: ZoneRef, face_up: bool | None,
                   bottom: bool) -> bool:
        """:meth:`move` of several pieces between zones that are not grids, each source
        filtered once (or emptied, when every piece of it moves) instead of searched
        once per piece. The same result as moving them one by one; ``False`` (nothing
        changed) when that is not sure: a value that is not a piece, a piece twice, a
        piece on a grid or missing."""
        kinds = self.inst.zone_kinds
        loc = self.loc
        zones = self.zones
        by_zone: dict[int, int] = {}          # source zone -> pieces moving out of it
        get = by_zone.get
        for piece in pieces:
            if type(piece) is not Piece:
                return False
            z = loc[piece.id]
            by_zone[z] = get(z, 0) + 1
        ids = {piece.id for piece in pieces}
        if len(ids) != len(pieces):
            return False
        kept: dict[int, list[Piece]] = {}
        for z, n in by_zone.items():
            if kinds[z] == "grid":
                return False
            src = zones[z]
            if n == len(src):
                # n different pieces located in z, which holds n: all of them move
                kept[z] = []
            else:
                rest = [p for p in src if p.id not in ids]
                if len(src) - len(rest) != n:
                    return False
                kept[z] = rest
        owned = self._owned
        for z, rest in kept.items():
            zones[z] = rest
            owned.add(z)
            if kinds[z] == "groups":
                self.groupings.pop(z, None)
        target = self._writable(dest.index)
        kind = kinds[dest.index]
        if kind == "pile":
            target.extend(pieces)
            target.sort(key=piece_id)
        elif bottom:
            target[:0] = pieces[::-1]
        else:
            target.extend(pieces)
        if kind == "groups":
            self.groupings.pop(dest.index, None)
        d = dest.index
        for i in ids:
            loc[i] = d
        if face_up is not None:
            face = self.face
            for i in ids:
                face[i] = face_up
        return True

    def set_groups(self, zone: int, groups: list[list[Piece]]) -> None:
        """Reorder a ``groups`` zone as these groups (a partition of its pieces)."""
        self.zones[zone] = [p for g in groups for p in g]
        self._owned.add(zone)
        self.groupings[zone] = tuple(len(g) for g in groups)

    def flip_one(self, piece: Piece, up: bool | None) -> None:
        """:meth:`flip` of one piece (the common case, without lists)."""
        face = self.face
        i = piece.id
        if up is None:
            up = not face[i]
        elif face[i] is up:
            return
        face[i] = up
        if up:
            z = self.loc[i]
            inst = self.inst
            place = None if inst.zone_kinds[z] == "pile" else self.zones[z].index(piece)
            reveal = _new_entry(Reveal)          # _log_reveal(...), inline
            reveal.zone = inst.zones[z].label
            reveal.pieces = [piece]
            reveal.places = [place]
            history = self.history         # Log.append, inline, as State._apply does it
            if len(history._items) == history._n:      # (flips up are as hot as decisions)
                history._items.append(reveal)
                history._n += 1
            else:
                history.append(reveal)

    def flip(self, pieces: list[Piece], up: bool | None) -> None:
        """Turn pieces face up, face down, or over (``up is None``)."""
        face = self.face
        revealed: list[Piece] = []
        for piece in pieces:
            if type(piece) is not Piece:
                raise RuleValueError(f"only pieces can be flipped, not {show(piece)}")
            i = piece.id
            if up is None:
                face[i] = not face[i]
                if face[i]:
                    revealed.append(piece)
            elif face[i] is not up:
                face[i] = up
                if up:
                    revealed.append(piece)
        if revealed:
            loc = self.loc
            first = loc[revealed[0].id]
            by_zone: dict[int, list[Piece]]
            if all([loc[piece.id] == first for piece in revealed]):
                by_zone = {first: revealed}       # (the common case: all in one zone)
            else:
                by_zone = {}
                for piece in revealed:
                    by_zone.setdefault(loc[piece.id], []).append(piece)
            inst = self.inst
            history = self.history
            for z, group in by_zone.items():
                if inst.zone_kinds[z] == "pile":
                    places: list[Any] = [None] * len(group)
                else:
                    index = self.zones[z].index
                    places = [index(p) for p in group]
                _log_reveal(history, inst.zones[z].label, group, places)

    def eliminate(self, player: Any) -> None:
        if not isinstance(player, int) or not 0 <= player < self.num_players:
            raise RuleValueError(f"cannot eliminate {show(player)}: not a player")
        self.active[player] = False

    def end_game(self, winners: list[Any] | None) -> None:
        self.terminal = True
        if winners is not None:
            self.explicit_winners = [int(w) for w in winners]

    def claim(self, pieces: list[Any], player: Any) -> None:
        """Make ``player`` (a seat, or ``None``) the owner of pieces."""
        if player is not None:
            player = Player(self.seat(player))
        owner = self.owner
        for piece in pieces:
            if type(piece) is not Piece:
                raise RuleValueError(f"only pieces can be claimed, not {show(piece)}")
            owner[piece.id] = player


#: a Reveal (or ChanceEvent) without its __init__ (its fields are set by the caller)
_new_entry = object.__new__


def _log_chance(history: Log, kind: str, detail: str, outcome: Any,
                at: list[int] | None) -> None:
    """``history.append(ChanceEvent(kind, detail, outcome, at))``, the event made
    without a call to its ``__init__``."""
    event = _new_entry(ChanceEvent)
    event.kind = kind
    event.detail = detail
    event.outcome = outcome
    event.at = at
    history.append(event)


def _log_reveal(history: Log, label: str, pieces: list[Piece], places: list[Any]) -> None:
    """``history.append(Reveal(label, pieces, places))``, the reveal made without a
    call to its ``__init__`` (flip_one does the same inline)."""
    reveal = _new_entry(Reveal)
    reveal.zone = label
    reveal.pieces = pieces
    reveal.places = places
    history.append(reveal)


def _lift(src: list[Piece], piece: Piece) -> None:
    """Take ``piece`` out of a zone's list that is not a grid (the top of a stack or
    the last of a row at once). :raises RuleValueError: it is not there."""
    if src and src[-1] is piece:
        src.pop()
        return
    try:
        del src[src.index(piece)]
    except ValueError:
        raise RuleValueError(f"{piece.name} is not where it should be") from None
