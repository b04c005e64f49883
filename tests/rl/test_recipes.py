"""The training recipes of docs/ai.md run, for a few thousand learner steps each: the
libraries take the environments as they are, the masks are honoured, and the trained
policy takes a seat in the arena."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest
import torch

from ninetynine.rl.vector import NinetyNineVectorEnv

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def example(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"example_{name}", EXAMPLES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses and pickling look modules up by name
    spec.loader.exec_module(module)
    return module


def test_maskable_ppo_trains_on_the_vector_env_and_its_policy_plays_in_the_arena(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    train_ppo = example("train_ppo")
    saved = tmp_path / "policy.npz"
    argv = ["--steps", "2048", "--num-envs", "16", "--n-steps", "64", "--batch-size", "256"]
    train_ppo.main([*argv, "--report", "1024", "--games", "8", "--save", str(saved)])
    out = capsys.readouterr().out
    assert "2,048 learner steps" in out
    assert out.count("CPU min  won") == 2  # the learning curve, a line each 1,024 steps
    assert "arena: ppo against 3 heuristic-v1, 8 games of P, seats rotated: ppo wins" in out
    # the NumPy copy that plays in the arena is the trained network
    policy = train_ppo.NumpyPolicy.load(str(saved))
    assert [w.shape for w in policy.weights] == [(359, 128), (128, 128), (128, 212)]
    train_ppo.main(["--load", str(saved), "--games", "4"])
    assert "4 games of P" in capsys.readouterr().out


def test_imitation_starts_the_policy_from_the_teacher_s_moves(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``--imitate``: the network learns the batched heuristic-v1's moves before PPO."""
    from argparse import Namespace

    from sb3_contrib import MaskablePPO

    from ninetynine.engine.state import DOWN
    from ninetynine.rl.batch_bots import batch_bot

    train_ppo = example("train_ppo")
    envs = NinetyNineVectorEnv("P", 4, 64, opponents="heuristic-v1", seat="rotate")
    env = train_ppo.SB3VecEnv(envs)
    model = MaskablePPO("MlpPolicy", env, n_steps=8, batch_size=64, seed=2, device="cpu")
    args = Namespace(teacher="heuristic-v1", imitate=4096, imitate_epochs=4, batch_size=128, seed=5)
    train_ppo.imitate(model, envs, args)
    assert "of heuristic-v1, the policy picks the teacher's move in" in capsys.readouterr().out
    # on games it has not seen, the trained policy mostly plays the teacher's move
    teacher, batch, every = batch_bot("heuristic-v1"), envs.batch, np.arange(64)
    index = np.array([envs.encoding.index.get(code, 0) for code in range(DOWN + 1)])
    policy, agree = train_ppo.NumpyPolicy.of(model), 0
    obs, _ = envs.reset(seed=99)
    for _ in range(10):
        wanted = index[batch.codes(teacher(batch, every, batch.legal()))]
        masks = envs.action_masks()
        mine = np.array([policy(o, m) for o, m in zip(obs, masks, strict=True)])
        agree += int((mine == wanted).sum())
        obs, *_ = envs.step(wanted)
    assert agree / 640 > 0.8


def test_the_numpy_policy_is_the_torch_policy_s_greedy_masked_action() -> None:
    from sb3_contrib import MaskablePPO

    train_ppo = example("train_ppo")
    envs = NinetyNineVectorEnv("P", 4, 32, opponents="random", seed=3)
    env = train_ppo.SB3VecEnv(envs)
    model = MaskablePPO("MlpPolicy", env, n_steps=8, batch_size=64, seed=2, device="cpu")
    policy = train_ppo.NumpyPolicy.of(model)
    obs = env.reset()
    masks = env.action_masks()
    theirs, _ = model.predict(obs, action_masks=masks, deterministic=True)
    ours = [policy(o, m) for o, m in zip(obs, masks, strict=True)]
    assert ours == list(theirs)
    assert all(masks[i, a] for i, a in enumerate(ours))


