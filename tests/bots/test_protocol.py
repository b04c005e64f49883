"""The engine protocol: a subprocess bot plays; crashes, hangs and garbage lose the game."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pytest

from ninetynine import load_rules, new_game
from ninetynine.arena import play_game
from ninetynine.bots import BotFailure, make_bot
from ninetynine.bots.protocol import ProtocolBot, view_to_json
from ninetynine.engine.view import observe

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = f"cmd:{sys.executable} {ROOT / 'examples' / 'protocol_bot.py'}"

# Bad bots: each answers its first request (or its Nth) wrongly.
BAD = {
    "crash": "import sys; sys.stdin.readline(); sys.stderr.write('boom\\n'); sys.exit(3)",
    "hang": "import sys, time; sys.stdin.readline(); time.sleep(30)",
    "garbage": "import sys; sys.stdin.readline(); print('hello there', flush=True); "
    "sys.stdin.readline()",
    "wrong_shape": "import sys; sys.stdin.readline(); print('[1, 2]', flush=True); "
    "sys.stdin.readline()",
    "illegal": "import sys, json\nfor line in sys.stdin:\n"
    "    r = json.loads(line)\n"
    "    if r['type'] == 'move': print(json.dumps({'action': 'pass'}), flush=True)",
    "not_a_card": "import sys, json\nfor line in sys.stdin:\n"
    "    print(json.dumps({'action': 'ZZ'}), flush=True)",
}
REASON = {
    "crash": "exited \\(code 3\\).*boom",
    "hang": "did not answer within 0.5 s",
    "garbage": "not JSON",
    "wrong_shape": "expected",
    "illegal": "not legal here",
    "not_a_card": "unreadable action",
}


def bad_bot(tmp_path: Path, kind: str) -> str:
    script = tmp_path / f"{kind}.py"
    script.write_text(BAD[kind] + "\n")
    return f"cmd:timeout=0.5:{sys.executable} {script}"


def a_view(seed: int = 1):  # type: ignore[no-untyped-def]
    state = new_game(load_rules("P"), 3)
    state.apply(state.sample_chance(random.Random(seed)))
    seat = state.current_seat
    assert seat is not None
    return observe(state, seat)


def test_example_bot_plays_legal_moves() -> None:
    bot = make_bot(EXAMPLE)
    try:
        for seed in range(3):
            view = a_view(seed)
            assert bot.choose(view, random.Random(seed)) in view.legal
    finally:
        bot.close()  # type: ignore[attr-defined]
    assert bot.proc is None  # type: ignore[attr-defined]


def test_example_bot_finishes_a_game_in_the_arena() -> None:
    result = play_game(
        load_rules("K"),
        [EXAMPLE, "random", "random"],
        [0, 1, 2],
        index=0,
        chance_seed="c",
        bot_seed="b",
    )
    assert result.forfeits == {}
    assert result.winners and result.moves > 0


@pytest.mark.parametrize("kind", sorted(BAD))
def test_a_failing_bot_raises_a_clear_reason(tmp_path: Path, kind: str) -> None:
    bot = make_bot(bad_bot(tmp_path, kind))
    try:
        with pytest.raises(BotFailure, match=REASON[kind]):
            bot.choose(a_view(), random.Random(0))
    finally:
        bot.close()  # type: ignore[attr-defined]


@pytest.mark.parametrize("kind", ["crash", "hang", "garbage", "illegal"])
def test_a_failing_bot_loses_the_game_and_the_game_goes_on(tmp_path: Path, kind: str) -> None:
    spec = bad_bot(tmp_path, kind)
    result = play_game(
        load_rules("P"),
        [spec, "heuristic", "heuristic"],
        [0, 1, 2],
        index=0,
        chance_seed="c",
        bot_seed="b",
        keep_record=True,
    )
    assert set(result.forfeits) == {0}
    assert 0 not in result.winners
    assert result.record is not None and "P1 forfeited" in result.record


def test_view_json_has_public_facts_only() -> None:
    view = a_view()
    data = view_to_json(view)
    assert data["seat"] == view.seat + 1
    assert len(data["hand"]) == len(view.hand)
    assert "hands" not in data and "stock" not in data
    assert data["effects"]["K"] == "set" and data["limit"] == 99
    json.dumps(data)  # serialisable


def test_timeout_prefix_and_bad_command() -> None:
    bot = ProtocolBot("timeout=2.5:python -c pass")
    assert bot.timeout == 2.5 and bot.argv == ["python", "-c", "pass"]
    missing = make_bot("cmd:/nonexistent/bot-program")
    with pytest.raises(BotFailure, match="could not start"):
        missing.choose(a_view(), random.Random(0))
