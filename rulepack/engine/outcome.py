"""Who won a game: winners by ``end game winners``, by the ``winner`` rule, by team.

:func:`outcome` is :meth:`State.result <rulepack.engine.state.State.result>`'s
body. Partners (``teams`` in the ``game`` declaration) share one result: a
team's score is the sum of its players' scores, the ``winner`` rule compares
teams, and a player named by ``end game winners`` wins with their whole team.
A one-player game that ends without a winner is lost, not drawn.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rulepack.engine.values import describe
from rulepack.errors import Diagnostic, Location, RulesetRuntimeError

if TYPE_CHECKING:  # pragma: no cover
    from rulepack.engine.state import State


def _by_rule(rule: str, candidates: list[int], score_of: dict[int, Any]) -> list[int]:
    """The candidates with the best score (``rule`` is ``"highest"`` or ``"lowest"``)."""
    if not candidates:
        return []
    pick = max if rule == "highest" else min
    best = pick(score_of[c] for c in candidates)
    return [c for c in candidates if score_of[c] == best]


def outcome(st: "State") -> dict[str, Any]:
    """Scores, winners and returns of a finished game (or the running scores).

    :returns: ``{"scores": [..] | None, "winners": [seats], "draw": bool,
        "returns": [1.0 for a winner, 0.0 otherwise], "terminal": bool}``, and
        in a game with teams ``"teams": [{"players": [seats], "score": number |
        None, "winner": bool}]``. A finished game that is not a draw is lost by
        every player who is not a winner.
    :raises RulesetRuntimeError: a score cannot be computed, or the final scores
        break the ruleset's ``scores from ... to ...`` or ``scores sum to ...``
        (see :func:`check_scores`).
    """
    inst = st.inst
    n = st.num_players
    scores = st.scores()
    if st.terminal and scores is not None and \
            (inst.score_range is not None or inst.score_sum is not None):
        check_scores(st, scores)
    teams = inst.teams
    team_scores: list[Any] | None = None
    if teams is not None and scores is not None:
        team_scores = [sum(scores[p] for p in team) for team in teams]
    if st.explicit_winners is not None:
        winners = sorted(int(w) for w in st.explicit_winners)
        if teams is not None:
            winners = sorted(p for team in teams if set(team) & set(winners) for p in team)
    elif scores is not None and inst.winner_rule:
        if teams is not None and team_scores is not None:
            # a team with an active player competes, with all its players' points
            alive = [t for t, team in enumerate(teams) if any(st.active[p] for p in team)]
            best = _by_rule(inst.winner_rule, alive, dict(enumerate(team_scores)))
            winners = sorted(p for t in best for p in teams[t])
        else:
            candidates = [p for p in range(n) if st.active[p]]
            winners = _by_rule(inst.winner_rule, candidates, dict(enumerate(scores)))
    else:
        winners = []
    result = {
        "scores": scores,
        "winners": winners,
        "draw": st.terminal and not winners and n > 1,
        "returns": [1.0 if p in winners else 0.0 for p in range(n)],
        "terminal": st.terminal,
    }
    if teams is not None:
        result["teams"] = [
            {"players": list(team), "score": None if team_scores is None else team_scores[t],
             "winner": bool(set(team) & set(winners))}
            for t, team in enumerate(teams)]
    return result


def check_scores(st: "State", scores: list[Any]) -> None:
    """The final ``scores`` of a finished game against what the ruleset declares:
    each in ``scores from LO to HI``, their sum ``scores sum to N`` (exactly, or
    within 1e-9 of the largest magnitude for fractions).

    :raises RulesetRuntimeError: a score out of the range or a sum that differs,
        located at the declaration (code ``bad-scores``): the declaration was wrong.
    """
    inst = st.inst
    game = inst.ir.get("game") or {}
    declared = inst.score_range
    if declared is not None:
        low, high = declared
        for p, score in enumerate(scores):
            if not low <= score <= high:
                who = describe(st.inst.seats[p], inst.seat_names)
                raise _broken(inst, game.get("scores"),
                              f"the game ended with {who}'s score {describe(score)}, outside "
                              f"the range {describe(low)} to {describe(high)} its ruleset "
                              "declares (scores from ... to ...)")
    total = inst.score_sum
    if total is not None:
        got = sum(scores)
        if abs(got - total) > 1e-9 * max([1.0, abs(total)] + [abs(s) for s in scores]):
            raise _broken(inst, game.get("score_sum"),
                          f"the game ended with scores adding up to {describe(got)}, not the "
                          f"{describe(total)} its ruleset declares (scores sum to ...)")


def _broken(inst: Any, node: Any, message: str) -> RulesetRuntimeError:
    at = (node or {}).get("at") or [0, 0]
    return RulesetRuntimeError(Diagnostic(
        message, Location(inst.file, at[0] or None, at[1] or None), code="bad-scores",
        hint="a game that ends so shows that the declaration is wrong: correct it"))
