"""Rebuild a :class:`~rulepack.engine.state.State` from its JSON form."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rulepack.engine.log import Log
from rulepack.engine.rng import Rng
from rulepack.engine.serialize import decode, decode_event
from rulepack.engine.state import State
from rulepack.errors import Location, RulesetRuntimeError

if TYPE_CHECKING:  # pragma: no cover
    from rulepack.compiler.instance import Instance


def state_from_json(inst: "Instance", data: dict[str, Any], max_decisions: int) -> "State":
    """Rebuild a state of ``inst`` from :func:`state_to_json` output.

    :raises RulesetRuntimeError: the data does not fit this ruleset instance.
    """
    def bad(message: str) -> RulesetRuntimeError:
        return RulesetRuntimeError.at(f"cannot load this state: {message}",
                                      Location(inst.file), code="bad-state")
    try:
        inst.prepare()
        st = State.__new__(State)
        st.inst = inst
        zones = data["zones"]
        if len(zones) != len(inst.zones):
            raise bad(f"{len(zones)} zones, the ruleset has {len(inst.zones)}")
        st.zones = [[None if i is None else inst.pieces[i] for i in z] for z in zones]
        st._owned = set(range(len(st.zones)))
        st.loc = [0] * len(inst.pieces)
        seen = 0
        for zi, z in enumerate(st.zones):
            for p in z:
                if p is not None:
                    st.loc[p.id] = zi
                    seen += 1
        if seen != len(inst.pieces):
            raise bad(f"{seen} pieces placed, the game has {len(inst.pieces)}")
        st.face = [False] * len(inst.pieces)
        for i in data.get("face_up", []):
            st.face[i] = True
        st.owner = [None] * len(inst.pieces)
        for i, o in data.get("owner", []):
            st.owner[i] = decode(inst, o)
        rolled = {int(i): decode(inst, v) for i, v in data.get("rolled", [])}
        for i, v in rolled.items():
            rolls = inst.pieces[i].rolls
            if rolls is None or v not in rolls[1]:
                raise bad(f"{inst.pieces[i].name} cannot show {v!r}")
        st.rolled = rolled
        st.active = list(data.get("active", [True] * inst.num_players))
        st.vars = {k: decode(inst, v) for k, v in data["variables"].items()}
        st.rng = Rng(int(data.get("rng", 0)))
        st.seed = data.get("seed", 0)
        st.pc = int(data.get("pc", 0))
        st.pending = None
        st.decider = None
        st._legal = None
        st.terminal = bool(data.get("terminal", False))
        st.explicit_winners = data.get("winners")
        st.history = Log(decode_event(inst, h) for h in data.get("history", []))
        st.decisions = int(data.get("decisions", 0))
        st.turn_count = int(data.get("turns", 0))
        st.max_decisions = max_decisions
        st.knowledge = None
        st.memo = {}
        st.groupings = {int(z): tuple(int(n) for n in sizes)
                        for z, sizes in data.get("groupings", [])}
    except (KeyError, IndexError, TypeError, ValueError) as exc:
        raise bad(f"{type(exc).__name__}: {exc}") from None
    if not st.terminal and data.get("pending", True):
        st._run(st.pc)
    return st
