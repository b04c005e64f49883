"""Property tests: any rule set, any table, any sequence of legal choices keeps the game sound.

Hypothesis draws presets, house-rules combinations of every setting, table sizes and move
choices; the invariants of the conformance harness must hold throughout.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from enum import StrEnum
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

from ninetynine import RulesError, load_rules, new_game, presets, step
from ninetynine.engine import events as E
from ninetynine.engine.actions import ActionKind
from ninetynine.engine.state import State
from ninetynine.engine.view import observe
from ninetynine.records.position import format_position
from ninetynine.rules.settings import Rules, Teams, apply_overrides
from tests.rules.test_cn99 import MOVING
from tests.test_conformance import check_invariants

PRESETS = list(presets())
ENUM_FIELDS = {f.name: f.type for f in dataclasses.fields(Rules)}


def _enum_settings() -> dict[str, list[str]]:
    from typing import get_type_hints

    hints = get_type_hints(Rules)
    return {
        name: [m.value for m in hint]
        for name, hint in hints.items()
        if isinstance(hint, type) and issubclass(hint, StrEnum)
    }


ENUMS = _enum_settings()
BOOLS = [
    "may_bust",
    "clear_pile_on_reset",
    "draw_after_bust",
    "king_ban_at_limit",
    "points_floor_zero",
    "instant_hands",
    "skip_with_two_players",
    "name_self",
    "milestones_on_bust",
    "border_cross_backward_costs",
]
EFFECTS = [
    "+1/+11",
    "hold",
    "hold reverse",
    "set",
    "-10",
    "+10/-10",
    "+4 reverse",
    "+10 skip",
    "halve-or-double",
    "halve-even",
    "+20",
    "+9",
    # FAMILIES.md §10
    "set 0",
    "set 50",
    "double",
    "hold name",
    "+5 name",
    "hold no-draw",
    "+5 skip",
    "+7 reverse",
    "+20/-20",
    "+1/+14",
    "pass",
    "set-any",
    "hold name no-draw",
    # FAMILIES.md §12
    "hold challenge",
    "hold swap",
    "hold take",
    "+5 take",
]
CARDS = ["AS", "AC", "2S", "5H", "10H", "10D", "QH", "QC", "KS", "KC"]


@st.composite
def house_rules(draw: st.DrawFn) -> Rules:
    """A preset with a handful of settings changed at random (valid combinations only)."""
    changes: dict[str, Any] = {}
    for key in draw(st.lists(st.sampled_from(sorted(ENUMS)), max_size=5, unique=True)):
        changes[key] = draw(st.sampled_from(ENUMS[key]))
    for key in draw(st.lists(st.sampled_from(BOOLS), max_size=3, unique=True)):
        changes[key] = draw(st.booleans())
    if draw(st.booleans()):
        ranks = draw(
            st.lists(
                st.sampled_from(["A", "2", "3", "4", "5", "7", "9", "10", "J", "Q", "K"]),
                max_size=3,
                unique=True,
            )
        )
        changes["cards"] = {r: draw(st.sampled_from(EFFECTS)) for r in ranks}
    if draw(st.booleans()):  # suit exceptions (the Ace of Spades, red or black courts...)
        cards = draw(st.lists(st.sampled_from(CARDS), max_size=3, unique=True))
        changes["suit_cards"] = {c: draw(st.sampled_from(EFFECTS)) for c in cards}
    if draw(st.booleans()):
        changes["king_ban_turns"] = draw(st.integers(0, 3))
    spec = {"preset": draw(st.sampled_from(PRESETS)), "rules": changes}
    try:
        return load_rules(spec)
    except RulesError:
        assume(False)
        raise


def play_checked(rules: Rules, players: int, seed: int, max_steps: int = 3000) -> None:
    rng = random.Random(seed)
    state = new_game(rules, players, first=seed % players)
    for _ in range(max_steps):
        if state.is_over:
            assert state.outcome is not None
            return
        if state.is_chance:
            state.apply(state.sample_chance(rng))
        else:
            before = format_position(state)
            action = rng.choice(state.legal_actions())
            new, _events = step(state, action)
            assert format_position(state) == before, "step() changed the original state"
            state = new
        check_invariants(state)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(PRESETS), st.integers(0, 8), st.integers(0, 2**32 - 1))
def test_presets_stay_sound(preset: str, extra: int, seed: int) -> None:
    rules = load_rules(preset)
    players = rules.players_min + extra % (rules.players_max - rules.players_min + 1)
    play_checked(rules, players, seed)


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(house_rules(), st.integers(0, 8), st.integers(0, 2**32 - 1))
def test_any_house_rules_stay_sound(rules: Rules, extra: int, seed: int) -> None:
    """Every combination of settings that validates also plays soundly (bounded length)."""
    players = rules.players_min + extra % (rules.players_max - rules.players_min + 1)
    play_checked(rules, players, seed, max_steps=1500)


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(house_rules(), st.integers(0, 8), st.integers(0, 2**32 - 1))
def test_swaps_and_takes_stay_sound_under_any_house_rules(
    rules: Rules, extra: int, seed: int
) -> None:
    """CN99's swap and take (FAMILIES §12.1, O46-O47) on top of any house rules that
    accept them: lives, teams, explicit draws, thresholds... the game stays sound."""
    try:
        rules = apply_overrides(rules, {"cards": {"7": "hold swap", "J": "hold take"}})
    except RulesError:
        assume(False)
    players = rules.players_min + extra % (rules.players_max - rules.players_min + 1)
    play_checked(rules, players, seed, max_steps=1500)


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(house_rules(), st.integers(0, 8), st.integers(0, 2**32 - 1))
def test_the_jokers_strip_and_revival_stay_sound_under_any_house_rules(
    rules: Rules, extra: int, seed: int
) -> None:
    """CN99's jokers (FAMILIES §12.1, O48-O49) in a 54-card pack, on top of any house rules
    that accept them: lives, thresholds, other stocks and empty hands... the game stays
    sound (cards conserved, known cards in place, bounded length)."""
    try:
        rules = apply_overrides(
            rules, {"jokers": True, "cards": {"SJ": "hold strip", "BJ": "hold revive"}}
        )
    except RulesError:
        assume(False)
    players = rules.players_min + extra % (rules.players_max - rules.players_min + 1)
    play_checked(rules, players, seed, max_steps=1500)


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(house_rules(), st.integers(0, 2**32 - 1))
def test_declinable_extra_turns_stay_sound(rules: Rules, seed: int) -> None:
    """Two players, any house rules, the reverse's extra turn a right the player may decline
    (``play_again_optional``: a setting the draws above rarely meet at a table of two)."""
    assume(rules.players_min == 2)
    play_checked(rules.replace(two_player_reverse="play_again_optional"), 2, seed, max_steps=1500)


def _logged_game(
    rules: Rules, players: int, seed: int, max_steps: int = 3000
) -> tuple[State, list[list[E.Event]]]:
    """A random game, with the events of each step."""
    rng = random.Random(seed)
    state = new_game(rules, players, first=seed % players)
    steps: list[list[E.Event]] = []
    for _ in range(max_steps):
        if state.is_over:
            break
        move = state.sample_chance(rng) if state.is_chance else rng.choice(state.legal_actions())
        steps.append(state.apply(move))
        check_invariants(state)
    return state, steps


@pytest.mark.parametrize("preset", PRESETS)
def test_the_games_end_closes_its_last_hand_in_every_rule_set(preset: str) -> None:
    """One order of events for all: HandEnded is logged only where another hand follows
    (a HandStarted after it); the game's end is the log's last word, never after a
    HandEnded of its own hand (P-BORDERS logged one, the lives games did not)."""
    rules = load_rules(preset)
    players = min(rules.players_min + 1, rules.players_max)
    state, steps = _logged_game(rules, players, seed=len(preset), max_steps=20000)
    log = [e for step_events in steps for e in step_events]
    assert state.is_over
    assert isinstance(log[-1], E.GameOver)
    last_start = max((i for i, e in enumerate(log) if isinstance(e, E.HandStarted)), default=-1)
    assert not any(isinstance(e, E.HandEnded) for e in log[last_start + 1 :])
    ended = [e.hand for e in log if isinstance(e, E.HandEnded)]
    assert ended == list(range(1, len(ended) + 1)) and state.hand_no == len(ended) + 1


@pytest.mark.parametrize("preset", ["G", "P-CONTINUE"])
def test_a_pile_cleared_at_a_reset_is_never_left_out_after_a_reshuffle(preset: str) -> None:
    """`clear_pile_on_reset` with `stock_empty = "reshuffle_keep_top"`: the cleared cards
    (``out``) come back at the next reshuffle; none stays counted out after it."""
    rules = load_rules(
        {
            "preset": preset,
            "rules": {"clear_pile_on_reset": True, "stock_empty": "reshuffle_keep_top"},
        }
    )
    met = 0
    for seed in range(12):
        state = new_game(rules, rules.players_min + seed % 3, first=0)
        rng = random.Random(seed)
        cleared = False
        while not state.is_over:
            move = (
                state.sample_chance(rng) if state.is_chance else rng.choice(state.legal_actions())
            )
            events = state.apply(move)
            cleared |= any(isinstance(e, E.TotalReset) and e.pile_cleared for e in events)
            if any(isinstance(e, E.StockReshuffled) for e in events):
                assert state.out == [], f"seed {seed}: {state.out} left out after a reshuffle"
                met += cleared
                cleared = False
            check_invariants(state)
    assert met >= 3  # the case arose: a reset cleared the pile before a reshuffle


MACHINE_SETTINGS = settings(
    max_examples=40,
    stateful_step_count=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


class GameMachine(RuleBasedStateMachine):
    """A state machine over whole games: a subclass's ``start`` deals one (:meth:`begin`),
    chance is drawn at once after every move, and a game over is followed by another of the
    same rules."""

    state: State
    rng: random.Random

    def begin(self, rules: Rules, players: int, seed: int) -> None:
        self.state = new_game(rules, players, first=seed % players)
        self.rng = random.Random(seed)
        self._settle()

    def _settle(self) -> None:
        while self.state.is_chance:
            self.state.apply(self.state.sample_chance(self.rng))

    @precondition(lambda self: self.state.is_over)
    @rule(seed=st.integers(0, 2**31))
    def next_game(self, seed: int) -> None:
        s = self.state
        self.state = new_game(s.rules, s.n, first=seed % s.n)
        self._settle()


# The King Challenge (KC, FAMILIES §12.2): a state machine that seeks challenges out ----------


class ChallengeMachine(GameMachine):
    """KC and house rules on it at any table size: challenges made, answered, cancelled and
    accepted in any order; the game stays sound, the challenged may only answer, and each
    seat's view holds its own hand alone."""

    @initialize(
        extra=st.integers(0, 8),
        seed=st.integers(0, 2**31),
        cancel=st.sampled_from([["4"], ["4", "5"], []]),
        lives=st.integers(1, 2),
    )
    def start(self, extra: int, seed: int, cancel: list[str], lives: int) -> None:
        rules = load_rules({"preset": "KC", "rules": {"challenge_cancel": cancel, "lives": lives}})
        self.begin(rules, 2 + extra % 9, seed)

    @precondition(lambda self: not self.state.is_over)
    @rule(pick=st.integers(0, 2**16), challenge=st.booleans())
    def move(self, pick: int, challenge: bool) -> None:
        legal = self.state.legal_actions()
        kings = [a for a in legal if a.target is not None]
        options = kings if challenge and kings else legal
        action = options[pick % len(options)]
        was = self.state.challenger
        before = self.state.clone()
        events = self.state.apply(action)
        if was >= 0:  # an answer or an acceptance ends the challenge
            assert self.state.challenger == -1
            assert action.kind is ActionKind.ACCEPT or action.card in before.c.answers
            assert any(isinstance(e, (E.ChallengeAnswered, E.Conceded)) for e in events)
        if action.target is not None and action.card in before.c.challenging:
            assert any(isinstance(e, E.Challenged) for e in events)
            assert self.state.total == before.total
        self._settle()

    @invariant()
    def sound(self) -> None:
        s = self.state
        check_invariants(s)
        if s.challenger >= 0 and not s.is_over:
            assert s.current_seat is not None and s.challenger != s.turn
            kinds = {a.kind for a in s.legal_actions()}
            assert ActionKind.ACCEPT in kinds
            assert all(a.card is None or a.card in s.c.answers for a in s.legal_actions())
        for seat in range(s.n):
            view = observe(s, seat)
            assert sorted(view.hand) == sorted(s.hands[seat])
            assert view.challenger == (s.challenger if s.challenger >= 0 else None)


