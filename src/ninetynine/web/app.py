"""The web server: a JSON API for the lobby, one WebSocket per client, the static client.

HTTP:  GET /api/presets, GET /api/config (the bots offered, the limits a client should
       know), GET /api/tables (public tables to join or watch), POST /api/tables,
       POST /api/tables/{id}/join, GET /api/tables/{id} (public summary),
       GET /api/tables/{id}/record (finished games only: it shows every hand).
WebSocket /ws/{id}: the client's first message is ``{"type": "hello", "token": ...}``
(no token: a spectator). The server answers ``sync`` (own view and the public log), then
``update`` after every change. Client messages: ``act`` {state, action}, ``leave``,
``rematch``, ``ping``. A refused message gets ``error`` {code, message[, limit]} and
changes nothing.

Every request passes :class:`~ninetynine.web.guard.Guard` first (host names, origins,
JSON only, body size, security headers); the limits of :mod:`ninetynine.web.limits`
apply to what it lets through.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import secrets
import tomllib
from collections.abc import AsyncIterator, Iterator
from importlib import resources
from typing import Any

from fastapi import FastAPI, Request, Response, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse
from fastapi.staticfiles import StaticFiles

from ninetynine.errors import NinetyNineError, RulesError
from ninetynine.presets import find_preset, load_rules, preset_rules, presets
from ninetynine.record import Record, parse_record
from ninetynine.rules import Rules
from ninetynine.web.conn import Conn
from ninetynine.web.errors import LimitError, ProtocolError
from ninetynine.web.guard import Guard
from ninetynine.web.limits import Bucket, Limits, check_data_depth, check_json_depth
from ninetynine.web.lobby import Creator, Lobby
from ninetynine.web.settings import Settings
from ninetynine.web.storage import Storage, open_storage
from ninetynine.web.tables import Table
from ninetynine.web.wire import replay_json, review_replay_json

STATIC = resources.files("ninetynine.web") / "static"
HELLO_TIMEOUT = 10.0
CLIENT_COOKIE = "nn_client"
SEAT_KEY = re.compile(r"^[0-9]{1,3}$")
logger = logging.getLogger("ninetynine.web")


def create_app(settings: Settings, storage: Storage | None = None) -> FastAPI:
    """The ASGI app; opens ``settings.database`` unless a storage is given."""
    state: dict[str, Lobby] = {}
    limits = settings.limits

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

    app = FastAPI(title="ninetynine", lifespan=lifespan, docs_url=None, redoc_url=None,
                  openapi_url=None)
    app.add_middleware(Guard, hosts=settings.hosts, max_body=limits.max_body,
                       origins=settings.origins,
                       bodies={path: (limits.max_record, "max_record")
                               for path in ("/api/replay", "/api/review")})

    def lobby() -> Lobby:
        return state["lobby"]

    @app.exception_handler(ProtocolError)
    async def protocol_error(request: Request, exc: ProtocolError) -> JSONResponse:
        return JSONResponse(exc.http_json(), status_code=exc.status)

    @app.exception_handler(NinetyNineError)
    async def server_error(request: Request, exc: NinetyNineError) -> JSONResponse:
        # a storage failure: nothing was changed, the client may try again
        error = ProtocolError("server", str(exc))
        return JSONResponse(error.http_json(), status_code=error.status)

    @app.get("/api/presets")
    async def list_presets() -> list[dict[str, Any]]:
        return [{"id": p.id, "name": p.name, "description": p.description,
                 "players": [(r := load_rules(p.id)).players_min,
                             min(r.players_max, limits.max_players)]}
                for p in presets().values()]

    @app.get("/api/config")
    async def config() -> dict[str, Any]:
        return {"bots": list(settings.bots), "process": lobby().storage.process or None,
                "limits": {k: getattr(limits, k) for k in ("max_players", "max_house_rules",
                                                           "max_message", "chat_length")}}

    @app.get("/api/tables")
    async def open_tables() -> list[dict[str, Any]]:
        return await lobby().listing()

    @app.post("/api/tables")
    async def create_table(request: Request, response: Response) -> dict[str, Any]:
        address = _address(request)
        lobby().throttle(address)
        body = await _json_body(request, limits)
        rules = _rules_of(body, limits)
        players = body.get("players", 4)
        if not isinstance(players, int) or isinstance(players, bool):
            raise ProtocolError("bad_table", f"players {str(players)[:20]!r}: expected a number")
        clock = body.get("clock")
        if clock is not None and (not isinstance(clock, (int, float)) or isinstance(clock, bool)):
            raise ProtocolError("bad_table", f"clock {str(clock)[:20]!r}: expected seconds or "
                                "null")
        public = body.get("public", False)
        if not isinstance(public, bool):
            raise ProtocolError("bad_table", "public: expected true (listed in the lobby) or "
                                "false (invite only)")
        client = request.cookies.get(CLIENT_COOKIE)
        if not client or len(client) > 64:
            client = secrets.token_urlsafe(16)
            response.set_cookie(CLIENT_COOKIE, client, max_age=365 * 86400, httponly=True,
                                samesite="strict")
        table, token = await lobby().create(
            rules=rules, players=players, name=body.get("name"), clock=clock, public=public,
            bots=_bots_of(body.get("bots", {})), creator=Creator.of(client, address))
        return {"table": table.id, "seat": 1, "token": token, "invite": f"/t/{table.id}"}

    @app.get("/api/tables/{table_id}")
    async def table_summary(table_id: str) -> dict[str, Any]:
        return (await lobby().get(table_id)).summary()

    @app.post("/api/tables/{table_id}/join")
    async def join_table(table_id: str, request: Request) -> dict[str, Any]:
        lobby().throttle(_address(request))
        body = await _json_body(request, limits)
        table = await lobby().get(table_id)
        seat, token = await lobby().join(table, body.get("name"))
        return {"table": table.id, "seat": seat + 1, "token": token}

    @app.get("/api/tables/{table_id}/record")
    async def record(table_id: str) -> Response:
        text = (await lobby().get(table_id)).record_text()
        return PlainTextResponse(text, media_type="application/toml", headers={
            "Content-Disposition": f'attachment; filename="ninetynine-{table_id}.toml"'})

    @app.get("/api/tables/{table_id}/replay")
    async def table_replay(table_id: str, seat: int | None = None) -> dict[str, Any]:
        """A finished game step by step: from one seat's view, or every hand open."""
        table = await lobby().get(table_id)
        if not table.finished:
            raise ProtocolError("not_finished", "a game can be replayed when it is over")
        return await asyncio.to_thread(replay_json, table.match.record(),
                                       _replay_seat(seat, len(table.seats)))

    @app.get("/api/tables/{table_id}/review")
    async def table_review(table_id: str, seat: int | None = None) -> dict[str, Any]:
        """A finished game's decisions of one seat beside the coach's moves."""
        table = await lobby().get(table_id)
        if not table.finished:
            raise ProtocolError("not_finished", "a game can be reviewed when it is over")
        who = _review_seat(seat, len(table.seats))
        if who not in table.reviews:  # a finished game's review never changes
            table.reviews[who] = await reviewed(table.match.record(), who)
        return table.reviews[who]

    @app.post("/api/review")
    async def record_review(request: Request) -> dict[str, Any]:
        """An uploaded record's decisions of one seat (``{"record": TEXT, "seat": N}``)."""
        record, seat = await uploaded(request)
        with _bad_record():
            return await reviewed(record, _review_seat(seat, record.start.n))

    reviewing = [0]  # reviews running now (each is seconds of CPU: bounded, not queued)

    async def reviewed(record: Record, seat: int) -> dict[str, Any]:
        if reviewing[0] >= limits.reviews_at_once:
            raise LimitError("reviews_at_once", "the server is reviewing other games: try "
                             "again in a minute", code="busy")
        reviewing[0] += 1
        try:
            return await asyncio.get_running_loop().run_in_executor(
                lobby().bot_pool, review_replay_json, record, seat, limits.review_playouts)
        finally:
            reviewing[0] -= 1

    @app.post("/api/replay")
    async def record_replay(request: Request) -> dict[str, Any]:
        """An uploaded record (``{"record": TEXT, "seat": N or null}``) step by step."""
        record, seat = await uploaded(request)
        with _bad_record():
            return await asyncio.to_thread(replay_json, record,
                                           _replay_seat(seat, record.start.n))

    async def uploaded(request: Request) -> tuple[Record, object]:
        """The record a client sent (``{"record": TEXT, "seat": ...}``) and its seat."""
        lobby().throttle(_address(request))
        body = await _json_body(request, limits)
        text = body.get("record")
        if not isinstance(text, str) or not text.strip():
            raise ProtocolError("bad_record", "record: expected the text of a record .toml")
        with _bad_record():
            return parse_record(text), body.get("seat")

    @contextlib.asynccontextmanager
    async def admitted(ws: WebSocket) -> AsyncIterator[bool]:
        """Accept a WebSocket, holding one of its address's connection slots while it
        lasts; False, after refusing it with the limit's message, when none is free."""
        address = ws.client.host if ws.client else "?"
        await ws.accept()
        try:
            lobby().open_connection(address)
        except LimitError as e:
            await _refuse(ws, e)
            yield False
            return
        try:
            yield True
        finally:
            lobby().close_connection(address)

    @app.websocket("/ws/lobby")
    async def lobby_feed(ws: WebSocket) -> None:
        async with admitted(ws) as ok:
            if ok:
                await _watch_lobby(ws, lobby(), limits)

    @app.websocket("/ws/{table_id}")
    async def play(ws: WebSocket, table_id: str) -> None:
        async with admitted(ws) as ok:
            if ok:
                await _serve(ws, lobby(), table_id, limits)

    @app.get("/t/{table_id}")
    async def table_page(table_id: str) -> FileResponse:
        return FileResponse(str(STATIC / "index.html"))

    @app.get("/")
    async def index() -> FileResponse:
        return FileResponse(str(STATIC / "index.html"))

    app.mount("/static", StaticFiles(directory=str(STATIC)), name="static")
    return app


