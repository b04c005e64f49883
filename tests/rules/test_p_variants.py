"""The S000 variations of P (MATRIX §2b, tables C2/C3) except ONLINE and BORDERS."""

from __future__ import annotations

import pytest
from tests.rules.helpers import calls, deal, legal, of, play, pos

from ninetynine import load_rules, new_game, preset_rules
from ninetynine.engine import events as E
from ninetynine.engine.actions import Reinsert, parse_action
from ninetynine.engine.events import narrate
from ninetynine.engine.state import State
from ninetynine.errors import IllegalActionError, RecordError, Refusal
from ninetynine.records.match import replay
from ninetynine.records.position import format_position, parse_position
from ninetynine.records.record import Record, format_record, parse_record
from ninetynine.rules.cards import parse_card, parse_cards
from ninetynine.rules.describe import rules_text
from ninetynine.rules.settings import TwoPlayerReverse

P_FAMILY = [
    "P",
    "P-NICKELS",
    "P-SEVEN",
    "P-DOLLAR",
    "P-CONTINUE",
    "P-SWAP-9K",
    "P-SWAP-49",
    "P-TEN-MINUS",
    "P-ACE-1-11",
    "P-2P-AGAIN",
    "P-1950",
    "P-BORDERS",
    "P-69",
    "P-UPCARD",
    "P-UPCARD-INSTANT",
    "P-ONLINE",
    "P-ONLINE-TEACH",
]


# Table size, hands and lives ---------------------------------------------------------------


@pytest.mark.parametrize(
    "pid,hand,lives,big_lives",
    [
        ("P", 3, 5, 3),
        ("P-NICKELS", 5, 4, 4),
        ("P-SEVEN", 7, 1, 1),
        ("P-DOLLAR", 3, 4, 4),
        ("P-CONTINUE", 3, 5, 3),
        ("P-SWAP-9K", 3, 5, 3),
        ("P-SWAP-49", 3, 5, 3),
        ("P-TEN-MINUS", 3, 5, 3),
        ("P-ACE-1-11", 3, 5, 3),
        ("P-2P-AGAIN", 3, 5, 3),
        ("P-1950", 3, 3, 3),
        ("P-69", 3, 5, 3),
        ("P-UPCARD", 3, 1, 1),
        ("P-UPCARD-INSTANT", 3, 1, 1),
        ("P-ONLINE", 3, 9, 9),
        ("P-ONLINE-TEACH", 3, 9, 9),
    ],
)
def test_hand_size_lives_and_big_table(pid: str, hand: int, lives: int, big_lives: int) -> None:
    r = preset_rules(pid)
    assert r.hand_size == hand
    assert r.lives_for(4) == lives and r.decks_for(4) == 1
    # more than 4 players: two decks (every P variant), and the variant's own lives
    assert r.lives_for(5) == big_lives and r.decks_for(5) == 2


@pytest.mark.parametrize("pid", P_FAMILY)
def test_p_family_deals_its_hand_size(pid: str) -> None:
    import random

    r = preset_rules(pid)
    for n in (2, 4, 6):
        s = new_game(r, n)
        s.apply(s.sample_chance(random.Random(n)))
        while s.is_chance:  # the up-card may be returned
            s.apply(s.sample_chance(random.Random(n)))
        if s.is_over:  # an instant hand at the deal
            continue
        assert all(len(h) == r.hand_size for h in s.hands)
        assert s.turn == 0 and s.dealer == n - 1


@pytest.mark.parametrize("pid", ["P-NICKELS", "P-SEVEN"])
def test_hand_size_kept_by_drawing(pid: str) -> None:
    r = preset_rules(pid)
    spades = ["2S", "3S", "5S", "6S", "7S", "8S", "2H"]
    clubs = ["2C", "3C", "5C", "6C", "7C", "8C", "2D"]
    hands = [" ".join(spades[: r.hand_size]), " ".join(clubs[: r.hand_size])]
    s = pos(pid, hands, total=10)
    play(s, "2S")
    assert len(s.hands[0]) == r.hand_size


# P-SEVEN / P-UPCARD: a bust eliminates at once; the hand ends (Q50) ---------------------------


def test_seven_cards_bust_eliminates_and_survivors_redeal() -> None:
    s = pos(
        "P-SEVEN",
        ["2S 3S 5S 6S 7S 8S 2H", "2C 3C 5C 6C 7C 8C 2D", "JS QS JH QH JD QD JC"],
        total=99,
        turn=1,
        dealer=3,
    )
    ev = play(s, "down")
    assert not s.alive[0] and of(ev, E.PlayerOut)
    assert s.is_chance and s.dealer == 1 and s.starter == 2
    deal(s)
    assert s.hands[0] == [] and len(s.hands[1]) == len(s.hands[2]) == 7
    assert s.turn == 2 and s.total == 0


