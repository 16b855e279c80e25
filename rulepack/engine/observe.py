"""What a player knows, as strings and fixed-shape tensors; returns and rewards.

The part of the engine contract that learning algorithms read (mixed into
:class:`~rulepack.engine.state.State` as :class:`Observations`):

- ``observation_string(p)``: the player's view now (:mod:`rulepack.engine.views`)
  as canonical JSON;
- ``information_state_string(p)``: everything ``p`` has observed, in order: for
  each step of the game (the setup, each action, each chance outcome) the
  events as ``p`` saw them — its own actions in full, the others' with the
  pieces it cannot see after them hidden, reveals, shuffles without their
  order, random draws as ``p`` sees the drawn value — then a digest (SHA-256)
  of ``p``'s views after each earlier step, in order, and ``p``'s view now in
  full (the digest keeps the string's length linear in the game's). An
  explicit-chance state keeps the positions it went through; a sampled-chance
  state has only the present, so its string is the history as ``p`` sees it
  now and its view;
- ``observation_tensor(p)`` and ``information_state_tensor(p)``: flat lists of
  floats whose length depends only on the instance (:mod:`rulepack.engine.tensors`):
  the view's pieces, variables, scores and flow, and for the information state
  where ``p`` last saw each piece and (for a ruleset that declares its longest
  game) the decisions as ``p`` saw them; a piece ``p`` cannot see adds only to
  its zone's (and cell's) hidden counts, by its look, never to a row of its own;
- ``returns()``: +1 for a winner, -1 for a loser, 0 for all in a draw and before
  the end (``scores=True``: the scores instead); ``rewards()``: the change of
  ``returns()`` over the last step.

Nothing here changes the state; the strings of past positions are kept with
those positions, so asking again costs one view.
"""

from __future__ import annotations

import hashlib
import json
from typing import TYPE_CHECKING, Any

from rulepack.engine.actions import Action, ChanceEvent, Reveal
from rulepack.engine.dice import roll_text
from rulepack.engine.outcome import check_scores
from rulepack.engine.tensors import (TensorLayout, information_state_entries,
                                     observation_entries, tensor_layout)
from rulepack.engine.values import Player
from rulepack.errors import Diagnostic, Location, RulesetRuntimeError
from rulepack.ir import nodes

if TYPE_CHECKING:  # pragma: no cover
    from rulepack.compiler.instance import Instance
    from rulepack.engine.state import State


def _seat(st: "State", player: Any) -> int:
    if type(player) is bool or not isinstance(player, int) \
            or not 0 <= player < st.inst.num_players:
        raise ValueError(f"{player!r} is not a seat of this game")
    return int(player)


