"""Fuzzing the server: Schemathesis on every HTTP operation of its OpenAPI document, and
Hypothesis on the WebSocket messages. No input may get a 5xx, a traceback in the server's
log, or an answer (status, content type, body, frame) that its schema does not describe
(src/ninetynine/web/schema.py)."""

from __future__ import annotations

import contextlib
import dataclasses
import json
import logging
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import jsonschema_rs
import pytest
import schemathesis
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)
from websockets.exceptions import ConnectionClosed

from ninetynine.web.schema import FRAME_SCHEMA, ROUTES
from ninetynine.web.settings import Settings
from tests.web.conftest import ROOMY
from tests.web.helpers import Client, FakeClock, ServerThread, play_game

FUZZ = settings(
    max_examples=25,
    deadline=None,
    database=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
]


class Tracebacks(logging.Handler):
    """Collects what the server logs at warning and above (a failed handler, a crash)."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

    def lines(self) -> list[str]:
        return [self.format(r) for r in self.records]


@dataclasses.dataclass
class Seeded:
    """A server with a table of each kind, so fuzzed ids sometimes name a real one."""

    server: ServerThread
    tables: dict[str, str]  # waiting, playing, over -> table id
    tokens: dict[str, str]  # the same -> seat 1's token
    record: str  # the finished table's record
    log: Tracebacks


@pytest.fixture(scope="module")
def seeded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Seeded]:
    # one playout a move: reviews are quick, and their errors unknown (null; it was a 500)
    limits = dataclasses.replace(ROOMY, review_playouts=1, coach_playouts=20)
    db = Path(tmp_path_factory.mktemp("fuzz")) / "fuzz.sqlite3"
    server = ServerThread(
        Settings(
            database=str(db),
            grace=30.0,
            bot_delay=0.0,
            tick=0.02,
            clock=FakeClock(),
            seed=7,
            limits=limits,
        )
    )
    # after uvicorn's logging set-up, which replaces the handlers of its loggers
    log = Tracebacks()
    loggers = [logging.getLogger(n) for n in ("ninetynine", "uvicorn.error")]
    for logger in loggers:
        logger.addHandler(log)
    server.start()
    try:
        waiting = server.create(name="Ann", players=3)
        playing = server.create(name="Ann", players=2, bots={"2": "easy"})
        over = server.create(name="Ann", players=2)
        bob = server.join(over["table"], "Bob")
        clients = [
            server.client(over["table"], over["token"]),
            server.client(over["table"], bob["token"]),
        ]
        play_game(clients, random.Random(3))
        for c in clients:
            c.close()
        record = server.get(f"/api/tables/{over['table']}/record").text
        made = {"waiting": waiting, "playing": playing, "over": over}
        yield Seeded(
            server,
            {k: v["table"] for k, v in made.items()},
            {k: v["token"] for k, v in made.items()},
            record,
            log,
        )
    finally:
        server.stop()
        for logger in loggers:
            logger.removeHandler(log)


def test_the_schema_is_published_past_the_guard(seeded: Seeded) -> None:
    res = seeded.server.get("/api/openapi.json")
    assert res.status_code == 200
    doc = res.json()
    # every route is described in ninetynine.web.schema.ROUTES, none by FastAPI's defaults
    assert {
        f"{method.upper()} {path}" for path, ops in doc["paths"].items() for method in ops
    } == set(ROUTES)
    create = doc["paths"]["/api/tables"]["post"]
    assert "players" in create["requestBody"]["content"]["application/json"]["schema"]["properties"]
    refused = httpx.get(
        seeded.server.url + "/api/openapi.json", timeout=5, headers={"Host": "evil.example"}
    )
    assert refused.status_code == 400 and refused.json()["code"] == "bad_host"


# What the fuzzers found -------------------------------------------------------------------


def refusal(res: httpx.Response, status: int, code: str) -> str:
    assert res.status_code == status, res.text
    body = res.json()
    assert body["code"] == code and body["error"] == body["message"], body
    return str(body["message"])


def test_a_house_rules_field_that_is_not_text_is_refused(seeded: Seeded) -> None:
    # found: a false, 0 or [] was taken for "no house rules" and a table of "P" was made
    for odd in (False, 0, []):
        message = refusal(seeded.server.post("/api/tables", {"house_rules": odd}), 400, "bad_rules")
        assert message == "house rules: expected the text of a .toml file"
    created = seeded.server.create(house_rules="", players=2)  # "" and null: no file given
    assert seeded.server.get(f"/api/tables/{created['table']}").json()["rules"]["id"] == "P"


def test_a_fractional_looking_count_of_players_says_a_whole_number_is_expected(
    seeded: Seeded,
) -> None:
    # found: 7.0 (an integer to JSON Schema) was told "expected a number"
    assert refusal(seeded.server.post("/api/tables", {"players": 7.0}), 400, "bad_table") == (
        "players '7.0': expected a whole number"
    )


def test_a_body_field_the_api_does_not_know_is_refused(seeded: Seeded) -> None:
    # found: an unknown field was ignored, so a misspelt option silently had no effect
    server = seeded.server
    assert refusal(server.post("/api/tables", {"player": 2}), 400, "malformed") == (
        "unknown field 'player': expected rules, house_rules, players, name, clock, turn_based, "
        "public, club, bots, rated"
    )
    assert refusal(
        server.post(f"/api/tables/{seeded.tables['waiting']}/join", {"name": "Bo", "seat": 2}),
        400,
        "malformed",
    ) == ("unknown field 'seat': expected name")
    assert (
        refusal(server.post("/api/replay", {"record": seeded.record, "view": 1}), 400, "malformed")
        == "unknown field 'view': expected record, seat"
    )
    assert len(server.get(f"/api/tables/{seeded.tables['waiting']}").json()["seats"]) == 3


def test_a_bad_parameter_or_route_gets_the_api_error_shape(seeded: Seeded) -> None:
    # FastAPI's and Starlette's own answers ({"detail": ...}, 422) are not the API's shape
    over = seeded.tables["over"]
    assert (
        refusal(seeded.server.get(f"/api/tables/{over}/replay?seat=two"), 400, "malformed")
        == "seat 'two': expected a whole number"
    )
    refusal(seeded.server.get("/api/no-such-thing"), 404, "not_found")
    res = httpx.request("DELETE", f"{seeded.server.url}/api/tables/{over}", json={}, timeout=5)
    refusal(res, 405, "method_not_allowed")
    assert res.headers["allow"] == "GET"


def operations() -> list[tuple[str, GenerationMode]]:
    """Each operation with valid inputs, and those that take any with invalid ones too."""
    from ninetynine.web.app import create_app

    schema = schemathesis.openapi.from_dict(create_app(Settings(database=":memory:")).openapi())
    out = []
    for result in schema.get_all_operations():
        op = result.ok()
        out.append((op.label, GenerationMode.POSITIVE))
        if len(op.body) or len(op.query):  # a bare string id has no invalid value
            out.append((op.label, GenerationMode.NEGATIVE))
    return out


@pytest.mark.parametrize(("label", "mode"), operations())
def test_every_http_operation_answers_what_its_schema_says(
    seeded: Seeded, label: str, mode: GenerationMode
) -> None:
    schema = schemathesis.openapi.from_url(seeded.server.url + "/api/openapi.json")
    operation = schema.find_operation_by_label(label)
    assert operation is not None
    checks = [*CHECKS, negative_data_rejection] if mode is GenerationMode.NEGATIVE else CHECKS
    seeded.log.records.clear()

    @FUZZ
    @given(
        case=operation.as_strategy(mode),
        table=st.sampled_from(["fuzzed", *seeded.tables]),
        pin=st.booleans(),
        seat=st.sampled_from([None, 1, 2]),
    )
    def run(case: Any, table: str, pin: bool, seat: int | None) -> None:
        """A fuzzed id often names a real table; valid input often has the finished
        game's record, or a seat that it has."""
        if "table_id" in (case.path_parameters or {}) and table != "fuzzed":
            case.path_parameters["table_id"] = seeded.tables[table]
        if pin and mode is GenerationMode.POSITIVE:
            if isinstance(case.body, dict) and "record" in case.body:
                case.body.update(record=seeded.record, seat=seat)
            elif case.query and "seat" in case.query:
                case.query["seat"] = seat or 1
        # as the server's own page sends it (the account routes refuse a POST without one)
        response = case.call(headers={"Origin": seeded.server.url})
        case.validate_response(response, checks=checks)
        assert not seeded.log.records, seeded.log.lines()

    run()


