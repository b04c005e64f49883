"""Where tables live between restarts: one interface, SQLite (default) or PostgreSQL.

A table is its metadata (rules spec, seats, clock, links; JSON) and the ordered list of
its moves as record text (``"2: KS"``, ``"shuffle ..."``). Every move is appended in its
own committed transaction before the server acknowledges it, so a killed server loses
nothing: on start, each live table is rebuilt by replaying its moves.

The server calls the database through :meth:`Storage.call`, on threads of the storage's
own, so a slow disk or network never stalls the event loop. PostgreSQL is reached
through a connection pool; a lost connection (the database restarted, a network blip)
is retried for up to :data:`RETRY_SECONDS`. A retried insert that finds its own move
already stored (the first try committed, then the connection broke) counts as done, so
no move is stored twice or acknowledged without being stored.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from ninetynine.errors import NinetyNineError

RETRY_SECONDS = 15.0  # how long a write waits for PostgreSQL to come back
logger = logging.getLogger("ninetynine.web")
T = TypeVar("T")


class StorageError(NinetyNineError):
    """The database could not be opened or refused a write."""


class DuplicateMoveError(StorageError):
    """A move was stored twice at the same index (two writers on one table)."""

    def __init__(self, message: str, *, retried: bool = False) -> None:
        super().__init__(message)
        self.retried = retried  # the insert was a retry after a lost connection


@dataclass
class StoredTable:
    id: str
    meta: dict[str, Any]
    moves: list[str] = field(default_factory=list)


_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS nn_tables (id TEXT PRIMARY KEY, meta TEXT NOT NULL, "
    "finished INTEGER NOT NULL DEFAULT 0)",
    "CREATE TABLE IF NOT EXISTS nn_moves (table_id TEXT NOT NULL, idx INTEGER NOT NULL, "
    "move TEXT NOT NULL, PRIMARY KEY (table_id, idx))",
)


class Storage(ABC):
    """The storage layer the server uses; both backends run the same SQL."""

    placeholder = "?"
    threads = 1

    def __init__(self) -> None:
        self._executor = ThreadPoolExecutor(self.threads, thread_name_prefix="nn-db")

    async def call(self, method: Callable[..., T], *args: Any) -> T:
        """Run one of this storage's methods on its own threads."""
        return await asyncio.get_running_loop().run_in_executor(self._executor, method, *args)

    @abstractmethod
    def _execute(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        """Run one statement as its own committed transaction; return its rows."""

    @abstractmethod
    def _columns(self, table: str) -> set[str]: ...

    def close(self) -> None:
        self._executor.shutdown(wait=True)

    def _sql(self, sql: str) -> str:
        return sql.replace("?", self.placeholder)

    def _migrate(self) -> None:
        """Databases written before tables had a ``finished`` column get one."""
        if "finished" in self._columns("nn_tables"):
            return
        self._execute("ALTER TABLE nn_tables ADD COLUMN finished INTEGER NOT NULL DEFAULT 0")
        for table_id, meta in self._execute("SELECT id, meta FROM nn_tables"):
            if json.loads(meta).get("finished"):
                self._execute(self._sql("UPDATE nn_tables SET finished = 1 WHERE id = ?"),
                              (table_id,))

    def create_table(self, table_id: str, meta: dict[str, Any]) -> None:
        self._execute(self._sql("INSERT INTO nn_tables (id, meta, finished) VALUES (?, ?, ?)"),
                      (table_id, json.dumps(meta), int(bool(meta.get("finished")))))

    def update_meta(self, table_id: str, meta: dict[str, Any]) -> None:
        self._execute(self._sql("UPDATE nn_tables SET meta = ?, finished = ? WHERE id = ?"),
                      (json.dumps(meta), int(bool(meta.get("finished"))), table_id))

    def append_move(self, table_id: str, index: int, move: str) -> None:
        """Store move number ``index`` (0-based); committed when this returns."""
        try:
            self._execute(self._sql(
                "INSERT INTO nn_moves (table_id, idx, move) VALUES (?, ?, ?)"),
                (table_id, index, move))
        except DuplicateMoveError as e:
            if e.retried and self._execute(self._sql(
                    "SELECT move FROM nn_moves WHERE table_id = ? AND idx = ?"),
                    (table_id, index)) == [(move,)]:
                return  # the first try was committed before its connection was lost
            raise

    def load(self, table_id: str) -> StoredTable | None:
        rows = self._execute(self._sql("SELECT meta FROM nn_tables WHERE id = ?"), (table_id,))
        if not rows:
            return None
        moves = self._execute(self._sql(
            "SELECT move FROM nn_moves WHERE table_id = ? ORDER BY idx"), (table_id,))
        return StoredTable(table_id, json.loads(rows[0][0]), [m for (m,) in moves])

    def load_live(self) -> list[StoredTable]:
        """Every table whose game goes on (finished and abandoned ones stay on disk)."""
        tables = {tid: StoredTable(tid, json.loads(meta)) for tid, meta in
                  self._execute("SELECT id, meta FROM nn_tables WHERE finished = 0")}
        for tid, move in self._execute(
                "SELECT m.table_id, m.move FROM nn_moves m JOIN nn_tables t ON t.id = m.table_id "
                "WHERE t.finished = 0 ORDER BY m.table_id, m.idx"):
            tables[tid].moves.append(move)
        return list(tables.values())


class SQLiteStorage(Storage):
    """The embedded default: one file (or ``:memory:``), WAL journal."""

    def __init__(self, path: str | Path) -> None:
        super().__init__()
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        try:
            self._db = sqlite3.connect(self.path, check_same_thread=False,
                                       isolation_level=None)
            # WAL with synchronous=NORMAL survives a killed process (not a power cut).
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            for stmt in _SCHEMA:
                self._db.execute(stmt)
            self._migrate()
        except sqlite3.Error as e:
            raise StorageError(f"cannot open SQLite database {self.path}: {e}") from None

    def _execute(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        # Autocommit mode: each single statement is its own committed transaction.
        with self._lock:
            try:
                return self._db.execute(sql, params).fetchall()
            except sqlite3.IntegrityError as e:
                raise DuplicateMoveError(f"storage refused a write: {e}") from None
            except sqlite3.Error as e:
                raise StorageError(f"SQLite error: {e}") from None

    def _columns(self, table: str) -> set[str]:
        return {row[1] for row in self._execute(f"PRAGMA table_info({table})")}

    def close(self) -> None:
        super().close()
        self._db.close()


class PostgresStorage(Storage):
    """PostgreSQL through psycopg 3 and its connection pool (``postgresql://...``)."""

    placeholder = "%s"
    threads = 4  # also the most connections the pool opens

    def __init__(self, url: str) -> None:
        super().__init__()
        import psycopg
        from psycopg_pool import ConnectionPool

        self._psycopg = psycopg
        self._complained = 0.0
        try:  # one plain connection first: a bad URL fails here with the server's reason
            with psycopg.connect(url, connect_timeout=10) as db, db.transaction():
                for stmt in _SCHEMA:
                    db.execute(stmt)
        except psycopg.Error as e:
            raise StorageError(f"cannot open PostgreSQL database: {e}".splitlines()[0]) from None
        self._pool = ConnectionPool(url, min_size=1, max_size=self.threads, open=True,
                                    kwargs={"autocommit": True, "connect_timeout": 10},
                                    reconnect_timeout=RETRY_SECONDS, name="ninetynine")
        self._migrate()

    def _execute(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        psycopg = self._psycopg
        deadline = time.monotonic() + RETRY_SECONDS
        pause, retried = 0.05, False
        while True:
            try:
                with self._pool.connection(timeout=max(0.1, deadline - time.monotonic())) as db:
                    cur = db.execute(sql, params)
                    return cur.fetchall() if cur.description else []
            except psycopg.errors.UniqueViolation as e:
                raise DuplicateMoveError(f"storage refused a write: {e}".splitlines()[0],
                                         retried=retried) from None
            except (psycopg.OperationalError, psycopg.InterfaceError) as e:
                # the connection was lost (a restart, the network): the pool replaces it
                if time.monotonic() + pause > deadline:
                    raise StorageError(f"PostgreSQL is unavailable: {e}".splitlines()[0]) from None
                self._complain(e)
                time.sleep(pause)
                pause, retried = min(pause * 2, 1.0), True
            except psycopg.Error as e:
                raise StorageError(f"PostgreSQL error: {e}".splitlines()[0]) from None

    def _complain(self, error: Exception) -> None:
        """One warning every ten seconds at most, however many writes are retrying."""
        now = time.monotonic()
        if now - self._complained > 10:
            self._complained = now
            logger.warning("PostgreSQL connection lost, retrying: %s",
                           str(error).splitlines()[0] if str(error) else type(error).__name__)

    def _columns(self, table: str) -> set[str]:
        return {name for (name,) in self._execute(
            "SELECT column_name FROM information_schema.columns WHERE table_name = %s",
            (table,))}

    def close(self) -> None:
        super().close()
        self._pool.close()


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
