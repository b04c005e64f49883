"""Where tables live between restarts: one interface, SQLite (default) or PostgreSQL.

A table is its metadata (rules spec, seats, clock, links; JSON) and the ordered list of
its moves as record text (``"2: KS"``, ``"shuffle ..."``). Every move is appended in its
own committed transaction before the server acknowledges it, so a killed server loses
nothing: on start, each table is rebuilt by replaying its moves.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ninetynine.errors import NinetyNineError


class StorageError(NinetyNineError):
    """The database could not be opened or refused a write."""


class DuplicateMoveError(StorageError):
    """A move was stored twice at the same index (two writers on one table)."""


@dataclass
class StoredTable:
    id: str
    meta: dict[str, Any]
    moves: list[str] = field(default_factory=list)


_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS nn_tables (id TEXT PRIMARY KEY, meta TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS nn_moves (table_id TEXT NOT NULL, idx INTEGER NOT NULL, "
    "move TEXT NOT NULL, PRIMARY KEY (table_id, idx))",
)


class Storage(ABC):
    """The storage layer the server uses; both backends run the same SQL."""

    placeholder = "?"

    @abstractmethod
    def _execute(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        """Run one statement as its own committed transaction; return its rows."""

    @abstractmethod
    def close(self) -> None: ...

    def _sql(self, sql: str) -> str:
        return sql.replace("?", self.placeholder)

    def create_table(self, table_id: str, meta: dict[str, Any]) -> None:
        self._execute(self._sql("INSERT INTO nn_tables (id, meta) VALUES (?, ?)"),
                      (table_id, json.dumps(meta)))

    def update_meta(self, table_id: str, meta: dict[str, Any]) -> None:
        self._execute(self._sql("UPDATE nn_tables SET meta = ? WHERE id = ?"),
                      (json.dumps(meta), table_id))

    def append_move(self, table_id: str, index: int, move: str) -> None:
        """Store move number ``index`` (0-based); committed when this returns."""
        self._execute(self._sql("INSERT INTO nn_moves (table_id, idx, move) VALUES (?, ?, ?)"),
                      (table_id, index, move))

    def load(self, table_id: str) -> StoredTable | None:
        rows = self._execute(self._sql("SELECT meta FROM nn_tables WHERE id = ?"), (table_id,))
        if not rows:
            return None
        moves = self._execute(self._sql(
            "SELECT move FROM nn_moves WHERE table_id = ? ORDER BY idx"), (table_id,))
        return StoredTable(table_id, json.loads(rows[0][0]), [m for (m,) in moves])

    def load_all(self) -> list[StoredTable]:
        tables = {tid: StoredTable(tid, json.loads(meta))
                  for tid, meta in self._execute("SELECT id, meta FROM nn_tables")}
        for tid, move in self._execute("SELECT table_id, move FROM nn_moves "
                                       "ORDER BY table_id, idx"):
            if tid in tables:
                tables[tid].moves.append(move)
        return list(tables.values())


class SQLiteStorage(Storage):
    """The embedded default: one file (or ``:memory:``), WAL journal."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        try:
            self._db = sqlite3.connect(self.path, check_same_thread=False,
                                       isolation_level=None)
            # WAL with synchronous=NORMAL survives a killed process (not a power cut).
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            for stmt in _SCHEMA:
                self._db.execute(stmt)
        except sqlite3.Error as e:
            raise StorageError(f"cannot open SQLite database {self.path}: {e}") from None
        self._lock = threading.Lock()

    def _execute(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        # Autocommit mode: each single statement is its own committed transaction.
        with self._lock:
            try:
                return self._db.execute(sql, params).fetchall()
            except sqlite3.IntegrityError as e:
                raise DuplicateMoveError(f"storage refused a write: {e}") from None
            except sqlite3.Error as e:
                raise StorageError(f"SQLite error: {e}") from None

    def close(self) -> None:
        self._db.close()


class PostgresStorage(Storage):
    """PostgreSQL through psycopg 3, for a real deployment (``postgresql://...``)."""

    placeholder = "%s"

    def __init__(self, url: str) -> None:
        import psycopg

        self._psycopg = psycopg
        try:
            self._db = psycopg.connect(url, autocommit=False)
            with self._db.transaction():
                for stmt in _SCHEMA:
                    self._db.execute(stmt)
        except psycopg.Error as e:
            raise StorageError(f"cannot open PostgreSQL database: {e}".splitlines()[0]) from None
        self._lock = threading.Lock()

    def _execute(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        psycopg = self._psycopg
        with self._lock:
            try:
                with self._db.transaction():
                    cur = self._db.execute(sql, params)
                    return cur.fetchall() if cur.description else []
            except psycopg.errors.UniqueViolation as e:
                raise DuplicateMoveError(f"storage refused a write: {e}".splitlines()[0]) from None
            except psycopg.Error as e:
                raise StorageError(f"PostgreSQL error: {e}".splitlines()[0]) from None

    def close(self) -> None:
        self._db.close()


def open_storage(url: str) -> Storage:
    """A backend from a setting: ``postgresql://...`` or a SQLite file path."""
    if url.startswith(("postgresql://", "postgres://")):
        return PostgresStorage(url)
    if url.startswith("sqlite:///"):
        url = url[len("sqlite:///"):]
    if "://" in url:
        raise StorageError(f"unsupported database {url!r}: expected a SQLite file path "
                           "or a postgresql:// URL")
    return SQLiteStorage(url)
