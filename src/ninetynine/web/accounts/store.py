"""The account tables in the server's storage (their ``CREATE TABLE`` is in
:mod:`ninetynine.web.storage`, so both backends and every process share them).

Every secret is stored as its SHA-256 only (a recovery code, a session's id, a challenge), so
a copy of the database opens no account. Times are wall-clock seconds (``time.time``): every
process shares them. Each method runs on the storage's threads (``await storage.call(...)``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from ninetynine.web.clubs.store import ClubStore
from ninetynine.web.history.store import HistoryStore
from ninetynine.web.storage import Storage


class Ceremony(StrEnum):
    """What a stored challenge is for (its row's ``kind``)."""

    REGISTER = "register"  # a passkey's creation: a sign-up, or one more for an account
    SIGN_IN = "signin"
    LINK = "link"  # a new device signed in by a link (the token stands for the challenge)


@dataclass(frozen=True, slots=True)
class Account:
    """An account as its owner sees it: its id, its name, its WebAuthn user handle
    (base64url), when it was made and how many passkeys it has."""

    id: str
    name: str
    user_handle: str
    created: float
    passkeys: int

    def json(self) -> dict[str, Any]:
        """What ``GET /api/account/me`` shows of it (not the user handle)."""
        return {"id": self.id, "name": self.name, "passkeys": self.passkeys}


@dataclass(frozen=True, slots=True)
class Passkey:
    """A stored credential: its id and public key (base64url), its account and the highest
    signature counter seen (0: an authenticator that does not count)."""

    id: str
    account: str
    public_key: str
    sign_count: int


_ACCOUNT = (
    "SELECT a.id, a.name, a.user_handle, a.created, "
    "(SELECT COUNT(*) FROM nn_passkeys p WHERE p.account = a.id) FROM nn_accounts a "
)


class AccountStore:
    """The SQL of accounts, over a :class:`~ninetynine.web.storage.Storage`."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    def _one(self, sql: str, params: tuple[Any, ...]) -> Account | None:
        rows = self.storage.execute(sql, params)
        if not rows:
            return None
        aid, name, handle, created, passkeys = rows[0]
        return Account(str(aid), str(name), str(handle), float(created), int(passkeys))

    # challenges -------------------------------------------------------------------------

    def put_challenge(
        self, key: str, kind: Ceremony, data: dict[str, Any], expires: float, now: float
    ) -> None:
        """Stores a challenge (its hash ``key``) until ``expires``; the expired ones go."""
        self.storage.atomic(
            [
                ("DELETE FROM nn_challenges WHERE expires < ?", (now,)),
                (
                    "INSERT INTO nn_challenges (id, kind, data, expires) VALUES (?, ?, ?, ?)",
                    (key, kind.value, json.dumps(data), expires),
                ),
            ]
        )

    def take_challenge(self, key: str, kind: Ceremony, now: float) -> dict[str, Any] | None:
        """The data of a challenge of this kind, not expired, deleted as it is read (a challenge
        is used once, by one process); None where there is no such challenge."""
        rows = self.storage.execute(
            "DELETE FROM nn_challenges WHERE id = ? RETURNING kind, data, expires", (key,)
        )
        if not rows or rows[0][0] != kind or float(rows[0][2]) < now:
            return None
        data: dict[str, Any] = json.loads(rows[0][1])
        return data

    # accounts ---------------------------------------------------------------------------

    def count(self) -> int:
        """How many accounts there are."""
        return int(self.storage.execute("SELECT COUNT(*) FROM nn_accounts")[0][0])

    def name_taken(self, name_key: str) -> bool:
        """Whether an account has this name (compared as :func:`.passkeys.name_key` has it)."""
        return bool(
            self.storage.execute("SELECT 1 FROM nn_accounts WHERE name_key = ?", (name_key,))
        )

    def create(
        self,
        account: Account,
        name_key: str,
        recovery: str,
        passkey: Passkey,
        session: str,
        expires: float,
        old: str | None,
    ) -> None:
        """Stores a new account with its first passkey and a session (the browser's ``old`` one
        ends), all or nothing; a name (or a passkey) taken meanwhile raises
        :class:`~ninetynine.web.storage.DuplicateMoveError`."""
        self.storage.atomic(
            [
                ("DELETE FROM nn_sessions WHERE id = ?", (old or "",)),
                (
                    "INSERT INTO nn_accounts (id, name, name_key, user_handle, recovery, created) "
                    "VALUES (?, ?, ?, ?, ?, ?)",
                    (
                        account.id,
                        account.name,
                        name_key,
                        account.user_handle,
                        recovery,
                        account.created,
                    ),
                ),
                self._insert_passkey(passkey, account.created),
                self._insert_session(session, account.id, expires),
            ]
        )

    def by_id(self, account_id: str) -> Account | None:
        """The account with this id, or None."""
        return self._one(_ACCOUNT + "WHERE a.id = ?", (account_id,))

    def delete(self, account_id: str) -> None:
        """Deletes an account and everything of it (passkeys, sessions, the clubs it owns,
        its memberships, its results and ratings), all or nothing."""
        self.storage.atomic(
            [
                *ClubStore.delete_statements("owner = ?", account_id),
                ("DELETE FROM nn_club_members WHERE account = ?", (account_id,)),
                *HistoryStore.delete_statements(account_id),
                ("DELETE FROM nn_passkeys WHERE account = ?", (account_id,)),
                ("DELETE FROM nn_sessions WHERE account = ?", (account_id,)),
                ("DELETE FROM nn_contacts WHERE account = ?", (account_id,)),
                ("DELETE FROM nn_accounts WHERE id = ?", (account_id,)),
            ]
        )

    def recover(self, code: str, new_code: str) -> str | None:
        """Spends a recovery code (its hash), putting a new one (hash) in its place: the account's
        id, or None for a code that is not an account's. One statement, so a code opens once."""
        rows = self.storage.execute(
            "UPDATE nn_accounts SET recovery = ? WHERE recovery = ? RETURNING id", (new_code, code)
        )
        return str(rows[0][0]) if rows else None

    # passkeys ---------------------------------------------------------------------------

    @staticmethod
    def _insert_passkey(passkey: Passkey, now: float) -> tuple[str, tuple[Any, ...]]:
        return (
            "INSERT INTO nn_passkeys (id, account, public_key, sign_count, created) "
            "VALUES (?, ?, ?, ?, ?)",
            (passkey.id, passkey.account, passkey.public_key, passkey.sign_count, now),
        )

    def add_passkey(self, passkey: Passkey, now: float) -> None:
        """Stores one more passkey of an account (an id stored already raises
        :class:`~ninetynine.web.storage.DuplicateMoveError`)."""
        self.storage.atomic([self._insert_passkey(passkey, now)])

    def passkey(self, passkey_id: str) -> Passkey | None:
        """The passkey with this id (base64url), or None."""
        rows = self.storage.execute(
            "SELECT id, account, public_key, sign_count FROM nn_passkeys WHERE id = ?",
            (passkey_id,),
        )
        if not rows:
            return None
        pid, account, key, count = rows[0]
        return Passkey(str(pid), str(account), str(key), int(count))

    def passkey_ids(self, account_id: str) -> list[str]:
        """The ids of an account's passkeys."""
        return [
            str(pid)
            for (pid,) in self.storage.execute(
                "SELECT id FROM nn_passkeys WHERE account = ? ORDER BY created", (account_id,)
            )
        ]

    def advance(self, passkey_id: str, seen: int, count: int) -> bool:
        """Sets a passkey's counter to ``count`` where it is still ``seen``: False where another
        sign-in moved it meanwhile (the same signature used twice at once)."""
        return bool(
            self.storage.execute(
                "UPDATE nn_passkeys SET sign_count = ? WHERE id = ? AND sign_count = ? "
                "RETURNING id",
                (count, passkey_id, seen),
            )
        )

    # sessions ---------------------------------------------------------------------------

    @staticmethod
    def _insert_session(
        session: str, account_id: str, expires: float
    ) -> tuple[str, tuple[Any, ...]]:
        return (
            "INSERT INTO nn_sessions (id, account, expires) VALUES (?, ?, ?)",
            (session, account_id, expires),
        )

    def start_session(
        self, session: str, account_id: str, expires: float, old: str | None, now: float
    ) -> None:
        """A new session (its hash) of an account; the session the browser had (``old``) and
        the expired ones end."""
        self.storage.atomic(
            [
                ("DELETE FROM nn_sessions WHERE id = ? OR expires < ?", (old or "", now)),
                self._insert_session(session, account_id, expires),
            ]
        )

    def session_account(self, session: str, now: float) -> Account | None:
        """The account a live session (its hash) is signed in to, or None."""
        return self._one(
            _ACCOUNT + "JOIN nn_sessions s ON s.account = a.id WHERE s.id = ? AND s.expires >= ?",
            (session, now),
        )

    def end_session(self, session: str) -> None:
        """Ends a session (its hash), on every process at once (they all read it here)."""
        self.storage.execute("DELETE FROM nn_sessions WHERE id = ?", (session,))
