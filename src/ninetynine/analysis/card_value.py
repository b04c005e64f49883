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

Both measure the same thing: a seat *keeps* a hand where it neither lost it (went over,
or could not play) nor paid anything in it (the hand rows' ``loser`` and lives lost).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from ninetynine.analysis.cells import Cell
from ninetynine.analysis.intervals import (
    Comparison,
    Estimate,
    paired_difference,
    proportion,
    proportion_difference,
)
from ninetynine.analysis.losses import lost_in
from ninetynine.analysis.playing import deal, play_version
from ninetynine.analysis.rows import GameRow, HandRow
from ninetynine.engine.state import State
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


@dataclass(frozen=True)
class _Deals:
    """Deals ``start`` to ``stop - 1`` of the controlled value of rank ``rank``: one unit
    of work (it pickles, for a process)."""

    cell: Cell
    rank: int
    start: int
    stop: int
    seed: int | str


@dataclass
class _Pairs:
    """What a :class:`_Deals` gave: per deal played both ways, (with, without)."""

    hand: list[tuple[float, float]]
    game: list[tuple[float, float]]
    skipped: int


DEALS_A_PART = 25  # deals a unit of work: enough to keep two or more processes busy


def _play_deals(work: _Deals) -> _Pairs:
    cell, players = work.cell, work.cell.players
    out = _Pairs([], [], 0)
    for d in range(work.start, work.stop):
        deal_seed, seat = f"{work.seed}:value:{d}", d % players
        base, drawn = deal(cell, deal_seed)
        versions = [with_rank(base, seat, work.rank, present) for present in (True, False)]
        if None in versions:
            out.skipped += 1
            continue
        results = []
        for version in versions:
            assert version is not None
            bots = f"{work.seed}:value-bots:{d}"
            first, end = play_version(cell, version, deal_seed, bots, drawn)
            assert end.outcome is not None
            kept = first.loser != seat and lost_in(first, seat) == 0
            results.append((float(kept), float(seat in end.outcome.winners)))
        (kept_with, won_with), (kept_without, won_without) = results
        out.hand.append((kept_with, kept_without))
        out.game.append((won_with, won_without))
    return out


def controlled(
    rules: Rules, players: int, bots: Sequence[str], rank: int, deals: int, seed: int | str = 0
) -> ControlledValue:
    """Rank ``rank``'s controlled value on ``deals`` deals of ``seed``; the seat that gets
    or loses the card goes round the table deal by deal."""
    (value,) = controlled_values(rules, players, bots, [rank], deals, seed)
    return value


def controlled_values(
    rules: Rules,
    players: int,
    bots: Sequence[str],
    ranks: Sequence[int],
    deals: int,
    seed: int | str = 0,
    workers: int = 1,
) -> list[ControlledValue]:
    """:func:`controlled` for each of ``ranks``, on ``workers`` processes (0: one per core);
    the values do not depend on how many: each deal's seeds are its own."""
    cell = Cell(rules, players, tuple(bots))
    work = [
        (i, _Deals(cell, rank, start, min(start + DEALS_A_PART, deals), seed))
        for i, rank in enumerate(ranks)
        for start in range(0, deals, DEALS_A_PART)
    ]
    workers = min(workers or os.cpu_count() or 1, len(work))
    if workers <= 1:
        done = [_play_deals(w) for _, w in work]
    else:
        with ProcessPoolExecutor(workers) as pool:
            done = list(pool.map(_play_deals, [w for _, w in work]))
    out = []
    for i, rank in enumerate(ranks):
        parts = [p for (j, _), p in zip(work, done, strict=True) if j == i]
        hand = [pair for p in parts for pair in p.hand]
        out.append(
            ControlledValue(
                RANKS[rank],
                len(hand),
                sum(p.skipped for p in parts),
                paired_difference(hand),
                paired_difference([pair for p in parts for pair in p.game]),
            )
        )
    return out
