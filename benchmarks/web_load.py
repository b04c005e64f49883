"""Load benchmark for ``ninetynine serve``: many concurrent tables of bot clients.

Starts the server in a subprocess (SQLite in a temp dir, no bot delay), opens --tables
tables of two WebSocket clients each that play random legal moves, keeps them all open
for --seconds (a finished game is replaced by a new table); each client waits a random
think time (mean --think seconds, 0 = flat out) before its move. Prints the tables held,
moves per second and move latency (send -> the update acknowledging it) percentiles.

    .venv/bin/python benchmarks/web_load.py --tables 500 --seconds 30 --pin
    .venv/bin/python benchmarks/web_load.py --tables 500 --processes 2   # on PostgreSQL
    .venv/bin/python benchmarks/web_load.py --tables 500 --accounts      # signed in vs guests

With ``--accounts`` every other table seats two signed-in accounts (signed up before the
run, through the real passkey ceremony with the tests' software authenticator; their
tables rated, so each finished game writes its results and ratings), the rest two guests,
in the same run: the figures are given for each kind.

The load comes from one address, far above what the server allows one address by
default, so the server is started with those limits raised (``LOAD_LIMITS``). ``--pin``
puts the server on the first CPU and this client on the second, so that they do not
compete for one core.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import glob
import json
import os
import random
import resource
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import websockets

PREFIX = ["-m", "ninetynine.cli.main"]  # how the server is started (a profiler may wrap it)
LOAD_LIMITS = [
    f"--limit={name}=1000000"
    for name in (
        "tables_per_address",
        "tables_per_client",
        "requests_per_second",
        "requests_burst",
        "messages_per_second",
        "messages_burst",
        "connections_per_address",
        "sign_ups_per_hour",
        "sign_up_burst",
    )
]
ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.games = 0
        self.moves = 0  # every acknowledged move, warm-up included (for CPU per move)
        self.errors = 0
        self.held = 0
        self.max_held = 0
        self.measure_from = 0.0  # latencies before this (the ramp-up) are not counted


class Account:
    """A signed-in player: the headers its browser sends (the page's Origin, its session)."""

    def __init__(self, base: str, name: str) -> None:
        sys.path.insert(0, str(ROOT))  # the tests' software authenticator
        from tests.web.passkey import Authenticator, Device

        device = Device(base)
        try:
            device.sign_up(name, Authenticator())
            self.headers = {"Origin": base, "Cookie": f"nn_session={device.session}"}
        finally:
            device.close()


async def player(
    url: str,
    token: str,
    rng: random.Random,
    stats: Stats,
    stop: float,
    think: float,
    headers: dict[str, str] | None = None,
) -> bool:
    """Play one seat until the game ends (True) or time is up (False)."""
    async with websockets.connect(url, max_size=2**20, additional_headers=headers) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        pending: tuple[int, float] | None = None
        while time.monotonic() < stop:
            try:
                text = await asyncio.wait_for(ws.recv(), max(0.01, stop - time.monotonic()))
            except TimeoutError:
                return False
            msg = json.loads(text)
            if msg["type"] == "error":
                stats.errors += 1
                pending = None
                continue
            if msg["type"] not in ("sync", "update"):
                continue
            view = msg["view"]
            if pending and msg["state"] > pending[0]:
                stats.moves += 1
                if time.monotonic() > stats.measure_from:
                    stats.latencies.append(time.perf_counter() - pending[1])
                pending = None
            if view["phase"] == "over":
                return True
            if view["turn"] == view["seat"] and view["legal"] and pending is None:
                if think:  # a person's pause before playing
                    await asyncio.sleep(rng.uniform(0, 2 * think))
                pending = (msg["state"], time.perf_counter())
                await ws.send(
                    json.dumps(
                        {"type": "act", "state": msg["state"], "action": rng.choice(view["legal"])}
                    )
                )
    return False


async def table_loop(
    bases: list[str],
    rng: random.Random,
    stats: Stats,
    stop: float,
    client: httpx.AsyncClient,
    think: float,
    first: int,
    accounts: tuple[Account, Account] | None = None,
) -> None:
    """Tables one after another; the two players of a table use two different server
    processes when there are several (so every move crosses between processes). With
    ``accounts``, they are those two, signed in, at rated tables."""
    a, b = bases[first % len(bases)], bases[(first + 1) % len(bases)]
    heads: tuple[dict[str, str] | None, dict[str, str] | None] = (
        (None, None) if accounts is None else (accounts[0].headers, accounts[1].headers)
    )
    new = {"name": "A", "rules": "P", "players": 2} | ({} if accounts is None else {"rated": True})
    while time.monotonic() < stop:
        res = await client.post(f"{a}/api/tables", json=new, headers=heads[0])
        created = res.json()
        if res.status_code != 200:
            raise SystemExit(f"creating a table: {res.text}")
        joined = (
            await client.post(
                f"{b}/api/tables/{created['table']}/join", json={"name": "B"}, headers=heads[1]
            )
        ).json()
        stats.held += 1
        stats.max_held = max(stats.max_held, stats.held)
        try:
            done = await asyncio.gather(
                player(
                    f"{a.replace('http', 'ws')}/ws/{created['table']}",
                    created["token"],
                    rng,
                    stats,
                    stop,
                    think,
                    heads[0],
                ),
                player(
                    f"{b.replace('http', 'ws')}/ws/{created['table']}",
                    joined["token"],
                    rng,
                    stats,
                    stop,
                    think,
                    heads[1],
                ),
            )
        finally:
            stats.held -= 1
        if all(done):
            stats.games += 1


async def main_async(args: argparse.Namespace, ports: list[int]) -> dict[str, Stats]:
    """The run's figures by kind of table: ``guests``, and ``signed in`` with --accounts."""
    bases = [f"http://127.0.0.1:{port}" for port in ports]
    kinds = {"guests": Stats()}
    pairs: dict[int, tuple[Account, Account]] = {}
    if args.accounts:
        kinds["signed in"] = Stats()
        started = time.monotonic()
        for i in range(1, args.tables, 2):
            pairs[i] = (Account(bases[0], f"A{i}"), Account(bases[0], f"B{i}"))
        print(f"{2 * len(pairs)} accounts signed up in {time.monotonic() - started:.1f} s")
    limits = httpx.Limits(max_connections=200)
    async with httpx.AsyncClient(timeout=30, limits=limits) as client:
        start = time.monotonic()
        stop = start + args.warmup + args.seconds
        for stats in kinds.values():
            stats.measure_from = start + args.warmup
        tasks = []
        for i in range(args.tables):
            stats = kinds["signed in" if i in pairs else "guests"]
            tasks.append(
                asyncio.create_task(
                    table_loop(
                        bases, random.Random(i), stats, stop, client, args.think, i, pairs.get(i)
                    )
                )
            )
            if i % 50 == 49:
                await asyncio.sleep(0.05)  # ramp up
        await asyncio.gather(*tasks)
    return kinds


@contextlib.contextmanager
def throwaway_postgres(root: Path) -> Iterator[str]:
    """Debian's PostgreSQL, a new cluster in ``root`` on a free loopback port."""
    bindir = Path(sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))[-1]).parent
    data, sock = root / "pg", root / "sock"
    sock.mkdir()
    prefix = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
    if prefix:
        shutil.chown(root, "postgres")
        shutil.chown(sock, "postgres")
    port = free_port()
    subprocess.run(
        [
            *prefix,
            str(bindir / "initdb"),
            "-D",
            str(data),
            "-A",
            "trust",
            "-U",
            "postgres",
            "--no-sync",
        ],
        check=True,
        capture_output=True,
    )
    subprocess.run(
        [
            *prefix,
            str(bindir / "pg_ctl"),
            "-D",
            str(data),
            "-l",
            str(root / "log"),
            "-w",
            "-o",
            f"-p {port} -k {sock} -h 127.0.0.1 -F",
            "start",
        ],
        check=True,
        capture_output=True,
    )
    try:
        yield f"postgresql://postgres@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run(
            [*prefix, str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"],
            capture_output=True,
        )


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=500)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument(
        "--warmup", type=float, default=5, help="seconds to open the tables before measuring"
    )
    parser.add_argument(
        "--think",
        type=float,
        default=1.0,
        help="mean seconds a client waits before each move (0: flat out)",
    )
    parser.add_argument(
        "--pin", action="store_true", help="the server processes on CPU 0, this client on CPU 1"
    )
    parser.add_argument(
        "--database",
        help="a postgresql:// URL (default: SQLite in a "
        "temporary folder, or with --processes above 1 a throwaway "
        "PostgreSQL cluster started here)",
    )
    parser.add_argument(
        "--processes",
        type=int,
        default=1,
        help="server processes sharing the tables (PostgreSQL; default 1)",
    )
    parser.add_argument(
        "--accounts",
        action="store_true",
        help="every other table seats two signed-in accounts at a rated game (the rest guests)",
    )
    args = parser.parse_args()
    pin = ["taskset", "-c", "0"] if args.pin else []
    if args.pin:
        os.sched_setaffinity(0, {1})
    with tempfile.TemporaryDirectory() as tmp, contextlib.ExitStack() as stack:
        database = args.database or (
            stack.enter_context(throwaway_postgres(Path(tmp)))
            if args.processes > 1
            else str(Path(tmp) / "load.sqlite3")
        )
        ports = [free_port() for _ in range(args.processes)]
        servers = [
            subprocess.Popen(
                [
                    *pin,
                    sys.executable,
                    *PREFIX,
                    "serve",
                    "--port",
                    str(port),
                    "--database",
                    database,
                    "--bot-delay",
                    "0",
                    "--insecure-cookies",  # plain http on loopback
                    *LOAD_LIMITS,
                ],
                stdout=subprocess.DEVNULL,
            )
            for port in ports
        ]
        try:
            for port in ports:
                for _ in range(100):
                    try:
                        httpx.get(f"http://127.0.0.1:{port}/api/tables", timeout=1)
                        break
                    except httpx.TransportError:
                        time.sleep(0.1)
            kinds = asyncio.run(main_async(args, ports))
            elapsed = args.seconds
            server_cpu = sum(cpu_seconds(server.pid) for server in servers)
        finally:
            for server in servers:
                server.terminate()
                server.wait(10)
    print(f"{args.processes} server process(es) on {database.split('@')[-1]}")
    moves = sum(stats.moves for stats in kinds.values())
    client_cpu = resource.getrusage(resource.RUSAGE_SELF)
    print(
        f"think time {args.think} s mean; tables requested {args.tables}; CPU: server "
        f"{server_cpu:.1f} s in all ({server_cpu / max(1, moves) * 1e6:.0f} us per move), "
        f"this client {client_cpu.ru_utime + client_cpu.ru_stime:.1f} s;"
        f" load average now {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs"
    )
    for kind, stats in kinds.items():
        lat = sorted(stats.latencies)
        if len(lat) < 2:
            print(f"{kind}: no moves were made")
            return 1
        p = statistics.quantiles(lat, n=100)
        print(
            f"{kind}: tables held at once {stats.max_held}, games finished {stats.games}, "
            f"errors {stats.errors}; moves {len(lat)} in {elapsed:.1f} s (after "
            f"{args.warmup} s warm-up): {len(lat) / elapsed:.0f} moves/s; move latency: "
            f"p50 {p[49] * 1000:.1f} ms, p95 {p[94] * 1000:.1f} ms, max {lat[-1] * 1000:.1f} ms"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
