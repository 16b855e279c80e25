"""Whether the pattern searches run compiled, and a guard against stale builds.

``setup.py`` compiles the modules in :data:`COMPILED` with mypyc into extension
modules beside their sources and records the sources' SHA-256 in
``native.sums``. Python imports an extension module in preference to the
source of the same name, so a source edited after the build would be ignored
silently. :func:`guard` (run by ``rulepack/patterns/__init__.py`` before any of
them is imported) prevents that: when an extension exists but a source no
longer matches its recorded sum — or ``RULEPACK_PURE_PYTHON=1`` is set — the
package's modules are all imported from their sources (all of them: compiled
modules call one another directly, so a mix would still run stale code).
Rebuild with ``pip install -e .`` to compile the edited sources.

This module is never compiled itself.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import json
import os
import sys
from pathlib import Path
from typing import Sequence

#: the modules of this package that setup.py compiles (setup.py reads this tuple)
COMPILED = ("budget", "cover", "first_split", "match", "partition", "sweep")

PACKAGE = __name__.rpartition(".")[0]
HERE = Path(__file__).resolve().parent


def extension_of(name: str, where: Path = HERE) -> Path | None:
    """The built extension module of ``name`` in ``where``, if there is one."""
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        path = where / f"{name}{suffix}"
        if path.exists():
            return path
    return None


def stale(where: Path = HERE, names: Sequence[str] = COMPILED) -> list[str]:
    """The sources in ``where`` whose text differs from the sum recorded at
    build time (every name when ``native.sums`` is missing or unreadable)."""
    try:
        sums = json.loads((where / "native.sums").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return list(names)
    out = []
    for name in names:
        try:
            digest = hashlib.sha256((where / f"{name}.py").read_bytes()).hexdigest()
        except OSError:
            digest = None
        if not isinstance(sums, dict) or sums.get(name) != digest:
            out.append(name)
    return out


class _SourcesFirst:
    """A meta path finder that imports the listed modules from their ``.py``."""

    def __init__(self, package: str, where: Path, names: Sequence[str]) -> None:
        self.package = package
        self.paths = {f"{package}.{name}": where / f"{name}.py" for name in names}

    def find_spec(self, fullname: str, path: object = None,
                  target: object = None) -> importlib.machinery.ModuleSpec | None:
        source = self.paths.get(fullname)
        if source is None:
            return None
        return importlib.util.spec_from_file_location(fullname, source)


#: why the sources are used ("" when the compiled modules are), set by guard()
REASON = ""


def guard() -> None:
    """Import this package's modules from their sources if the extensions
    must not be used (see the module's text); sets :data:`REASON`."""
    global REASON
    REASON = guard_modules(PACKAGE, HERE, COMPILED)


def guard_modules(package: str, where: Path, names: Sequence[str]) -> str:
    """Make the modules ``names`` of ``package`` (in folder ``where``, sums in its
    ``native.sums``) import from their sources when their extensions must not be
    used: not all built, ``RULEPACK_PURE_PYTHON=1``, or a source edited since the
    build. Returns why the sources are used, or ``""`` when the extensions are."""
    built = [name for name in names if extension_of(name, where) is not None]
    if not built:
        return "not compiled (built without mypyc, or RULEPACK_PURE_PYTHON=1 at install)"
    if os.environ.get("RULEPACK_PURE_PYTHON") == "1":
        reason = "RULEPACK_PURE_PYTHON=1"
    else:
        changed = stale(where, names)
        if not changed and len(built) == len(names):
            return ""
        reason = ("sources changed since the build: "
                  + ", ".join(f"{name}.py" for name in (changed or names)))
    if not any(isinstance(f, _SourcesFirst) and f.package == package for f in sys.meta_path):
        sys.meta_path.insert(0, _SourcesFirst(package, where, names))
    return reason


def loaded_compiled(module: str) -> bool:
    """Was ``module`` (imported already) loaded from a compiled extension?"""
    spec = getattr(sys.modules.get(module), "__spec__", None)
    return isinstance(getattr(spec, "loader", None), importlib.machinery.ExtensionFileLoader)


def compiled() -> bool:
    """Do the pattern searches run compiled? (For reports: benchmarks print it.)"""
    return loaded_compiled(f"{PACKAGE}.match")


def describe() -> str:
    """``"compiled (mypyc)"`` or ``"pure Python (REASON)"``."""
    return "compiled (mypyc)" if compiled() else f"pure Python ({REASON or 'not compiled'})"
