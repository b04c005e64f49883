"""Restart benchmark for ``ninetynine serve``: how soon a server killed with ``kill -9``
answers again when its database holds many live tables.

Fills a database (SQLite in a temp dir, and a throwaway PostgreSQL cluster) with --tables
live three-player tables of --moves random legal moves each (two people, one bot), starts
the server, opens the players' pages of --attended of those tables (so the dead process
held their leases and presence), kills it with SIGKILL and starts it again. Each round
times, from the new process's start: ``GET /api/config`` answering (and the CPU time the
process had used by then, which a loaded machine changes less than the wall time), the
first ``sync`` of an attended table, and a move at that table played by the server after
the restart while its two people play their turns (its bot or a chance move: the table is
driven again). Prints the median and the spread over --rounds rounds.

    .venv/bin/python benchmarks/web_restart.py --tables 200 --rounds 5
    .venv/bin/python benchmarks/web_restart.py --backend postgres --tables 1000
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import secrets
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import psycopg
import websockets
from web_load import cpu_seconds, free_port, throwaway_postgres

from ninetynine.records.match import Chance, Match
from ninetynine.records.record import move_text
from ninetynine.rules.presets import load_rules
from ninetynine.web.storage import open_storage
from ninetynine.web.table.seating import Seat, hash_token

RULES = "P"  # three players; a game is about 160 moves


@dataclass
class Live:
    """One stored table and the tokens of its two people."""

    id: str
    tokens: list[str]
    moves: list[str]


def make_tables(count: int, low: int, high: int, rng: random.Random) -> list[Live]:
    """Tables in the middle of a game: random legal moves, never the last one."""
    rules = load_rules(RULES)
    tables = []
    for n in range(count):
        match = Match.new(rules, 3, chance=Chance.by_move(n), auto_chance=False)
        moves: list[str] = []
        want = rng.randint(low, high)
        while len(moves) < want:
            state = match.state
            if state.is_chance:
                seat, move = None, match.draw()
            else:
                seat, move = state.current_seat, rng.choice(state.legal_actions())
            match.play(move, seat)
            if match.state.is_over:  # the table stays live: stop one move short of the end
                break
            moves.append(move_text(seat, move))
        tables.append(Live(f"bench{n:05d}", [secrets.token_urlsafe(24) for _ in range(2)], moves))
    return tables


def meta_of(live: Live, created: float) -> str:
    seats = [
        Seat("Ann", hash_token(live.tokens[0])),
        Seat("Bob", hash_token(live.tokens[1])),
        Seat("Easy bot", bot="easy"),
    ]
    return json.dumps(
        {
            "rules": RULES,
            "players": 3,
            "first": 0,
            "seats": [s.stored() for s in seats],
            "clock": None,
            "created": created,
            "next": None,
            "finished": False,
            "public": True,
            "creator": None,
        }
    )


def fill(database: str, tables: list[Live]) -> None:
    """Write the tables in bulk (the schema is the server's own)."""
    open_storage(database).close()
    now = time.time()
    tables_rows = [(t.id, meta_of(t, now + i)) for i, t in enumerate(tables)]
    move_rows = [(t.id, i, m) for t in tables for i, m in enumerate(t.moves)]
    if database.startswith("postgresql://"):
        with psycopg.connect(database) as pg, pg.cursor() as cur:
            cur.execute("TRUNCATE nn_tables, nn_moves, nn_leases, nn_presence, nn_processes")
            cur.executemany("INSERT INTO nn_tables (id, meta) VALUES (%s, %s)", tables_rows)
            cur.executemany(
                "INSERT INTO nn_moves (table_id, idx, move) VALUES (%s, %s, %s)", move_rows
            )
        return
    with contextlib.closing(sqlite3.connect(database)) as db, db:
        db.execute("DELETE FROM nn_tables")
        db.execute("DELETE FROM nn_moves")
        db.executemany("INSERT INTO nn_tables (id, meta) VALUES (?, ?)", tables_rows)
        db.executemany("INSERT INTO nn_moves (table_id, idx, move) VALUES (?, ?, ?)", move_rows)


def start(database: str, port: int, log: Path) -> subprocess.Popen[bytes]:
    with open(log, "ab") as err:
        return subprocess.Popen(
            [
                sys.executable,
                "-m",
                "ninetynine.cli.main",
                "serve",
                "--port",
                str(port),
                "--database",
                database,
                "--bot-delay",
                "0",
                "--limit",
                "connections_per_address=100000",
            ],
            stdout=subprocess.DEVNULL,
            stderr=err,
        )


def wait_config(base: str, proc: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{base}/api/config", timeout=2).status_code == 200:
                return
        except httpx.TransportError:
            pass
        if proc.poll() is not None:
            raise SystemExit(f"the server died: {log.read_text()[-2000:]}")
        time.sleep(0.01)
    raise SystemExit("the server did not answer in 300 s")


async def sync_then_move(ws: str, tokens: list[str]) -> tuple[float, float | None]:
    """Both people come back and play their turns: when the first ``sync`` came, and when
    the server moved (its bot, or a chance move), both from perf_counter; None for the
    move if the game ended first (the bot was out, or played to the end before the kill)."""
    queue: asyncio.Queue[tuple[int, dict[str, Any]]] = asyncio.Queue()

    async def read(seat: int, conn: websockets.ClientConnection) -> None:
        async for text in conn:
            await queue.put((seat, json.loads(text)))

    async with (
        websockets.connect(ws, max_size=None) as ann,
        websockets.connect(ws, max_size=None) as bob,
    ):
        conns = [ann, bob]
        readers = [asyncio.create_task(read(i, c)) for i, c in enumerate(conns)]
        for conn, token in zip(conns, tokens, strict=True):
            await conn.send(json.dumps({"type": "hello", "token": token}))
        synced, played = 0.0, set()  # the state ids at which these two played
        while True:
            seat, msg = await asyncio.wait_for(queue.get(), 120)
            if msg["type"] == "sync" and not synced:
                synced = time.perf_counter()
            if (msg.get("view") or {}).get("phase") == "over":  # (the bot was out)
                for reader in readers:
                    reader.cancel()
                return synced, None
            if (
                msg["type"] == "update"
                and msg["state"] - 1 not in played
                and any(e["kind"] not in ("Returned", "Joined") for e in msg["events"])
            ):
                for reader in readers:
                    reader.cancel()
                return synced, time.perf_counter()
            view = msg.get("view") or {}
            if (
                "state" in msg
                and view.get("turn") == view.get("seat")
                and view.get("legal")
                and msg["state"] not in played
            ):
                played.add(msg["state"])
                await conns[seat].send(
                    json.dumps({"type": "act", "state": msg["state"], "action": view["legal"][0]})
                )


async def attend(ws: str, tables: list[Live]) -> list[websockets.ClientConnection]:
    """Open Ann's page at each table and wait for its sync (the process drives them)."""
    conns = []
    for live in tables:
        conn = await websockets.connect(f"{ws}/ws/{live.id}", max_size=None)
        await conn.send(json.dumps({"type": "hello", "token": live.tokens[0]}))
        while json.loads(await conn.recv())["type"] != "sync":
            pass
        conns.append(conn)
    return conns


def one_round(
    database: str, tables: list[Live], attended: int, log: Path, rng: random.Random
) -> list[float]:
    port = free_port()
    base, ws = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"
    proc = start(database, port, log)
    try:
        wait_config(base, proc, log)
        watched = rng.sample(tables, attended)
        loop = asyncio.new_event_loop()
        conns = loop.run_until_complete(attend(ws, watched))
        time.sleep(1.5)  # leases and presence stored, a few heartbeats
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(10)
        for conn in conns:
            with contextlib.suppress(Exception):
                loop.run_until_complete(conn.close())
        started = time.perf_counter()
        proc = start(database, port, log)
        wait_config(base, proc, log)
        config, cpu = time.perf_counter() - started, cpu_seconds(proc.pid)
        first_sync, moved = 0.0, None
        for target in watched:
            synced, moved = loop.run_until_complete(
                sync_then_move(f"{ws}/ws/{target.id}", target.tokens)
            )
            first_sync = first_sync or synced
            if moved is not None:
                break
        loop.close()
        assert moved is not None, "every attended game ended without a server move"
        return [config, cpu, first_sync - started, moved - started]
    finally:
        proc.kill()
        proc.wait(10)


def spread(values: list[float]) -> str:
    return (
        f"median {statistics.median(values):6.2f} s  (min {min(values):.2f}, max {max(values):.2f})"
    )


def bench(name: str, database: str, args: argparse.Namespace, root: Path) -> None:
    rng = random.Random(args.seed)
    tables = make_tables(args.tables, args.moves[0], args.moves[1], rng)
    results: list[list[float]] = []
    log = root / f"{name}.log"
    for _ in range(args.rounds):
        fill(database, tables)  # every round starts from the same tables
        results.append(one_round(database, tables, args.attended, log, rng))
    moves = sum(len(t.moves) for t in tables)
    print(
        f"{name}: {args.tables} live tables, {moves} moves, {args.attended} attended, "
        f"{args.rounds} rounds"
    )
    for i, what in enumerate(
        (
            "GET /api/config answers",
            "  its CPU time by then",
            "first sync of a table",
            "the table moves again",
        )
    ):
        print(f"  {what:26} {spread([r[i] for r in results])}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--moves", type=int, nargs=2, default=(50, 200), metavar=("MIN", "MAX"))
    parser.add_argument(
        "--attended",
        type=int,
        default=10,
        help="tables with a player's page open when the server is killed",
    )
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--backend", choices=("sqlite", "postgres", "both"), default="both")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp, contextlib.ExitStack() as stack:
        root = Path(tmp)
        if args.backend in ("sqlite", "both"):
            bench("SQLite", str(root / "web.sqlite3"), args, root)
        if args.backend in ("postgres", "both"):
            pg = Path(stack.enter_context(tempfile.TemporaryDirectory()))  # its owner's
            bench("PostgreSQL", stack.enter_context(throwaway_postgres(pg)), args, root)
    return 0


if __name__ == "__main__":
    sys.exit(main())
