"""Who may do what in a club, within the server's limits. Every call reads the signed-in
account and its membership from the database (:class:`~.store.ClubStore`), so a removal or a
deletion holds on every process at once.

- Any signed-in account may create a club (it is the owner) or join one with its live invite
  token; a member may see the club (its name, members, invite link and tables), play and
  watch at its tables, and leave (the owner cannot: it deletes the club instead).
- The owner alone renames the club, removes members, rotates the invite token (the old one
  then opens nothing) and deletes the club.
- A club is found only through a membership: to anyone else (a stranger, another club's
  member, a removed member) it reads as ``no_club``, as one that does not exist would.
"""

from __future__ import annotations

import secrets
from typing import Any

from ninetynine.web.accounts.service import Accounts
from ninetynine.web.accounts.store import Account
from ninetynine.web.clubs.store import Club, ClubStore
from ninetynine.web.errors import ErrorCode, LimitError, ProtocolError
from ninetynine.web.settings import Settings
from ninetynine.web.storage import DuplicateMoveError, Storage

MAX_CLUB_NAME = 40
MAX_INVITE = 64  # characters of an invite token as sent (they are 32)
CLUB_TABLES_SHOWN = 50


def no_club(club_id: str) -> ProtocolError:
    """The one answer for a club that does not exist and one the caller is no member of."""
    return ProtocolError(ErrorCode.NO_CLUB, f"no club {club_id[:40]!r} of yours")


def club_name(name: object) -> str:
    """A club's name as given, stripped; ``bad_name`` unless 1 to 40 printable characters."""
    clean = name.strip() if isinstance(name, str) else ""
    if not clean or len(clean) > MAX_CLUB_NAME or not clean.isprintable():
        raise ProtocolError(
            ErrorCode.BAD_NAME,
            f"name {str(name)[:50]!r}: expected the club's name, 1 to {MAX_CLUB_NAME} "
            "printable characters",
        )
    return clean


