"""P-ONLINE and P-ONLINE-TEACH: T20 and Q43-Q48."""

from __future__ import annotations

import pytest
from tests.rules.helpers import calls, deal, legal, of, play, pos

from ninetynine import preset_rules
from ninetynine.engine import events as E

ABC = ["4S 10S 2S", "5C 6C 7C", "5H 6H 7H"]


# T20: the book's own examples ---------------------------------------------------------------


def test_t20_four_on_29_makes_33() -> None:
    s = pos("P-ONLINE", ABC, total=29)
    ev = play(s, "4S")
    assert s.total == 33
    assert s.lives == [9, 8, 8]
    assert s.direction == -1 and s.turn == 2
    assert calls(ev) == ["back on you 33"]


def test_t20_minus_ten_to_33_costs_nothing() -> None:
    s = pos("P-ONLINE", ABC, total=43)
    play(s, "10S-10")
    assert s.total == 33 and s.lives == [9, 9, 9]


def test_t20_two_on_31_doubles_and_crosses() -> None:
    s = pos("P-ONLINE", ABC, total=31)
    play(s, "2S")
    assert s.total == 62 and s.lives == [8, 9, 9]


def test_t20_two_on_62_halves_free() -> None:
    s = pos("P-ONLINE", ABC, total=62)
    play(s, "2S")
    assert s.total == 31 and s.lives == [9, 9, 9]


def test_t20_two_players_four_no_reverse() -> None:
    s = pos("P-ONLINE", ABC[:2], total=29)
    ev = play(s, "4S")
    assert s.total == 33 and s.lives == [9, 8]
    assert s.turn == 1 and s.direction == 1 and not of(ev, E.Reversed)
    assert not of(ev, E.PlaysAgain)


# Card effects (D13, D15, D20, D22, Q43) ----------------------------------------------------------


@pytest.mark.parametrize(
    "total,expected", [(50, 25), (98, 49), (48, 96), (49, 98), (0, 0), (10, 20), (1, 2), (52, 26)]
)
def test_online_two(total: int, expected: int) -> None:
    s = pos("P-ONLINE", ["2S 3S 5S", "5C 6C 7C", "5H 6H 7H"], total=total)
    play(s, "2S")
    assert s.total == expected


def test_online_two_on_51_would_bust() -> None:
    s = pos("P-ONLINE", ["2S 3S 5S", "5C 6C 7C", "5H 6H 7H"], total=51)
    assert "2S" not in legal(s)


def test_online_king_is_plain_ten() -> None:
    s = pos("P-ONLINE", ["KS 3S 5S", "5C 6C 7C", "5H 6H 7H"], total=12)
    play(s, "KS")
    assert s.total == 22 and s.direction == 1 and s.turn == 1


def test_online_king_alt_set_99() -> None:
    s = pos(
        "P-ONLINE", ["KS 3S 5S", "5C 6C 7C", "5H 6H 7H"], total=12, changes={"cards": {"K": "set"}}
    )
    play(s, "KS")
    # from 12 to 99 crosses 33 and 66 (a penny each) and makes exactly 99 (two each)
    assert s.total == 99 and s.lives == [7, 7, 7]


@pytest.mark.parametrize("card", ["AS+1", "AS+11", "10S+10", "10S-10", "9S"])
def test_online_ace_ten_nine_as_p(card: str) -> None:
    s = pos("P-ONLINE", ["AS 10S 9S", "5C 6C 7C", "5H 6H 7H"], total=50)
    play(s, card)
    assert s.total == 50 + {"AS+1": 1, "AS+11": 11, "10S+10": 10, "10S-10": -10, "9S": 0}[card]


def test_online_jack_adds_ten_and_skips() -> None:
    s = pos("P-ONLINE", ["JS 3S 5S", "5C 6C 7C", "5H 6H 7H"], total=12)
    ev = play(s, "JS")
    assert s.total == 22 and s.turn == 2
    assert [e.seat for e in of(ev, E.Skipped)] == [1]


def test_online_jack_skip_counter_clockwise() -> None:
    s = pos("P-ONLINE", ["JS 3S 5S", "5C 6C 7C", "5H 6H 7H", "8H 8C 8D"], total=12, direction="ccw")
    play(s, "JS")
    assert s.turn == 2


def test_online_jack_two_players_actor_plays_again() -> None:
    s = pos("P-ONLINE", ["JS 3S 5S", "5C 6C 7C"], total=12, top="8D")
    play(s, "JS")
    assert s.turn == 0 and len(s.hands[0]) == 3


# Thresholds (D40-D42, Q44) ----------------------------------------------------------------------


def test_exact_66_from_below() -> None:
    s = pos("P-ONLINE", ["5S 3S 6S", "5C 6C 7C", "5H 6H 7H"], total=61)
    play(s, "5S")
    assert s.lives == [9, 8, 8]