def test_seven_cards_last_two_one_busts_other_wins() -> None:
    s = pos("P-SEVEN", ["2S 3S 5S 6S 7S 8S 2H", "2C 3C 5C 6C 7C 8C 2D"], total=99)
    play(s, "down")
    assert s.is_over and s.outcome is not None and s.outcome.winners == (1,)


# P-DOLLAR: four corners, winner takes every dollar ------------------------------------------


def test_dollar_four_corners_then_out_winner_collects_all() -> None:
    s = pos("P-DOLLAR", ["2S 3S 5S", "2C 3C 6C", "7C 8C 2H"], total=99, lives=[4, 1, 1])
    play(s, "down")
    assert s.lives[0] == 3 and s.alive[0]
    s2 = pos(
        "P-DOLLAR", ["2S 3S 5S", "2C 3C 6C", "7C 8C 2H"], total=99, lives=[1, 4, 0], out_of_game=[3]
    )
    ev = play(s2, "down")
    over = of(ev, E.GameOver)[0]
    assert over.winners == (1,) and over.collects == 3  # one dollar per player


# P-CONTINUE (Q32, Q33) ---------------------------------------------------------------------


def test_continue_buster_sits_out_pile_removed_others_go_on_from_zero() -> None:
    s = pos("P-CONTINUE", ["2S 3S 5S", "2C 3C 6C", "7C 8C 2H"], total=99, turn=1, pile="KD 9D")
    hands_before = [h[:] for h in s.hands]
    ev = play(s, "down")
    assert s.lives[0] == 4 and s.pot == 1
    assert not s.in_hand[0] and s.alive[0] and of(ev, E.SatOut)
    assert s.total == 0 and s.pile == [] and sorted(s.out) == sorted(parse_cards("KD 9D"))
    assert s.turn == 1 and not s.is_chance
    assert s.hands[1:] == hands_before[1:]  # the others keep their cards
    play(s, "2C")
    assert s.total == 2 and s.turn == 2
    play(s, "7C")
    assert s.turn == 1  # seat 0 is skipped for the rest of the hand


def test_continue_hand_ends_when_one_player_left() -> None:
    s = pos(
        "P-CONTINUE",
        ["2S 3S 5S", "2C 3C 6C", "7C 8C 2H"],
        total=99,
        turn=2,
        out_of_hand=[1],
        dealer=3,
    )
    ev = play(s, "down")
    assert of(ev, E.HandEnded) and s.is_chance
    assert s.dealer == 0 and s.starter == 1
    deal(s)
    assert all(s.in_hand) and s.total == 0 and s.turn == 1


def test_continue_stock_out_reshuffles_all_played_cards_keeps_total() -> None:
    s = pos("P-CONTINUE", ["2S 3S 5S", "2C 3C 6C"], total=40, top="", rest="pile", out="KD 9D")
    ev = play(s, "2S")
    re = of(ev, E.StockReshuffled)[0]
    assert not re.kept_top and re.cards == 52 - 6 + 1  # the pile, the removed piles and 2S
    assert s.pile == [] and s.out == []
    deal(s)
    assert s.total == 42 and len(s.hands[0]) == 3


def test_continue_alt_buster_continues_too() -> None:
    s = pos(
        "P-CONTINUE",
        ["2S 3S 5S", "2C 3C 6C", "7C 8C 2H"],
        total=99,
        changes={"after_bust": "reset_all"},
    )
    play(s, "down")
    assert all(s.in_hand) and s.total == 0 and s.turn == 1


def test_continue_alt_stock_keep_top() -> None:
    s = pos(
        "P-CONTINUE",
        ["2S 3S 5S", "2C 3C 6C"],
        total=40,
        top="",
        rest="pile",
        changes={"stock_empty": "reshuffle_keep_top"},
    )
    ev = play(s, "2S")
    assert of(ev, E.StockReshuffled)[0].kept_top and s.pile == parse_cards("2S")


# P-SWAP-9K, P-SWAP-49 (Q51) -------------------------------------------------------------------


