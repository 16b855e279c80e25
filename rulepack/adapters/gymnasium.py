"""One-player rulesets (patiences, puzzles) as Gymnasium environments.

``env(ruleset, render_mode=None, max_steps=None, reward="result", **options)``
gives a :class:`gymnasium.Env` whose observation is a dict
``{"observation": float32 tensor, "action_mask": int8 per action id}`` (also in
``info["action_mask"]``) and whose action is a stable action id; chance is
drawn from ``reset(seed=...)``. The reward is the change of the return (+1 for
a win, -1 for a loss, at the end) or, with ``reward="score"``, of the score. An
action that is not legal changes nothing: its reward is 0 and
``info["illegal_action"]`` is True. Past ``max_steps`` steps (default: the
ruleset's declared ``at most N decisions``, else the decision limit) the episode
is truncated. ``render_mode="ansi"``: ``render()``
returns the position as text.
"""

from __future__ import annotations

from typing import Any

import gymnasium

from rulepack.adapters import spaces as rp_spaces
from rulepack.adapters.common import Table, action_id, load_ruleset
from rulepack.engine.rng import Rng
from rulepack.engine.state import State
from rulepack.errors import IllegalActionError


def env(ruleset: str, render_mode: str | None = None, max_steps: int | None = None,
        reward: str = "result", **options: Any) -> "RulepackEnv":
    """A Gymnasium environment for a one-player ``ruleset`` (name or path).

    :raises ValueError: the ruleset is not for one player, or a bad render mode
        or reward.
    :raises RulepackError: bad ruleset or options (located).
    """
    return RulepackEnv(ruleset, render_mode, max_steps, reward, **options)


class RulepackEnv(gymnasium.Env):  # type: ignore[misc]
    """See :func:`env`."""

    metadata = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(self, ruleset: str, render_mode: str | None = None,
                 max_steps: int | None = None, reward: str = "result",
                 **options: Any) -> None:
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        if reward not in ("result", "score"):
            raise ValueError(f"reward must be 'result' or 'score', not {reward!r}")
        game = load_ruleset(ruleset)
        if game.min_players > 1:
            raise ValueError(f"{game.title} is not a one-player ruleset "
                             "(use rulepack.adapters.pettingzoo)")
        self.table = Table(ruleset, 1, options)
        self.render_mode = render_mode
        self.reward_kind = reward
        self.observation_space = rp_spaces.observation_space(self.table)
        self.action_space = rp_spaces.action_space(self.table)
        self._size = int(self.action_space.n)
        self.max_steps = max_steps or self.table.max_game_length
        self._rng: Rng | None = None
        self.state_: State | None = None
        self._steps = 0

    def _observe(self) -> tuple[dict[str, Any], dict[str, Any]]:
        assert self.state_ is not None
        obs = rp_spaces.observe(self.state_, 0, self._size)
        return obs, {"action_mask": obs["action_mask"]}

    def _value(self) -> float:
        assert self.state_ is not None
        return float(self.state_.returns(scores=self.reward_kind == "score")[0])

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
        super().reset(seed=seed)
        self._rng = rp_spaces.generator(seed, self._rng)
        self.state_ = self.table.initial_state()
        rp_spaces.settle(self.state_, self._rng)
        self._steps = 0
        return self._observe()

    def step(self, action: Any) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        """Play an action id; an id no legal action has changes nothing and is told in
        ``info["illegal_action"]``.

        :raises IllegalActionError: an action that is not a whole number (``1.5``).
        """
        st = self.state_
        assert st is not None and self._rng is not None, "call reset() first"
        ident = action_id(action)       # not a whole number: IllegalActionError
        before = self._value()
        illegal = False
        try:
            st.apply_id(ident)
        except IllegalActionError:
            illegal = True
        rp_spaces.settle(st, self._rng)
        self._steps += 1
        obs, info = self._observe()
        info["illegal_action"] = illegal
        terminated = st.is_terminal()
        truncated = not terminated and self._steps >= self.max_steps
        return obs, self._value() - before, terminated, truncated, info

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        assert self.state_ is not None
        return rp_spaces.render_text(self.state_, 0)

    def engine_state(self) -> State:
        """The rulepack state underneath."""
        assert self.state_ is not None
        return self.state_
