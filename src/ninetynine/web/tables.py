"""The server's tables: the authoritative game, its seats, bots, turn clock and log.

Everything here runs on the server's event loop. A move is checked on a copy of the
state, stored, and only then applied and sent out, so a refused or failed move changes
nothing and an acknowledged move is never lost. Chance outcomes are drawn with the
table's own generator and stored, never sent.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import random
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ninetynine.actions import Action, ChanceOutcome, parse_action
from ninetynine.bots import Bot, BotFailure, make_bot
from ninetynine.errors import IllegalActionError, NinetyNineError, NotationError, RecordError
from ninetynine.game import new_game
from ninetynine.presets import load_rules, rules_spec
from ninetynine.record import Record, format_record
from ninetynine.rules import Rules
from ninetynine.view import observe
from ninetynine.web.storage import Storage, StoredTable
from ninetynine.web.wire import event_json, view_json

Move = Action | ChanceOutcome
MAX_NAME = 24
MAX_OUTBOX = 200  # frames queued for one client before it gets a fresh sync instead
logger = logging.getLogger("ninetynine.web")


class ProtocolError(NinetyNineError):
    """A client message that was refused; ``code`` says why (stale, illegal, ...)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code

    def json(self) -> dict[str, Any]:
        return {"type": "error", "code": self.code, "message": str(self)}


@dataclass
class Settings:
    database: str = "ninetynine-web.sqlite3"
    grace: float = 30.0  # seconds a disconnected player keeps their seat before a bot plays
    bot_delay: float = 0.6  # seconds a bot waits before playing, so people can follow
    tick: float = 0.25  # how often the clocks are checked (real seconds)
    takeover_bot: str = "easy"
    clock: Callable[[], float] = time.monotonic  # injectable for tests
    seed: int | None = None  # tests only: reproducible chance; never sent to anyone


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _close_bot(bot: Bot) -> None:
    """Stop a bot that runs as a process (a ``cmd:`` protocol bot); other bots have no close."""
    close = getattr(bot, "close", None)
    if close is not None:
        close()


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
    bot: str | None = None  # the bot spec of a bot seat
    connections: int = 0
    away_since: float | None = None  # when the player's last connection dropped
    takeover: bool = False  # a bot plays for an absent player

    @property
    def is_open(self) -> bool:
        return self.bot is None and self.token_hash is None

    def stored(self) -> dict[str, Any]:
        return {"name": self.name, "token_hash": self.token_hash, "bot": self.bot}


class Conn:
    """One WebSocket client: a seat (0-based) or a spectator (None); an outbox queue."""

    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.outbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()

    def send(self, msg: dict[str, Any]) -> None:
        self.outbox.put_nowait(msg)

    @property
    def backed_up(self) -> bool:
        """A client that stopped reading: its queued frames are replaced by one sync."""
        return self.outbox.qsize() > MAX_OUTBOX

    def clear(self) -> None:
        while not self.outbox.empty():
            self.outbox.get_nowait()
            self.outbox.task_done()


