"""One bot game watched closely: what the analysis needs of it, as plain JSON data.

The game is played by :func:`rulepack.agents.bots.play_out`; before each action the
watcher reads, through the public engine API, the legal actions (``.choice``, the
decision point, and ``.alt``, the alternative within it) and the action chosen,
and at the first decision of every turn (at every decision before the first turn,
and at the end) each seat's score, to follow who leads: read again only when a
zone or variable the score depends on has changed
(:class:`~rulepack.analysis.reads.ScoreCache`).

Legal actions come in the order of their alternatives in the ``choose``
(:meth:`~rulepack.engine.state.State.legal_actions`): the first action's and the
last action's alternatives are legal, and only when they are not neighbours do the
actions between them need a look.

A turn begins at a decision when the turn's player (``current``), the turn count
or the round differ from the last decision's inside a turn: so every turn of a
``turns`` loop counts, and a new loop's first turn too.
"""

from __future__ import annotations

import operator
import weakref
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from rulepack.agents.bots import make_agent, play_out
from rulepack.analysis.reads import ScoreCache, score_reads
from rulepack.engine.inspect import round_number
from rulepack.engine.state import State
from rulepack.errors import Diagnostic, Location, RulepackError

if TYPE_CHECKING:  # pragma: no cover
    from rulepack.engine.actions import Action
    from rulepack.game import Game

#: The diagnostic code of a game stopped at its decision limit.
LIMIT_CODE = "step-limit"


def alternative_offsets(inst: Any) -> list[int]:
    """The flat index of each decision point's first alternative: alternative
    ``a`` of choice ``c`` is number ``offsets[c] + a``; the last entry is their count."""
    offsets = [0]
    for choice in inst.choices:
        offsets.append(offsets[-1] + len(choice.alternatives))
    return offsets


_ALT = operator.attrgetter("alt")

#: Per compiled instance, what every game of it needs: :func:`alternative_offsets`
#: and :func:`~rulepack.analysis.reads.score_reads` (computed once).
_FACTS: "weakref.WeakKeyDictionary[Any, tuple[list[int], Any]]" = weakref.WeakKeyDictionary()


def instance_facts(inst: Any) -> tuple[list[int], Any]:
    """``(alternative_offsets(inst), score_reads(inst))``, computed once per instance."""
    facts = _FACTS.get(inst)
    if facts is None:
        facts = _FACTS[inst] = (alternative_offsets(inst), score_reads(inst))
    return facts


def leader(scores: Sequence[float], lowest: bool) -> int | None:
    """The seat with the single best score (the lowest one with ``lowest``), or
    ``None`` when several share it."""
    best = min(scores) if lowest else max(scores)
    at = [p for p, s in enumerate(scores) if s == best]
    return at[0] if len(at) == 1 else None


def lead_story(samples: Sequence[tuple[int, int | None]], winners: Sequence[int],
               decisions: int) -> tuple[int, float | None]:
    """Lead changes, and the share of the game after which the eventual winner
    never lost the lead.

    :param samples: ``(decisions so far, leader or None)`` in game order, the last
        one at the end of the game.
    :param winners: the winning seats; the share is only defined for one winner.
    :returns: ``(changes, share)``: ``changes`` counts the times the sole leader
        became another seat (a shared lead in between is no leader, and does not
        count); ``share`` is the decisions before the winner took the lead for
        good, over all decisions (0.0: led from the first turn; 1.0: never led
        alone at the end, e.g. a winner the rules name, not the score); ``None``
        without a single winner or without samples.
    """
    changes = 0
    last: int | None = None
    for _, who in samples:
        if who is not None:
            if last is not None and who != last:
                changes += 1
            last = who
    if len(winners) != 1 or not samples:
        return changes, None
    winner = winners[0]
    since: int | None = None
    for at, who in samples:
        if who == winner:
            if since is None:
                since = at
        else:
            since = None
    if since is None or decisions == 0:
        return changes, 1.0 if since is None else 0.0
    return changes, since / decisions


def margin(scores: Sequence[float] | None, lowest: bool) -> float | None:
    """The final score margin: how far the best score is ahead of the next one."""
    if scores is None or len(scores) < 2:
        return None
    ordered = sorted(scores, reverse=not lowest)
    return abs(ordered[0] - ordered[1])