HEADER = st.text(st.characters(min_codepoint=0x21, max_codepoint=0x7E), max_size=40)


def test_the_guard_answers_any_host_origin_and_body_headers(seeded: Seeded) -> None:
    """The front door's own input: odd Host, Origin and Content-Type headers (a bad
    Content-Length never reaches it: uvicorn refuses it first)."""
    url = seeded.server.url + "/api/tables"
    seeded.log.records.clear()

    @FUZZ
    @given(
        host=st.sampled_from([f"127.0.0.1:{seeded.server.port}", "localhost"]) | HEADER,
        origin=st.none() | st.just(seeded.server.url) | HEADER,
        ctype=st.sampled_from(["application/json", "application/json; charset=utf-8"]) | HEADER,
        body=st.binary(max_size=40) | st.just(b'{"players": 2}'),
    )
    def run(host: str, origin: str | None, ctype: str, body: bytes) -> None:
        headers = {"Host": host, "Content-Type": ctype, **({"Origin": origin} if origin else {})}
        res = httpx.post(url, content=body, headers=headers, timeout=5)
        assert res.status_code in (200, 400, 403, 413, 415), res.text
        if res.status_code != 200:
            assert set(res.json()) >= {"error", "code", "message"}, res.text
        assert not seeded.log.records, seeded.log.lines()

    run()


