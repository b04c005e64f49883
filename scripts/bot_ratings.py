"""Measure the web server's bot levels (easy, medium, hard) against each other in an arena
and write their OpenSkill ratings to ``src/ninetynine/data/bot_ratings.json``.

The server rates signed-in players (:mod:`ninetynine.web.history`); a bot's seat counts at its
level's rating from this file, which is fixed (a game against people never moves it). The
arena starts every entrant at OpenSkill's default (mu 25, sigma 25/3), the same as a new
account, so the figures are on the players' scale.

    PYTHONPATH=src python scripts/bot_ratings.py --games 60 --workers 2
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from ninetynine.arena.runner import ArenaConfig, run_games
from ninetynine.arena.stats import summarize
from ninetynine.bots.base import DIFFICULTIES

OUT = Path(__file__).resolve().parents[1] / "src" / "ninetynine" / "data" / "bot_ratings.json"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=60, help="games (a multiple of 3)")
    parser.add_argument("--rules", default="P", help="the preset the bots play")
    parser.add_argument("--seed", type=int, default=99)
    parser.add_argument("--workers", type=int, default=0, help="processes (0: one per core)")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    levels = list(DIFFICULTIES)
    specs = tuple(DIFFICULTIES[level] for level in levels)
    config = ArenaConfig(args.rules, len(specs), specs, args.games, args.seed)
    stats = summarize(specs, run_games(config, args.workers))
    data = {
        "about": (
            f"OpenSkill (Plackett-Luce) ratings of the bot levels from {args.games} arena games "
            f"of {args.rules} (seed {args.seed}); written by scripts/bot_ratings.py"
        ),
        "levels": {
            level: {"spec": st.spec, "mu": round(st.mu, 3), "sigma": round(st.sigma, 3)}
            for level, st in zip(levels, stats, strict=True)
        },
    }
    args.out.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    for level, st in zip(levels, stats, strict=True):
        print(f"{level:8} {st.spec:45} mu {st.mu:6.2f} sigma {st.sigma:5.2f} wins {st.wins}")


if __name__ == "__main__":
    main()
