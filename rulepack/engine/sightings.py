"""What players saw while an action ran: every piece visible to them at any moment.

An action's step can move a piece through a place where players see it and on
to one where they do not, before the next decision (the fourth tile of a trick,
played face up and gathered face down with the trick). The positions before and
after the step do not show it; :func:`apply_watched` does, by watching each
move and flip of the step (the position's ``watch`` hook, called by the moves
and flips). It is for logs and screens, not for playouts.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulepack.engine.queries import visible
from rulepack.engine.values import Piece

if TYPE_CHECKING:  # pragma: no cover
    from rulepack.engine.actions import Action
    from rulepack.engine.state import State


def apply_watched(state: "State", action: "Action",
                  viewers: list[int]) -> dict[int, dict[int, int]]:
    """Apply ``action`` to ``state`` (as :meth:`State.apply`) and return, for each
    seat in ``viewers``, the pieces it could see right after some move or flip of
    the step: piece id → the length of ``state.history`` when it first did (so
    a sighting can be placed among the step's chance events and reveals).

    :raises IllegalActionError: the action is not legal.
    :raises RulesetRuntimeError: the ruleset fails while running.
    """
    sightings: dict[int, dict[int, int]] = {v: {} for v in viewers}
    position = state.position

    def note(pieces: list[Piece]) -> None:
        moved = [p for p in pieces if type(p) is Piece]
        when = len(position.history)
        for viewer, seen in sightings.items():
            for p in moved:
                if p.id not in seen and visible(position, p, viewer):
                    seen[p.id] = when

    position.watch = note
    try:
        state.apply(action)
    finally:
        position.watch = None
    return sightings
