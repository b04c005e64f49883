"""Text forms parse and print symmetrically, and bad text fails with one clear line."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ninetynine import NotationError, RulesError, parse_action
from ninetynine.actions import Action, ActionKind, Reinsert, Shuffle
from ninetynine.cards import format_card, format_cards, new_deck, parse_card, parse_cards
from ninetynine.effects import Effect, Kind, format_effect, parse_effect, resolve


@given(st.integers(0, 51))
def test_cards_round_trip(card: int) -> None:
    assert parse_card(format_card(card)) == card
    assert parse_card(format_card(card).lower()) == card


def test_card_spellings() -> None:
    assert parse_card("TH") == parse_card("10H") == parse_card(" 10h ")
    assert format_cards(parse_cards("AS, KD 9c")) == "AS KD 9C"
    assert new_deck(2).count(parse_card("QS")) == 2


@pytest.mark.parametrize("bad", ["", "S", "1S", "11H", "KX", "A", "10", "AS+"])
def test_bad_cards_fail(bad: str) -> None:
    with pytest.raises(NotationError, match="expected"):
        parse_card(bad)


@given(st.integers(0, 51), st.sampled_from([None, 1, 11, -10, 10]))
def test_actions_round_trip(card: int, value: int | None) -> None:
    action = Action.play(card, value)
    assert parse_action(str(action)) == action


@pytest.mark.parametrize("text", ["down", "pass", "draw", "nodraw"])
def test_special_actions(text: str) -> None:
    action = parse_action(text.upper())
    assert isinstance(action, Action) and action.kind is ActionKind(text)
    assert str(action) == text


def test_chance_outcomes_round_trip() -> None:
    shuffle = Shuffle(tuple(new_deck()))
    assert parse_action(str(shuffle)) == shuffle
    assert parse_action("insert 14") == Reinsert(14)


@pytest.mark.parametrize("bad", ["play", "K", "KS*2", "AS+x", "insert", "insert x", "shuffle ZZ"])
def test_bad_actions_fail(bad: str) -> None:
    with pytest.raises(NotationError):
        parse_action(bad)


@pytest.mark.parametrize("spec", ["+7", "-10", "+1/+11", "+10/-10", "hold", "set", "hold reverse",
                                  "+4 reverse", "+10 skip", "halve-or-double", "halve-even"])
def test_effects_round_trip(spec: str) -> None:
    assert format_effect(parse_effect(spec)) == spec


@pytest.mark.parametrize("bad", ["", "7", "+x", "+1/+1", "hold sideways", "set set",
                                 "+4 reverse reverse"])
def test_bad_effects_fail(bad: str) -> None:
    with pytest.raises(RulesError, match="expected|repeat"):
        parse_effect(bad)


@pytest.mark.parametrize(("kind", "total", "after"), [
    (Kind.HALVE_OR_DOUBLE, 62, 31), (Kind.HALVE_OR_DOUBLE, 31, 62), (Kind.HALVE_OR_DOUBLE, 48, 96),
    (Kind.HALVE_OR_DOUBLE, 50, 25), (Kind.HALVE_EVEN, 48, 24), (Kind.HALVE_EVEN, 0, 0),
    (Kind.HALVE_EVEN, 33, 66), (Kind.SET, 12, 99),
])
def test_effect_arithmetic(kind: Kind, total: int, after: int) -> None:
    assert resolve(Effect(kind=kind), total, 0, 99) == after


@given(st.text())
def test_toml_strings_round_trip(text: str) -> None:
    import tomllib

    from ninetynine.position import toml_value
    assert tomllib.loads(f"x = {toml_value(text)}")["x"] == text
