"""Deprecated: the interpreter was split by job into layered packages.

``rulepack.interpreter.X`` still imports, with a :class:`DeprecationWarning`, for
one release; new code imports from the packages below.

=============================  ====================================
old module                     new module
=============================  ====================================
``interpreter.state``          :mod:`rulepack.engine.state`
``interpreter.values``         :mod:`rulepack.engine.values`
``interpreter.rng``            :mod:`rulepack.engine.rng`
``interpreter.runtime``        :mod:`rulepack.engine.runtime`
``interpreter.views``          :mod:`rulepack.engine.views`
``interpreter.serialize``      :mod:`rulepack.engine.serialize`
``interpreter.scope``          :mod:`rulepack.compiler.scope`
``interpreter.expressions``    :mod:`rulepack.compiler.expressions`
``interpreter.flow``           :mod:`rulepack.compiler.flow`
``interpreter.instance``       :mod:`rulepack.compiler.instance`
``interpreter.patterns``       :mod:`rulepack.patterns.match`
``interpreter.partition``      :mod:`rulepack.patterns.partition`
``interpreter.game``           :mod:`rulepack.game`
``interpreter.agents``         :mod:`rulepack.agents.bots`
``interpreter.determinize``    :mod:`rulepack.agents.determinize`
=============================  ====================================
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
import warnings
from types import ModuleType
from typing import Any, Sequence

#: Old submodule name → the module that took its place.
MOVED = {
    "state": "rulepack.engine.state",
    "values": "rulepack.engine.values",
    "rng": "rulepack.engine.rng",
    "runtime": "rulepack.engine.runtime",
    "views": "rulepack.engine.views",
    "serialize": "rulepack.engine.serialize",
    "scope": "rulepack.compiler.scope",
    "expressions": "rulepack.compiler.expressions",
    "flow": "rulepack.compiler.flow",
    "instance": "rulepack.compiler.instance",
    "patterns": "rulepack.patterns.match",
    "partition": "rulepack.patterns.partition",
    "game": "rulepack.game",
    "agents": "rulepack.agents.bots",
    "determinize": "rulepack.agents.determinize",
}


class _MovedFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Answers ``import rulepack.interpreter.X`` with the module that replaced it."""

    def __init__(self) -> None:
        self._specs: dict[int, Any] = {}

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        prefix, _, name = fullname.rpartition(".")
        if prefix != __name__ or name not in MOVED:
            return None
        return importlib.util.spec_from_loader(fullname, self)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        name = spec.name.rpartition(".")[2]
        warnings.warn(f"{spec.name} is deprecated; import {MOVED[name]} instead",
                      DeprecationWarning, stacklevel=2)
        module = importlib.import_module(MOVED[name])
        self._specs[id(module)] = module.__spec__
        return module

    def exec_module(self, module: ModuleType) -> None:
        # The import system stamped the old name's spec on the real module: put its own back.
        module.__spec__ = self._specs.pop(id(module), module.__spec__)


if not any(isinstance(f, _MovedFinder) for f in sys.meta_path):
    sys.meta_path.insert(0, _MovedFinder())


def __getattr__(name: str) -> Any:
    if name in MOVED:
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
