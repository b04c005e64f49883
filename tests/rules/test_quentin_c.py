"""QC, Quentin C's milestones game (FAMILIES.md §7, F6), against P-ONLINE (§7.2), and the
§8 findings on the presets we had: P-BORDERS' backward crossings."""

from __future__ import annotations

import pytest
from tests.rules.helpers import card_text, deal, legal, of, play, pos

from ninetynine import Lead, load_rules, new_game, preset_rules
from ninetynine.engine import events as E
from ninetynine.engine.state import CHANCE, LEAD

ABC = ["4S 10S 2S", "5C 6C 7C", "5H 6H 7H"]


def test_qc1_nine_tokens_three_cards_one_deck() -> None:
    """«each player starts with 9 tokens»; «each player is dealt 3 cards»; «played with a
    standard 52 cards deck, or 2 decks if there are a lot of players» (§7.2 #10: from 7)."""
    r = preset_rules("QC")
    assert (r.lives, r.hand_size) == (9, 3)
    assert [r.decks_for(n) for n in (2, 6, 7, 10)] == [1, 1, 2, 2]
    assert new_game(r, 7).lives == [9] * 7


@pytest.mark.parametrize(
    "card,total,after",
    [
        ("3S", 20, 23),
        ("4S", 20, 24),
        ("8S", 20, 28),
        ("9S", 20, 20),
        ("JS", 20, 30),
        ("QS", 20, 30),
        ("KS", 20, 30),
        ("10S+10", 20, 30),
        ("10S-10", 20, 10),
        ("AS+1", 20, 21),
        ("AS+11", 20, 31),
    ],
)
def test_qc1_card_values(card: str, total: int, after: int) -> None:
    """«Card from 3 to 8 are worth their face value;» «A nine is worth 0;» «Figures always
    count for +10;» (§7.2 #1: the King too) «A 10 can be worth +10 or -10»; Ace 1 or 11."""
    s = pos("QC", [f"{card_text(card)} 2C 3C", "5D 6D 7D", "5H 6H 7H"], total=total)
    play(s, card)
    assert s.total == after


@pytest.mark.parametrize(
    "total,after", [(15, 30), (25, 50), (48, 96), (50, 25), (66, 33), (92, 46)]
)
def test_pa_the_two_halves_an_even_total_over_49_else_doubles(total: int, after: int) -> None:
    """«two: divides the total by 2 if it is even and over 49; in all other cases it
    multiplies the total by 2»; PlayAural's tests 15→30, 25→50, 48→96, 50→25, 66→33, 92→46."""
    s = pos("QC", ["2S 3C 4C", "5D 6D 7D", "5H 6H 7H"], total=total)
    play(s, "2S")
    assert s.total == after


def test_qc1_exactly_33_each_player_except_you_loses_a_token() -> None:
    """«If the total of the discard pile reach exactly 33 or 66 after having played your
    card, each player except you lose a token.»"""
    s = pos("QC", ABC, total=29)
    play(s, "4S")
    assert s.total == 33 and s.lives == [9, 8, 8]


def test_qc1_going_past_33_you_and_you_only_lose_a_token() -> None:
    """«If, when playing your card, you go past 33 or 66, you, and you only, lose a token.
    For example if the pile is at 29, if you play a 7, causing the total to become 36, you
    go past 33.»"""
    s = pos("QC", ["7S 2C 3C", "5D 6D 7D", "5H 6H 7H"], total=29)
    play(s, "7S")
    assert s.total == 36 and s.lives == [8, 9, 9]


def test_s000_milestones_only_from_below() -> None:
    """«the rewards and penalties for 33 and 66 only apply if they are approached from
    below»: 43 - 10 = 33 costs nothing."""
    s = pos("QC", ABC, total=43)
    play(s, "10S-10")
    assert s.total == 33 and s.lives == [9, 9, 9]


def test_qc1_exactly_99_the_others_pay_two_and_the_round_ends() -> None:
    """«If the discard pile exactly reach 99, you win the round. Each player lose two
    tokens, and the next round starts.»; [QC2] «Each player except you loses two tokens.»"""
    s = pos("QC", ["JS 2C 3C", "5D 6D 7D", "5H 6H 7H"], total=89)
    ev = play(s, "JS")
    assert s.lives == [9, 7, 7] and of(ev, E.HandEnded) and s.phase == CHANCE


