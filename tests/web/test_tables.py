"""Server table logic without the network: start rules, slow clients, damaged storage,
bots that fail, and the life cycle of tables (pause, abandon, evict, reload)."""

from __future__ import annotations

import asyncio
import json
import random
import subprocess
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from ninetynine.bots import DIFFICULTIES, ask, make_bot, register
from ninetynine.coach import advice_json, advise
from ninetynine.engine.actions import Action
from ninetynine.engine.events import CardPlayed
from ninetynine.engine.view import View
from ninetynine.records.match import Match
from ninetynine.records.position import position_from_mapping
from ninetynine.records.record import Record, move_text
from ninetynine.rules.presets import load_rules
from ninetynine.web.conn import Conn
from ninetynine.web.errors import ProtocolError
from ninetynine.web.limits import Limits
from ninetynine.web.lobby import Lobby
from ninetynine.web.settings import Settings
from ninetynine.web.storage import SQLiteStorage, StorageError
from ninetynine.web.table.room import Table
from tests.helpers import CRASHING_BOT, EXAMPLE_BOT, VIEWED_SEARCH, ViewedSearch
from tests.web.helpers import FakeClock


def run(coro_fn):  # type: ignore[no-untyped-def]
    return asyncio.run(coro_fn())


async def until(done: Callable[[], Any], seconds: float = 15) -> None:
    deadline = time.monotonic() + seconds
    while not done():
        if time.monotonic() > deadline:
            raise AssertionError("timed out")
        await asyncio.sleep(0.005)


def texts(table: Table) -> list[str]:
    """A table's moves as its storage holds them (``"2: KS"``, ``"shuffle ..."``)."""
    return [move_text(seat, move) for seat, move in table.match.moves]


def watch(table: Table) -> Conn:
    """Somebody at the table (a spectator): bots and clocks only run while anybody is."""
    conn = Conn(None)
    table.connect(conn)
    return conn


async def play_first(table: Table, seat: int = 0) -> None:
    await table.authority.act(
        seat, {"state": table.version, "action": str(table.state.legal_actions()[0])}
    )


def test_no_move_before_every_seat_is_taken(tmp_path: Path) -> None:
    async def scenario() -> None:
        lobby = Lobby(SQLiteStorage(tmp_path / "a.sqlite3"), Settings(bot_delay=0))
        table, _ = await lobby.create(
            rules=load_rules("P"), players=3, name="Ann", bots={2: "easy"}
        )
        watch(table)
        await asyncio.sleep(0.01)
        assert table.status == "waiting" and table.version == 0  # not even the deal
        with pytest.raises(ProtocolError) as e:
            await table.authority.act(0, {"state": 0, "action": "AS"})
        assert e.value.code == "not_started"
        await lobby.join(table, "Bob")
        await until(lambda: table.version >= 1)  # dealt at once
        assert table.status == "playing"

    run(scenario)


def test_a_client_that_stops_reading_is_dropped_not_buffered(tmp_path: Path) -> None:
    async def scenario() -> None:
        lobby = Lobby(SQLiteStorage(tmp_path / "b.sqlite3"), Settings(bot_delay=0))
        table, _ = await lobby.create(
            rules=load_rules("P"), players=2, name="Ann", bots={1: "easy"}
        )
        stuck = Conn(None, queue_size=20)
        table.connect(stuck)
        for i in range(100):
            table.fanout.note(0, "Test", f"line {i}")
        assert stuck.dropped.is_set() and stuck.outbox.qsize() == 20
        reader = watch(table)  # another client is not affected
        table.fanout.note(0, "Test", "one more")
        assert not reader.dropped.is_set() and reader.outbox.qsize() == 2

    run(scenario)


def test_a_frame_is_fixed_at_its_state_id(tmp_path: Path) -> None:
    """A queued sync does not grow with the events that come after it."""

    async def scenario() -> None:
        lobby = Lobby(SQLiteStorage(tmp_path / "s.sqlite3"), Settings(bot_delay=0))
        table, _ = await lobby.create(
            rules=load_rules("P"), players=2, name="Ann", bots={1: "easy"}
        )
        conn = Conn(None)
        table.connect(conn)
        table.fanout.note(0, "Test", "after the sync")
        import json

        sync = json.loads(conn.outbox.get_nowait())
        assert sync["type"] == "sync"
        assert "after the sync" not in [e["text"] for e in sync["events"]]

    run(scenario)


