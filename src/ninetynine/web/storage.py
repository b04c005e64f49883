"""Where tables live between restarts: one interface, SQLite (default) or PostgreSQL.

A table is its metadata (rules spec, seats, clock, links; JSON), the ordered list of
its moves as record text (``"2: KS"``, ``"shuffle ..."``) and the few notes of the
server's that belong to the game's log (a missed turn clock), each at its state id.
Every move is appended in its own committed transaction before the server acknowledges
it, so a killed server loses nothing: a live table is rebuilt by replaying its moves when
it is first asked for.

The server calls the database through :meth:`Storage.call`, on threads of the storage's
own, so a slow disk or network never stalls the event loop. PostgreSQL is reached
through a connection pool; a lost connection (the database restarted, a network blip)
is retried for up to :data:`RETRY_SECONDS`. A retried insert that finds its own move
already stored (the first try committed, then the connection broke) counts as done, so
no move is stored twice or acknowledged without being stored.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
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
Then = Callable[[list[tuple[Any, ...]]], list[tuple[str, tuple[Any, ...]]]]


class StorageError(NinetyNineError):
    """The database could not be opened or refused a write."""


class MetaConflict(StorageError):
    """Another server process changed a table's metadata first: read it again."""


class DuplicateMoveError(StorageError):
    """A write the database refused as a duplicate: mostly a move stored twice at the same
    index (two writers on one table), also a table id stored already."""

    def __init__(self, message: str, *, retried: bool = False) -> None:
        super().__init__(message)
        self.retried = retried  # the insert was a retry after a lost connection


@dataclass
class StoredTable:
    """A table as stored: its id, its metadata (JSON), its moves as record text in order, and the
    metadata's version."""

    id: str
    meta: dict[str, Any]
    moves: list[str] = field(default_factory=list)
    meta_version: int = 0  # bumped by every metadata write (compare-and-set)
    notes: list[tuple[int, dict[str, Any]]] = field(default_factory=list)  # (state id, line)


