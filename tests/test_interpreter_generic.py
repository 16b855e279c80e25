"""The interpreter knows no game.

DESIGN.md: "nothing about any one of them may live in Python". Every ``.py`` file
of the core packages (``engine/``, ``compiler/``, ``patterns/``, ``agents/``) and
``game.py`` is scanned, code, comments and docstrings alike,
for the names and terms of the seed games. A word counts when it stands on its own:
between non-letters, or as one part of a snake_case or CamelCase identifier
(``suns``, ``count_suns``, ``SunsZone`` all count; ``primer`` does not).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CORE = [ROOT / "rulepack" / d for d in ("engine", "compiler", "patterns", "agents")]

FORBIDDEN = frozenset({
    "multzo", "packkub", "multiplay", "mismemory", "flush", "prime", "meld", "melds",
    "trap", "traps", "trapped", "crowns", "suns", "moons", "arms", "rummy", "showdown",
    "declarer",
})

_RUN = re.compile(r"[A-Za-z0-9]+")
_PART = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")


def words(line: str) -> list[str]:
    """The words of a line, lower-cased; identifiers are split at ``_`` and case changes."""
    out: list[str] = []
    for run in _RUN.findall(line):
        out.append(run.lower())
        parts = _PART.findall(run)
        if len(parts) > 1:
            out.extend(p.lower() for p in parts)
    return out


def offences(path: Path) -> list[str]:
    found = []
    text = path.read_text(encoding="utf-8")
    for number, line in enumerate(text.splitlines(), 1):
        bad = sorted(set(words(line)) & FORBIDDEN)
        if bad:
            rel = path.relative_to(ROOT)
            found.append(f"{rel}:{number}: {', '.join(bad)}: {line.strip()}")
    return found


def interpreter_files() -> list[Path]:
    return sorted([f for d in CORE for f in d.rglob("*.py")] + [ROOT / "rulepack" / "game.py"])


def test_scanner_finds_whole_words_only():
    assert {"suns"} <= set(words("count the Suns here"))
    assert "suns" in words("n_suns = 1")
    assert "multzo" in words("class MultzoRules:")
    assert "flush" in words("def isFlush(x):")
    assert "declarer" in words('vars["declarer"]')
    assert not set(words("primer flushed armstrong sunset traplike")) & FORBIDDEN


def test_there_are_files_to_scan():
    files = interpreter_files()
    assert files, f"no .py files under {CORE}"
    assert any(f.name == "state.py" for f in files)


def test_interpreter_mentions_no_seed_game():
    found = [o for f in interpreter_files() for o in offences(f)]
    for line in found:
        print(line)
    if found:
        pytest.fail("the interpreter mentions seed games or their terms:\n  " + "\n  ".join(found),
                    pytrace=False)
