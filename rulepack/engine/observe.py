"""What a player knows, as strings and fixed-shape tensors; returns and rewards.

The part of the engine contract that learning algorithms read. An
:class:`Observer` (as OpenSpiel's observers) of a program gives, for a position
and a player:

- ``observation_string``: the player's view now (:mod:`rulepack.engine.views`)
  as canonical JSON;
- ``information_state_string``: everything the player has observed, in order:
  for each step of the game (the setup, each action, each chance outcome) the
  events as the player saw them — its own actions in full, the others' with the
  pieces it cannot see after them hidden, reveals, shuffles without their
  order, random draws as the player sees the drawn value — then a digest
  (SHA-256) of its views after each earlier step, in order, and its view now in
  full (the digest keeps the string's length linear in the game's). An
  explicit-chance position keeps the positions it went through; a sampled-chance
  one has only the present, so its string is the history as the player sees it
  now and its view;
- ``observation_tensor`` and ``information_state_tensor``: flat lists of floats
  whose length depends only on the program (:mod:`rulepack.engine.tensors`): the
  view's pieces, variables, scores and flow, and for the information state where
  the player last saw each piece and (for a ruleset that declares its longest
  game) the decisions as the player saw them; a piece the player cannot see adds
  only to its zone's (and cell's) hidden counts, by its look, never to a row of
  its own.

:func:`returns` gives +1 for a winner, -1 for a loser, 0 for all in a draw and
before the end (``scores=True``: the scores instead); :func:`rewards` the change
of the returns over the last step.

Nothing here changes a position; what was said of a position is kept with it
(``Position.said``) until it changes, so asking again costs one lookup.
"""

from __future__ import annotations

import hashlib
import json
from typing import TYPE_CHECKING

from rulepack.engine.actions import Action, ChanceEvent, Event, Reveal
from rulepack.engine.dice import roll_text
from rulepack.engine.outcome import check_scores, outcome, scores as all_scores
from rulepack.engine.queries import describe_for, visible
from rulepack.engine.tensors import (TensorLayout, information_state_entries,
                                     observation_entries, said, tensor_layout)
from rulepack.engine.values import Player, describe
from rulepack.engine.views import build_view

if TYPE_CHECKING:  # pragma: no cover
    from rulepack.engine.position import Position
    from rulepack.engine.program import Program


def _seat(program: "Program", player: object) -> int:
    if type(player) is bool or not isinstance(player, int) \
            or not 0 <= player < program.num_players:
        raise ValueError(f"{player!r} is not a seat of this game")
    return int(player)


