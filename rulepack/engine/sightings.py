"""What players saw while an action ran: every piece visible to them at any moment.

An action's step can move a piece through a place where players see it and on
to one where they do not, before the next decision (the fourth tile of a trick,
played face up and gathered face down with the trick). The state before and
after the step do not show it; :func:`apply_watched` does, by watching each
move and flip of the step. It is for logs and screens, not for playouts: the
state runs as a subclass that checks visibility after every move.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rulepack.engine.state import State
from rulepack.engine.values import Piece

if TYPE_CHECKING:  # pragma: no cover
    from rulepack.engine.actions import Action


class _Watched(State):
    """A state that notes, for each watcher, the pieces it sees after every
    move and flip, with the length of the history then (``_sightings``, set by
    :func:`apply_watched`)."""

    _sightings: dict[int, dict[int, int]]
    watched = True

    def note_moved(self, pieces: Any) -> None:
        moved = [p for p in pieces if type(p) is Piece]
        when = len(self.history)
        for viewer, seen in self._sightings.items():
            for p in moved:
                if p.id not in seen and self.visible(p, viewer):
                    seen[p.id] = when

    def move_one(self, piece: Piece, dest: Any, face_up: bool | None,
                 bottom: bool = False) -> None:
        super().move_one(piece, dest, face_up, bottom)
        self.note_moved([piece])

    def flip_one(self, piece: Piece, up: bool | None) -> None:
        super().flip_one(piece, up)
        self.note_moved([piece])


def apply_watched(state: State, action: "Action",
                  viewers: list[int]) -> dict[int, dict[int, int]]:
    """Apply ``action`` to ``state`` (as :meth:`State.apply`) and return, for each
    seat in ``viewers``, the pieces it could see right after some move or flip of
    the step: piece id → the length of ``state.history`` when it first did (so
    a sighting can be placed among the step's chance events and reveals).

    :raises IllegalActionError: the action is not legal.
    :raises RulesetRuntimeError: the ruleset fails while running.
    """
    sightings: dict[int, dict[int, int]] = {v: {} for v in viewers}
    cls = state.__class__
    state.__class__ = _Watched
    state._sightings = sightings          # type: ignore[attr-defined]
    try:
        state.apply(action)
    finally:
        state.__class__ = cls
        del state._sightings              # type: ignore[attr-defined]
    return sightings
