"""The rules keys and card effects that FAMILIES.md §10 adds, on any rule set: what each
does, how it writes and reads back, and the plays it makes."""

from __future__ import annotations

import random

import pytest
from tests.rules.helpers import deal, legal, of, play, pos

from ninetynine import Action, Lead, load_rules, new_game, play_out, preset_rules
from ninetynine.engine import events as E
from ninetynine.engine.state import CHANCE, LEAD, PARAM
from ninetynine.errors import ChoiceRequiredError, IllegalActionError
from ninetynine.records.match import Match, replay
from ninetynine.records.position import format_position, parse_position
from ninetynine.records.record import format_record, parse_record
from ninetynine.rules.cards import parse_card
from ninetynine.rules.presets import rules_spec
from ninetynine.rules.settings import rules_to_mapping

P = ["AS 2S 3S", "4H 5H 6H", "4D 5D 6D"]


def test_set_n_sets_that_number_whatever_the_limit() -> None:
    """`set_to(0)` (the Taiwanese Ace of Spades), `set_to(limit)`."""
    s = pos("P", P, total=80, changes={"cards": {"A": "set 0", "2": "set 50"}, "limit": 120})
    play(s, "AS")
    assert s.total == 0
    s = pos("P", P, total=80, changes={"cards": {"A": "set 0", "2": "set 50"}})
    play(s, "2S")
    assert s.total == 50


def test_set_any_the_player_chooses_the_total() -> None:
    """`set_to_choice(0..limit)` (One Hundred's black Aces): an action per total."""
    s = pos("P", P, total=40, changes={"cards": {"A": "set-any"}})
    plays = {a for a in legal(s) if a.startswith("AS")}
    assert plays == {f"AS={t}" for t in range(100)}
    ev = play(s, "AS=87")
    assert s.total == 87 and [e.after for e in of(ev, E.CardPlayed)] == [87]


def test_set_any_needs_a_total_in_range() -> None:
    s = pos("P", P, total=40, changes={"cards": {"A": "set-any"}})
    with pytest.raises(ChoiceRequiredError, match="AS=0 to AS=99"):
        play(s, "AS")
    with pytest.raises(IllegalActionError, match="from 0 to 99"):
        play(s, "AS=100")
    with pytest.raises(IllegalActionError, match="does not set a chosen total"):
        play(s, "2S=5")


def test_double() -> None:
    """`double` (One Hundred's Two of Spades)."""
    s = pos("P", P, total=30, changes={"cards": {"2": "double"}})
    play(s, "2S")
    assert s.total == 60
    s = pos("P", P, total=50, changes={"cards": {"2": "double"}})
    assert "2S" not in legal(s)


def test_skip_and_reverse_with_a_value() -> None:
    """`skip_next(+v)`, `reverse(+v)`: plain effect specs already."""
    s = pos("P", P, total=30, changes={"cards": {"3": "+3 skip", "2": "+7 reverse"}})
    play(s, "3S")
    assert s.total == 33 and s.turn == 2
    s = pos("P", P, total=30, changes={"cards": {"3": "+3 skip", "2": "+7 reverse"}})
    play(s, "2S")
    assert s.total == 37 and s.turn == 2 and s.direction == -1


def test_pass_is_a_hold() -> None:
    """`pass` (J/K: +0, own turn used up): the next player plays, as after a hold."""
    r = load_rules({"preset": "P", "rules": {"cards": {"J": "pass"}}})
    assert r.cards[10] == preset_rules("P").cards[8]


def test_suit_cards_override_their_rank() -> None:
    """`suit_effects`: (rank, suit) overrides, e.g. convocards' King of Spades to 99 only."""
    changes = {"cards": {"K": "+10"}, "suit_cards": {"KS": "set"}}
    s = pos("P", ["KS KH 2S", "4H 5H 6H"], total=50, changes=changes)
    assert s.rules.effect_of(parse_card("KS")).kind.value == "set"
    play(s, "KH")
    assert s.total == 60
    play(s, "4H", "KS")
    assert s.total == 99


def test_suit_cards_write_and_read_back() -> None:
    r = load_rules({"preset": "TW", "rules": {"suit_cards": {"QH": "+20"}}})
    assert load_rules(rules_spec(r)) == r
    assert rules_to_mapping(r, preset_rules("TW"))["suit_cards"] == {"AS": "set 0", "QH": "+20"}
    plain = load_rules({"preset": "TW", "rules": {"suit_cards": {"AS": "+1"}}})
    assert plain.suit_cards == () and load_rules(rules_spec(plain)) == plain


