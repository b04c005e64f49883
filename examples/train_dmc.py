"""Train the ``dmc`` bot's value by Deep Monte Carlo (DouZero's method), NumPy on the CPU.

One learner seat (rotated game by game) plays epsilon-greedy on its Q(view, action) against
``heuristic-v1`` in every other seat (its fast clone, :class:`~ninetynine.bots.clone.
HeuristicClone`, which plays the same moves on the real state). Each decision of the learner
(the features of the action it chose: :mod:`ninetynine.bots.dmc`, from its view alone)
gets the Monte-Carlo return of its hand as the target: 1 if the learner ends the hand
without losing a life (or points), 0 if it loses. The hand, not the game: a hand's result
follows from the decisions in it, while a game's result adds the noise of every later deal;
with lives the way to win is to lose fewer hands than the others. A game stops once the
learner is out (its later hands have no decisions). Samples go into a replay of the most
recent ones; MSE regression with Adam on minibatches drawn from it, a few steps per game.

Every ``--eval-minutes`` it plays ``--eval-games`` greedy games (no exploration, the same
deals each time, seats rotated) and prints the win rate (an even share: 1/players).

Run: python examples/train_dmc.py [--rules P] [--players 4] [--minutes 30] [--seed 1]
     [--hidden 64] [--epsilon 0.05] [--export src/ninetynine/data/dmc.json]
     [--save net.npz] [--load net.npz]

``--export`` adds the weights, under the rules' id, to a JSON file: ``data/dmc.json`` is
where the ``dmc`` bot reads them.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from typing import Any

import numpy as np

from ninetynine import load_rules, new_game
from ninetynine.bots.clone import HeuristicClone
from ninetynine.bots.dmc import FEATURES, Featurizer
from ninetynine.bots.knowledge import forced_move
from ninetynine.engine.view import observe
from ninetynine.records.match import standing
from ninetynine.rules.settings import Rules


class Net:
    """Q: features -> ReLU hidden layer -> one value, with Adam on the MSE."""

    def __init__(self, hidden: int, rng: np.random.Generator, rate: float) -> None:
        self.p = {
            "w1": rng.normal(0, np.sqrt(2 / 30), (FEATURES, hidden)),  # ~30 features are on
            "b1": np.zeros(hidden),
            "w2": rng.normal(0, np.sqrt(1 / hidden), hidden) * 0.1,
            "b2": np.array(0.7),
        }
        self.m = {k: np.zeros_like(v) for k, v in self.p.items()}
        self.v = {k: np.zeros_like(v) for k, v in self.p.items()}
        self.t, self.rate = 0, rate

    def q(self, x: np.ndarray) -> np.ndarray:
        """Q of each row of ``x``."""
        h = np.maximum(x @ self.p["w1"] + self.p["b1"], 0.0)
        out: np.ndarray = h @ self.p["w2"] + self.p["b2"]
        return out

    def step(self, x: np.ndarray, y: np.ndarray) -> float:
        """One Adam step on the mean squared error; returns the loss before it."""
        p = self.p
        z = x @ p["w1"] + p["b1"]
        h = np.maximum(z, 0.0)
        err = h @ p["w2"] + p["b2"] - y
        g_out = 2 * err / len(y)
        grads = {"w2": h.T @ g_out, "b2": np.array(g_out.sum())}
        g_h = np.outer(g_out, p["w2"]) * (z > 0)
        grads["w1"] = x.T @ g_h
        grads["b1"] = g_h.sum(axis=0)
        self.t += 1
        b1, b2, eps = 0.9, 0.999, 1e-8
        for k, g in grads.items():
            self.m[k] = b1 * self.m[k] + (1 - b1) * g
            self.v[k] = b2 * self.v[k] + (1 - b2) * g * g
            mh = self.m[k] / (1 - b1**self.t)
            vh = self.v[k] / (1 - b2**self.t)
            p[k] -= self.rate * mh / (np.sqrt(vh) + eps)
        return float(np.mean(err * err))


class Replay:
    """The most recent ``size`` samples (features, target), as a ring."""

    def __init__(self, size: int) -> None:
        self.x = np.zeros((size, FEATURES), np.float32)
        self.y = np.zeros(size, np.float32)
        self.size, self.n, self.at = size, 0, 0

    def add(self, rows: list[np.ndarray], target: float) -> None:
        for row in rows:
            self.x[self.at], self.y[self.at] = row, target
            self.at = (self.at + 1) % self.size
            self.n = min(self.n + 1, self.size)

    def batch(self, k: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        i = rng.integers(0, self.n, k)
        return self.x[i], self.y[i]


def dense(state_part: list[tuple[int, float]], parts: list[list[tuple[int, float]]]) -> np.ndarray:
    """One row of features per action."""
    x = np.zeros((len(parts), FEATURES))
    for i, v in state_part:
        x[:, i] = v
    for row, part in enumerate(parts):
        for i, v in part:
            x[row, i] = v
    return x


def play(
    rules: Rules,
    players: int,
    learner: int,
    net: Net,
    epsilon: float,
    rng: random.Random,
    clone: HeuristicClone,
    feat: Featurizer,
    replay: Replay | None,
) -> tuple[bool, int]:
    """One game; returns whether the learner won and how many samples it added (``replay``
    None: none are kept). The game stops when the learner is out."""
    s = new_game(rules, players, first=rng.randrange(players))
    pending: list[np.ndarray] = []
    hand, start = 0, 0.0
    added = 0

    def close() -> None:
        nonlocal added
        if pending and replay is not None:
            replay.add(pending, 1.0 if standing(s)[learner] >= start else 0.0)
            added += len(pending)
        pending.clear()

    while not s.is_over:
        if s.is_chance:
            s.play_chance(rng)
            continue
        if pending and s.hand_no != hand:
            close()
        if not s.alive[learner]:
            break
        codes = s.legal_codes()
        if s.turn != learner:
            s.apply_code(clone.best(s, sorted(codes)))
            continue
        view = observe(s, learner)
        forced = forced_move(view.legal)
        if forced is not None:
            s.apply_code(s.code_of(forced))
            continue
        x = dense(feat.state_part(view), feat.action_parts(view, s, codes))
        if epsilon and rng.random() < epsilon:
            k = rng.randrange(len(codes))
        else:
            k = int(np.argmax(net.q(x)))
        if not pending:
            hand, start = s.hand_no, standing(s)[learner]
        pending.append(x[k])
        s.apply_code(codes[k])
    close()
    won = s.outcome is not None and learner in s.outcome.winners
    return won, added


def evaluate(rules: Rules, players: int, net: Net, games: int, seed: int) -> float:
    """The greedy learner's win rate over ``games`` fixed deals, seats rotated."""
    clone, feat = HeuristicClone(rules), Featurizer(rules)
    wins = 0
    for g in range(games):
        rng = random.Random(seed * 1_000_003 + g // players)  # the same cards for each seat
        wins += play(rules, players, g % players, net, 0.0, rng, clone, feat, None)[0]
    return wins / games


def export(path: str, rules: Rules, net: Net, note: str) -> None:
    """Add the weights, under the rules' id, to the JSON file at ``path``."""
    try:
        with open(path) as f:
            table: dict[str, Any] = json.load(f)
    except FileNotFoundError:
        table = {}
    p = net.p
    table[rules.id] = {
        "trained": note,
        "w1": [[round(float(w), 4) for w in row] for row in p["w1"]],
        "b1": [round(float(w), 4) for w in p["b1"]],
        "w2": [round(float(w), 4) for w in p["w2"]],
        "b2": round(float(p["b2"]), 4),
    }
    with open(path, "w") as f:
        json.dump(table, f, sort_keys=True, separators=(",", ":"))
        f.write("\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="P")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--minutes", type=float, default=30.0, help="training time (wall)")
    parser.add_argument("--games", type=int, default=0, help="stop after this many (0: time)")
    parser.add_argument("--hidden", type=int, default=64)
    parser.add_argument("--epsilon", type=float, default=0.05)
    parser.add_argument("--rate", type=float, default=1e-3, help="Adam's step size")
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument("--reuse", type=float, default=8.0, help="minibatch rows per sample")
    parser.add_argument("--replay", type=int, default=200_000)
    parser.add_argument("--eval-minutes", type=float, default=5.0)
    parser.add_argument("--eval-games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--save", help="write the network to this .npz file")
    parser.add_argument("--load", help="start from the network in this .npz file")
    parser.add_argument("--export", help="add the weights under the rules' id to this JSON")
    args = parser.parse_args()
    rules = load_rules(args.rules)
    net = Net(args.hidden, np.random.default_rng(args.seed), args.rate)
    if args.load:
        with np.load(args.load) as saved:
            net.p = {k: saved[k] for k in net.p}
    replay = Replay(args.replay)
    clone, feat = HeuristicClone(rules), Featurizer(rules)
    rng, nrng = random.Random(args.seed), np.random.default_rng(args.seed + 1)
    start = last_eval = time.time()
    games = wins = samples = steps = 0
    losses: list[float] = []
    owed = 0.0

    def report(final: bool = False) -> None:
        mins = (time.time() - start) / 60
        loss = float(np.mean(losses[-500:])) if losses else float("nan")
        rate = evaluate(rules, args.players, net, args.eval_games, 999) if args.eval_games else 0
        print(
            f"{'final' if final else 'at'} {mins:5.1f} min: {games:,} games, {samples:,} samples, "
            f"{steps:,} steps, loss {loss:.4f}, training win rate {wins / max(games, 1):.1%}, "
            f"greedy eval {rate:.1%} of {args.eval_games} (an even share {1 / args.players:.0%})",
            flush=True,
        )

    while True:
        if args.games and games >= args.games:
            break
        if not args.games and time.time() - start > args.minutes * 60:
            break
        won, added = play(
            rules, args.players, games % args.players, net, args.epsilon, rng, clone, feat, replay
        )
        games, wins, samples = games + 1, wins + won, samples + added
        owed += added * args.reuse / args.batch
        while owed >= 1 and replay.n >= args.batch:
            losses.append(net.step(*replay.batch(args.batch, nrng)))
            steps, owed = steps + 1, owed - 1
        if args.eval_games and time.time() - last_eval > args.eval_minutes * 60:
            report()
            last_eval = time.time()
    report(final=True)
    minutes = (time.time() - start) / 60
    note = (
        f"examples/train_dmc.py --rules {args.rules} --players {args.players} "
        f"--minutes {args.minutes:g} --seed {args.seed} --hidden {args.hidden}: {games} games, "
        f"{samples} samples, {minutes:.1f} min"
    )
    if args.save:
        p = net.p
        np.savez(args.save, w1=p["w1"], b1=p["b1"], w2=p["w2"], b2=p["b2"])
    if args.export:
        export(args.export, rules, net, note)
        print(f"exported to {args.export}: {note}")


if __name__ == "__main__":
    main()
