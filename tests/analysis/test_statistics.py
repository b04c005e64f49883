"""The statistics on small hand-checked runs, and the published formulas on examples."""

from __future__ import annotations

import math

import pytest

from ninetynine.analysis import excitement as ex
from ninetynine.analysis.card_value import observational, with_rank
from ninetynine.analysis.compare import compare, compare_cell
from ninetynine.analysis.fairness import cardstock_fairness, fairness, ludii_balance
from ninetynine.analysis.intervals import (
    Method,
    blocked_proportion,
    mean,
    paired_difference,
    proportion,
    proportion_difference,
    t_quantile,
    unpaired_difference,
)
from ninetynine.analysis.ladder import ladder_rank, luck, order, pairs
from ninetynine.analysis.length import distribution
from ninetynine.analysis.losses import losses
from ninetynine.analysis.rows import LossCause
from ninetynine.engine.game import new_game
from ninetynine.rules.cards import rank_of
from ninetynine.rules.presets import open_rules
from tests.analysis.rows_by_hand import game, hand


def test_t_quantiles_match_the_tables() -> None:
    # Student's t table: 12.706 (1 df), 2.228 (10), 1.960 (infinite, here 10^6)
    assert t_quantile(0.975, 1) == pytest.approx(12.7062, abs=1e-4)
    assert t_quantile(0.975, 10) == pytest.approx(2.2281, abs=1e-4)
    assert t_quantile(0.975, 10**6) == pytest.approx(1.95996, abs=1e-4)


def test_wilson_and_t_intervals_by_hand() -> None:
    p = proportion(5, 20)  # Wilson: 0.25 in [0.1119, 0.4687]
    assert (p.low, p.high) == pytest.approx((0.1119, 0.4687), abs=1e-4)
    assert p.method is Method.WILSON
    m = mean([1.0, 2.0, 3.0, 4.0])  # 2.5 ± 3.182 * 1.291 / 2
    assert (m.low, m.high) == pytest.approx((2.5 - 2.0540, 2.5 + 2.0540), abs=1e-3)


def test_blocks_count_a_deal_once() -> None:
    single = blocked_proportion([[True], [False]] * 5)
    few = blocked_proportion([[True, True, True, True], [False, False, False, False]] * 2)
    many = blocked_proportion([[True, False], [True, True]] * 5)
    alike = blocked_proportion([[True, True]] * 12)
    assert single.method is Method.WILSON and single.n == 10
    # four replays of one deal are one piece of evidence, not four
    four = proportion(2, 4)
    assert few.method is Method.BLOCK_WILSON and (few.low, few.high) == (four.low, four.high)
    assert many.method is Method.BLOCK_T and many.value == 0.75
    sd = (10 * 0.25**2 / 9) ** 0.5  # the block means 0.5 and 1, five each
    assert many.high - many.low == pytest.approx(2 * t_quantile(0.975, 9) * sd / 10**0.5)
    # blocks all alike give the t interval no width: Wilson's over the blocks instead
    assert alike.method is Method.BLOCK_WILSON and alike.low < 0.8


def test_paired_beats_unpaired_on_shared_deals() -> None:
    # the deal moves both runs together; the runs differ by one everywhere
    a = [10.0 + 5 * (i % 7) for i in range(30)]
    b = [x - 1.0 + 0.1 * (i % 3) for i, x in enumerate(a)]
    paired = paired_difference(list(zip(a, b, strict=True)))
    unpaired = unpaired_difference(a, b)
    assert paired.paired and not unpaired.paired
    assert paired.p_value < 1e-10 < 0.05 < unpaired.p_value
    assert (
        paired.difference.high - paired.difference.low
        < (unpaired.difference.high - unpaired.difference.low) / 10
    )


