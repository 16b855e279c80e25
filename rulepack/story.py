"""The story of a game: what happened, as one viewer may know it (the terminal's
event lines, the web table's narration).

Applying an action runs the flow on to the next decision, so one step adds the
action and any chance events (shuffles, random choices) to ``state.history``.
:func:`step` applies an action and returns the new events as text for each
viewer. A piece in an action is named for a viewer when the viewer could see it
just before the action *or* just after it (a tile discarded face up is named;
a tile discarded face down is "a tile" to everyone but its owner) — unless
several pieces the viewer saw went out of sight at once, so that the viewer
cannot tell which one the action meant (see :func:`step`). A viewer of
``None`` is an onlooker who sees everything; :data:`TABLE` (-1) is a spectator
at the table, who sees what every seat sees and is told what is told to all.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

from rulepack.agents.bots import pieces_of
from rulepack.engine.actions import Narration
from rulepack.engine.sightings import apply_watched
from rulepack.engine.dice import roll_text
from rulepack.engine.state import Action, ChanceEvent, Reveal
from rulepack.engine.values import Piece
from rulepack.engine.queries import describe_for, visible, visible_ids
from rulepack.printable import printable

if TYPE_CHECKING:  # pragma: no cover
    from rulepack.engine.state import State

Viewer = int | None
#: the viewer who sees what every seat sees (a face-up piece, a zone seen by
#: everyone) and is told only the narrations told to all: no seat owns it.
TABLE = -1


@dataclass(frozen=True)
class Event:
    """One line of the game's story.

    :param kind: ``"action"``, ``"chance"``, ``"reveal"`` or ``"say"`` (a narration).
    :param player: the seat that acted (``None`` for chance).
    :param text: the text as the viewer may see it, without the player's name.
    """

    kind: str
    player: int | None
    text: str


def _action_pieces(action: Action) -> list[Piece]:
    return [p for v in action.values for p in pieces_of(v)]


def _visible_ids(state: "State", pieces: Sequence[Piece], viewer: Viewer) -> set[int]:
    if viewer is None:
        return {p.id for p in pieces}
    return {p.id for p in pieces if visible(state.position, p, viewer)}


def renderer(state: "State", viewer: Viewer,
             shown: set[int] | None = None) -> Callable[[object], str]:
    """A value renderer naming a piece only if its id is in ``shown`` (or, when
    ``shown`` is ``None``, if the viewer can see it in ``state`` now)."""
    plain = describe_for(state.position, None)

    def render(value: object) -> str:
        if type(value) is Piece:
            if viewer is None:
                return value.name
            seen = value.id in shown if shown is not None else visible(state.position, value, viewer)
            return value.name if seen else f"a {value.look(state.position.face[value.id])}"
        if isinstance(value, (list, tuple)):
            return ", ".join(render(v) for v in value)
        return plain(value)
    return render


def chance_text(state: "State", event: ChanceEvent, viewer: Viewer) -> str:
    """``"shuffle stack"``, ``"random choice: player 2"``."""
    if event.outcome is None or event.kind == "shuffle":   # the order stays secret
        return event.text
    if event.kind == "roll":               # the face, to whoever sees the die
        return roll_text(event, lambda d: viewer is None or visible(state.position, d, viewer),
                         lambda d: d.look(state.position.face[d.id]), renderer(state, viewer))
    return f"{event.text}: {renderer(state, viewer)(event.outcome)}"


def describe_entries(state: "State", entries: Iterable[object], viewer: Viewer) -> list[Event]:
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
        elif isinstance(entry, Narration) and entry.tells(viewer):
            out.append(Event("say", None, entry.render(renderer(state, viewer))))
    return out


def _gained_text(state: "State", new: Sequence[object], start: int, during: dict[int, int],
                 before: set[int], named: list[Piece], viewer: int) -> str:
    """What the actor came to see by the action itself (the tile drawn), as
    ``" → 4 of moons"``: pieces first seen before the step's first chance event
    (after it, a new deal begins), not seen before the step, still seen after it,
    neither named by the action nor revealed to all."""
    first_chance = next((start + i for i, e in enumerate(new) if isinstance(e, ChanceEvent)),
                        None)
    revealed = {p.id for e in new if isinstance(e, Reveal) for p in e.pieces}
    skip = before | revealed | {p.id for p in named}
    gained = [state.program.pieces[pid] for pid, when in sorted(during.items())
              if pid not in skip and (first_chance is None or when <= first_chance)
              and visible(state.position, state.program.pieces[pid], viewer)]
    return " → " + ", ".join(p.name for p in gained) if gained else ""


def step(state: "State", action: Action, viewers: list[Viewer]) -> dict[Viewer, list[Event]]:
    """Apply ``action`` (legal in ``state``) and return the new events per viewer.

    A piece the viewer saw before the action and cannot see after it is named only
    if it is the one piece that went out of the viewer's sight: when two or more did
    (Mismemory: keep one of two face-up tiles secretly, put the other face down),
    the viewer cannot tell which one the action chose (nor, when it does not see
    the piece afterwards, can the actor's log remember it: Mismemory's blind
    variant, ruling Y4). A narration names the pieces the viewer saw before it was
    said or sees after the step.

    :raises RulepackError: the ruleset fails while running.
    """
    pieces = _action_pieces(action)
    before = {v: _visible_ids(state, pieces, v) for v in viewers}
    sight = {v: visible_ids(state.position, v) for v in viewers if v is not None}
    start = len(state.history)
    # the pieces each viewer saw at some moment of the step (played face up, then
    # gathered face down before the next decision: still seen)
    during = apply_watched(state, action, [v for v in viewers if v is not None])
    new = state.history[start:]
    out: dict[Viewer, list[Event]] = {}
    for v in viewers:
        seen = before[v]
        now: set[int] | None = None       # what the viewer sees after the step
        if v is not None:
            now = visible_ids(state.position, v)
            lost = sight[v] - now
            if len(lost) > 1:
                seen = seen - lost
        shown = seen | _visible_ids(state, pieces, v) | \
            (set(during[v]) & {p.id for p in pieces} if v is not None else set())
        events: list[Event] = []
        for at, entry in enumerate(new, start):
            if isinstance(entry, Action):
                text = entry.render(renderer(state, v, shown))
                if v is not None and v == entry.player:
                    text += _gained_text(state, new, start, during[v], sight[v], pieces, v)
                events.append(Event("action", entry.player, text))
            elif isinstance(entry, ChanceEvent):
                events.append(Event("chance", None, chance_text(state, entry, v)))
            elif isinstance(entry, Reveal):
                events.append(Event("reveal", None, entry.text))
            elif isinstance(entry, Narration) and entry.tells(v):
                # its pieces named if the viewer saw them before it was said (a
                # showdown's hands, turned face up, then gathered with the round)
                # or sees them once the step is over
                saw = None
                if v is not None and now is not None:
                    saw = now | {pid for pid, when in during[v].items() if when <= at}
                events.append(Event("say", None, entry.render(renderer(state, v, saw))))
        out[v] = events
    return out


def line(event: Event, seats: list[str], viewer: Viewer = None) -> str:
    """The event as one line of plain text: ``"player 2 (you): draw a tile"``,
    ``"chance: shuffle stack"``, ``"» player 1 scores 3"`` (a narration). Its texts
    are :func:`~rulepack.printable.printable` (no control character acts).

    :param seats: the seats' names, by seat from 0."""
    shown = printable(event.text)
    if event.kind == "chance":
        return f"chance: {shown}"
    if event.kind == "reveal":
        return shown
    if event.kind == "say":
        return f"» {shown}"
    p = event.player
    if p is None:
        who = "nobody"
    else:
        who = printable(seats[p]) if 0 <= p < len(seats) else f"player {p + 1}"
    if viewer is not None and p == viewer:
        who += " (you)"
    return f"{who}: {shown}"


class Teller:
    """A game's story as lines (:func:`line`), for the replay page
    (:class:`rulepack.render.replay_page.Teller`): what ``rulepack play`` prints."""

    def start(self, state: "State", viewers: list[Viewer]) -> dict[Viewer, list[str]]:
        """Each viewer's lines of the setup (the history before the first decision)."""
        seats = seat_names(state)
        return {v: [line(e, seats, v) for e in describe_entries(state, list(state.history), v)]
                for v in viewers}

    def step(self, state: "State", action: Action,
             viewers: list[Viewer]) -> dict[Viewer, list[str]]:
        """Apply ``action`` (see :func:`step`); each viewer's new lines."""
        seats = seat_names(state)
        return {v: [line(e, seats, v) for e in events]
                for v, events in step(state, action, viewers).items()}


def seat_names(state: "State") -> list[str]:
    """The seats' names (``"player 1"``... or the ruleset's)."""
    from rulepack.engine.values import player_name
    return [player_name(p, state.program.seat_names) for p in range(state.program.num_players)]
