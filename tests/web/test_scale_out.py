"""Many servers, one game: several ``ninetynine serve`` processes on one PostgreSQL serve
the same tables. Players on different processes play together; a spectator on a third
sees every public event in order and no hidden card; the process that drives a table's
bots can die (kill -9) or restart and the game goes on, every acknowledged move kept,
no bot move played twice."""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
from websockets.exceptions import ConnectionClosed

from ninetynine.records.match import replay
from ninetynine.records.record import parse_record
from tests.web.helpers import Client, free_port, play_game
from tests.web.test_leaks import allowed_cards, check_frames
from tests.web.test_restart import start_server

ENGINE_ONLY = ("Joined", "TakenOver", "Returned", "TimedOut", "BotReplaced")


class Server:
    """One ``ninetynine serve`` process of several on the same database."""

    def __init__(self, url: str, log: Path, *extra: str) -> None:
        self.url, self.log, self.extra = url, log, extra
        self.port = free_port()
        self.proc = start_server(url, self.port, *extra, log=log)

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def ws(self, table: str) -> str:
        return f"ws://127.0.0.1:{self.port}/ws/{table}"

    def kill(self) -> None:
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)

    def restart(self) -> None:
        self.proc = start_server(self.url, self.port, *self.extra, log=self.log)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)


@pytest.fixture
def servers(database: str, tmp_path: Path) -> Iterator[list[Server]]:
    started: list[Server] = []
    for i in range(3):
        started.append(Server(database, tmp_path / f"server{i}.log", "--bot-delay", "0.05"))
    yield started
    for server in started:
        server.stop()
    for i in range(3):
        text = (tmp_path / f"server{i}.log").read_text()
        assert "Traceback" not in text, text[-3000:]


def stored_moves(url: str, table: str) -> list[tuple[int, str]]:
    with psycopg.connect(url) as db:
        return [
            (i, m)
            for i, m in db.execute(
                "SELECT idx, move FROM nn_moves WHERE table_id = %s ORDER BY idx", (table,)
            )
        ]


def lease_holder(url: str, table: str) -> str | None:
    with psycopg.connect(url) as db:
        row = db.execute(
            "SELECT holder FROM nn_leases WHERE table_id = %s AND expires > "
            "extract(epoch from clock_timestamp())",
            (table,),
        ).fetchone()
        return None if row is None else str(row[0])


