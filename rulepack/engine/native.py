"""Whether the engine's moves and history log run compiled, and a guard against stale builds.

``setup.py`` compiles the modules named in :data:`COMPILED` —
:mod:`rulepack.engine.moves` (moving and flipping several pieces of a
position) and :mod:`rulepack.engine.log` (the
history every applied action appends to) — with mypyc beside their sources and
records the sources' SHA-256 in this folder's ``native.sums`` (with
``splitmix``'s, which :mod:`rulepack.engine.rng` checks itself). The package's
``__init__`` imports this module first, so that a build older than its sources,
or ``RULEPACK_PURE_PYTHON=1``, makes them run from their sources (as
:mod:`rulepack.patterns.native` does for the pattern searches): the same results
either way.
"""

from __future__ import annotations

from pathlib import Path

from rulepack.patterns.native import guard_modules, loaded_compiled

#: the modules of this package that run the same compiled or not (setup.py reads it)
COMPILED = ("moves", "log")

#: why the sources are used ("" when the compiled modules are)
REASON = guard_modules(__name__.rpartition(".")[0], Path(__file__).resolve().parent, COMPILED)


def compiled(module: str | None = None) -> bool:
    """Does ``module`` (one of :data:`COMPILED`; by default every one) run compiled?
    (For reports: ``rulepack --version``, benchmarks.)"""
    import importlib
    names = COMPILED if module is None else (module,)
    for name in names:
        importlib.import_module(f"rulepack.engine.{name}")  # imported here if not yet
    return all(loaded_compiled(f"rulepack.engine.{name}") for name in names)


def describe(module: str | None = None) -> str:
    """``"compiled (mypyc)"`` or ``"pure Python (REASON)"``, for ``module`` (one of
    :data:`COMPILED`; by default every one)."""
    return "compiled (mypyc)" if compiled(module) else f"pure Python ({REASON or 'not compiled'})"