class Clubs:
    """The clubs of one server process (the rows are shared by every process)."""

    def __init__(self, storage: Storage, settings: Settings, accounts: Accounts) -> None:
        self.storage, self.settings, self.accounts = storage, settings, accounts
        self.store = ClubStore(storage)
        self.limits = settings.limits

    def _now(self) -> float:
        return self.settings.wall()

    async def member(self, cookie: str | None, club_id: str) -> tuple[Account, Club]:
        """The signed-in account and the club, where it is a member (else ``no_club``)."""
        account = await self.accounts.require(cookie)
        club = await self.storage.call(self.store.of_member, club_id[:100], account.id)
        if club is None:
            raise no_club(club_id)
        return account, club

    async def owned(self, cookie: str | None, club_id: str) -> tuple[Account, Club]:
        """The signed-in account and the club, where it is the owner; another member is told
        ``not_owner``, anyone else ``no_club``."""
        account, club = await self.member(cookie, club_id)
        if club.owner != account.id:
            raise ProtocolError(
                ErrorCode.NOT_OWNER, f"only the owner of club {club.name!r} may do that"
            )
        return account, club

    async def is_member(self, cookie: str | None, club_id: str) -> bool:
        """Whether the browser with this session cookie is signed in to a member of the club."""
        account = await self.accounts.current(cookie)
        return account is not None and (
            await self.storage.call(self.store.of_member, club_id, account.id) is not None
        )

    async def _check_room(self, account: Account) -> None:
        count = await self.storage.call(self.store.count_of, account.id)
        if count >= self.limits.clubs_per_account:
            raise LimitError(
                "clubs_per_account",
                f"this account belongs to {count} clubs already: leave one first",
                code=ErrorCode.TOO_MANY_CLUBS,
            )

    async def create(self, cookie: str | None, name: object) -> tuple[Account, Club]:
        """A new club of the signed-in account, its owner and first member."""
        account = await self.accounts.require(cookie)
        clean = club_name(name)
        await self._check_room(account)
        club = Club(
            secrets.token_urlsafe(12), clean, account.id, secrets.token_urlsafe(24), self._now()
        )
        await self.storage.call(self.store.create, club)
        return account, club

    async def mine(self, cookie: str | None) -> list[dict[str, Any]]:
        """The signed-in account's clubs: id, name, members, and whether it owns each."""
        account = await self.accounts.require(cookie)
        return [
            {"id": c.id, "name": c.name, "members": n, "owner": c.owner == account.id}
            for c, n in await self.storage.call(self.store.mine, account.id)
        ]

    async def page(self, account: Account, club: Club) -> dict[str, Any]:
        """What a member sees of a club but its tables: name, owner, members, invite token."""
        members = await self.storage.call(self.store.members, club.id)
        return {
            "id": club.id,
            "name": club.name,
            "owner": club.owner,
            "you": account.id,
            "members": [{"id": m.id, "name": m.name, "owner": m.id == club.owner} for m in members],
            "invite": club.invite,
        }

    async def table_ids(self, club: Club) -> list[str]:
        """The ids of the club's tables still going, newest first."""
        return await self.storage.call(self.store.live_tables, club.id, CLUB_TABLES_SHOWN)

    async def rename(self, cookie: str | None, club_id: str, name: object) -> tuple[Account, Club]:
        """The owner renames the club."""
        account, club = await self.owned(cookie, club_id)
        clean = club_name(name)
        await self.storage.call(self.store.rename, club.id, clean)
        return account, Club(club.id, clean, club.owner, club.invite, club.created)

    async def rotate(self, cookie: str | None, club_id: str) -> str:
        """The owner replaces the invite token: the old one opens nothing from now on."""
        _, club = await self.owned(cookie, club_id)
        invite = secrets.token_urlsafe(24)
        await self.storage.call(self.store.rotate, club.id, invite)
        return invite

    async def join(self, cookie: str | None, token: object) -> tuple[Account, Club]:
        """The signed-in account joins the club whose live invite token this is (a member
        already is told so by the club itself, not refused)."""
        account = await self.accounts.require(cookie)
        if not isinstance(token, str) or not 16 <= len(token) <= MAX_INVITE:
            raise ProtocolError(
                ErrorCode.MALFORMED, "token: expected a club's invite token, as its link has it"
            )
        club = await self.storage.call(self.store.by_invite, token)
        if club is None:
            raise ProtocolError(
                ErrorCode.BAD_INVITE,
                "this invite link opens no club: it is mistyped, or the owner has made a new "
                "one (ask a member for the club's current link)",
            )
        if await self.storage.call(self.store.of_member, club.id, account.id) is not None:
            return account, club
        await self._check_room(account)
        members = await self.storage.call(self.store.member_count, club.id)
        if members >= self.limits.members_per_club:
            raise LimitError(
                "members_per_club",
                f"club {club.name!r} has {members} members, as many as a club takes",
                code=ErrorCode.CLUB_FULL,
            )
        try:
            await self.storage.call(self.store.add_member, club.id, account.id, self._now())
        except DuplicateMoveError:  # the club was deleted meanwhile
            raise no_club(club.id) from None
        return account, club

    async def leave(self, cookie: str | None, club_id: str) -> None:
        """A member leaves the club; the owner may not (it deletes the club instead)."""
        account, club = await self.member(cookie, club_id)
        if club.owner == account.id:
            raise ProtocolError(
                ErrorCode.OWNER_STAYS,
                f"the owner cannot leave club {club.name!r}: delete the club instead",
            )
        await self.storage.call(self.store.remove_member, club.id, account.id)

    async def remove(self, cookie: str | None, club_id: str, member: object) -> None:
        """The owner removes a member (not itself): at once, on every process."""
        account, club = await self.owned(cookie, club_id)
        if not isinstance(member, str) or not member or len(member) > 100:
            raise ProtocolError(
                ErrorCode.MALFORMED, "account: expected a member's id, as the club's page has it"
            )
        if member == account.id:
            raise ProtocolError(
                ErrorCode.OWNER_STAYS,
                f"the owner cannot remove itself from club {club.name!r}: delete the club instead",
            )
        if not await self.storage.call(self.store.remove_member, club.id, member):
            raise ProtocolError(
                ErrorCode.NO_MEMBER, f"account {member[:40]!r} is no member of club {club.name!r}"
            )

    async def delete(self, cookie: str | None, club_id: str) -> None:
        """The owner deletes the club with its members: its tables close to everyone, since
        no one is a member of a club that is gone."""
        _, club = await self.owned(cookie, club_id)
        await self.storage.call(self.store.delete, club.id)
