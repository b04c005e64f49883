"""Text forms parse and print symmetrically, and bad text fails with one clear line."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ninetynine import NotationError, RulesError, parse_action
from ninetynine.engine.actions import Action, ActionKind, Lead, Reinsert, Shuffle
from ninetynine.rules.cards import format_card, format_cards, new_deck, parse_card, parse_cards
from ninetynine.rules.effects import Effect, Kind, format_effect, parse_effect, resolve


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


@given(st.integers(0, 51), st.integers(0, 1023))
def test_plays_with_a_chosen_total_round_trip(card: int, to: int) -> None:
    action = Action.play(card, to=to)
    assert str(action) == f"{format_card(card)}={to}" and parse_action(str(action)) == action


@given(st.integers(0, 51), st.integers(0, 11))
def test_plays_naming_a_seat_round_trip(card: int, seat: int) -> None:
    action = Action.play(card, target=seat)
    assert str(action) == f"{format_card(card)}>{seat + 1}"  # seats from 1 in text
    assert parse_action(str(action)) == action
    assert parse_action(str(action).lower()) == action


@given(st.integers(0, 11))
def test_leads_round_trip(seat: int) -> None:
    assert parse_action(str(Lead(seat))) == Lead(seat) and str(Lead(seat)) == f"lead {seat + 1}"


def test_new_action_spellings() -> None:
    assert parse_action(" 5s > 3 ") == Action.play(parse_card("5S"), target=2)
    assert parse_action("TS=0") == Action.play(parse_card("10S"), to=0)


@pytest.mark.parametrize(
    "bad,needle",
    [
        ("5S>", "the seat it names"),
        ("5S>x", "the seat it names"),
        ("5S>0", "from 1"),
        ("5S>-2", "the seat it names"),
        ("AS=", "the total it sets"),
        ("AS=x", "the total it sets"),
        ("AS=-3", "the total it sets"),
        ("AS+11>2", "signed number"),
        ("ZZ>2", "5S>3"),
        ("lead", "lead 3"),
        ("lead 0", "lead 3"),
        ("lead x", "lead 3"),
    ],
)
def test_bad_new_actions_name_what_is_accepted(bad: str, needle: str) -> None:
    with pytest.raises(NotationError, match=needle) as info:
        parse_action(bad)
    assert "\n" not in str(info.value) and repr(bad) in str(info.value)


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


@pytest.mark.parametrize(
    "spec",
    [
        "+7",
        "-10",
        "+1/+11",
        "+10/-10",
        "hold",
        "set",
        "hold reverse",
        "+4 reverse",
        "+10 skip",
        "halve-or-double",
        "halve-even",
        "set 0",
        "set 98",
        "set-any",
        "double",
        "hold name",
        "hold no-draw",
        "+5 skip",
        "+7 reverse",
        "+20/-20",
        "+1/+14",
        "+11",
        "hold name no-draw",
        "set 0 reverse",
    ],
)
def test_effects_round_trip(spec: str) -> None:
    assert format_effect(parse_effect(spec)) == spec


@pytest.mark.parametrize(
    "bad",
    [
        "",
        "7",
        "+x",
        "+1/+1",
        "hold sideways",
        "set set",
        "+4 reverse reverse",
        "set x",
        "set -5",
        "name",
        "hold name name",
        "hold no-draw no-draw",
        "double 2",
    ],
)
def test_bad_effects_fail(bad: str) -> None:
    with pytest.raises(RulesError, match="expected|repeat"):
        parse_effect(bad)


@pytest.mark.parametrize(
    "bad", ["hold name skip", "+5 name reverse", "+1/+11 name", "set-any name"]
)
def test_contradictory_effects_fail(bad: str) -> None:
    with pytest.raises(RulesError, match="names the next player") as info:
        parse_effect(bad)
    assert bad in str(info.value)


def test_pass_is_spelled_hold() -> None:
    """«J, pass. Acts like adding 0» [TW1]: the same effect as a hold."""
    assert parse_effect("pass") == parse_effect("hold")
    assert format_effect(parse_effect("pass")) == "hold"


@pytest.mark.parametrize(
    ("kind", "total", "after"),
    [
        (Kind.HALVE_OR_DOUBLE, 62, 31),
        (Kind.HALVE_OR_DOUBLE, 31, 62),
        (Kind.HALVE_OR_DOUBLE, 48, 96),
        (Kind.HALVE_OR_DOUBLE, 50, 25),
        (Kind.HALVE_EVEN, 48, 24),
        (Kind.HALVE_EVEN, 0, 0),
        (Kind.HALVE_EVEN, 33, 66),
        (Kind.SET, 12, 99),
        (Kind.DOUBLE, 21, 42),
        (Kind.DOUBLE, 0, 0),
    ],
)
def test_effect_arithmetic(kind: Kind, total: int, after: int) -> None:
    assert resolve(Effect(kind=kind), total, 0, 99) == after


def test_set_effects_arithmetic() -> None:
    assert resolve(parse_effect("set 0"), 77, 0, 99) == 0
    assert resolve(parse_effect("set"), 77, 0, 98) == 98
    assert resolve(parse_effect("set-any"), 77, 42, 99) == 42  # the choice is the total


@given(st.text())
def test_toml_strings_round_trip(text: str) -> None:
    import tomllib

    from ninetynine.records.position import toml_value

    assert tomllib.loads(f"x = {toml_value(text)}")["x"] == text
