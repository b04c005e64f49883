"""One WebSocket client as a table sees it: a seat or a spectator, and a bounded outbox.

Frames are queued as finished JSON text, built once per seat at the moment of the event,
so what a client receives can never change after it was queued. A client that stops
reading is dropped when its queue is full (it reconnects and gets one fresh ``sync``),
rather than buffered without end.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from ninetynine.language import Language
from ninetynine.web.limits import Bucket


class Conn:
    """A seat (0-based) or a spectator (None); frames wait in ``outbox`` for the sender."""

    def __init__(
        self, seat: int | None, queue_size: int = 256, bucket: Bucket | None = None
    ) -> None:
        self.seat = seat
        self.outbox: asyncio.Queue[str] = asyncio.Queue(queue_size)
        self.dropped = asyncio.Event()  # set when the outbox overflowed: close the socket
        self.bucket = bucket  # messages this client may still send (None: unlimited)
        self.session: str | None = None  # at a club's table: the session cookie it came with
        self.shut = False  # closed because it is no longer a member of the table's club
        self.lang = Language.EN  # the language its table talk and explanations are sent in

    def shut_out(self) -> None:
        """Closes the connection: the browser is no longer signed in to a member of the
        table's club."""
        self.shut = True
        self.dropped.set()

    def send(self, frame: str) -> None:
        """Queues a frame's text for the sender. A full outbox drops the client (``dropped`` is set)
        and nothing more is queued for it."""
        if self.dropped.is_set():
            return
        try:
            self.outbox.put_nowait(frame)
        except asyncio.QueueFull:
            self.dropped.set()

    def send_json(self, msg: dict[str, Any]) -> None:
        """Queues ``msg`` as JSON text (see :meth:`send`)."""
        self.send(json.dumps(msg))
