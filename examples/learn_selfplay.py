"""A policy that learns Ninety-Nine by self-play on the batch engine, in minutes on a CPU.

The policy is linear in a few table features of each legal action (masked: illegal actions
get no probability): the card's rank at the current total (in tens), the total it leaves
(in tens), and how many escape cards (cards safe even at the limit) stay in hand. Every
seat of thousands of games plays the current policy (self-play on
:class:`ninetynine.rl.batch.Batch`), and REINFORCE moves it towards the actions of the
players who kept their life in each hand: a hand's loser scores -1 for each of its
decisions in that hand, the others +1/(players - 1).

Then the arena measures it (seats rotated, the same cards dealt round the chairs, 95%
intervals from the rotation blocks) against ``random``, ``greedy-keep`` (play the highest
card that stays under the limit, keeping escape cards; the bots' own where it exists, else
the rule written below) and ``heuristic``: one learned seat against three of the other.

Run: python examples/learn_selfplay.py [--rules P] [--minutes 3] [--games 400]
     [--save weights.npz] [--load weights.npz] [--export FILE.json]

``--export`` adds the weights, under the rules' id, to a JSON file of learned weights:
``src/ninetynine/data/learned.json`` is where the search's ``rollout=learned`` reads them
(trained with ``--minutes 2 --players 4 --seed 1 --games 0`` for each of P, K, G and J).
"""

from __future__ import annotations

import argparse
import json
import random
import time

import numpy as np

from ninetynine import load_rules
from ninetynine.arena import ArenaConfig, run_games, summarize
from ninetynine.bots import bot_names, register
from ninetynine.bots.knowledge import escape_cards
from ninetynine.bots.learned import BINS, FEATURES, KEEPS, LAY_DOWN, LEAVES, RANK_AT, RANKS
from ninetynine.engine.actions import Action, ActionKind
from ninetynine.engine.state import compiled
from ninetynine.engine.view import View
from ninetynine.rl.batch import EMPTY, Batch
from ninetynine.rules.settings import Rules