def test_swap_9k_nine_sets_99_king_holds_pass_me_by() -> None:
    s = pos("P-SWAP-9K", ["9S KS 2S", "KC 9C 3C", "7C 8C 2H"], total=20)
    ev = play(s, "9S")
    assert s.total == 99 and calls(ev) == ["99"]
    ev = play(s, "KC")
    assert s.total == 99 and s.turn == 2 and s.direction == 1
    assert calls(ev) == ["pass me by"]


def test_swap_49_nine_reverses_four_holds() -> None:
    s = pos("P-SWAP-49", ["9S 4S 2S", "KC 9C 3C", "7C 8C 4H"], total=20)
    ev = play(s, "9S")
    assert s.total == 20 and s.direction == -1 and s.turn == 2
    assert calls(ev) == ["back on you 20"]
    ev = play(s, "4H")
    assert s.total == 20 and s.direction == -1 and s.turn == 1
    assert calls(ev) == ["pass to you 20"]


def test_swap_49_two_players_nine_acts_like_hold() -> None:
    s = pos("P-SWAP-49", ["9S 4S 2S", "KC 9C 3C"], total=20)
    ev = play(s, "9S")
    assert s.turn == 1 and not of(ev, E.PlaysAgain)


# P-TEN-MINUS, P-ACE-1-11 (Q16) -----------------------------------------------------------------


def test_ten_minus_only() -> None:
    s = pos("P-TEN-MINUS", ["10S 2S 3S", "KC 9C 3C"], total=50)
    assert "10S" in legal(s) and not any(a.startswith("10S+") for a in legal(s))
    play(s, "10S")
    assert s.total == 40


def test_ten_minus_below_zero_still_allowed() -> None:
    s = pos("P-TEN-MINUS", ["10S 2S 3S", "KC 9C 3C"], total=4)
    play(s, "10S")
    assert s.total == -6


def test_ace_1_11_is_a_no_op_on_p() -> None:
    assert preset_rules("P-ACE-1-11").cards == preset_rules("P").cards
    assert preset_rules("P-ACE-1-11").replace(
        id="P", name="", description="", source=""
    ) == preset_rules("P").replace(name="", description="", source="")


def test_ace_1_11_overlay_on_k() -> None:
    r = load_rules({"preset": "K", "overlays": ["P-ACE-1-11"]})
    assert r.cards[0].values == (1, 11)
    assert preset_rules("K").cards[0].values == (1,)
    s = pos({"preset": "K", "overlays": ["P-ACE-1-11"]}, ["AS 2S 3S", "KC 9C 3C"], total=50)
    assert {"AS+1", "AS+11"} <= legal(s)


# P-2P-AGAIN (Q17) ---------------------------------------------------------------------------


def test_2p_again_two_players_four_plays_again_after_drawing() -> None:
    s = pos("P-2P-AGAIN", ["4S 2S 3S", "KC 9C 3C"], total=30, top="JD QD")
    ev = play(s, "4S")
    assert s.turn == 0 and of(ev, E.PlaysAgain)
    assert parse_card("JD") in s.hands[0]
    ev = play(s, "JD")  # chaining allowed; a normal card passes
    assert s.turn == 1 and s.total == 40


def test_2p_again_chains() -> None:
    s = pos("P-2P-AGAIN", ["4S 4H 3S", "KC 9C 3C"], total=30, top="JD QD")
    play(s, "4S", "4H")
    assert s.turn == 0


def test_2p_again_three_players_is_an_ordinary_reverse() -> None:
    s = pos("P-2P-AGAIN", ["4S 2S 3S", "KC 9C 3C", "7C 8C 2H"], total=30)
    ev = play(s, "4S")
    assert s.turn == 2 and s.direction == -1 and not of(ev, E.PlaysAgain)


def test_2p_again_alt_draw_later() -> None:
    s = pos(
        "P",
        ["4S 2S 3S", "KC 9C 3C"],
        total=30,
        top="JD QD",
        changes={"two_player_reverse": "play_again_draw_later"},
    )
    play(s, "4S")
    assert s.turn == 0 and len(s.hands[0]) == 2
    play(s, "2S")
    assert len(s.hands[0]) == 3 and s.turn == 1  # both draws at the end
    assert sorted(s.hands[0]) == sorted(parse_cards("3S JD QD"))


# P-2P-AGAIN read as a right (issue 13, 6e): «playing a four entitles the same player to
# play again» -- two_player_reverse = "play_again_optional": the player draws (Q17 REC) and
# may play on or decline with "pass"; the compulsory turn stays the preset's reading.

OPTIONAL = {"two_player_reverse": "play_again_optional"}


