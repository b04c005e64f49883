"""Clubs (issue 28): created, joined by an invite link, renamed, left, members removed and the
club deleted, by whom each may be; a club's tables for its members only; and what a club must
not give away: that it exists (to a stranger or another club's member), access to a member
removed (at once, on every process), a rotated invite, a request forged by another site, room
past the limits."""

from __future__ import annotations

import contextlib
import dataclasses
import json
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from tests.web.conftest import ROOMY
from tests.web.helpers import ServerThread
from tests.web.passkey import Authenticator, Device, refused

MakeServer = Callable[..., ServerThread]


class Member(Device):
    """A browser signed in to an account, with the clubs' API at hand."""

    def club_post(self, path: str, body: dict[str, Any] | None = None) -> httpx.Response:
        return self.http.post("/api/clubs" + path, json=body or {})

    def club_ok(self, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
        res = self.club_post(path, body)
        assert res.status_code == 200, res.text
        return res.json()  # type: ignore[no-any-return]

    def club_get(self, path: str = "") -> httpx.Response:
        return self.http.get("/api/clubs" + path)

    def create_club(self, name: str) -> dict[str, Any]:
        return self.club_ok("", {"name": name})

    def join_club(self, token: str) -> dict[str, Any]:
        return self.club_ok("/join", {"token": token})

    def page(self, club: str) -> dict[str, Any]:
        res = self.club_get("/" + club)
        assert res.status_code == 200, res.text
        return res.json()  # type: ignore[no-any-return]

    def table(self, **body: Any) -> httpx.Response:
        return self.http.post("/api/tables", json=body)


@pytest.fixture
def server(make_server: MakeServer) -> ServerThread:
    return make_server(secure_cookies=False)


def browsers(url: str) -> Iterator[Callable[..., Member]]:
    made: list[Member] = []

    def make(name: str | None = None, origin: str | None = None) -> Member:
        made.append(Member(url, origin))
        if name is not None:
            made[-1].sign_up(name, Authenticator())
        return made[-1]

    yield make
    for device in made:
        device.close()


@pytest.fixture
def people(server: ServerThread) -> Iterator[Callable[..., Member]]:
    yield from browsers(server.url)


def ws_first(url: str, table: str, who: Member | None, token: str | None = None) -> dict[str, Any]:
    """The first frame a WebSocket to the table gets after its hello, sent with ``who``'s
    session cookie."""
    cookie = who.session if who else None
    headers = {"Cookie": f"nn_session={cookie}"} if cookie else {}
    ws_url = url.replace("http", "ws", 1) + f"/ws/{table}"
    with connect(ws_url, open_timeout=5, additional_headers=headers) as ws:
        with contextlib.suppress(ConnectionClosed):  # refused before the hello was read
            ws.send(json.dumps({"type": "hello", "token": token}))
        frame = json.loads(ws.recv(timeout=5))
    assert isinstance(frame, dict)
    return frame


def closed_by(ws: ClientConnection) -> int | None:
    """The code the server closed an open WebSocket with, reading what it sent before (None:
    still open after 5 seconds)."""
    with contextlib.suppress(ConnectionClosed, TimeoutError):
        while True:
            ws.recv(timeout=5)
    return None if ws.close_code is None else int(ws.close_code)


def open_ws(url: str, table: str, who: Member, token: str | None = None) -> ClientConnection:
    """A WebSocket to the table with ``who``'s session cookie, past its ``sync``."""
    headers = {"Cookie": f"nn_session={who.session}"}
    # entered as a context manager: the form every websockets version accepts
    ws = connect(url.replace("http", "ws", 1) + f"/ws/{table}", additional_headers=headers)
    ws = ws.__enter__()
    ws.send(json.dumps({"type": "hello", "token": token}))
    assert json.loads(ws.recv(timeout=5))["type"] == "sync"
    return ws


def test_a_club_is_made_joined_by_its_invite_link_and_seen_by_its_members(
    people: Callable[..., Member],
) -> None:
    ann, bob = people("Ann"), people("Bob")
    club = ann.create_club("  Friday cards ")
    ann_id = ann.me()["id"]  # type: ignore[index]
    assert club["name"] == "Friday cards" and club["owner"] == ann_id == club["you"]
    assert club["members"] == [{"id": ann_id, "name": "Ann", "owner": True}]
    assert club["tables"] == [] and len(club["invite"]) >= 24
    joined = bob.join_club(club["invite"])
    assert [m["name"] for m in joined["members"]] == ["Ann", "Bob"]
    assert bob.join_club(club["invite"])["members"] == joined["members"]  # again: no change
    assert ann.page(club["id"])["members"] == joined["members"]
    assert bob.club_get().json() == {
        "clubs": [{"id": club["id"], "name": "Friday cards", "members": 2, "owner": False}]
    }
    assert ann.club_get().json()["clubs"][0]["owner"] is True
    renamed = ann.club_ok(f"/{club['id']}/rename", {"name": "Saturday cards"})
    assert renamed["name"] == bob.page(club["id"])["name"] == "Saturday cards"
    bob.club_ok(f"/{club['id']}/leave")
    assert bob.club_get().json() == {"clubs": []}
    assert [m["name"] for m in ann.page(club["id"])["members"]] == ["Ann"]
    assert refused(bob.club_get("/" + club["id"]), 404, "no_club")
    refused(ann.club_post("", {"name": ""}), 400, "bad_name")
    refused(ann.club_post("", {"name": "x" * 41}), 400, "bad_name")


def test_a_club_reads_as_missing_to_a_stranger_and_to_another_clubs_member(
    people: Callable[..., Member],
) -> None:
    ann, bob, cara, dan = people("Ann"), people("Bob"), people("Cara"), people("Dan")
    club = ann.create_club("Ann's")["id"]
    bob.join_club(ann.page(club)["invite"])
    cara.create_club("Cara's")  # Cara is a member, of another club
    bob_id = bob.me()["id"]  # type: ignore[index]
    calls: list[tuple[str, dict[str, Any] | None]] = [
        ("", None),
        ("/rename", {"name": "Mine now"}),
        ("/invite", {}),
        ("/leave", {}),
        ("/remove", {"account": bob_id}),
        ("/delete", {}),
    ]

    def answer(who: Member, club_id: str, path: str, body: dict[str, Any] | None) -> str:
        res = (
            who.club_get("/" + club_id)
            if body is None
            else who.club_post(f"/{club_id}{path}", body)
        )
        return refused(res, 404, "no_club").replace(club_id, "ID")

    for path, body in calls:
        missing = answer(dan, "NoSuchClub00", path, body)
        assert missing == "no club 'ID' of yours"
        for who in (dan, cara):
            assert answer(who, club, path, body) == missing, (path, who)
    # signed out: not signed in, whatever the club
    guest = people()
    for path, body in calls:
        res = (
            guest.club_get("/" + club) if body is None else guest.club_post(f"/{club}{path}", body)
        )
        refused(res, 401, "not_signed_in")
    refused(guest.club_post("/join", {"token": ann.page(club)["invite"]}), 401, "not_signed_in")
    # nothing changed
    page = ann.page(club)
    assert page["name"] == "Ann's" and [m["name"] for m in page["members"]] == ["Ann", "Bob"]


def test_only_the_owner_renames_removes_rotates_and_deletes(
    people: Callable[..., Member],
) -> None:
    ann, bob, cara = people("Ann"), people("Bob"), people("Cara")
    club = ann.create_club("Ann's")
    invite = club["invite"]
    bob.join_club(invite)
    cara.join_club(invite)
    ann_id, cara_id = ann.me()["id"], cara.me()["id"]  # type: ignore[index]
    for path, body in [
        ("/rename", {"name": "Bob's"}),
        ("/invite", {}),
        ("/remove", {"account": cara_id}),
        ("/remove", {"account": ann_id}),
        ("/delete", {}),
    ]:
        message = refused(bob.club_post(f"/{club['id']}{path}", body), 403, "not_owner")
        assert message == 'only the owner of club "Ann\'s" may do that'
    page = ann.page(club["id"])
    assert page["name"] == "Ann's" and page["invite"] == invite and len(page["members"]) == 3
    # the owner stays: it deletes the club instead
    refused(ann.club_post(f"/{club['id']}/leave"), 409, "owner_stays")
    refused(ann.club_post(f"/{club['id']}/remove", {"account": ann_id}), 409, "owner_stays")
    refused(ann.club_post(f"/{club['id']}/remove", {"account": "nobody"}), 404, "no_member")
    ann.club_ok(f"/{club['id']}/delete")
    for who in (ann, bob, cara):
        refused(who.club_get("/" + club["id"]), 404, "no_club")
        assert who.club_get().json() == {"clubs": []}
    refused(bob.club_post("/join", {"token": invite}), 404, "bad_invite")


def test_a_rotated_invite_opens_nothing(people: Callable[..., Member]) -> None:
    ann, bob, cara = people("Ann"), people("Bob"), people("Cara")
    club = ann.create_club("Ann's")
    bob.join_club(club["invite"])
    new = ann.club_ok(f"/{club['id']}/invite")["invite"]
    assert new != club["invite"] and bob.page(club["id"])["invite"] == new
    message = refused(cara.club_post("/join", {"token": club["invite"]}), 404, "bad_invite")
    assert "the owner has made a new one" in message
    assert cara.join_club(new)["id"] == club["id"]
    refused(cara.club_post("/join", {"token": "short"}), 400, "malformed")


def test_a_club_post_needs_this_servers_origin(
    server: ServerThread, people: Callable[..., Member]
) -> None:
    ann = people("Ann")
    club = ann.create_club("Ann's")
    # the same signed-in browser, its requests sent by another site or with no Origin at all
    for origin, code in (("https://evil.example", "forbidden_origin"), ("", "forbidden_origin")):
        forged = people(origin=origin)
        forged.plant(ann.session or "")
        for path, body in [
            ("", {"name": "Forged"}),
            ("/join", {"token": club["invite"]}),
            (f"/{club['id']}/rename", {"name": "Forged"}),
            (f"/{club['id']}/invite", {}),
            (f"/{club['id']}/leave", {}),
            (f"/{club['id']}/delete", {}),
        ]:
            refused(forged.club_post(path, body), 403, code)
        refused(forged.table(club=club["id"]), 403, code)
    page = ann.page(club["id"])
    assert page["name"] == "Ann's" and page["invite"] == club["invite"]
    assert len(ann.club_get().json()["clubs"]) == 1


def test_clubs_per_account_and_members_per_club_are_limits(make_server: MakeServer) -> None:
    limits = dataclasses.replace(ROOMY, clubs_per_account=1, members_per_club=2)
    server = make_server(secure_cookies=False, limits=limits)
    for make in browsers(server.url):
        ann, bob, cara = make("Ann"), make("Bob"), make("Cara")
        club = ann.create_club("Ann's")
        message = refused(ann.club_post("", {"name": "Two"}), 429, "too_many_clubs")
        assert message == (
            "this account belongs to 1 clubs already: leave one first "
            "(server limit clubs_per_account)"
        )
        bob.join_club(club["invite"])
        message = refused(cara.club_post("/join", {"token": club["invite"]}), 409, "club_full")
        assert message.endswith("(server limit members_per_club)")
        refused(bob.club_post("", {"name": "Bob's"}), 429, "too_many_clubs")


def test_a_clubs_table_is_for_its_members_only(
    server: ServerThread, people: Callable[..., Member]
) -> None:
    ann, bob, dan = people("Ann"), people("Bob"), people("Dan")
    guest = people()
    club = ann.create_club("Ann's")
    bob.join_club(club["invite"])
    res = ann.table(club=club["id"], players=3, name="Ann")
    assert res.status_code == 200, res.text
    table = res.json()["table"]
    (listed,) = ann.page(club["id"])["tables"]
    assert listed["id"] == table and listed["public"] is False
    assert all(t["id"] != table for t in httpx.get(server.url + "/api/tables").json())
    missing = f"no table {table!r}"
    for who in (dan, guest):
        assert refused(who.http.get(f"/api/tables/{table}"), 404, "no_table") == missing
        res = who.http.post(f"/api/tables/{table}/join", json={"name": "Dan"})
        assert refused(res, 404, "no_table") == missing
        assert refused(who.http.get(f"/api/tables/{table}/record"), 404, "no_table") == missing
        frame = ws_first(server.url, table, who)
        assert frame["type"] == "error" and frame["code"] == "no_table"
        assert frame["message"] == missing
    # a non-member may not make a table for the club, nor a public one for it
    refused(dan.table(club=club["id"]), 404, "no_club")
    refused(guest.table(club=club["id"]), 401, "not_signed_in")
    refused(ann.table(club=club["id"], public=True), 400, "bad_table")
    # a member joins and watches
    assert bob.http.get(f"/api/tables/{table}").status_code == 200
    seat = bob.http.post(f"/api/tables/{table}/join", json={"name": "Bob"})
    assert seat.status_code == 200, seat.text
    assert ws_first(server.url, table, bob, seat.json()["token"])["type"] == "sync"
    assert ws_first(server.url, table, ann)["type"] == "sync"  # a member watching
    # removed, Bob keeps no way in: not the table's summary, not his seat
    bob_id = bob.me()["id"]  # type: ignore[index]
    ann.club_ok(f"/{club['id']}/remove", {"account": bob_id})
    refused(bob.club_get("/" + club["id"]), 404, "no_club")
    assert refused(bob.http.get(f"/api/tables/{table}"), 404, "no_table") == missing
    frame = ws_first(server.url, table, bob, seat.json()["token"])
    assert frame["code"] == "no_table"


def test_deleting_an_account_deletes_its_clubs_and_memberships(
    people: Callable[..., Member],
) -> None:
    ann, bob = people("Ann"), people("Bob")
    club = ann.create_club("Ann's")
    bob.join_club(club["invite"])
    bob_club = bob.create_club("Bob's")
    ann.join_club(bob_club["invite"])
    ann.ok("delete", {"confirm": "Ann"})
    assert [c["name"] for c in bob.club_get().json()["clubs"]] == ["Bob's"]
    assert [m["name"] for m in bob.page(bob_club["id"])["members"]] == ["Bob"]
    refused(bob.club_post("/join", {"token": club["invite"]}), 404, "bad_invite")


def test_a_removed_member_loses_access_on_every_process_at_once_on_postgresql(
    database: str,  # first: dropped after the servers have stopped
    make_server: MakeServer,
) -> None:
    one, two = (make_server(database=database, secure_cookies=False) for _ in range(2))
    for here in browsers(one.url):
        for there in browsers(two.url):
            ann, bob = here("Ann"), there("Bob")
            club = ann.create_club("Ann's")
            bob.join_club(club["invite"])  # on the other process
            table = ann.table(club=club["id"]).json()["table"]
            assert bob.http.get(f"/api/tables/{table}").status_code == 200
            assert bob.page(club["id"])["members"][1]["name"] == "Bob"
            seat = bob.http.post(f"/api/tables/{table}/join", json={"name": "Bob"}).json()
            watching = open_ws(two.url, table, bob)  # Bob at the table, at the other process
            playing = open_ws(two.url, table, bob, seat["token"])
            ann_watching = open_ws(two.url, table, ann)
            ann.club_ok(f"/{club['id']}/remove", {"account": bob.me()["id"]})  # type: ignore[index]
            # his sockets close at once, at the process that holds them; Ann's stays
            assert closed_by(watching) == closed_by(playing) == 4003
            ann_watching.send(json.dumps({"type": "ping"}))
            assert json.loads(ann_watching.recv(timeout=5))["type"] in ("pong", "update")
            for ws in (watching, playing, ann_watching):
                ws.close()
            refused(bob.club_get("/" + club["id"]), 404, "no_club")
            refused(bob.http.get(f"/api/tables/{table}"), 404, "no_table")
            new = ann.club_ok(f"/{club['id']}/invite")["invite"]
            refused(bob.club_post("/join", {"token": club["invite"]}), 404, "bad_invite")
            assert bob.join_club(new)["id"] == club["id"]
