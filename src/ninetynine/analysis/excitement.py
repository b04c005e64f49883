"""Excitement: how the seats' chances of winning move over a game.

Each game's *lead history* (CardStock's term) is every seat's estimated chance of
winning at every decision (:mod:`ninetynine.analysis.chances` makes them, on a sample of
games). From it, per game, then averaged over the sample with t intervals:

* **Drama** (CardStock; M. Goadrich, "Heuristics Overview", 2018): the mean over the
  ``dcount`` decisions at which the eventual winner's estimate is below the drama
  threshold of ``sqrt(dthresh - est)``; 0 where the winner is never below it.
  CardStock's estimates are scaled ranks, with ``dthresh = (1 + (np-2)/(np-1)) / 2``
  (:func:`rank_threshold`), "so that when a player estimates their rank above the
  threshold, they believe it is more likely than not that they will be the winner".
  Ours are chances of winning, for which that sentence is ``est > 1/2``: the threshold
  used here is 1/2.
* **Security** (CardStock): ``1 - dcount / moves``, the share of the game the winner
  was above the threshold.
* **Lead changes** (Ludii ``LeadChange``): how often the set of seats with the highest
  estimate changes, per move. Ludii's code counts the first leader as a change; we do
  not (a change needs a leader before it).
* **Decisiveness** (Ludii ``DecisivenessThreshold`` and ``DecisivenessMoves``): the
  highest estimate any eventual loser reached, and the share of the game played before a
  winner's estimate first rose above it (1 where it never did).
* **Stability** (Ludii ``Stability``): the variance of each seat's estimate over the
  game, summed over the seats (Ludii sums them too); lower is steadier.

With several winners (Ninety-Eight: all but the loser) a winner's figure is their mean.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from ninetynine.analysis.intervals import Estimate, mean

THRESHOLD = 0.5  # the drama threshold for chances of winning
TREND_BINS = 20  # points of the average trend over a game's progress


def rank_threshold(players: int) -> float:
    """CardStock's drama threshold for scaled-rank estimates."""
    return (1 + (players - 2) / (players - 1)) / 2


@dataclass(frozen=True, slots=True)
class History:
    """One game's lead history: ``chances[i][s]`` is seat s's estimate at decision i."""

    chances: list[list[float]]
    winners: list[int]
    places: list[int]  # each seat's final place, 1 for the winners


def _winners_path(h: History, i: int) -> float:
    return statistics.fmean(h.chances[i][w] for w in h.winners)


def drama(h: History, threshold: float = THRESHOLD) -> float:
    """CardStock's Drama of one game (see the module's note)."""
    if not h.winners:
        return 0.0
    path = [_winners_path(h, i) for i in range(len(h.chances))]
    below = [threshold - est for est in path if est < threshold]
    return statistics.fmean(math.sqrt(x) for x in below) if below else 0.0


def security(h: History, threshold: float = THRESHOLD) -> float:
    """CardStock's Security: 1 minus the share of decisions the winner was below."""
    if not h.chances or not h.winners:
        return 1.0
    below = sum(_winners_path(h, i) < threshold for i in range(len(h.chances)))
    return 1.0 - below / len(h.chances)


def lead_changes(h: History) -> float:
    """Ludii's Lead Change per move, the first leader not counted as a change."""
    if not h.chances:
        return 0.0
    leaders = [frozenset(s for s, x in enumerate(est) if x == max(est)) for est in h.chances]
    return sum(a != b for a, b in zip(leaders, leaders[1:], strict=False)) / len(h.chances)


def decisiveness_threshold(h: History) -> float:
    """Ludii's Decisiveness Threshold: the best estimate a non-winner ever had."""
    losers = [s for s in range(len(h.places)) if s not in h.winners]
    return max((est[s] for est in h.chances for s in losers), default=0.0)


def decisiveness(h: History) -> float:
    """Ludii's Decisiveness Moves: the share of the game before a winner first rose above
    :func:`decisiveness_threshold` (1 where none did)."""
    line = decisiveness_threshold(h)
    for i, est in enumerate(h.chances):
        if any(est[w] > line for w in h.winners):
            return i / len(h.chances)
    return 1.0


def stability(h: History) -> float:
    """Ludii's Stability: each seat's variance over the game, summed over the seats."""
    if not h.chances:
        return 0.0
    return sum(statistics.pvariance([est[s] for est in h.chances]) for s in range(len(h.places)))


def trend(histories: Sequence[History], bins: int = TREND_BINS) -> dict[int, list[float]]:
    """CardStock's *average trend*: for each final place, the mean estimate of the seat
    that finished there at each point of the game's progress (``bins`` points from the
    first decision to the last; games of different lengths are stretched to fit)."""
    sums: dict[int, list[float]] = {}
    counts: dict[int, list[int]] = {}
    for h in histories:
        moves = len(h.chances)
        if moves == 0:
            continue
        for seat, place in enumerate(h.places):
            row, count = sums.setdefault(place, [0.0] * bins), counts.setdefault(place, [0] * bins)
            for i, est in enumerate(h.chances):
                b = min(bins - 1, i * bins // moves)
                row[b] += est[seat]
                count[b] += 1
    return {
        place: [s / c if c else math.nan for s, c in zip(sums[place], counts[place], strict=True)]
        for place in sorted(sums)
    }


@dataclass(frozen=True, slots=True)
class Excitement:
    """One cell's excitement figures, means over ``games`` sampled games."""

    games: int  # the sample size: say it wherever a figure is shown
    estimator: str  # how the chances were estimated
    drama: Estimate
    security: Estimate
    lead_changes: Estimate
    decisiveness: Estimate
    stability: Estimate
    trend: dict[int, list[float]]


def excitement(histories: Sequence[History], estimator: str) -> Excitement:
    """One cell's figures over the histories that hold a decision (``games`` counts them);
    ``estimator`` says how their chances were made."""
    hs = [h for h in histories if h.chances]
    return Excitement(
        len(hs),
        estimator,
        mean([drama(h) for h in hs]),
        mean([security(h) for h in hs]),
        mean([lead_changes(h) for h in hs]),
        mean([decisiveness(h) for h in hs]),
        mean([stability(h) for h in hs]),
        trend(hs),
    )
