"""An independent referee's sample of the rulebooks' base games (P, K, G, J), concentrated on
MATRIX.md's subtle readings (the Q-numbers with a REC and an Alt). Each docstring quotes the
rulebook line or the MATRIX reading it checks. Seats are 0-based in code, 1-based in positions.
"""

from __future__ import annotations

from collections import Counter

import pytest
from tests.rules.helpers import calls, deal, legal, of, play, pos

from ninetynine import new_game, parse_action, preset_rules
from ninetynine.engine import events as E
from ninetynine.errors import BelowZeroError, OverLimitError, RecordError
from ninetynine.rules.cards import format_cards, new_deck, parse_cards

# =====================================================================================
# P (S000 main game)
# =====================================================================================


def test_p_t01_sequence_turns_totals_and_calls() -> None:
    """T01: «Player 1 plays a King and says "99". Player 2 plays a nine and says … "pass to you
    99". Player 3 plays a four and says … "back on you 99". Player 2 plays a ten and says "89".
    Player 1 plays a eight and says "97". Player 4 plays a four, looks at player 1 and says
    "back on you 97"»."""
    s = pos("P", ["KS 8D 2C", "9H 10D 3C", "4S 5C 6C", "4H 7C 8C"], total=50)
    seen, said, totals = [], [], []
    for move in ("KS", "9H", "4S", "10D-10", "8D", "4H"):
        seen.append(s.turn)
        said += calls(play(s, move))
        totals.append(s.total)
    seen.append(s.turn)
    assert seen == [0, 1, 2, 1, 0, 3, 0]
    assert totals == [99, 99, 99, 89, 97, 97]
    assert said == ["99", "pass to you 99", "back on you 99", "89", "97", "back on you 97"]


def test_p_t03_legal_sets_near_the_limit() -> None:
    """T03: «Total 95, hand {A, 10, 5} → legal: A as 1 (→ 96), 10 as −10 (→ 85).»; «Total 99,
    hand {2, 3, 5} → no legal move → lay down the hand.»"""
    assert legal(pos("P", ["AS 10S 5S", "2C 3C 6C"], total=95)) == {"AS+1", "10S-10"}
    assert legal(pos("P", ["2S 3S 5S", "2C 3C 6C"], total=99)) == {"down"}
    assert "AS+11" in legal(pos("P", ["AS 3S 5S", "2C 3C 6C"], total=88))


def test_p_q10_ten_below_zero_is_allowed() -> None:
    """Q10 REC (literal): «allowed, so the total can become negative (e.g. 5 − 10 = −5)»."""
    s = pos("P", ["10S 3S 5S", "2C 3C 6C"], total=5)
    play(s, "10S-10")
    assert s.total == -5


def test_p_q11_big_table_fixed_at_the_start() -> None:
    """Q11 REC: «fix the decks and pennies at the start; don't change them when players drop
    out»; S000 «if more than 4 people are playing use 2 decks and give each player just 3
    pennies»."""
    s = new_game(preset_rules("P"), 5)
    assert s.decks == 2 and s.lives == [3] * 5
    assert (
        new_game(preset_rules("P"), 4).decks == 1
        and new_game(preset_rules("P"), 4).lives == [5] * 4
    )
    s = pos(
        "P",
        ["2S 3S 5S", "2C 3C 6C", "", "", "7H 8H 2H"],
        total=99,
        decks=2,
        lives=[1, 3, 0, 0, 3],
        out_of_game=[3, 4],
        top="",
        rest="pile",
    )
    play(s, "down")  # three players left: still two decks
    assert s.is_chance and s.decks == 2
    deal(s)
    assert s.decks == 2 and len(s.all_cards()) == 104


def test_p_q12_q13_next_hand() -> None:
    """Q12 REC «reset to CW»; Q13: «Dealer: "next player to the left of the previous dealer who
    is still in", counted from the previous dealer's seat even if that dealer has just dropped
    out. The starter is the next active player to the left of the new dealer.»"""
    s = pos(
        "P",
        ["2S 3S 5S", "2C 3C 6C", "7C 8C 2H", "JH QH KH"],
        total=99,
        turn=1,
        dealer=1,
        lives=[1, 5, 5, 5],
        direction="ccw",
    )
    play(s, "down")  # the dealer lays down with the last penny
    deal(s)
    assert not s.alive[0] and s.dealer == 1 and s.starter == 2 and s.direction == 1