def test_a_suit_card_that_does_what_its_rank_does_is_no_exception() -> None:
    r = load_rules({"preset": "P", "rules": {"suit_cards": {"KS": "set"}}})
    assert r == preset_rules("P").replace(id=r.id, name=r.name)


def test_decks_by_players() -> None:
    """`decks_by_players` (Québec's «Deux paquets… à trois joueurs; trois paquets… à quatre
    ou cinq; quatre paquets… à six ou sept»)."""
    r = load_rules({"preset": "P", "rules": {"decks_by_players": {"3": 2, "4": 3, "6": 4}}})
    assert [r.decks_for(n) for n in (2, 3, 4, 5, 6, 7)] == [1, 2, 3, 3, 4, 4]
    assert new_game(r, 5).decks == 3 and len(new_game(r, 6).stock) == 208


def test_the_loser_leads_from_a_lay_down() -> None:
    s = pos("P", ["AS 2S QS", "5C 6C 7C", "5H 6H 7H"], total=99, changes={"starter": "loser"})
    play(s, "down")
    deal(s)
    assert s.starter == 0 and s.dealer == 2


def test_a_random_leader_is_a_chance_outcome_that_records_and_replays() -> None:
    rules = load_rules({"preset": "P", "rules": {"starter": "random", "lives": 1}})
    match, rng = Match.new(rules, 4, auto_chance=False), random.Random(3)
    state = match.state
    leads = 0
    while not state.is_over:
        move = state.sample_chance(rng) if state.is_chance else rng.choice(state.legal_actions())
        leads += isinstance(move, Lead)
        match.play(move)
    assert leads == 2  # one before each new hand (three players go out, one a hand)
    text = format_record(match.record(), state)
    assert '"lead ' in text
    again, _ = replay(parse_record(text))
    assert again == state


def test_a_lead_phase_position_round_trips() -> None:
    s = pos("P", ["AS 2S QS", "5C 6C 7C", "5H 6H 7H"], total=99, changes={"starter": "random"})
    play(s, "down")
    assert s.phase == CHANCE and s.chance == LEAD
    text = format_position(s)
    assert 'phase = "lead"' in text and parse_position(text) == s
    with pytest.raises(IllegalActionError, match="lead N"):
        s.apply(Lead(7))


def test_a_naming_card_names_only_seats_still_in_the_hand() -> None:
    s = pos(
        "K",
        ["5S 2S 3S", "4H 5H 6H", "4D 6D 7D", "8C 9C 10C"],
        total=50,
        out_of_hand=[2],
        changes={"cards": {"5": "hold name"}},
    )
    assert {a for a in legal(s) if a.startswith("5S")} == {"5S>3", "5S>4"}  # P2 sits out


def test_name_codes_sit_above_the_special_codes() -> None:
    s = pos("TW", ["5S 2S 3S 6S 7S", "4H 5H 6H 7H 8H", "4D 6D 7D 8D 9D"], total=30)
    codes = s.legal_codes()
    assert codes == sorted(codes) and all(c >= PARAM for c in codes[-2:])
    assert [str(s.action_of(c)) for c in codes[-2:]] == ["5S>2", "5S>3"]
    assert s.code_of(Action.play(parse_card("5S"), target=2)) == codes[-1]


def test_naming_and_the_no_draw_chain_together() -> None:
    """A Queen that also names: the named player faces the chain."""
    s = pos(
        "IS",
        ["QS 2S 3S 6S 8S", "2C 3C 6C 8C JC", "2H 3H 6H 8H JH"],
        total=10,
        changes={"cards": {"Q": "hold name no-draw"}},
    )
    play(s, "QS>3")
    assert s.turn == 2 and s.chain == 1
    play(s, "2H")
    assert s.turn == 0 and len(s.hands[2]) == 4


@pytest.mark.parametrize(
    "preset,changes",
    [
        ("P", {"cards": {"A": "set-any"}}),
        ("TW", {}),
        ("IS", {}),
        ("E2", {"name_self": True}),
        ("QC", {"starter": "random"}),
        ("BGA-QUICK", {}),
        (
            "K",
            {
                "cards": {"5": "hold name", "Q": "hold no-draw", "2": "double"},
                "suit_cards": {"AS": "set 0", "KH": "hold reverse"},
            },
        ),
    ],
)
def test_house_rules_with_the_new_effects_play_to_the_end(
    preset: str, changes: dict[str, object]
) -> None:
    rules = load_rules({"preset": preset, "rules": changes})
    for n in (rules.players_min, min(rules.players_max, 5)):
        for seed in range(3):
            state = play_out(new_game(rules, n), random.Random(seed))
            assert state.outcome is not None
