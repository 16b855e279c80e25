"""A game in progress: the engine contract.

:class:`State` is what players, bots, adapters and tests hold: a
:class:`~rulepack.engine.program.Program` (the compiled game) and a
:class:`~rulepack.engine.position.Position` (everything that has changed), and
the contract of DESIGN.md, modelled on OpenSpiel's ``State``: whose turn it is,
the legal actions, applying one, chance nodes, the result, what a player may
know, copies and JSON. It knows no game: everything it does comes from the
program.

Chance events (shuffles, random choices, rolls) are drawn from the position's
own seeded generator as the flow reaches them and are recorded in its history
next to the players' actions, so one seed fixes the whole game; with
``chance="explicit"`` the state stops at each chance node instead
(:mod:`rulepack.engine.chance`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rulepack.engine import chance as explicit, flow
from rulepack.engine.actions import Action, ChanceEvent, Event, Narration, Reveal
from rulepack.engine.chance import ChanceNode
from rulepack.engine.flow import (CHANCE, DEFAULT_MAX_DECISIONS, FLOW_STEP_LIMIT, TERMINAL,
                                  current_player)
from rulepack.engine.log import Log
from rulepack.engine.observe import Observer, returns, rewards
from rulepack.engine.outcome import Outcome, outcome, scores
from rulepack.engine.position import Position
from rulepack.engine.rng import Rng
from rulepack.engine.serialize import position_from_json, position_to_json
from rulepack.engine.views import build_view
from rulepack.errors import IllegalActionError

if TYPE_CHECKING:  # pragma: no cover
    from rulepack.engine.program import Program

__all__ = ["State", "Action", "ChanceEvent", "Narration", "Reveal", "TERMINAL", "CHANCE",
           "DEFAULT_MAX_DECISIONS", "FLOW_STEP_LIMIT", "new_position", "state_from_json"]


def new_position(program: "Program", seed: int = 0,
                 max_decisions: int = DEFAULT_MAX_DECISIONS,
                 chance: str = "sampled") -> Position:
    """A new game's position: its setup and flow run to the first decision (or,
    with ``chance="explicit"``, to the first chance node). A game of a program
    with a known start (:mod:`rulepack.engine.start`) begins as a copy of it and
    runs on from where the first chance event is drawn.

    :raises ValueError: an unknown chance mode.
    :raises RulesetRuntimeError: the ruleset fails while setting up, or the first
        decision has no legal action.
    """
    start = program.start
    if start is not None and chance == "sampled":
        begun, pc = start
        st = begun.copy()
        st.rng = Rng(seed)
        st.seed = seed
        st.legal = None
        st.terminal = False
        st.max_decisions = max_decisions
        st.memo = {}
        if pc >= 0:
            # the prefix and the rest of the flow share one budget, as in one run
            flow.run(st, pc, begun.steps_left)
    else:
        st = Position.empty(program, seed, max_decisions)
        flow.initial_values(st)
        if chance != "sampled":
            explicit.start(st, chance)
        else:
            flow.run(st, 0)
    if st.rng.node is None:
        flow.legal(st)     # a first decision with no legal action fails here
    return st


def state_from_json(program: "Program", data: dict[str, Any],
                    max_decisions: int = DEFAULT_MAX_DECISIONS) -> "State":
    """A state of ``program`` rebuilt from :meth:`State.to_json` output, its flow
    run on to its pending decision (if it had one).

    :raises RulesetRuntimeError: the data does not fit the program."""
    position = position_from_json(program, data, max_decisions)
    if not position.terminal and data.get("pending", True):
        flow.run(position, position.pc)
    return State(position)


class State:
    """A game in progress. Make one with ``Game.new_game`` (or
    ``Game.state_from_json``); :meth:`apply` is the only method that changes it.

    :param position: the position it plays on (its own from then on).
    """

    __slots__ = ("_position",)

    def __init__(self, position: Position) -> None:
        self._position = position

    def __repr__(self) -> str:
        return f"<State of {self._position.program.name}: {self._position.decisions} decisions>"

    # ------------------------------------------------------------------ the game
    @property
    def program(self) -> "Program":
        """The compiled game it plays (shared by every game of it; never changes)."""
        return self._position.program

    @property
    def position(self) -> Position:
        """Everything that has changed in this game (read it; change it only through
        :meth:`apply` and :meth:`apply_id`). :mod:`rulepack.engine.inspect` reads it
        for outside checkers."""
        return self._position

    @property
    def history(self) -> Log:
        """Every action, chance event, reveal and narration so far, in order (a
        :class:`~rulepack.engine.log.Log` copies share)."""
        return self._position.history

    @property
    def decisions(self) -> int:
        """The decisions taken so far (chance outcomes not counted)."""
        return self._position.decisions

    # ------------------------------------------------------------------ whose turn
    @property
    def current_player(self) -> int:
        """The seat that must decide now, :data:`CHANCE` at a chance node
        (explicit chance only), or :data:`TERMINAL`."""
        st = self._position
        decider = st.decider
        if decider is None or st.terminal:
            return current_player(st)
        # flow.current_player's common case, inline: it is asked before every decision
        # (``+ 0`` makes the seat a plain int at half the cost of int())
        return decider + 0

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self._position.terminal

    def is_chance_node(self) -> bool:
        """Whether the state waits for a chance outcome (explicit chance only)."""
        return self._position.rng.node is not None

    @property
    def chance_node(self) -> ChanceNode | None:
        """The pending draw (its kind, outcomes, exact probabilities, statement and
        place in the ruleset), or ``None``."""
        node: ChanceNode | None = self._position.rng.node
        return node

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """``[(outcome, probability)]`` of the pending draw, outcomes ``0 .. n-1``;
        empty at no chance node (see :func:`rulepack.engine.chance.chance_outcomes`)."""
        return explicit.chance_outcomes(self._position)

    # ------------------------------------------------------------------ actions
    def legal_actions(self) -> list[Action]:
        """The legal actions of the pending decision, in canonical order.

        They are listed when first asked for, not when the flow stops at the
        decision: a bot that only weighs the position an action leads to never
        pays for them. The list is shared with the state: do not change it.
        Empty when no player decides (the end, a chance node).

        :raises RulesetRuntimeError: the player has no legal action, or a guard or
            parameter of an action cannot be computed (located at the ``choose``).
        """
        legal = self._position.legal
        return flow.legal(self._position) if legal is None else legal

    def legal_action_ids(self) -> list[int]:
        """The stable ids of the legal actions, ascending (empty when no player
        decides; see :meth:`~rulepack.engine.program.Program.num_distinct_actions`).

        :raises SemanticError: the program has no fixed action numbering."""
        return sorted([a.id for a in flow.legal(self._position)])

    def apply(self, action: Action | str) -> list[Event]:
        """Take a legal action (an :class:`Action` or its exact text) and advance
        the flow to the next decision, chance node (explicit chance) or the end. A
        number is never read as a position in the legal list: a stable id goes to
        :meth:`apply_id`, a position in the list to :meth:`apply_index`.

        :returns: the history entries it ran through, in order: the action, then
            chance events, reveals, narrations... (one ``apply()`` may run through
            the end of a round and the next shuffle).
        :raises IllegalActionError: the action is not legal here (or is a number).
        :raises RulesetRuntimeError: the ruleset fails while running (located).
        """
        st = self._position
        legal = st.legal
        if legal is None:
            legal = flow.legal(st)
        if type(action) is Action:
            # the legal actions come from the program's action tables, so the one
            # asked for is usually the very object listed (found by identity)
            for listed in legal:
                if listed is action:
                    break
            else:
                if action not in legal:
                    raise IllegalActionError(f"{action!r} is not legal now")
        elif isinstance(action, int):
            raise IllegalActionError(f"apply() takes an Action or its text, not the number "
                                     f"{action!r} (a stable action id goes to apply_id())")
        elif isinstance(action, str):
            matches = [a for a in legal if a.text == action]
            if not matches:
                raise IllegalActionError(f"no legal action {action!r}")
            action = matches[0]
        else:
            raise IllegalActionError(f"{action!r} is not legal now")
        start = len(st.history)
        if st.rng.explicit:
            explicit.take(st, action)  # (stops at chance nodes: rulepack.engine.chance)
        else:
            flow.take(st, action)      # (what _take does, without its call: apply is hot)
        return st.history.since(start)

    def apply_index(self, index: int) -> None:
        """Take the legal action at ``index`` of :meth:`legal_actions` (as a bot that
        chose among them does), as :meth:`apply` but returning nothing (as OpenSpiel's
        ``apply_action``: playouts and searches do not read what it ran through;
        :attr:`history` has it).

        :raises IllegalActionError: no legal action there.
        :raises RulesetRuntimeError: as :meth:`apply`."""
        st = self._position
        legal = st.legal
        if legal is None:
            legal = flow.legal(st)
        if type(index) is not int or not 0 <= index < len(legal):
            raise IllegalActionError(f"no legal action at index {index!r} "
                                     f"(there are {len(legal)})")
        if st.rng.explicit:
            explicit.take(st, legal[index])
        else:
            flow.take(st, legal[index])

    def apply_id(self, ident: int) -> list[Event]:
        """Take the legal action with this stable id, or at a chance node apply
        outcome ``ident`` (see :meth:`apply`).

        :raises IllegalActionError: no legal action (or outcome) has this id."""
        if type(ident) is not int:
            raise IllegalActionError(f"an action id is a whole number, not {ident!r}")
        st = self._position
        if st.rng.node is not None:
            start = len(st.history)
            explicit.apply_chance(st, ident)
            return st.history.since(start)
        for a in flow.legal(st):
            if a.id == ident:
                return self._take(a)
        raise IllegalActionError(f"no legal action has id {ident}")

    def _take(self, action: Action) -> list[Event]:
        st = self._position
        start = len(st.history)
        if st.rng.explicit:
            explicit.take(st, action)  # (stops at chance nodes: rulepack.engine.chance)
        else:
            flow.take(st, action)
        return st.history.since(start)    # (explicit chance may have put back another log)

    def action_to_string(self, player: object, ident: int) -> str:
        """The text of action ``ident`` (``player`` as in OpenSpiel: who takes it;
        the text is the same for every player); at a chance node, of its outcome.

        :raises ValueError: no action has this id.
        :raises IllegalActionError: no such chance outcome here."""
        st = self._position
        if st.rng.node is not None:
            return explicit.outcome_text(st, ident)
        return flow.action_of_id(st, ident).text

    # ------------------------------------------------------------------ results
    def result(self) -> Outcome:
        """Scores, winners and returns of a finished game (or the running scores):
        see :func:`rulepack.engine.outcome.outcome` for the keys."""
        return outcome(self._position)

    def scores(self) -> list[int | float] | None:
        """Each seat's score by the ruleset's ``score`` rule, or ``None`` if it has none.

        :raises RulesetRuntimeError: a score cannot be computed."""
        return scores(self._position)

    def returns(self, scores: bool = False) -> list[float]:
        """Each seat's return (see :func:`rulepack.engine.observe.returns`)."""
        return returns(self._position, scores)

    def rewards(self, scores: bool = False) -> list[float]:
        """The change of the returns over the last step (see
        :func:`rulepack.engine.observe.rewards`)."""
        return rewards(self._position, scores)

    # ------------------------------------------------------------------ what a player knows
    def view(self, player: int) -> dict[str, object]:
        """What ``player`` may know, as JSON-able data (see :mod:`rulepack.engine.views`).

        :raises ValueError: ``player`` is not a seat."""
        return build_view(self._position, player)

    def observation_string(self, player: int) -> str:
        """``player``'s view now as canonical JSON (see :class:`Observer`).

        :raises ValueError: ``player`` is not a seat."""
        return Observer(self._position.program).observation_string(self._position, player)

    def information_state_string(self, player: int) -> str:
        """Everything ``player`` has observed, in order (see :class:`Observer`).

        :raises ValueError: ``player`` is not a seat."""
        return Observer(self._position.program).information_state_string(self._position,
                                                                         player)

    # ------------------------------------------------------------------ copies
    def clone(self) -> "State":
        """An independent copy; cheap (lists of references are copied, pieces shared,
        the history shared until one side adds to it)."""
        return State(self._position.copy())

    def to_json(self, history: bool = True) -> dict[str, object]:
        """Everything about the position, hidden information included (see
        :mod:`rulepack.engine.serialize`); ``history=False``: without the history."""
        return position_to_json(self._position, history)
