"""G (Get Out of 99, S003): the reconstructed card table (§3) and Q01-Q09."""

from __future__ import annotations

import random

import pytest
from tests.rules.helpers import calls, legal, of, play, pos

from ninetynine import load_rules, new_game, preset_rules
from ninetynine.engine import events as E
from ninetynine.errors import RecordError, RulesError
from ninetynine.rules.cards import parse_card, parse_cards

THREE = ["AS 10S 4S 2S", "5C 6C 7C 8C", "5H 6H 7H 8H"]


@pytest.mark.parametrize(
    "card,total,expected",
    [
        ("AS+1", 10, 11),
        ("AS+11", 10, 21),
        ("2S", 10, 12),
        ("3S", 10, 13),
        ("4S", 10, 14),
        ("5S", 10, 15),
        ("6S", 10, 16),
        ("7S", 10, 17),
        ("8S", 10, 18),
        ("9S", 12, 99),
        ("9S", 99, 99),
        ("10S+10", 10, 20),
        ("10S-10", 30, 20),
        ("10S-10", 5, 0),
        ("JS", 10, 20),
        ("QS", 10, 20),
        ("KS", 95, 95),
    ],
)
def test_g_card_values(card: str, total: int, expected: int) -> None:
    name = card.split("+")[0].split("-")[0] if card[0] in "A1" else card
    s = pos("G", [f"{name} 2C 3C 4C", "5H 6H 7H 8H", "5D 6D 7D 8D"], total=total)
    play(s, card)
    assert s.total == expected


def test_g_king_reverses_and_adds_nothing() -> None:
    s = pos("G", ["KS 2C 3C 4C", "5H 6H 7H 8H", "5D 6D 7D 8D"], total=95)
    ev = play(s, "KS")
    assert s.total == 95 and s.direction == -1 and s.turn == 2 and of(ev, E.Reversed)


def test_g_tip_thresholds() -> None:
    # «Above 91, so does a face-value 8»; a Jack at 89 makes 99 (the tip is off by one, Q02)
    s = pos("G", ["8S JS 2C 3C", "5H 6H 7H 8H", "5D 6D 7D 8D"], total=91)
    play(s, "8S")
    assert s.total == 99
    s = pos("G", ["8S JS 2C 3C", "5H 6H 7H 8H", "5D 6D 7D 8D"], total=89)
    play(s, "JS")
    assert s.total == 99


def test_g_alt_jack_queen_eleven() -> None:
    s = pos(
        "G",
        ["8S JS 2C 3C", "5H 6H 7H 8H", "5D 6D 7D 8D"],
        total=89,
        changes={"cards": {"J": "+11", "Q": "+11"}},
    )
    play(s, "JS")
    assert s.total == 0 and s.lives[0] == 2  # 89 + 11 = 100: a bust


def test_g_any_card_is_legal() -> None:
    s = pos("G", ["8S JS 9S 3C", "5H 6H 7H 8H", "5D 6D 7D 8D"], total=95)
    assert legal(s) == {"8S", "JS", "9S", "3C"}


def test_g_alt_must_avoid_bust() -> None:
    s = pos(
        "G", ["8S JS 9S 3C", "5H 6H 7H 8H", "5D 6D 7D 8D"], total=95, changes={"may_bust": False}
    )
    assert legal(s) == {"9S", "3C"}


def test_g_no_safe_card_must_play_one() -> None:
    s = pos("G", ["8S JS QS 7C", "5H 6H 7H 8H", "5D 6D 7D 8D"], total=95)
    assert legal(s) == {"8S", "JS", "QS", "7C"}


def test_g_bust_life_reset_draw_and_next_in_direction() -> None:
    s = pos("G", ["8S JS QS 7C", "5H 6H 7H 8H", "5D 6D 7D 8D"], total=95, direction="ccw", top="2D")
    ev = play(s, "JS")
    assert s.lives == [2, 3, 3]
    assert s.total == 0 and s.direction == -1
    assert s.turn == 2  # the next player in the current direction continues from 0
    assert len(s.hands[0]) == 4 and parse_card("2D") in s.hands[0]  # Q03: the buster draws
    assert not s.is_chance and not of(ev, E.HandEnded)  # no new deal
    assert calls(ev) == ["105 — bust"]
    assert of(ev, E.TotalReset)[0].total == 0
    assert s.pile[-1] == parse_card("JS")  # Q06: only the count resets


def test_g_alt_no_draw_after_bust() -> None:
    s = pos(
        "G",
        ["8S JS QS 7C", "5H 6H 7H 8H", "5D 6D 7D 8D"],
        total=95,
        changes={"draw_after_bust": False},
    )
    play(s, "JS")
    assert len(s.hands[0]) == 3 and s.turn == 1


def test_g_alt_clear_pile_on_reset() -> None:
    s = pos(
        "G",
        ["8S JS QS 7C", "5H 6H 7H 8H", "5D 6D 7D 8D"],
        total=95,
        pile="2D 3D",
        changes={"clear_pile_on_reset": True},
    )
    ev = play(s, "JS")
    assert s.pile == [] and of(ev, E.TotalReset)[0].pile_cleared
    assert sorted(s.out) == sorted(parse_cards("2D 3D JS"))


