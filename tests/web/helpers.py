"""A real uvicorn on loopback in a thread, a fake clock, and a WebSocket test client."""

from __future__ import annotations

import contextlib
import json
import random
import socket
import threading
import time
from collections.abc import Callable
from typing import Any

import httpx
import uvicorn
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from ninetynine.web.app import create_app
from ninetynine.web.hangup import uvicorn_options
from ninetynine.web.lobby import Lobby
from ninetynine.web.settings import Settings
from ninetynine.web.storage import Storage


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ServerThread:
    """``ninetynine.web`` served by uvicorn on 127.0.0.1 in a background thread."""

    def __init__(
        self, settings: Settings, storage: Storage | None = None, port: int | None = None
    ) -> None:
        self.settings = settings
        self.port = free_port() if port is None else port  # a restart: the same origin
        self.app = create_app(settings, storage)
        config = uvicorn.Config(
            self.app,
            host="127.0.0.1",
            port=self.port,
            log_level="warning",
            lifespan="on",
            **uvicorn_options(settings.limits),
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def lobby(self) -> Lobby:
        return self.app.state.lobby  # type: ignore[no-any-return]

    def start(self) -> ServerThread:
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the test server did not start")
            time.sleep(0.01)
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)

    def post(self, path: str, body: dict[str, Any]) -> httpx.Response:
        return httpx.post(self.url + path, json=body, timeout=5)

    def get(self, path: str) -> httpx.Response:
        return httpx.get(self.url + path, timeout=5)

    def create(self, **body: Any) -> dict[str, Any]:
        res = self.post("/api/tables", body)
        assert res.status_code == 200, res.text
        return res.json()  # type: ignore[no-any-return]

    def join(self, table: str, name: str) -> dict[str, Any]:
        res = self.post(f"/api/tables/{table}/join", {"name": name})
        assert res.status_code == 200, res.text
        return res.json()  # type: ignore[no-any-return]

    def client(self, table: str, token: str | None) -> Client:
        return Client(f"ws://127.0.0.1:{self.port}/ws/{table}", token)


class Client:
    """A WebSocket client that keeps every frame it received (raw text) for leak scans."""

    def __init__(
        self, url: str, token: str | None, hello: bool = True, cookie: str | None = None
    ) -> None:
        # entered as a context manager: the form every websockets version accepts
        headers = {"Cookie": f"nn_session={cookie}"} if cookie else None
        self.ws: ClientConnection = connect(
            url, open_timeout=5, additional_headers=headers
        ).__enter__()
        self.frames: list[str] = []
        self.last: dict[str, Any] | None = None  # the latest sync/update
        if hello:
            with contextlib.suppress(ConnectionClosed):  # refused before it (no such table)
                self.send({"type": "hello", "token": token})

    def send(self, msg: Any) -> None:
        self.ws.send(msg if isinstance(msg, str) else json.dumps(msg))

    def recv(self, timeout: float = 5) -> dict[str, Any]:
        text = self.ws.recv(timeout=timeout)
        assert isinstance(text, str)
        self.frames.append(text)
        msg = json.loads(text)
        if msg.get("type") in ("sync", "update"):
            self.last = msg
        return msg  # type: ignore[no-any-return]

    def wait(self, pred: Callable[[dict[str, Any]], bool], timeout: float = 10) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("no matching message")
            msg = self.recv(left)
            if pred(msg):
                return msg

    def drain(self, quiet: float = 0.05) -> None:
        """Read until nothing arrives for ``quiet`` seconds."""
        while True:
            try:
                self.recv(quiet)
            except TimeoutError:
                return

    def error(self, timeout: float = 5) -> dict[str, Any]:
        return self.wait(lambda m: m["type"] == "error", timeout)

    @property
    def view(self) -> dict[str, Any]:
        assert self.last is not None
        return self.last["view"]  # type: ignore[no-any-return]

    @property
    def state(self) -> int:
        assert self.last is not None
        return int(self.last["state"])

    def my_turn(self) -> bool:
        v = self.view
        return v["phase"] != "over" and v["turn"] == v["seat"] and bool(v["legal"])

    def close(self) -> None:
        self.ws.close()


def play_game(clients: list[Client], rng: random.Random, max_moves: int = 20000) -> None:
    """Every client plays random legal moves until the game is over."""
    for c in clients:
        if c.last is None:
            c.wait(lambda m: m["type"] == "sync")
    stalled_since = time.monotonic()
    for _ in range(max_moves):
        for c in clients:
            c.drain(0.002)
        if any(c.view["phase"] == "over" for c in clients):
            for c in clients:
                if c.view["phase"] != "over":
                    c.wait(lambda m: m["type"] == "update" and m["view"]["phase"] == "over")
            return
        mover = next((c for c in clients if c.my_turn()), None)
        if mover is None:  # a bot or chance is moving, or an update is still on its way
            if time.monotonic() > stalled_since + 10:
                raise AssertionError("nobody can move: the game stalled")
            for c in clients:
                c.drain(0.02)
            continue
        stalled_since = time.monotonic()
        state = mover.state
        mover.send({"type": "act", "state": state, "action": rng.choice(mover.view["legal"])})
        msg = mover.wait(
            lambda m, st=state: m["type"] == "error" or (m["type"] == "update" and m["state"] > st)
        )
        assert msg["type"] != "error", msg
    raise AssertionError("the game did not end")
