"""The states a picture shows: a ruleset played by bots for N decisions, or a
record replayed to a step."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from rulepack.agents.bots import make_agent, play_out

if TYPE_CHECKING:  # pragma: no cover
    from rulepack.engine.state import State
    from rulepack.game import Game
    from rulepack.records import Record


class _Enough(Exception):
    """Stops the bots after the decisions asked for."""


def played(game: "Game", kinds: list[str], seed: int, options: dict[str, Any],
           after: int, max_decisions: int = 100_000) -> "State":
    """The state after ``after`` decisions of bots (``kinds``: an agent name per
    seat), as ``rulepack play --seed SEED`` with those bots plays it; earlier if
    the game ends first.

    :raises RulepackError: bad options or player count, or the ruleset fails.
    """
    state = game.new_game(len(kinds), seed=seed, options=options, max_decisions=max_decisions)
    agents = [make_agent(kind, seed, seat) for seat, kind in enumerate(kinds)]

    def stop(st: "State", player: int, index: int, since: int) -> None:
        if st.decisions >= after:
            raise _Enough

    if after > 0:
        try:
            play_out(state, agents, after_action=stop)
        except _Enough:
            pass
    return state


def at_step(record: "Record", step: int) -> "State":
    """The state of a record after ``step`` decisions (the record is checked on
    the way, see :func:`rulepack.records.replay`).

    :raises RecordError: the record is bad, or has fewer than ``step`` decisions.
    """
    from rulepack.errors import Diagnostic, Location
    from rulepack.records import RecordError, replay
    if step > record.decisions:
        raise RecordError(Diagnostic(f"step {step}: the record has only {record.decisions} "
                                     "decisions", Location(record.path, None), code="bad-step"))
    return replay(record, upto=step).state
