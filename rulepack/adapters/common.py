"""What the adapters share: a ruleset, a player count and options, loaded once.

:class:`Table` names one instance of a ruleset (name or path, players, options)
and starts its games in explicit chance. Rulesets are loaded once per process
(:func:`load_ruleset`), so an adapter can rebuild a game from its parameters
cheaply (OpenSpiel does, to deserialize and to clone).
"""

from __future__ import annotations

import operator
from dataclasses import dataclass, field
from typing import Any

import rulepack
from rulepack.errors import IllegalActionError
from rulepack.game import Game
from rulepack.engine.state import DEFAULT_MAX_DECISIONS, State

_LOADED: dict[str, Game] = {}


def load_ruleset(ruleset: str) -> Game:
    """A bundled ruleset by name or a ruleset file by path, loaded once.

    :raises RulepackError: the ruleset cannot be found or is invalid (located).
    """
    game = _LOADED.get(ruleset)
    if game is None:
        game = _LOADED[ruleset] = rulepack.load(ruleset)
    return game


def action_id(action: Any) -> int:
    """An action given to an environment's ``step()`` as an action id: a whole number,
    a Python ``int`` or what converts to one exactly (a NumPy integer, as a space's
    ``sample()`` or a policy gives, or a 0-d integer array).

    :raises IllegalActionError: anything else (``1.5``, ``"3"``, ``True``): before,
        ``int()`` played ``1.5`` as action 1 and ``"3"`` as action 3.
    """
    if not isinstance(action, bool):
        try:
            return operator.index(action)
        except TypeError:
            pass
    raise IllegalActionError(f"an action is an action id, a whole number, not {action!r:.60}")


@dataclass
class Table:
    """One instance of a ruleset: the game, its player count and options.

    :param ruleset: a bundled ruleset's name or a path to a ruleset file.
    :param players: the number of seats (``None``: the ruleset's minimum).
    :param options: option name → value (strings are converted).
    :raises RulepackError: bad ruleset, player count or options (located).
    """

    ruleset: str
    players: int | None = None
    options: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.game = load_ruleset(self.ruleset)
        if self.players is None:
            self.players = self.game.min_players
        self.options = self.game.parse_options(self.options)
        self.instance = self.game.instance(self.players, self.options)

    @property
    def num_players(self) -> int:
        return int(self.instance.num_players)

    @property
    def max_game_length(self) -> int:
        """The most decisions a game takes: the ruleset's declared bound (``at most
        N decisions``) or the decision limit (see ``State.max_game_length``)."""
        longest = self.instance.longest
        return DEFAULT_MAX_DECISIONS if longest is None else min(longest, DEFAULT_MAX_DECISIONS)

    def initial_state(self) -> State:
        """A copy of the table's first position in explicit chance (made once:
        every explicit game starts alike; chance comes after)."""
        first = self.__dict__.get("_initial")
        if first is None:
            first = self.__dict__["_initial"] = self.new_state(0)
        return first.clone()

    def new_state(self, seed: int = 0) -> State:
        """A new game in explicit chance (it stops at chance nodes)."""
        return self.game.new_game(self.players, seed=seed, options=self.options,
                                  chance="explicit")

    def sampled_state(self, seed: int = 0) -> State:
        """A new game in sampled chance (drawn from ``seed`` inside ``apply()``)."""
        return self.game.new_game(self.players, seed=seed, options=self.options)
