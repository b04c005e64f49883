"""The clubs' HTTP API (:mod:`ninetynine.web.clubs`), under ``/api/clubs``: list my clubs,
create one, join one by its invite token, and a club's page, ``rename``, ``invite`` (a new
token), ``leave``, ``remove`` (a member) and ``delete``. And :func:`club_table`, which every
route to a table (and its WebSocket) goes through: a club's table is there for its members
only, and reads as no table to anyone else.

Each POST must carry this server's own ``Origin``, as the account routes' do (cross-site
request forgery); each answer reads the membership from the database.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from starlette.requests import HTTPConnection

from ninetynine.web import schema
from ninetynine.web.accounts.service import SESSION_COOKIE
from ninetynine.web.accounts.store import Account
from ninetynine.web.clubs.service import Clubs
from ninetynine.web.clubs.store import Club
from ninetynine.web.errors import ErrorCode, ProtocolError
from ninetynine.web.lobby import Lobby
from ninetynine.web.routes.accounts import party, posted, session_cookie
from ninetynine.web.routes.deps import LobbyDep
from ninetynine.web.table.room import Table

router = APIRouter()


def clubs(connection: HTTPConnection) -> Clubs:
    """The server's clubs (kept on ``app.state`` by the app's lifespan)."""
    found: Clubs = connection.app.state.clubs
    return found


ClubsDep = Annotated[Clubs, Depends(clubs)]


async def club_table(connection: HTTPConnection, lobby: Lobby, table_id: str) -> Table:
    """A table by id, as :meth:`Lobby.get` has it; a club's table only for a signed-in member
    of its club (read from the database now): to anyone else it is ``no_table``, word for
    word as a table that does not exist."""
    table = await lobby.get(table_id)
    club = table.meta.get("club")
    if club and isinstance(connection, Request):
        party(connection)  # a POST (join) with the session cookie: this server's Origin only
    if club and not await clubs(connection).is_member(
        connection.cookies.get(SESSION_COOKIE), str(club)
    ):
        raise ProtocolError(ErrorCode.NO_TABLE, f"no table {table_id[:40]!r}")
    return table


async def _page(lobby: Lobby, clubs: Clubs, account: Account, club: Club) -> dict[str, Any]:
    page = await clubs.page(account, club)
    tables = []
    for table_id in await clubs.table_ids(club):
        try:
            tables.append((await lobby.get(table_id)).summary())
        except ProtocolError:  # a table that cannot be rebuilt is left out, as in the lobby
            continue
    return {**page, "tables": tables}


@schema.route(router, "GET /api/clubs")
async def my_clubs(request: Request, clubs: ClubsDep) -> dict[str, Any]:
    """The signed-in account's clubs."""
    return {"clubs": await clubs.mine(session_cookie(request))}


@schema.route(router, "POST /api/clubs")
async def create_club(request: Request, lobby: LobbyDep, clubs: ClubsDep) -> dict[str, Any]:
    """A new club: the signed-in account is its owner and first member."""
    body = await posted(request, lobby, schema.ClubName)
    account, club = await clubs.create(session_cookie(request), body.get("name"))
    return await _page(lobby, clubs, account, club)


@schema.route(router, "POST /api/clubs/join")
async def join_club(request: Request, lobby: LobbyDep, clubs: ClubsDep) -> dict[str, Any]:
    """The signed-in account joins the club of this invite token (a member already: its page)."""
    body = await posted(request, lobby, schema.InviteToken)
    account, club = await clubs.join(session_cookie(request), body.get("token"))
    return await _page(lobby, clubs, account, club)


@schema.route(router, "GET /api/clubs/{club_id}")
async def club_page(
    club_id: str, request: Request, lobby: LobbyDep, clubs: ClubsDep
) -> dict[str, Any]:
    """A club as its members see it: name, owner, members, invite token, live tables."""
    account, club = await clubs.member(session_cookie(request), club_id)
    return await _page(lobby, clubs, account, club)


@schema.route(router, "POST /api/clubs/{club_id}/rename")
async def rename_club(
    club_id: str, request: Request, lobby: LobbyDep, clubs: ClubsDep
) -> dict[str, Any]:
    """The owner gives the club a new name."""
    body = await posted(request, lobby, schema.ClubName)
    account, club = await clubs.rename(session_cookie(request), club_id, body.get("name"))
    return await _page(lobby, clubs, account, club)


@schema.route(router, "POST /api/clubs/{club_id}/invite")
async def rotate_invite(
    club_id: str, request: Request, lobby: LobbyDep, clubs: ClubsDep
) -> dict[str, Any]:
    """The owner makes a new invite token; the old one opens nothing from now on."""
    await posted(request, lobby, schema.NoFields)
    return {"invite": await clubs.rotate(session_cookie(request), club_id)}


@schema.route(router, "POST /api/clubs/{club_id}/leave")
async def leave_club(
    club_id: str, request: Request, lobby: LobbyDep, clubs: ClubsDep
) -> dict[str, Any]:
    """A member (not the owner) leaves the club."""
    await posted(request, lobby, schema.NoFields)
    await clubs.leave(session_cookie(request), club_id)
    await lobby.club_changed(club_id)
    return {"ok": True}


@schema.route(router, "POST /api/clubs/{club_id}/remove")
async def remove_member(
    club_id: str, request: Request, lobby: LobbyDep, clubs: ClubsDep
) -> dict[str, Any]:
    """The owner removes a member: at once, on every process."""
    body = await posted(request, lobby, schema.RemoveMember)
    await clubs.remove(session_cookie(request), club_id, body.get("account"))
    await lobby.club_changed(club_id)
    return {"ok": True}


@schema.route(router, "POST /api/clubs/{club_id}/delete")
async def delete_club(
    club_id: str, request: Request, lobby: LobbyDep, clubs: ClubsDep
) -> dict[str, Any]:
    """The owner deletes the club; its tables close to everyone."""
    await posted(request, lobby, schema.NoFields)
    await clubs.delete(session_cookie(request), club_id)
    await lobby.club_changed(club_id)
    return {"ok": True}
