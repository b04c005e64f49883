"""P-BORDERS: borders 33:34, 66:67, 99:100 and game points to 15 (D43, D45, Q36-Q38)."""

from __future__ import annotations

import pytest
from tests.rules.helpers import calls, deal, legal, of, play, pos

from ninetynine import preset_rules
from ninetynine.engine import events as E

THREE = ["5S 10S 8S", "5C 6C 7C", "5H 6H 7H"]


@pytest.mark.parametrize(
    "total,card,crossed",
    [
        (30, "5S", 1),  # 30 -> 35 crosses 33:34
        (33, "5S", 1),  # 33 -> 38: going 33 -> 34 crosses
        (28, "5S", 0),  # 28 -> 33: landing on 33 does not cross
        (43, "10S-10", 1),  # 43 -> 33: landing on 33 from above crosses (Q37)
        (75, "10S-10", 1),  # the book's example: 75 -> 65
        (62, "5S", 1),  # 62 -> 67
        (61, "5S", 0),  # 61 -> 66
        (50, "10S+10", 0),
        (34, "10S-10", 1),  # 34 -> 24
    ],
)
def test_border_crossing(total: int, card: str, crossed: int) -> None:
    s = pos("P-BORDERS", THREE, total=total)
    ev = play(s, card)
    assert s.points == [3 - crossed, 3, 3]
    assert len(of(ev, E.BorderCrossed)) == crossed


def test_borders_cards() -> None:
    s = pos("P-BORDERS", ["8S 4S KS", "5C 6C 7C", "5H 6H 7H"], total=10)
    ev = play(s, "8S")
    assert s.total == 10 and s.direction == -1 and s.turn == 2
    assert calls(ev) == ["back on you 10"]
    s = pos("P-BORDERS", ["8S 4S KS", "5C 6C 7C", "5H 6H 7H"], total=10)
    ev = play(s, "4S")
    assert s.total == 14 and s.direction == 1 and calls(ev) == ["14"]
    s = pos("P-BORDERS", ["8S 4S KS", "5C 6C 7C", "5H 6H 7H"], total=10)
    play(s, "KS")
    assert s.total == 20


def test_borders_no_elimination_and_no_lives() -> None:
    r = preset_rules("P-BORDERS")
    assert r.points_per_hand == 3 and r.points_target == 15
    assert r.elimination.value == "never"


def test_over_99_costs_the_last_border_and_ends_hand() -> None:
    s = pos(
        "P-BORDERS",
        ["5S 6S 7S", "5C 6C 7C", "5H 6H 7H"],
        total=97,
        points=[1, 3, 2],
        scores=[4, 5, 6],
        dealer=3,
    )
    assert legal(s) == {"5S", "6S", "7S"}  # no safe card: one must be played
    ev = play(s, "5S")
    assert of(ev, E.BorderCrossed)[0].border == 99
    assert of(ev, E.HandEnded)
    assert s.scores == [4, 8, 8]
    assert of(ev, E.HandScored)[0].scores == (4, 8, 8)
    assert s.points == [3, 3, 3]  # each starts the next hand with three
    assert all(s.alive)
    assert s.dealer == 0 and s.starter == 1
    deal(s)
    assert s.total == 0 and s.turn == 1


def test_borders_must_not_exceed_99_with_a_safe_card() -> None:
    s = pos("P-BORDERS", ["5S 6S 9S", "5C 6C 7C", "5H 6H 7H"], total=97)
    assert legal(s) == {"9S"}


def test_borders_alt_any_card_legal() -> None:
    s = pos("P-BORDERS", ["5S 6S 9S", "5C 6C 7C", "5H 6H 7H"], total=97, changes={"may_bust": True})
    assert legal(s) == {"5S", "6S", "9S"}


def test_borders_reach_15_highest_wins() -> None:
    s = pos(
        "P-BORDERS",
        ["5S 6S 7S", "5C 6C 7C", "5H 6H 7H"],
        total=97,
        points=[2, 3, 1],
        scores=[13, 10, 13],
    )
    ev = play(s, "5S")
    assert s.scores == [14, 13, 14]  # nobody at 15: play on
    assert not s.is_over
    s = pos(
        "P-BORDERS",
        ["5S 6S 7S", "5C 6C 7C", "5H 6H 7H"],
        total=97,
        points=[3, 3, 1],
        scores=[13, 14, 13],
    )
    ev = play(s, "5S")
    assert s.scores == [15, 17, 14]
    assert s.is_over and s.outcome is not None
    assert s.outcome.winners == (1,) and s.outcome.reason == "points"
    assert of(ev, E.GameOver)


def test_borders_tie_plays_another_hand() -> None:
    s = pos(
        "P-BORDERS",
        ["5S 6S 7S", "5C 6C 7C", "5H 6H 7H"],
        total=97,
        points=[3, 2, 1],
        scores=[13, 14, 13],
    )
    play(s, "5S")
    assert s.scores == [15, 16, 14]
    assert s.is_over and s.outcome is not None and s.outcome.winners == (1,)
    s = pos(
        "P-BORDERS",
        ["5S 6S 7S", "5C 6C 7C", "5H 6H 7H"],
        total=97,
        points=[3, 2, 1],
        scores=[14, 14, 13],
    )
    play(s, "5S")
    assert s.scores == [16, 16, 14] and not s.is_over and s.is_chance


def test_borders_tie_alt_shared() -> None:
    s = pos(
        "P-BORDERS",
        ["5S 6S 7S", "5C 6C 7C", "5H 6H 7H"],
        total=97,
        points=[3, 2, 1],
        scores=[14, 14, 13],
        changes={"points_tie": "shared"},
    )
    play(s, "5S")
    assert s.is_over and s.outcome is not None and s.outcome.winners == (0, 1)


def test_borders_negative_leftovers_subtract() -> None:
    s = pos(
        "P-BORDERS",
        ["5S 6S 7S", "5C 6C 7C", "5H 6H 7H"],
        total=97,
        points=[0, -1, 3],
        scores=[5, 5, 5],
    )
    play(s, "5S")
    assert s.scores == [4, 4, 8]


def test_borders_alt_floor_zero() -> None:
    s = pos(
        "P-BORDERS",
        ["5S 6S 7S", "5C 6C 7C", "5H 6H 7H"],
        total=97,
        points=[0, -1, 3],
        scores=[5, 5, 5],
        changes={"points_floor_zero": True},
    )
    play(s, "5S")
    assert s.scores == [5, 5, 8]


def test_borders_with_69_extra_point() -> None:
    s = pos({"preset": "P-BORDERS", "rules": {"rule_69": "extra_point"}}, THREE, total=64)
    ev = play(s, "5S")
    assert s.total == 69 and s.points == [3, 3, 3]  # -1 for 66:67, +1 for 69
    assert of(ev, E.SixtyNine)


def test_borders_a_down_move_crossing_loses_a_point_each_time() -> None:
    s = pos("P-BORDERS", ["10S 5S 6S", "10C 6C 7C", "5H 6H 7H"], total=70)
    play(s, "10S-10")
    assert s.points == [2, 3, 3]
    play(s, "10C+10")
    assert s.points == [2, 2, 3]
