"""The WebSocket protocol against a real uvicorn on loopback, with several clients."""

from __future__ import annotations

import asyncio
import concurrent.futures
import dataclasses
import random
import threading
from collections.abc import Callable
from typing import Any

import pytest

from ninetynine.coach import advice_json, advise
from ninetynine.engine.view import View
from ninetynine.records.match import replay
from ninetynine.records.record import Record, parse_record
from tests.web.conftest import ROOMY
from tests.web.helpers import FakeClock, ServerThread, play_game


def two_player_table(server: ServerThread, **options: object) -> tuple[str, str, str]:
    created = server.create(name="Ann", rules="P", players=2, **options)
    joined = server.join(created["table"], "Bob")
    assert joined["seat"] == 2
    return created["table"], created["token"], joined["token"]


def test_two_players_and_a_bot_play_a_game_to_the_end(server: ServerThread) -> None:
    private = server.create(name="Cy", rules="P", players=2)  # invite only: never listed
    created = server.create(name="Ann", rules="P", players=3, bots={"3": "easy"}, public=True)
    table = created["table"]
    assert server.get("/api/tables").json() == []  # nobody is at it yet: not worth joining
    ann_c = server.client(table, created["token"])
    ann_c.wait(lambda m: m["type"] == "sync")
    listed = server.get("/api/tables").json()
    assert private["table"] not in {t["id"] for t in listed}
    assert [(t["id"], t["status"]) for t in listed] == [(table, "waiting")]
    assert server.get(f"/api/tables/{table}/record").status_code == 409  # not before the end
    bob = server.join(table, "Bob")
    listed = server.get("/api/tables").json()  # now listed to watch
    assert [(t["id"], t["status"]) for t in listed] == [(table, "playing")]
    bob_c = server.client(table, bob["token"])
    play_game([ann_c, bob_c], random.Random(1))
    over = ann_c.view
    assert over["phase"] == "over" and over["outcome"]["winners"]
    res = server.get(f"/api/tables/{table}/record")
    assert res.status_code == 200
    assert server.get("/api/tables").json() == []  # finished games are not listed
    final, events = replay(parse_record(res.text))  # what `ninetynine replay` reads
    assert final.is_over
    assert [w + 1 for w in final.outcome.winners] == over["outcome"]["winners"]  # type: ignore[union-attr]
    assert ann_c.state == len(parse_record(res.text).moves)


def test_refused_messages_get_typed_errors_and_change_nothing(server: ServerThread) -> None:
    table, t1, t2 = two_player_table(server)
    a, b = server.client(table, t1), server.client(table, t2)
    a.wait(lambda m: m["type"] == "sync")
    b.wait(lambda m: m["type"] == "sync")
    while not (a.my_turn() or b.my_turn()):  # the deal's update may still be on its way
        a.drain(0.05)
        b.drain(0.05)
    mover, other = (a, b) if a.my_turn() else (b, a)
    other.drain(0.1)
    state, legal = mover.state, mover.view["legal"]
    cases = [
        (mover, "not json", "malformed"),
        (mover, [1, 2], "malformed"),
        (mover, {"type": "dance"}, "malformed"),
        (mover, {"type": "act", "state": state}, "malformed"),
        (mover, {"type": "act", "state": str(state), "action": legal[0]}, "malformed"),
        (mover, {"type": "act", "state": state, "action": "ZZ"}, "malformed"),
        (mover, {"type": "act", "state": state - 1, "action": legal[0]}, "stale"),
        (other, {"type": "act", "state": state, "action": legal[0]}, "not_your_turn"),
        (mover, {"type": "act", "state": state, "action": "pass"}, "not_allowed"),
        (mover, {"type": "act", "state": state, "action": "shuffle AS 2S"}, "not_allowed"),
    ]
    hand = mover.view["hand"]
    plain = next((c for c in hand if not c.startswith(("A", "10"))), None)
    if plain:  # a card with one value, given another
        cases.append((mover, {"type": "act", "state": state, "action": f"{plain}+3"}, "bad_value"))
    missing = next(c for c in ("AS", "KH", "5D", "9C", "10S") if c not in hand)
    cases.append((mover, {"type": "act", "state": state, "action": missing}, "not_in_hand"))
    for client, msg, code in cases:
        client.send(msg)
        err = client.error()
        assert err["code"] == code, (msg, err)
        assert err["message"] and "\n" not in err["message"]
        if code in ("not_allowed", "bad_value", "not_in_hand"):  # the engine's cause
            assert err["legal"] == legal and "legal:" not in err["message"]
    for client in (a, b):  # nobody received an update: nothing changed
        client.send({"type": "ping"})
        pong = client.wait(lambda m: m["type"] in ("pong", "update"))
        assert pong == {"type": "pong", "state": state}
    mover.send({"type": "act", "state": state, "action": legal[0]})
    mover.wait(lambda m: m["type"] == "update" and m["state"] > state)
    mover.send({"type": "act", "state": state, "action": legal[0]})
    assert mover.error()["code"] == "duplicate"


