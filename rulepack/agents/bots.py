"""Agents: players that decide from views only.

An agent never sees a :class:`~rulepack.engine.state.State`. At each of
its decisions it gets a :class:`Decision`: the player's view (computed only if
the agent asks for it), the texts of the legal actions as that player sees
them, and their number. It answers with the index of the action it takes.

Every agent is seeded, so one game seed fixes every bot choice too
(:func:`agent_seed`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Protocol

from rulepack.engine import flow
from rulepack.engine.queries import describe_for, visible
from rulepack.engine.rng import Rng, mix_seed
from rulepack.engine.values import Piece
from rulepack.engine.views import grid_places
from rulepack.agents.value import WIN_VALUE, evaluate, has_hidden as _has_hidden  # noqa: F401

if TYPE_CHECKING:  # pragma: no cover
    from rulepack.engine.program import Program
    from rulepack.engine.state import State


class Decision:
    """What a player knows when it must decide.

    :ivar player: the deciding seat (0-based).
    :ivar count: number of legal actions.
    """

    __slots__ = ("player", "count", "_state", "_view", "_texts")

    @property
    def program(self) -> "Program":
        """The compiled rules (public knowledge): what a bot needs to look ahead."""
        return self._state.program

    def __init__(self, state: "State", player: int, count: int | None = None) -> None:
        self.player = player
        self.count = len(state.legal_actions()) if count is None else count
        self._state = state
        # _view and _texts are set when first asked for (most bots ask for neither)

    @property
    def view(self) -> dict[str, Any]:
        """The player's view (see :func:`rulepack.engine.views.build_view`)."""
        try:
            return self._view
        except AttributeError:
            self._view: dict[str, Any] = self._state.view(self.player)
            return self._view

    @property
    def actions(self) -> list[str]:
        """Texts of the legal actions in canonical order, hidden pieces masked."""
        try:
            return self._texts
        except AttributeError:
            render = describe_for(self._state.position, self.player)
            self._texts: list[str] = [a.render(render) for a in self._state.legal_actions()]
            return self._texts


class Agent(Protocol):
    """The agent interface: ``choose`` returns an index into ``decision.actions``.

    An agent may also define ``observe(view, reveals)``: :func:`notify` calls it
    with its view after every action (and, if the agent's ``sees_actions`` is
    true, with ``action=`` the action as it saw it, see :func:`seen_action`).
    """

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


class Memory:
    """What a player has seen: for each place of a zone (a grid cell, a position in
    a stack or row) the piece last seen there. A place forgets its piece when the
    view shows it empty, or when that piece shows up somewhere else."""

    def __init__(self) -> None:
        self.places: dict[tuple[str, Any], int] = {}

    def observe(self, view: dict[str, Any], reveals: list[dict[str, Any]] | None = None) -> None:
        """Learn from a view and from the pieces shown since the last one.

        :param reveals: public reveals, each ``{"zone": label, "places": [[position,
            piece id], ...]}`` (pieces turned up and down again between two views),
            and shuffles, ``{"zone": label, "shuffled": True}``.
        """
        for reveal in reveals or []:
            for pos, pid in reveal.get("places", ()):
                if pos is None:
                    continue
                for key in [k for k, v in self.places.items() if v == pid]:
                    del self.places[key]
                self.places[(reveal["zone"], pos)] = pid
        seen_at: dict[int, tuple[str, Any]] = {}
        empty: list[tuple[str, Any]] = []
        for label, zone in view["zones"].items():
            kind = zone["kind"]
            if kind == "grid":
                entries = grid_places(zone)
            elif kind == "pile":
                continue
            else:
                entries = list(enumerate(zone["pieces"]))
                # positions past the end of a stack or row are empty now
                for key in [k for k in self.places if k[0] == label and k[1] >= len(entries)]:
                    empty.append(key)
            for pos, entry in entries:
                if entry is None:
                    empty.append((label, pos))
                elif not entry.get("hidden"):
                    seen_at[entry["id"]] = (label, pos)
        for key in empty:
            self.places.pop(key, None)
        for key in [k for k, pid in self.places.items() if pid in seen_at]:
            del self.places[key]
        for pid, key in seen_at.items():
            self.places[key] = pid


