"""Masks where the learning libraries look for them, never all zero (issue 31: a vector
env hands the terminal step's mask to the learner), and the rewards on the way."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest

import ninetynine.rl  # noqa: F401  (registers NinetyNine-v1)
from ninetynine import NinetyNineError
from ninetynine.engine.events import HandEnded, LifeGained
from ninetynine.rl.gymnasium import NinetyNineGymEnv
from ninetynine.rl.pettingzoo import env as aec_env


def play_episode(env: NinetyNineGymEnv, seed: int) -> list[tuple[float, int, int, int, int]]:
    """A random game of the agent: per step its reward, the agent's lives and the hand
    number before and after it."""
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    steps, done = [], False
    while not done:
        mask = env.action_masks()
        assert np.array_equal(mask, info["action_mask"]) and mask.any()
        assert episode_of(env).state.current_seat == env.seat
        state = episode_of(env).state
        before = (state.lives[env.seat], state.hand_no)
        obs, reward, done, _, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        state = episode_of(env).state
        steps.append((reward, *before, state.lives[env.seat], state.hand_no))
    # over: every action allowed, as the info says too
    assert env.action_masks().all() and info["action_mask"].all()
    return steps


def episode_of(env: NinetyNineGymEnv):  # type: ignore[no-untyped-def]
    assert env.episode is not None
    return env.episode


def test_action_masks_is_the_info_s_mask_and_all_one_once_over() -> None:
    env = NinetyNineGymEnv("K", 3, opponents="random")
    for seed in range(3):
        steps = play_episode(env, seed)
        assert steps[-1][0] in (1.0, -1.0) and all(r == 0.0 for r, *_ in steps[:-1])


def test_a_vector_env_never_hands_a_learner_an_all_zero_mask() -> None:
    vec = gymnasium.make_vec("NinetyNine-v1", num_envs=3, rules="P", players=3, opponents="random")
    _, info = vec.reset(seed=7)
    rng = np.random.default_rng(7)
    ended = 0
    for _ in range(400):
        masks = info["action_mask"]
        assert masks.shape[0] == 3 and masks.any(axis=1).all()
        actions = [int(rng.choice(np.flatnonzero(m))) for m in masks]
        _, _, terminated, _, info = vec.step(np.array(actions))
        ended += int(terminated.sum())
    vec.close()
    assert ended >= 3  # the terminal steps were among those checked


@pytest.mark.parametrize("seed", [1, 2])
def test_reward_life_pays_each_life_as_it_goes(seed: int) -> None:
    env = NinetyNineGymEnv("P", 4, opponents="random", reward="life")
    steps = play_episode(env, seed)
    log = episode_of(env).log
    assert log is not None and not any(isinstance(e, LifeGained) for e in log)
    *way, last = steps
    for reward, lives, _, after, _ in way:
        assert reward == after - lives  # minus the pennies paid in the step, 0 in most
    reward, lives, _, after, _ = last
    end = reward - (after - lives)
    assert end in (1.0, -1.0)  # the game's own reward at the end
    assert sum(r for r, *_ in steps) == end - (steps[0][1] - after)


@pytest.mark.parametrize("seed", [3, 4])
def test_reward_hand_takes_one_for_each_hand_the_agent_loses(seed: int) -> None:
    env = NinetyNineGymEnv("P", 4, opponents="random", reward="hand")
    steps = play_episode(env, seed)
    lost = 0
    for reward, lives, hand, after, next_hand in steps[:-1]:
        lost_here = after < lives and next_hand > hand  # the hand ended on the agent
        assert reward == (-1.0 if lost_here else 0.0)
        lost += lost_here
    assert lost >= 1  # the test saw a hand lost on the way


def test_the_aec_env_adds_the_hands_lost_to_the_game_s_reward() -> None:
    table = aec_env("P", 3, reward="hand")
    table.reset(seed=5)
    rng = np.random.default_rng(5)
    totals = dict.fromkeys(table.possible_agents, 0.0)
    for agent in table.agent_iter(max_iter=5000):
        obs, reward, terminated, truncated, _ = table.last()
        totals[agent] += reward
        assert obs["action_mask"].any()  # the agent last() is about: never all zero
        if terminated or truncated:
            table.step(None)
        else:
            table.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    log = table.episode.log  # type: ignore[union-attr]
    lost = {a: 0 for a in totals}
    for e in log:
        if isinstance(e, HandEnded) and e.loser is not None:
            lost[f"player_{e.loser}"] += 1
    winners = {f"player_{s}" for s in table.episode.state.outcome.winners}  # type: ignore[union-attr]
    for agent, total in totals.items():
        assert total == (1.0 if agent in winners else -1.0) - lost[agent], agent


def test_an_unknown_reward_is_one_clear_error() -> None:
    with pytest.raises(NinetyNineError, match="reward = 'turn': expected one of 'game', 'hand'"):
        NinetyNineGymEnv("P", 4, reward="turn")
    with pytest.raises(NinetyNineError, match="expected one of"):
        aec_env("P", 4, reward="")


def test_each_environment_id_keeps_its_encoding() -> None:
    """A new layout comes with new ids (docs/api.md): v0 still observes version 1."""
    from ninetynine.rl import Encoding

    old = gymnasium.make("NinetyNine-v0", rules="P", players=4, opponents="random")
    new = gymnasium.make("NinetyNine-v1", rules="P", players=4, opponents="random")
    assert old.observation_space.shape == (Encoding("P", 4, 1).size,)
    assert new.observation_space.shape == (Encoding("P", 4, 2).size,)
    assert Encoding("P", 4, 1).size < Encoding("P", 4, 2).size
    assert aec_env("P", 4).metadata["name"] == "ninetynine_v1"
    assert aec_env("P", 4, version=1).metadata["name"] == "ninetynine_v0"