def optional(hands: list[str], total: int = 30, top: str = "JD QD", **keys: object) -> State:
    return pos("P-2P-AGAIN", hands, total=total, top=top, changes=OPTIONAL, **keys)


def test_2p_optional_offers_the_extra_turn_after_drawing() -> None:
    s = optional(["4S 2S 3S", "KC 9C 3C"])
    assert "pass" not in legal(s) and not s.may_decline
    ev = play(s, "4S")
    assert s.turn == 0 and s.may_decline and of(ev, E.MayPlayAgain) and not of(ev, E.PlaysAgain)
    assert parse_card("JD") in s.hands[0]  # drew before the extra turn (Q17 REC)
    assert legal(s) == {"2S", "3S", "JD", "pass"}
    assert narrate(of(ev, E.MayPlayAgain)[0]) == "P1 may play again, or decline."


def test_2p_optional_declining_passes_the_turn_at_the_same_total() -> None:
    s = optional(["4S 2S 3S", "KC 9C 3C"])
    play(s, "4S")
    hands, lives = [list(h) for h in s.hands], list(s.lives)
    ev = play(s, "pass")
    assert [type(e) for e in ev] == [E.Declined]
    assert narrate(ev[0]) == "P1 declines the extra turn."
    assert s.turn == 1 and s.total == 30 and not s.may_decline
    assert s.hands == hands and s.lives == lives and s.passes == 0  # no draw, no cost
    assert "pass" not in legal(s)
    play(s, "KC")
    assert s.turn == 0 and "pass" not in legal(s)  # the right lasts one turn


def test_2p_optional_playing_on_works() -> None:
    s = optional(["4S 2S 3S", "KC 9C 3C"])
    play(s, "4S", "JD")
    assert s.turn == 1 and s.total == 40 and not s.may_decline


def test_2p_optional_chains() -> None:
    s = optional(["4S 4H 3S", "KC 9C 3C"])
    ev = play(s, "4S", "4H")
    assert s.turn == 0 and s.may_decline and len(of(ev, E.MayPlayAgain)) == 2
    assert "pass" in legal(s)
    play(s, "pass")
    assert s.turn == 1 and s.total == 30


def test_2p_optional_declines_instead_of_laying_down() -> None:
    """With no safe card on the extra turn the player declines: never made to lay down."""
    s = optional(["4S 7S 8S", "KC 9C 3C"], total=95, top="JD")
    play(s, "4S")
    assert legal(s) == {"pass"}
    play(s, "pass")
    assert s.turn == 1 and s.lives == [5, 5]


def test_2p_optional_a_reverse_that_starts_a_no_draw_run_offers_nothing() -> None:
    """Facing two Icelandic Queens, a reverse starts the run: the run decides the turn."""
    s = pos(
        {"preset": "IS", "rules": {**OPTIONAL, "cards": {"4": "hold reverse"}}},
        ["4S 2S 3S 6S 8S", "4H 6H 7H 8H 9H"],
        total=20,
        chain=2,
    )
    play(s, "4S")
    assert s.turn == 0 and s.plays_left == 1 and not s.may_decline
    assert "pass" not in legal(s)


def test_2p_optional_decline_refused_elsewhere() -> None:
    # three players: the Four is an ordinary reverse, nothing to decline
    s = optional(["4S 2S 3S", "KC 9C 3C", "7C 8C 2H"])
    ev = play(s, "4S")
    assert s.turn == 2 and not s.may_decline and not of(ev, E.MayPlayAgain)
    assert "pass" not in legal(s)
    with pytest.raises(IllegalActionError, match="only declines the extra turn") as e:
        play(s, "pass")
    assert e.value.reason is Refusal.NOT_ALLOWED
    # two players, outside the extra turn
    s = optional(["2S 4S 3S", "KC 9C 3C"])
    with pytest.raises(IllegalActionError):
        play(s, "pass")
    # the compulsory reading (the preset): the extra turn must be played
    s = pos("P-2P-AGAIN", ["4S 2S 3S", "KC 9C 3C"], total=30, top="JD QD")
    play(s, "4S")
    assert s.turn == 0 and not s.may_decline and "pass" not in legal(s)
    with pytest.raises(IllegalActionError):
        play(s, "pass")


def test_2p_optional_with_a_draw_move() -> None:
    s = pos(
        "P-2P-AGAIN",
        ["4S 2S 3S", "KC 9C 3C"],
        total=30,
        top="JD QD",
        changes={**OPTIONAL, "draw": "explicit"},
    )
    play(s, "4S")
    assert s.may_decline and legal(s) == {"draw", "nodraw"}
    play(s, "draw")
    assert s.turn == 0 and "pass" in legal(s)