async def _watch_lobby(ws: WebSocket, lobby: Lobby, limits: Limits) -> None:
    """The public tables, sent again whenever they change (at most once a second)."""
    conn = Conn(None, limits.send_queue,
                Bucket(limits.messages_per_second, limits.messages_burst))
    lobby.watchers.add(conn)
    conn.send(await lobby.listing_frame())
    tasks = [asyncio.create_task(_send_loop(ws, conn)),
             asyncio.create_task(_drain(ws, limits)),
             asyncio.create_task(conn.dropped.wait())]
    try:
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in tasks:
            task.cancel()
        lobby.watchers.discard(conn)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(ws.close(), 2)


async def _serve(ws: WebSocket, lobby: Lobby, table_id: str, limits: Limits) -> None:
    """One client's connection, from its hello to its last message."""
    try:
        table = await lobby.get(table_id)
        hello = await asyncio.wait_for(_receive(ws, limits), HELLO_TIMEOUT)
        if hello.get("type") != "hello":
            raise ProtocolError("malformed", "the first message must be "
                                "{\"type\": \"hello\", \"token\": ...}")
        token = hello.get("token")
        seat = None
        if token is not None:
            seat = table.seat_of(token) if isinstance(token, str) else None
            if seat is None:
                raise ProtocolError("bad_token", "this token holds no seat at this table")
        conn = Conn(seat, limits.send_queue,
                    Bucket(limits.messages_per_second, limits.messages_burst))
        table.connect(conn)
    except ProtocolError as e:
        await _refuse(ws, e)
        return
    except (TimeoutError, WebSocketDisconnect):
        with contextlib.suppress(Exception):
            await ws.close(code=4001)
        return
    tasks = [asyncio.create_task(_send_loop(ws, conn)),
             asyncio.create_task(_receive_loop(ws, lobby, table, conn, limits)),
             asyncio.create_task(conn.dropped.wait())]
    try:
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in tasks:
            task.cancel()
        receiver = tasks[1]
        leave = receiver.done() and not receiver.cancelled() and \
            receiver.exception() is None and receiver.result()
        if receiver.done() and not receiver.cancelled() and receiver.exception() is not None:
            logger.warning("table %s: a connection failed: %r", table.id, receiver.exception())
        table.disconnect(conn, leave=bool(leave))
        code = 4008 if conn.dropped.is_set() else 1000  # 4008: too slow to read its frames
        with contextlib.suppress(Exception):
            await asyncio.wait_for(ws.close(code=code), 2)


