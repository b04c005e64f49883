"""The vector environment on the batch engine: Gymnasium's vector API (spaces, shapes,
seeding, SAME_STEP autoreset), and its games replayed on the reference engine, shuffle for
shuffle and move for move: the learner's observations and masks are the encoding's, the
batched greedy-keep moves as the scalar bot, and the rewards add up to the outcomes."""

from __future__ import annotations

import random
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

import ninetynine.rl
from ninetynine import load_rules
from ninetynine.bots.greedy import GreedyBot, GreedyKeepBot
from ninetynine.bots.heuristic import HeuristicBot
from ninetynine.engine.state import OVER
from ninetynine.errors import IllegalActionError, NinetyNineError
from ninetynine.rl.encoding import Encoding
from ninetynine.rl.episode import Reward
from ninetynine.rl.vector import NinetyNineVectorEnv

from .replay import Recorder, Replay


def legal_choices(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One legal action index per row of ``mask``, uniformly."""
    return np.asarray((rng.random(mask.shape) * mask).argmax(axis=1), np.int64)


def test_the_vector_env_has_gymnasiums_spaces_shapes_and_autoreset_mode() -> None:
    envs = gymnasium.make_vec(ninetynine.rl.VECTOR_ENV_ID, num_envs=5, rules="K", players=3)
    assert isinstance(envs, NinetyNineVectorEnv)
    assert envs.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP
    enc = Encoding("K", 3)
    assert envs.single_observation_space.shape == (enc.size,)
    assert envs.single_action_space == gymnasium.spaces.Discrete(enc.actions)
    assert envs.observation_space.shape == (5, enc.size)
    assert envs.action_space.shape == (5,)
    obs, info = envs.reset(seed=3)
    assert obs.dtype == np.float32 and obs in envs.observation_space
    rng = np.random.default_rng(0)
    for _ in range(200):
        mask = envs.action_masks()
        assert mask.shape == (5, enc.actions) and mask.dtype == np.int8
        assert (mask.sum(axis=1) > 0).all()
        assert (info["action_mask"] == mask).all()
        obs, reward, terminated, truncated, info = envs.step(legal_choices(mask, rng))
        assert obs.shape == (5, enc.size) and obs in envs.observation_space
        assert reward.shape == terminated.shape == truncated.shape == (5,)
        assert terminated.dtype == truncated.dtype == bool and not truncated.any()
        assert reward.dtype == np.float64
        if terminated.any():
            assert (info["_final_obs"] == terminated).all()
            for g in np.flatnonzero(terminated):
                assert info["final_obs"][g] in envs.single_observation_space
            assert set(reward[terminated]) <= {-1.0, 1.0}
        assert (reward[~terminated] == 0).all()
    envs.close()


def run(envs: NinetyNineVectorEnv, seed: int, steps: int) -> list[Any]:
    rng, seen = np.random.default_rng(seed), []
    obs, _ = envs.reset(seed=seed)
    seen.append(obs)
    for _ in range(steps):
        obs, reward, terminated, _, _ = envs.step(legal_choices(envs.action_masks(), rng))
        seen += [obs, reward, terminated]
    return seen


@pytest.mark.parametrize("opponents", ["random", "greedy-keep"])
def test_the_vector_env_is_reproducible_by_seed(opponents: str) -> None:
    a = NinetyNineVectorEnv("P", 4, 16, opponents=opponents)
    b = NinetyNineVectorEnv("P", 4, 16, opponents=opponents, seed=99)
    first = run(a, 5, 60)
    for again in (run(b, 5, 60), run(a, 5, 60)):
        assert all(np.array_equal(x, y) for x, y in zip(first, again, strict=True))
    assert not all(np.array_equal(x, y) for x, y in zip(first, run(a, 6, 60), strict=True))


def lowest_legal(obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """A batched policy for the opponents: the lowest legal action index."""
    assert obs.shape[0] == masks.shape[0] and (masks.sum(axis=1) > 0).all()
    return np.asarray(masks.argmax(axis=1))


@pytest.mark.parametrize(
    ("preset", "players", "opponents", "seat", "reward"),
    [
        ("P", 4, "random", 0, "game"),
        ("P", 3, "greedy-keep", "rotate", "game"),
        ("K", 4, "greedy-keep", 2, "life"),
        ("G", 5, "greedy", "rotate", "life"),
        ("P", 4, "greedy-keep", "rotate", "hand"),
        ("K", 3, "random", 1, "hand"),
        ("J", 2, "greedy-keep", 1, "game"),
        ("BGA", 3, "greedy-keep", 0, "game"),
        ("P-TEN-MINUS", 4, "greedy-keep", "rotate", "game"),
        ("BICYCLE", 4, "policy", 0, "life"),
        ("P", 4, "heuristic-v1", "rotate", "game"),
        ("K", 4, "heuristic-v1", 0, "life"),
        ("G", 3, "heuristic-v1", "rotate", "game"),
        ("J", 5, "heuristic-v1", 2, "hand"),
        ("BGA", 3, "heuristic-v1", 0, "game"),
        ("P-TEN-MINUS", 4, "heuristic-v1", "rotate", "game"),
        ("BICYCLE", 4, "heuristic-v1", 1, "game"),
        # milestones: the learner pays for others' plays too, and may go out by them
        ("QC", 4, "greedy-keep", "rotate", "life"),
        ("P-ONLINE", 3, "random", 0, "life"),
        ("P-ONLINE-TEACH", 5, "greedy", "rotate", "game"),
        ("P-69", 4, "greedy-keep", 1, "life"),
        ("J-TEAM", 4, "greedy-keep", "rotate", "game"),  # the partner's win is the learner's
        ("P-UPCARD", 4, "greedy", "rotate", "life"),  # the opening ban in the masks
        ("IS", 4, "greedy-keep", "rotate", "game"),  # a run of cards: the same seat again
        ("P-BORDERS", 4, "greedy", "rotate", "life"),  # game points lost at borders
        ("TW", 4, "greedy", "rotate", "game"),  # a Five that names who plays next
        ("E2", 3, "greedy-keep", 1, "life"),
    ],
)
def test_the_vector_env_plays_as_the_reference_engine(
    preset: str, players: int, opponents: str, seat: int | str, reward: str
) -> None:
    slots, steps = 5, 300
    envs = NinetyNineVectorEnv(
        preset,
        players,
        slots,
        opponents=lowest_legal if opponents == "policy" else opponents,
        seat=seat,
        reward=reward,
    )
    rec = Recorder(envs.batch)
    rng = np.random.default_rng(1)
    obs, info = envs.reset(seed=2)
    rewards, finals = np.zeros(slots), [[] for _ in range(slots)]
    for _ in range(steps):
        mask = envs.action_masks()
        for s in range(slots):
            rec.note(s, "obs", int(envs.seats[s]), obs[s], mask[s])
        obs, r, terminated, _, info = envs.step(legal_choices(mask, rng))
        rewards += r
        for s in np.flatnonzero(terminated):
            finals[s].append(info["final_obs"][s])
    enc = envs.encoding
    bot = {"greedy": GreedyBot(), "greedy-keep": GreedyKeepBot(), "heuristic-v1": HeuristicBot()}
    checked = opponent_moves = 0
    for s in range(slots):
        games, outcome = rec.games(s), 0.0
        assert len(games) == len(finals[s]) + 1
        for g, (first, chance, records) in enumerate(games):
            game, learner = Replay(enc, first, chance, log=True), None
            for record in records:
                state = game.state
                if record[0] == "obs":
                    _, learner, seen, mask = record
                    assert state.phase != OVER and state.current_seat == learner
                    np.testing.assert_array_equal(seen, game.observe(learner))
                    np.testing.assert_array_equal(mask, enc.mask(state))
                    checked += 1
                    continue
                code = record[1]
                seat_to_act = state.current_seat
                assert seat_to_act is not None
                if seat_to_act != learner and learner is not None:
                    opponent_moves += 1
                    if opponents in bot:
                        view = game.view(seat_to_act)
                        chosen = bot[opponents].choose(view, random.Random(0))
                        assert state.code_of(chosen) == code, (s, g, view.hand, view.total)
                    elif opponents == "policy":
                        assert code == enc.codes[int(enc.mask(state).argmax())]
                game.play_code(code)
            state = game.state
            if learner is None:
                continue
            outcome += game.paid(0, Reward(reward))[learner]  # as NinetyNine-v1 counts
            if g < len(finals[s]):  # ended: the game over, or the learner knocked out
                assert state.phase == OVER or not state.alive[learner]
                won = state.outcome is not None and learner in state.outcome.winners
                outcome += 1.0 if won else -1.0
                np.testing.assert_array_equal(finals[s][g], game.observe(learner))
        assert rewards[s] == outcome
    assert checked == steps * slots
    assert sum(map(len, finals)) >= slots  # games ended, and were compared
    assert opponent_moves > steps * slots // 2


def test_an_illegal_action_raises_or_loses() -> None:
    envs = NinetyNineVectorEnv("P", 4, 3, opponents="random")
    envs.reset(seed=1)
    illegal = np.array([int(np.flatnonzero(m == 0)[0]) for m in envs.action_masks()])
    with pytest.raises(IllegalActionError) as e:
        envs.step(illegal)
    assert "\n" not in str(e.value) and "game 0" in str(e.value)
    envs = NinetyNineVectorEnv("P", 4, 3, opponents="random", illegal_action="lose")
    envs.reset(seed=1)
    mask = envs.action_masks()
    actions = legal_choices(mask, np.random.default_rng(0))
    actions[1] = int(np.flatnonzero(mask[1] == 0)[0])
    _, reward, terminated, _, _ = envs.step(actions)
    assert terminated[1] and reward[1] == -1.0
    assert (envs.action_masks().sum(axis=1) > 0).all()


def test_the_vector_env_names_what_it_does_not_take() -> None:
    for kwargs, match in [
        ({"rules": "CN99"}, "batch engine"),
        (
            {
                "rules": load_rules({"preset": "P", "rules": {"cards": {"5": "+5 name"}}}),
                "opponents": "heuristic-v1",
            },
            "card 5S of these rules \\(it names a seat: next\\)",
        ),
        ({"rules": "P-UPCARD-INSTANT"}, "instant_hands"),
        ({"rules": "P-BORDERS", "opponents": "heuristic-v1"}, "'scoring' = 'game_points'"),
        ({"rules": "QC", "opponents": "heuristic-v1"}, "'thresholds' = 'online'"),
        (
            {
                "rules": load_rules({"preset": "P", "rules": {"cards": {"2": "halve-even"}}}),
                "opponents": "heuristic-v1",
            },
            "card 2S of these rules \\(it is of kind 'halve-even'\\)",
        ),
        ({"opponents": "heuristic"}, "batch bots"),
        # its estimates know the base games' parts alone (random and greedy play these)
        ({"rules": "WIKI", "opponents": "heuristic-v1"}, "heuristic-v1 bot does not play"),
        ({"rules": "98", "opponents": "heuristic-v1"}, "'game_end' = 'first_out'"),
        ({"seat": 4}, "seat"),
        ({"reward": "points"}, "reward"),
        ({"num_envs": 0}, "num_envs"),
        ({"illegal_action": "skip"}, "illegal_action"),
    ]:
        with pytest.raises(NinetyNineError, match=match) as e:
            NinetyNineVectorEnv(**kwargs)
        assert "\n" not in str(e.value)
    with pytest.raises(NinetyNineError, match="reset"):
        NinetyNineVectorEnv(num_envs=2).step(np.zeros(2, np.int64))


def test_the_learners_observation_does_not_see_hidden_cards() -> None:
    """Swapping an opponent's card with one in the stock (both hidden from the learner)
    leaves every learner observation as it was; its own cards do not."""
    envs = NinetyNineVectorEnv("P", 4, 64, opponents="random")
    envs.reset(seed=4)
    batch, every = envs.batch, np.arange(64)
    before = envs.coded.observe(every, envs.seats)
    depth = batch.stock_len - 1
    theirs = batch.hands[every, 1, 0].copy()
    batch.hands[every, 1, 0] = batch.stock[every, depth]
    batch.stock[every, depth] = theirs
    np.testing.assert_array_equal(envs.coded.observe(every, envs.seats), before)
    mine = batch.hands[every, 0, 0].copy()
    batch.hands[every, 0, 0] = batch.stock[every, depth]
    batch.stock[every, depth] = mine
    changed = (envs.coded.observe(every, envs.seats) != before).any(axis=1)
    assert changed.sum() > 50  # where the two cards differ in rank or suit


def test_the_vector_env_does_not_reuse_what_it_returned() -> None:
    """As Gymnasium's checker asks of an env: a step's arrays are not written over by the
    next step."""
    envs = NinetyNineVectorEnv("P", 4, 32, opponents="greedy-keep")
    obs, info = envs.reset(seed=0)
    rng = np.random.default_rng(0)
    kept = [obs.copy(), info["action_mask"].copy()]
    for _ in range(5):
        step = envs.step(legal_choices(envs.action_masks(), rng))
        assert np.array_equal(obs, kept[0]) and np.array_equal(info["action_mask"], kept[1])
        obs, info = step[0], step[4]
        kept = [obs.copy(), info["action_mask"].copy()]
