"""The client: one page (the lobby at ``/``, a table at ``/t/{id}``, the lobby offering to
join a club at ``/c/{invite}``, a club's page at ``/club/{id}``, a shared game at ``/s/{token}``
(:mod:`.shares`); the script tells them apart) and its static files."""

from __future__ import annotations

from importlib import resources

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles

from ninetynine.web import schema
from ninetynine.web.catalogs import catalog_json
from ninetynine.web.routes.deps import language as asked_language

STATIC = resources.files("ninetynine.web") / "static"
router = APIRouter()


@schema.route(router, "GET /t/{table_id}")
async def table_page(table_id: str) -> FileResponse:
    """The client's page at a table's invite link (the script reads the table from the path)."""
    return FileResponse(str(STATIC / "index.html"))


@schema.route(router, "GET /c/{invite}")
async def club_invite_page(invite: str) -> FileResponse:
    """The client's page at a club's invite link: the lobby, offering to join the club (the
    script reads the token from the path; joining is a POST from the page)."""
    return FileResponse(str(STATIC / "index.html"))


@schema.route(router, "GET /club/{club_id}")
async def club_page(club_id: str) -> FileResponse:
    """The client's page of one club, for its members (the script reads the club from the
    path and asks ``GET /api/clubs/{id}``, which refuses anyone else)."""
    return FileResponse(str(STATIC / "index.html"))


@schema.route(router, "GET /")
async def index() -> FileResponse:
    """The client's page at the lobby."""
    return FileResponse(str(STATIC / "index.html"))


@schema.route(router, "GET /sw.js")
async def service_worker() -> FileResponse:
    """The service worker, at the root so that it serves every page of the site (it keeps
    the client in the browser's cache: the table installs and opens offline)."""
    return FileResponse(
        str(STATIC / "sw.js"), media_type="text/javascript", headers={"Cache-Control": "no-cache"}
    )


def static_files() -> StaticFiles:
    """The client's scripts, styles and images, mounted at ``/static``."""
    return StaticFiles(directory=str(STATIC))


@schema.route(router, "GET /api/language")
async def language(request: Request) -> JSONResponse:
    """A language's messages for the client: ``?lang=`` names it, else the request's
    ``Accept-Language`` chooses (English when it asks for none of ours)."""
    lang = asked_language(request)
    headers = {"Cache-Control": "no-cache", "Vary": "Accept-Language"}
    return JSONResponse(catalog_json(lang), headers=headers)
