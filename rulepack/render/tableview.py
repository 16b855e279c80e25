"""The views a picture is drawn from: one seat's, or the table's.

A seat's view is :func:`rulepack.engine.views.build_view`. The table's view is
what every seat sees: built from all the seats' views, a piece is shown only
where every seat's view shows it, and is a back (``{"hidden": true, "kind":
back}``) wherever one seat's view hides it. Neither reads hidden state.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any


if TYPE_CHECKING:  # pragma: no cover
    from rulepack.engine.state import State

#: ``--view table``: the table's view (no seat).
TABLE = None


def seat_view(state: "State", seat: int | None, components: list[dict[str, Any]]) -> dict[str, Any]:
    """The view of ``seat`` (from 0), or the table's (``seat`` None).

    :param components: the ruleset's ``components`` IR (the kinds of backs).
    :raises ValueError: ``seat`` is not a seat of the game.
    """
    if seat is None:
        return table_view(state, components)
    return state.view(seat)


def table_view(state: "State", components: list[dict[str, Any]]) -> dict[str, Any]:
    """What every seat sees (see the module's docstring); ``"player"`` is None."""
    views = [state.view(p) for p in range(state.program.num_players)]
    return meet(views, backs_of(components))


def backs_of(components: list[dict[str, Any]]) -> dict[str, str]:
    """Component → the kind of back its pieces show (its ``back``, else itself)."""
    return {c["name"]: c.get("back") or c["name"] for c in components}


def _hide(piece: dict[str, Any] | None, backs: dict[str, str]) -> dict[str, Any] | None:
    if piece is None or piece.get("hidden"):
        return piece
    kind = str(piece.get("kind"))
    hidden: dict[str, Any] = {"hidden": True, "kind": backs.get(kind, kind)}
    if piece.get("angle"):
        hidden["angle"] = piece["angle"]     # (the way a piece points is seen)
    return hidden


def _shown(piece: dict[str, Any] | None) -> bool:
    return piece is not None and not piece.get("hidden")


def meet(views: list[dict[str, Any]], backs: dict[str, str]) -> dict[str, Any]:
    """The view of what all ``views`` (of one state, one per seat) show.

    :param backs: component → the kind of back its pieces show.
    """
    table = copy.deepcopy(views[0])
    table["player"] = None
    table["legal_actions"] = []
    # values every seat's view holds alike (a die roll); a piece one seat sees is not
    table["variables"] = {k: v for k, v in table.get("variables", {}).items()
                          if all(o["variables"].get(k) == v for o in views[1:])}
    flow = table.get("flow") or {}
    flow["vars"] = {k: v for k, v in (flow.get("vars") or {}).items()
                    if all(o["flow"]["vars"].get(k) == v for o in views[1:])}
    for label, zone in table["zones"].items():
        others = [v["zones"][label] for v in views[1:]]
        kind = zone.get("kind")
        if kind == "grid":
            for k, cell in enumerate(zone["cells"]):
                if any(not _shown(o["cells"][k]["piece"]) for o in others):
                    cell["piece"] = _hide(cell["piece"], backs)
        elif kind == "pile":
            seen = [{p["id"] for p in o["pieces"]} for o in others]
            kept = [p for p in zone["pieces"] if all(p["id"] in s for s in seen)]
            hidden_kinds = dict(zone.get("hidden_kinds") or {})
            for p in zone["pieces"]:
                if p not in kept:
                    back = backs.get(str(p["kind"]), str(p["kind"]))
                    hidden_kinds[back] = hidden_kinds.get(back, 0) + 1
            zone["pieces"] = kept
            zone["hidden"] = zone["count"] - len(kept)
            zone["hidden_kinds"] = dict(sorted(hidden_kinds.items()))
        else:
            zone["pieces"] = [p if all(_shown(o["pieces"][k]) for o in others) else _hide(p, backs)
                              for k, p in enumerate(zone["pieces"])]
            if zone.get("groups") is not None:
                zone["groups"] = [
                    [p if all(_shown(o["groups"][g][k]) for o in others) else _hide(p, backs)
                     for k, p in enumerate(group)]
                    for g, group in enumerate(zone["groups"])]
    return table
