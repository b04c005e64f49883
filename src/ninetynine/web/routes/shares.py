"""A finished game's share link (:mod:`ninetynine.web.shares`): a player makes it
(``POST /api/tables/{id}/share``), and anyone with it, signed out too, reads that game's
replay, review and record under ``/api/shared/{token}``, and opens its page at
``/s/{token}``. Nothing else of the table is reachable through it."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request, Response
from fastapi.responses import FileResponse, PlainTextResponse
from starlette.requests import HTTPConnection

from ninetynine.web import schema
from ninetynine.web.errors import ErrorCode, ProtocolError
from ninetynine.web.lobby import Lobby
from ninetynine.web.routes.accounts import player_account
from ninetynine.web.routes.clubs import club_table
from ninetynine.web.routes.deps import LobbyDep, address, json_body, language
from ninetynine.web.routes.pages import STATIC
from ninetynine.web.routes.records import finished_replay, finished_review
from ninetynine.web.shares import Shares
from ninetynine.web.table.room import Table

router = APIRouter()
MAX_SEAT_TOKEN = 100  # characters of a seat token as sent (they are 43)


def shares(connection: HTTPConnection) -> Shares:
    """The server's share links (kept on ``app.state`` by the app's lifespan)."""
    found: Shares = connection.app.state.shares
    return found


SharesDep = Annotated[Shares, Depends(shares)]


async def _is_player(request: Request, table: Table, token: object) -> bool:
    """A seat's token of this table, or the signed-in account (from this server's own page)
    that holds one of its seats."""
    if (
        isinstance(token, str)
        and 0 < len(token) <= MAX_SEAT_TOKEN
        and table.seating.seat_of(token) is not None
    ):
        return True
    account = await player_account(request)
    return account is not None and any(s.account == account for s in table.seats)


async def _shared(lobby: Lobby, shares: Shares, token: str) -> Table:
    return await lobby.get(await lobby.storage.call(shares.table_of, token))


@schema.route(router, "POST /api/tables/{table_id}/share")
async def share_table(
    table_id: str, request: Request, lobby: LobbyDep, shares: SharesDep
) -> dict[str, Any]:
    """A finished game's public read-only link, for one of its players (the same link
    however often, whoever of them asks)."""
    lobby.throttle(address(request))
    body = await json_body(request, lobby.settings.limits, schema.ShareTable)
    table = await club_table(request, lobby, table_id)
    if not await _is_player(request, table, body.get("token")):
        raise ProtocolError(
            ErrorCode.NOT_PLAYER,
            "only a player of this table may share its game: send your seat's token, or sign "
            "in to the account that holds a seat",
        )
    if not table.finished:
        raise ProtocolError(ErrorCode.NOT_FINISHED, "a game can be shared when it is over")
    token = await lobby.storage.call(shares.share, table.id, lobby.settings.wall())
    return {"token": token, "link": f"/s/{token}"}


@schema.route(router, "GET /api/shared/{token}/replay")
async def shared_replay(
    token: str,
    request: Request,
    lobby: LobbyDep,
    shares: SharesDep,
    seat: int | None = Query(None, include_in_schema=False),
) -> dict[str, Any]:
    """A shared game step by step: from one seat's view, or every hand open."""
    return await finished_replay(await _shared(lobby, shares, token), seat, language(request))


@schema.route(router, "GET /api/shared/{token}/review")
async def shared_review(
    token: str,
    request: Request,
    lobby: LobbyDep,
    shares: SharesDep,
    seat: int | None = Query(None, include_in_schema=False),
) -> dict[str, Any]:
    """A shared game's decisions of one seat beside the coach's moves."""
    return await finished_review(request, lobby, await _shared(lobby, shares, token), seat)


@schema.route(router, "GET /api/shared/{token}/record")
async def shared_record(token: str, lobby: LobbyDep, shares: SharesDep) -> Response:
    """A shared game's record, as a ``.toml`` download."""
    table = await _shared(lobby, shares, token)
    return PlainTextResponse(
        table.record_text(),
        media_type="application/toml",
        headers={"Content-Disposition": f'attachment; filename="ninetynine-{table.id}.toml"'},
    )


@schema.route(router, "GET /s/{token}")
async def shared_page(token: str, lobby: LobbyDep, shares: SharesDep) -> FileResponse:
    """The client's page at a share link: the game's replay (the script reads the token
    from the path); 404 (the same page, which then says so) for a token that opens nothing."""
    try:
        await lobby.storage.call(shares.table_of, token)
    except ProtocolError as e:
        return FileResponse(str(STATIC / "index.html"), status_code=e.status)
    return FileResponse(str(STATIC / "index.html"))
