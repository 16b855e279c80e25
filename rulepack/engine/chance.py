"""Explicit chance: a state that stops at every chance event of the flow.

By default (``chance="sampled"``) a state draws shuffles and random choices from
its own seeded generator inside ``apply()``. With ``chance="explicit"`` it draws
them from an :class:`ExplicitRng` instead, which answers only from outcomes it
was given. A draw with no outcome given raises :class:`ChanceNeeded`; the step
that drew it (the action being applied, or the setup) stops there, and the
state reports a chance node: its position is the one the step had reached at
the draw (as a sampled game's is when it draws), ``current_player`` is
:data:`CHANCE`, ``chance_outcomes()`` lists the draw's outcomes with their exact
probabilities, and applying one (``apply_chance(i)`` or ``apply_id(i)``) queues
it and runs the step again from its snapshot, which now gets that outcome and
goes on to the next draw or decision.

The draws:

- ``random(X)``: one outcome per element of X (``i`` for ``X[i]``), each 1/n;
- ``shuffle Z``: successive draws of the piece that comes next (position 0, 1,
  ... of the zone's new order) among the pieces not drawn yet, each 1/remaining;
  the last piece is forced and is no chance node;
- ``roll D``: one draw per die, one outcome per face, each 1/n or, for a die
  with weights, ``weight / sum of weights``;
- a draw with one possible outcome is no chance node.

A draw in an instruction that draws nothing else (a ``shuffle``, a ``let`` or
``set`` of one ``random``) lets the step go on from that instruction, as the
position is then (instructions draw before they change anything); any other
draw runs its step again from the start. The draws of one shuffle after its
first need no run at all: the next draw's pieces are known. Chance costs a
replay, never a guess.

A state remembers the positions its game went through (before each step: the
path of its information states). Where every draw of the instance lets the
flow go on from its instruction, so that no step ever runs again from its
start, a position is kept as a record of the step that reached it (where it
started, its action, its outcomes) and made again, once, when asked for;
elsewhere a step copies the position before it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, Sequence, TypeVar

from rulepack.engine import flow
from rulepack.engine.actions import Action
from rulepack.engine.rng import _MASK, Rng
from rulepack.engine.values import describe
from rulepack.errors import IllegalActionError, Location

if TYPE_CHECKING:  # pragma: no cover
    from fractions import Fraction

    from rulepack.engine.position import Position
    from rulepack.engine.program import Instruction, Program

T = TypeVar("T")

#: ``current_player`` at a chance node (OpenSpiel's kChancePlayerId)
CHANCE = flow.CHANCE

#: the chance modes of ``new_game``
MODES = ("sampled", "explicit")


#: ``[(i, 1/n) for i in range(n)]`` by ``n``: every draw is uniform, and a shuffle
#: asks for the same few lengths over and over
_UNIFORM: dict[int, list[tuple[int, float]]] = {}


def uniform(n: int) -> list[tuple[int, float]]:
    """The outcomes of a uniform draw of ``n`` (a shared list: do not change it)."""
    outcomes = _UNIFORM.get(n)
    if outcomes is None:
        p = 1.0 / n
        outcomes = _UNIFORM[n] = [(i, p) for i in range(n)]
    return outcomes


class ChanceNeeded(BaseException):
    """Raised by :class:`ExplicitRng` for a draw it has no outcome for. A
    ``BaseException``: no ``except Exception`` of the flow may take it for an
    error of the ruleset."""

    def __init__(self, kind: str, options: list[object], draw: int = 0, of: int = 1,
                 weights: Sequence[int] | None = None, label: str | None = None) -> None:
        super().__init__(kind)
        self.kind = kind
        self.options = options
        self.draw = draw
        self.of = of
        self.weights = weights
        self.label = label


@dataclass(slots=True)
class ChanceNode:
    """A pending draw: what it is, where in the ruleset, and its outcomes.

    :param kind: ``"random"``, ``"shuffle"`` or ``"roll"``.
    :param options: the value each outcome draws (outcome ``i`` draws ``options[i]``).
    :param statement: the statement that draws, as text (``"shuffle stack"``).
    :param location: where that statement is in the ruleset.
    :param draw: for a shuffle, which position is drawn (0-based) of ``of``.
    :param weights: for a die with weights, one whole number per outcome
        (probability ``weight / sum``); ``None``: every outcome alike.
    """

    kind: str
    options: list[object]
    statement: str
    location: Location
    draw: int = 0
    of: int = 1
    weights: Sequence[int] | None = None
    #: the outcomes' texts, made when first asked for
    _texts: list[str] | None = field(default=None, repr=False, compare=False)

    def next_draw(self, options: list[object]) -> "ChanceNode":
        """The shuffle's draw after this one, among ``options`` (the pieces not
        drawn yet)."""
        return ChanceNode(self.kind, options, self.statement, self.location, self.draw + 1,
                          self.of)

    def fractions(self) -> list[Fraction]:
        """The exact probability of each outcome."""
        from fractions import Fraction     # only here: not imported by every game
        n = len(self.options)
        if self.weights is None:
            return [Fraction(1, n)] * n
        total = sum(self.weights)
        return [Fraction(w, total) for w in self.weights]

    def outcome_text(self, i: int, seats: tuple[str, ...] = ()) -> str:
        """What outcome ``i`` draws; distinct outcomes that look alike (two
        cubes numbered 1) are told apart by their number."""
        texts = self._texts
        if texts is None:
            texts = [describe(v, seats) for v in self.options]
            counts: dict[str, int] = {}
            for t in texts:
                counts[t] = counts.get(t, 0) + 1
            texts = self._texts = [
                t if counts[t] == 1 else f"{t} (outcome {k})" for k, t in enumerate(texts)]
        shown = texts[i]
        if self.kind == "shuffle":
            return f"{self.statement}: {shown} comes {self.draw + 1} of {self.of}"
        return f"{self.statement}: {shown}"


def _explicit_rng(state: int, queue: list[int], pos: int, node: "ChanceNode | None",
                  resume: "_Resume | None", step: Action | None,
                  previous: "Position | _Step | None", here: "_Step | None") -> "ExplicitRng":
    """An :class:`ExplicitRng` with these fields (unpickling, ``copy``)."""
    r = ExplicitRng(state, queue)
    r.pos, r.node, r.resume, r.step, r._previous, r.here = pos, node, resume, step, previous, here
    return r


class ExplicitRng(Rng):
    """The generator of an explicit-chance state: it draws only queued outcomes.

    It also carries the position's chance bookkeeping (so ``Position.copy()`` copies
    it with the generator): the pending :class:`ChanceNode`, where the step goes
    on from when an outcome is given, the step's action and the position before
    the step.
    """

    __slots__ = ("queue", "pos", "node", "resume", "step", "_previous", "here")
    explicit = True

    def __init__(self, seed: int = 0, queue: list[int] | None = None) -> None:
        self.state = seed & _MASK     # Rng.__init__, inline: one per step
        self.queue: list[int] = queue if queue is not None else []
        self.pos = 0
        self.node: ChanceNode | None = None
        #: where the step goes on from when an outcome is given
        self.resume: "_Resume | None" = None
        #: the action that started the step (``None``: the setup)
        self.step: Action | None = None
        #: the position before the last step (see :attr:`previous`)
        self._previous: "Position | _Step | None" = None
        #: how the position was reached (``None``: not kept; see :class:`_Step`)
        self.here: "_Step | None" = None

    @property
    def previous(self) -> "Position | None":
        """The position before the last step (the path of the game, for
        information states); ``None`` at the start. Made again from the step
        that reached it when it was not kept (see :class:`_Step`)."""
        before = self._previous
        return before.position() if isinstance(before, _Step) else before

    @previous.setter
    def previous(self, before: "Position | _Step | None") -> None:
        self._previous = before

    def __reduce__(self) -> tuple[Callable[..., "ExplicitRng"], tuple[object, ...]]:
        # copied and pickled field by field: a compiled base class would keep only
        # its own state (rulepack.engine.splitmix)
        return (_explicit_rng, (self.state, self.queue, self.pos, self.node, self.resume,
                                self.step, self._previous, self.here))

    def clone(self) -> "ExplicitRng":
        r = ExplicitRng.__new__(ExplicitRng)   # every Position.copy() makes one
        r.state = self.state
        r.queue = self.queue[:]
        r.pos = self.pos
        r.node = self.node
        r.resume = self.resume
        r.step = self.step
        r._previous = self._previous
        r.here = self.here
        return r

    def _draw(self, kind: str, options: list[object], draw: int = 0, of: int = 1,
              weights: Sequence[int] | None = None, label: str | None = None) -> int:
        if len(options) == 1:
            return 0
        if self.pos < len(self.queue):
            i = self.queue[self.pos]
            self.pos += 1
            return i
        raise ChanceNeeded(kind, options, draw, of, weights, label)

    def roll(self, faces: Sequence[object], weights: Sequence[int] | None, label: str) -> int:
        return self._draw("roll", list(faces), weights=weights, label=label)

    def below(self, n: int) -> int:
        if n < 1:
            raise ValueError("below() needs n >= 1")
        return self._draw("random", list(range(n)))

    def choice(self, items: Sequence[T]) -> T:
        return items[self._draw("random", list(items))]

    def shuffle(self, items: list[T]) -> None:
        # _draw("shuffle", ...) per position, without copying the pieces left for
        # the draws the queue answers; the last piece is forced
        remaining = list(items)
        out: list[T] = []
        n = len(items)
        queue = self.queue
        for k in range(n - 1):
            if self.pos >= len(queue):
                left: list[object] = list(remaining)     # (a copy)
                raise ChanceNeeded("shuffle", left, k, n)
            out.append(remaining.pop(queue[self.pos]))
            self.pos += 1
        items[:] = out + remaining


def start(st: "Position", mode: str) -> None:
    """Run the setup of a new position in chance ``mode`` (in place of running the
    flow). :raises ValueError: an unknown mode."""
    if mode not in MODES:
        raise ValueError(f"chance must be one of {', '.join(MODES)}, not {mode!r}")
    st.rng = ExplicitRng(st.seed)
    before = st.copy()
    _run_on(st, _Resume(before, None, None, None, before, []), [])


def take(st: "Position", action: Action) -> None:
    """Apply a legal ``action`` to an explicit-chance state (stopping at the
    first chance node it meets). The position before the step is a copy made
    now, or, in an instance whose every draw lets the flow go on from its
    instruction (:func:`_replayable`), the recipe of the step that reached it."""
    before: "Position | _Step | None" = getattr(st.rng, "here", None)
    if before is None:
        before = st.copy()
    _run_on(st, _Resume(before, action, None, before, before, []), [])


@dataclass(slots=True)
class _Resume:
    """Where a step runs (again) from: a position, and the action that starts the
    step (``None``: the setup) or the instruction to go on at (``pc``); the
    position before the step (``previous``, for information states), the one
    the step started from (``origin``: ``previous``, or before the setup the
    empty table) and the outcomes drawn in the step before ``pc`` (``drawn``).
    A position may be a :class:`_Step` (made again when needed)."""

    snapshot: "Position | _Step"
    action: Action | None
    pc: int | None
    previous: "Position | _Step | None"
    origin: "Position | _Step"
    drawn: list[int]


class _Step:
    """A position kept as the step that reached it: the position the step
    started from (``origin``), its action (``None``: the setup) and every outcome
    it drew, in order. :meth:`position` runs the step again from there (once:
    the position is kept then), with the same outcomes: the same position, as a
    step that went on from a drawing instruction reaches what a full run
    reaches. A game's path costs a small record per step instead of a copy of
    the position; a position of it is made only when an information state asks
    for it."""

    __slots__ = ("origin", "action", "drawn", "made")

    def __init__(self, origin: "Position | _Step", action: Action | None,
                 drawn: list[int]) -> None:
        self.origin = origin
        self.action = action
        self.drawn = drawn
        self.made: "Position | None" = None

    def position(self) -> "Position":
        """The position (do not change it: clone it)."""
        if self.made is not None:
            return self.made
        # the steps not made yet, back to a position that is (iterative: a path
        # may be longer than Python's recursion limit)
        todo: list[_Step] = []
        at: Position | _Step = self
        while type(at) is _Step and at.made is None:
            todo.append(at)
            at = at.origin
        for step in reversed(todo):
            origin = step.origin
            st = _position(origin).copy()
            st.rng = ExplicitRng(st.seed)
            previous = origin if step.action is not None else None
            _run_on(st, _Resume(origin, step.action, None, previous, origin, []),
                    list(step.drawn))
            assert st.rng.node is None, "a step made again drew more than it drew"
            st.rng.here = step
            step.made = st
        assert self.made is not None
        return self.made


def _position(at: "Position | _Step") -> "Position":
    return at.position() if isinstance(at, _Step) else at


def _run_on(st: "Position", at: _Resume, queue: list[int]) -> None:
    """Run from ``at`` on ``st`` (a copy of ``at.snapshot``) with the outcomes
    ``queue``: to the step's end, or to a chance node.

    At a chance node met in an instruction with no other draw (a ``shuffle``, a
    ``let`` or ``set`` of one ``random``), the position as it is then — every
    instruction before that one done, that one not begun, as draws come before
    their effects — becomes the point to go on from; otherwise the step's start
    stays that point and the step runs again."""
    st.said = None
    rng = st.rng
    if type(rng) is not ExplicitRng or queue or rng.node is not None:
        rng = st.rng = ExplicitRng(st.seed, queue[:])
    else:                       # a step from a decision: the state's own, emptied
        rng.queue = []
        rng.pos = 0
    try:
        if at.pc is not None:
            flow.run(st, at.pc)
        elif at.action is None:
            flow.run(st, 0)
        else:
            flow.take(st, at.action)
    except ChanceNeeded as need:
        pc = st.fault
        st.fault = None
        node = _node(st.program, need, pc)
        st.block = None        # the flow stopped: no block runs
        if isinstance(pc, int) and _one_draw(st.program, pc):
            mid = st.copy()
            kept = queue[len(queue) - need.draw:] if need.kind == "shuffle" and need.draw else []
            # the outcomes drawn before this instruction are the step's still
            drawn = at.drawn + queue[:len(queue) - len(kept)]
            _stop_at(st, _Resume(mid, at.action, pc, at.previous, at.origin, drawn), kept, node)
        else:
            _stop_at(st, at, queue, node)
        return
    st.fault = None
    rng.queue = []             # the generator of the step: emptied for the next one
    rng.pos = 0
    rng.previous = at.previous
    rng.here = _Step(at.origin, at.action, at.drawn + queue) if st.program.replayable else None


def _one_draw(program: "Program", pc: int) -> bool:
    """Whether instruction ``pc`` draws chance once only (one ``shuffle`` or one
    ``random``), so the flow can go on from it."""
    return 0 <= pc < len(program.instructions) and program.instructions[pc].one_draw


def _stop_at(st: "Position", at: _Resume, queue: list[int], node: ChanceNode) -> None:
    """Make ``st`` the chance node ``node``, to go on from ``at`` with the
    outcomes ``queue`` and the one to come.

    ``st`` stays at the position the flow had reached when it drew: every
    statement of the step before the draw done (the setup's ``move`` before its
    ``roll``, the dice of a ``roll`` before this one rolled), as a sampled game
    is at that draw. Going on from the node runs from ``at`` again, so nothing
    of this position is built on."""
    st.pending = None           # nobody decides at a chance node
    st.decider = None
    st.legal = None
    rng = ExplicitRng(st.seed, list(queue))
    rng.node = node
    rng.resume = at
    rng.step = at.action
    rng.previous = at.previous
    st.rng = rng


def _node(program: "Program", need: ChanceNeeded, pc: object) -> ChanceNode:
    ins = program.instructions[pc] \
        if isinstance(pc, int) and 0 <= pc < len(program.instructions) else None
    location = ins.location if ins is not None else program.location(-1)
    return ChanceNode(need.kind, need.options, _statement_text(ins, need), location, need.draw,
                      need.of, need.weights)


def _statement_text(ins: "Instruction | None", need: ChanceNeeded) -> str:
    """A short name of the drawing statement: ``shuffle stack``, ``random for roll``."""
    if ins is None or ins.statement is None:
        return need.kind
    k = ins.statement
    line = ins.location.line
    where = f" (line {line})" if line else ""
    if k == "shuffle":
        return f"shuffle {ins.subject}{where}" if ins.subject else f"shuffle{where}"
    if need.kind == "roll":
        return f"roll {need.label}{where}"
    if k in ("let", "set"):
        return f"random for {ins.subject}{where}" if ins.subject else f"random{where}"
    return f"{need.kind}{where}"


def chance_outcomes(st: "Position") -> list[tuple[int, float]]:
    """``[(outcome, probability)]`` of the pending draw, outcomes ``0..n-1``
    (outcome ``i`` draws ``node.options[i]``); empty at no chance node. The
    probabilities are exactly ``1/n`` each, or a weighted die's ``weight / sum``
    (:meth:`ChanceNode.fractions`); the list is the caller's own."""
    node = st.rng.node
    if node is None:
        return []
    if node.weights is None:
        return uniform(len(node.options))[:]
    return [(i, float(f)) for i, f in enumerate(node.fractions())]


