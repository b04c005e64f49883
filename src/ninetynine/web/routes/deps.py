"""What the routes share: the lobby (kept on ``app.state`` by the app's lifespan), the
caller's address and language, and a request's JSON body, read within the limits."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Depends, Request
from pydantic import BaseModel
from starlette.requests import HTTPConnection

from ninetynine.language import Language, LanguageError
from ninetynine.web.catalogs import reader
from ninetynine.web.errors import ErrorCode, ProtocolError
from ninetynine.web.limits import Limits, json_object
from ninetynine.web.lobby import Lobby


def lobby(connection: HTTPConnection) -> Lobby:
    """The server's lobby, for a request or a WebSocket."""
    found: Lobby = connection.app.state.lobby
    return found


LobbyDep = Annotated[Lobby, Depends(lobby)]


def language(connection: HTTPConnection) -> Language:
    """The language a client reads in: ``?lang=`` (the page's choice), else its
    ``Accept-Language`` (English when it asks for none of ours); a language we lack is
    refused."""
    asked = connection.query_params.get("lang")
    if asked:
        try:
            Language.parse(asked)  # (refused here; a refusal's reader passes over it)
        except LanguageError as e:
            raise ProtocolError(ErrorCode.MALFORMED, f"lang: {e}") from None
    return reader(connection)


def address(request: Request) -> str:
    """The client's network address (the connection's, or what a proxy that uvicorn trusts sends in
    ``X-Forwarded-For``); ``?`` where there is none."""
    return request.client.host if request.client else "?"


async def json_body(request: Request, limits: Limits, fields: type[BaseModel]) -> dict[str, Any]:
    """The request's JSON object, with no field that ``fields`` (its schema,
    :mod:`ninetynine.web.schema`) does not name: a misspelt option is refused rather than
    silently ignored."""
    try:
        text = (await request.body()).decode("utf-8")
    except UnicodeDecodeError:
        raise ProtocolError(ErrorCode.MALFORMED, "the request body must be JSON in UTF-8") from None
    body = json_object(text, limits.max_depth, "the request body")
    unknown = next((key for key in body if key not in fields.model_fields), None)
    if unknown is not None:
        raise ProtocolError(
            ErrorCode.MALFORMED,
            f"unknown field {unknown[:20]!r}: expected {', '.join(fields.model_fields)}",
        )
    return body
