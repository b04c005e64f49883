"""Figures with their 95% intervals, and tests of a difference between two runs.

Every figure of a report is an :class:`Estimate`: the value, its interval and the method
that made the interval, named (:class:`Method`), so a reader knows what it claims:

* a proportion: Wilson's score interval over games; where the games come in blocks that
  share their deals (the simulation's duplicate deals, seats rotated: its games are not
  independent), Student's t interval of the block means from
  :data:`MIN_BLOCKS` blocks, and below that Wilson's interval counting each block once
  (the arena's rule, :mod:`ninetynine.arena.stats`, but with t quantiles, which hold for
  fewer blocks than its normal ones, and never counting a replay as new evidence);
* a mean: Student's t interval;
* a difference of two proportions measured on different games: Newcombe's hybrid score
  interval (his method 10, built from the two Wilson intervals) with the two-proportion
  z test;
* a difference of two runs: paired by deal (Student's t on the differences of the blocks
  that share every deal) where the deals are shared, Welch's t otherwise.

Pure Python (``math`` alone): Student's t distribution comes from the regularized
incomplete beta function, by its continued fraction (Numerical Recipes, 6.4).
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from ninetynine.arena.stats import Z95, wilson

LEVEL = 0.95
MIN_BLOCKS = 10  # blocks for the t interval of block means (else Wilson's, over blocks)


class Method(StrEnum):
    """How an interval was made: shown beside every figure."""

    WILSON = "Wilson"
    BLOCK_WILSON = "Wilson over deal blocks"
    T = "Student t"
    BLOCK_T = "Student t over deal blocks"
    NEWCOMBE = "Newcombe (Wilson) difference"
    PAIRED_T = "paired t by deal"
    WELCH = "Welch t"
    NONE = "no interval"


@dataclass(frozen=True, slots=True)
class Estimate:
    """A figure and its 95% interval; ``n`` is what it was measured on (games, hands...)."""

    value: float
    low: float
    high: float
    n: int
    method: Method

    def covers(self, x: float) -> bool:
        """Whether ``x`` lies in the interval."""
        return self.low <= x <= self.high

    def percent(self, digits: int = 1) -> str:
        """``'25.3% [22.1, 28.7]'``."""
        return (
            f"{100 * self.value:.{digits}f}% "
            f"[{100 * self.low:.{digits}f}, {100 * self.high:.{digits}f}]"
        )

    def points(self, digits: int = 1) -> str:
        """A difference of proportions in percentage points: ``'+3.2 [+0.4, +6.0]'``."""
        return (
            f"{100 * self.value:+.{digits}f} "
            f"[{100 * self.low:+.{digits}f}, {100 * self.high:+.{digits}f}]"
        )

    def plain(self, digits: int = 2) -> str:
        """``'12.40 [11.90, 12.93]'``."""
        return f"{self.value:.{digits}f} [{self.low:.{digits}f}, {self.high:.{digits}f}]"


@dataclass(frozen=True, slots=True)
class Comparison:
    """The difference ``a - b`` of a figure between two runs, its interval and the test."""

    difference: Estimate
    p_value: float
    paired: bool  # paired by deal (the runs share their deals) or not

    @property
    def test(self) -> str:
        """The name of the method that made the interval and the p-value:
        ``'paired t by deal'``, ``'Welch t'`` or ``'Newcombe (Wilson) difference'``."""
        return str(self.difference.method)


# Student's t ----------------------------------------------------------------------------


def _beta_fraction(a: float, b: float, x: float) -> float:
    """The continued fraction of the incomplete beta function (modified Lentz)."""
    tiny, qab, qap, qam = 1e-300, a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 300):
        m2 = 2 * m
        for aa in (
            m * (b - m) * x / ((qam + m2) * (a + m2)),
            -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2)),
        ):
            d = 1.0 + aa * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + aa / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1.0) < 1e-15:
            break
    return h


def betainc(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    front = math.exp(
        math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    )
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _beta_fraction(a, b, x) / a
    return 1.0 - front * _beta_fraction(b, a, 1.0 - x) / b


def t_cdf(t: float, df: float) -> float:
    """Student's t distribution function with ``df`` degrees of freedom."""
    if math.isinf(t):
        return 1.0 if t > 0 else 0.0
    tail = 0.5 * betainc(df / 2.0, 0.5, df / (df + t * t))
    return 1.0 - tail if t > 0 else tail


def t_quantile(p: float, df: float) -> float:
    """The ``p`` quantile of Student's t (by bisection on :func:`t_cdf`)."""
    if not 0.0 < p < 1.0:
        raise ValueError(f"p={p}: expected 0 < p < 1")
    if p < 0.5:
        return -t_quantile(1.0 - p, df)
    low, high = 0.0, 1.0
    while t_cdf(high, df) < p:
        high *= 2.0
    for _ in range(200):
        mid = (low + high) / 2.0
        if t_cdf(mid, df) < p:
            low = mid
        else:
            high = mid
        if high - low < 1e-12 * max(1.0, high):
            break
    return (low + high) / 2.0


def two_sided_t(t: float, df: float) -> float:
    """The two-sided p-value of a t statistic."""
    return 2.0 * (1.0 - t_cdf(abs(t), df))


def two_sided_z(z: float) -> float:
    """The two-sided p-value of a normal statistic."""
    return math.erfc(abs(z) / math.sqrt(2.0))


# Estimates --------------------------------------------------------------------------------


