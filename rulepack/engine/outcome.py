"""Scores and who won: winners by ``end game winners``, by the ``winner`` rule, by team.

:func:`outcome` is :meth:`State.result <rulepack.engine.state.State.result>`'s
body. Partners (``teams`` in the ``game`` declaration) share one result: a
team's score is the sum of its players' scores, the ``winner`` rule compares
teams, and a player named by ``end game winners`` wins with their whole team.
A one-player game that ends without a winner is lost, not drawn.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypedDict

from rulepack.engine.runtime import RuleValueError, show
from rulepack.engine.values import Player, describe
from rulepack.errors import Diagnostic, Location, RulesetRuntimeError
from rulepack.patterns.budget import PatternBudgetError

if TYPE_CHECKING:  # pragma: no cover
    from rulepack.engine.position import Position


class TeamResult(TypedDict):
    """One team's part of an :class:`Outcome`."""

    players: list[int]
    score: int | float | None
    winner: bool


class _Result(TypedDict):
    scores: list[int | float] | None
    winners: list[int]
    draw: bool
    returns: list[float]
    terminal: bool


class Outcome(_Result, total=False):
    """What :func:`outcome` gives: the scores (``None``: the ruleset has none), the
    winners (seats), whether it is a draw, each seat's return and whether the game
    is over; in a game with teams, each team's result too."""

    teams: list[TeamResult]


def score(st: "Position", player: object) -> int | float:
    """One seat's score by the ruleset's ``score`` rule.

    :raises RuleValueError: ``player`` is not a seat, or the ruleset declares no score.
    :raises RulesetRuntimeError: the score cannot be computed, or is not a number
        (located at the score's declaration)."""
    program = st.program
    if type(player) is not Player:          # (a Player is always a seat)
        if not isinstance(player, int) or not 0 <= player < program.num_players:
            raise RuleValueError(f"score() of {show(player)}, which is not a player")
        player = program.seats[player]
    rule = program.score
    if rule is None:
        raise RuleValueError("the ruleset declares no score")
    try:
        value = rule.of(st, player)
    except (RuleValueError, PatternBudgetError) as exc:
        raise RulesetRuntimeError.at(f"the score cannot be computed: {exc}", rule.location,
                                     code="runtime") from None
    if type(value) is int:
        return value
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise RulesetRuntimeError.at(f"a score must be a number, not {describe(value)!r}",
                                     rule.location, code="bad-score")
    return value


def scores(st: "Position") -> list[int | float] | None:
    """Each seat's score by the ruleset's ``score`` rule, or ``None`` if it has none."""
    program = st.program
    if program.score is None:
        return None
    return [score(st, p) for p in program.seats]


def _by_rule(rule: str, candidates: list[int], score_of: dict[int, int | float]) -> list[int]:
    """The candidates with the best score (``rule`` is ``"highest"`` or ``"lowest"``)."""
    if not candidates:
        return []
    pick = max if rule == "highest" else min
    best = pick(score_of[c] for c in candidates)
    return [c for c in candidates if score_of[c] == best]


def outcome(st: "Position") -> Outcome:
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
    program = st.program
    n = program.num_players
    every = scores(st)
    rule = program.score
    if st.terminal and every is not None and rule is not None and \
            (rule.declared_range is not None or rule.declared_sum is not None):
        check_scores(st, every)
    teams = program.teams
    team_scores: list[int | float] | None = None
    if teams is not None and every is not None:
        team_scores = [sum(every[p] for p in team) for team in teams]
    if st.winners is not None:
        winners = sorted(int(w) for w in st.winners)
        if teams is not None:
            winners = sorted(p for team in teams if set(team) & set(winners) for p in team)
    elif every is not None and program.winner_rule:
        if teams is not None and team_scores is not None:
            # a team with an active player competes, with all its players' points
            alive = [t for t, team in enumerate(teams) if any(st.active[p] for p in team)]
            best = _by_rule(program.winner_rule, alive, dict(enumerate(team_scores)))
            winners = sorted(p for t in best for p in teams[t])
        else:
            candidates = [p for p in range(n) if st.active[p]]
            winners = _by_rule(program.winner_rule, candidates, dict(enumerate(every)))
    else:
        winners = []
    result: Outcome = {
        "scores": every,
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


def check_scores(st: "Position", final: list[int | float]) -> None:
    """The ``final`` scores of a finished game against what the ruleset declares:
    each in ``scores from LO to HI``, their sum ``scores sum to N`` (exactly, or
    within 1e-9 of the largest magnitude for fractions).

    :raises RulesetRuntimeError: a score out of the range or a sum that differs,
        located at the declaration (code ``bad-scores``): the declaration was wrong.
    """
    program = st.program
    rule = program.score
    if rule is None:
        return
    if rule.declared_range is not None:
        low, high = rule.declared_range
        for p, value in enumerate(final):
            if not low <= value <= high:
                who = describe(program.seats[p], program.seat_names)
                raise _broken(rule.range_location or rule.location,
                              f"the game ended with {who}'s score {describe(value)}, outside "
                              f"the range {describe(low)} to {describe(high)} its ruleset "
                              "declares (scores from ... to ...)")
    total = rule.declared_sum
    if total is not None:
        got = sum(final)
        if abs(got - total) > 1e-9 * max([1.0, abs(total)] + [abs(s) for s in final]):
            raise _broken(rule.sum_location or rule.location,
                          f"the game ended with scores adding up to {describe(got)}, not the "
                          f"{describe(total)} its ruleset declares (scores sum to ...)")


def _broken(location: Location, message: str) -> RulesetRuntimeError:
    return RulesetRuntimeError(Diagnostic(
        message, location, code="bad-scores",
        hint="a game that ends so shows that the declaration is wrong: correct it"))
