"""The compiled game: what compiling a ruleset hands the engine.

The compiler (:mod:`rulepack.compiler`) turns a ruleset, for one player count
and set of options, into a :class:`Program`: its seats, pieces and zones, its
flow as a flat list of instructions ``ins(position) -> next_pc`` (loops and
branches are jumps; :data:`SUSPEND` at a decision, :data:`HALT` at the end),
its decision points (:class:`Choice`, each with its :class:`Alternative`
actions), the score and heuristic, and what is known of each instruction
(:class:`Instruction`: where it stands in the ruleset, what it draws). The
engine runs it on :class:`~rulepack.engine.position.Position` values and
imports nothing of the compiler.

A program never changes once built and every game of it shares it. What it
computes only when asked (the numbering of its actions, which is costly and
may fail) is a :class:`Deferred`, which keeps its answer.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Callable, Generic, Mapping, Protocol, TypeVar

from rulepack.errors import Location

if TYPE_CHECKING:  # pragma: no cover
    from rulepack.engine.actions import Action
    from rulepack.engine.position import Position
    from rulepack.engine.values import Piece, Player, ZoneRef, PatternRef
    from rulepack.engine.zones import ZoneInfo
    from rulepack.patterns.match import Pattern

T = TypeVar("T")
K = TypeVar("K")

#: A compiled expression: ``f(position) -> value`` (a value of the rules language;
#: ``Any`` while the compiler's callers read some results without narrowing them)
Fn = Callable[["Position"], Any]

#: Returned by an instruction when a decision is pending.
SUSPEND = -1
#: Returned by an instruction when the game is over.
HALT = -2

Instr = Callable[["Position"], int]


class Label:
    """A jump target whose program counter is known once it is placed."""

    __slots__ = ("pc",)

    def __init__(self) -> None:
        self.pc = -1


@dataclass
class Alternative:
    """One ``action`` of a ``choose``: text template, parameters, guard, effects.

    :param params: per parameter, (bound names, binder, iterable closure).
    :param pre_guard: guard that uses no parameter (tested once).
    :param post_guard: guard that uses a parameter (tested per combination).
    """

    index: int
    text: str
    param_names: list[str]
    params: list[tuple[list[str], Callable[["Position", object], None], Fn]]
    pre_guard: Fn | None
    post_guard: Fn | None
    body: Label
    at: list[int] | None = None
    seats: tuple[str, ...] = ()
    #: the program it belongs to (set once built; gives actions their ids)
    program: "Program | None" = None

    @cached_property
    def single_names(self) -> tuple[str, ...] | None:
        """The name each parameter binds, when each binds one (else ``None``:
        some parameter destructures a tuple, and its binder must check it)."""
        if all(len(names) == 1 for names, _, _ in self.params):
            return tuple(names[0] for names, _, _ in self.params)
        return None


@dataclass(frozen=True, eq=False)
class Maximize:
    """A ``maximize VALUE { ... }`` block: each decision inside it keeps only the
    actions that let its player reach the highest ``VALUE`` at the block's end
    (:mod:`rulepack.engine.lookahead`).

    :param index: the block's number in the program.
    :param value: ``value(position)``: the value at the block's end (a number or
        a tuple of numbers, compared in order).
    :param at: where the block stands in the ruleset (``[line, column]``).
    """

    index: int
    value: Fn
    at: list[int] | None = None


@dataclass
class Choice:
    """A decision point of the flow: who decides and between which actions."""

    index: int
    by: Fn | None
    alternatives: list[Alternative] = field(default_factory=list)
    at: list[int] | None = None
    pc: int = -1
    #: its legal actions, generated (``generate(state, player)``); ``None``: the
    #: engine expands the alternatives itself
    generate: Callable[["Position", int], list["Action"]] | None = None
    #: the ``maximize`` block it stands in, if any
    maximize: Maximize | None = None

    @cached_property
    def bound_names(self) -> tuple[str, ...]:
        """Every name the actions' parameters bind (asked once the flow is compiled)."""
        return tuple(dict.fromkeys(name for alt in self.alternatives
                                   for names, _, _ in alt.params for name in names))


