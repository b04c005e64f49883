"""TW (Taiwanese 99, FAMILIES.md §5, F4) and E2 (everything2's, §6.2, F5b): their
quotations and O30-O41."""

from __future__ import annotations

import pytest
from tests.rules.helpers import card_text, legal, of, play, pos

from ninetynine import load_rules, new_game, preset_rules
from ninetynine.engine import events as E
from ninetynine.engine.state import CHANCE
from ninetynine.engine.view import observe
from ninetynine.errors import ChoiceRequiredError, IllegalActionError, RecordError
from ninetynine.rules.cards import format_cards, parse_card

FOUR = ["5S 7S 8S 2S 3S", "4C 6C 7C 8C 9C", "4H 6H 7H 8H 9H", "4D 6D 7D 8D 9D"]


def test_tw1_five_cards_one_deck_no_lives() -> None:
    """«Deal five cards to each player… so in normal 99, hands stay at five cards.»; 2-8
    usual; one continuous game."""
    r = preset_rules("TW")
    assert (r.hand_size, r.decks, r.lives, r.players_min, r.players_max) == (5, 1, 1, 2, 8)
    s = new_game(r, 8)
    assert s.is_chance
    with pytest.raises(RecordError):
        new_game(r, 9)


def test_tw2_four_card_hard_mode_is_a_setting() -> None:
    """«Players will only have 4 cards instead of 5 in the hard mode.»"""
    assert load_rules({"preset": "TW", "rules": {"hand_size": 4}}).hand_size == 4


@pytest.mark.parametrize(
    "card,after",
    [
        ("AH", 41),
        ("AD", 41),
        ("AC", 41),
        ("2S", 42),
        ("3S", 43),
        ("6S", 46),
        ("7S", 47),
        ("8S", 48),
        ("9S", 49),
    ],
)
def test_tw1_normal_cards(card: str, after: int) -> None:
    """«Normal cards are A=1 except ace of spades, 2, 3, 6, 7, 8, 9.»"""
    s = pos("TW", [f"{card} 2C 3C 2D 3D", "4C 6C 7C 8C 9C"], total=40)
    play(s, card)
    assert s.total == after


def test_tw1_the_ace_of_spades_resets_to_zero() -> None:
    """«A of spades, reset. Set the running total directly to 0.»"""
    s = pos("TW", ["AS AH 7C 8C 9C", "4C 6C 7D 8D 9D"], total=99)
    assert legal(s) == {"AS"}  # the other Ace would make 100
    play(s, "AS")
    assert s.total == 0


def test_tw1_the_king_sets_99() -> None:
    """«K, max. Set the running total directly to 99.»"""
    s = pos("TW", ["KS 7S 8S 2S 3S", "4C 6C 7C 8C 9C"], total=12)
    play(s, "KS")
    assert s.total == 99


@pytest.mark.parametrize(
    "card,after", [("10S+10", 60), ("10S-10", 40), ("QS+20", 70), ("QS-20", 30)]
)
def test_tw1_ten_and_queen_add_or_subtract(card: str, after: int) -> None:
    """«10, ±10. You may choose to add or subtract 10»; «Q, ±20. You may choose to add or
    subtract 20»."""
    s = pos("TW", [f"{card_text(card)} 7S 8S 2S 3S", "4C 6C 7C 8C 9C"], total=50)
    play(s, card)
    assert s.total == after


def test_o30_below_zero_bounces_back_to_zero() -> None:
    """O30 REC `below_zero = clamp`: «negative totals bounce back to zero»."""
    s = pos("TW", ["QS 7S 8S 2S 3S", "4C 6C 7C 8C 9C"], total=15)
    play(s, "QS-20")
    assert s.total == 0


def test_tw1_the_jack_passes() -> None:
    """«J, pass. Acts like adding 0 to the running total.»; «Jack: skip me and move on to
    the next player after that.»: the next player plays (nobody is skipped)."""
    s = pos("TW", ["JS 7S 8S 2S 3S", *FOUR[1:]], total=99)
    ev = play(s, "JS")
    assert s.total == 99 and s.turn == 1 and not of(ev, E.Skipped)


def test_tw1_four_reverses_the_player_before_plays_next() -> None:
    """«4, reverse… The player who played just before you will also play next, unless the
    turn order was disrupted by a 5 before you.»"""
    s = pos("TW", FOUR, total=30)
    play(s, "7S", "4C")
    assert s.turn == 0 and s.direction == -1 and s.total == 37


def test_tw1_four_after_a_five_reverses_from_the_named_player() -> None:
    """…«unless the turn order was disrupted by a 5 before you»: P1 names P3; P3's Four
    sends play to P2, not back to P1."""
    s = pos("TW", FOUR, total=30)
    play(s, "5S>3", "4H")
    assert s.turn == 1 and s.direction == -1


