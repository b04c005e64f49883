"""The turn-based tables' SQL (the ``CREATE TABLE`` is in :mod:`ninetynine.web.storage`):
each table's current turn and deadline, the "your turn" markers, the accounts' contacts,
the clubs' webhooks and the unsubscribe key. Times are wall-clock seconds, shared by every
process. Each method runs on the storage's threads (``await storage.call(...)``)."""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from ninetynine.web.storage import DuplicateMoveError, Storage


class Channel(StrEnum):
    """A way a "your turn" reaches a person (each one can be unsubscribed from)."""

    EMAIL = "email"
    WEBHOOK = "webhook"  # the club's webhook, where the table is a club's


@dataclass(frozen=True, slots=True)
class Turn:
    """A table's current turn as stored: the state id, the seat to play (0-based; None for
    a shuffle) and when it runs out (a bot's or a shuffle's is due at once)."""

    table_id: str
    version: int
    seat: int | None
    deadline: float


@dataclass(frozen=True, slots=True)
class Contact:
    """An account's e-mail address (None: none given) and the channels it turned off."""

    email: str | None = None
    email_off: bool = False
    webhook_off: bool = False

    def wants(self, channel: Channel) -> bool:
        """Whether this account still gets ``channel``'s "your turn"."""
        if channel is Channel.EMAIL:
            return self.email is not None and not self.email_off
        return not self.webhook_off


class TurnStore:
    """The SQL of turn-based tables, over a :class:`~ninetynine.web.storage.Storage`."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    # Turns --------------------------------------------------------------------------

    def set_turn(self, turn: Turn) -> None:
        """Stores a table's turn, unless a later one is stored already (the writes of two
        moves may arrive in either order)."""
        self.storage.execute(
            "INSERT INTO nn_turns (table_id, version, seat, deadline) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (table_id) DO UPDATE SET version = excluded.version, "
            "seat = excluded.seat, deadline = excluded.deadline "
            "WHERE nn_turns.version <= excluded.version",
            (turn.table_id, turn.version, turn.seat, turn.deadline),
        )

    def turn(self, table_id: str) -> Turn | None:
        """A table's stored turn, or None."""
        rows = self.storage.execute(
            "SELECT table_id, version, seat, deadline FROM nn_turns WHERE table_id = ?",
            (table_id,),
        )
        return _turn(rows[0]) if rows else None

    def due(self, now: float, limit: int) -> list[str]:
        """The unfinished tables whose turn ran out by ``now`` (or is a bot's), soonest first."""
        return [
            str(tid)
            for (tid,) in self.storage.execute(
                "SELECT r.table_id FROM nn_turns r JOIN nn_tables t ON t.id = r.table_id "
                "WHERE r.deadline <= ? AND t.finished = 0 ORDER BY r.deadline LIMIT ?",
                (now, limit),
            )
        ]

    def forget(self, table_id: str) -> None:
        """The table is over: its turn and markers go."""
        self.storage.atomic(
            [
                ("DELETE FROM nn_turns WHERE table_id = ?", (table_id,)),
                ("DELETE FROM nn_turn_notices WHERE table_id = ?", (table_id,)),
            ]
        )

    def claim_notice(self, table_id: str, version: int) -> bool:
        """Marks this turn's "your turn" as sent: True for the one caller that marked it
        (whichever process), False for any other."""
        try:
            self.storage.atomic(
                [
                    (
                        "INSERT INTO nn_turn_notices (table_id, version) VALUES (?, ?)",
                        (table_id, version),
                    )
                ]
            )
        except DuplicateMoveError:
            return False
        return True

    def live_tables_of(self, account_id: str, limit: int) -> list[tuple[str, dict[str, Any]]]:
        """The unfinished tables where the account holds a seat, with their metadata."""
        like = "%" + json.dumps({"account": account_id})[1:-1] + "%"
        rows = self.storage.execute(
            "SELECT id, meta FROM nn_tables WHERE finished = 0 AND meta LIKE ?", (like,)
        )
        found = []
        for table_id, text in rows:
            meta = json.loads(text)
            if any(s.get("account") == account_id for s in meta.get("seats", [])):
                found.append((str(table_id), meta))
        return found[:limit]

    # Contacts -----------------------------------------------------------------------

    def contact(self, account_id: str) -> Contact:
        """An account's contact (the defaults where it set none)."""
        rows = self.storage.execute(
            "SELECT email, email_off, webhook_off FROM nn_contacts WHERE account = ?",
            (account_id,),
        )
        if not rows:
            return Contact()
        email, email_off, webhook_off = rows[0]
        return Contact(email, bool(email_off), bool(webhook_off))

    def set_contact(self, account_id: str, contact: Contact) -> None:
        """Stores an account's contact in place of the old one."""
        self.storage.execute(
            "INSERT INTO nn_contacts (account, email, email_off, webhook_off) "
            "VALUES (?, ?, ?, ?) ON CONFLICT (account) DO UPDATE SET email = excluded.email, "
            "email_off = excluded.email_off, webhook_off = excluded.webhook_off",
            (account_id, contact.email, int(contact.email_off), int(contact.webhook_off)),
        )

    def unsubscribe(self, account_id: str, channel: Channel) -> None:
        """Turns ``channel`` off for the account (a row is made where there was none; none
        for an account that is gone)."""
        column = "email_off" if channel is Channel.EMAIL else "webhook_off"
        self.storage.execute(
            f"INSERT INTO nn_contacts (account, {column}) SELECT id, 1 FROM nn_accounts "
            f"WHERE id = ? ON CONFLICT (account) DO UPDATE SET {column} = 1",
            (account_id,),
        )

    # Clubs' webhooks ----------------------------------------------------------------

    def webhook(self, club_id: str) -> str | None:
        """The club's webhook URL, or None."""
        rows = self.storage.execute("SELECT url FROM nn_club_hooks WHERE club = ?", (club_id,))
        return str(rows[0][0]) if rows else None

    def set_webhook(self, club_id: str, url: str | None) -> None:
        """Sets (None: removes) the club's webhook."""
        if url is None:
            self.storage.execute("DELETE FROM nn_club_hooks WHERE club = ?", (club_id,))
            return
        self.storage.execute(
            "INSERT INTO nn_club_hooks (club, url) VALUES (?, ?) "
            "ON CONFLICT (club) DO UPDATE SET url = excluded.url",
            (club_id, url),
        )

    # The unsubscribe links' key -----------------------------------------------------

    def secret(self, name: str) -> str:
        """A server-wide random key by name, made by the first process that asks."""
        self.storage.execute(
            "INSERT INTO nn_secrets (name, value) VALUES (?, ?) ON CONFLICT DO NOTHING",
            (name, secrets.token_hex(32)),
        )
        return str(
            self.storage.execute("SELECT value FROM nn_secrets WHERE name = ?", (name,))[0][0]
        )


def _turn(row: tuple[Any, ...]) -> Turn:
    table_id, version, seat, deadline = row
    return Turn(str(table_id), int(version), None if seat is None else int(seat), float(deadline))
