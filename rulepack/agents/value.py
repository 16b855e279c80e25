"""What a position is worth to a player, for the bots: the result at the end, else
the ruleset's ``heuristic`` (for the search bots, its second heuristic, read after N
random decisions, where it declares one), else its ``score``."""

from __future__ import annotations

from typing import Any

from rulepack.errors import Location, RulesetRuntimeError
from rulepack.patterns.match import PatternBudgetError
from rulepack.engine.runtime import EVAL_STEPS, RuleValueError


#: Value of a won game for :func:`evaluate` (a loss counts the negative).
WIN_VALUE = 1_000_000.0


def evaluate(st: Any, player: int) -> float:
    """How good a position is for ``player``: the game's result at the end, else the
    ruleset's ``heuristic(player)``, else its ``score(player)``, else 0."""
    if st.terminal:
        return _result(st, player)
    inst = st.inst
    if inst.heuristic_fn is not None:
        return _heuristic(st, player, inst.heuristic_fn, inst.heuristic_param,
                          inst.ir.get("heuristic"))
    if inst.score_fn is not None:
        return float(st.score(player))
    return 0.0


def search_value(st: Any, player: int) -> float:
    """How good a position is for ``player`` to the search bots: as :func:`evaluate`,
    but where the ruleset declares a second heuristic, read ``after N random
    decisions``, that one (the first is then the one-step bots' only)."""
    inst = st.inst
    if st.terminal or inst.search_heuristic_fn is None:
        return evaluate(st, player)
    return _heuristic(st, player, inst.search_heuristic_fn, inst.search_heuristic_param,
                      inst.ir["heuristic"].get("search"))


def _result(st: Any, player: int) -> float:
    winners = st.result()["winners"]
    if player in winners:
        return WIN_VALUE / len(winners)
    return -WIN_VALUE if winners else 0.0


def _heuristic(st: Any, player: int, fn: Any, name: str, decl: dict[str, Any] | None) -> float:
    """``fn`` (a compiled heuristic whose player parameter is ``name``) for ``player``;
    ``decl``: its declaration's IR (where errors are located). Each evaluation has
    the steps of a decision to itself (loops and pattern searches: a bot values one
    position for every player), and leaves the state's as they were.

    :raises RulesetRuntimeError: it cannot be computed, or is not a number."""
    inst = st.inst
    st.vars[name] = player
    steps_left = st.steps_left
    st.steps_left = EVAL_STEPS
    try:
        value = fn(st)
    except (RuleValueError, PatternBudgetError) as exc:
        at = (decl or {}).get("at") or [None, None]
        raise RulesetRuntimeError.at(f"the heuristic cannot be computed: {exc}",
                                     Location(inst.file, at[0] or None, at[1] or None),
                                     code="runtime") from None
    finally:
        st.vars.pop(name, None)
        st.steps_left = steps_left
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise RulesetRuntimeError.at("a heuristic must be a number", Location(inst.file),
                                     code="bad-score")
    return float(value)


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