async def _receive_loop(ws: WebSocket, lobby: Lobby, table: Table, conn: Conn,
                        limits: Limits) -> bool:
    """Read and act on messages until the client goes; True when it leaves its seat."""
    while True:
        try:
            msg = await _receive(ws, limits)
            if conn.bucket is not None and not conn.bucket.take():
                raise LimitError("messages_per_second", "too many messages: this one was not "
                                 "read; slow down", code="rate_limited")
            if await _handle(lobby, table, conn, msg):
                return True
        except WebSocketDisconnect:
            return False
        except ProtocolError as e:
            conn.send_json(e.json())
        except NinetyNineError as e:  # a storage failure: nothing was applied
            conn.send_json({"type": "error", "code": "server", "message": str(e)})


async def _handle(lobby: Lobby, table: Table, conn: Conn, msg: dict[str, Any]) -> bool:
    """Act on one client message; True when the client leaves its seat."""
    kind = msg.get("type")
    if kind == "act":
        await table.act(conn.seat, msg)
    elif kind == "coach":
        conn.send_json(await table.coach(conn.seat))
    elif kind == "ping":
        conn.send_json({"type": "pong", "state": table.version})
    elif kind == "chat":
        table.say(conn, msg.get("text"), msg.get("name"))
    elif kind == "leave":
        return True
    elif kind == "rematch":
        if conn.seat is None:
            raise ProtocolError("spectator", "spectators cannot start a rematch")
        new, created = await lobby.rematch(table)
        if not created:  # the table's clients were told when it was created
            conn.send_json({"type": "rematch", "table": new.id})
    else:
        raise ProtocolError("malformed", f"unknown message type {str(kind)[:40]!r}: expected "
                            "act, coach, chat, ping, leave or rematch")
    return False


