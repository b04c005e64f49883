"""An independent referee's scenarios for the other published families (FAMILIES.md).

Each scenario was written from FAMILIES.md's tables, quotations and REC readings alone, before
reading the presets' own tests; its docstring quotes the line it checks (with its source tag or
its O-number). Seats are 0-based in code (seat 0 is "P1"); positions count them from 1.
"""

from __future__ import annotations

import random

import pytest
from tests.rules.helpers import calls, card_text, deal, legal, of, play, pos

from ninetynine import new_game, parse_action, preset_rules, presets
from ninetynine.engine import events as E
from ninetynine.engine.state import State
from ninetynine.errors import IllegalActionError, OverLimitError, RecordError, Refusal
from ninetynine.records.match import standings
from ninetynine.rules.cards import RANKS
from ninetynine.rules.describe import rules_text
from ninetynine.rules.settings import TwoPlayerReverse

# =====================================================================================
# F1 WIKI (Wikipedia standard)
# =====================================================================================


def test_wiki_setup_tokens_hand_left_of_dealer() -> None:
    """[W1] «three tokens are distributed to each player»; «Each hand, three cards are dealt
    to each player»; «the player to the left of the dealer takes the first turn»."""
    s = new_game(preset_rules("WIKI"), 4, first=2)
    ev = deal(s)
    assert s.lives == [3, 3, 3, 3] and s.decks == 1
    assert [len(h) for h in s.hands] == [3, 3, 3, 3]
    started = of(ev, E.HandStarted)[0]
    assert started.dealer == 1 and started.starter == 2 and s.turn == 2
    assert s.direction == 1


def test_wiki_any_number_of_players() -> None:
    """[W1] «can be played by any number of players»; infobox «Players: 2+»."""
    rules = preset_rules("WIKI")
    assert rules.players_min == 2 and rules.players_max >= 10
    new_game(rules, 2)
    new_game(rules, 10)


@pytest.mark.parametrize(
    "move,total,expected",
    [
        ("AS+1", 40, 41),
        ("AS+11", 40, 51),
        ("2S", 40, 42),
        ("5S", 40, 45),
        ("6S", 40, 46),
        ("7S", 40, 47),
        ("8S", 40, 48),
        ("10S+10", 40, 50),
        ("10S-10", 40, 30),
        ("3S", 40, 43),
        ("4S", 40, 40),
        ("KS", 40, 40),
        ("9S", 12, 99),
        ("9S", 0, 99),
        ("9S", 99, 99),
    ],
)
def test_wiki_card_values(move: str, total: int, expected: int) -> None:
    """[D1] «Ace +1 or +11», «2 +2», «5–8 +face value», «3 +3», «4 0», «9 Count
    automatically becomes 99», «10 ±10», «K 0»; [T1] «independently to the previous value»."""
    s = pos("WIKI", [f"{card_text(move)} JC JD", "2C 3C 5C", "2D 3D 5D"], total=total)
    play(s, move)
    assert s.total == expected


@pytest.mark.parametrize("card", ["JS", "QS"])
def test_wiki_jack_queen_ten(card: str) -> None:
    """[D1] «J, Q +10»."""
    s = pos("WIKI", [f"{card} 2S 3S", "2C 3C 5C", "2D 3D 5D"], total=40)
    play(s, card)
    assert s.total == 50


def test_wiki_three_skips_the_next_player() -> None:
    """[D1] «3 +3 Next player skipped»; [T1] «the next player's turn is skipped»."""
    s = pos("WIKI", ["3S 2S 5S", "2C 3C 5C", "2D 3D 5D", "2H 3H 5H"], total=10)
    ev = play(s, "3S")
    assert s.total == 13 and s.turn == 2
    assert [e.seat for e in of(ev, E.Skipped)] == [1]
    assert len(s.hands[0]) == 3


def test_wiki_three_skips_in_the_current_direction() -> None:
    """[D1] «3 +3 Next player skipped», with play running the other way after a Four."""
    s = pos("WIKI", ["3S 2S 5S", "2C 3C 5C", "2D 3D 5D", "2H 3H 5H"], total=10, direction="ccw")
    play(s, "3S")
    assert s.turn == 2  # P4 skipped, P3 plays


def test_wiki_three_with_two_players_plays_again_after_drawing() -> None:
    """O04 REC `skip_with_two_players=play_again` (after drawing; [T2] behaviour)."""
    s = pos("WIKI", ["3S 2S 5S", "2C 3C 5C"], total=10)
    play(s, "3S")
    assert s.turn == 0 and s.total == 13
    assert len(s.hands[0]) == 3  # drew before the extra turn


def test_wiki_three_with_two_players_left_after_an_elimination() -> None:
    """O04 REC: two players still in the game (the third is out) count as two players."""
    s = pos("WIKI", ["3S 2S 5S", "", "2D 3D 5D"], total=10, out_of_game=[2], lives=[3, 0, 3])
    play(s, "3S")
    assert s.turn == 0


def test_wiki_three_with_two_players_alt_none() -> None:
    """O04 Alt `none` ([T3] «next player is skipped unless there are only 2 players»)."""
    s = pos("WIKI", ["3S 2S 5S", "2C 3C 5C"], total=10, changes={"skip_with_two_players": False})
    play(s, "3S")
    assert s.turn == 1


def test_wiki_four_reverses_with_more_than_two() -> None:
    """[D1] «4 0 Order of play is reversed in games with more than two players»."""
    s = pos("WIKI", ["4S 2S 5S", "2C 3C 5C", "2D 3D 5D", "2H 3H 5H"], total=10)
    play(s, "4S")
    assert s.total == 10 and s.direction == -1 and s.turn == 3


def test_wiki_four_with_two_players_other_is_next() -> None:
    """O05: «(turn order is not reversed if there are only two players)» → no effect on who
    plays next ([D1], [T1])."""
    s = pos("WIKI", ["4S 2S 5S", "2C 3C 5C"], total=10)
    play(s, "4S")
    assert s.turn == 1 and s.total == 10


def test_wiki_king_is_zero_and_the_next_player_plays() -> None:
    """[D1] «K 0»; [T1] «Kings are worth 0»; [T4] «K - Skip this turn.»"""
    s = pos("WIKI", ["KS 2S 5S", "2C 3C 5C", "2D 3D 5D"], total=77)
    play(s, "KS")
    assert s.total == 77 and s.turn == 1


def test_wiki_total_may_not_exceed_99() -> None:
    """[W1] «until a player cannot play without making the total value exceed ninety-nine»."""
    s = pos("WIKI", ["AS 10S 5S", "2C 3C 5C"], total=95)
    assert legal(s) == {"AS+1", "10S-10"}
    with pytest.raises(OverLimitError):
        play(s, "5S")


def test_wiki_at_99_the_safe_cards() -> None:
    """O07: «K, 4 (0), 9 (→99) and 10 (−10) are always safe»."""
    s = pos("WIKI", ["KS 4S 9S 10S", "2C 3C 5C"], total=99, changes={"hand_size": 4})
    assert legal(s) == {"KS", "4S", "9S", "10S-10"}


def test_wiki_ten_below_zero_is_allowed() -> None:
    """O01 REC `below_zero=allow` (literal; same as MATRIX Q10)."""
    s = pos("WIKI", ["10S 2S 5S", "2C 3C 5C"], total=5)
    assert "10S-10" in legal(s)
    play(s, "10S-10")
    assert s.total == -5


def test_wiki_cannot_play_loses_a_token_and_cards_are_redealt() -> None:
    """[W1] «That player loses the deal and must turn in or discard one of their tokens, after
    which all cards are then collected and a new hand is dealt.»"""
    s = pos("WIKI", ["2S 3S 5S", "2C 3C 5C", "2D 3D 5D"], total=99, turn=1, dealer=3)
    assert legal(s) == {"down"}
    ev = play(s, "down")
    assert s.lives == [2, 3, 3]
    assert not of(ev, E.CardPlayed)
    assert of(ev, E.HandEnded)[0].loser == 0
    assert s.is_chance and s.hands == [[], [], []] and s.pile == []
    deal(s)
    assert s.total == 0 and [len(h) for h in s.hands] == [3, 3, 3]


def test_wiki_next_hand_left_of_the_next_dealer_clockwise() -> None:
    """O03 REC: the deal passes left, skipping players who are out; the player left of the
    dealer leads; direction reset to CW each hand (Q12)."""
    s = pos(
        "WIKI",
        ["2S 3S 5S", "2C 3C 5C", "2D 3D 5D", "2H 3H 5H"],
        total=99,
        turn=2,
        dealer=1,
        direction="ccw",
    )
    play(s, "down")
    deal(s)
    assert s.dealer == 1 and s.starter == 2 and s.turn == 2 and s.direction == 1


def test_wiki_elimination_and_last_with_tokens_wins() -> None:
    """[W1] «Once a player runs out of tokens, that player is out of the game. The last player
    remaining, i.e. the last player with token(s), wins the game.»"""
    s = pos("WIKI", ["2S 3S 5S", "2C 3C 5C", ""], total=99, lives=[1, 2, 0], out_of_game=[3])
    ev = play(s, "down")
    assert [e.seat for e in of(ev, E.PlayerOut)] == [0]
    assert s.is_over and s.outcome is not None and s.outcome.winners == (1,)


def test_wiki_calls_the_new_total_on_every_play() -> None:
    """[W1] «adds its value to the previous card and calls out the new total»."""
    s = pos("WIKI", ["KS 9S 4S", "3C 2C 5C", "2D 3D 5D"], total=40)
    said = calls(play(s, "KS", "3C", "4S"))
    assert said == ["40", "43", "43"]


def test_wiki_forgetting_to_draw_stays_short_for_the_hand() -> None:
    """[W1] «that player must remain one card short for the remainder of the hand» (with
    `draw = "explicit"`, MATRIX Q15's option; the next deal gives three again)."""
    s = pos("WIKI", ["7S 2S 5S", "2C 3C 5C", "2D 3D 5D"], total=30, changes={"draw": "explicit"})
    play(s, "7S")
    assert legal(s) == {"draw", "nodraw"}
    play(s, "nodraw", "2C", "draw", "2D", "draw")
    assert [len(h) for h in s.hands] == [2, 3, 3] and s.turn == 0
    s = pos(
        "WIKI", ["2S 5S", "2C 3C 5C", "2D 3D 5D"], total=99, changes={"draw": "explicit"}
    )  # one short, then laying down: a new hand
    play(s, "down")
    deal(s)
    assert [len(h) for h in s.hands] == [3, 3, 3]


def test_wiki_stock_empty_reshuffles_all_but_the_top_card() -> None:
    """O02 REC: P rule (MATRIX D36): shuffle all discards but the top card, total kept."""
    s = pos("WIKI", ["7S 2S 5S", "2C 3C 5C"], total=30, top="8S", rest="pile")
    play(s, "7S")  # draws the last card
    assert s.stock == [] and s.total == 37
    play(s, "2C")  # needs a card: the discards but the 2C are shuffled
    assert s.is_chance
    deal(s)
    assert s.pile and s.pile[-1] == parse_action("2C").card and s.total == 39
    assert len(s.hands[1]) == 3


