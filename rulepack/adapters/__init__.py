"""Every ruleset as an OpenSpiel game, a PettingZoo environment and a Gymnasium
environment (see docs/adapters.md).

Each adapter is a module of its own, imported only when wanted (each needs its
extra: ``rulepack[openspiel]``, ``rulepack[pettingzoo]``, which brings
Gymnasium too):

- :mod:`rulepack.adapters.openspiel`: ``pyspiel.load_game("rulepack", {...})``;
- :mod:`rulepack.adapters.pettingzoo`: ``env(ruleset, players=N, **options)``;
- :mod:`rulepack.adapters.gymnasium`: ``env(ruleset, **options)`` for one-player rulesets.

They are thin: everything they report comes from the engine's contract
(stable action ids, explicit chance, observations; :mod:`rulepack.engine`),
through :class:`rulepack.adapters.common.Table`.
"""
