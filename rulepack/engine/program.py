"""The compiled form of a game's flow: a flat program of instructions.

The compiler (:mod:`rulepack.compiler.flow`) turns the statements of a ruleset
into a list of instructions ``ins(state) -> next_pc``; the engine
(:mod:`rulepack.engine.state`) runs them. This module holds what both share:
the special program counters, jump labels and the decision points
(:class:`Choice`, each with its :class:`Alternative` actions).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any, Callable

if TYPE_CHECKING:  # pragma: no cover
    from rulepack.engine.state import State

#: A compiled expression: ``f(state) -> value``.
Fn = Callable[["State"], Any]

#: Returned by an instruction when a decision is pending.
SUSPEND = -1
#: Returned by an instruction when the game is over.
HALT = -2

Instr = Callable[["State"], int]


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
    params: list[tuple[list[str], Callable[["State", Any], None], Fn]]
    pre_guard: Fn | None
    post_guard: Fn | None
    body: Label
    at: list[int] | None = None
    seats: tuple[str, ...] = ()
    #: the instance it belongs to (set once compiled; gives actions their ids)
    instance: Any = None

    @cached_property
    def single_names(self) -> tuple[str, ...] | None:
        """The name each parameter binds, when each binds one (else ``None``:
        some parameter destructures a tuple, and its binder must check it)."""
        if all(len(names) == 1 for names, _, _ in self.params):
            return tuple(names[0] for names, _, _ in self.params)
        return None


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
    generate: Callable[["State", int], list[Any]] | None = None

    @cached_property
    def bound_names(self) -> tuple[str, ...]:
        """Every name the actions' parameters bind (asked once the flow is compiled)."""
        return tuple(dict.fromkeys(name for alt in self.alternatives
                                   for names, _, _ in alt.params for name in names))
