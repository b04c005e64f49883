"""Finished games' HTTP API (:mod:`ninetynine.web.history`): the signed-in account's games
(``GET /api/account/games``), their records as a zip (``GET /api/account/records``), a guest's
seats claimed (``POST /api/account/claim``), a player's profile (``GET /api/players/{id}``),
and the leaderboards (``GET /api/leaderboard``, ``GET /api/clubs/{id}/leaderboard``).

The claim is a POST with the session cookie: this server's own ``Origin`` only, as the other
account routes (cross-site request forgery). Every answer reads the account, its clubs and its
games from the database.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request, Response
from starlette.requests import HTTPConnection

from ninetynine.web import schema
from ninetynine.web.history.service import History
from ninetynine.web.routes.accounts import posted, session_cookie
from ninetynine.web.routes.deps import LobbyDep, address

router = APIRouter()


def history(connection: HTTPConnection) -> History:
    """The server's finished games (kept on ``app.state`` by the app's lifespan)."""
    found: History = connection.app.state.history
    return found


HistoryDep = Annotated[History, Depends(history)]


@schema.route(router, "GET /api/account/games")
async def my_games(
    request: Request,
    history: HistoryDep,
    before: str | None = Query(None, max_length=100, description="the previous page's next"),
) -> dict[str, Any]:
    """The signed-in account's finished games, newest first, a page (``games_per_page``) at a
    time: rules, players, place, rating change, links to the replay, review and record."""
    return await history.games(session_cookie(request), before)


@schema.route(router, "GET /api/account/records")
async def my_records(request: Request, history: HistoryDep) -> Response:
    """A zip of the records of the signed-in account's finished games (its newest
    ``records_per_download``), one ``.toml`` each, as ``GET /api/tables/{id}/record`` has it;
    built in a worker process (``records_seconds``), and counted against the sender's request
    rate."""
    history.lobby.throttle(address(request))
    _, data = await history.records(session_cookie(request))
    return Response(
        data,
        media_type="application/zip",
        headers={"Content-Disposition": 'attachment; filename="ninetynine-records.zip"'},
    )


@schema.route(router, "POST /api/account/claim")
async def claim(request: Request, lobby: LobbyDep, history: HistoryDep) -> dict[str, Any]:
    """The signed-in account claims the seats it played as a guest (their tokens, as the
    browser kept them): a finished game's result is stored for it (never rated)."""
    body = await posted(request, lobby, schema.ClaimSeats)
    return await history.claim(session_cookie(request), body.get("seats"))


@schema.route(router, "GET /api/players/{account_id}")
async def profile(account_id: str, request: Request, history: HistoryDep) -> dict[str, Any]:
    """A player's profile, for the account itself and the members of a club it is in:
    its games and wins per rule set, its rating per family with their history."""
    return await history.profile(session_cookie(request), account_id)


@schema.route(router, "GET /api/clubs/{club_id}/leaderboard")
async def club_leaderboard(club_id: str, request: Request, history: HistoryDep) -> dict[str, Any]:
    """A club's rated members, best first per rules family (for its members only)."""
    return await history.leaderboard(session_cookie(request), club_id)


@schema.route(router, "GET /api/leaderboard")
async def leaderboard(request: Request, history: HistoryDep) -> dict[str, Any]:
    """The server's best rated players per rules family: names and ratings only."""
    return await history.leaderboard(None, None)