class LookaheadAgent:
    """Looks ahead over its own consecutive decisions and takes the action with
    the best value for itself, averaged over several determinizations of what it
    cannot see (built from its view and its memory of earlier views).

    The value of a position is the ruleset's ``heuristic(p)`` if it declares one,
    else its ``score(p)``, and a win or loss at the end of the game. Knows no game.

    :param samples: determinizations per decision (1 suffices with no hidden pieces).
    :param depth: how many of its own consecutive decisions it searches.
    """

    name = "lookahead"

    def __init__(self, seed: int = 0, samples: int = 4, depth: int = 2) -> None:
        self.rng = Rng(seed)
        self.samples = samples
        self.depth = depth
        self.memory = Memory()

    def observe(self, view: dict[str, Any], reveals: list[dict[str, Any]] | None = None) -> None:
        self.memory.observe(view, reveals)

    def choose(self, decision: Decision) -> int:
        if decision.count == 1:
            return 0
        from rulepack.agents.determinize import determinize
        view = decision.view
        self.memory.observe(view)
        program = decision.program
        player = decision.player
        texts = decision.actions
        index_of: dict[str, list[int]] = {}
        for i, t in enumerate(texts):
            index_of.setdefault(t, []).append(i)
        hidden = _has_hidden(view)
        totals = [0.0] * decision.count
        counted = [0] * decision.count
        for _ in range(self.samples if hidden else 1):
            st = determinize(program, view, self.rng, self.memory.places)
            render = describe_for(st.position, player)
            for j, action in enumerate(st.legal_actions()):
                for i in index_of.get(action.render(render), ()):
                    totals[i] += self._value(st, j, player, self.depth)
                    counted[i] += 1
        best: list[int] = []
        best_value = float("-inf")
        for i in range(decision.count):
            if not counted[i]:
                continue
            v = totals[i] / counted[i]
            if v > best_value + 1e-9:
                best, best_value = [i], v
            elif abs(v - best_value) <= 1e-9:
                best.append(i)
        if not best:
            return self.rng.below(decision.count)
        return best[self.rng.below(len(best))]

    def _value(self, st: Any, index: int, player: int, depth: int) -> float:
        child = st.clone()
        child.apply_index(index)
        if depth > 1 and not child.is_terminal() and child.current_player == player:
            return max(self._value(child, j, player, depth - 1)
                       for j in range(len(child.legal_actions())))
        return evaluate(child, player)


class GreedyAgent(LookaheadAgent):
    """Takes the action whose immediate result is best for itself (a lookahead of
    one decision): for a scored game, the best immediate score change."""

    name = "greedy"

    def __init__(self, seed: int = 0, samples: int = 4) -> None:
        super().__init__(seed, samples=samples, depth=1)


class MemoryAgent(LookaheadAgent):
    """A greedy agent for games of hidden information: it remembers every piece its
    views have shown and where, and weighs each action over many determinizations
    in which remembered pieces lie where it saw them (so a ruleset heuristic can
    tell, with ``knows(p, piece)``, what it remembers from what it guesses)."""

    name = "memory"

    def __init__(self, seed: int = 0, samples: int = 8) -> None:
        super().__init__(seed, samples=samples, depth=1)


#: Agents by name, as the CLI's ``--seat`` option knows them.
AGENTS: dict[str, Callable[..., Any]] = {
    "random": RandomAgent,
    "first": FirstAgent,
    "lookahead": LookaheadAgent,
    "greedy": GreedyAgent,
    "memory": MemoryAgent,
}

#: The search agents (:mod:`rulepack.agents.strong`), which take options
#: (``NAME:OPTION=VALUE,...``); their module is loaded only when one is asked for.
SEARCH_AGENTS = ("mcts", "ismcts", "pimc")


