"""Game-AI speed: decisions per second of the fast path, the checked path, the canonical
encoding, the three environments and the batch engine, each beside the ceiling, a minimal
hard-coded P engine (``minimal_engine.py``) in its steady state, on one core (each
measurement a fresh process pinned to one CPU, NumPy on one thread), random legal choices,
CPU time. As in ``engine_speed.py``, each measurement warms up untimed first, the contenders
take turns round by round in an order turned by one each round, ratios are taken within a
round, and each figure is the median of the rounds with its spread (never the best).

The vector env (``NinetyNineVector-v1``) is measured in the learner's steps a second (the
learner choosing uniformly among its legal actions, the batched opponents' moves between
in the time) against batched ``random``, ``greedy-keep`` and ``heuristic-v1``, beside the
scalar Gymnasium env's agent steps against ``random``.

Targets: the batch engine at least 4.5 million decisions a second at batch 16,384 for each
base game; the fast path at least 0.65 of the ceiling under P; the vector env at least
100,000 learner steps a second against batched heuristic-v1 (shown for every opponent).

Run: python benchmarks/rl_speed.py [--players 4] [--batch 16384] [--envs 1024]
[--rounds 5] [--seconds 2]
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")  # before NumPy loads: one thread

import argparse  # noqa: E402
import json  # noqa: E402
import random  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402
from engine_speed import CEILING, checked_matches, fast_matches, spread  # noqa: E402
from minimal_engine import minimal_p_matches  # noqa: E402

from ninetynine import load_rules  # noqa: E402
from ninetynine.engine.state import OVER  # noqa: E402
from ninetynine.rl.batch import Batch  # noqa: E402
from ninetynine.rl.encoding import Encoding  # noqa: E402
from ninetynine.rl.episode import Episode  # noqa: E402

BATCH_TARGET = 4_500_000
VECTOR_TARGET = 100_000
OPPONENTS = ("random", "greedy-keep", "heuristic-v1")  # the vector env's, batched
ROOT = Path(__file__).resolve().parents[1]


def encoded_matches(players: int, matches: int, seed: int) -> int:
    """The fast path as an environment plays it (:class:`Episode`, which keeps the cards
    each seat played this hand) with every decision's observation and mask encoded."""
    enc, rng = Encoding("P", players), random.Random(seed)
    decisions = 0
    for _ in range(matches):
        episode = Episode(enc, rng)
        state = episode.state
        while state.phase != OVER:
            episode.observe(state.turn)
            enc.mask(state)
            episode.play_code(rng.choice(state.legal_codes()))
            state = episode.state
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


def vector_steps(players: int, envs: int, opponents: str, seconds: float, seed: int) -> int:
    """The learner's steps (one per game of the vector env per step) in the time."""
    from ninetynine.rl.vector import NinetyNineVectorEnv

    vec = NinetyNineVectorEnv("P", players, envs, opponents=opponents)
    chooser = np.random.default_rng(seed)
    vec.reset(seed=seed)
    start, steps = time.process_time(), 0
    while time.process_time() - start < seconds:
        mask = vec.action_masks()
        vec.step((chooser.random(mask.shape) * mask).argmax(axis=1))
        steps += envs
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


def contenders(players: int, batch: int, envs: int) -> dict[str, str]:
    """Each contender's name: its kind (what a child measures)."""
    return {
        CEILING: "minimal",
        "fast path (P)": "fast",
        "checked API (P)": "checked",
        "fast path + encoding (P)": "encoded",
        "PettingZoo AEC env (P)": "pettingzoo",
        "Gymnasium env (P, agent steps)": "gymnasium",
        "OpenSpiel game (P, random)": "openspiel",
        **{f"batch engine ({p}, {batch:,})": f"batch-{p}" for p in ("P", "K", "G", "J")},
        **{f"vector env (P, {envs:,}, {o})": f"vector-{o}" for o in OPPONENTS},
    }


def child(kind: str, players: int, batch: int, envs: int, seconds: float, seed: int) -> float:
    """One measurement in this fresh process: decisions per CPU second after a warm-up."""
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    n = players
    if kind.startswith("batch-"):
        games = Batch(kind.removeprefix("batch-"), n, batch, seed=seed)  # tables built untimed
        batch_rate(games, 5)
        return batch_rate(games, 40)
    rules = load_rules("P")
    runs: dict[str, Callable[[int], int]] = {
        "minimal": lambda r: minimal_p_matches(100, r, n),
        "fast": lambda r: fast_matches(rules, n, 100, r),
        "checked": lambda r: checked_matches(rules, n, 25, r),
        "encoded": lambda r: encoded_matches(n, 25, r),
        "pettingzoo": lambda r: pettingzoo_steps(n, seconds, r),
        "gymnasium": lambda r: gymnasium_steps(n, seconds, r),
        "openspiel": lambda r: openspiel_steps(n, seconds, r),
        **{f"vector-{o}": lambda r, o=o: vector_steps(n, envs, o, seconds, r) for o in OPPONENTS},
    }
    run = runs[kind]
    run(10_000 + seed)  # the steady state: caches and tables built, imports done
    return timed(lambda: run(seed))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--batch", type=int, default=16_384)
    parser.add_argument("--envs", type=int, default=1024, help="the vector env's games")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=2.0, help="per environment measurement")
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    n = args.players
    if args.child:
        kind, seed = args.child
        print(json.dumps(child(kind, n, args.batch, args.envs, args.seconds, int(seed))))
        return
    runs = contenders(n, args.batch, args.envs)
    names = list(runs)
    rates: dict[str, list[float]] = {name: [] for name in names}
    options = ["--players", str(n), "--batch", str(args.batch), "--envs", str(args.envs)]
    options += ["--seconds", str(args.seconds)]
    env = {**os.environ, "PYTHONPATH": f"{ROOT / 'src'}{os.pathsep}{ROOT / 'benchmarks'}"}
    for r in range(args.rounds):
        for name in names[r % len(names) :] + names[: r % len(names)]:
            done = subprocess.run(
                [sys.executable, __file__, *options, "--child", runs[name], str(r)],
                capture_output=True,
                text=True,
                env=env,
            )
            if done.returncode:
                raise SystemExit(done.stderr[-2000:])
            rates[name].append(float(done.stdout.strip().splitlines()[-1]))
        print(f"round {r + 1} of {args.rounds} done", file=sys.stderr)
    print(
        f"decisions per CPU second on one core, {n} players, {args.rounds} rounds of fresh "
        "processes interleaved; median (spread)"
    )
    for name in names:
        ratio = [a / b for a, b in zip(rates[name], rates[CEILING], strict=True)]
        note = ""
        if name.startswith("batch"):
            rate = statistics.median(rates[name])
            note = "  ok" if rate >= BATCH_TARGET else f"  BELOW the {BATCH_TARGET:,} target"
        if name.startswith("vector"):
            rate = statistics.median(rates[name])
            note = "  ok" if rate >= VECTOR_TARGET else f"  BELOW the {VECTOR_TARGET:,} target"
        print(f"{name:34}{spread(rates[name]):>38}{spread(ratio, 2):>26} x ceiling{note}")


if __name__ == "__main__":
    main()