def test_a_damaged_table_is_reported_and_the_others_still_load(tmp_path: Path) -> None:
    async def scenario() -> None:
        storage = SQLiteStorage(tmp_path / "c.sqlite3")
        lobby = Lobby(storage, Settings(bot_delay=0, seed=1))
        good, _ = await lobby.create(rules=load_rules("P"), players=2, name="A", bots={1: "easy"})
        bad, _ = await lobby.create(rules=load_rules("P"), players=2, name="B", bots={1: "easy"})
        watch(good), watch(bad)
        await until(lambda: good.version and bad.version)
        storage.append_move(bad.id, bad.version, "1: pass")  # not a legal move there
        again = Lobby(storage, Settings(bot_delay=0))
        assert texts(await again.get(good.id)) == texts(good)
        with pytest.raises(ProtocolError):
            await again.get(bad.id)
        assert bad.id in again.broken and bad.id not in again.tables
        lobby.close()

    run(scenario)


def test_shuffles_come_from_the_system_generator(tmp_path: Path) -> None:
    async def scenario() -> None:
        lobby = Lobby(SQLiteStorage(tmp_path / "d.sqlite3"), Settings(bot_delay=0))
        rules = load_rules("P")
        a, _ = await lobby.create(rules=rules, players=2, name="A", bots={1: "easy"})
        b, _ = await lobby.create(rules=rules, players=2, name="B", bots={1: "easy"})
        watch(a), watch(b)
        await until(lambda: texts(a) and texts(b))
        assert texts(a)[0] != texts(b)[0]  # two different shuffles
        assert isinstance(a.bots.rng, random.SystemRandom) and a.bots.rng is not b.bots.rng

    run(scenario)


def test_a_seeded_tables_bots_draw_by_the_move_not_by_what_went_before(tmp_path: Path) -> None:
    """On a seeded server a decision's generator comes from the seed, the move's number and
    the try, so a slow decision (a hurried retry, the takeover level) cannot change the
    ones after it; unseeded, every decision draws from the system's generator."""

    async def scenario() -> None:
        settings = Settings(bot_delay=0, seed=5)
        lobby = Lobby(SQLiteStorage(tmp_path / "d.sqlite3"), settings)
        a, _ = await lobby.create(rules=load_rules("P"), players=2, name="A", bots={1: "easy"})
        bots, moves = a.bots, a.authority.version  # nobody watches: nothing moves
        first = bots.generator(0).random()
        bots.generator(1).random(), bots.generator(2).random()  # a hurried try, a takeover
        assert bots.generator(0).random() == first
        assert bots.generator(1).random() != first
        assert a.authority.version == moves
        other = Lobby(SQLiteStorage(tmp_path / "e.sqlite3"), Settings(bot_delay=0))
        b, _ = await other.create(rules=load_rules("P"), players=2, name="B", bots={1: "easy"})
        assert b.bots.generator(0).random() != b.bots.generator(0).random()

    run(scenario)


class FlakyStorage(SQLiteStorage):
    """Refuses one write when armed, like a database that hiccups."""

    armed = False

    def append_move(self, table_id: str, index: int, move: str) -> None:
        if self.armed:
            self.armed = False
            raise StorageError("disk full (test)")
        super().append_move(table_id, index, move)

    def update_meta(self, table_id: str, meta: dict[str, Any], expect: int | None = None) -> int:
        if self.armed:
            self.armed = False
            raise StorageError("disk full (test)")
        return super().update_meta(table_id, meta, expect)


