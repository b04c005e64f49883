"""Finished games remembered per account (issue 28): a rated game's results in both players'
histories with places and ratings that moved the right way, the leaderboards in order, the
profile for the account and its clubs' members only, the records' zip, a guest's seats claimed
by the account it creates, deletion taking the results and ratings along, and results and
ratings written once when two processes see the end (PostgreSQL)."""

from __future__ import annotations

import dataclasses
import io
import random
import time
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import psycopg
import pytest

from ninetynine.web.history.store import HistoryStore, Rating, RatingChange
from ninetynine.web.storage import SQLiteStorage
from tests.web.conftest import ROOMY
from tests.web.helpers import Client, ServerThread, play_game
from tests.web.passkey import Authenticator, refused
from tests.web.test_clubs import Member, browsers

MakeServer = Callable[..., ServerThread]


@pytest.fixture
def server(make_server: MakeServer) -> ServerThread:
    return make_server(secure_cookies=False)


@pytest.fixture
def people(server: ServerThread) -> Any:
    yield from browsers(server.url)


def ws(url: str, table: str, token: str) -> Client:
    return Client(url.replace("http", "ws", 1) + f"/ws/{table}", token)


def games(who: Member, before: str | None = None) -> dict[str, Any]:
    res = who.http.get("/api/account/games", params={"before": before} if before else {})
    assert res.status_code == 200, res.text
    return res.json()  # type: ignore[no-any-return]


def wait_games(who: Member, count: int, rated: bool = False) -> list[dict[str, Any]]:
    """The account's games once ``count`` are stored (a rated one with its rating change)."""
    deadline = time.monotonic() + 15
    while True:
        found = games(who)["games"]
        if len(found) >= count and (not rated or all(g["rating"] for g in found)):
            return found  # type: ignore[no-any-return]
        assert time.monotonic() < deadline, found
        time.sleep(0.05)


def rated_game(ann: Member, bob: Member, ann_url: str, bob_url: str, seed: int = 1) -> str:
    """Ann (at ``ann_url``) and Bob (at ``bob_url``) play a rated game with an easy bot to the
    end, each over their own WebSocket; the table's id."""
    res = ann.table(players=3, name="Ann", bots={"3": "easy"}, rated=True)
    assert res.status_code == 200, res.text
    table, ann_token = res.json()["table"], res.json()["token"]
    joined = bob.http.post(f"/api/tables/{table}/join", json={"name": "Bob"})
    assert joined.status_code == 200, joined.text
    clients = [ws(ann_url, table, ann_token), ws(bob_url, table, joined.json()["token"])]
    try:
        play_game(clients, random.Random(seed))
    finally:
        for c in clients:
            c.close()
    return str(table)