def test_wiki_cannot_play_needs_a_hand_of_plain_cards() -> None:
    """O07: «a player can only fail with a hand of A/2/3/5–8/J/Q that all exceed 99»:
    holding a King, Four, Nine or Ten there is always a play, at any total up to 99."""
    for total in range(0, 100):
        for safe in ("KS", "4S", "9S", "10S"):
            s = pos("WIKI", [f"{safe} QS JS", "2C 3C 5C"], total=total)
            assert "down" not in legal(s), (safe, total)


# =====================================================================================
# F2a BICYCLE
# =====================================================================================


def test_bicycle_three_or_more_players() -> None:
    """[B1] «3 or more players»."""
    rules = preset_rules("BICYCLE")
    with pytest.raises(RecordError):
        new_game(rules, 2)
    new_game(rules, 3)


def test_bicycle_setup() -> None:
    """[B1] «A standard deck of cards (no Jokers)»; «Players place their three tokens in front
    of them on the table, and receive three cards from the dealer.»"""
    s = new_game(preset_rules("BICYCLE"), 4)
    deal(s)
    assert s.decks == 1 and s.lives == [3] * 4 and [len(h) for h in s.hands] == [3] * 4
    assert len(s.stock) == 52 - 12


@pytest.mark.parametrize(
    "move,total,expected",
    [
        ("AS+1", 40, 41),
        ("AS+11", 40, 51),
        ("2S", 40, 42),
        ("3S", 40, 43),
        ("5S", 40, 45),
        ("6S", 40, 46),
        ("7S", 40, 47),
        ("8S", 40, 48),
        ("4S", 40, 40),
        ("9S", 40, 40),
        ("10S", 40, 30),
        ("JS", 40, 50),
        ("QS", 40, 50),
        ("KS", 40, 99),
        ("KS", 99, 99),
        ("KS", 0, 99),
    ],
)
def test_bicycle_card_values(move: str, total: int, expected: int) -> None:
    """[B1] «each card adds its face value in points (… a face card is worth 10 points)
    except…»: «An Ace adds either 1 or 11», «A 4 reverses play (and does not change the
    total…)», «A 9 is a pass», «A 10 subtracts 10 points», «A King takes the point total to 99
    (or keeps it 99 if the total is already 99)»."""
    card = card_text(move)
    s = pos("BICYCLE", [f"{card} JC JD", "2C 3C 5C", "2D 3D 5D"], total=total)
    play(s, move)
    assert s.total == expected


def test_bicycle_ten_only_subtracts() -> None:
    """[B1] «A 10 subtracts 10 points from the total» (−10 only)."""
    s = pos("BICYCLE", ["10S JC JD", "2C 3C 5C", "2D 3D 5D"], total=40)
    assert "10S" in legal(s) and "10S+10" not in legal(s)


def test_bicycle_four_reverses_nine_passes() -> None:
    """[B1] «A 4 reverses play»; «A 9 is a pass (and does not change the total…)»."""
    s = pos("BICYCLE", ["4S 9S JD", "2C 3C 5C", "2D 3D 5D", "2H 3H 5H"], total=40)
    play(s, "4S")
    assert s.direction == -1 and s.turn == 3
    s = pos("BICYCLE", ["4S 9S JD", "2C 3C 5C", "2D 3D 5D", "2H 3H 5H"], total=40)
    play(s, "9S")
    assert s.direction == 1 and s.turn == 1 and s.total == 40


def test_bicycle_cannot_play_loses_a_token_and_round_ends() -> None:
    """[B1] «If a player cannot play a card that keeps the total at or less than 99, that
    player loses a token and the round ends. The cards are then shuffled and dealt»."""
    s = pos("BICYCLE", ["2S 3S 5S", "2C 3C 5C", "2D 3D 5D"], total=99)
    assert legal(s) == {"down"}
    ev = play(s, "down")
    assert s.lives == [2, 3, 3] and of(ev, E.HandEnded)
    assert s.is_chance
    deal(s)
    assert s.total == 0 and [len(h) for h in s.hands] == [3, 3, 3]


def test_bicycle_may_not_exceed_99() -> None:
    """[B1] «Each player must play a card without sending the total number of points higher
    than 99.»"""
    s = pos("BICYCLE", ["QS 9S JD", "2C 3C 5C", "2D 3D 5D"], total=95)
    assert legal(s) == {"9S"}


def test_bicycle_forced_ten_below_zero_is_allowed() -> None:
    """O11 REC `allow` («total 5, hand {10,10,10}»); «Never `illegal` here: it would turn a
    harmless hand into a lost life»."""
    s = pos("BICYCLE", ["10S 10H 10D", "2C 3C 5C", "2D 3D 5D"], total=5)
    assert legal(s) == {"10S", "10H", "10D"}
    play(s, "10S")
    assert s.total == -5


def test_bicycle_four_with_two_players_left() -> None:
    """O12 REC: «the 4 leaves the other player next»."""
    s = pos("BICYCLE", ["4S 9S JD", "2C 3C 5C", ""], total=40, lives=[3, 3, 0], out_of_game=[3])
    play(s, "4S")
    assert s.turn == 1


def test_bicycle_deal_passes_left() -> None:
    """O13 REC: as P: deal passes left, left of dealer leads; direction CW."""
    s = pos(
        "BICYCLE", ["2S 3S 5S", "2C 3C 5C", "2D 3D 5D"], total=99, turn=2, dealer=1, direction="ccw"
    )
    play(s, "down")
    deal(s)
    assert s.dealer == 1 and s.starter == 2 and s.turn == 2 and s.direction == 1


def test_bicycle_eliminated_at_third_token_last_wins() -> None:
    """[B1] «The last player with a token remaining is the winner. Players are eliminated when
    they lose the third token.»"""
    s = pos("BICYCLE", ["2S 3S 5S", "2C 3C 5C", "2D 3D 5D"], total=99, lives=[1, 2, 3])
    ev = play(s, "down")
    assert [e.seat for e in of(ev, E.PlayerOut)] == [0]
    assert not s.is_over
    deal(s)
    assert s.hands[0] == [] and len(s.hands[1]) == 3
    s = pos("BICYCLE", ["2S 3S 5S", "2C 3C 5C", ""], total=99, lives=[1, 2, 0], out_of_game=[3])
    play(s, "down")
    assert s.is_over and s.outcome is not None and s.outcome.winners == (1,)


def test_bicycle_announces_the_new_total() -> None:
    """[B1] «After each card is played, the player announces the new total to the table and
    draws a replacement card.»"""
    s = pos("BICYCLE", ["KS 9S JD", "2C 3C 5C", "2D 3D 5D"], total=40)
    ev = play(s, "KS")
    assert calls(ev) == ["99"] and len(s.hands[0]) == 3 and of(ev, E.CardDrawn)


# =====================================================================================
# F2b BGA and BGA-QUICK
# =====================================================================================


def test_bga_two_to_twelve_players() -> None:
    """[G1] «Options - 2-12 players»."""
    rules = preset_rules("BGA")
    assert (rules.players_min, rules.players_max) == (2, 12)
    with pytest.raises(RecordError):
        new_game(rules, 13)


def test_bga_twelve_players_deal_36_leave_16() -> None:
    """O14: «BGA with 12 players: 36 dealt, 16 in stock»."""
    s = new_game(preset_rules("BGA"), 12)
    deal(s)
    assert [len(h) for h in s.hands] == [3] * 12 and len(s.stock) == 16 and s.decks == 1


def test_bga_twelve_player_stock_reshuffles_keeping_the_top_card() -> None:
    """O14: «stock exhaustion is frequent; REC reshuffle all discards but the top card, total
    kept»."""
    hands = [
        "2S 3S 4S",
        "2C 3C 4C",
        "2D 3D 4D",
        "2H 3H 4H",
        "5S 6S 7S",
        "5C 6C 7C",
        "5D 6D 7D",
        "5H 6H 7H",
        "8S 9S AS",
        "8C 9C AC",
        "8D 9D AD",
        "8H 9H AH",
    ]
    s = pos("BGA", hands, total=20, top="10S", rest="pile")
    play(s, "2S")
    play(s, "2C")
    req = s.chance_request()
    # every discard but the 2C just played: the 15 left out of the deal and the stock's
    # last card, and the 2S
    assert req is not None and len(req.cards) == (52 - 36 - 1) + 1
    deal(s)
    assert s.total == 24 and s.pile == [parse_action("2C").card] and len(s.hands[1]) == 3


@pytest.mark.parametrize(
    "move,total,expected",
    [
        ("AS+1", 40, 41),
        ("AS+11", 40, 51),
        ("2S", 40, 42),
        ("3S", 40, 43),
        ("5S", 40, 45),
        ("8S", 40, 48),
        ("4S", 40, 40),
        ("9S", 40, 40),
        ("10S", 40, 30),
        ("JS", 40, 50),
        ("QS", 40, 50),
        ("KS", 40, 99),
        ("KS", 99, 99),
    ],
)
def test_bga_card_table(move: str, total: int, expected: int) -> None:
    """[G1] «A | Choose to add 1 or 11», «2 3 5 6 7 8 | Add face value», «4 | Reverse the
    direction of play (add nothing)», «9 | Add nothing», «10 | Subtract 10», «J, Q | Add 10»,
    «K | Set the point total to 99»."""
    card = card_text(move)
    s = pos("BGA", [f"{card} JC JD", "2C 3C 5C", "2D 3D 5D"], total=total)
    play(s, move)
    assert s.total == expected


def test_bga_forced_over_99_loses_a_life_and_round_ends() -> None:
    """[G2] «If a player is forced to make the total exceed 99, that player loses a life. A
    new round is then started.»; O10 REC `play_and_bust` (the card goes on the pile, the
    over-limit total is shown)."""
    s = pos("BGA", ["2S 3S 5S", "2C 3C 5C", "2D 3D 5D"], total=99)
    assert legal(s) == {"2S", "3S", "5S"}
    ev = play(s, "5S")
    assert of(ev, E.CardPlayed)[0].after == 104
    assert of(ev, E.Busted)[0].total == 104
    assert s.lives == [2, 3, 3] and of(ev, E.HandEnded)


def test_bga_not_forced_with_a_safe_card() -> None:
    """[G2] «forced to make the total exceed 99»: only a player with no safe card goes over."""
    s = pos("BGA", ["2S 3S 9S", "2C 3C 5C", "2D 3D 5D"], total=99)
    assert legal(s) == {"9S"}


def test_bga_loser_leads_next_round() -> None:
    """[G1] «The next round begins with the player who lost the previous round»."""
    s = pos("BGA", ["2C 3C 5C", "2S 3S 5S", "2D 3D 5D", "2H 3H 5H"], total=99, turn=2, dealer=4)
    play(s, "5S")
    deal(s)
    assert s.turn == 1 and s.starter == 1 and s.total == 0 and s.direction == 1


