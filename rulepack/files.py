"""Reading files that may come from anyone: bounded in size and nesting, regular files only.

A ruleset or a record may be downloaded, mailed or pasted; rulepack reads it with
limits that no real ruleset or record meets (``docs/language.md``, *Limits*):

- :data:`MAX_RULESET_BYTES` for a ruleset file, :data:`MAX_RECORD_BYTES` for a
  record, refused with the file's size before it is read;
- only regular files: a directory, a named pipe, a device (``/dev/zero``) or a
  socket is refused without reading from it (opening never waits on a pipe);
- :data:`MAX_RULES_TOKENS` tokens in ``.rules`` text, :data:`MAX_DATA_TOKENS` in a
  data file, counted by a regular expression before any parser runs;
- :data:`MAX_DATA_NESTING` levels of nesting in a ``.yaml``/``.json`` file,
  checked by a linear scan of the text before the YAML parser (whose cost grows
  with the square of the depth) sees it, and refused at the line where the
  nesting went past the limit;
- :func:`shorten`: a value quoted in a message is cut to a few hundred characters.
"""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path
from typing import BinaryIO

from rulepack.errors import Diagnostic, Location, RulepackError

#: The largest ruleset file read (``.rules``, ``.yaml``, ``.json``), in bytes.
MAX_RULESET_BYTES = 1_000_000
#: The largest record file read, in bytes.
MAX_RECORD_BYTES = 64_000_000
#: The longest line of a record, in bytes.
MAX_RECORD_LINE_BYTES = 1_000_000
#: The deepest nesting of mappings and lists in a ``.yaml``/``.json`` ruleset
#: (the bundled rulesets' IR needs about 25; ``.rules`` text nested to its own
#: limit of 60 brackets about 130).
MAX_DATA_NESTING = 200
#: The longest value quoted in a message, in characters.
MAX_QUOTED = 200


