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

The levels on one rating scale (``--levels``): a round robin of the given bots, weakest
first (every pair plays ``--games`` games with half the seats each, seats rotated over
duplicate deals), then each ``--place`` bot (a slow one, such as ``hard``) in a short run of
``--place-games`` games in one seat against N-1 of the strongest level. One OpenSkill
(Plackett-Luce) model rates every game in that order, so all the bots are on one scale; the
table gives each bot's win rate per seat over its games, its rating mu +/- sigma, and how far
its mu stands above the bot before it in units of their combined sigma (z; "separated"
above 1.96), then each line-up's share of games won by each bot's seats. The model has no
drift (tau = 0), as bots do not learn between games. With ``--out DIR`` each line-up's
games are saved and a saved line-up is not played again.

Run: python benchmarks/bots_strength.py [--presets P,K,G,J] [--players 3,4] [--games 60]
     [--bots "hard;oracle;greedy-keep;ismcts:iterations=300"] [--against heuristic]
     [--workers 0] [--seed 1] [--out DIR]
     python benchmarks/bots_strength.py --summary DIR
     python benchmarks/bots_strength.py --levels "random;beginner;greedy-keep;heuristic"
     [--place hard] [--place-games 120] [--presets P] [--players 4] [--games 2000] [--out DIR]
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import os
import re
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ninetynine.arena import ArenaConfig, run_games, summarize, wilson
from ninetynine.arena.game import GameResult
from ninetynine.arena.stats import MIN_BLOCKS, Z95, block_interval

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
    parser.add_argument("--levels", help="bots to rate on one scale, weakest first, ';' between")
    parser.add_argument("--place", default="", help="bots placed on the scale by a short run")
    parser.add_argument("--place-games", type=int, default=120, help="games of each --place run")
    args = parser.parse_args()
    if args.levels:
        for preset in args.presets.split(","):
            for n in (int(x) for x in args.players.split(",")):
                rated, notes = levels(
                    preset,
                    n,
                    _specs(args.levels),
                    args.games,
                    args.seed,
                    args.workers,
                    _specs(args.place),
                    args.place_games,
                    args.out,
                )
                print_levels(preset, n, rated, notes)
        return
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
    tables: dict[tuple[str, int, str], dict[str, dict[str, Any]]] = {}
    for (preset, n, bot, against), found in groups.items():  # a table per opponent
        tables.setdefault((preset, n, against), {})[bot] = pooled(found)
    for (preset, n, _), bots in tables.items():
        for m in bots.values():
            print(row(m))
        hard, oracle = bots.get("hard"), bots.get("oracle")
        if hard and oracle and oracle["rate"] > 1 / n:
            share = (hard["rate"] - 1 / n) / (oracle["rate"] - 1 / n)
            print(
                f"{preset:<6}{n:>2}  share of the oracle's prize that hard captures: "
                f"{100 * share:.0f}%"
            )