def chance_fractions(st: "Position") -> list[tuple[int, Fraction]]:
    """:func:`chance_outcomes` with exact fractions."""
    node: ChanceNode | None = st.rng.node
    if node is None:
        return []
    return list(enumerate(node.fractions()))


def outcome_text(st: "Position", outcome: int) -> str:
    """What outcome ``outcome`` of the pending draw draws, as text.

    :raises IllegalActionError: no such outcome here."""
    node: ChanceNode | None = st.rng.node
    if node is None or not 0 <= outcome < len(node.options):
        raise IllegalActionError(f"no chance outcome {outcome!r} here")
    return node.outcome_text(outcome, st.program.seat_names)


def apply_chance(st: "Position", outcome: int) -> None:
    """Apply outcome ``outcome`` of the pending draw and run on to the next
    chance node, decision or the end.

    :raises IllegalActionError: no chance node, or no such outcome.
    """
    rng = st.rng
    node = rng.node
    if node is None or type(outcome) is not int or not 0 <= outcome < len(node.options):
        raise IllegalActionError(f"no chance outcome {outcome!r} here")
    assert isinstance(rng, ExplicitRng) and rng.resume is not None
    if node.kind == "shuffle" and len(node.options) > 2:
        # the next draw of the same shuffle, known without running the step
        # again: the pieces not drawn yet, in the order the shuffle keeps them
        # (the position itself is the same: only the generator changes, and what
        # was said of the position at the previous draw)
        rng.queue.append(outcome)   # the position's own generator's (copies copy it)
        options = node.options[:]
        del options[outcome]
        rng.node = node.next_draw(options)
        st.said = None
        return
    queue = rng.queue + [outcome]
    if rng.resume.pc is None:
        # the step runs again from its start: from the position before it
        st.assign(_position(rng.resume.snapshot).copy())
    _run_on(st, rng.resume, queue)


def sample_chance(st: "Position", rng: Rng) -> int:
    """An outcome of the pending draw picked with ``rng`` (by its probabilities).

    :raises IllegalActionError: no chance node here."""
    node = st.rng.node
    if node is None:
        raise IllegalActionError("no chance node here")
    if node.weights is not None:
        return rng.weighted(node.weights)
    return rng.below(len(node.options))