def test_newcombe_difference() -> None:
    # Newcombe (1998), table II example: 56/70 - 48/80 = 0.2 in [0.0524, 0.3339]
    d = proportion_difference((56, 70), (48, 80))
    assert d.difference.value == pytest.approx(0.2)
    assert (d.difference.low, d.difference.high) == pytest.approx((0.0524, 0.3339), abs=1e-3)


def test_cardstock_fairness_on_its_published_lines() -> None:
    # "Heuristics Overview": wp * np below the even share, -np/(np-1) wp + np/(np-1) above
    assert cardstock_fairness(0.25, 4) == 1.0
    assert cardstock_fairness(0.0, 4) == 0.0 and cardstock_fairness(1.0, 4) == 0.0
    assert cardstock_fairness(0.125, 4) == 0.5
    assert cardstock_fairness(0.5, 4) == pytest.approx(-4 / 3 * 0.5 + 4 / 3)
    assert cardstock_fairness(0.75, 4, share=0.75) == 1.0  # three winners of four


def test_ludii_balance() -> None:
    assert ludii_balance([0.5, 0.3, 0.2]) == pytest.approx(0.7)
    assert ludii_balance([0.25] * 4) == 1.0


def test_fairness_by_seat_from_opener_and_dealer() -> None:
    # the opener (seat 2 here) wins 3 of 4 games; the dealer is the seat on its right
    rows = [
        game(game=g, block=g, opener=2, dealer=1, winners=[2 if g < 3 else 0]) for g in range(4)
    ]
    f = fairness(rows)
    assert f.fair_share == 0.25
    assert [e.value for e in f.from_opener] == [0.75, 0.0, 0.25, 0.0]
    assert [e.value for e in f.from_dealer] == [0.0, 0.75, 0.0, 0.25]
    assert f.cardstock == pytest.approx(-4 / 3 * 0.75 + 4 / 3)
    assert f.balance == 0.25


def test_length_distribution() -> None:
    d = distribution([10, 12, 12, 14, 40])
    assert (d.median, d.q1, d.q3, d.least, d.most) == (12, 12, 14, 10, 40)
    assert d.mean.value == 17.6 and d.counts == {10: 1, 12: 2, 14: 1, 40: 1}


def test_losses_by_cause_and_ending_rank() -> None:
    rows = [
        hand(),  # seat 1 went over, ended by a King
        hand(hand=2, lost_over=[0, 0, 0, 0], lost_made_threshold=[1, 0, 1, 0], ending_rank=8),
    ]
    lost = losses(rows)
    assert lost.lives == 3
    assert lost.share[LossCause.OVER].value == pytest.approx(1 / 3)
    assert lost.share[LossCause.MADE_THRESHOLD].value == pytest.approx(2 / 3)
    assert lost.per_game[LossCause.OVER].value == 1.0
    assert lost.ending["K"].value == 0.5 and lost.ending["9"].value == 0.5


def test_observed_card_value_by_hand() -> None:
    # seat 1 holds the only King and loses the hand; everybody else keeps it
    values = {v.rank: v for v in observational([game()], [hand()])}
    king = values["K"]
    assert (king.hand_with.value, king.hand_without.value) == (0.0, 1.0)
    assert king.hand.difference.value == -1.0
    assert king.game_with.value == 0.0 and king.game_without.value == pytest.approx(1 / 3)


def test_swapping_a_rank_in_and_out_keeps_the_deck() -> None:
    rules = open_rules("P")
    state = new_game(rules, 4)
    import random

    rng = random.Random(3)
    while state.is_chance:
        state.play_chance(rng)
    for present in (True, False):
        s = with_rank(state, 1, 12, present)
        assert s is not None
        assert any(rank_of(c) == 12 for c in s.hands[1]) is present
        assert sorted(s.all_cards()) == sorted(state.all_cards())
        assert s.hands[0] == state.hands[0]  # the other seats are left alone


