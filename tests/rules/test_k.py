"""K (kitchen-table house, S002): T06 and Q19-Q24."""

from __future__ import annotations

import random

import pytest
from tests.rules.helpers import calls, deal, legal, of, play, pos

from ninetynine import new_game, preset_rules
from ninetynine.engine import events as E
from ninetynine.errors import IllegalActionError, OverLimitError, RecordError
from ninetynine.rules.cards import parse_cards

YOU, EAST, SOUTH, WEST = 0, 1, 2, 3


# T06: the walk-through from 80 ------------------------------------------------------------


def test_t06_walk_through() -> None:
    s = pos("K", ["JS 9S 2S", "9C 3C 5C", "8D 2D 3D", "5H 7H QH"], total=80)
    play(s, "JS")
    assert s.total == 90 and s.turn == EAST
    ev = play(s, "9C")
    assert s.total == 90 and s.turn == SOUTH and calls(ev) == ["nine is mine"]
    play(s, "8D")
    assert s.total == 98 and s.turn == WEST
    assert legal(s) == {"down"}  # 103, 105, 118: all over 99
    ev = play(s, "down")
    assert s.lives == [3, 3, 3, 2]
    assert s.total == 98 and not s.in_hand[WEST] and s.alive[WEST]
    assert of(ev, E.SatOut) and not of(ev, E.HandEnded)
    assert s.turn == YOU
    play(s, "9S")
    assert s.total == 98 and s.turn == EAST  # West is skipped until the next deal


def test_t06_queen_is_twenty() -> None:
    s = pos("K", ["QS 2S 3S", "9C 3C 5C"], total=70)
    play(s, "QS")
    assert s.total == 90
    s = pos("K", ["QS 2S 3S", "9C 3C 5C"], total=80)
    assert "QS" not in legal(s)
    with pytest.raises(OverLimitError):
        play(s, "QS")


# Card values ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "card,total,expected",
    [
        ("AS", 10, 11),
        ("2S", 10, 12),
        ("3S", 10, 13),
        ("5S", 10, 15),
        ("6S", 10, 16),
        ("7S", 10, 17),
        ("8S", 10, 18),
        ("4S", 10, 10),
        ("9S", 10, 10),
        ("10S", 10, 0),
        ("10S", 50, 40),
        ("JS", 10, 20),
        ("QS", 10, 30),
        ("KS", 10, 99),
        ("KS", 0, 99),
        ("KS", 99, 99),
    ],
)
def test_k_card_values(card: str, total: int, expected: int) -> None:
    s = pos("K", [f"{card} 2C 3C", "4H 5H 6H", "7H 8H 2H"], total=total)
    play(s, card)
    assert s.total == expected


def test_k_ace_is_one_only_and_ten_minus_only() -> None:
    s = pos("K", ["AS 10S 2C", "4H 5H 6H"], total=50)
    assert legal(s) == {"AS", "10S", "2C"}
    with pytest.raises(IllegalActionError):
        play(s, "AS+11")


def test_k_ten_below_zero_is_illegal() -> None:
    s = pos("K", ["10S 2S 3S", "4H 5H 6H"], total=5)
    assert legal(s) == {"2S", "3S"}
    with pytest.raises(IllegalActionError, match="below 0"):
        play(s, "10S")


def test_k_at_99_only_nine_four_ten_king() -> None:
    s = pos("K", ["9S 4S 10S", "KH 5H 6H"], total=99)
    assert legal(s) == {"9S", "4S", "10S"}
    play(s, "10S")
    assert s.total == 89
    s = pos("K", ["KS 2S AS", "KH 5H 6H"], total=99)
    assert legal(s) == {"KS"}


def test_k_four_reverses() -> None:
    s = pos("K", ["4S 2S 3S", "4H 5H 6H", "7H 8H 2H"], total=10)
    ev = play(s, "4S")
    assert s.total == 10 and s.turn == 2 and s.direction == -1 and of(ev, E.Reversed)


# Can't play (Q21) ------------------------------------------------------------------------


def test_k_only_tens_below_ten_cannot_play_flips_a_life() -> None:
    s = pos("K", ["10S 10H 10D", "4H 5H 6H", "7H 8H 2H"], total=5)
    assert legal(s) == {"down"}
    play(s, "down")
    assert s.lives == [2, 3, 3] and not s.in_hand[0] and s.total == 5 and s.turn == 1


def test_k_alt_stuck_on_the_floor_passes() -> None:
    s = pos("K", ["10S 10H 10D", "4H 5H 6H", "7H 8H 2H"], total=5, changes={"stuck": "pass"})
    assert legal(s) == {"pass"}
    ev = play(s, "pass")
    assert s.lives == [3, 3, 3] and s.in_hand[0] and s.turn == 1 and of(ev, E.Passed)


def test_k_stock_out_no_reshuffle_hands_shrink() -> None:
    s = pos("K", ["2S 3S 5S", "2C 3C 6C"], total=30, top="", rest="pile")
    ev = play(s, "2S")
    assert not s.is_chance and s.total == 32
    assert len(s.hands[0]) == 2 and of(ev, E.DrawSkipped)
    assert not of(ev, E.StockReshuffled)


def test_k_empty_hand_flips_a_life() -> None:
    s = pos("K", ["", "2C 3C 6C", "4H"], total=30, top="", rest="pile")
    assert legal(s) == {"down"}
    play(s, "down")
    assert s.lives[0] == 2 and not s.in_hand[0] and s.turn == 1