def test_exact_66_by_doubling_33_no_crossing_penalty() -> None:
    s = pos("P-ONLINE", ["2S 3S 6S", "5C 6C 7C", "5H 6H 7H"], total=33)
    play(s, "2S")
    assert s.total == 66 and s.lives == [9, 8, 8]


def test_leaving_33_upward_costs_nothing() -> None:
    s = pos("P-ONLINE", ["7S 3S 6S", "5C 6C 7C", "5H 6H 7H"], total=33)
    play(s, "7S")
    assert s.total == 40 and s.lives == [9, 9, 9]


def test_leaving_33_alt_leave_costs() -> None:
    s = pos(
        "P-ONLINE",
        ["7S 3S 6S", "5C 6C 7C", "5H 6H 7H"],
        total=33,
        changes={"online_cross": "leave"},
    )
    play(s, "7S")
    assert s.lives == [8, 9, 9]


@pytest.mark.parametrize(
    "total,card,lives",
    [
        (30, "5S", [8, 9, 9]),  # crosses 33
        (60, "7S", [8, 9, 9]),  # crosses 66
        (25, "AS+11", [8, 9, 9]),  # crosses 33 with an Ace
        (22, "AS+11", [9, 8, 8]),  # exactly 33 with an Ace
        (40, "10S-10", [9, 9, 9]),  # down across 33: free
        (70, "10S-10", [9, 9, 9]),  # down across 66: free
        (34, "5S", [9, 9, 9]),  # above 33 already
    ],
)
def test_crossing_is_upward_only(total: int, card: str, lives: list[int]) -> None:
    first = "7S AS 10S" if card.startswith("7") else "5S AS 10S"
    s = pos("P-ONLINE", [first, "5C 6C 7C", "5H 6H 7H"], total=total)
    play(s, card)
    assert s.lives == lives


def test_exact_99_others_pay_two_and_round_ends() -> None:
    s = pos("P-ONLINE", ["KS 3S 5S", "5C 6C 7C", "5H 6H 7H"], total=89, dealer=3)
    ev = play(s, "KS")
    assert s.lives == [9, 7, 7]
    assert of(ev, E.HandEnded) and s.is_chance
    assert s.dealer == 0 and s.starter == 1  # Q48: inherit P
    deal(s)
    assert s.total == 0 and s.direction == 1 and s.turn == 1
    assert all(len(h) == 3 for h in s.hands)


def test_hold_at_99_is_not_making_99() -> None:
    s = pos("P-ONLINE", ["9S 3S 5S", "5C 6C 7C", "5H 6H 7H"], total=99)
    ev = play(s, "9S")
    assert s.lives == [9, 9, 9] and not of(ev, E.HandEnded)


def test_over_99_forced_costs_two_and_round_ends() -> None:
    s = pos("P-ONLINE", ["5S 3S 6S", "5C 6C 7C", "5H 6H 7H"], total=97)
    assert legal(s) == {"5S", "3S", "6S"}  # no safe card: any card, and you lose
    ev = play(s, "3S")
    assert s.total == 100 and s.lives == [7, 9, 9]
    assert of(ev, E.Busted) and of(ev, E.HandEnded)


def test_over_99_not_allowed_with_a_safe_card() -> None:
    s = pos("P-ONLINE", ["5S 3S 9S", "5C 6C 7C", "5H 6H 7H"], total=97)
    assert legal(s) == {"9S"}  # a Two on 97 would double it


def test_over_99_alt_any_card_legal() -> None:
    s = pos("P-ONLINE", ["5S 3S 9S", "5C 6C 7C", "5H 6H 7H"], total=97, changes={"may_bust": True})
    assert legal(s) == {"5S", "3S", "9S"}


def test_double_over_99_also_pays_for_crossing_66() -> None:
    # judgement call: 51 doubled to 102 crosses 66 upward and goes over 99: both are paid
    s = pos("P-ONLINE", ["2S 9H 8S", "5C 6C 7C", "5H 6H 7H"], total=51, changes={"may_bust": True})
    play(s, "2S")
    assert s.total == 102 and s.lives == [6, 9, 9]


# Tokens and elimination (Q46, Q47) -----------------------------------------------------------


def test_zero_tokens_stays_in() -> None:
    s = pos("P-ONLINE", ["5S 3S 6S", "5C 6C 7C", "5H 6H 7H"], total=30, lives=[1, 9, 9])
    play(s, "5S")
    assert s.lives[0] == 0 and s.alive[0] and s.in_hand[0]


def test_cannot_pay_is_eliminated_round_goes_on() -> None:
    s = pos(
        "P-ONLINE", ["4S 3S 6S", "5C 6C 7C", "5H 6H 7H", "8H 8C 8D"], total=29, lives=[9, 0, 5, 5]
    )
    ev = play(s, "4S")
    assert not s.alive[1] and [e.seat for e in of(ev, E.PlayerOut)] == [1]
    assert s.lives == [9, 0, 4, 4]
    assert not s.is_chance and s.total == 33
    # the Four reversed: seat 3 is next (counter-clockwise)
    assert s.direction == -1 and s.turn == 3