def test_the_sb3_adapter_hands_over_each_finished_game_s_last_observation() -> None:
    train_ppo = example("train_ppo")
    env = train_ppo.SB3VecEnv(NinetyNineVectorEnv("K", 3, 8, opponents="greedy-keep", seed=1))
    env.seed(5)
    env.reset()
    ended = 0
    for _ in range(200):
        masks = env.action_masks()
        assert masks.any(axis=1).all(), "never an all-zero mask"
        env.step_async(masks.argmax(axis=1))
        obs, reward, done, infos = env.step_wait()
        for i in np.flatnonzero(done):
            last = infos[i]["terminal_observation"]
            assert last.shape == obs[i].shape and not np.array_equal(last, obs[i])
            assert reward[i] != 0
            ended += 1
        assert all("terminal_observation" not in infos[i] for i in np.flatnonzero(~done))
    assert ended == env.games > 0


def test_cleanrl_style_ppo_with_masks_learns_in_the_vector_env(
    capsys: pytest.CaptureFixture[str],
) -> None:
    cleanrl = example("cleanrl_ppo")
    before = cleanrl.Agent(359, 212)
    torch.manual_seed(1)
    agent, curve = cleanrl.main(
        ["--steps", "4096", "--num-envs", "16", "--n-steps", "64", "--opponent", "random"]
    )
    assert len(curve) == 4 and "4,096 learner steps" in capsys.readouterr().out
    # an illegal action raises in the vector env, so getting here means every one was legal
    params = torch.cat([p.flatten() for p in agent.parameters()])
    assert torch.isfinite(params).all()
    assert params.shape == torch.cat([p.flatten() for p in before.parameters()]).shape
    # the masked categorical gives an illegal action no probability
    obs = torch.zeros((1, 359))
    mask = torch.zeros((1, 212), dtype=torch.bool)
    mask[0, [3, 208]] = True
    for _ in range(20):
        action, _, _, _ = agent.act(obs, mask)
        assert int(action) in (3, 208)


def test_pettingzoo_self_play_trains_one_policy_for_every_seat(
    capsys: pytest.CaptureFixture[str],
) -> None:
    selfplay = example("pettingzoo_selfplay")
    policy, win_rate = selfplay.main(["--steps", "2000", "--games", "8", "--batch", "4"])
    out = capsys.readouterr().out
    assert "2,000 decisions of self-play" in out
    assert "arena: the policy against 3 random, 8 games: wins" in out
    assert 0.0 <= win_rate <= 1.0
    assert all(torch.isfinite(p).all() for p in policy.parameters())


def test_rllib_ppo_trains_with_its_masking_module_and_its_policy_plays_in_the_arena(
    capsys: pytest.CaptureFixture[str],
) -> None:
    rllib_ppo = example("rllib_ppo")
    argv = ["--iterations", "2", "--batch", "512", "--minibatch", "128", "--epochs", "1"]
    rllib_ppo.main([*argv, "--width", "16", "--games", "4"])
    out = capsys.readouterr().out
    assert out.count("CPU min  mean return") == 2  # a line an iteration
    assert "trained: 1,024 learner steps" in out
    assert "arena: rllib against 3 heuristic-v1, 4 games of P, seats rotated: rllib wins" in out


def test_the_rllib_env_puts_the_legal_actions_in_each_observation_and_rotates_the_seat() -> None:
    rllib_ppo = example("rllib_ppo")
    env = rllib_ppo.MaskedNinetyNine({"players": 3, "opponents": "random", "seat": 1})
    seats = []
    for game in range(3):
        obs, _ = env.reset() if game else env.reset(seed=4)
        assert env.observation_space.contains(obs)
        seats.append(env.env.seat)
        done = False
        while not done:
            mask = obs["action_mask"]
            assert mask.any() and np.array_equal(mask, env.env.action_masks())
            obs, _, done, _, _ = env.step(int(np.flatnonzero(mask)[0]))
    assert seats == [1, 2, 0]