class AgentSpecError(ValueError):
    """A ``--seat`` agent spec that names no agent or gives a bad option."""


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """``"mcts:iterations=300,c=1.4"`` → ``("mcts", {"iterations": "300", "c": "1.4"})``.

    :raises AgentSpecError: an unknown agent, options for an agent that takes
        none, or an option that is not ``NAME=VALUE``.
    """
    name, sep, rest = spec.strip().partition(":")
    name = name.strip().lower()
    if name not in AGENTS and name not in SEARCH_AGENTS:
        raise AgentSpecError(f"unknown agent {name!r} (agents: "
                             f"{', '.join(sorted([*AGENTS, *SEARCH_AGENTS]))})")
    options: dict[str, str] = {}
    for pair in rest.split(",") if sep and rest.strip() else []:
        key, eq, value = pair.partition("=")
        if not eq or not key.strip():
            raise AgentSpecError(f"{pair!r} in {spec!r} is not OPTION=VALUE")
        options[key.strip().lower()] = value.strip()
    if options and name not in SEARCH_AGENTS:
        raise AgentSpecError(f"the {name} agent takes no options")
    return name, options


def check_spec(spec: str) -> str:
    """``spec`` checked and written canonically (lower case, no spaces).

    :raises AgentSpecError: see :func:`parse_spec`; a bad option value.
    """
    name, options = parse_spec(spec)
    search_options(spec, options)
    return name + (":" + ",".join(f"{k}={v}" for k, v in options.items()) if options else "")


def search_options(spec: str, options: dict[str, str]) -> Any:
    """The :class:`~rulepack.agents.search.SearchOptions` of a spec's options.

    :raises AgentSpecError: an unknown option or a bad value.
    """
    from rulepack.agents.search import SearchOptions
    try:
        return SearchOptions.parse(options)
    except ValueError as exc:
        raise AgentSpecError(f"{spec}: {exc}") from None


def agent_seed(game_seed: int, seat: int) -> int:
    """The seed of the bot in ``seat`` for a game seeded with ``game_seed``."""
    return mix_seed(game_seed, "agent", seat)


def make_agent(spec: str, game_seed: int, seat: int) -> Any:
    """Build an agent for a seat from its spec: a name, or for a search agent
    ``NAME:OPTION=VALUE,...`` (see :class:`~rulepack.agents.search.SearchOptions`;
    the option ``seed=N`` seeds it as a game seeded ``N`` would).

    :raises KeyError: an unknown name. :raises AgentSpecError: bad options.
    """
    if ":" not in spec and spec not in SEARCH_AGENTS:
        return AGENTS[spec](agent_seed(game_seed, seat))
    name, options = parse_spec(spec)
    if name not in SEARCH_AGENTS:
        return AGENTS[name](agent_seed(game_seed, seat))
    from rulepack.agents.strong import SEARCHERS
    opts = search_options(spec, options)
    seed = agent_seed(game_seed if opts.seed is None else opts.seed, seat)
    return SEARCHERS[name](seed, search=opts)


