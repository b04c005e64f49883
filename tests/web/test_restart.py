"""Kill the server mid-game, start it again: every acknowledged action is still there."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from ninetynine.record import parse_record
from ninetynine.web.storage import PostgresStorage
from ninetynine.web.tables import Lobby, Settings
from tests.web.helpers import Client, free_port, play_game


def start_server(db: Path | str, port: int) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "ninetynine.cli.main", "serve", "--port", str(port),
         "--database", str(db), "--bot-delay", "0"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/tables", timeout=1)
            return proc
        except httpx.TransportError:
            if proc.poll() is not None:
                raise RuntimeError(proc.stderr.read().decode() if proc.stderr else "died") from None
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("the server did not start")


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_a_killed_server_resumes_every_table(tmp_path: Path, backend: str,
                                             request: pytest.FixtureRequest) -> None:
    db = tmp_path / "web.sqlite3" if backend == "sqlite" else \
        request.getfixturevalue("postgres_url")
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    proc = start_server(db, port)
    try:
        created = httpx.post(f"{url}/api/tables", json={
            "name": "Ann", "rules": "P", "players": 3, "bots": {"3": "easy"}}).json()
        table = created["table"]
        bob = httpx.post(f"{url}/api/tables/{table}/join", json={"name": "Bob"}).json()
        ws = f"ws://127.0.0.1:{port}/ws/{table}"
        a, b = Client(ws, created["token"]), Client(ws, bob["token"])
        rng = random.Random(4)
        for c in (a, b):
            c.wait(lambda m: m["type"] == "sync")
        sent = 0
        while sent < 6:  # play a few moves, then send one more and kill at once
            for c in (a, b):
                c.drain(0.05)
            mover = a if a.my_turn() else b if b.my_turn() else None
            if mover is None:
                continue
            st = mover.state
            mover.send({"type": "act", "state": st, "action": rng.choice(mover.view["legal"])})
            sent += 1
            if sent < 6:
                mover.wait(lambda m, st=st: m["type"] == "update" and m["state"] > st)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(10)
        acked = {c: [e for f in c.frames if '"update"' in f or '"sync"' in f
                     for e in _events(f)] for c in (a, b)}
        last_seen = max(a.state, b.state)
        proc = start_server(db, port)
        again = Client(ws, created["token"])
        sync = again.wait(lambda m: m["type"] == "sync")
        assert sync["view"]["seat"] == 1
        assert sync["state"] >= last_seen  # nothing acknowledged was lost
        log = sync["events"]
        for events in acked.values():  # what each client saw is the start of the log
            engine = [e for e in events if e["kind"] not in ("Joined", "TakenOver", "Returned")]
            assert [e for e in log if e["kind"] not in ("Joined", "TakenOver", "Returned")][
                :len(engine)] == engine
        b2 = Client(ws, bob["token"])
        play_game([again, b2], rng)  # and the game plays on to the end
        record = httpx.get(f"{url}/api/tables/{table}/record").text
        final, _ = parse_record(record).replay()
        assert final.is_over and len(parse_record(record).moves) == again.state
    finally:
        proc.kill()
        proc.wait(10)


def _events(frame: str) -> list[dict[str, object]]:
    import json
    return list(json.loads(frame).get("events", []))


def test_tables_resume_from_postgresql(postgres_url: str) -> None:
    """The same storage layer on PostgreSQL: a new server process sees the same game."""
    async def scenario() -> None:
        settings = Settings(database=postgres_url, bot_delay=0, seed=3)
        store = PostgresStorage(postgres_url)
        lobby = Lobby(store, settings)
        from ninetynine.presets import load_rules
        table, token = lobby.create(rules=load_rules("K"), players=3, name="Ann",
                                    bots={1: "easy", 2: "easy"})
        rng = random.Random(1)
        for _ in range(40):
            await asyncio.sleep(0.01)
            if table.state.is_over:
                break
            if table.state.current_seat == 0:
                table.act(0, {"state": table.version,
                              "action": str(rng.choice(table.state.legal_actions()))})
        moves, state = list(table.moves), table.state.clone()
        assert len(moves) > 5
        store.close()
        store2 = PostgresStorage(postgres_url)
        reborn = Lobby(store2, settings).get(table.id)
        assert reborn.moves == moves and reborn.state == state
        assert reborn.seat_of(token) == 0
        store2.close()

    asyncio.run(scenario())