def test_p_q13_lay_down_no_card_one_penny() -> None:
    """Q13 REC: «the player plays no card; the total is unchanged and irrelevant; the hand
    ends at once; 1 penny to the centre»."""
    s = pos("P", ["2S 3S 5S", "2C 3C 6C"], total=99)
    ev = play(s, "down")
    assert not of(ev, E.CardPlayed) and s.pot == 1 and s.lives == [4, 5]
    assert of(ev, E.HandEnded)


def test_p_q14_lazy_restock_keeps_the_card_just_played() -> None:
    """Q14 REC: «lazily, when a draw is needed from an empty stock. The card kept as the base
    of the new discard pile is the top card at that moment, i.e. the card just played.»"""
    s = pos("P", ["7S 3S 5S", "2C 3C 6C"], total=10, top="8S", rest="pile")
    play(s, "7S")
    assert s.stock == [] and not s.is_chance  # eager is the Alt
    play(s, "2C")
    assert s.is_chance
    req = s.chance_request()
    assert req is not None and parse_action("2C").card not in req.cards
    deal(s)
    assert s.pile == parse_cards("2C") and s.total == 19


def test_p_two_players_four_acts_like_a_nine() -> None:
    """S000: «playing a four has no effect on the turn order when there are two players - the
    pile value remains the same and it is the other player's turn, just as though you had
    played a nine.»"""
    s = pos("P", ["4S 3S 5S", "2C 3C 6C"], total=40)
    play(s, "4S")
    assert s.turn == 1 and s.total == 40


def test_p_2p_again_q17_draws_then_plays_again_and_chains() -> None:
    """Q17 REC: «play, then draw, then take another full turn; chaining is allowed.»"""
    s = pos("P-2P-AGAIN", ["4S 4D 5S", "2C 3C 6C"], total=40, top="4H 4C")
    play(s, "4S")
    assert s.turn == 0 and len(s.hands[0]) == 3
    play(s, "4D")
    assert s.turn == 0 and len(s.hands[0]) == 3


def test_p_q18_two_players_means_two_in_the_hand() -> None:
    """Q18 REC: «the players still active in the current hand at the moment the card
    resolves»: three seats with one out of the game is a two-player table."""
    s = pos("P-2P-AGAIN", ["4S 4D 5S", "", "2C 3C 6C"], total=40, out_of_game=[2], lives=[5, 0, 5])
    play(s, "4S")
    assert s.turn == 0
    s = pos("P-2P-AGAIN", ["4S 4D 5S", "2D 3D 6D", "2C 3C 6C"], total=40)
    play(s, "4S")
    assert s.turn == 2 and s.direction == -1


def test_p_last_with_pennies_wins() -> None:
    """S000: «Hands continue till only one player has any pennies left, and that player is the
    winner.»"""
    s = pos("P", ["2S 3S 5S", "2C 3C 6C"], total=99, lives=[1, 2])
    play(s, "down")
    assert s.outcome is not None and s.outcome.winners == (1,)


def test_p_two_decks_a_card_twice_is_one_action() -> None:
    """D02 «2×52 if n>4»: two identical cards in a hand are one choice, not two."""
    s = pos("P", ["7S 7S 5S", "2C 3C 6C", "2D 3D 6D", "2H 3H 6H", "4C 5C 8C"], total=10, decks=2)
    assert legal(s) == {"7S", "5S"}


# =====================================================================================
# K (S002)
# =====================================================================================


def test_k_t06_walk_through() -> None:
    """T06: «West has 5, 7, Queen — 103, 105, 118. All over 99. West is out of this hand and
    flips a life.» «You play a 9. Total stays 98.»"""
    s = pos("K", ["JS 9S 2S", "9C 3C 5C", "8D 2D 3D", "5H 7H QH"], total=80)
    play(s, "JS", "9C", "8D")
    assert s.total == 98 and legal(s) == {"down"}
    play(s, "down")
    assert s.lives == [3, 3, 3, 2] and s.total == 98 and s.turn == 0
    play(s, "9S")
    assert s.turn == 1


def test_k_at_99_only_nine_four_ten_king() -> None:
    """S002: «A total of 99 already: only 9 (stay), 4 (reverse, stay), or 10 (to 89) are legal
    besides another King (stays 99).»"""
    s = pos("K", ["9S 4S 10S KS AS QS", "2C 3C 5C"], total=99)
    assert legal(s) == {"9S", "4S", "10S", "KS"}