def test_bga_eliminated_loser_the_following_player_leads() -> None:
    """[G1] «…or if eliminated, the following player»; O14 REC: the next seat still alive
    **clockwise** from the eliminated loser (direction resets each round)."""
    s = pos(
        "BGA",
        ["2C 3C 5C", "2S 3S 5S", "", "2H 3H 5H"],
        total=99,
        turn=2,
        lives=[3, 1, 0, 3],
        out_of_game=[3],
        direction="ccw",
    )
    play(s, "5S")
    deal(s)
    assert not s.alive[1] and s.turn == 3 and s.direction == 1


def test_bga_only_alive_players_get_cards() -> None:
    """[G2] «Each alive player gets 3 cards.»"""
    s = pos("BGA", ["2C 3C 5C", "2S 3S 5S", "2D 3D 5D"], total=99, turn=2, lives=[3, 1, 3])
    play(s, "5S")
    deal(s)
    assert [len(h) for h in s.hands] == [3, 0, 3]


def test_bga_last_remaining_wins() -> None:
    """[G2] «If a player loses all his 3 lives he is out of the game. The last remaining
    player wins!»"""
    s = pos("BGA", ["2C 3C 5C", "2S 3S 5S"], total=99, turn=2, lives=[2, 1])
    ev = play(s, "2S")
    assert s.is_over and s.outcome is not None and s.outcome.winners == (0,)
    assert of(ev, E.GameOver)


def test_bga_two_players_four_is_a_hold() -> None:
    """O12 REC (BGA's row in the overview: «REC 4 = hold»)."""
    s = pos("BGA", ["4S 9S JD", "2C 3C 5C"], total=40)
    play(s, "4S")
    assert s.turn == 1


@pytest.mark.parametrize("lives", [2, 3, 4])
def test_bga_lives_option(lives: int) -> None:
    """[G1] «Each player starts the game with 3 lives.»; «2-4 lives»."""
    s = new_game(preset_rules("BGA").replace(lives=lives), 3)
    assert s.lives == [lives] * 3


def test_bga_quick_first_elimination_ends_most_lives_win() -> None:
    """[G1] quick mode «Enabled: When a player loses all lives, all remaining players are
    ranked by the number of remaining lives.»; [G3] «The player(s) with the most lives in the
    end win(s).»"""
    s = pos(
        "BGA-QUICK",
        ["2C 3C 5C", "2S 3S 5S", "2D 3D 5D", "2H 3H 5H"],
        total=99,
        turn=2,
        lives=[2, 1, 3, 1],
    )
    ev = play(s, "5S")
    assert s.is_over and s.outcome is not None and s.outcome.winners == (2,)
    places = {st.seat: st.place for st in standings(s, ev)}
    assert places == {2: 1, 0: 2, 3: 3, 1: 4}  # the eliminated player is last


def test_bga_quick_ties_share_the_win() -> None:
    """O15 REC: «equal lives share the place; the eliminated player is last»."""
    s = pos("BGA-QUICK", ["2C 3C 5C", "2S 3S 5S", "2D 3D 5D"], total=99, turn=2, lives=[2, 1, 2])
    ev = play(s, "5S")
    assert s.outcome is not None and s.outcome.winners == (0, 2)
    table = {st.seat: st for st in standings(s, ev)}
    assert table[0].place == table[2].place == 1 and table[1].place == 3
    assert not table[1].won


def test_bga_quick_a_lost_life_alone_does_not_end_it() -> None:
    """O15 REC: «stop the match when the first player reaches 0 lives»."""
    s = pos("BGA-QUICK", ["2C 3C 5C", "2S 3S 5S", "2D 3D 5D"], total=99, turn=2, lives=[2, 2, 2])
    play(s, "5S")
    assert not s.is_over and s.lives == [2, 1, 2]


# =====================================================================================
# F3a 98 (pagat's simple Ninety-Eight)
# =====================================================================================


def test_98_setup_four_cards_left_of_dealer() -> None:
    """[P98b] «for 2 or more players, using a standard 52 card deck»; «Deal out four cards to
    each player»; «The player to the dealer's left begins and play continues in clockwise
    order.»; «At the start of the game there are no cards in the pile and its value is zero.»"""
    s = new_game(preset_rules("98"), 2)
    deal(s)
    assert [len(h) for h in s.hands] == [4, 4] and s.decks == 1 and s.total == 0
    assert s.turn == 0 and s.dealer == 1


def test_98_worked_example() -> None:
    """98-T1 [P98b]: «The first player plays an 8 and says 8; the next player plays a 6 and
    says 14; the next player plays a king and says 98; the next player plays a jack and says
    98; the next player plays a ten and says 88; the next player plays a 7 and says 95; the
    next player's four cards are 4, 5, 6, 9 - this player must lose.»"""
    s = pos(
        "98",
        [
            "8S 2H 3H 3S",
            "6S 2D 3D 2S",
            "KS AH AD AS",
            "JS 2C 3C AC",
            "10S 4C 5C 6C",
            "7S 7C 7D 8C",
            "4S 5S 6D 9S",
        ],
        total=0,
    )
    said = calls(play(s, "8S", "6S", "KS", "JS", "10S", "7S"))
    assert said == ["8", "14", "98", "98", "88", "95"]
    # «the first person who makes the value of the pile more than 98» loses: it plays one
    assert s.turn == 6 and legal(s) == {"4S", "5S", "6D", "9S"}
    ev = play(s, "5S")
    assert s.is_over and s.outcome is not None and of(ev, E.Busted)[0].total == 100
    assert s.outcome.winners == (0, 1, 2, 3, 4, 5)
    assert of(ev, E.GameOver)


@pytest.mark.parametrize(
    "move,total,expected",
    [
        ("AS", 40, 41),
        ("2S", 40, 42),
        ("3S", 40, 43),
        ("4S", 40, 44),
        ("5S", 40, 45),
        ("6S", 40, 46),
        ("7S", 40, 47),
        ("8S", 40, 48),
        ("9S", 40, 49),
        ("10S", 40, 30),
        ("JS", 40, 40),
        ("QS", 40, 40),
        ("KS", 40, 98),
        ("KS", 98, 98),
        ("JS", 98, 98),
    ],
)
def test_98_card_values(move: str, total: int, expected: int) -> None:
    """[P98b] «ace to nine....increase the value of the pile by the pip count of the card»;
    «ten....reduce the value by ten»; «jack, queen....the value stays the same»;
    «king....the value is set to 98»."""
    s = pos("98", [f"{move} 2C 3C 5C", "2D 3D 5D 6D"], total=total)
    assert legal(s) >= {move}
    play(s, move)
    assert s.total == expected


def test_98_ace_is_only_one_and_no_card_reverses() -> None:
    """[P98b] «ace to nine … pip count» (A = 1); «play continues in clockwise order» (no
    reversing card: the 4 is +4)."""
    s = pos("98", ["AS 4S 2C 3C", "2D 3D 5D 6D", "2H 3H 5H 6H"], total=40)
    assert "AS+11" not in legal(s) and "AS" in legal(s)
    play(s, "4S")
    assert s.turn == 1 and s.direction == 1 and s.total == 44


def test_98_limit_is_98() -> None:
    """[P98b] «The aim is to avoid taking the value above 98.»"""
    s = pos("98", ["2S AS 3C 5C", "2D 3D 5D 6D"], total=97)
    assert legal(s) == {"AS"}
    with pytest.raises(OverLimitError):
        play(s, "2S")


def test_98_below_zero_allowed() -> None:
    """O22 REC `allow` («e.g. a Ten as first card → −10»)."""
    s = pos("98", ["10S 2C 3C 5C", "2D 3D 5D 6D"], total=0)
    play(s, "10S")
    assert s.total == -10


def test_98_forced_safe_play() -> None:
    """O21 REC `pagat-98` forced-safe: with a safe card a busting card is not legal."""
    s = pos("98", ["9S JS 2C 3C", "2D 3D 5D 6D"], total=95)
    assert legal(s) == {"JS", "2C", "3C"}


def test_98_one_loser_a_game() -> None:
    """O20 REC `match=single_loss` (`lives=1`, no redeal, standings: loser last, others
    tied)."""
    s = pos("98", ["2D 3D 5D 6D", "9S 8S 7S 6S", "2H 3H 5H 6H"], total=95, turn=2)
    ev = play(s, "6S")
    assert s.is_over and s.outcome is not None and s.outcome.winners == (0, 2)
    places = {st.seat: st.place for st in standings(s, ev)}
    assert places == {0: 1, 2: 1, 1: 3}


def test_98_token_match_overlay_redeals() -> None:
    """O20: «allow the generic `lives` overlay for a token match (then redeal as in P)»."""
    s = pos(
        "98",
        ["2D 3D 5D 6D", "9S 8S 7S 6S", "2H 3H 5H 6H"],
        total=95,
        turn=2,
        dealer=1,
        changes={"lives": 3, "game_end": "last_survivor"},
    )
    ev = play(s, "6S")
    assert not s.is_over and s.lives == [3, 2, 3] and of(ev, E.HandEnded)
    deal(s)
    assert s.total == 0 and [len(h) for h in s.hands] == [4, 4, 4]
    assert s.dealer == 1 and s.turn == 2


def test_98_rules_text_says_the_game_ends_with_the_loser() -> None:
    """O20 «98 is a single-loser drinking game» (no redeal): the rules a player reads say
    so, not that a new hand is dealt."""
    for preset in ("98", "98-CS"):
        text = rules_text(preset_rules(preset))
        assert "a new one is dealt" not in text
        assert "that player loses and the game ends at once." in text


def test_98_nobody_faces_an_empty_hand() -> None:
    """O23: «someone must bust before the last card is played, i.e. before any player faces
    an empty hand. → REC `stock_empty=no_draw` (no reshuffle needed); assert it in a property
    test.»"""
    rng = random.Random(98)
    rules = preset_rules("98")
    for game in range(200):
        s = new_game(rules, 2 + game % 9)
        while not s.is_over:
            if s.is_chance:
                s.apply(s.sample_chance(rng))
                continue
            assert s.hands[s.turn], "a player faced an empty hand"
            s.apply(rng.choice(s.legal_actions()))
        assert s.outcome is not None and len(s.outcome.winners) == s.n - 1


# =====================================================================================
# F3b 98-CS and 98-CS-K0 (CardStock)
# =====================================================================================


def test_98cs_players_two_to_five() -> None:
    """[CS] «4 players in the post (files for 2–5 exist)»."""
    rules = preset_rules("98-CS")
    new_game(rules, 2)
    new_game(rules, 5)
    with pytest.raises(RecordError):
        new_game(rules, 6)


def test_98cs_any_card_may_be_played_and_busting_loses() -> None:
    """[CS] «each player is free to choose any of the cards in their HAND»; «The player who
    makes the total above 98 loses the game.»"""
    s = pos("98-CS", ["9S JS 2C 3C", "2D 3D 5D 6D", "2H 3H 5H 6H"], total=95)
    assert legal(s) == {"9S", "JS", "2C", "3C"}
    ev = play(s, "9S")
    assert of(ev, E.CardPlayed)[0].after == 104
    assert s.is_over and s.outcome is not None and s.outcome.winners == (1, 2)


