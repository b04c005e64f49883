"""No frame sent to a seat or a spectator names a card that seat may not see.

Many seeded games are played over real WebSockets; afterwards the finished record is
replayed and, for every state id, the cards each seat may know are computed (its own
hands so far and every card shown face up). Every card named anywhere in every frame
must be among them, and a seat's hand in a frame must be exactly its hand at that state.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest

from ninetynine.cards import format_card
from ninetynine.events import CardPlayed, InstantHand, UpCardReturned, UpCardTurned
from ninetynine.record import parse_record
from tests.web.helpers import Client, ServerThread, play_game

CARD = re.compile(r"(?<![A-Za-z0-9])(10|[2-9AJQK])[SHDC](?![A-Za-z0-9])")


def allowed_cards(record_text: str,
                  players: int) -> tuple[list[list[set[str]]], list[list[list[str]]]]:
    """Per state id: the cards each seat (and, last, a spectator) may know; and the hands."""
    record = parse_record(record_text)
    state = record.start.clone()
    seen: list[set[str]] = [set() for _ in range(players + 1)]
    per_state: list[list[set[str]]] = []
    hands: list[list[list[str]]] = []

    def snapshot() -> None:
        public = {format_card(c) for c in state.pile[state.face_down:] + state.out}
        for s in range(players + 1):
            seen[s] |= public
            if s < players:
                seen[s] |= {format_card(c) for c in state.hands[s]}
        per_state.append([set(x) for x in seen])
        hands.append([sorted(format_card(c) for c in h) for h in state.hands])

    snapshot()
    for seat, move in record.moves:
        for e in state.apply(move, seat):
            if isinstance(e, (CardPlayed, UpCardTurned, UpCardReturned)):
                shown = {format_card(e.card)}
            elif isinstance(e, InstantHand):
                shown = {format_card(c) for c in e.cards}
            else:
                continue
            for s in seen:
                s |= shown
        snapshot()
    return per_state, hands


def strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in [k, *strings(v)]]
    if isinstance(value, list):
        return [s for v in value for s in strings(v)]
    return []


def check_frames(client: Client, seat: int | None, players: int,
                 per_state: list[list[set[str]]], hands: list[list[list[str]]]) -> int:
    who = players if seat is None else seat
    checked = 0
    for text in client.frames:
        msg = json.loads(text)
        for word in ("seed", "stock_order", "shuffle "):
            assert word not in text.lower(), text
        state = msg.get("state")
        if msg["type"] not in ("sync", "update"):
            continue  # errors and pongs: checked for cards below against the latest state
        allowed = per_state[state][who]
        # the table's id is random URL-safe text: "x_AC-3..." names no card
        ident = msg["table"]["id"]
        named = {m.group(0) for s in strings(msg) if s != ident for m in CARD.finditer(s)}
        assert named <= allowed, f"seat {who + 1} saw {sorted(named - allowed)} at state {state}"
        view = msg["view"]
        if seat is None:
            assert view["hand"] == [] and view["legal"] == []
        else:
            assert sorted(view["hand"]) == hands[state][seat]
        assert view["hand_sizes"] == [len(h) for h in hands[state]]
        checked += 1
    return checked


@pytest.mark.parametrize("rules,players,bots", [
    ("P", 3, {"3": "easy"}), ("K", 4, {"2": "easy"}), ("J", 2, {}), ("P-UPCARD-INSTANT", 3, {}),
    ("G", 3, {"2": "easy"}), ("P-ONLINE", 2, {}),
])
def test_no_frame_leaks_a_hidden_card(server: ServerThread, rules: str, players: int,
                                      bots: dict[str, str]) -> None:
    for game in range(4):
        created = server.create(name="P1", rules=rules, players=players, bots=bots)
        table = created["table"]
        tokens: dict[int, str] = {0: created["token"]}
        for s in range(1, players):
            if str(s + 1) not in bots:
                tokens[s] = server.join(table, f"P{s + 1}")["token"]
        clients = {s: server.client(table, t) for s, t in tokens.items()}
        watcher = server.client(table, None)
        play_game(list(clients.values()), random.Random(f"{rules}{game}"))
        watcher.wait(lambda m: m["type"] == "update" and m["view"]["phase"] == "over")
        # an illegal move after the end: the error frame must not leak either
        clients[0].send({"type": "act", "state": 0, "action": "AS"})
        clients[0].error()
        record = server.get(f"/api/tables/{table}/record").text
        per_state, hands = allowed_cards(record, players)
        total = 0
        for seat, client in clients.items():
            total += check_frames(client, seat, players, per_state, hands)
            named = {m.group(0) for f in client.frames if '"error"' in f
                     for m in CARD.finditer(f)}
            assert named <= per_state[-1][seat] | {"AS"}
        total += check_frames(watcher, None, players, per_state, hands)
        assert total > 10
        for c in [*clients.values(), watcher]:
            c.close()


def test_the_scan_catches_a_leaked_card(server: ServerThread) -> None:
    """The checker itself: a frame naming another seat's card fails it."""
    created = server.create(name="P1", rules="P", players=2)
    table = created["table"]
    other = server.join(table, "P2")["token"]
    me, them = server.client(table, created["token"]), server.client(table, other)
    play_game([me, them], random.Random(2))
    per_state, hands = allowed_cards(server.get(f"/api/tables/{table}/record").text, 2)
    first = next(json.loads(f) for f in me.frames if json.loads(f)["state"] == 1)
    assert check_frames(me, 0, 2, per_state, hands) > 0
    leaked = dict(first, events=[{"text": f"psst: {hands[1][1][0]}"}])
    me.frames = [json.dumps(leaked)]
    with pytest.raises(AssertionError, match="seat 1 saw"):
        check_frames(me, 0, 2, per_state, hands)
