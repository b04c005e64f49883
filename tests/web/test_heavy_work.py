"""Heavy work cannot starve a table: a real ``ninetynine serve`` process on loopback, a bot
table whose pace is measured alone and then while the coach works on huge tables and long
reviews run, or while a crowd of sockets floods the server with refused messages."""

from __future__ import annotations

import asyncio
import contextlib
import json
import multiprocessing
import os
import random
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets

from ninetynine import Chance, Match, load_rules
from ninetynine.bots import ask, make_bot
from ninetynine.records.record import format_record
from tests.web.helpers import Client, free_port

ROOMY = [
    f"--limit={name}=100000"
    for name in (
        "requests_per_second",
        "requests_burst",
        "messages_per_second",
        "messages_burst",
        "tables_per_address",
        "tables_per_client",
    )
]
WORKER_MEMORY = 512  # MiB, the cap these tests give the workers


class Server:
    """``ninetynine serve`` in its own process (the GIL of the tests is not the server's)."""

    def __init__(self, tmp: Path, *extra: str) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = tmp / "server.log"
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "ninetynine.cli.main",
                "serve",
                "--port",
                str(self.port),
                "--database",
                str(tmp / "web.sqlite3"),
                "--bot-delay",
                "0",
                *ROOMY,
                f"--limit=worker_memory={WORKER_MEMORY}",
                *extra,
            ],
            stdout=subprocess.DEVNULL,
            stderr=self.log.open("ab"),
        )
        deadline = time.monotonic() + 30
        while True:
            try:
                httpx.get(self.url + "/api/config", timeout=1)
                return
            except httpx.TransportError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    self.stop()
                    log = self.log.read_text()
                    raise RuntimeError(f"the server did not start: {log}") from None
                time.sleep(0.05)

    def create(self, **body: Any) -> dict[str, Any]:
        res = httpx.post(self.url + "/api/tables", json=body, timeout=10)
        assert res.status_code == 200, res.text
        return res.json()  # type: ignore[no-any-return]

    def client(self, table: str, token: str | None) -> Client:
        return Client(f"ws://127.0.0.1:{self.port}/ws/{table}", token)

    def workers_rss(self) -> list[int]:
        """Resident memory (bytes) of each process under the server (its workers)."""
        parent: dict[int, int] = {}
        for stat in Path("/proc").glob("[0-9]*/stat"):
            with contextlib.suppress(OSError, ValueError, IndexError):
                fields = stat.read_text().rsplit(")", 1)[1].split()
                parent[int(stat.parent.name)] = int(fields[1])

        def under(pid: int) -> bool:
            while pid in parent and pid != self.proc.pid:
                pid = parent[pid]
            return pid == self.proc.pid

        found = []
        for pid in parent:
            if pid != self.proc.pid and under(pid):
                with contextlib.suppress(OSError):
                    status = Path(f"/proc/{pid}/status").read_text()
                    found += [
                        int(line.split()[1]) * 1024
                        for line in status.splitlines()
                        if line.startswith("VmRSS:")
                    ]
        return found

    def stop(self) -> None:
        self.proc.kill()
        self.proc.wait()


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[Any]:
    servers: list[Server] = []

    def start(*extra: str) -> Server:
        servers.append(Server(tmp_path, *extra))
        return servers[-1]

    yield start
    for server in servers:
        server.stop()


class BotTable:
    """A person (this test, answering at once) and two ``hard`` bots: the table whose pace
    is measured, in moves a second, and whose frames are kept."""

    def __init__(self, server: Server) -> None:
        created = server.create(players=3, bots={"2": "hard", "3": "hard"}, rules="K")
        self.server, self.token, self.table = server, created["token"], created["table"]
        self.me = server.client(self.table, self.token)
        self.me.wait(lambda m: m["type"] == "sync")
        self.frames: list[str] = []

    def pace(self, seconds: float) -> float:
        """Moves a second over ``seconds`` (a finished game goes on as its rematch)."""
        moves, stop = 0, time.monotonic() + seconds
        last = self.me.state
        while time.monotonic() < stop:
            with contextlib.suppress(TimeoutError):
                self.me.recv(0.05)
            moves += max(0, self.me.state - last)
            last = self.me.state
            if self.me.view["phase"] == "over":
                self.me.send({"type": "rematch"})
                self.table = self.me.wait(lambda m: m["type"] == "rematch")["table"]
                self.frames += self.me.frames
                self.me.close()
                self.me = self.server.client(self.table, self.token)
                last = self.me.wait(lambda m: m["type"] == "sync")["state"]
            elif self.me.my_turn():
                self.me.send(
                    {"type": "act", "state": self.me.state, "action": self.me.view["legal"][0]}
                )
                self.me.wait(lambda m: m["type"] in ("update", "error"))
        return moves / seconds

    def notes(self) -> list[str]:
        """The kinds of every event and server note the table was told."""
        return [
            e.get("kind", "")
            for f in self.frames + self.me.frames
            for e in json.loads(f).get("events", [])
        ]


def long_record(lives: int) -> str:
    """A real two-player game of P at ``lives`` pennies, played by heuristic bots."""
    rules = load_rules({"preset": "P", "rules": {"lives": lives}})
    match = Match.new(rules, 2, chance=Chance.by_move(11))
    bot, rng = make_bot("heuristic"), random.Random(3)
    while not match.is_over:
        seat = match.state.current_seat
        assert seat is not None
        match.play(ask(bot, match.view(seat), rng), seat)
    return format_record(match.record(), match.state)