def test_2p_optional_position_and_record_round_trip() -> None:
    s = optional(["4S 2S 3S", "KC 9C 3C"])
    start = s.clone()
    play(s, "4S")
    text = format_position(s)
    assert "may_decline = true" in text
    assert parse_position(text) == s and format_position(parse_position(text)) == text
    play(s, "pass")
    assert "may_decline" not in format_position(s)
    record = Record(
        start,
        [(0, parse_action("4S")), (0, parse_action("pass")), (1, parse_action("KC"))],
        from_position=True,
    )
    text = format_record(record)
    assert '"1: pass"' in text
    final, events = replay(parse_record(text))
    assert final.turn == 0 and final.total == 99
    assert [type(e) for e in events if isinstance(e, E.Declined)] == [E.Declined]


def test_2p_optional_position_needs_the_setting() -> None:
    with pytest.raises(RecordError, match="may_decline"):
        pos("P-2P-AGAIN", ["4S 2S 3S", "KC 9C 3C"], total=30, may_decline=True)
    with pytest.raises(RecordError, match="may_decline"):
        optional(["4S 2S 3S", "KC 9C 3C", "7C 8C 2H"], may_decline=True)


def test_2p_optional_rules_text() -> None:
    r = load_rules({"preset": "P-2P-AGAIN", "rules": OPTIONAL})
    assert r.two_player_reverse is TwoPlayerReverse.PLAY_AGAIN_OPTIONAL
    assert (
        "you may play again (you draw first) or decline, and the other player is next "
        "at the same total" in rules_text(r)
    )
    assert preset_rules("P-2P-AGAIN").two_player_reverse is TwoPlayerReverse.PLAY_AGAIN


# P-1950 (Q34, Q35) ---------------------------------------------------------------------------


def test_1950_cards() -> None:
    s = pos("P-1950", ["7S 4S KS", "7C 9C 3C", "AH 10H 2H"], total=50)
    ev = play(s, "7S")
    assert s.total == 50 and s.direction == -1 and s.turn == 2
    assert calls(ev) == ["back on you 50"]
    play(s, "10H+10")
    assert s.total == 60 and s.turn == 1
    play(s, "9C")
    assert s.total == 60 and s.turn == 0
    ev = play(s, "4S")
    assert s.total == 64 and s.direction == -1 and calls(ev) == ["64"]
    play(s, "2H", "3C")
    assert s.total == 69 and s.turn == 0
    play(s, "KS")  # the King is a plain 10
    assert s.total == 79


def test_1950_no_card_sets_99() -> None:
    r = preset_rules("P-1950")
    from ninetynine.rules.effects import Kind

    assert all(e.kind is not Kind.SET for e in r.cards)


def test_1950_seven_alt_plus_seven() -> None:
    s = pos(
        "P-1950",
        ["7S 4S KS", "7C 9C 3C", "AH 10H 2H"],
        total=50,
        changes={"cards": {"7": "+7 reverse"}},
    )
    play(s, "7S")
    assert s.total == 57 and s.direction == -1


def test_1950_two_players_seven_acts_like_hold() -> None:
    s = pos("P-1950", ["7S 4S KS", "7C 9C 3C"], total=50)
    play(s, "7S")
    assert s.turn == 1


def test_1950_honour_life_then_out_and_winner_collects_pot() -> None:
    s = pos("P-1950", ["2S 3S 5S", "2C 3C 6C", "7C 8C 2H"], total=99, lives=[1, 3, 3], pot=5)
    ev = play(s, "down")
    assert s.lives[0] == 0 and s.alive[0] and not of(ev, E.PlayerOut)  # on honour
    assert s.pot == 6
    deal(s)
    s2 = pos("P-1950", ["2S 3S 5S", "2C 3C 6C", "7C 8C 2H"], total=99, lives=[0, 0, 3], pot=6)
    ev = play(s2, "down")
    assert not s2.alive[0] and of(ev, E.PlayerOut) and s2.pot == 6
    s3 = pos(
        "P-1950",
        ["2S 3S 5S", "2C 3C 6C", "7C 8C 2H"],
        total=99,
        lives=[0, 3, 0],
        out_of_game=[3],
        pot=8,
    )
    ev = play(s3, "down")
    over = of(ev, E.GameOver)[0]
    assert over.winners == (1,) and over.collects == 8


# P-69 (Q39) -------------------------------------------------------------------------------