def test_k_ace_one_queen_twenty_king_from_zero() -> None:
    """S002: «Tonight Ace is 1, not 14. Tonight Queen is +20, not 10.»; «King sets the total to
    99. Always legal — even from 0, even from 99.»"""
    s = pos("K", ["AS QS KS", "2C 3C 5C", "2D 3D 5D"], total=0)
    assert legal(s) == {"AS", "QS", "KS"}
    play(s, "QS")
    assert s.total == 20
    s = pos("K", ["AS QS KS", "2C 3C 5C", "2D 3D 5D"], total=0)
    play(s, "KS")
    assert s.total == 99


def test_k_ten_from_five_is_not_a_play() -> None:
    """S002: «A 10 that would take the total below 0 is illegal. From 5, a 10 is not a
    play.»"""
    s = pos("K", ["10S 3S 5S", "2C 3C 5C"], total=5)
    assert "10S" not in legal(s)
    with pytest.raises(BelowZeroError):
        play(s, "10S")


def test_k_q21_only_tens_on_the_floor_flips_a_life() -> None:
    """Q21 REC: «any turn with no legal play = "Can't play: flip a life" (out of the hand, −1
    life)»; (a) «the hand holds only 10s with the total < 10»."""
    s = pos("K", ["10S 10H 10D", "2C 3C 5C", "2D 3D 5D"], total=5)
    assert legal(s) == {"down"}
    play(s, "down")
    assert s.lives == [2, 3, 3] and not s.in_hand[0] and s.total == 5 and s.turn == 1


def test_k_q22_q21b_empty_stock_hands_shrink_then_flip() -> None:
    """Q22 REC: «no reshuffle ever during the hand; hands shrink by one card per turn»; Q21(b)
    an empty hand is "can't play"."""
    s = pos("K", ["2S", "3C 5C", "2D"], total=10, top="", rest="pile")
    ev = play(s, "2S")
    assert not s.is_chance and s.hands[0] == [] and of(ev, E.DrawSkipped)
    play(s, "3C", "2D")
    assert s.turn == 0 and legal(s) == {"down"}


def test_k_q20_hand_ends_with_one_left_then_deal_clockwise() -> None:
    """Q20 REC: «(2) the survivor gains and loses nothing … (5) otherwise collect all cards,
    shuffle the 52, the deal passes to the next seat clockwise that still has lives, the
    player left of the dealer starts, total 0, CW.»"""
    s = pos(
        "K",
        ["2S 3S 5S", "2C 3C 5C", "2D 3D 5D"],
        total=99,
        dealer=3,
        out_of_hand=[2],
        lives=[3, 2, 3],
        direction="ccw",
    )
    ev = play(s, "down")
    assert s.lives == [2, 2, 3] and of(ev, E.HandEnded)
    deal(s)
    assert s.dealer == 0 and s.starter == 1 and s.total == 0 and s.direction == 1
    assert [len(h) for h in s.hands] == [3, 3, 3] and len(s.stock) == 52 - 9


def test_k_q19_four_with_two_left_in_the_hand() -> None:
    """Q19 REC: «flip the direction; the next player is the other player»."""
    s = pos("K", ["4S 3S 5S", "2C 3C 5C", "2D 3D 5D"], total=40, out_of_hand=[2])
    play(s, "4S")
    assert s.turn == 2


def test_k_q23_out_of_the_hand_neither_plays_nor_draws() -> None:
    """Q23 REC: «kept out of play until the next deal; the player neither plays nor draws»."""
    s = pos("K", ["2S 3S 5S", "2C 3C 5C", "2D 3D 5D"], total=99, top="4H")
    play(s, "down")
    assert s.hands[0] == parse_cards("2S 3S 5S") and s.stock[-1] == parse_cards("4H")[0]


def test_k_calls_nine_is_mine() -> None:
    """S002 «9 = 0 ("nine is mine" — total stays)»."""
    s = pos("K", ["9S 3S 5S", "2C 3C 5C"], total=40)
    assert calls(play(s, "9S")) == ["nine is mine"]


# =====================================================================================
# G (S003)
# =====================================================================================


