"""The report of one variant: what the watched games (see
:func:`rulepack.analysis.trace.observe`) add up to.

Records are taken in game order, whatever order they came in, so every sum comes
out the same to the last bit on every backend.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, overload

from rulepack.analysis.rules import phases_reached
from rulepack.analysis.stats import distribution, rate


def balance(records: Sequence[dict[str, Any]], seat_names: Sequence[str],
            agents: Sequence[str], teams: Sequence[Sequence[int]]) -> dict[str, Any]:
    """Wins per seat (a shared win counts for each winner) with 95% intervals;
    the first player's (seat 1's) advantage over a fair share, the mean win rate of
    all seats; draws and shared wins; wins per agent when several agents play; and
    per team (seats, 0-based) when teams are given: a team wins a game any of its
    seats wins."""
    n = len(records)
    players = len(seat_names)
    seat_wins = [0] * players
    agent_games: dict[str, int] = {}
    agent_wins: dict[str, int] = {}
    team_wins = [0] * len(teams)
    draws = shared = 0
    for r in records:
        draws += int(r["draw"])
        shared += int(len(r["winners"]) > 1)
        for w in r["winners"]:
            seat_wins[w] += 1
        for p, name in enumerate(r["seats"]):
            agent_games[name] = agent_games.get(name, 0) + 1
            agent_wins[name] = agent_wins.get(name, 0) + int(p in r["winners"])
        for t, team in enumerate(teams):
            team_wins[t] += int(any(w in team for w in r["winners"]))
    seats = [{"seat": p + 1, "name": seat_names[p], **rate(seat_wins[p], n)}
             for p in range(players)]
    fair = sum(seat_wins) / (players * n) if n else 0.0
    first = rate(seat_wins[0], n)      # seats[0]'s
    out: dict[str, Any] = {
        "seats": seats,
        "first_player": {"rate": first["rate"], "ci95": first["ci95"], "fair": fair,
                         "advantage": first["rate"] - fair},
        "draws": rate(draws, n),
        "shared_wins": rate(shared, n),
    }
    if len(set(agents)) > 1:
        out["agents"] = [{"agent": a, "games": agent_games.get(a, 0),
                          **rate(agent_wins.get(a, 0), agent_games.get(a, 0))}
                         for a in dict.fromkeys(agents)]
    if teams:
        out["teams"] = [{"team": t + 1, "seats": [p + 1 for p in team],
                         **rate(team_wins[t], n)} for t, team in enumerate(teams)]
    return out


def length(records: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Decisions, turns and rounds per game (distributions, every game counted),
    the games stopped at the decision limit, and ``histogram``: ``[decisions,
    games]`` pairs, by increasing length."""
    counts: dict[int, int] = {}
    for r in records:
        counts[r["decisions"]] = counts.get(r["decisions"], 0) + 1
    return {
        "histogram": [[d, counts[d]] for d in sorted(counts)],
        "decisions": distribution([r["decisions"] for r in records]),
        "turns": distribution([r["turns"] for r in records]),
        "rounds": distribution([r["rounds"] for r in records]),
        "limit": rate(sum(int(r["limit"]) for r in records), len(records)),
    }