def test_a_refused_write_changes_nothing_and_the_table_carries_on(tmp_path: Path) -> None:
    async def scenario() -> None:
        storage = FlakyStorage(tmp_path / "e.sqlite3")
        lobby = Lobby(storage, Settings(bot_delay=0))
        table, _ = await lobby.create(rules=load_rules("P"), players=2, name="A", bots={1: "easy"})
        watch(table)
        await until(lambda: table.state.current_seat == 0)
        version = table.version
        storage.armed = True
        with pytest.raises(StorageError):  # the person's own move: refused, nothing applied
            await play_first(table)
        assert table.version == version and table.state.current_seat == 0
        await play_first(table)
        storage.armed = True  # now the bot's reply fails inside the background pump
        await asyncio.sleep(0.05)
        stuck = table.version
        table.tick(0.0)  # the ticker notices the failed pump and restarts it
        await until(lambda: table.version > stuck or table.state.is_over)
        assert storage.load(table.id).moves == texts(table)  # type: ignore[union-attr]

    run(scenario)


class RecordingStorage(SQLiteStorage):
    """Notes the thread of every write."""

    threads: set[int]

    def append_move(self, table_id: str, index: int, move: str) -> None:
        self.threads.add(threading.get_ident())
        super().append_move(table_id, index, move)


def test_the_database_is_written_off_the_event_loop(tmp_path: Path) -> None:
    async def scenario() -> None:
        storage = RecordingStorage(tmp_path / "o.sqlite3")
        storage.threads = set()
        lobby = Lobby(storage, Settings(bot_delay=0))
        table, _ = await lobby.create(rules=load_rules("P"), players=2, name="A", bots={1: "easy"})
        watch(table)
        await play_until(table, lambda: table.version > 5)
        assert storage.threads and threading.get_ident() not in storage.threads

    run(scenario)


def test_a_join_that_cannot_be_stored_leaves_the_seat_open(tmp_path: Path) -> None:
    async def scenario() -> None:
        storage = FlakyStorage(tmp_path / "j.sqlite3")
        lobby = Lobby(storage, Settings(bot_delay=0))
        table, _ = await lobby.create(rules=load_rules("P"), players=2, name="A", bots={})
        storage.armed = True
        with pytest.raises(StorageError):
            await lobby.join(table, "Ghost")
        assert table.seats[1].is_open and table.status == "waiting"
        assert storage.load(table.id).meta["seats"][1]["token_hash"] is None  # type: ignore[union-attr]
        seat, _ = await lobby.join(table, "Bob")
        assert seat == 1 and table.seats[1].name == "Bob"

    run(scenario)


def test_an_unattended_all_bot_table_pauses_and_resumes(tmp_path: Path) -> None:
    async def scenario() -> None:
        lobby = Lobby(SQLiteStorage(tmp_path / "p.sqlite3"), Settings(bot_delay=0))
        table, _ = await lobby.create(
            rules=load_rules("K"), players=3, name="A", bots={1: "easy", 2: "easy"}
        )
        conn = Conn(0)
        table.connect(conn)
        table.disconnect(conn, leave=True)  # A leaves: bots play every seat, nobody watches
        await asyncio.sleep(0.1)
        paused = table.version
        await asyncio.sleep(0.1)
        assert table.version == paused and not table.state.is_over
        watcher = watch(table)  # somebody looks in: the game goes on
        await until(lambda: table.version > paused)
        table.disconnect(watcher)

    run(scenario)


def test_life_cycle_abandon_evict_and_reload(tmp_path: Path) -> None:
    async def scenario() -> None:
        clock = FakeClock()
        storage = SQLiteStorage(tmp_path / "l.sqlite3")
        limits = Limits(idle_seconds=100, linger_seconds=10)
        lobby = Lobby(storage, Settings(bot_delay=0, clock=clock, limits=limits))
        idle, _ = await lobby.create(rules=load_rules("P"), players=2, name="A", bots={})
        done, _ = await lobby.create(rules=load_rules("P"), players=2, name="B", bots={1: "easy"})
        conn = Conn(0)
        done.connect(conn)
        while not done.state.is_over:  # B plays to the end against the bot
            await until(lambda: done.state.current_seat == 0 or done.state.is_over)
            if not done.state.is_over:
                await play_first(done)
        done.disconnect(conn)
        clock.advance(11)
        lobby.tick(clock())
        assert done.id not in lobby.tables and idle.id in lobby.tables  # finished: evicted
        again = await lobby.get(done.id)  # read back on demand, to watch or download
        assert again.status == "over" and texts(again) == texts(done)
        assert again.record_text() == done.record_text()
        clock.advance(90)
        lobby.tick(clock())
        await asyncio.sleep(0.05)
        assert idle.id not in lobby.tables  # nobody came for 100 s: abandoned
        stored = storage.load(idle.id)
        assert stored is not None and stored.meta["ended"] == "abandoned"
        assert idle.id not in storage.live_metas()
        ended = await lobby.get(idle.id)
        assert ended.status == "abandoned"
        with pytest.raises(ProtocolError) as e:
            await lobby.join(ended, "Late")
        assert e.value.code == "table_full"
        fresh = Lobby(storage, Settings(bot_delay=0))  # a restart knows live tables only
        assert fresh.dormant == {}

    run(scenario)