class Deferred(Generic[T]):
    """A value made when first asked for, by ``make()``, and kept (this object
    owns its answer). An error ``make`` raises is raised again at each ask."""

    __slots__ = ("_make", "_value", "_made")

    def __init__(self, make: Callable[[], T]) -> None:
        self._make = make
        self._made = False

    def get(self) -> T:
        if not self._made:
            self._value = self._make()
            self._made = True
        return self._value


class ActionNumbering(Protocol):
    """The numbered actions of a program (made by the compiler): ``size`` ids
    ``0 .. size - 1``, an id for each action and back."""

    size: int

    def id_of(self, action: "Action") -> int: ...

    def decode(self, ident: int) -> tuple[int, int, tuple[object, ...]]: ...


@dataclass(frozen=True, slots=True)
class Instruction:
    """What is known of one instruction of the flow.

    :param location: where its statement stands in the ruleset.
    :param statement: the statement's kind (``move``, ``shuffle``, ``let``...).
    :param subject: what it names, for a chance node's text: the zone a
        ``shuffle`` shuffles, the name a ``let``/``set`` of a ``random`` binds.
    :param draws: whether it may draw a chance event itself (not counting the
        statements of its bodies).
    :param one_draw: whether it draws once only (a ``shuffle``, a ``let``/``set`` of
        one ``random``), so that the flow can go on from it at a chance node.
    """

    location: Location
    statement: str | None = None
    subject: str | None = None
    draws: bool = False
    one_draw: bool = False


@dataclass(frozen=True, slots=True)
class ScoreRule:
    """The ruleset's ``score(p) = ...``.

    :param of: ``of(position, player) -> number`` (generated code, the player an
        argument).
    :param location: where it is declared (errors are located there).
    :param secret: ``"owner"``/``"nobody"`` when it reads a variable seen by its
        owner / by nobody (so a player sees only their own / nobody's score until
        the game ends), else ``None``.
    :param declared_range: ``scores from LO to HI``, if declared, and where.
    :param declared_sum: ``scores sum to N``, if declared, and where.
    :param bounds: the range of the scores, declared or derived from the formula
        (``None``: unknown), worked out when first asked for (the adapters ask).
    """

    of: Callable[["Position", "Player"], object]
    location: Location
    secret: str | None = None
    declared_range: tuple[int | float, int | float] | None = None
    range_location: Location | None = None
    declared_sum: int | float | None = None
    sum_location: Location | None = None
    bounds: "Deferred[tuple[int | float, int | float] | None] | None" = None


@dataclass(frozen=True, slots=True)
class HeuristicRule:
    """A ruleset's ``heuristic(p) = ...`` (the bots' estimate of a position).

    :param of: ``of(position, player) -> number``.
    :param location: where it is declared.
    :param after: random decisions a bot's playout takes before it reads it.
    :param search: the search bots' own heuristic (``heuristic(p) = ... after N
        random decisions`` declared beside a plain one), else ``None``.
    """

    of: Callable[["Position", "Player"], object]
    location: Location
    after: int = 0
    search: "HeuristicRule | None" = None


