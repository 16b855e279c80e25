"""Event lines: what happened, as one viewer may know it.

Applying an action runs the flow on to the next decision, so one step adds the
action and any chance events (shuffles, random choices) to ``state.history``.
:func:`step` applies an action and returns the new events as text for each
viewer. A piece in an action is named for a viewer when the viewer could see it
just before the action *or* just after it (a tile discarded face up is named;
a tile discarded face down is "a tile" to everyone but its owner) — unless
several pieces the viewer saw went out of sight at once, so that the viewer
cannot tell which one the action meant (see :func:`step`). A viewer of
``None`` is a spectator who sees everything.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable

from rulepack.agents.bots import pieces_of
from rulepack.engine.state import Action, ChanceEvent, Reveal
from rulepack.engine.values import Piece

if TYPE_CHECKING:  # pragma: no cover
    from rulepack.engine.state import State

Viewer = int | None


@dataclass(frozen=True)
class Event:
    """One line of the game's story.

    :param kind: ``"action"``, ``"chance"`` or ``"reveal"``.
    :param player: the seat that acted (``None`` for chance).
    :param text: the text as the viewer may see it, without the player's name.
    """

    kind: str
    player: int | None
    text: str


def _action_pieces(action: Action) -> list[Piece]:
    return [p for v in action.values for p in pieces_of(v)]


def _visible_ids(state: "State", pieces: list[Piece], viewer: Viewer) -> set[int]:
    if viewer is None:
        return {p.id for p in pieces}
    return {p.id for p in pieces if state.visible(p, viewer)}


def renderer(state: "State", viewer: Viewer, shown: set[int] | None = None) -> Callable[[Any], str]:
    """A value renderer naming a piece only if its id is in ``shown`` (or, when
    ``shown`` is ``None``, if the viewer can see it in ``state`` now)."""
    plain = state.describe_for(None)

    def render(value: Any) -> str:
        if type(value) is Piece:
            if viewer is None:
                return value.name
            seen = value.id in shown if shown is not None else state.visible(value, viewer)
            return value.name if seen else f"a {value.back}"
        if isinstance(value, (list, tuple)):
            return ", ".join(render(v) for v in value)
        return plain(value)
    return render


def chance_text(state: "State", event: ChanceEvent, viewer: Viewer) -> str:
    """``"shuffle stack"``, ``"random choice: player 2"``."""
    if event.outcome is None:
        return event.text
    return f"{event.text}: {renderer(state, viewer)(event.outcome)}"


def describe_entries(state: "State", entries: list[Any], viewer: Viewer) -> list[Event]:
    """Events for history entries, rendered against the current state (used for
    the chance events of the setup, before any decision)."""
    out: list[Event] = []
    for entry in entries:
        if isinstance(entry, ChanceEvent):
            out.append(Event("chance", None, chance_text(state, entry, viewer)))
        elif isinstance(entry, Action):
            out.append(Event("action", entry.player, entry.render(renderer(state, viewer))))
        elif isinstance(entry, Reveal):
            out.append(Event("reveal", None, entry.text))
    return out


def step(state: "State", action: Action, viewers: list[Viewer]) -> dict[Viewer, list[Event]]:
    """Apply ``action`` (legal in ``state``) and return the new events per viewer.

    A piece the viewer saw before the action and cannot see after it is named only
    if it is the one piece that went out of the viewer's sight: when two or more did
    (Mismemory: keep one of two face-up tiles secretly, put the other face down),
    the viewer cannot tell which one the action chose.

    :raises RulepackError: the ruleset fails while running.
    """
    pieces = _action_pieces(action)
    before = {v: _visible_ids(state, pieces, v) for v in viewers}
    every = state.inst.pieces
    sight = {v: _visible_ids(state, every, v) for v in viewers if v is not None}
    start = len(state.history)
    state.apply(action)
    new = state.history[start:]
    out: dict[Viewer, list[Event]] = {}
    for v in viewers:
        seen = before[v]
        if v is not None:
            lost = sight[v] - _visible_ids(state, every, v)
            if len(lost) > 1:
                seen = seen - lost
        shown = seen | _visible_ids(state, pieces, v)
        events: list[Event] = []
        for entry in new:
            if isinstance(entry, Action):
                text = entry.render(renderer(state, v, shown))
                events.append(Event("action", entry.player, text))
            elif isinstance(entry, ChanceEvent):
                events.append(Event("chance", None, chance_text(state, entry, v)))
            elif isinstance(entry, Reveal):
                events.append(Event("reveal", None, entry.text))
        out[v] = events
    return out