def test_spectators_see_no_hands_and_cannot_play(server: ServerThread) -> None:
    table, t1, t2 = two_player_table(server)
    a = server.client(table, t1)
    watcher = server.client(table, None)
    sync = watcher.wait(lambda m: m["type"] == "sync")
    assert sync["view"]["seat"] is None and sync["view"]["hand"] == []
    assert sync["view"]["legal"] == []
    a.wait(lambda m: m["type"] == "sync")
    watcher.send({"type": "act", "state": 0, "action": "AS"})
    assert watcher.error()["code"] == "spectator"
    watcher.send({"type": "rematch"})
    assert watcher.error()["code"] == "spectator"


def test_a_bad_token_or_no_hello_is_refused(server: ServerThread) -> None:
    table, _, _ = two_player_table(server)
    c = server.client(table, "not-a-token")
    assert c.error()["code"] == "bad_token"
    nobody = server.client("nosuchtable", None)
    assert nobody.error()["code"] == "no_table"


def test_reconnecting_returns_to_the_same_seat_and_state(server: ServerThread) -> None:
    table, t1, t2 = two_player_table(server)
    a, b = server.client(table, t1), server.client(table, t2)
    play_rng = random.Random(3)
    for c in (a, b):
        c.wait(lambda m: m["type"] == "sync")
    for _ in range(3):  # a few moves, then Ann's connection drops
        a.drain(0.1)
        b.drain(0.1)
        mover = a if a.my_turn() else b
        if not mover.my_turn():
            break
        st = mover.state
        mover.send({"type": "act", "state": st, "action": play_rng.choice(mover.view["legal"])})
        mover.wait(lambda m, st=st: m["type"] == "update" and m["state"] > st)
    a.drain(0.1)
    before = a.last
    a.close()
    b.wait(lambda m: m["type"] == "update" and not m["table"]["seats"][0]["connected"])
    again = server.client(table, t1)
    sync = again.wait(lambda m: m["type"] == "sync")
    assert sync["view"]["seat"] == 1
    assert sync["state"] == before["state"]  # type: ignore[index]
    assert sync["view"]["hand"] == before["view"]["hand"]  # type: ignore[index]
    b.wait(lambda m: m["type"] == "update" and m["table"]["seats"][0]["connected"])


def test_an_absent_player_is_replaced_by_a_bot_until_they_return(
    server: ServerThread, clock: FakeClock
) -> None:
    table, t1, t2 = two_player_table(server)
    a, b = server.client(table, t1), server.client(table, t2)
    a.wait(lambda m: m["type"] == "sync")
    b.wait(lambda m: m["type"] == "sync")
    a.close()
    b.wait(lambda m: m["type"] == "update" and not m["table"]["seats"][0]["connected"])
    clock.advance(29)
    b.drain(0.2)
    assert not b.last["table"]["seats"][0]["bot_playing"]  # type: ignore[index]
    clock.advance(2)  # past the 30 s grace period
    b.wait(lambda m: m["type"] == "update" and m["table"]["seats"][0]["bot_playing"])
    # Bob plays; the bot answers for Ann every time
    rng = random.Random(5)
    for _ in range(4):
        b.drain(0.1)
        if b.view["phase"] == "over":
            break
        if not b.my_turn():
            b.wait(
                lambda m: (
                    m["type"] == "update"
                    and (m["view"]["turn"] == 2 or m["view"]["phase"] == "over")
                )
            )
            continue
        st = b.state
        b.send({"type": "act", "state": st, "action": rng.choice(b.view["legal"])})
        b.wait(
            lambda m, st=st: (
                m["type"] == "update"
                and m["state"] > st
                and (m["view"]["turn"] == 2 or m["view"]["phase"] == "over")
            )
        )
    assert any(
        "a bot plays for them" in (e.get("text") or "")
        for e in server.lobby.tables[table].fanout.log
    )
    back = server.client(table, t1)
    back.wait(lambda m: m["type"] == "sync")
    b.wait(lambda m: m["type"] == "update" and not m["table"]["seats"][0]["bot_playing"])