TestChallengeMachine = ChallengeMachine.TestCase
TestChallengeMachine.settings = MACHINE_SETTINGS


# CN99's 7 and J (FAMILIES §12.1, O46-O47): a state machine that seeks swaps and takes out ----


class MovingCardsMachine(GameMachine):
    """CN99 (the preset, its jokers stripping and reviving too) and its plain game with the
    7's swap and the J's take alone, at 2 to 6 seats (two packs at six): swaps, takes,
    strips and revivals made in any order; the cards go where the rules say, each seat
    knows what it gave away or lost and nothing more, and each seat's view holds its own
    hand and what it knows alone. With O51's teams of alternate seats (4 or 6 seats), the
    game goes on while both sides hold cards and ends with one side's every seat winning."""

    @initialize(
        extra=st.integers(0, 4),
        seed=st.integers(0, 2**31),
        lives=st.integers(1, 2),
        preset=st.booleans(),
        teams=st.booleans(),
    )
    def start(self, extra: int, seed: int, lives: int, preset: bool, teams: bool) -> None:
        spec = {"preset": "CN99", "rules": {}} if preset else MOVING
        changes = {**spec["rules"], "lives": lives}
        if teams:
            changes |= {"teams": "alternate", "players_min": 4, "players_max": 10}
        rules = load_rules({**spec, "rules": changes})
        self.begin(rules, 4 + 2 * (extra % 2) if teams else 2 + extra, seed)

    @precondition(lambda self: not self.state.is_over)
    @rule(pick=st.integers(0, 2**16), moving=st.booleans())
    def move(self, pick: int, moving: bool) -> None:
        s = self.state
        legal = s.legal_actions()
        movers = [a for a in legal if a.card is not None and s.rules.effect_of(a.card).moves_cards]
        options = movers if moving and movers else legal
        action = options[pick % len(options)]
        before, seat = s.clone(), s.current_seat
        assert seat is not None
        events = s.apply(action)
        self._settle()
        if s.hand_no != before.hand_no or action.target is None or action.card is None:
            return  # (a hand that ended with the play is dealt again: nothing to follow)
        target, effect = action.target, before.rules.effect_of(action.card)
        given = Counter(before.hands[seat]) - Counter([action.card])
        if effect.swap:
            assert any(isinstance(e, E.HandsSwapped) for e in events)
            assert Counter(s.hands[seat]) == Counter(before.hands[target])
            assert Counter(s.hands[target]) == given
            assert Counter(s.known_to(seat)[target]) == given  # it knows what it gave
            assert Counter(s.known_to(target)[seat]) == Counter(before.hands[target])
        elif effect.take:
            assert any(isinstance(e, E.CardTaken) for e in events)
            lost = Counter(before.hands[target]) - Counter(s.hands[target])
            assert sum(lost.values()) == 1 and Counter(s.hands[seat]) == given + lost
            assert not lost - Counter(s.known_to(target)[seat])  # the victim knows it
            for other in range(s.n):  # a third seat learns nothing of either hand
                if other not in (seat, target):
                    for holder in (seat, target):
                        now, then = s.known_to(other)[holder], before.known_to(other)[holder]
                        assert not Counter(now) - Counter(then)
        elif effect.strip:  # one card left, picked blind: only its holder knows it
            assert len(s.hands[target]) == 1
            assert not any(s.known_to(other)[target] for other in range(s.n) if other != target)
        elif effect.revive:  # back with a full hand (or a short one filled up)
            assert s.alive[target] and s.in_hand[target]
            assert len(s.hands[target]) == s.rules.hand_size
            if not before.in_hand[target]:  # a revived hand is known to nobody else
                assert not any(s.known_to(o)[target] for o in range(s.n) if o != target)

    @invariant()
    def sound(self) -> None:
        s = self.state
        check_invariants(s)
        for seat in range(s.n):
            view = observe(s, seat)
            assert sorted(view.hand) == sorted(s.hands[seat])
            assert [sorted(k) for k in view.known] == [sorted(k) for k in s.known_to(seat)]
        if s.rules.teams is Teams.ALTERNATE:  # one side left ends it; all of that side wins
            sides = {seat % 2 for seat in range(s.n) if s.alive[seat]}
            if s.outcome is None:
                assert sides == {0, 1}
            else:
                assert s.outcome.winners == tuple(range(min(sides), s.n, 2))


TestMovingCardsMachine = MovingCardsMachine.TestCase
TestMovingCardsMachine.settings = MACHINE_SETTINGS
