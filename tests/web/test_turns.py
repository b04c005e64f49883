"""Turn-based tables (issue 28): a turn clock of hours or days that runs while nobody is
there and survives a restart (its deadline is stored); a missed clock taken over by a bot,
with the reason in the log, with nobody connected; "your turn" e-mails received by a real
SMTP server on loopback and club webhooks by a local HTTP receiver, each once per turn
(on PostgreSQL with two processes too), with working unsubscribe links; "my games, my turn
first"; an account reopening its seat on another device; bad input refused."""

from __future__ import annotations

import contextlib
import dataclasses
import json
import re
import threading
import time
from collections.abc import Callable, Iterator
from email import message_from_bytes
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import httpx
import pytest
from aiosmtpd.controller import Controller
from websockets.exceptions import ConnectionClosed

from ninetynine.web.settings import Smtp
from ninetynine.web.turns.store import TurnStore
from tests.web.conftest import ROOMY
from tests.web.helpers import Client, FakeClock, ServerThread, free_port
from tests.web.passkey import Authenticator, Device, refused

MakeServer = Callable[..., ServerThread]
DAY = 86400.0


class Inbox:
    """An SMTP server's handler that keeps every message it is handed."""

    def __init__(self) -> None:
        self.messages: list[tuple[list[str], Any]] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802
        self.messages.append((list(envelope.rcpt_tos), message_from_bytes(envelope.content)))
        return "250 OK"


@pytest.fixture
def inbox() -> Iterator[tuple[Inbox, int]]:
    box, port = Inbox(), free_port()
    controller = Controller(box, hostname="127.0.0.1", port=port)
    controller.start()
    yield box, port
    controller.stop()


class Hooks:
    """A local HTTP receiver of webhook posts (a tiny http.server on its own thread)."""

    def __init__(self) -> None:
        self.posts: list[dict[str, Any]] = []
        posts = self.posts

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802
                body = self.rfile.read(int(self.headers["Content-Length"]))
                posts.append(json.loads(body))
                self.send_response(204)
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()


@pytest.fixture
def hooks() -> Iterator[Hooks]:
    receiver = Hooks()
    yield receiver
    receiver.server.shutdown()


def eventually(check: Callable[[], Any], timeout: float = 10) -> Any:
    """``check()``'s first true answer, tried until ``timeout``."""
    deadline = time.monotonic() + timeout
    while True:
        found = check()
        if found:
            return found
        if time.monotonic() > deadline:
            raise AssertionError("it did not happen in time")
        time.sleep(0.02)


class Player(Device):
    """A browser signed in to an account."""

    def create(self, **body: Any) -> dict[str, Any]:
        res = self.http.post("/api/tables", json=body)
        assert res.status_code == 200, res.text
        return res.json()  # type: ignore[no-any-return]

    def join(self, table: str, name: str | None = None) -> dict[str, Any]:
        res = self.http.post(f"/api/tables/{table}/join", json={"name": name})
        assert res.status_code == 200, res.text
        return res.json()  # type: ignore[no-any-return]

    def games(self) -> list[dict[str, Any]]:
        res = self.http.get("/api/account/tables")
        assert res.status_code == 200, res.text
        return res.json()["tables"]  # type: ignore[no-any-return]

    def set_contact(self, **body: Any) -> dict[str, Any]:
        return self.ok("contact", body)


@contextlib.contextmanager
def people(url: str) -> Iterator[Callable[[str], Player]]:
    made: list[Player] = []

    def make(name: str) -> Player:
        made.append(Player(url))
        made[-1].sign_up(name, Authenticator())
        return made[-1]

    yield make
    for device in made:
        device.close()


def turn_server(make_server: MakeServer, clock: FakeClock, **extra: Any) -> ServerThread:
    server = make_server(secure_cookies=False, wall=clock, private_webhooks=True, **extra)
    server.settings.public_url = server.url  # the links in the messages
    return server


def summary(server: ServerThread, table: str) -> dict[str, Any]:
    res = httpx.get(f"{server.url}/api/tables/{table}", timeout=5)
    assert res.status_code == 200, res.text
    return res.json()  # type: ignore[no-any-return]


def whose_turn(server: ServerThread, table: str) -> int:
    """The seat (0-based) to play, read from the lobby's table once it is a person's turn."""

    def person() -> int | None:
        t = server.lobby.tables.get(table)
        if t is None or t.deadline() is None:
            return None
        seat = t.state.current_seat
        return None if seat is None else seat + 1

    return int(eventually(person)) - 1


