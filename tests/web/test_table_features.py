"""What the browser table is told beyond the view: each card's total or the engine's
reason, the card labels, the standings, table chat, the live lobby and replays."""

from __future__ import annotations

import json
import random

import pytest
from websockets.sync.client import connect

from ninetynine import load_rules, new_game
from ninetynine.engine.actions import parse_action
from ninetynine.engine.events import LifeLost
from ninetynine.engine.options import card_options
from ninetynine.engine.view import observe
from ninetynine.errors import IllegalActionError
from ninetynine.records.record import format_record
from ninetynine.rules.cards import parse_card
from ninetynine.web.wire import event_json, view_json
from tests.web.helpers import Client, ServerThread, play_game


def two_players(server: ServerThread, rules: str = "P") -> tuple[str, Client, Client]:
    created = server.create(name="Ann", rules=rules, players=2)
    bob = server.join(created["table"], "Bob")
    a = server.client(created["table"], created["token"])
    b = server.client(created["table"], bob["token"])
    for c in (a, b):
        c.wait(lambda m: m["type"] == "sync")
    while not (a.my_turn() or b.my_turn()):
        a.drain(0.05)
        b.drain(0.05)
    return created["table"], a, b


def test_the_player_to_act_sees_each_cards_total_or_the_engines_reason(
    server: ServerThread,
) -> None:
    table_id, a, b = two_players(server)
    mover, other = (a, b) if a.my_turn() else (b, a)
    frame = mover.last
    assert frame is not None and "options" in frame and "options" not in (other.last or {})
    state = server.lobby.tables[table_id].state
    seat = state.current_seat
    assert seat is not None
    expected = {o.card: o for o in card_options(state, seat)}
    assert len(frame["options"]) == len(expected)
    for text, option in frame["options"].items():
        for play in option["plays"]:  # the total shown is the engine's
            trial = state.clone()
            trial.apply(parse_action(play["action"]), seat)
            assert trial.total == play["total"] or trial.hand_no != state.hand_no
        if option["refused"]:  # the engine's own refusal of that card
            card = parse_card(text)
            with pytest.raises(IllegalActionError) as e:
                state.check(state.plays_of(card)[0], seat)
            assert option["refused"] == {"reason": e.value.reason.value, "why": e.value.why}
        assert bool(option["plays"]) != bool(option["refused"])


def test_a_sync_labels_the_special_cards_for_these_rules(server: ServerThread) -> None:
    _, a, _ = two_players(server, "K")
    rules = a.frames and json.loads(a.frames[0])["rules"]
    assert rules["id"] == "K" and rules["limit"] == 99
    assert rules["ranks"]["K"] == {"label": "sets 99", "special": True, "names": None}
    assert rules["ranks"]["4"] == {"label": "reverses", "special": True, "names": None}
    assert rules["ranks"]["5"] == {"label": "+5", "special": False, "names": None}
    assert rules["ranks"]["Q"] == {"label": "+20", "special": True, "names": None}


def test_the_end_of_a_game_has_standings(server: ServerThread) -> None:
    _, a, b = two_players(server)
    play_game([a, b], random.Random(5))
    standings = a.last["standings"]  # type: ignore[index]
    winners = a.view["outcome"]["winners"]
    assert [s["seat"] for s in standings["seats"] if s["place"] == 1] == winners
    assert all(s["won"] == (s["seat"] in winners) for s in standings["seats"])
    assert standings["hands"] >= 1


def test_bots_have_names(server: ServerThread) -> None:
    created = server.create(name="Ann", players=4, bots={"2": "easy", "3": "medium", "4": "hard"})
    seats = server.get(f"/api/tables/{created['table']}").json()["seats"]
    assert [s["name"] for s in seats] == ["Ann", "Ben (easy)", "Cleo (medium)", "Dev (hard)"]