def shorten(text: str, limit: int = MAX_QUOTED) -> str:
    """``text`` itself, or its start and end around ``… (N characters) …`` when it
    is longer than ``limit`` characters."""
    if len(text) <= limit:
        return text
    half = max(limit // 2 - 10, 1)
    return f"{text[:half]}… ({len(text)} characters) …{text[-half:]}"


def _size(n: int) -> str:
    if n >= 1_000_000:
        return f"{n / 1_000_000:.1f} MB"
    if n >= 1_000:
        return f"{n / 1_000:.1f} kB"
    return f"{n} bytes"


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a named pipe"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def read_stream_limited(stream: BinaryIO, limit: int, noun: str, display: str,
                        error: type[RulepackError] = RulepackError) -> bytes:
    """The bytes of a stream (standard input) up to its end, of at most ``limit``
    bytes: reading stops one byte past the limit, so an endless stream
    (``/dev/zero``) costs ``limit`` bytes of memory, not all of it.

    :raises RulepackError: (``error``) code ``too-big``; ``no-file`` when the stream
        cannot be read.
    """
    where = Location(display)
    chunks: list[bytes] = []
    total = 0
    try:
        while total <= limit:
            chunk = stream.read(min(1 << 20, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
    except OSError as exc:
        raise error(Diagnostic(f"cannot read {display}: {exc.strerror or exc}", where,
                               code="no-file")) from None
    if total > limit:
        raise error(Diagnostic(f"{display} holds more than {_size(limit)}, more than a {noun} "
                               "may be", where, code="too-big"))
    return b"".join(chunks)


def read_limited(path: str | Path, limit: int, noun: str, display: str | None = None,
                 error: type[RulepackError] = RulepackError) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes.

    :param noun: what the file is, for messages (``"ruleset"``, ``"record"``).
    :param display: the file's name in messages (default: ``path``).
    :param error: the class of the error raised.
    :raises RulepackError: (``error``) code ``no-file`` (missing, unreadable),
        ``not-a-file`` (a directory, pipe, device...), ``too-big`` (with the size).
    """
    name = display if display is not None else str(path)
    where = Location(name)
    what = f"a {noun}"
    try:
        # O_NONBLOCK: opening a named pipe does not wait for a writer
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except FileNotFoundError:
        raise error(Diagnostic(f"no such {noun} file", where, code="no-file")) from None
    except IsADirectoryError:
        raise error(Diagnostic(f"{name} is a directory, not {what}", where,
                               code="not-a-file")) from None
    except OSError as exc:
        raise error(Diagnostic(f"cannot read the file: {exc.strerror or exc}", where,
                               code="no-file")) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise error(Diagnostic(f"{name} is {_kind(info.st_mode)}, not {what}: rulepack reads "
                                   "only regular files", where, code="not-a-file"))
        if info.st_size > limit:
            raise error(Diagnostic(f"the file is {_size(info.st_size)}, more than {what} may be "
                                   f"({_size(limit)})", where, code="too-big"))
        chunks: list[bytes] = []
        total = 0
        while total <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        if total > limit:   # it grew while being read
            raise error(Diagnostic(f"the file is more than {_size(limit)}, more than {what} may "
                                   "be", where, code="too-big"))
        return b"".join(chunks)
    except OSError as exc:
        raise error(Diagnostic(f"cannot read the file: {exc.strerror or exc}", where,
                               code="no-file")) from None
    finally:
        os.close(fd)


_SPECIAL = re.compile(r"[\"'#\[\]{}]")
_DOUBLE_END = re.compile(r'[^"\\]*(?:\\.[^"\\]*)*"')
_SINGLE_END = re.compile(r"[^']*(?:''[^']*)*'")
_BLOCK_SCALAR = re.compile(r"(?:^|[\s:-])[|>][+-]?[0-9]?[+-]?\s*(?:#.*)?$")


def nesting_error(text: str, limit: int = MAX_DATA_NESTING) -> tuple[int, int] | None:
    """Where a YAML or JSON text nests mappings and lists deeper than ``limit``:
    ``(line, column)`` (1-based) of the bracket or the indented line that went past
    it, or ``None``. A linear scan that counts flow brackets outside quotes and
    comments, plus the levels of block indentation (and ``- - -`` on one line);
    it may count a level too many in odd layouts, never far too few."""
    flow = 0              # open [ and { brackets
    indents: list[int] = []
    quote = ""            # the open quote of a flow or multi-line scalar, if any
    block_indent = -1     # inside a block scalar (| or >): lines indented more than this
    for number, line in enumerate(text.split("\n"), 1):
        stripped = line.lstrip(" ")
        indent = len(line) - len(stripped)
        if block_indent >= 0:
            if not stripped.strip() or indent > block_indent:
                continue
            block_indent = -1
        if not quote and flow == 0:
            if not stripped.strip() or stripped.startswith("#"):
                continue
            while indents and indents[-1] >= indent:
                indents.pop()
            if not stripped.startswith(("[", "{")):   # a flow collection counts its bracket
                indents.append(indent)
            column = indent
            while len(indents) <= limit and (stripped.startswith("- ") or
                                             stripped.startswith("? ")):
                stripped = stripped[2:].lstrip(" ")
                column = len(line) - len(stripped)
                indents.append(column)
            if len(indents) > limit:
                return number, column + 1
        i = 0
        while i < len(line):
            if quote:     # inside a quoted scalar: to its end (perhaps on a later line)
                closing = (_DOUBLE_END if quote == '"' else _SINGLE_END).match(line, i)
                if closing is None:
                    break
                quote = ""
                i = closing.end()
                continue
            found = _SPECIAL.search(line, i)
            if found is None:
                break
            i = found.start()
            ch = line[i]
            before = line[i - 1] if i else " "
            if ch == "#":
                if before in " \t":
                    break
            elif ch in "\"'":
                if before in " \t[{," or (flow and before == ":"):   # JSON: {"a":"b"}
                    quote = ch
            elif ch in "[{":
                if flow or before in " \t":
                    flow += 1
                    if len(indents) + flow > limit:
                        return number, i + 1
            elif flow:
                flow -= 1
            i += 1
        if not quote and flow == 0 and _BLOCK_SCALAR.search(line):
            block_indent = indent
    return None


#: The most tokens (words, numbers, quoted strings, symbols) in a ``.rules`` file:
#: about 40 times the biggest bundled ruleset, and a few seconds of parsing.
MAX_RULES_TOKENS = 30_000
#: The most tokens (scalars, brackets, commas) in a ``.yaml``/``.json`` file: about
#: 6 times the IR of the biggest bundled ruleset with its positions.
MAX_DATA_TOKENS = 50_000

RULES_TOKEN = re.compile(r'"(?:[^"\\\n]|\\.)*"?|#[^\n]*|[A-Za-z_0-9]+|\.\.|[=!<>]=|//|[^\s#]')
DATA_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"?|\'(?:[^\']|\'\')*\'?|#[^\n]*|[\[\]{},]'
                        r'|[^\s\[\]{},"\'#]+')


def token_limit_error(text: str, token: re.Pattern[str], limit: int) -> tuple[int, int] | None:
    """Where ``text`` has its ``limit + 1``-th token (comments do not count):
    ``(line, column)``, 1-based, or ``None`` if it has no more than ``limit``."""
    if len(text) <= limit:
        return None
    found = token.findall(text)
    if len(found) - sum(1 for t in found if t.startswith("#")) <= limit:
        return None
    count = 0
    for match in token.finditer(text):
        if match.group().startswith("#"):
            continue
        count += 1
        if count > limit:
            start = match.start()
            line = text.count("\n", 0, start) + 1
            return line, start - (text.rfind("\n", 0, start) + 1) + 1
    return None  # pragma: no cover - counted above