async def _refuse(ws: WebSocket, error: ProtocolError) -> None:
    with contextlib.suppress(Exception):
        await ws.send_json(error.json())
        await ws.close(code=4000)


async def _receive(ws: WebSocket, limits: Limits) -> dict[str, Any]:
    message = await ws.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    text = message.get("text")
    if text is None:
        raise ProtocolError("malformed", "binary frames are not read: send JSON as text")
    if len(text) > limits.max_message:
        raise LimitError("max_message", f"a message of {len(text)} characters: at most "
                         f"{limits.max_message}", code="too_large")
    check_json_depth(text, limits.max_depth)
    try:
        msg = json.loads(text)
    except ValueError:
        raise ProtocolError("malformed", "a message must be a JSON object") from None
    if not isinstance(msg, dict):
        raise ProtocolError("malformed", "a message must be a JSON object")
    return msg


@contextlib.contextmanager
def _bad_record() -> Iterator[None]:
    """A record that cannot be read or replayed is a typed refusal naming what is wrong."""
    try:
        yield
    except RecursionError:
        raise LimitError("max_depth", "a record nested too deep", code="too_deep") from None
    except ProtocolError:
        raise
    except NinetyNineError as e:
        raise ProtocolError("bad_record", str(e)) from None


def _review_seat(seat: object, players: int) -> int:
    """The seat a review is of: required, from 1."""
    if seat is None:
        raise ProtocolError("bad_record", f"seat: expected the seat to review, from 1 to {players}")
    who = _replay_seat(seat, players)
    assert who is not None
    return who


