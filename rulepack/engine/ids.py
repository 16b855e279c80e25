"""Stable action ids: the part of the engine contract that numbers actions.

An instance's actions are numbered once (``Instance.action_space()``, from the
finite domains of the ruleset's action parameters): ``num_distinct_actions()``
is fixed per instance, and an id names the same action in every state and every
game of that instance. :class:`ActionIds` is mixed into
:class:`~rulepack.engine.state.State`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rulepack.engine.actions import Action
from rulepack.engine.chance import take
from rulepack.errors import IllegalActionError

if TYPE_CHECKING:  # pragma: no cover
    from rulepack.compiler.instance import Instance
    from rulepack.engine.rng import Rng
    from rulepack.engine.values import Player


class ActionIds:
    """Action ids of a state (mixed into ``State``)."""

    inst: "Instance"
    decider: "Player | None"
    rng: "Rng"

    def legal_actions(self) -> list[Action]:  # pragma: no cover - State's
        raise NotImplementedError

    def _apply(self, action: Action) -> None:  # pragma: no cover - State's
        raise NotImplementedError

    def _take(self, action: Action) -> None:
        """Apply a legal action: at once, or stopping at chance nodes in explicit chance."""
        if self.rng.explicit:
            take(self, action)  # type: ignore[arg-type]
        else:
            self._apply(action)

    def num_distinct_actions(self) -> int:
        """The number of distinct action ids of this instance (ids are ``0 .. n-1``).

        :raises SemanticError: some action's parameter has no finite domain
            (code ``unbounded-actions``), located at it.
        """
        return int(self.inst.action_space().size)

    def action_id(self, action: Action) -> int:
        """The stable id of an action (``action.id``)."""
        return action.id

    def legal_action_ids(self) -> list[int]:
        """The ids of the legal actions, ascending (empty when no player decides)."""
        return sorted([a.id for a in self.legal_actions()])

    def action_from_id(self, ident: int) -> Action:
        """The action with this id: the legal one when it is legal now, else a new
        :class:`Action` (taken by the seat deciding now, or seat 0).

        :raises ValueError: no action has this id.
        """
        if self.decider is not None:
            for a in self.legal_actions():
                if a.id == ident:
                    return a
        choice, alt, values = self.inst.action_space().decode(ident)
        alternative = self.inst.choices[choice].alternatives[alt]
        player = int(self.decider) if self.decider is not None else 0
        action = Action(choice, alternative, values, player)
        action._id = ident
        return action

    def action_to_string(self, player: Any, ident: int) -> str:
        """The text of action ``ident`` (``player`` as in OpenSpiel: who takes it;
        the text is the same for every player); at a chance node, of its outcome."""
        if self.rng.node is not None:
            return str(self.chance_outcome_text(ident))  # type: ignore[attr-defined]
        return self.action_from_id(ident).text

    def apply_id(self, ident: int) -> list[Any]:
        """Take the legal action with this stable id, or at a chance node apply
        the outcome ``ident`` (see :meth:`State.apply`); returns the history
        entries it ran through.

        :raises IllegalActionError: no legal action has this id.
        """
        if type(ident) is not int:
            raise IllegalActionError(f"an action id is a whole number, not {ident!r}")
        start = len(self.history)  # type: ignore[attr-defined]
        if self.rng.node is not None:
            self.apply_chance(ident)  # type: ignore[attr-defined]
            return self.history.since(start)  # type: ignore[attr-defined,no-any-return]
        for a in self.legal_actions():
            if a.id == ident:
                self._take(a)
                return self.history.since(start)  # type: ignore[attr-defined,no-any-return]
        raise IllegalActionError(f"no legal action has id {ident}")
