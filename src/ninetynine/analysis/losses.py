"""Why lives are lost, and which cards end hands.

Every life (or game point) a hand takes is counted under its :class:`LossCause`; the
share of each cause comes with Wilson's interval over the lives lost. The rank that ends
a hand is the rank of the last card played in it; its share is over the hands that ended
on a card.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from ninetynine.analysis.intervals import Estimate, mean, proportion
from ninetynine.analysis.rows import HandRow, LossCause
from ninetynine.rules.cards import RANKS


def lost_by(hand: HandRow, cause: LossCause) -> list[int]:
    """Lives each seat lost in ``hand`` by ``cause``."""
    lost: list[int] = getattr(hand, f"lost_{cause.value}")
    return lost


def lost_in(hand: HandRow, seat: int) -> int:
    """Lives ``seat`` lost in ``hand``, all causes together."""
    return sum(lost_by(hand, cause)[seat] for cause in LossCause)


@dataclass(frozen=True, slots=True)
class Losses:
    """One cell's lives lost: per cause the share of all lives lost and the mean per game;
    per rank the share of hands it ended."""

    games: int
    lives: int  # lives lost in all
    share: dict[LossCause, Estimate]
    per_game: dict[LossCause, Estimate]
    ending: dict[str, Estimate]  # rank name -> share of hands it ended
    hands_ended: int  # hands that ended on a card


def losses(hands: Sequence[HandRow]) -> Losses:
    """The losses of one cell's hands (at least one)."""
    games = sorted({h.game for h in hands})
    totals = {cause: sum(sum(lost_by(h, cause)) for h in hands) for cause in LossCause}
    lives = sum(totals.values())
    per_game: dict[LossCause, Estimate] = {}
    for cause in LossCause:
        in_game: Counter[int] = Counter()
        for h in hands:
            in_game[h.game] += sum(lost_by(h, cause))
        per_game[cause] = mean([float(in_game[g]) for g in games])
    ended = Counter(h.ending_rank for h in hands if h.ending_rank >= 0)
    count = sum(ended.values())
    return Losses(
        len(games),
        lives,
        {cause: proportion(totals[cause], lives) for cause in LossCause},
        per_game,
        {RANKS[r]: proportion(ended[r], count) for r in range(len(RANKS))},
        count,
    )
