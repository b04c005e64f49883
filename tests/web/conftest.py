"""Fixtures for the web tests: a server on loopback with a fake clock, and PostgreSQL."""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from ninetynine.web.tables import Settings
from tests.web.helpers import FakeClock, ServerThread, free_port


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def make_server(tmp_path: Path, clock: FakeClock) -> Iterator[Callable[..., ServerThread]]:
    servers: list[ServerThread] = []

    def make(**overrides: object) -> ServerThread:
        options: dict[str, object] = {
            "database": str(tmp_path / f"web{len(servers)}.sqlite3"), "grace": 30.0,
            "bot_delay": 0.0, "tick": 0.02, "clock": clock, "seed": 7}
        options.update(overrides)
        server = ServerThread(Settings(**options)).start()  # type: ignore[arg-type]
        servers.append(server)
        return server

    yield make
    for server in servers:
        server.stop()


@pytest.fixture
def server(make_server: Callable[..., ServerThread]) -> ServerThread:
    return make_server()


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """A throwaway PostgreSQL cluster (Debian's postgresql) on a free loopback port."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if not found:
        pytest.fail("PostgreSQL is not installed: run scripts/setup-system.sh (as root)")
    bindir = Path(found[-1]).parent
    root = Path(tempfile.mkdtemp(prefix="nn-pg-"))
    data, sock = root / "data", root / "sock"
    sock.mkdir()
    as_root = os.geteuid() == 0
    prefix = ["runuser", "-u", "postgres", "--"] if as_root else []
    if as_root:
        shutil.chown(root, "postgres")
        shutil.chown(sock, "postgres")
    port = free_port()
    log = root / "log"
    subprocess.run([*prefix, str(bindir / "initdb"), "-D", str(data), "-A", "trust",
                    "-U", "postgres", "--no-sync"], check=True, capture_output=True)
    subprocess.run([*prefix, str(bindir / "pg_ctl"), "-D", str(data), "-l", str(log), "-w",
                    "-o", f"-p {port} -k {sock} -h 127.0.0.1 -F", "start"],
                   check=True, capture_output=True)
    try:
        yield f"postgresql://postgres@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run([*prefix, str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate",
                        "stop"], capture_output=True)
        shutil.rmtree(root, ignore_errors=True)