def log_of(server: ServerThread, table: str, token: str | None) -> list[dict[str, Any]]:
    """The table's whole log, as a (re)connecting client gets it."""
    c = Client(f"ws://127.0.0.1:{server.port}/ws/{table}", token)
    try:
        sync = c.wait(lambda m: m["type"] == "sync")
    finally:
        c.close()
    return sync["events"]  # type: ignore[no-any-return]


def log_texts(server: ServerThread, table: str, token: str | None) -> list[str]:
    events = log_of(server, table, token)
    return [e.get("text", "") for e in events if e.get("kind") == "TimedOut"]


# The turn clock -------------------------------------------------------------------------


def test_bad_turn_based_tables_are_refused_with_one_line(
    make_server: MakeServer, clock: FakeClock
) -> None:
    server = turn_server(make_server, clock)
    for body, code, words in [
        ({"turn_based": True}, "bad_table", "turn clock None: a turn-based table needs"),
        ({"turn_based": True, "clock": 30}, "bad_table", "600 to 2592000 seconds"),
        ({"turn_based": True, "clock": 90 * DAY}, "bad_table", "10 minutes to 30 days"),
        ({"clock": DAY}, "bad_table", '"turn_based": true'),
        ({"turn_based": "yes", "clock": DAY}, "bad_table", "turn_based: expected true"),
    ]:
        res = httpx.post(f"{server.url}/api/tables", json=body, timeout=5)
        assert words in refused(res, 400 if code != "malformed" else 400, code), body
    made = server.create(turn_based=True, clock=2 * DAY, players=2)
    s = summary(server, made["table"])
    assert s["turn_based"] is True and s["clock"] == 2 * DAY and s["status"] == "waiting"


def test_a_turn_based_game_goes_on_across_a_restart_and_a_missed_clock_is_taken_over(
    make_server: MakeServer, clock: FakeClock, tmp_path: Any
) -> None:
    database = str(tmp_path / "turns.sqlite3")
    first = turn_server(make_server, clock, database=database)
    made = first.create(turn_based=True, clock=DAY, players=2, bots={"2": "easy"}, name="Ann")
    table = made["table"]
    assert whose_turn(first, table) == 0  # the deal and any bot move are played at once
    before = summary(first, table)
    assert before["deadline"] == pytest.approx(clock.now + DAY)
    version = first.lobby.tables[table].version
    first.stop()  # nobody was ever connected: a turn-based table is not abandoned
    clock.advance(2 * DAY)  # Ann misses her turn while the server is down
    second = turn_server(make_server, clock, database=database)
    # with nobody connected and nothing asked, the new server finds the missed deadline,
    # a bot plays Ann's turn, the bot seat plays, and it is Ann's turn again with a fresh clock
    eventually(
        lambda: (
            table in second.lobby.tables
            and second.lobby.tables[table].version > version
            and second.lobby.tables[table].deadline() is not None
        )
    )
    after = summary(second, table)
    assert after["deadline"] == pytest.approx(clock.now + DAY)
    assert after["status"] == "playing"
    (text,) = log_texts(second, table, None)
    assert text == "Ann did not play within the turn clock (1 day): a bot plays this turn."
    # Ann comes back and plays on at the restarted server
    ann = Client(f"ws://127.0.0.1:{second.port}/ws/{table}", made["token"])
    ann.wait(lambda m: m["type"] == "sync")
    assert ann.my_turn()
    state = ann.state
    ann.send({"type": "act", "state": state, "action": ann.view["legal"][0]})
    moved = ann.wait(lambda m: m["type"] == "error" or m["type"] == "update" and m["state"] > state)
    assert moved["type"] == "update"
    ann.close()


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_a_missed_clock_stays_in_the_log_across_a_restart(
    backend: str,
    make_server: MakeServer,
    clock: FakeClock,
    tmp_path: Any,
    request: pytest.FixtureRequest,
) -> None:
    database = (
        request.getfixturevalue("database")
        if backend == "postgresql"
        else str(tmp_path / "log.sqlite3")
    )
    first = turn_server(make_server, clock, database=database)
    made = first.create(turn_based=True, clock=DAY, players=2, bots={"2": "easy"}, name="Ann")
    table = made["table"]
    whose_turn(first, table)
    version = first.lobby.tables[table].version
    clock.advance(DAY + 1)  # Ann misses her turn while the server runs: a bot plays it
    eventually(
        lambda: (
            first.lobby.tables[table].version > version
            and first.lobby.tables[table].deadline() == pytest.approx(clock.now + DAY)
        )
    )
    before = log_of(first, table, None)
    assert [e["text"] for e in before if e.get("kind") == "TimedOut"] == [
        "Ann did not play within the turn clock (1 day): a bot plays this turn."
    ]
    first.stop()
    second = turn_server(make_server, clock, database=database)
    # the restarted server's log is the same, the line where it was (before the bot's move)
    assert log_of(second, table, None) == before
    assert whose_turn(second, table) == 0
    assert summary(second, table)["deadline"] == pytest.approx(clock.now + DAY)


