"""Sanity of play: bots avoid a bust they can avoid, and search sees what a card does."""

from __future__ import annotations

import random

import pytest

from ninetynine.bots import make_bot
from ninetynine.engine.view import observe
from ninetynine.records.position import position_from_mapping


@pytest.mark.parametrize("spec", ["heuristic", "ismcts:iterations=300"])
def test_no_needless_bust_where_busting_is_allowed(spec: str) -> None:
    # G lets any card be played; at 95 the Jack busts and the Nine (set 99) does not.
    state = position_from_mapping(
        {
            "rules": "G",
            "total": 95,
            "turn": 1,
            "hands": ["JS 9S QS 8S", "2H 3H 5H 6H", "2D 3D 5D 6D"],
        }
    )
    view = observe(state, 0)
    assert {str(a) for a in view.legal} == {"JS", "9S", "QS", "8S"}
    assert str(make_bot(spec).choose(view, random.Random(1))) == "9S"


@pytest.mark.parametrize("spec", ["heuristic", "ismcts:iterations=300"])
def test_ace_counts_low_when_high_would_bust(spec: str) -> None:
    state = position_from_mapping(
        {
            "rules": "G",
            "total": 90,
            "turn": 1,
            "hands": ["AS QS JH 8S", "2H 3H 5H 6H", "2D 3D 5D 6D"],
        }
    )
    action = make_bot(spec).choose(observe(state, 0), random.Random(2))
    assert str(action) in ("AS+1", "8S")  # the only plays that stay at or under 99


def test_ismcts_keeps_its_only_escape_card_at_a_low_total() -> None:
    # P at 10: playing the King (set 99) at once wastes the card that would save us later;
    # the Queen is as safe now. Both bots should keep the King.
    state = position_from_mapping(
        {
            "rules": "P",
            "total": 10,
            "turn": 1,
            "hands": ["KS QS 8C", "2H 3H 5H", "2D 3D 5D", "2C 3C 5C"],
        }
    )
    view = observe(state, 0)
    for spec in ("heuristic", "ismcts:iterations=2000"):
        assert str(make_bot(spec).choose(view, random.Random(3))) != "KS", spec


def test_a_five_names_the_player_likeliest_to_be_stuck() -> None:
    # TW at 99: the Five is the only play; P2 holds one card, P3 five. A player with one
    # card is far likelier to hold no safe card: the heuristic pushes the danger onto P2.
    # (The search may judge otherwise: P3, who can bring the total down, would then play
    # before P1 again.)
    state = position_from_mapping(
        {"rules": "TW", "total": 99, "turn": 1, "hands": ["5S 6S 7S 8S 9S", "2H", "2D 3D 6D 7D 8D"]}
    )
    view = observe(state, 0)
    assert {str(a) for a in view.legal} == {"5S>2", "5S>3"}
    assert str(make_bot("heuristic").choose(view, random.Random(4))) == "5S>2"
    assert make_bot("ismcts:iterations=300").choose(view, random.Random(4)) in view.legal


def test_a_chosen_total_is_set_high_to_push_the_danger_on() -> None:
    # A house rule where the Ace sets any total: with nothing else to play, the heuristic
    # leaves the next player the worst total, not a comfortable one.
    state = position_from_mapping(
        {
            "rules": {"preset": "P", "cards": {"A": "set-any"}},
            "total": 95,
            "turn": 1,
            "hands": ["AS QS JS", "2H 3H 5H", "2D 3D 5D"],
        }
    )
    view = observe(state, 0)
    assert len(view.legal) == 100
    action = make_bot("heuristic").choose(view, random.Random(5))
    assert action.to is not None and action.to >= 90


@pytest.mark.parametrize("spec", ["random", "heuristic", "ismcts:iterations=200"])
def test_bots_answer_a_no_draw_chain_legally(spec: str) -> None:
    # IS: P2 faces two Queens: a Queen, or two cards in a row without drawing.
    state = position_from_mapping(
        {
            "rules": "IS",
            "total": 20,
            "turn": 2,
            "chain": 2,
            "hands": ["2S 3S 6S 8S JS", "QH 2H 3H 6H 8H", "2D 3D 6D 8D JD"],
        }
    )
    bot, rng = make_bot(spec), random.Random(6)
    action = bot.choose(observe(state, 1), rng)
    state.apply(action)
    if str(action) != "QH":
        assert state.turn == 1 and state.plays_left == 1
        second = bot.choose(observe(state, 1), rng)
        assert str(second) != "QH"
        state.apply(second)
    assert state.turn == 2
