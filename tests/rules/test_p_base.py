"""P (Pagat-style standard, S000 main game): MATRIX §2a column P, T01, T03, Q10-Q18."""

from __future__ import annotations

import pytest
from tests.rules.helpers import calls, deal, legal, of, play, pos

from ninetynine import new_game, preset_rules
from ninetynine.engine import events as E
from ninetynine.errors import OverLimitError, RecordError
from ninetynine.rules.cards import parse_cards

FOUR = ["KS 8D 2C", "9H 10D 3C", "4S 5C 6C", "4H 7C 8C"]


# T01: the four-player sequence ----------------------------------------------------------


def test_t01_four_player_sequence() -> None:
    s = pos("P", FOUR, total=50, turn=1)
    order, totals, said = [s.turn], [], []
    for move in ("KS", "9H", "4S", "10D-10", "8D", "4H"):
        ev = play(s, move)
        totals.append(s.total)
        said += calls(ev)
        order.append(s.turn)
        assert all(len(h) == 3 for h in s.hands)
    assert totals == [99, 99, 99, 89, 97, 97]
    assert order == [0, 1, 2, 1, 0, 3, 0]
    assert said == ["99", "pass to you 99", "back on you 99", "89", "97", "back on you 97"]
    assert s.direction == 1


def test_t01_ten_as_plus_is_illegal_at_99() -> None:
    s = pos("P", FOUR, total=99, turn=2)
    assert "10D+10" not in legal(s)
    with pytest.raises(OverLimitError):
        play(s, "10D+10")


def test_t01_direction_after_first_four_is_ccw() -> None:
    s = pos("P", FOUR, total=99, turn=3)
    ev = play(s, "4S")
    assert s.direction == -1 and s.turn == 1
    assert [e.direction for e in of(ev, E.Reversed)] == ["ccw"]


# T03: legal-move sets near the limit ------------------------------------------------------


def test_t03_total_95() -> None:
    s = pos("P", ["AS 10S 5S", "2C 3C 6C"], total=95)
    assert legal(s) == {"AS+1", "10S-10"}


def test_t03_ace_as_11_to_99() -> None:
    s = pos("P", ["AS 2S 3S", "2C 3C 6C"], total=88)
    assert "AS+11" in legal(s)
    play(s, "AS+11")
    assert s.total == 99


def test_t03_total_99_specials() -> None:
    s = pos("P", ["KS 9S 4S", "2C 3C 6C"], total=99)
    assert legal(s) == {"KS", "9S", "4S"}
    s2 = pos("P", ["KS 9S 2S", "2C 3C 6C"], total=99)
    assert "2S" not in legal(s2)


def test_t03_no_legal_move_lays_down() -> None:
    s = pos("P", ["2S 3S 5S", "2C 3C 6C"], total=99)
    assert legal(s) == {"down"}


# Lay down: the hand ends, a penny to the centre ------------------------------------------


def test_lay_down_ends_hand_and_pays_centre() -> None:
    s = pos("P", ["2S 3S 5S", "2C 3C 6C", "7C 8C 2H"], total=99, turn=1, dealer=3)
    ev = play(s, "down")
    assert s.lives == [4, 5, 5]
    assert s.pot == 1
    assert of(ev, E.LaidDown)[0].seat == 0
    assert of(ev, E.HandEnded)[0].loser == 0
    assert s.is_chance and s.hand_no == 2
    assert s.pile == [] and s.hands == [[], [], []]  # everything is gathered for the deal
    # the deal passes left of the previous dealer (seat 3 -> seat 1), seat 2 starts
    assert s.dealer == 0 and s.starter == 1


def test_no_card_played_on_lay_down() -> None:
    s = pos("P", ["2S 3S 5S", "2C 3C 6C"], total=99)
    ev = play(s, "down")
    assert not of(ev, E.CardPlayed)


def test_new_hand_total_zero_cw_and_left_of_dealer_starts() -> None:
    s = pos("P", ["2S 3S 5S", "2C 3C 6C", "7C 8C 2H"], total=99, turn=1, dealer=3, direction="ccw")
    play(s, "down")
    deal(s)
    assert s.total == 0 and s.direction == 1
    assert s.turn == s.starter == 1 and s.dealer == 0
    assert [len(h) for h in s.hands] == [3, 3, 3]


def test_direction_carry_alt() -> None:
    s = pos(
        "P",
        ["2S 3S 5S", "2C 3C 6C", "7C 8C 2H"],
        total=99,
        direction="ccw",
        changes={"direction": "carry"},
    )
    play(s, "down")
    deal(s)
    assert s.direction == -1


def test_elimination_at_zero_pennies_and_dealer_skips_out_players() -> None:
    # Q13: P2 deals; P3 lays down with the last penny (position seats are 1-based)
    s = pos(
        "P",
        ["2S 3S 5S", "2C 3C 6C", "7C 8C 2H", "JH QH KH"],
        total=99,
        turn=3,
        dealer=2,
        lives=[5, 5, 1, 5],
    )
    ev = play(s, "down")
    assert [e.seat for e in of(ev, E.PlayerOut)] == [2]
    assert not s.alive[2]
    # the deal passes left of the previous dealer (P2), skipping P3 who is out: P4 deals
    assert s.dealer == 3 and s.starter == 0


