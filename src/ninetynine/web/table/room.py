"""One table of the server, composed of its parts: the seating, the fan-out to its
clients, the turn clock, the authority over the match, the sharing with other processes,
the bots and the coach (each in its own module of this package).

Everything here runs on the server's event loop; the database and the bots' thinking run
on threads. Chance outcomes are drawn from the operating system's generator
(:mod:`secrets`) and stored, never sent. A table whose every connection is gone pauses:
its bots and clocks wait for somebody to come back (the lobby ends it as abandoned after
a while), except at a turn-based table, whose bots and clock go on.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from ninetynine.engine.state import State
from ninetynine.language import N_
from ninetynine.records.match import Chance, Match
from ninetynine.records.record import format_record, parse_move
from ninetynine.rules.presets import load_rules
from ninetynine.rules.settings import Rules
from ninetynine.web.conn import Conn
from ninetynine.web.errors import ErrorCode, LimitError, ProtocolError
from ninetynine.web.settings import Settings
from ninetynine.web.storage import Storage, StoredTable
from ninetynine.web.table.authority import Authority
from ninetynine.web.table.background import later
from ninetynine.web.table.bots import TableBots
from ninetynine.web.table.clock import TurnClock
from ninetynine.web.table.coaching import Coaching
from ninetynine.web.table.fanout import Fanout
from ninetynine.web.table.seating import Seat, Seating, TableStatus
from ninetynine.web.table.sharing import Sharing
from ninetynine.web.wire import event_json, note_json


class Table:
    """A game in progress at the server, with who sits where and who is watching."""

    def __init__(
        self,
        table_id: str,
        meta: dict[str, Any],
        rules: Rules,
        seats: list[Seat],
        storage: Storage,
        settings: Settings,
    ) -> None:
        self.id, self.rules, self.settings = table_id, rules, settings
        chance = (
            Chance.system()
            if settings.seed is None
            else Chance.by_move(f"{settings.seed}/{table_id}")
        )  # tests: reproducible shuffles
        self.match = Match.new(
            rules,
            meta["players"],
            first=meta.get("first", 0),
            chance=chance,
            names=[s.name for s in seats],
            auto_chance=False,
        )
        # each part gets the parts below it; the calls upward are these bound methods
        self.seating = Seating(table_id, meta, seats, self.match, storage)
        self.fanout = Fanout(self.seating, rules, settings, storage, self.summary)
        self.clock = TurnClock(self.seating, self.fanout, settings)
        self.authority = Authority(
            self.seating,
            self.fanout,
            self.clock,
            storage,
            kick=self.kick,
            ended=self._ended,
            turned=self._turned,
        )
        # told when the game is played to its end here (the lobby stores the results)
        self.over: Callable[[Table], Awaitable[None]] | None = None
        # a turn-based table's new turn, to store and announce (the lobby's turn keeper)
        self.turn_hook: Callable[[Table], None] = lambda table: None
        self.sharing = Sharing(
            self.seating, self.fanout, self.clock, self.authority, storage, kick=self.kick
        )
        self.bots = TableBots(
            self.seating, self.fanout, self.clock, self.authority, self.sharing, settings
        )
        if settings.seed is not None:  # tests: reproducible bots, as the shuffles
            self.bots.seed = f"{settings.seed}/{table_id}"
        self.coaching = Coaching(self.authority, settings)
        self.seating.adopted = self._adopted
        self.seating.rekeyed = self.drop_seats

    @classmethod
    def restore(cls, stored: StoredTable, storage: Storage, settings: Settings) -> Table:
        """Rebuild a table from its metadata and replay every stored move.

        A seat's bot that this server does not offer (any more) is not started: the
        takeover level plays that seat, and ``meta_changed`` says the metadata needs saving.
        """
        meta = stored.meta
        rules = load_rules(meta["rules"])
        seats = [
            Seat(
                s["name"],
                s.get("token_hash"),
                s.get("bot"),
                takeover=bool(s.get("takeover")),
                account=s.get("account"),
            )
            for s in meta["seats"]
        ]
        table = cls(stored.id, meta, rules, seats, storage, settings)
        seating, log = table.seating, table.fanout.log
        seating.meta_version = stored.meta_version
        notes = sorted(stored.notes, key=lambda n: n[0])

        def noted() -> None:  # the kept notes made at the state reached, before its move
            while notes and notes[0][0] <= table.version:
                log.append(notes.pop(0)[1])

        for text in stored.moves:
            noted()
            who, move = parse_move(text, len(seats))
            log += [event_json(e, seating.names, rules) for e in table.match.play(move, who)]
        noted()
        if any(v == table.version and n["kind"] == "TimedOut" for v, n in stored.notes):
            table.clock.expired = table.version  # it ran out before the restart: a bot plays
        for i, s in enumerate(seats):
            if s.bot is not None and s.bot not in settings.bots:
                s.bot = settings.takeover_bot
                seating.meta_changed = True
                log.append(
                    note_json(
                        i,
                        "BotReplaced",
                        N_(
                            "{who}'s bot is not offered by this server; "
                            "{bot} plays this seat from now on."
                        ),
                        who=s.name,
                        bot=s.bot,
                    )
                )
            if s.bot:
                table.bots.by_seat[i] = table.bots.new_bot(s.bot)
        now = settings.clock()
        for seat_info in seats:  # nobody is connected after a restart: grace starts now
            if seat_info.bot is None:
                seat_info.away_since = now
        if table.state.is_over and not meta.get("finished"):
            seating.meta_changed = True  # the last move was stored, the metadata was not
        return table

    # Queries ------------------------------------------------------------------------

    @property
    def meta(self) -> dict[str, Any]:
        """The table's stored metadata: the rules spec, the seats, the clock, the links, the end."""
        return self.seating.meta

    @property
    def seats(self) -> list[Seat]:
        """The seats, by seat (0-based)."""
        return self.seating.seats

    @property
    def state(self) -> State:
        """The match's current state, every hand in it: clients only ever get views of it."""
        return self.match.state

    @property
    def version(self) -> int:
        """The state id clients quote with their actions: the number of moves so far, chance
        outcomes (shuffles) included."""
        return self.match.version

    @property
    def started(self) -> bool:
        """Every seat is taken (by a person or a bot), so the game is under way."""
        return self.seating.started

    @property
    def finished(self) -> bool:
        """Over for good: played to the end, or abandoned."""
        return self.seating.finished

    @property
    def attended(self) -> bool:
        """Anybody is at the table (a player or a spectator, at any process)."""
        return self.fanout.attended

    @property
    def status(self) -> TableStatus:
        """Where the game stands, as the lobby lists it: over, abandoned, playing, or waiting for
        players."""
        if self.state.is_over:
            return TableStatus.OVER
        if self.seating.abandoned:
            return TableStatus.ABANDONED
        return TableStatus.PLAYING if self.started else TableStatus.WAITING

    def summary(self) -> dict[str, Any]:
        """The public summary (``GET /api/tables/{id}``, and each frame's ``table``): no token,
        seats from 1."""
        seating = self.seating
        return {
            "id": self.id,
            "status": self.status,
            "rules": {"id": self.rules.id, "name": self.rules.name},
            "players": len(self.seats),
            "clock": self.meta.get("clock"),
            "clock_left": self.clock.left(),
            "turn_based": self.clock.turn_based,
            "deadline": self.deadline(),
            "public": bool(self.meta.get("public")),
            "rated": bool(self.meta.get("rated")),
            "next": self.meta.get("next"),
            "seats": [
                {
                    "seat": i + 1,
                    "name": s.name,
                    "kind": "bot" if s.bot else "open" if s.is_open else "human",
                    "bot": s.bot,
                    "connected": s.bot is not None or seating.connected(i),
                    "bot_playing": s.takeover,
                }
                for i, s in enumerate(self.seats)
            ],
        }

    def deadline(self) -> float | None:
        """A turn-based table's current deadline (wall-clock seconds) while a person is to
        play, else None."""
        if not self.clock.turn_based or self.clock.left() is None:
            return None
        return self.clock.deadline

    def record_text(self) -> str:
        """The game's record as ``.toml`` text, with its final state; refused (``not_finished``)
        until the table is finished, as it shows every hand."""
        if not self.finished:
            raise ProtocolError(
                ErrorCode.NOT_FINISHED,
                "the record is available when the game is over (it shows every hand)",
            )
        return format_record(self.match.record(), self.state)

    # Comings and goings -------------------------------------------------------------

    def connect(self, conn: Conn) -> None:
        """A client arrives: it gets the whole log (``sync``), the others an update."""
        fanout, clock = self.fanout, self.clock
        if conn.seat is None:
            cap = self.settings.limits.spectators_per_table
            if fanout.spectators >= cap:
                raise LimitError(
                    "spectators_per_table",
                    f"{cap} people are watching this table already",
                    code=ErrorCode.CROWDED,
                )
            fanout.spectators += 1
        else:
            s = self.seats[conn.seat]
            s.connections += 1
            s.away_since = None
            if s.takeover:
                s.takeover = False
                self.bots.release_stand_in(conn.seat)
                fanout.note(conn.seat, "Returned", N_("{who} is back."), who=s.name)
                self.seating.persist_seats()
                if self.clock.turn_based and self.state.current_seat == conn.seat:
                    self.clock.deadline = self.clock.next_deadline()  # theirs again: a full turn
                    self._turned()
            fanout.broadcast([])  # the seat shows as connected
        clock.last_seen = self.settings.clock()
        if not fanout.attended:
            clock.turn_started = clock.last_seen  # the clock waited while nobody was here
        fanout.conns.add(conn)
        self.sharing.publish_presence(conn.seat)
        conn.send(fanout.frame(conn.seat, "sync", fanout.log, self.summary(), conn.lang))
        self.kick()

    def disconnect(self, conn: Conn, *, leave: bool = False) -> None:
        """A client goes. A seat no connection holds any more is away from now on (its grace period
        runs); with ``leave``, in a game under way, a bot plays for it at once. Nothing for a client
        already gone."""
        fanout = self.fanout
        if conn not in fanout.conns:
            return
        fanout.conns.discard(conn)
        self.clock.last_seen = self.settings.clock()
        self.sharing.publish_presence(conn.seat)
        if conn.seat is None:
            fanout.spectators -= 1
            return
        s = self.seats[conn.seat]
        s.connections = max(0, s.connections - 1)
        if not self.seating.connected(conn.seat):
            s.away_since = self.settings.clock()
        if leave and self.started and not self.finished and not s.takeover:
            s.takeover = True
            fanout.note(conn.seat, "TakenOver", N_("{who} left: a bot plays for them."), who=s.name)
            self.seating.persist_seats()
            self.kick()
        fanout.broadcast([])

    # What the parts ask of each other -----------------------------------------------

    def kick(self) -> None:
        """Let chance and bots move until a person is to play (while anybody is here)."""
        self.bots.kick()

    def drop_seats(self, seats: set[int]) -> None:
        """Closes this process's connections to these seats (their token was replaced: the
        browsers holding the old one must not play on)."""
        for conn in list(self.fanout.conns):
            if conn.seat in seats:
                conn.dropped.set()

    def _turned(self) -> None:
        """A move stored here (or a return) starts a new turn: at a turn-based table, the
        turn keeper stores it and tells the player."""
        if self.clock.turn_based:
            self.turn_hook(self)

    def close_bots(self) -> None:
        """Stop the seats' process bots: the game is over or the server is stopping."""
        self.bots.close()

    def _ended(self) -> None:
        """The game is over (a move made here or another process's): stop the bots, and
        have the results stored (every process that sees the end asks; they are stored once)."""
        self.close_bots()
        if self.over is not None and self.state.is_over:
            later(self.id, self.over(self), "storing the results")

    def _adopted(self, changed: set[int]) -> None:
        """Another process's metadata was adopted: bots follow the seats, clients see it."""
        self.bots.follow(changed)
        if self.finished:
            self.close_bots()
        self.fanout.broadcast([])
        self.kick()

    def tick(self, now: float) -> None:
        """Grace periods and the turn clock (the driving process only); called by the
        lobby's ticker."""
        if not self.started or self.finished or not self.sharing.driving:
            return
        failed = self.bots.pump_failed(now)
        if self.clock.tick(now) or failed:
            self.kick()
