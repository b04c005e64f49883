"""The batch engine against the reference engine: the same shuffles and the same actions
give the same totals, lives, turns and winners, on random games of every base game, and
the same hands, leaders, dealers and lives paid by cause (what a simulation's rows read)."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from ninetynine import load_rules
from ninetynine.engine.actions import Shuffle
from ninetynine.engine.ledger import LedgerState
from ninetynine.engine.state import CHANCE, DOWN, OVER
from ninetynine.engine.tables import card_of
from ninetynine.errors import RulesError
from ninetynine.rl.batch import EMPTY, Batch
from ninetynine.rules.settings import Rules


def reference_game(preset: str, players: int, seed: int) -> dict:
    """A random game on the reference engine: its first seat, every shuffle, and after
    each decision (chance drawn) the seat, its code, the total, lives and seat to act, and
    what the ledger and the deal say then (:func:`dealt`)."""
    rng = random.Random(seed)
    first = rng.randrange(players)
    state = LedgerState.start(load_rules(preset), players, first=first)
    shuffles: list[tuple[int, ...]] = []
    moves = []

    def chance() -> None:
        while state.phase == CHANCE:
            outcome = state.play_chance(rng)
            assert isinstance(outcome, Shuffle)
            shuffles.append(outcome.order)

    chance()
    deals = [dealt(state, 0)]
    while state.phase != OVER:
        seat, code = state.turn, rng.choice(state.legal_codes())
        paid = len(state.paid)
        state.apply_code(code)
        chance()
        moves.append(
            (
                seat,
                code,
                state.total,
                [state.seat_lives(s) for s in range(players)],
                state.current_seat,
            )
        )
        deals.append(dealt(state, paid))
    assert state.outcome is not None
    return {
        "first": first,
        "shuffles": shuffles,
        "moves": moves,
        "deals": deals,
        "winners": sum(1 << w for w in state.outcome.winners),
        "lives": [state.seat_lives(s) for s in range(players)],
        "hands": state.hand_no,
    }


def dealt(state: LedgerState, paid: int) -> dict:
    """The hand's number, leader, dealer and (sorted) hands, and the ledger's entries
    since entry ``paid``: (seat, lives, cause)."""
    return {
        "hand": state.hand_no,
        "leader": (state.starter, state.dealer),
        "hands": [sorted(h) for h in state.hands],
        "paid": state.paid[paid:],
    }


def held(batch: Batch, slot: int) -> list[list[int]]:
    return [sorted(c for c in hand if c != EMPTY) for hand in batch.hands[slot].tolist()]


def check_paid(batch: Batch, slot: int, paid: list[tuple[int, int, int]]) -> None:
    """The batch's loser, lives paid and cause this step are the ledger's entries."""
    if batch.loser[slot] < 0:
        assert not paid and batch.cause[slot] == -1
    elif batch.paid[slot]:
        assert paid == [(batch.loser[slot], batch.paid[slot], batch.cause[slot])]
    else:
        assert not paid


class ScriptedShuffles:
    """The reference games' shuffles, slot by slot; asks for the same cards or fails."""

    def __init__(self, games: list[dict]) -> None:
        self.queues = [list(g["shuffles"]) for g in games]
        self.rng = np.random.default_rng(0)

    def __call__(self, slots: np.ndarray, cards: np.ndarray, counts: np.ndarray) -> np.ndarray:
        out = np.full(cards.shape, EMPTY, np.int64)
        for row, slot in enumerate(slots):
            asked = cards[row, : counts[row]]
            queue = self.queues[slot]
            if queue:  # the reference game goes on: the same cards, in its order
                order = queue.pop(0)
                assert sorted(order) == asked.tolist(), f"slot {slot} shuffles other cards"
                out[row, : counts[row]] = order
            else:  # a new game after the reference one ended
                out[row, : counts[row]] = self.rng.permutation(asked)
        return out


@pytest.mark.parametrize(
    ("preset", "players"),
    [
        ("P", 2),
        ("P", 4),
        ("P", 5),
        ("P", 8),
        ("K", 2),
        ("K", 4),
        ("K", 6),
        ("G", 3),
        ("G", 5),
        ("G", 8),
        ("J", 2),
        ("J", 4),
        ("J", 5),
        ("BGA", 3),  # the loser leads
        ("P-TEN-MINUS", 4),  # a card that takes the total down
        ("BICYCLE", 4),
    ],
)
def test_batch_plays_as_the_reference_engine(preset: str, players: int) -> None:
    games = [reference_game(preset, players, seed) for seed in range(30)]
    batch = Batch(
        preset,
        players,
        len(games),
        seed=1,
        shuffler=ScriptedShuffles(games),
        first=np.array([g["first"] for g in games]),
    )
    assert replay(batch, games) > 500