def play_out(state: "State", agents: list[Any],
             on_action: Callable[["State", int, Any], None] | None = None,
             after_action: Callable[["State", int, int, int], None] | None = None) -> "State":
    """Let agents play ``state`` to its end (in place); returns the state.

    :param agents: one agent per seat.
    :param on_action: called as ``on_action(state_before, player, action)`` before each action.
    :param after_action: called as ``after_action(state, player, index, since)`` after
        each: ``index`` of the action among the legal actions, ``since`` the length
        of the history before it (a game record, for instance).
    """
    observers = [(seat, a) for seat, a in enumerate(agents) if hasattr(a, "observe")]
    watched = bool(observers) or on_action is not None or after_action is not None
    if not watched:              # nobody watches (simulations): no bookkeeping
        position = state.position
        if not position.rng.explicit:
            # the engine's flow on the position, as State.legal_actions and
            # apply_index run it (chance sampled: no chance node stops it)
            while (decider := position.decider) is not None and not position.terminal:
                player = decider + 0             # (a plain int, as current_player gives)
                legal = flow.legal(position)
                index = agents[player].choose(Decision(state, player, len(legal)))
                if type(index) is not int or not 0 <= index < len(legal):
                    state.apply_index(index)     # (raises its IllegalActionError)
                flow.take(position, legal[index])
        else:
            legal_actions, apply = state.legal_actions, state.apply_index
            while (player := state.current_player) >= 0:     # (not the end, not chance)
                apply(agents[player].choose(Decision(state, player, len(legal_actions()))))
        if not state.is_terminal():
            raise ValueError("play_out() plays games whose chance is sampled, not explicit")
        return state
    while not state.is_terminal():
        player = state.current_player
        index = agents[player].choose(Decision(state, player))
        action = state.legal_actions()[index]
        if on_action is not None:
            on_action(state, player, action)
        start = len(state.history)
        before = seen_before(state, action, observers)
        state.apply_index(index)
        if after_action is not None:
            after_action(state, player, index, start)
        notify(observers, state, start, before)
    return state


def seen_before(state: "State", action: Any, observers: list[tuple[int, Any]]) -> dict[int, set[int]]:
    """For each observing seat, the pieces of ``action`` it sees before it is taken
    (pass it to :func:`notify` after taking it)."""
    if not observers:
        return {}
    pieces = pieces_of(action.values)
    position = state.position
    return {seat: {p.id for p in pieces if visible(position, p, seat)} for seat, _ in observers}


def pieces_of(value: Any) -> list[Piece]:
    """Every piece inside an action value (tuples and lists included)."""
    if type(value) is Piece:
        return [value]
    if isinstance(value, (list, tuple)):
        return [p for v in value for p in pieces_of(v)]
    return []


def seen_action(state: "State", action: Any, seat: int, before: set[int]) -> tuple[Any, ...]:
    """An action as ``seat`` saw it: ``(choice, alternative, values)`` with each piece
    as ``("piece", id)`` if the seat sees it after the action or, for the seat's own
    action, saw it before (``before``: it chose it), else ``("hidden", back)``;
    other values as they are (they are public). Another player's action reads
    as the history shows it to the seat: a choice made among pieces everyone saw
    but that ends out of sight ("keep a tile") is not told."""
    own = getattr(action, "player", seat) == seat

    def mask(v: Any) -> Any:
        if type(v) is Piece:
            if (own and v.id in before) or visible(state.position, v, seat):
                return ("piece", v.id)
            return ("hidden", v.back)
        if isinstance(v, (list, tuple)):
            return tuple(mask(x) for x in v)
        return v
    return (action.choice, action.alt, tuple(mask(v) for v in action.values))


def notify(observers: list[tuple[int, Any]], state: "State", since: int | None = None,
           before: dict[int, set[int]] | None = None) -> None:
    """Show each observing agent its view of ``state`` (after every action), the
    pieces the flow showed to everyone and the zones it shuffled since history
    entry ``since``, and, given ``before`` (from :func:`seen_before`), the action
    as the agent saw it (:func:`seen_action`), to agents whose ``observe`` takes it."""
    if not observers:
        return
    from rulepack.engine.state import Action, ChanceEvent, Reveal
    reveals: list[dict[str, Any]] = []
    taken = None
    if since is not None:
        for event in state.history[since:]:
            if isinstance(event, Reveal):
                reveals.append({"zone": event.zone,
                                "places": [[pos, p.id] for pos, p in zip(event.places,
                                                                         event.pieces)]})
            elif isinstance(event, ChanceEvent) and event.kind == "shuffle":
                reveals.append({"zone": event.detail, "shuffled": True})
            elif isinstance(event, Action) and taken is None:
                taken = event
    for seat, agent in observers:
        if taken is not None and before is not None and getattr(agent, "sees_actions", False):
            agent.observe(state.view(seat), reveals,
                          action=seen_action(state, taken, seat, before.get(seat, set())))
        else:
            agent.observe(state.view(seat), reveals)
