"""J (Jaques-style, S004) and J-PURE, J-4TOKEN, J-TEAM, J-REVERSE: Q25-Q31."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from tests.rules.helpers import calls, deal, legal, of, play, pos

from ninetynine import load_rules, new_game, preset_rules
from ninetynine.engine import events as E
from ninetynine.errors import RecordError, RulesError
from ninetynine.rules.cards import parse_card, parse_cards

THREE = ["KS 9S 10S", "5C 6C 7C", "5H 6H 7H"]


# The fine points ------------------------------------------------------------------------------


def test_j_nine_holds() -> None:
    s = pos("J", THREE, total=57)
    ev = play(s, "9S")
    assert s.total == 57 and s.turn == 1 and calls(ev) == ["57"]


def test_j_ten_from_five_is_zero() -> None:
    s = pos("J", THREE, total=5)
    assert "10S" in legal(s)
    play(s, "10S")
    assert s.total == 0


def test_j_king_at_99_is_legal_and_keeps_99() -> None:
    s = pos("J", THREE, total=99)
    assert legal(s) == {"KS", "9S", "10S"}
    play(s, "KS")
    assert s.total == 99 and s.turn == 1


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
        ("9S", 10, 10),
        ("10S", 30, 20),
        ("JS", 10, 20),
        ("QS", 10, 20),
        ("KS", 10, 99),
    ],
)
def test_j_card_values(card: str, total: int, expected: int) -> None:
    name = card.split("+")[0]
    s = pos("J", [f"{name} 2C 3C", "5H 6H 7H", "5D 6D 7D"], total=total)
    play(s, card)
    assert s.total == expected


def test_j_always_clockwise() -> None:
    r = preset_rules("J")
    assert not any(e.reverse for e in r.cards)
    s = pos("J", ["4S 2C 3C", "5H 6H 7H", "5D 6D 7D"], total=10)
    play(s, "4S")
    assert s.turn == 1 and s.direction == 1


def test_j_must_stay_under_when_possible() -> None:
    s = pos("J", ["8S 2C JC", "5H 6H 7H", "5D 6D 7D"], total=95)
    assert legal(s) == {"2C"}


# No legal card: must play one and lose the round (Q27) -----------------------------------------


def test_j_forced_card_loses_the_round() -> None:
    s = pos("J", ["8S 7C JC", "5H 6H 7H", "5D 6D 7D"], total=95)
    assert legal(s) == {"8S", "7C", "JC"}
    assert "down" not in legal(s)
    ev = play(s, "7C")
    assert calls(ev) == ["102 — bust"]
    assert s.lives == [2, 3, 3] and s.pot == 1  # a token to the central discard
    assert of(ev, E.HandEnded)[0].loser == 0


def test_j_forced_card_alt_auto() -> None:
    s = pos("J", ["8S 7C JC", "5H 6H 7H", "5D 6D 7D"], total=95, changes={"forced_card": "auto"})
    assert len(legal(s)) == 1


def test_j_next_round_from_stock_left_of_loser() -> None:
    s = pos(
        "J",
        ["5H 6H 7H", "8S 7C JC", "5D 6D 7D"],
        total=95,
        turn=2,
        top="2D 3D 4D 2H 3H 4H 2S 3S 4S",
    )
    old_hands = s.hands[0] + s.hands[1] + s.hands[2]
    ev = play(s, "JC")
    assert of(ev, E.HandStarted) and not s.is_chance  # dealt from the draw pile: no shuffle
    assert s.total == 0 and s.turn == 2 and s.starter == 2
    dealt = sorted(c for h in s.hands for c in h)
    assert dealt == sorted(parse_cards("2D 3D 4D 2H 3H 4H 2S 3S 4S"))
    assert Counter(old_hands) - Counter([parse_card("JC")]) <= Counter(s.pile)


def test_j_next_round_left_of_eliminated_loser() -> None:
    s = pos(
        "J", ["5H 6H 7H", "8S 7C JC", "5D 6D 7D", "2C 3C 4C"], total=95, turn=2, lives=[3, 1, 3, 3]
    )
    play(s, "JC")
    assert not s.alive[1] and s.starter == 2 and s.turn == 2
    assert s.hands[1] == []


def test_j_next_round_stock_too_short_full_reshuffle() -> None:
    s = pos(
        "J", ["5H 6H 7H", "8S 7C JC", "5D 6D 7D"], total=95, turn=2, top="2D 3D 4D 2H", rest="pile"
    )
    play(s, "JC")
    req = s.chance_request()
    assert s.is_chance and req is not None and len(req.cards) == 52
    deal(s)
    assert all(len(h) == 3 for h in s.hands) and s.turn == 2


def test_j_alt_always_full_reshuffle() -> None:
    s = pos(
        "J",
        ["5H 6H 7H", "8S 7C JC", "5D 6D 7D"],
        total=95,
        turn=2,
        changes={"new_round_deal": "full_reshuffle"},
    )
    play(s, "JC")
    req = s.chance_request()
    assert req is not None and len(req.cards) == 52


def test_j_alt_refill_stock_keeping_top() -> None:
    s = pos(
        "J",
        ["5H 6H 7H", "8S 7C JC", "5D 6D 7D"],
        total=95,
        turn=2,
        top="2D 3D 4D 2H",
        rest="pile",
        changes={"new_round_deal": "from_stock_keep_top"},
    )
    play(s, "JC")
    req = s.chance_request()
    assert req is not None and req.kind == "topup"
    assert parse_card("JC") not in req.cards  # the top card stays
    deal(s)
    assert all(len(h) == 3 for h in s.hands)
    assert s.pile == parse_cards("JC")


def test_j_mid_round_stock_out_keeps_top() -> None:
    s = pos("J", THREE, total=30, top="", rest="pile")
    ev = play(s, "9S")
    assert of(ev, E.StockReshuffled)[0].kept_top and s.pile == parse_cards("9S")


def test_j_empty_draw_pile_and_one_discard_play_short() -> None:
    # Q28: only reachable in an edited position: nothing at all to reshuffle
    s = pos("J", ["KS 9S", "5C 6C 7C", "5H 6H 7H"], total=30, top="", rest="pile")
    s.hands[1], s.pile = s.hands[1] + s.pile, []  # every other card is held
    ev = play(s, "9S")
    assert of(ev, E.DrawSkipped) and len(s.hands[0]) == 1 and s.turn == 1


def test_j_empty_draw_alt_end_round() -> None:
    s = pos(
        "J",
        ["KS 9S", "5C 6C 7C", "5H 6H 7H"],
        total=30,
        top="",
        rest="pile",
        changes={"empty_draw": "end_round"},
    )
    s.hands[1], s.pile = s.hands[1] + s.pile, []  # every other card is held
    ev = play(s, "9S")
    assert of(ev, E.HandEnded)[0].loser is None
    assert s.lives == [3, 3, 3]


def test_j_last_with_a_token_wins() -> None:
    s = pos("J", ["5H 6H 7H", "8S 7C JC"], total=95, turn=2, lives=[2, 1])
    ev = play(s, "JC")
    assert s.is_over and s.outcome is not None and s.outcome.winners == (0,)
    assert of(ev, E.GameOver)


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_j_two_to_five(n: int) -> None:
    s = new_game(preset_rules("J"), n, first=n - 1)
    s.apply(s.sample_chance(random.Random(n)))
    assert all(len(h) == 3 for h in s.hands) and s.turn == n - 1
    assert all(s.seat_lives(i) == 3 for i in range(n)) and s.decks == 1


@pytest.mark.parametrize("n", [1, 6])
def test_j_player_range(n: int) -> None:
    with pytest.raises(RecordError):
        new_game(preset_rules("J"), n)


# J-PURE (Q31) ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "card,expected",
    [
        ("AS+1", 11),
        ("AS+11", 21),
        ("4S", 14),
        ("9S", 19),
        ("10S", 20),
        ("JS", 20),
        ("QS", 20),
        ("KS", 20),
        ("2S", 12),
    ],
)
def test_j_pure_face_values(card: str, expected: int) -> None:
    s = pos("J-PURE", [f"{card.split('+')[0]} 2C 3C", "5H 6H 7H"], total=10)
    play(s, card)
    assert s.total == expected and s.direction == 1


def test_j_pure_legality_inherits_j() -> None:
    s = pos("J-PURE", ["9S 2C KC", "5H 6H 7H"], total=95)
    assert legal(s) == {"2C"}
    s = pos("J-PURE", ["9S 7C KC", "5H 6H 7H"], total=95)
    assert legal(s) == {"9S", "7C", "KC"}


# J-4TOKEN ----------------------------------------------------------------------------------


def test_j_4token() -> None:
    assert preset_rules("J-4TOKEN").lives_for(5) == 4
    assert load_rules({"preset": "J", "overlays": ["J-4TOKEN"]}).lives == 4


# J-TEAM (Q29) ------------------------------------------------------------------------------


def test_j_team_pools_and_partners() -> None:
    s = new_game(preset_rules("J-TEAM"), 4)
    assert s.lives == [6, 6]
    assert s.side(0) == s.side(2) and s.side(1) == s.side(3) and s.side(0) != s.side(1)
    r = load_rules({"preset": "J", "overlays": ["J-TEAM", "J-4TOKEN"]})
    assert new_game(r, 4).lives == [8, 8]
    r3 = load_rules({"preset": "J-TEAM", "rules": {"team_lives": 3}})
    assert new_game(r3, 4).lives == [3, 3]


def test_j_team_needs_four() -> None:
    for n in (2, 3, 5):
        with pytest.raises(RecordError):
            new_game(preset_rules("J-TEAM"), n)
    with pytest.raises(RulesError, match="players_max"):
        load_rules({"preset": "J-TEAM", "rules": {"players_max": 5}})
    with pytest.raises(RulesError, match="4 players"):
        load_rules({"preset": "J", "rules": {"teams": True}})


def test_j_team_either_partner_busting_costs_the_pool() -> None:
    s = pos("J-TEAM", ["5H 6H 7H", "8S 7C JC", "5D 6D 7D", "2S 3S 4S"], total=95, turn=2)
    play(s, "JC")
    assert s.lives == [6, 5] and s.seat_lives(3) == 5
    assert s.starter == 2  # left of the busting player


def test_j_team_pool_empty_other_team_wins() -> None:
    s = pos(
        "J-TEAM", ["5H 6H 7H", "8S 7C JC", "5D 6D 7D", "2S 3S 4S"], total=95, turn=2, lives=[2, 1]
    )
    ev = play(s, "JC")
    assert s.is_over and s.outcome is not None
    assert s.outcome.winners == (0, 2) and s.outcome.reason == "last_team"
    assert sorted(e.seat for e in of(ev, E.PlayerOut)) == [1, 3]


# J-REVERSE (Q30) ---------------------------------------------------------------------------


def test_j_reverse_four_reverses_adds_zero() -> None:
    s = pos("J-REVERSE", ["4S 2C 3C", "5H 6H 7H", "5D 6D 7D"], total=10)
    ev = play(s, "4S")
    assert s.total == 10 and s.direction == -1 and s.turn == 2 and of(ev, E.Reversed)


def test_j_reverse_two_players_no_effect_on_turn() -> None:
    s = pos("J-REVERSE", ["4S 2C 3C", "5H 6H 7H"], total=10)
    play(s, "4S")
    assert s.turn == 1


def test_j_reverse_two_players_alt_play_again() -> None:
    s = pos(
        "J-REVERSE",
        ["4S 2C 3C", "5H 6H 7H"],
        total=10,
        changes={"two_player_reverse": "play_again"},
    )
    play(s, "4S")
    assert s.turn == 0


def test_j_reverse_direction_resets_each_round() -> None:
    s = pos("J-REVERSE", ["4S 2C 3C", "8S 7C JC", "5D 6D 7D"], total=95, direction="ccw", turn=2)
    play(s, "JC")
    assert s.direction == 1


def test_j_empty_draw_alt_full_reshuffle() -> None:
    s = pos(
        "J",
        ["KS 9S", "5C 6C 7C", "5H 6H 7H"],
        total=30,
        top="",
        rest="pile",
        changes={"empty_draw": "full_reshuffle"},
    )
    s.hands[1], s.pile = s.hands[1] + s.pile, []  # every other card is held
    ev = play(s, "9S")
    assert of(ev, E.StockReshuffled) and s.is_chance
    deal(s)
    assert len(s.hands[0]) == 2 and s.total == 30 and s.turn == 1
