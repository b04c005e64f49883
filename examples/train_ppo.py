"""MaskablePPO (sb3-contrib) on the vector env, then the trained policy in the arena.

The learner plays one seat (rotated) of ``--num-envs`` games of ``NinetyNineVector-v1``
against batched ``heuristic-v1`` in the other seats, on one core; sb3-contrib's
``MaskablePPO`` reads the legal actions from ``action_masks()``. Stable-Baselines3 has its
own vector-env interface, so :class:`SB3VecEnv` adapts the Gymnasium one (a few lines:
masks, the final observation of each finished game, seeds). The policy network is then
copied into NumPy (:class:`NumpyPolicy`) and seated through ``PolicyBot`` in the arena,
against three ``heuristic-v1`` with the seats rotated over the same cards, for the win rate
with its 95% interval (an even share is 1/players).

Run: python examples/train_ppo.py [--minutes 30] [--steps N] [--games 2000]
     [--imitate N] [--save policy.npz] [--load policy.npz]

``--imitate N`` starts the network from a teacher (a batch bot, ``--teacher``,
``heuristic-v1`` by default): N learner decisions played by the teacher, the policy trained
toward its moves and the value toward what each decision's player went on to receive, then
PPO from there; the CPU minutes it takes count in ``--minutes``.

Every ``--report`` learner steps it prints the learning curve: the steps, the CPU minutes
and the win rate of the games finished since the last line.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.vec_env import VecEnv

from ninetynine.arena import ArenaConfig, run_games, summarize
from ninetynine.bots import register
from ninetynine.engine.state import DOWN
from ninetynine.rl.batch_bots import batch_bot
from ninetynine.rl.policy import PolicyBot
from ninetynine.rl.vector import NinetyNineVectorEnv


class SB3VecEnv(VecEnv):
    """Stable-Baselines3's vector-env interface over :class:`NinetyNineVectorEnv` (whose
    ``SAME_STEP`` autoreset is what SB3 expects: a finished game's last observation in
    ``infos[i]["terminal_observation"]``). It counts the games finished and won."""

    def __init__(self, envs: NinetyNineVectorEnv) -> None:
        self.envs = envs
        self.games = self.wins = 0
        super().__init__(envs.num_envs, envs.single_observation_space, envs.single_action_space)

    def reset(self) -> np.ndarray:
        seed = self._seeds[0]
        obs, _ = self.envs.reset(seed=seed)
        self._reset_seeds()
        return obs

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = np.asarray(actions, np.int64)

    def step_wait(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[dict[str, Any]]]:
        obs, reward, terminated, truncated, info = self.envs.step(self._actions)
        done = terminated | truncated
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        for i in np.flatnonzero(done):
            infos[i]["terminal_observation"] = info["final_obs"][i]
            infos[i]["TimeLimit.truncated"] = bool(truncated[i] and not terminated[i])
        self.games += int(done.sum())
        self.wins += int((reward[done] > 0).sum())  # a won game's last reward is +1
        return obs, reward.astype(np.float32), done, infos

    def action_masks(self) -> np.ndarray:
        return self.envs.action_masks().astype(bool)

    def close(self) -> None:
        self.envs.close()

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        if attr_name == "render_mode":
            return [None] * self.num_envs
        return [getattr(self, attr_name)] * self.num_envs

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        raise AttributeError(f"{attr_name}: the games' settings are fixed at creation")

    def env_method(self, method_name: str, *args: Any, indices: Any = None, **kw: Any) -> list:
        if method_name != "action_masks":
            raise AttributeError(f"{method_name}: only action_masks is provided")
        return list(self.action_masks())

    def env_is_wrapped(self, wrapper_class: type, indices: Any = None) -> list[bool]:
        return [False] * self.num_envs


class Budget(BaseCallback):
    """Stops training after ``minutes`` of CPU time and prints the learning curve, saving
    the policy at each line of it when given a ``save`` path (a run cut short keeps it)."""

    def __init__(self, env: SB3VecEnv, minutes: float, every: int, save: str | None) -> None:
        super().__init__()
        self.env, self.minutes, self.every, self.save = env, minutes, every, save
        self.start = time.process_time()
        self.next = every
        self.curve: list[tuple[int, float, float]] = []  # steps, CPU minutes, win rate

    def _on_step(self) -> bool:
        spent = (time.process_time() - self.start) / 60
        if self.num_timesteps >= self.next:
            self.next += self.every
            env = self.env
            rate = env.wins / env.games if env.games else float("nan")
            self.curve.append((self.num_timesteps, spent, rate))
            print(
                f"  {self.num_timesteps:>10,} steps  {spent:5.1f} CPU min  "
                f"won {rate:6.1%} of {env.games:,} games",
                flush=True,
            )
            env.games = env.wins = 0
            if self.save:
                NumpyPolicy.of(self.model).save(self.save)
        return spent < self.minutes


class NumpyPolicy:
    """The PPO policy network's greedy action, in NumPy (no torch at play time): the
    weights of each layer, tanh between them, illegal actions masked out."""

    def __init__(self, weights: list[np.ndarray], biases: list[np.ndarray]) -> None:
        self.weights, self.biases = weights, biases

    @classmethod
    def of(cls, model: MaskablePPO) -> NumpyPolicy:
        layers = [m for m in model.policy.mlp_extractor.policy_net if hasattr(m, "weight")]
        layers.append(model.policy.action_net)
        return cls(
            [layer.weight.detach().numpy().T.copy() for layer in layers],
            [layer.bias.detach().numpy().copy() for layer in layers],
        )

    def save(self, path: str) -> None:
        arrays = {f"w{i}": w for i, w in enumerate(self.weights)}
        arrays |= {f"b{i}": b for i, b in enumerate(self.biases)}
        np.savez(path, **arrays)

    @classmethod
    def load(cls, path: str) -> NumpyPolicy:
        data = np.load(path)
        n = len(data.files) // 2
        return cls([data[f"w{i}"] for i in range(n)], [data[f"b{i}"] for i in range(n)])

    def logits(self, obs: np.ndarray) -> np.ndarray:
        h = obs.astype(np.float32)
        for w, b in zip(self.weights[:-1], self.biases[:-1], strict=True):
            h = np.tanh(h @ w + b)
        return h @ self.weights[-1] + self.biases[-1]

    def __call__(self, obs: np.ndarray, mask: np.ndarray) -> int:
        logits = np.where(mask.astype(bool), self.logits(obs), -np.inf)
        return int(np.argmax(logits))


def imitate(model: MaskablePPO, envs: NinetyNineVectorEnv, args: argparse.Namespace) -> None:
    """Start the network from a teacher: ``--imitate`` learner decisions played by the
    batch bot ``--teacher`` in the learner's seat, then ``--imitate-epochs`` of supervised
    steps: the policy toward the teacher's moves (cross-entropy over the legal actions),
    the value toward what each decision's player went on to receive (gamma 1)."""
    start = time.process_time()
    teacher, batch, every = batch_bot(args.teacher), envs.batch, np.arange(envs.num_envs)
    index = np.zeros(DOWN + 1, np.int64)  # engine code -> action index
    for code in range(DOWN + 1):
        index[code] = envs.encoding.index.get(code, 0)
    observations, masks, moves, rewards, done = [], [], [], [], []
    obs, _ = envs.reset(seed=args.seed)
    for _ in range(max(1, args.imitate // envs.num_envs)):
        chosen = index[batch.codes(teacher(batch, every, batch.legal()))]
        observations.append(obs)
        masks.append(envs.action_masks())
        moves.append(chosen)
        obs, reward, terminated, _, _ = envs.step(chosen)
        rewards.append(reward)
        done.append(terminated)
    returns = np.zeros_like(np.array(rewards))
    following = np.zeros(envs.num_envs)
    for t in range(len(rewards) - 1, -1, -1):  # what came after each decision, to its game's end
        following = rewards[t] + np.where(done[t], 0.0, following)
        returns[t] = following
    x = torch.as_tensor(np.concatenate(observations))
    m = torch.as_tensor(np.concatenate(masks).astype(bool))
    y = torch.as_tensor(np.concatenate(moves))
    g = torch.as_tensor(returns.reshape(-1), dtype=torch.float32)
    policy = model.policy
    for epoch in range(args.imitate_epochs):
        order, agree, seen = torch.randperm(len(y)), 0, 0
        for lo in range(0, len(y), args.batch_size):
            at = order[lo : lo + args.batch_size]
            values, log_prob, _ = policy.evaluate_actions(x[at], y[at], action_masks=m[at])
            loss = -log_prob.mean() + 0.5 * ((values.flatten() - g[at]) ** 2).mean()
            policy.optimizer.zero_grad()
            loss.backward()
            policy.optimizer.step()
            with torch.no_grad():
                best = policy.get_distribution(x[at], action_masks=m[at].numpy()).mode()
            agree += int((best == y[at]).sum())
            seen += len(at)
        print(
            f"  imitation epoch {epoch + 1}: {len(y):,} decisions of {args.teacher}, "
            f"the policy picks the teacher's move in {agree / seen:.1%}",
            flush=True,
        )
    print(f"imitated in {(time.process_time() - start) / 60:.1f} CPU minutes")


def train(args: argparse.Namespace) -> NumpyPolicy:
    torch.set_num_threads(1)  # one core, as the benchmark's figures
    envs = NinetyNineVectorEnv(
        args.rules,
        args.players,
        args.num_envs,
        opponents=args.opponent,
        seat="rotate",
        reward=args.reward,
    )
    env = SB3VecEnv(envs)
    env.seed(args.seed)
    model = MaskablePPO(
        "MlpPolicy",
        env,
        n_steps=args.n_steps,
        batch_size=args.batch_size,
        n_epochs=args.epochs,
        learning_rate=args.rate,
        gamma=1.0,  # a game is short (80 or so learner decisions): nothing is discounted
        ent_coef=0.01,
        policy_kwargs={"net_arch": [args.width, args.width]},
        seed=args.seed,
        device="cpu",
        verbose=0,
    )
    start = time.process_time()
    if args.imitate:
        imitate(model, envs, args)
        env.seed(args.seed + 1)
    budget = Budget(env, args.minutes - (time.process_time() - start) / 60, args.report, args.save)
    model.learn(total_timesteps=args.steps, callback=budget)
    spent = time.process_time() - start
    print(
        f"trained {spent / 60:.1f} CPU minutes: {model.num_timesteps:,} learner steps "
        f"({model.num_timesteps / spent:,.0f} a second)"
    )
    return NumpyPolicy.of(model)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="P")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--opponent", default="heuristic-v1", help="batched, while training")
    parser.add_argument(
        "--reward", default="life", help="game, hand or life: -1 per life paid, a denser signal"
    )
    parser.add_argument("--minutes", type=float, default=30.0, help="CPU minutes at most")
    parser.add_argument("--steps", type=int, default=50_000_000, help="learner steps at most")
    parser.add_argument("--num-envs", type=int, default=256)
    parser.add_argument("--n-steps", type=int, default=64, help="steps per game per rollout")
    parser.add_argument("--batch-size", type=int, default=4096)
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--rate", type=float, default=3e-4)
    parser.add_argument("--width", type=int, default=128, help="hidden units per layer")
    parser.add_argument("--report", type=int, default=250_000, help="steps a curve line")
    parser.add_argument(
        "--imitate", type=int, default=0, help="learner decisions of --teacher to start from"
    )
    parser.add_argument("--teacher", default="heuristic-v1", help="a batch bot")
    parser.add_argument("--imitate-epochs", type=int, default=3)
    parser.add_argument("--games", type=int, default=2000, help="arena games (0: none)")
    parser.add_argument("--workers", type=int, default=1, help="arena processes (0: all)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--save", help="write the policy's weights to this .npz file")
    parser.add_argument("--load", help="skip training: read the weights from this file")
    args = parser.parse_args(argv)
    policy = NumpyPolicy.load(args.load) if args.load else train(args)
    if args.save:
        policy.save(args.save)
    if args.games <= 0:
        return
    register("ppo")(lambda: PolicyBot(policy, name="ppo"))  # made before the arena forks
    bots = ("ppo",) + ("heuristic-v1",) * (args.players - 1)
    config = ArenaConfig(args.rules, args.players, bots, games=args.games, seed=args.seed)
    start = time.perf_counter()
    me = summarize(bots, run_games(config, workers=args.workers), ratings=False)[0]
    low, high = me.interval
    verdict = "above" if low > 1 / args.players else "not above"
    print(
        f"arena: ppo against {args.players - 1} heuristic-v1, {args.games} games of "
        f"{args.rules}, seats rotated: ppo wins {me.win_rate:.1%}  95% [{low:.1%}, {high:.1%}]"
        f"  ({verdict} an even share of {1 / args.players:.0%}; "
        f"{time.perf_counter() - start:.0f} s)"
    )


if __name__ == "__main__":
    main()