def test_the_coach_and_reviews_cannot_starve_a_bot_table(serve: Any) -> None:
    """Two coach requests on 12-seat tables of 20 lives (an odds table of 2x10^8 entries
    before its cap) and two long reviews, all at once: the bot table elsewhere keeps its
    pace, no seat is downgraded, and the workers stay under their memory cap."""
    server = serve("--limit=review_playouts=3000", "--limit=review_seconds=600")
    table = BotTable(server)
    table.pace(1.0)  # warm: the bots' first searches
    alone = table.pace(5.0)
    huge = {
        "house_rules": "[rules]\nlives = 20\nbig_table_lives = 20\nplayers_max = 12\n",
        "players": 12,
        "bots": {str(seat): "easy" for seat in range(2, 13)},
    }
    coached = []
    for _ in range(2):
        created = server.create(**huge)
        player = server.client(created["table"], created["token"])
        player.wait(lambda m, p=player: m["type"] in ("sync", "update") and p.my_turn(), 30)
        player.send({"type": "coach", "state": player.state})
        coached.append(player)
    record = long_record(12)
    reviews = [
        threading.Thread(
            target=lambda: httpx.post(
                server.url + "/api/review", json={"record": record, "seat": 1}, timeout=600
            ),
            daemon=True,
        )
        for _ in range(2)
    ]
    for review in reviews:
        review.start()
    time.sleep(1.0)  # the work is under way
    rss = server.workers_rss()
    busy = table.pace(5.0)
    rss += server.workers_rss()
    print(
        f"bot table: {alone:.1f} moves/s alone, {busy:.1f} while the coach and reviews "
        f"run; workers' memory {max(rss, default=0) >> 20} MiB"
    )
    assert busy >= 0.7 * alone, (alone, busy)
    assert not {"BotReplaced", "TimedOut"} & set(table.notes())
    summary = httpx.get(f"{server.url}/api/tables/{table.table}", timeout=5).json()
    assert [s["bot"] for s in summary["seats"][1:]] == ["hard", "hard"]
    assert len(rss) >= 2 and max(rss) < WORKER_MEMORY << 20
    for player in coached:  # the coach answered, saying its game figures are estimated
        answer = player.wait(lambda m: m["type"] in ("coach", "error"), 60)
        assert answer["type"] == "coach", answer
        assert "estimated" in answer["note"]


async def _flood(url: str, sockets: int, messages: int, stop: float) -> list[str]:
    """``sockets`` connections from this address that never read, each sending refused
    messages as fast as it can; what became of each (its close code, or why it failed)."""

    async def one() -> str:
        try:
            async with websockets.connect(url, open_timeout=30, max_queue=None) as ws:
                await ws.send(json.dumps({"type": "hello"}))
                for i in range(messages):
                    if time.monotonic() > stop:
                        break
                    await ws.send(json.dumps({"type": "junk", "n": i}))
                await ws.wait_closed()
                # (no close frame came, 1006 to websockets: the server hung up on a flood)
                rcvd = ws.protocol.close_rcvd
                return str(rcvd.code) if rcvd else "closed"
        except websockets.ConnectionClosed as e:
            return str(e.rcvd.code if e.rcvd else "closed")
        except Exception as e:  # noqa: BLE001 (counted, not raised: the test says what)
            return type(e).__name__

    return list(await asyncio.gather(*(one() for _ in range(sockets))))


def test_a_flood_from_unread_sockets_leaves_another_table_at_its_pace(
    serve: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """150 sockets of one address, none reading, each flooding refused messages: those
    without a seat beyond their share are refused at once, the rest are closed after a few
    refusals, and a bot table elsewhere keeps its pace."""
    server = serve()
    table = BotTable(server)
    table.pace(1.0)
    alone = table.pace(4.0)
    watched = server.create(players=2, bots={"2": "easy"})
    url = f"ws://127.0.0.1:{server.port}/ws/{watched['table']}"
    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parents[2]))  # for the child
    context = multiprocessing.get_context("spawn")  # the attacker is a process of its own
    results = context.Queue()
    crowd = context.Process(target=flood, args=(url, 150, 2000, 20.0, results), daemon=True)
    crowd.start()
    assert results.get(timeout=60) == "ready"  # its imports are not the flood's cost
    busy = table.pace(4.0)
    outcome: list[str] = results.get(timeout=60)
    crowd.join(10)
    after = table.pace(4.0)
    print(
        f"bot table: {alone:.1f} moves/s alone, {busy:.1f} during the flood, {after:.1f} "
        f"after it; sockets ended with {sorted(set(outcome))}"
    )
    # alone before and after (A-B-A): the machine's own drift over the test (other work
    # on a small shared one) is not the flood's. Measured on a 2-core machine, where the
    # handshakes of 150 sockets share the cores with the table's processes: 0.65 to 0.75 of
    # the pace alone; with the refusals' hang-up off (refusals_per_connection=100000) the
    # table starved, 0.08 to 0.16. Half the pace sits clear of both.
    assert busy >= 0.5 * (alone + after) / 2, (alone, busy, after)
    assert len(outcome) == 150
    # each was closed for what it sent (4009), or refused over the share of sockets
    # without a seat (4000) while 20 others were open; the server hangs up on them at
    # once, so a flooding client may lose the close frame with the rest ("closed")
    assert set(outcome) <= {"4009", "4000", "4008", "closed"}, outcome


def flood(url: str, sockets: int, messages: int, seconds: float, results: Any) -> None:
    """The attacker's process: :func:`_flood`, its outcome put on ``results``. It runs at
    the lowest priority: an attacker's own CPU is on its machine, not the server's, and on
    a small test machine it would otherwise be counted against the server."""
    os.nice(19)
    results.put("ready")
    results.put(asyncio.run(_flood(url, sockets, messages, time.monotonic() + seconds)))