def engine_events(frames: list[str]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for text in frames:
        msg = json.loads(text)
        if msg["type"] == "sync":
            out = [e for e in msg["events"] if e["kind"] not in ENGINE_ONLY]
        elif msg["type"] == "update":
            out += [e for e in msg["events"] if e["kind"] not in ENGINE_ONLY]
    return out


def test_players_on_two_processes_play_and_a_spectator_on_a_third_sees_it_all(
    servers: list[Server], database: str
) -> None:
    a, b, c = servers
    created = httpx.post(
        f"{a.http}/api/tables",
        json={"name": "Ann", "rules": "P", "players": 3, "bots": {"3": "easy"}},
    ).json()
    table = created["table"]
    bob = httpx.post(f"{b.http}/api/tables/{table}/join", json={"name": "Bob"}).json()
    ann_c, bob_c = Client(a.ws(table), created["token"]), Client(b.ws(table), bob["token"])
    watcher = Client(c.ws(table), None)
    play_game([ann_c, bob_c], random.Random(9))
    watcher.wait(lambda m: m["type"] == "update" and m["view"]["phase"] == "over", 30)
    record = httpx.get(f"{c.http}/api/tables/{table}/record").text
    assert record == httpx.get(f"{a.http}/api/tables/{table}/record").text
    final, events = replay(parse_record(record))
    assert final.is_over and ann_c.state == bob_c.state == watcher.state
    assert len(stored_moves(database, table)) == watcher.state
    # the spectator saw every public event, in order, and no card it may not see
    assert [e["kind"] for e in engine_events(watcher.frames)] == [type(e).__name__ for e in events]
    per_state, hands = allowed_cards(record, 3)
    assert check_frames(watcher.frames, None, 3, per_state, hands) > 10
    for seat, client in ((0, ann_c), (1, bob_c)):
        assert check_frames(client.frames, seat, 3, per_state, hands) > 10


def reconnect(clients: dict[str, Client], name: str, url: str, token: str | None) -> Client:
    with contextlib.suppress(Exception):
        clients[name].close()
    clients[name] = Client(url, token)
    clients[name].wait(lambda m: m["type"] == "sync", 15)
    return clients[name]


@pytest.mark.parametrize("how", ["kill", "restart"])
def test_the_driving_process_dies_and_another_takes_over(
    servers: list[Server], database: str, how: str
) -> None:
    a, b, c = servers
    created = httpx.post(
        f"{a.http}/api/tables",
        json={
            "name": "Ann",
            "rules": "K",
            "players": 4,
            "bots": {"2": "medium", "3": "easy", "4": "easy"},
        },
    ).json()
    table = created["table"]
    home = {"ann": a, "b": b, "c": c}  # the process each client is connected to
    tokens = {"ann": created["token"], "b": None, "c": None}
    clients = {name: Client(server.ws(table), tokens[name]) for name, server in home.items()}
    for client in clients.values():
        client.wait(lambda m: m["type"] == "sync")

    def come_back(name: str, dead: Server | None = None) -> None:
        """The client reconnects at a live process other than ``dead``."""
        live = [s for s in servers if s.proc.poll() is None and s is not dead]
        home[name] = live[0] if name != "b" else live[-1]
        reconnect(clients, name, home[name].ws(table), tokens[name])

    rng = random.Random(3)
    killed = False
    deadline = time.monotonic() + 120
    seen = 0
    while time.monotonic() < deadline:
        for name in ("b", "c"):  # spectators read too: a full queue stops their pongs
            with contextlib.suppress(TimeoutError, ConnectionClosed):
                clients[name].drain(0.001)
        try:
            clients["ann"].drain(0.02)
        except ConnectionClosed:  # (not from a kill: from the machine's load)
            come_back("ann")
        ann = clients["ann"]
        if ann.last and ann.view["phase"] == "over":
            break
        if not killed and ann.last and ann.state >= 12:  # mid-game, bots moving
            holder = lease_holder(database, table)
            assert holder is not None, "nobody drives the table"
            victim = next(s for s in servers if s.port in _ports_of(database, holder, servers))
            seen = ann.state
            victim.kill()
            killed, killed_at = True, time.monotonic()
            if how == "restart":
                victim.restart()
            # every client of the dead process comes back at another one (a ping is not
            # proof it is alive: the frames it sent before it died are still queued here)
            for name in [n for n, s in home.items() if s is victim]:
                come_back(name, victim)
            stored = len(stored_moves(database, table))
            while len(stored_moves(database, table)) == stored:  # a bot or chance moves on
                assert time.monotonic() < killed_at + 20, "no process took the table over"
                if clients["ann"].last and clients["ann"].my_turn():
                    break  # (Ann is to play: nothing moves until she does)
                time.sleep(0.05)
            print(f"{how}: the table moved again {time.monotonic() - killed_at:.1f} s later")
            continue
        try:
            if ann.my_turn():
                st = ann.state
                ann.send({"type": "act", "state": st, "action": rng.choice(ann.view["legal"])})
                ann.wait(
                    lambda m, st=st: (
                        m["type"] in ("update", "error")
                        and m.get("state", st + 1) > st
                        or m["type"] == "error"
                    ),
                    15,
                )
        except (ConnectionClosed, TimeoutError):
            come_back("ann")
    assert killed and clients["ann"].view["phase"] == "over", "the game did not finish"
    moves = stored_moves(database, table)
    assert [i for i, _ in moves] == list(range(len(moves)))  # each number once, none missing
    assert len(moves) > seen + 1  # every acknowledged move is there, and more after it
    record = httpx.get(
        f"{[s for s in servers if s.proc.poll() is None][0].http}/api/tables/{table}/record"
    ).text
    final, _ = replay(parse_record(record))  # each move legal where it stands: none twice
    assert final.is_over and len(parse_record(record).moves) == len(moves)


def _ports_of(url: str, holder: str, servers: list[Server]) -> set[int]:
    """The port of the process named ``holder`` (each server says which it is)."""
    return {
        s.port
        for s in servers
        if s.proc.poll() is None
        and httpx.get(f"{s.http}/api/config").json().get("process") == holder
    }
