"""Position ⇄ JSON: everything about a position, hidden information included.

:func:`position_to_json` gives plain data; :func:`position_from_json` (used by
``Game.state_from_json``) rebuilds an equal position, so tests, puzzles and bug
reports can set up any position. Values are encoded with tags:
``{"piece": id}``, ``{"player": n}``, ``{"zone": index}``,
``{"cell": [zone, slot]}``, ``{"pattern": name}``, ``{"tuple": [...]}``,
``{"map": [[k, v], ...]}``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from rulepack.engine.actions import Action, ChanceEvent, Event, Narration, Reveal
from rulepack.engine.log import Log
from rulepack.engine.position import Position
from rulepack.engine.rng import Rng
from rulepack.engine.templates import parts
from rulepack.engine.values import Cell, PatternRef, Piece, Player, ZoneRef
from rulepack.errors import Location, RulesetRuntimeError

if TYPE_CHECKING:  # pragma: no cover
    from rulepack.engine.program import Program

FORMAT = "rulepack-state/1"


def encode(value: object) -> object:
    """A value as JSON data (tagged: see above)."""
    if type(value) is Piece:
        return {"piece": value.id}
    if type(value) is Player:
        return {"player": int(value)}
    if type(value) is ZoneRef:
        return {"zone": value.index}
    if type(value) is Cell:
        return {"cell": [value.zone, value.slot]}
    if type(value) is PatternRef:
        return {"pattern": value.name}
    if type(value) is tuple:
        return {"tuple": [encode(v) for v in value]}
    if type(value) is list:
        return [encode(v) for v in value]
    if type(value) is dict:
        return {"map": [[encode(k), encode(v)] for k, v in value.items()]}
    return value


def plain(value: object) -> object:
    """Plain JSON data from engine values, untagged, for results and summaries:
    a seat is its ``int``, a tuple a list, anything else unknown its ``str``."""
    if isinstance(value, bool) or value is None or isinstance(value, (str, float)):
        return value
    if isinstance(value, int):
        return int(value)
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return str(value)


def decode(program: "Program", data: object) -> object:
    if isinstance(data, list):
        return [decode(program, v) for v in data]
    if isinstance(data, dict):
        if "piece" in data:
            return program.pieces[data["piece"]]
        if "player" in data:
            seat = data["player"]
            if type(seat) is not int or not 0 <= seat < program.num_players:
                raise ValueError(f"no seat {seat!r} in a game of {program.num_players} players")
            return program.seats[seat]     # a Player is always one of the program's seats
        if "zone" in data:
            return program.zone_refs[data["zone"]]
        if "cell" in data:
            zone, slot = data["cell"]
            return program.zones[zone].cell_objects[slot]
        if "pattern" in data:
            return program.pattern_refs[data["pattern"]]
        if "tuple" in data:
            return tuple(decode(program, v) for v in data["tuple"])
        if "map" in data:
            return {decode(program, k): decode(program, v) for k, v in data["map"]}
    return data


def position_to_json(st: Position, history: bool = True) -> dict[str, object]:
    """Everything about the position; ``history=False`` leaves the history out
    (the position alone, the same whatever path led to it)."""
    program = st.program
    data: dict[str, object] = {
        "format": FORMAT,
        "ruleset": program.name,
        "players": program.num_players,
        "options": dict(program.options),
        "seed": st.seed,
        "zones": [[None if p is None else p.id for p in z] for z in st.zones],
        "face_up": [p.id for p in program.pieces if st.face[p.id]],
        "owner": [[i, encode(o)] for i, o in enumerate(st.owner) if o is not None],
        "active": list(st.active),
        "variables": {k: encode(v) for k, v in st.vars.items()},
        "pc": st.pc,
        "pending": st.pending is not None,
        "rng": st.rng.state,
        "terminal": st.terminal,
        "winners": st.winners,
        "decisions": st.decisions,
        "turns": st.turns,
        "history": [encode_event(h) for h in st.history] if history else None,
        "groupings": [[z, list(sizes)] for z, sizes in sorted(st.groupings.items())],
        # what the numbers above name: zones by index, pieces by id
        "labels": {"zones": [z.label for z in program.zones],
                   "pieces": [p.name for p in program.pieces]},
    }
    if st.heights:
        # stacked grids: how many pieces lie beneath each cell's top (by slot)
        data["heights"] = [[z, list(hs)] for z, hs in sorted(st.heights.items())]
    if st.angles:
        # the way pieces point, degrees counter-clockwise (absent: 0)
        data["angles"] = [[i, a] for i, a in sorted(st.angles.items())]
    if st.rolled:
        # the faces rolled dice show (a die never rolled shows its first face)
        data["rolled"] = [[i, encode(v)] for i, v in sorted(st.rolled.items())]
    if not history:
        del data["history"]
    return data


def position_from_json(program: "Program", data: dict[str, Any],
                       max_decisions: int) -> Position:
    """The position :func:`position_to_json` gave ``data`` of, its flow not run
    yet (its pending decision, if ``data["pending"]``, is reached by running the
    flow from ``pc``).

    :raises RulesetRuntimeError: the data does not fit this program.
    """
    def bad(message: str) -> RulesetRuntimeError:
        return RulesetRuntimeError.at(f"cannot load this state: {message}",
                                      Location(program.file), code="bad-state")
    try:
        zones = data["zones"]
        if len(zones) != len(program.zones):
            raise bad(f"{len(zones)} zones, the ruleset has {len(program.zones)}")
        pieces = [[None if i is None else program.pieces[i] for i in z] for z in zones]
        seen = sum(1 for z in pieces for piece in z if piece is not None)
        if seen != len(program.pieces):
            raise bad(f"{seen} pieces placed, the game has {len(program.pieces)}")
        face = [False] * len(program.pieces)
        for i in data.get("face_up", []):
            face[i] = True
        owner: list[Player | None] = [None] * len(program.pieces)
        for i, o in data.get("owner", []):
            owner[i] = cast("Player | None", decode(program, o))    # (as encoded: a seat)
        rolled = {int(i): decode(program, v) for i, v in data.get("rolled", [])}
        for i, v in rolled.items():
            rolls = program.pieces[i].rolls
            if rolls is None or v not in rolls[1]:
                raise bad(f"{program.pieces[i].name} cannot show {v!r}")
        angles = {int(i): int(a) % 360 for i, a in data.get("angles", [])}
        if any(not 0 <= i < len(program.pieces) for i in angles):
            raise bad("an angle of a piece the game does not have")
        heights = {int(z): tuple(int(n) for n in hs) for z, hs in data.get("heights", [])}
        for z, info in enumerate(program.zones):
            hs = heights.get(z)
            beneath = sum(hs) if hs is not None and info.stacked else 0
            if info.kind == "grid" and (len(pieces[z]) != len(info.cells) + beneath or (
                    hs is not None and (len(hs) != len(info.cells) or min(hs) < 0 or any(
                        h and pieces[z][i] is None for i, h in enumerate(hs))))):
                raise bad(f"{info.label} does not hold one place per cell and the pieces "
                          "beneath their tops")
        st = Position.of(
            program, max_decisions, zones=pieces, face=face, owner=owner, rolled=rolled,
            active=list(data.get("active", [True] * program.num_players)),
            variables={k: decode(program, v) for k, v in data["variables"].items()},
            rng=Rng(int(data.get("rng", 0))), seed=data.get("seed", 0),
            pc=int(data.get("pc", 0)), terminal=bool(data.get("terminal", False)),
            winners=data.get("winners"),
            history=Log(decode_event(program, h) for h in data.get("history", [])),
            decisions=int(data.get("decisions", 0)), turns=int(data.get("turns", 0)),
            groupings={int(z): tuple(int(n) for n in sizes)
                       for z, sizes in data.get("groupings", [])}, heights=heights,
            angles={i: a for i, a in angles.items() if a})
    except (KeyError, IndexError, TypeError, ValueError) as exc:
        raise bad(f"{type(exc).__name__}: {exc}") from None
    return st


def encode_event(event: Event) -> dict[str, object]:
    """A history entry (action, chance event or reveal) as JSON-able data."""
    if isinstance(event, Action):
        return {"action": {"choice": event.choice, "alt": event.alt, "player": event.player,
                           "values": [encode(v) for v in event.values]}, "text": event.text}
    if isinstance(event, ChanceEvent):
        data: dict[str, object] = {"chance": event.kind, "detail": event.detail,
                                   "outcome": encode(event.outcome)}
        if event.at is not None:
            data["at"] = list(event.at)
        return data
    if isinstance(event, Reveal):
        return {"reveal": event.zone, "pieces": [p.id for p in event.pieces],
                "places": list(event.places)}
    if isinstance(event, Narration):
        return {"say": event.template, "values": {k: encode(v) for k, v in event.values.items()},
                "to": None if event.to is None else list(event.to)}
    raise TypeError(f"unknown history entry {event!r}")  # pragma: no cover


def decode_event(program: "Program", data: dict[str, Any]) -> Event:
    """The inverse of :func:`encode_event`."""
    if "action" in data:
        a = data["action"]
        alt = program.choices[a["choice"]].alternatives[a["alt"]]
        return Action(a["choice"], alt, tuple(decode(program, v) for v in a["values"]), a["player"])
    if "chance" in data:
        return ChanceEvent(data["chance"], data["detail"], decode(program, data.get("outcome")),
                           data.get("at"))
    if "say" in data:
        to = data.get("to")
        if not isinstance(data["say"], str):
            raise TypeError(f"a narration's text must be a text, not {data['say']!r:.60}")
        parts(data["say"])      # a text with fields by name only (TemplateError)
        return Narration(data["say"], {k: decode(program, v) for k, v in data["values"].items()},
                         None if to is None else tuple(to))
    return Reveal(data["reveal"], [program.pieces[i] for i in data["pieces"]],
                  list(data.get("places") or []))