def test_a_stored_bot_the_server_does_not_offer_is_not_started(
    tmp_path: Path, bot_processes: list[subprocess.Popen[str]]
) -> None:
    """A spec stored by an older server (``cmd:...`` from a request) never runs again."""

    async def scenario() -> None:
        storage = SQLiteStorage(tmp_path / "r.sqlite3")
        offering = Settings(bot_delay=0, bots={**DIFFICULTIES, "example": EXAMPLE_BOT})
        lobby = Lobby(storage, offering)
        table, _ = await lobby.create(
            rules=load_rules("P"), players=2, name="A", bots={1: "example"}
        )
        lobby.close()
        again = Lobby(storage, Settings(bot_delay=0))  # restarted without --allow-bot
        reborn = await again.get(table.id)
        assert reborn.seats[1].bot == "easy" and reborn.bots.by_seat[1].name == "beginner"
        assert storage.load(table.id).meta["seats"][1]["bot"] == "easy"  # type: ignore[union-attr]
        assert any(e["kind"] == "BotReplaced" for e in reborn.fanout.log)
        conn = Conn(0)
        reborn.connect(conn)
        await play_until(reborn, lambda: any(m.startswith("2: ") for m in texts(reborn)))
        assert bot_processes == []  # the program was never started

    run(scenario)


@register("sleepy")
class SleepyBot:
    """A bot that ignores every time limit."""

    name = "sleepy"

    def choose(self, view: View, rng: random.Random) -> Action:
        time.sleep(2)
        return view.legal[0]


@register("hasty")
class HastyBot:
    """A bot too slow with the whole limit that answers when told to hurry (a search on a
    busy server): its last move of the legal list, so that its moves can be told apart."""

    name = "hasty"
    answered: list[float] = []  # the time each answer was given

    def __init__(self) -> None:
        self.seconds = 60.0

    def cap_time(self, seconds: float) -> None:
        self.seconds = seconds

    def choose(self, view: View, rng: random.Random) -> Action:
        if self.seconds > 0.1:
            time.sleep(2)
        else:
            HastyBot.answered.append(self.seconds)
        return view.legal[0]


async def play_until(table: Table, done: Callable[[], bool]) -> None:
    """Seat 1 (a person) plays its first legal move whenever it is its turn, until ``done``."""
    while not done():
        await until(lambda: table.state.current_seat == 0 or done() or table.state.is_over)
        if table.state.is_over:
            return
        if table.state.current_seat == 0 and not done():
            await play_first(table)


@pytest.mark.parametrize(
    "level,spec,seconds",
    [
        ("deep", "ismcts:iterations=1000000000", 1.5),
        ("sleepy", "sleepy", 0.3),
        ("hasty", "hasty", 0.3),
    ],
)
def test_bot_thinking_is_capped_by_the_limit(
    tmp_path: Path, level: str, spec: str, seconds: float
) -> None:
    """A search asked for a billion playouts stops at the limit. A bot out of time is
    asked again with a quarter of it (the hasty bot answers then); one that ignores every
    limit has its move played by the takeover level, the table told why. Neither loses its
    seat: slowness, which a busy server causes, never downgrades a bot for good."""

    async def scenario() -> None:
        settings = Settings(
            bot_delay=0, bots={**DIFFICULTIES, level: spec}, limits=Limits(bot_seconds=seconds)
        )
        lobby = Lobby(SQLiteStorage(tmp_path / "t.sqlite3"), settings)
        table, _ = await lobby.create(rules=load_rules("P"), players=2, name="A", bots={1: level})
        watch(table)
        await play_until(table, lambda: any(m.startswith("2: ") for m in texts(table)))
        notes = [e for e in table.fanout.log if e["kind"] in ("BotReplaced", "BotHurried")]
        assert table.seats[1].bot == level  # it keeps its seat whatever happened
        if level == "sleepy":
            assert [e["kind"] for e in notes] == ["BotHurried"]
            assert notes[0]["text"] == "Ben (sleepy) ran out of time; easy played this move for it."
        else:  # deep answered within the limit by itself, hasty when asked to hurry
            assert notes == []
        if level == "hasty":  # asked again with a quarter of the limit, and that was played
            assert HastyBot.answered and set(HastyBot.answered) == {seconds / 4}
        lobby.close()

    run(scenario)


