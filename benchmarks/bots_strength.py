"""Bot strength: win rates with 95% intervals at 1-vs-rest tables, seats rotated.

For each rule set and table size it plays two matches in the arena:

* ``heuristic`` against N-1 ``random`` bots: its win rate should be well above 1/N;
* ``ismcts`` (the budget given by --ismcts) against N-1 ``heuristic`` bots: its win rate
  should be above 1/N by more than the interval's half-width.

A 95% interval of +/-3 points needs about 1.96^2 p(1-p) / 0.03^2 games if every game were
an independent coin toss: about 800 at p = 0.25 (4 players), 950 at p = 1/3 (3 players).
The arena's games come in rotation blocks that deal the same cards in every hand, and its
interval is computed from the blocks (``ninetynine.arena.stats``), which is narrower where
the bots play alike; the coin-toss (Wilson) interval is printed last for comparison.

The ismcts tables cost most: about 300 of its decisions with a real choice per game
across the eight tables, so at a fixed search budget the whole run takes (budget per
move) x 300,000 / cores; e.g. about 1.5 hours on 2 cores with ``--ismcts
ismcts:iterations=300`` (25-50 ms a move). The defaults are small; pass --games 1000 for
the full figures. A line on stderr reports each tenth of a long match.

Run: python benchmarks/bots_strength.py [--presets P,K,G,J] [--players 3,4] [--games 60]
     [--ismcts ismcts:ms=1000] [--matches heuristic,ismcts] [--workers 0] [--seed 1]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable

from ninetynine.arena import ArenaConfig, run_games, summarize, wilson
from ninetynine.arena.game import GameResult


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presets", default="P,K,G,J")
    parser.add_argument("--players", default="3,4")
    parser.add_argument("--games", type=int, default=60, help="games per match")
    parser.add_argument("--ismcts", default="ismcts:ms=1000",
                        help="the ismcts spec (default: one second per move)")
    parser.add_argument("--matches", default="heuristic,ismcts",
                        help="which matches: heuristic (vs random), ismcts (vs heuristic)")
    parser.add_argument("--workers", type=int, default=0, help="0 = one per core")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    opponents = {"heuristic": ("heuristic", "random"), "ismcts": (args.ismcts, "heuristic")}
    print(f"{'rules':<6}{'N':>2}  {'bot':<24}{'vs':<10}{'games':>6}{'win rate':>10}"
          f"   {'95% interval':<16}{'1/N':>6}  verdict         time  ms/move   Wilson")
    for preset in args.presets.split(","):
        for n in (int(x) for x in args.players.split(",")):
            for match in args.matches.split(","):
                bot, rest = opponents[match]
                config = ArenaConfig(preset, n, (bot,) + (rest,) * (n - 1), args.games,
                                     args.seed)
                start = time.perf_counter()
                results = run_games(config, args.workers, _progress(preset, n, bot, args.games))
                elapsed = time.perf_counter() - start
                # An upper bound on the first bot's time a move: all CPU time of the run
                # over its share of the moves (the other bots' moves are counted in).
                workers = args.workers or os.cpu_count() or 1
                per_move = 1000 * elapsed * workers / max(1, sum(r.moves for r in results) / n)
                st = summarize(config.bots, results, ratings=False)[0]
                lo, hi = st.interval
                coin = wilson(st.wins, st.seat_games)  # as if games were independent tosses
                share = 1 / n
                verdict = "above 1/N" if lo > share else "below 1/N" if hi < share else \
                    "not separated"
                print(f"{preset:<6}{n:>2}  {bot:<24}{rest:<10}{st.seat_games:>6}"
                      f"{100 * st.win_rate:>9.1f}%   [{100 * lo:4.1f}, {100 * hi:5.1f}]"
                      f"{100 * share:>8.1f}  {verdict:<13}{elapsed:6.0f}s  <={per_move:5.0f}"
                      f"   [{100 * coin[0]:4.1f}, {100 * coin[1]:5.1f}]", flush=True)


def _progress(preset: str, n: int, bot: str, games: int) -> Callable[[GameResult], None]:
    """Every tenth of a long match, a line on stderr: games so far and the win rate."""
    done: list[GameResult] = []
    step = max(50, games // 10)

    def report(result: GameResult) -> None:
        done.append(result)
        if len(done) % step == 0 and len(done) < games:
            wins = sum(r.seats.index(0) in r.winners for r in done)
            print(f"  {preset} {n} {bot}: {len(done)}/{games} games, "
                  f"{100 * wins / len(done):.1f}% so far", file=sys.stderr, flush=True)
    return report


if __name__ == "__main__":
    main()