# The hand ends with one left (Q20) ---------------------------------------------------------


def test_k_hand_ends_with_one_left_then_deal_clockwise() -> None:
    # seat numbers in positions are 1-based: P2 is out of the hand, P3 cannot play, P2 dealt
    s = pos(
        "K",
        ["2S 3S 5S", "2C 3C 6C", "7H 8H JH"],
        total=98,
        turn=3,
        out_of_hand=[2],
        dealer=2,
        lives=[3, 2, 3],
    )
    ev = play(s, "down")
    assert of(ev, E.HandEnded) and s.is_chance
    assert s.lives == [3, 2, 2]  # the survivor gains and loses nothing
    assert s.dealer == 2 and s.starter == 0  # the deal moves clockwise
    deal(s)
    assert s.total == 0 and s.direction == 1 and s.turn == 0 and all(s.in_hand)
    assert [len(h) for h in s.hands] == [3, 3, 3] and len(s.stock) == 52 - 9


def test_k_two_players_bust_ends_hand() -> None:
    s = pos("K", ["2S 3S 5S", "2C 3C 6C"], total=98)
    ev = play(s, "down")
    assert of(ev, E.HandEnded) and s.lives == [2, 3]


def test_k_last_life_out_mid_hand_hand_goes_on() -> None:
    s = pos("K", ["2S 3S 5S", "2C 3C 6C", "9H 8H JH"], total=98, lives=[1, 3, 3])
    ev = play(s, "down")
    assert not s.alive[0] and of(ev, E.PlayerOut) and not of(ev, E.HandEnded)
    assert s.total == 98 and s.turn == 1


def test_k_last_with_a_life_wins() -> None:
    s = pos("K", ["2S 3S 5S", "2C 3C 6C", "9H 8H JH"], total=98, lives=[1, 3, 0], out_of_game=[3])
    ev = play(s, "down")
    assert s.is_over and s.outcome is not None and s.outcome.winners == (1,)
    assert of(ev, E.GameOver)[0].collects == 0  # a count, not a cash stake


def test_k_dealer_skips_players_without_lives() -> None:
    # P4 dealt; P2 is out of the game, P4 out of this hand; P1 cannot play: P3 is left
    s = pos(
        "K",
        ["2S 3S 5S", "2C 3C 6C", "9H 8H JH", "QD KD 4D"],
        total=98,
        turn=1,
        dealer=4,
        out_of_game=[2],
        out_of_hand=[4],
    )
    play(s, "down")
    assert s.dealer == 0 and s.starter == 2


# Two players in the hand and the Four (Q19) --------------------------------------------------


def test_k_four_with_two_left_after_busts_passes_to_other() -> None:
    s = pos("K", ["4S 3S 5S", "2C 3C 6C", "9H 8H JH"], total=40, out_of_hand=[3])
    ev = play(s, "4S")
    assert s.turn == 1 and not of(ev, E.PlaysAgain)
    play(s, "2C")
    assert s.turn == 0


def test_k_four_with_two_players_alt_play_again() -> None:
    s = pos(
        "K",
        ["4S 3S 5S", "2C 3C 6C", "9H 8H JH"],
        total=40,
        out_of_hand=[3],
        changes={"two_player_reverse": "play_again"},
    )
    ev = play(s, "4S")
    assert s.turn == 0 and of(ev, E.PlaysAgain)


def test_k_busted_player_keeps_cards_until_next_deal() -> None:
    s = pos("K", ["2S 3S 5S", "9C 3C 6C", "9H 8H JH"], total=98)
    play(s, "down")
    play(s, "9C", "9H")
    assert sorted(s.hands[0]) == sorted(parse_cards("2S 3S 5S"))  # neither plays nor draws
    assert s.turn == 1


# Set-up --------------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_k_two_to_six_players_one_deck_three_lives(n: int) -> None:
    s = new_game(preset_rules("K"), n, first=1 % n)
    s.apply(s.sample_chance(random.Random(n)))
    assert s.decks == 1 and len(s.stock) == 52 - 3 * n
    assert all(s.seat_lives(i) == 3 for i in range(n))
    assert s.turn == 1 % n and s.total == 0


@pytest.mark.parametrize("n", [1, 7])
def test_k_player_range(n: int) -> None:
    with pytest.raises(RecordError):
        new_game(preset_rules("K"), n)


def test_k_direction_reset_each_hand() -> None:
    s = pos("K", ["2S 3S 5S", "2C 3C 6C"], total=98, direction="ccw")
    play(s, "down")
    deal(s)
    assert s.direction == 1


def test_k_fixed_value_may_be_written_out() -> None:
    s = pos("K", ["10S AS 2S", "4H 5H 6H"], total=50)
    play(s, "10S-10")
    assert s.total == 40
    s = pos("K", ["10S AS 2S", "4H 5H 6H"], total=50)
    with pytest.raises(IllegalActionError, match="no choice"):
        play(s, "10S+10")
    play(s, "AS+1")
    assert s.total == 51


def test_k_ten_from_exactly_ten_reaches_zero() -> None:
    s = pos("K", ["10S 2S 3S", "4H 5H 6H"], total=10)
    assert "10S" in legal(s)
    play(s, "10S")
    assert s.total == 0