def proportion(successes: int, n: int) -> Estimate:
    """A proportion with Wilson's interval (the whole range where ``n`` is 0)."""
    low, high = wilson(successes, n)
    return Estimate(successes / n if n else 0.0, low, high, n, Method.WILSON)


def mean(values: Sequence[float]) -> Estimate:
    """A mean with Student's t interval (no interval below two values)."""
    n = len(values)
    if n == 0:
        return Estimate(math.nan, math.nan, math.nan, 0, Method.NONE)
    m = statistics.fmean(values)
    if n < 2:
        return Estimate(m, m, m, n, Method.NONE)
    half = t_quantile(0.5 + LEVEL / 2, n - 1) * statistics.stdev(values) / math.sqrt(n)
    return Estimate(m, m - half, m + half, n, Method.T)


def blocked_proportion(blocks: Sequence[Sequence[bool]]) -> Estimate:
    """A proportion over games that come in blocks sharing their deals: Wilson's interval
    over games where every block is one game (they are independent), else the t interval
    of the block means from :data:`MIN_BLOCKS` blocks (where they differ: blocks all
    alike would give no width), else Wilson's with each block counted once (its share of
    successes); clipped to [0, 1]."""
    blocks = [b for b in blocks if b]
    outcomes = [x for block in blocks for x in block]
    wins, n = sum(outcomes), len(outcomes)
    if all(len(b) == 1 for b in blocks):
        return proportion(wins, n)
    value = wins / n
    rates = [sum(b) / len(b) for b in blocks]
    if len(blocks) < MIN_BLOCKS or len(set(rates)) == 1:
        low, high = wilson(value * len(blocks), len(blocks))
        return Estimate(value, low, high, n, Method.BLOCK_WILSON)
    by_block = mean(rates)
    half = (by_block.high - by_block.low) / 2
    return Estimate(value, max(0.0, value - half), min(1.0, value + half), n, Method.BLOCK_T)


def proportion_test(successes: int, n: int, p0: float) -> float:
    """The two-sided p-value of the score test of a proportion against ``p0``."""
    if n == 0 or not 0.0 < p0 < 1.0:
        return 1.0
    return two_sided_z((successes / n - p0) / math.sqrt(p0 * (1 - p0) / n))


# Differences ------------------------------------------------------------------------------


def proportion_difference(a: tuple[int, int], b: tuple[int, int]) -> Comparison:
    """``a`` minus ``b``, each (successes, n), on different games: Newcombe's hybrid score
    interval and the pooled two-proportion z test."""
    (xa, na), (xb, nb) = a, b
    pa, pb = proportion(xa, na), proportion(xb, nb)
    d = pa.value - pb.value
    low = d - math.hypot(pa.value - pa.low, pb.high - pb.value)
    high = d + math.hypot(pa.high - pa.value, pb.value - pb.low)
    pooled = (xa + xb) / (na + nb) if na + nb else 0.0
    se = math.sqrt(pooled * (1 - pooled) * (1 / na + 1 / nb)) if na and nb else 0.0
    p = two_sided_z(d / se) if se > 0 else 1.0
    return Comparison(Estimate(d, low, high, na + nb, Method.NEWCOMBE), p, paired=False)


def paired_difference(pairs: Sequence[tuple[float, float]]) -> Comparison:
    """The mean of ``a - b`` over pairs (the blocks two runs share), Student's t on the
    differences; a difference of exactly 0 everywhere has p = 1."""
    diffs = [a - b for a, b in pairs]
    n = len(diffs)
    m = statistics.fmean(diffs) if diffs else 0.0
    if n < 2:
        return Comparison(Estimate(m, -math.inf, math.inf, n, Method.PAIRED_T), 1.0, True)
    sd = statistics.stdev(diffs)
    if sd == 0.0:
        return Comparison(Estimate(m, m, m, n, Method.PAIRED_T), 1.0 if m == 0 else 0.0, True)
    se = sd / math.sqrt(n)
    half = t_quantile(0.5 + LEVEL / 2, n - 1) * se
    return Comparison(
        Estimate(m, m - half, m + half, n, Method.PAIRED_T), two_sided_t(m / se, n - 1), True
    )


def unpaired_difference(a: Sequence[float], b: Sequence[float]) -> Comparison:
    """``mean(a) - mean(b)`` on independent samples: Welch's t interval and test."""
    na, nb = len(a), len(b)
    d = (statistics.fmean(a) if a else 0.0) - (statistics.fmean(b) if b else 0.0)
    if na < 2 or nb < 2:
        return Comparison(Estimate(d, -math.inf, math.inf, na + nb, Method.WELCH), 1.0, False)
    va, vb = statistics.variance(a) / na, statistics.variance(b) / nb
    se = math.sqrt(va + vb)
    if se == 0.0:
        return Comparison(Estimate(d, d, d, na + nb, Method.WELCH), 1.0 if d == 0 else 0.0, False)
    df = (va + vb) ** 2 / (va * va / (na - 1) + vb * vb / (nb - 1))
    half = t_quantile(0.5 + LEVEL / 2, df) * se
    return Comparison(
        Estimate(d, d - half, d + half, na + nb, Method.WELCH), two_sided_t(d / se, df), False
    )


__all__ = [
    "LEVEL",
    "MIN_BLOCKS",
    "Z95",
    "Comparison",
    "Estimate",
    "Method",
    "betainc",
    "blocked_proportion",
    "mean",
    "paired_difference",
    "proportion",
    "proportion_difference",
    "proportion_test",
    "t_cdf",
    "t_quantile",
    "two_sided_t",
    "two_sided_z",
    "unpaired_difference",
]
