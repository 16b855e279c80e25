"""The Lark parser of ``rulepack.lark``, its LALR tables kept in a per-user cache.

Building the tables takes about half a second, many times longer than reading
them back, so :func:`load_parser` keeps them in a file of the user's cache folder
(``$XDG_CACHE_HOME/rulepack``, else ``~/.cache/rulepack``). The file is named by
a hash of the grammar, the parser options and the versions of Lark and Python,
so a changed grammar or an upgraded Lark never reads old tables.

The file is trusted only as far as it must be:

* the folder is used only if it is a real folder (not a link), owned by the
  user and writable by nobody else (it is created with mode 0700);
* the file holds plain data (dicts, lists, strings, numbers) and is read by an
  unpickler that refuses every class and function, so even a forged file cannot
  run code;
* a file that cannot be read, or whose recorded hash differs, is rebuilt.

Without a usable folder the tables are built in memory, as before the cache.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import sys
import tempfile
from pathlib import Path
from typing import Any, Callable

from lark import Lark, Token
from lark import __version__ as lark_version
from lark.grammar import Rule
from lark.lexer import TerminalDef

from rulepack.grammar.lalr import CachedLALRParser, StartPositionsLALRParser
from rulepack.grammar.lexer import contextual_lexer

GRAMMAR = Path(__file__).with_name("rulepack.lark")
#: The options every rulepack parser is built with.
OPTIONS: dict[str, Any] = {"parser": "lalr", "propagate_positions": True,
                           "maybe_placeholders": True}

LexerCallback = Callable[[Token], Token]


class _PlainData(pickle.Unpickler):
    """Reads pickles of plain data only: any class or function is refused."""

    def find_class(self, module: str, name: str) -> Any:
        raise pickle.UnpicklingError(f"the parser cache may hold only plain data, not "
                                     f"{module}.{name}")


def cache_key(grammar: str) -> str:
    """The hash naming the tables of ``grammar`` (text) with today's Lark and Python."""
    parts = [grammar, repr(sorted(OPTIONS.items())), lark_version,
             "%d.%d" % sys.version_info[:2], str(pickle.HIGHEST_PROTOCOL)]
    return hashlib.sha256("\0".join(parts).encode("utf-8")).hexdigest()


def cache_dir() -> Path | None:
    """The user's cache folder of rulepack, created if need be; ``None`` when it
    cannot be created or is not safe (a link, another owner, writable by others)."""
    base = os.environ.get("XDG_CACHE_HOME", "")
    root = Path(base) if os.path.isabs(base) else Path.home() / ".cache"
    folder = root / "rulepack"
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        st = folder.lstat()
    except (OSError, RuntimeError):  # RuntimeError: no home folder to expand
        return None
    import stat
    if not stat.S_ISDIR(st.st_mode) or st.st_mode & 0o022:
        return None
    if hasattr(os, "getuid") and st.st_uid != os.getuid():
        return None
    return folder


def build_tables() -> dict[str, Any]:
    """Build the tables from the grammar: ``{"data", "memo"}`` as Lark serializes a
    parser, and ``"keywords"``, the names of the terminals that are words
    (``MOVE`` for ``"move"``)."""
    parser = Lark(GRAMMAR.read_text(encoding="utf-8"), **OPTIONS)
    data, memo = parser.memo_serialize([TerminalDef, Rule])
    keywords = sorted(t.name for t in parser.terminals
                      if t.pattern.type == "str" and t.pattern.value.isidentifier())
    return {"data": data, "memo": memo, "keywords": keywords}


def _read(path: Path, key: str) -> dict[str, Any] | None:
    try:
        with path.open("rb") as f:
            tables = _PlainData(f).load()
    except FileNotFoundError:
        return None
    except Exception:  # noqa: BLE001 - a broken or forged file is only a cache miss
        return None
    if not isinstance(tables, dict) or tables.get("key") != key:
        return None
    return tables


def _write(folder: Path, path: Path, tables: dict[str, Any]) -> None:
    """Write atomically (a temporary file renamed), so that a process reading at the
    same time sees the old file or the whole new one; failures are ignored."""
    try:
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".parser-", suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as f:
                pickle.dump(tables, f, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(tmp, path)
        except BaseException:
            os.unlink(tmp)
            raise
    except OSError:
        pass


def tables() -> dict[str, Any]:
    """The tables of the grammar: from the cache when it has them, else built (and
    written to the cache when there is one)."""
    key = cache_key(GRAMMAR.read_text(encoding="utf-8"))
    folder = cache_dir()
    path = folder / f"parser-{key}.pickle" if folder is not None else None
    if path is not None:
        found = _read(path, key)
        if found is not None:
            return found
    built = dict(build_tables(), key=key)
    if folder is not None and path is not None:
        _write(folder, path, built)
    return built


def load_parser(on_keyword: LexerCallback, on_comment: LexerCallback | None = None,
                full_positions: bool = True) -> Lark:
    """A parser of ``rulepack.lark`` whose lexer calls ``on_keyword`` on every
    keyword token (a terminal that is a word, like ``move``).

    :param on_comment: also called on every comment (which the parser ignores):
        the formatter and the language server keep them this way.
    :param full_positions: each node of the tree knows where it starts and ends;
        ``False``: where it starts only (``line``, ``column``, ``start_pos``), faster.
    :returns: a :class:`lark.Lark` LALR parser with :data:`OPTIONS`.
    """
    found = tables()
    callbacks = {name: on_keyword for name in found["keywords"]}
    if on_comment is not None:
        callbacks["COMMENT"] = on_comment
    return _load(found, callbacks, full_positions)


def _load(found: dict[str, Any], callbacks: dict[str, LexerCallback],
          full_positions: bool = True) -> Lark:
    # Lark's loader of its own serialized tables is untyped (the standalone parsers use it);
    # its lexer and its table loader are rulepack's (the same tokens and the same
    # table, made faster: rulepack.grammar.lexer, rulepack.grammar.lalr)
    parser: Lark = Lark._load_from_dict(  # type: ignore[no-untyped-call]
        found["data"], found["memo"], lexer_callbacks=callbacks,
        _plugins={"ContextualLexer": contextual_lexer,
                  "LALR_Parser": CachedLALRParser if full_positions else StartPositionsLALRParser})
    return parser