def test_the_ladder_and_order() -> None:
    assert ladder_rank("heuristic") == 2 and ladder_rank("ismcts:iterations=5") is None
    rows = [
        game(
            players=2,
            lineup="heuristic,random",
            seats=["heuristic", "random"] if g % 2 == 0 else ["random", "heuristic"],
            game=g,
            block=g // 2,
            rotation=g % 2,
            winners=[0 if g % 2 == 0 else 1] if g < 8 else [1 if g % 2 == 0 else 0],
            places=[1, 2],
        )
        for g in range(10)
    ]
    (pair,) = pairs(rows)
    assert (pair.better, pair.weaker) == ("heuristic", "random")
    assert pair.better_rate.value == 0.8 and pair.weaker_rate.value == pytest.approx(0.2)
    assert order([pair]) == 1.0 and order([]) is None


def test_luck_is_all_the_deal_when_the_deal_decides() -> None:
    mixed = ["heuristic", "random", "heuristic", "random"]
    same = [
        game(game=b * 4 + r, block=b, rotation=r, winners=[b % 4])
        for b in range(8)
        for r in range(4)
    ]
    assert luck(same) is None  # one bot everywhere: a deal's replays are one game
    # in every block the same chair wins each rotation: the deal decides it all
    rows = [
        game(game=b * 4 + r, block=b, rotation=r, winners=[b % 4], seats=mixed)
        for b in range(8)
        for r in range(4)
    ]
    share = luck(rows)
    assert share is not None and share.deal == pytest.approx(1.0) and share.play == 0.0
    # the winner goes round with the bots: the play decides, not the deal
    rows = [
        game(game=b * 4 + r, block=b, rotation=r, winners=[(b + r) % 4], seats=mixed)
        for b in range(8)
        for r in range(4)
    ]
    share = luck(rows)
    assert share is not None and share.deal == 0.0 and share.play == pytest.approx(1.0)


def test_drama_and_security_by_hand() -> None:
    # seat 0 wins; below 1/2 at two of four decisions, by 0.25 and 0.09
    h = ex.History([[0.25, 0.75], [0.41, 0.59], [0.6, 0.4], [0.9, 0.1]], [0], [1, 2])
    assert ex.drama(h) == pytest.approx((0.5 + 0.3) / 2)
    assert ex.security(h) == 0.5
    assert ex.lead_changes(h) == 0.25  # one change of leader over four moves
    assert ex.decisiveness_threshold(h) == 0.75
    assert ex.decisiveness(h) == 0.75  # the winner first tops 0.75 at the fourth move
    assert ex.stability(h) == pytest.approx(2 * 0.2342 / 4)  # population variances
    assert ex.rank_threshold(2) == 0.5 and ex.rank_threshold(4) == pytest.approx(5 / 6)
    trend = ex.trend([h], bins=2)
    assert trend[1] == pytest.approx([0.33, 0.75]) and trend[2] == pytest.approx([0.67, 0.25])


def test_a_secure_game_has_no_drama() -> None:
    h = ex.History([[0.8, 0.2]] * 5, [0], [1, 2])
    assert ex.drama(h) == 0.0 and ex.security(h) == 1.0 and ex.lead_changes(h) == 0.0


def test_compare_pairs_by_deal_only_where_the_deals_are_shared() -> None:
    a = [game(game=b, block=b, turns=30 + b) for b in range(10)]
    b = [game(game=b, block=b, turns=28 + b) for b in range(10)]
    assert compare_cell(a, b, lambda g: float(g.turns)).paired
    other = [game(game=k, block=k, turns=28 + k, deal_seed=f"9:{k}") for k in range(10)]
    assert not compare_cell(a, other, lambda g: float(g.turns)).paired
    house = [game(game=k, block=k, turns=28 + k, rules="P-TEN-MINUS") for k in range(10)]
    (turns, _, _) = compare(a, house)
    assert not turns.comparison.paired and turns.against.rules == "P-TEN-MINUS"
    assert turns.comparison.difference.value == 2.0
    assert math.isfinite(turns.comparison.p_value)
