"""Record the frozen heuristic's choices on fixed positions: tests/bots/heuristic_v1.json.

``heuristic-v1`` is the yardstick of every strength table, so it must never move. This
script plays seeded games of several presets (heuristic at every seat, one move in six at
random so the positions vary), keeps the positions where a seat has a choice (half of them
at a total of 80 or more, where the play matters most), and writes each position's text,
the seat, the bot's seed and the action chosen. ``tests/bots/test_heuristic_v1.py`` replays
them.

The checked-in file was recorded with ``--bot heuristic`` at commit 18ad60f, before the
freeze (the code ``heuristic-v1`` copies); rerunning it with the default bot reproduces the
file exactly, which is what the test checks.

Run: python scripts/record_heuristic_v1.py [--bot heuristic-v1] [--out PATH]
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path
from typing import Any

from ninetynine import load_rules, new_game
from ninetynine.bots import make_bot
from ninetynine.engine.view import observe
from ninetynine.records.position import format_position, parse_position

FIXTURE = Path(__file__).resolve().parents[1] / "tests" / "bots" / "heuristic_v1.json"
# (preset, players, positions): the base games at 3 and 4, heads-up, a partnership set and
# a points set
TABLES = [
    ("P", 2, 40),
    ("P", 3, 40),
    ("P", 4, 40),
    ("K", 3, 40),
    ("K", 4, 40),
    ("G", 3, 40),
    ("G", 4, 40),
    ("J", 3, 40),
    ("J", 4, 40),
    ("J-TEAM", 4, 40),
    ("P-BORDERS", 3, 40),
]


def positions(bot_spec: str, preset: str, players: int, count: int) -> list[dict[str, Any]]:
    """``count`` positions of seeded games of ``preset`` and the action ``bot_spec`` chose."""
    bot, rules = make_bot(bot_spec), load_rules(preset)
    high: list[dict[str, Any]] = []
    low: list[dict[str, Any]] = []
    game = 0
    while len(high) < count // 2 or len(low) < count - count // 2:
        rng = random.Random(f"{preset}-{players}-{game}")
        state = new_game(rules, players)
        while not state.is_over:
            if state.is_chance:
                state.apply(state.sample_chance(rng))
                continue
            seat = state.current_seat
            assert seat is not None
            legal = state.legal_actions()
            plays = [a for a in legal if a.card is not None]
            seed = rng.randrange(1 << 30)
            if len(legal) > 1 and len(plays) > 1:
                text = format_position(state)
                view = observe(parse_position(text), seat)
                assert view == observe(state, seat), "a position did not read back"
                action = bot.choose(view, random.Random(seed))
                wanted = high if state.total >= 80 else low
                if len(wanted) < (count // 2 if wanted is high else count - count // 2):
                    wanted.append(
                        {
                            "preset": preset,
                            "players": players,
                            "seat": seat,
                            "seed": seed,
                            "action": str(action),
                            "position": text,
                        }
                    )
            else:
                action = legal[0] if len(legal) == 1 else bot.choose(observe(state, seat), rng)
            if len(legal) > 1 and rng.random() < 1 / 6:
                action = rng.choice(legal)
            state.apply(action, seat)
        game += 1
    return low + high


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bot", default="heuristic-v1")
    parser.add_argument("--out", type=Path, default=FIXTURE)
    args = parser.parse_args()
    found = [p for table in TABLES for p in positions(args.bot, *table)]
    args.out.write_text(json.dumps(found, indent=0) + "\n", encoding="utf-8")
    print(f"{len(found)} positions written to {args.out}")


if __name__ == "__main__":
    main()
