"""Fairness: does a seat's place at the table, counted from the opener or the dealer,
change its chance of winning?

Each seat's win rate is measured by its position: ``(seat - opener) mod n`` (0 for the
seat that plays first in the first hand, 1 for the next to play...) and ``(seat - dealer)
mod n`` (0 for the dealer, 1 on its left...), against the fair share: ``1/n`` where one
seat wins, the mean number of winners over ``n`` where several do (in Ninety-Eight every
seat but the loser wins). Two published summaries are computed too:

* **CardStock's Fairness** (Bell & Goadrich, "Automated Playtesting with RECYCLEd
  CardStock", Game & Puzzle Design 2(1), 2016; M. Goadrich, "Heuristics Overview",
  The Shape of Card Games, 2018-12-11): from the first player's win rate ``wp`` and the
  expected ``ewp = 1/np``, ``wp * np`` if ``wp <= ewp``, else ``-np/(np-1) * wp +
  np/(np-1)``: 1 for a fair game, 0 where the first player always or never wins. The
  formula is the line through (0, 0), (ewp, 1) and (1, 0); with several winners we use
  the same lines through the fair share.
* **Ludii's Balance** (Browne's "balance"; Ludii ``metrics.single.outcome.Balance``):
  ``1 - max |rate(a) - rate(b)|`` over pairs of seats: 1 where every seat wins equally.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations

from ninetynine.analysis.groups import by_block
from ninetynine.analysis.intervals import Estimate, blocked_proportion, proportion_test
from ninetynine.analysis.rows import GameRow

Position = Callable[[GameRow, int], int]


def from_opener(game: GameRow, seat: int) -> int:
    """The seat's place in the order of play from the first hand's opener (0 = opener)."""
    return (seat - game.opener) % game.players


def from_dealer(game: GameRow, seat: int) -> int:
    """The seat's place counted from the first hand's dealer (0 = dealer, 1 = its left)."""
    return (seat - game.dealer) % game.players


@dataclass(frozen=True, slots=True)
class Fairness:
    """One cell's fairness figures; lists hold one entry per position (0 first)."""

    games: int
    fair_share: float  # the win rate every position would have in a fair game
    from_opener: list[Estimate]
    from_dealer: list[Estimate]
    opener_p: list[float]  # each position's test against the fair share (score test)
    cardstock: float  # CardStock's Fairness of the first player
    balance: float  # Ludii's Balance over positions from the opener


def cardstock_fairness(wp: float, players: int, share: float | None = None) -> float:
    """CardStock's Fairness of a first-player win rate ``wp`` (see the module's note);
    ``share`` is the fair win rate, ``1/players`` unless given."""
    e = 1 / players if share is None else share
    if wp <= e:
        return wp / e
    return (1 - wp) / (1 - e)


def ludii_balance(rates: Sequence[float]) -> float:
    """Ludii's Balance: 1 minus the largest difference between two seats' win rates."""
    return 1.0 - max((abs(a - b) for a, b in combinations(rates, 2)), default=0.0)


def fair_share(games: Sequence[GameRow]) -> float:
    """The win rate of a seat in a fair game: winners per game over the seats."""
    seats = sum(g.players for g in games)
    return sum(len(g.winners) for g in games) / seats if seats else 0.0


def position_rates(games: Sequence[GameRow], position: Position) -> list[Estimate]:
    """Each position's win rate, with its interval over the deal blocks."""
    n = games[0].players
    blocks = by_block(games)
    rates = []
    for place in range(n):
        outcomes = [
            [seat in g.winners for g in block for seat in range(n) if position(g, seat) == place]
            for block in blocks.values()
        ]
        rates.append(blocked_proportion(outcomes))
    return rates


def fairness(games: Sequence[GameRow]) -> Fairness:
    """The fairness figures of one cell's games (at least one)."""
    if not games:
        raise ValueError("fairness of no games")
    n = games[0].players
    share = fair_share(games)
    opener = position_rates(games, from_opener)
    counts = [round(e.value * e.n) for e in opener]
    return Fairness(
        len(games),
        share,
        opener,
        position_rates(games, from_dealer),
        [proportion_test(c, e.n, share) for c, e in zip(counts, opener, strict=True)],
        cardstock_fairness(opener[0].value, n, share),
        ludii_balance([e.value for e in opener]),
    )