def test_leaving_hands_the_seat_to_a_bot_at_once(server: ServerThread) -> None:
    table, t1, t2 = two_player_table(server)
    a, b = server.client(table, t1), server.client(table, t2)
    a.wait(lambda m: m["type"] == "sync")
    b.wait(lambda m: m["type"] == "sync")
    a.send({"type": "leave"})
    b.wait(lambda m: m["type"] == "update" and m["table"]["seats"][0]["bot_playing"])


def test_the_turn_clock_lets_a_bot_play_for_a_slow_player(
    server: ServerThread, clock: FakeClock
) -> None:
    table, t1, t2 = two_player_table(server, clock=10)
    a, b = server.client(table, t1), server.client(table, t2)
    a.wait(lambda m: m["type"] == "sync")
    b.wait(lambda m: m["type"] == "sync")
    a.drain(0.2)
    b.drain(0.2)
    mover = a if a.my_turn() else b
    state = mover.state
    assert mover.last["table"]["clock_left"] == 10  # type: ignore[index]
    clock.advance(9)
    mover.drain(0.2)
    assert mover.state == state
    clock.advance(1.5)
    msg = mover.wait(lambda m: m["type"] == "update" and m["state"] > state)
    assert any(e["kind"] == "TimedOut" for e in mover.last["events"]) or msg
    assert any(e.get("kind") == "TimedOut" for e in server.lobby.tables[table].fanout.log)


def test_rematch_seats_the_same_players_at_a_new_table(server: ServerThread) -> None:
    table, t1, t2 = two_player_table(server)
    a, b = server.client(table, t1), server.client(table, t2)
    play_game([a, b], random.Random(11))
    a.send({"type": "rematch"})
    msg = a.wait(lambda m: m["type"] == "rematch")
    b.wait(lambda m: m["type"] == "rematch")
    new = msg["table"]
    assert new != table
    again = server.client(new, t2)  # the same token holds the same seat
    sync = again.wait(lambda m: m["type"] == "sync")
    assert sync["view"]["seat"] == 2 and sync["table"]["status"] == "playing"


def test_lobby_errors_are_clear(server: ServerThread) -> None:
    def error(body: dict[str, object], path: str = "/api/tables") -> tuple[int, str]:
        res = server.post(path, body)
        return res.status_code, res.json()["error"]

    assert error({"rules": "nope"})[0] == 400
    assert "unknown rule set 'nope'" in error({"rules": "nope"})[1]
    assert "not 11" in error({"rules": "P", "players": 11})[1]
    assert "expected a whole number" in error({"players": "four"})[1]
    assert (
        "bot 'genius': expected one of easy, medium, hard"
        in error({"players": 3, "bots": {"2": "genius"}})[1]
    )
    assert "not valid TOML" in error({"house_rules": "lives = = 3"})[1]
    assert error({"rules": "/etc/passwd"})[0] == 400  # never a path on the server
    created = server.create(players=2, house_rules='preset = "K"\n[rules]\nlives = 5\n')
    summary = server.get(f"/api/tables/{created['table']}").json()
    assert summary["rules"]["id"] == "K+house"
    server.join(created["table"], "Bob")
    status, text = error({"name": "Cy"}, f"/api/tables/{created['table']}/join")
    assert status == 409 and "every seat is taken" in text
    assert server.get("/api/tables/nosuch").status_code == 404
    assert server.post("/api/tables", {"name": "x" * 99}).status_code == 400