_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS nn_tables (id TEXT PRIMARY KEY, meta TEXT NOT NULL, "
    "finished INTEGER NOT NULL DEFAULT 0, meta_version INTEGER NOT NULL DEFAULT 0)",
    "CREATE TABLE IF NOT EXISTS nn_moves (table_id TEXT NOT NULL, idx INTEGER NOT NULL, "
    "move TEXT NOT NULL, PRIMARY KEY (table_id, idx))",
    # the server's notes kept in a table's log (a missed turn clock), at the state id they
    # were made at: one of a kind per seat and state, however often a restart makes it again
    "CREATE TABLE IF NOT EXISTS nn_notes (table_id TEXT NOT NULL, version INTEGER NOT NULL, "
    "kind TEXT NOT NULL, seat INTEGER NOT NULL, line TEXT NOT NULL, "
    "PRIMARY KEY (table_id, version, kind, seat))",
    # accounts (ninetynine.web.accounts): a name, its passkeys, its sessions; a recovery
    # code, a session's id and a challenge are stored as their SHA-256 only
    "CREATE TABLE IF NOT EXISTS nn_accounts (id TEXT PRIMARY KEY, name TEXT NOT NULL, "
    "name_key TEXT NOT NULL UNIQUE, user_handle TEXT NOT NULL UNIQUE, "
    "recovery TEXT NOT NULL UNIQUE, created DOUBLE PRECISION NOT NULL)",
    "CREATE TABLE IF NOT EXISTS nn_passkeys (id TEXT PRIMARY KEY, account TEXT NOT NULL, "
    "public_key TEXT NOT NULL, sign_count BIGINT NOT NULL, created DOUBLE PRECISION NOT NULL)",
    "CREATE INDEX IF NOT EXISTS nn_passkeys_account ON nn_passkeys (account)",
    "CREATE TABLE IF NOT EXISTS nn_sessions (id TEXT PRIMARY KEY, account TEXT NOT NULL, "
    "expires DOUBLE PRECISION NOT NULL)",
    "CREATE INDEX IF NOT EXISTS nn_sessions_account ON nn_sessions (account)",
    "CREATE TABLE IF NOT EXISTS nn_challenges (id TEXT PRIMARY KEY, kind TEXT NOT NULL, "
    "data TEXT NOT NULL, expires DOUBLE PRECISION NOT NULL)",
    # clubs (ninetynine.web.clubs): a name, an owner, its members and its tables; the
    # invite is a club's live invite token (a rotation replaces it)
    "CREATE TABLE IF NOT EXISTS nn_clubs (id TEXT PRIMARY KEY, name TEXT NOT NULL, "
    "owner TEXT NOT NULL, invite TEXT NOT NULL UNIQUE, created DOUBLE PRECISION NOT NULL)",
    "CREATE TABLE IF NOT EXISTS nn_club_members (club TEXT NOT NULL, account TEXT NOT NULL, "
    "joined DOUBLE PRECISION NOT NULL, PRIMARY KEY (club, account))",
    "CREATE INDEX IF NOT EXISTS nn_club_members_account ON nn_club_members (account)",
    "CREATE TABLE IF NOT EXISTS nn_club_tables (club TEXT NOT NULL, table_id TEXT NOT NULL, "
    "created DOUBLE PRECISION NOT NULL, PRIMARY KEY (club, table_id))",
    # shares (ninetynine.web.shares): a finished table's public read-only link, one a table;
    # the token is stored as itself, so every player of the table is shown the same link
    "CREATE TABLE IF NOT EXISTS nn_shares (token TEXT PRIMARY KEY, "
    "table_id TEXT NOT NULL UNIQUE, created DOUBLE PRECISION NOT NULL)",
    # finished games (ninetynine.web.history): one row per seat an account held at the end;
    # a rated game's marker (its ratings were updated, once), each account's rating per
    # rules family, and one history row per rated game and account (seq: its number, the
    # key that makes two processes' updates of one rating at once conflict)
    "CREATE TABLE IF NOT EXISTS nn_results (table_id TEXT NOT NULL, seat INTEGER NOT NULL, "
    "account TEXT NOT NULL, place INTEGER NOT NULL, won INTEGER NOT NULL, "
    "rules_id TEXT NOT NULL, rules_name TEXT NOT NULL, family TEXT NOT NULL, "
    "players INTEGER NOT NULL, names TEXT NOT NULL, club TEXT, rated INTEGER NOT NULL, "
    "finished DOUBLE PRECISION NOT NULL, PRIMARY KEY (table_id, seat))",
    "CREATE INDEX IF NOT EXISTS nn_results_account ON nn_results (account, finished)",
    "CREATE TABLE IF NOT EXISTS nn_rated_games (table_id TEXT PRIMARY KEY, "
    "rated DOUBLE PRECISION NOT NULL)",
    "CREATE TABLE IF NOT EXISTS nn_ratings (account TEXT NOT NULL, family TEXT NOT NULL, "
    "mu DOUBLE PRECISION NOT NULL, sigma DOUBLE PRECISION NOT NULL, games INTEGER NOT NULL, "
    "PRIMARY KEY (account, family))",
    "CREATE TABLE IF NOT EXISTS nn_rating_history (account TEXT NOT NULL, "
    "family TEXT NOT NULL, seq INTEGER NOT NULL, table_id TEXT NOT NULL, "
    "mu_before DOUBLE PRECISION NOT NULL, sigma_before DOUBLE PRECISION NOT NULL, "
    "mu DOUBLE PRECISION NOT NULL, sigma DOUBLE PRECISION NOT NULL, "
    "at DOUBLE PRECISION NOT NULL, PRIMARY KEY (account, family, seq))",
    "CREATE INDEX IF NOT EXISTS nn_rating_history_table ON nn_rating_history (account, table_id)",
    # turn-based tables (ninetynine.web.turns): each one's current turn with its deadline
    # (wall-clock seconds; a bot's or a shuffle's is due at once), the turns whose "your
    # turn" was sent (one row per table and state id: exactly once, whichever process),
    # each account's e-mail address and what it unsubscribed from, each club's webhook,
    # and the key that signs the unsubscribe links
    "CREATE TABLE IF NOT EXISTS nn_turns (table_id TEXT PRIMARY KEY, version INTEGER NOT NULL, "
    "seat INTEGER, deadline DOUBLE PRECISION NOT NULL)",
    "CREATE INDEX IF NOT EXISTS nn_turns_deadline ON nn_turns (deadline)",
    "CREATE TABLE IF NOT EXISTS nn_turn_notices (table_id TEXT NOT NULL, version INTEGER NOT NULL, "
    "PRIMARY KEY (table_id, version))",
    "CREATE TABLE IF NOT EXISTS nn_contacts (account TEXT PRIMARY KEY, email TEXT, "
    "email_off INTEGER NOT NULL DEFAULT 0, webhook_off INTEGER NOT NULL DEFAULT 0)",
    "CREATE TABLE IF NOT EXISTS nn_club_hooks (club TEXT PRIMARY KEY, url TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS nn_secrets (name TEXT PRIMARY KEY, value TEXT NOT NULL)",
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
    def _execute(
        self, sql: str, params: tuple[Any, ...] = (), then: Then | None = None
    ) -> list[tuple[Any, ...]]:
        """Run one statement as its own committed transaction; return its rows. ``then``
        gives, from those rows, statements for the same transaction (a notification to
        the other processes, where there are any)."""

    @abstractmethod
    def _columns(self, table: str) -> set[str]: ...

    @abstractmethod
    def _atomic(self, statements: list[tuple[str, tuple[Any, ...]]]) -> list[tuple[Any, ...]]:
        """Run statements (with ``?``) as one committed transaction; the first one's rows."""

    def execute(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        """One statement (written with ``?`` placeholders) as its own transaction: for the
        modules that keep tables of their own here (:mod:`ninetynine.web.accounts.store`)."""
        return self._execute(self._sql(sql), params)

    def atomic(self, statements: list[tuple[str, tuple[Any, ...]]]) -> list[tuple[Any, ...]]:
        """Several statements (with ``?``) as one transaction: all or none are committed. A
        unique key taken already raises :class:`DuplicateMoveError`. Returns the first's rows."""
        return self._atomic(statements)

    def close(self) -> None:
        """Waits for the calls under way, then stops the storage's threads."""
        self._executor.shutdown(wait=True)

    def _sql(self, sql: str) -> str:
        return sql.replace("?", self.placeholder)

    def _migrate(self) -> None:
        """Databases written before tables had ``finished`` and ``meta_version`` columns."""
        columns = self._columns("nn_tables")
        if "meta_version" not in columns:
            self._execute(
                "ALTER TABLE nn_tables ADD COLUMN meta_version INTEGER NOT NULL DEFAULT 0"
            )
        if "finished" in columns:
            return
        self._execute("ALTER TABLE nn_tables ADD COLUMN finished INTEGER NOT NULL DEFAULT 0")
        for table_id, meta in self._execute("SELECT id, meta FROM nn_tables"):
            if json.loads(meta).get("finished"):
                self._execute(
                    self._sql("UPDATE nn_tables SET finished = 1 WHERE id = ?"), (table_id,)
                )

    # Several processes share a PostgreSQL database; SQLite is one process's own. -------

    shared = False  # True: other server processes serve the same tables
    process = ""  # this process's name among those sharing the database

    def _notify(self, table_id: str, kind: str, **data: Any) -> tuple[str, tuple[Any, ...]]:
        """A statement that tells the other processes (in the write's own transaction)."""
        payload = json.dumps({"p": self.process, "t": table_id, "k": kind, **data})
        return "SELECT pg_notify('nn_tables', %s)", (payload,)

    @abstractmethod
    def publish(self, table_id: str, kind: str, data: dict[str, Any]) -> None:
        """Tell the other processes something that is not stored (a chat line, a note)."""

    @abstractmethod
    def heartbeat(self) -> None:
        """Say that this process is alive."""

    @abstractmethod
    def presence(self, table_ids: list[str]) -> dict[str, dict[tuple[str, int], int]]:
        """Connections to these tables at the other live processes, by table, then by
        (process, seat) (seat -1: spectators)."""

    @abstractmethod
    def set_presence(self, table_id: str, seat: int, connections: int) -> None:
        """This process's connections to one seat of a table (-1: its spectators)."""

    @abstractmethod
    def hold_leases(self, table_ids: list[str]) -> set[str]:
        """Take or renew the right to drive these tables' bots and clocks; the ones held."""

    @abstractmethod
    def release_leases(self, table_ids: list[str]) -> None:
        """Give up driving these tables."""

    @abstractmethod
    def public_live(self, limit: int) -> list[str]:
        """The newest public tables whose game goes on (all processes' tables, loaded or
        not)."""

    @abstractmethod
    async def listen(self, handle: Callable[[dict[str, Any]], None]) -> None:
        """Pass every notification of the other processes to ``handle`` (forever)."""

    def create_table(self, table_id: str, meta: dict[str, Any]) -> None:
        """Inserts a new table with its metadata and no moves; an id already stored is refused
        (:class:`StorageError`)."""
        self._execute(
            self._sql("INSERT INTO nn_tables (id, meta, finished) VALUES (?, ?, ?)"),
            (table_id, json.dumps(meta), int(bool(meta.get("finished")))),
        )

    def update_meta(self, table_id: str, meta: dict[str, Any], expect: int | None = None) -> int:
        """Write a table's metadata; with ``expect``, only over that version (else
        :class:`MetaConflict`). Returns the new version (the others are told it)."""
        sql = (
            "UPDATE nn_tables SET meta = ?, finished = ?, meta_version = meta_version + 1 "
            "WHERE id = ?"
            + ("" if expect is None else " AND meta_version = ?")
            + " RETURNING meta_version"
        )
        params: tuple[Any, ...] = (json.dumps(meta), int(bool(meta.get("finished"))), table_id)
        if expect is not None:
            params += (expect,)
        rows = self._execute(
            self._sql(sql),
            params,
            lambda rows: [self._notify(table_id, "meta", v=rows[0][0])] if rows else [],
        )
        if not rows:
            raise MetaConflict(f"table {table_id}: its seats changed meanwhile; try again")
        return int(rows[0][0])

    def append_move(self, table_id: str, index: int, move: str) -> None:
        """Store move number ``index`` (0-based); committed when this returns."""
        try:
            self._execute(
                self._sql("INSERT INTO nn_moves (table_id, idx, move) VALUES (?, ?, ?)"),
                (table_id, index, move),
                lambda _: [self._notify(table_id, "move", i=index, m=move)],
            )
        except DuplicateMoveError as e:
            if e.retried and self._execute(
                self._sql("SELECT move FROM nn_moves WHERE table_id = ? AND idx = ?"),
                (table_id, index),
            ) == [(move,)]:
                return  # the first try was committed before its connection was lost
            raise

    def load(self, table_id: str) -> StoredTable | None:
        """A table with its metadata, every move and the metadata's version, or None for an unknown
        id."""
        rows = self._execute(
            self._sql("SELECT meta, meta_version FROM nn_tables WHERE id = ?"), (table_id,)
        )
        if not rows:
            return None
        return StoredTable(
            table_id,
            json.loads(rows[0][0]),
            self.moves_since(table_id, 0),
            int(rows[0][1]),
            self.notes(table_id),
        )

    def moves_since(self, table_id: str, index: int) -> list[str]:
        """The moves of a table from number ``index`` (0-based) on, in order."""
        return [
            m
            for (m,) in self._execute(
                self._sql("SELECT move FROM nn_moves WHERE table_id = ? AND idx >= ? ORDER BY idx"),
                (table_id, index),
            )
        ]

    def add_note(self, table_id: str, version: int, line: dict[str, Any]) -> None:
        """Keeps a note of the server's (``{"kind", "seat", "text"}``) in the table's log at
        state id ``version``; the same kind for the same seat and state is kept once."""
        self._execute(
            self._sql(
                "INSERT INTO nn_notes (table_id, version, kind, seat, line) VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT DO NOTHING"
            ),
            (table_id, version, line["kind"], line["seat"], json.dumps(line)),
        )

    def notes(self, table_id: str) -> list[tuple[int, dict[str, Any]]]:
        """A table's kept notes with their state ids, in the order they were made."""
        return [
            (int(version), json.loads(line))
            for version, line in self._execute(
                self._sql(
                    "SELECT version, line FROM nn_notes WHERE table_id = ? "
                    "ORDER BY version, kind, seat"
                ),
                (table_id,),
            )
        ]

    def load_meta(self, table_id: str) -> tuple[dict[str, Any], int] | None:
        """A table's metadata and its version, without the moves; None for an unknown id."""
        rows = self._execute(
            self._sql("SELECT meta, meta_version FROM nn_tables WHERE id = ?"), (table_id,)
        )
        return (json.loads(rows[0][0]), int(rows[0][1])) if rows else None

    def live_metas(self) -> dict[str, dict[str, Any]]:
        """The metadata of every table whose game goes on, by id (not their moves)."""
        return {
            tid: json.loads(meta)
            for tid, meta in self._execute("SELECT id, meta FROM nn_tables WHERE finished = 0")
        }


class SQLiteStorage(Storage):
    """The embedded default: one file (or ``:memory:``), WAL journal."""

    def __init__(self, path: str | Path) -> None:
        super().__init__()
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        try:
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            # WAL with synchronous=NORMAL survives a killed process (not a power cut).
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            for stmt in _SCHEMA:
                self._db.execute(stmt)
            self._migrate()
        except sqlite3.Error as e:
            raise StorageError(f"cannot open SQLite database {self.path}: {e}") from None

    def _execute(
        self, sql: str, params: tuple[Any, ...] = (), then: Then | None = None
    ) -> list[tuple[Any, ...]]:
        # Autocommit mode: each single statement is its own committed transaction. One
        # process owns the file, so there is nobody to notify (``then`` is not run).
        with self._lock:
            try:
                return self._db.execute(sql, params).fetchall()
            except sqlite3.IntegrityError as e:
                raise DuplicateMoveError(f"storage refused a write: {e}") from None
            except sqlite3.Error as e:
                raise StorageError(f"SQLite error: {e}") from None

    def _columns(self, table: str) -> set[str]:
        return {row[1] for row in self._execute(f"PRAGMA table_info({table})")}

    def _atomic(self, statements: list[tuple[str, tuple[Any, ...]]]) -> list[tuple[Any, ...]]:
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
                try:
                    first = [self._db.execute(sql, params).fetchall() for sql, params in statements]
                    self._db.execute("COMMIT")
                except BaseException:
                    self._db.execute("ROLLBACK")
                    raise
                return first[0] if first else []
            except sqlite3.IntegrityError as e:
                raise DuplicateMoveError(f"storage refused a write: {e}") from None
            except sqlite3.Error as e:
                raise StorageError(f"SQLite error: {e}") from None

    # One process owns the file: nobody else to tell, every lease its own.
    def publish(self, table_id: str, kind: str, data: dict[str, Any]) -> None:
        """Nothing: one process owns the file, so there is nobody to tell."""
        return None

    def heartbeat(self) -> None:
        """Nothing: there is no other process to tell."""
        return None

    def presence(self, table_ids: list[str]) -> dict[str, dict[tuple[str, int], int]]:
        """Always empty: no other process serves these tables."""
        return {}

    def set_presence(self, table_id: str, seat: int, connections: int) -> None:
        """Nothing: there is no other process to tell."""
        return None

    def hold_leases(self, table_ids: list[str]) -> set[str]:
        """Every table asked for: this process drives them all."""
        return set(table_ids)

    def release_leases(self, table_ids: list[str]) -> None:
        """Nothing: no lease is kept."""
        return None

    def public_live(self, limit: int) -> list[str]:
        """The ids of the newest ``limit`` public tables whose game goes on, newest first."""
        return [
            t
            for (t,) in self._execute(
                "SELECT id FROM nn_tables WHERE finished = 0 AND json_extract(meta, '$.public') "
                "ORDER BY json_extract(meta, '$.created') DESC LIMIT ?",
                (limit,),
            )
        ]

    async def listen(self, handle: Callable[[dict[str, Any]], None]) -> None:
        """Waits until cancelled: no other process ever sends anything."""
        await asyncio.Event().wait()  # nothing ever comes

    def close(self) -> None:
        """Stops the storage's threads, then closes the database file."""
        super().close()
        self._db.close()


_SHARED_SCHEMA = (
    # who drives each table's bots and clocks, until when (the database's clock, seconds)
    "CREATE TABLE IF NOT EXISTS nn_leases (table_id TEXT PRIMARY KEY, holder TEXT NOT NULL, "
    "expires DOUBLE PRECISION NOT NULL)",
    # how many connections each process has to each seat (-1: spectators) of a table
    "CREATE TABLE IF NOT EXISTS nn_presence (table_id TEXT NOT NULL, seat INTEGER NOT NULL, "
    "process TEXT NOT NULL, connections INTEGER NOT NULL, "
    "PRIMARY KEY (table_id, seat, process))",
    # the live processes: one heartbeat every HEARTBEAT seconds
    "CREATE TABLE IF NOT EXISTS nn_processes (id TEXT PRIMARY KEY, seen DOUBLE PRECISION NOT NULL)",
)
NOW = "extract(epoch from clock_timestamp())"  # one clock for every process: the database's
LEASE_SECONDS = 6.0  # a lease not renewed for this long may be taken by another process
HEARTBEAT = 2.0  # seconds between a process's heartbeats; silent for 3 of them, it is gone
APPLICATION = "ninetynine "  # + the process's name: its connections' application_name


class PostgresStorage(Storage):
    """PostgreSQL through psycopg 3 and its connection pool (``postgresql://...``): the
    tables, and the channel (LISTEN/NOTIFY) through which the processes that share them
    tell each other about moves, seats, presence and chat.

    A process that dies (kill -9, a crash) stops renewing its leases and heartbeat, but
    its connections close at once, and PostgreSQL stops showing them (``pg_stat_activity``,
    by ``application_name``): a process with none left is taken for gone without waiting
    for its leases to expire, so that its tables move again as soon as somebody is back.
    Where the names are not shown (a connection pooler in between), the leases expire."""

    placeholder = "%s"
    threads = 4  # also the most connections the pool opens
    shared = True

    def __init__(self, url: str) -> None:
        super().__init__()
        import psycopg
        from psycopg_pool import ConnectionPool

        self._psycopg, self._url = psycopg, url
        self._complained = 0.0
        self.process = secrets.token_hex(6)
        try:  # one plain connection first: a bad URL fails here with the server's reason
            with psycopg.connect(url, connect_timeout=10) as db, db.transaction():
                db.execute("SELECT pg_advisory_xact_lock(99099)")  # one process at a time
                for stmt in _SCHEMA + _SHARED_SCHEMA:
                    db.execute(stmt)
        except psycopg.Error as e:
            raise StorageError(f"cannot open PostgreSQL database: {e}".splitlines()[0]) from None
        self._connection = {
            "autocommit": True,
            "connect_timeout": 10,
            "application_name": APPLICATION + self.process,
        }
        self._pool = ConnectionPool(
            url,
            min_size=1,
            max_size=self.threads,
            open=True,
            kwargs=self._connection,
            reconnect_timeout=RETRY_SECONDS,
            name="ninetynine",
        )
        self._migrate()
        self._names_shown = bool(
            self._execute(  # this very connection is one of them
                "SELECT 1 FROM pg_stat_activity WHERE application_name = %s",
                (APPLICATION + self.process,),
            )
        )

    def _gone(self, process: str) -> str:
        """SQL: the process named in column ``process`` has no connection left."""
        if not self._names_shown:
            return "FALSE"
        return (
            f"NOT EXISTS (SELECT 1 FROM pg_stat_activity WHERE application_name = "
            f"'{APPLICATION}' || {process})"
        )

    def _execute(
        self, sql: str, params: tuple[Any, ...] = (), then: Then | None = None
    ) -> list[tuple[Any, ...]]:
        psycopg = self._psycopg
        deadline = time.monotonic() + RETRY_SECONDS
        pause, retried = 0.05, False
        while True:
            try:
                with (
                    self._pool.connection(timeout=max(0.1, deadline - time.monotonic())) as db,
                    db.transaction(),
                ):
                    cur = db.execute(sql, params)
                    rows = cur.fetchall() if cur.description else []
                    for more, args in then(rows) if then else ():
                        db.execute(more, args)
                    return rows
            except psycopg.errors.UniqueViolation as e:
                raise DuplicateMoveError(
                    f"storage refused a write: {e}".splitlines()[0], retried=retried
                ) from None
            except (psycopg.OperationalError, psycopg.InterfaceError) as e:
                # the connection was lost (a restart, the network; the pool replaces it),
                # or the transaction was rolled back (a deadlock between processes)
                if time.monotonic() + pause > deadline:
                    raise StorageError(f"PostgreSQL is unavailable: {e}".splitlines()[0]) from None
                self._complain(e)
                time.sleep(pause)
                pause, retried = min(pause * 2, 1.0), True
            except psycopg.Error as e:
                raise StorageError(f"PostgreSQL error: {e}".splitlines()[0]) from None

    def _atomic(self, statements: list[tuple[str, tuple[Any, ...]]]) -> list[tuple[Any, ...]]:
        if not statements:
            return []
        (sql, params), rest = statements[0], statements[1:]
        return self._execute(self._sql(sql), params, lambda _: [(self._sql(s), p) for s, p in rest])

    def _complain(self, error: Exception) -> None:
        """One warning every ten seconds at most, however many writes are retrying."""
        now = time.monotonic()
        if now - self._complained > 10:
            self._complained = now
            logger.warning(
                "PostgreSQL write retried (connection lost or transaction rolled back): %s",
                str(error).splitlines()[0] if str(error) else type(error).__name__,
            )

    def _columns(self, table: str) -> set[str]:
        return {
            name
            for (name,) in self._execute(
                "SELECT column_name FROM information_schema.columns WHERE table_name = %s", (table,)
            )
        }

    def close(self) -> None:
        """Gives up at once what this process held (its leases, its presence, its heartbeat's row),
        then stops the threads and the pool."""
        with contextlib.suppress(StorageError):  # what this process held is free at once
            self._execute("DELETE FROM nn_leases WHERE holder = %s", (self.process,))
            self._execute("DELETE FROM nn_presence WHERE process = %s", (self.process,))
            self._execute("DELETE FROM nn_processes WHERE id = %s", (self.process,))
        super().close()
        self._pool.close()

    # Sharing the tables with other processes ------------------------------------------

    def publish(self, table_id: str, kind: str, data: dict[str, Any]) -> None:
        """Sends a notification on the ``nn_tables`` channel (nothing is stored)."""
        sql, params = self._notify(table_id, kind, **data)
        self._execute(sql, params)

    def heartbeat(self) -> None:
        """This process is alive; the presence of processes gone silent is dropped."""
        self._execute(
            f"INSERT INTO nn_processes (id, seen) VALUES (%s, {NOW}) "
            "ON CONFLICT (id) DO UPDATE SET seen = EXCLUDED.seen",
            (self.process,),
        )
        self._execute(
            f"DELETE FROM nn_presence WHERE process IN (SELECT id FROM nn_processes "
            f"WHERE seen < {NOW} - %s OR {self._gone('id')})",
            (3 * HEARTBEAT,),
        )

    def presence(self, table_ids: list[str]) -> dict[str, dict[tuple[str, int], int]]:
        """The connections of the other live processes to these tables, by table, then by (process,
        seat), seat -1 for spectators. A process silent for three heartbeats, or with no connection
        left, is not counted."""
        out: dict[str, dict[tuple[str, int], int]] = {t: {} for t in table_ids}
        if table_ids:
            for table_id, process, seat, count in self._execute(
                "SELECT p.table_id, p.process, p.seat, p.connections FROM nn_presence p "
                "JOIN nn_processes q ON q.id = p.process WHERE p.table_id = ANY(%s) "
                f"AND p.process <> %s AND p.connections > 0 AND q.seen >= {NOW} - %s "
                f"AND NOT {self._gone('p.process')}",
                (table_ids, self.process, 3 * HEARTBEAT),
            ):
                out[table_id][(process, int(seat))] = int(count)
        return out

    def set_presence(self, table_id: str, seat: int, connections: int) -> None:
        """Stores how many connections this process has to one seat of a table (-1: its spectators),
        and tells the other processes."""
        self._execute(
            "INSERT INTO nn_presence (table_id, seat, process, connections) "
            "VALUES (%s, %s, %s, %s) ON CONFLICT (table_id, seat, process) "
            "DO UPDATE SET connections = EXCLUDED.connections",
            (table_id, seat, self.process, connections),
            lambda _: [self._notify(table_id, "presence", s=seat, c=connections)],
        )

    def hold_leases(self, table_ids: list[str]) -> set[str]:
        """Takes or renews for :data:`LEASE_SECONDS` the leases of these tables that are free,
        this process's own, expired, or held by a process that is gone; returns the ids it holds
        now."""
        if not table_ids:
            return set()
        rows = self._execute(
            f"INSERT INTO nn_leases (table_id, holder, expires) "
            f"SELECT t, %s, {NOW} + %s FROM unnest(%s::text[]) AS t "
            f"ON CONFLICT (table_id) DO UPDATE SET holder = EXCLUDED.holder, "
            f"expires = EXCLUDED.expires WHERE nn_leases.holder = EXCLUDED.holder "
            f"OR nn_leases.expires < {NOW} OR {self._gone('nn_leases.holder')} "
            f"RETURNING table_id",
            (self.process, LEASE_SECONDS, sorted(table_ids)),
        )  # one lock order for all
        return {t for (t,) in rows}

    def release_leases(self, table_ids: list[str]) -> None:
        """Deletes this process's leases of these tables."""
        if table_ids:
            self._execute(
                "DELETE FROM nn_leases WHERE holder = %s AND table_id = ANY(%s)",
                (self.process, table_ids),
            )

    def public_live(self, limit: int) -> list[str]:
        """The ids of the newest ``limit`` public tables whose game goes on, newest first, whichever
        process serves them."""
        return [
            t
            for (t,) in self._execute(
                "SELECT id FROM nn_tables WHERE finished = 0 AND meta::jsonb->>'public' = 'true' "
                "ORDER BY (meta::jsonb->>'created')::float DESC LIMIT %s",
                (limit,),
            )
        ]

    async def listen(self, handle: Callable[[dict[str, Any]], None]) -> None:
        """LISTEN on its own connection, forever; each time it connects (the first time too,
        and after a lost connection, when notifications may have been missed) ``handle`` gets
        ``{"k": "resync"}`` first."""
        psycopg, pause = self._psycopg, 0.2
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(
                    self._url, **self._connection
                ) as db:
                    await db.execute("LISTEN nn_tables")
                    handle({"k": "resync"})
                    pause = 0.2
                    async for note in db.notifies():
                        message = json.loads(note.payload)
                        if message.get("p") != self.process:
                            handle(message)
            except psycopg.Error as e:
                self._complain(e)
                await asyncio.sleep(pause)
                pause = min(pause * 2, 5.0)


def open_storage(url: str) -> Storage:
    """A backend from a setting: ``postgresql://...`` or a SQLite file path."""
    if url.startswith(("postgresql://", "postgres://")):
        return PostgresStorage(url)
    if url.startswith("sqlite:///"):
        url = url[len("sqlite:///") :]
    if "://" in url:
        raise StorageError(
            f"unsupported database {url!r}: expected a SQLite file path or a postgresql:// URL"
        )
    return SQLiteStorage(url)
