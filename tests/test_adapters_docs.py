"""docs/adapters.md: every python block runs, in order, from the repository root
(it needs both adapter extras: openspiel and pettingzoo)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pyspiel")
pytest.importorskip("pettingzoo")

pytestmark = [pytest.mark.openspiel, pytest.mark.pettingzoo]

ROOT = Path(__file__).resolve().parent.parent
BLOCK = re.compile(r"<!-- check: python[^>]*-->\n```python\n(.*?)^```$", re.S | re.M)


def test_the_python_blocks_of_the_adapters_page_run(monkeypatch, capsys):
    text = (ROOT / "docs" / "adapters.md").read_text(encoding="utf-8")
    blocks = BLOCK.findall(text)
    assert len(blocks) == 4 and text.count("```python") == 4   # each block is checked
    monkeypatch.chdir(ROOT)
    namespace: dict[str, Any] = {"__name__": "docs"}
    for i, block in enumerate(blocks):
        exec(compile(block, f"docs/adapters.md python block {i + 1}", "exec"), namespace)
    out = capsys.readouterr().out
    assert "Tic-Tac-Toe is worth 0.0" in out
    assert "True 24" in out
    assert "-2.0 2.0 Utility.ZERO_SUM" in out
    assert abs(namespace["value"][0] + 1 / 18) < 1e-3     # Kuhn poker's value