class Observations:
    """Observation strings and tensors, returns and rewards (mixed into ``State``)."""

    def observation_string(self: "State", player: int) -> str:  # type: ignore[misc]
        """``player``'s view now as canonical JSON (sorted keys, no spaces).

        :raises ValueError: ``player`` is not a seat.
        """
        p = _seat(self, player)
        cache = self.__dict__.setdefault("_obs_strings", {})
        text = cache.get(p)
        if text is None:
            text = cache[p] = json.dumps(self.view(p), sort_keys=True, separators=(",", ":"),
                                         default=str)
        return str(text)

    def information_state_string(self: "State", player: int) -> str:  # type: ignore[misc]
        """Everything ``player`` has observed, in order, and nothing else: the
        events of every step as the player saw them (see the module's
        description), a digest of the player's views after each earlier step,
        and its view now. :raises ValueError: ``player`` is not a seat."""
        p = _seat(self, player)
        lines: list[str] = []
        at: Any = self
        while at is not None:
            lines.append(_step_lines(at, p))
            at = getattr(at.rng, "previous", None)
        previous = getattr(self.rng, "previous", None)
        past = _view_chain(previous, p) if previous is not None else "-"
        return "\n".join([*reversed(lines), f"views before: {past}",
                          self.observation_string(p)])

    def observation_tensor_shape(self: "State") -> list[int]:  # type: ignore[misc]
        """The shape of :meth:`observation_tensor`, fixed per instance."""
        return [tensor_layout(self.inst).size]

    def information_state_tensor_shape(self: "State") -> list[int]:  # type: ignore[misc]
        """The shape of :meth:`information_state_tensor`, fixed per instance."""
        return [tensor_layout(self.inst).information_size]

    def observation_tensor(self: "State", player: int) -> list[float]:  # type: ignore[misc]
        """``player``'s observation as a flat list of floats (see :class:`TensorLayout`).

        :raises ValueError: ``player`` is not a seat.
        """
        out = [0.0] * tensor_layout(self.inst).size
        for i, v in self.observation_entries(player).items():
            out[i] = v
        return out

    def information_state_tensor(self: "State", player: int) -> list[float]:  # type: ignore[misc]
        """The observation tensor, then where ``player`` last saw each piece (zone
        and cell one-hot; zeros for a piece never seen), then (for a ruleset that
        declares ``at most N decisions``) its decisions as ``player`` saw them.
        Explicit-chance states remember every position they went through; a
        sampled-chance state only its present (its decisions as the player sees
        them now). :raises ValueError: ``player`` is not a seat."""
        out = [0.0] * tensor_layout(self.inst).information_size
        for i, v in self.information_state_entries(player).items():
            out[i] = v
        return out

    def observation_entries(self: "State", player: int) -> dict[int, float]:  # type: ignore[misc]
        """The non-zero entries of :meth:`observation_tensor`, index → value (for
        adapters that fill arrays of their own). :raises ValueError: ``player``
        is not a seat."""
        return observation_entries(self, _seat(self, player))

    def information_state_entries(self: "State", player: int) -> dict[int, float]:  # type: ignore[misc]
        """The non-zero entries of :meth:`information_state_tensor`.
        :raises ValueError: ``player`` is not a seat."""
        return information_state_entries(self, _seat(self, player))

    def returns(self: "State", scores: bool = False) -> list[float]:  # type: ignore[misc]
        """Each seat's return: +1 for a winner, -1 for a loser, 0 for everyone in
        a draw (no winner, or every seat a winner; one player alone without the
        win has lost) and before the end; ``scores=True``: each seat's score (0 without
        a score rule), at any time.

        :raises RulesetRuntimeError: (``scores=True``, at the end) the scores break
            the ruleset's ``scores from ... to ...`` or ``scores sum to ...``
            (:func:`rulepack.engine.outcome.check_scores`)."""
        n = self.inst.num_players
        if scores:
            values = self.scores()
            if values is None:
                return [0.0] * n
            if self.terminal and (self.inst.score_range is not None
                                  or self.inst.score_sum is not None):
                check_scores(self, values)
            return [float(v) for v in values]
        if not self.terminal:
            return [0.0] * n
        winners = self.result()["winners"]
        if n == 1:                                 # a patience is won or lost
            return [1.0 if winners else -1.0]
        if not winners or len(winners) == n:      # nobody or everybody won: a draw
            return [0.0] * n
        return [1.0 if q in winners else -1.0 for q in range(n)]

    def rewards(self: "State", scores: bool = False) -> list[float]:  # type: ignore[misc]
        """The change of :meth:`returns` over the last step (explicit chance: since
        the previous position; sampled chance, which keeps no previous position:
        the returns themselves for win/loss, which change only at the end)."""
        now = self.returns(scores)
        previous = getattr(self.rng, "previous", None)
        if previous is None:
            if scores:
                raise ValueError("score rewards need the previous position: "
                                 "play with new_game(..., chance='explicit')")
            return now
        before = previous.returns(scores)
        return [a - b for a, b in zip(now, before)]

    @property
    def max_game_length(self: "State") -> int:  # type: ignore[misc]
        """The most decisions (chance outcomes not counted) a game may take: the
        bound the ruleset declares (``at most N decisions``) if it declares one and
        it is the smaller, else the decision limit (``new_game(max_decisions=...)``).
        The engine stops a game past it with an error (located at the declaration
        for a declared bound: the bound was wrong); the adapters truncate a game
        there (terminal, returns 0 for all) — never a guessed result."""
        longest = self.inst.longest
        return int(self.max_decisions if longest is None else min(longest, self.max_decisions))


def past_longest(inst: "Instance") -> RulesetRuntimeError:
    """The error of a game that went on past the decisions its ruleset declares
    (``at most N decisions``), located at that declaration."""
    expr = (inst.ir.get("game") or {}).get("longest") or {}
    at = expr.get("at") or [0, 0]
    return RulesetRuntimeError(Diagnostic(
        f"the game did not end within the {inst.longest} decisions its ruleset declares "
        "(at most ... decisions)", Location(inst.file, at[0] or None, at[1] or None),
        code="past-longest", hint="a game this long shows that the bound is wrong: raise it"))


