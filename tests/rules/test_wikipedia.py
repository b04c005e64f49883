"""WIKI, the Wikipedia standard (FAMILIES.md §2, F1): its quotations and O01-O07."""

from __future__ import annotations

import pytest
from tests.rules.helpers import calls, card_text, deal, legal, of, play, pos

from ninetynine import load_rules, new_game, preset_rules
from ninetynine.engine import events as E
from ninetynine.engine.state import CHANCE
from ninetynine.errors import OverLimitError, RecordError
from ninetynine.records.position import format_position

FOUR = ["3S 7S 8S", "5C 6C 7C", "5H 6H 7H", "5D 6D 7D"]


def test_wikipedia_is_the_preset_and_its_aliases() -> None:
    r = preset_rules("WIKI")
    assert load_rules("wikipedia") == r and load_rules("romani") == r
    assert "en.wikipedia.org" in r.source


def test_w1_three_tokens_three_cards_any_number_of_players() -> None:
    """«three tokens are distributed to each player»; «three cards are dealt to each
    player»; «can be played by any number of players» (2 up; 10 as for P, Q11)."""
    r = preset_rules("WIKI")
    assert (r.lives, r.hand_size, r.players_min) == (3, 3, 2) and r.players_max >= 8
    s = new_game(r, 4)
    deal(s)
    assert [len(h) for h in s.hands] == [3, 3, 3, 3] and s.lives == [3, 3, 3, 3]


def test_w1_left_of_the_dealer_takes_the_first_turn() -> None:
    """«the player to the left of the dealer takes the first turn»."""
    s = new_game(preset_rules("WIKI"), 4, first=2)
    assert s.dealer == 1 and s.starter == 2 and s.turn == 2


@pytest.mark.parametrize(
    "card,total,after",
    [
        ("AS+1", 40, 41),
        ("AS+11", 40, 51),
        ("2S", 40, 42),
        ("5S", 40, 45),
        ("6S", 40, 46),
        ("7S", 40, 47),
        ("8S", 40, 48),
        ("JS", 40, 50),
        ("QS", 40, 50),
        ("10S+10", 40, 50),
        ("10S-10", 40, 30),
        ("KS", 40, 40),
        ("9S", 40, 99),
        ("9S", 0, 99),
        ("9S", 99, 99),
        ("4S", 40, 40),
    ],
)
def test_d1_card_values(card: str, total: int, after: int) -> None:
    """«Ace +1 or +11», «2 +2», «5–8 +face value», «J, Q +10», «10 ±10», «K 0»,
    «9 Count automatically becomes 99» («independently to the previous value»), «4 0»."""
    s = pos("WIKI", [f"{card_text(card)} 2C 3C", "5C 6C 7C", "5H 6H 7H"], total=total)
    play(s, card)
    assert s.total == after


def test_d1_three_adds_three_and_skips_the_next_player() -> None:
    """«3 +3 Next player skipped»; «the next player's turn is skipped»."""
    s = pos("WIKI", FOUR, total=10)
    ev = play(s, "3S")
    assert s.total == 13 and s.turn == 2
    assert [e.seat for e in of(ev, E.Skipped)] == [1]


def test_o04_the_three_with_two_players_plays_again_after_drawing() -> None:
    """O04 REC: with two players the skip gives the actor another turn, after drawing."""
    s = pos("WIKI", FOUR[:2], total=10)
    ev = play(s, "3S")
    assert s.turn == 0 and len(s.hands[0]) == 3 and of(ev, E.CardDrawn)
    play(s, "7S")
    assert s.total == 20 and s.turn == 1


def test_o04_alt_the_three_with_two_players_does_not_skip() -> None:
    """O04 Alt (`[T3]` «skipped unless there are only 2 players»)."""
    s = pos("WIKI", FOUR[:2], total=10, changes={"skip_with_two_players": False})
    ev = play(s, "3S")
    assert s.turn == 1 and not of(ev, E.Skipped)


def test_d1_four_reverses_with_more_than_two_players() -> None:
    """«4 0 Order of play is reversed in games with more than two players»."""
    s = pos("WIKI", ["4S 7S 8S", "5C 6C 7C", "5H 6H 7H", "5D 6D 7D"], total=50)
    play(s, "4S")
    assert s.total == 50 and s.direction == -1 and s.turn == 3


def test_o05_four_with_two_players_leaves_the_other_next() -> None:
    """«(turn order is not reversed if there are only two players)»: the other plays next."""
    s = pos("WIKI", ["4S 7S 8S", "5C 6C 7C"], total=50)
    ev = play(s, "4S")
    assert s.total == 50 and s.turn == 1 and not of(ev, E.PlaysAgain)
    # not reversed: the direction, the saved position and the log all say so
    assert s.direction == 1 and not of(ev, E.Reversed)
    assert 'direction = "cw"' in format_position(s)


