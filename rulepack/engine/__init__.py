"""The engine: a game in progress and everything that reads or changes it.

A :class:`~rulepack.engine.program.Program` (the compiled game, from the
compiler; its zones in :mod:`~rulepack.engine.zones`) is played on a
:class:`~rulepack.engine.position.Position` (everything that changes). The
contract players, bots and adapters hold is :mod:`~rulepack.engine.state`'s
``State`` (a program and a position); :mod:`~rulepack.engine.flow` runs the
flow (to the next decision, the legal actions, an action's effects),
:mod:`~rulepack.engine.chance` stops at chance nodes, :mod:`~rulepack.engine.start`
finds where every game starts. The runtime functions the flow's code calls:
:mod:`~rulepack.engine.effects` (moves, flips, shuffles, claims; those of
several pieces in :mod:`~rulepack.engine.moves`, compiled by mypyc:
:mod:`~rulepack.engine.native` tells whether), :mod:`~rulepack.engine.queries`
(seats in turn, cells, who sees what), :mod:`~rulepack.engine.dice`,
:mod:`~rulepack.engine.runtime` and :mod:`~rulepack.engine.ops` (operations on
values). What players know: :mod:`~rulepack.engine.views`,
:mod:`~rulepack.engine.observe` (the Observer: strings and tensors, with
:mod:`~rulepack.engine.tensors`), :mod:`~rulepack.engine.sightings`; results:
:mod:`~rulepack.engine.outcome`; records of a position:
:mod:`~rulepack.engine.serialize` (JSON), :mod:`~rulepack.engine.log` (the
history copies share), :mod:`~rulepack.engine.actions` (its entries),
:mod:`~rulepack.engine.inspect` (for outside checkers). Values:
:mod:`~rulepack.engine.values`; the seeded generator: :mod:`~rulepack.engine.rng`.
It imports only :mod:`rulepack.patterns` and the ground floor, never the compiler.
"""

from rulepack.engine import native  # noqa: F401,E402  (first: see native.py)
