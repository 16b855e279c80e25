"""Build rulepack, with its pattern searches compiled to C by mypyc.

Everything else about the package is in pyproject.toml. The modules of
``rulepack/patterns`` (listed in ``rulepack/patterns/native.py``) are plain,
``mypy --strict`` Python; mypyc compiles them into extension modules beside
their sources, which Python then imports instead of the sources. The searches
behave the same either way (the test suite passes both ways: see ``.ci/run``);
compiled, PackKub's legal actions cost about half as many instructions.

* ``RULEPACK_PURE_PYTHON=1`` builds nothing: the sources are used.
* Without a C compiler, the build of the extensions fails with a warning and
  the sources are used (the extensions are optional).
* ``rulepack/patterns/native.sums`` records the sources' SHA-256 at build time;
  when a source no longer matches (it was edited since), its package imports
  the sources instead of the stale extensions (``rulepack.patterns.native``).
* The engine's moves and flips, ``rulepack/engine/moves.py``, are compiled and
  guarded the same way (``rulepack/engine/native.py``, ``native.sums``).
* The engine's random number generator on 64-bit words,
  ``rulepack/engine/splitmix.py``, is compiled too; it is used only compiled and
  built from its current text (``rulepack/engine/native.sums``), otherwise
  ``rulepack/engine/rng.py`` runs its own Python generator (the same numbers).
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

from setuptools import setup

HERE = Path(__file__).resolve().parent
PATTERNS = HERE / "rulepack" / "patterns"


def compiled_modules(native: Path = PATTERNS / "native.py") -> list[str]:
    """The module names a ``native.py`` lists in ``COMPILED`` (read, not imported:
    the package is not importable before it is installed)."""
    text = native.read_text(encoding="utf-8")
    start = text.index("COMPILED = (")
    inside = text[start + len("COMPILED = ("):text.index(")", start)]
    return [name.strip().strip("\"'") for name in inside.split(",") if name.strip()]


def extensions() -> list[Any]:
    """The extension modules to build (none with RULEPACK_PURE_PYTHON=1)."""
    if os.environ.get("RULEPACK_PURE_PYTHON") == "1":
        return []
    names = compiled_modules()
    sources = [f"rulepack/patterns/{name}.py" for name in names]
    sums = {name: hashlib.sha256((PATTERNS / f"{name}.py").read_bytes()).hexdigest()
            for name in names}
    (PATTERNS / "native.sums").write_text(json.dumps(sums, indent=1, sort_keys=True) + "\n",
                                          encoding="utf-8")
    try:
        from mypyc.build import mypycify
    except ImportError:     # pragma: no cover - mypy is a build requirement
        print("rulepack: mypyc is not installed; the pattern searches stay pure Python")
        return []
    # the pattern modules are type-checked strictly by `mypy` (pyproject.toml);
    # here only they are compiled, and the packages they import need not be installed
    built = mypycify(["--follow-imports=silent", "--ignore-missing-imports",
                      "--no-warn-unused-ignores", *sources],
                     opt_level="3", group_name="rulepack.patterns")
    # the engine's generator on 64-bit words (rulepack/engine/splitmix.py): used only
    # compiled, and only when built from the source beside it (rulepack/engine/rng.py);
    # and the engine's moves (rulepack/engine/moves.py, listed in engine/native.py),
    # which run from their source when the build is stale, as the pattern searches do
    engine = HERE / "rulepack" / "engine"
    moves = compiled_modules(engine / "native.py")
    (engine / "native.sums").write_text(json.dumps(
        {name: hashlib.sha256((engine / f"{name}.py").read_bytes()).hexdigest()
         for name in ["splitmix", *moves]}, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    built += mypycify(["--follow-imports=silent", "--ignore-missing-imports",
                       "--no-warn-unused-ignores", "rulepack/engine/splitmix.py"],
                      opt_level="3", group_name="rulepack.engine.splitmix")
    built += mypycify(["--follow-imports=silent", "--ignore-missing-imports",
                       "--no-warn-unused-ignores",
                       *[f"rulepack/engine/{name}.py" for name in moves]],
                      opt_level="3", group_name="rulepack.engine.moves")
    for ext in built:
        ext.optional = True     # no C compiler: a warning, and the sources are used
    return built


setup(ext_modules=extensions())