def replay(batch: Any, games: list[dict]) -> int:
    """Play the reference ``games`` in ``batch`` (made with their shuffles and first seats:
    a :class:`Batch` or another engine with its API), checking every step; returns the
    decisions compared."""
    step = [0] * len(games)
    compared = 0
    for g, game in enumerate(games):  # the first hand as dealt
        assert held(batch, g) == game["deals"][0]["hands"]
        assert (batch.starter[g], batch.dealer[g]) == game["deals"][0]["leader"]
    while live := [g for g, game in enumerate(games) if step[g] < len(game["moves"])]:
        legal = np.asarray(batch.legal())
        actions = np.array(batch.random_actions(legal))  # ended slots play anything legal
        for g in live:
            seat, code = games[g]["moves"][step[g]][:2]
            assert batch.turn[g] == seat
            if code == DOWN:
                action = batch.down
            else:
                slot = list(batch.hands[g, seat]).index(card_of(code))
                action = 2 * slot + (code & 3)
            assert legal[g] >> action & 1, "the reference's action is legal in the batch"
            actions[g] = action
        assert batch.codes(actions)[live].tolist() == [games[g]["moves"][step[g]][1] for g in live]
        batch.step(actions)
        for g in live:
            game = games[g]
            _, _, total, lives, turn = game["moves"][step[g]]
            step[g] += 1
            deal = game["deals"][step[g]]
            check_paid(batch, g, deal["paid"])
            if step[g] == len(game["moves"]):
                assert batch.over[g] and batch.winners[g] == game["winners"]
                assert batch.final_lives[g].tolist() == game["lives"]
                assert batch.final_hands[g] == game["hands"]
                continue
            assert not batch.over[g]
            assert (batch.total[g], batch.lives[g].tolist(), batch.turn[g]) == (total, lives, turn)
            assert batch.hand_no[g] == deal["hand"]
            assert (batch.starter[g], batch.dealer[g]) == deal["leader"]
            if deal["hand"] != game["deals"][step[g] - 1]["hand"]:  # a new hand, as dealt
                assert held(batch, g) == deal["hands"]
            compared += 1
    return compared


@pytest.mark.parametrize("preset", ["P", "K", "G", "J"])
def test_the_batch_legal_actions_are_never_empty_and_games_end(preset: str) -> None:
    batch = Batch(preset, 4, 256, seed=3)
    ended = 0
    for _ in range(400):
        legal = batch.legal()
        assert (legal != 0).all()
        batch.step(batch.random_actions(legal))
        ended += int(batch.over.sum())
        assert (batch.total <= batch.limit).all()
        assert (batch.popcount[batch.alive] >= 2).all()
    assert ended > 50


def test_the_batch_names_what_it_does_not_play() -> None:
    with pytest.raises(RulesError) as e:
        Batch("TW", 4, 8)
    assert "batch engine" in str(e.value) and "\n" not in str(e.value)
    with pytest.raises(RulesError, match="thresholds"):
        Batch("P-ONLINE", 4, 8)
    optional = load_rules(
        {"preset": "P-2P-AGAIN", "rules": {"two_player_reverse": "play_again_optional"}}
    )
    with pytest.raises(RulesError, match="'two_player_reverse' = 'play_again_optional'"):
        Batch(optional, 2, 8)


def test_a_game_of_p_for_four_takes_at_most_200_bytes() -> None:
    assert Batch("P", 4, 1024, seed=1).bytes_per_game <= 200  # 1,591 in int64


def test_every_array_with_a_part_per_game_is_counted() -> None:
    """The arrays outside ``PER_GAME`` (but its views) are tables: the same at any size."""
    small, big = Batch("G", 8, 3, observed=True), Batch("G", 8, 5, observed=True)
    for name, value in vars(small).items():
        if isinstance(value, np.ndarray) and name not in Batch.PER_GAME and value.base is None:
            assert value.shape == getattr(big, name).shape, name
    for name in Batch.PER_GAME:
        assert len(getattr(big, name)) > len(getattr(small, name)), name


@pytest.mark.parametrize(
    ("rules", "players"),
    [
        ("P", 7),  # a total below 0 without a floor: int32
        ("G", 7),
        (load_rules({"preset": "J", "rules": {"limit": 300, "lives": 200}}), 5),  # int16
    ],
)
def test_the_state_keeps_its_compact_types_and_its_bounds(rules: str | Rules, players: int) -> None:
    batch = Batch(rules, players, 256, seed=2, observed=True)
    types = {name: getattr(batch, name).dtype for name in Batch.PER_GAME}
    rng = np.random.default_rng(2)
    for step in range(600):
        if step % 2:
            batch.step(batch.random_actions(batch.legal()))
        else:  # some slots only: written row by row
            slots = np.flatnonzero(rng.random(batch.size) < 0.5)
            batch.step(batch.random_actions(batch.legal(slots)), slots)
        assert (batch.total <= batch.limit).all()
        assert ((batch.lives >= 0) & (batch.lives <= batch.start_lives)).all()
    assert {name: getattr(batch, name).dtype for name in Batch.PER_GAME} == types
    assert batch.lives.dtype == (np.int16 if batch.start_lives > 127 else np.int8)
    assert batch.alive.dtype == np.int8 and batch.hands.dtype == np.int8