def test_a_restarted_server_keeps_the_deadline(
    make_server: MakeServer, clock: FakeClock, tmp_path: Any
) -> None:
    database = str(tmp_path / "keep.sqlite3")
    first = turn_server(make_server, clock, database=database)
    made = first.create(turn_based=True, clock=3 * 3600, players=2, bots={"2": "easy"})
    whose_turn(first, made["table"])
    deadline = summary(first, made["table"])["deadline"]
    first.stop()
    clock.advance(3600)  # an hour of the three has gone while the server was down
    second = turn_server(make_server, clock, database=database)
    s = summary(second, made["table"])
    assert s["deadline"] == deadline and s["clock_left"] == pytest.approx(2 * 3600)
    time.sleep(0.5)  # nothing runs out before its time
    assert summary(second, made["table"])["deadline"] == deadline


# "Your turn" ----------------------------------------------------------------------------


def test_your_turn_emails_are_received_once_per_turn_and_unsubscribed_by_their_link(
    make_server: MakeServer, clock: FakeClock, inbox: tuple[Inbox, int]
) -> None:
    box, port = inbox
    server = turn_server(make_server, clock, smtp=Smtp("127.0.0.1", port, "nn@example.org"))
    with people(server.url) as person:
        ann, bea = person("Ann"), person("Bea")
        assert ann.set_contact(email="ann@example.org")["email"] == "ann@example.org"
        bea.set_contact(email="bea@example.org")
        assert bea.http.get("/api/account/contact").json()["email"] == "bea@example.org"
        table = ann.create(turn_based=True, clock=DAY, players=2, name="Ann")["table"]
        bea.join(table, "Bea")
        seat = whose_turn(server, table)
        first = ["ann@example.org", "bea@example.org"][seat]
        eventually(lambda: len(box.messages) == 1)
        (to, message) = box.messages[0][0], box.messages[0][1]
        assert to == [first] and message["From"] == "nn@example.org"
        body = message.get_payload(decode=True).decode()
        assert f"{server.url}/t/{table}" in body and "Play by" in body
        link = re.search(r"No more of these e-mails: (\S+)", body)
        assert link is not None and message["List-Unsubscribe"] == f"<{link[1]}>"
        assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"  # RFC 8058
        # opening the link (as a mail scanner does) only asks; its button POSTs the link
        who = [ann, bea][seat]
        page = httpx.get(link[1], timeout=5)
        assert page.status_code == 200 and "Stop the" in page.text and "e-mails?" in page.text
        path = link[1].removeprefix(server.url)
        assert f'<form method="post" action="{path}">' in page.text
        assert who.http.get("/api/account/contact").json()["email_on"] is True
        forged = httpx.post(link[1], headers={"Origin": "https://evil.example"}, timeout=5)
        refused(forged, 403, "forbidden_origin")  # another site's page posting it
        assert who.http.get("/api/account/contact").json()["email_on"] is True
        # the button, or a mail reader's one-click unsubscribe (no Origin, a form body)
        done = httpx.post(link[1], data={"List-Unsubscribe": "One-Click"}, timeout=5)
        assert done.status_code == 200 and "no more" in done.text and "e-mails" in done.text
        assert who.http.get("/api/account/contact").json()["email_on"] is False
        # the first player misses the clock: a bot plays, the other one is told
        clock.advance(DAY + 1)
        eventually(lambda: len(box.messages) == 2)
        assert box.messages[1][0] == [["bea@example.org", "ann@example.org"][seat]]
        # the second misses it too: it is the unsubscribed first player's turn, no e-mail
        clock.advance(DAY + 1)
        eventually(
            lambda: (
                whose_turn(server, table) == seat
                and server.lobby.tables[table].deadline() == pytest.approx(clock.now + DAY)
            )
        )
        time.sleep(0.5)
        assert len(box.messages) == 2
        # a forged or mistyped link changes nothing
        refused(httpx.get(link[1][:-3] + "AAA", timeout=5), 404, "bad_unsubscribe")
        refused(httpx.post(link[1][:-3] + "AAA", timeout=5), 404, "bad_unsubscribe")


