"""IS, Icelandic 99 reconstructed from its one implementation (FAMILIES.md §6.1, F5a):
the card list, and the Queen's no-draw chain as the REC reads it."""

from __future__ import annotations

import pytest
from tests.rules.helpers import card_text, legal, of, play, pos

from ninetynine import preset_rules
from ninetynine.engine import events as E
from ninetynine.errors import IllegalActionError
from ninetynine.records.position import format_position, parse_position

CHAIN = ["QS 2S 3S 6S 8S", "QC 3C 6C 8C JC", "QH 2H 3H 6H 8H", "2D 3D 6D 8D JD"]


def test_is_marked_as_reconstructed_from_one_implementation() -> None:
    r = preset_rules("IS")
    assert "reconstructed" in r.name.lower() and "BurstBot" in r.source
    assert (r.hand_size, r.lives, r.players_min, r.players_max) == (5, 1, 2, 8)


@pytest.mark.parametrize(
    "card,after",
    [
        ("AS+1", 41),
        ("AS+14", 54),
        ("2S", 42),
        ("3S", 43),
        ("6S", 46),
        ("8S", 48),
        ("JS", 51),
        ("9S", 99),
        ("10S+10", 50),
        ("10S-10", 30),
        ("KS", 40),
        ("4S", 40),
        ("5S", 45),
        ("7S", 47),
        ("QS", 40),
    ],
)
def test_is_card_values(card: str, after: int) -> None:
    """«Normal cards：2, 3, 6, 8, J (11)»; «A - Add 1 or 14 to the total.»; «9 - Set the
    current total to 99 (max).»; «10 - Add or subtract 10 from the current total.»; «K - Skip
    this turn.»; «4 - Reverse…»; «5 - Add 5…»; «7 - Add 7…»; «Q» adds nothing."""
    s = pos("IS", [f"{card_text(card)} 2C 3C 6C 8C", "2D 3D 6D 8D JD", "2H 3H 6H 8H JH"], total=40)
    play(s, card)
    assert s.total == after


def test_is_five_adds_five_and_skips_the_next_player() -> None:
    """«5 - Add 5 to the total, and skip the next player.»"""
    s = pos("IS", ["5S 2S 3S 6S 8S", *CHAIN[1:]], total=10)
    ev = play(s, "5S")
    assert s.total == 15 and s.turn == 2 and of(ev, E.Skipped)


def test_is_seven_adds_seven_and_reverses() -> None:
    """«7 - Add 7 to the total, and reverse the current turn direction.»"""
    s = pos("IS", ["7S 2S 3S 6S 8S", *CHAIN[1:]], total=10)
    play(s, "7S")
    assert s.total == 17 and s.direction == -1 and s.turn == 3


def test_is_king_passes_and_four_reverses() -> None:
    """«K - Skip this turn.»; «4 - Reverse the current turn direction»."""
    s = pos("IS", ["KS 4S 3S 6S 8S", *CHAIN[1:]], total=99)
    play(s, "KS")
    assert s.turn == 1 and s.total == 99
    s = pos("IS", ["KS 4S 3S 6S 8S", *CHAIN[1:]], total=99)
    play(s, "4S")
    assert s.turn == 3 and s.direction == -1


def test_is_four_nine_ten_queen_king_are_always_playable() -> None:
    """`SpecialRanks[Icelandic] = { 4, 9, 10, 12, 13 }`."""
    s = pos("IS", ["4S 9S 10S QS KS", *CHAIN[1:3]], total=99)
    assert legal(s) == {"4S", "9S", "10S-10", "QS", "KS"}


def test_is_who_cannot_play_is_out() -> None:
    """«If all of player's normal cards will cause the current total to exceed 99 when
    played, and the player doesn't have any special cards, the player loses the game.»"""
    s = pos("IS", ["2S 3S 6S 8S JS", "2C 3C 6C 8C JC", "2H 3H 6H 8H JH"], total=98)
    ev = play(s, "down")
    assert of(ev, E.PlayerOut) and s.turn == 1 and s.total == 98


