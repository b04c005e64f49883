"""Self-play on the PettingZoo environment: one PyTorch policy in every seat.

The AEC loop as PettingZoo writes it (``agent_iter``, ``last``, ``step``); every agent asks
the same masked policy, and each agent's decisions are credited with what that agent
received from then to the end of its game (REINFORCE, the batch's mean as baseline). Then
the policy takes a seat through ``PolicyBot`` in the arena against ``random``.

Run: python examples/pettingzoo_selfplay.py [--steps 20000] [--games 200]
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import torch
from torch import nn
from torch.distributions import Categorical

from ninetynine.arena import ArenaConfig, run_games, summarize
from ninetynine.bots import register
from ninetynine.rl.pettingzoo import env
from ninetynine.rl.policy import PolicyBot


def masked(logits: torch.Tensor, mask: torch.Tensor) -> Categorical:
    return Categorical(logits=logits.masked_fill(~mask, -1e8))


def train(args: argparse.Namespace) -> nn.Module:
    """Plays whole games of self-play until ``args.steps`` decisions, updating the policy
    after each ``args.batch`` games."""
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    table = env(args.rules, args.players, reward=args.reward)
    table.reset(seed=args.seed)
    size = table.observation_space(table.agents[0])["observation"].shape[0]
    actions = int(table.action_space(table.agents[0]).n)
    policy = nn.Sequential(nn.Linear(size, 64), nn.Tanh(), nn.Linear(64, actions))
    optimizer = torch.optim.Adam(policy.parameters(), lr=args.rate)
    steps, game = 0, 0
    while steps < args.steps:
        logps: list[torch.Tensor] = []
        returns: list[float] = []
        for _ in range(args.batch):
            table.reset(seed=args.seed + game)
            game += 1
            mine: dict[str, list[int]] = {a: [] for a in table.agents}  # indexes in logps
            got: dict[str, list[float]] = {a: [] for a in table.agents}  # rewards, per step
            for agent in table.agent_iter():
                obs, reward, terminated, truncated, _ = table.last()
                if got[agent]:
                    got[agent][-1] += reward  # what followed this agent's last decision
                if terminated or truncated:
                    table.step(None)
                    continue
                dist = masked(
                    policy(torch.from_numpy(obs["observation"])),
                    torch.from_numpy(obs["action_mask"].astype(bool)),
                )
                action = dist.sample()
                mine[agent].append(len(logps))
                logps.append(dist.log_prob(action))
                got[agent].append(0.0)
                table.step(int(action))
                steps += 1
            returns += [0.0] * (len(logps) - len(returns))
            for agent, indexes in mine.items():
                to_go = np.cumsum(got[agent][::-1])[::-1]  # undiscounted rewards to go
                for i, g in zip(indexes, to_go, strict=True):
                    returns[i] = float(g)
        target = torch.tensor(returns)
        loss = -((target - target.mean()) * torch.stack(logps)).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    table.close()
    return policy


def greedy(policy: nn.Module) -> PolicyBot:
    """The policy's most likely legal action, as a bot."""

    def act(obs: np.ndarray, mask: np.ndarray) -> int:
        with torch.no_grad():
            logits = policy(torch.from_numpy(obs)).masked_fill(~torch.from_numpy(mask > 0), -1e8)
        return int(logits.argmax())

    return PolicyBot(act, name="selfplay")


def main(argv: list[str] | None = None) -> tuple[nn.Module, float]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="P")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--reward", default="life", help="game, hand or life")
    parser.add_argument("--steps", type=int, default=20_000, help="decisions of self-play")
    parser.add_argument("--batch", type=int, default=8, help="games an update")
    parser.add_argument("--rate", type=float, default=1e-3)
    parser.add_argument("--games", type=int, default=200, help="arena games against random")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    start = time.process_time()
    policy = train(args)
    print(f"{args.steps:,} decisions of self-play in {time.process_time() - start:.0f} CPU s")
    bot = greedy(policy)
    register("selfplay")(lambda: bot)
    bots = ("selfplay",) + ("random",) * (args.players - 1)
    config = ArenaConfig(args.rules, args.players, bots, games=args.games, seed=args.seed)
    me = summarize(bots, run_games(config, workers=1), ratings=False)[0]
    low, high = me.interval
    print(
        f"arena: the policy against {args.players - 1} random, {args.games} games: wins "
        f"{me.win_rate:.1%}  95% [{low:.1%}, {high:.1%}]"
    )
    return policy, me.win_rate


if __name__ == "__main__":
    main()
