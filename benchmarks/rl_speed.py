"""Game-AI speed: decisions per second of the fast path, the checked path, the canonical
encoding, the three environments and the batch engine, each beside the minimal hard-coded
P engine (``minimal_engine.py``) in the same run, on one core (the process is pinned to one
CPU and NumPy to one thread), random legal choices, CPU time, best of a few rounds.

Targets: the batch engine at least 4.5 million decisions a second at batch 16,384 for each
base game; the fast path at least 0.6 of the minimal engine under P.

Run: python benchmarks/rl_speed.py [--players 4] [--batch 16384] [--rounds 3]
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")  # before NumPy loads: one thread

import argparse  # noqa: E402
import random  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable  # noqa: E402

import numpy as np  # noqa: E402
from engine_speed import checked_matches, fast_matches  # noqa: E402
from minimal_engine import minimal_p_matches  # noqa: E402

from ninetynine import load_rules  # noqa: E402
from ninetynine.engine.game import new_game  # noqa: E402
from ninetynine.engine.state import CHANCE, OVER  # noqa: E402
from ninetynine.rl.batch import Batch  # noqa: E402
from ninetynine.rl.encoding import Encoding  # noqa: E402

BATCH_TARGET = 4_500_000


def encoded_matches(players: int, matches: int, seed: int) -> int:
    """The fast path with every decision's observation and mask encoded."""
    enc, rng = Encoding("P", players), random.Random(seed)
    decisions = 0
    for _ in range(matches):
        state = new_game(enc.rules, players)
        while state.phase != OVER:
            if state.phase == CHANCE:
                state.play_chance(rng)
                continue
            enc.observe(state, state.turn)
            enc.mask(state)
            state.apply_code(rng.choice(state.legal_codes()))
            decisions += 1
    return decisions


def pettingzoo_steps(players: int, seconds: float, seed: int) -> int:
    from ninetynine.rl.pettingzoo import env

    table, chooser, steps = env("P", players), np.random.default_rng(seed), 0
    table.reset(seed=seed)
    start = time.process_time()
    while time.process_time() - start < seconds:
        obs, _, terminated, truncated, _ = table.last()
        if terminated or truncated:
            table.step(None)
            if not table.agents:
                table.reset()
            continue
        table.step(int(chooser.choice(np.flatnonzero(obs["action_mask"]))))
        steps += 1
    return steps


def gymnasium_steps(players: int, seconds: float, seed: int) -> int:
    """The agent's steps per second (the random bots' moves between them in the time)."""
    import gymnasium

    import ninetynine.rl  # noqa: F401

    made = gymnasium.make("NinetyNine-v1", rules="P", players=players, opponents="random")
    chooser = np.random.default_rng(seed)
    obs, info = made.reset(seed=seed)
    start, steps = time.process_time(), 0
    while time.process_time() - start < seconds:
        action = int(chooser.choice(np.flatnonzero(info["action_mask"])))
        obs, _, done, _, info = made.step(action)
        steps += 1
        if done:
            obs, info = made.reset()
    return steps


def openspiel_steps(players: int, seconds: float, seed: int) -> int:
    """Player decisions of random OpenSpiel games per second (chance nodes not counted)."""
    import pyspiel

    import ninetynine.rl.openspiel  # noqa: F401

    game = pyspiel.load_game("python_ninetynine", {"rules": "P", "players": players})
    rng, decisions = random.Random(seed), 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, probs)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                decisions += 1
    return decisions


def batch_rate(batch: Batch, steps: int) -> float:
    """Decisions per CPU second of ``steps`` random steps of every game of the batch."""
    start, done = time.process_time(), batch.decisions
    for _ in range(steps):
        batch.step(batch.random_actions(batch.legal()))
    return (batch.decisions - done) / (time.process_time() - start)


def timed(run: Callable[[], int]) -> float:
    start = time.process_time()
    done = run()
    return done / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--batch", type=int, default=16_384)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=2.0, help="per environment round")
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    n, seconds = args.players, args.seconds
    rules = load_rules("P")
    runs: dict[str, Callable[[int], int]] = {
        "minimal P-only engine": lambda r: minimal_p_matches(100, r, n),
        "fast path (P)": lambda r: fast_matches(rules, n, 100, r),
        "checked API (P)": lambda r: checked_matches(rules, n, 25, r),
        "fast path + encoding (P)": lambda r: encoded_matches(n, 25, r),
        "PettingZoo AEC env (P)": lambda r: pettingzoo_steps(n, seconds, r),
        "Gymnasium env (P, agent steps)": lambda r: gymnasium_steps(n, seconds, r),
        "OpenSpiel game (P, random)": lambda r: openspiel_steps(n, seconds, r),
    }
    batches = {
        f"batch engine ({p}, {args.batch:,})": Batch(p, n, args.batch, seed=1)
        for p in ("P", "K", "G", "J")
    }  # the tables are built once, untimed
    best = dict.fromkeys([*runs, *batches], 0.0)
    for r in range(args.rounds):
        for name, run in runs.items():
            best[name] = max(best[name], timed(lambda run=run, r=r: run(r)))
        for name, batch in batches.items():
            best[name] = max(best[name], batch_rate(batch, 40))
    base = best["minimal P-only engine"]
    print(f"decisions per CPU second on one core, {n} players, best of {args.rounds} rounds")
    for name, rate in best.items():
        note = ""
        if name.startswith("batch"):
            note = "  ok" if rate >= BATCH_TARGET else f"  BELOW the {BATCH_TARGET:,} target"
        print(f"{name:34} {rate:13,.0f}  {rate / base:8.2f} x minimal{note}")


if __name__ == "__main__":
    main()