class Observer:
    """What the players of one program observe of its positions.

    :param program: the program whose positions it observes.

    Its methods take a position and a seat (:raises ValueError: not a seat).
    The tensors' layout is the program's (:func:`~rulepack.engine.tensors.tensor_layout`).
    """

    def __init__(self, program: "Program") -> None:
        self.program = program
        self.layout: TensorLayout = tensor_layout(program)

    @property
    def observation_tensor_shape(self) -> list[int]:
        """The shape of :meth:`observation_tensor`, fixed per program."""
        return [self.layout.size]

    @property
    def information_state_tensor_shape(self) -> list[int]:
        """The shape of :meth:`information_state_tensor`, fixed per program."""
        return [self.layout.information_size]

    def observation_string(self, st: "Position", player: int) -> str:
        """``player``'s view now as canonical JSON (sorted keys, no spaces)."""
        p = _seat(self.program, player)
        cache = said(st, "observation")
        text = cache.get(p)
        if text is None:
            text = cache[p] = json.dumps(build_view(st, p), sort_keys=True,
                                         separators=(",", ":"), default=str)
        return str(text)

    def information_state_string(self, st: "Position", player: int) -> str:
        """Everything ``player`` has observed, in order, and nothing else: the
        events of every step as the player saw them (see the module's
        description), a digest of the player's views after each earlier step,
        and its view now."""
        p = _seat(self.program, player)
        lines: list[str] = []
        at: "Position | None" = st
        while at is not None:
            lines.append(self._step_lines(at, p))
            at = getattr(at.rng, "previous", None)
        previous = getattr(st.rng, "previous", None)
        past = self._view_chain(previous, p) if previous is not None else "-"
        return "\n".join([*reversed(lines), f"views before: {past}",
                          self.observation_string(st, p)])

    def observation_tensor(self, st: "Position", player: int) -> list[float]:
        """``player``'s observation as a flat list of floats (see
        :mod:`rulepack.engine.tensors`)."""
        out = [0.0] * self.layout.size
        for i, v in self.observation_entries(st, player).items():
            out[i] = v
        return out

    def information_state_tensor(self, st: "Position", player: int) -> list[float]:
        """The observation tensor, then where ``player`` last saw each piece (zone
        and cell one-hot; zeros for a piece never seen), then (for a ruleset that
        declares ``at most N decisions``) its decisions as ``player`` saw them.
        Explicit-chance positions remember every position they went through; a
        sampled-chance position only its present."""
        out = [0.0] * self.layout.information_size
        for i, v in self.information_state_entries(st, player).items():
            out[i] = v
        return out

    def observation_entries(self, st: "Position", player: int) -> dict[int, float]:
        """The non-zero entries of :meth:`observation_tensor`, index → value (for
        adapters that fill arrays of their own)."""
        return observation_entries(st, _seat(self.program, player))

    def information_state_entries(self, st: "Position", player: int) -> dict[int, float]:
        """The non-zero entries of :meth:`information_state_tensor`."""
        return information_state_entries(st, _seat(self.program, player))

    def _step_lines(self, st: "Position", p: int) -> str:
        """The events of the step that led to ``st``, as ``p`` saw them."""
        cache = said(st, "step")
        text = cache.get(p)
        if text is None:
            previous = getattr(st.rng, "previous", None)
            start = len(previous.history) if previous is not None else 0
            lines: list[str] = []
            node = st.rng.node
            if node is not None:
                # in the middle of a step: who acted (what they did is told once the
                # step ends, as the player sees it then) and how many draws were made
                # (their values are not seen until the step ends)
                step = getattr(st.rng, "step", None)
                if step is not None:
                    lines.append(_action_text(st, step, p) if step.player == p
                                 else f"{_who(st, step.player)} acted")
                lines.append(f"chance: {node.statement}, "
                             f"draw {len(getattr(st.rng, 'queue', ())) + 1}")
            else:
                lines = [_event_text(st, e, p) for e in st.history[start:]]
            text = cache[p] = "\n".join(lines) if lines else "(nothing)"
        return str(text)

    def _view_chain(self, st: "Position", p: int) -> str:
        """A digest of ``p``'s views at every position up to ``st``, in order."""
        cache = said(st, "chain")
        digest = cache.get(p)
        if digest is None:
            previous = getattr(st.rng, "previous", None)
            before = self._view_chain(previous, p) if previous is not None else ""
            digest = cache[p] = hashlib.sha256(
                (before + self.observation_string(st, p)).encode()).hexdigest()[:32]
        return str(digest)


def returns(st: "Position", scores: bool = False) -> list[float]:
    """Each seat's return: +1 for a winner, -1 for a loser, 0 for everyone in a
    draw (no winner, or every seat a winner; one player alone without the win has
    lost) and before the end; ``scores=True``: each seat's score (0 without a
    score rule), at any time.

    :raises RulesetRuntimeError: (``scores=True``, at the end) the scores break the
        ruleset's ``scores from ... to ...`` or ``scores sum to ...``
        (:func:`rulepack.engine.outcome.check_scores`)."""
    program = st.program
    n = program.num_players
    if scores:
        values = all_scores(st)
        if values is None:
            return [0.0] * n
        rule = program.score
        if st.terminal and rule is not None and (rule.declared_range is not None
                                                 or rule.declared_sum is not None):
            check_scores(st, values)
        return [float(v) for v in values]
    if not st.terminal:
        return [0.0] * n
    winners = outcome(st)["winners"]
    if n == 1:                                 # a patience is won or lost
        return [1.0 if winners else -1.0]
    if not winners or len(winners) == n:      # nobody or everybody won: a draw
        return [0.0] * n
    return [1.0 if q in winners else -1.0 for q in range(n)]


def rewards(st: "Position", scores: bool = False) -> list[float]:
    """The change of :func:`returns` over the last step (explicit chance: since
    the previous position; sampled chance, which keeps no previous position: the
    returns themselves for win/loss, which change only at the end).

    :raises ValueError: score rewards of a sampled-chance position."""
    now = returns(st, scores)
    previous = getattr(st.rng, "previous", None)
    if previous is None:
        if scores:
            raise ValueError("score rewards need the previous position: "
                             "play with new_game(..., chance='explicit')")
        return now
    before = returns(previous, scores)
    return [a - b for a, b in zip(now, before)]


