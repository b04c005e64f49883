"""Rules as data all the way: what used to be written into the engine is now a setting.

- the opening-turns ban (P-UPCARD's «forbidden to set the total to 99 by playing a King
  during your first five turns») falls on the card whose effect sets the limit;
- instant hands are a list (``true`` is the rulebook's pair);
- a turned-up start card counts what its effect counts;
- the 69 rule's total and the halve-or-double threshold are settings.
"""

from __future__ import annotations

import pytest
from tests.rules.helpers import deal, legal, of, play, pos
from tests.rules.test_refusals import refusal

from ninetynine import load_rules, new_game
from ninetynine.engine import events as E
from ninetynine.engine.state import EndReason
from ninetynine.errors import Refusal, RulesError
from ninetynine.rules.cards import parse_cards
from ninetynine.rules.settings import RULEBOOK_INSTANT, InstantRule, rules_to_mapping


def test_the_ban_falls_on_the_card_that_sets_the_limit_not_on_the_king() -> None:
    """A house game where the Queen sets 99 and the King counts 10: the Queen is banned."""
    changes = {"king_ban_turns": 2, "cards": {"Q": "set", "K": "+10"}}
    s = pos("P", ["QS KS 2S", "4H 5H 6H"], total=30, changes=changes)
    assert legal(s) == {"KS", "2S"}
    err = refusal(s, "QS")
    assert err.reason is Refusal.OPENING_BAN and "no Queen to 99" in err.why


def test_the_ban_follows_a_suit_exception() -> None:
    changes = {"king_ban_turns": 3, "cards": {"K": "+10"}, "suit_cards": {"AS": "set"}}
    s = pos("P", ["AS AH 2S", "4H 5H 6H"], total=30, changes=changes)
    assert "AS" not in legal(s) and "AH+1" in legal(s)
    assert load_rules({"preset": "P", "rules": changes}).opening_ban_cards() == frozenset(
        parse_cards("AS")
    )


def test_p_upcard_still_bans_its_kings_and_says_so() -> None:
    rules = load_rules("P-UPCARD")
    assert rules.opening_ban_cards() == frozenset(parse_cards("KS KH KD KC"))
    from ninetynine.rules.describe import rules_text

    assert "No King to 99 during your first 5 turns" in rules_text(rules)


@pytest.mark.parametrize(
    "spec,expected",
    [
        (True, RULEBOOK_INSTANT),
        (False, ()),
        (["4x2 win"], (InstantRule(4, 1, True),)),
        (["3xK win", "3x6 lose"], (RULEBOOK_INSTANT[1], RULEBOOK_INSTANT[0])),
    ],
)
def test_instant_hands_are_a_list(spec: object, expected: tuple[InstantRule, ...]) -> None:
    rules = load_rules({"preset": "P", "rules": {"instant_hands": spec}})
    assert rules.instant_hands == expected
    written = rules_to_mapping(rules, load_rules("P"))
    again = load_rules({"preset": "P", "rules": written})
    assert again.instant_hands == rules.instant_hands


@pytest.mark.parametrize("bad", ["yes", ["3x6"], ["3 x 6 lose"], ["3xZ win"], [3]])
def test_a_bad_instant_hand_is_one_line_naming_the_format(bad: object) -> None:
    with pytest.raises(RulesError, match=r"instant_hands.*\"3x6 lose\", \"3xK win\""):
        load_rules({"preset": "P", "rules": {"instant_hands": bad}})


def test_a_house_instant_hand_decides_the_game() -> None:
    """Four Twos win at once, where the house says so."""
    s = new_game(
        load_rules({"preset": "P", "rules": {"instant_hands": ["4x2 win"], "hand_size": 4}}), 2
    )
    events = deal(s, "2S 3S 2H 3H 2D 3D 2C 3C")
    assert s.outcome is not None and s.outcome.winners == (0,)
    assert s.outcome.reason is EndReason.INSTANT_WIN
    assert of(events, E.InstantHand)[0].what == "four twos"


def test_the_list_order_says_which_instant_hand_decides() -> None:
    """With Kings first, a table where one holds three Kings and another three Sixes is
    won by the Kings (the rulebook's order, sixes first, would end it with everyone
    losing)."""
    for order, reason in (
        (["3xK win", "3x6 lose"], EndReason.THREE_KINGS),
        (True, EndReason.THREE_SIXES),
    ):
        s = new_game(load_rules({"preset": "P", "rules": {"instant_hands": order}}), 2)
        deal(s, "KS 6S KH 6H KD 6D")
        assert s.outcome is not None and s.outcome.reason is reason


def test_an_upcard_counts_what_its_effect_counts() -> None:
    """A house game where the Queen counts 20 and is not special: turned up, it starts the
    count at 20 (the Jack, +10, at 10)."""
    rules = load_rules({"preset": "P-UPCARD", "rules": {"cards": {"Q": "+20"}}})
    s = new_game(rules, 3)
    deal(s, "2S 3S 5S 2C 3C 5C 2H 3H 5H QD")
    assert s.total == 20
    s = new_game(rules, 3)
    deal(s, "2S 3S 5S 2C 3C 5C 2H 3H 5H JD")
    assert s.total == 10


def test_the_69_rule_total_is_a_setting() -> None:
    changes = {"rule_69": "reset_to_zero", "rule_69_total": 50}
    s = pos("P", ["5S 8D 2C", "9H 10D 3C"], total=45, changes=changes)
    events = play(s, "5S")
    assert s.total == 0 and of(events, E.SixtyNine)
    s = pos("P", ["5S 8D 2C", "9H 10D 3C"], total=64, changes=changes)
    play(s, "5S")
    assert s.total == 69  # 69 means nothing here


def test_the_halve_or_double_threshold_is_a_setting() -> None:
    for threshold, total, after in ((49, 44, 88), (40, 44, 22), (49, 62, 31)):
        changes = {"cards": {"2": "halve-or-double"}, "halve_over": threshold}
        s = pos("P", ["2S 8D 3C", "9H 10D 3H"], total=total, changes=changes)
        play(s, "2S")
        assert s.total == after, (threshold, total)