def test_table_chat_reaches_everyone_and_comes_back_after_a_reload(server: ServerThread) -> None:
    table_id, a, b = two_players(server)
    watcher = server.client(table_id, None)
    watcher.wait(lambda m: m["type"] == "sync")
    a.send({"type": "chat", "text": "  good luck!  "})
    for c in (a, b, watcher):
        line = c.wait(lambda m: m["type"] == "chat")
        assert (line["seat"], line["name"], line["text"]) == (1, "Ann", "good luck!")
    watcher.send({"type": "chat", "text": "go Bob"})
    assert b.wait(lambda m: m["type"] == "chat")["name"] == "Spectator"
    a.send({"type": "chat", "text": "x" * 201})
    assert a.error()["limit"] == "chat_length"
    a.send({"type": "chat", "text": "\x07"})
    assert a.error()["code"] == "malformed"
    again = server.client(table_id, None)
    sync = again.wait(lambda m: m["type"] == "sync")
    assert [c["text"] for c in sync["chat"]] == ["good luck!", "go Bob"]


def test_the_lobby_feed_follows_public_tables_as_they_come_and_go(server: ServerThread) -> None:
    with connect(f"ws://127.0.0.1:{server.port}/ws/lobby", open_timeout=5) as feed:
        first = json.loads(feed.recv(timeout=5))
        assert first == {"type": "lobby", "tables": []}
        created = server.create(name="Ann", players=2, public=True)
        server.create(name="Cy", players=2)  # private: never in the feed
        ann = server.client(created["table"], created["token"])
        ann.wait(lambda m: m["type"] == "sync")
        while not (update := json.loads(feed.recv(timeout=5)))["tables"]:
            pass  # (the listing as it was before Ann sat down)
        assert [(t["id"], t["status"]) for t in update["tables"]] == [(created["table"], "waiting")]
        server.join(created["table"], "Bob")
        while True:
            update = json.loads(feed.recv(timeout=5))
            if update["tables"] and update["tables"][0]["status"] == "playing":
                break


def test_a_finished_game_replays_step_by_step_from_a_seat_or_open(server: ServerThread) -> None:
    table_id, a, b = two_players(server)
    assert server.get(f"/api/tables/{table_id}/replay").status_code == 409  # not yet
    play_game([a, b], random.Random(6))
    opened = server.get(f"/api/tables/{table_id}/replay").json()
    record = server.lobby.tables[table_id].match.record()
    hands = [s["view"]["hands"] for s in opened["steps"]]
    assert len(opened["steps"]) == sum(seat is not None for seat, _ in record.moves) + 1
    assert all(len(h) == 2 for h in hands) and opened["names"] == ["Ann", "Bob"]
    assert opened["steps"][-1]["view"]["phase"] == "over" and opened["standings"]
    assert any("Ann" in line for s in opened["steps"] for line in s["talk"])
    bob_view = server.get(f"/api/tables/{table_id}/replay?seat=2").json()
    assert all("hands" not in s["view"] for s in bob_view["steps"])
    assert [s["view"]["hand"] for s in bob_view["steps"]] == [h[1] for h in hands]
    assert server.get(f"/api/tables/{table_id}/replay?seat=5").json()["code"] == "bad_record"


def test_an_uploaded_record_replays_and_a_broken_one_is_one_line(server: ServerThread) -> None:
    table_id, a, b = two_players(server)
    play_game([a, b], random.Random(7))
    text = format_record(server.lobby.tables[table_id].match.record())
    res = server.post("/api/replay", {"record": text})
    assert res.status_code == 200 and res.json()["steps"][-1]["view"]["phase"] == "over"
    broken = text.replace('"1: ', '"2: ', 1)
    res = server.post("/api/replay", {"record": broken})
    assert res.status_code == 400 and res.json()["code"] == "bad_record"
    assert "action" in res.json()["error"] and "\n" not in res.json()["error"]
    res = server.post("/api/replay", {"record": "rules = 1 = 2"})
    assert res.status_code == 400 and res.json()["code"] == "bad_record"


def test_the_browser_counts_in_the_rules_words() -> None:
    """The view names the counter (J-TEAM's tokens) and the table talk says what it cost."""
    rules = load_rules("J-TEAM")
    assert view_json(observe(new_game(rules, 4), 0))["counter"] == {
        "one": "token",
        "many": "tokens",
    }
    said = event_json(LifeLost(0, 1, 5, "over the limit"), ["Ann", "Bo", "Cy", "Di"], rules)
    assert said["text"] == "Ann loses a token from the team's pool; 5 left."
    g = view_json(observe(new_game(load_rules("G"), 3), 0))
    assert g["dealer"] is None  # G has no dealer: no dealer button
