"""No frame sent to a seat or a spectator names a card that seat may not see.

Many seeded games are played over real WebSockets; afterwards the finished record is
replayed and, for every state id, the cards each seat may know are computed (its own
hands so far and every card shown face up). Every card named anywhere in every frame
must be among them, and a seat's hand in a frame must be exactly its hand at that state.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets

from ninetynine.engine.events import (
    CardPlayed,
    ChallengeAnswered,
    InstantHand,
    UpCardReturned,
    UpCardTurned,
)
from ninetynine.records.position import toml_value
from ninetynine.records.record import parse_record
from ninetynine.rules.cards import format_card
from ninetynine.rules.presets import load_rules, presets
from ninetynine.rules.settings import Scoring, Teams
from tests.rules.test_cn99 import MOVING
from tests.web.helpers import ServerThread, free_port, play_game

# CN99's plain part with the 7's swap and the J's take, as a house-rules file
CN99_MOVING = (
    'name = "CN99 moving"\n'
    + "\n".join(f"{k} = {toml_value(v)}" for k, v in MOVING.items() if k != "rules")
    + "\n[rules]\n"
    + "\n".join(f"{k} = {toml_value(v)}" for k, v in MOVING["rules"].items())
    + "\n"
)
CARD = re.compile(r"(?<![A-Za-z0-9])(10|[2-9AJQK])[SHDC](?![A-Za-z0-9])")


def allowed_cards(
    record_text: str, players: int
) -> tuple[list[list[set[str]]], list[list[list[str]]]]:
    """Per state id: the cards each seat (and, last, a spectator) may know; and the hands."""
    record = parse_record(record_text)
    state = record.start.clone()
    seen: list[set[str]] = [set() for _ in range(players + 1)]
    per_state: list[list[set[str]]] = []
    hands: list[list[list[str]]] = []

    def snapshot() -> None:
        public = {format_card(c) for c in state.pile[state.face_down :] + state.out}
        for s in range(players + 1):
            seen[s] |= public
            if s < players:
                seen[s] |= {format_card(c) for c in state.hands[s]}
        per_state.append([set(x) for x in seen])
        hands.append([sorted(format_card(c) for c in h) for h in state.hands])

    snapshot()
    for seat, move in record.moves:
        for e in state.apply(move, seat):
            # (a challenge's answer goes face up on the pile: KC)
            if isinstance(e, (CardPlayed, UpCardTurned, UpCardReturned, ChallengeAnswered)):
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


def check_frames(
    frames: list[str],
    seat: int | None,
    players: int,
    per_state: list[list[set[str]]],
    hands: list[list[list[str]]],
) -> int:
    who = players if seat is None else seat
    checked = 0
    for text in frames:
        msg = json.loads(text)
        for word in ("seed", "stock_order", "shuffle "):
            assert word not in text.lower(), text
        state = msg.get("state")
        if msg["type"] not in ("sync", "update"):
            continue  # errors and pongs: checked for cards below against the latest state
        allowed = per_state[state][who]
        # the table's id is random URL-safe text ("x_AC-3..." names no card), and the rules
        # are public: a preset id ("QC") or a suit exception ("AS": sets 0) names no dealt card
        table = {k: v for k, v in msg["table"].items() if k not in ("id", "rules")}
        public = {k: v for k, v in msg.items() if k != "rules"} | {"table": table}
        named = {m.group(0) for s in strings(public) for m in CARD.finditer(s)}
        assert named <= allowed, f"seat {who + 1} saw {sorted(named - allowed)} at state {state}"
        view = msg["view"]
        if seat is None:
            assert view["hand"] == [] and view["legal"] == []
        else:
            assert sorted(view["hand"]) == hands[state][seat]
        assert view["hand_sizes"] == [len(h) for h in hands[state]]
        checked += 1
    return checked


@pytest.mark.parametrize(
    "rules,players,bots",
    [
        ("P", 3, {"3": "easy"}),
        ("K", 4, {"2": "easy"}),
        ("J", 2, {}),
        ("P-UPCARD-INSTANT", 3, {}),
        ("G", 3, {"2": "easy"}),
        ("P-ONLINE", 2, {}),
        ("KC", 4, {"3": "easy"}),  # challenges, answered or not (FAMILIES §12.2)
        # CN99's 7 swaps hands and J takes a card (§12.1, O46-O47): a seat may name the
        # cards it knows in another hand, each one it held itself
        (CN99_MOVING, 2, {}),
        (CN99_MOVING, 4, {"3": "easy"}),
        # the preset: the small joker strips a hand to a card its holder alone knows, the
        # big joker brings a player back with a hand from the stock (O48, O49)
        ("CN99", 4, {"3": "easy"}),
    ],
)
def test_no_frame_leaks_a_hidden_card(
    server: ServerThread, rules: str, players: int, bots: dict[str, str]
) -> None:
    for game in range(4):
        spec = {"house_rules": rules} if "[rules]" in rules else {"rules": rules}
        created = server.create(name="P1", players=players, bots=bots, **spec)
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
            total += check_frames(client.frames, seat, players, per_state, hands)
            named = {m.group(0) for f in client.frames if '"error"' in f for m in CARD.finditer(f)}
            assert named <= per_state[-1][seat] | {"AS"}
        total += check_frames(watcher.frames, None, players, per_state, hands)
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
    assert check_frames(me.frames, 0, 2, per_state, hands) > 0
    leaked = dict(first, events=[{"text": f"psst: {hands[1][1][0]}"}])
    me.frames = [json.dumps(leaked)]
    with pytest.raises(AssertionError, match="seat 1 saw"):
        check_frames(me.frames, 0, 2, per_state, hands)


# A thousand games ---------------------------------------------------------------------------


def _short(preset: str) -> str:
    """House rules for a one-life (or short) match of a preset: the same hands, fewer of them."""
    rules = load_rules(preset)
    if rules.scoring is Scoring.GAME_POINTS:
        change = "points_target = 3"
    else:
        change = "team_lives = 1" if rules.teams is Teams.POOLED else "lives = 1"
    return f'preset = "{preset}"\nname = "{preset} short"\n[rules]\n{change}\n'


async def _scan_game(base: str, game: int, http: httpx.AsyncClient) -> int:
    """Play one seeded game over WebSockets; return how many frames were checked."""
    rng = random.Random(f"leak/{game}")
    preset = list(presets())[game % len(presets())]
    rules = load_rules(preset)
    players = rng.randint(rules.players_min, min(rules.players_max, 5))
    bots = {str(s): "easy" for s in range(2, players + 1) if rng.random() < 0.3}
    body: dict[str, Any] = {"name": "P1", "players": players, "bots": bots}
    body["house_rules" if game % 3 else "rules"] = _short(preset) if game % 3 else preset
    created = (await http.post(f"{base}/api/tables", json=body)).json()
    table = created["table"]
    tokens = {0: created["token"]}
    for s in range(1, players):
        if str(s + 1) not in bots:
            joined = await http.post(f"{base}/api/tables/{table}/join", json={"name": f"P{s}"})
            tokens[s] = joined.json()["token"]
    frames: dict[int | None, list[str]] = {s: [] for s in [*tokens, None]}
    url = base.replace("http", "ws") + f"/ws/{table}"

    async def seat(who: int | None) -> None:
        async with websockets.connect(url, max_size=2**22) as ws:
            await ws.send(json.dumps({"type": "hello", "token": tokens.get(who)}))
            async for text in ws:
                assert isinstance(text, str)
                frames[who].append(text)
                msg = json.loads(text)
                if msg["type"] not in ("sync", "update"):
                    continue
                view = msg["view"]
                if view["phase"] == "over":
                    return
                if who is not None and view["turn"] == view["seat"] and view["legal"]:
                    await ws.send(
                        json.dumps(
                            {
                                "type": "act",
                                "state": msg["state"],
                                "action": rng.choice(view["legal"]),
                            }
                        )
                    )

    await asyncio.wait_for(asyncio.gather(*(seat(w) for w in frames)), 300)
    record = (await http.get(f"{base}/api/tables/{table}/record")).text
    per_state, hands = allowed_cards(record, players)
    return sum(check_frames(f, who, players, per_state, hands) for who, f in frames.items())


@pytest.mark.slow
def test_a_thousand_seeded_games_leak_nothing(tmp_path: Path) -> None:
    """Every preset, 2 to 5 seats, some bots, a spectator; most games a one-life match."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "tests.web.serve_seeded",
            str(port),
            str(tmp_path / "scan.sqlite3"),
            "99",
        ]
    )
    try:
        for _ in range(100):
            try:
                httpx.get(base + "/api/presets", timeout=1)
                break
            except httpx.TransportError:
                time.sleep(0.1)

        async def scan() -> tuple[int, int]:
            limit = asyncio.Semaphore(12)
            # a new connection a request: the server closes idle ones while games go on
            no_reuse = httpx.Limits(max_keepalive_connections=0)
            async with httpx.AsyncClient(timeout=60, limits=no_reuse) as http:

                async def one(game: int) -> int:
                    async with limit:
                        return await _scan_game(base, game, http)

                counts = await asyncio.gather(*(one(g) for g in range(GAMES)))
            return len(counts), sum(counts)

        games, frames = asyncio.run(scan())
        assert games == GAMES and frames > 100 * GAMES
    finally:
        server.kill()
        server.wait(10)


GAMES = 1008  # 42 games of each of the 24 presets