def bins(total: np.ndarray, limit: int) -> np.ndarray:
    return np.where(total < 0, 0, 1 + np.minimum(total, limit) * (BINS - 2) // limit)


def features(
    total: np.ndarray,
    card: np.ndarray,
    left: np.ndarray,
    escapes: np.ndarray,
    down: np.ndarray,
    limit: int,
) -> np.ndarray:
    """The three feature indexes of each action (arrays of one shape; -> shape + (3,))."""
    rank = np.minimum(card >> 2, RANKS - 1)
    at = RANK_AT + rank * BINS + bins(total, limit)
    leaves = LEAVES + bins(left, limit)
    keeps = KEEPS + np.minimum(escapes, 4)
    out = np.stack([at, leaves, keeps], axis=-1)
    return np.where(down[..., None], LAY_DOWN, out)


class Trainer:
    """REINFORCE with per-hand rewards, every seat playing the policy."""

    def __init__(self, rules: Rules, players: int, batch: int, seed: int) -> None:
        self.game = Batch(rules, players, batch, seed=seed)
        self.weights = np.zeros(FEATURES)
        self.rng = np.random.default_rng(seed + 1)
        escapes = escape_cards(rules)
        self.escape = np.array([c in escapes for c in range(53)], np.int64)

    def action_features(self) -> tuple[np.ndarray, np.ndarray]:
        """Every action's features in every slot, and the legal mask (B, actions)."""
        g = self.game
        h, a = g.hand_size, g.actions
        held = g.hands.reshape(-1, h)[g._first_row + g.turn]  # (B, h)
        card = np.repeat(held, 2, axis=1)  # actions 2k, 2k+1 play slot k
        choice = np.tile([0, 1], h)
        total = g.total[:, None]
        set_to = g.set_to[card]
        left = np.where(set_to >= 0, set_to, total + g.add[card * 2 + choice])
        if g.clamp:
            left = np.where((left < 0) & (left < total), 0, left)
        kept = self.escape[held].sum(axis=1)[:, None] - self.escape[card]
        empty = np.full((g.size, 1), EMPTY)
        card = np.concatenate([card, empty], axis=1)
        left = np.concatenate([left, total], axis=1)
        kept = np.concatenate([kept, np.zeros((g.size, 1), np.int64)], axis=1)
        down = np.zeros((g.size, a), bool)
        down[:, -1] = True
        f = features(np.broadcast_to(total, card.shape), card, left, kept, down, g.limit)
        legal = (g.legal()[:, None] >> np.arange(a)) & 1
        return f, legal.astype(bool)

    def policy(self, f: np.ndarray, legal: np.ndarray) -> np.ndarray:
        logits = self.weights[f].sum(axis=-1)
        logits = np.where(legal, logits, -np.inf)
        logits -= logits.max(axis=-1, keepdims=True)
        p = np.exp(logits)
        return p / p.sum(axis=-1, keepdims=True)

    def rollout(self, steps: int) -> tuple[np.ndarray, ...]:
        g = self.game
        fs, ps, chosen, seats, losers = [], [], [], [], []
        for _ in range(steps):
            f, legal = self.action_features()
            p = self.policy(f, legal)
            u = self.rng.random((g.size, 1))
            action = np.minimum((p.cumsum(axis=1) < u).sum(axis=1), g.actions - 1)
            fs.append(f)
            ps.append(p)
            chosen.append(action)
            seats.append(g.turn.copy())
            g.step(action)
            losers.append(g.loser.copy())
        return (np.stack(fs), np.stack(ps), np.stack(chosen), np.stack(seats), np.stack(losers))

    def update(self, steps: int, rate: float) -> float:
        """One rollout and one step of the policy gradient; returns the mean |return|."""
        f, p, chosen, seats, losers = self.rollout(steps)
        n = self.game.n
        # each decision's return: how the hand it was in ended for its player
        ahead = np.full(losers.shape[1], -1)
        returns = np.zeros(losers.shape)
        valid = np.zeros(losers.shape, bool)
        for t in range(len(losers) - 1, -1, -1):
            ahead = np.where(losers[t] >= 0, losers[t], ahead)
            valid[t] = ahead >= 0
            returns[t] = np.where(ahead == seats[t], -1.0, 1.0 / (n - 1))
        returns *= valid
        rows = np.arange(f.shape[1])
        grad = np.zeros(FEATURES)
        for t in range(len(f)):
            mine = f[t][rows, chosen[t]]  # (B, 3)
            grad += np.bincount(mine.ravel(), np.repeat(returns[t], 3), FEATURES)
            expect = p[t][:, :, None] * returns[t][:, None, None]
            grad -= np.bincount(f[t].ravel(), np.broadcast_to(expect, f[t].shape).ravel(), FEATURES)
        self.weights += rate * grad / max(valid.sum(), 1)
        return float(np.abs(returns).mean())


def learned_choice(weights: np.ndarray, view: View, escapes: frozenset[int]) -> Action:
    """The policy's most likely action in a view (the same features as in training)."""
    rules, c = view.rules, compiled(view.rules)
    escape_count = sum(card in escapes for card in view.hand)
    cards, lefts, kept, down = [], [], [], []
    for action in view.legal:
        if action.kind is not ActionKind.PLAY or action.card is None:
            cards.append(EMPTY), lefts.append(view.total), kept.append(0), down.append(True)
            continue
        eff = c.effects[action.card]
        choice = eff.values.index(action.value) if eff.has_choice else 0
        cards.append(action.card)
        lefts.append(c.result(action.card * 4 + choice, view.total))
        kept.append(escape_count - (action.card in escapes))
        down.append(False)
    f = features(
        np.full(len(cards), view.total),
        np.array(cards),
        np.array(lefts),
        np.array(kept),
        np.array(down),
        rules.limit,
    )
    return view.legal[int(np.argmax(weights[f].sum(axis=-1)))]


class LearnedBot:
    name = "learned"
    weights = np.zeros(FEATURES)  # set by main() before the arena starts

    def choose(self, view: View, rng: random.Random) -> Action:
        return learned_choice(self.weights, view, escape_cards(view.rules))


class GreedyKeepBot:
    """Play the highest card that stays under the limit, keeping escape cards (those safe
    even at the limit) until no other card is safe; then the escape that leaves the total
    lowest."""

    name = "greedy-keep"

    def choose(self, view: View, rng: random.Random) -> Action:
        c, escapes = compiled(view.rules), escape_cards(view.rules)
        ordinary, escape = [], []
        for action in view.legal:
            if action.kind is not ActionKind.PLAY or action.card is None:
                continue
            eff = c.effects[action.card]
            choice = eff.values.index(action.value) if eff.has_choice else 0
            new = c.result(action.card * 4 + choice, view.total)
            if new <= view.rules.limit:
                (escape if action.card in escapes else ordinary).append((new, action.card, action))
        if ordinary:
            return max(ordinary, key=lambda x: (x[0], x[1]))[2]
        if escape:
            return min(escape, key=lambda x: (x[0], -x[1]))[2]
        return view.legal[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="P")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--minutes", type=float, default=3.0, help="training time")
    parser.add_argument("--batch", type=int, default=2048)
    parser.add_argument("--steps", type=int, default=64, help="decisions a rollout")
    parser.add_argument("--rate", type=float, default=2.0)
    parser.add_argument("--games", type=int, default=400, help="arena games per opponent")
    parser.add_argument("--workers", type=int, default=0, help="arena processes (0: all)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--save", help="write the learned weights to this .npz file")
    parser.add_argument("--load", help="skip training: read the weights from this file")
    parser.add_argument("--export", help="add the weights under the rules' id to this JSON")
    args = parser.parse_args()
    rules = load_rules(args.rules)
    if args.load:
        weights = np.load(args.load)["weights"]
    else:
        trainer = Trainer(rules, args.players, args.batch, args.seed)
        start, rounds = time.process_time(), 0
        while time.process_time() - start < args.minutes * 60:
            trainer.update(args.steps, args.rate)
            rounds += 1
        spent = time.process_time() - start
        print(
            f"trained {spent / 60:.1f} CPU minutes: {trainer.game.decisions:,} decisions of "
            f"self-play ({trainer.game.decisions / spent:,.0f} a second), {rounds} updates"
        )
        weights = trainer.weights
    if args.save:
        np.savez(args.save, weights=weights)
    if args.export:
        try:
            with open(args.export) as f:
                table = json.load(f)
        except FileNotFoundError:
            table = {}
        table[rules.id] = [round(float(w), 4) for w in weights]
        with open(args.export, "w") as f:
            json.dump(table, f, sort_keys=True)
            f.write("\n")
    if args.games <= 0:
        return
    LearnedBot.weights = weights
    register("learned")(LearnedBot)
    if "greedy-keep" not in bot_names():
        register("greedy-keep")(GreedyKeepBot)
    print(
        f"arena: one learned seat against {args.players - 1} of each, {args.games} games, "
        f"{args.rules}, seats rotated over the same cards"
    )
    for opponent in ("random", "greedy-keep", "heuristic"):
        bots = ("learned",) + (opponent,) * (args.players - 1)
        config = ArenaConfig(args.rules, args.players, bots, games=args.games, seed=args.seed)
        stats = summarize(bots, run_games(config, workers=args.workers), ratings=False)
        me = stats[0]
        low, high = me.interval
        print(
            f"  vs {opponent:12} learned wins {me.win_rate:6.1%}  95% [{low:.1%}, "
            f"{high:.1%}]  (an even share: {1 / args.players:.0%})"
        )


if __name__ == "__main__":
    main()
