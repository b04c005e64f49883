"""BICYCLE, BGA and BGA-QUICK (FAMILIES.md §3, F2): their quotations and O10-O15."""

from __future__ import annotations

import pytest
from tests.rules.helpers import card_text, deal, legal, of, play, pos

from ninetynine import load_rules, new_game, preset_rules
from ninetynine.engine import events as E
from ninetynine.engine.state import CHANCE
from ninetynine.errors import RecordError

THREE = ["7S 8S 9S", "5C 6C 7C", "5H 6H 7H"]


# F2a Bicycle -------------------------------------------------------------------------------


def test_b1_three_or_more_players_three_tokens_three_cards() -> None:
    """«3 or more players»; «Players place their three tokens in front of them on the
    table, and receive three cards from the dealer.»"""
    r = preset_rules("BICYCLE")
    assert (r.players_min, r.lives, r.hand_size, r.decks) == (3, 3, 3, 1)
    with pytest.raises(RecordError):
        new_game(r, 2)


@pytest.mark.parametrize(
    "card,total,after",
    [
        ("AS+1", 30, 31),
        ("AS+11", 30, 41),
        ("5S", 30, 35),
        ("JS", 30, 40),
        ("QS", 30, 40),
        ("4S", 30, 30),
        ("9S", 30, 30),
        ("10S", 30, 20),
        ("KS", 30, 99),
        ("KS", 99, 99),
    ],
)
def test_b1_card_values(card: str, total: int, after: int) -> None:
    """«each card adds its face value in points (e.g., a 5 is worth five points, a face card
    is worth 10 points) except…»: «An Ace adds either 1 or 11 points», «A 4 reverses play
    (and does not change the total…)», «A 9 is a pass», «A 10 subtracts 10 points from the
    total», «A King takes the point total to 99 (or keeps it 99 if the total is already 99)»."""
    s = pos("BICYCLE", [f"{card_text(card)} 2C 3C", "5C 6C 7C", "5H 6H 7H"], total=total)
    play(s, card)
    assert s.total == after


def test_b1_the_ten_only_subtracts() -> None:
    s = pos("BICYCLE", ["10S 2C 3C", "5C 6C 7C", "5H 6H 7H"], total=30)
    assert "10S" in legal(s) and "10S+10" not in legal(s)


def test_b1_a_four_reverses_play() -> None:
    s = pos("BICYCLE", ["4S 2C 3C", "5C 6C 7C", "5H 6H 7H"], total=30)
    play(s, "4S")
    assert s.direction == -1 and s.turn == 2


def test_b1_a_nine_is_a_pass_to_the_next_player() -> None:
    s = pos("BICYCLE", ["9S 2C 3C", "5C 6C 7C", "5H 6H 7H"], total=99)
    play(s, "9S")
    assert s.total == 99 and s.turn == 1


def test_b1_who_cannot_play_loses_a_token_and_the_round_ends() -> None:
    """«If a player cannot play a card that keeps the total at or less than 99, that
    player loses a token and the round ends. The cards are then shuffled and dealt»."""
    s = pos("BICYCLE", ["AS 2S QS", "5C 6C 7C", "5H 6H 7H"], total=99)
    assert legal(s) == {"down"}  # O10 REC: Bicycle lays down
    ev = play(s, "down")
    assert s.lives == [2, 3, 3] and of(ev, E.HandEnded) and s.phase == CHANCE
    deal(s)
    assert s.total == 0 and [len(h) for h in s.hands] == [3, 3, 3]


def test_b1_out_after_the_third_token_last_with_a_token_wins() -> None:
    """«The last player with a token remaining is the winner. Players are eliminated when
    they lose the third token.»"""
    s = pos("BICYCLE", ["AS 2S QS", "5C 6C 7C", "5H 6H 7H"], total=99, lives=[1, 3, 3])
    play(s, "down")
    assert not s.alive[0] and s.outcome is None
    s = pos(
        "BICYCLE", ["AS 2S QS", "5C 6C 7C", "5H 6H 7H"], total=99, lives=[1, 2, 0], out_of_game=[3]
    )
    play(s, "down")
    assert s.outcome is not None and s.outcome.winners == (1,)


