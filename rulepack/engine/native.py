"""Whether the engine's moves run compiled, and a guard against stale builds.

``setup.py`` compiles :mod:`rulepack.engine.moves` with mypyc beside its source
and records the source's SHA-256 in this folder's ``native.sums`` (with
``splitmix``'s, which :mod:`rulepack.engine.rng` checks itself). The package's
``__init__`` imports this module first, so that a build older than its source,
or ``RULEPACK_PURE_PYTHON=1``, makes the moves run from their source (as
:mod:`rulepack.patterns.native` does for the pattern searches): the same results
either way.
"""

from __future__ import annotations

from pathlib import Path

from rulepack.patterns.native import guard_modules, loaded_compiled

#: the modules of this package that run the same compiled or not (setup.py reads it)
COMPILED = ("moves",)

#: why the sources are used ("" when the compiled modules are)
REASON = guard_modules(__name__.rpartition(".")[0], Path(__file__).resolve().parent, COMPILED)


def compiled() -> bool:
    """Do the moves run compiled? (For reports: ``rulepack --version``, benchmarks.)"""
    import rulepack.engine.moves  # noqa: F401  (imported here if not yet)
    return loaded_compiled("rulepack.engine.moves")


def describe() -> str:
    """``"compiled (mypyc)"`` or ``"pure Python (REASON)"``."""
    return "compiled (mypyc)" if compiled() else f"pure Python ({REASON or 'not compiled'})"