def test_exact_99_owed_two_with_one_token_eliminates() -> None:
    s = pos("P-ONLINE", ["KS 3S 6S", "5C 6C 7C", "5H 6H 7H"], total=89, lives=[9, 1, 9])
    play(s, "KS")
    assert not s.alive[1] and s.lives == [9, 0, 7]


def test_payments_eliminate_all_others_game_over() -> None:
    s = pos("P-ONLINE", ["KS 3S 6S", "5C 6C 7C", "5H 6H 7H"], total=89, lives=[1, 1, 0])
    ev = play(s, "KS")
    assert s.is_over and s.outcome is not None and s.outcome.winners == (0,)
    assert [e.seat for e in of(ev, E.PlayerOut)] == [1, 2]  # seat order left of the actor


def test_actor_cannot_pay_crossing_is_eliminated_no_draw() -> None:
    s = pos("P-ONLINE", ["5S 3S 6S", "5C 6C 7C", "5H 6H 7H"], total=30, lives=[0, 9, 9])
    play(s, "5S")
    assert not s.alive[0] and s.turn == 1 and len(s.hands[0]) == 2


def test_bust_with_one_token_eliminates() -> None:
    s = pos("P-ONLINE", ["5S 3S 6S", "5C 6C 7C", "5H 6H 7H"], total=97, lives=[1, 9, 9])
    ev = play(s, "5S")
    assert not s.alive[0] and of(ev, E.PlayerOut)
    assert s.is_chance  # the round ends; the others play on


def test_q47_jack_skip_after_elimination_skips_a_remaining_player() -> None:
    s = pos(
        "P-ONLINE", ["JS 3S 6S", "5C 6C 7C", "5H 6H 7H", "8H 8C 8D"], total=23, lives=[9, 0, 9, 9]
    )
    ev = play(s, "JS")
    assert not s.alive[1]
    assert [e.seat for e in of(ev, E.Skipped)] == [2]
    assert s.turn == 3


def test_q47_alt_eliminated_seat_absorbs_the_skip() -> None:
    s = pos(
        "P-ONLINE",
        ["JS 3S 6S", "5C 6C 7C", "5H 6H 7H", "8H 8C 8D"],
        total=23,
        lives=[9, 0, 9, 9],
        changes={"skip_counts": "before_eliminations"},
    )
    play(s, "JS")
    assert s.turn == 2


def test_q47_jack_with_two_remaining_actor_again() -> None:
    s = pos("P-ONLINE", ["JS 3S 6S", "5C 6C 7C", "5H 6H 7H"], total=23, lives=[9, 0, 9])
    play(s, "JS")
    assert s.turn == 0


def test_q47_four_after_elimination_leaves_two_no_reverse() -> None:
    s = pos("P-ONLINE", ["4S 3S 6S", "5C 6C 7C", "5H 6H 7H"], total=29, lives=[9, 0, 9])
    ev = play(s, "4S")
    assert not s.alive[1] and s.direction == 1 and not of(ev, E.Reversed)
    assert s.turn == 2


def test_online_tokens_not_reduced_above_four_players() -> None:
    r = preset_rules("P-ONLINE")
    assert r.lives_for(6) == 9 and r.decks_for(6) == 2


# P-ONLINE-TEACH ------------------------------------------------------------------------------


@pytest.mark.parametrize("total,expected", [(48, 24), (50, 25), (31, 62), (0, 0), (49, 98), (2, 1)])
def test_teach_two(total: int, expected: int) -> None:
    s = pos("P-ONLINE-TEACH", ["2S 3S 5S", "5C 6C 7C", "5H 6H 7H"], total=total)
    play(s, "2S")
    assert s.total == expected


def test_teach_jack_and_four_plain() -> None:
    s = pos("P-ONLINE-TEACH", ["JS 4S 5S", "5C 6C 7C", "5H 6H 7H"], total=10)
    ev = play(s, "JS")
    assert s.total == 20 and s.turn == 1 and not of(ev, E.Skipped)
    s = pos("P-ONLINE-TEACH", ["JS 4S 5S", "5C 6C 7C", "5H 6H 7H"], total=10)
    ev = play(s, "4S")
    assert s.total == 14 and s.turn == 1 and s.direction == 1 and calls(ev) == ["14"]


def test_teach_keeps_online_scoring() -> None:
    s = pos("P-ONLINE-TEACH", ["4S 3S 5S", "5C 6C 7C", "5H 6H 7H"], total=29)
    play(s, "4S")
    assert s.lives == [9, 8, 8] and s.turn == 1