def test_o11_a_forced_ten_goes_below_zero() -> None:
    """O11 REC `allow`: total 5, hand {10, 10, 10}: the Ten must be played, to -5."""
    s = pos("BICYCLE", ["10S 10H 10D", "5C 6C 7C", "5H 6H 7H"], total=5)
    play(s, "10S")
    assert s.total == -5


def test_o11_alt_clamp() -> None:
    s = pos(
        "BICYCLE", ["10S 10H 10D", "5C 6C 7C", "5H 6H 7H"], total=5, changes={"below_zero": "clamp"}
    )
    play(s, "10S")
    assert s.total == 0


def test_o12_a_four_with_two_players_left_leaves_the_other_next() -> None:
    """O12 REC: the 4 leaves the other player next (pagat S000's two-player rule)."""
    s = pos(
        "BICYCLE", ["4S 2C 3C", "5C 6C 7C", "5H 6H 7H"], total=30, out_of_game=[3], lives=[3, 3, 0]
    )
    ev = play(s, "4S")
    assert s.turn == 1 and not of(ev, E.PlaysAgain)


def test_o13_the_deal_passes_left_and_left_of_the_dealer_leads() -> None:
    """O13 REC: as P."""
    s = pos("BICYCLE", ["5C 6C 7C", "AS 2S QS", "5H 6H 7H"], total=99, turn=2, dealer=1)
    play(s, "down")
    deal(s)
    assert s.dealer == 1 and s.turn == 2  # P1 dealt: now P2 deals and P3 leads


# F2b Board Game Arena --------------------------------------------------------------------


def test_g1_two_to_twelve_players_three_lives() -> None:
    """«Options - 2-12 players»; «Each player starts the game with 3 lives.»"""
    r = preset_rules("BGA")
    assert (r.players_min, r.players_max, r.lives, r.hand_size) == (2, 12, 3, 3)
    s = new_game(r, 12)
    deal(s)
    assert len(s.stock) == 16  # O14: 36 dealt, 16 in stock
    with pytest.raises(RecordError):
        new_game(r, 13)


def test_g1_lives_are_an_option_from_two_to_four() -> None:
    """«2-4 lives»: the lives setting."""
    r = load_rules({"preset": "BGA", "rules": {"lives": 4}})
    assert new_game(r, 3).lives == [4, 4, 4]


@pytest.mark.parametrize(
    "card,after",
    [
        ("AS+1", 31),
        ("AS+11", 41),
        ("4S", 30),
        ("9S", 30),
        ("10S", 20),
        ("JS", 40),
        ("QS", 40),
        ("KS", 99),
        ("2S", 32),
        ("8S", 38),
    ],
)
def test_g1_card_table(card: str, after: int) -> None:
    """«A | Choose to add 1 or 11», «2 3 5 6 7 8 | Add face value», «4 | Reverse the
    direction of play (add nothing)», «9 | Add nothing», «10 | Subtract 10», «J, Q | Add 10»,
    «K | Set the point total to 99»."""
    s = pos("BGA", [f"{card_text(card)} 2C 3C", "5C 6C 7C", "5H 6H 7H"], total=30)
    play(s, card)
    assert s.total == after


def test_g2_a_player_is_forced_over_99_loses_a_life_and_the_round_ends() -> None:
    """«If a player is forced to make the total exceed 99, that player loses a life. A new
    round is then started.» O10 REC: the card goes on the pile, the total is shown."""
    s = pos("BGA", ["5S 6S 7S", "5C 6C 7C", "5H 6H 7H"], total=95)
    assert legal(s) == {"5S", "6S", "7S"}
    ev = play(s, "7S")
    assert [e.total for e in of(ev, E.Busted)] == [102]
    assert s.lives == [2, 3, 3] and of(ev, E.HandEnded) and s.phase == CHANCE


def test_g1_the_loser_begins_the_next_round() -> None:
    """«The next round begins with the player who lost the previous round»."""
    s = pos("BGA", ["2C 3C 4C", "5S 6S 7S", "5H 6H 7H", "5D 6D 7D"], total=95, turn=2)
    play(s, "7S")
    deal(s)
    assert s.starter == 1 and s.turn == 1 and s.dealer == 0 and s.direction == 1


