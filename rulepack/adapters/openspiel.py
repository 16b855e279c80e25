"""Every ruleset as an OpenSpiel game.

After ``import rulepack.adapters.openspiel``::

    game = pyspiel.load_game("rulepack", {"ruleset": "multzo", "players": 3})

loads any ruleset, bundled (by name) or a file (by path). Parameters:

- ``ruleset``: a bundled ruleset's name or a path (default ``tic-tac-toe``);
- ``players``: the number of seats (0, the default: the ruleset's minimum);
- ``max_game_length``: decisions (chance outcomes not counted, as in OpenSpiel)
  after which a game is truncated: a game that would need one more decision is
  terminal, with returns 0 for all (0, the default: the engine's
  ``max_game_length``, the bound the ruleset declares with ``at most N
  decisions``, else the decision limit, 100,000);
- ``options``: the ruleset's options as ``"name:value;name:value"``;
- ``chance``: ``explicit`` (the default: a chance node per draw, as OpenSpiel's
  algorithms that reason about chance need) or ``sampled`` (chance drawn inside
  each move from the game's ``seed`` and a count of the games started: a
  sampled-stochastic game, with far fewer moves; information-state strings then
  hold the history as the player sees it now, not the positions it went
  through);
- ``seed``: the seed of the sampled games (0);
- ``returns``: ``outcome`` (the default: +1 for a winner, -1 for a loser, 0
  for all in a draw; utilities -1 to 1, zero-sum with two players) or
  ``score`` (each seat's final score, for a ruleset whose result is a number,
  such as chips won: utilities in the range the ruleset declares with ``scores
  from LO to HI`` or that its score formula bounds, zero-sum or constant-sum
  when it declares ``scores sum to N``, which every game's end checks);
- each option of the bundled rulesets by its own name too (``rounds``,
  ``jokers``, ``six_pack``, ``grid``, ``blind``), with the bundled default.

The game is explicit-stochastic when the ruleset has chance (a chance node per
draw: :mod:`rulepack.engine.chance`); actions are the engine's stable ids
(``num_distinct_actions()`` fixed per instance); observation and
information-state strings and tensors are the engine's
(:mod:`rulepack.engine.observe`); returns are +1/-1/0, or the scores. States clone in the cost
of ``State.clone()`` and serialize as their parameters and the ids applied.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pyspiel

import rulepack

from rulepack.adapters.common import Table, load_ruleset
from rulepack.engine.actions import Action
from rulepack.engine.chance import CHANCE
from rulepack.engine.observe import Observer as EngineObserver, game_type
from rulepack.engine.tensors import tensor_layout
from rulepack.engine.rng import mix_seed
from rulepack.engine.state import TERMINAL, State
from rulepack.loader import bundled_rulesets

SHORT_NAME = "rulepack"

_TERMINAL = int(pyspiel.PlayerId.TERMINAL)
assert (CHANCE, TERMINAL) == (int(pyspiel.PlayerId.CHANCE), _TERMINAL)


def _bundled_options() -> dict[str, Any]:
    """Each option of a bundled ruleset with its default (first declaration wins).

    Read from each ruleset unchecked and not kept: a game loads (and keeps) only
    the ruleset it plays; every bundled one kept compiled would be some 27,000
    more objects that each full garbage collection of the process walks."""
    out: dict[str, Any] = {}
    for name in bundled_rulesets():
        for option, value in rulepack.load(name, check=False).default_options().items():
            out.setdefault(option, value)
    return out


_BUNDLED_OPTIONS = _bundled_options()
_PARAMETERS: dict[str, Any] = {"ruleset": "tic-tac-toe", "players": 0, "max_game_length": 0,
                               "options": "", "chance": "explicit", "seed": 0,
                               "returns": "outcome",
                               **_BUNDLED_OPTIONS}


def _type(info: dict[str, Any] | None = None) -> Any:
    info = info or {}
    modes = {"explicit_stochastic": pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
             "sampled_stochastic": pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
             "deterministic": pyspiel.GameType.ChanceMode.DETERMINISTIC}
    return pyspiel.GameType(
        short_name=SHORT_NAME,
        long_name="rulepack: " + info.get("title", "any ruleset"),
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=modes[info.get("chance_mode", "explicit_stochastic")],
        information=(pyspiel.GameType.Information.PERFECT_INFORMATION
                     if info.get("information") == "perfect"
                     else pyspiel.GameType.Information.IMPERFECT_INFORMATION),
        utility={"zero_sum": pyspiel.GameType.Utility.ZERO_SUM,
                 "constant_sum": pyspiel.GameType.Utility.CONSTANT_SUM}.get(
            info.get("utility", ""), pyspiel.GameType.Utility.GENERAL_SUM),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=info.get("max_players", 16),
        min_num_players=info.get("min_players", 1),
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_PARAMETERS,
    )


def _options(params: dict[str, Any], table_options: dict[str, Any]) -> dict[str, Any]:
    """The ruleset's options from the game's parameters."""
    out: dict[str, Any] = {}
    for name in table_options:
        if name in params:
            out[name] = params[name]
    text = str(params.get("options") or "")
    for part in filter(None, (p.strip() for p in text.split(";"))):
        name, _, value = part.partition(":")
        out[name.strip()] = value.strip()
    return out


class RulepackGame(pyspiel.Game):
    """A ruleset as an OpenSpiel game (see the module's description).

    :raises RulepackError: the ruleset cannot be loaded, or its options or player
        count are wrong, or its actions have no fixed number (located).
    :raises ValueError: ``chance`` or ``returns`` is not one of its words, or
        ``returns`` is ``score`` for a ruleset without a score or a range of it.
    """

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        ruleset = str(params.get("ruleset") or "tic-tac-toe")
        game = load_ruleset(ruleset)
        players = int(params.get("players") or 0) or game.min_players
        options = _options(params, game.options)
        self.table = Table(ruleset, players, options)
        self.sampled = str(params.get("chance") or "explicit") == "sampled"
        if params.get("chance") not in (None, "", "explicit", "sampled"):
            raise ValueError(f"chance must be 'explicit' or 'sampled', not {params['chance']!r}")
        self.seed = int(params.get("seed") or 0)
        self.started = 0
        returns = str(params.get("returns") or "outcome")
        self.score_returns = returns == "score"
        start = self.table.new_state(0)
        program = start.program
        info = game_type(program, self.table.sampled_state(0).position, returns)
        if self.sampled and info["chance_mode"] == "explicit_stochastic":
            info["chance_mode"] = "sampled_stochastic"
        info.update(title=game.title, min_players=game.min_players,
                    max_players=game.max_players)
        self.rp_info = info
        length = int(params.get("max_game_length") or 0) or self.table.max_game_length
        game_info = pyspiel.GameInfo(
            num_distinct_actions=program.num_distinct_actions(),
            max_chance_outcomes=program.max_chance_outcomes()
            if info["chance_mode"] != "deterministic" else 0,
            num_players=players,
            min_utility=info["min_utility"],
            max_utility=info["max_utility"],
            utility_sum=info["utility_sum"],
            max_game_length=length)
        self.max_length = length
        layout = tensor_layout(program)
        self.observation_size = layout.size
        self.information_size = layout.information_size
        super().__init__(_type(info), game_info, params)

    def new_initial_state(self) -> "RulepackState":
        """A new game (its setup runs when first looked at: clones never run it);
        in sampled chance each new game has a seed of its own."""
        seed = None
        if self.sampled:
            seed = mix_seed(self.seed, self.started)
            self.started += 1
        return RulepackState(self, seed)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> "Observer":
        """The engine's observations (``perfect_recall``: information states)."""
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return Observer(self, recall)


class _Holder:
    """The engine state of an OpenSpiel state, with the ids applied to it.

    OpenSpiel clones a Python state by deep-copying its attributes and
    serializes them with pickle: a holder copies as ``State.clone()`` and
    pickles as its table's parameters and the ids applied (replayed on load).
    """

    __slots__ = ("table", "state", "moves", "texts", "seed", "legal", "ids", "by_id")

    def __init__(self, table: Table, state: State | None, moves: list[int],
                 seed: int | None = None) -> None:
        self.table = table
        self.state = state
        self.moves = moves
        #: the game's seed in sampled chance (``None``: explicit chance)
        self.seed = seed
        #: after how many moves, how many legal actions read alike
        self.texts: tuple[int, dict[str, int]] | None = None
        #: the engine's legal list last seen, its ids ascending and id → action
        #: (the engine keeps one list per decision: its identity says it is the same)
        self.legal: list[Action] | None = None
        self.ids: list[int] = []
        self.by_id: dict[int, Action] = {}

    def legal_ids(self, st: State) -> list[int]:
        """The ids of ``st``'s legal actions, ascending (a list of the holder's:
        callers copy it)."""
        legal = st.legal_actions()
        if legal is not self.legal:
            by_id = self.by_id = {a.id: a for a in legal}
            self.ids = sorted(by_id)
            self.legal = legal
        return self.ids

    def get(self) -> State:
        if self.state is None:
            self.state = self.table.initial_state() if self.seed is None \
                else self.table.sampled_state(self.seed)
            for m in self.moves:
                self.state.apply_id(m)
        return self.state

    def __deepcopy__(self, memo: Any) -> "_Holder":
        return _Holder(self.table, self.get().clone(), list(self.moves), self.seed)

    def __reduce__(self) -> tuple[Any, ...]:
        t = self.table
        return (_restore, (t.ruleset, t.players, dict(t.options), list(self.moves), self.seed))


def _restore(ruleset: str, players: int, options: dict[str, Any], moves: list[int],
             seed: int | None = None) -> _Holder:
    return _Holder(Table(ruleset, players, options), None, moves, seed)


class RulepackState(pyspiel.State):
    """One position of a :class:`RulepackGame`."""

    def __init__(self, game: RulepackGame, seed: int | None = None) -> None:
        super().__init__(game)
        self._rp = _Holder(game.table, None, [], seed)
        self._limit = game.max_length
        self._scores = game.score_returns

    @property
    def engine_state(self) -> State:
        """The rulepack :class:`~rulepack.engine.state.State` underneath."""
        return self._rp.get()

    def current_player(self) -> int:
        # the engine's CHANCE and TERMINAL are OpenSpiel's own numbers; a game
        # that would need a decision past the limit is truncated
        rp = self._rp
        st = (rp.state or rp.get()).position
        if st.terminal or st.decider is None:          # as State.current_player
            return CHANCE if st.rng.node is not None else _TERMINAL
        return _TERMINAL if st.decisions >= self._limit else int(st.decider)

    def _legal_actions(self, player: int) -> list[int]:
        rp = self._rp
        return rp.legal_ids(rp.state or rp.get())[:]

    # is_chance_node and legal_actions answer Python callers at once, as
    # OpenSpiel's own C++ methods answer them (which its C++ code still calls):
    # a call through C++ comes back to Python once or twice per call
    def is_chance_node(self) -> bool:
        rp = self._rp
        return (rp.state or rp.get()).is_chance_node()

    def legal_actions(self, player: int | None = None) -> list[int]:
        """The legal action ids of ``player`` (default: whoever moves now): the
        outcomes at a chance node, none at the end or for a player who does not
        move now (as OpenSpiel's ``State::LegalActions``).

        :raises ValueError: a negative ``player`` who does not move now."""
        rp = self._rp
        st = rp.state or rp.get()
        at = st.position
        if player is None and at.decider is not None and not at.terminal \
                and at.decisions < self._limit:
            return rp.legal_ids(st)[:]            # the common case, at once
        now = self.current_player()
        if player is None:
            player = now
        if now == _TERMINAL:
            return []
        if now == CHANCE:
            return list(range(len(st.chance_outcomes())))
        if player == now:
            return rp.legal_ids(st)[:]
        if player < 0:
            raise ValueError(f"legal_actions: player {player} does not move here")
        return []

    def chance_outcomes(self) -> list[tuple[int, float]]:
        rp = self._rp
        return (rp.state or rp.get()).chance_outcomes()

    def _apply_action(self, action: int) -> None:
        rp = self._rp
        st = rp.state or rp.get()
        if st.is_chance_node():
            st.apply_id(action)
        else:
            # the legal action with this id, from the holder's table (State.apply_id
            # would search the legal list for it)
            legal = st.legal_actions()
            taken = rp.by_id.get(action) if legal is rp.legal else None
            if taken is None:
                st.apply_id(action)
            else:
                st.apply(taken)
        rp.moves.append(action)

    def _action_to_string(self, player: int, action: int) -> str:
        """The engine's text; two legal actions that read alike (two identical
        tiles) are told apart by their ids."""
        st = self._rp.get()
        text = st.action_to_string(player, int(action))
        if player >= 0 and not st.is_chance_node():
            seen = self._rp.texts
            if seen is None or seen[0] != len(self._rp.moves):
                counts: dict[str, int] = {}
                for a in st.legal_actions():
                    counts[a.text] = counts.get(a.text, 0) + 1
                seen = self._rp.texts = (len(self._rp.moves), counts)
            if seen[1].get(text, 0) > 1:
                text += f" (action {int(action)})"
        return text

    def is_terminal(self) -> bool:
        rp = self._rp
        st = rp.state or rp.get()
        return st.is_terminal() or (st.decisions >= self._limit and st.current_player >= 0)

    def returns(self) -> list[float]:
        """Each seat's return: 0 for all before the end and in a truncated game;
        at the end the outcome (+1/-1/0) or, with ``returns: score``, the scores.

        :raises RulesetRuntimeError: the final scores break the ruleset's ``scores
            from ... to ...`` or ``scores sum to ...`` (located at it)."""
        st = self._rp.get()
        if not st.is_terminal():
            return [0.0] * st.program.num_players
        return st.returns(self._scores)

    def __str__(self) -> str:
        """The whole position (hidden information included), without its history:
        two paths to one position give one string."""
        return json.dumps(self._rp.get().to_json(history=False), sort_keys=True,
                          separators=(",", ":"))


class Observer:
    """OpenSpiel's Python observer over the engine's observations."""

    def __init__(self, game: RulepackGame, recall: bool) -> None:
        self.recall = recall
        self.engine = EngineObserver(game.table.instance.program())
        size = game.information_size if recall else game.observation_size
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"information_state" if recall else "observation": self.tensor}

    def set_from(self, state: RulepackState, player: int) -> None:
        st = state.engine_state.position
        entries = self.engine.information_state_entries(st, player) if self.recall \
            else self.engine.observation_entries(st, player)
        tensor = self.tensor
        tensor.fill(0.0)
        if entries:
            tensor[np.fromiter(entries.keys(), np.int64, len(entries))] = \
                np.fromiter(entries.values(), np.float32, len(entries))

    def string_from(self, state: RulepackState, player: int) -> str:
        st = state.engine_state
        return st.information_state_string(player) if self.recall \
            else st.observation_string(player)


pyspiel.register_game(_type(), RulepackGame)
