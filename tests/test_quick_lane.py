"""The quick lane of State.apply_code (RuleTables.quick): the plays it finishes at once leave
the state as the full transition does."""

from __future__ import annotations

import random

import pytest

from ninetynine import load_rules, new_game
from ninetynine.engine.state import CHANCE, OVER
from ninetynine.engine.tables import NAMED, NEXT, REVERSE, REVERSE_PAST_TWO, SKIP, turn_step
from ninetynine.rules.effects import parse_effect


@pytest.mark.parametrize(
    ("spec", "plain_reverse", "step"),
    [
        ("+5", False, NEXT),
        ("+0 reverse", True, REVERSE),
        ("+0 reverse", False, REVERSE_PAST_TWO),
        ("+10 skip", False, SKIP),
        ("+5 name", False, NAMED),
        ("+0 no-draw", False, None),
        ("+0 swap", False, None),
        ("+0 reverse skip", True, None),
    ],
)
def test_turn_step(spec: str, plain_reverse: bool, step: int | None) -> None:
    assert turn_step(parse_effect(spec), plain_reverse) == step


@pytest.mark.parametrize(
    ("preset", "players"), [("P", 4), ("QC", 2), ("QC", 3), ("IS", 3), ("TW", 4), ("P", 6)]
)
def test_quick_plays_match_the_full_transition(preset: str, players: int) -> None:
    """Each move of random games applied on the quick lane and, on a copy, with events
    asked for (which takes the full transition): the two states agree after every move."""
    rules, rng = load_rules(preset), random.Random(7)
    for _ in range(3):
        state = new_game(rules, players)
        while state.phase != OVER:
            if state.phase == CHANCE:
                state.play_chance(rng)
                continue
            code = rng.choice(state.legal_codes())
            full = state.clone()
            full._ev = []  # events asked for: never the quick lane
            full.apply_code(code)
            full._ev = None
            state.apply_code(code)
            assert state == full