def test_the_clubs_webhook_gets_your_turn_and_its_unsubscribe_works(
    make_server: MakeServer, clock: FakeClock, hooks: Hooks
) -> None:
    server = turn_server(make_server, clock)
    with people(server.url) as person:
        ann, bea = person("Ann"), person("Bea")
        club = ann.http.post("/api/clubs", json={"name": "Ann's"}).json()
        bea.http.post("/api/clubs/join", json={"token": club["invite"]})
        # the owner alone sets and sees it; a URL that is not http(s) is refused
        refused(
            bea.http.post(f"/api/clubs/{club['id']}/webhook", json={"url": hooks.url}),
            403,
            "not_owner",
        )
        refused(bea.http.get(f"/api/clubs/{club['id']}/webhook"), 403, "not_owner")
        assert "http:// or https://" in refused(
            ann.http.post(f"/api/clubs/{club['id']}/webhook", json={"url": "file:///etc/x"}),
            400,
            "bad_webhook",
        )
        set_ = ann.http.post(f"/api/clubs/{club['id']}/webhook", json={"url": hooks.url})
        assert set_.json() == {"url": hooks.url}
        assert ann.http.get(f"/api/clubs/{club['id']}/webhook").json() == {"url": hooks.url}
        table = ann.create(turn_based=True, clock=DAY, players=2, club=club["id"], name="Ann")[
            "table"
        ]
        bea.join(table)
        seat = whose_turn(server, table)
        eventually(lambda: len(hooks.posts) == 1)
        post = hooks.posts[0]
        assert post["content"] == post["text"] and f"/t/{table}" in post["content"]
        assert post["content"].startswith(f"Your turn, {['Ann', 'Bea'][seat]}:")
        stop = re.search(r"(http://\S+/u/\S+)\)", post["content"])
        assert stop is not None
        assert "Unsubscribed" not in httpx.get(stop[1], timeout=5).text  # it asks first
        assert "Unsubscribed" in httpx.post(stop[1], timeout=5).text
        clock.advance(DAY + 1)  # the other player's turn: posted
        eventually(lambda: len(hooks.posts) == 2)
        clock.advance(DAY + 1)  # the unsubscribed player's turn again: not posted
        eventually(
            lambda: (
                whose_turn(server, table) == seat
                and server.lobby.tables[table].deadline() == pytest.approx(clock.now + DAY)
            )
        )
        time.sleep(0.5)
        assert len(hooks.posts) == 2


def test_a_webhook_to_a_private_address_is_refused_unless_the_operator_allows_it(
    make_server: MakeServer, clock: FakeClock
) -> None:
    server = make_server(secure_cookies=False, wall=clock)  # private_webhooks off
    with people(server.url) as person:
        ann = person("Ann")
        club = ann.http.post("/api/clubs", json={"name": "Ann's"}).json()
        for url in (
            "http://127.0.0.1:9/x",
            "http://10.0.0.1/x",
            "http://[::1]/x",
            "http://169.254.169.254/latest",
        ):
            res = ann.http.post(f"/api/clubs/{club['id']}/webhook", json={"url": url})
            assert "public addresses only" in refused(res, 400, "bad_webhook"), url


def test_your_turn_is_sent_once_by_one_of_two_processes_on_postgresql(
    database: str, make_server: MakeServer, clock: FakeClock, inbox: tuple[Inbox, int]
) -> None:
    box, port = inbox
    smtp = Smtp("127.0.0.1", port)
    one, two = (turn_server(make_server, clock, database=database, smtp=smtp) for _ in range(2))
    with people(one.url) as here, people(two.url) as there:
        ann, bea = here("Ann"), there("Bea")
        ann.set_contact(email="ann@example.org")
        bea.set_contact(email="bea@example.org")
        table = ann.create(turn_based=True, clock=DAY, players=2)["table"]
        bea.join(table)  # at the other process
        two_table = httpx.get(f"{two.url}/api/tables/{table}", timeout=5)  # both have it
        assert two_table.status_code == 200
        eventually(lambda: len(box.messages) == 1)
        for _ in range(2):  # two missed turns, each announced once
            n = len(box.messages)
            clock.advance(DAY + 1)
            eventually(lambda n=n: len(box.messages) == n + 1, timeout=15)
        time.sleep(1.0)
        assert len(box.messages) == 3
        recipients = [m[0][0] for m in box.messages]
        assert recipients[0] != recipients[1] and recipients[0] == recipients[2]
        store = TurnStore(one.lobby.storage)
        assert not store.claim_notice(table, one.lobby.tables[table].version)


# My games and my seat -------------------------------------------------------------------


