"""Fixtures for every test."""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture(autouse=True, scope="session")
def parser_cache_in_a_temporary_folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The parser's tables are cached in the user's cache folder
    (rulepack.grammar.tables): during the tests, in a temporary one, for this
    process and the commands it starts."""
    folder = tmp_path_factory.mktemp("cache")
    before = os.environ.get("XDG_CACHE_HOME")
    os.environ["XDG_CACHE_HOME"] = str(folder)
    yield folder
    if before is None:
        del os.environ["XDG_CACHE_HOME"]
    else:
        os.environ["XDG_CACHE_HOME"] = before


@pytest.fixture(scope="session")
def records_folders(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """One folder for every test's own records folder below it: a plain ``mkdir`` per
    test, where ``mktemp`` would list every numbered folder made before it."""
    base = tmp_path_factory.mktemp("records")
    return (base / str(n) for n in itertools.count())


@pytest.fixture(autouse=True)
def records_in_a_temporary_folder(records_folders: Iterator[Path],
                                  monkeypatch: pytest.MonkeyPatch) -> Path:
    """Games with a human seat write records (rulepack.cli.recording): into a
    temporary folder during the tests, never the user's own; a new empty one for
    each test."""
    folder = next(records_folders)
    folder.mkdir()
    monkeypatch.setenv("RULEPACK_RECORDS", str(folder))
    return folder