def test_98cs_values_as_98() -> None:
    """[CS] «Ace through 9 are worth their number value (Ace equals 1). The Jack and Queen are
    worth 0 points, while the ten is worth -10 points. The King sets the value of the discard
    pile to 98.»"""
    for move, total, expected in (
        ("AS", 10, 11),
        ("9S", 10, 19),
        ("JS", 10, 10),
        ("QS", 10, 10),
        ("10S", 10, 0),
        ("KS", 10, 98),
    ):
        s = pos("98-CS", [f"{move} 2C 3C 5C", "2D 3D 5D 6D"], total=total)
        play(s, move)
        assert s.total == expected


def test_98cs_negative_total_and_no_stock_rebuild() -> None:
    """[CS] the total may go negative (`dec … 10`); the stock is **not** rebuilt (draw only
    `(> (size (game iloc STOCK)) 0)`)."""
    s = pos("98-CS", ["10S 2C 3C 5C", "2D 3D 5D 6D"], total=5, top="", rest="pile")
    ev = play(s, "10S")
    assert s.total == -5
    assert len(s.hands[0]) == 3 and not s.is_chance and of(ev, E.DrawSkipped)


def test_98cs_k0_king_is_zero() -> None:
    """[CS] «No-King variant: K = 0 (`2019-02-06-ninetyeight-noking.md`)»."""
    s = pos("98-CS-K0", ["KS 2C 3C 5C", "2D 3D 5D 6D"], total=57)
    play(s, "KS")
    assert s.total == 57 and s.turn == 1


# =====================================================================================
# F4 TW (Taiwanese 99)
# =====================================================================================

TW4 = ["2S 3S 6S 7S 8S", "2C 3C 6C 7C 8C", "2D 3D 6D 7D 8D", "2H 3H 6H 7H 8H"]


def tw(hand0: str, total: int = 30, rules: str = "TW", n: int = 4, **keys: object) -> State:
    """A TW-family position with seat 1 holding ``hand0`` and the others low fillers."""
    return pos(rules, [hand0] + TW4[1:n], total=total, **keys)


def test_tw_setup_five_cards() -> None:
    """[TW1] «Deal five cards to each player… so in normal 99, hands stay at five cards.»;
    «Use a normal deck of playing cards»."""
    s = new_game(preset_rules("TW"), 4)
    deal(s)
    assert [len(h) for h in s.hands] == [5] * 4 and s.decks == 1 and s.total == 0


@pytest.mark.parametrize(
    "card,expected",
    [
        ("AH", 31),
        ("AD", 31),
        ("AC", 31),
        ("2S", 32),
        ("3S", 33),
        ("6S", 36),
        ("7S", 37),
        ("8S", 38),
        ("9S", 39),
        ("KS", 99),
        ("JS", 30),
        ("4S", 30),
        ("AS", 0),
    ],
)
def test_tw_card_values(card: str, expected: int) -> None:
    """[TW1] «Normal cards are A=1 except ace of spades, 2, 3, 6, 7, 8, 9.»; «J, pass. Acts
    like adding 0»; «K, max. Set the running total directly to 99.»; «A of spades, reset. Set
    the running total directly to 0.»"""
    s = pos("TW", [f"{card} QS QH QD QC", "2C 3C 5C 6C 7C", "2D 3D 5D 6D 7D"], total=30)
    play(s, card)
    assert s.total == expected


def test_tw_ten_and_queen_choices() -> None:
    """[TW1] «10, ±10. You may choose to add or subtract 10»; «Q, ±20. You may choose to add
    or subtract 20»."""
    s = tw("10S QS 2S 3S 6S", total=50)
    assert {"10S+10", "10S-10", "QS+20", "QS-20"} <= legal(s)
    play(s, "QS-20")
    assert s.total == 30
    s = tw("10S QS 2S 3S 6S", total=80)
    assert "QS+20" not in legal(s) and "QS-20" in legal(s)


def test_tw_four_reverses_the_previous_player_plays_next() -> None:
    """[TW1] «4, reverse: change the direction of play… The player who played just before you
    will also play next»."""
    s = pos("TW", TW4[:1] + ["4C 3C 6C 7C 8C"] + TW4[2:], total=30)
    play(s, "2S", "4C")
    assert s.turn == 0 and s.direction == -1 and s.total == 32


def test_tw_four_after_a_five_goes_to_the_neighbour() -> None:
    """[TW1] «…unless the turn order was disrupted by a 5 before you.»"""
    s = pos(
        "TW", ["5S 3S 6S 7S 8S", "2C 3C 6C 7C 8C", "4D 3D 6D 7D 8D", "2H 3H 6H 7H 8H"], total=30
    )
    play(s, "5S>3")
    assert s.turn == 2
    play(s, "4D")
    assert s.turn == 1  # not P1, who played just before


def test_tw_five_names_next_and_play_continues_from_them() -> None:
    """[TW1] «5, target: pick an arbitrary player to play next. Play continues from that
    player, going in the same direction along the circle.»"""
    s = tw("5S 2S 3S 6S 7S", total=30)
    ev = play(s, "5S>3")
    assert s.total == 30 and s.turn == 2 and [e.target for e in of(ev, E.Named)] == [2]
    play(s, "2D")
    assert s.turn == 3
    s = tw("5S 2S 3S 6S 7S", total=30, direction="ccw")
    play(s, "5S>3", "2D")
    assert s.turn == 1


def test_tw_five_may_not_name_yourself() -> None:
    """O31 REC no self-target (poker99 «cannot target myself»)."""
    s = tw("5S 2S 3S 6S 7S")
    assert "5S>1" not in legal(s) and {"5S>2", "5S>3", "5S>4"} <= legal(s)
    with pytest.raises(IllegalActionError) as e:
        play(s, "5S>1")
    assert e.value.reason is Refusal.BAD_TARGET


@pytest.mark.parametrize("card", ["4S", "5S>2", "JS"])
def test_tw_two_players_four_five_jack_are_alike(card: str) -> None:
    """[TW2] «4 = 5 = J» with 2 players; O31: «with 2 players the 5 names the opponent»."""
    s = pos("TW", ["4S 5S JS 2S 3S", "2C 3C 6C 7C 8C"], total=30)
    if card.startswith("5"):
        assert {a for a in legal(s) if a.startswith("5S")} == {"5S>2"}
    play(s, card)
    assert s.turn == 1 and s.total == 30


def test_tw_specials_always_playable() -> None:
    """[TW2] «If all of player's normal cards will cause the current total to exceed 99 when
    played, and the player doesn't have any special cards, the player loses the game.»
    (4/5/J/K/♠A, and 10/Q via their minus, are always playable)."""
    for hand in (
        "4S 9H 9D 9C 8H",
        "5S 9H 9D 9C 8H",
        "JS 9H 9D 9C 8H",
        "KS 9H 9D 9C 8H",
        "AS 9H 9D 9C 8H",
        "10S 9H 9D 9C 8H",
        "QS 9H 9D 9C 8H",
    ):
        for total in (0, 5, 15, 91, 99):
            s = pos("TW", [hand, "2C 3C 6C 7C 8C"], total=total)
            assert "down" not in legal(s), (hand, total)


def test_tw_below_zero_clamps() -> None:
    """O30 REC `below_zero=clamp`."""
    s = tw("10S QS 2S 3S 6S", total=5)
    play(s, "QS-20")
    assert s.total == 0
    s = tw("10S QS 2S 3S 6S", total=5)
    play(s, "10S-10")
    assert s.total == 0


def test_tw_cannot_play_is_out_total_kept_play_goes_on() -> None:
    """[TW1] «If you have no cards that could keep it less than or equal to 99, you lose. In
    that case, the turn passes to the next player and the game continues until only one
    player remains»; [TW7] «Other players maintain the current value of the sea»; O33 REC the
    cards go under the discard pile."""
    s = pos("TW", ["2S 3S 6S 7S 8S", "2C 3C 6C 7C 8C", "KD 3D 6D 7D 8D"], total=99, pile="9H")
    assert legal(s) == {"down"}
    ev = play(s, "down")
    assert [e.seat for e in of(ev, E.PlayerOut)] == [0]
    assert s.total == 99 and s.turn == 1 and not s.is_over and not s.is_chance
    assert s.hands[0] == [] and len(s.pile) == 6 and s.pile[-1] == parse_action("9H").card
    assert legal(s) == {"down"}
    play(s, "down")
    assert s.is_over and s.outcome is not None and s.outcome.winners == (2,)


def test_tw_an_out_player_is_skipped_and_cannot_be_named() -> None:
    """[TW1] «the game continues until only one player remains»: the player who lost is
    passed over and may no longer be named by a 5."""
    s = pos(
        "TW",
        ["5S 3S 6S 7S 8S", "", "2D 3D 6D 7D 8D", "2H 3H 6H 7H 8H"],
        total=30,
        out_of_game=[2],
        lives=[1, 0, 1, 1],
    )
    assert "5S>2" not in legal(s)
    play(s, "3S")
    assert s.turn == 2


def test_tw_stock_empty_reshuffles_the_whole_pile_total_kept() -> None:
    """[TW1] «When the draw pile runs out, shuffle the discard pile to become the new draw
    pile.»; O34 REC reshuffle (whole pile, no card kept on top)."""
    s = pos("TW", ["2S 3S 6S 7S 8S", "2C 3C 6C 7C 8C"], total=40, top="", rest="pile")
    play(s, "2S")
    assert s.is_chance
    req = s.chance_request()
    assert req is not None and parse_action("2S").card in req.cards
    deal(s)
    assert s.pile == [] and s.total == 42 and len(s.hands[0]) == 5


def test_tw_last_remaining_wins() -> None:
    """[TW1] «the game continues until only one player remains»."""
    s = pos("TW", ["2S 3S 6S 7S 8S", "2C 3C 6C 7C 8C"], total=99)
    play(s, "down")
    assert s.outcome is not None and s.outcome.winners == (1,)


def test_tw_lets_poker_suit_overlay() -> None:
    """O37 (Let's Poker 99) as `suit_cards`: «Spade/Club 10: add/subtract 10», «Heart/Diamond
    10: add 10», «Spade/Club Queen: add/subtract 20», «Heart/Diamond Queen: add 20»."""
    changes = {"suit_cards": {"10H": "+10", "10D": "+10", "QH": "+20", "QD": "+20"}}
    s = tw("10S 10H QC QD 2S", total=50, changes=changes)
    got = legal(s)
    assert {"10S+10", "10S-10", "10H", "QC+20", "QC-20", "QD"} <= got
    assert "10H-10" not in got and "QD-20" not in got
    play(s, "QD")
    assert s.total == 70


# =====================================================================================
# F5b E2 (everything2)
# =====================================================================================


def test_e2_ace_of_spades_is_one() -> None:
    """[E2] «Normal cards add their face value to the sum.» (Taiwanese without the ♠A reset,
    A = 1 for all suits)."""
    s = tw("AS 2S 3S 6S 7S", total=30, rules="E2")
    play(s, "AS")
    assert s.total == 31


