"""Arena statistics: win rates with 95% intervals, and OpenSkill ratings.

The games come in rotation blocks: N games with one deal seed, each entrant once in each
chair (:func:`~ninetynine.arena.runner.rotation`), the same cards in every hand. The blocks
are independent of each other; the games within one are not, and that is what helps: with
equal deterministic bots an entrant wins exactly one game of each block, so a block's win
count varies only as much as the bots' play differs. With at least ``MIN_BLOCKS`` whole blocks the
interval is the normal interval of the mean of the entrant's win rates per block: often
much narrower than treating every game as a coin toss (the Wilson interval of the win
count), which it falls back on with fewer blocks.
"""

from __future__ import annotations

import math
import statistics
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ninetynine.arena.game import GameResult

Z95 = 1.959963984540054
MIN_BLOCKS = 30  # whole rotation blocks for the block interval (else Wilson's)


def wilson(wins: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default)."""
    if n <= 0:
        return 0.0, 1.0
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def block_interval(rate: float, blocks: Sequence[float], z: float = Z95) -> tuple[float, float]:
    """The normal interval around ``rate`` from the win rates of independent rotation
    blocks: half-width z * sd(block rates) / sqrt(number of blocks)."""
    half = z * statistics.stdev(blocks) / math.sqrt(len(blocks))
    return max(0.0, rate - half), min(1.0, rate + half)


@dataclass
class EntrantStats:
    """One entrant's results: a seat-game is one game played in one seat."""

    label: str
    spec: str
    seat_games: int = 0
    wins: int = 0
    forfeits: int = 0
    mu: float = 25.0
    sigma: float = 25.0 / 3
    blocks: list[float] = field(default_factory=list)  # win rate in each whole block

    @property
    def win_rate(self) -> float:
        """The share of its seat-games won, 0 to 1 (0 before any)."""
        return self.wins / self.seat_games if self.seat_games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% interval of the win rate: from rotation blocks where there are enough."""
        if len(self.blocks) < MIN_BLOCKS:
            return wilson(self.wins, self.seat_games)
        return block_interval(self.win_rate, self.blocks)

    @property
    def ordinal(self) -> float:
        """A conservative rating: mu - 3 sigma."""
        return self.mu - 3 * self.sigma


def labels_of(specs: Sequence[str]) -> list[str]:
    """Names for the entrants; a spec that appears again gets ' (2)', ' (3)'..."""
    seen: dict[str, int] = {}
    out = []
    for spec in specs:
        seen[spec] = seen.get(spec, 0) + 1
        out.append(spec if seen[spec] == 1 else f"{spec} ({seen[spec]})")
    return out


@dataclass
class SeatStats:
    """The games won from one seat, whoever played it (seats from 0)."""

    seat: int
    games: int = 0
    wins: int = 0

    @property
    def win_rate(self) -> float:
        """The share of the games won from this seat, 0 to 1 (0 before any)."""
        return self.wins / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% (Wilson) interval of the win rate."""
        return wilson(self.wins, self.games)


def by_seat(results: Sequence[GameResult], players: int) -> list[SeatStats]:
    """The win rate of each seat over every game: in a mirror match (one bot in every
    seat) the entrants are alike by construction, and this is what differs."""
    seats = [SeatStats(s) for s in range(players)]
    for result in results:
        for st in seats:
            st.games += 1
            st.wins += st.seat in result.winners
    return seats


def summarize(
    specs: Sequence[str], results: Sequence[GameResult], ratings: bool = True
) -> list[EntrantStats]:
    """Win counts per entrant, and OpenSkill (Plackett-Luce) ratings in game order."""
    stats = [EntrantStats(label, spec) for label, spec in zip(labels_of(specs), specs, strict=True)]
    n = len(specs)
    block_wins: dict[int, list[int]] = {}  # each entrant's wins, per rotation block
    for result in sorted(results, key=lambda r: r.index):
        wins = block_wins.setdefault(result.index // n, [0] * n)
        for seat, entrant in enumerate(result.seats):
            st = stats[entrant]
            st.seat_games += 1
            st.wins += seat in result.winners
            st.forfeits += seat in result.forfeits
            wins[entrant] += seat in result.winners
    games = Counter(result.index // n for result in results)
    for block, wins in block_wins.items():
        if games[block] == n:  # whole blocks only
            for st, won in zip(stats, wins, strict=True):
                st.blocks.append(won / n)
    if ratings:
        _rate(stats, results)
    return stats


def _rate(stats: list[EntrantStats], results: Sequence[GameResult]) -> None:
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    current = [model.rating(name=st.label) for st in stats]
    for result in sorted(results, key=lambda r: r.index):
        # Each seat is a one-player team: winners first, then the others, forfeits last.
        teams: list[list[Any]] = []
        ranks: list[float] = []
        for seat, entrant in enumerate(result.seats):
            teams.append([current[entrant]])
            ranks.append(1.0 if seat in result.winners else 3.0 if seat in result.forfeits else 2.0)
        if len(set(result.seats)) < len(result.seats):
            continue  # an entrant in two seats at once cannot be rated against itself
        rated = model.rate(teams, ranks=ranks)
        for (new,), entrant in zip(rated, result.seats, strict=True):
            current[entrant] = new
    for st, rating in zip(stats, current, strict=True):
        st.mu, st.sigma = rating.mu, rating.sigma