@dataclass(frozen=True, eq=False)
class Program:
    """A ruleset compiled for one player count and options: everything the engine
    runs a game of it from. Built by the compiler; shared by every game of it
    and never changed.

    Seats: ``num_players``, ``seats`` (each a :class:`~rulepack.engine.values.Player`),
    ``seat_names`` (the ruleset's, or none), ``seat_orders`` (the seats clockwise
    from each), ``next_seat``, ``teams`` (tuples of seats, or ``None``).
    Components: ``pieces`` (by id), ``kind_pieces`` (component → its pieces),
    ``zones`` (:class:`~rulepack.engine.zones.ZoneInfo` by index; the box is 0),
    ``zone_kinds``, ``zone_refs``, ``patterns`` (the compiled patterns, by index)
    and ``pattern_refs`` (by name). Flow: ``code`` (what the engine runs at each
    instruction), ``steps`` (one function per instruction, for entering and
    probing the flow an instruction at a time), ``instructions`` (what is known of
    each), ``choices``, ``chance_positions`` (a block with one drawing statement →
    that statement's ``[line, column]``), ``replayable`` (every draw lets the flow
    go on from its instruction: see :mod:`rulepack.engine.chance`), ``start``
    (where every game starts, whatever its seed: :mod:`rulepack.engine.start`).
    Variables: ``initial`` (name → ``(per, f(position))``, ``per`` being ``"player"``
    for one value per seat, ``"team"`` for one per team, ``None`` for one in all), ``flow_names``
    (the names the flow binds: ``let``, loops, action parameters), ``variable_locations``,
    ``private_vars`` (name → ``"owner"``/``"nobody"``). Results: ``score``,
    ``heuristic``, ``winner_rule`` (``"highest"``/``"lowest"`` score or ``None``),
    ``longest`` (``at most N decisions``) and its ``longest_location``. Static facts:
    ``has_chance`` (a ``shuffle``, ``roll`` or ``random`` anywhere), ``may_hide``
    (a statement can turn a piece face down), ``turns_pieces`` (a ``rotate``
    can turn a piece), ``words`` (the ruleset's symbols and
    texts, for tensors). Programs compare and hash by identity. Deferred: ``action_numbering`` (its stable action ids)
    and ``chance_bound`` (the most outcomes a chance node can have).
    """

    name: str
    file: str
    options: Mapping[str, object]
    num_players: int
    seats: "tuple[Player, ...]"
    seat_names: tuple[str, ...]
    seat_orders: "tuple[tuple[Player, ...], ...]"
    next_seat: "tuple[Player, ...]"
    teams: tuple[tuple[int, ...], ...] | None
    pieces: "tuple[Piece, ...]"
    kind_pieces: "Mapping[str, tuple[Piece, ...]]"
    zones: "tuple[ZoneInfo, ...]"
    zone_kinds: tuple[str, ...]
    zone_refs: "tuple[ZoneRef, ...]"
    patterns: "tuple[Pattern, ...]"
    pattern_refs: "Mapping[str, PatternRef]"
    code: tuple[Instr, ...]
    steps: tuple[Instr, ...]
    instructions: tuple[Instruction, ...]
    choices: tuple[Choice, ...]
    chance_positions: Mapping[int, list[int]]
    replayable: bool
    start: "tuple[Position, int] | None"
    initial: Mapping[str, tuple[str | None, Fn]]
    flow_names: tuple[str, ...]
    variable_locations: Mapping[str, Location]
    private_vars: Mapping[str, str]
    score: ScoreRule | None
    heuristic: HeuristicRule | None
    winner_rule: str | None
    longest: int | None
    longest_location: Location
    has_chance: bool
    may_hide: bool
    words: frozenset[str]
    action_numbering: "Deferred[ActionNumbering]"
    chance_bound: Deferred[int]
    #: whether a ``rotate`` statement can turn a piece (its angle is then observed)
    turns_pieces: bool = False

    def __deepcopy__(self, memo: dict[int, object]) -> "Program":
        return self         # never changed: a copy of a position shares its program

    def num_distinct_actions(self) -> int:
        """The number of distinct action ids (ids are ``0 .. n-1``; the same action
        has the same id in every position and game of this program).

        :raises SemanticError: some action's parameter has no finite domain
            (code ``unbounded-actions``), located at it."""
        return int(self.action_numbering.get().size)

    def max_chance_outcomes(self) -> int:
        """The most outcomes any chance node of this program can have.

        :raises SemanticError: a ``random`` with no bound on its outcomes."""
        return int(self.chance_bound.get())

    def entries(self, name: str) -> int | None:
        """How many entries variable ``name`` has: one per seat (``per player``), one
        per team (``per team``), or ``None`` for a single value.

        :raises KeyError: no variable of that name."""
        per = self.initial[name][0]
        if per == "player":
            return self.num_players
        if per == "team":
            return len(self.teams or ())
        return None

    def own_entry(self, name: str, player: int) -> int | None:
        """The entry of variable ``name`` that is ``player``'s own (for ``seen by
        owner``): the seat's of a ``per player`` variable, its team's of a ``per
        team`` one; ``None`` for a single value.

        :raises KeyError: no variable of that name."""
        per = self.initial[name][0]
        if per == "player":
            return player
        if per == "team":
            return next(i for i, team in enumerate(self.teams or ()) if player in team)
        return None

    def location(self, pc: int) -> Location:
        """Where instruction ``pc``'s statement stands (the file alone if none)."""
        if 0 <= pc < len(self.instructions):
            return self.instructions[pc].location
        return Location(self.file)


def frozen_map(items: Mapping[K, T]) -> Mapping[K, T]:
    """A read-only view of a copy of ``items``."""
    return MappingProxyType(dict(items))
