"""Bot strength: win rates with 95% intervals at 1-vs-rest tables, seats rotated.

For each rule set and table size, each bot under test plays a match in the arena against
N-1 copies of one opponent (``--against``, default ``heuristic``): seats rotated over
rotation blocks that deal the same cards in every hand, intervals from the blocks
(``ninetynine.arena.stats``). Its win rate should be above 1/N by more than the interval.

The default bots are those of a strength table: ``hard`` (the honest bot players meet),
``oracle`` (the same search given the real hands: the ceiling line, it sees hidden cards),
``greedy-keep`` (what other programs ship) and ``ismcts:iterations=300`` (the search of
earlier stops). Where a table has both ``hard`` and ``oracle``, it also prints the share
of the oracle's prize that ``hard`` captures: (hard - 1/N) / (oracle - 1/N).

A 95% interval of +/-3 points needs about 1,000 games a table. Long runs: give ``--out
DIR`` and every match is saved there as JSON (one file per rules, table size, bot and
seed; a match already saved is not played again), and ``--summary DIR`` prints the table
from the saved matches, pooling the blocks of every seed of a match. A line on stderr
reports each tenth of a long match.

Run: python benchmarks/bots_strength.py [--presets P,K,G,J] [--players 3,4] [--games 60]
     [--bots "hard;oracle;greedy-keep;ismcts:iterations=300"] [--against heuristic]
     [--workers 0] [--seed 1] [--out DIR]
     python benchmarks/bots_strength.py --summary DIR
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ninetynine.arena import ArenaConfig, run_games, summarize, wilson
from ninetynine.arena.game import GameResult
from ninetynine.arena.stats import MIN_BLOCKS, block_interval

BOTS = "hard;oracle;greedy-keep;ismcts:iterations=300"
HEADER = (
    f"{'rules':<6}{'N':>2}  {'bot':<26}{'vs':<10}{'games':>6}{'win rate':>10}"
    f"   {'95% interval':<15}{'1/N':>6}  {'verdict':<14}{'seeds':>6}{'time':>8}"
    f"  ms/move"
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presets", default="P,K,G,J")
    parser.add_argument("--players", default="3,4")
    parser.add_argument("--games", type=int, default=60, help="games per match")
    parser.add_argument("--bots", default=BOTS, help="bot specs under test, ';' between")
    parser.add_argument("--against", default="heuristic", help="the N-1 opponents' spec")
    parser.add_argument("--workers", type=int, default=0, help="0 = one per core")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, help="save each match here (and skip saved ones)")
    parser.add_argument("--summary", type=Path, help="print the table of the saved matches")
    args = parser.parse_args()
    if args.summary:
        print_table([json.loads(p.read_text()) for p in sorted(args.summary.glob("*.json"))])
        return
    print(HEADER)
    matches = []
    for preset in args.presets.split(","):
        for n in (int(x) for x in args.players.split(",")):
            for bot in filter(None, (b.strip() for b in args.bots.split(";"))):
                path = (
                    args.out / _file_name(preset, n, bot, args.against, args.seed)
                    if args.out
                    else None
                )
                if path is not None and path.exists():
                    matches.append(json.loads(path.read_text()))
                    continue
                match = play(preset, n, bot, args.against, args.games, args.seed, args.workers)
                if path is not None:
                    path.parent.mkdir(parents=True, exist_ok=True)
                    path.write_text(json.dumps(match) + "\n")
                print(row(match), flush=True)
                matches.append(match)
    print()
    print_table(matches)


def play(
    preset: str, n: int, bot: str, against: str, games: int, seed: int, workers: int
) -> dict[str, Any]:
    """One match: ``bot`` against N-1 ``against``; its figures as JSON."""
    config = ArenaConfig(preset, n, (bot,) + (against,) * (n - 1), games, seed)
    start = time.perf_counter()
    results = run_games(config, workers, _progress(preset, n, bot, games))
    elapsed = time.perf_counter() - start
    # An upper bound on the bot's time a move: all CPU time of the run over its share of
    # the moves (the other bots' moves are counted in).
    cores = workers or os.cpu_count() or 1
    per_move = 1000 * elapsed * cores / max(1, sum(r.moves for r in results) / n)
    st = summarize(config.bots, results, ratings=False)[0]
    return {
        "rules": preset,
        "players": n,
        "bot": bot,
        "against": against,
        "seed": seed,
        "games": st.seat_games,
        "wins": st.wins,
        "blocks": st.blocks,
        "forfeits": st.forfeits,
        "seconds": round(elapsed),
        "ms_per_move": round(per_move),
    }


def pooled(matches: list[dict[str, Any]]) -> dict[str, Any]:
    """The matches of one bot at one table (several seeds) as one: blocks pooled."""
    first = matches[0]
    games = sum(m["games"] for m in matches)
    wins = sum(m["wins"] for m in matches)
    blocks = [b for m in matches for b in m["blocks"]]
    rate = wins / games
    lo, hi = block_interval(rate, blocks) if len(blocks) >= MIN_BLOCKS else wilson(wins, games)
    return {
        **first,
        "games": games,
        "wins": wins,
        "rate": rate,
        "interval": (lo, hi),
        "seeds": sorted(m["seed"] for m in matches),
        "seconds": sum(m["seconds"] for m in matches),
        "ms_per_move": max(m["ms_per_move"] for m in matches),
    }


def row(match: dict[str, Any]) -> str:
    m = pooled([match]) if "rate" not in match else match
    n, (lo, hi) = m["players"], m["interval"]
    share = 1 / n
    verdict = "above 1/N" if lo > share else "below 1/N" if hi < share else "not separated"
    seeds = ",".join(str(s) for s in m["seeds"])
    return (
        f"{m['rules']:<6}{n:>2}  {m['bot']:<26}{m['against']:<10}{m['games']:>6}"
        f"{100 * m['rate']:>9.1f}%   [{100 * lo:4.1f}, {100 * hi:5.1f}]"
        f"{100 * share:>7.1f}  {verdict:<14}{seeds:>6}{m['seconds']:>7}s"
        f"  <={m['ms_per_move']:5}"
    )


def print_table(matches: list[dict[str, Any]]) -> None:
    """One line per table and bot (seeds pooled), and the share of the oracle's prize."""
    print(HEADER)
    groups: dict[tuple[str, int, str, str], list[dict[str, Any]]] = {}
    for m in matches:
        groups.setdefault((m["rules"], m["players"], m["bot"], m["against"]), []).append(m)
    tables: dict[tuple[str, int], dict[str, dict[str, Any]]] = {}
    for (preset, n, bot, _), found in groups.items():
        tables.setdefault((preset, n), {})[bot] = pooled(found)
    for (preset, n), bots in tables.items():
        for m in bots.values():
            print(row(m))
        hard, oracle = bots.get("hard"), bots.get("oracle")
        if hard and oracle and oracle["rate"] > 1 / n:
            share = (hard["rate"] - 1 / n) / (oracle["rate"] - 1 / n)
            print(
                f"{preset:<6}{n:>2}  share of the oracle's prize that hard captures: "
                f"{100 * share:.0f}%"
            )


def _file_name(preset: str, n: int, bot: str, against: str, seed: int) -> str:
    safe = re.sub(r"[^A-Za-z0-9=.-]+", "_", f"{bot}-vs-{against}")
    return f"{preset}-{n}-{safe}-seed{seed}.json"


def _progress(preset: str, n: int, bot: str, games: int) -> Callable[[GameResult], None]:
    """Every tenth of a long match, a line on stderr: games so far and the win rate."""
    done: list[GameResult] = []
    step = max(50, games // 10)

    def report(result: GameResult) -> None:
        done.append(result)
        if len(done) % step == 0 and len(done) < games:
            wins = sum(r.seats.index(0) in r.winners for r in done)
            print(
                f"  {preset} {n} {bot}: {len(done)}/{games} games, "
                f"{100 * wins / len(done):.1f}% so far",
                file=sys.stderr,
                flush=True,
            )

    return report


if __name__ == "__main__":
    main()