# WebSocket messages ------------------------------------------------------------------------

FRAMES = jsonschema_rs.validator_for(FRAME_SCHEMA)
CLOSE_CODES = {1000, 1008, 4000, 4001, 4008, 4009}  # docs/server.md, web/routes/sockets.py
TYPES = ("hello", "act", "leave", "rematch", "ping", "chat", "coach")
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=10,
)
ACTIONS = st.sampled_from(["KS", "AS+11", "AS+1", "10H-10", "down", "draw", "pass", "2C", ""])


LEGAL = "a legal move"  # a marker: the driver sends one of the moves its last view offers
PRINTABLE = st.text(
    st.characters(codec="utf-8", categories=["L", "N", "P", "S", "Zs"]), min_size=1, max_size=300
)


def messages(tokens: list[str]) -> st.SearchStrategy[str | bytes]:
    """What a client might send: each documented message with likely and unlikely
    fields, a legal move, unknown types, any JSON, text that is not JSON, binary, huge and
    deep frames."""
    anything = JSON | st.integers() | st.text(max_size=10)
    token = st.sampled_from([*tokens, None]) | anything
    documented = st.one_of(
        st.fixed_dictionaries({"type": st.just("hello"), "token": token}),
        st.fixed_dictionaries(
            {
                "type": st.just("act"),
                "state": st.integers(-1, 200) | anything,
                "action": ACTIONS | anything,
            }
        ),
        st.fixed_dictionaries({"type": st.just("chat"), "text": PRINTABLE | anything}),
        st.builds(lambda t: {"type": t}, st.sampled_from(TYPES)),
    ).map(json.dumps)
    odd = st.one_of(
        st.fixed_dictionaries({"type": anything}, optional={"token": token}),
        JSON,
        st.dictionaries(st.text(max_size=8), JSON, max_size=4),
    ).map(json.dumps)
    return st.one_of(
        st.just(LEGAL),
        st.just(LEGAL),
        documented,
        documented,
        odd,
        st.text(max_size=50),
        st.binary(max_size=20),
        st.just("x" * 5000),
        st.just("[" * 40 + "]" * 40),
    )


class Session:
    """One WebSocket connection of the fuzzer: each frame it receives must be text in the
    frame schema; it keeps the latest view, to make a legal move from."""

    def __init__(self, seeded: Seeded, path: str) -> None:
        self.client = Client(f"ws://127.0.0.1:{seeded.server.port}{path}", None, hello=False)
        self.path = path
        self.types: list[str] = []
        self.last: dict[str, Any] | None = None

    def recv(self, timeout: float) -> dict[str, Any]:
        frame = self.client.ws.recv(timeout=timeout)
        assert isinstance(frame, str), frame
        msg = json.loads(frame)
        errors = [e.message for e in FRAMES.iter_errors(msg)]
        assert not errors, (frame[:300], errors[:3])
        self.types.append(msg["type"])
        if msg["type"] in ("sync", "update"):
            self.last = msg
        return msg  # type: ignore[no-any-return]

    def flush(self) -> None:
        """Read up to the answer of a ping: every frame sent before it has come."""
        self.client.ws.send('{"type": "ping"}')
        while self.recv(5)["type"] != "pong":
            pass

    def legal_move(self) -> str:
        if self.path != "/ws/lobby":  # the lobby feed answers nothing
            self.flush()
        view = self.last["view"] if self.last else {"legal": []}
        action = view["legal"][0] if view["legal"] else "KS"
        return json.dumps(
            {"type": "act", "state": self.last["state"] if self.last else 0, "action": action}
        )

    def run(self, sent: list[str | bytes], flush: bool) -> None:
        """Send ``sent`` and read until the server answers a last ping (``flush``), closes
        (with a documented code), or goes quiet."""
        try:
            for message in sent:
                self.client.ws.send(self.legal_move() if message == LEGAL else message)
            if flush:
                self.flush()
            else:
                while True:
                    self.recv(0.2)
        except ConnectionClosed as closed:
            assert closed.rcvd is None or closed.rcvd.code in CLOSE_CODES, closed
            with contextlib.suppress(ConnectionClosed):  # what came before the close
                while True:
                    self.recv(1)
        except TimeoutError:
            assert not flush, f"no pong after {sent}: {self.types[-3:]}"
        finally:
            self.client.close()


