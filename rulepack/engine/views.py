"""Views: what one player may know of a position, as JSON-able data.

A piece is shown to a player when it is face up, or when its zone lets that
player see face-down pieces (``seen by owner`` for the zone's owner, ``seen by
everyone``). Any other piece is shown as ``{"hidden": true, "kind": ...}``
with no id, so nothing in a view identifies it. In a ``pile`` (kept in a
canonical order that would betray identities), hidden pieces are only counted.
Variables that hold pieces are masked the same way. A variable ``seen by
owner`` shows a player only their own entry (their team's, of a ``per team``
variable), one ``seen by nobody`` nothing: a
masked value is ``{"hidden": true}`` in ``variables`` and ``{"secret": true}``
in ``flow.vars``. Views hold no history: remembering what was once shown is the
player's job.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

from rulepack.engine.flow import current_player, legal
from rulepack.engine.outcome import outcome, scores
from rulepack.engine.queries import describe_for, groups, visible
from rulepack.engine.serialize import encode
from rulepack.engine.stacks import stack_at
from rulepack.engine.values import Cell, PatternRef, Piece, Player, ZoneRef, describe

if TYPE_CHECKING:  # pragma: no cover
    from rulepack.engine.position import Position


def piece_json(st: "Position", piece: Piece) -> dict[str, object]:
    """A visible piece: id, kind, name, attributes and face; a die also the face
    it shows, under its attribute's name, and that name as ``"rolls"``
    (``{"name": "red die", "pips": 4, "rolls": "pips", ...}``)."""
    data: dict[str, object] = {"id": piece.id, "kind": piece.kind, "name": piece.name}
    data.update(piece.attrs)
    rolls = piece.rolls
    if rolls is not None:
        data[rolls[0]] = encode(st.rolled.get(piece.id, rolls[1][0]))
        data["rolls"] = rolls[0]
    data["face"] = "up" if st.face[piece.id] else "down"
    owner = st.owner[piece.id]
    if owner is not None:
        data["owner"] = int(owner)
    angle = st.angles.get(piece.id)
    if angle:
        data["angle"] = angle
    return data


def hidden_json(piece: Piece, up: bool = False, angle: int = 0) -> dict[str, object]:
    """A piece the player cannot identify: the kind of back it has; for a
    two-sided piece also its face, what that side shows (``"shows"``: attribute
    → value) and how it looks (``"look"``, ``"coin showing 3"``); the way it points
    (``"angle"``, degrees counter-clockwise), which anyone sees, unless 0."""
    data: dict[str, object] = {"hidden": True, "kind": piece.back}
    if piece.sides is not None:
        shown = piece.shown(up)
        data.update({"face": "up" if up else "down",
                     "shows": {a: piece.attrs[a] for a in shown}, "look": piece.look(up)})
    if angle:
        data["angle"] = angle
    return data


def masked_value(st: "Position", value: object, player: int) -> object:
    """A variable's value with pieces the player cannot see hidden."""
    if type(value) is Piece:
        return piece_json(st, value) if visible(st, value, player) else \
            hidden_json(value, st.face[value.id], st.angles.get(value.id, 0))
    if type(value) is Player:
        return {"player": int(value)}
    if type(value) is list or type(value) is tuple:
        return [masked_value(st, v, player) for v in value]
    if type(value) is dict:
        return [[masked_value(st, k, player), masked_value(st, v, player)] for k, v in value.items()]
    if type(value) is ZoneRef:
        return {"zone": value.label}
    if type(value) is Cell:
        return {"cell": str(value), "zone": st.program.zones[value.zone].label}
    if type(value) is PatternRef:
        return {"pattern": value.name}
    return value


#: a variable's value (or a per player variable's entry) the viewer may not see
HIDDEN_VALUE: dict[str, bool] = {"hidden": True}
#: the same in ``flow.vars``, where ``{"hidden": kind}`` is a hidden piece
SECRET_VALUE: dict[str, bool] = {"secret": True}


def private_value(st: "Position", name: str, value: object, player: int,
                  hidden: object) -> object:
    """``value`` of variable ``name`` with what ``player`` may not see replaced by
    ``hidden``: all of it for a variable ``seen by nobody``, the other players'
    entries for one ``seen by owner``; any other value as it is."""
    who = st.program.private_vars.get(name)
    if who is None:
        return value
    if who == "owner" and type(value) is list:
        own = st.program.own_entry(name, player)
        return [v if e == own else hidden for e, v in enumerate(value)]
    return hidden


def encode_masked(st: "Position", value: object, player: int) -> object:
    """A value with the tags of :func:`rulepack.engine.serialize.encode`, except
    that a piece the player cannot see becomes ``{"hidden": kind}``."""
    if type(value) is Piece:
        if visible(st, value, player):
            return {"piece": value.id}
        return {"hidden": value.look(st.face[value.id])}
    if type(value) is list:
        return [encode_masked(st, v, player) for v in value]
    if type(value) is tuple:
        return {"tuple": [encode_masked(st, v, player) for v in value]}
    if type(value) is dict:
        return {"map": [[encode_masked(st, k, player), encode_masked(st, v, player)]
                        for k, v in value.items()]}
    return encode(value)