@pytest.mark.parametrize(
    "move,expected",
    [
        ("9S", 39),
        ("10S+10", 40),
        ("10S-10", 20),
        ("JS", 30),
        ("QS+20", 50),
        ("QS-20", 10),
        ("KS", 99),
        ("4S", 30),
        ("8S", 38),
    ],
)
def test_e2_card_values(move: str, expected: int) -> None:
    """[E2] «Tens add or subtract 10, at the player's choice.»; «Jacks add 0.»; «Queens add
    or subtract 20, at the player's choice.»; «Kings set the sum to 99, regardless of what it
    was before.»"""
    s = pos("E2", [f"{card_text(move)} 2H 3H 6H 7H", "2C 3C 6C 7C 8C", "2D 3D 6D 7D 8D"], total=30)
    play(s, move)
    assert s.total == expected


def test_e2_sum_cannot_go_below_zero() -> None:
    """[E2] «The sum cannot go below 0.» → O40 REC clamp."""
    s = tw("QS 2S 3S 6S 7S", total=7, rules="E2")
    play(s, "QS-20")
    assert s.total == 0


def test_e2_below_zero_alt_illegal() -> None:
    """O40 Alt: «The sum cannot go below 0» read as an illegal play."""
    s = tw("QS 10S 3S 6S 7S", total=15, rules="E2", changes={"below_zero": "illegal"})
    got = legal(s)
    assert "QS-20" not in got and "QS+20" in got and "10S-10" in got


def test_e2_five_not_himself_and_continues() -> None:
    """[E2] «Fives allow the player to select the next person to play, not himself. Play then
    continues normally from that person.»"""
    s = tw("5S 2S 3S 6S 7S", rules="E2")
    assert "5S>1" not in legal(s)
    play(s, "5S>4", "2H")
    assert s.turn == 0


def test_e2_four_reverses() -> None:
    """[E2] «Fours reverse the direction of play.»"""
    s = tw("4S 2S 3S 6S 7S", rules="E2")
    play(s, "4S")
    assert s.direction == -1 and s.turn == 3


@pytest.mark.parametrize("card", ["4S", "5S>2", "JS"])
def test_e2_two_players_four_five_jack_same(card: str) -> None:
    """[E2] «When there are only two players, fours, fives, and Jacks all have essentially the
    same effect.»"""
    s = pos("E2", ["4S 5S JS 2S 3S", "2C 3C 6C 7C 8C"], total=30)
    play(s, card)
    assert s.turn == 1 and s.total == 30


def test_e2_loses_when_cannot_play_and_others_continue() -> None:
    """[E2] «A player loses when he cannot play a card without going over 99.»; «The goal is
    to force the other player(s) out of the game.»"""
    s = pos("E2", ["QS 3S 6S 7S 8S", "KC 3C 6C 7C 8C", "KD 3D 6D 7D 8D"], total=95)
    assert "QS-20" in legal(s)  # a Queen is never stuck
    s = pos("E2", ["9S 8H 9H 9C 8S", "KC 3C 6C 7C 8C", "KD 3D 6D 7D 8D"], total=95)
    assert legal(s) == {"down"}
    play(s, "down")
    assert not s.alive[0] and s.total == 95 and s.turn == 1 and not s.is_over


def test_e2_hand_four_or_five() -> None:
    """[E2] «Players begin with 4 or 5 cards.» (REC 5, option 4)."""
    assert preset_rules("E2").hand_size == 5
    s = new_game(preset_rules("E2").replace(hand_size=4), 3)
    deal(s)
    assert [len(h) for h in s.hands] == [4, 4, 4]


def test_e2_reshuffle_sum_not_reset() -> None:
    """[E2] «The central pile may be reshuffled into the draw pile, but the sum is not
    reset.»"""
    s = pos("E2", ["2S 3S 6S 7S 8S", "2C 3C 6C 7C 8C"], total=61, top="", rest="pile")
    play(s, "8S")
    deal(s)
    assert s.total == 69 and len(s.hands[0]) == 5


def test_e2_announces_the_new_sum() -> None:
    """[E2] «each person playing one card and announcing the new sum»."""
    s = tw("KS 2S 3S 6S 7S", rules="E2")
    assert calls(play(s, "KS")) == ["99"]


# =====================================================================================
# F5a IS (Icelandic, reconstructed)
# =====================================================================================

IS4 = ["2S 3S 6S 8S 2H", "2C 3C 6C 8C 3H", "2D 3D 6D 8D 6H", "AC AD AH 8H KH"]


def test_is_setup() -> None:
    """§6.1: «2–8 (invite slots player2…player8), 5 cards (4 in "hard"), single
    elimination»."""
    rules = preset_rules("IS")
    assert (rules.players_min, rules.players_max, rules.hand_size) == (2, 8, 5)
    s = new_game(rules, 8)
    deal(s)
    assert [len(h) for h in s.hands] == [5] * 8 and s.lives == [1] * 8


@pytest.mark.parametrize(
    "move,total,expected",
    [
        ("AS+1", 30, 31),
        ("AS+14", 30, 44),
        ("2S", 30, 32),
        ("3S", 30, 33),
        ("6S", 30, 36),
        ("8S", 30, 38),
        ("JS", 30, 41),
        ("4S", 30, 30),
        ("5S", 30, 35),
        ("7S", 30, 37),
        ("9S", 30, 99),
        ("9S", 99, 99),
        ("10S+10", 30, 40),
        ("10S-10", 30, 20),
        ("KS", 30, 30),
        ("QS", 30, 30),
    ],
)
def test_is_card_values(move: str, total: int, expected: int) -> None:
    """[IS] «Normal cards：2, 3, 6, 8, J (11)»; «A - Add 1 or 14 to the total.»; «4 - Reverse
    the current turn direction»; «5 - Add 5 to the total, and skip the next player.»; «7 - Add
    7 to the total, and reverse the current turn direction.»; «9 - Set the current total to 99
    (max).»; «10 - Add or subtract 10 from the current total.»; «K - Skip this turn.»;
    Q «no value»."""
    s = pos(
        "IS", [f"{card_text(move)} 9C 9D 9H 10C", "2C 3C 6C 8C 3H", "2D 3D 6D 8D 6H"], total=total
    )
    play(s, move)
    assert s.total == expected


def test_is_ace_fourteen_and_jack_eleven_near_the_limit() -> None:
    """[IS] «A - Add 1 or 14»; «J (11)»: the Ace's 14 and the Jack's 11 count against 99."""
    s = pos("IS", ["AS JS 2S 3S 6S", "2C 3C 6C 8C 3H"], total=85)
    assert "AS+14" in legal(s) and "JS" in legal(s)
    s = pos("IS", ["AS JS 2S 3S 6S", "2C 3C 6C 8C 3H"], total=89)
    assert "AS+14" not in legal(s) and "JS" not in legal(s) and "AS+1" in legal(s)


def test_is_five_skips_the_next_player() -> None:
    """[IS] «5 - Add 5 to the total, and skip the next player.»"""
    s = pos("IS", ["5S 9C 9D 9H 10C"] + IS4[1:], total=30)
    ev = play(s, "5S")
    assert s.turn == 2 and [e.seat for e in of(ev, E.Skipped)] == [1]


def test_is_seven_and_four_reverse() -> None:
    """[IS] «7 - Add 7 to the total, and reverse the current turn direction.»; «4 - Reverse
    the current turn direction»."""
    s = pos("IS", ["7S 4S 9D 9H 10C"] + IS4[1:], total=30)
    play(s, "7S")
    assert s.total == 37 and s.direction == -1 and s.turn == 3
    s = pos("IS", ["7S 4S 9D 9H 10C"] + IS4[1:], total=30)
    play(s, "4S")
    assert s.total == 30 and s.direction == -1 and s.turn == 3


def test_is_king_passes() -> None:
    """[IS] «K - Skip this turn.» (a pass: +0, the next player plays)."""
    s = pos("IS", ["KS 4S 9D 9H 10C"] + IS4[1:], total=30)
    play(s, "KS")
    assert s.total == 30 and s.turn == 1


def test_is_always_playable_cards() -> None:
    """[IS] `SpecialRanks[Icelandic] = { 4, 9, 10, 12, 13 }` (always playable)."""
    s = pos("IS", ["4S 9S 10S QS KS", "2C 3C 6C 8C 3H"], total=99)
    assert legal(s) == {"4S", "9S", "10S-10", "QS", "KS"}
    s = pos("IS", ["10S 2S 3S 6S 8S", "2C 3C 6C 8C 3H"], total=4)
    assert "10S-10" in legal(s)
    play(s, "10S-10")
    assert s.total == 0  # clamped (REC)


def test_is_cannot_play_is_out() -> None:
    """[IS] «If all of player's normal cards will cause the current total to exceed 99 when
    played, and the player doesn't have any special cards, the player loses the game.»; «The
    last player who still have cards to play will be the winner.»"""
    s = pos("IS", ["2S 3S 6S 8S JS", "2C 3C 6C 8C 3H", "2D 3D 6D 8D 6H"], total=99)
    assert legal(s) == {"down"}
    play(s, "down")
    assert not s.alive[0] and s.total == 99 and s.turn == 1 and not s.is_over


def test_is_queen_next_player_plays_without_drawing() -> None:
    """[IS] «Q - The next player cannot draw a new card after playing a card»."""
    s = pos("IS", ["QS 9C 9D 9H 10C"] + IS4[1:], total=30)
    ev = play(s, "QS")
    assert len(s.hands[0]) == 5 and s.turn == 1 and s.total == 30
    assert [(e.seat, e.count) for e in of(ev, E.ChainFaced)] == [(1, 1)]
    ev = play(s, "2C")
    assert len(s.hands[1]) == 4 and not of(ev, E.CardDrawn) and s.turn == 2
    play(s, "2D")
    assert len(s.hands[2]) == 5  # the chain is over: P3 draws


def test_is_queen_answered_by_a_queen_then_two_cards() -> None:
    """[IS] «…unless the next player also plays a Queen. In that case, the second next player
    will have to play 2 cards without picking up 2 new cards»; §6.1 REC: «the responder who
    plays a Queen draws normally; the n forced cards are played one after another… the turn
    passes by the last card»."""
    s = pos(
        "IS", ["QS 9C 9D 9H 10C", "QC 3C 6C 8C 3H", "2D 3D 6D 8D QD", "AC AD AH 8H KH"], total=30
    )
    play(s, "QS")
    ev = play(s, "QC")
    assert len(s.hands[1]) == 5 and s.turn == 2
    assert [(e.seat, e.count) for e in of(ev, E.ChainFaced)] == [(2, 2)]
    assert "QD" in legal(s)  # answering with a Queen is allowed
    play(s, "2D")
    assert s.turn == 2 and "QD" not in legal(s)  # inside the run: no Queen
    play(s, "3D")
    assert s.total == 35 and s.turn == 3 and len(s.hands[2]) == 3


def test_is_run_card_must_each_be_legal_else_out() -> None:
    """§6.1 REC: «each must be legal at the moment it is played… a player who can neither
    complete n legal plays nor play a Queen is out»."""
    s = pos(
        "IS", ["QS 9C 9D 9H 10C", "QC 3C 6C 8C 3H", "8D 3D 6D 2D 5D", "AC AD AH 8H KH"], total=90
    )
    play(s, "QS", "QC", "8D")
    assert s.total == 98 and s.turn == 2
    assert legal(s) == {"down"}
    play(s, "down")
    assert not s.alive[2] and s.turn == 3 and s.total == 98


