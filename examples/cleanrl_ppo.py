"""A CleanRL-style PPO with action masks on the vector env, in one file of PyTorch.

The shape of CleanRL's ``ppo.py`` (rollouts of ``--n-steps`` in ``--num-envs`` games, GAE,
clipped surrogate, value loss, entropy bonus, minibatch epochs), with the one change a
masked game needs: the logits of illegal actions are set to a large negative number before
the categorical, so they get no probability and no gradient. ``NinetyNineVectorEnv`` never
hands the learner an all-zero mask (a finished game's slot already shows the next game's
first decision), so the masked categorical always has an action to choose.

Run: python examples/cleanrl_ppo.py [--steps 200000] [--opponent heuristic-v1]
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import torch
from torch import nn
from torch.distributions import Categorical

from ninetynine.rl.vector import NinetyNineVectorEnv

ILLEGAL = -1e8  # CleanRL's invalid-action masking: finite, so no NaN where all is masked


class Agent(nn.Module):
    """Separate policy and value networks, tanh, as CleanRL's discrete PPO."""

    def __init__(self, size: int, actions: int, width: int = 64) -> None:
        super().__init__()
        self.critic = nn.Sequential(
            nn.Linear(size, width),
            nn.Tanh(),
            nn.Linear(width, width),
            nn.Tanh(),
            nn.Linear(width, 1),
        )
        self.actor = nn.Sequential(
            nn.Linear(size, width),
            nn.Tanh(),
            nn.Linear(width, width),
            nn.Tanh(),
            nn.Linear(width, actions),
        )

    def value(self, obs: torch.Tensor) -> torch.Tensor:
        return self.critic(obs).squeeze(-1)

    def act(
        self, obs: torch.Tensor, mask: torch.Tensor, action: torch.Tensor | None = None
    ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
        """An action (sampled unless given), its log-probability, the entropy, the value."""
        logits = self.actor(obs).masked_fill(~mask, ILLEGAL)
        dist = Categorical(logits=logits)
        if action is None:
            action = dist.sample()
        return action, dist.log_prob(action), dist.entropy(), self.value(obs)


def train(args: argparse.Namespace) -> tuple[Agent, list[float]]:
    """Trains for ``args.steps`` learner steps; returns the agent and each update's win
    rate of the games that ended in it (NaN where none did)."""
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    envs = NinetyNineVectorEnv(
        args.rules, args.players, args.num_envs, opponents=args.opponent, seat="rotate"
    )
    n, k = args.num_envs, args.n_steps
    size, actions = envs.single_observation_space.shape[0], envs.single_action_space.n
    agent = Agent(size, int(actions))
    optimizer = torch.optim.Adam(agent.parameters(), lr=args.rate, eps=1e-5)
    obs_buf = torch.zeros((k, n, size))
    mask_buf = torch.zeros((k, n, int(actions)), dtype=torch.bool)
    act_buf = torch.zeros((k, n), dtype=torch.long)
    logp_buf, rew_buf, done_buf, val_buf = (torch.zeros((k, n)) for _ in range(4))
    obs_np, _ = envs.reset(seed=args.seed)
    obs, mask = torch.from_numpy(obs_np), torch.from_numpy(envs.action_masks().astype(bool))
    done = torch.zeros(n)
    curve: list[float] = []
    for _update in range(max(1, args.steps // (n * k))):
        games = wins = 0
        for t in range(k):
            obs_buf[t], mask_buf[t], done_buf[t] = obs, mask, done
            with torch.no_grad():
                action, logp, _, value = agent.act(obs, mask)
            act_buf[t], logp_buf[t], val_buf[t] = action, logp, value
            obs_np, reward, terminated, truncated, _ = envs.step(action.numpy())
            ended = terminated | truncated
            games += int(ended.sum())
            wins += int((reward[ended] > 0).sum())
            rew_buf[t] = torch.from_numpy(reward.astype(np.float32))
            obs = torch.from_numpy(obs_np)
            mask = torch.from_numpy(envs.action_masks().astype(bool))
            done = torch.from_numpy(ended.astype(np.float32))
        curve.append(wins / games if games else float("nan"))
        # GAE; done_buf[t] marks obs_buf[t] as a new game's first (SAME_STEP autoreset)
        with torch.no_grad():
            next_value = agent.value(obs)
            advantages = torch.zeros((k, n))
            last = torch.zeros(n)
            for t in reversed(range(k)):
                next_done = done if t == k - 1 else done_buf[t + 1]
                following = next_value if t == k - 1 else val_buf[t + 1]
                delta = rew_buf[t] + args.gamma * following * (1 - next_done) - val_buf[t]
                last = delta + args.gamma * args.lam * (1 - next_done) * last
                advantages[t] = last
            returns = advantages + val_buf
        b_obs, b_mask = obs_buf.reshape(-1, size), mask_buf.reshape(-1, int(actions))
        b_act, b_logp = act_buf.reshape(-1), logp_buf.reshape(-1)
        b_adv, b_ret = advantages.reshape(-1), returns.reshape(-1)
        order = np.arange(n * k)
        size_mb = n * k // args.minibatches
        for _epoch in range(args.epochs):
            np.random.default_rng(args.seed + _update * 31 + _epoch).shuffle(order)
            for start in range(0, n * k, size_mb):
                mb = torch.from_numpy(order[start : start + size_mb])
                _, logp, entropy, value = agent.act(b_obs[mb], b_mask[mb], b_act[mb])
                ratio = (logp - b_logp[mb]).exp()
                adv = b_adv[mb]
                adv = (adv - adv.mean()) / (adv.std() + 1e-8)
                clip = args.clip
                pg_loss = torch.max(-adv * ratio, -adv * ratio.clamp(1 - clip, 1 + clip)).mean()
                v_loss = 0.5 * ((value - b_ret[mb]) ** 2).mean()
                loss = pg_loss - args.entropy * entropy.mean() + 0.5 * v_loss
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), 0.5)
                optimizer.step()
    envs.close()
    return agent, curve


def main(argv: list[str] | None = None) -> tuple[Agent, list[float]]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="P")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--opponent", default="heuristic-v1")
    parser.add_argument("--steps", type=int, default=200_000, help="learner steps")
    parser.add_argument("--num-envs", type=int, default=64)
    parser.add_argument("--n-steps", type=int, default=128)
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--minibatches", type=int, default=4)
    parser.add_argument("--rate", type=float, default=2.5e-4)
    parser.add_argument("--gamma", type=float, default=1.0)
    parser.add_argument("--lam", type=float, default=0.95)
    parser.add_argument("--clip", type=float, default=0.2)
    parser.add_argument("--entropy", type=float, default=0.01)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    start = time.process_time()
    agent, curve = train(args)
    spent = time.process_time() - start
    shown = ", ".join("-" if np.isnan(r) else f"{r:.0%}" for r in curve[-10:])
    print(f"{args.steps:,} learner steps in {spent:.0f} CPU s; win rate by update: {shown}")
    return agent, curve


if __name__ == "__main__":
    main()
