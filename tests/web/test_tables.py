"""Server table logic without the network: start rules, slow clients, damaged storage."""

from __future__ import annotations

import asyncio
import random
import subprocess
from pathlib import Path

import pytest

from ninetynine.presets import load_rules
from ninetynine.web.storage import SQLiteStorage, StorageError
from ninetynine.web.tables import MAX_OUTBOX, Conn, Lobby, ProtocolError, Settings
from tests.helpers import CRASHING_BOT, EXAMPLE_BOT


def run(coro_fn):  # type: ignore[no-untyped-def]
    return asyncio.run(coro_fn())


def test_no_move_before_every_seat_is_taken(tmp_path: Path) -> None:
    async def scenario() -> None:
        lobby = Lobby(SQLiteStorage(tmp_path / "a.sqlite3"), Settings(bot_delay=0))
        table, _ = lobby.create(rules=load_rules("P"), players=3, name="Ann", bots={2: "easy"})
        await asyncio.sleep(0.01)
        assert table.status == "waiting" and table.version == 0  # not even the deal
        with pytest.raises(ProtocolError) as e:
            table.act(0, {"state": 0, "action": "AS"})
        assert e.value.code == "not_started"
        lobby.join(table, "Bob")
        await asyncio.sleep(0.01)
        assert table.status == "playing" and table.version >= 1  # dealt at once

    run(scenario)


def test_a_client_that_stops_reading_gets_one_sync_not_a_flood(tmp_path: Path) -> None:
    async def scenario() -> None:
        lobby = Lobby(SQLiteStorage(tmp_path / "b.sqlite3"), Settings(bot_delay=0))
        table, _ = lobby.create(rules=load_rules("P"), players=2, name="Ann", bots={1: "easy"})
        stuck = Conn(None)
        table.connect(stuck)
        for i in range(MAX_OUTBOX * 2):
            table.note(0, "Test", f"line {i}")
        assert stuck.outbox.qsize() <= MAX_OUTBOX + 1
        first = stuck.outbox.get_nowait()
        assert first["type"] == "sync"  # the backlog was replaced by a fresh sync...
        texts = [e["text"] for e in first["events"]]
        assert "line 0" in texts and f"line {MAX_OUTBOX}" in texts  # ...with the whole log

    run(scenario)


def test_a_damaged_table_is_reported_and_the_others_still_load(tmp_path: Path) -> None:
    async def scenario() -> None:
        storage = SQLiteStorage(tmp_path / "c.sqlite3")
        lobby = Lobby(storage, Settings(bot_delay=0, seed=1))
        good, _ = lobby.create(rules=load_rules("P"), players=2, name="A", bots={1: "easy"})
        bad, _ = lobby.create(rules=load_rules("P"), players=2, name="B", bots={1: "easy"})
        await asyncio.sleep(0.05)
        storage.append_move(bad.id, bad.version, "1: pass")  # not a legal move there
        again = Lobby(storage, Settings(bot_delay=0))
        assert good.id in again.tables and again.tables[good.id].moves == good.moves
        assert bad.id in again.broken and bad.id not in again.tables
        with pytest.raises(ProtocolError):
            again.get(bad.id)
        lobby.tables.clear()

    run(scenario)


def test_the_server_rng_is_not_shared_between_tables(tmp_path: Path) -> None:
    async def scenario() -> None:
        lobby = Lobby(SQLiteStorage(tmp_path / "d.sqlite3"), Settings(bot_delay=0))
        rules = load_rules("P")
        a, _ = lobby.create(rules=rules, players=2, name="A", bots={1: "easy"})
        b, _ = lobby.create(rules=rules, players=2, name="B", bots={1: "easy"})
        await asyncio.sleep(0.01)
        assert a.moves[0] != b.moves[0]  # two different shuffles
        assert a.rng is not b.rng and isinstance(a.rng, random.Random)

    run(scenario)


class FlakyStorage(SQLiteStorage):
    """Refuses one write when armed, like a database that hiccups."""

    armed = False

    def append_move(self, table_id: str, index: int, move: str) -> None:
        if self.armed:
            self.armed = False
            raise StorageError("disk full (test)")
        super().append_move(table_id, index, move)


def test_a_refused_write_changes_nothing_and_the_table_carries_on(tmp_path: Path) -> None:
    async def scenario() -> None:
        storage = FlakyStorage(tmp_path / "e.sqlite3")
        lobby = Lobby(storage, Settings(bot_delay=0))
        table, _ = lobby.create(rules=load_rules("P"), players=2, name="A", bots={1: "easy"})
        for _ in range(50):  # until it is the person's turn
            await asyncio.sleep(0.001)
            if table.state.current_seat == 0:
                break
        version = table.version
        storage.armed = True
        with pytest.raises(StorageError):  # the person's own move: refused, nothing applied
            table.act(0, {"state": version, "action": str(table.state.legal_actions()[0])})
        assert table.version == version and table.state.current_seat == 0
        table.act(0, {"state": version, "action": str(table.state.legal_actions()[0])})
        storage.armed = True  # now the bot's reply fails inside the background pump
        await asyncio.sleep(0.01)
        stuck = table.version
        table.tick(0.0)  # the ticker notices the failed pump and restarts it
        await asyncio.sleep(0.01)
        assert table.version > stuck or table.state.is_over
        assert storage.load(table.id).moves == table.moves  # type: ignore[union-attr]

    run(scenario)


