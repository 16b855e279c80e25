"""Gymnasium spaces and arrays of a ruleset instance, shared by the PettingZoo and
Gymnasium adapters.

An observation is a dict: ``"observation"``, the engine's observation tensor
(:func:`rulepack.engine.tensors.tensor_layout`) as float32, and
``"action_mask"``, one int8 per stable action id, 1 where the action is legal
for the observing seat now. Chance is resolved by the environment's own
generator (seeded by ``reset(seed=...)``), never by the agents.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces

from rulepack.adapters.common import Table
from rulepack.engine.chance import sample_chance
from rulepack.engine.observe import Observer
from rulepack.engine.queries import describe_for
from rulepack.engine.tensors import tensor_layout
from rulepack.engine.rng import Rng, mix_seed
from rulepack.engine.state import State


def observation_space(table: Table) -> spaces.Dict:
    """The observation space of every seat: bounded counts and one-hots; the
    scores, the flow's counters and the variables unbounded."""
    program = table.instance.program()
    lay = tensor_layout(program)
    high = np.full(lay.size, float(max(1, lay.pieces, lay.looks + 1)), np.float32)
    low = np.zeros(lay.size, np.float32)
    for start, stop in lay.unbounded():              # scores, counters, variables
        low[start:stop] = -np.inf
        high[start:stop] = np.inf
    size = program.num_distinct_actions()
    return spaces.Dict({
        "observation": spaces.Box(low, high, (lay.size,), np.float32),
        "action_mask": spaces.Box(0, 1, (size,), np.int8),
    })


def action_space(table: Table) -> spaces.Discrete:
    """One discrete action per stable action id."""
    return spaces.Discrete(table.instance.program().num_distinct_actions())


def observe(state: State, seat: int, size: int) -> dict[str, Any]:
    """``seat``'s observation of ``state`` (see the module's description)."""
    observer = Observer(state.program)
    obs = np.zeros(observer.layout.size, np.float32)
    entries = observer.observation_entries(state.position, seat)
    if entries:
        obs[np.fromiter(entries.keys(), np.int64, len(entries))] = \
            np.fromiter(entries.values(), np.float32, len(entries))
    mask = np.zeros(size, np.int8)
    if state.current_player == seat:
        mask[state.legal_action_ids()] = 1
    return {"observation": obs, "action_mask": mask}


def settle(state: State, rng: Rng) -> None:
    """Draw every pending chance outcome with ``rng`` until a seat decides or the
    game ends."""
    while state.is_chance_node():
        state.apply_id(sample_chance(state.position, rng))


def generator(seed: int | None, previous: Rng | None) -> Rng:
    """The environment's chance generator after ``reset(seed)``: from the seed,
    or, without one, drawn from the previous generator (or the OS)."""
    if seed is not None:
        return Rng(mix_seed(int(seed), "rulepack-env"))
    if previous is not None:
        return Rng(previous.below(2 ** 62))
    import secrets
    return Rng(secrets.randbits(62))


def render_text(state: State, seat: int | None) -> str:
    """The position as text for ``render_mode="ansi"``: every zone by label with
    its pieces as ``seat`` sees them (``None``: everything), who decides, the
    legal actions and the result."""
    lines = [f"{state.program.name}: " + ("game over" if state.is_terminal()
                                          else f"player {state.current_player + 1} to decide")]
    render = describe_for(state.position, seat)
    for info in state.program.zones[1:]:
        content = [p for p in state.position.zones[info.index] if p is not None]
        if content:
            lines.append(f"  {info.label}: " + ", ".join(render(p) for p in content))
    if not state.is_terminal():
        lines.append("  legal: " + "; ".join(a.render(render) for a in state.legal_actions()))
    else:
        lines.append(f"  returns: {state.returns()}")
    return "\n".join(lines)