def test_a_rated_game_is_in_both_histories_with_places_ratings_and_a_leaderboard(
    server: ServerThread, people: Callable[..., Member]
) -> None:
    ann, bob = people("Ann"), people("Bob")
    table = rated_game(ann, bob, server.url, server.url)
    assert ann.http.get(f"/api/tables/{table}").json()["rated"] is True
    (mine,) = wait_games(ann, 1, rated=True)
    (his,) = wait_games(bob, 1, rated=True)
    for game, seat in ((mine, 1), (his, 2)):
        assert game["table"] == table and game["seat"] == seat and game["rated"] is True
        assert game["players"] == ["Ann", "Bob", "Cleo (easy)"]
        assert game["rules"]["id"] == "P" and game["family"] == "Pagat-style"
        assert 1 <= game["place"] <= 3 and game["won"] == (game["place"] == 1)
        assert game["links"] == {
            "replay": f"/t/{table}?replay=1&seat={seat}",
            "review": f"/t/{table}?replay=1&seat={seat}&review=1",
            "record": f"/api/tables/{table}/record",
        }
        before, after = game["rating"]["before"], game["rating"]["after"]
        assert before["mu"] == 25.0 and after["sigma"] < before["sigma"]  # a first game
        if game["place"] == 1:
            assert after["mu"] > before["mu"]
        if game["place"] == 3:
            assert after["mu"] < before["mu"]
    if mine["place"] != his["place"]:
        better, worse = (mine, his) if mine["place"] < his["place"] else (his, mine)
        assert better["rating"]["after"]["mu"] > worse["rating"]["after"]["mu"]
    # the record link works for the players
    assert ann.http.get(mine["links"]["record"]).status_code == 200
    # the server's leaderboard: names and ratings, best (ordinal) first
    board = ann.http.get("/api/leaderboard").json()
    (family,) = board["families"]
    assert family["family"] == "Pagat-style"
    ordinals = {g["players"][g["seat"] - 1]: g["rating"]["after"]["ordinal"] for g in (mine, his)}
    names = sorted(ordinals, key=lambda n: -ordinals[n])
    assert [p["name"] for p in family["players"]] == names
    assert set(family["players"][0]) == {"name", "mu", "sigma", "ordinal"}  # no account id
    # Ann's profile, to herself
    ann_id = ann.me()["id"]  # type: ignore[index]
    profile = ann.http.get(f"/api/players/{ann_id}").json()
    assert profile["name"] == "Ann"
    assert profile["rules"] == [
        {"id": "P", "name": profile["rules"][0]["name"], "games": 1, "wins": int(mine["won"])}
    ]
    (rating,) = profile["ratings"]
    assert rating["family"] == "Pagat-style" and rating["games"] == 1
    assert rating["mu"] == mine["rating"]["after"]["mu"] and len(rating["points"]) == 1
    # a club's leaderboard: its members, with their ids
    club = ann.create_club("Ann's")
    bob.join_club(club["invite"])
    club_board = bob.http.get(f"/api/clubs/{club['id']}/leaderboard").json()
    players = club_board["families"][0]["players"]
    assert [p["name"] for p in players] == names and all(p["games"] == 1 for p in players)


def test_rated_needs_a_signed_in_creator_and_a_presets_rules(
    server: ServerThread, people: Callable[..., Member]
) -> None:
    guest, ann = people(), people("Ann")
    message = refused(guest.table(rated=True), 401, "not_signed_in")
    assert message.startswith("rated: only a signed-in player may create a rated table")
    house = 'name = "Friday"\npreset = "K"\n[rules]\nlives = 5\n'
    refused(ann.table(rated=True, house_rules=house), 400, "bad_table")
    refused(ann.table(rated="yes"), 400, "bad_table")
    ok = ann.table(rated=True, players=2)
    assert (
        ok.status_code == 200 and ann.http.get(f"/api/tables/{ok.json()['table']}").json()["rated"]
    )


def test_a_profile_history_and_club_leaderboard_are_not_for_strangers(
    server: ServerThread, people: Callable[..., Member]
) -> None:
    ann, bob, cara = people("Ann"), people("Bob"), people("Cara")
    guest = people()
    rated_game(ann, bob, server.url, server.url, seed=2)
    wait_games(ann, 1, rated=True)
    ann_id, bob_id = ann.me()["id"], bob.me()["id"]  # type: ignore[index]
    # no club shared: Bob's profile reads as a missing one to Ann, and Cara sees neither
    missing = refused(ann.http.get("/api/players/NoSuchAccount"), 404, "no_player")
    got = refused(ann.http.get(f"/api/players/{bob_id}"), 404, "no_player")
    assert got.replace(bob_id, "NoSuchAccount") == missing
    for target in (ann_id, bob_id):
        refused(cara.http.get(f"/api/players/{target}"), 404, "no_player")
        refused(guest.http.get(f"/api/players/{target}"), 401, "not_signed_in")
    refused(guest.http.get("/api/account/games"), 401, "not_signed_in")
    refused(guest.http.get("/api/account/records"), 401, "not_signed_in")
    assert games(cara) == {"games": [], "next": None}  # her history is her own: empty
    # a club shared: Bob's profile for Ann; the club's leaderboard for its members only
    club = bob.create_club("Bob's")
    ann.join_club(club["invite"])
    assert ann.http.get(f"/api/players/{bob_id}").json()["name"] == "Bob"
    refused(cara.http.get(f"/api/players/{bob_id}"), 404, "no_player")
    refused(cara.http.get(f"/api/clubs/{club['id']}/leaderboard"), 404, "no_club")
    refused(guest.http.get(f"/api/clubs/{club['id']}/leaderboard"), 401, "not_signed_in")
    assert ann.http.get(f"/api/clubs/{club['id']}/leaderboard").status_code == 200
    ann.club_ok(f"/{club['id']}/leave")  # no club shared any more
    refused(ann.http.get(f"/api/players/{bob_id}"), 404, "no_player")
    refused(ann.http.get("/api/account/games?before=x"), 400, "malformed")