def test_69_penny_from_pool_default() -> None:
    s = pos("P-69", ["9S 2S 3S", "KC 9C 3C"], total=60, lives=[3, 5], pot=4)
    ev = play(s, "9S")
    assert s.total == 60  # a hold
    s = pos("P-69", ["9S 2S 3S", "KC 9C 3C"], total=66, lives=[3, 5], pot=4)
    ev = play(s, "3S")
    assert s.total == 69 and s.lives[0] == 4 and s.pot == 3
    assert of(ev, E.SixtyNine) and of(ev, E.LifeGained)


def test_69_empty_pool_gives_nothing() -> None:
    s = pos("P-69", ["3S 2S 4S", "KC 9C 3C"], total=66, lives=[3, 5], pot=0)
    play(s, "3S")
    assert s.lives[0] == 3 and s.pot == 0


def test_69_hold_on_69_does_not_trigger() -> None:
    s = pos("P-69", ["9S 4S 2S", "KC 9C 3C"], total=69, lives=[3, 5], pot=4)
    ev = play(s, "9S")
    assert not of(ev, E.SixtyNine) and s.lives[0] == 3


def test_69_from_above_triggers_by_default() -> None:
    s = pos("P-69", ["10S 4S 2S", "KC 9C 3C"], total=79, lives=[3, 5], pot=4)
    ev = play(s, "10S-10")
    assert s.total == 69 and of(ev, E.SixtyNine) and s.lives[0] == 4


def test_69_alt_from_below_only() -> None:
    s = pos(
        "P-69",
        ["10S 4S 2S", "KC 9C 3C"],
        total=79,
        lives=[3, 5],
        pot=4,
        changes={"rule_69_from": "below"},
    )
    ev = play(s, "10S-10")
    assert not of(ev, E.SixtyNine) and s.lives[0] == 3


def test_69_alt_reset_to_zero() -> None:
    s = pos("P-69", ["3S 2S 4S", "KC 9C 3C"], total=66, changes={"rule_69": "reset_to_zero"})
    ev = play(s, "3S")
    assert calls(ev) == ["69"] and s.total == 0 and s.turn == 1
    assert of(ev, E.TotalReset) and s.pile  # the pile stays


def test_69_alt_others_drink_is_a_notice_only() -> None:
    s = pos("P-69", ["3S 2S 4S", "KC 9C 3C"], total=66, pot=2, changes={"rule_69": "others_drink"})
    ev = play(s, "3S")
    assert of(ev, E.SixtyNine)[0].effect == "others_drink"
    assert s.total == 69 and s.lives == [5, 5] and s.pot == 2


def test_69_penny_from_pool_needs_a_pot() -> None:
    from ninetynine.errors import RulesError

    with pytest.raises(RulesError, match="rule_69"):
        load_rules({"preset": "K", "rules": {"rule_69": "penny_from_pool"}})


# P-UPCARD (Q40, Q41) -----------------------------------------------------------------------


def _upcard_game(
    order: str, players: int = 3, pid: str = "P-UPCARD"
) -> tuple[State, list[E.Event]]:
    s = new_game(preset_rules(pid), players)
    ev = deal(s, order)
    return s, ev


def test_upcard_ordinary_card_starts_count() -> None:
    s, ev = _upcard_game("2S 3S 5S 2C 3C 5C 2H 3H 5H 7D")
    assert s.total == 7 and s.pile == parse_cards("7D") and s.turn == 0
    assert of(ev, E.UpCardTurned)[0].total == 7


@pytest.mark.parametrize("card,total", [("JD", 10), ("QD", 10), ("2D", 2), ("8D", 8), ("6D", 6)])
def test_upcard_jack_queen_ordinary_ten(card: str, total: int) -> None:
    s, _ = _upcard_game(f"2S 3S 5S 2C 3C 5C 2H 3H 5H {card}")
    assert s.total == total


@pytest.mark.parametrize("below_zero,total", [("illegal", 0), ("clamp", 0), ("allow", -10)])
def test_upcard_minus_card_of_a_house_rule(below_zero: str, total: int) -> None:
    # a house rule turns the Ten up (not returned): its -10 cannot start the count below 0
    # where the rules forbid totals below 0
    rules = load_rules(
        {
            "preset": "P-UPCARD",
            "rules": {"upcard_special": ["A", "4", "9", "K"], "below_zero": below_zero},
        }
    )
    s = new_game(rules, 3)
    deal(s, "2S 3S 5S 2C 3C 5C 2H 3H 5H 10D")
    assert s.total == total and s.pile == parse_cards("10D")