def grid_places(zone: dict[str, Any]) -> list[tuple[int, Any]]:
    """A grid's view (:func:`zone_json`) as ``(place, piece entry)`` pairs: each
    cell's top at its slot (``None``: empty), then, in a stacked grid, the pieces
    beneath each top, bottom first, at the places after the slots (the order of the
    zone's list: :mod:`rulepack.engine.stacks`)."""
    cells = zone["cells"]
    out: list[tuple[int, Any]] = [(i, c["piece"]) for i, c in enumerate(cells)]
    for c in cells:
        out.extend((len(out), e) for e in c.get("stack", [])[:-1])
    return out


def zone_json(st: "Position", index: int, player: int) -> dict[str, object]:
    info = st.program.zones[index]
    content = st.zones[index]
    data: dict[str, object] = {"name": info.name, "kind": info.kind}
    if info.owner is not None:
        data["owner"] = info.owner
    if info.kind == "grid":
        def entry_of(piece: Piece) -> object:
            if visible(st, piece, player):
                return piece_json(st, piece)
            return hidden_json(piece, st.face[piece.id], st.angles.get(piece.id, 0))

        cells = []
        for cell, piece in zip(info.cell_objects, content):
            entry: dict[str, object] = {"cell": cell.label, "row": cell.row + 1,
                                        "col": cell.col + 1,
                                        "piece": None if piece is None else entry_of(piece)}
            if info.stacked:
                # a stacked grid: the cell's pieces bottom to top ("piece" is the top)
                entry["stack"] = [entry_of(p) for p in stack_at(st, cell)]
            cells.append(entry)
        data.update(rows=info.rows, cols=info.cols, cells=cells)
        if info.stacked:
            data["stacked"] = True
        if info.notation is not None:
            # a grid that names its cells as PPN does: how its rows (top to bottom)
            # and columns are named, for pictures
            data.update(notation="ppn", row_names=info.row_names(),
                        column_names=info.column_names())
        return data
    if info.kind == "pile":
        shown = [piece_json(st, p) for p in content if visible(st, p, player)]
        hidden_kinds: dict[str, int] = {}
        for p in content:
            if not visible(st, p, player):
                look = p.look(st.face[p.id])
                hidden_kinds[look] = hidden_kinds.get(look, 0) + 1
        data["pieces"] = shown
        data["hidden"] = len(content) - len(shown)
        data["hidden_kinds"] = hidden_kinds
        data["count"] = len(content)
        return data
    data["pieces"] = [piece_json(st, p) if visible(st, p, player) else
                      hidden_json(p, st.face[p.id], st.angles.get(p.id, 0)) for p in content]
    data["count"] = len(content)
    if info.kind == "groups":
        in_groups = groups(st, index)
        data["groups"] = None if in_groups is None else [
            [piece_json(st, p) if visible(st, p, player) else hidden_json(p, st.face[p.id], st.angles.get(p.id, 0))
             for p in g]
            for g in in_groups]
    return data


def scores_seen(st: "Position", player: int) -> Sequence[int | float | None] | None:
    """The scores, except those computed from variables the player may not see
    (``None`` in their place) while the game goes on."""
    every = scores(st)
    rule = st.program.score
    secret = None if rule is None else rule.secret
    if every is None or secret is None or st.terminal:
        return every
    return [s if secret == "owner" and p == player else None for p, s in enumerate(every)]


def build_view(st: "Position", player: int) -> dict[str, object]:
    """The information set of ``player`` as JSON-able data.

    :returns: ``{"ruleset", "player", "players", "seats", "current_player",
        "turn", "round", "active", "terminal", "zones": {label: zone} (the
        ``box`` of pieces out of play included), "variables": {name: value},
        "scores", "legal_actions", "options", "flow": {pc, pending, decisions,
        turns, winners, vars}, "result"}``. ``flow.vars`` holds every variable
        of the flow, tagged as in :mod:`rulepack.engine.serialize`, hidden
        pieces as ``{"hidden": kind}``.
    :raises ValueError: ``player`` is not a seat.
    """
    program = st.program
    if not isinstance(player, int) or not 0 <= player < program.num_players:
        raise ValueError(f"{player!r} is not a seat of this game")
    seats = [describe(Player(p), program.seat_names) for p in range(program.num_players)]
    zones = {program.zones[i].label: zone_json(st, i, player) for i in range(len(program.zones))}
    private = program.private_vars
    variables = {name: masked_value(st, st.vars.get(name), player) for name in program.initial}
    flow_vars = {k: encode_masked(st, v, player) for k, v in st.vars.items()}
    for name in private:
        variables[name] = private_value(st, name, variables[name], player, HIDDEN_VALUE)
        flow_vars[name] = private_value(st, name, flow_vars[name], player, SECRET_VALUE)
    current = st.vars.get("current")
    view: dict[str, object] = {
        "ruleset": program.name,
        "player": player,
        "players": program.num_players,
        "seats": seats,
        "current_player": current_player(st),
        "turn": None if current is None else int(current),
        "round": st.vars.get("round"),
        "active": list(st.active),
        "terminal": st.terminal,
        "zones": zones,
        "variables": variables,
        "scores": scores_seen(st, player),
        "legal_actions": [],
        "options": dict(program.options),
        # where the flow stands (public), enough to rebuild a state from this view
        "flow": {
            "pc": st.pc,
            "pending": st.pending is not None,
            "decisions": st.decisions,
            "turns": st.turns,
            "winners": st.winners,
            "vars": flow_vars,
        },
    }
    if current_player(st) == player:
        render = describe_for(st, player)
        view["legal_actions"] = [a.render(render) for a in legal(st)]
    if st.terminal:
        view["result"] = outcome(st)
    return view
