"""The changes the flow makes to a position: moves, flips, shuffles, claims,
random choices, eliminations and the end of the game.

Each is a method of :class:`Effects`, checked (a value of the wrong kind raises
:class:`~rulepack.engine.runtime.RuleValueError`, which the flow locates) and, for
chance, recorded in the history.
"""

from __future__ import annotations

from bisect import insort
from typing import Any

from rulepack.engine import moves
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

    #: does something watch every move and flip (:mod:`rulepack.engine.sightings`)?
    #: Then :meth:`note_moved` is called after each move and flip of several pieces
    #: (the compiled functions of :mod:`rulepack.engine.moves` call it; a watcher
    #: overrides :meth:`move_one` and :meth:`flip_one`, which generated code calls
    #: as methods)
    watched: bool = False

    def note_moved(self, pieces: list[Any]) -> None:
        """Called with the pieces after every move and flip while :attr:`watched`."""

    def move(self, pieces: list[Piece], dest: ZoneRef | Cell, face_up: bool | None,
             bottom: bool = False) -> None:
        """Move pieces, in order, to a zone (or one grid cell); set their face if
        given (:func:`rulepack.engine.moves.move`)."""
        moves.move(self, pieces if type(pieces) is list else list(pieces), dest, face_up,
                   bottom)

    def move_one(self, piece: Piece, dest: ZoneRef | Cell, face_up: bool | None,
                 bottom: bool = False) -> None:
        """:meth:`move` of one piece (the common case, without lists); the same result.
        Not compiled (see :mod:`rulepack.engine.moves`)."""
        kinds = self.inst.zone_kinds
        loc = self.loc
        z = loc[piece.id]
        # (moves.move's loop for one piece, written out: not compiled, a move of one
        # piece costs less than a call of compiled code that reads the state's fields)
        if type(dest) is not ZoneRef or kinds[z] == "grid" or kinds[dest.index] == "grid":
            moves.move(self, [piece], dest, face_up, bottom)
            return
        zones = self.zones
        owned = self._owned
        src = zones[z] if z in owned else self._writable(z)
        if src and src[-1] is piece:         # the top of a stack or the end of a row
            src.pop()
        else:
            moves.lift(src, piece)
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
        loc[piece.id] = d
        if face_up is not None:
            self.face[piece.id] = face_up

    def set_groups(self, zone: int, groups: list[list[Piece]]) -> None:
        """Reorder a ``groups`` zone as these groups (a partition of its pieces)."""
        self.zones[zone] = [p for g in groups for p in g]
        self._owned.add(zone)
        self.groupings[zone] = tuple(len(g) for g in groups)

    def flip_one(self, piece: Piece, up: bool | None) -> None:
        """:meth:`flip` of one piece (the common case, without lists); the same result.
        Not compiled (see :mod:`rulepack.engine.moves`)."""
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
            reveal = _new_entry(Reveal)          # moves.log_reveal(...), inline
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
        """Turn pieces face up, face down, or over (``up is None``); those turned face
        up are revealed (:func:`rulepack.engine.moves.flip`)."""
        moves.flip(self, pieces if type(pieces) is list else list(pieces), up)

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


#: a ChanceEvent or Reveal without its __init__ (its fields are set by the caller)
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
