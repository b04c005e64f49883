"""The web server: a JSON API for the lobby, one WebSocket per client, the static client.

HTTP:  GET /api/presets, GET /api/tables (tables to join or watch), POST /api/tables,
       POST /api/tables/{id}/join, GET /api/tables/{id} (public summary),
       GET /api/tables/{id}/record (finished games only: it shows every hand).
WebSocket /ws/{id}: the client's first message is ``{"type": "hello", "token": ...}``
(no token: a spectator). The server answers ``sync`` (own view and the public log), then
``update`` after every change. Client messages: ``act`` {state, action}, ``leave``,
``rematch``, ``ping``. A refused message gets ``error`` {code, message} and changes nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import tomllib
from collections.abc import AsyncIterator
from importlib import resources
from typing import Any

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles

from ninetynine.errors import NinetyNineError, RulesError
from ninetynine.presets import find_preset, load_rules, preset_rules, presets
from ninetynine.rules import Rules
from ninetynine.web.storage import Storage, open_storage
from ninetynine.web.tables import Conn, Lobby, ProtocolError, Settings, Table

STATIC = resources.files("ninetynine.web") / "static"
MAX_MESSAGE = 4096
HELLO_TIMEOUT = 10.0


def create_app(settings: Settings, storage: Storage | None = None) -> FastAPI:
    """The ASGI app; opens ``settings.database`` unless a storage is given."""
    state: dict[str, Lobby] = {}

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = storage or open_storage(settings.database)
        lobby = Lobby(store, settings)
        app.state.lobby = state["lobby"] = lobby
        lobby.start()
        ticker = asyncio.create_task(lobby.run_ticker())
        try:
            yield
        finally:
            ticker.cancel()
            lobby.close()
            if storage is None:
                store.close()

    app = FastAPI(title="ninetynine", lifespan=lifespan, docs_url=None, redoc_url=None)

    def lobby() -> Lobby:
        return state["lobby"]

    @app.exception_handler(ProtocolError)
    async def protocol_error(request: Request, exc: ProtocolError) -> JSONResponse:
        status = {"no_table": 404, "table_full": 409, "not_finished": 409}.get(exc.code, 400)
        return JSONResponse({"error": str(exc), "code": exc.code}, status_code=status)

    @app.get("/api/presets")
    async def list_presets() -> list[dict[str, Any]]:
        return [{"id": p.id, "name": p.name, "description": p.description,
                 "players": [(r := load_rules(p.id)).players_min, r.players_max]}
                for p in presets().values()]

    @app.get("/api/tables")
    async def open_tables() -> list[dict[str, Any]]:
        return lobby().listing()

    @app.post("/api/tables")
    async def create_table(request: Request) -> dict[str, Any]:
        body = await _json_body(request)
        rules = _rules_of(body)
        players = body.get("players", 4)
        if not isinstance(players, int) or isinstance(players, bool):
            raise ProtocolError("bad_table", f"players {players!r}: expected a number")
        bots = _bots_of(body.get("bots", {}))
        clock = body.get("clock")
        if clock is not None and (not isinstance(clock, (int, float)) or isinstance(clock, bool)):
            raise ProtocolError("bad_table", f"clock {clock!r}: expected seconds or null")
        table, token = lobby().create(rules=rules, players=players, name=body.get("name"),
                                      bots=bots, clock=clock)
        return {"table": table.id, "seat": 1, "token": token, "invite": f"/t/{table.id}"}

    @app.get("/api/tables/{table_id}")
    async def table_summary(table_id: str) -> dict[str, Any]:
        return lobby().get(table_id).summary()

    @app.post("/api/tables/{table_id}/join")
    async def join_table(table_id: str, request: Request) -> dict[str, Any]:
        body = await _json_body(request)
        table = lobby().get(table_id)
        seat, token = lobby().join(table, body.get("name"))
        return {"table": table.id, "seat": seat + 1, "token": token}

    @app.get("/api/tables/{table_id}/record")
    async def record(table_id: str) -> Response:
        text = lobby().get(table_id).record_text()
        return PlainTextResponse(text, media_type="application/toml", headers={
            "Content-Disposition": f'attachment; filename="ninetynine-{table_id}.toml"'})

    @app.websocket("/ws/{table_id}")
    async def play(ws: WebSocket, table_id: str) -> None:
        await ws.accept()
        try:
            table = lobby().get(table_id)
            hello = await asyncio.wait_for(_receive(ws), HELLO_TIMEOUT)
            if hello.get("type") != "hello":
                raise ProtocolError("malformed", "the first message must be "
                                    "{\"type\": \"hello\", \"token\": ...}")
            token = hello.get("token")
            seat = None
            if token is not None:
                seat = table.seat_of(token) if isinstance(token, str) else None
                if seat is None:
                    raise ProtocolError("bad_token", "this token holds no seat at this table")
        except ProtocolError as e:
            await ws.send_json(e.json())
            await ws.close(code=4000)
            return
        except (TimeoutError, WebSocketDisconnect):
            with contextlib.suppress(Exception):
                await ws.close(code=4001)
            return
        conn = Conn(seat)
        sender = asyncio.create_task(_send_loop(ws, conn))
        table.connect(conn)
        leave = False
        try:
            while True:
                try:
                    msg = await _receive(ws)
                    leave = _handle(lobby(), table, conn, msg)
                    if leave:
                        break
                except ProtocolError as e:
                    conn.send(e.json())
                except NinetyNineError as e:  # a storage failure: nothing was applied
                    conn.send({"type": "error", "code": "server", "message": str(e)})
        except WebSocketDisconnect:
            pass
        finally:
            table.disconnect(conn, leave=leave)
            sender.cancel()
            with contextlib.suppress(Exception):
                await ws.close()

    @app.get("/t/{table_id}")
    async def table_page(table_id: str) -> FileResponse:
        return FileResponse(str(STATIC / "index.html"))

    @app.get("/")
    async def index() -> FileResponse:
        return FileResponse(str(STATIC / "index.html"))

    app.mount("/static", StaticFiles(directory=str(STATIC)), name="static")
    return app


def _handle(lobby: Lobby, table: Table, conn: Conn, msg: dict[str, Any]) -> bool:
    """Act on one client message; True when the client leaves its seat."""
    kind = msg.get("type")
    if kind == "act":
        table.act(conn.seat, msg)
    elif kind == "ping":
        conn.send({"type": "pong", "state": table.version})
    elif kind == "leave":
        return True
    elif kind == "rematch":
        if conn.seat is None:
            raise ProtocolError("spectator", "spectators cannot start a rematch")
        lobby.rematch(table)
    else:
        raise ProtocolError("malformed", f"unknown message type {str(kind)[:40]!r}: expected "
                            "act, ping, leave or rematch")
    return False


async def _receive(ws: WebSocket) -> dict[str, Any]:
    try:
        text = await ws.receive_text()
    except RuntimeError:  # the socket was already closed (a failed send): a disconnect
        raise WebSocketDisconnect(1006) from None
    if len(text) > MAX_MESSAGE:
        raise ProtocolError("malformed", f"message of {len(text)} characters: at most "
                            f"{MAX_MESSAGE}")
    try:
        msg = json.loads(text)
    except ValueError:
        raise ProtocolError("malformed", "a message must be a JSON object") from None
    if not isinstance(msg, dict):
        raise ProtocolError("malformed", "a message must be a JSON object")
    return msg


async def _send_loop(ws: WebSocket, conn: Conn) -> None:
    while True:
        msg = await conn.outbox.get()
        try:
            await ws.send_text(json.dumps(msg))
        except Exception:  # the client is gone; the receive loop notices
            conn.outbox.task_done()
            return
        conn.outbox.task_done()


async def _json_body(request: Request) -> dict[str, Any]:
    try:
        body = await request.json()
    except ValueError:
        raise ProtocolError("malformed", "the request body must be a JSON object") from None
    if not isinstance(body, dict):
        raise ProtocolError("malformed", "the request body must be a JSON object")
    return body


def _rules_of(body: dict[str, Any]) -> Rules:
    """A preset id, or the text of an uploaded house-rules file."""
    house = body.get("house_rules")
    try:
        if house:
            if not isinstance(house, str) or len(house) > 20000:
                raise RulesError("house rules: expected the text of a .toml file")
            try:
                data = tomllib.loads(house)
            except tomllib.TOMLDecodeError as e:
                raise RulesError(f"house rules: not valid TOML: {e}") from None
            return load_rules(data)
        preset = body.get("rules", "P")
        if not isinstance(preset, str):
            raise RulesError(f"rules {preset!r}: expected a preset id such as \"P\"")
        return preset_rules(find_preset(preset).id)  # never a path on the server
    except RulesError as e:
        raise ProtocolError("bad_rules", str(e)) from None


def _bots_of(raw: object) -> dict[int, str]:
    """``{"2": "easy"}`` (seats from 1) -> {1: "easy"}."""
    if not isinstance(raw, dict):
        raise ProtocolError("bad_table", "bots: expected an object such as {\"2\": \"easy\"}")
    bots: dict[int, str] = {}
    for key, spec in raw.items():
        if not str(key).isdigit() or not isinstance(spec, str):
            raise ProtocolError("bad_table", f"bots: seat {key!r} -> {spec!r}: expected a "
                                "seat number and a difficulty (easy, medium, hard)")
        bots[int(key) - 1] = spec
    return bots
