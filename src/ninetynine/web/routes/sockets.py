"""The WebSockets: ``/ws/{id}``, one per player or spectator at a table, and
``/ws/lobby``, the public tables as they change.

A table client's first message is ``{"type": "hello", "token": ...}`` (no token: a
spectator). The server answers ``sync`` (own view and the public log), then ``update``
after every change; the talk and explanations are in the language of ``/ws/{id}?lang=th``,
else of the handshake's ``Accept-Language`` (the events' fields stay language-neutral).
Client messages: ``act`` {state, action}, ``coach``, ``chat``, ``leave``, ``rematch``,
``ping``. A refused message gets ``error`` {code, message[, limit]}
and changes nothing. Each WebSocket holds one of its address's connection slots.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Iterator
from enum import Enum
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from ninetynine.errors import NinetyNineError
from ninetynine.web.accounts.service import SESSION_COOKIE
from ninetynine.web.catalogs import reader
from ninetynine.web.conn import Conn
from ninetynine.web.errors import ErrorCode, LimitError, ProtocolError
from ninetynine.web.limits import Bucket, Limits, json_object
from ninetynine.web.lobby import Lobby
from ninetynine.web.routes.clubs import club_table
from ninetynine.web.routes.deps import LobbyDep
from ninetynine.web.routes.deps import language as asked_language
from ninetynine.web.table.room import Table

HELLO_TIMEOUT = 10.0
logger = logging.getLogger("ninetynine.web")
router = APIRouter()


@router.websocket("/ws/lobby")
async def lobby_feed(ws: WebSocket, lobby: LobbyDep) -> None:
    """``/ws/lobby``: the public tables as a ``lobby`` frame at once and again whenever they change;
    what the client sends is read and dropped."""
    async with _admitted(ws, lobby) as ok:
        if not ok:
            return
        try:
            with _unseated(ws, lobby):
                await _watch_lobby(ws, lobby, lobby.settings.limits)
        except LimitError as e:
            await _refuse(ws, e)


@router.websocket("/ws/{table_id}")
async def play(ws: WebSocket, table_id: str, lobby: LobbyDep) -> None:
    """``/ws/{table_id}``: one player or spectator at a table, from its ``hello`` to its last
    message (see the module docstring)."""
    async with _admitted(ws, lobby) as ok:
        if ok:
            await _serve(ws, lobby, table_id, lobby.settings.limits)


@contextlib.asynccontextmanager
async def _admitted(ws: WebSocket, lobby: Lobby) -> AsyncIterator[bool]:
    """Accept a WebSocket, holding one of its address's connection slots while it
    lasts; False, after refusing it with the limit's message, when none is free."""
    address = ws.client.host if ws.client else "?"
    await ws.accept()
    try:
        lobby.connections.take(address)
    except LimitError as e:
        await _refuse(ws, e)
        yield False
        return
    try:
        yield True
    finally:
        lobby.connections.give_back(address)


@contextlib.contextmanager
def _unseated(ws: WebSocket, lobby: Lobby) -> Iterator[None]:
    """Hold one of the address's slots for connections without a seat (a spectator, a
    lobby page) while the block lasts: a crowd of them gets less than players do."""
    address = ws.client.host if ws.client else "?"
    lobby.unseated.take(address)
    try:
        yield
    finally:
        lobby.unseated.give_back(address)


async def _watch_lobby(ws: WebSocket, lobby: Lobby, limits: Limits) -> None:
    """The public tables, sent again whenever they change (at most once a second)."""
    conn = Conn(None, limits.send_queue, Bucket(limits.messages_per_second, limits.messages_burst))
    lobby.watchers.add(conn)
    conn.send(await lobby.listing_frame())
    try:
        await _until_one_ends(_send_loop(ws, conn), _drain(ws, limits), conn.dropped.wait())
    finally:
        lobby.watchers.discard(conn)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(ws.close(), 2)


async def _serve(ws: WebSocket, lobby: Lobby, table_id: str, limits: Limits) -> None:
    """One client's connection, from its hello to its last message."""
    try:
        table = await club_table(ws, lobby, table_id)  # a club's: its members only
        hello = await asyncio.wait_for(_receive(ws, limits), HELLO_TIMEOUT)
        if hello.get("type") != "hello":
            raise ProtocolError(
                ErrorCode.MALFORMED, 'the first message must be {"type": "hello", "token": ...}'
            )
        token = hello.get("token")
        seat = None
        if token is not None:
            seat = table.seating.seat_of(token) if isinstance(token, str) else None
            if seat is None:
                raise ProtocolError(ErrorCode.BAD_TOKEN, "this token holds no seat at this table")
        lang = asked_language(ws)
        with _unseated(ws, lobby) if seat is None else contextlib.nullcontext():
            conn = Conn(
                seat, limits.send_queue, Bucket(limits.messages_per_second, limits.messages_burst)
            )
            conn.lang = lang
            if table.meta.get("club"):  # its membership is checked again when the club changes
                conn.session = ws.cookies.get(SESSION_COOKIE)
            table.connect(conn)
            await _connected(ws, lobby, table, conn, limits)
    except ProtocolError as e:
        await _refuse(ws, e)
    except (TimeoutError, WebSocketDisconnect):
        with contextlib.suppress(Exception):
            await ws.close(code=4001)


