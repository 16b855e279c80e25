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
  floats whose length depends only on the instance (:func:`tensor_layout`);
  a piece ``p`` cannot see adds only to its zone's (and cell's) hidden counts,
  never to a row of its own;
- ``returns()``: +1 for a winner, -1 for a loser, 0 for all in a draw and before
  the end (``scores=True``: the scores instead); ``rewards()``: the change of
  ``returns()`` over the last step.

Nothing here changes the state; the strings of past positions are kept with
those positions, so asking again costs one view.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rulepack.engine.actions import Action, ChanceEvent, Reveal
from rulepack.engine.dice import roll_text
from rulepack.engine.outcome import check_scores
from rulepack.engine.values import Piece, Player
from rulepack.errors import Diagnostic, Location, RulesetRuntimeError
from rulepack.ir import nodes

if TYPE_CHECKING:  # pragma: no cover
    from rulepack.compiler.instance import Instance
    from rulepack.engine.state import State


@dataclass(frozen=True)
class TensorLayout:
    """Where each feature sits in an observation tensor of one instance.

    Per piece (``pieces`` rows of ``piece_width``): visible, zone one-hot, grid
    cell one-hot, face up, owner one-hot. Then per zone the number of pieces the
    player cannot see, per grid cell whether it holds a piece the player cannot
    see, the seat deciding (one-hot, plus chance), the observing seat (one-hot),
    whether the game is over, and each seat's score (0 without a score rule).
    Last, per die (piece order) the face it shows, one-hot over its faces, when
    the player sees it (``faces``: their number over all dice; none without dice).
    """

    pieces: int
    zones: int
    cells: int
    players: int
    faces: int = 0

    @property
    def piece_width(self) -> int:
        return 1 + self.zones + self.cells + 1 + self.players

    @property
    def size(self) -> int:
        """Length of the observation tensor."""
        return (self.pieces * self.piece_width + self.zones + self.cells
                + (self.players + 1) + self.players + 1 + self.players + self.faces)

    @property
    def memory_width(self) -> int:
        return self.zones + self.cells

    @property
    def information_size(self) -> int:
        """Length of the information-state tensor: the observation tensor, then
        per piece where the player last saw it (zone and cell one-hot)."""
        return self.size + self.pieces * self.memory_width


def tensor_layout(inst: "Instance") -> TensorLayout:
    """The tensor layout of an instance (made once)."""
    layout = inst.__dict__.get("_tensor_layout")
    if layout is None:
        cells = sum(len(z.cells) for z in inst.zones if z.kind == "grid")
        faces = sum(len(p.rolls[1]) for p in inst.pieces if p.rolls is not None)
        layout = inst.__dict__["_tensor_layout"] = TensorLayout(
            len(inst.pieces), len(inst.zones), cells, inst.num_players, faces)
    return layout


def _face_offsets(inst: "Instance") -> dict[int, int]:
    """Die id → where its faces start in the tensor's last block."""
    offsets = inst.__dict__.get("_face_offsets")
    if offsets is None:
        offsets, at = {}, 0
        for p in inst.pieces:
            if p.rolls is not None:
                offsets[p.id] = at
                at += len(p.rolls[1])
        inst.__dict__["_face_offsets"] = offsets
    return offsets


def _cell_offsets(inst: "Instance") -> list[int]:
    offsets = inst.__dict__.get("_cell_offsets")
    if offsets is None:
        offsets, at = [], 0
        for z in inst.zones:
            offsets.append(at)
            if z.kind == "grid":
                at += len(z.cells)
        inst.__dict__["_cell_offsets"] = offsets
    return offsets


def _seat(st: "State", player: Any) -> int:
    if type(player) is bool or not isinstance(player, int) \
            or not 0 <= player < st.inst.num_players:
        raise ValueError(f"{player!r} is not a seat of this game")
    return int(player)