def test_g1_if_the_loser_is_eliminated_the_following_player_begins() -> None:
    """«…or if eliminated, the following player.» O14 REC: the next seat still alive,
    clockwise from the loser (the direction resets each round)."""
    s = pos(
        "BGA",
        ["2C 3C 4C", "5S 6S 7S", "5H 6H 7H", "5D 6D 7D"],
        total=95,
        turn=2,
        lives=[3, 1, 3, 3],
        direction="ccw",
    )
    play(s, "7S")
    assert not s.alive[1]
    deal(s)
    assert s.starter == 2 and s.turn == 2 and s.direction == 1


def test_g2_each_alive_player_gets_three_cards() -> None:
    """«Each alive player gets 3 cards.»"""
    s = pos("BGA", ["2C 3C 4C", "5S 6S 7S", "5H 6H 7H"], total=95, turn=2, lives=[3, 1, 3])
    play(s, "7S")
    deal(s)
    assert [len(h) for h in s.hands] == [3, 0, 3]


def test_g2_out_at_no_lives_last_remaining_wins() -> None:
    """«If a player loses all his 3 lives he is out of the game. The last remaining player
    wins!»"""
    s = pos("BGA", ["2C 3C 4C", "5S 6S 7S"], total=95, turn=2, lives=[2, 1])
    play(s, "7S")
    assert s.outcome is not None and s.outcome.winners == (0,)
    assert s.outcome.reason == "last_survivor"


# Quick mode --------------------------------------------------------------------------------


def test_g3_quick_mode_the_first_elimination_ranks_the_rest_by_lives() -> None:
    """«Enabled: When a player loses all lives, all remaining players are ranked by the number
    of remaining lives.»; «The player(s) with the most lives in the end win(s).»"""
    s = pos(
        "BGA-QUICK",
        ["2C 3C 4C", "5S 6S 7S", "5H 6H 7H", "5D 6D 7D"],
        total=95,
        turn=2,
        lives=[2, 1, 3, 1],
    )
    ev = play(s, "7S")
    assert s.outcome is not None and s.outcome.winners == (2,)
    assert s.outcome.reason == "first_out" and of(ev, E.GameOver)


def test_o15_quick_mode_equal_lives_share_the_win() -> None:
    """O15 REC: equal lives share the place; the eliminated player is last."""
    s = pos(
        "BGA-QUICK",
        ["2C 3C 4C", "5S 6S 7S", "5H 6H 7H", "5D 6D 7D"],
        total=95,
        turn=2,
        lives=[3, 1, 3, 2],
    )
    play(s, "7S")
    assert s.outcome is not None and s.outcome.winners == (0, 2)


def test_g1_quick_mode_a_life_lost_is_not_the_end() -> None:
    s = pos("BGA-QUICK", ["2C 3C 4C", "5S 6S 7S", "5H 6H 7H"], total=95, turn=2, lives=[3, 2, 3])
    play(s, "7S")
    assert s.outcome is None and s.phase == CHANCE


def test_g1_quick_mode_off_the_game_continues() -> None:
    """«Disabled: When a player loses all lives, the player is eliminated and the game
    continues.»"""
    s = pos("BGA", ["2C 3C 4C", "5S 6S 7S", "5H 6H 7H"], total=95, turn=2, lives=[3, 1, 3])
    play(s, "7S")
    assert s.outcome is None and not s.alive[1]


def test_quick_mode_is_an_overlay_on_any_lives_game() -> None:
    r = load_rules({"preset": "P", "overlays": ["BGA-QUICK"]})
    assert r.game_end.value == "first_out" and r.cards == preset_rules("P").cards


def test_o14_twelve_players_run_the_stock_out_and_reshuffle_keeping_the_top() -> None:
    """O14: «BGA with 12 players: 36 dealt, 16 in stock → stock exhaustion is frequent; REC
    reshuffle all discards but the top card, total kept.»"""
    hands = [
        f"{r}S {r}H {r}D" for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q")
    ]
    s = pos("BGA", hands, total=20, top="", rest="pile", pile="KS KH KD")
    ev = play(s, "AS+1")
    assert of(ev, E.StockReshuffled)[0].kept_top and s.total == 21