def test_is_run_with_a_reverse_passes_by_the_last_card() -> None:
    """§6.1 REC: «effects apply in order and the turn passes by the last card» (a reverse
    inside the run turns the direction)."""
    s = pos(
        "IS", ["QS 9C 9D 9H 10C", "QC 3C 6C 8C 3H", "7D 3D 6D 2D 5D", "AC AD AH 8H KH"], total=30
    )
    play(s, "QS", "QC", "7D", "2D")
    assert s.total == 39 and s.direction == -1 and s.turn == 1


def test_is_fewer_other_cards_than_the_chain_only_a_queen_answers() -> None:
    """§6.1 «Q chain in code»: `nonQueens.Length >= ConsecutiveQueens.Count ? queens.Concat(
    nonQueens) : queens` — holding fewer non-Queens than the chain, only a Queen is offered;
    REC «a player who can neither complete n legal plays nor play a Queen is out» (at once,
    at the same total: no card of a run that cannot be finished is played)."""
    s = pos(
        "IS",
        ["2S 3S 6S 8S 9H", "QC 2C", "2D 3D 6D 8D 3H", "AC AD AH 8H KH"],
        total=30,
        turn=2,
        chain=2,
    )
    assert legal(s) == {"QC"}
    with pytest.raises(IllegalActionError) as e:
        play(s, "2C")
    assert e.value.reason is Refusal.CHAIN
    s = pos(
        "IS",
        ["2S 3S 6S 8S 3H", "9C 2C", "2D 3D 6D 8D 9H", "AC AD AH 8H KH"],
        total=30,
        turn=2,
        chain=3,
    )
    assert legal(s) == {"down"}
    ev = play(s, "down")
    assert of(ev, E.PlayerOut) and s.total == 30 and s.turn == 2 and s.chain == 0


# =====================================================================================
# F6 QC (Quentin C milestones)
# =====================================================================================

QC3 = ["2C 3C 5C", "2D 3D 5D", "2H 3H 5H"]


def qc(hand0: str, total: int, n: int = 3, **keys: object) -> State:
    return pos("QC", [hand0] + QC3[: n - 1], total=total, **keys)


def test_qc_setup_tokens_hand_decks() -> None:
    """[QC1] «each player starts with 9 tokens»; «each player is dealt 3 cards»; «played with
    a standard 52 cards deck, or 2 decks if there are a lot of players» → §7.2 #10 «1 deck ≤ 6
    players, 2 decks from 7»."""
    s = new_game(preset_rules("QC"), 6)
    deal(s)
    assert s.lives == [9] * 6 and [len(h) for h in s.hands] == [3] * 6 and s.decks == 1
    s = new_game(preset_rules("QC"), 7)
    assert s.decks == 2 and s.lives == [9] * 7


@pytest.mark.parametrize(
    "move,total,expected",
    [
        ("3S", 10, 13),
        ("4S", 10, 14),
        ("5S", 10, 15),
        ("6S", 10, 16),
        ("7S", 10, 17),
        ("8S", 10, 18),
        ("9S", 10, 10),
        ("JS", 10, 20),
        ("QS", 10, 20),
        ("KS", 10, 20),
        ("10S+10", 10, 20),
        ("10S-10", 20, 10),
        ("AS+1", 10, 11),
        ("AS+11", 10, 21),
    ],
)
def test_qc_card_values(move: str, total: int, expected: int) -> None:
    """[QC1] «Card from 3 to 8 are worth their face value;», «A nine is worth 0;», «Figures
    always count for +10;», «A 10 can be worth +10 or -10»; S000 «ace counts 1 or 11»."""
    s = pos("QC", [f"{card_text(move)} 9C 9D", "2D 3D 5D", "2H 3H 5H"], total=total)
    play(s, move)
    assert s.total == expected


@pytest.mark.parametrize(
    "total,expected",
    [
        (15, 30),
        (25, 50),
        (48, 96),
        (50, 25),
        (66, 33),
        (92, 46),
        (49, 98),
        (0, 0),
    ],
)
def test_qc_two_halves_or_doubles(total: int, expected: int) -> None:
    """S000 «two: divides the total by 2 if it is even and over 49; in all other cases it
    multiplies the total by 2»; [PA] tests 15→30, 25→50, 48→96, 50→25, 66→33, 92→46."""
    s = qc("2S 9C 9D", total)
    play(s, "2S")
    assert s.total == expected


def test_qc_announces_the_total() -> None:
    """§1 overview, calls: QC «total announced» (qcsalon: not pagat's "pass to you #" and
    "back on you #")."""
    s = qc("4S 9S 9D", 29)
    assert calls(play(s, "4S")) == ["33"]
    assert calls(play(s, "2D")) == ["66"]  # 33 doubled
    s = qc("9S 9C 9D", 40)
    assert calls(play(s, "9S")) == ["40"]


def test_qc_four_reverses_only_with_more_than_two() -> None:
    """S000 «four: adds 4 to the total and reverses the direction of play if there are more
    than 2 players»."""
    s = qc("4S 9C 9D", 10)
    play(s, "4S")
    assert s.direction == -1 and s.turn == 2
    s = qc("4S 9C 9D", 10, n=2)
    play(s, "4S")
    assert s.direction == 1 and s.turn == 1


def test_qc_jack_skips_and_with_two_the_actor_plays_again() -> None:
    """S000 «jack: adds 10 to the total and skips the next player's turn»; §7.2 #8 «J with 2
    players … actor again»."""
    s = qc("JS 9C 9D", 10)
    play(s, "JS")
    assert s.turn == 2 and s.total == 20
    s = qc("JS 9C 9D", 10, n=2)
    play(s, "JS")
    assert s.turn == 0 and len(s.hands[0]) == 3


def test_qc_exact_33_everyone_else_loses_one() -> None:
    """[QC1] «If the total of the discard pile reach exactly 33 or 66 after having played your
    card, each player except you lose a token.»"""
    s = qc("4S 9C 9D", 29)
    play(s, "4S")
    assert s.lives == [9, 8, 8] and s.direction == -1 and s.turn == 2


def test_qc_crossing_costs_the_actor() -> None:
    """[QC1] «For example if the pile is at 29, if you play a 7, causing the total to become
    36, you go past 33.» «you, and you only, lose a token»."""
    s = qc("7S 9C 9D", 29)
    play(s, "7S")
    assert s.lives == [8, 9, 9]


def test_qc_crossing_66() -> None:
    """[QC1] «If, when playing your card, you go past 33 or 66, you, and you only, lose a
    token.»"""
    s = qc("8S 9C 9D", 60)
    play(s, "8S")
    assert s.lives == [8, 9, 9] and s.total == 68


def test_qc_milestones_only_from_below() -> None:
    """S000 «the rewards and penalties for 33 and 66 only apply if they are approached from
    below»: «playing a 10 on 43 and calling it -10 doesn't»; «playing a 2 on 62 brings the
    total down to 31 without costing anything»."""
    s = qc("10S 9C 9D", 43)
    play(s, "10S-10")
    assert s.total == 33 and s.lives == [9, 9, 9]
    s = qc("2S 9C 9D", 62)
    play(s, "2S")
    assert s.total == 31 and s.lives == [9, 9, 9]
    s = qc("2S 9C 9D", 31)
    play(s, "2S")
    assert s.total == 62 and s.lives == [8, 9, 9]


def test_qc_doubling_33_to_66_is_exact_not_a_crossing() -> None:
    """§7.2: «landing on 66 from 33 is not a crossing»; «one card can trigger at most one
    33/66 event»."""
    s = qc("2S 9C 9D", 33)
    play(s, "2S")
    assert s.total == 66 and s.lives == [9, 8, 8]


def test_qc_exact_99_others_lose_two_round_ends() -> None:
    """[QC1] «If the discard pile exactly reach 99, you win the round. Each player lose two
    tokens, and the next round starts.»; [QC2] «Each player except you loses two tokens.»"""
    s = qc("KS 9C 9D", 89, dealer=3)
    ev = play(s, "KS")
    assert s.lives == [9, 7, 7] and of(ev, E.HandEnded)
    deal(s)
    assert s.total == 0 and s.dealer == 0 and s.turn == 1  # the deal moves on one seat


def test_qc_over_99_costs_two_and_nothing_else() -> None:
    """[QC1] «If you exceed the ultimate 99 limit, you lose the round and must pay two
    tokens.»; §7.2: «busting or hitting 99 pre-empts the 33/66 checks ([PA] returns before
    them)»."""
    s = qc("2S 9C 9D", 61)  # doubled past 66 and over 99: only the bust is paid
    ev = play(s, "2S")
    assert of(ev, E.CardPlayed)[0].after == 122
    assert s.lives == [7, 9, 9] and of(ev, E.HandEnded)


def test_qc_any_card_may_be_played() -> None:
    """§7.2 #6 «any card legal (matches the only implementation; busting can be a tactic
    here)»."""
    s = qc("JS 9S 8S", 95)
    assert {"JS", "9S", "8S"} <= legal(s)
    play(s, "JS")
    assert s.lives == [7, 9, 9]


def test_qc_busting_choices_are_not_offered() -> None:
    """§7.2 #5 `choice_filter=drop_busting` «(removes exactly the alternatives that would
    exceed 99: A+11 above 88, 10+10 at ≥ 90; 88+11 = 99 stays offered)»."""
    assert {"AS+1", "AS+11"} <= legal(qc("AS 9C 9D", 88))
    assert "AS+11" not in legal(qc("AS 9C 9D", 89)) and "AS+1" in legal(qc("AS 9C 9D", 89))
    assert {"10S+10", "10S-10"} <= legal(qc("10S 9C 9D", 89))
    got = legal(qc("10S 9C 9D", 90))
    assert "10S+10" not in got and "10S-10" in got


def test_qc_total_stops_at_zero() -> None:
    """§7.2 #7: «floor at 0 (`_floor_count`); test «5−10 → 0»»."""
    s = qc("10S 9C 9D", 5)
    play(s, "10S-10")
    assert s.total == 0


def test_qc_out_at_zero_tokens_immediately() -> None:
    """[QC1] «If one or more players have no token to deposit anymore, they are immediately
    out of the game witout even waiting for the end of the round.»; §7.2 #4 «out at 0»."""
    s = qc("3S 9C 9D", 30, lives=[9, 1, 9])
    ev = play(s, "3S")
    assert [e.seat for e in of(ev, E.PlayerOut)] == [1]
    assert not s.is_over and s.total == 33 and s.turn == 2 and not of(ev, E.HandEnded)