def test_tw1_five_names_who_plays_next_and_play_continues_from_them() -> None:
    """«5, target: pick an arbitrary player to play next. Play continues from that player,
    going in the same direction along the circle.»; [TW2] «The next player will be the one
    who plays next to the specified player, rather than the player who plays 5.»"""
    s = pos("TW", FOUR, total=30)
    assert {"5S>2", "5S>3", "5S>4"} <= legal(s)
    ev = play(s, "5S>3")
    assert s.total == 30 and s.turn == 2
    assert [(e.seat, e.target) for e in of(ev, E.Named)] == [(0, 2)]
    play(s, "7H")
    assert s.turn == 3


def test_o31_the_five_may_not_name_yourself() -> None:
    """O31 REC: no self-target (poker99 «cannot target myself»; everything2 «not himself»)."""
    s = pos("TW", FOUR, total=30)
    assert "5S>1" not in legal(s)
    with pytest.raises(IllegalActionError, match="names yourself"):
        play(s, "5S>1")


def test_o31_alt_naming_yourself_plays_again_after_drawing() -> None:
    s = pos("TW", FOUR, total=30, changes={"name_self": True})
    assert "5S>1" in legal(s)
    play(s, "5S>1")
    assert s.turn == 0 and len(s.hands[0]) == 5


def test_o31_with_two_players_the_five_names_the_opponent() -> None:
    """O31 REC: with 2 players the 5 names the opponent, so 4 = 5 = J."""
    s = pos("TW", FOUR[:2], total=30)
    assert {a for a in legal(s) if a.startswith("5S")} == {"5S>2"}


def test_the_five_needs_a_name() -> None:
    s = pos("TW", FOUR, total=30)
    with pytest.raises(ChoiceRequiredError, match="5S>2 or 5S>3 or 5S>4"):
        play(s, "5S")


def test_the_five_cannot_name_a_player_who_is_out() -> None:
    s = pos("TW", FOUR, total=30, out_of_game=[3], lives=[1, 1, 0, 1])
    assert "5S>3" not in legal(s) and "5S>4" in legal(s)
    with pytest.raises(IllegalActionError, match="not in the hand"):
        play(s, "5S>3")


def test_tw2_specials_are_always_playable() -> None:
    """«If all of player's normal cards will cause the current total to exceed 99 when
    played, and the player doesn't have any special cards, the player loses the game.»:
    4/5/J/K/♠A (and 10/Q via their minus) are always playable."""
    for card in ("4S", "5S>2", "JS", "KS", "AS", "10S-10", "QS-20"):
        s = pos("TW", [f"{card_text(card)} 7H 8H 9H 6H", "4C 6C 7C 8C 9C"], total=99)
        assert card in legal(s)


def test_tw1_who_cannot_play_is_out_the_total_is_kept_the_game_goes_on() -> None:
    """«If you have no cards that could keep it less than or equal to 99, you lose. In that
    case, the turn passes to the next player and the game continues until only one player
    remains»; [TW7] «Other players maintain the current value… and continue the game»."""
    s = pos("TW", ["2S 3S 6S 7S 8S", "3C 6C 7C 8C 9C", "4H 6H 7H 8H 9H"], total=97, turn=2)
    assert legal(s) == {"down"}
    ev = play(s, "down")
    assert of(ev, E.PlayerOut) and not of(ev, E.HandEnded) and not of(ev, E.HandStarted)
    assert s.turn == 2 and s.total == 97 and not s.alive[1] and s.outcome is None


def test_o33_the_losers_cards_go_under_the_discard_pile() -> None:
    """O33 REC: the cards go under the discard pile (back at the next reshuffle)."""
    s = pos(
        "TW", ["2S 3S 6S 7S 8S", "3C 6C 7C 8C 9C", "4H 6H 7H 8H 9H"], total=97, turn=2, pile="KD"
    )
    play(s, "down")
    assert s.hands[1] == [] and s.face_down == 5
    assert format_cards(s.pile) == "3C 6C 7C 8C 9C KD"  # the King stays on top
    assert observe(s, 0).pile == (parse_card("KD"),)  # nobody sees them


def test_tw1_the_last_player_remaining_wins() -> None:
    s = pos("TW", ["2S 3S 6S 7S 8S", "3C 6C 7C 8C 9C"], total=97, turn=2)
    play(s, "down")
    assert s.outcome is not None and s.outcome.winners == (0,)


def test_tw1_an_empty_stock_is_the_discard_pile_reshuffled_total_kept() -> None:
    """«When the draw pile runs out, shuffle the discard pile to become the new draw pile.»;
    «保留當前海總值並繼續遊戲» (keep the total). O34 REC: the whole pile."""
    s = pos("TW", ["2S 3S 6S 7S 8S", "3C 6C 7C 8C 9C"], total=40, top="", rest="pile")
    ev = play(s, "2S")
    reshuffled = of(ev, E.StockReshuffled)
    assert reshuffled and not reshuffled[0].kept_top and s.phase == CHANCE
    assert s.total == 42 and s.pile == []