def test_dealer_rotation_skips_eliminated_counted_from_previous_dealer() -> None:
    # the previous dealer (P2) drops out; the deal goes to the next seat still in (P3)
    s = pos(
        "P",
        ["2S 3S 5S", "2C 3C 6C", "7C 8C 2H", "JH QH KH"],
        total=99,
        turn=2,
        dealer=2,
        lives=[5, 1, 5, 5],
    )
    play(s, "down")
    assert not s.alive[1]
    assert s.dealer == 2 and s.starter == 3


def test_last_player_with_pennies_wins() -> None:
    s = pos("P", ["2S 3S 5S", "2C 3C 6C"], total=99, lives=[1, 3])
    ev = play(s, "down")
    assert s.is_over
    assert s.outcome is not None and s.outcome.winners == (1,)
    assert s.outcome.reason == "last_survivor"
    assert of(ev, E.GameOver)[0].winners == (1,)


def test_two_pennies_pot_accumulates() -> None:
    s = pos("P", ["2S 3S 5S", "2C 3C 6C"], total=99, pot=3)
    play(s, "down")
    assert s.pot == 4


# Card effects --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "card,total,expected",
    [
        ("2S", 10, 12),
        ("3S", 10, 13),
        ("5S", 10, 15),
        ("6S", 10, 16),
        ("7S", 10, 17),
        ("8S", 10, 18),
        ("JS", 10, 20),
        ("QS", 10, 20),
        ("KS", 10, 99),
        ("9S", 10, 10),
        ("4S", 10, 10),
        ("AS+1", 10, 11),
        ("AS+11", 10, 21),
        ("10S+10", 10, 20),
        ("10S-10", 10, 0),
        ("KS", 0, 99),
        ("KS", 99, 99),
    ],
)
def test_card_values(card: str, total: int, expected: int) -> None:
    hand = card.split("+")[0].split("-")[0]
    s = pos("P", [f"{hand} 2C 3C", "4H 5H 6H", "7H 8H 2H"], total=total)
    play(s, card)
    assert s.total == expected


def test_ace_and_ten_need_a_choice() -> None:
    s = pos("P", ["AS 10S 2C", "4H 5H 6H"], total=10)
    assert {"AS+1", "AS+11", "10S+10", "10S-10"} <= legal(s)
    from ninetynine.errors import ChoiceRequiredError

    with pytest.raises(ChoiceRequiredError):
        play(s, "AS")


def test_below_zero_is_allowed_in_p() -> None:
    # Q10 REC: literal, the total may become negative
    s = pos("P", ["10S 2C 3C", "4H 5H 6H"], total=5)
    assert "10S-10" in legal(s)
    play(s, "10S-10")
    assert s.total == -5


@pytest.mark.parametrize(
    "mode,expected,is_legal", [("allow", -5, True), ("clamp", 0, True), ("illegal", None, False)]
)
def test_below_zero_alts(mode: str, expected: int | None, is_legal: bool) -> None:
    s = pos("P", ["10S 2C 3C", "4H 5H 6H"], total=5, changes={"below_zero": mode})
    assert ("10S-10" in legal(s)) is is_legal
    if is_legal:
        play(s, "10S-10")
        assert s.total == expected


def test_nine_passes_to_next_in_turn() -> None:
    s = pos("P", ["9S 2C 3C", "4H 5H 6H", "7H 8H 2H"], total=40)
    ev = play(s, "9S")
    assert s.total == 40 and s.turn == 1 and s.direction == 1
    assert calls(ev) == ["pass to you 40"]


def test_four_reverses_three_players() -> None:
    s = pos("P", ["4S 2C 3C", "4H 5H 6H", "7H 8H 2H"], total=40)
    ev = play(s, "4S")
    assert s.total == 40 and s.turn == 2 and s.direction == -1
    assert calls(ev) == ["back on you 40"]


# Two players: the Four acts like a Nine (D25) ------------------------------------------------


def test_two_player_four_passes_to_other() -> None:
    s = pos("P", ["4S 2C 3C", "4H 5H 6H"], total=40)
    ev = play(s, "4S")
    assert s.turn == 1 and s.total == 40
    assert not of(ev, E.PlaysAgain)
    play(s, "4H")
    assert s.turn == 0


def test_two_player_four_alt_play_again() -> None:
    s = pos("P", ["4S 2C 3C", "4H 5H 6H"], total=40, changes={"two_player_reverse": "play_again"})
    ev = play(s, "4S")
    assert s.turn == 0 and of(ev, E.PlaysAgain)
    assert len(s.hands[0]) == 3  # drew before the extra turn (Q17 REC)


# Draws and the stock ----------------------------------------------------------------------