@dataclass
class Table:
    id: str
    meta: dict[str, Any]
    rules: Rules
    seats: list[Seat]
    storage: Storage
    settings: Settings
    state: Any = None
    record: Record | None = None
    moves: list[str] = field(default_factory=list)
    log: list[dict[str, Any]] = field(default_factory=list)
    conns: set[Conn] = field(default_factory=set)
    bots: dict[int, Bot] = field(default_factory=dict)
    stand_ins: dict[int, Bot] = field(default_factory=dict)  # takeover bots, by seat
    rng: random.Random = field(default_factory=lambda: random.Random(secrets.randbits(128)))
    turn_started: float = 0.0
    last_accepted: dict[int, tuple[int, str]] = field(default_factory=dict)
    _pump: asyncio.Task[None] | None = None

    # Building -----------------------------------------------------------------------

    @classmethod
    def restore(cls, stored: StoredTable, storage: Storage, settings: Settings) -> Table:
        """Rebuild a table from its metadata and replay every stored move."""
        meta = stored.meta
        rules = load_rules(meta["rules"])
        seats = [Seat(s["name"], s.get("token_hash"), s.get("bot")) for s in meta["seats"]]
        table = cls(stored.id, meta, rules, seats, storage, settings)
        if settings.seed is not None:
            table.rng = random.Random(f"{settings.seed}/{stored.id}/{len(stored.moves)}")
        table.state = new_game(rules, meta["players"], first=meta.get("first", 0))
        table.record = Record(table.state.clone())
        for i, s in enumerate(seats):
            if s.bot:
                table.bots[i] = make_bot(s.bot)
        for text in stored.moves:
            who, move = parse_move(text)
            events = table.state.apply(move, who)
            table.record.moves.append((who, move))
            table.moves.append(text)
            table.log += [event_json(e, table.names) for e in events]
        table.turn_started = settings.clock()
        now = settings.clock()
        for seat_info in seats:  # nobody is connected after a restart: grace starts now
            if seat_info.bot is None:
                seat_info.away_since = now
        return table

    # Queries ------------------------------------------------------------------------

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.seats]

    @property
    def version(self) -> int:
        """The state id clients quote with their actions: the number of moves so far."""
        return len(self.moves)

    @property
    def started(self) -> bool:
        return not any(s.is_open for s in self.seats)

    @property
    def status(self) -> str:
        if self.state.is_over:
            return "over"
        return "playing" if self.started else "waiting"

    def seat_of(self, token: str) -> int | None:
        h = hash_token(token)
        for i, s in enumerate(self.seats):
            if s.token_hash is not None and secrets.compare_digest(s.token_hash, h):
                return i
        return None

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
            "next": self.meta.get("next"),
            "seats": [{
                "seat": i + 1, "name": s.name,
                "kind": "bot" if s.bot else "open" if s.is_open else "human",
                "bot": s.bot, "connected": s.connections > 0 or s.bot is not None,
                "bot_playing": s.takeover,
            } for i, s in enumerate(self.seats)],
        }

    def frame(self, conn: Conn, kind: str, events: list[dict[str, Any]],
              summary: dict[str, Any] | None = None) -> dict[str, Any]:
        """One message for one client: its own view only."""
        seat = conn.seat
        view = observe(self.state, 0 if seat is None else seat)
        return {"type": kind, "state": self.version, "table": summary or self.summary(),
                "view": view_json(view, spectator=seat is None), "events": events}

    def record_text(self) -> str:
        if not self.state.is_over or self.record is None:
            raise ProtocolError("not_finished", "the record is available when the game is over "
                                "(it shows every hand)")
        return format_record(self.record, self.state)

    # Changing -----------------------------------------------------------------------

    def save_meta(self) -> None:
        self.meta["seats"] = [s.stored() for s in self.seats]
        self.storage.update_meta(self.id, self.meta)

    def commit(self, seat: int | None, move: Move) -> None:
        """Check on a copy, store, then apply and send: nothing changes if a step fails."""
        new = self.state.clone()
        events = new.apply(move, seat)
        text = str(move) if seat is None else f"{seat + 1}: {move}"
        self.storage.append_move(self.id, self.version, text)
        self.state = new
        assert self.record is not None
        self.record.moves.append((seat, move))
        self.moves.append(text)
        self.turn_started = self.settings.clock()
        self.broadcast([event_json(e, self.names) for e in events])
        if new.is_over:
            self.meta["finished"] = True
            self.save_meta()
            self.close_bots()

    def close_bots(self) -> None:
        """Stop the seats' process bots: the game is over or the server is stopping."""
        for bot in self.bots.values():
            _close_bot(bot)
        for seat in list(self.stand_ins):
            self.release_stand_in(seat)

    def broadcast(self, events: list[dict[str, Any]], kind: str = "update") -> None:
        self.log += events
        summary = self.summary()
        for conn in list(self.conns):
            if conn.backed_up:
                conn.clear()
                conn.send(self.frame(conn, "sync", self.log, summary))
            else:
                conn.send(self.frame(conn, kind, events, summary))

    def note(self, seat: int, kind: str, text: str) -> None:
        """A server-side line in the log (not an engine event): takeover, time-out, return."""
        self.broadcast([{"kind": kind, "seat": seat + 1, "text": text}])

    def act(self, seat: int | None, msg: dict[str, Any]) -> None:
        """A client's move: refused with a typed error, or stored and applied."""
        if seat is None:
            raise ProtocolError("spectator", "spectators cannot play")
        sid, text = msg.get("state"), msg.get("action")
        if not isinstance(sid, int) or isinstance(sid, bool) or not isinstance(text, str) \
                or len(text) > 40:
            raise ProtocolError("malformed", "an action needs 'state' (the state id you saw, a "
                                "number) and 'action' (text such as \"KS\" or \"AS+11\")")
        if self.last_accepted.get(seat) == (sid, text):
            raise ProtocolError("duplicate", f"'{text}' for state {sid} was already played")
        if not self.started:
            raise ProtocolError("not_started", "the game starts when every seat is taken")
        if self.state.is_over:
            raise ProtocolError("game_over", "the game is over")
        if sid != self.version:
            raise ProtocolError("stale", f"state {sid} is not the current state {self.version}: "
                                "your action was not played; look again and resend")
        if self.state.current_seat != seat:
            raise ProtocolError("not_your_turn", "it is not your turn")
        try:
            action = parse_action(text)
        except NotationError as e:
            raise ProtocolError("malformed", str(e)) from None
        legal = self.state.legal_actions()
        shown = " ".join(str(a) for a in legal)
        if not isinstance(action, Action):
            raise ProtocolError("illegal", f"'{text}' is not a player's move; legal: {shown}")
        try:  # the engine's own reading (e.g. "10S-10" where a Ten only subtracts)
            code = self.state.code_of(action)
        except IllegalActionError as e:
            raise ProtocolError("illegal", f"{e}; legal: {shown}") from None
        if code not in self.state.legal_codes():
            raise ProtocolError("illegal", f"'{text}' is not legal now; legal: {shown}")
        self.commit(seat, self.state.action_of(code))
        self.last_accepted[seat] = (sid, text)
        self.kick()

    # Bots and clocks ----------------------------------------------------------------

    def kick(self) -> None:
        """Let chance and bots move until a person is to play."""
        if self._pump is None or self._pump.done():
            self._pump = asyncio.get_running_loop().create_task(self._run_pump())

    async def _run_pump(self) -> None:
        while self.started and not self.state.is_over:
            if self.state.is_chance:
                self.commit(None, self.state.sample_chance(self.rng))
                continue
            seat = self.state.current_seat
            if seat is None or not self.bot_plays(seat):
                return
            version = self.version
            await asyncio.sleep(self.settings.bot_delay)
            if self.version == version and self.bot_plays(seat):
                await self.bot_move(seat)

    async def bot_move(self, seat: int) -> None:
        bot = self.bots.get(seat) or self.stand_in(seat)
        view = observe(self.state, seat)
        version = self.version
        try:
            if bot.name == "random":
                action = bot.choose(view, self.rng)
            else:  # search bots think in a thread so other tables keep moving
                action = await asyncio.to_thread(bot.choose, view,
                                                 random.Random(self.rng.random()))
            if action not in view.legal:
                raise BotFailure(f"bot {bot.name!r} chose {action}, which is not legal here")
        except BotFailure as e:
            if seat in self.bots:
                self.replace_bot(seat, e)  # the pump goes on with the new bot
                return
            if self.stand_ins.get(seat) is not bot:
                return  # stopped while thinking: the person came back
            self.release_stand_in(seat)  # the next try starts a fresh one
            raise
        if self.version == version:
            self.commit(seat, action)

    def replace_bot(self, seat: int, error: BotFailure) -> None:
        """A seat's bot failed (crashed, hung, answered garbage): the takeover bot plays
        that seat from now on, so the game goes on, and everybody is told why."""
        _close_bot(self.bots[seat])
        spec = self.settings.takeover_bot
        self.bots[seat] = make_bot(spec)
        s = self.seats[seat]
        s.bot = spec
        self.save_meta()
        self.note(seat, "BotReplaced", f"{s.name} failed ({error}); {spec} plays this seat "
                  "from now on.")

    def stand_in(self, seat: int) -> Bot:
        """The takeover bot playing for a person, kept until they return (so a ``cmd:``
        bot is one process, not one per move)."""
        bot = self.stand_ins.get(seat)
        if bot is None:
            bot = self.stand_ins[seat] = make_bot(self.settings.takeover_bot)
        return bot

    def release_stand_in(self, seat: int) -> None:
        bot = self.stand_ins.pop(seat, None)
        if bot is not None:
            _close_bot(bot)

    def tick(self, now: float) -> None:
        """Grace periods and the turn clock; called by the server's ticker."""
        if not self.started or self.state.is_over:
            return
        changed = False
        pump = self._pump
        if pump is not None and pump.done() and not pump.cancelled() and pump.exception():
            # e.g. the database refused a write: say so, and let the pump try again
            logger.warning("table %s: %s", self.id, pump.exception())
            self._pump = None
            changed = True
        for i, s in enumerate(self.seats):
            if s.bot is None and not s.takeover and s.away_since is not None \
                    and now - s.away_since >= self.settings.grace:
                s.takeover = True
                changed = True
                self.note(i, "TakenOver", f"{s.name} is away: a bot plays for them.")
        seat = self.state.current_seat
        clock = self.meta.get("clock")
        if seat is not None and clock and not self.bot_plays(seat) \
                and now - self.turn_started >= clock:
            self.note(seat, "TimedOut", f"{self.seats[seat].name} ran out of time: "
                      "a bot plays this turn.")
            self.commit(seat, self.stand_in(seat).choose(observe(self.state, seat), self.rng))
            changed = True
        if changed:
            self.kick()

    def connect(self, conn: Conn) -> None:
        self.conns.add(conn)
        if conn.seat is not None:
            s = self.seats[conn.seat]
            s.connections += 1
            s.away_since = None
            if s.takeover:
                s.takeover = False
                self.release_stand_in(conn.seat)
                self.note(conn.seat, "Returned", f"{s.name} is back.")
        conn.send(self.frame(conn, "sync", self.log))
        self.broadcast([], kind="update")

    def disconnect(self, conn: Conn, *, leave: bool = False) -> None:
        self.conns.discard(conn)
        if conn.seat is not None:
            s = self.seats[conn.seat]
            s.connections = max(0, s.connections - 1)
            if s.connections == 0:
                s.away_since = self.settings.clock()
            if leave and self.started and not self.state.is_over and not s.takeover:
                s.takeover = True
                self.note(conn.seat, "TakenOver", f"{s.name} left: a bot plays for them.")
                self.kick()
        self.broadcast([], kind="update")


