"""Every ruleset as a PettingZoo AEC environment.

``env(ruleset, players=N, render_mode=None, max_steps=None, **options)`` gives
an environment whose agents are ``player_0`` ... ``player_{N-1}``; each
observes a dict ``{"observation": float32 tensor, "action_mask": int8 per
action id}`` (:mod:`rulepack.adapters.spaces`); an action is a stable action
id; chance is drawn by the environment from ``reset(seed=...)``. At the end
every agent is rewarded its return (+1 win, -1 loss, 0 draw); past
``max_steps`` decisions (default: the ruleset's declared ``at most N decisions``,
else the decision limit) the game is truncated.
``render_mode="ansi"``: ``render()`` returns the position as text, as the
seat to decide sees it.
"""

from __future__ import annotations

from typing import Any

from gymnasium import spaces
from pettingzoo import AECEnv

from rulepack.adapters import spaces as rp_spaces
from rulepack.adapters.common import Table, action_id
from rulepack.engine.rng import Rng
from rulepack.engine.state import State


def env(ruleset: str, players: int | None = None, render_mode: str | None = None,
        max_steps: int | None = None, **options: Any) -> "RulepackEnv":
    """A PettingZoo AEC environment for ``ruleset`` (a bundled name or a path).

    :raises RulepackError: bad ruleset, player count or options (located).
    :raises ValueError: an unknown render mode.
    """
    return RulepackEnv(ruleset, players, render_mode, max_steps, **options)


class RulepackEnv(AECEnv):  # type: ignore[misc]
    """See :func:`env`."""

    metadata = {"render_modes": ["ansi"], "name": "rulepack_v0", "is_parallelizable": False,
                "render_fps": 1}

    def __init__(self, ruleset: str, players: int | None = None,
                 render_mode: str | None = None, max_steps: int | None = None,
                 **options: Any) -> None:
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.render_mode = render_mode
        self.table = Table(ruleset, players, options)
        self.possible_agents = [f"player_{i}" for i in range(self.table.num_players)]
        self.agents = list(self.possible_agents)
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        obs = rp_spaces.observation_space(self.table)
        act = rp_spaces.action_space(self.table)
        self.observation_spaces = {a: obs for a in self.possible_agents}
        self.action_spaces = {a: act for a in self.possible_agents}
        self._size = int(act.n)
        self.max_steps = max_steps or self.table.max_game_length
        self._rng: Rng | None = None
        self.state_: State | None = None

    def observation_space(self, agent: str) -> spaces.Space:  # type: ignore[override]
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:  # type: ignore[override]
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self._rng = rp_spaces.generator(seed, self._rng)
        self.state_ = self.table.initial_state()
        rp_spaces.settle(self.state_, self._rng)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._steps = 0
        self._select()

    def _select(self) -> None:
        st = self.state_
        assert st is not None
        if st.is_terminal():
            self.agent_selection = self.agents[0] if self.agents else self.possible_agents[0]
        else:
            self.agent_selection = self.possible_agents[st.current_player]

    def observe(self, agent: str) -> dict[str, Any]:
        assert self.state_ is not None
        return rp_spaces.observe(self.state_, self._seat[agent], self._size)

    def step(self, action: Any) -> None:
        """Play ``action`` (an action id) for the agent to act; ``None`` for an agent
        whose game is over (it leaves, as PettingZoo has it).

        :raises RuntimeError: before ``reset()``, or once every agent has left.
        :raises IllegalActionError: an action that is not a whole number, or no legal
            action's id; the game is as it was.
        :raises ValueError: an action other than ``None`` for an agent whose game is over.
        """
        if self.state_ is None or self._rng is None:
            raise RuntimeError("call reset() before step()")
        if not self.agents:
            raise RuntimeError("the game is over and every agent has left it: call reset() "
                               "to play again")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        st = self.state_
        st.apply_id(action_id(action))
        self._cumulative_rewards[agent] = 0.0
        rp_spaces.settle(st, self._rng)
        self._steps += 1
        self.rewards = {a: 0.0 for a in self.agents}
        if st.is_terminal():
            returns = st.returns()
            for a in self.agents:
                self.rewards[a] = float(returns[self._seat[a]])
                self.terminations[a] = True
        elif self._steps >= self.max_steps:
            for a in self.agents:
                self.truncations[a] = True
        if st.is_terminal() or self._steps >= self.max_steps:
            self.agent_selection = self.agents[0]
        else:
            self._select()
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        assert self.state_ is not None
        seat = self.state_.current_player
        return rp_spaces.render_text(self.state_, seat if seat >= 0 else None)

    def close(self) -> None:
        pass

    def engine_state(self) -> State:
        """The rulepack state underneath (hidden information included)."""
        assert self.state_ is not None
        return self.state_