def test_protocol_bots_stop_after_a_takeover_move_at_the_end_and_at_shutdown(
    tmp_path: Path, bot_processes: list[subprocess.Popen[str]]
) -> None:
    async def scenario() -> None:
        settings = Settings(
            bot_delay=0, takeover_bot="example", bots={**DIFFICULTIES, "example": EXAMPLE_BOT}
        )
        lobby = Lobby(SQLiteStorage(tmp_path / "f.sqlite3"), settings)
        rules = load_rules("K")
        table, _ = await lobby.create(rules=rules, players=2, name="A", bots={1: "example"})
        watch(table)
        conn = Conn(0)
        table.connect(conn)
        table.disconnect(conn, leave=True)  # from now on a takeover bot plays for A
        await until(lambda: table.state.is_over, 60)
        assert len(bot_processes) == 2  # the seat's bot, and one takeover bot for A
        assert all(proc.poll() is not None for proc in bot_processes)

        table, _ = await lobby.create(rules=rules, players=2, name="A", bots={1: "example"})
        watch(table)
        before = len(bot_processes)
        while len(bot_processes) == before:  # A plays until the bot has started
            await until(lambda: table.state.current_seat == 0 or len(bot_processes) > before)
            if len(bot_processes) == before:
                await play_first(table)
        await until(lambda: table.state.current_seat == 0)  # the bot has moved
        assert len(bot_processes) == before + 1 and bot_processes[-1].poll() is None
        lobby.close()  # the server shuts down
        assert bot_processes[-1].poll() is not None

    run(scenario)


def test_a_seat_bot_that_fails_is_replaced_and_the_game_goes_on(
    tmp_path: Path, bot_processes: list[subprocess.Popen[str]]
) -> None:
    async def scenario() -> None:
        storage = SQLiteStorage(tmp_path / "g.sqlite3")
        settings = Settings(
            bot_delay=0, takeover_bot="medium", bots={**DIFFICULTIES, "crash": CRASHING_BOT}
        )
        lobby = Lobby(storage, settings)
        table, _ = await lobby.create(rules=load_rules("K"), players=2, name="A", bots={1: "crash"})
        watch(table)
        for _ in range(2000):  # A plays until the bot seat has had a turn
            await asyncio.sleep(0.005)
            if (
                any(e["kind"] == "BotReplaced" for e in table.fanout.log)
                and table.state.current_seat == 0
                or table.state.is_over
            ):
                break
            if table.state.current_seat == 0:
                await play_first(table)
        notes = [e["text"] for e in table.fanout.log if e["kind"] == "BotReplaced"]
        assert len(notes) == 1 and "exited (code 3)" in notes[0]
        assert "medium plays this seat from now on" in notes[0]
        assert table.seats[1].bot == "medium" and table.bots.by_seat[1].name == "heuristic-v2"
        assert any(m.startswith("2: ") for m in texts(table))  # the new bot has played
        assert storage.load(table.id).meta["seats"][1]["bot"] == "medium"  # type: ignore[union-attr]
        assert all(proc.poll() is not None for proc in bot_processes)  # the failed one is stopped

    run(scenario)


