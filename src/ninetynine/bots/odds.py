"""The chance that each side wins the game from the lives everyone has now.

A small dynamic programme over lives, from the rules alone: every hand from here on is
taken to be lost by a side still in the game, each as likely as the next (where busters
sit out and the rest play on, every side but one loses a life in the hand, each side as
likely as the next to be the one that keeps it). So losing a life when everyone has five
is not the same as losing it with one left, and a hand that knocks out an opponent is
worth what the game left after it is worth.

The exact table grows like C(lives + sides, sides) (12 seats with 20 lives each: about
2x10^8 entries), so it holds at most :data:`MAX_ENTRIES`: above that the lives are scaled
down to the largest that fit (each side keeps its share), an estimate that
:meth:`GameOdds.exact` tells apart, and the coach says so.

It covers games won by the last side standing (``scoring = "lives"``); for game points
:func:`game_odds` returns None. Sides are seats, or the two teams where seats play in
partnerships; with alternate teams (each player their own lives) a side's chance is its
players' together.

>>> from ninetynine import load_rules
>>> odds = game_odds(load_rules("P"))
>>> [round(x, 3) for x in odds.chances((1, 1, 1))]
[0.333, 0.333, 0.333]
>>> odds.chances((0, 2, 1))[1] > odds.chances((0, 2, 1))[2]
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import cache, lru_cache

from ninetynine.engine.state import State
from ninetynine.rules.settings import AfterBust, Elimination, Rules, Scoring

MAX_ENTRIES = 10_000  # lives positions the exact table may hold (a few MB, under a second)


@cache
def _fitting_top(sides: int, top: int) -> int:
    """The most lives per side whose table for ``sides`` sides holds MAX_ENTRIES or fewer."""
    while top > 1 and math.comb(top + sides, sides) > MAX_ENTRIES:
        top -= 1
    return top


def exact(lives: Sequence[int]) -> bool:
    """Whether the chances for these lives (per side) come from the exact table."""
    top = max(lives, default=0)
    return _fitting_top(len(lives), top) == top


def fitted(lives: Sequence[int]) -> tuple[int, ...]:
    """``lives`` scaled down so that their table fits (unchanged where it fits already):
    each side keeps its share of the largest, and a side still in keeps at least one."""
    top = max(lives, default=0)
    fit = _fitting_top(len(lives), top)
    if fit == top:
        return tuple(lives)
    return tuple(math.ceil(x * fit / top) if x > 0 else 0 for x in lives)


class GameOdds:
    """Each side's chance to win, by the lives of every side (0 for a side that is out)."""

    def __init__(self, all_but_one: bool) -> None:
        self.all_but_one = all_but_one  # every side but one loses a life in a hand
        self._sorted = lru_cache(maxsize=None)(self._chances_sorted)

    def of_state(self, s: State) -> list[float]:
        """Per seat, its side's chance to win from ``s`` (1 or 0 once the game is over)."""
        n = s.n
        if s.outcome is not None:
            return [1.0 if seat in s.outcome.winners else 0.0 for seat in range(n)]
        pools = [s.pool(seat) for seat in range(n)]
        chances = self.chances(side_lives(s.rules, s.lives, s.alive, pools))
        # a side wins where one of its pools is the last left (alternate teams: a player
        # each), so its chance is theirs together
        side_of = {pools[seat]: s.side(seat) for seat in range(n)}
        share = dict.fromkeys(side_of.values(), 0.0)
        for pool, side in side_of.items():
            share[side] += chances[pool]
        return [share[s.side(seat)] for seat in range(n)]

    def exact_at(self, s: State) -> bool:
        """Whether :meth:`of_state` is exact at ``s`` (else an estimate, see ``fitted``)."""
        pools = [s.pool(seat) for seat in range(s.n)]
        return exact(side_lives(s.rules, s.lives, s.alive, pools))

    def chances(self, lives: Sequence[int]) -> tuple[float, ...]:
        """Per side, its chance to win the game; ``lives`` per side, 0 for a side out."""
        lives = fitted([max(0, x) for x in lives])
        order = sorted(range(len(lives)), key=lambda i: lives[i])
        found = self._sorted(tuple(lives[i] for i in order))
        out = [0.0] * len(lives)
        for i, value in zip(order, found, strict=True):
            out[i] = value
        return tuple(out)

    def _chances_sorted(self, lives: tuple[int, ...]) -> tuple[float, ...]:
        n = len(lives)
        alive = [i for i in range(n) if lives[i] > 0]
        if len(alive) <= 1:
            return tuple(1.0 if i in alive else 0.0 for i in range(n))
        total = [0.0] * n
        for pick in alive:  # the side that loses (or, where all but one lose, that keeps)
            after = [
                x - 1 if (i != pick if self.all_but_one else i == pick) and x > 0 else x
                for i, x in enumerate(lives)
            ]
            for i, value in enumerate(self.chances(after)):
                total[i] += value
        return tuple(t / len(alive) for t in total)


@cache
def game_odds(rules: Rules) -> GameOdds | None:
    """The odds model of a rule set, or None where the game is not won by lives."""
    if rules.scoring is not Scoring.LIVES:
        return None
    return GameOdds(rules.after_bust in (AfterBust.SIT_OUT, AfterBust.RESET_OTHERS))


def side_lives(
    rules: Rules, lives: Sequence[int], alive: Sequence[bool], pool: Sequence[int]
) -> list[int]:
    """Lives left per pool (``pool``: each seat's) for :meth:`GameOdds.chances`: 0 for a
    pool that is out, and one more where a player at 0 stays in until a payment cannot be
    made."""
    extra = 1 if rules.elimination is Elimination.CANNOT_PAY else 0
    pools = len(lives)
    inside = [False] * pools
    for seat, up in enumerate(alive):
        if up:
            inside[pool[seat]] = True
    return [lives[i] + extra if inside[i] else 0 for i in range(pools)]
