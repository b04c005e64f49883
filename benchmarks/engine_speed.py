"""Engine speed: decisions per second on the fast path and the checked API, each beside a
minimal hard-coded P-only engine (``minimal_engine.py``) in the same run, for 4-player games
with random legal choices.

The shared machines drift, so the engines take turns, round after round, on CPU time, and
each keeps its best round; the ratio to the minimal engine is the figure to read (the
target for the fast path under P is 0.6 of the minimal engine).

Run: python benchmarks/engine_speed.py [--rules P] [--rounds 15] [--matches 100]
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from minimal_engine import minimal_p_matches

from ninetynine import load_rules, new_game
from ninetynine.engine.state import CHANCE, OVER
from ninetynine.rules.settings import Rules

FAST_TARGET = 0.6  # the fast path under P, as a share of the minimal engine


def fast_matches(rules: Rules, players: int, matches: int, seed: int) -> int:
    """Play whole matches on the fast path; returns the decisions made."""
    rng = random.Random(seed)
    choice = rng.choice
    decisions = 0
    for _ in range(matches):
        state = new_game(rules, players)
        while True:
            phase = state.phase
            if phase == OVER:
                break
            if phase == CHANCE:
                state.play_chance(rng)
            else:
                state.apply_code(choice(state.legal_codes()))
                decisions += 1
    return decisions


def checked_matches(rules: Rules, players: int, matches: int, seed: int) -> int:
    """Decisions through legal_actions() and the checked apply(), events included."""
    rng = random.Random(seed)
    decisions = 0
    for _ in range(matches):
        state = new_game(rules, players)
        while not state.is_over:
            if state.is_chance:
                state.apply(state.sample_chance(rng))
            else:
                state.apply(rng.choice(state.legal_actions()))
                decisions += 1
    return decisions


def best_rates(runs: dict[str, Callable[[int], int]], rounds: int) -> dict[str, float]:
    """Decisions per CPU second of each run, the best of ``rounds`` taken in turn."""
    best = dict.fromkeys(runs, 0.0)
    for r in range(rounds):
        for name, run in runs.items():
            start = time.process_time()
            decisions = run(r)
            best[name] = max(best[name], decisions / (time.process_time() - start))
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="P")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--matches", type=int, default=100, help="matches a round")
    args = parser.parse_args()
    rules, n, m = load_rules(args.rules), args.players, args.matches
    rates = best_rates(
        {
            "minimal": lambda r: minimal_p_matches(m, r),
            "fast": lambda r: fast_matches(rules, n, m, r),
            "checked": lambda r: checked_matches(rules, n, max(1, m // 4), r),
        },
        args.rounds,
    )
    base = rates["minimal"]
    print(f"decisions per CPU second, {n} players, best of {args.rounds} rounds")
    print(f"minimal P-only engine : {base:12,.0f}")
    print(
        f"fast path ({rules.id:>5})     : {rates['fast']:12,.0f}   "
        f"{rates['fast'] / base:.2f} of the minimal engine (target {FAST_TARGET} under P)"
    )
    print(
        f"checked API ({rules.id:>5})   : {rates['checked']:12,.0f}   "
        f"{rates['checked'] / base:.2f} of the minimal engine"
    )


if __name__ == "__main__":
    main()
