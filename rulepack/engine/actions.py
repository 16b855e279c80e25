"""What the history of a game is made of: players' actions, chance events, reveals and
narrations (``say``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, Union

from rulepack.engine.templates import fill
from rulepack.engine.values import Cell, GridCell, describe

if TYPE_CHECKING:  # pragma: no cover
    from rulepack.engine.program import Alternative
    from rulepack.engine.values import Piece


class Action:
    """One legal action: which alternative of the pending decision, with which
    parameter values. Compare actions with ``==``; read :attr:`text`.

    :param choice: index of the decision point (a ``choose`` of the ruleset).
    :param alt: index of the ``action`` within it.
    :param values: one value per parameter (pieces, cells, players, numbers...).
    :param player: the seat that takes it.
    :param ident: its stable id, when known (else found when first asked for).
    """

    __slots__ = ("choice", "alt", "values", "player", "_template", "_names", "_id")
    _id: int

    def __init__(self, choice: int, alt: "Alternative", values: tuple[object, ...],
                 player: int, ident: int | None = None) -> None:
        self.choice = choice
        self.alt = alt.index
        self.values = values
        self.player = player
        self._template = alt.text
        self._names = alt
        if ident is not None:
            self._id = ident

    def __eq__(self, other: object) -> bool:
        return (type(other) is Action and other.alt == self.alt and other.choice == self.choice
                and other.values == self.values)

    def __hash__(self) -> int:
        return hash((self.choice, self.alt, self.values))

    @property
    def id(self) -> int:
        """The action's stable id in its instance (see ``State.num_distinct_actions``):
        the same action has the same id in every state and every game.

        :raises SemanticError: the instance has no fixed action space (a parameter
            whose values cannot be listed before play).
        """
        try:
            return self._id
        except AttributeError:
            program = self._names.program
            assert program is not None      # (set when the program is built)
            ident: int = program.action_numbering.get().id_of(self)
            self._id = ident
            return ident

    @property
    def template(self) -> str:
        """The text of the action's alternative, before its parameters are filled
        in (``"take {t}"``)."""
        return self._template

    def bindings(self) -> dict[str, object]:
        """Parameter name → value, tuples destructured as the ruleset binds them;
        a cell (in a list or tuple too) as a :class:`GridCell`, its row and column
        counted from 1 as the rules count them; other values as the engine holds
        them (a seat as a :class:`~rulepack.engine.values.Player`, from 0)."""
        program = self._names.program
        assert program is not None
        zones = program.zones

        def public(value: object) -> object:
            if type(value) is Cell:
                return GridCell(zones[value.zone].label, value.row + 1, value.col + 1,
                                value.label)
            if type(value) is list:
                return [public(v) for v in value]
            if type(value) is tuple:
                return tuple(public(v) for v in value)
            return value
        return {name: public(value) for name, value in self._bound().items()}

    def _bound(self) -> dict[str, object]:
        """Parameter name → value as the engine holds it (tuples destructured)."""
        out: dict[str, object] = {}
        for (names, _, _), value in zip(self._names.params, self.values):
            if len(names) == 1:
                out[names[0]] = value
            elif isinstance(value, (tuple, list)):     # (its binder checked it)
                out.update(zip(names, value))
            else:
                raise TypeError(f"{value!r} does not unpack into {', '.join(names)}")
        return out

    def render(self, describe_value: Callable[[object], str] | None = None) -> str:
        """The action's text with each parameter rendered by ``describe_value``
        (default: everything shown, seats by their names)."""
        if describe_value is None:
            seats = self._names.seats

            def describe_value(v: object) -> str:
                return describe(v, seats)
        return fill(self._template, {k: describe_value(v) for k, v in self._bound().items()})

    @property
    def text(self) -> str:
        """Readable text, everything shown (``"discard red 4 face up"``)."""
        return self.render()

    def __repr__(self) -> str:
        return f"<Action {self.text!r}>"

    def __str__(self) -> str:
        return self.text


@dataclass(slots=True)
class ChanceEvent:
    """A chance event of the flow: a shuffle or a random choice, with its outcome
    (a shuffle's: the zone's pieces in their new order) and where in the ruleset
    the statement that drew it is (``[line, column]``; ``None`` if unknown)."""

    kind: str
    detail: str
    outcome: object = None
    at: list[int] | None = field(default=None, compare=False)

    @property
    def text(self) -> str:
        return f"{self.kind} {self.detail}"


@dataclass(slots=True)
class Reveal:
    """Pieces turned face up by the flow (all players see them), by zone, with the
    position of each in its zone (grid slot or index; ``None`` in a pile)."""

    zone: str
    pieces: list[Piece]
    places: list[int | None] = field(default_factory=list)

    @property
    def text(self) -> str:
        return f"revealed in {self.zone}: " + ", ".join(p.name for p in self.pieces)


@dataclass(slots=True)
class Narration:
    """What the rules tell players (``say "TEXT" [to PLAYERS]``): the text with its
    ``{NAME}`` fields, the value of each field when it was said, and the seats told
    (``None``: everyone)."""

    template: str
    values: dict[str, object]
    to: tuple[int, ...] | None = None

    def render(self, describe_value: Callable[[object], str] | None = None,
               seats: tuple[str, ...] | None = None) -> str:
        """The text with each value rendered by ``describe_value`` (default: shown,
        seats by ``seats``' names)."""
        if describe_value is None:
            def describe_value(v: object) -> str:
                return describe(v, seats)
        return fill(self.template, {k: describe_value(v) for k, v in self.values.items()})

    @property
    def text(self) -> str:
        return self.render()

    def tells(self, player: int | None) -> bool:
        """Whether ``player`` is told (``None``, an onlooker seeing everything: yes)."""
        return player is None or self.to is None or player in self.to



#: an entry of a game's history (:class:`~rulepack.engine.log.Log`)
Event = Union[Action, ChanceEvent, Reveal, Narration]