def test_every_websocket_frame_is_in_the_frame_schema(seeded: Seeded) -> None:
    tokens = list(seeded.tokens.values())
    seen: set[str] = set()
    seeded.log.records.clear()

    @settings(FUZZ, max_examples=40)
    # a seated player's chat, whatever the generator draws (its seed follows the source)
    @example(table="playing", who="seat 1", stranger="", sent=['{"type": "chat", "text": "hi"}'])
    @given(
        table=st.sampled_from(["playing", "playing", *seeded.tables, "fuzzed"]),
        who=st.sampled_from(["seat 1", "seat 1", "spectator", "stranger"]),
        stranger=messages(tokens),
        sent=st.lists(messages(tokens), min_size=1, max_size=6),
    )
    def run(table: str, who: str, stranger: str | bytes, sent: list[str | bytes]) -> None:
        token = {"seat 1": seeded.tokens.get(table, "x"), "spectator": None}
        hello = json.dumps({"type": "hello", "token": token[who]}) if who in token else stranger
        session = Session(seeded, f"/ws/{seeded.tables.get(table, 'no-such-table')}")
        session.run([hello, *sent], flush=True)
        seen.update(session.types)
        assert not seeded.log.records, seeded.log.lines()

    run()
    # the run met the frames of a game, not only refusals
    assert {"sync", "update", "error", "pong", "chat"} <= seen, seen


def test_the_lobby_feed_reads_any_message_and_sends_only_listings(seeded: Seeded) -> None:
    seeded.log.records.clear()

    @settings(FUZZ, max_examples=10)
    @given(sent=st.lists(messages(list(seeded.tokens.values())), max_size=4))
    def run(sent: list[str | bytes]) -> None:
        session = Session(seeded, "/ws/lobby")
        session.run(sent, flush=False)
        assert session.types and set(session.types) == {"lobby"}, session.types
        assert not seeded.log.records, seeded.log.lines()

    run()


def test_each_kind_of_frame_a_game_sends_is_in_the_frame_schema(seeded: Seeded) -> None:
    """The frames the fuzzer meets rarely (coach, rematch, the end's standings) too."""
    server = seeded.server
    created = server.create(name="Ann", players=2, bots={"2": "easy"}, public=True)
    table = created["table"]
    ann, watcher = server.client(table, created["token"]), server.client(table, None)
    lobby = Client(f"ws://127.0.0.1:{server.port}/ws/lobby", None, hello=False)
    ann.wait(lambda m: m["type"] == "sync")
    if not ann.my_turn():
        ann.wait(lambda m: m["type"] == "update" and ann.my_turn())
    for message, answer in (
        ({"type": "coach"}, "coach"),
        ({"type": "ping"}, "pong"),
        ({"type": "chat", "text": "gl hf"}, "chat"),
        ({"type": "act", "state": ann.state, "action": "XX"}, "error"),
    ):
        ann.send(message)
        ann.wait(lambda m, answer=answer: m["type"] == answer)  # type: ignore[misc]
    play_game([ann], random.Random(5))
    ann.send({"type": "rematch"})
    ann.wait(lambda m: m["type"] == "rematch")
    lobby.recv()
    watcher.drain()
    for c in (ann, watcher, lobby):
        c.close()
    frames = [json.loads(f) for c in (ann, watcher, lobby) for f in c.frames]
    for frame in frames:
        errors = [e.message for e in FRAMES.iter_errors(frame)]
        assert not errors, (frame["type"], errors[:3])
    assert {f["type"] for f in frames} == {
        "sync",
        "update",
        "coach",
        "pong",
        "chat",
        "error",
        "rematch",
        "lobby",
    }
    assert any("options" in f for f in frames) and any("standings" in f for f in frames)
    assert not seeded.log.records, seeded.log.lines()