def test_o37_lets_poker_suit_split_is_a_suit_overlay() -> None:
    """O37: «Heart/Diamond 10: add 10», «Heart/Diamond Queen: add 20» as `suit_cards`."""
    s = pos(
        "TW",
        ["10H 10S QD QS 2S", "3C 6C 7C 8C 9C"],
        total=50,
        changes={"suit_cards": {"10H": "+10", "10D": "+10", "QH": "+20", "QD": "+20"}},
    )
    assert {a for a in legal(s) if a[:2] in ("10", "QD", "QS")} == {
        "10H",
        "10S+10",
        "10S-10",
        "QD",
        "QS+20",
        "QS-20",
    }


# everything2 ------------------------------------------------------------------------------


def test_e2_two_or_more_players_four_or_five_cards() -> None:
    """«A fast-paced card game for two or more players, using a standard 52-card deck.»;
    «Players begin with 4 or 5 cards.» (REC 5)."""
    r = preset_rules("E2")
    assert (r.players_min, r.hand_size, r.decks, r.lives) == (2, 5, 1, 1)
    assert load_rules("everything2") == r


def test_e2_normal_cards_add_their_face_value_the_ace_is_one() -> None:
    """«Normal cards add their face value to the sum.» (no Ace of Spades reset here)"""
    s = pos("E2", ["AS 7S 8S 2S 3S", "4C 6C 7C 8C 9C"], total=40)
    play(s, "AS")
    assert s.total == 41


def test_e2_fives_name_the_next_player_not_himself() -> None:
    """«Fives allow the player to select the next person to play, not himself. Play then
    continues normally from that person.»"""
    s = pos("E2", FOUR, total=30)
    assert "5S>1" not in legal(s)
    play(s, "5S>4", "7D")
    assert s.turn == 0


@pytest.mark.parametrize(
    "card,after",
    [("JS", 50), ("QS+20", 70), ("QS-20", 30), ("KS", 99), ("10S+10", 60), ("10S-10", 40)],
)
def test_e2_tens_jacks_queens_kings(card: str, after: int) -> None:
    """«Tens add or subtract 10, at the player's choice.»; «Jacks add 0. (Effectively a skip
    of turn.)»; «Queens add or subtract 20, at the player's choice.»; «Kings set the sum to
    99, regardless of what it was before.»"""
    s = pos("E2", [f"{card_text(card)} 7S 8S 2S 3S", "4C 6C 7C 8C 9C"], total=50)
    play(s, card)
    assert s.total == after and s.turn == 1


def test_e2_the_sum_cannot_go_below_zero() -> None:
    """«The sum cannot go below 0.» O40 REC clamp."""
    s = pos("E2", ["QS 7S 8S 2S 3S", "4C 6C 7C 8C 9C"], total=5)
    play(s, "QS-20")
    assert s.total == 0


def test_o40_alt_below_zero_is_illegal() -> None:
    s = pos("E2", ["QS 7S 8S 2S 3S", "4C 6C 7C 8C 9C"], total=5, changes={"below_zero": "illegal"})
    assert "QS-20" not in legal(s) and "QS+20" in legal(s)


@pytest.mark.parametrize("card", ["4S", "5S>2", "JS"])
def test_e2_with_two_players_four_five_and_jack_do_the_same(card: str) -> None:
    """«When there are only two players, fours, fives, and Jacks all have essentially the
    same effect.»"""
    s = pos("E2", [f"{card_text(card)} 7S 8S 2S 3S", "4C 6C 7C 8C 9C"], total=50)
    play(s, card)
    assert s.total == 50 and s.turn == 1


def test_e2_who_cannot_play_loses() -> None:
    """«A player loses when he cannot play a card without going over 99.»"""
    s = pos("E2", ["2S 3S 6S 7S 8S", "3C 6C 7C 8C 9C", "4H 6H 7H 8H 9H"], total=98)
    ev = play(s, "down")
    assert of(ev, E.PlayerOut) and s.total == 98 and s.turn == 1


def test_e2_reshuffle_does_not_reset_the_sum() -> None:
    """«The central pile may be reshuffled into the draw pile, but the sum is not reset.»"""
    s = pos("E2", ["2S 3S 6S 7S 8S", "3C 6C 7C 8C 9C"], total=60, top="", rest="pile")
    ev = play(s, "2S")
    assert of(ev, E.StockReshuffled) and s.total == 62


@pytest.mark.parametrize("card", ["4S", "5S>2", "JS"])
def test_o31_with_two_players_four_five_and_jack_do_the_same(card: str) -> None:
    """O31 REC: «with 2 players the 5 names the opponent (so 4 = 5 = J, as everything2
    says)»."""
    s = pos("TW", [f"{card_text(card)} 7S 8S 2S 3S", "4C 6C 7C 8C 9C"], total=50)
    play(s, card)
    assert s.total == 50 and s.turn == 1
