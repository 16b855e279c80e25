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
* ``rulepack/patterns/native.sums`` records the sources' SHA-256 of the modules
  that were built, written once the build has made their extensions (beside
  the sources in an editable install, in the wheel otherwise); when a source no
  longer matches (it was edited since), or no sum is recorded (the build
  failed), its package imports the sources instead of the extensions
  (``rulepack.patterns.native``).
* An editable install whose extensions are already built from the current
  sources (``pip install -e '.[render]'`` after ``pip install -e .``, to add an
  extra) builds nothing again: the extensions beside the sources are kept.
* The compiled modules need only ``mypy_extensions`` at run time (a dependency).
* The engine's moves and flips, ``rulepack/engine/moves.py``, are compiled and
  guarded the same way (``rulepack/engine/native.py``, ``native.sums``).
* The engine's random number generator on 64-bit words,
  ``rulepack/engine/splitmix.py``, is compiled too; it is used only compiled and
  built from its current text (``rulepack/engine/native.sums``), otherwise
  ``rulepack/engine/rng.py`` runs its own Python generator (the same numbers).
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import json
import os
import sys
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
PACKAGES = HERE / "rulepack"
#: setup.py's commands that read the package's metadata only (no extension is built)
METADATA_ONLY = {"egg_info", "dist_info", "sdist"}


def compiled_modules(native: Path) -> list[str]:
    """The module names a ``native.py`` lists in ``COMPILED`` (read, not imported:
    the package is not importable before it is installed)."""
    text = native.read_text(encoding="utf-8")
    start = text.index("COMPILED = (")
    inside = text[start + len("COMPILED = ("):text.index(")", start)]
    return [name.strip().strip("\"'") for name in inside.split(",") if name.strip()]


def groups() -> dict[str, tuple[str, list[str]]]:
    """The compiled groups: mypyc group name -> (package folder, its module names).
    Each group is one shared library ``GROUP__mypyc`` and a small extension per
    module; the modules of a group call one another directly."""
    engine = compiled_modules(PACKAGES / "engine" / "native.py")
    return {
        "rulepack.patterns": ("patterns", compiled_modules(PACKAGES / "patterns" / "native.py")),
        # the engine's generator on 64-bit words: used only compiled, and only when
        # built from the source beside it (rulepack/engine/rng.py)
        "rulepack.engine.splitmix": ("engine", ["splitmix"]),
        # the engine's moves, which run from their source when the build is stale
        "rulepack.engine.moves": ("engine", engine),
    }


def digest(folder: str, name: str) -> str:
    return hashlib.sha256((PACKAGES / folder / f"{name}.py").read_bytes()).hexdigest()


def outputs(group: str, folder: str, names: list[str]) -> list[str]:
    """The files, relative to the project, that building ``group`` makes."""
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    return [group.replace(".", "/") + "__mypyc" + suffix,
            *[f"rulepack/{folder}/{name}{suffix}" for name in names]]


def built_in_place() -> bool:
    """Are the extensions beside the sources built from the sources as they are now
    (every output there, every source's sum recorded by the build that made them)?"""
    for group, (folder, names) in groups().items():
        if not all((HERE / out).exists() for out in outputs(group, folder, names)):
            return False
        try:
            sums = json.loads((PACKAGES / folder / "native.sums").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return False
        if not isinstance(sums, dict) or any(sums.get(n) != digest(folder, n) for n in names):
            return False
    return True


class BuildNative(build_ext):
    """``build_ext`` that compiles in parallel and, once the extensions are made,
    records the sums of the sources each group was built from (``native.sums``,
    in the build and, for an editable install, beside the sources): a group one
    of whose extensions failed to build has no sums, so its sources are used."""

    def finalize_options(self) -> None:
        super().finalize_options()
        if self.parallel is None:
            self.parallel = os.cpu_count() or 1
        self.failed: set[str] = set()

    def build_extension(self, ext: Any) -> None:
        try:
            super().build_extension(ext)
        except Exception:
            self.failed.add(ext.name)      # (an optional extension: a warning follows)
            raise

    def run(self) -> None:
        super().run()
        sums: dict[str, dict[str, str]] = {}
        for group, (folder, names) in groups().items():
            made = [Path(self.build_lib) / out for out in outputs(group, folder, names)]
            modules = {group + "__mypyc", *[f"rulepack.{folder}.{n}" for n in names]}
            if not modules & self.failed and all(path.exists() for path in made):
                sums.setdefault(folder, {}).update({n: digest(folder, n) for n in names})
        places = [Path(self.build_lib)] + ([HERE] if self.inplace else [])
        for folder in ("patterns", "engine"):
            text = json.dumps(sums.get(folder, {}), indent=1, sort_keys=True) + "\n"
            for place in places:
                target = place / "rulepack" / folder / "native.sums"
                if target.parent.exists():
                    target.write_text(text, encoding="utf-8")


def extensions() -> list[Any]:
    """The extension modules to build: none with RULEPACK_PURE_PYTHON=1, for the
    metadata alone, or for an editable install whose extensions are up to date."""
    if os.environ.get("RULEPACK_PURE_PYTHON") == "1":
        return []
    commands = {arg for arg in sys.argv[1:] if not arg.startswith("-")}
    if commands and commands <= METADATA_ONLY:
        return []
    if "editable_wheel" in commands and built_in_place():
        print("rulepack: the compiled modules beside the sources are up to date; not rebuilt")
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:     # pragma: no cover - mypy is a build requirement
        print("rulepack: mypyc is not installed; the compiled modules stay pure Python")
        return []
    built: list[Any] = []
    for group, (folder, names) in groups().items():
        # the modules are type-checked strictly by `mypy` (pyproject.toml); here
        # only they are compiled, and the packages they import need not be installed
        built += mypycify(["--follow-imports=silent", "--ignore-missing-imports",
                           "--no-warn-unused-ignores",
                           *[f"rulepack/{folder}/{name}.py" for name in names]],
                          opt_level="3", group_name=group)
    for ext in built:
        ext.optional = True     # no C compiler: a warning, and the sources are used
    return built


setup(ext_modules=extensions(), cmdclass={"build_ext": BuildNative})
