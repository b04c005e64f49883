"""One conformance harness, run over every preset at its smallest, typical and largest table.

Random games must end; cards are conserved; the total stays in bounds; legal actions are
sorted, unique and all applicable; the fast path agrees with the checked one; records and
positions round-trip and replay identically; a seat's view is unchanged by anything it may
not see.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from ninetynine import IllegalActionError, load_rules, new_game, play_out, presets
from ninetynine.engine.actions import Action, ActionKind
from ninetynine.engine.state import DOWN, PASS, PLAY, State
from ninetynine.engine.view import observe
from ninetynine.records.match import Match, replay
from ninetynine.records.position import format_position, parse_position
from ninetynine.records.record import Record, format_record, parse_record
from ninetynine.rules.cards import new_deck
from ninetynine.rules.settings import BelowZero, Rules
from tests.rules.test_cn99 import JOKERS, MOVING


def tables() -> list[tuple[str, int]]:
    out = []
    for pid in presets():
        r = load_rules(pid)
        for n in sorted({r.players_min, min(max(4, r.players_min), r.players_max), r.players_max}):
            out.append((pid, n))
    return out


# house rules that no preset holds, each at a table where they matter
HOUSE_RULES: dict[str, dict[str, Any]] = {
    "P-2P-AGAIN+optional": {
        "preset": "P-2P-AGAIN",
        "rules": {"two_player_reverse": "play_again_optional"},
    },
    # a play over the limit that pays the milestones it makes or crosses besides the bust
    "P-ONLINE+may-bust": {"preset": "P-ONLINE", "rules": {"may_bust": True}},
    # CN99's 7 swaps hands and J takes a card (FAMILIES §12.1, O46-O47), on its plain part
    "CN99-moving": MOVING,
    # and its small joker's strip and big joker's revival or refill (O48-O49)
    "CN99-jokers": JOKERS,
}
TABLES = tables() + [("P-2P-AGAIN+optional", 2), ("CN99-moving", 2), ("CN99-moving", 4)]
TABLES += [("CN99-jokers", 2), ("CN99-jokers", 4), ("P-ONLINE+may-bust", 3)]


def table_rules(name: str) -> Rules:
    return load_rules(HOUSE_RULES.get(name, name))


def random_game(rules: Rules, players: int, seed: int) -> tuple[Record, State, list]:
    """A random game through the checked API; returns its record, final state and events."""
    rng = random.Random(seed)
    match = Match.new(rules, players, first=seed % players, auto_chance=False)
    state = match.state
    steps = 0
    while not state.is_over:
        steps += 1
        assert steps < 50_000, "the game does not end"
        match.play(
            state.sample_chance(rng) if state.is_chance else rng.choice(state.legal_actions())
        )
        check_invariants(state)
    return match.record(), state, match.log


def check_invariants(state: State) -> None:
    deck = Counter(new_deck(state.decks, state.rules.jokers))
    assert Counter(state.all_cards()) == deck, "cards not conserved"
    for seat in range(state.n):  # what a seat knows of another hand is in that hand
        for holder, cards in enumerate(state.known_to(seat)):
            assert not Counter(cards) - Counter(state.hands[holder]), "known card not there"
    rules = state.rules
    if state.phase == PLAY:
        assert state.total <= rules.limit
        if rules.below_zero is not BelowZero.ALLOW:
            assert state.total >= 0
        assert state.in_hand[state.turn] and state.alive[state.turn]
        codes = state.legal_codes()
        assert codes, "a seat to act must have a legal action"
        assert codes == sorted(set(codes)), "legal actions must be sorted and unique"
        if state.may_decline:  # the offered turn can always be declined, never laid down
            assert PASS in codes and DOWN not in codes
    assert not state.may_decline or state.c.optional_again and sum(state.in_hand) == 2
    for seat in range(state.n):
        assert not state.in_hand[seat] or state.alive[seat]
    assert state.chain >= 0 and state.plays_left >= 0 and not (state.chain and state.plays_left)
    if rules.scoring.value == "lives":
        assert all(v >= 0 for v in state.lives)


@pytest.mark.parametrize(("preset", "players"), TABLES)
def test_random_games_are_consistent(preset: str, players: int) -> None:
    rules = table_rules(preset)
    for seed in range(3):
        record, final, events = random_game(rules, players, seed)
        assert final.outcome is not None
        assert all(0 <= w < players for w in final.outcome.winners)
        # the record replays exactly, through its text form, with no seed
        text = format_record(record, final)
        replayed, replay_events = replay(parse_record(text))
        assert replayed == final
        assert replay_events == events
        assert format_record(parse_record(text), replayed) == text


def drive(state: State, rng: random.Random) -> State:
    """The fast path a step at a time: the same draws as the checked path's, whose
    legal_actions() are in legal_codes()' order."""
    while not state.is_over:
        if state.is_chance:
            state.play_chance(rng)
        else:
            state.apply_code(rng.choice(state.legal_codes()))
    return state


