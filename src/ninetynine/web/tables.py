"""One table of the server: the authoritative game, its seats, bots, turn clock and log.

Everything here runs on the server's event loop; the database and the bots' thinking run
on threads. A move is checked on a copy of the state, stored, and only then applied and
sent out (under the table's lock, so two moves never interleave), so a refused or failed
move changes nothing and an acknowledged move is never lost. Chance outcomes are drawn
from the operating system's generator (:mod:`secrets`) and stored, never sent.

A table whose every connection is gone pauses: its bots and clocks wait for somebody to
come back (the lobby ends it as abandoned after a while).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import random
import secrets
import time
from collections import deque
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any

from ninetynine.actions import Action, ChanceOutcome, parse_action
from ninetynine.bots import Bot, BotFailure, ask, cap_time, close_bot, make_bot
from ninetynine.coach import advice_json, advise
from ninetynine.errors import IllegalActionError, NotationError, Refusal
from ninetynine.match import Chance, Match
from ninetynine.options import card_options, stuck_explanation
from ninetynine.presets import load_rules
from ninetynine.record import format_record, move_text, parse_move
from ninetynine.rules import Rules
from ninetynine.state import State
from ninetynine.view import observe
from ninetynine.web.conn import Conn
from ninetynine.web.errors import LimitError, ProtocolError
from ninetynine.web.settings import Settings
from ninetynine.web.storage import (
    DuplicateMoveError,
    MetaConflict,
    Storage,
    StorageError,
    StoredTable,
)
from ninetynine.web.wire import (
    event_json,
    options_json,
    rules_json,
    standings_json,
    view_json,
)

Move = Action | ChanceOutcome
MAX_NAME = 24
CHAT_KEPT = 50  # chat lines a client gets when it (re)connects
logger = logging.getLogger("ninetynine.web")


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def clean_name(name: object, default: str) -> str:
    if name is None or name == "":
        return default
    if not isinstance(name, str) or not name.strip() or len(name.strip()) > MAX_NAME \
            or not name.isprintable():
        raise ProtocolError("bad_name", f"name {str(name)[:40]!r}: expected 1 to {MAX_NAME} "
                            "printable characters")
    return name.strip()


@dataclass
class Seat:
    name: str
    token_hash: str | None = None  # a human seat's secret (hashed); None while open
    bot: str | None = None  # the bot level of a bot seat (a name the server offers)
    connections: int = 0
    away_since: float | None = None  # when the player's last connection dropped
    takeover: bool = False  # a bot plays for an absent player

    @property
    def is_open(self) -> bool:
        return self.bot is None and self.token_hash is None

    def stored(self) -> dict[str, Any]:
        return {"name": self.name, "token_hash": self.token_hash, "bot": self.bot,
                "takeover": self.takeover}


class Table:
    """A game in progress at the server, with who sits where and who is watching."""

    def __init__(self, table_id: str, meta: dict[str, Any], rules: Rules, seats: list[Seat],
                 storage: Storage, settings: Settings) -> None:
        self.id, self.meta, self.rules, self.seats = table_id, meta, rules, seats
        self.storage, self.settings = storage, settings
        chance = Chance.system() if settings.seed is None else \
            Chance.by_move(f"{settings.seed}/{table_id}")  # tests: reproducible shuffles
        self.match = Match.new(rules, meta["players"], first=meta.get("first", 0),
                               chance=chance, names=[s.name for s in seats], auto_chance=False)
        self.log: list[dict[str, Any]] = []  # the table talk: events and the server's notes
        self.chat: deque[dict[str, Any]] = deque(maxlen=CHAT_KEPT)  # what people wrote
        self.conns: set[Conn] = set()
        self.spectators = 0
        self.bots: dict[int, Bot] = {}
        self.stand_ins: dict[int, Bot] = {}  # takeover bots, by seat
        self.bot_pool: Executor | None = None  # the lobby's bot threads (None: the default)
        self.rng: random.Random = random.SystemRandom()  # the bots' own generators' seeds
        self.turn_started = self.last_seen = settings.clock()
        self.expired: int | None = None  # the state id at which the turn clock ran out
        self.last_accepted: dict[int, tuple[int, str]] = {}
        # the coach's figures, once per seat and state id (asking again costs nothing)
        self.coached: dict[int, tuple[int, asyncio.Future[dict[str, Any]]]] = {}
        self.reviews: dict[int, dict[str, Any]] = {}  # a finished game's, by seat
        self.lock = asyncio.Lock()  # one move (check, store, apply) at a time
        self.complained = -1e9  # when a failing pump was last logged
        self.meta_changed = False  # restored with fixes that the lobby must store
        self.meta_version = 0  # the version of ``meta`` in the database
        # Several processes may serve this table (PostgreSQL): one drives its bots and
        # clocks (it holds the table's lease); connections elsewhere count as presence.
        self.driving = not storage.shared
        self.elsewhere: dict[tuple[str, int], int] = {}  # (process, seat or -1) -> connections
        self.wake: Callable[[], None] = lambda: None  # asks for a driver at once
        self._pump: asyncio.Task[None] | None = None

    # Building -----------------------------------------------------------------------

    @classmethod
    def restore(cls, stored: StoredTable, storage: Storage, settings: Settings) -> Table:
        """Rebuild a table from its metadata and replay every stored move.

        A seat's bot that this server does not offer (any more) is not started: the
        takeover level plays that seat, and ``meta_changed`` says the metadata needs saving.
        """
        meta = stored.meta
        rules = load_rules(meta["rules"])
        seats = [Seat(s["name"], s.get("token_hash"), s.get("bot"),
                      takeover=bool(s.get("takeover"))) for s in meta["seats"]]
        table = cls(stored.id, meta, rules, seats, storage, settings)
        table.meta_version = stored.meta_version
        if settings.seed is not None:
            table.rng = random.Random(f"{settings.seed}/{stored.id}/{len(stored.moves)}")
        for text in stored.moves:
            who, move = parse_move(text, len(seats))
            table.log += [event_json(e, table.names, rules) for e in table.match.play(move, who)]
        for i, s in enumerate(seats):
            if s.bot is not None and s.bot not in settings.bots:
                s.bot = settings.takeover_bot
                table.meta_changed = True
                table.log.append({"kind": "BotReplaced", "seat": i + 1, "text": (
                    f"{s.name}'s bot is not offered by this server; "
                    f"{s.bot} plays this seat from now on.")})
            if s.bot:
                table.bots[i] = table.new_bot(s.bot)
        now = settings.clock()
        for seat_info in seats:  # nobody is connected after a restart: grace starts now
            if seat_info.bot is None:
                seat_info.away_since = now
        if table.state.is_over and not meta.get("finished"):
            table.meta_changed = True  # the last move was stored, the metadata was not
        return table

    def new_bot(self, level: str) -> Bot:
        bot = make_bot(self.settings.bots[level])
        cap_time(bot, self.settings.limits.bot_seconds)
        return bot

    def meta_with(self, seats: list[Seat] | None = None, **changes: Any) -> dict[str, Any]:
        """A copy of the metadata with these seats and changes, for :meth:`store_meta`."""
        return {**self.meta, "seats": [s.stored() for s in seats or self.seats],
                "finished": self.finished, **changes}

    async def store_meta(self, meta: dict[str, Any]) -> None:
        """Store new metadata over the version this table has, then adopt it: a failed
        write changes nothing (:class:`MetaConflict`: another process wrote first)."""
        self.meta_version = await self.storage.call(self.storage.update_meta, self.id, meta,
                                                    self.meta_version)
        self.meta = meta

    async def change_meta(self, make: Callable[[], dict[str, Any] | None]) -> bool:
        """Store the metadata ``make`` builds from the table as it is; where another
        process wrote first, read theirs and build again. False if ``make`` gave None."""
        for _ in range(5):
            meta = make()
            if meta is None:
                return False
            try:
                await self.store_meta(meta)
                return True
            except MetaConflict:
                await self.reload_meta()
        raise StorageError(f"table {self.id}: its seats keep changing; try again")

    async def reload_meta(self) -> None:
        found = await self.storage.call(self.storage.load_meta, self.id)
        if found is not None:
            self.adopt_meta(*found)

    def adopt_meta(self, meta: dict[str, Any], version: int) -> None:
        """Metadata another process stored: who sits where, the bots, takeovers, the end."""
        if version <= self.meta_version:
            return
        for i, (s, new) in enumerate(zip(self.seats, meta["seats"], strict=True)):
            s.name, s.token_hash = new["name"], new.get("token_hash")
            if new.get("bot") != s.bot:
                s.bot = new.get("bot")
                if i in self.bots:
                    close_bot(self.bots.pop(i))
                if s.bot:
                    self.bots[i] = self.new_bot(s.bot)
            s.takeover = bool(new.get("takeover"))
            if not s.takeover:
                self.release_stand_in(i)
            self.match.given_names[i] = s.name
        self.meta, self.meta_version = meta, version
        if self.finished:
            self.close_bots()
        self.broadcast([])
        self.kick()

    # Queries ------------------------------------------------------------------------

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.seats]

    @property
    def state(self) -> State:
        return self.match.state

    @property
    def version(self) -> int:
        """The state id clients quote with their actions: the number of moves so far."""
        return self.match.version

    @property
    def started(self) -> bool:
        return not any(s.is_open for s in self.seats)

    @property
    def abandoned(self) -> bool:
        return self.meta.get("ended") == "abandoned"

    @property
    def finished(self) -> bool:
        """Over for good: played to the end, or abandoned."""
        return self.state.is_over or self.abandoned

    @property
    def status(self) -> str:
        if self.state.is_over:
            return "over"
        if self.abandoned:
            return "abandoned"
        return "playing" if self.started else "waiting"

    def seat_of(self, token: str) -> int | None:
        h = hash_token(token)
        for i, s in enumerate(self.seats):
            if s.token_hash is not None and secrets.compare_digest(s.token_hash, h):
                return i
        return None

    def connected(self, seat: int) -> bool:
        """Somebody holds this seat's page open, here or at another process."""
        return self.seats[seat].connections > 0 or any(
            n for (_, s), n in self.elsewhere.items() if s == seat)

    @property
    def attended(self) -> bool:
        """Anybody is at the table (a player or a spectator, at any process)."""
        return bool(self.conns) or any(self.elsewhere.values())

    def bot_plays(self, seat: int) -> bool:
        s = self.seats[seat]
        return s.bot is not None or s.takeover

    def summary(self) -> dict[str, Any]:
        clock = self.meta.get("clock")
        left = None
        seat = self.state.current_seat
        if clock and seat is not None and self.started and not self.bot_plays(seat):
            left = max(0.0, round(clock - (self.settings.clock() - self.turn_started), 1))
        return {
            "id": self.id, "status": self.status,
            "rules": {"id": self.rules.id, "name": self.rules.name},
            "players": len(self.seats), "clock": clock, "clock_left": left,
            "public": bool(self.meta.get("public")), "next": self.meta.get("next"),
            "seats": [{
                "seat": i + 1, "name": s.name,
                "kind": "bot" if s.bot else "open" if s.is_open else "human",
                "bot": s.bot, "connected": s.bot is not None or self.connected(i),
                "bot_playing": s.takeover,
            } for i, s in enumerate(self.seats)],
        }

    def frame(self, seat: int | None, kind: str, events: list[dict[str, Any]],
              summary: dict[str, Any]) -> str:
        """One message for one seat (or the spectators), as text fixed at this state id:
        its view, what each of its cards would do when it is to play, the standings at the
        end, and on a ``sync`` the rules' card labels and the recent chat."""
        state = self.state
        view = observe(state, 0 if seat is None else seat)
        body: dict[str, Any] = {"type": kind, "state": self.version, "table": summary,
                                "view": view_json(view, spectator=seat is None),
                                "events": events}
        if seat is not None and state.current_seat == seat:
            body["options"] = options_json(card_options(state, seat))
            body["stuck"] = stuck_explanation(state)  # why no card may be played, or None
        if state.is_over:
            body["standings"] = standings_json(self.match.standings(), state.hand_no)
        if kind == "sync":
            body["rules"] = rules_json(self.rules)
            body["chat"] = list(self.chat)
        return json.dumps(body)

    def record_text(self) -> str:
        if not self.finished:
            raise ProtocolError("not_finished", "the record is available when the game is over "
                                "(it shows every hand)")
        return format_record(self.match.record(), self.state)

    # Connections --------------------------------------------------------------------

    def connect(self, conn: Conn) -> None:
        """A client arrives: it gets the whole log (``sync``), the others an update."""
        if conn.seat is None:
            cap = self.settings.limits.spectators_per_table
            if self.spectators >= cap:
                raise LimitError("spectators_per_table", f"{cap} people are watching this "
                                 "table already", code="crowded")
            self.spectators += 1
        else:
            s = self.seats[conn.seat]
            s.connections += 1
            s.away_since = None
            if s.takeover:
                s.takeover = False
                self.release_stand_in(conn.seat)
                self.note(conn.seat, "Returned", f"{s.name} is back.")
                self.persist_seats()
            self.broadcast([])  # the seat shows as connected
        self.last_seen = self.settings.clock()
        if not self.attended:
            self.turn_started = self.last_seen  # the clock waited while nobody was here
        self.conns.add(conn)
        self.publish_presence(conn.seat)
        conn.send(self.frame(conn.seat, "sync", self.log, self.summary()))
        self.kick()

    def disconnect(self, conn: Conn, *, leave: bool = False) -> None:
        if conn not in self.conns:
            return
        self.conns.discard(conn)
        self.last_seen = self.settings.clock()
        self.publish_presence(conn.seat)
        if conn.seat is None:
            self.spectators -= 1
            return
        s = self.seats[conn.seat]
        s.connections = max(0, s.connections - 1)
        if not self.connected(conn.seat):
            s.away_since = self.settings.clock()
        if leave and self.started and not self.finished and not s.takeover:
            s.takeover = True
            self.note(conn.seat, "TakenOver", f"{s.name} left: a bot plays for them.")
            self.persist_seats()
            self.kick()
        self.broadcast([])

    # Other processes (PostgreSQL) -----------------------------------------------------

    def later(self, work: Awaitable[Any], what: str) -> None:
        """Run database work in the background; a failure is logged, not raised."""
        async def run() -> None:
            try:
                await work
            except (StorageError, ProtocolError) as e:
                logger.warning("table %s: %s: %s", self.id, what, e)
        asyncio.get_running_loop().create_task(run())

    def publish_presence(self, seat: int | None) -> None:
        if self.storage.shared:
            self.wake()
            count = self.spectators if seat is None else self.seats[seat].connections
            self.later(self.storage.call(self.storage.set_presence, self.id,
                                         -1 if seat is None else seat, count), "presence")

    def persist_seats(self) -> None:
        """Store who is being played for by a bot (others serving the table follow it)."""
        self.later(self.change_meta(self.meta_with), "seats")

    def presence_changed(self, elsewhere: dict[tuple[str, int], int]) -> None:
        """Who is at the table at the other processes (seat -1: spectators)."""
        if elsewhere != self.elsewhere:
            self.elsewhere = elsewhere
            self.broadcast([])
            self.kick()

    def set_driving(self, driving: bool) -> None:
        """This process holds (or lost) the right to move the table's bots and clocks."""
        if driving and not self.driving:
            self.turn_started = self.settings.clock()  # a new driver gives a full turn
        self.driving = driving
        self.kick()

    def stored_move(self, index: int, text: str) -> None:
        """Another process stored move ``index``: play it here too (and any missed)."""
        async def follow() -> None:
            async with self.lock:
                if index == self.version:
                    self.play_stored([text])
                elif index > self.version:
                    await self.catch_up()
        self.later(follow(), "following a move")

    async def catch_up(self) -> None:
        """Play the moves other processes stored since this table's state (under lock)."""
        self.play_stored(await self.storage.call(self.storage.moves_since, self.id,
                                                 self.version))

    def play_stored(self, texts: list[str]) -> None:
        events = []
        for text in texts:
            who, move = parse_move(text, len(self.seats))
            events += self.match.play(move, who)
        if texts:
            self.turn_started = self.last_seen = self.settings.clock()
            self.broadcast([event_json(e, self.names, self.rules) for e in events])
            if self.state.is_over:
                self.close_bots()
            self.kick()

    def broadcast(self, events: list[dict[str, Any]], kind: str = "update") -> None:
        """Log the events and send each client its own view: one frame text per seat."""
        self.log += events
        summary = self.summary()
        texts: dict[int | None, str] = {}
        for conn in self.conns:
            text = texts.get(conn.seat)
            if text is None:
                text = texts[conn.seat] = self.frame(conn.seat, kind, events, summary)
            conn.send(text)

    def say(self, conn: Conn, text: object, name: object = None) -> None:
        """A chat line from a player or a spectator, to everyone at the table. A seat chats
        under its name; a spectator under the ``name`` it gives, marked as watching."""
        cap = self.settings.limits.chat_length
        if not isinstance(text, str) or not text.strip() or not text.strip().isprintable():
            raise ProtocolError("malformed", "a chat message needs 'text': printable words")
        if len(text.strip()) > cap:
            raise LimitError("chat_length", f"a chat line of {len(text.strip())} characters: at "
                             f"most {cap}", code="too_large")
        line = {"seat": None if conn.seat is None else conn.seat + 1,
                "name": self.seats[conn.seat].name if conn.seat is not None
                else f"{clean_name(name, '')} (watching)" if name else "Spectator",
                "text": text.strip(), "at": round(time.time())}
        self.hear(line)
        if self.storage.shared:
            self.later(self.storage.call(self.storage.publish, self.id, "chat", {"line": line}),
                       "chat")

    def hear(self, line: dict[str, Any]) -> None:
        self.chat.append(line)
        frame = json.dumps({"type": "chat", **line})
        for other in self.conns:
            other.send(frame)

    def note(self, seat: int, kind: str, text: str) -> None:
        """A server-side line in the log (not an engine event): takeover, time-out, return,
        told to the clients of every process."""
        line = {"kind": kind, "seat": seat + 1, "text": text}
        self.broadcast([line])
        if self.storage.shared:
            self.later(self.storage.call(self.storage.publish, self.id, "note", {"line": line}),
                       "note")

    # Moves --------------------------------------------------------------------------

    async def act(self, seat: int | None, msg: dict[str, Any]) -> None:
        """A client's move: refused with a typed error, or stored and applied."""
        if seat is None:
            raise ProtocolError("spectator", "spectators cannot play")
        sid, text = msg.get("state"), msg.get("action")
        if not isinstance(sid, int) or isinstance(sid, bool) or not isinstance(text, str) \
                or len(text) > 40:
            raise ProtocolError("malformed", "an action needs 'state' (the state id you saw, a "
                                "number) and 'action' (text such as \"KS\" or \"AS+11\")")
        async with self.lock:
            code = self.check_move(seat, sid, text)
            await self.commit(seat, self.state.action_of(code))
            self.last_accepted[seat] = (sid, text)
        self.kick()

    async def coach(self, seat: int | None) -> dict[str, Any]:
        """The coach's figures for the seat whose turn it is, from that seat's view only:
        each legal move's chance of losing the hand and the game (:mod:`ninetynine.coach`),
        worked out on the bots' threads once a turn."""
        if seat is None:
            raise ProtocolError("spectator", "spectators have no moves to be coached on")
        if not self.started or self.finished or self.state.current_seat != seat:
            raise ProtocolError("not_your_turn", "the coach advises on your turn")
        version = self.version
        asked = self.coached.get(seat)
        if asked is None or asked[0] != version:
            view, playouts = observe(self.state, seat), self.settings.limits.coach_playouts
            future = asyncio.get_running_loop().run_in_executor(
                self.bot_pool, lambda: advice_json(advise(view, playouts=playouts, seed=version)))
            asked = self.coached[seat] = (version, future)
        try:
            figures = await asyncio.wait_for(asyncio.shield(asked[1]),
                                             self.settings.limits.bot_seconds)
        except TimeoutError:
            raise LimitError("bot_seconds", "the coach ran out of time on this decision",
                             code="coach_timeout") from None
        return {"type": "coach", "state": version, **figures}

    def check_move(self, seat: int, sid: int, text: str) -> int:
        """The engine's code for a client's move, or its typed refusal."""
        if self.last_accepted.get(seat) == (sid, text):
            raise ProtocolError("duplicate", f"'{text}' for state {sid} was already played")
        if not self.started:
            raise ProtocolError("not_started", "the game starts when every seat is taken")
        if self.finished:
            raise ProtocolError("game_over", "the game is over" if self.state.is_over else
                                "the table was abandoned")
        if sid != self.version:
            raise ProtocolError("stale", f"state {sid} is not the current state {self.version}: "
                                "your action was not played; look again and resend")
        if self.state.current_seat != seat:
            raise ProtocolError("not_your_turn", "it is not your turn")
        try:
            action = parse_action(text)
        except NotationError as e:
            raise ProtocolError("malformed", str(e)) from None
        legal = [str(a) for a in self.state.legal_actions()]
        if not isinstance(action, Action):
            raise ProtocolError(Refusal.NOT_ALLOWED.value, f"'{text}' is not a player's move",
                                legal=legal)
        try:  # the engine's own reading and reason (over the limit, below 0, the King ban)
            return self.state.check(action, seat)
        except IllegalActionError as e:
            raise ProtocolError(e.reason.value, e.why, legal=legal) from None

    async def commit(self, seat: int | None, move: Move) -> None:
        """Check on a copy, store, then apply and send: nothing changes if a step fails.
        The caller holds :attr:`lock`."""
        self.match.check(move, seat)
        try:
            await self.storage.call(self.storage.append_move, self.id, self.version,
                                    move_text(seat, move))
        except DuplicateMoveError:  # another process stored a move here first
            await self.catch_up()
            raise ProtocolError("stale", "another move was played first: your action was not "
                                "played; look again and resend") from None
        events = self.match.play(move, seat)
        self.turn_started = self.last_seen = self.settings.clock()
        self.broadcast([event_json(e, self.names, self.rules) for e in events])
        if self.state.is_over:
            self.close_bots()
            try:
                await self.change_meta(lambda: self.meta_with(finished=True))
            except StorageError as e:  # the move stands; a restart marks the table finished
                logger.warning("table %s: could not mark the game finished: %s", self.id, e)

    # Bots and clocks ----------------------------------------------------------------

    def kick(self) -> None:
        """Let chance and bots move until a person is to play (while anybody is here)."""
        if self.driving and self.attended and (self._pump is None or self._pump.done()):
            self._pump = asyncio.get_running_loop().create_task(self._run_pump())

    async def _run_pump(self) -> None:
        while self.started and not self.finished and self.attended and self.driving:
            if self.state.is_chance:
                async with self.lock:
                    if self.state.is_chance:
                        with contextlib.suppress(ProtocolError):
                            await self.commit(None, self.match.draw())
                continue
            seat = self.state.current_seat
            if seat is None:
                return
            if self.expired == self.version:  # the turn clock ran out: a bot plays this turn
                await self.bot_move(seat)
                continue
            if not self.bot_plays(seat):
                return
            version = self.version
            await asyncio.sleep(self.settings.bot_delay)
            if self.version == version and self.bot_plays(seat):
                await self.bot_move(seat)

    async def bot_move(self, seat: int) -> None:
        bot = self.bots.get(seat) or self.stand_in(seat)
        view = observe(self.state, seat)
        version = self.version
        limit = self.settings.limits.bot_seconds
        try:  # asked on the bots' threads, within the server's time limit
            thinking = asyncio.get_running_loop().run_in_executor(
                self.bot_pool, ask, bot, view, random.Random(self.rng.random()))
            try:
                action = await asyncio.wait_for(thinking, limit)
            except TimeoutError:
                raise BotFailure(f"bot {bot.name!r} thought for more than {limit:g} s "
                                 "(server limit bot_seconds)") from None
        except BotFailure as e:
            if seat in self.bots:
                await self.replace_bot(seat, e)  # the pump goes on with the new bot
                return
            if self.stand_ins.get(seat) is not bot:
                return  # stopped while thinking: the person came back
            self.release_stand_in(seat)  # the next try starts a fresh one
            raise
        async with self.lock:  # unless the game moved on or the person came back meanwhile
            if self.version == version and bot in (self.bots.get(seat), self.stand_ins.get(seat)):
                with contextlib.suppress(ProtocolError):  # (another process moved first)
                    await self.commit(seat, action)

    async def replace_bot(self, seat: int, error: BotFailure) -> None:
        """A seat's bot failed (crashed, hung, answered garbage): the takeover bot plays
        that seat from now on, so the game goes on, and everybody is told why."""
        level = self.settings.takeover_bot
        seats = list(self.seats)
        s = seats[seat] = Seat(self.seats[seat].name, bot=level)
        await self.change_meta(lambda: self.meta_with(seats))
        close_bot(self.bots[seat])
        self.seats[seat], self.bots[seat] = s, self.new_bot(level)
        self.note(seat, "BotReplaced", f"{s.name} failed ({error}); {level} plays this seat "
                  "from now on.")

    def stand_in(self, seat: int) -> Bot:
        """The takeover bot playing for a person, kept until they return (so a ``cmd:``
        bot is one process, not one per move)."""
        bot = self.stand_ins.get(seat)
        if bot is None:
            bot = self.stand_ins[seat] = self.new_bot(self.settings.takeover_bot)
        return bot

    def release_stand_in(self, seat: int) -> None:
        bot = self.stand_ins.pop(seat, None)
        if bot is not None:
            close_bot(bot)

    def close_bots(self) -> None:
        """Stop the seats' process bots: the game is over or the server is stopping."""
        for bot in self.bots.values():
            close_bot(bot)
        for seat in list(self.stand_ins):
            self.release_stand_in(seat)

    def tick(self, now: float) -> None:
        """Grace periods and the turn clock (the driving process only); called by the
        lobby's ticker."""
        if not self.started or self.finished or not self.driving:
            return
        changed = False
        pump = self._pump
        if pump is not None and pump.done() and not pump.cancelled() and pump.exception():
            # e.g. the database refused a write: say so (now and then), and try again
            if now - self.complained > 30:
                self.complained = now
                logger.warning("table %s: %s", self.id, pump.exception())
            self._pump = None
            changed = True
        for i, s in enumerate(self.seats):
            if s.bot is not None or s.takeover:
                continue
            if self.connected(i):
                s.away_since = None
            elif s.away_since is None:
                s.away_since = now
            elif now - s.away_since >= self.settings.grace:
                s.takeover = True
                changed = True
                self.note(i, "TakenOver", f"{s.name} is away: a bot plays for them.")
                self.persist_seats()
        seat = self.state.current_seat
        clock = self.meta.get("clock")
        if seat is not None and clock and self.attended and not self.bot_plays(seat) \
                and self.expired != self.version and now - self.turn_started >= clock:
            self.note(seat, "TimedOut", f"{self.seats[seat].name} ran out of time: "
                      "a bot plays this turn.")
            self.expired = self.version
            changed = True
        if changed:
            self.kick()