def test_o05_four_reverses_again_once_a_third_player_is_back_in_the_hand() -> None:
    """The two-player reading counts the players in the hand (Q18): with three, it reverses."""
    s = pos("WIKI", ["4S 7S 8S", "5C 6C 7C", "5H 6H 7H"], total=50)
    ev = play(s, "4S")
    assert s.direction == -1 and [e.direction for e in of(ev, E.Reversed)] == ["ccw"]


def test_t4_king_is_a_pass_worth_zero() -> None:
    """«K 0»; «Kings are worth 0»; «K - Skip this turn.»: the total stays, the next plays."""
    s = pos("WIKI", ["KS 7S 8S", "5C 6C 7C", "5H 6H 7H"], total=99)
    assert "KS" in legal(s)
    play(s, "KS")
    assert s.total == 99 and s.turn == 1 and s.direction == 1


def test_w1_may_not_exceed_99() -> None:
    """«until a player cannot play without making the total value exceed ninety-nine»."""
    s = pos("WIKI", ["QS 7S 8S", "5C 6C 7C", "5H 6H 7H"], total=90)
    assert legal(s) == {"7S", "8S"}
    with pytest.raises(OverLimitError):
        play(s, "QS")


def test_o07_only_plain_cards_can_leave_a_player_stuck() -> None:
    """O07: K, 4, 9 and 10 are always safe; A/2/3/5-8/J/Q can all exceed 99."""
    assert legal(pos("WIKI", ["AS 2S QS", "5C 6C 7C"], total=99)) == {"down"}
    for safe in ("KS", "4S", "9S", "10S-10"):
        assert safe in legal(pos("WIKI", [f"{card_text(safe)} 2S QS", "5C 6C 7C"], total=99))


def test_w1_who_cannot_play_loses_the_deal_and_a_token_then_a_new_hand() -> None:
    """«That player loses the deal and must turn in or discard one of their tokens, after
    which all cards are then collected and a new hand is dealt.»"""
    s = pos("WIKI", ["AS 2S QS", "5C 6C 7C", "5H 6H 7H"], total=99, turn=1, dealer=3)
    ev = play(s, "down")
    assert s.lives == [2, 3, 3]
    assert of(ev, E.HandEnded) and s.phase == CHANCE and s.hand_no == 2
    deal(s)
    # O03 REC: the deal passes left; the player left of the new dealer leads, clockwise
    assert s.dealer == 0 and s.turn == 1 and s.total == 0 and s.direction == 1
    assert [len(h) for h in s.hands] == [3, 3, 3]


def test_w1_out_at_no_tokens_the_last_with_tokens_wins() -> None:
    """«Once a player runs out of tokens, that player is out of the game. The last player
    remaining, i.e. the last player with token(s), wins the game.»"""
    s = pos("WIKI", ["AS 2S QS", "5C 6C 7C"], total=99, lives=[1, 2])
    ev = play(s, "down")
    assert of(ev, E.PlayerOut) and s.outcome is not None and s.outcome.winners == (1,)


def test_o01_a_ten_may_take_the_total_below_zero() -> None:
    """O01 REC: below 0 is allowed (negatives are only ever voluntary)."""
    s = pos("WIKI", ["10S 2S QS", "5C 6C 7C"], total=5)
    play(s, "10S-10")
    assert s.total == -5


def test_o02_an_empty_stock_is_rebuilt_keeping_the_top_card() -> None:
    """O02 REC: as P (MATRIX D36): the discards but the top card, the total kept."""
    s = pos("WIKI", ["7S 2S QS", "5C 6C 7C"], total=40, top="", rest="pile", pile="3D 4D")
    ev = play(s, "7S")
    assert of(ev, E.StockReshuffled)[0].kept_top and s.total == 47


def test_o06_calls_are_the_new_total() -> None:
    """«calls out the new total»: O06 REC calls are events only."""
    s = pos("WIKI", FOUR, total=10)
    assert calls(play(s, "7S")) == ["17"]


def test_wikipedia_needs_two_players() -> None:
    with pytest.raises(RecordError):
        new_game(preset_rules("WIKI"), 1)


def test_w1_forgetting_to_draw_leaves_you_one_card_short() -> None:
    """«that player must remain one card short for the remainder of the hand»: in software
    the draw is automatic (as P, Q15); `draw = "explicit"` makes forgetting possible."""
    s = pos("WIKI", FOUR, total=10, changes={"draw": "explicit"})
    play(s, "7S", "nodraw")
    assert len(s.hands[0]) == 2 and s.turn == 1
    play(s, "5C", "draw")
    assert len(s.hands[1]) == 3