def test_qc_jack_skip_counts_after_the_eliminations_of_its_play() -> None:
    """QC inherits MATRIX Q47 REC: «resolve penalties and eliminations first, then compute the
    next player: for the Jack, skip exactly one remaining player in the current direction (with
    2 remaining, the actor plays again); for the Four, count "more than 2 players" among those
    remaining»."""
    s = pos("QC", ["JS 9S 9D", "2C 3C 5C", "2D 3D 5D", "2H 3H 5H"], total=23, lives=[9, 1, 9, 9])
    ev = play(s, "JS")
    assert s.lives == [9, 0, 8, 8] and [e.seat for e in of(ev, E.Skipped)] == [2]
    assert s.turn == 3
    s = qc("JS 9S 9D", 23, lives=[9, 1, 9])
    play(s, "JS")
    assert s.turn == 0 and len(s.hands[0]) == 3
    s = qc("4S 9S 9D", 29, lives=[9, 1, 9])
    play(s, "4S")
    assert s.direction == 1 and s.turn == 2


def test_qc_last_remaining_wins() -> None:
    """[QC1] «the player who has lost all of them is out of the game»; the last one remaining
    wins."""
    s = qc("3S 9C 9D", 30, lives=[9, 1, 1])
    play(s, "3S")
    assert s.is_over and s.outcome is not None and s.outcome.winners == (0,)


def test_qc_stock_recycles_all_but_the_top() -> None:
    """§7.2 #11 «recycle all but the top discard» (same as P)."""
    s = qc("3S 9C 9D", 10, top="", rest="pile")
    play(s, "3S")
    assert s.is_chance
    deal(s)
    assert s.pile == [parse_action("3S").card] and s.total == 13


def test_qc_random_leader_option() -> None:
    """§7.2 #9: «option `leader=random` for PA parity» ([PA] `_choose_round_start_index` →
    `random.randrange`): chance draws the leader of the next round among those still in."""
    s = qc("KS 9C 9D", 89, changes={"starter": "random"})
    play(s, "KS")
    req = s.chance_request()
    assert req is not None and req.seats == (0, 1, 2)
    s.apply(parse_action("lead 3"))  # type: ignore[arg-type]
    deal(s)
    assert s.turn == 2 and s.total == 0


# =====================================================================================
# §8 Findings that affect presets we already have
# =====================================================================================


def test_findings_1_p_online_king_is_a_plain_ten() -> None:
    """§8.1 «P-ONLINE King = +10 confirmed by qcsalon's «Figures always count for +10»
    (closes MATRIX Q43).»"""
    s = pos("P-ONLINE", ["KS 9C 9D", "2C 3C 5C", "2D 3D 5D"], total=20)
    play(s, "KS")
    assert s.total == 30
    s = pos("P-ONLINE", ["KS 9C 9D", "2C 3C 5C", "2D 3D 5D"], total=89)
    play(s, "KS")
    assert s.lives == [9, 7, 7]


def test_findings_1_p_online_keeps_s000_elimination() -> None:
    """§8.1 «Elimination-at-0 differs from S000»: P-ONLINE keeps «You can remain in the game
    with no pennies, but if you are required to lose a penny that you don't have you are
    eliminated.»"""
    s = pos("P-ONLINE", ["4S 9C 9D", "2C 3C 5C", "2D 3D 5D"], total=29, lives=[9, 1, 0])
    ev = play(s, "4S")
    assert s.lives == [9, 0, 0] and [e.seat for e in of(ev, E.PlayerOut)] == [2]
    assert s.alive[1]


def test_findings_2_p_borders_backward_crossing_both_readings() -> None:
    """§8.2 S000 «if the pile is 75 and you play a ten as -10 you will lose a game point»
    (default); Wilson `[BW]` «this backward crossing does not cause you to lose a game point,
    but the additional forward crossing does» (`border_cross_backward_costs = false`)."""
    hands = ["10S 9C 9D", "2C 3C 5C", "2D 3D 5D"]
    s = pos("P-BORDERS", hands, total=75)
    play(s, "10S-10")
    assert s.total == 65 and s.points == [2, 3, 3]
    s = pos("P-BORDERS", hands, total=75, changes={"border_cross_backward_costs": False})
    play(s, "10S-10")
    assert s.points == [3, 3, 3]
    s = pos("P-BORDERS", hands, total=60, changes={"border_cross_backward_costs": False})
    play(s, "10S+10")
    assert s.points == [2, 3, 3]


@pytest.mark.parametrize("preset", ["P", "WIKI", "BGA", "J-REVERSE"])
def test_findings_3_two_player_four_leaves_the_other_next(preset: str) -> None:
    """§8.3 «P two-player Four. The Wikipedia derivatives (no reverse with 2) and BGA agree
    with S000's rule.»"""
    s = pos(preset, ["4S 9C 9D", "2C 3C 5C"], total=40)
    play(s, "4S")
    assert s.turn == 1 and s.total == 40


def test_one_hundred_keys_set_any_double_suit_cards() -> None:
    """§4.4 (partial, not a preset) with §10's keys: «The ace of spades and clubs allows the
    player to choose a value 0 through 100 and set the play pile's value to this.»; «The two
    of spades doubles whatever the current value»; «The fives of hearts and diamonds subtract
    5»; «The queen of hearts sets the play pile's value to 0.»"""
    changes = {
        "limit": 100,
        "suit_cards": {
            "AS": "set-any",
            "AC": "set-any",
            "2S": "double",
            "5H": "-5",
            "5D": "-5",
            "QH": "set 0",
        },
    }
    s = pos("P", ["AS 2S 5H", "2C 3C 5C"], total=40, changes=changes)
    got = legal(s)
    assert {"AS=0", "AS=57", "AS=100"} <= got and "AS=101" not in got and "AS" not in got
    play(s, "AS=57")
    assert s.total == 57
    s = pos("P", ["AS 2S 5H", "2C 3C 5C"], total=50, changes=changes)
    play(s, "2S")
    assert s.total == 100
    assert "2S" not in legal(pos("P", ["AS 2S 5H", "2C 3C 5C"], total=51, changes=changes))
    s = pos("P", ["QH 2S 5H", "2C 3C 5C"], total=88, changes=changes)
    play(s, "QH")
    assert s.total == 0


# =====================================================================================
# A second referee: single plays in random positions, against a table written from
# FAMILIES.md alone (card values, legality, who plays next, the direction)
# =====================================================================================

RANK_TEXT = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")


def _face(rank: int) -> list[tuple[str, int, str]]:
    return [("", rank + 1 if rank < 9 else 10, "")]


def _referee_card(preset: str, card: str) -> list[tuple[str, object, str]]:
    """(action suffix, +amount or ("set", n), flag) for each way to play ``card``; flag is
    "", "rev", "skip" or "name". Straight from §1's overview table."""
    rank = RANK_TEXT.index(card[:-1])
    r, suit = RANK_TEXT[rank], card[-1]
    plus_minus_10 = [("+10", 10, ""), ("-10", -10, "")]
    if preset == "WIKI":
        table = {
            "A": [("+1", 1, ""), ("+11", 11, "")],
            "3": [("", 3, "skip")],
            "4": [("", 0, "rev")],
            "9": [("", ("set", 99), "")],
            "10": plus_minus_10,
            "K": [("", 0, "")],
        }
    elif preset in ("BICYCLE", "BGA"):
        table = {
            "A": [("+1", 1, ""), ("+11", 11, "")],
            "4": [("", 0, "rev")],
            "9": [("", 0, "")],
            "10": [("", -10, "")],
            "K": [("", ("set", 99), "")],
        }
    elif preset in ("98", "98-CS", "98-CS-K0"):
        table = {
            "10": [("", -10, "")],
            "J": [("", 0, "")],
            "Q": [("", 0, "")],
            "K": [("", 0 if preset == "98-CS-K0" else ("set", 98), "")],
        }
    elif preset in ("TW", "E2"):
        table = {
            "4": [("", 0, "rev")],
            "5": [("", 0, "name")],
            "10": plus_minus_10,
            "J": [("", 0, "")],
            "Q": [("+20", 20, ""), ("-20", -20, "")],
            "K": [("", ("set", 99), "")],
        }
        if preset == "TW" and card == "AS":
            return [("", ("set", 0), "")]
    else:  # IS (the Queen's chain changes only who draws)
        table = {
            "A": [("+1", 1, ""), ("+14", 14, "")],
            "4": [("", 0, "rev")],
            "5": [("", 5, "skip")],
            "7": [("", 7, "rev")],
            "9": [("", ("set", 99), "")],
            "10": plus_minus_10,
            "J": [("", 11, "")],
            "Q": [("", 0, "")],
            "K": [("", 0, "")],
        }
    del suit
    return list(table.get(r, _face(rank)))  # type: ignore[arg-type]


REFEREE = {  # limit, below zero ("allow"/"clamp"), may bust, no legal play ("down"/"bust")
    "WIKI": (99, "allow", False, "down"),
    "BICYCLE": (99, "allow", False, "down"),
    "BGA": (99, "allow", False, "bust"),
    "98": (98, "allow", False, "bust"),
    "98-CS": (98, "allow", True, "bust"),
    "98-CS-K0": (98, "allow", True, "bust"),
    "TW": (99, "clamp", False, "down"),
    "E2": (99, "clamp", False, "down"),
    "IS": (99, "clamp", False, "down"),
}
# §10 match structures: lives and a redeal, a single loser, continuous elimination
STRUCTURE = {
    "WIKI": "redeal",
    "BICYCLE": "redeal",
    "BGA": "redeal",
    "98": "single",
    "98-CS": "single",
    "98-CS-K0": "single",
    "TW": "continuous",
    "E2": "continuous",
    "IS": "continuous",
}


def _referee_plays(
    preset: str, hand: list[str], total: int, others: list[int]
) -> dict[str, tuple[int, str, int | None]]:
    """Every legal action: (new total, flag, named seat)."""
    limit, below, may_bust, stuck = REFEREE[preset]
    safe, over = {}, {}
    for card in hand:
        for suffix, amount, flag in _referee_card(preset, card):
            new = amount[1] if isinstance(amount, tuple) else total + amount
            if below == "clamp" and new < 0:
                new = 0
            for target in others if flag == "name" else [None]:
                text = card + suffix + (f">{target + 1}" if target is not None else "")
                (safe if new <= limit else over)[text] = (new, flag, target)
    if may_bust:
        return safe | over
    if safe:
        return safe
    return over if stuck == "bust" and over else {"down": (total, "", None)}


def _step(seat: int, d: int, active: list[int], n: int) -> int:
    """The next seat still in from ``seat`` in direction ``d``."""
    seat = (seat + d) % n
    while seat not in active:
        seat = (seat + d) % n
    return seat


def _referee_next(
    seat: int, flag: str, target: int | None, direction: int, active: list[int], n: int
) -> tuple[int, int]:
    """(next seat, direction) after a safe play."""

    def step(s: int, d: int) -> int:
        return _step(s, d, active, n)

    if flag == "name":
        assert target is not None
        return target, direction
    if flag == "rev":
        if len(active) == 2:
            return step(seat, direction), -direction
        return step(seat, -direction), -direction
    if flag == "skip":
        return (seat if len(active) == 2 else step(step(seat, direction), direction)), direction
    return step(seat, direction), direction