def test_is_a_queen_the_next_player_plays_without_drawing() -> None:
    """«Q - The next player cannot draw a new card after playing a card…»"""
    s = pos("IS", CHAIN, total=10)
    ev = play(s, "QS")
    assert len(s.hands[0]) == 5  # the Queen's player draws as usual
    assert [(e.seat, e.count) for e in of(ev, E.ChainFaced)] == [(1, 1)]
    assert s.chain == 1 and s.turn == 1
    ev = play(s, "3C")
    assert len(s.hands[1]) == 4 and not of(ev, E.CardDrawn)
    assert s.turn == 2 and s.chain == 0 and s.total == 13


def test_is_two_queens_the_second_next_plays_two_cards_without_drawing() -> None:
    """«…unless the next player also plays a Queen. In that case, the second next player
    will have to play 2 cards without picking up 2 new cards…»"""
    s = pos("IS", CHAIN, total=10)
    play(s, "QS")
    ev = play(s, "QC")
    assert len(s.hands[1]) == 5 and of(ev, E.CardDrawn)  # the answering Queen draws
    assert s.turn == 2 and s.chain == 2
    ev = play(s, "2H")
    assert s.turn == 2 and s.plays_left == 1 and of(ev, E.MustPlay)
    play(s, "3H")
    assert s.turn == 3 and s.plays_left == 0 and len(s.hands[2]) == 3 and s.total == 15


def test_is_no_second_queen_in_the_middle_of_a_run() -> None:
    """FAMILIES REC: facing a chain of n you play n non-Queen cards, or a Queen."""
    s = pos("IS", CHAIN, total=10)
    play(s, "QS", "QC")
    assert "QH" in legal(s)  # answering the chain: a Queen is fine
    play(s, "2H")
    assert "QH" not in legal(s)
    with pytest.raises(IllegalActionError, match="1 more card"):
        play(s, "QH")


def test_is_each_card_of_the_run_must_be_legal_stuck_part_way_is_out() -> None:
    """REC: each forced card must be legal when it is played; a player who cannot complete
    the n plays (nor play a Queen) is out; our reading: the chain ends with them."""
    s = pos("IS", ["QS 2S 3S 6S 8S", "QC 3C 6C 2C JC", "3H 8H JH 6H 8C", CHAIN[3]], total=94)
    play(s, "QS", "QC")
    play(s, "3H")  # 97: the Eights, the Jack and the Six would all go over
    assert legal(s) == {"down"}
    ev = play(s, "down")
    assert of(ev, E.PlayerOut) and s.chain == 0 and s.plays_left == 0
    assert s.turn == 3
    ev = play(s, "2D")
    assert of(ev, E.CardDrawn)  # the next player plays and draws as usual


def test_is_the_turn_passes_by_the_last_card_of_the_run() -> None:
    """REC: effects apply in order and the turn passes by the last card: a Seven in the run
    reverses, so the last card hands the turn back counter-clockwise."""
    s = pos("IS", ["QS 2S 3S 6S 8S", "QC 3C 6C 8C JC", "7H 2H 3H 6H 8H", CHAIN[3]], total=10)
    play(s, "QS", "QC", "7H")
    assert s.direction == -1 and s.turn == 2
    play(s, "2H")
    assert s.turn == 1


def test_is_a_skip_as_the_last_card_of_the_run() -> None:
    s = pos("IS", ["QS 2S 3S 6S 8S", "QC 3C 6C 8C JC", "2H 5H 3H 6H 8H", CHAIN[3]], total=10)
    play(s, "QS", "QC", "2H", "5H")
    assert s.turn == 0 and s.total == 17


def test_is_with_two_players_the_chain_comes_back() -> None:
    s = pos("IS", CHAIN[:2], total=10)
    play(s, "QS", "3C")
    assert s.turn == 0 and len(s.hands[1]) == 4


@pytest.mark.parametrize("plays", [("QS",), ("QS", "QC"), ("QS", "QC", "2H")])
def test_is_a_chain_in_a_position_round_trips(plays: tuple[str, ...]) -> None:
    s = pos("IS", CHAIN, total=10)
    play(s, *plays)
    text = format_position(s)
    assert ("chain = " in text) != ("plays_left = " in text)
    assert parse_position(text) == s
