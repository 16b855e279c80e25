"""A position: everything that changes in a game, in one typed record.

:class:`Position` is the only object the flow's code reads and writes (the
generated functions of :mod:`rulepack.compiler.flowgen` and the runtime
functions of :mod:`rulepack.engine.effects`, :mod:`rulepack.engine.queries` and
:mod:`rulepack.engine.flow` take it as ``st``); the
:class:`~rulepack.engine.program.Program` it plays holds everything that does
not change. Its fields are typed and slotted so that compiled code (mypyc) can
read them as native fields.

There is one way to make each kind of position — :meth:`Position.empty` (before
the setup), :meth:`Position.of` (from its parts: read back from JSON, a
determinization), :meth:`Position.copy` (a clone: lists of references copied, zones
shared until written), :meth:`Position.assign` (take over another's fields, as
explicit chance does when it goes back to a snapshot) and
:mod:`rulepack.engine.serialize` (to and from JSON) — and every field is listed
once, in :data:`FIELDS`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Sequence

from rulepack.engine.log import Log
from rulepack.engine.rng import Rng
from rulepack.engine.runtime import EVAL_STEPS
from rulepack.engine.values import Cell, Piece, Player, piece_id

if TYPE_CHECKING:  # pragma: no cover
    from rulepack.engine.actions import Action
    from rulepack.engine.lookahead import Probe
    from rulepack.engine.program import Choice, Program

#: the fields of a position, in the order :meth:`Position.copy` copies them
FIELDS = ("program", "zones", "owned", "cells", "loc", "face", "owner", "rolled", "active",
          "vars", "rng", "seed", "pc", "pending", "decider", "legal", "terminal", "winners",
          "history", "decisions", "turns", "max_decisions", "knowledge", "groupings", "heights",
          "angles", "ended",
          "memo", "steps_left", "block", "fault", "watch", "said", "probe")


class Position:
    """Everything that changes in a game of a :class:`~rulepack.engine.program.Program`.

    ``zones[z]`` lists the pieces of zone ``z`` (a grid: one slot per cell, ``None``
    when empty; a ``stacked`` grid's slots hold each cell's top, the pieces beneath
    follow: :mod:`rulepack.engine.stacks`); ``loc``, ``face`` (``True``: face up) and ``owner`` are indexed by
    piece id, ``active`` by seat; ``vars`` maps variable names to values.
    """

    __slots__ = FIELDS + ("__weakref__",)

    program: "Program"
    #: pieces of each zone (a grid's list has one slot per cell)
    zones: list[list[Any]]
    #: the zones whose lists this position alone holds; the others it shares with
    #: copies and copies before it first changes them (copy on write)
    owned: set[int]
    #: piece id → the cell it lies in (``None`` off the grids): made when first
    #: needed (:func:`rulepack.engine.queries.piece_cells`), dropped (``None``)
    #: whenever a grid changes; shared by copies, never changed in place
    cells: list[Cell | None] | None
    #: piece id → its zone's index
    loc: list[int]
    #: piece id → face up
    face: list[bool]
    #: piece id → its owner (a seat) or ``None``
    owner: list[Player | None]
    #: die id → the face its last roll shows (a die never rolled shows its first
    #: face); replaced, never changed in place, so copies share it
    rolled: dict[int, object]
    #: seat → still in the game
    active: list[bool]
    #: variable name → value (the flow's locals too)
    vars: dict[str, Any]
    #: the game's generator of chance (an explicit-chance one at chance nodes)
    rng: Rng
    seed: int
    #: the instruction of the pending decision (where a restored position resumes)
    pc: int
    #: the pending decision, and the seat that takes it
    pending: "Choice | None"
    decider: Player | None
    #: the pending decision's legal actions, once listed (shared with the caller)
    legal: "list[Action] | None"
    terminal: bool
    #: the winners an ``end game winners ...`` named, if one did
    winners: list[int] | None
    #: every action, chance event, reveal and narration so far (shared by copies)
    history: Log
    decisions: int
    turns: int
    max_decisions: int
    #: in a position made for one seat's guess of the hidden pieces
    #: (:mod:`rulepack.agents.determinize`): that seat and the pieces it knows
    knowledge: tuple[int, frozenset[int]] | None
    #: a ``groups`` zone's index → the sizes of its groups, in order, while arranged
    groupings: dict[int, tuple[int, ...]]
    #: a stacked grid's index → how many pieces lie beneath each cell's top (by
    #: slot; :mod:`rulepack.engine.stacks`); replaced, never changed in place, so
    #: copies share it
    heights: dict[int, tuple[int, ...]]
    #: piece id → the way it points, in degrees counter-clockwise from up (PPN's
    #: angles: 90 left, 180 down, 270 right); absent: 0. Replaced, never changed in
    #: place, so copies share it
    angles: dict[int, int]
    #: where the rule that ended the game stands (``[line, column]`` of its ``end
    #: game``, or of the last statement of ``play`` when the play ran out), else ``None``
    ended: list[int] | None
    #: what the pattern searches keep between their questions in this game
    #: (:class:`rulepack.patterns.partition.GameMemo`), shared by copies: it changes
    #: no answer, and a new game starts without it
    memo: dict[Any, Any]
    #: what is left of the budget of loop elements and search steps
    #: (:func:`rulepack.engine.runtime.charge`), renewed whenever the flow runs and
    #: whenever legal actions are listed
    steps_left: int
    #: the block the flow runs (``None`` outside it): where a chance event is drawn
    block: int | None
    #: the instruction a generated block was running when an error passed
    fault: int | None
    #: called with the pieces after every move and flip, while something watches
    #: (:mod:`rulepack.engine.sightings`), else ``None``
    watch: Callable[[list[Piece]], None] | None
    #: what observers noted of this position (:mod:`rulepack.engine.observe`): made
    #: when first asked for, dropped whenever the position changes
    said: dict[Any, Any] | None
    #: in a position made to look ahead inside a ``maximize`` block
    #: (:mod:`rulepack.engine.lookahead`): where its flow stops and the value it
    #: found there, else ``None``
    probe: "Probe | None"

    @classmethod
    def empty(cls, program: "Program", seed: int, max_decisions: int) -> "Position":
        """The position before the setup: every piece in the box, face down, no
        owner; every seat active; the variables ``current`` and ``round`` only."""
        p = cls.__new__(cls)
        n_pieces = len(program.pieces)
        zones: list[list[Any]] = []
        for info in program.zones:
            zones.append([None] * len(info.cells) if info.kind == "grid" else [])
        zones[0] = list(program.pieces)
        p.program = program
        p.zones = zones
        p.owned = set(range(len(zones)))
        p.cells = None
        p.loc = [0] * n_pieces
        p.face = [False] * n_pieces
        p.owner = [None] * n_pieces
        p.rolled = {}
        p.active = [True] * program.num_players
        p.vars = {"current": None, "round": 0}
        p.rng = Rng(seed)
        p.seed = seed
        p.pc = 0
        p.pending = None
        p.decider = None
        p.legal = None
        p.terminal = False
        p.winners = None
        p.history = Log()
        p.decisions = 0
        p.turns = 0
        p.max_decisions = max_decisions
        p.knowledge = None
        p.groupings = {}
        p.heights = {}
        p.angles = {}
        p.ended = None
        p.memo = {}
        p.steps_left = EVAL_STEPS
        p.block = None
        p.fault = None
        p.watch = None
        p.said = None
        p.probe = None
        return p

    @classmethod
    def of(cls, program: "Program", max_decisions: int, *, zones: list[list[Any]],
           face: list[bool], owner: list[Player | None], rolled: dict[int, object],
           active: list[bool],
           variables: dict[str, Any], rng: Rng, seed: int = 0, pc: int = 0,
           terminal: bool = False, winners: list[int] | None = None,
           history: Log | None = None, decisions: int = 0, turns: int = 0,
           groupings: dict[int, tuple[int, ...]] | None = None,
           knowledge: tuple[int, frozenset[int]] | None = None,
           heights: dict[int, tuple[int, ...]] | None = None,
           angles: dict[int, int] | None = None) -> "Position":
        """A position from its parts: one read back from JSON
        (:func:`rulepack.engine.serialize.position_from_json`) or one seat's guess
        of the hidden pieces (:mod:`rulepack.agents.determinize`). Its flow is not
        run: no decision is pending until it runs from ``pc``. ``loc`` is made
        from ``zones``; every other field is as :meth:`empty` makes it.

        :param zones: the pieces of each zone (a grid's list: one slot per cell;
            a stacked grid's, the pieces beneath the tops after them).
        :param heights: a stacked grid's index → the number of pieces beneath each
            cell's top (by slot); absent: none beneath.
        :param angles: piece id → degrees counter-clockwise (absent: 0).
        :param face: piece id → face up; ``owner``: piece id → seat or ``None``.
        :param rolled: die id → the face it shows; ``active``: seat → in the game.
        """
        p = cls.empty(program, seed, max_decisions)
        p.zones = zones
        loc = p.loc
        for zi, zone in enumerate(zones):
            for piece in zone:
                if piece is not None:
                    loc[piece.id] = zi
        p.face = face
        p.owner = owner
        p.rolled = rolled
        p.active = active
        p.vars = variables
        p.rng = rng
        p.pc = pc
        p.terminal = terminal
        p.winners = winners
        if history is not None:
            p.history = history
        p.decisions = decisions
        p.turns = turns
        p.groupings = {} if groupings is None else groupings
        p.knowledge = knowledge
        p.heights = {} if heights is None else heights
        p.angles = {} if angles is None else angles
        return p

    def copy(self) -> "Position":
        """An independent copy: lists of references copied, pieces shared, each
        zone's list shared until one side writes it (both forget they own it);
        the history shared (:class:`~rulepack.engine.log.Log`); the generator
        copied at its place in the sequence."""
        c = Position.__new__(Position)
        c.program = self.program
        c.zones = self.zones[:]
        c.owned = set()
        self.owned = set()
        c.cells = self.cells
        c.loc = self.loc[:]
        c.face = self.face[:]
        c.owner = self.owner[:]
        c.rolled = self.rolled
        c.active = self.active[:]
        c.vars = dict(self.vars)
        c.rng = self.rng.clone()
        c.seed = self.seed
        c.pc = self.pc
        c.pending = self.pending
        c.decider = self.decider
        c.legal = self.legal
        c.terminal = self.terminal
        c.winners = self.winners
        c.history = self.history.clone()
        c.decisions = self.decisions
        c.turns = self.turns
        c.max_decisions = self.max_decisions
        c.knowledge = self.knowledge
        c.groupings = dict(self.groupings)
        c.heights = self.heights
        c.angles = self.angles
        c.ended = self.ended
        c.memo = self.memo
        c.steps_left = self.steps_left
        c.block = None
        c.fault = None
        c.watch = None
        c.said = None
        c.probe = None if self.probe is None else self.probe.fresh()
        return c

    def assign(self, other: "Position") -> None:
        """Take over ``other``'s fields (``other`` is a copy nobody else uses)."""
        for name in FIELDS:
            setattr(self, name, getattr(other, name))

    def writable(self, z: int) -> list[Any]:
        """Zone ``z``'s list, made this position's own first if a copy shares it."""
        if z in self.owned:
            return self.zones[z]
        zone: list[Any] = self.zones[z][:]
        self.zones[z] = zone
        self.owned.add(z)
        return zone

    def put(self, places: "Sequence[tuple[int, int]]", pieces: "Sequence[Piece]",
            faces: "Sequence[bool] | None" = None) -> None:
        """Put each piece at its place, as a seat's guess of the hidden pieces
        deals them anew (:mod:`rulepack.agents.determinize`,
        :mod:`rulepack.agents.belief`).

        :param places: ``(zone index, index in the zone's list)`` for each piece of
            ``pieces``: the places these pieces hold now, in another order (so
            every piece stays somewhere once).
        :param faces: each piece's face after (``True``: up); by default unchanged.

        The way each place's piece points (``angles``) stays with the place.

        A pile stays in id order; what was derived from where pieces lie (the
        cells, the legal actions, the observers' notes) is dropped."""
        zones = self.zones
        loc = self.loc
        angles = self.angles
        if angles:
            # the way a piece points is seen where it lies: it stays with the place
            before = {place: angles.get(zones[place[0]][place[1]].id, 0) for place in places}
            turned = dict(angles)
            for place, piece in zip(places, pieces):
                turned[piece.id] = before[place]
            self.angles = {k: v for k, v in turned.items() if v}
        written: set[int] = set()
        for (zi, i), piece in zip(places, pieces):
            if zi not in written:
                self.writable(zi)
                written.add(zi)
            zones[zi][i] = piece
            loc[piece.id] = zi
        if faces is not None:
            for piece, up in zip(pieces, faces):
                self.face[piece.id] = up
        kinds = self.program.zones
        for zi in written:
            if kinds[zi].kind == "pile":
                zones[zi].sort(key=piece_id)
            elif kinds[zi].kind == "grid":
                self.cells = None
        self.legal = None
        self.said = None

