"""RLlib's PPO with action masks on the Gymnasium env, then the trained policy in the arena.

RLlib (its new API stack: ``RLModule``, ``EnvRunner``, ``Learner``) masks actions with
the ``ActionMaskingTorchRLModule`` of its own examples, which reads an observation dict of
``"observations"`` and ``"action_mask"``. :class:`MaskedNinetyNine` gives
``NinetyNine-v1`` that shape (the env's own ``action_masks()`` becomes part of each
observation) and rotates the learner's seat game by game. The trained module is then
seated through ``PolicyBot`` in the arena against three ``heuristic-v1``, seats rotated
over the same cards, for the win rate with its 95% interval.

Ray starts a one-machine cluster (``ray.init(num_cpus=...)``); ``--address`` joins a
running one instead, and ``--env-runners`` spreads the games over its workers.

Run: python examples/rllib_ppo.py [--iterations 50] [--games 2000] [--env-runners 0]
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import gymnasium
import numpy as np
import ray
import torch
from gymnasium import spaces
from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.core.columns import Columns
from ray.rllib.core.rl_module.rl_module import RLModule, RLModuleSpec
from ray.rllib.examples.rl_modules.classes.action_masking_rlm import (
    ActionMaskingTorchRLModule,
)

from ninetynine.arena import ArenaConfig, run_games, summarize
from ninetynine.bots import register
from ninetynine.rl import ENV_ID
from ninetynine.rl.policy import PolicyBot


class MaskedNinetyNine(gymnasium.Env[dict[str, np.ndarray], np.int64]):
    """``NinetyNine-v1`` with the legal actions inside the observation, as RLlib's masking
    module reads them; each game seats the learner in the next seat (``seat`` for the first).
    ``config``: RLlib's env config, the keywords of ``NinetyNine-v1`` (rules, players,
    opponents, reward) and ``seat``."""

    def __init__(self, config: dict[str, Any] | None = None) -> None:
        config = dict(config or {})
        self.players = config.get("players", 4)
        self.next_seat = config.pop("seat", 0)
        self.kwargs = config
        self.env = self._make()
        size = self.env.observation_space.shape
        self.observation_space = spaces.Dict(
            {
                "action_mask": spaces.Box(0.0, 1.0, (self.env.action_space.n,), np.float32),
                "observations": spaces.Box(0.0, 1.0, size, np.float32),
            }
        )
        self.action_space = self.env.action_space

    def _make(self) -> Any:
        env = gymnasium.make(ENV_ID, seat=self.next_seat, **self.kwargs).unwrapped
        self.next_seat = (self.next_seat + 1) % self.players
        return env

    def _observe(self, obs: np.ndarray) -> dict[str, np.ndarray]:
        mask = self.env.action_masks().astype(np.float32)
        return {"action_mask": mask, "observations": obs}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        if self.env.episode is not None:  # a new game, the learner in the next seat
            rng = self.env.np_random
            self.env = self._make()
            self.env.np_random = rng  # one stream of deals whatever the seat
        obs, info = self.env.reset(seed=seed, options=options)
        return self._observe(obs), info

    def step(
        self, action: np.int64 | int
    ) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        obs, reward, terminated, truncated, info = self.env.step(action)
        return self._observe(obs), reward, terminated, truncated, info


def config_for(args: argparse.Namespace) -> PPOConfig:
    """PPO on :class:`MaskedNinetyNine` with RLlib's masking module."""
    env_config = {
        "rules": args.rules,
        "players": args.players,
        "opponents": args.opponent,
        "reward": args.reward,
    }
    return (
        PPOConfig()
        .environment(MaskedNinetyNine, env_config=env_config)
        .env_runners(num_env_runners=args.env_runners, num_envs_per_env_runner=args.num_envs)
        .rl_module(
            rl_module_spec=RLModuleSpec(
                module_class=ActionMaskingTorchRLModule,
                model_config={"head_fcnet_hiddens": [args.width, args.width]},
            )
        )
        .training(
            train_batch_size_per_learner=args.batch,
            minibatch_size=args.minibatch,
            num_epochs=args.epochs,
            lr=args.rate,
        )
        .debugging(seed=args.seed)
    )


class ModulePolicy:
    """The trained RLModule as a function of an observation and its mask: the greedy
    legal action (what ``PolicyBot`` asks)."""

    def __init__(self, module: RLModule) -> None:
        self.module = module

    def __call__(self, obs: np.ndarray, mask: np.ndarray) -> int:
        batch = {
            Columns.OBS: {
                "observations": torch.as_tensor(obs[None], dtype=torch.float32),
                "action_mask": torch.as_tensor(mask[None], dtype=torch.float32),
            }
        }
        with torch.no_grad():
            logits = self.module.forward_inference(batch)[Columns.ACTION_DIST_INPUTS]
        return int(np.argmax(logits[0].numpy()))


def arena(policy: ModulePolicy, args: argparse.Namespace) -> None:
    """The policy in one seat against ``--arena-opponent`` in the others, seats rotated."""
    register("rllib")(lambda: PolicyBot(policy, name="rllib"))  # made before the arena forks
    bots = ("rllib",) + (args.arena_opponent,) * (args.players - 1)
    config = ArenaConfig(args.rules, args.players, bots, games=args.games, seed=args.seed)
    me = summarize(bots, run_games(config), ratings=False)[0]
    low, high = me.interval
    verdict = "above" if low > 1 / args.players else "not above"
    print(
        f"arena: rllib against {args.players - 1} {args.arena_opponent}, {args.games} games "
        f"of {args.rules}, seats rotated: rllib wins {me.win_rate:.1%}  "
        f"95% [{low:.1%}, {high:.1%}]  ({verdict} an even share of {1 / args.players:.0%})"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="P")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--opponent", default="heuristic", help="bots in the other seats")
    parser.add_argument("--arena-opponent", default="heuristic-v1")
    parser.add_argument("--reward", default="game", help="game, hand or life")
    parser.add_argument("--iterations", type=int, default=50, help="PPO training iterations")
    parser.add_argument("--batch", type=int, default=4000, help="learner steps an iteration")
    parser.add_argument("--minibatch", type=int, default=500)
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--rate", type=float, default=3e-4)
    parser.add_argument("--width", type=int, default=128, help="hidden units per layer")
    parser.add_argument("--num-envs", type=int, default=1, help="games per env runner")
    parser.add_argument("--env-runners", type=int, default=0, help="0: in the driver")
    parser.add_argument("--cpus", type=int, default=1, help="of a local cluster")
    parser.add_argument("--address", help="a running Ray cluster to join")
    parser.add_argument("--games", type=int, default=2000, help="arena games (0: none)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)

    torch.set_num_threads(1)
    started = not ray.is_initialized()  # (else a cluster this process joined already)
    if started and args.address:
        ray.init(address=args.address)
    elif started:
        ray.init(num_cpus=max(args.cpus, args.env_runners + 1), include_dashboard=False)
    try:
        algo = config_for(args).build_algo()
        start = time.process_time()
        steps = 0
        for _ in range(args.iterations):
            result = algo.train()
            steps = int(result["num_env_steps_sampled_lifetime"])
            returns = result["env_runners"].get("episode_return_mean", float("nan"))
            print(
                f"{steps:>10,} learner steps  {(time.process_time() - start) / 60:5.1f} "
                f"CPU min  mean return {returns:+.3f}"
            )
        print(f"trained: {steps:,} learner steps")
        module = algo.get_module()
        assert module is not None
        algo.stop()
    finally:
        if started:
            ray.shutdown()
    if args.games:
        arena(ModulePolicy(module), args)


if __name__ == "__main__":
    main()