def observe(game: "Game", seed: int, seats: Sequence[str],
            options: dict[str, Any] | None, max_decisions: int) -> dict[str, Any]:
    """Play one game with the agents ``seats`` (one name per seat) and watch it.

    :returns: plain data: ``winners`` (seats, 0-based), ``draw``, ``scores`` (or
        ``None``), ``limit`` (stopped at ``max_decisions``; no winners then),
        ``decisions``, ``turns`` (turns begun), ``rounds`` (the highest round
        number seen), ``forced`` (decisions with one legal action), ``branching``
        (per turn number, ``[legal actions summed, decisions]``: turn 0 holds the
        decisions before the first turn, and each later one those from its
        start to the next turn's, decisions outside turns included),
        ``lead_changes``, ``decided_at`` (see :func:`lead_story`), ``margin``; and per decision point ``pending`` (decisions taken there), per
        flat alternative (:func:`alternative_offsets`) ``legal`` (decisions at
        which it had a legal action) and ``chosen``.
    :raises RulepackError: the game fails other than by its decision limit.
    """
    players = len(seats)
    state = game.new_game(players, seed=seed, options=options, max_decisions=max_decisions)
    inst = game.instance(players, options)
    offsets, reads = instance_facts(inst)
    legal_n = [0] * offsets[-1]
    chosen_n = [0] * offsets[-1]
    branching: list[list[int]] = [[0, 0]]
    has_score = inst.score_fn is not None
    cache = ScoreCache(State.scores, reads) if has_score else None
    lowest = inst.winner_rule == "lowest"
    samples: list[tuple[int, int | None]] = []
    forced = 0
    turns = rounds = 0
    turn_key: tuple[int, Any, Any] | None = None
    row = branching[0]
    led: list[Any] = [None, None]            # the last scores read, and their leader

    def watch(st: "State", player: int, action: "Action") -> None:
        nonlocal forced, turns, rounds, turn_key, row
        legal = st.legal_actions()
        n = len(legal)
        v = st.position.vars
        current = v.get("current")
        round_ = v.get("round") or 0
        sample = turns == 0
        if current is not None:
            key = (st.position.turns, round_, current)
            if key != turn_key:              # a turn begins
                turn_key = key
                turns += 1
                row = [0, 0]
                branching.append(row)
                sample = True
        if round_ > rounds:
            rounds = round_
        if sample and cache is not None:
            scores = cache.scores(st)
            if scores is not None:
                if scores is not led[0]:
                    led[0], led[1] = scores, leader(scores, lowest)
                samples.append((st.decisions, led[1]))
        row[0] += n
        row[1] += 1
        base = offsets[action.choice]
        chosen_n[base + action.alt] += 1
        if n == 1:
            forced += 1
        # legal actions come in the order of their alternatives: the first and the
        # last are legal, and what lies between them only if they are not neighbours
        first = legal[0].alt
        last = legal[-1].alt
        legal_n[base + first] += 1
        if last != first:
            legal_n[base + last] += 1
            if last - first > 1:
                for alt in set(map(_ALT, legal)) - {first, last}:
                    legal_n[base + alt] += 1

    bots = [make_agent(name, seed, p) for p, name in enumerate(seats)]
    limit = False
    try:
        play_out(state, bots, on_action=watch)
    except RulepackError as exc:
        if exc.diagnostics[0].code != LIMIT_CODE:
            raise
        limit = True
    if limit:
        winners: list[int] = []
        draw = False
        scores = None
    else:
        result = state.result()
        winners, draw = list(result["winners"]), bool(result["draw"])
        scores = result["scores"]
        if scores is not None and not all(isinstance(x, (int, float)) for x in scores):
            scores = None
    if has_score and scores is not None:
        samples.append((state.decisions, leader(scores, lowest)))
    changes, decided = lead_story(samples, winners, state.decisions)
    # each decision chose one alternative of its decision point
    pending = [sum(chosen_n[offsets[c]:offsets[c + 1]]) for c in range(len(inst.choices))]
    return {
        "winners": winners, "draw": draw, "scores": scores, "limit": limit,
        "decisions": state.decisions, "turns": turns, "rounds": max(rounds, round_number(state)),
        "forced": forced, "branching": branching,
        "lead_changes": changes if has_score else None, "decided_at": decided,
        "margin": margin(scores, lowest),
        "pending": pending, "legal": legal_n, "chosen": chosen_n,
    }


def failed_game_note(game: "Game", index: int, seed: int) -> Diagnostic:
    """The note that names a failed game of a run: which one, and how to play it again."""
    return Diagnostic(f"in game {index + 1} of the analysis (play it with --seed {seed})",
                      Location(game.file), severity="note", code="analysis")