def _step_lines(st: "State", p: int) -> str:
    """The events of the step that led to ``st``, as ``p`` saw them (kept with
    the position)."""
    cache = st.__dict__.setdefault("_step_lines", {})
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
            lines.append(f"chance: {node.statement}, draw {len(getattr(st.rng, 'queue', ())) + 1}")
        else:
            lines = [_event_text(st, e, p) for e in st.history[start:]]
        text = cache[p] = "\n".join(lines) if lines else "(nothing)"
    return str(text)


def _view_chain(st: "State", p: int) -> str:
    """A digest of ``p``'s views at every position up to ``st``, in order."""
    cache = st.__dict__.setdefault("_view_chain", {})
    digest = cache.get(p)
    if digest is None:
        previous = getattr(st.rng, "previous", None)
        before = _view_chain(previous, p) if previous is not None else ""
        digest = cache[p] = hashlib.sha256(
            (before + st.observation_string(p)).encode()).hexdigest()[:32]
    return str(digest)


def _action_text(st: "State", action: Action, p: int) -> str:
    if action.player == p:
        return f"{_who(st, action.player)}: {action.text}"
    return f"{_who(st, action.player)}: {action.render(st.describe_for(p))}"


def _who(st: "State", seat: int) -> str:
    from rulepack.engine.values import describe
    return describe(Player(seat), st.inst.seat_names)


def _event_text(st: "State", event: Any, p: int) -> str:
    if isinstance(event, Action):
        return _action_text(st, event, p)
    if isinstance(event, ChanceEvent):
        if event.kind == "shuffle":
            return f"chance: {event.text}"
        if event.kind == "roll":
            return "chance: " + roll_text(event, lambda d: st.visible(d, p),
                                          lambda d: d.look(st.face[d.id]), st.describe_for(p))
        return f"chance: {event.kind} {st.describe_for(p)(event.outcome)}"
    if isinstance(event, Reveal):
        return event.text
    return str(event)  # pragma: no cover


def game_type(inst: "Instance", start: "State | None" = None,
              returns: str = "outcome") -> dict[str, Any]:
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
        ``Instance.score_bounds()``), zero-sum or constant-sum when the ruleset
        says what they add up to (``scores sum to N``).
    :raises ValueError: ``returns`` is neither, or ``"score"`` for a ruleset
        without a score or without a range of its scores.
    """
    chance = hiding = False
    for key in ("setup", "phases", "play", "defines"):
        for node in nodes(inst.ir.get(key)):
            k = node.get("k")
            if k in ("shuffle", "roll") or (k == "call" and node.get("fn") == "random"):
                chance = True
            if (k == "move" and node.get("face") == "down") or \
                    (k == "flip" and node.get("face") != "up"):
                hiding = True
    if start is not None and not hiding:
        hiding = any(start.loc[piece.id] != 0 and not start.visible(piece, p)
                     for piece in inst.pieces for p in range(inst.num_players))
    info: dict[str, Any] = {
        "dynamics": "sequential",
        "chance_mode": "explicit_stochastic" if chance else "deterministic",
        "information": "imperfect" if hiding else "perfect",
        "utility": "zero_sum" if inst.num_players == 2 else "general_sum",
        "utility_sum": 0.0 if inst.num_players == 2 else None,
        "reward_model": "terminal",
        "min_utility": -1.0,
        "max_utility": 1.0,
    }
    if returns == "score":
        info.update(_score_utility(inst))
    elif returns != "outcome":
        raise ValueError(f"returns must be 'outcome' or 'score', not {returns!r}")
    return info


def _score_utility(inst: "Instance") -> dict[str, Any]:
    """The utility entries of :func:`game_type` for score returns."""
    if inst.score_fn is None:
        raise ValueError(f"returns 'score': the ruleset {inst.name} has no score "
                         "(score(p) = ...)")
    bounds = inst.score_bounds()
    if bounds is None:
        raise ValueError(f"returns 'score': the range of {inst.name}'s scores cannot be "
                         "derived from its score; declare it in its game declaration "
                         "(scores from LOWEST to HIGHEST)")
    total = inst.score_sum
    return {"min_utility": float(bounds[0]), "max_utility": float(bounds[1]),
            "utility": "general_sum" if total is None else
            ("zero_sum" if total == 0 else "constant_sum"),
            "utility_sum": None if total is None else float(total)}
