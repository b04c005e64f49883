"""Sanity of play: bots avoid a bust they can avoid, and search sees what a card does."""

from __future__ import annotations

import random

import pytest

from ninetynine.bots import make_bot
from ninetynine.position import position_from_mapping
from ninetynine.view import observe


@pytest.mark.parametrize("spec", ["heuristic", "ismcts:iterations=300"])
def test_no_needless_bust_where_busting_is_allowed(spec: str) -> None:
    # G lets any card be played; at 95 the Jack busts and the Nine (set 99) does not.
    state = position_from_mapping({"rules": "G", "total": 95, "turn": 1, "hands": [
        "JS 9S QS 8S", "2H 3H 5H 6H", "2D 3D 5D 6D"]})
    view = observe(state, 0)
    assert {str(a) for a in view.legal} == {"JS", "9S", "QS", "8S"}
    assert str(make_bot(spec).choose(view, random.Random(1))) == "9S"


@pytest.mark.parametrize("spec", ["heuristic", "ismcts:iterations=300"])
def test_ace_counts_low_when_high_would_bust(spec: str) -> None:
    state = position_from_mapping({"rules": "G", "total": 90, "turn": 1, "hands": [
        "AS QS JH 8S", "2H 3H 5H 6H", "2D 3D 5D 6D"]})
    action = make_bot(spec).choose(observe(state, 0), random.Random(2))
    assert str(action) in ("AS+1", "8S")  # the only plays that stay at or under 99


def test_ismcts_keeps_its_only_escape_card_at_a_low_total() -> None:
    # P at 10: playing the King (set 99) at once wastes the card that would save us later;
    # the Queen is as safe now. Both bots should keep the King.
    state = position_from_mapping({"rules": "P", "total": 10, "turn": 1, "hands": [
        "KS QS 8C", "2H 3H 5H", "2D 3D 5D", "2C 3C 5C"]})
    view = observe(state, 0)
    for spec in ("heuristic", "ismcts:iterations=2000"):
        assert str(make_bot(spec).choose(view, random.Random(3))) != "KS", spec
