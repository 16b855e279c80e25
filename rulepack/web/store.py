"""Where ``rulepack serve`` keeps its tables: an index in SQLite (the standard
library's ``sqlite3``) and each table's record (:mod:`rulepack.records`) in a data
folder (by default under the user's state directory).

A seat's invitation token is 32 random bytes (``secrets.token_urlsafe``); the index
keeps only its SHA-256, and a token is checked by comparing digests in constant time
(``hmac.compare_digest``). Tokens are never written to a log.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: a table's id: 12 random URL-safe characters
ID_BYTES = 9


def default_data_dir() -> Path:
    """``$XDG_STATE_HOME/rulepack/serve``, else ``~/.local/state/rulepack/serve``."""
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "rulepack" / "serve"


def digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass
class TableRow:
    """A table as the index keeps it."""

    id: str
    ruleset: str
    players: int
    options: dict[str, Any]
    seats: list[str]        # each seat's kind: "human" or a bot's name
    seed: int
    created: float
    record: Path


class Store:
    """The index of tables and their records, in ``data``.

    :raises OSError: the folder cannot be made.
    """

    def __init__(self, data: Path) -> None:
        self.data = data
        (data / "records").mkdir(parents=True, exist_ok=True)
        os.chmod(data, 0o700)
        os.chmod(data / "records", 0o700)
        index = data / "tables.sqlite3"
        self.db = sqlite3.connect(str(index), check_same_thread=False)
        os.chmod(index, 0o600)
        self.db.execute("create table if not exists tables (id text primary key, ruleset text, "
                        "players integer, options text, seats text, seed integer, "
                        "created real)")
        self.db.execute("create table if not exists tokens (tab text, seat integer, "
                        "digest text, primary key (tab, seat))")
        self.db.commit()

    def create(self, ruleset: str, players: int, options: dict[str, Any], seats: list[str],
               seed: int) -> tuple[TableRow, dict[int, str], str]:
        """A new table: its row, a token for each human seat, and the spectators'
        token."""
        tid = secrets.token_urlsafe(ID_BYTES)
        row = TableRow(tid, ruleset, players, options, seats, seed, time.time(),
                       self.data / "records" / f"{tid}.jsonl")
        tokens = {s: secrets.token_urlsafe(32) for s, kind in enumerate(seats) if kind == "human"}
        watch = secrets.token_urlsafe(32)
        with self.db:
            self.db.execute("insert into tables values (?, ?, ?, ?, ?, ?, ?)",
                            (tid, ruleset, players, json.dumps(options), json.dumps(seats),
                             seed, row.created))
            for seat, token in tokens.items():
                self.db.execute("insert into tokens values (?, ?, ?)", (tid, seat, digest(token)))
            self.db.execute("insert into tokens values (?, ?, ?)", (tid, -1, digest(watch)))
        return row, tokens, watch

    def delete(self, tid: str) -> None:
        """Forget a table (one whose game could not be started)."""
        with self.db:
            self.db.execute("delete from tokens where tab = ?", (tid,))
            self.db.execute("delete from tables where id = ?", (tid,))

    def tables(self) -> list[TableRow]:
        """Every table, oldest first."""
        rows = self.db.execute("select id, ruleset, players, options, seats, seed, created "
                               "from tables order by created").fetchall()
        return [TableRow(r[0], r[1], r[2], json.loads(r[3]), json.loads(r[4]), r[5], r[6],
                         self.data / "records" / f"{r[0]}.jsonl") for r in rows]

    def seat_of(self, tid: str, token: str) -> int | None:
        """The seat a token opens at table ``tid`` (-1: a spectator), else ``None``.
        Every digest of the table is compared, in constant time."""
        given = digest(token)
        found = None
        for seat, known in self.db.execute("select seat, digest from tokens where tab = ?",
                                           (tid,)).fetchall():
            if hmac.compare_digest(given, known):
                found = seat
        return found
