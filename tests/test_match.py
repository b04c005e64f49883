"""``Match``: a game in progress written once. A Hypothesis state machine plays, checks,
writes and reads records and takes views over every preset; the chance schemes give the
games they promise."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from ninetynine import load_rules, presets
from ninetynine.engine.actions import Action, ActionKind
from ninetynine.engine.state import State
from ninetynine.errors import IllegalActionError, NinetyNineError, RecordError
from ninetynine.records.match import Chance, Match, replay
from ninetynine.records.record import format_record, parse_record
from tests.test_conformance import check_invariants

PRESETS = list(presets())


def snapshot(state: State) -> tuple[object, ...]:
    return (
        repr(state),
        state.total,
        tuple(map(tuple, state.hands)),
        tuple(state.stock),
        tuple(state.lives),
        state.phase,
    )


class MatchMachine(RuleBasedStateMachine):
    """Any preset, any table size; legal moves, refused moves, records and views."""

    match: Match

    @initialize(
        preset=st.sampled_from(PRESETS),
        extra=st.integers(0, 8),
        seed=st.integers(0, 2**31),
        named=st.booleans(),
    )
    def start(self, preset: str, extra: int, seed: int, named: bool) -> None:
        rules = load_rules(preset)
        players = rules.players_min + extra % (rules.players_max - rules.players_min + 1)
        names = [f"Name{i}" for i in range(players)] if named else None
        self.match = Match.new(
            rules, players, first=seed % players, chance=Chance.by_move(seed), names=names
        )
        self.rng = random.Random(seed)

    @precondition(lambda self: not self.match.is_over)
    @rule()
    def play_a_legal_move(self) -> None:
        seat = self.match.state.current_seat
        assert seat is not None  # auto chance leaves a player to move
        before = self.match.version
        action = self.rng.choice(self.match.state.legal_actions())
        self.match.check(action, seat)  # raises nothing, changes nothing
        self.match.play(action, seat)
        assert self.match.version > before
        assert self.match.moves[before] == (seat, action)

    @precondition(lambda self: not self.match.is_over)
    @rule(data=st.data())
    def a_refused_move_changes_nothing(self, data: st.DataObject) -> None:
        state = self.match.state
        seat = state.current_seat
        assert seat is not None
        legal = state.legal_actions()
        candidates = [
            Action(ActionKind.PASS),
            Action(ActionKind.DRAW),
            *(Action.play(c) for c in range(0, 52, 5)),
        ]
        wrong = [a for a in candidates if a not in legal]
        other = (seat + 1) % state.n
        move, who = data.draw(st.sampled_from([(a, seat) for a in wrong] + [(legal[0], other)]))
        before, version = snapshot(state), self.match.version
        with pytest.raises(IllegalActionError):
            self.match.check(move, who)
        with pytest.raises(IllegalActionError):
            self.match.play(move, who)
        assert snapshot(self.match.state) == before and self.match.version == version

    @rule()
    def the_record_round_trips(self) -> None:
        text = format_record(self.match.record(), self.match.state)
        again = Match.from_record(parse_record(text))
        assert again.state == self.match.state and again.moves == self.match.moves
        assert again.names == self.match.names
        final, log = replay(self.match.record())
        assert final == self.match.state and log == self.match.log

    @rule(data=st.data())
    def a_view_shows_that_seat_only(self, data: st.DataObject) -> None:
        state = self.match.state
        seat = data.draw(st.integers(0, state.n - 1))
        view = self.match.view(seat)
        assert list(view.hand) == sorted(state.hands[seat])
        assert view.hand_sizes == tuple(len(h) for h in state.hands)
        assert view.history == tuple(self.match.log)
        assert view.legal == (tuple(state.legal_actions()) if state.current_seat == seat else ())

    @invariant()
    def sound(self) -> None:
        check_invariants(self.match.state)
        places = [s.place for s in self.match.standings()]
        assert min(places) == 1 and all(1 <= p <= len(places) for p in places)
        if self.match.is_over:
            outcome = self.match.state.outcome
            assert outcome is not None
            assert {s.seat for s in self.match.standings() if s.won} == set(outcome.winners)


def _machine_for(preset: str) -> type:
    """The machine on one preset, so that every preset is covered, not just drawn."""

    class OnePreset(MatchMachine):
        @initialize(extra=st.integers(0, 8), seed=st.integers(0, 2**31), named=st.booleans())
        def start(self, extra: int, seed: int, named: bool) -> None:  # type: ignore[override]
            MatchMachine.start(self, preset, extra, seed, named)

    OnePreset.TestCase.settings = settings(
        max_examples=12,
        stateful_step_count=50,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    )
    return OnePreset.TestCase


for _preset in PRESETS:
    globals()[f"test_match_machine_{_preset.replace('-', '_')}"] = _machine_for(_preset)


def test_by_move_chance_resumes_exactly() -> None:
    """A game stopped, written out and resumed goes on as if it had never stopped."""

    def choose(match: Match) -> Action:
        return random.Random(match.version).choice(match.state.legal_actions())

    rules = load_rules("K")
    whole = Match.new(rules, 3, chance=Chance.by_move(5))
    cut = None
    while not whole.is_over:
        whole.play(choose(whole))
        if whole.version > 30 and cut is None:
            cut = parse_record(format_record(whole.record()))
    assert cut is not None
    resumed = Match.from_record(cut, chance=Chance.by_move(5), auto_chance=True)
    while not resumed.is_over:
        resumed.play(choose(resumed))
    assert resumed.moves == whole.moves


def test_by_hand_chance_deals_the_same_cards_in_every_hand_whatever_happened_before() -> None:
    rules = load_rules("P")
    games = []
    for policy in (0, 1):  # two very different ways of playing the same deals
        match = Match.new(rules, 3, chance=Chance.by_hand("block-7"))
        deals: dict[int, list[list[int]]] = {}
        while not match.is_over:
            legal = match.state.legal_actions()
            deals.setdefault(match.state.hand_no, [sorted(h) for h in match.state.hands])
            match.play(legal[0] if policy == 0 else legal[-1])
        games.append(deals)
    common = set(games[0]) & set(games[1])
    assert common and all(games[0][h] == games[1][h] for h in common)


def test_system_chance_differs_and_lives_only_in_the_moves() -> None:
    rules = load_rules("P")
    a, b = Match.new(rules, 2), Match.new(rules, 2)
    assert a.moves[0] != b.moves[0]
    again = Match.from_record(parse_record(format_record(a.record())))
    assert again.state == a.state


def test_a_bad_record_names_the_move_and_a_bad_names_list_is_refused() -> None:
    record = Match.new(load_rules("P"), 2, chance=Chance.by_move(1)).record()
    record.moves.append((0, Action(ActionKind.PASS)))
    with pytest.raises(RecordError, match=r"action 2 \('1: pass'\)"):
        Match.from_record(record)
    with pytest.raises(NinetyNineError, match="3 names for 2 players"):
        Match.new(load_rules("P"), 2, names=["A", "B", "C"])


def test_standing_and_returns_are_the_engines() -> None:
    from ninetynine.records.match import returns, standing

    match = Match.new(load_rules("J-TEAM"), 4, chance=Chance.by_move(2))
    assert standing(match.state) == [6.0] * 4 and returns(match.state) == [0.0] * 4
    while not match.is_over:
        match.play(random.Random(match.version).choice(match.state.legal_actions()))
    winners = set(match.state.outcome.winners)  # type: ignore[union-attr]
    assert returns(match.state) == [1.0 if s in winners else 0.0 for s in range(4)]
    lives = standing(match.state)
    assert lives[0] == lives[2] and lives[1] == lives[3]  # partners share a pool
    points = Match.new(load_rules("P-BORDERS"), 3, chance=Chance.by_move(2)).state
    assert standing(points) == [3.0, 3.0, 3.0]  # the game points held this hand
