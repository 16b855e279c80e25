"""The types of the reference backend's closures (see :mod:`rulepack.compiler.expressions`).

A compiled expression is a function of a position that returns a value of the
rules language (``None``, ``bool``, ``int``, ``str``, lists, tuples, maps and the
classes of :mod:`rulepack.engine.values`): ``object`` to the type checker, which
the code that reads it narrows.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:  # pragma: no cover
    from rulepack.engine.position import Position

#: a compiled expression: ``f(position) -> value``
Fn = Callable[["Position"], object]

#: stores a value into a position's variables (a loop's or a parameter's names)
Binder = Callable[["Position", object], None]