def test_my_games_list_my_turn_first_and_an_account_reopens_its_seat_elsewhere(
    make_server: MakeServer, clock: FakeClock
) -> None:
    server = turn_server(make_server, clock)
    with people(server.url) as person:
        ann, bea = person("Ann"), person("Bea")
        waiting = ann.create(turn_based=True, clock=DAY, players=2)["table"]
        mine = ann.create(turn_based=True, clock=DAY, players=2, bots={"2": "easy"})
        whose_turn(server, mine["table"])
        theirs = bea.create(turn_based=True, clock=DAY, players=2, name="Bea")["table"]
        ann.join(theirs)
        seat = whose_turn(server, theirs)
        games = ann.games()
        ids = [g["table"] for g in games]
        assert set(ids) == {waiting, mine["table"], theirs}
        assert games[0]["table"] == mine["table"] and games[0]["my_turn"]
        assert games[0]["link"] == f"/t/{mine['table']}" and games[0]["seat"] == 1
        assert games[0]["deadline"] == pytest.approx(clock.now + DAY)
        assert games[-1]["table"] == waiting and games[-1]["status"] == "waiting"
        assert [p["kind"] for p in games[0]["players"]] == ["human", "bot"]
        flags = [g["my_turn"] for g in games]
        assert flags == sorted(flags, reverse=True)  # my turn first
        assert {g["table"] for g in bea.games()} == {theirs}
        assert [g["my_turn"] for g in bea.games()] == [seat == 0]
        refused(httpx.get(f"{server.url}/api/account/tables", timeout=5), 401, "not_signed_in")
        # Ann on another device (signed in by a link) opens her seat: the old token is dead
        link = ann.ok("link")
        phone = Player(server.url)
        phone.ok("link/use", {"token": link["token"]})
        old = Client(f"ws://127.0.0.1:{server.port}/ws/{mine['table']}", mine["token"])
        old.wait(lambda m: m["type"] == "sync")
        res = phone.http.post(f"/api/tables/{mine['table']}/seat", json={})
        assert res.status_code == 200, res.text
        fresh = res.json()
        assert fresh["seat"] == 1 and fresh["token"] != mine["token"]
        with pytest.raises(ConnectionClosed):  # the old device's connection is closed
            old.wait(lambda m: False, timeout=3)
        stale = Client(f"ws://127.0.0.1:{server.port}/ws/{mine['table']}", mine["token"])
        assert stale.error()["code"] == "bad_token"
        now = Client(f"ws://127.0.0.1:{server.port}/ws/{mine['table']}", fresh["token"])
        assert now.wait(lambda m: m["type"] == "sync")["view"]["seat"] == 1
        for c in (old, stale, now):
            c.close()
        # Bea holds no seat at Ann's table; a guest is not signed in; another site is refused
        refused(bea.http.post(f"/api/tables/{mine['table']}/seat", json={}), 404, "no_seat")
        refused(
            httpx.post(
                f"{server.url}/api/tables/{mine['table']}/seat",
                json={},
                headers={"Origin": server.url},
                timeout=5,
            ),
            401,
            "not_signed_in",
        )
        forged = Device(server.url, "https://evil.example")
        forged.http.cookies.update(ann.http.cookies)
        assert forged.http.post(f"/api/tables/{mine['table']}/seat", json={}).status_code == 403
        phone.close()
        forged.close()


def test_contact_settings_refuse_bad_input_and_show_the_address_to_its_owner_only(
    make_server: MakeServer, clock: FakeClock
) -> None:
    server = turn_server(make_server, clock)
    with people(server.url) as person:
        ann, bea = person("Ann"), person("Bea")
        assert "expected an address" in refused(
            ann.post("contact", {"email": "not an address"}), 400, "bad_email"
        )
        refused(ann.post("contact", {"email_on": "yes"}), 400, "malformed")
        refused(ann.post("contact", {"phone": "1"}), 400, "malformed")
        ann.set_contact(email="ann@example.org")
        assert bea.http.get("/api/account/contact").json()["email"] is None
        assert "ann@example.org" not in bea.games().__repr__()
        off = ann.set_contact(email_on=False)
        assert off["email"] == "ann@example.org" and off["email_on"] is False
        assert ann.set_contact(email="")["email"] is None
        refused(httpx.get(f"{server.url}/api/account/contact", timeout=5), 401, "not_signed_in")


def test_the_limits_name_the_turn_clock() -> None:
    fields = {f.name for f in dataclasses.fields(ROOMY)}
    assert {"turn_clock_max", "turn_clock_min", "my_tables_shown"} <= fields
