"""The web server: a JSON API for the lobby, one WebSocket per client, the static client.

HTTP:  GET /api/presets, GET /api/config (the bots offered, the limits a client should
       know), GET /api/tables (public tables to join or watch), POST /api/tables,
       POST /api/tables/{id}/join, GET /api/tables/{id} (public summary),
       GET /api/tables/{id}/record (finished games only: it shows every hand),
       the replays and reviews (:mod:`ninetynine.web.routes.records`), the accounts
       under /api/account (:mod:`ninetynine.web.routes.accounts`), the clubs under
       /api/clubs (:mod:`ninetynine.web.routes.clubs`), finished games, profiles and
       leaderboards (:mod:`ninetynine.web.routes.history`), a finished game's share
       link and what it opens (:mod:`ninetynine.web.routes.shares`), the turn-based
       tables' "my games", contacts, webhooks and unsubscribe links
       (:mod:`ninetynine.web.routes.turns`).
WebSocket /ws/{id} and /ws/lobby: :mod:`ninetynine.web.routes.sockets`.

Both are described in :mod:`ninetynine.web.schema` (the OpenAPI document at
``GET /api/openapi.json``, the frames' JSON Schema). Every request passes
:class:`~ninetynine.web.guard.Guard` first (host names, origins, JSON only, body size,
security headers); the limits of :mod:`ninetynine.web.limits` apply to what it lets
through. The routes (:mod:`ninetynine.web.routes`) reach the lobby on ``app.state``,
where the app's lifespan puts it.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
from collections.abc import AsyncIterator

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException

from ninetynine.errors import NinetyNineError
from ninetynine.web import schema
from ninetynine.web.accounts.service import Accounts
from ninetynine.web.catalogs import reader
from ninetynine.web.clubs.service import Clubs
from ninetynine.web.errors import ErrorCode, ProtocolError
from ninetynine.web.guard import Guard
from ninetynine.web.history.service import History
from ninetynine.web.lobby import Lobby
from ninetynine.web.routes import (
    accounts,
    clubs,
    history,
    pages,
    records,
    shares,
    sockets,
    tables,
    turns,
)
from ninetynine.web.settings import Settings
from ninetynine.web.shares import Shares
from ninetynine.web.storage import Storage, open_storage


def create_app(settings: Settings, storage: Storage | None = None) -> FastAPI:
    """The ASGI app; opens ``settings.database`` unless a storage is given."""

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = storage or open_storage(settings.database)
        app.state.lobby = lobby = Lobby(store, settings)
        app.state.accounts = accounts_ = Accounts(store, settings)
        app.state.clubs = clubs_ = Clubs(store, settings, accounts_)
        lobby.is_member = clubs_.is_member
        app.state.history = history_ = History(store, settings, accounts_, clubs_, lobby)
        lobby.game_over = history_.game_over
        app.state.reviewing = records.Reviewing()
        app.state.shares = Shares(store)
        lobby.start()
        ticker = asyncio.create_task(lobby.run_ticker())
        try:
            yield
        finally:
            ticker.cancel()
            lobby.close()
            if storage is None:
                store.close()

    limits = settings.limits
    app = FastAPI(
        title="ninetynine",
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
        openapi_url="/api/openapi.json",
    )
    app.openapi = functools.cache(lambda: schema.openapi_document(app))  # type: ignore[method-assign]
    app.add_middleware(
        Guard,
        hosts=settings.hosts,
        max_body=limits.max_body,
        origins=settings.origins,
        bodies={path: (limits.max_record, "max_record") for path in ("/api/replay", "/api/review")},
    )
    app.exception_handler(ProtocolError)(_protocol_error)
    app.exception_handler(RequestValidationError)(_bad_parameter)
    app.exception_handler(HTTPException)(_http_error)
    app.exception_handler(NinetyNineError)(_server_error)
    for module in (tables, records, shares, accounts, clubs, history, turns, sockets, pages):
        app.include_router(module.router)
    app.mount("/static", pages.static_files(), name="static")
    return app


async def _protocol_error(request: Request, exc: ProtocolError) -> JSONResponse:
    return JSONResponse(exc.http_json(reader(request)), status_code=exc.status)


async def _bad_parameter(request: Request, exc: RequestValidationError) -> JSONResponse:
    return await _protocol_error(request, schema.parameter_error(exc))


async def _http_error(request: Request, exc: HTTPException) -> JSONResponse:
    # no such route or method (Starlette's own refusals), in the API's error shape
    error = ProtocolError(schema.HTTP_CODES.get(exc.status_code, ErrorCode.HTTP), exc.detail)
    return JSONResponse(
        error.http_json(reader(request)), status_code=exc.status_code, headers=exc.headers
    )


async def _server_error(request: Request, exc: NinetyNineError) -> JSONResponse:
    # a storage failure: nothing was changed, the client may try again
    error = ProtocolError(ErrorCode.SERVER, str(exc))
    return JSONResponse(error.http_json(reader(request)), status_code=error.status)
