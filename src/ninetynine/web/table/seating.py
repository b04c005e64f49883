"""Who sits where at a web table: the seats, their secret tokens and names, who is
connected (here and at the other processes), and the table's stored metadata.

The metadata (seats, bots, takeovers, the end) is written over the version this process
read (:meth:`Seating.store_meta`); where another process wrote first, the table reads
theirs and builds its change again (:meth:`Seating.change_meta`), and what it reads is
adopted seat by seat (:meth:`Seating.adopt_meta`); the table then restarts the bots whose
level changed (:attr:`Seating.adopted`).
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from ninetynine.records.match import Match
from ninetynine.web.errors import ErrorCode, ProtocolError
from ninetynine.web.storage import MetaConflict, Storage, StorageError
from ninetynine.web.table.background import later

MAX_NAME = 24


class TableStatus(StrEnum):
    """Where a table's game stands, as the lobby lists it."""

    WAITING = "waiting"  # for players to take its open seats
    PLAYING = "playing"
    OVER = "over"
    ABANDONED = "abandoned"  # everybody left before the end


def hash_token(token: str) -> str:
    """A seat token's SHA-256 in hex: what the metadata keeps, never the token."""
    return hashlib.sha256(token.encode()).hexdigest()


def clean_name(name: object, default: str) -> str:
    """A player's name, stripped: ``default`` for None or ``""``; a name that is not 1 to
    :data:`MAX_NAME` printable characters is refused (``bad_name``)."""
    if name is None or name == "":
        return default
    if (
        not isinstance(name, str)
        or not name.strip()
        or len(name.strip()) > MAX_NAME
        or not name.isprintable()
    ):
        raise ProtocolError(
            ErrorCode.BAD_NAME,
            f"name {str(name)[:40]!r}: expected 1 to {MAX_NAME} printable characters",
        )
    return name.strip()


@dataclass
class Seat:
    """One seat of a web table: the name shown, the hash of its player's token (None while open), a
    bot seat's level, this process's connections to it, since when its player is away, and whether a
    bot plays for them (``takeover``)."""

    name: str
    token_hash: str | None = None  # a human seat's secret (hashed); None while open
    bot: str | None = None  # the bot level of a bot seat (a name the server offers)
    connections: int = 0
    away_since: float | None = None  # when the player's last connection dropped
    takeover: bool = False  # a bot plays for an absent player
    # the id of the signed-in account that holds it (its history and rating; never sent
    # to a client): None for a guest's seat, a bot's and an open one
    account: str | None = None

    @property
    def is_open(self) -> bool:
        """Neither a player nor a bot holds it: it may be joined."""
        return self.bot is None and self.token_hash is None

    def stored(self) -> dict[str, Any]:
        """What the metadata keeps of the seat: its name, token hash, bot level, takeover and
        account (not who is connected)."""
        return {
            "name": self.name,
            "token_hash": self.token_hash,
            "bot": self.bot,
            "takeover": self.takeover,
            "account": self.account,
        }


class Seating:
    """The seats of one table and its metadata, as stored at ``meta_version``."""

    def __init__(
        self, table_id: str, meta: dict[str, Any], seats: list[Seat], match: Match, storage: Storage
    ) -> None:
        self.id, self.meta, self.seats, self.match = table_id, meta, seats, match
        self.storage = storage
        self.meta_changed = False  # restored with fixes that the lobby must store
        self.meta_version = 0  # the version of ``meta`` in the database
        self.elsewhere: dict[tuple[str, int], int] = {}  # (process, seat or -1) -> connections
        # told which seats' bot levels changed when another process's metadata is adopted
        self.adopted: Callable[[set[int]], None] = lambda changed: None
        # told which seats got a new token (reopened by their account): their old
        # connections are closed
        self.rekeyed: Callable[[set[int]], None] = lambda seats: None

    # Queries ------------------------------------------------------------------------

    @property
    def names(self) -> list[str]:
        """Each seat's name, by seat (0-based)."""
        return [s.name for s in self.seats]

    @property
    def started(self) -> bool:
        """Every seat is taken (by a person or a bot), so the game is under way."""
        return not any(s.is_open for s in self.seats)

    @property
    def abandoned(self) -> bool:
        """The table was ended as abandoned (its metadata says so)."""
        return self.meta.get("ended") == TableStatus.ABANDONED

    @property
    def finished(self) -> bool:
        """Over for good: played to the end, or abandoned."""
        return self.match.state.is_over or self.abandoned

    def seat_of(self, token: str) -> int | None:
        """The seat (0-based) this token holds, or None; the hashes are compared in constant
        time."""
        h = hash_token(token)
        for i, s in enumerate(self.seats):
            if s.token_hash is not None and secrets.compare_digest(s.token_hash, h):
                return i
        return None

    def connected(self, seat: int) -> bool:
        """Somebody holds this seat's page open, here or at another process."""
        return self.seats[seat].connections > 0 or any(
            n for (_, s), n in self.elsewhere.items() if s == seat
        )

    def bot_plays(self, seat: int) -> bool:
        """A bot moves for ``seat``: a bot seat, or a person a bot plays for."""
        s = self.seats[seat]
        return s.bot is not None or s.takeover

    # The stored metadata ------------------------------------------------------------

    def meta_with(self, seats: list[Seat] | None = None, **changes: Any) -> dict[str, Any]:
        """A copy of the metadata with these seats and changes, for :meth:`store_meta`."""
        return {
            **self.meta,
            "seats": [s.stored() for s in seats or self.seats],
            "finished": self.finished,
            **changes,
        }

    async def store_meta(self, meta: dict[str, Any]) -> None:
        """Store new metadata over the version this table has, then adopt it: a failed
        write changes nothing (:class:`MetaConflict`: another process wrote first)."""
        self.meta_version = await self.storage.call(
            self.storage.update_meta, self.id, meta, self.meta_version
        )
        self.meta = meta

    async def change_meta(self, make: Callable[[], dict[str, Any] | None]) -> bool:
        """Store the metadata ``make`` builds from the table as it is; where another
        process wrote first, read theirs and build again. False if ``make`` gave None."""
        for _ in range(5):
            meta = make()
            if meta is None:
                return False
            try:
                await self.store_meta(meta)
                return True
            except MetaConflict:
                await self.reload_meta()
        raise StorageError(f"table {self.id}: its seats keep changing; try again")

    async def reload_meta(self) -> None:
        """Reads the stored metadata again and adopts it where it is newer (:meth:`adopt_meta`)."""
        found = await self.storage.call(self.storage.load_meta, self.id)
        if found is not None:
            self.adopt_meta(*found)

    def adopt_meta(self, meta: dict[str, Any], version: int) -> None:
        """Metadata another process stored: who sits where, the bots, takeovers, the end."""
        if version <= self.meta_version:
            return
        changed, rekeyed = set(), set()
        for i, (s, new) in enumerate(zip(self.seats, meta["seats"], strict=True)):
            if s.token_hash is not None and new.get("token_hash") != s.token_hash:
                rekeyed.add(i)
            s.name, s.token_hash = new["name"], new.get("token_hash")
            if new.get("bot") != s.bot:
                s.bot = new.get("bot")
                changed.add(i)
            s.takeover, s.account = bool(new.get("takeover")), new.get("account")
            self.match.given_names[i] = s.name
        self.meta, self.meta_version = meta, version
        self.adopted(changed)
        if rekeyed:
            self.rekeyed(rekeyed)

    def persist_seats(self) -> None:
        """Store who is being played for by a bot (others serving the table follow it)."""
        later(self.id, self.change_meta(self.meta_with), "seats")