def test_qc1_over_99_you_pay_two_tokens_and_the_round_ends() -> None:
    """«If you exceed the ultimate 99 limit, you lose the round and must pay two tokens.»;
    §7.2 #6: any card is legal (busting can be a tactic)."""
    s = pos("QC", ["JS 2C 3C", "5D 6D 7D", "5H 6H 7H"], total=95)
    assert {"JS", "2C", "3C"} <= legal(s)
    ev = play(s, "JS")
    assert s.lives == [7, 9, 9] and of(ev, E.HandEnded)


def test_pa_going_over_settles_no_milestone() -> None:
    """«busting or hitting 99 pre-empts the 33/66 checks ([PA] returns before them)»: a Two
    from 61 to 122 costs the 2 for going over only. P-ONLINE charges the crossing too."""
    s = pos("QC", ["2S 3C 4C", "5D 6D 7D", "5H 6H 7H"], total=61)
    play(s, "2S")
    assert s.lives == [7, 9, 9]
    s = pos("P-ONLINE", ["2S 3C 4C", "5D 6D 7D", "5H 6H 7H"], total=61, changes={"may_bust": True})
    play(s, "2S")
    assert s.lives == [6, 9, 9]


def test_pa_landing_on_66_from_33_is_an_exact_66_not_a_crossing() -> None:
    """«one card can trigger at most one 33/66 event (a doubling from < 33 cannot exceed 66;
    landing on 66 from 33 is not a crossing)»."""
    s = pos("QC", ["2S 3C 4C", "5D 6D 7D", "5H 6H 7H"], total=33)
    play(s, "2S")
    assert s.total == 66 and s.lives == [9, 8, 8]
    s = pos("QC", ["2S 3C 4C", "5D 6D 7D", "5H 6H 7H"], total=32)
    play(s, "2S")
    assert s.total == 64 and s.lives == [8, 9, 9]  # crossed 33 only


def test_qc1_out_at_no_tokens() -> None:
    """«the player who has lost all of them is out of the game»; §7.2 #4 out at 0."""
    s = pos("QC", ["7S 2C 3C", "5D 6D 7D", "5H 6H 7H"], total=29, lives=[1, 9, 9])
    ev = play(s, "7S")
    assert of(ev, E.PlayerOut) and not s.alive[0]
    s = pos("P-ONLINE", ["7S 2C 3C", "5D 6D 7D", "5H 6H 7H"], total=29, lives=[1, 9, 9])
    play(s, "7S")
    assert s.alive[0] and s.lives[0] == 0  # S000: you may sit at 0


def test_qc1_out_at_once_without_waiting_for_the_end_of_the_round() -> None:
    """«If one or more players have no token to deposit anymore, they are immediately out
    of the game witout even waiting for the end of the round.»"""
    s = pos("QC", ABC, total=29, lives=[9, 1, 9])
    ev = play(s, "4S")
    assert of(ev, E.PlayerOut)[0].seat == 1 and not of(ev, E.HandEnded)
    assert s.turn == 2 and s.outcome is None  # the Four's reverse counts 2 players: no flip


def test_qc_zero_tokens_alt_remain_until_unpaid() -> None:
    """§7.2 #4 option: S000's «You can remain in the game with no pennies»."""
    s = pos(
        "QC",
        ["7S 2C 3C", "5D 6D 7D", "5H 6H 7H"],
        total=29,
        lives=[1, 9, 9],
        changes={"elimination": "cannot_pay"},
    )
    play(s, "7S")
    assert s.alive[0] and s.lives[0] == 0


@pytest.mark.parametrize(
    "card,total,offered",
    [
        ("AS", 88, {"AS+1", "AS+11"}),
        ("AS", 89, {"AS+1"}),
        ("AS", 99, {"AS+1"}),
        ("10S", 89, {"10S+10", "10S-10"}),
        ("10S", 90, {"10S-10"}),
        ("10S", 99, {"10S-10"}),
    ],
)
def test_pa_a_value_over_99_is_not_offered(card: str, total: int, offered: set[str]) -> None:
    """§7.2 #5 `choice_filter = drop_busting`: «removes exactly the alternatives that would
    exceed 99: A+11 above 88, 10+10 at ≥ 90; 88+11 = 99 stays offered» (PlayAural's
    `ACE_AUTO_THRESHOLD = 88`, `TEN_AUTO_THRESHOLD = 90`)."""
    s = pos("QC", [f"{card} 2C 3C", "5D 6D 7D", "5H 6H 7H"], total=total)
    assert {a for a in legal(s) if a.startswith(card)} == offered


