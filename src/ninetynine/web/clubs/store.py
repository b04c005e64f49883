"""The club tables in the server's storage (their ``CREATE TABLE`` is in
:mod:`ninetynine.web.storage`, so both backends and every process share them).

Membership is read from here on every request, never kept by a process, so a member removed
(or a club deleted) loses access on every process at once. Each method runs on the storage's
threads (``await storage.call(...)``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ninetynine.web.storage import Storage


@dataclass(frozen=True, slots=True)
class Club:
    """A club: its id, name, owner (an account's id), live invite token and creation time."""

    id: str
    name: str
    owner: str
    invite: str
    created: float


@dataclass(frozen=True, slots=True)
class Member:
    """A member of a club: the account's id and name."""

    id: str
    name: str


_CLUB = "SELECT c.id, c.name, c.owner, c.invite, c.created FROM nn_clubs c "


def _club(row: tuple[Any, ...]) -> Club:
    cid, name, owner, invite, created = row
    return Club(str(cid), str(name), str(owner), str(invite), float(created))


class ClubStore:
    """The SQL of clubs, over a :class:`~ninetynine.web.storage.Storage`."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    def create(self, club: Club) -> None:
        """Stores a new club with its owner as its first member, all or nothing."""
        self.storage.atomic(
            [
                (
                    "INSERT INTO nn_clubs (id, name, owner, invite, created) "
                    "VALUES (?, ?, ?, ?, ?)",
                    (club.id, club.name, club.owner, club.invite, club.created),
                ),
                (
                    "INSERT INTO nn_club_members (club, account, joined) VALUES (?, ?, ?)",
                    (club.id, club.owner, club.created),
                ),
            ]
        )

    def of_member(self, club_id: str, account_id: str) -> Club | None:
        """The club, where this account is one of its members; else None (whether or not the
        club exists: a stranger learns nothing of it)."""
        rows = self.storage.execute(
            _CLUB + "JOIN nn_club_members m ON m.club = c.id WHERE c.id = ? AND m.account = ?",
            (club_id, account_id),
        )
        return _club(rows[0]) if rows else None

    def by_invite(self, invite: str) -> Club | None:
        """The club whose live invite token this is, or None."""
        rows = self.storage.execute(_CLUB + "WHERE c.invite = ?", (invite,))
        return _club(rows[0]) if rows else None

    def mine(self, account_id: str) -> list[tuple[Club, int]]:
        """The clubs an account belongs to, oldest membership first, each with its number of
        members."""
        rows = self.storage.execute(
            "SELECT c.id, c.name, c.owner, c.invite, c.created, "
            "(SELECT COUNT(*) FROM nn_club_members n WHERE n.club = c.id) "
            "FROM nn_clubs c JOIN nn_club_members m ON m.club = c.id WHERE m.account = ? "
            "ORDER BY m.joined, c.id",
            (account_id,),
        )
        return [(_club(row[:5]), int(row[5])) for row in rows]

    def count_of(self, account_id: str) -> int:
        """How many clubs an account belongs to (its own among them)."""
        return int(
            self.storage.execute(
                "SELECT COUNT(*) FROM nn_club_members WHERE account = ?", (account_id,)
            )[0][0]
        )

    def members(self, club_id: str) -> list[Member]:
        """A club's members, in the order they joined."""
        return [
            Member(str(aid), str(name))
            for aid, name in self.storage.execute(
                "SELECT a.id, a.name FROM nn_club_members m JOIN nn_accounts a "
                "ON a.id = m.account WHERE m.club = ? ORDER BY m.joined, a.id",
                (club_id,),
            )
        ]

    def member_count(self, club_id: str) -> int:
        """How many members a club has."""
        return int(
            self.storage.execute("SELECT COUNT(*) FROM nn_club_members WHERE club = ?", (club_id,))[
                0
            ][0]
        )

    def add_member(self, club_id: str, account_id: str, now: float) -> bool:
        """Adds a member; False where the account is one already."""
        return bool(
            self.storage.execute(
                "INSERT INTO nn_club_members (club, account, joined) VALUES (?, ?, ?) "
                "ON CONFLICT DO NOTHING RETURNING club",
                (club_id, account_id, now),
            )
        )

    def remove_member(self, club_id: str, account_id: str) -> bool:
        """Removes a member (never the owner: the query keeps the owner's row); False where the
        account was no member."""
        return bool(
            self.storage.execute(
                "DELETE FROM nn_club_members WHERE club = ? AND account = ? AND account <> "
                "(SELECT owner FROM nn_clubs WHERE id = ?) RETURNING account",
                (club_id, account_id, club_id),
            )
        )

    def rename(self, club_id: str, name: str) -> None:
        """Gives a club a new name."""
        self.storage.execute("UPDATE nn_clubs SET name = ? WHERE id = ?", (name, club_id))

    def rotate(self, club_id: str, invite: str) -> None:
        """Puts a new invite token in the old one's place (the old one opens nothing after)."""
        self.storage.execute("UPDATE nn_clubs SET invite = ? WHERE id = ?", (invite, club_id))

    @staticmethod
    def delete_statements(where: str, param: str) -> list[tuple[str, tuple[Any, ...]]]:
        """The statements that delete the clubs ``where`` picks (``id = ?``, ``owner = ?``) with
        their members and their list of tables (the tables themselves stay: their games end
        as any other's)."""
        picked = f"SELECT id FROM nn_clubs WHERE {where}"
        return [
            (f"DELETE FROM nn_club_members WHERE club IN ({picked})", (param,)),
            (f"DELETE FROM nn_club_tables WHERE club IN ({picked})", (param,)),
            (f"DELETE FROM nn_club_hooks WHERE club IN ({picked})", (param,)),
            (f"DELETE FROM nn_clubs WHERE {where}", (param,)),
        ]

    def delete(self, club_id: str) -> None:
        """Deletes a club with its members, all or nothing."""
        self.storage.atomic(self.delete_statements("id = ?", club_id))

    def add_table(self, club_id: str, table_id: str, now: float) -> None:
        """Lists a table as the club's."""
        self.storage.execute(
            "INSERT INTO nn_club_tables (club, table_id, created) VALUES (?, ?, ?) "
            "ON CONFLICT DO NOTHING",
            (club_id, table_id, now),
        )

    def live_tables(self, club_id: str, limit: int) -> list[str]:
        """The ids of a club's tables still going, newest first."""
        return [
            str(tid)
            for (tid,) in self.storage.execute(
                "SELECT ct.table_id FROM nn_club_tables ct JOIN nn_tables t "
                "ON t.id = ct.table_id WHERE ct.club = ? AND t.finished = 0 "
                "ORDER BY ct.created DESC LIMIT ?",
                (club_id, limit),
            )
        ]