def max_game_length(st: "Position") -> int:
    """The most decisions (chance outcomes not counted) a game may take: the
    bound the ruleset declares (``at most N decisions``) if it declares one and
    it is the smaller, else the decision limit (``new_game(max_decisions=...)``).
    The engine stops a game past it with an error (located at the declaration
    for a declared bound: the bound was wrong); the adapters truncate a game
    there (terminal, returns 0 for all) — never a guessed result."""
    longest = st.program.longest
    return int(st.max_decisions if longest is None else min(longest, st.max_decisions))


def _action_text(st: "Position", action: Action, p: int) -> str:
    if action.player == p:
        return f"{_who(st, action.player)}: {action.text}"
    return f"{_who(st, action.player)}: {action.render(describe_for(st, p))}"


def _who(st: "Position", seat: int) -> str:
    return describe(Player(seat), st.program.seat_names)


def _event_text(st: "Position", event: Event, p: int) -> str:
    if isinstance(event, Action):
        return _action_text(st, event, p)
    if isinstance(event, ChanceEvent):
        if event.kind == "shuffle":
            return f"chance: {event.text}"
        if event.kind == "roll":
            return "chance: " + roll_text(event, lambda d: visible(st, d, p),
                                          lambda d: d.look(st.face[d.id]), describe_for(st, p))
        return f"chance: {event.kind} {describe_for(st, p)(event.outcome)}"
    if isinstance(event, Reveal):
        return event.text
    return str(event)  # pragma: no cover


def game_type(program: "Program", start: "Position | None" = None,
              returns: str = "outcome") -> dict[str, object]:
    """What kind of game an instance is, in OpenSpiel's terms.

    :param returns: ``"outcome"`` (+1/-1/0 by who won) or ``"score"`` (each
        seat's final score, :meth:`Observations.returns` with ``scores=True``).
    :returns: ``{"dynamics": "sequential", "chance_mode": "explicit_stochastic" |
        "deterministic", "information": "perfect" | "imperfect", "utility":
        "zero_sum" | "constant_sum" | "general_sum", "utility_sum": number |
        None, "reward_model": "terminal", "min_utility": number, "max_utility":
        number}``. Chance: whether the ruleset has a ``shuffle`` or ``random``.
        Perfect information: every piece is face up (no ``move`` says ``face
        down``, no ``flip`` turns a piece down or over) and, in ``start`` (a state
        after the setup) if given, every piece out of the box is visible to every
        seat. Outcome returns are -1 to 1, zero-sum with two players (a win is the
        other's loss, a draw is 0 for both). Score returns are in the range of the
        final scores (``scores from LO to HI``, or derived from the score:
        ``ScoreRule.bounds``), zero-sum or constant-sum when the ruleset
        says what they add up to (``scores sum to N``).
    :raises ValueError: ``returns`` is neither, or ``"score"`` for a ruleset
        without a score or without a range of its scores.
    """
    chance = program.has_chance
    hiding = program.may_hide
    if start is not None and not hiding:
        hiding = any(start.loc[piece.id] != 0 and not visible(start, piece, p)
                     for piece in program.pieces for p in range(program.num_players))
    info: dict[str, object] = {
        "dynamics": "sequential",
        "chance_mode": "explicit_stochastic" if chance else "deterministic",
        "information": "imperfect" if hiding else "perfect",
        "utility": "zero_sum" if program.num_players == 2 else "general_sum",
        "utility_sum": 0.0 if program.num_players == 2 else None,
        "reward_model": "terminal",
        "min_utility": -1.0,
        "max_utility": 1.0,
    }
    if returns == "score":
        info.update(_score_utility(program))
    elif returns != "outcome":
        raise ValueError(f"returns must be 'outcome' or 'score', not {returns!r}")
    return info


def _score_utility(program: "Program") -> dict[str, object]:
    """The utility entries of :func:`game_type` for score returns."""
    rule = program.score
    if rule is None:
        raise ValueError(f"returns 'score': the ruleset {program.name} has no score "
                         "(score(p) = ...)")
    bounds = None if rule.bounds is None else rule.bounds.get()
    if bounds is None:
        raise ValueError(f"returns 'score': the range of {program.name}'s scores cannot be "
                         "derived from its score; declare it in its game declaration "
                         "(scores from LOWEST to HIGHEST)")
    total = rule.declared_sum
    return {"min_utility": float(bounds[0]), "max_utility": float(bounds[1]),
            "utility": "general_sum" if total is None else
            ("zero_sum" if total == 0 else "constant_sum"),
            "utility_sum": None if total is None else float(total)}