def _replay_seat(seat: object, players: int) -> int | None:
    """A replay's point of view: a seat from 1 (its view), or none (every hand open)."""
    if seat is None:
        return None
    if not isinstance(seat, int) or isinstance(seat, bool) or not 1 <= seat <= players:
        raise ProtocolError("bad_record", f"seat {str(seat)[:10]!r}: expected a seat from 1 to "
                            f"{players}, or none for every hand open")
    return seat - 1


async def _drain(ws: WebSocket, limits: Limits) -> None:
    """Read and drop what a feed's client sends, until it goes."""
    while True:
        try:
            await _receive(ws, limits)
        except ProtocolError:
            continue
        except WebSocketDisconnect:
            return


async def _send_loop(ws: WebSocket, conn: Conn) -> None:
    while True:
        await ws.send_text(await conn.outbox.get())


def _address(request: Request) -> str:
    return request.client.host if request.client else "?"


async def _json_body(request: Request, limits: Limits) -> dict[str, Any]:
    try:
        text = (await request.body()).decode("utf-8")
    except UnicodeDecodeError:
        raise ProtocolError("malformed", "the request body must be JSON in UTF-8") from None
    check_json_depth(text, limits.max_depth)
    try:
        body = json.loads(text)
    except ValueError:
        raise ProtocolError("malformed", "the request body must be a JSON object") from None
    if not isinstance(body, dict):
        raise ProtocolError("malformed", "the request body must be a JSON object")
    return body


def _rules_of(body: dict[str, Any], limits: Limits) -> Rules:
    """A preset id, or the text of an uploaded house-rules file."""
    house = body.get("house_rules")
    try:
        if house:
            if not isinstance(house, str):
                raise RulesError("house rules: expected the text of a .toml file")
            if len(house) > limits.max_house_rules:
                raise LimitError("max_house_rules", f"house rules of {len(house)} characters: "
                                 f"at most {limits.max_house_rules}", code="bad_rules")
            try:
                data = tomllib.loads(house)
            except tomllib.TOMLDecodeError as e:
                raise RulesError(f"house rules: not valid TOML: {e}") from None
            except RecursionError:
                raise LimitError("max_depth", "house rules nested too deep",
                                 code="too_deep") from None
            check_data_depth(data, limits.max_depth, "house rules")
            rules = load_rules(data)
            if len(rules.name) > 60 or not rules.name.isprintable():
                raise RulesError("house rules name: expected 1 to 60 printable characters")
            return rules
        preset = body.get("rules", "P")
        if not isinstance(preset, str):
            raise RulesError(f"rules {str(preset)[:40]!r}: expected a preset id such as \"P\"")
        return preset_rules(find_preset(preset[:40]).id)  # never a path on the server
    except RulesError as e:
        raise ProtocolError("bad_rules", str(e)) from None


def _bots_of(raw: object) -> dict[int, str]:
    """``{"2": "easy"}`` (seats from 1) -> {1: "easy"}; the lobby checks the levels."""
    if not isinstance(raw, dict):
        raise ProtocolError("bad_table", "bots: expected an object such as {\"2\": \"easy\"}")
    bots: dict[int, str] = {}
    for key, level in raw.items():
        if not SEAT_KEY.match(str(key)) or not isinstance(level, str):
            raise ProtocolError("bad_table", f"bots: seat {str(key)[:10]!r} -> "
                                f"{str(level)[:40]!r}: expected a seat number and a bot level "
                                "(easy, medium, hard)")
        bots[int(key) - 1] = level
    return bots
