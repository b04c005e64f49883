"""How long a game lasts: hands and turns per game, as distributions.

A turn is a player's move (a play, a lay-down, a pass, a draw), the unit of CardStock's
game length (its count of a player's ``choice`` blocks).
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from ninetynine.analysis.intervals import Estimate, mean
from ninetynine.analysis.rows import GameRow


@dataclass(frozen=True, slots=True)
class Distribution:
    """A sample of whole numbers: the mean with its interval, the quartiles, the range and
    how many times each value occurred."""

    mean: Estimate
    median: float
    q1: float
    q3: float
    least: int
    most: int
    counts: dict[int, int]

    @property
    def n(self) -> int:
        """How many values the sample holds."""
        return self.mean.n


def distribution(values: Sequence[int]) -> Distribution:
    """The distribution of ``values`` (at least one)."""
    if not values:
        raise ValueError("the distribution of no values")
    if len(values) > 1:
        q1, median, q3 = statistics.quantiles(values, n=4, method="inclusive")
    else:
        q1 = median = q3 = float(values[0])
    return Distribution(
        mean([float(v) for v in values]),
        median,
        q1,
        q3,
        min(values),
        max(values),
        dict(sorted(Counter(values).items())),
    )


@dataclass(frozen=True, slots=True)
class Length:
    """One cell's game lengths."""

    hands: Distribution
    turns: Distribution


def length(games: Sequence[GameRow]) -> Length:
    """The distributions of hands and turns per game of one cell's games (at least one)."""
    return Length(distribution([g.hands for g in games]), distribution([g.turns for g in games]))
