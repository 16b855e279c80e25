"""The package layout: layers that import only downward, and no import cycles.

DESIGN.md, "Layout": each package imports only from packages below it, type-only
imports (under ``TYPE_CHECKING``) included. The import-linter contract in
``pyproject.toml`` states the layers; this test runs it. Cycles between modules of
one package are checked here too, counting imports inside functions (imports under
``TYPE_CHECKING`` do not count: two modules may name each other's types).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parent.parent


def test_layers_contract_is_kept():
    lint = Path(sys.executable).with_name("lint-imports")
    proc = subprocess.run([str(lint), "--no-cache"], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "0 broken" in proc.stdout


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected groups of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    counter = [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                out.append(sorted(group))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def module_edges() -> dict[str, set[str]]:
    graph = grimp.build_graph("rulepack", exclude_type_checking_imports=True, cache_dir=None)
    return {m: {t for t in graph.find_modules_directly_imported_by(m)
                if t != "rulepack" and not m.startswith(t + ".")}
            for m in graph.modules}


def test_cycle_finder_finds_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_no_module_imports_itself_through_others():
    found = cycles(module_edges())
    assert not found, "import cycles: " + "; ".join(", ".join(c) for c in found)


def test_the_old_interpreter_package_is_gone():
    """``rulepack.interpreter`` (the import paths of an unreleased 0.1.0) no longer exists."""
    import importlib.util
    assert importlib.util.find_spec("rulepack.interpreter") is None


def test_the_contract_counts_type_only_imports():
    """A package may not name a type of a package above it, even for type checking:
    the contract counts imports under ``TYPE_CHECKING``."""
    import tomllib
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    assert config.get("exclude_type_checking_imports") is False
    graph = grimp.build_graph("rulepack", exclude_type_checking_imports=False, cache_dir=None)
    # the engine names nothing of the compiler, the pattern searches nothing of the engine
    assert not graph.find_shortest_chain("rulepack.engine", "rulepack.compiler",
                                         as_packages=True)
    assert not graph.find_shortest_chain("rulepack.patterns", "rulepack.engine",
                                         as_packages=True)