def test_the_coach_answers_the_seat_to_play_from_its_own_view(
    server: ServerThread, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 16: the coach at the web table: each legal move's chances, the same figures as
    the coach run on that seat's view, once a turn; refused to spectators and out of turn."""
    table, t1, t2 = two_player_table(server)
    a, b = server.client(table, t1), server.client(table, t2)
    watcher = server.client(table, None)
    for c in (a, b, watcher):
        c.wait(lambda m: m["type"] == "sync")
    while not (a.my_turn() or b.my_turn()):
        a.drain(0.05)
        b.drain(0.05)
    mover, other = (a, b) if a.my_turn() else (b, a)
    other.drain(0.1)
    asked: list[int] = []  # the seats of the views the coach's worker was given
    workers = server.lobby.workers
    run_work = workers.run

    async def counted(fn: Callable[..., Any], *args: Any, **options: Any) -> Any:
        asked.extend(a.seat for a in args if isinstance(a, View))
        return await run_work(fn, *args, **options)

    monkeypatch.setattr(workers, "run", counted)
    match = server.lobby.tables[table].match
    seat = match.state.current_seat
    assert seat is not None
    mover.send({"type": "coach"})
    got = mover.wait(lambda m: m["type"] == "coach", 20)
    expected = advice_json(
        advise(
            match.view(seat),  # the seat's view with the public log
            playouts=server.settings.limits.coach_playouts,
            seed=mover.state,
        )
    )
    assert got == {"type": "coach", "state": mover.state, **expected}
    assert [m["action"] for m in got["moves"]] == mover.view["legal"]
    assert sum(m["best"] for m in got["moves"]) == 1
    other.send({"type": "coach"})
    assert other.error()["code"] == "not_your_turn"
    watcher.send({"type": "coach"})
    assert watcher.error()["code"] == "spectator"
    mover.send({"type": "coach"})  # asked again: the same figures, not worked out again
    assert mover.wait(lambda m: m["type"] == "coach", 5) == got
    assert asked == [seat]


def test_reviews_are_for_finished_games_and_bounded(
    make_server: Callable[..., ServerThread], monkeypatch: pytest.MonkeyPatch
) -> None:
    server = make_server(limits=dataclasses.replace(ROOMY, reviews_at_once=1))
    table, t1, t2 = two_player_table(server)
    res = server.get(f"/api/tables/{table}/review?seat=1")
    assert res.status_code == 409 and res.json()["code"] == "not_finished"
    clients = [server.client(table, t1), server.client(table, t2)]
    play_game(clients, random.Random(5))
    assert server.get(f"/api/tables/{table}/review").json()["code"] == "bad_record"  # no seat
    assert server.get(f"/api/tables/{table}/review?seat=3").status_code == 400
    record = server.get(f"/api/tables/{table}/record").text
    bad = server.post("/api/review", {"record": "rules = 1 = 2", "seat": 1})
    assert bad.status_code == 400 and bad.json()["code"] == "bad_record"
    entered, release = threading.Event(), threading.Event()

    async def slow(
        fn: Callable[..., Any], record: Record, seat: int, playouts: int, **options: Any
    ) -> dict[str, Any]:  # a review that takes its time
        entered.set()
        await asyncio.to_thread(release.wait, 10)
        return {"seat": seat + 1}

    monkeypatch.setattr(server.lobby.workers, "run", slow)
    first = concurrent.futures.ThreadPoolExecutor(1).submit(
        server.post, "/api/review", {"record": record, "seat": 1}
    )
    assert entered.wait(5)
    busy = server.post("/api/review", {"record": record, "seat": 2})  # refused, not queued
    assert busy.status_code == 429 and busy.json()["limit"] == "reviews_at_once"
    release.set()
    assert first.result(10).json() == {"seat": 1}
    assert server.get(f"/api/tables/{table}/review?seat=2").json() == {"seat": 2}


OPTIONAL_AGAIN = (
    'preset = "P-2P-AGAIN"\nname = "Four: play again or decline"\n[rules]\n'
    'two_player_reverse = "play_again_optional"\n'
)


def test_an_extra_turn_is_declined_with_pass(server: ServerThread) -> None:
    """P-2P-AGAIN read as a right: the view says so, and a pass then declines the turn."""
    created = server.create(name="Ann", house_rules=OPTIONAL_AGAIN, players=2)
    joined = server.join(created["table"], "Bob")
    clients = [server.client(created["table"], t) for t in (created["token"], joined["token"])]
    for c in clients:
        c.wait(lambda m: m["type"] == "sync")
    rng, refused = random.Random(3), False
    for _ in range(2000):
        for c in clients:
            c.drain(0.002)
        mover = next((c for c in clients if c.my_turn()), None)
        if mover is None:
            continue
        view, state = mover.view, mover.state
        assert view["may_decline"] == ("pass" in view["legal"])
        if view["may_decline"]:
            mover.send({"type": "act", "state": state, "action": "pass"})
            msg = mover.wait(lambda m, st=state: m["type"] == "update" and m["state"] > st)
            assert [e["text"] for e in msg["events"] if e["kind"] == "Declined"] == [
                f"{'Ann' if view['seat'] == 1 else 'Bob'} declines the extra turn."
            ]
            assert msg["view"]["total"] == view["total"] and msg["view"]["turn"] != view["seat"]
            assert refused  # and outside the extra turn a pass was refused
            return
        if not refused:
            mover.send({"type": "act", "state": state, "action": "pass"})
            assert mover.error()["code"] == "not_allowed"
            refused = True
        fours = [a for a in view["legal"] if a[0] == "4"]
        action = fours[0] if fours else rng.choice(view["legal"])
        mover.send({"type": "act", "state": state, "action": action})
        mover.wait(lambda m, st=state: m["type"] == "update" and m["state"] > st)
    raise AssertionError("no extra turn was offered")
