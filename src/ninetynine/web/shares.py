"""Shared games: a finished table's public, read-only link (``/s/{token}``) to its replay,
the coach's review and its record, made by one of its players.

One share a table (``nn_shares``, table id unique), so every player who asks is shown the
same link, and it is found by any process. The token is 128 random bits, stored as itself
(so it can be shown again): it opens that one game's record and nothing else of the table,
no seat token, no chat after the end, no club page. A club's table is shared too once a
player chose to: the link reads the game alone, signed out.
"""

from __future__ import annotations

import re
import secrets

from ninetynine.web.errors import ErrorCode, ProtocolError
from ninetynine.web.storage import DuplicateMoveError, Storage

SHARE_TOKEN = re.compile(r"^[A-Za-z0-9_-]{22}$")  # secrets.token_urlsafe(16)


def no_share(token: str) -> ProtocolError:
    """The answer for a token that opens no shared game (mistyped, cut short)."""
    return ProtocolError(
        ErrorCode.NO_SHARE,
        f"no shared game at {token[:30]!r}: the link is mistyped or cut short "
        "(ask the player who shared it to copy it again)",
    )


class Shares:
    """The share links, over the server's :class:`~ninetynine.web.storage.Storage`
    (each method runs on its threads: ``await storage.call(...)``)."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    def share(self, table_id: str, now: float) -> str:
        """The table's share token: the one it has, or a new one. Two processes asked at once
        agree: the second insert is refused by the unique table id and reads the first's."""
        for _ in range(2):
            found = self.token_of(table_id)
            if found is not None:
                return found
            token = secrets.token_urlsafe(16)
            try:
                self.storage.execute(
                    "INSERT INTO nn_shares (token, table_id, created) VALUES (?, ?, ?)",
                    (token, table_id, now),
                )
            except DuplicateMoveError:
                continue
            return token
        raise ProtocolError(ErrorCode.SERVER, "the share link could not be stored: try again")

    def token_of(self, table_id: str) -> str | None:
        """The table's share token, if it has one."""
        rows = self.storage.execute("SELECT token FROM nn_shares WHERE table_id = ?", (table_id,))
        return str(rows[0][0]) if rows else None

    def table_of(self, token: str) -> str:
        """The id of the table this token shares; ``no_share`` for any other string."""
        if not SHARE_TOKEN.match(token):
            raise no_share(token)
        rows = self.storage.execute("SELECT table_id FROM nn_shares WHERE token = ?", (token,))
        if not rows:
            raise no_share(token)
        return str(rows[0][0])
