"""The compiler: ruleset IR → a runnable :class:`~rulepack.compiler.instance.Instance`.

:mod:`~rulepack.compiler.scope` (names), :mod:`~rulepack.compiler.expressions`
(expression IR → compiled expressions), :mod:`~rulepack.compiler.flow` (statements →
the flat program of :mod:`rulepack.engine.program`), :mod:`~rulepack.compiler.instance`
(components, zones, patterns, options for one player count). It builds on the
engine and the patterns; nothing below imports it.
"""