def test_a_guest_claims_their_seats_and_history_pages(make_server: MakeServer) -> None:
    server = make_server(secure_cookies=False, limits=dataclasses.replace(ROOMY, games_per_page=1))
    for make in browsers(server.url):
        me = make()  # a guest: plays two games against a bot
        tokens = []
        for seed in (3, 4):
            res = me.table(players=2, name="Me", bots={"2": "easy"})
            table, token = res.json()["table"], res.json()["token"]
            client = ws(server.url, table, token)
            play_game([client], random.Random(seed))
            client.close()
            tokens.append({"table": table, "token": token})
        me.sign_up("Dora", Authenticator())
        refused(
            make(origin="https://evil.example").http.post(
                "/api/account/claim", json={"seats": tokens}
            ),
            403,
            "forbidden_origin",
        )
        body = {
            "seats": [
                *tokens,
                {"table": tokens[0]["table"], "token": "not-the-token-of-any-seat"},
                {"table": "NoSuchTable", "token": tokens[0]["token"]},
            ]
        }
        res = me.http.post("/api/account/claim", json=body)
        assert res.status_code == 200, res.text
        answer = res.json()
        assert answer["claimed"] == [
            {"table": t["table"], "seat": 1, "finished": True} for t in tokens
        ]
        assert answer["refused"] == [
            {"table": tokens[0]["table"], "reason": "this token opens no seat of the table"},
            {"table": "NoSuchTable", "reason": "no such table"},
        ]
        # a page at a time, newest first; not rated after the fact
        first = games(me)
        (newest,) = first["games"]
        assert newest["table"] == tokens[1]["table"] and first["next"]
        assert newest["rated"] is False and newest["rating"] is None
        second = games(me, first["next"])
        assert [g["table"] for g in second["games"]] == [tokens[0]["table"]]
        assert second["next"] is None
        # claimed again: nothing twice; another account may not take the seat
        assert me.http.post("/api/account/claim", json={"seats": tokens}).status_code == 200
        assert len(games(me)["games"]) == 1 and games(me, games(me)["next"])["next"] is None
        other = make("Eve")
        res = other.http.post("/api/account/claim", json={"seats": tokens[:1]})
        assert res.json()["refused"] == [
            {"table": tokens[0]["table"], "reason": "the seat is another account's"}
        ]
        refused(other.http.post("/api/account/claim", json={"seats": "all"}), 400, "malformed")
        many = {"seats": [tokens[0]] * (ROOMY.claims_at_once + 1)}
        assert "claims_at_once" in refused(
            other.http.post("/api/account/claim", json=many), 400, "limit"
        )


