"""Fixtures for the web tests: a server on loopback with a fake clock, and PostgreSQL."""

from __future__ import annotations

import contextlib
import glob
import os
import random
import shutil
import site
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import psycopg
import pytest
from playwright.sync_api import Browser

import ninetynine
from ninetynine.web.limits import Limits
from ninetynine.web.settings import Settings
from tests.browser import launch
from tests.web.helpers import FakeClock, ServerThread, free_port
from tests.web.passkey import Device

# Tests make many tables from one address quickly; tests/web/test_security.py checks the
# default limits themselves.
ROOMY = Limits(
    requests_per_second=1000,
    requests_burst=1000,
    tables_per_address=1000,
    tables_per_client=1000,
    messages_per_second=1000,
    messages_burst=1000,
    unseated_per_address=1000,
    refusals_per_connection=1000,
    sign_ups_per_hour=1000,
    sign_up_burst=1000,
    sign_ins_per_minute=1000,
    sign_in_burst=1000,
)


# No request may make the server read a file (a record's rules naming "/etc/passwd", a
# house-rules upload, a position...): while the web tests run, every file the server's
# threads open is checked against its own files (the package, Python's libraries, the
# tests' databases and caches); anything else fails the test that caused it. An audit
# hook sees every open (builtins.open, Path.read_text, os.open, io.open_code) where a
# monkeypatched ``open`` would miss some.
SERVER_FILES = tuple(
    str(Path(p).resolve())
    for p in {
        Path(ninetynine.__file__).parent,
        sys.prefix,
        sys.base_prefix,
        sys.exec_prefix,
        tempfile.gettempdir(),
        "/dev/null",
        "/dev/urandom",
        "/proc/self",
        "/sys/fs/cgroup",
        "/etc/localtime",
        "/usr/share/zoneinfo",
        "/etc/ssl",
        "/usr/lib/ssl",
        "/etc/mime.types",
        *site.getsitepackages(),
    }
)
_opened_outside: list[str] = []
_auditing = [False]


def _audit(event: str, args: tuple[object, ...]) -> None:
    if event != "open" or not _auditing[0] or threading.current_thread() is threading.main_thread():
        return
    path = args[0]
    if isinstance(path, int) or path is None:
        return  # a descriptor already open
    text = os.path.realpath(os.fsdecode(path))  # type: ignore[arg-type]
    if not text.startswith(SERVER_FILES):
        _opened_outside.append(f"{text} (by thread {threading.current_thread().name})")


sys.addaudithook(_audit)


@pytest.fixture(autouse=True)
def no_file_from_a_request() -> Iterator[None]:
    _opened_outside.clear()
    _auditing[0] = True
    try:
        yield
    finally:
        _auditing[0] = False
    assert not _opened_outside, f"the server opened files of its host: {_opened_outside}"


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Debian's Chromium, headless, driven by Playwright."""
    yield from launch()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def make_server(tmp_path: Path, clock: FakeClock) -> Iterator[Callable[..., ServerThread]]:
    servers: list[ServerThread] = []

    def make(**overrides: object) -> ServerThread:
        options: dict[str, object] = {
            "database": str(tmp_path / f"web{len(servers)}.sqlite3"),
            "grace": 30.0,
            "bot_delay": 0.0,
            "tick": 0.02,
            "clock": clock,
            "seed": 7,
            "limits": ROOMY,
        }
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


class Postgres:
    """A throwaway PostgreSQL cluster (Debian's postgresql) on a free loopback port."""

    def __init__(self) -> None:
        found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
        if not found:
            pytest.fail("PostgreSQL is not installed: run scripts/setup-system.sh (as root)")
        self.bindir = Path(found[-1]).parent
        self.root = Path(tempfile.mkdtemp(prefix="nn-pg-"))
        self.data, sock = self.root / "data", self.root / "sock"
        sock.mkdir()
        as_root = os.geteuid() == 0
        self.prefix = ["runuser", "-u", "postgres", "--"] if as_root else []
        if as_root:
            shutil.chown(self.root, "postgres")
            shutil.chown(sock, "postgres")
        self.port = free_port()
        self.options = f"-p {self.port} -k {sock} -h 127.0.0.1 -F"
        subprocess.run(
            [
                *self.prefix,
                str(self.bindir / "initdb"),
                "-D",
                str(self.data),
                "-A",
                "trust",
                "-U",
                "postgres",
                "--no-sync",
            ],
            check=True,
            capture_output=True,
        )
        self.start()
        self.url = f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def pg_ctl(self, *args: str) -> None:
        subprocess.run(
            [*self.prefix, str(self.bindir / "pg_ctl"), "-D", str(self.data), *args],
            check=True,
            capture_output=True,
        )

    def start(self) -> None:
        self.pg_ctl("-l", str(self.root / "log"), "-w", "-o", self.options, "start")

    def stop(self, mode: str = "fast") -> None:
        self.pg_ctl("-m", mode, "-w", "stop")


@pytest.fixture(scope="session")
def postgres() -> Iterator[Postgres]:
    cluster = Postgres()
    try:
        yield cluster
    finally:
        with contextlib.suppress(subprocess.CalledProcessError):
            cluster.stop("immediate")
        shutil.rmtree(cluster.root, ignore_errors=True)


@pytest.fixture(scope="session")
def postgres_url(postgres: Postgres) -> str:
    return postgres.url


@pytest.fixture
def database(postgres: Postgres) -> Iterator[str]:
    """A fresh database of the test cluster for each test."""
    name = f"test_{random.randrange(10**9)}"
    with psycopg.connect(postgres.url, autocommit=True) as db:
        db.execute(f"CREATE DATABASE {name}")
    yield postgres.url.rsplit("/", 1)[0] + f"/{name}"
    with psycopg.connect(postgres.url, autocommit=True) as db:
        db.execute(f"DROP DATABASE {name} WITH (FORCE)")


@pytest.fixture
def wall() -> FakeClock:
    """The accounts' wall clock (expiry times every process reads), for ``Settings.wall``."""
    return FakeClock()


@pytest.fixture
def devices(server: ServerThread) -> Iterator[Callable[..., Device]]:
    """Browsers (cookie jars) at the test module's ``server``: ``devices()`` sends this
    server's Origin, ``devices(origin)`` another one ("" for none)."""
    made: list[Device] = []

    def make(origin: str | None = None) -> Device:
        made.append(Device(server.url, origin))
        return made[-1]

    yield make
    for device in made:
        device.close()