def drama(records: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Final score margins, lead changes and the share of the game after which the
    winner never lost the lead, over the games where each is defined (games with
    scores; ``decided_at`` needs a single winner)."""
    def values(key: str) -> list[float]:
        return [r[key] for r in records if r[key] is not None]
    return {"margin": distribution(values("margin")),
            "lead_changes": distribution(values("lead_changes")),
            "decided_at": distribution(values("decided_at"))}


def choice(records: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The branching factor (legal actions per decision): overall and by turn number
    (``turn`` 0 is before the first turn, or the whole game if it has no turns);
    and the forced moves, decisions with one legal action."""
    forced = 0
    totals: list[int] = []
    counts: list[int] = []
    for r in records:
        forced += r["forced"]
        branching = r["branching"]
        if len(branching) > len(totals):
            grow = len(branching) - len(totals)
            totals += [0] * grow
            counts += [0] * grow
        for t, (total, count) in enumerate(branching):
            totals[t] += total
            counts[t] += count
    legal, decisions = sum(totals), sum(counts)
    return {
        "branching": legal / decisions if decisions else None,
        "by_turn": [{"turn": t, "mean": total / count, "decisions": count}
                    for t, (total, count) in enumerate(zip(totals, counts)) if count],
        "forced": rate(forced, decisions),
    }


def coverage(records: Sequence[dict[str, Any]], rules: dict[str, Any]) -> dict[str, Any]:
    """Per alternative: decisions at its decision point (``offered``), decisions at
    which it was legal, times chosen, games in which it was legal; per phase: games
    that reached it (see :mod:`rulepack.analysis.rules`). Alternatives never legal
    and phases never reached are dead rules, listed in ``dead`` as
    ``"FILE:LINE: ..."``. A phase done in several places compiles to several
    decision points: its alternatives are counted together, one row per source line."""
    alts = rules["alternatives"]
    phases = rules["phases"]
    rows: dict[tuple[str, str], list[int]] = {}        # (at, text) -> flat indices
    for i, a in enumerate(alts):
        rows.setdefault((a["at"], a["text"]), []).append(i)
    groups = list(rows.values())
    offered = [0] * len(groups)
    legal = [0] * len(groups)
    chosen = [0] * len(groups)
    games_legal = [0] * len(groups)
    reached = [0] * len(phases)
    at_choice = [[alts[i]["choice"] for i in flat] for flat in groups]
    for r in records:
        r_legal, r_chosen, r_pending = r["legal"], r["chosen"], r["pending"]
        for g, flat in enumerate(groups):
            if len(flat) == 1:
                lg = r_legal[flat[0]]
                chosen[g] += r_chosen[flat[0]]
                offered[g] += r_pending[at_choice[g][0]]
            else:
                lg = sum(r_legal[i] for i in flat)
                chosen[g] += sum(r_chosen[i] for i in flat)
                offered[g] += sum(r_pending[c] for c in at_choice[g])
            legal[g] += lg
            if lg:
                games_legal[g] += 1
        for k, yes in enumerate(phases_reached(phases, r["pending"], r["chosen"])):
            reached[k] += int(yes)
    n = len(records)
    alt_rows = []
    for g, flat in enumerate(groups):
        first = alts[flat[0]]
        alt_rows.append({"text": first["text"], "at": first["at"],
                         "choices": [alts[i]["choice"] for i in flat],
                         "offered": offered[g], "legal": legal[g],
                         "legal_rate": legal[g] / offered[g] if offered[g] else 0.0,
                         "chosen": chosen[g], "games_legal": games_legal[g],
                         "dead": legal[g] == 0})
    phase_rows = [{"name": p["name"], "at": p["at"], "reached": reached[k],
                   "reached_rate": reached[k] / n if n else 0.0, "dead": reached[k] == 0}
                  for k, p in enumerate(phases)]
    dead = [f"{a['at']}: action {a['text']!r} was never legal" for a in alt_rows if a["dead"]]
    dead += [f"{p['at']}: phase {p['name']!r} was never reached" for p in phase_rows
             if p["dead"]]
    return {"alternatives": alt_rows, "phases": phase_rows, "dead": dead}


def variant_report(records: Sequence[dict[str, Any]], rules: dict[str, Any],
                   seat_names: Sequence[str], agents: Sequence[str],
                   teams: Sequence[Sequence[int]]) -> dict[str, Any]:
    """Every section of one variant's report, from its games' records (any order)."""
    ordered = sorted(records, key=lambda r: r["index"])
    return {
        "games": len(ordered),
        "balance": balance(ordered, seat_names, agents, teams),
        "length": length(ordered),
        "drama": drama(ordered),
        "choice": choice(ordered),
        "coverage": coverage(ordered, rules),
    }


@overload
def finite(value: dict[str, Any]) -> dict[str, Any]: ...
@overload
def finite(value: object) -> object: ...


def finite(value: object) -> object:
    """``value`` with every non-finite float replaced by ``None`` (JSON has no NaN);
    a dict stays a dict."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: finite(v) for k, v in value.items()}
    if isinstance(value, list):
        return [finite(v) for v in value]
    return value