@pytest.mark.parametrize("special", ["AD", "4D", "9D", "10D", "KD"])
def test_upcard_special_returned_to_middle_third(special: str) -> None:
    s, ev = _upcard_game(f"2S 3S 5S 2C 3C 5C 2H 3H 5H {special} 7D")
    assert s.is_chance and of(ev, E.UpCardReturned)
    req = s.chance_request()
    assert req is not None and req.kind == "upcard"
    size = len(s.stock)  # 42 cards left under the returned card
    assert size == 42
    assert min(req.depths) >= size // 3 and max(req.depths) <= 2 * size // 3
    s.apply(Reinsert(20))
    assert s.total == 7 and s.pile == parse_cards("7D")
    # 20 cards were above it, the top one (7D) has since been turned up
    assert s.stock[len(s.stock) - 1 - 19] == parse_card(special)


def test_upcard_bad_reinsert_depth_rejected() -> None:
    from ninetynine.errors import IllegalActionError

    s, _ = _upcard_game("2S 3S 5S 2C 3C 5C 2H 3H 5H KD 7D")
    with pytest.raises(IllegalActionError):
        s.apply(Reinsert(0))


def test_upcard_king_banned_first_five_turns() -> None:
    s = pos("P-UPCARD", ["KS 2S 3S", "KC 9C 3C", "7C 8C 2H"], total=30, turns_played=[4, 5, 0])
    assert "KS" not in legal(s)
    s2 = pos(
        "P-UPCARD", ["KS 2S 3S", "KC 9C 3C", "7C 8C 2H"], total=30, turn=2, turns_played=[4, 5, 0]
    )
    assert "KC" in legal(s2)
    from ninetynine.errors import IllegalActionError

    with pytest.raises(IllegalActionError, match="King"):
        play(s, "KS")


def test_upcard_king_ban_even_at_99_and_only_king_means_eliminated() -> None:
    s = pos("P-UPCARD", ["KS 2S 3S", "KC 9C 3C", "7C 8C 2H"], total=99)
    assert legal(s) == {"down"}
    ev = play(s, "down")
    assert not s.alive[0] and of(ev, E.PlayerOut)
    assert s.is_chance  # Q40/Q50: the hand ends, a new deal with a new up-card


def test_upcard_king_ban_counts_played_turns_per_hand() -> None:
    s = pos("P-UPCARD", ["KS 2S 3S", "KC 9C 3C", "7C 8C 2H"], total=30, turns_played=[4, 0, 0])
    play(s, "2S", "9C", "2H")
    assert "KS" in legal(s)
    assert s.turns_played[0] == 5
    # a new hand: the count starts again (REC per hand)
    s2 = pos("P-UPCARD", ["2S 3S 5S", "KC 9C 3C", "7C 8C 2H"], total=99, turns_played=[9, 9, 9])
    play(s2, "down")
    assert s2.turns_played == [0, 0, 0]


def test_upcard_king_ban_alts() -> None:
    s = pos(
        "P-UPCARD",
        ["KS 2S 3S", "KC 9C 3C", "7C 8C 2H"],
        total=99,
        changes={"king_ban_at_limit": False},
    )
    assert "KS" in legal(s)
    s2 = pos(
        "P-UPCARD",
        ["2S 3S 5S", "KC 9C 3C", "7C 8C 2H"],
        total=99,
        turns_played=[9, 9, 9],
        lives=[2, 1, 1],
        changes={"king_ban_scope": "game"},
    )
    play(s2, "down")
    assert s2.turns_played == [9, 9, 9]


def test_upcard_alt_continue_at_same_total_after_elimination() -> None:
    s = pos(
        "P-UPCARD",
        ["2S 3S 5S", "KC 9C 3C", "7C 8C 2H"],
        total=99,
        changes={"after_bust": "sit_out"},
    )
    play(s, "down")
    assert not s.alive[0] and s.total == 99 and s.turn == 1 and not s.is_chance


# P-UPCARD-INSTANT (Q42) ----------------------------------------------------------------------


def test_instant_three_kings_wins_at_deal() -> None:
    s, ev = _upcard_game("KS 2S 5S KH 3C 5C KD 3H 5H 7D", pid="P-UPCARD-INSTANT")
    assert s.is_over and s.outcome is not None
    assert s.outcome.winners == (0,) and s.outcome.reason == "three_kings"
    assert of(ev, E.InstantHand)


