"""ISMCTS speed: iterations per second on one core in typical positions.

Positions are taken from games of heuristic players (the 3rd to 12th decisions of a
game, where the seat to act has a real choice), for the base game of each rulebook.

Run: python benchmarks/bots_speed.py [--presets P,K,G,J] [--players 4] [--positions 10]
     [--iterations 5000]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from ninetynine import load_rules, new_game
from ninetynine.bots import make_bot
from ninetynine.bots.ismcts import IsmctsBot
from ninetynine.bots.knowledge import hand_weights
from ninetynine.events import Event
from ninetynine.view import View, observe


def positions(preset: str, players: int, count: int, seed: int) -> list[View]:
    """Views of seats with at least two legal actions, from heuristic games."""
    rules, rng, bot = load_rules(preset), random.Random(seed), make_bot("heuristic")
    found: list[View] = []
    while len(found) < count:
        state, decisions = new_game(rules, players), 0
        history_list: list[Event] = []
        while not state.is_over and decisions < 12 and len(found) < count:
            if state.is_chance:
                history_list += state.apply(state.sample_chance(rng))
                continue
            seat = state.current_seat
            assert seat is not None
            view = observe(state, seat, tuple(history_list))
            if decisions >= 2 and len(view.legal) > 1 and decisions % 3 == 2:
                found.append(view)
            history_list += state.apply(bot.choose(view, rng), seat)
            decisions += 1
    return found


def engine_rate(preset: str, players: int, seconds: float = 1.0) -> float:
    """Random decisions per second on the engine's fast path, for scale on a busy machine."""
    rules, rng, decisions = load_rules(preset), random.Random(0), 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = new_game(rules, players)
        while not state.is_over:
            if state.is_chance:
                state._apply_chance(state.sample_chance(rng))
            else:
                state.apply_code(rng.choice(state.legal_codes()))
                decisions += 1
    return decisions / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presets", default="P,K,G,J")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--positions", type=int, default=10)
    parser.add_argument("--iterations", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"ISMCTS iterations per second, one core, {args.players} players, "
          f"{args.positions} positions x {args.iterations} iterations each")
    every: list[float] = []
    for preset in args.presets.split(","):
        start = time.perf_counter()  # tables a search builds once per rule set and table size
        hand_weights(load_rules(preset), args.players)
        once = time.perf_counter() - start
        rates = []
        for i, view in enumerate(positions(preset, args.players, args.positions, args.seed)):
            bot = IsmctsBot(iterations=args.iterations)
            start = time.perf_counter()
            bot.choose(view, random.Random(i))
            rates.append(bot.last_iterations / (time.perf_counter() - start))
        every += rates
        print(f"{preset:>4}: median {statistics.median(rates):8.0f} it/s   "
              f"(min {min(rates):.0f}, max {max(rates):.0f}; once per process: {once:.2f} s)")
    print(f" all: median {statistics.median(every):8.0f} it/s")
    print(f"engine fast path now, for scale: {engine_rate('P', args.players):,.0f} random "
          "decisions/s (270k on a quiet core)")


if __name__ == "__main__":
    main()
