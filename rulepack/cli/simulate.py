"""Many bot games and what they show: wins per seat, scores, length, speed.

Game ``i`` of a simulation seeded ``S`` is seeded ``mix_seed(S, i)``, so any one
game can be watched again with ``rulepack play RULESET --seed <that seed>``.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any, Callable

from rulepack.cli.args import jsonable
from rulepack.cli.session import make_agents
from rulepack.errors import Diagnostic, Location, RulepackError
from rulepack.interpreter.agents import play_out
from rulepack.interpreter.rng import mix_seed
from rulepack.interpreter.state import DEFAULT_MAX_DECISIONS

if TYPE_CHECKING:  # pragma: no cover
    from rulepack.interpreter.game import Game


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` (0-based) of a simulation seeded ``seed``."""
    return mix_seed(seed, index)


def simulate(game: "Game", games: int, agents: list[str], seed: int = 0,
             options: dict[str, Any] | None = None,
             max_decisions: int = DEFAULT_MAX_DECISIONS,
             on_game: Callable[[int], None] | None = None) -> dict[str, Any]:
    """Play ``games`` games with one agent per seat; returns the summary.

    :param agents: agent names, one per seat (their number is the player count).
    :param on_game: called with the number of games finished so far.
    :raises RulepackError: bad options or player count, or a game that fails
        (with a note naming the game and its seed).
    """
    players = len(agents)
    wins = [0] * players
    score_sums: list[float] = [0.0] * players
    have_scores = True
    decisions = draws = ties = 0
    started = time.perf_counter()
    game.instance(players, options)       # bad player count or options: fail before playing
    seats: list[str] = []
    for i in range(games):
        s = game_seed(seed, i)
        try:
            state = game.new_game(players, seed=s, options=options, max_decisions=max_decisions)
            if not seats:
                seats = list(state.view(0)["seats"])
            bots = make_agents(agents, s)
            play_out(state, [bots[p] for p in range(players)])
        except RulepackError as exc:
            note = Diagnostic(f"in game {i + 1} of the simulation (play it with --seed {s})",
                              Location(game.file), severity="note", code="simulation")
            raise RulepackError(list(exc.diagnostics) + [note]) from None
        result = state.result()
        decisions += state.decisions
        winners = result["winners"]
        for w in winners:
            wins[w] += 1
        if result["draw"]:
            draws += 1
        if len(winners) > 1:
            ties += 1
        scores = result["scores"]
        if scores is None or not all(isinstance(x, (int, float)) for x in scores):
            have_scores = False
        else:
            for p in range(players):
                score_sums[p] += scores[p]
        if on_game is not None:
            on_game(i + 1)
    elapsed = time.perf_counter() - started
    n = max(games, 1)
    if not seats:
        seats = [f"player {p + 1}" for p in range(players)]
    return {
        "ruleset": game.name,
        "title": game.title,
        "games": games,
        "players": players,
        "seed": seed,
        "options": jsonable(game.parse_options(options)),
        "seats": [
            {
                "seat": p + 1,
                "name": seats[p],
                "agent": agents[p],
                "wins": wins[p],
                "win_rate": wins[p] / n,
                "mean_score": (score_sums[p] / n) if have_scores and games else None,
            }
            for p in range(players)
        ],
        "mean_decisions": decisions / n,
        "draws": draws,
        "ties": ties,
        "seconds": elapsed,
        "games_per_second": games / elapsed if elapsed > 0 else 0.0,
    }