@pytest.mark.parametrize(
    "move,total,expected",
    [
        ("9S", 12, 99),
        ("KS", 95, 95),
        ("4S", 10, 14),
        ("7S", 10, 17),
        ("JS", 89, 99),
        ("QS", 10, 20),
        ("AS+11", 10, 21),
        ("10S-10", 5, 0),
        ("10S+10", 5, 15),
        ("8S", 91, 99),
    ],
)
def test_g_q01_q02_card_table(move: str, total: int, expected: int) -> None:
    """Q01 REC «A 1/11, 2–8 face value incl. 4 and 7, 9 = set 99, 10 = ±10 clamped, J/Q = 10,
    K = 0 + reverse»; Q02 «With +10, at 89 a Jack gives 99 and is safe.»; «Playing a 9 at a
    total of 12 is perfectly legal»."""
    card = move.split("+")[0].split("-")[0]
    s = pos("G", [f"{card} 2C 3C 5C", "2D 3D 5D 6D", "2H 3H 5H 6H"], total=total)
    play(s, move)
    assert s.total == expected


def test_g_king_reverses() -> None:
    """S003 «A King adds nothing and reverses the direction of play.»"""
    s = pos("G", ["KS 2C 3C 5C", "2D 3D 5D 6D", "2H 3H 5H 6H", "4D 4H 4C 6C"], total=95)
    play(s, "KS")
    assert s.direction == -1 and s.turn == 3


def test_g_q03_q04_q05_voluntary_bust_draws_and_calls() -> None:
    """Q04 REC «allowed (any card in hand is a legal move)»; S003 «If the total goes over 99,
    you bust. You lose one life, the total resets to 0, and your turn ends.»; Q03 REC «yes,
    draw»; Q05 REC «announce the over-limit total with "bust" (e.g. "101 — bust")»."""
    s = pos("G", ["QS KS 2C 5C", "2D 3D 5D 6D", "2H 3H 5H 6H"], total=91)
    assert "QS" in legal(s) and "KS" in legal(s)
    ev = play(s, "QS")
    assert calls(ev) == ["101 — bust"]
    assert s.lives == [2, 3, 3] and s.total == 0 and s.turn == 1 and len(s.hands[0]) == 4


def test_g_q06_reset_keeps_the_pile() -> None:
    """Q06 REC: «no, only the count resets; the pile stays»."""
    s = pos("G", ["QS KS 2C 5C", "2D 3D 5D 6D", "2H 3H 5H 6H"], total=91, pile="9H 8H")
    play(s, "QS")
    assert s.pile == parse_cards("9H 8H QS")


def test_g_q09_direction_persists_and_the_eliminated_are_skipped() -> None:
    """Q09 REC: direction persists after a bust; «skip them, keep the direction»; S003 «When a
    player runs out of lives they are eliminated and skipped for the rest of the match; the
    running total keeps going.»"""
    s = pos(
        "G",
        ["2D 3D 5D 6D", "QS KS 2C 5C", "2H 3H 5H 6H", "4D 4H 4C 6C"],
        total=91,
        turn=2,
        direction="ccw",
        lives=[3, 1, 3, 3],
    )
    ev = play(s, "QS")
    assert [e.seat for e in of(ev, E.PlayerOut)] == [1]
    assert s.direction == -1 and s.turn == 0 and s.total == 0
    play(s, "2D")
    assert s.turn == 3  # P2 is skipped


def test_g_q08_king_with_two_left() -> None:
    """Q08 REC: «the direction flips, but the next player is still the other player»."""
    s = pos("G", ["KS 2C 3C 5C", "", "2H 3H 5H 6H"], total=40, out_of_game=[2], lives=[3, 0, 3])
    play(s, "KS")
    assert s.turn == 2


def test_g_three_to_eight_players_four_cards() -> None:
    """S003 «Players: 3-8»; «Deal four cards to each player.»; «Lives: Each player starts with
    3 lives»."""
    rules = preset_rules("G")
    with pytest.raises(RecordError):
        new_game(rules, 2)
    with pytest.raises(RecordError):
        new_game(rules, 9)
    s = new_game(rules, 8)
    deal(s)
    assert [len(h) for h in s.hands] == [4] * 8 and s.lives == [3] * 8


def test_g_q07_player_two_opens_the_second_game() -> None:
    """Q07 REC: «match k is opened by seat ((k−1) mod n)+1» — the game's `first`."""
    s = new_game(preset_rules("G"), 3, first=1)
    deal(s)
    assert s.turn == 1


# =====================================================================================
# J (S004)
# =====================================================================================