def test_draw_after_each_play_from_top_of_stock() -> None:
    s = pos("P", ["2S 3S 5S", "2C 3C 6C"], total=0, top="JD QD KD")
    play(s, "2S")
    assert sorted(s.hands[0]) == sorted(parse_cards("3S 5S JD"))
    play(s, "2C")
    assert sorted(s.hands[1]) == sorted(parse_cards("3C 6C QD"))


def test_stock_out_reshuffles_all_but_top_card_total_unchanged() -> None:
    s = pos("P", ["2S 3S 5S", "2C 3C 6C"], total=30, top="", rest="pile")
    top_before = s.pile[-1]
    ev = play(s, "2S")
    assert s.is_chance and s.total == 32
    # the card just played stays as the new discard pile (Q14 REC)
    assert s.pile == parse_cards("2S")
    assert top_before not in s.pile
    re = of(ev, E.StockReshuffled)
    assert re and re[0].kept_top and re[0].cards == 52 - 6
    deal(s)
    assert s.total == 32 and len(s.hands[0]) == 3 and s.turn == 1
    assert len(s.stock) == 52 - 6 - 1


def test_stock_eager_alt() -> None:
    s = pos(
        "P", ["2S 3S 5S", "2C 3C 6C"], total=30, top="JD", rest="pile", changes={"restock": "eager"}
    )
    ev = play(s, "2S")
    assert of(ev, E.StockReshuffled) and s.is_chance
    assert sorted(s.hands[0]) == sorted(parse_cards("3S 5S JD"))


# Start of the game -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "n,decks,lives", [(2, 1, 5), (3, 1, 5), (4, 1, 5), (5, 2, 3), (6, 2, 3), (10, 2, 3)]
)
def test_decks_and_pennies_by_table_size(n: int, decks: int, lives: int) -> None:
    s = new_game(preset_rules("P"), n)
    assert s.decks == decks
    assert len(s.stock) == 52 * decks
    assert all(s.seat_lives(i) == lives for i in range(n))


def test_p_accepts_two_to_ten_players() -> None:
    r = preset_rules("P")
    assert r.players_min == 2 and r.players_max >= 10
    with pytest.raises(RecordError):
        new_game(r, 1)


def test_decks_fixed_at_start_when_players_drop_out() -> None:
    # Q11 REC: five players start with two decks; when one drops out it stays two decks
    s = pos(
        "P",
        ["2S 3S 5S", "2C 3C 6C", "7C 8C 2H", "JH QH KH", "AD 2D 3D"],
        total=99,
        lives=[1, 3, 3, 3, 3],
    )
    play(s, "down")
    assert s.decks == 2 and len(s.chance_request().cards) == 104  # type: ignore[union-attr]
    deal(s)
    assert s.seat_lives(1) == 3


def test_first_deal_three_cards_left_of_dealer_starts() -> None:
    import random

    s = new_game(preset_rules("P"), 4, first=2)
    s.apply(s.sample_chance(random.Random(1)))
    assert [len(h) for h in s.hands] == [3, 3, 3, 3]
    assert s.turn == 2 and s.dealer == 1 and s.total == 0
    assert len(s.stock) == 40


# Forgetting to draw (D38, Q15) -------------------------------------------------------------


def test_auto_draw_by_default() -> None:
    s = pos("P", ["2S 3S 5S", "2C 3C 6C"], total=0)
    play(s, "2S")
    assert s.phase == "play" and len(s.hands[0]) == 3


def test_alt_explicit_draw_forgotten_stays_short_until_next_deal() -> None:
    s = pos("P", ["2S 3S 5S", "2C 3C 6C"], total=0, changes={"draw": "explicit"})
    play(s, "2S")
    assert s.phase == "draw" and s.current_seat == 0 and legal(s) == {"draw", "nodraw"}
    ev = play(s, "nodraw")
    assert of(ev, E.DrawSkipped) and s.turn == 1 and len(s.hands[0]) == 2
    play(s, "2C", "draw")
    assert len(s.hands[1]) == 3 and s.turn == 0
    play(s, "3S", "draw")
    assert len(s.hands[0]) == 2  # one card short for the rest of the hand


def test_alt_explicit_draw_from_empty_stock_after_reshuffle() -> None:
    s = pos(
        "P", ["2S 3S 5S", "2C 3C 6C"], total=30, top="", rest="pile", changes={"draw": "explicit"}
    )
    play(s, "2S", "draw")
    assert s.is_chance
    deal(s)
    assert [len(h) for h in s.hands] == [3, 3] and s.turn == 1


def test_alt_deck_count_each_hand() -> None:
    # Q11 Alt: re-evaluate the decks each hand (four left: one deck); pennies stay as they are
    s = pos(
        "P",
        ["2S 3S 5S", "2C 3C 6C", "7C 8C 2H", "JH QH KH", "AD 2D 3D"],
        total=99,
        lives=[1, 3, 3, 3, 3],
        changes={"deck_count": "each_hand"},
    )
    play(s, "down")
    req = s.chance_request()
    assert req is not None and len(req.cards) == 52 and s.decks == 1
    deal(s)
    assert s.lives == [0, 3, 3, 3, 3]
