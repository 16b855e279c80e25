"""What a position is worth to a player, for the bots: the result at the end, else
the ruleset's ``heuristic`` (for the search bots, its second heuristic, read after N
random decisions, where it declares one), else its ``score``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rulepack.errors import Location, RulesetRuntimeError
from rulepack.patterns.budget import PatternBudgetError
from rulepack.engine.outcome import score
from rulepack.engine.program import HeuristicRule
from rulepack.engine.runtime import EVAL_STEPS, RuleValueError
from rulepack.engine.views import grid_places

if TYPE_CHECKING:  # pragma: no cover
    from rulepack.engine.state import State


#: Value of a won game for :func:`evaluate` (a loss counts the negative).
WIN_VALUE = 1_000_000.0


def evaluate(st: "State", player: int) -> float:
    """How good a position is for ``player``: the game's result at the end, else the
    ruleset's ``heuristic(player)``, else its ``score(player)``, else 0."""
    if st.is_terminal():
        return _result(st, player)
    program = st.program
    if program.heuristic is not None:
        return _heuristic(st, player, program.heuristic)
    if program.score is not None:
        return float(score(st.position, player))
    return 0.0


def search_value(st: "State", player: int) -> float:
    """How good a position is for ``player`` to the search bots: as :func:`evaluate`,
    but where the ruleset declares a second heuristic, read ``after N random
    decisions``, that one (the first is then the one-step bots' only)."""
    rule = st.program.heuristic
    if st.is_terminal() or rule is None or rule.search is None:
        return evaluate(st, player)
    return _heuristic(st, player, rule.search)


def _result(st: "State", player: int) -> float:
    winners = st.result()["winners"]
    if player in winners:
        return WIN_VALUE / len(winners)
    return -WIN_VALUE if winners else 0.0


def _heuristic(st: "State", player: int, rule: HeuristicRule) -> float:
    """The heuristic ``rule`` for ``player``. Each evaluation has the steps of a
    decision to itself (loops and pattern searches: a bot values one position for
    every player), and leaves the position's as they were.

    :raises RulesetRuntimeError: it cannot be computed, or is not a number."""
    position = st.position
    steps_left = position.steps_left
    position.steps_left = EVAL_STEPS
    try:
        value = rule.of(position, st.program.seats[player])
    except (RuleValueError, PatternBudgetError) as exc:
        raise RulesetRuntimeError.at(f"the heuristic cannot be computed: {exc}",
                                     rule.location, code="runtime") from None
    finally:
        position.steps_left = steps_left
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise RulesetRuntimeError.at("a heuristic must be a number",
                                     Location(st.program.file), code="bad-score")
    return float(value)


def has_hidden(view: dict[str, Any]) -> bool:
    """Whether a view hides any piece (a hidden zone, cell or piece)."""
    for zone in view["zones"].values():
        if zone.get("hidden"):
            return True
        if zone["kind"] == "grid":
            if any(e and e.get("hidden") for _, e in grid_places(zone)):
                return True
        elif zone["kind"] != "pile" and any(p.get("hidden") for p in zone["pieces"]):
            return True
    return False
