"""What a position is worth to a player, for the bots: the result at the end, else
the ruleset's ``heuristic``, else its ``score``."""

from __future__ import annotations

from typing import Any

from rulepack.errors import Location, RulesetRuntimeError
from rulepack.patterns.match import PatternBudgetError
from rulepack.engine.runtime import RuleValueError


#: Value of a won game for :func:`evaluate` (a loss counts the negative).
WIN_VALUE = 1_000_000.0


def evaluate(st: Any, player: int) -> float:
    """How good a position is for ``player``: the game's result at the end, else the
    ruleset's ``heuristic(player)``, else its ``score(player)``, else 0."""
    if st.terminal:
        winners = st.result()["winners"]
        if player in winners:
            return WIN_VALUE / len(winners)
        return -WIN_VALUE if winners else 0.0
    inst = st.inst
    if inst.heuristic_fn is not None:
        name = inst.heuristic_param
        st.vars[name] = player
        try:
            value = inst.heuristic_fn(st)
        except (RuleValueError, PatternBudgetError) as exc:
            at = (inst.ir.get("heuristic") or {}).get("at") or [None, None]
            raise RulesetRuntimeError.at(f"the heuristic cannot be computed: {exc}",
                                         Location(inst.file, at[0] or None, at[1] or None),
                                         code="runtime") from None
        finally:
            st.vars.pop(name, None)
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise RulesetRuntimeError.at("a heuristic must be a number", Location(inst.file),
                                         code="bad-score")
        return float(value)
    if inst.score_fn is not None:
        return float(st.score(player))
    return 0.0


def has_hidden(view: dict[str, Any]) -> bool:
    """Whether a view hides any piece (a hidden zone, cell or piece)."""
    for zone in view["zones"].values():
        if zone.get("hidden"):
            return True
        if zone["kind"] == "grid":
            if any(c["piece"] and c["piece"].get("hidden") for c in zone["cells"]):
                return True
        elif zone["kind"] != "pile" and any(p.get("hidden") for p in zone["pieces"]):
            return True
    return False
