"""The parser's LALR tables and their per-user cache (``rulepack/grammar/tables.py``).

* a parser loaded from the cache reads every bundled ruleset, the library and the
  fixture that uses every construct into the same IR as a parser built straight
  from the grammar by Lark, and reports a syntax error the same way;
* the cache is written once and then read, in a folder of mode 0700;
* a cache file that is garbled, forged (a pickle that would call a function) or
  made for other tables is never trusted: it is rebuilt, and the forged one runs
  nothing;
* a folder that others may write, or a link, is not used;
* the cache key changes with the grammar and with Lark's version.

Building the tables takes about half a second: they are built once for the module
and handed to the cache tests by a patched :func:`tables.build_tables`.
"""

from __future__ import annotations

import os
import pickle
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from lark import Lark

from rulepack.grammar import parser as rules_parser
from rulepack.grammar import tables
from rulepack.grammar.transformer import ToIR
from rulepack.loader import bundled_dir

TEXTS = sorted(bundled_dir().glob("*.rules")) + sorted(bundled_dir().glob("lib/*.rules")) + [
    Path(__file__).parent / "data" / "schema" / "everything.rules"]


@pytest.fixture(scope="module")
def built() -> dict[str, Any]:
    return tables.build_tables()


@dataclass
class Cache:
    folder: Path                     # $XDG_CACHE_HOME/rulepack, not made yet
    builds: list[int]                # one item per build of the tables

    @property
    def file(self) -> Path:
        key = tables.cache_key(tables.GRAMMAR.read_text(encoding="utf-8"))
        return self.folder / f"parser-{key}.pickle"


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, built: dict[str, Any]) -> Cache:
    """An empty cache; the tables are "built" by handing out a copy of ``built``."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    out = Cache(tmp_path / "rulepack", [])

    def build() -> dict[str, Any]:
        out.builds.append(1)
        return dict(built)
    monkeypatch.setattr(tables, "build_tables", build)
    return out


def test_a_cached_parser_reads_like_one_built_from_the_grammar(cache: Cache) -> None:
    tables.tables()                      # builds and writes the cache
    cached = tables.load_parser(rules_parser._keyword_seen)
    # the parser of parse_rules: its nodes know where they start only
    starts = tables.load_parser(rules_parser._keyword_seen, full_positions=False)
    assert cache.builds == [1]          # read, not built
    direct = Lark(tables.GRAMMAR.read_text(encoding="utf-8"), **tables.OPTIONS)
    for path in TEXTS:
        text = path.read_text(encoding="utf-8")
        expected = ToIR().transform(direct.parse(text))
        assert ToIR().transform(cached.parse(text)) == expected, path.name
        assert ToIR().transform(starts.parse(text)) == expected, path.name
        # the starts of every node are Lark's; the formatter's ends are not kept
        full_nodes = list(direct.parse(text).iter_subtrees())
        start_nodes = list(starts.parse(text).iter_subtrees())
        assert [(t.meta.line, t.meta.column, t.meta.start_pos) for t in start_nodes if not t.meta.empty] \
            == [(t.meta.line, t.meta.column, t.meta.start_pos) for t in full_nodes if not t.meta.empty]
        assert not any(hasattr(t.meta, "end_line") for t in start_nodes)
    broken = "game g {\n  players 2\n}\nsetup {\n  move 1 to 2 face sideways\n}\n"
    with pytest.raises(Exception) as from_cache:
        cached.parse(broken)
    with pytest.raises(Exception) as from_grammar:
        direct.parse(broken)
    assert type(from_cache.value) is type(from_grammar.value)
    line = broken.splitlines()[4]
    assert (from_cache.value.line, from_cache.value.column) == \
        (from_grammar.value.line, from_grammar.value.column) == (5, line.index("sideways") + 1)


def test_the_cache_is_written_once_then_read(cache: Cache) -> None:
    first = tables.tables()
    assert cache.builds == [1]
    assert cache.file.exists()
    assert cache.folder.stat().st_mode & 0o777 == 0o700
    assert cache.file.stat().st_mode & 0o077 == 0
    second = tables.tables()
    assert cache.builds == [1]
    assert second == first
    assert [p.name for p in cache.folder.iterdir()] == [cache.file.name]  # no temporary left


class Forged:
    """Unpickled by a plain unpickler, this would create a file."""

    def __init__(self, target: Path) -> None:
        self.target = target

    def __reduce__(self) -> Any:
        return (os.mkdir, (str(self.target),))


@pytest.mark.parametrize("content", ["garbled", "forged", "other key", "not a dict"])
def test_a_bad_cache_file_is_rebuilt_and_runs_nothing(cache: Cache, tmp_path: Path,
                                                      built: dict[str, Any], content: str) -> None:
    cache.folder.mkdir(mode=0o700)
    target = tmp_path / "forged-was-run"
    data: bytes = {
        "garbled": b"\x80\x05not a pickle at all",
        "forged": pickle.dumps({"key": "x", "data": Forged(target)}),
        "other key": pickle.dumps(dict(built, key="0" * 64)),
        "not a dict": pickle.dumps(["a", "list"]),
    }[content]
    cache.file.write_bytes(data)
    found = tables.tables()
    assert cache.builds == [1]
    assert found["keywords"] == built["keywords"]
    assert not target.exists()
    assert tables._read(cache.file, found["key"]) is not None  # replaced by good tables


def test_a_folder_others_may_write_is_not_used(cache: Cache) -> None:
    cache.folder.mkdir(mode=0o700)
    cache.folder.chmod(0o777)
    assert tables.cache_dir() is None
    tables.tables()
    tables.tables()
    assert cache.builds == [1, 1]
    assert not list(cache.folder.iterdir())


def test_a_link_is_not_used(cache: Cache, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir(mode=0o700)
    cache.folder.symlink_to(elsewhere)
    assert tables.cache_dir() is None


def test_no_cache_folder_means_tables_built_in_memory(cache: Cache, tmp_path: Path) -> None:
    (tmp_path / "rulepack").write_text("a file where the folder would be")
    assert tables.cache_dir() is None
    assert tables.tables()["keywords"]


def test_the_key_changes_with_the_grammar_and_lark(monkeypatch: pytest.MonkeyPatch) -> None:
    grammar = tables.GRAMMAR.read_text(encoding="utf-8")
    key = tables.cache_key(grammar)
    assert tables.cache_key(grammar + "\n") != key
    monkeypatch.setattr(tables, "lark_version", "0.0.1")
    assert tables.cache_key(grammar) != key


def test_keywords_are_the_words_of_the_grammar(built: dict[str, Any]) -> None:
    """The terminals the glued-word check watches: one per quoted word of the grammar."""
    import re
    words = set(re.findall(r'"([A-Za-z_]\w*)"', tables.GRAMMAR.read_text(encoding="utf-8")))
    assert len(built["keywords"]) == len(words) > 50