async def _connected(ws: WebSocket, lobby: Lobby, table: Table, conn: Conn, limits: Limits) -> None:
    """A client at its table: its frames go out and its messages come in until it goes."""
    receiver = asyncio.create_task(_receive_loop(ws, lobby, table, conn, limits))
    try:
        await _until_one_ends(_send_loop(ws, conn), receiver, conn.dropped.wait())
    finally:
        ended = (
            receiver.result()
            if receiver.done() and not receiver.cancelled() and receiver.exception() is None
            else Ending.GONE
        )
        if receiver.done() and not receiver.cancelled() and receiver.exception() is not None:
            logger.warning("table %s: a connection failed: %r", table.id, receiver.exception())
        table.disconnect(conn, leave=ended is Ending.LEAVES)
        code = 4008 if conn.dropped.is_set() else ended.code  # 4008: too slow to read
        reason = ""
        if conn.shut:  # 4003: no longer a member of the table's club
            code, reason = 4003, "no longer a member of this table's club"
        with contextlib.suppress(Exception):
            await asyncio.wait_for(ws.close(code=code, reason=reason), 2)


class Ending(Enum):
    """How a client's messages ended."""

    GONE = "gone"  # it closed the connection
    LEAVES = "leaves"  # it left its seat (a bot plays for it)
    REFUSED = "refused"  # it kept sending messages that were refused: the server closes

    @property
    def code(self) -> int:
        """The WebSocket close code that says so (4009: too many refusals)."""
        return 4009 if self is Ending.REFUSED else 1000


async def _receive_loop(
    ws: WebSocket, lobby: Lobby, table: Table, conn: Conn, limits: Limits
) -> Ending:
    """Read and act on messages until the client goes, leaves its seat, or has had
    ``refusals_per_connection`` messages in a row refused (for being malformed, illegal,
    ...; a message over the rate is refused by the rate limit alone)."""
    refused = 0
    while True:
        try:
            msg = await _receive(ws, limits)
            if conn.bucket is not None and not conn.bucket.take():
                raise LimitError(
                    "messages_per_second",
                    "too many messages: this one was not read; slow down",
                    code=ErrorCode.RATE_LIMITED,
                )
            if await _handle(lobby, table, conn, msg):
                return Ending.LEAVES
            refused = 0
        except WebSocketDisconnect:
            return Ending.GONE
        except ProtocolError as e:
            conn.send_json(e.json(conn.lang))
            refused += e.code != "rate_limited"  # (the rate limit's bucket refills)
            if refused >= limits.refusals_per_connection:
                conn.send_json(
                    LimitError(
                        "refusals_per_connection",
                        f"{refused} messages in a row were refused: the connection is closed",
                        code=ErrorCode.TOO_MANY_REFUSALS,
                    ).json(conn.lang)
                )
                return Ending.REFUSED
        except NinetyNineError as e:  # a storage failure: nothing was applied
            conn.send_json(ProtocolError(ErrorCode.SERVER, str(e)).json(conn.lang))


async def _handle(lobby: Lobby, table: Table, conn: Conn, msg: dict[str, Any]) -> bool:
    """Act on one client message; True when the client leaves its seat."""
    kind = msg.get("type")
    if kind == "act":
        await table.authority.act(conn.seat, msg)
    elif kind == "coach":
        conn.send_json(await table.coaching.coach(conn.seat))
    elif kind == "ping":
        conn.send_json({"type": "pong", "state": table.version})
    elif kind == "chat":
        table.fanout.say(conn, msg.get("text"), msg.get("name"))
    elif kind == "leave":
        return True
    elif kind == "rematch":
        if conn.seat is None:
            raise ProtocolError(ErrorCode.SPECTATOR, "spectators cannot start a rematch")
        new, created = await lobby.rematch(table)
        if not created:  # the table's clients were told when it was created
            conn.send_json({"type": "rematch", "table": new.id})
    else:
        raise ProtocolError(
            ErrorCode.MALFORMED,
            f"unknown message type {str(kind)[:40]!r}: expected "
            "act, coach, chat, ping, leave or rematch",
        )
    return False


async def _refuse(ws: WebSocket, error: ProtocolError) -> None:
    with contextlib.suppress(Exception):
        await ws.send_json(error.json(reader(ws)))
        await ws.close(code=4000)


async def _receive(ws: WebSocket, limits: Limits) -> dict[str, Any]:
    message = await ws.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    text = message.get("text")
    if text is None:
        raise ProtocolError(ErrorCode.MALFORMED, "binary frames are not read: send JSON as text")
    if len(text) > limits.max_message:
        raise LimitError(
            "max_message",
            f"a message of {len(text)} characters: at most {limits.max_message}",
            code=ErrorCode.TOO_LARGE,
        )
    return json_object(text, limits.max_depth, "a message")


async def _drain(ws: WebSocket, limits: Limits) -> None:
    """Read and drop what a feed's client sends, until it goes."""
    while True:
        try:
            await _receive(ws, limits)
        except ProtocolError:
            continue
        except WebSocketDisconnect:
            return


async def _until_one_ends(*work: Awaitable[Any]) -> None:
    """Run the connection's loops together until one ends (or this is cancelled); then
    stop the others."""
    tasks = [asyncio.ensure_future(w) for w in work]
    try:
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in tasks:
            task.cancel()


async def _send_loop(ws: WebSocket, conn: Conn) -> None:
    while True:
        await ws.send_text(await conn.outbox.get())