def _placed(st: "State") -> list[tuple[Piece, int, int | None]]:
    """Every piece with its zone and global cell index (``None`` off grids)."""
    offsets = _cell_offsets(st.inst)
    kinds = st.inst.zone_kinds
    out: list[tuple[Piece, int, int | None]] = []
    for z, content in enumerate(st.zones):
        if kinds[z] == "grid":
            base = offsets[z]
            out += [(piece, z, base + slot) for slot, piece in enumerate(content)
                    if piece is not None]
        else:
            out += [(piece, z, None) for piece in content]
    return out


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
        and cell one-hot; zeros for a piece never seen). Explicit-chance states
        remember every position they went through; a sampled-chance state only
        its present. :raises ValueError: ``player`` is not a seat."""
        out = [0.0] * tensor_layout(self.inst).information_size
        for i, v in self.information_state_entries(player).items():
            out[i] = v
        return out

    def observation_entries(self: "State", player: int) -> dict[int, float]:  # type: ignore[misc]
        """The non-zero entries of :meth:`observation_tensor`, index → value (for
        adapters that fill arrays of their own)."""
        p = _seat(self, player)
        inst = self.inst
        lay = tensor_layout(inst)
        out: dict[int, float] = {}
        width = lay.piece_width
        hidden_at = lay.pieces * width
        cells_at = hidden_at + lay.zones
        for piece, z, cell in _placed(self):
            if self.visible(piece, p):
                row = piece.id * width
                out[row] = 1.0
                out[row + 1 + z] = 1.0
                if cell is not None:
                    out[row + 1 + lay.zones + cell] = 1.0
                if self.face[piece.id]:
                    out[row + 1 + lay.zones + lay.cells] = 1.0
                owner = self.owner[piece.id]
                if owner is not None:
                    out[row + 2 + lay.zones + lay.cells + int(owner)] = 1.0
            else:
                out[hidden_at + z] = out.get(hidden_at + z, 0.0) + 1.0
                if cell is not None:
                    out[cells_at + cell] = 1.0
        at = cells_at + lay.cells
        current = self.current_player
        if current >= 0:
            out[at + current] = 1.0
        elif self.rng.node is not None:
            out[at + lay.players] = 1.0        # chance decides
        at += lay.players + 1
        out[at + p] = 1.0
        at += lay.players
        if self.terminal:
            out[at] = 1.0
        at += 1
        if self.inst.score_fn is not None:
            for seat, score in enumerate(self.scores() or []):
                if score:
                    out[at + seat] = float(score)
        if lay.faces:
            at += lay.players
            for pid, offset in _face_offsets(inst).items():
                die = inst.pieces[pid]
                if self.visible(die, p):
                    faces = die.rolls[1]  # type: ignore[index]
                    out[at + offset + faces.index(self.rolled.get(pid, faces[0]))] = 1.0
        return out

    def information_state_entries(self: "State", player: int) -> dict[int, float]:  # type: ignore[misc]
        """The non-zero entries of :meth:`information_state_tensor`."""
        p = _seat(self, player)
        lay = tensor_layout(self.inst)
        out = self.observation_entries(p)
        width = lay.memory_width
        at = lay.size
        for i, seen in enumerate(_last_seen(self, p)):
            if seen is not None:
                z, cell = seen
                out[at + i * width + z] = 1.0
                if cell is not None:
                    out[at + i * width + lay.zones + cell] = 1.0
        return out

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


def _last_seen(st: "State", p: int) -> list[tuple[int, int | None] | None]:
    """Per piece, the zone and cell where ``p`` last saw it (kept with each
    position of an explicit-chance game, so each is computed once)."""
    cache = st.__dict__.setdefault("_last_seen", {})
    seen = cache.get(p)
    if seen is None:
        previous = getattr(st.rng, "previous", None)
        seen = list(_last_seen(previous, p)) if previous is not None \
            else [None] * len(st.inst.pieces)
        for piece, z, cell in _placed(st):
            if st.visible(piece, p):
                seen[piece.id] = (z, cell)
        cache[p] = seen
    return list(seen)


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
