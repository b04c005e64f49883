"""Every table of one server: creating and joining them, the listing, and their life cycle.

Only live tables are held in memory, and only once asked for: on start the lobby reads
which tables are live (their metadata, not their moves) and answers at once; a table is
rebuilt by replaying its moves when somebody comes to it (nobody is at any table after a
restart, so no bot or clock of a table still unvisited has anything to do). A finished
table stays while somebody watches it, then for ``linger_seconds``, and is read back from
the database when asked for again (to watch its end, or download its record). A table that
nobody has been at for ``idle_seconds`` is ended as abandoned, rebuilt or not, except a
turn-based one (:mod:`ninetynine.web.turns`): its players come and go, its bots play at
once and its clock runs on, and the turn keeper loads it when its turn is due. Tables are
private (reached by their invite link) unless created public; only public tables are listed.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import json
import logging
import os
import random
import re
import secrets
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from ninetynine.errors import NinetyNineError
from ninetynine.language import N_
from ninetynine.rules.presets import rules_spec
from ninetynine.rules.settings import Rules, table_refusal
from ninetynine.session.table import bot_seat_name
from ninetynine.web.clubs.store import ClubStore
from ninetynine.web.conn import Conn
from ninetynine.web.errors import ErrorCode, LimitError, ProtocolError
from ninetynine.web.limits import Buckets, Slots, check_rules
from ninetynine.web.settings import Settings
from ninetynine.web.storage import MetaConflict, Storage, StorageError, StoredTable
from ninetynine.web.table.background import later
from ninetynine.web.table.room import Table
from ninetynine.web.table.seating import Seat, TableStatus, clean_name, hash_token
from ninetynine.web.turns.keeper import TurnKeeper
from ninetynine.web.work import Workers

logger = logging.getLogger("ninetynine.web")
TABLE_ID = re.compile(r"^[A-Za-z0-9_-]{1,40}$")


@dataclass(frozen=True)
class Creator:
    """Who asked for a table, kept as hashes (they are only ever compared)."""

    client: str  # the browser's cookie
    address: str  # its network address

    @classmethod
    def of(cls, client: str, address: str) -> Creator:
        """The creator from a browser's cookie and its network address, each kept as the first
        24 hex digits of its SHA-256."""

        def digest(text: str) -> str:
            return hashlib.sha256(text.encode()).hexdigest()[:24]

        return cls(digest(client), digest(address))


@dataclass
class Dormant:
    """A live table not rebuilt since the start: what the lobby needs of it meanwhile."""

    creator: dict[str, str]  # for the creators' limits
    seen: float  # the last sign of use: the start, or news of it from another process
    turn_based: bool = False  # never ended for want of visitors


class Lobby:
    """Every live table of this server, its storage and the ticker that runs the clocks."""

    def __init__(self, storage: Storage, settings: Settings) -> None:
        self.storage, self.settings = storage, settings
        limits = settings.limits
        self.tables: dict[str, Table] = {}
        self.broken: dict[str, str] = {}  # tables that could not be rebuilt, with why
        self.requests = Buckets(limits.requests_per_second, limits.requests_burst)
        # open WebSockets by address, and those of them that hold no seat (spectators and
        # lobby pages: a crowd of them gets a smaller share than the players)
        self.connections = Slots(
            "connections_per_address", limits.connections_per_address, "connections"
        )
        self.unseated = Slots(
            "unseated_per_address", limits.unseated_per_address, "connections that hold no seat"
        )
        # the bots' threads are theirs alone: the coach and reviews run in the workers.
        # More threads than cores, so that a bot that ran out of time (its thread thinks on
        # to the end of its own budget) leaves room for the quick move that replaces it.
        self.bot_pool = ThreadPoolExecutor(
            4 * max(2, os.cpu_count() or 2), thread_name_prefix="nn-bot"
        )
        self.workers = Workers(limits)
        self._loading: dict[str, asyncio.Future[Table]] = {}
        self.watchers: set[Conn] = set()  # lobby pages that follow the listing
        # whether a session cookie is a club's member's (the clubs' own check, given by the app)
        self.is_member: Callable[[str | None, str], Awaitable[bool]] | None = None
        # stores a finished game's results (ninetynine.web.history, given by the app)
        self.game_over: Callable[[Table], Awaitable[None]] | None = None
        self.share_now = asyncio.Event()  # wake the sharing round (a table wants a driver)
        self._tasks: list[asyncio.Task[None]] = []
        self._feed = ""  # the listing they were sent last
        self._fed_at = -1e9
        self._ending: set[str] = set()
        # tests: a seeded server names its tables in a repeatable order, so that their
        # shuffles (seeded by table id) and the pages showing them are the same every run
        self._seeded_ids = None if settings.seed is None else random.Random(f"{settings.seed}/ids")
        now = settings.clock()
        self.dormant = {  # start-up: one blocking read is fine here
            table_id: Dormant(meta.get("creator") or {}, now, bool(meta.get("turn_based")))
            for table_id, meta in storage.live_metas().items()
        }
        self.turns = TurnKeeper(storage, settings, self.get)
        self.turns.loaded = lambda table_id: table_id in self.tables
        self._ending_dormant: dict[str, asyncio.Task[None]] = {}

    def _rebuild(self, stored: StoredTable) -> Table | None:
        self.dormant.pop(stored.id, None)
        try:
            table = Table.restore(stored, self.storage, self.settings)
            check_rules(table.rules, len(table.seats), self.settings.limits)
        except (NinetyNineError, KeyError, TypeError, ValueError) as e:
            self.broken[stored.id] = str(e)
            logger.warning("table %s cannot be rebuilt and is not served: %s", stored.id, e)
            return None
        table.bots.pool, table.sharing.wake = self.bot_pool, self.share_now.set
        table.coaching.workers = self.workers
        table.over = self.game_over
        table.turn_hook = self.turns.moved
        self.tables[stored.id] = table
        return table

    async def get(self, table_id: str) -> Table:
        """A table by id: from memory, or rebuilt from the database (a live table not
        asked for since the start, a finished one, another process's)."""
        table = self.tables.get(table_id)
        if table is not None:
            return table
        if table_id in self.broken or not TABLE_ID.match(table_id):
            raise ProtocolError(ErrorCode.NO_TABLE, f"no table {table_id[:40]!r}")
        ending = self._ending_dormant.get(table_id)
        if ending is not None:  # being ended as abandoned: then read back as such
            await asyncio.shield(ending)
        loading = self._loading.get(table_id)
        if loading is None:  # one read however many ask at once
            loading = self._loading[table_id] = asyncio.ensure_future(self._load(table_id))
            loading.add_done_callback(lambda _: self._loading.pop(table_id, None))
        return await asyncio.shield(loading)

    async def _load(self, table_id: str) -> Table:
        stored = await self.storage.call(self.storage.load, table_id)
        table = None if stored is None else self._rebuild(stored)
        if table is None:
            raise ProtocolError(ErrorCode.NO_TABLE, f"no table {table_id[:40]!r}")
        if table.seating.meta_changed:  # (the fixes stay in memory where the write fails)
            try:
                await table.seating.change_meta(table.seating.meta_with)
                table.seating.meta_changed = False
            except StorageError as e:
                logger.warning("table %s: could not store its rebuilt seats: %s", table_id, e)
        if table.state.is_over and self.game_over is not None:
            # where the process that saw the end stopped before its results were stored
            later(table_id, self.game_over(table), "storing the results")
        if table.clock.turn_based and not table.finished:
            await self.turns.restored(table)
        return table

    def live_count(self, creator: Creator) -> tuple[int, int]:
        """Live tables this creator's browser, and its address, have made."""
        mine = [t.meta.get("creator") or {} for t in self.tables.values() if not t.finished]
        mine += [d.creator for d in self.dormant.values()]
        return (
            sum(c.get("client") == creator.client for c in mine),
            sum(c.get("address") == creator.address for c in mine),
        )

    def throttle(self, address: str) -> None:
        """Refuse a state-changing request from an address that asks too fast."""
        if not self.requests.take(address):
            raise LimitError(
                "requests_per_second",
                "too many requests from your address: wait a moment",
                code=ErrorCode.RATE_LIMITED,
            )

    async def create(
        self,
        *,
        rules: Rules,
        players: int,
        name: object,
        bots: dict[int, str],
        clock: float | None = None,
        turn_based: bool = False,
        public: bool = False,
        creator: Creator | None = None,
        first: int = 0,
        seats: list[Seat] | None = None,
        club: str | None = None,
        account: str | None = None,
        rated: bool = False,
    ) -> tuple[Table, str]:
        """A new table; the creator takes seat 1. Returns the table and the creator's token.
        With ``seats`` given (a rematch keeps the old table's), those are the seats, and the
        token returned opens none of them. A ``club``'s table (never public) is listed as the
        club's, and only its members may join or watch it (:mod:`ninetynine.web.clubs`).
        ``account``: the signed-in creator's account id, kept with seat 1. A ``rated`` table's
        game moves its accounts' ratings (:mod:`ninetynine.web.history`). A ``turn_based``
        table's ``clock`` (required) is hours or days (``turn_clock_min`` to
        ``turn_clock_max`` seconds)."""
        limits = self.settings.limits
        if (why := table_refusal(rules, players)) is not None:
            raise ProtocolError(ErrorCode.BAD_TABLE, why)
        check_rules(rules, players, limits)
        if turn_based:
            low, high = limits.turn_clock_min, limits.turn_clock_max
            if clock is None or not low <= clock <= high:
                raise LimitError(
                    "turn_clock_max",
                    f"turn clock {clock}: a turn-based table needs a clock of {low} to "
                    f"{high} seconds ({low / 60:g} minutes to {high / 86400:g} days)",
                    code=ErrorCode.BAD_TABLE,
                )
        elif clock is not None and not 1 <= clock <= 3600:
            raise ProtocolError(
                ErrorCode.BAD_TABLE,
                f"turn clock {clock}: expected 1 to 3600 seconds (a longer clock is for a "
                'turn-based table: "turn_based": true)',
            )
        if creator is not None:
            by_client, by_address = self.live_count(creator)
            if by_client >= limits.tables_per_client:
                raise LimitError(
                    "tables_per_client",
                    f"you have {by_client} tables going already: finish or leave one first",
                    code=ErrorCode.TOO_MANY_TABLES,
                )
            if by_address >= limits.tables_per_address:
                raise LimitError(
                    "tables_per_address",
                    f"{by_address} tables were created from your address and are still going",
                    code=ErrorCode.TOO_MANY_TABLES,
                )
        token = secrets.token_urlsafe(24)
        if seats is None:
            offered = self.settings.bots
            if 0 in bots:
                raise ProtocolError(ErrorCode.BAD_TABLE, "seat 1 is yours: it cannot be a bot")
            if any(not 0 <= s < players for s in bots):
                raise ProtocolError(ErrorCode.BAD_TABLE, f"bot seats must be from 2 to {players}")
            for wanted in bots.values():
                if wanted not in offered:
                    raise ProtocolError(
                        ErrorCode.BAD_TABLE,
                        f"bot {wanted[:40]!r}: expected one of {', '.join(offered)}",
                    )
            seats = [Seat(clean_name(name, "Player 1"), hash_token(token), account=account)]
            for i in range(1, players):
                level = bots.get(i)
                seats.append(
                    Seat(bot_seat_name(i, level), bot=level) if level else Seat(f"Seat {i + 1}")
                )
        table_id = await self._new_id()
        meta = {
            "rules": rules_spec(rules),
            "players": players,
            "first": first,
            "seats": [s.stored() for s in seats],
            "clock": clock,
            "turn_based": turn_based,
            "created": time.time(),
            "next": None,
            "finished": False,
            "public": public and club is None,
            "club": club,
            "rated": rated,
            "creator": None
            if creator is None
            else {"client": creator.client, "address": creator.address},
        }
        await self.storage.call(self.storage.create_table, table_id, meta)
        if club is not None:
            await self.storage.call(
                ClubStore(self.storage).add_table, club, table_id, meta["created"]
            )
        table = self._rebuild(StoredTable(table_id, meta))
        if table is None:
            raise ProtocolError(ErrorCode.BAD_TABLE, self.broken.pop(table_id))
        table.kick()
        return table, token

    async def _new_id(self) -> str:
        if self._seeded_ids is None:
            return secrets.token_urlsafe(8)
        while True:  # a seeded server restarted on the same database goes past its old ids
            table_id = base64.urlsafe_b64encode(self._seeded_ids.randbytes(6)).decode()
            if (
                table_id not in self.tables
                and await self.storage.call(self.storage.load, table_id) is None
            ):
                return table_id

    async def join(self, table: Table, name: object, account: str | None = None) -> tuple[int, str]:
        """Take the first open seat (for ``account``, the player's account id where signed
        in); returns it (0-based) and its new token. Stored before it is taken, so a failed
        write leaves the seat open."""
        name = clean_name(name, "")
        token = secrets.token_urlsafe(24)
        chosen: list[tuple[int, Seat]] = []

        def take() -> dict[str, Any]:  # again, if another process seated somebody first
            seat = next((i for i, s in enumerate(table.seats) if s.is_open), None)
            if seat is None or table.finished:
                raise ProtocolError(
                    ErrorCode.TABLE_FULL, "every seat is taken; you can watch instead"
                )
            taken = Seat(name or f"Player {seat + 1}", hash_token(token), account=account)
            seats = list(table.seats)
            seats[seat] = taken
            chosen[:] = [(seat, taken)]
            return table.seating.meta_with(seats)

        async with table.authority.lock:
            await table.seating.change_meta(take)
            seat, taken = chosen[0]
            table.seats[seat] = taken
            table.match.given_names[seat] = taken.name  # the record keeps who played
        table.fanout.note(
            seat, "Joined", N_("{who} sits down at seat {seat}."), who=taken.name, seat=seat + 1
        )
        table.kick()
        return seat, token

    async def reopen(self, table: Table, account: str) -> tuple[int, str]:
        """A new token for the seat the signed-in ``account`` holds at the table (its first,
        where it holds several): returned once, its hash in place of the old one's, so the
        old token opens nothing and the connections holding it are closed (at every
        process). ``no_seat`` where the account holds none (or the table is finished)."""
        token = secrets.token_urlsafe(24)
        chosen: list[int] = []

        def rekey() -> dict[str, Any]:
            seat = next(
                (i for i, s in enumerate(table.seats) if s.account == account and s.bot is None),
                None,
            )
            if seat is None or table.finished:
                raise ProtocolError(
                    ErrorCode.NO_SEAT,
                    f"your account holds no seat at table {table.id!r} that is still playing",
                )
            seats = list(table.seats)
            old = seats[seat]
            seats[seat] = Seat(
                old.name, hash_token(token), takeover=old.takeover, account=old.account
            )
            chosen[:] = [seat]
            return table.seating.meta_with(seats)

        async with table.authority.lock:
            await table.seating.change_meta(rekey)
            seat = chosen[0]
            table.seats[seat].token_hash = hash_token(token)
        table.drop_seats({seat})
        return seat, token

    async def rematch(self, table: Table) -> tuple[Table, bool]:
        """The same players and rules again, the next seat starting; linked from the old
        table. Returns the new table and whether this call created it."""
        if not table.state.is_over:
            raise ProtocolError(ErrorCode.NOT_FINISHED, "a rematch can start when the game is over")
        nxt = table.meta.get("next")
        if nxt:
            return await self.get(nxt), False
        async with table.authority.lock:
            if table.meta.get("next"):  # a second request while the first was stored
                return await self.get(table.meta["next"]), False
            seats = [Seat(s.name, s.token_hash, s.bot, account=s.account) for s in table.seats]
            n = len(seats)
            new, _ = await self.create(
                rules=table.rules,
                players=n,
                name="",
                bots={},
                clock=table.meta.get("clock"),
                turn_based=bool(table.meta.get("turn_based")),
                public=bool(table.meta.get("public")),
                first=(table.meta.get("first", 0) + 1) % n,
                seats=seats,
                club=table.meta.get("club"),
                rated=bool(table.meta.get("rated")),
            )
            new.meta["creator"] = table.meta.get("creator")
            linked = await table.seating.change_meta(
                lambda: None if table.meta.get("next") else table.seating.meta_with(next=new.id)
            )
            if not linked:  # another process's rematch was stored first: go there
                await self.abandon(new)
                return await self.get(table.meta["next"]), False
        for conn in list(table.fanout.conns):
            conn.send_json({"type": "rematch", "table": new.id})
        return new, True

    async def listing(self, limit: int = 50) -> list[dict[str, Any]]:
        """Public tables to join (waiting, with somebody there) and to watch (playing),
        newest first; abandoned and finished tables are not listed. Where other processes
        serve tables too, theirs are read from the database."""
        for table_id in await self.storage.call(self.storage.public_live, limit):
            with contextlib.suppress(ProtocolError):
                await self.get(table_id)
        live = [
            t
            for t in self.tables.values()
            if t.meta.get("public")
            and (t.status is TableStatus.PLAYING or t.status is TableStatus.WAITING and t.attended)
        ]
        live.sort(key=lambda t: (t.status is not TableStatus.WAITING, -t.meta.get("created", 0)))
        return [t.summary() for t in live[:limit]]

    # Life cycle ---------------------------------------------------------------------

    def start(self) -> None:
        """Starts the lobby's background work on the running event loop: warms the workers' fork
        server, and where other processes share the database, listens to them (:meth:`heard`) and
        runs :meth:`run_sharing`. The app's lifespan runs the ticker."""
        loop = asyncio.get_running_loop()
        loop.run_in_executor(None, self.workers.warm)
        self._tasks = [loop.create_task(self.turns.run_sweeps())]
        if self.storage.shared:
            self._tasks += [
                loop.create_task(self.storage.listen(self.heard)),
                loop.create_task(self.run_sharing()),
            ]

    # Other processes (PostgreSQL) -----------------------------------------------------

    def heard(self, message: dict[str, Any]) -> None:
        """A notification from another process serving the same tables."""
        kind = message.get("k")
        if kind == "resync":  # notifications may have been missed: read the tables again
            self.share_now.set()
            for table_id in self.dormant:
                self._in_use(table_id)
            for table in self.tables.values():
                later(table.id, self.resync(table), "reading the table again")
            return
        if kind == "club":  # a club lost members at another process
            club = message.get("c")
            later("", self.shut_out(None if club is None else str(club)), "closing connections")
            return
        found = self.tables.get(str(message.get("t")))
        if found is None:
            self._in_use(str(message.get("t")))  # another process serves it: not idle
            return
        table = found
        if kind == "move":
            table.sharing.stored_move(int(message["i"]), str(message["m"]))
        elif kind == "meta" and int(message["v"]) > table.seating.meta_version:
            later(table.id, table.seating.reload_meta(), "reading the seats")
        elif kind == "presence":
            self.share_now.set()  # who is where is read in one go by the next round
        elif kind == "chat":
            table.fanout.hear(message["line"])
        elif kind == "note":
            table.fanout.broadcast([message["line"]])

    async def club_changed(self, club_id: str | None) -> None:
        """A club lost members (one removed or gone, the club deleted; None: an account
        deleted, which was in any club): the other processes are told, and each closes the
        connections to the club's tables of browsers no longer signed in to a member."""
        if self.storage.shared:
            await self.storage.call(self.storage.publish, "", "club", {"c": club_id})
        await self.shut_out(club_id)

    async def shut_out(self, club_id: str | None) -> None:
        """Closes this process's connections to the tables of the club (None: of every
        club) whose session is no longer a member's (read from the database now)."""
        if self.is_member is None:
            return
        for table in list(self.tables.values()):
            club = table.meta.get("club")
            if not club or club_id is not None and club != club_id:
                continue
            for conn in list(table.fanout.conns):
                if not await self.is_member(conn.session, str(club)):
                    conn.shut_out()

    async def resync(self, table: Table) -> None:
        """Reads a table again where notifications may have been missed: the moves stored since its
        state, then its metadata."""
        async with table.authority.lock:
            await table.authority.catch_up()
        await table.seating.reload_meta()

    async def run_sharing(self) -> None:
        """Every second (and at once when asked): say this process is alive, read who is
        at each table elsewhere, and take or renew the leases of the tables it can drive
        (those anybody is at), so that exactly one process moves each table's bots."""
        store, driven = self.storage, set[str]()
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.share_now.wait(), 1.0)
            self.share_now.clear()
            try:
                await store.call(store.heartbeat)
                tables = list(self.tables.values())
                elsewhere = await store.call(store.presence, [t.id for t in tables])
                for table in tables:
                    table.sharing.presence_changed(elsewhere.get(table.id, {}))
                wanted = [
                    t.id
                    for t in tables
                    if (t.attended or t.clock.turn_based) and t.started and not t.finished
                ]
                held = await store.call(store.hold_leases, wanted)
                await store.call(store.release_leases, sorted(driven - set(wanted)))
                driven = held
                for table in tables:
                    table.sharing.set_driving(table.id in held)
            except StorageError as e:
                logger.warning("sharing the tables with other processes: %s", e)

    async def run_ticker(self) -> None:
        """Calls :meth:`tick` every ``settings.tick`` seconds until cancelled (the app's lifespan
        starts and cancels it)."""
        while True:
            await asyncio.sleep(self.settings.tick)
            self.tick(self.settings.clock())

    async def listing_frame(self) -> str:
        """The ``lobby`` frame's text: the public tables of :meth:`listing`."""
        return json.dumps({"type": "lobby", "tables": await self.listing()})

    async def feed(self) -> None:
        """Send the lobby pages the listing when it changed."""
        frame = await self.listing_frame()
        if frame != self._feed:
            self._feed = frame
            for conn in list(self.watchers):
                conn.send(frame)

    def tick(self, now: float) -> None:
        """One tick at ``now`` (the settings' clock, in seconds): the lobby pages get the listing
        (once a second at most), each table runs its clocks, a finished table nobody watches leaves
        memory after ``linger_seconds``, and a table nobody has been at for ``idle_seconds`` is
        ended as abandoned, rebuilt or not."""
        limits = self.settings.limits
        moment = time.monotonic()
        if self.watchers and moment - self._fed_at >= 1.0:  # the listing: once a second
            self._fed_at = moment
            asyncio.get_running_loop().create_task(self.feed())
        for table in list(self.tables.values()):
            table.tick(now)
            if table.fanout.conns or table.id in self._ending:
                continue
            if table.clock.turn_based and not table.finished:
                continue  # its players come and go: never abandoned
            idle = now - table.clock.last_seen
            if table.finished:
                if idle >= limits.linger_seconds:
                    self.evict(table)
            elif idle >= limits.idle_seconds:
                self._ending.add(table.id)
                asyncio.get_running_loop().create_task(self.abandon(table))
        for table_id, dormant in self.dormant.items():
            if (
                now - dormant.seen >= limits.idle_seconds
                and not dormant.turn_based
                and table_id not in self._ending_dormant
                and table_id not in self._loading
            ):
                self._ending_dormant[table_id] = asyncio.get_running_loop().create_task(
                    self._end_dormant(table_id)
                )

    def _in_use(self, table_id: str) -> None:
        dormant = self.dormant.get(table_id)
        if dormant is not None:
            dormant.seen = self.settings.clock()

    async def _end_dormant(self, table_id: str) -> None:
        """End a table not rebuilt since the start that nobody came back to: its metadata
        only, so its moves are not replayed for nothing."""
        store = self.storage
        try:
            if store.shared and (await store.call(store.presence, [table_id]))[table_id]:
                self._in_use(table_id)  # somebody is at it at another process
                return
            found = await store.call(store.load_meta, table_id)
            if found is not None and not found[0].get("finished"):
                meta, version = found
                await store.call(
                    store.update_meta,
                    table_id,
                    {**meta, "finished": True, "ended": TableStatus.ABANDONED.value},
                    version,
                )
            self.dormant.pop(table_id, None)
        except MetaConflict:  # another process changed it meanwhile: it is in use
            self._in_use(table_id)
        except StorageError as e:
            logger.warning("table %s: could not end it as abandoned: %s", table_id, e)
        finally:
            self._ending_dormant.pop(table_id, None)

    async def abandon(self, table: Table) -> None:
        """End a table nobody came back to: stored as finished, then out of memory."""
        try:
            await self._abandon(table)
        finally:
            self._ending.discard(table.id)

    async def _abandon(self, table: Table) -> None:
        async with table.authority.lock:
            if table.attended or table.finished:
                return
            try:
                await table.seating.change_meta(
                    lambda: (
                        None
                        if table.finished
                        else table.seating.meta_with(
                            finished=True, ended=TableStatus.ABANDONED.value
                        )
                    )
                )
            except StorageError as e:
                logger.warning("table %s: could not end it as abandoned: %s", table.id, e)
                return
        table.fanout.note(0, "Abandoned", N_("Nobody was at the table: the game was ended."))
        self.evict(table)

    def evict(self, table: Table) -> None:
        """Takes a table out of memory, its process bots stopped; asked for again, it is read back
        from the database."""
        table.close_bots()
        self.tables.pop(table.id, None)

    def close(self) -> None:
        """Stop every table's process bots (the server is shutting down)."""
        for task in self._tasks:
            task.cancel()
        for table in self.tables.values():
            table.close_bots()
        self.bot_pool.shutdown(wait=False, cancel_futures=True)
        self.workers.close()