def parse_move(text: str) -> tuple[int | None, Move]:
    """A stored move: ``"2: KS"`` (seat 2) or a chance outcome such as ``"insert 14"``."""
    head, sep, rest = text.partition(":")
    if sep and head.strip().isdigit():
        action = parse_action(rest)
        if not isinstance(action, Action):
            raise RecordError(f"stored move {text!r}: a chance outcome has no seat")
        return int(head) - 1, action
    move = parse_action(text)
    if isinstance(move, Action):
        raise RecordError(f"stored move {text!r}: a player's move needs its seat")
    return None, move


class Lobby:
    """Every table of this server, its storage and the ticker that runs the clocks."""

    def __init__(self, storage: Storage, settings: Settings) -> None:
        self.storage, self.settings = storage, settings
        self.tables: dict[str, Table] = {}
        self.broken: dict[str, str] = {}  # tables that could not be rebuilt, with why
        for stored in storage.load_all():
            try:
                self.tables[stored.id] = Table.restore(stored, storage, settings)
            except (NinetyNineError, KeyError, TypeError, ValueError) as e:
                self.broken[stored.id] = str(e)
                logger.warning("table %s cannot be rebuilt and is not served: %s", stored.id, e)

    def start(self) -> None:
        for table in self.tables.values():
            table.kick()

    def get(self, table_id: str) -> Table:
        table = self.tables.get(table_id)
        if table is None:
            raise ProtocolError("no_table", f"no table {table_id[:40]!r}")
        return table

    def create(self, *, rules: Rules, players: int, name: object, bots: dict[int, str],
               clock: float | None = None, first: int = 0,
               seats: list[Seat] | None = None) -> tuple[Table, str]:
        """A new table; the creator takes seat 1. Returns the table and the creator's token."""
        if not rules.players_min <= players <= rules.players_max:
            raise ProtocolError("bad_table", f"{rules.id} is for {rules.players_min} to "
                                f"{rules.players_max} players, not {players}")
        if clock is not None and not 5 <= clock <= 3600:
            raise ProtocolError("bad_table", f"turn clock {clock}: expected 5 to 3600 seconds")
        token = secrets.token_urlsafe(24)
        if seats is None:
            seats = [Seat(clean_name(name, "Player 1"), hash_token(token))]
            for i in range(1, players):
                spec = bots.get(i)
                seats.append(Seat(f"Bot {i + 1} ({spec})", bot=spec) if spec
                             else Seat(f"Seat {i + 1}"))
            if 0 in bots:
                raise ProtocolError("bad_table", "seat 1 is yours: it cannot be a bot")
            if any(not 0 <= s < players for s in bots):
                raise ProtocolError("bad_table", f"bot seats must be from 2 to {players}")
        for s in seats:
            if s.bot:
                try:
                    _close_bot(make_bot(s.bot))
                except NinetyNineError as e:
                    raise ProtocolError("bad_table", str(e)) from None
        table_id = secrets.token_urlsafe(8)
        meta = {"rules": rules_spec(rules), "players": players, "first": first,
                "seats": [s.stored() for s in seats], "clock": clock, "created": time.time(),
                "next": None, "finished": False}
        self.storage.create_table(table_id, meta)
        table = Table.restore(StoredTable(table_id, meta), self.storage, self.settings)
        self.tables[table_id] = table
        table.kick()
        return table, token

    def join(self, table: Table, name: object) -> tuple[int, str]:
        """Take the first open seat; returns it and its new token."""
        for i, s in enumerate(table.seats):
            if s.is_open:
                token = secrets.token_urlsafe(24)
                s.name = clean_name(name, f"Player {i + 1}")
                s.token_hash = hash_token(token)
                table.save_meta()
                table.broadcast([{"kind": "Joined", "seat": i + 1,
                                  "text": f"{s.name} sits down at seat {i + 1}."}])
                table.kick()
                return i, token
        raise ProtocolError("table_full", "every seat is taken; you can watch instead")

    def rematch(self, table: Table) -> Table:
        """The same players and rules again, the next seat starting; linked from the old table."""
        if not table.state.is_over:
            raise ProtocolError("not_finished", "a rematch can start when the game is over")
        nxt = table.meta.get("next")
        if nxt and nxt in self.tables:
            return self.tables[nxt]
        seats = [Seat(s.name, s.token_hash, s.bot) for s in table.seats]
        n = len(seats)
        new, _ = self.create(rules=table.rules, players=n, name="", bots={},
                             clock=table.meta.get("clock"),
                             first=(table.meta.get("first", 0) + 1) % n, seats=seats)
        table.meta["next"] = new.id
        table.save_meta()
        for conn in list(table.conns):
            conn.send({"type": "rematch", "table": new.id})
        return new

    def close(self) -> None:
        """Stop every table's process bots (the server is shutting down)."""
        for table in self.tables.values():
            table.close_bots()

    def listing(self, limit: int = 50) -> list[dict[str, Any]]:
        """Tables to join (waiting, first) and games to watch (playing), newest first."""
        live = [t for t in self.tables.values() if t.status != "over"]
        live.sort(key=lambda t: (t.status != "waiting", -t.meta.get("created", 0)))
        return [t.summary() for t in live[:limit]]

    async def run_ticker(self) -> None:
        while True:
            await asyncio.sleep(self.settings.tick)
            now = self.settings.clock()
            for table in list(self.tables.values()):
                try:
                    table.tick(now)
                except NinetyNineError:
                    continue
