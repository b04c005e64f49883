"""The batch engine's games against the reference engine's, in distribution: the long run
of the suite's small-sample test (``tests/rl/test_batch.py``).

For every preset the batch engine plays (or those named), ``--games`` random games on each
engine, each with its own chance (the batch's default shuffler and leaders; the reference
engine's ``play_random``), seat 0 leading the first hand: the mean decisions and hands a game
and seat 0's wins, with the difference in standard errors (z). A real difference in how a
rule is played shows as a growing |z| as the games grow; chance alone keeps it under 4 but
for about one figure in 15,000.

    python benchmarks/batch_distribution.py --games 20000
    python benchmarks/batch_distribution.py --rules 98 WIKI --players 3
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time

import numpy as np

from ninetynine import load_rules
from ninetynine.engine.game import new_game
from ninetynine.errors import RulesError
from ninetynine.rl.batch import Batch, check_supported
from ninetynine.rules.presets import presets
from ninetynine.rules.settings import Rules


def reference(rules: Rules, players: int, games: int, seed: int) -> dict[str, np.ndarray]:
    """Per game on the reference engine: decisions, hands and whether seat 0 won."""
    rng = random.Random(seed)
    out = np.zeros((3, games))
    for g in range(games):
        state = new_game(rules, players, first=0)
        out[0, g] = state.play_random(rng)
        assert state.outcome is not None
        out[1, g], out[2, g] = state.hand_no, 0 in state.outcome.winners
    return dict(zip(("decisions", "hands", "seat 0 wins"), out, strict=True))


def batched(rules: Rules, players: int, games: int, seed: int) -> dict[str, np.ndarray]:
    """The same figures on the batch engine: each slot's first game."""
    batch = Batch(rules, players, games, seed=seed, first=np.zeros(games, np.int64))
    decisions, hands, wins = (np.zeros(games) for _ in range(3))
    done = np.zeros(games, bool)
    while not done.all():
        batch.step(batch.random_actions(batch.legal()))
        decisions += ~done
        ended = batch.over & ~done
        hands[ended], wins[ended] = batch.final_hands[ended], batch.winners[ended] & 1
        done |= batch.over
    return {"decisions": decisions, "hands": hands, "seat 0 wins": wins}


def z_score(want: np.ndarray, got: np.ndarray) -> float:
    """The difference of the means in standard errors (where neither varies: 0 for the
    same value, infinite for another)."""
    error = math.sqrt(want.var() / len(want) + got.var() / len(got))
    difference = float(got.mean() - want.mean())
    if not error:
        return 0.0 if not difference else math.copysign(math.inf, difference)
    return difference / error


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", nargs="*", help="presets (default: every one it plays)")
    parser.add_argument("--players", type=int, default=4, help="table size (default 4)")
    parser.add_argument("--games", type=int, default=20_000, help="games a side")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    names = args.rules or list(presets())
    print(f"{args.games:,} games a side, {args.players} players (or the nearest allowed)")
    print(f"{'rules':<12} {'figure':<12} {'reference':>10} {'batch':>10} {'z':>6}")
    worst = 0.0
    for name in names:
        rules = load_rules(name)
        try:
            check_supported(rules)
        except RulesError as e:
            if args.rules:
                print(f"{name}: {e}", file=sys.stderr)
            continue
        players = min(max(args.players, rules.players_min), rules.players_max)
        start = time.perf_counter()
        want = reference(rules, players, args.games, args.seed)
        got = batched(rules, players, args.games, args.seed)
        for figure in want:
            a, b = want[figure], got[figure]
            z = z_score(a, b)
            worst = max(worst, abs(z))
            print(f"{name:<12} {figure:<12} {a.mean():>10.3f} {b.mean():>10.3f} {z:>6.2f}")
        print(f"{'':<12} ({players} players, {time.perf_counter() - start:.1f} s)")
    print(f"largest |z|: {worst:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
