"""The engine: a game in progress and everything that reads or changes it.

:mod:`~rulepack.engine.state` (the :class:`State` contract: legal actions, apply,
clone, result, the flow it runs), :mod:`~rulepack.engine.table` (a position's data and
queries), :mod:`~rulepack.engine.effects` (moves, flips, shuffles, claims),
:mod:`~rulepack.engine.moves` (moves and flips of several pieces, compiled by mypyc;
:mod:`~rulepack.engine.native` tells whether they run compiled),
:mod:`~rulepack.engine.log` (the history clones share), :mod:`~rulepack.engine.ops`
(operators and built-ins on values), :mod:`~rulepack.engine.program` (the compiled flow it runs),
:mod:`~rulepack.engine.actions` (history entries), :mod:`~rulepack.engine.values`
(pieces, players, cells, zones), :mod:`~rulepack.engine.runtime` (operations on
values), :mod:`~rulepack.engine.views` (what one player may know),
:mod:`~rulepack.engine.serialize` and :mod:`~rulepack.engine.restore` (JSON),
:mod:`~rulepack.engine.rng` (the seeded generator). It imports only
:mod:`rulepack.patterns` and the ground floor (errors), never the compiler.
"""

from rulepack.engine import native  # noqa: F401,E402  (first: see native.py)

