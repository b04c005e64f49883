"""What a card is worth: a seat's chance of not losing the hand (and of winning the game)
with rank R among its opening cards, minus without.

* **Observational** (as 17lands publishes for Magic: "games in hand win rate" minus "not
  drawn"): over every seat-hand of a run, those dealt R against those not. Cheap, but a
  hand with R differs in more than R (it holds one card fewer of every other rank), and
  who holds it is not chosen at random by the rest of the game.
* **Controlled**, which only an engine can give: deal a game, then make two versions of
  the same deal, one with R in one seat's opening hand and one without (swapping R with a
  card of another rank from the stock, taken from the bottom so the draws to come change
  least), and play both with the same bots and seeds; the paired difference over deals
  is R's worth and nothing else. Where a version cannot be made (no card to swap in the
  stock) the deal is skipped and counted.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from ninetynine.analysis.intervals import (
    Comparison,
    Estimate,
    paired_difference,
    proportion,
    proportion_difference,
)
from ninetynine.analysis.losses import lost_in
from ninetynine.analysis.playing import close_all, deal_chance, make_bots, play_on
from ninetynine.analysis.rows import GameRow, HandRow
from ninetynine.engine.game import new_game
from ninetynine.engine.state import State
from ninetynine.records.match import standing
from ninetynine.rules.cards import RANKS, parse_cards, rank_of
from ninetynine.rules.settings import Rules


@dataclass(frozen=True, slots=True)
class CardValue:
    """Rank R observed: not losing the hand and winning the game, with R and without."""

    rank: str
    hand_with: Estimate
    hand_without: Estimate
    hand: Comparison  # with minus without
    game_with: Estimate
    game_without: Estimate
    game: Comparison


def _has(opening: str, rank: int) -> bool:
    return any(rank_of(c) == rank for c in parse_cards(opening)) if opening else False


def observational(games: Sequence[GameRow], hands: Sequence[HandRow]) -> list[CardValue]:
    """Every rank's observed value over one cell's rows."""
    won = {g.game: set(g.winners) for g in games}
    out = []
    for rank, name in enumerate(RANKS):
        kept: dict[bool, list[int]] = {True: [0, 0], False: [0, 0]}  # has R -> [kept, n]
        wins: dict[bool, list[int]] = {True: [0, 0], False: [0, 0]}
        for h in hands:
            for seat, opening in enumerate(h.opening):
                if not opening:
                    continue  # out of the game, or sitting the hand out
                has = _has(opening, rank)
                kept[has][0] += h.loser != seat and lost_in(h, seat) == 0
                kept[has][1] += 1
                if h.hand == 1 and h.game in won:
                    wins[has][0] += seat in won[h.game]
                    wins[has][1] += 1
        out.append(
            CardValue(
                name,
                proportion(*kept[True]),
                proportion(*kept[False]),
                proportion_difference(
                    (kept[True][0], kept[True][1]), (kept[False][0], kept[False][1])
                ),
                proportion(*wins[True]),
                proportion(*wins[False]),
                proportion_difference(
                    (wins[True][0], wins[True][1]), (wins[False][0], wins[False][1])
                ),
            )
        )
    return out


@dataclass(frozen=True, slots=True)
class ControlledValue:
    """Rank R swapped into and out of one seat's opening hand, on ``deals`` deals."""

    rank: str
    deals: int  # deals played both ways
    skipped: int  # deals where one version could not be made
    hand: Comparison  # not losing the first hand: with minus without, paired by deal
    game: Comparison  # winning the game


def with_rank(state: State, seat: int, rank: int, present: bool) -> State | None:
    """A copy of a freshly dealt ``state`` in which ``seat``'s hand holds ``rank`` (at
    least one, ``present``) or none of it, by swaps with the bottom of the stock; the
    copy unchanged where it is so already; None where the stock lacks a card to swap."""
    s = state.clone()
    hand, stock = s.hands[seat], s.stock
    if present:
        if any(rank_of(c) == rank for c in hand):
            return s
        j = next((j for j, c in enumerate(stock) if rank_of(c) == rank), None)
        if j is None or not hand:
            return None
        hand[0], stock[j] = stock[j], hand[0]  # the deal is random: hand[0] is any card
        return s
    free = iter(j for j, c in enumerate(stock) if rank_of(c) != rank)
    for i, card in enumerate(hand):
        if rank_of(card) == rank:
            j = next(free, None)
            if j is None:
                return None
            hand[i], stock[j] = stock[j], hand[i]
    return s


def controlled(
    rules: Rules, players: int, bots: Sequence[str], rank: int, deals: int, seed: int | str = 0
) -> ControlledValue:
    """Rank ``rank``'s controlled value on ``deals`` deals of ``seed``; the seat that gets
    or loses the card goes round the table deal by deal."""
    hand_pairs: list[tuple[float, float]] = []
    game_pairs: list[tuple[float, float]] = []
    skipped = 0
    for d in range(deals):
        deal_seed, seat = f"{seed}:value:{d}", d % players
        base = new_game(rules, players)
        drawn: Counter[int] = Counter()
        while base.is_chance:
            deal_chance(base, deal_seed, drawn)
        versions = [with_rank(base, seat, rank, present) for present in (True, False)]
        if None in versions:
            skipped += 1
            continue
        start = standing(base)[seat]
        results = []
        for version in versions:
            assert version is not None
            table = make_bots(bots)
            try:
                first = play_on(
                    version, table, deal_seed, f"{seed}:value-bots:{d}", drawn=drawn.copy()
                )
            finally:
                close_all(table)
            assert version.outcome is not None
            results.append((float(first[seat] >= start), float(seat in version.outcome.winners)))
        (kept_with, won_with), (kept_without, won_without) = results
        hand_pairs.append((kept_with, kept_without))
        game_pairs.append((won_with, won_without))
    return ControlledValue(
        RANKS[rank],
        len(hand_pairs),
        skipped,
        paired_difference(hand_pairs),
        paired_difference(game_pairs),
    )