def test_pa_the_total_stops_at_zero() -> None:
    """§7.2 #7: floor at 0 (`_floor_count`); PlayAural's test «5−10 → 0»."""
    s = pos("QC", ABC, total=5)
    play(s, "10S-10")
    assert s.total == 0


def test_pa_the_jack_with_two_players_plays_again() -> None:
    """§7.2 #8: the skip of the only opponent gives the actor another turn."""
    s = pos("QC", ["JS 2C 3C", "5D 6D 7D"], total=10)
    play(s, "JS")
    assert s.turn == 0


def test_s000_the_four_reverses_only_with_more_than_two_players() -> None:
    """«four: adds 4 to the total and reverses the direction of play if there are more than
    2 players» (`rank == 4 and len(self.alive_players) > 2`)."""
    s = pos("QC", ["4S 2C 3C", "5D 6D 7D", "5H 6H 7H"], total=10)
    play(s, "4S")
    assert s.total == 14 and s.direction == -1 and s.turn == 2
    s = pos("QC", ["4S 2C 3C", "5D 6D 7D"], total=10)
    play(s, "4S")
    assert s.direction == 1 and s.turn == 1


def test_qc_the_next_round_left_of_the_dealer() -> None:
    """§7.2 #9 REC: the dealer moves one seat in the direction of play (CW at every deal),
    the next player leads."""
    s = pos("QC", ["JS 2C 3C", "5D 6D 7D", "5H 6H 7H"], total=89, dealer=3)
    play(s, "JS")
    deal(s)
    assert s.dealer == 0 and s.turn == 1


def test_pa_leader_random_option_draws_the_leader() -> None:
    """§7.2 #9 option `leader = random` for PlayAural parity (`random.randrange`): chance
    decides, as a `lead N` outcome in the record."""
    s = pos("QC", ["JS 2C 3C", "5D 6D 7D", "5H 6H 7H"], total=89, changes={"starter": "random"})
    play(s, "JS")
    assert s.phase == CHANCE and s.chance == LEAD
    request = s.chance_request()
    assert request is not None and request.seats == (0, 1, 2)
    ev = s.apply(Lead(2))
    assert of(ev, E.LeaderDrawn)
    deal(s)
    assert s.starter == 2 and s.turn == 2 and s.dealer == 1


def test_qc_is_p_online_with_the_differences_of_section_7_2() -> None:
    qc, online = preset_rules("QC"), preset_rules("P-ONLINE")
    assert qc.cards == online.cards and qc.thresholds == online.thresholds
    assert (qc.elimination.value, qc.may_bust, qc.below_zero.value) == ("at_zero", True, "clamp")
    assert load_rules("quentin-c") == qc


# §8.2: P-BORDERS' backward crossings --------------------------------------------------------


def test_s000_a_backward_crossing_costs_a_game_point() -> None:
    """S000 (the default): «if the pile is 75 and you play a ten as -10 you will lose a game
    point as you take the total down to 65»."""
    s = pos("P-BORDERS", ["10S 2C 3C", "5D 6D 7D"], total=75)
    play(s, "10S-10")
    assert s.points == [2, 3]


def test_wilson_a_backward_crossing_costs_nothing_the_forward_one_does() -> None:
    """[BW] «crossing back over the 33 or 66 border backward (this backward crossing does not
    cause you to lose a game point, but the additional forward crossing does)»."""
    changes = {"border_cross_backward_costs": False}
    s = pos("P-BORDERS", ["10S 2C 3C", "5D 6D 7D"], total=75, changes=changes)
    play(s, "10S-10")
    assert s.points == [3, 3]
    s = pos("P-BORDERS", ["10S 2C 3C", "5D 6D 7D"], total=65, changes=changes)
    play(s, "10S+10")
    assert s.points == [2, 3]