@pytest.mark.parametrize(
    "move,total,expected",
    [
        ("AS+1", 40, 41),
        ("AS+11", 40, 51),
        ("4S", 40, 44),
        ("9S", 40, 40),
        ("10S", 40, 30),
        ("10S", 5, 0),
        ("JS", 40, 50),
        ("QS", 40, 50),
        ("KS", 40, 99),
        ("KS", 99, 99),
    ],
)
def test_j_card_values(move: str, total: int, expected: int) -> None:
    """S004 «Ace adds 1 or 11 (player's choice); 2 through 8 add their face value; 9 holds the
    total exactly where it is (no change); 10 subtracts 10 from the total; Jack and Queen add 10
    each; King sets the total to 99 immediately»; «if a 10 is played when the total is, say, 5,
    the total becomes 0, not minus 5»; «playing a King when the total is already 99 is legal»."""
    card = move.split("+")[0]
    s = pos("J", [f"{card} 2C 3C", "2D 3D 5D", "2H 3H 5H"], total=total)
    play(s, move)
    assert s.total == expected


def test_j_q27_forced_card_chosen_on_the_pile_round_ends() -> None:
    """Q27 REC: «the player chooses any card from hand; it goes onto the pile; the over-limit
    total is announced; the round ends»; S004 «must still play one card and loses the round;
    they cannot pass or hold back»."""
    s = pos("J", ["2S 3S 5S", "2C 3C 5C", "2D 3D 5D"], total=99)
    assert legal(s) == {"2S", "3S", "5S"}
    ev = play(s, "3S")
    assert of(ev, E.CardPlayed)[0].after == 102 and calls(ev) == ["102 — bust"]
    assert s.lives == [2, 3, 3] and s.pot == 1 and of(ev, E.HandEnded)


def test_j_must_play_safe_if_possible() -> None:
    """S004 «A player with no legal card, meaning every card they hold would take the total
    past 99, must still play one card» — with a legal card, busting is not a play."""
    s = pos("J", ["2S 9S 5S", "2C 3C 5C"], total=99)
    assert legal(s) == {"9S"}
    with pytest.raises(OverLimitError):
        play(s, "5S")


def test_j_q25_q26_new_round_from_the_stock_left_of_the_loser() -> None:
    """Q25 REC (literal): «the old hands go to the discard pile; deal 3 to each remaining
    player from the current draw pile»; S004 «the player to the left of the loser goes
    first»; «Reset the total to zero»."""
    s = pos("J", ["2C 3C 5C", "2S 3S 5S", "2D 3D 5D"], total=99, turn=2)
    stock_before = list(s.stock)
    play(s, "5S")
    assert not s.is_chance and s.total == 0 and s.turn == 2
    assert [len(h) for h in s.hands] == [3, 3, 3]
    assert s.stock == stock_before[:-9]


def test_j_q25_short_stock_gathers_all_52() -> None:
    """Q25 REC: «if it can't supply them all, gather all 52, shuffle and deal»."""
    s = pos(
        "J", ["2C 3C 5C", "2S 3S 5S", "2D 3D 5D"], total=99, turn=2, top="AS AH AD AC", rest="pile"
    )
    play(s, "5S")
    assert s.is_chance
    req = s.chance_request()
    assert req is not None and len(req.cards) == 52
    deal(s)
    assert [len(h) for h in s.hands] == [3, 3, 3] and s.turn == 2


def test_j_q26_eliminated_loser_next_remaining_to_the_left() -> None:
    """Q26 REC: «if the loser was eliminated, the next remaining player to the loser's
    left»."""
    s = pos(
        "J",
        ["2C 3C 5C", "2S 3S 5S", "", "2D 3D 5D"],
        total=99,
        turn=2,
        lives=[3, 1, 0, 3],
        out_of_game=[3],
    )
    play(s, "5S")
    assert not s.alive[1] and s.turn == 3


def test_j_q28_nothing_to_draw_plays_short() -> None:
    """Q28 REC: «if no card can be drawn, skip the draw and refill later»; S004 «a player who
    cannot draw simply plays without replacing»."""
    hands = ["2S 3S 5S", "2C 3C 5C"]
    held = Counter(new_deck(1)) - Counter(parse_cards(" ".join(hands)))  # every other card
    hands[1] += " " + format_cards(sorted(held.elements()))
    s = pos("J", hands, total=10, stock="", pile="")
    ev = play(s, "2S")
    assert len(s.hands[0]) == 2 and of(ev, E.DrawSkipped) and not s.is_chance


def test_j_always_clockwise() -> None:
    """S004 «Play passes clockwise after each turn.»"""
    s = pos("J", ["4S 3S 5S", "2C 3C 5C", "2D 4D 5D"], total=10)
    play(s, "4S", "2C")
    assert s.turn == 2 and s.direction == 1
