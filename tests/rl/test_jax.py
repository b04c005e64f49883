"""The JAX engine against the reference engine (the batch engine's differential test: the
same shuffles and actions give the same totals, lives, turns, hands and winners) and
against the NumPy batch engine with its own shuffles (the same distributions)."""

from __future__ import annotations

import jax
import numpy as np
import pytest

from ninetynine import load_rules
from ninetynine.errors import RulesError
from ninetynine.rl.batch import Batch
from ninetynine.rl.jax import JaxBatch, State, engine
from ninetynine.rules.settings import Rules
from tests.rl.test_batch import (
    HOUSE_POINTS,
    HOUSE_RESET,
    HOUSE_SIT_OUT,
    ScriptedShuffles,
    reference_game,
    replay,
)

# house rules (see tests/rl/test_batch.py): a reset for all with the pile taken away, and
# sitting out with an out player's hand under the pile and all of it reshuffled (the JAX
# engine draws no leader)
HOUSE_K = load_rules(HOUSE_RESET)
# pooled teams as P plays, the out side's hands under the pile, a penny from the pot for
# making 12 (early, while the pot is often empty)
HOUSE_TEAM = load_rules(
    {
        "preset": "P",
        "rules": {
            "teams": "pooled",
            "players_min": 4,
            "players_max": 4,
            "eliminated_hand": "under_pile",
            "rule_69": "penny_from_pool",
            "rule_69_total": 12,
        },
    }
)
HOUSE_P = load_rules(
    {"preset": "P", "rules": {k: v for k, v in HOUSE_SIT_OUT["rules"].items() if k != "starter"}}
)


@pytest.mark.parametrize(
    ("preset", "players"),
    [
        ("P", 2),
        ("P", 8),  # two decks
        ("K", 3),
        ("K", 6),
        ("G", 3),
        ("G", 8),
        ("J", 2),
        ("J", 5),
        ("BGA", 3),  # the loser leads
        ("P-TEN-MINUS", 4),  # a card that takes the total down
        ("98", 4),  # the first player out ends it
        ("WIKI", 2),  # a skipping card; a reverse flips nothing with two in the hand
        ("WIKI", 5),
        ("P-2P-AGAIN", 2),  # a reverse with two in the hand: play again
        ("P-1950", 3),  # out only when a life cannot be paid
        ("P-CONTINUE", 4),  # reset the others, the pile taken away, all of it reshuffled
        (HOUSE_K, 4),
        (HOUSE_P, 5),
        ("J-TEAM", 4),  # two partnerships, each spending one pool of lives
        (HOUSE_TEAM, 4),
        ("P-69", 4),  # a life from the pot for making 69
        (load_rules({"preset": "P", "rules": {"rule_69": "reset_to_zero"}}), 3),
        ("P-BORDERS", 3),  # game points: a point a border crossed, scores to 15
        ("P-BORDERS", 5),
        (load_rules(HOUSE_POINTS), 4),  # floored, ties shared, sitting out, 69's point
        (load_rules(HOUSE_POINTS), 2),
        (
            load_rules(
                {"preset": "P-BORDERS", "rules": {"points_tie": "shared", "points_target": 8}}
            ),
            4,
        ),
    ],
    ids=str,
)
def test_the_jax_engine_plays_as_the_reference_engine(preset: str | Rules, players: int) -> None:
    games = [reference_game(preset, players, seed) for seed in range(12)]
    batch = JaxBatch(
        preset,
        players,
        len(games),
        seed=1,
        shuffler=ScriptedShuffles(games),
        first=np.array([g["first"] for g in games]),
    )
    assert replay(batch, games) > 200


def outcomes(batch: Batch | JaxBatch, steps: int) -> dict[str, np.ndarray]:
    """Random games' hands, winners' lives and decisions, for the games that ended."""
    hands, lives, decisions = [], [], []
    started = np.zeros(batch.size, np.int64)
    for step in range(steps):
        batch.step(batch.random_actions(batch.legal()))
        over = np.flatnonzero(batch.over)
        hands += batch.final_hands[over].tolist()
        lives += batch.final_lives[over].max(axis=1).tolist()
        decisions += (step + 1 - started[over]).tolist()
        started[over] = step + 1
    return {"hands": np.array(hands), "lives": np.array(lives), "decisions": np.array(decisions)}


# G for the reshuffles of every card and of the pile, J for the deals from the stock,
# P-CONTINUE for the whole pile reshuffled after one taken away
@pytest.mark.parametrize(("preset", "players"), [("G", 5), ("J", 4), ("P-CONTINUE", 4)])
def test_the_jax_engine_plays_the_batch_engines_distributions(preset: str, players: int) -> None:
    """Thousands of games with each engine's own shuffles: the same mean game length (in
    hands and decisions) and winner's lives, within five standard errors."""
    size, steps = 1024, 700
    ours = outcomes(JaxBatch(preset, players, size, seed=5), steps)
    numpy = outcomes(Batch(preset, players, size, seed=5), steps)
    assert len(ours["hands"]) > 1500
    for name, a in ours.items():
        b = numpy[name]
        error = np.sqrt(a.var() / len(a) + b.var() / len(b))
        assert abs(a.mean() - b.mean()) <= 5 * error, (name, a.mean(), b.mean())


def test_the_per_game_functions_vmapped_play_whole_games() -> None:
    """Pgx's way: ``init`` and ``step`` of one game, vmapped and jitted (with the loop) by
    the caller."""
    e = engine(load_rules("G"), 5)
    legal, step = jax.vmap(e.legal), jax.vmap(e.step)

    def one(state: State, key: jax.Array) -> tuple[State, tuple[jax.Array, ...]]:
        allowed = legal(state)
        k1, k2 = jax.random.split(key)
        state = step(state, e.random_actions(allowed, k1), jax.random.split(k2, 64))
        return state, (allowed, state.total, e.popcount[state.alive], state.over)

    state = jax.jit(jax.vmap(e.init))(jax.random.split(jax.random.key(0), 64))
    play = jax.jit(lambda state, keys: jax.lax.scan(one, state, keys))
    _, (allowed, total, alive, over) = play(state, jax.random.split(jax.random.key(1), 300))
    assert (np.asarray(allowed) != 0).all()
    assert (np.asarray(total) <= e.limit).all() and (np.asarray(alive) >= 2).all()
    assert int(over.sum()) > 10


@pytest.mark.parametrize(
    ("preset", "named"),
    [
        ("TW", "'starter' = 'random'"),  # a leader drawn: the NumPy engine plays it
        (load_rules({"preset": "P", "rules": {"starter": "random"}}), "'starter' = 'random'"),
        ("P-ONLINE", "'thresholds' = 'online'"),  # the NumPy engine plays these
        ("P-UPCARD", "'start_total' = 'upcard'"),
        (
            load_rules({"preset": "IS", "rules": {"starter": "left_of_dealer"}}),
            "card QS of these rules (no draw after it)",
        ),
        (load_rules({"preset": "P", "rules": {"cards": {"2": "double"}}}), "kind 'double'"),
        ("CN99", "'eliminated_hand' = 'face_up'"),  # neither engine plays it
    ],
)
def test_the_jax_engine_names_what_it_does_not_play(preset: str | Rules, named: str) -> None:
    with pytest.raises(RulesError) as e:
        JaxBatch(preset, 4, 8)
    assert str(e.value).startswith("the JAX engine does not play") and "\n" not in str(e.value)
    assert named in str(e.value)


def test_a_game_is_compact() -> None:
    assert JaxBatch("P", 4, 16, seed=1).bytes_per_game <= 200