def test_a_stand_in_process_bot_stops_when_the_person_returns(
    tmp_path: Path, bot_processes: list[subprocess.Popen[str]]
) -> None:
    async def scenario() -> None:
        settings = Settings(
            bot_delay=0.02, takeover_bot="example", bots={**DIFFICULTIES, "example": EXAMPLE_BOT}
        )
        lobby = Lobby(SQLiteStorage(tmp_path / "h.sqlite3"), settings)
        table, _ = await lobby.create(rules=load_rules("P"), players=2, name="A", bots={1: "easy"})
        watch(table)
        conn = Conn(0)
        table.connect(conn)
        table.disconnect(conn, leave=True)
        await until(
            lambda: sum(m.startswith("1: ") for m in texts(table)) >= 2 or table.state.is_over
        )
        assert not table.state.is_over
        assert len(bot_processes) == 1  # one process for all of its moves
        table.connect(Conn(0))  # A is back
        assert table.bots.stand_ins == {} and bot_processes[0].poll() is not None
        lobby.close()

    run(scenario)


def test_the_seat_to_play_is_told_why_no_card_may_be_played(tmp_path: Path) -> None:
    """What the terminal says when a player is stuck reaches the browser too (the real
    reason and cost), in the frame of the seat to act only."""

    async def scenario() -> None:
        lobby = Lobby(SQLiteStorage(tmp_path / "s.sqlite3"), Settings(bot_delay=0))
        table, _ = await lobby.create(
            rules=load_rules("P"), players=2, name="Ann", bots={1: "easy"}
        )
        table.match.state = position_from_mapping(  # a position where Ann has no safe card
            {"rules": "P", "total": 95, "hands": ["6S 7S 8S", "2C 3C 4C"], "turn": 1}
        )
        mine = json.loads(table.fanout.frame(0, "update", [], table.summary()))
        assert mine["stuck"] == (
            "You cannot play: 6♠, 7♠ and 8♠ would take the total over 99. "
            "You lay down your hand and lose a penny."
        )
        assert "stuck" not in json.loads(table.fanout.frame(1, "update", [], table.summary()))
        table.match.state = position_from_mapping(
            {"rules": "P", "total": 5, "hands": ["6S 7S 8S", "2C 3C 4C"], "turn": 1}
        )
        assert json.loads(table.fanout.frame(0, "update", [], table.summary()))["stuck"] is None

    run(scenario)


def test_the_bots_and_the_coach_see_the_match_view_with_its_log(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 23: a web table's bot and coach read the seat's ``Match.view`` (with the public
    log, which ``hard``'s belief reads): the same view, move and figures as asking them
    directly from the same position and seed."""
    asked: list[View] = []  # the views the coach was asked about (it runs in a worker)

    async def scenario() -> None:
        settings = Settings(
            bot_delay=0,
            seed=3,
            bots={**DIFFICULTIES, "viewed": "viewed"},
            limits=Limits(coach_playouts=60),
        )
        lobby = Lobby(SQLiteStorage(tmp_path / "d.sqlite3"), settings)
        run_work = lobby.workers.run

        async def run_seen(fn: Callable[..., Any], *args: Any, **options: Any) -> Any:
            asked.extend(a for a in args if isinstance(a, View))
            return await run_work(fn, *args, **options)

        monkeypatch.setattr(lobby.workers, "run", run_seen)
        table, _ = await lobby.create(
            rules=load_rules("P"), players=2, name="Ann", bots={1: "viewed"}
        )
        ViewedSearch.views.clear()
        watch(table)
        await until(lambda: table.state.current_seat == 0)  # dealt: Ann leads
        await play_first(table)
        asked_at = table.version  # the bot's first decision
        await until(lambda: table.state.current_seat == 0 and table.version > asked_at)
        record = table.match.record()
        before = Match.from_record(
            Record(record.start, record.moves[:asked_at], record.from_position, record.names)
        )
        view = before.view(1)
        assert any(isinstance(e, CardPlayed) for e in view.history)  # Ann's card is in it
        assert ViewedSearch.views[0] == view
        bot_rng = random.Random(random.Random(f"3/{table.id}/0").random())
        assert ask(make_bot(VIEWED_SEARCH), view, bot_rng) == record.moves[asked_at][1]
        got = await table.coaching.coach(0)
        mine = table.match.view(0)
        assert asked == [mine] and mine.history == tuple(table.match.log)
        assert got == {
            "type": "coach",
            "state": table.version,
            **advice_json(advise(mine, playouts=60, seed=table.version)),
        }
        lobby.close()

    run(scenario)