def test_protocol_bots_stop_after_a_takeover_move_at_the_end_and_at_shutdown(
        tmp_path: Path, bot_processes: list[subprocess.Popen[str]]) -> None:
    async def until(done):  # type: ignore[no-untyped-def]
        for _ in range(3000):
            if done():
                return
            await asyncio.sleep(0.005)
        raise AssertionError("timed out")

    async def scenario() -> None:
        lobby = Lobby(SQLiteStorage(tmp_path / "f.sqlite3"),
                      Settings(bot_delay=0, takeover_bot=EXAMPLE_BOT))
        rules = load_rules("K")
        table, _ = lobby.create(rules=rules, players=2, name="A", bots={1: EXAMPLE_BOT})
        conn = Conn(0)
        table.connect(conn)
        table.disconnect(conn, leave=True)  # from now on a takeover bot plays for A
        await until(lambda: table.state.is_over)
        assert len(bot_processes) == 2  # the seat's bot, and one takeover bot for A
        assert all(proc.poll() is not None for proc in bot_processes)

        table, _ = lobby.create(rules=rules, players=2, name="A", bots={1: EXAMPLE_BOT})
        before = len(bot_processes)
        while len(bot_processes) == before:  # A plays until the bot has started
            await until(lambda: table.state.current_seat == 0 or len(bot_processes) > before)
            if len(bot_processes) == before:
                table.act(0, {"state": table.version,
                              "action": str(table.state.legal_actions()[0])})
        await until(lambda: table.state.current_seat == 0)  # the bot has moved
        assert len(bot_processes) == before + 1 and bot_processes[-1].poll() is None
        lobby.close()  # the server shuts down
        assert bot_processes[-1].poll() is not None

    run(scenario)


def test_a_seat_bot_that_fails_is_replaced_and_the_game_goes_on(
        tmp_path: Path, bot_processes: list[subprocess.Popen[str]]) -> None:
    async def scenario() -> None:
        storage = SQLiteStorage(tmp_path / "g.sqlite3")
        lobby = Lobby(storage, Settings(bot_delay=0, takeover_bot="medium"))
        table, _ = lobby.create(rules=load_rules("K"), players=2, name="A",
                                bots={1: CRASHING_BOT})
        for _ in range(2000):  # A plays until the bot seat has had a turn
            await asyncio.sleep(0.005)
            if any(e["kind"] == "BotReplaced" for e in table.log) and \
                    table.state.current_seat == 0 or table.state.is_over:
                break
            if table.state.current_seat == 0:
                table.act(0, {"state": table.version,
                              "action": str(table.state.legal_actions()[0])})
        notes = [e["text"] for e in table.log if e["kind"] == "BotReplaced"]
        assert len(notes) == 1 and "exited (code 3)" in notes[0]
        assert "medium plays this seat from now on" in notes[0]
        assert table.seats[1].bot == "medium" and table.bots[1].name == "heuristic"
        assert any(m.startswith("2: ") for m in table.moves)  # the new bot has played
        assert storage.load(table.id).meta["seats"][1]["bot"] == "medium"  # type: ignore[union-attr]
        assert all(proc.poll() is not None for proc in bot_processes)  # the failed one is stopped

    run(scenario)


def test_a_stand_in_process_bot_stops_when_the_person_returns(
        tmp_path: Path, bot_processes: list[subprocess.Popen[str]]) -> None:
    async def scenario() -> None:
        lobby = Lobby(SQLiteStorage(tmp_path / "h.sqlite3"),
                      Settings(bot_delay=0.02, takeover_bot=EXAMPLE_BOT))
        table, _ = lobby.create(rules=load_rules("P"), players=2, name="A", bots={1: "easy"})
        conn = Conn(0)
        table.connect(conn)
        table.disconnect(conn, leave=True)
        for _ in range(2000):  # until the stand-in has played twice for A
            await asyncio.sleep(0.005)
            if sum(m.startswith("1: ") for m in table.moves) >= 2 or table.state.is_over:
                break
        assert not table.state.is_over
        assert len(bot_processes) == 1  # one process for all of its moves
        table.connect(Conn(0))  # A is back
        assert table.stand_ins == {} and bot_processes[0].poll() is not None
        lobby.close()

    run(scenario)
