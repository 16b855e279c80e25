"""Agents: players that decide from views only.

An agent never sees a :class:`~rulepack.interpreter.state.State`. At each of
its decisions it gets a :class:`Decision`: the player's view (computed only if
the agent asks for it), the texts of the legal actions as that player sees
them, and their number. It answers with the index of the action it takes.

Every agent is seeded, so one game seed fixes every bot choice too
(:func:`agent_seed`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Protocol

from rulepack.interpreter.rng import Rng, mix_seed

if TYPE_CHECKING:  # pragma: no cover
    from rulepack.interpreter.state import State


class Decision:
    """What a player knows when it must decide.

    :ivar player: the deciding seat (0-based).
    :ivar count: number of legal actions.
    """

    __slots__ = ("player", "count", "_state", "_view", "_texts")

    def __init__(self, state: "State", player: int) -> None:
        self.player = player
        self.count = len(state.legal_actions())
        self._state = state
        self._view: dict[str, Any] | None = None
        self._texts: list[str] | None = None

    @property
    def view(self) -> dict[str, Any]:
        """The player's view (see :func:`rulepack.interpreter.views.build_view`)."""
        if self._view is None:
            self._view = self._state.view(self.player)
        return self._view

    @property
    def actions(self) -> list[str]:
        """Texts of the legal actions in canonical order, hidden pieces masked."""
        if self._texts is None:
            render = self._state.describe_for(self.player)
            self._texts = [a.render(render) for a in self._state.legal_actions()]
        return self._texts


class Agent(Protocol):
    """The agent interface: ``choose`` returns an index into ``decision.actions``."""

    name: str

    def choose(self, decision: Decision) -> int: ...


class RandomAgent:
    """Chooses uniformly among the legal actions, from its own seeded generator."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = Rng(seed)

    def choose(self, decision: Decision) -> int:
        return self.rng.below(decision.count)


class FirstAgent:
    """Always takes the first legal action (useful in tests: fully predictable)."""

    name = "first"

    def __init__(self, seed: int = 0) -> None:
        pass

    def choose(self, decision: Decision) -> int:
        return 0


#: Agents by name, as the CLI's ``--seat`` option knows them.
AGENTS: dict[str, Callable[[int], Any]] = {
    "random": RandomAgent,
    "first": FirstAgent,
}


def agent_seed(game_seed: int, seat: int) -> int:
    """The seed of the bot in ``seat`` for a game seeded with ``game_seed``."""
    return mix_seed(game_seed, "agent", seat)


def make_agent(name: str, game_seed: int, seat: int) -> Any:
    """Build a registered agent for a seat. :raises KeyError: unknown name."""
    return AGENTS[name](agent_seed(game_seed, seat))


def play_out(state: "State", agents: list[Any],
             on_action: Callable[["State", int, Any], None] | None = None) -> "State":
    """Let agents play ``state`` to its end (in place); returns the state.

    :param agents: one agent per seat.
    :param on_action: called as ``on_action(state_before, player, action)`` before each action.
    """
    while not state.is_terminal():
        player = state.current_player
        decision = Decision(state, player)
        index = agents[player].choose(decision)
        action = state.legal_actions()[index]
        if on_action is not None:
            on_action(state, player, action)
        state._apply(action)
    return state
