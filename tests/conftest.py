"""Fixtures for every test."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def records_in_a_temporary_folder(tmp_path_factory: pytest.TempPathFactory,
                                  monkeypatch: pytest.MonkeyPatch) -> Path:
    """Games with a human seat write records (rulepack.cli.recording): into a
    temporary folder during the tests, never the user's own."""
    folder = tmp_path_factory.mktemp("records")
    monkeypatch.setenv("RULEPACK_RECORDS", str(folder))
    return folder