@dataclass
class Rated:
    """One bot on the levels' scale: its games over every run, and its rating."""

    bot: str
    games: int = 0
    wins: int = 0
    blocks: list[float] = field(default_factory=list)  # its win rate in each whole block
    mu: float = 25.0
    sigma: float = 25.0 / 3

    @property
    def rate(self) -> float:
        """Its share of games won."""
        return self.wins / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% interval of its win rate (from rotation blocks where there are enough)."""
        if len(self.blocks) >= MIN_BLOCKS:
            return block_interval(self.rate, self.blocks)
        return wilson(self.wins, self.games)


def levels(
    preset: str,
    n: int,
    specs: list[str],
    games: int,
    seed: int,
    workers: int,
    place: list[str],
    place_games: int,
    out: Path | None = None,
) -> tuple[list[Rated], list[str]]:
    """The levels ``specs`` (weakest first) and the ``place`` bots on one OpenSkill scale.

    A round robin: every pair of levels plays ``games`` games with half the seats each
    (A B A B at four seats; both A B A and B A B at three), seats rotated over duplicate
    deals; then each placed bot plays ``place_games`` games in one seat against the
    strongest level in the others. One Plackett-Luce model rates every game, each seat a
    player (a bot in several seats of a game gets the sum of their updates): the round
    robin's interleaved, a game of each pair in turn, then the placed bots' games.
    The bots come back in the order given, the placed ones last, with a line per line-up
    (the share of its games each bot's seats won, with its 95% interval from the blocks).
    With ``out``, each line-up's games are saved there, and a line-up already saved is read
    back instead of played.

    The model has no drift (tau = 0): a bot plays as well in its last game as in its first.
    (The arena's default tau, 25/300, adds variance before every game to follow players
    who improve.) At a table of all the levels at once the weak ones are hardly ever
    compared: Plackett-Luce learns from the winner, and random and beginner both lose to
    the heuristic nearly always; the pairs compare every two levels directly."""
    from openskill.models import PlackettLuce

    if len(specs) < 2 or n < 2:
        raise SystemExit("--levels: give two or more bots, for two or more players")
    lineups: list[tuple[tuple[str, ...], int]] = []
    for a, b in itertools.combinations(specs, 2):
        lineups.append((tuple(a if s % 2 == 0 else b for s in range(n)), games))
        if n % 2:  # the other side gets the extra seat too
            lineups.append((tuple(b if s % 2 == 0 else a for s in range(n)), games))
    lineups += [((specs[-1],) * (n - 1) + (bot,), place_games) for bot in place]
    model = PlackettLuce(tau=0.0)
    rated = {bot: Rated(bot) for bot in [*specs, *place]}
    ratings = {bot: model.rating(name=bot) for bot in rated}
    notes = []
    played: list[tuple[tuple[str, ...], list[GameResult]]] = []
    for lineup, count in lineups:
        results = _lineup_games(preset, n, lineup, count, seed, workers, out)
        played.append((lineup, results))
        shares = []
        stats = summarize(lineup, results, ratings=False)
        for bot in dict.fromkeys(lineup):  # each bot once, in seat order
            mine = [st for st in stats if st.spec == bot]
            r = rated[bot]
            wins, seat_games = sum(st.wins for st in mine), sum(st.seat_games for st in mine)
            r.games, r.wins = r.games + seat_games, r.wins + wins
            # a block's share for the bot: its seats' win rates there, summed
            blocks = [sum(rates) for rates in zip(*(st.blocks for st in mine), strict=True)]
            r.blocks += [b / len(mine) for b in blocks]  # per seat, as its win rate is
            share = sum(blocks) / len(blocks) if blocks else wins / max(1, count)
            lo, hi = block_interval(share, blocks) if len(blocks) >= MIN_BLOCKS else (0.0, 1.0)
            shares.append(f"{bot} {100 * share:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]")
        notes.append(f"{' / '.join(lineup)}, {count} games, won by: " + ", ".join(shares))
    # The round robin's games are rated interleaved (a game of each pair in turn), so that no
    # pair's games all come first; then the placed bots' games.
    robin, placed = played[: len(played) - len(place)], played[len(played) - len(place) :]
    order = [
        (lineup, results[g])
        for g in range(max((len(r) for _, r in robin), default=0))
        for lineup, results in robin
        if g < len(results)
    ]
    order += [(lineup, result) for lineup, results in placed for result in results]
    for lineup, result in order:  # each seat a one-player team
        bots = [lineup[e] for e in result.seats]
        before = {bot: ratings[bot] for bot in bots}
        ranks = [
            1.0 if s in result.winners else 3.0 if s in result.forfeits else 2.0 for s in range(n)
        ]
        after = model.rate([[before[bot]] for bot in bots], ranks=ranks)
        for bot, old in before.items():
            seats = [s for s in range(n) if bots[s] == bot]
            mu = old.mu + sum(after[s][0].mu - old.mu for s in seats)
            shrink = math.prod((after[s][0].sigma / old.sigma) ** 2 for s in seats)
            ratings[bot] = model.rating(mu=mu, sigma=old.sigma * math.sqrt(shrink), name=bot)
    for bot, r in rated.items():
        r.mu, r.sigma = ratings[bot].mu, ratings[bot].sigma
    return list(rated.values()), notes


def _lineup_games(
    preset: str,
    n: int,
    lineup: tuple[str, ...],
    count: int,
    seed: int,
    workers: int,
    out: Path | None,
) -> list[GameResult]:
    """One line-up's games: played (and saved under ``out``), or read back from ``out``."""
    label = " / ".join(lineup)
    path = out / _file_name(preset, n, "levels", "-".join(lineup), seed) if out else None
    if path is not None and path.exists():
        saved = json.loads(path.read_text())
        if saved["games"] == count:
            return [
                GameResult(g, seats, winners, reason, {s: "forfeited" for s in forfeits})
                for g, seats, winners, reason, forfeits in saved["results"]
            ]
    start = time.perf_counter()
    config = ArenaConfig(preset, n, lineup, count, seed)
    results = run_games(config, workers, _progress(preset, n, label, count))
    print(
        f"  {preset} {n} {label}: {count} games, {time.perf_counter() - start:.0f} s",
        file=sys.stderr,
        flush=True,
    )
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        rows = [[r.index, r.seats, r.winners, r.reason, sorted(r.forfeits)] for r in results]
        path.write_text(json.dumps({"lineup": lineup, "games": count, "results": rows}) + "\n")
    return results


def print_levels(preset: str, n: int, rated: list[Rated], notes: list[str]) -> None:
    """The levels' table: win rate with its interval, rating, and the gap to the bot
    before (z = the difference of mu over the combined sigma); then the line-ups."""
    print(
        f"{'rules':<6}{'N':>2}  {'bot':<26}{'games':>6}{'win rate':>10}   {'95% interval':<15}"
        f"{'mu':>7}{'sigma':>7}{'mu-3s':>7}  {'z above the one before':<24}"
    )
    for before, r in zip([None, *rated], rated, strict=False):
        lo, hi = r.interval
        gap = ""
        if before is not None:
            z = (r.mu - before.mu) / math.hypot(r.sigma, before.sigma)
            gap = f"{z:+6.1f} over {before.bot}" + (" (separated)" if z > Z95 else "")
        print(
            f"{preset:<6}{n:>2}  {r.bot:<26}{r.games:>6}{100 * r.rate:>9.1f}%"
            f"   [{100 * lo:4.1f}, {100 * hi:5.1f}]{r.mu:>7.2f}{r.sigma:>7.2f}"
            f"{r.mu - 3 * r.sigma:>7.2f}  {gap}"
        )
    for note in notes:
        print(f"{'':10}{note}")


def _specs(text: str) -> list[str]:
    return [b.strip() for b in text.split(";") if b.strip()]


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
