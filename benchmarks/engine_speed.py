"""Engine speed: decisions per second on the fast path and the checked API, and complete
matches per second, for 4-player games under the base game P with random legal choices.

Run: python benchmarks/engine_speed.py [--seconds S]
"""

from __future__ import annotations

import argparse
import random
import time

from ninetynine import load_rules, new_game
from ninetynine.state import CHANCE, OVER


def fast_matches(rules, players: int, seconds: float, seed: int) -> tuple[int, int, float]:
    """Play whole matches on the fast path; return (matches, decisions, elapsed)."""
    rng = random.Random(seed)
    choice = rng.choice
    matches = decisions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = new_game(rules, players)
        while True:
            phase = state.phase
            if phase == OVER:
                break
            if phase == CHANCE:
                state._apply_chance(state.sample_chance(rng))
            else:
                state.apply_code(choice(state.legal_codes()))
                decisions += 1
        matches += 1
    return matches, decisions, time.perf_counter() - start


def checked_decisions(rules, players: int, seconds: float, seed: int) -> tuple[int, float]:
    """Decisions through legal_actions() and the checked apply(), events included."""
    rng = random.Random(seed)
    decisions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = new_game(rules, players)
        while not state.is_over:
            if state.is_chance:
                state.apply(state.sample_chance(rng))
            else:
                state.apply(rng.choice(state.legal_actions()))
                decisions += 1
    return decisions, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--rules", default="P")
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    rules = load_rules(args.rules)
    matches, decisions, elapsed = fast_matches(rules, args.players, args.seconds, 1)
    print(f"fast path : {decisions / elapsed:12,.0f} decisions/s   "
          f"{matches / elapsed:8,.0f} matches/s   ({decisions / matches:.0f} decisions/match)")
    checked, elapsed = checked_decisions(rules, args.players, args.seconds, 2)
    print(f"checked   : {checked / elapsed:12,.0f} decisions/s")


if __name__ == "__main__":
    main()