@pytest.mark.parametrize(("preset", "players"), TABLES)
def test_fast_path_matches_checked_path(preset: str, players: int) -> None:
    rules = table_rules(preset)
    for seed in range(8):
        fast = new_game(rules, players, first=seed % players)
        checked = fast.clone()
        drive(fast, random.Random(seed))
        play_out(checked, random.Random(seed), fast=False)
        assert fast == checked


class Chooser(random.Random):
    """A generator whose choice among moves does not hang on their order (a random one of
    them sorted): a one-call playout and a step-at-a-time one make the same moves with it,
    and draw the same shuffles; a list with a move missing or twice makes another choice."""

    def choice(self, seq: Any) -> Any:
        return sorted(seq)[int(self.random() * len(seq))]


@pytest.mark.parametrize(("preset", "players"), TABLES)
def test_a_one_call_playout_plays_as_the_fast_path_does_a_step_at_a_time(
    preset: str, players: int
) -> None:
    rules = table_rules(preset)
    for seed in range(6):
        whole = new_game(rules, players, first=seed % players)
        stepped = whole.clone()
        decisions = whole.play_random(Chooser(seed))
        assert whole == drive(stepped, Chooser(seed))
        assert whole.is_over and decisions > 0


@pytest.mark.parametrize(("preset", "players"), TABLES)
def test_positions_round_trip_and_actions_apply(preset: str, players: int) -> None:
    rules = table_rules(preset)
    rng = random.Random(7)
    state = new_game(rules, players)
    steps = 0
    while not state.is_over and steps < 400:
        steps += 1
        text = format_position(state)
        copy = parse_position(text)
        assert copy == state
        assert format_position(copy) == text
        if state.is_chance:
            state.apply(state.sample_chance(rng))
            continue
        legal = state.legal_actions()
        for action in legal:  # every legal action applies through the checked API
            state.clone().apply(action, seat=state.turn)
        _check_illegal_rejected(state, legal)
        state.apply(rng.choice(legal))


def _check_illegal_rejected(state: State, legal: list[Action]) -> None:
    hand = state.hands[state.turn]
    candidates = [Action(ActionKind.DOWN), Action(ActionKind.PASS), Action(ActionKind.DRAW)]
    for card in set(hand):  # every value, every seat a card could name
        candidates += state.plays_of(card)
    for action in candidates:
        if action not in legal:
            before = format_position(state)
            with pytest.raises(IllegalActionError):
                state.apply(action)
            assert format_position(state) == before, "a rejected action changed the state"
    other = (state.turn + 1) % state.n
    if legal and other != state.turn:
        with pytest.raises(IllegalActionError):
            state.clone().apply(legal[0], seat=other)


@pytest.mark.parametrize(("preset", "players"), TABLES)
def test_views_leak_nothing(preset: str, players: int) -> None:
    """Shuffling everything a seat cannot see leaves that seat's view unchanged."""
    rules = table_rules(preset)
    rng = random.Random(11)
    state = new_game(rules, players)
    steps = 0
    while not state.is_over and steps < 150:
        steps += 1
        if state.is_chance:
            state.apply(state.sample_chance(rng))
            continue
        for seat in range(players):
            view = observe(state, seat)
            assert list(view.hand) == sorted(state.hands[seat])
            hidden_twin = _reshuffle_hidden(state, seat, rng)
            assert observe(hidden_twin, seat) == view
            assert Counter(view.unseen()) == Counter(
                c for s in range(players) if s != seat for c in state.hands[s]
            ) + Counter(state.stock) + Counter(state.pile[: state.face_down]) + Counter(
                [state.held] if state.held >= 0 else []
            )
        state.apply(rng.choice(state.legal_actions()))


def _reshuffle_hidden(state: State, seat: int, rng: random.Random) -> State:
    """A state that differs only in what ``seat`` cannot see: other hands (but the cards it
    knows there, CN99's swaps and takes), stock, face-down."""
    twin = state.clone()
    others = [s for s in range(state.n) if s != seat]
    known = state.known_to(seat)
    unknown = {s: list((Counter(twin.hands[s]) - Counter(known[s])).elements()) for s in others}
    pool = [c for s in others for c in unknown[s]] + twin.stock + twin.pile[: twin.face_down]
    rng.shuffle(pool)
    for s in others:
        k = len(unknown[s])
        twin.hands[s], pool = known[s] + pool[:k], pool[k:]
    twin.pile[: twin.face_down], pool = pool[: twin.face_down], pool[twin.face_down :]
    twin.stock = pool
    return twin


def test_determinism_ignores_global_random() -> None:
    """Only the injected generator decides chance: stirring the global one changes nothing."""
    rules = load_rules("P")
    a = drive(new_game(rules, 4), random.Random(5))
    random.seed(123)
    random.random()
    b = new_game(rules, 4)
    rng = random.Random(5)
    while not b.is_over:
        random.shuffle(list(range(10)))  # stir the global generator between steps
        if b.is_chance:
            b.apply(b.sample_chance(rng))
        else:
            b.apply_code(rng.choice(b.legal_codes()))
    assert a == b