def test_g_elimination_mid_match_skipped_total_keeps_going() -> None:
    s = pos(
        "G",
        ["8S JS QS 7C", "5H 6H 7H 8H", "5D 6D 7D 8D", "2H 3H 4H 9H"],
        total=95,
        lives=[3, 1, 3, 3],
        turn=2,
    )
    ev = play(s, "8H")
    assert not s.alive[1] and of(ev, E.PlayerOut)
    assert s.total == 0 and s.turn == 2 and len(s.hands[1]) == 3  # no draw when out
    play(s, "5D", "2H", "7C")
    assert s.turn == 2  # seat 1 is skipped
    assert s.total == 14


def test_g_last_with_a_life_wins() -> None:
    s = pos(
        "G",
        ["8S JS QS 7C", "5H 6H 7H 8H", "5D 6D 7D 8D"],
        total=95,
        lives=[1, 1, 0],
        out_of_game=[3],
    )
    play(s, "JS")
    assert s.is_over and s.outcome is not None and s.outcome.winners == (1,)


def test_g_king_with_two_left_passes_to_other() -> None:
    s = pos("G", ["KS JS QS 7C", "5H 6H 7H 8H", "5D 6D 7D 8D"], total=40, out_of_game=[2])
    ev = play(s, "KS")
    assert s.turn == 2 and not of(ev, E.PlaysAgain)


def test_g_king_with_two_left_alt_play_again() -> None:
    s = pos(
        "G",
        ["KS JS QS 7C", "5H 6H 7H 8H", "5D 6D 7D 8D"],
        total=40,
        out_of_game=[2],
        changes={"two_player_reverse": "play_again"},
    )
    play(s, "KS")
    assert s.turn == 0


def test_g_stock_out_reshuffles_except_top() -> None:
    s = pos("G", THREE, total=30, top="", rest="pile")
    ev = play(s, "2S")
    assert of(ev, E.StockReshuffled)[0].kept_top
    assert s.pile == parse_cards("2S") and s.total == 32


def test_g_bust_on_empty_stock_keeps_total_zero() -> None:
    s = pos("G", ["8S JS QS 7C", "5H 6H 7H 8H", "5D 6D 7D 8D"], total=95, top="", rest="pile")
    play(s, "JS")
    assert s.is_chance and s.total == 0 and s.pile == parse_cards("JS")


@pytest.mark.parametrize("n", [3, 5, 8])
def test_g_three_to_eight_players_four_cards_three_lives(n: int) -> None:
    s = new_game(preset_rules("G"), n)
    s.apply(s.sample_chance(random.Random(n)))
    assert s.decks == 1 and all(len(h) == 4 for h in s.hands)
    assert all(s.seat_lives(i) == 3 for i in range(n)) and s.turn == 0


@pytest.mark.parametrize("n", [2, 9])
def test_g_player_range(n: int) -> None:
    with pytest.raises(RecordError):
        new_game(preset_rules("G"), n)


@pytest.mark.parametrize("match", [1, 2, 3])
def test_g_seat_k_opens_match_k(match: int) -> None:
    s = new_game(preset_rules("G"), 3, first=match - 1)
    s.apply(s.sample_chance(random.Random(0)))
    assert s.turn == match - 1


def test_g_direction_persists_through_busts() -> None:
    s = pos("G", ["KS JS QS 7C", "5H 6H 7H 8H", "5D 6D 7D 8D"], total=95)
    play(s, "KS")
    assert s.direction == -1 and s.turn == 2
    play(s, "8D")
    assert s.total == 0 and s.direction == -1 and s.turn == 1


def test_g_alt_bust_call_only_zero() -> None:
    # Q05 Alt: announce only "0"
    s = pos(
        "G", ["8S JS QS 7C", "5H 6H 7H 8H", "5D 6D 7D 8D"], total=95, changes={"bust_call": "0"}
    )
    ev = play(s, "JS")
    assert calls(ev) == ["0"] and s.total == 0


def test_g_sit_out_is_rejected_when_a_bust_plays_a_card() -> None:
    # the others would go on "with the same total", which is over the limit
    with pytest.raises(RulesError, match="after_bust"):
        load_rules({"preset": "G", "rules": {"after_bust": "sit_out"}})


def test_g_alt_cleared_pile_comes_back_at_the_reshuffle() -> None:
    # the cleared pile is played cards too: a stock-out reshuffles it with the discards
    # (keeping the top card), so no card stays out of the game for good
    s = pos(
        "G",
        THREE,
        total=30,
        out="2D 3D",
        top="",
        rest="pile",
        changes={"clear_pile_on_reset": True},
    )
    ev = play(s, "2S")
    assert of(ev, E.StockReshuffled)[0].kept_top and s.pile == parse_cards("2S")
    assert s.out == [] and set(parse_cards("2D 3D")) <= set(s.stock)
