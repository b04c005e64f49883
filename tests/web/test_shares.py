"""Share links (issue 28): after a game, a player makes one public read-only link to its
replay, the coach's review and its record. Who may make it (a player, by a seat's token or
by the signed-in account holding a seat; not a spectator, a stranger or another site's
forged request), when (a finished game only), that it is one link a table and unguessable,
that anyone reads it signed out (a club's table too), and that it opens nothing else."""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest

from tests.web.helpers import Client, ServerThread, play_game
from tests.web.passkey import refused
from tests.web.test_clubs import Member, browsers

TOKEN = re.compile(r"^[A-Za-z0-9_-]{22}$")


@pytest.fixture
def server(make_server: Callable[..., ServerThread]) -> ServerThread:
    return make_server(secure_cookies=False)


@pytest.fixture
def people(server: ServerThread) -> Iterator[Callable[..., Member]]:
    yield from browsers(server.url)


def finish(server: ServerThread, table: str, token: str, cookie: str | None = None) -> None:
    """The seat of ``token`` plays a game against the table's bot to its end (``cookie``: a
    member's session, at a club's table)."""
    client = Client(f"ws://127.0.0.1:{server.port}/ws/{table}", token, cookie=cookie)
    try:
        play_game([client], random.Random(5))
    finally:
        client.close()


def share(server: ServerThread, table: str, body: dict[str, Any]) -> httpx.Response:
    return server.post(f"/api/tables/{table}/share", body)


def test_a_player_shares_a_finished_game_once_and_anyone_reads_it_signed_out(
    server: ServerThread,
) -> None:
    ann = server.create(name="Ann", players=2, bots={"2": "easy"})
    table, seat_token = ann["table"], ann["token"]
    message = refused(share(server, table, {"token": seat_token}), 409, "not_finished")
    assert message == "a game can be shared when it is over"
    finish(server, table, seat_token)
    # no token, another table's token, a made-up one: not a player of this table
    other = server.create(name="Cy", players=2, bots={"2": "easy"})
    for body in ({}, {"token": other["token"]}, {"token": "x" * 43}, {"token": None}):
        message = refused(share(server, table, body), 403, "not_player")
        assert message.startswith("only a player of this table may share its game")
    refused(share(server, table, {"token": seat_token, "seat": 1}), 400, "malformed")
    refused(share(server, "nosuchtable", {"token": seat_token}), 404, "no_table")

    res = share(server, table, {"token": seat_token})
    assert res.status_code == 200, res.text
    shared = res.json()
    token = shared["token"]
    assert TOKEN.match(token) and shared["link"] == f"/s/{token}"
    assert table not in token
    again = share(server, table, {"token": seat_token}).json()
    assert again == shared  # one link a table, however often it is asked for

    # a signed-out browser with nothing but the link
    with httpx.Client(base_url=server.url, timeout=30) as stranger:
        page = stranger.get(shared["link"])
        assert page.status_code == 200 and '<main id="table"' in page.text
        replay = stranger.get(f"/api/shared/{token}/replay")
        assert replay.status_code == 200, replay.text
        steps = replay.json()["steps"]
        assert replay.json()["names"][0] == "Ann"
        assert steps[-1]["view"]["phase"] == "over"
        seat_view = stranger.get(f"/api/shared/{token}/replay?seat=1")
        assert seat_view.status_code == 200 and seat_view.json()["seat"] == 1
        record = stranger.get(f"/api/shared/{token}/record")
        assert record.status_code == 200 and record.headers["content-type"].startswith(
            "application/toml"
        )
        assert record.text == httpx.get(f"{server.url}/api/tables/{table}/record").text
        review = stranger.get(f"/api/shared/{token}/review?seat=1")
        assert review.status_code == 200, review.text
        assert "decisions" in review.json()
        texts = [page.text, replay.text, seat_view.text, record.text, review.text]
        assert not any(seat_token in t for t in texts)  # nothing of the seat's secret
        # a link mistyped or cut short: one line saying so, and the page's 404
        for wrong in (token[:-1] + ("A" if token[-1] != "A" else "B"), token[:10], "x" * 200):
            message = refused(stranger.get(f"/api/shared/{wrong}/replay"), 404, "no_share")
            assert message.startswith("no shared game at") and "mistyped" in message
            refused(stranger.get(f"/api/shared/{wrong}/record"), 404, "no_share")
            assert stranger.get(f"/s/{wrong}").status_code == 404
        # the link opens that game and nothing else: no seat, no move
        refused(stranger.post(f"/api/tables/{table}/share", json={}), 403, "not_player")