def _referee_loss(
    preset: str, t: State, ev: list[E.Event], lives: list[int], active: list[int], total: int
) -> None:
    """Seat 1 could not stay under the limit: §1's "no legal play", "win" and "next hand led
    by" rows."""
    n, structure = t.n, STRUCTURE[preset]
    left = [a for a in active if a != 0 or lives[0] > 1]
    assert t.lives[0] == lives[0] - 1
    if len(left) == 1 or structure == "single":
        assert t.is_over and t.outcome is not None
        assert t.outcome.winners == tuple(a for a in active if a != 0)
        return
    if structure == "continuous":  # out; the next player goes on at the same total
        assert not t.alive[0] and t.total == total and not of(ev, E.HandEnded)
        assert t.turn == _step(0, t.direction, left, n)
        return
    assert of(ev, E.HandEnded)
    deal(t)
    assert t.total == 0 and t.direction == 1
    if preset == "BGA":  # the loser leads, or if out the next seat alive clockwise
        assert t.turn == (0 if 0 in left else _step(0, 1, left, n))
    else:  # the deal passes left of the last dealer (the seat before seat 1 here)
        dealer = _step(n - 1, 1, left, n)
        assert (t.dealer, t.turn) == (dealer, _step(dealer, 1, left, n))


@pytest.mark.parametrize("preset", sorted(REFEREE))
def test_single_plays_agree_with_a_second_referee(preset: str) -> None:
    """Every legal action, total and next player of 300 random positions per preset, against
    the overview table of FAMILIES §1 and the 2-player rows (REC: a reverse with two players
    leaves the other next; a skip with two gives the player another turn; a 5 names anyone
    else still in)."""
    rng = random.Random(preset)
    rules = preset_rules(preset)
    deck = [r + s for r in RANK_TEXT for s in "SHDC"]
    limit = REFEREE[preset][0]
    for _ in range(300):
        n = rng.randint(rules.players_min, min(rules.players_max, 6))
        out = rng.sample(range(1, n), rng.randint(0, n - 2))
        cards = rng.sample(deck, rules.hand_size * n)
        hands = [
            " ".join(cards[i * rules.hand_size : (i + 1) * rules.hand_size]) if i not in out else ""
            for i in range(n)
        ]
        total = rng.choice([rng.randint(0, limit), rng.randint(limit - 12, limit), limit])
        direction = rng.choice([1, -1])
        structure = STRUCTURE[preset]
        lives = [
            0 if i in out else rng.randint(1, 3) if structure == "redeal" else 1 for i in range(n)
        ]
        s = pos(
            preset,
            hands,
            total=total,
            direction="cw" if direction == 1 else "ccw",
            out_of_game=[o + 1 for o in out],
            lives=lives,
        )
        active = [i for i in range(n) if i not in out]
        expected = _referee_plays(preset, hands[0].split(), total, [a for a in active if a != 0])
        assert legal(s) == set(expected), (preset, hands[0], total)
        for move, (new, flag, target) in expected.items():
            t = s.clone()
            ev = play(t, move)
            if move == "down" or new > limit:
                _referee_loss(preset, t, ev, lives, active, total)
                continue
            nxt, d = _referee_next(0, flag, target, direction, active, n)
            assert (t.total, t.turn, t.direction == d or len(active) == 2) == (new, nxt, True), (
                preset,
                move,
                total,
                hands,
                direction,
                out,
            )


def _qc_plays(card: str, total: int) -> dict[str, tuple[int, str]]:
    """QC's plays of a card: §7.1's values, the 2 of S000, the filter of §7.2 #5."""
    r = card[:-1]
    if r == "2":
        return {card: (total // 2 if total % 2 == 0 and total > 49 else total * 2, "")}
    if r in ("A", "10"):
        values = (1, 11) if r == "A" else (10, -10)
        plays = {f"{card}{v:+d}": (max(total + v, 0), "") for v in values}
        kept = {m: p for m, p in plays.items() if p[0] <= 99}
        return kept or {f"{card}{min(values):+d}": plays[f"{card}{min(values):+d}"]}
    flag = {"4": "rev", "J": "skip"}.get(r, "")
    value = {"9": 0, "J": 10, "Q": 10, "K": 10}.get(r)
    return {card: (total + (int(r) if value is None else value), flag)}


def test_qc_single_plays_agree_with_a_second_referee() -> None:
    """QC's plays in 400 random positions (random lives, totals, directions) against §7:
    exact 33/66 from below (others −1), crossing them upward (self −1), exact 99 (others −2,
    the round ends), over 99 (self −2 and nothing else, the round ends), out at 0 at once,
    payments in seat order from the actor's left, then the Four (more than 2 players left) and
    the Jack (skip one remaining; with 2 left the actor again)."""
    rng = random.Random("QC")
    deck = [r + s for r in RANK_TEXT for s in "SHDC"]
    for _ in range(400):
        n = rng.randint(2, 6)
        cards = rng.sample(deck, 3 * n)
        hands = [" ".join(cards[i * 3 : i * 3 + 3]) for i in range(n)]
        lives = [rng.randint(1, 3) for _ in range(n)]
        total = rng.choice(
            [rng.randint(0, 99), rng.randint(25, 40), rng.randint(58, 70), rng.randint(85, 99)]
        )
        direction = rng.choice([1, -1])
        s = pos("QC", hands, total=total, lives=lives, direction="cw" if direction == 1 else "ccw")
        plays: dict[str, tuple[int, str]] = {}
        for card in hands[0].split():
            plays |= _qc_plays(card, total)
        assert legal(s) == set(plays), (hands[0], total)
        for move, (new, flag) in plays.items():
            t = s.clone()
            ev = play(t, move)
            want = lives[:]
            dues: list[tuple[int, int]] = []
            others = [(0 + k) % n for k in range(1, n)]
            if new > 99:
                dues = [(0, 2)]
            elif new == 99 and total < 99:
                dues = [(o, 2) for o in others]
            else:
                for m in (33, 66):
                    if new == m and total < m:
                        dues += [(o, 1) for o in others]
                    elif total < m < new:
                        dues.append((0, 1))
            for seat, amount in dues:
                want[seat] = max(want[seat] - amount, 0)
            assert t.lives == want, (move, total, lives)
            active = [i for i in range(n) if want[i] > 0]
            if len(active) <= 1:
                assert t.is_over and t.outcome is not None
                assert t.outcome.winners == tuple(active)
                continue
            if new > 99 or new == 99 and total < 99:
                assert of(ev, E.HandEnded) and t.is_chance
                continue
            assert t.total == new
            d = -direction if flag == "rev" and len(active) > 2 else direction
            nxt = _step(0, d, active, n)
            if flag == "skip":
                nxt = 0 if len(active) == 2 and 0 in active else _step(nxt, d, active, n)
            assert (t.turn, t.direction) == (nxt, d), (move, total, lives, direction)


# =====================================================================================
# Whole games: the match structures of §10 hold from deal to winner
# =====================================================================================


@pytest.mark.parametrize(
    "preset", ["WIKI", "BICYCLE", "BGA", "BGA-QUICK", "98", "98-CS", "TW", "E2", "IS", "QC"]
)
def test_whole_games_keep_their_match_structure(preset: str) -> None:
    """Random games, checked hand by hand: every hand starts at 0, clockwise, with full hands
    for the players still in (WIKI, Bicycle, BGA: «Each alive player gets 3 cards»); its leader
    is the left of the next dealer (O03, O13; QC #9) or BGA's loser, or if out the next seat
    alive clockwise (O14); TW, E2 and IS deal once (no hands); 98 and BGA-QUICK end at the
    first player out (O15, O20); the winners are the players still in (or, in quick mode, those
    with the most lives)."""
    rules = preset_rules(preset)
    rng = random.Random(preset)
    for game in range(25):
        n = rng.randint(rules.players_min, min(rules.players_max, 6))
        s = new_game(rules, n, first=game % n)
        deals, dealer, ended_by = 0, s.dealer, None
        while not s.is_over:
            if s.is_chance:
                alive = s.alive[:]
                ev = s.apply(s.sample_chance(rng))
                started = of(ev, E.HandStarted)
                if not started:
                    continue
                deals += 1
                assert s.total == 0 and s.direction == 1
                assert [len(h) for h in s.hands] == [rules.hand_size if a else 0 for a in alive]
                lead = started[0].starter
                if deals > 1 and rules.starter.value == "loser":
                    assert ended_by is not None
                    assert lead == (
                        ended_by
                        if alive[ended_by]
                        else next(x % n for x in range(ended_by + 1, ended_by + n) if alive[x % n])
                    )
                elif deals > 1:
                    dealer = next(x % n for x in range(dealer + 1, dealer + n + 1) if alive[x % n])
                    assert (started[0].dealer, lead) == (
                        dealer,
                        next(x % n for x in range(dealer + 1, dealer + n + 1) if alive[x % n]),
                    )
                continue
            ev = s.apply(rng.choice(s.legal_actions()))
            ended = of(ev, E.HandEnded)
            if ended:
                ended_by = ended[0].loser
        if preset in ("TW", "E2", "IS"):
            assert deals == 1
        assert s.outcome is not None
        alive = [i for i in range(n) if s.alive[i]]
        if preset in ("98", "98-CS", "BGA-QUICK"):
            assert sum(not a for a in s.alive) == 1
            most = max(s.lives[i] for i in alive)
            assert s.outcome.winners == tuple(i for i in alive if s.lives[i] == most)
        else:
            assert s.outcome.winners == tuple(alive) and len(alive) == 1


def _two_player_reverse_cases() -> list[tuple[str, str]]:
    out = []
    for preset in presets():
        r = preset_rules(preset)
        rank = next((i for i, e in enumerate(r.cards) if e.reverse and not e.has_param), None)
        if rank is not None and r.players_min == 2:
            out.append((preset, RANKS[rank]))
    return out


@pytest.mark.parametrize("preset,rank", _two_player_reverse_cases())
def test_each_preset_reads_the_reverse_card_with_two_players_its_own_way(
    preset: str, rank: str
) -> None:
    """D25: WIKI «turn order is not reversed if there are only two players» and P-ONLINE
    «reverses the direction of play if there are more than 2 players» keep the direction;
    P-2P-AGAIN «entitles the same player to play again»; the rest flip the direction and
    the other player is next (P «no effect on the turn order»; Q08/Q19 REC)."""
    r = preset_rules(preset)
    s = pos(preset, [f"{rank}S 2S 3S", "5C 6C 7C"], total=50)
    ev = play(s, f"{rank}S")
    if not r.reverse_with_two_players:
        assert (s.direction, s.turn) == (1, 1) and not of(ev, E.Reversed)
    elif r.two_player_reverse is TwoPlayerReverse.PLAY_AGAIN:
        assert s.turn == 0 and of(ev, E.PlaysAgain)
    else:
        assert r.two_player_reverse is TwoPlayerReverse.HOLD
        assert (s.direction, s.turn) == (-1, 1) and of(ev, E.Reversed)


def test_the_presets_that_keep_the_direction_with_two_players() -> None:
    assert {
        p for p, _ in _two_player_reverse_cases() if not preset_rules(p).reverse_with_two_players
    } == {"WIKI", "P-ONLINE", "QC"}