def test_the_records_download_and_deletion(
    server: ServerThread, people: Callable[..., Member]
) -> None:
    ann, bob = people("Ann"), people("Bob")
    table = rated_game(ann, bob, server.url, server.url, seed=5)
    wait_games(bob, 1, rated=True)
    done = server.lobby.workers.stats.done
    res = ann.http.get("/api/account/records")
    assert res.status_code == 200 and res.headers["content-type"] == "application/zip"
    assert server.lobby.workers.stats.done == done + 1  # replayed in a worker, not the server
    archive = zipfile.ZipFile(io.BytesIO(res.content))
    assert archive.namelist() == [f"ninetynine-{table}.toml"]
    record = ann.http.get(f"/api/tables/{table}/record").text
    assert archive.read(f"ninetynine-{table}.toml").decode() == record
    # deleted, Ann's results, ratings and history go; Bob's stay
    ann_id = ann.me()["id"]  # type: ignore[index]
    ann.ok("delete", {"confirm": "Ann"})
    storage = server.lobby.storage
    for sql in (
        "SELECT COUNT(*) FROM nn_results WHERE account = ?",
        "SELECT COUNT(*) FROM nn_ratings WHERE account = ?",
        "SELECT COUNT(*) FROM nn_rating_history WHERE account = ?",
    ):
        assert storage.execute(sql, (ann_id,)) == [(0,)], sql
    assert len(games(bob)["games"]) == 1
    board = bob.http.get("/api/leaderboard").json()["families"][0]["players"]
    assert [p["name"] for p in board] == ["Bob"]


def test_results_and_ratings_are_written_once_when_two_processes_see_the_end(
    database: str,  # first: dropped after the servers have stopped
    make_server: MakeServer,
) -> None:
    one, two = (make_server(database=database, secure_cookies=False) for _ in range(2))
    seen: list[str] = []  # which processes saw the end and stored its results
    for name, process in (("one", one), ("two", two)):
        store = process.lobby.game_over
        assert store is not None

        async def spy(table: Any, name: str = name, store: Any = store) -> None:
            seen.append(name)
            await store(table)

        process.lobby.game_over = spy
    for here in browsers(one.url):
        for there in browsers(two.url):
            ann, bob = here("Ann"), there("Bob")
            table = rated_game(ann, bob, one.url, two.url, seed=6)
            wait_games(ann, 1, rated=True)
            wait_games(bob, 1, rated=True)
            deadline = time.monotonic() + 10
            while sorted(set(seen)) != ["one", "two"]:  # both processes saw the end
                assert time.monotonic() < deadline, seen
                time.sleep(0.05)
            time.sleep(0.5)  # the later one's writes, had they not been refused
            with psycopg.connect(database) as db:
                for sql, expected in (
                    ("SELECT COUNT(*) FROM nn_results WHERE table_id = %s", 2),
                    ("SELECT COUNT(*) FROM nn_rated_games WHERE table_id = %s", 1),
                    ("SELECT COUNT(*) FROM nn_rating_history WHERE table_id = %s", 2),
                ):
                    assert db.execute(sql, (table,)).fetchone() == (expected,), sql
                games_ = db.execute("SELECT games FROM nn_ratings ORDER BY account").fetchall()
                assert games_ == [(1,), (1,)]


def test_a_rating_is_moved_once_and_a_stale_update_is_refused(tmp_path: Path) -> None:
    """The store's side of "once": a game's second rating (its marker) and an update computed
    from a rating another game moved meanwhile (its game number taken) are refused whole."""
    storage = SQLiteStorage(tmp_path / "db.sqlite3")
    store = HistoryStore(storage)
    start = Rating(25.0, 25.0 / 3)
    first = [RatingChange("ann", start, Rating(27.0, 7.0, 1))]
    assert store.rate("t1", "Pagat-style", first, 1.0)
    assert not store.rate("t1", "Pagat-style", first, 2.0)  # the same game again
    stale = [
        RatingChange("bob", start, Rating(24.0, 7.0, 1)),
        RatingChange("ann", start, Rating(23.0, 7.0, 1)),  # from before t1 moved it
    ]
    assert not store.rate("t2", "Pagat-style", stale, 3.0)
    assert store.ratings(["ann", "bob"], "Pagat-style") == {"ann": Rating(27.0, 7.0, 1)}
    assert not store.is_rated("t2")  # nothing of the refused update was kept
    fresh = [
        RatingChange("bob", start, Rating(24.0, 7.0, 1)),
        RatingChange("ann", Rating(27.0, 7.0, 1), Rating(26.0, 6.5, 2)),
    ]
    assert store.rate("t2", "Pagat-style", fresh, 4.0)
    assert [p.games for _, p in store.points("ann", "Pagat-style", 10)] == [1, 2]
    storage.close()
