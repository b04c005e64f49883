"""``heuristic-v1`` is frozen: it plays exactly as the heuristic did on recorded positions.

``heuristic_v1.json`` was recorded with the heuristic before it was frozen (see
``scripts/record_heuristic_v1.py``): 440 positions of P, K, G and J at two to four seats,
a partnership set (J-TEAM) and a points set (P-BORDERS), each with the bot's seed and the
action it chose.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

from ninetynine.bots import make_bot
from ninetynine.engine.view import observe
from ninetynine.records.position import parse_position

FIXTURE = Path(__file__).with_name("heuristic_v1.json")


def test_heuristic_v1_replays_its_recorded_choices() -> None:
    recorded = json.loads(FIXTURE.read_text(encoding="utf-8"))
    assert len(recorded) == 440
    assert {(p["preset"], p["players"]) for p in recorded} >= {
        (preset, n) for preset in "PKGJ" for n in (3, 4)
    }
    for spec in ("heuristic-v1", "heuristic"):  # the old name is the frozen bot
        bot = make_bot(spec)
        wrong = Counter[str]()
        for p in recorded:
            view = observe(parse_position(p["position"]), p["seat"])
            if str(bot.choose(view, random.Random(p["seed"]))) != p["action"]:
                wrong[f"{p['preset']}{p['players']}"] += 1
        assert not wrong, f"{spec} moved on recorded positions: {dict(wrong)}"


def test_the_fixture_is_not_trivial() -> None:
    # positions where the choice matters: many kinds of play, high totals among them
    recorded = json.loads(FIXTURE.read_text(encoding="utf-8"))
    assert len({p["action"] for p in recorded}) > 40
    high = sum(parse_position(p["position"]).total >= 80 for p in recorded)
    assert high >= len(recorded) // 2
