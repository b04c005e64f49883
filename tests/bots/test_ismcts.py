"""The search's parts: paired comparisons, early stopping, what a playout plays for."""

from __future__ import annotations

import math
import random

import pytest

from ninetynine import load_rules, presets
from ninetynine.bots import make_bot
from ninetynine.bots.ismcts import _in_play, _paired_z, _playout, _settled, playout_values
from ninetynine.bots.knowledge import hand_weights, rollout_policy
from ninetynine.engine.game import new_game
from ninetynine.engine.state import State
from ninetynine.engine.view import observe
from ninetynine.records.position import position_from_mapping
from ninetynine.rules.settings import Teams

from .test_bots_play import play, table


def test_paired_z_compares_moves_iteration_by_iteration() -> None:
    # Move 0 wins exactly when move 1 does, plus twice more: a sure difference.
    rows = [[1.0, 1.0], [1.0, 0.0], [0.0, 0.0], [1.0, 0.0]]
    assert _paired_z([[1.0, 0.0]] * 5, 0, 1) == math.inf
    assert _paired_z([[0.5, 0.5]] * 5, 0, 1) == 0.0
    # differences 0, 1, 0, 1: mean 0.5, sample variance 1/3, standard error sqrt(1/12)
    assert _paired_z(rows, 0, 1) == pytest.approx(0.5 / math.sqrt(1 / 12))
    assert _paired_z(rows, 1, 0) == pytest.approx(-0.5 / math.sqrt(1 / 12))


def test_settled_when_moves_never_differ_or_one_is_clearly_best() -> None:
    same = [[1.0, 1.0, 1.0], [0.0, 0.0, 0.0]] * 16
    assert _settled(same)
    assert not _settled(same[:30])  # too few iterations to call them equal
    clear = [[1.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 0.0]] * 4
    assert _settled(clear)  # z = 3.87 after 16
    close = [[1.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]] * 4
    assert not _settled(close)


def test_identical_moves_are_scored_on_the_same_luck() -> None:
    # In P the Jack and the Queen both add 10: on one determinization with the same
    # random numbers after them, their playouts must agree, so the search stops at 32.
    state = position_from_mapping(
        {
            "rules": "P",
            "total": 40,
            "turn": 1,
            "hands": ["JS QH", "2H 3H 5H", "2D 3D 6D", "2C 3C 5C"],
        }
    )
    bot = make_bot("ismcts:iterations=3000,prior=0")
    bot.choose(observe(state, 0), random.Random(4))
    assert bot.last_iterations == 32 * 2  # type: ignore[attr-defined]


def _after_first_bust(preset: str) -> tuple[bool, bool]:
    """Whether a playout goes on after seat 1 busts, and after the hand ends."""
    state = position_from_mapping(
        {
            "rules": preset,
            "total": 95,
            "turn": 1,
            "hands": ["QS QH QD", "2H 3H 5H", "2D 3D 6D", "2C 3C 5C"],
        }
    )
    going, lives = _in_play(state), state.lives[0]
    state.apply_code(state.legal_codes()[0])  # forced: every card busts
    assert state.lives[0] == lives - 1
    return going(state), state.is_over


def test_a_playout_plays_the_whole_hand_where_busters_sit_out() -> None:
    # K: a bust puts that seat out of the hand and the rest go on, until one is left;
    # every seat but one loses a life, so who busts first decides nothing yet.
    assert _after_first_bust("K") == (True, False)
    # P: the first bust ends the hand, and with it what the playout was about.
    assert _after_first_bust("P")[0] is False


def test_playout_values_score_who_loses_what_the_move_decides() -> None:
    # P, 95: whatever seat 0 plays, seat 1 holds only Queens and must bust, which ends
    # the hand; where seat 0 holds only a Queen itself, it is the one to lose.
    hands = ["9S 2S 3S", "QS QH QD", "2D 3D 6D", "2C 3C 5C"]
    state = position_from_mapping({"rules": "P", "total": 95, "turn": 1, "hands": hands})
    for code in state.legal_codes():
        assert playout_values(state.clone(), code, random.Random(1)) == [1, 0, 1, 1]
    state = position_from_mapping(
        {"rules": "P", "total": 95, "turn": 1, "hands": ["QC", *hands[1:]]}
    )
    assert playout_values(state, state.legal_codes()[0], random.Random(1)) == [0, 1, 1, 1]


@pytest.mark.parametrize("preset", sorted(presets()))
def test_a_deep_tree_finishes_every_preset(preset: str) -> None:
    assert play(preset, table(preset), ["ismcts:iterations=25,tree=0", "heuristic"], seed=3)


@pytest.mark.parametrize("preset", ["P", "K", "J"])
def test_players_are_found_to_keep_escape_cards_and_dump_high_ones(preset: str) -> None:
    # Ranks 4 (reverse), 9 (hold) and 10 (minus) escape in P, K and J; Jacks and Queens
    # (+10 or +20) are what a sensible player dumps first.
    weights = hand_weights(load_rules(preset), 4)
    assert len(weights) == 13
    assert min(weights[8], weights[9]) > 1.1 > 0.9 > max(weights[10], weights[11])


class _Checked(State):
    """A state that refuses an action code its own legal_codes() does not list."""

    __slots__ = ()
    checked = 0

    def apply_code(self, code: int) -> None:
        assert code in self.legal_codes(), (code, self.legal_codes())
        _Checked.checked += 1
        super().apply_code(code)


@pytest.mark.parametrize("preset", sorted(presets()))
def test_playouts_play_only_legal_moves_under_every_preset(preset: str) -> None:
    # The playout reads the safe moves from the engine's tables where the rules allow:
    # they must be what the engine calls legal, in every rule set.
    rules, rng = load_rules(preset), random.Random(5)
    policy, _Checked.checked = rollout_policy(rules), 0
    for _ in range(8):
        state = new_game(rules, 4 if rules.teams is Teams.POOLED else 3)
        state.__class__ = _Checked
        while not state.is_over:
            _playout(state, rng, policy, 500, 0.3, lambda s: not s.is_over)
    assert _Checked.checked > 50
