"""Helpers to set up positions for rules tests.

A position is built from a real state at the right point of the flow: its
``to_json()`` is edited (which pieces are in which zones) and rebuilt, so the
flow, the variables and the random generator stay those of a real game.

* :func:`arrange` puts named pieces into labelled zones (``"hand[player 1]"``,
  ``"won[player 2]"``, ``"stack"``...), swapping out what was there.
* :func:`at_last_discard` drives a Multzo round to the last decision before its
  showdown (the first player declares, the others draw and discard face up).
* :func:`play_showdown` gives every player a chosen hand there and plays the
  final discard, so the showdown runs with exactly those hands.

Nothing here knows a rule of Multzo beyond the texts of its actions; the tests
check the outcomes.
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping

from rulepack.engine.state import state_from_json

DRAW_TOP = "draw the top tile of the stack"


# ---------------------------------------------------------------------- lookups
def zone_index(state: Any, label: str) -> int:
    """The index of the zone labelled ``label`` (``"hand[player 1]"``)."""
    for info in state.program.zones:
        if info.label == label:
            return info.index
    known = ", ".join(z.label for z in state.program.zones)
    raise KeyError(f"no zone {label!r} (zones: {known})")


def names(state: Any, label: str) -> list[str]:
    """Names of the pieces in a zone, in the zone's order (a stack's top is last)."""
    return [p.name for p in state.position.zones[zone_index(state, label)]]


def piece(state: Any, name: str) -> Any:
    """The piece called ``name`` (``"4 of moons"``, ``"ace of suns coin"``)."""
    for p in state.program.pieces:
        if p.name == name:
            return p
    raise KeyError(f"no piece called {name!r}")


def where(state: Any, name: str) -> str:
    """The label of the zone holding the piece called ``name``."""
    p = piece(state, name)
    for info in state.program.zones:
        if p in state.position.zones[info.index]:
            return info.label
    raise KeyError(name)


def is_face_up(state: Any, name: str) -> bool:
    return bool(state.position.face[piece(state, name).id])


def hand_label(player: int) -> str:
    return f"hand[player {player + 1}]"


def won_label(player: int) -> str:
    return f"won[player {player + 1}]"


def texts(state: Any) -> list[str]:
    """The texts of the legal actions."""
    return [a.text for a in state.legal_actions()]


# ---------------------------------------------------------------------- arrange
def arrange_json(inst: Any, data: dict[str, Any], layout: Mapping[str, Iterable[str]],
                 spill: str | None = None, spill_face_up: bool | None = None) -> dict[str, Any]:
    """Edit ``State.to_json()`` data in place so each zone of ``layout`` holds
    exactly the named pieces (listed bottom to top for ordered zones).

    A listed piece not yet in its zone is swapped with a piece of that zone
    that is not listed: the two exchange places and faces (a tile swapped into
    a face-down hand is face down). When the zone has no unlisted piece left,
    the listed piece simply moves in, keeping its face. Unlisted pieces left
    over go to the zone ``spill`` (face ``spill_face_up`` if given), or it is an
    error.
    """
    by_name = {p.name: p.id for p in inst.pieces}
    label_index = {z.label: z.index for z in inst.zones}
    zones: list[list[int]] = data["zones"]
    face = set(data["face_up"])

    def locate(pid: int) -> tuple[int, int]:
        for zi, z in enumerate(zones):
            if pid in z:
                return zi, z.index(pid)
        raise KeyError(pid)

    wanted: dict[int, list[int]] = {}
    claimed: dict[int, str] = {}
    for label, piece_names in layout.items():
        if label not in label_index:
            raise KeyError(f"no zone {label!r}")
        ids = []
        for n in piece_names:
            if n not in by_name:
                raise KeyError(f"no piece called {n!r}")
            pid = by_name[n]
            if pid in claimed:
                raise ValueError(f"{n!r} is listed for both {claimed[pid]} and {label}")
            claimed[pid] = label
            ids.append(pid)
        wanted[label_index[label]] = ids

    def set_face(pid: int, up: bool) -> None:
        if up:
            face.add(pid)
        else:
            face.discard(pid)

    leftovers: list[int] = []
    for zi, ids in wanted.items():
        target = zones[zi]
        outgoing = [pid for pid in target if pid not in ids]
        for pid in ids:
            if pid in target:
                continue
            src, k = locate(pid)
            if outgoing:
                out = outgoing.pop(0)
                j = target.index(out)
                zones[src][k] = out
                target[j] = pid
                up_in, up_out = pid in face, out in face
                set_face(pid, up_out)
                set_face(out, up_in)
            else:
                del zones[src][k]
                target.append(pid)
        for out in outgoing:
            target.remove(out)
            leftovers.append(out)
        # the listed order (bottom to top), or piece order for a pile
        kind = inst.zones[zi].kind
        zones[zi] = sorted(ids) if kind == "pile" else list(ids)

    if leftovers:
        if spill is None:
            names_left = ", ".join(inst.pieces[i].name for i in leftovers)
            raise ValueError(f"nowhere to put {names_left}: give spill=")
        si = label_index[spill]
        for pid in leftovers:
            zones[si].append(pid)
            if spill_face_up is not None:
                set_face(pid, spill_face_up)
        if inst.zones[si].kind == "pile":
            zones[si].sort()

    # every arranged zone holds exactly what was asked
    for zi, ids in wanted.items():
        if sorted(zones[zi]) != sorted(ids):
            raise AssertionError(f"arranging {inst.zones[zi].label} failed")
    all_ids = sorted(pid for z in zones for pid in z if pid is not None)
    assert all_ids == list(range(len(inst.pieces))), "pieces lost or duplicated"
    data["face_up"] = sorted(face)
    return data


def arrange(state: Any, layout: Mapping[str, Iterable[str]], spill: str | None = None,
            spill_face_up: bool | None = None, faces: Mapping[str, bool] | None = None) -> Any:
    """A new state: ``state`` with the zones of ``layout`` holding exactly the
    named pieces (see :func:`arrange_json`); ``faces`` sets pieces' faces by name
    (``True`` for face up). The flow resumes at the same decision."""
    data = state.to_json()
    arrange_json(state.program, data, layout, spill, spill_face_up)
    if faces:
        face = set(data["face_up"])
        for n, up in faces.items():
            pid = piece(state, n).id
            if up:
                face.add(pid)
            else:
                face.discard(pid)
        data["face_up"] = sorted(face)
    return state_from_json(state.program, data, state.position.max_decisions)


def with_rng(state: Any, rng_state: int) -> Any:
    """A copy of ``state`` whose random generator starts from ``rng_state``."""
    data = state.to_json()
    data["rng"] = rng_state
    return state_from_json(state.program, data, state.position.max_decisions)


# ---------------------------------------------------------------------- flow
def is_draw_decision(state: Any) -> bool:
    return any(t.startswith("draw ") for t in texts(state))


def is_discard_decision(state: Any) -> bool:
    return any(t.startswith("discard ") for t in texts(state))


def declare_options(state: Any) -> list[str]:
    return [t for t in texts(state) if t.endswith("face down to end the round")]


def take_turn(state: Any, declare: bool = False) -> None:
    """The current player draws the top of the stack (or the first face-up
    discard if the stack is empty) and discards their first tile, face down if
    ``declare``."""
    ts = texts(state)
    state.apply(DRAW_TOP if DRAW_TOP in ts else ts[0])
    ts = texts(state)
    if declare:
        state.apply(declare_options(state)[0])
    else:
        state.apply([t for t in ts if t.endswith("face up")][0])


def at_last_discard(game: Any, players: int, seed: int = 0) -> Any:
    """A new game driven to the last decision of round 1 before its showdown:
    the first player declares at once, each other player draws the top of the
    stack and discards face up, and the last of them has drawn and must now
    discard (five tiles in hand)."""
    state = game.new_game(players, seed)
    take_turn(state, declare=True)
    for _ in range(players - 2):
        take_turn(state)
    state.apply(DRAW_TOP)
    assert is_discard_decision(state) and not declare_options(state)
    return state


def play_showdown(game: Any, players: int, hands: Mapping[int, list[str]],
                  won: Mapping[int, list[str]] | None = None, seed: int = 0,
                  extra: Mapping[str, list[str]] | None = None,
                  rng_state: int | None = None) -> tuple[Any, Any]:
    """Play a showdown with chosen hands.

    :param hands: seat (0-based) → the four tiles it holds at the showdown,
        for every seat.
    :param won: seat → coins already won before this showdown (take each
        suit's coins from the top of its stack: 2, then 3, ...).
    :param extra: more zone label → piece names to arrange.
    :param rng_state: replaces the random generator's state before the showdown.
    :returns: ``(before, after)``: the position at the final discard (every
        hand arranged, the last player holding one more tile) and the state
        once that discard is played and the showdown has run (it then waits
        for a multiplier decision, or the next round's first draw, or is over).
    """
    state = at_last_discard(game, players, seed)
    last = state.current_player
    listed = {n for h in hands.values() for n in h}
    assert sorted(hands) == list(range(players)), "give every seat's hand"
    for h in hands.values():
        assert len(h) == 4, h
    spare = next(p.name for p in state.program.pieces if p.kind == "tile" and p.name not in listed)
    layout: dict[str, list[str]] = {}
    for p, h in hands.items():
        layout[hand_label(p)] = list(h) + ([spare] if p == last else [])
    for p, coins in (won or {}).items():
        layout[won_label(p)] = list(coins)
    for label, ns in (extra or {}).items():
        layout[label] = list(ns)
    before = arrange(state, layout)
    if rng_state is not None:
        before = with_rng(before, rng_state)
    after = before.clone()
    after.apply(f"discard {spare} face up")
    return before, after


def multiplier_offered(state: Any) -> list[str]:
    """Texts of the multiplier decision's actions, or ``[]`` if none is pending."""
    return [t for t in texts(state) if t.startswith("take ")]


def decline_multipliers(state: Any) -> None:
    """Answer every pending multiplier decision with "take no multiplier"."""
    while "take no multiplier" in texts(state):
        state.apply("take no multiplier")


def coins_gained(before: Any, after: Any, player: int) -> list[str]:
    """Names of the coins in the player's won zone now that were not there before."""
    was = set(names(before, won_label(player)))
    return [n for n in names(after, won_label(player)) if n not in was]
