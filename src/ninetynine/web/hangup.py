"""uvicorn's WebSocket protocol, with a quick hang-up for clients the server closes on.

A WebSocket close is a handshake: after sending its close frame, uvicorn reads on, parsing
and discarding every frame the client still sends, until the client's own close frame
arrives. A client that floods junk has a buffer of it in flight, so every close the server
made for misbehaviour cost a parse of each of those frames: 150 such sockets, 2.7 s of
CPU, time the tables' bots had to wait for. Where the server closes for a client's
misbehaviour (4008: it does not read its frames; 4009: it keeps sending refused messages),
this protocol sends the close frame and hangs up at once, reading nothing more (such a
client may lose the close frame: it was not listening). Every other close keeps the
handshake, so that a refusal (4000: no such table, a bad token) reaches the page.
"""

from __future__ import annotations

from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from ninetynine.web.limits import Limits

MISBEHAVIOUR = frozenset({4008, 4009})  # the close codes for a misbehaving client


class HangUpProtocol(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol that hangs up, reading nothing more, as soon as it has sent a
    close for misbehaviour (:data:`MISBEHAVIOUR`)."""

    async def send(self, message: Any) -> None:
        """Sends an ASGI message as uvicorn does; after a close with a code in :data:`MISBEHAVIOUR`,
        closes the connection at once."""
        await super().send(message)
        if (
            message["type"] == "websocket.close"
            and message.get("code", 1000) in MISBEHAVIOUR
            and not self.transport.is_closing()
        ):
            self.transport.close()  # the close frame is flushed; nothing more is read


def uvicorn_options(limits: Limits) -> dict[str, Any]:
    """How uvicorn serves this app, wherever it is started (``serve``, the tests)."""
    return {
        "ws": HangUpProtocol,
        "ws_max_size": max(limits.max_message * 4, 4096),  # UTF-8: up to 4 bytes a char
        "ws_per_message_deflate": False,  # small frames: compression costs more CPU
        "h11_max_incomplete_event_size": 16384,
    }