def test_instant_three_sixes_everyone_loses() -> None:
    s, _ = _upcard_game("6S 2S 5S 6H 3C 5C 6D 3H 5H 7D", pid="P-UPCARD-INSTANT")
    assert s.is_over and s.outcome is not None and s.outcome.winners == ()


def test_instant_sixes_beat_kings_at_the_same_check() -> None:
    s, _ = _upcard_game("KS 6S 5S KH 6H 5C KD 6D 5H 7D", pid="P-UPCARD-INSTANT")
    assert s.is_over and s.outcome is not None and s.outcome.winners == ()


def test_instant_after_draw() -> None:
    s = pos("P-UPCARD-INSTANT", ["KS KH 3S", "2C 9C 3C", "7C 8C 2H"], total=30, top="KD")
    ev = play(s, "3S")
    assert s.is_over and s.outcome is not None and s.outcome.winners == (0,)
    assert of(ev, E.InstantHand)


def test_instant_alt_check_only_at_deal() -> None:
    s = pos(
        "P-UPCARD-INSTANT",
        ["KS KH 3S", "2C 9C 3C", "7C 8C 2H"],
        total=30,
        top="KD",
        changes={"instant_check": "deal"},
    )
    play(s, "3S")
    assert not s.is_over


def test_instant_not_in_plain_upcard() -> None:
    s, _ = _upcard_game("KS 2S 5S KH 3C 5C KD 3H 5H 7D")
    assert not s.is_over


def test_instant_two_three_king_hands_share_the_win() -> None:
    # five players: two decks, so two hands can hold three Kings
    order = "KS 2S KS 3S 5S KH 2C KH 3C 5C KD 2H KD 3H 5H 7D"
    s, _ = _upcard_game(order, players=5, pid="P-UPCARD-INSTANT")
    assert s.is_over and s.outcome is not None
    assert s.outcome.winners == (0, 2) and s.outcome.reason == "three_kings"


def test_instant_alt_seat_order() -> None:
    s = new_game(
        load_rules({"preset": "P-UPCARD-INSTANT", "rules": {"instant_order": "seat_order"}}), 3
    )
    deal(s, "KS 6S 5S KH 6H 5C KD 6D 5H 7D")
    assert s.is_over and s.outcome is not None and s.outcome.winners == (0,)


def test_upcard_new_deal_after_elimination_turns_a_new_upcard() -> None:
    s = pos("P-UPCARD", ["2S 3S 5S", "KC 9C 3C", "7C 8C 2H"], total=99, dealer=3)
    play(s, "down")
    ev = deal(s, "2D 3D 5D 6D 7D 8D 8H")
    assert s.total == 8 and s.pile[-1] == parse_card("8H") and of(ev, E.UpCardTurned)
    assert s.turn == 2 and s.hands[0] == []


def test_upcard_reinsert_depths_never_empty_on_a_small_stock() -> None:
    from ninetynine.engine.state import UPCARD

    s = pos("P-UPCARD", ["2S 3S 5S", "2C 3C 6C"], top="7D", rest="pile")
    s.phase, s.chance, s.held = "chance", UPCARD, s.pile.pop()
    req = s.chance_request()
    assert req is not None and list(req.depths) == [1]


def test_upcard_no_ordinary_card_left_starts_at_zero() -> None:
    # an edge of big hands: every ordinary card is dealt, the stock holds only special cards
    r = load_rules({"preset": "P-UPCARD", "rules": {"hand_size": 16, "players_max": 2}})
    s = new_game(r, 2)
    ordinary = [f"{rank}{suit}" for rank in "235678JQ" for suit in "SHDC"]
    ev = deal(s, " ".join(ordinary))
    assert s.phase == "play" and s.total == 0 and not of(ev, E.UpCardReturned)
    assert len(s.stock) == 20


def test_upcard_returned_cards_never_go_above_the_next_ordinary_card() -> None:
    # a short stock: AH on top of 8H; the returned KD must go below 8H, or turning never ends
    s = pos(
        "P-UPCARD", ["2S 3S 5S", "2C 3C 6C"], phase="upcard", held="KD", top="AH 8H", rest="pile"
    )
    req = s.chance_request()
    assert req is not None and list(req.depths) == [2]
    s.apply(Reinsert(2))
    req = s.chance_request()  # AH was turned and goes back too
    assert s.held == parse_card("AH") and req is not None and list(req.depths) == [1]
    s.apply(Reinsert(1))
    assert s.phase == "play" and s.total == 8 and s.pile[-1] == parse_card("8H")