def test_each_table_has_its_own_random_token(server: ServerThread) -> None:
    tokens = set()
    for _ in range(3):
        created = server.create(name="Ann", players=2, bots={"2": "easy"})
        finish(server, created["table"], created["token"])
        res = share(server, created["table"], {"token": created["token"]})
        assert res.status_code == 200, res.text
        tokens.add(res.json()["token"])
    assert len(tokens) == 3 and all(TOKEN.match(t) for t in tokens)


def test_a_signed_in_player_shares_a_clubs_game_which_the_link_shows_signed_out(
    server: ServerThread, people: Callable[..., Member]
) -> None:
    ann, dan = people("Ann"), people("Dan")
    club = ann.create_club("Ann's")
    res = ann.table(club=club["id"], players=2, name="Ann", bots={"2": "easy"})
    assert res.status_code == 200, res.text
    table, seat_token = res.json()["table"], res.json()["token"]
    finish(server, table, seat_token, ann.session)
    # a stranger signed in, and Ann's cookie sent by another site's page: no share
    refused(dan.http.post(f"/api/tables/{table}/share", json={}), 404, "no_table")
    forged = Member(server.url, "https://evil.example")
    forged.http.cookies.set("nn_session", ann.session or "", domain="127.0.0.1")
    res = forged.http.post(f"/api/tables/{table}/share", json={})
    assert res.status_code == 403, res.text
    forged.close()
    # Ann, by her account alone (no seat token sent): the account holds seat 1
    res = ann.http.post(f"/api/tables/{table}/share", json={})
    assert res.status_code == 200, res.text
    token = res.json()["token"]
    # the club's table stays the members' own; its shared game reads for anyone
    refused(httpx.get(f"{server.url}/api/tables/{table}/replay"), 404, "no_table")
    refused(dan.http.get(f"/api/tables/{table}/replay"), 404, "no_table")
    replay = httpx.get(f"{server.url}/api/shared/{token}/replay", timeout=10)
    assert replay.status_code == 200 and replay.json()["steps"][-1]["view"]["phase"] == "over"
    assert seat_token not in replay.text and club["invite"] not in replay.text
    # removed from nothing by reading: the club's page still refuses the stranger
    refused(dan.club_get("/" + club["id"]), 404, "no_club")


def test_a_spectator_and_an_account_without_a_seat_may_not_share(
    server: ServerThread, people: Callable[..., Member]
) -> None:
    created = server.create(name="Ann", players=2, bots={"2": "easy"})
    finish(server, created["table"], created["token"])
    watcher = Client(f"ws://127.0.0.1:{server.port}/ws/{created['table']}", None)
    watcher.wait(lambda m: m["type"] == "sync")
    watcher.close()
    refused(share(server, created["table"], {}), 403, "not_player")
    bob = people("Bob")  # signed in, from this server's page, but he holds no seat
    refused(bob.http.post(f"/api/tables/{created['table']}/share", json={}), 403, "not_player")


def test_a_share_is_one_link_for_every_process_on_postgresql(
    database: str,  # first: dropped after the servers have stopped
    make_server: Callable[..., ServerThread],
) -> None:
    one, two = (make_server(database=database, secure_cookies=False) for _ in range(2))
    created = one.create(name="Ann", players=2, bots={"2": "easy"})
    finish(one, created["table"], created["token"])
    body = {"token": created["token"]}
    here = share(one, created["table"], body)
    there = share(two, created["table"], body)  # the other process reads the table and the link
    assert here.status_code == there.status_code == 200, (here.text, there.text)
    assert here.json() == there.json()
    token = here.json()["token"]
    for server in (one, two):
        replay = httpx.get(f"{server.url}/api/shared/{token}/replay", timeout=10)
        assert replay.status_code == 200 and replay.json()["names"][0] == "Ann"
