"""What a web table sends: its connections, one frame per seat, the log, chat and notes.

Every client gets its own seat's view (a spectator: seat 0's public part) as text built
once per seat at the moment of the change (:meth:`Fanout.broadcast`); a reconnecting
client gets the whole log in a ``sync``. Chat lines and the server's notes are also
published to the other processes serving the table.
"""

from __future__ import annotations

import json
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from ninetynine.engine.options import card_options, stuck_explanation
from ninetynine.language import Language, using
from ninetynine.rules.settings import Rules
from ninetynine.web.conn import Conn
from ninetynine.web.errors import ErrorCode, LimitError, ProtocolError
from ninetynine.web.settings import Settings
from ninetynine.web.storage import Storage
from ninetynine.web.table.background import later
from ninetynine.web.table.seating import Seating, clean_name
from ninetynine.web.wire import (
    in_language,
    note_json,
    options_json,
    rules_json,
    standings_json,
    view_json,
)

CHAT_KEPT = 50  # chat lines a client gets when it (re)connects
# the notes that are part of the game's story, stored so that a restart keeps them in the
# log (the others say who came and went, which a restart starts afresh anyway)
KEPT_NOTES = frozenset({"TimedOut"})


class Fanout:
    """The clients at one table and what they have been told."""

    def __init__(
        self,
        seating: Seating,
        rules: Rules,
        settings: Settings,
        storage: Storage,
        summary: Callable[[], dict[str, Any]],
    ) -> None:
        self.seating, self.rules, self.settings, self.storage = seating, rules, settings, storage
        self.summary = summary  # the table's public summary, sent with every frame
        self.log: list[dict[str, Any]] = []  # the table talk: events and the server's notes
        self.chat: deque[dict[str, Any]] = deque(maxlen=CHAT_KEPT)  # what people wrote
        self.conns: set[Conn] = set()
        self.spectators = 0

    @property
    def attended(self) -> bool:
        """Anybody is at the table (a player or a spectator, at any process)."""
        return bool(self.conns) or any(self.seating.elsewhere.values())

    def frame(
        self,
        seat: int | None,
        kind: str,
        events: list[dict[str, Any]],
        summary: dict[str, Any],
        lang: Language = Language.EN,
    ) -> str:
        """One message for one seat (or the spectators), as text fixed at this state id:
        its view, what each of its cards would do when it is to play, the standings at the
        end, and on a ``sync`` the rules' card labels and the recent chat; the table talk
        and the explanations in ``lang``."""
        with using(lang):
            return self._frame(seat, kind, in_language(events, lang), summary)

    def _frame(
        self, seat: int | None, kind: str, events: list[dict[str, Any]], summary: dict[str, Any]
    ) -> str:
        match = self.seating.match
        state = match.state
        view = match.view(0 if seat is None else seat)
        body: dict[str, Any] = {
            "type": kind,
            "state": match.version,
            "table": summary,
            "view": view_json(view, spectator=seat is None),
            "events": events,
        }
        if seat is not None and state.current_seat == seat:
            body["options"] = options_json(card_options(state, seat))
            body["stuck"] = stuck_explanation(state)  # why no card may be played, or None
        if state.is_over:
            body["standings"] = standings_json(match.standings(), state.hand_no)
        if kind == "sync":
            body["rules"] = rules_json(self.rules)
            body["chat"] = list(self.chat)
        return json.dumps(body)

    def broadcast(self, events: list[dict[str, Any]], kind: str = "update") -> None:
        """Log the events and send each client its own view: one frame text per seat."""
        self.log += events
        summary = self.summary()
        texts: dict[tuple[int | None, Language], str] = {}
        for conn in self.conns:
            text = texts.get((conn.seat, conn.lang))
            if text is None:
                text = self.frame(conn.seat, kind, events, summary, conn.lang)
                texts[conn.seat, conn.lang] = text
            conn.send(text)

    def say(self, conn: Conn, text: object, name: object = None) -> None:
        """A chat line from a player or a spectator, to everyone at the table. A seat chats
        under its name; a spectator under the ``name`` it gives, marked as watching."""
        cap = self.settings.limits.chat_length
        if not isinstance(text, str) or not text.strip() or not text.strip().isprintable():
            raise ProtocolError(ErrorCode.MALFORMED, "a chat message needs 'text': printable words")
        if len(text.strip()) > cap:
            raise LimitError(
                "chat_length",
                f"a chat line of {len(text.strip())} characters: at most {cap}",
                code=ErrorCode.TOO_LARGE,
            )
        line = {
            "seat": None if conn.seat is None else conn.seat + 1,
            "name": self.seating.seats[conn.seat].name
            if conn.seat is not None
            else f"{clean_name(name, '')} (watching)"
            if name
            else "Spectator",
            "text": text.strip(),
            "at": round(time.time()),
        }
        self.hear(line)
        self.publish("chat", line)

    def hear(self, line: dict[str, Any]) -> None:
        """A chat line (said here or at another process), to this process's clients."""
        self.chat.append(line)
        frame = json.dumps({"type": "chat", **line})
        for other in self.conns:
            other.send(frame)

    def note(self, seat: int, kind: str, message: str, /, **params: Any) -> None:
        """A server-side line in the log (not an engine event): takeover, time-out, return,
        told to the clients of every process, each in its language (``message``, marked with
        ``N_``, its placeholders filled from ``params``)."""
        line = note_json(seat, kind, message, **params)
        if kind in KEPT_NOTES:
            table_id, version = self.seating.id, self.seating.match.version
            later(
                table_id,
                self.storage.call(self.storage.add_note, table_id, version, line),
                "keeping a note in its log",
            )
        self.broadcast([line])
        self.publish("note", line)

    def publish(self, kind: str, line: dict[str, Any]) -> None:
        """Tells the other processes serving the table a chat line or a note (``kind``), in the
        background; nothing where this process is alone."""
        if self.storage.shared:
            later(
                self.seating.id,
                self.storage.call(self.storage.publish, self.seating.id, kind, {"line": line}),
                kind,
            )
