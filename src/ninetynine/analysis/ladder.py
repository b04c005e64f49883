"""Skill and luck: does the better bot win, and how much of a result is the deal's?

* **Order** (CardStock's heuristic: better players should do better; M. Goadrich's
  posts name it without a formula, so ours is stated here): for every pair of bots on
  the ladder random < greedy-keep < heuristic < hard < oracle met in one line-up, the
  better bot's win rate per seat-game minus the weaker's, with Newcombe's interval;
  Order is the share of those pairs in which the better bot won more often.
* **Luck of the deal** (after Goodman, Perez-Liebana & Lucas, "Seeding for Success:
  Skill and Stochasticity in Tabletop Games", arXiv 2503.02686, who replay each random
  seed many times): a simulation's block plays one deal once per rotation, the same cards
  in the same chair each time with the bots moved round. Each chair's result (won or not)
  then splits into what the deal in that chair gives (the variance between the deal-chair
  means, corrected for the noise within: the one-way intraclass correlation ICC(1)), what
  the chair itself gives (the variance of the chairs' mean results) and the rest, which
  is the play of the bots. A large deal share is a game of luck. It needs a line-up of
  different bots: with one bot in every seat a deal is played once (its replays would be
  the same game).
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from ninetynine.analysis.groups import by_block
from ninetynine.analysis.intervals import (
    Comparison,
    Estimate,
    blocked_proportion,
    proportion_difference,
)
from ninetynine.analysis.rows import GameRow

LADDER = ("random", "greedy-keep", "heuristic", "hard", "oracle")  # weakest first


def ladder_rank(spec: str) -> int | None:
    """A bot spec's step on the ladder, or None where it is not on it."""
    spec = spec.strip()
    return LADDER.index(spec) if spec in LADDER else None


@dataclass(frozen=True, slots=True)
class Pair:
    """Two ladder bots met in one line-up: ``better``'s rate minus ``weaker``'s."""

    better: str
    weaker: str
    better_rate: Estimate
    weaker_rate: Estimate
    difference: Comparison


def bot_rate(games: Sequence[GameRow], spec: str) -> Estimate:
    """The win rate per seat-game of the seats ``spec`` played, over the deal blocks."""
    return blocked_proportion(
        [
            [seat in g.winners for g in block for seat, s in enumerate(g.seats) if s == spec]
            for block in by_block(games).values()
        ]
    )


def pairs(games: Sequence[GameRow]) -> list[Pair]:
    """Every pair of ladder bots in one cell's line-up, the better one first."""
    specs = sorted(
        {s for s in games[0].seats if ladder_rank(s) is not None}, key=lambda s: ladder_rank(s) or 0
    )
    rates = {s: bot_rate(games, s) for s in specs}
    out = []
    for i, weaker in enumerate(specs):
        for better in specs[i + 1 :]:
            b, w = rates[better], rates[weaker]
            diff = proportion_difference((round(b.value * b.n), b.n), (round(w.value * w.n), w.n))
            out.append(Pair(better, weaker, b, w, diff))
    return out


def order(measured: Sequence[Pair]) -> float | None:
    """The share of pairs in which the better bot won more often (None for no pairs)."""
    if not measured:
        return None
    return sum(p.difference.difference.value > 0 for p in measured) / len(measured)


@dataclass(frozen=True, slots=True)
class Luck:
    """How a chair's result varies: shares of its variance (they sum to 1)."""

    blocks: int  # whole blocks measured
    deal: float  # the deal in that chair
    chair: float  # the chair itself
    play: float  # the rest: the bots' play


def luck(games: Sequence[GameRow]) -> Luck | None:
    """The luck of the deal in one cell (None with one bot in every seat, without two whole
    blocks or without any variance)."""
    n = games[0].players
    if len(set(games[0].seats)) < 2:
        return None
    blocks = [b for b in by_block(games).values() if len(b) == n]
    if len(blocks) < 2:
        return None
    # chair c of a block: the same cards every rotation; its results over the rotations
    groups = [[float(c in g.winners) for g in block] for block in blocks for c in range(n)]
    values = [x for grp in groups for x in grp]
    total = statistics.pvariance(values)
    if total == 0:
        return None
    k = n
    grand = statistics.fmean(values)
    msb = k * sum((statistics.fmean(g) - grand) ** 2 for g in groups) / (len(groups) - 1)
    msw = sum(sum((x - statistics.fmean(g)) ** 2 for x in g) for g in groups) / (
        len(groups) * (k - 1)
    )
    icc = (msb - msw) / (msb + (k - 1) * msw) if msb + (k - 1) * msw > 0 else 0.0
    icc = min(1.0, max(0.0, icc))
    chair_means = [
        statistics.fmean(float(c in g.winners) for block in blocks for g in block) for c in range(n)
    ]
    chair = min(1.0 - icc, statistics.pvariance(chair_means) / total)
    return Luck(len(blocks), icc, chair, max(0.0, 1.0 - icc - chair))
