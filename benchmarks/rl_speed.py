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

The JAX engine (``ninetynine.rl.jax``) is measured beside the NumPy engine under P at each
of ``--jax-sizes``, on the CPU (one core, as the rest), its first step (compiling) reported
apart and untimed.

Run: python benchmarks/rl_speed.py [--players 4] [--batch 16384] [--envs 1024]
[--rounds 5] [--seconds 2] [--jax-sizes 1024,16384,65536] [--only NAME,...]
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
from typing import TYPE_CHECKING  # noqa: E402

import numpy as np  # noqa: E402
from engine_speed import CEILING, checked_matches, fast_matches, spread  # noqa: E402
from minimal_engine import minimal_p_matches  # noqa: E402

from ninetynine import load_rules  # noqa: E402
from ninetynine.engine.state import OVER  # noqa: E402
from ninetynine.rl.batch import Batch  # noqa: E402
from ninetynine.rl.encoding import Encoding  # noqa: E402
from ninetynine.rl.episode import Episode  # noqa: E402

if TYPE_CHECKING:
    from ninetynine.rl.jax import JaxBatch

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


def jax_rate(games: JaxBatch, steps: int) -> float:
    """As :func:`batch_rate`, for the JAX engine (its work waited for: JAX runs ahead)."""
    import jax

    start, done = time.process_time(), games.decisions
    for _ in range(steps):
        games.step(games.random_actions(games.legal()))
    jax.block_until_ready(games.state)
    return (games.decisions - done) / (time.process_time() - start)


def timed(run: Callable[[], int]) -> float:
    start = time.process_time()
    done = run()
    return done / (time.process_time() - start)


def contenders(players: int, batch: int, envs: int, sizes: list[int]) -> dict[str, str]:
    """Each contender's name: its kind (what a child measures)."""
    engines = {  # the NumPy and JAX engines side by side at each of ``sizes``
        f"{name} (P, {size:,})": f"{kind}-P-{size}"
        for size in sizes
        for name, kind in (("batch engine", "batch"), ("JAX engine", "jax"))
    }
    return {
        CEILING: "minimal",
        "fast path (P)": "fast",
        "checked API (P)": "checked",
        "fast path + encoding (P)": "encoded",
        "PettingZoo AEC env (P)": "pettingzoo",
        "Gymnasium env (P, agent steps)": "gymnasium",
        "OpenSpiel game (P, random)": "openspiel",
        **{f"batch engine ({p}, {batch:,})": f"batch-{p}-{batch}" for p in ("P", "K", "G", "J")},
        **engines,
        **{f"vector env (P, {envs:,}, {o})": f"vector-{o}" for o in OPPONENTS},
    }


def child(
    kind: str, players: int, envs: int, seconds: float, seed: int
) -> float | tuple[float, float]:
    """One measurement in this fresh process: decisions per CPU second after a warm-up (for
    the JAX engine, with the seconds its first step took: compiling, untimed otherwise)."""
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    n = players
    if kind.startswith("batch-"):
        _, preset, size = kind.split("-")
        games = Batch(preset, n, int(size), seed=seed)  # tables built untimed
        batch_rate(games, 5)
        return batch_rate(games, 40)
    if kind.startswith("jax-"):
        from ninetynine.rl.jax import JaxBatch

        _, preset, size = kind.split("-")
        start = time.perf_counter()
        jax_games = JaxBatch(preset, n, int(size), seed=seed)
        jax_rate(jax_games, 1)
        compile_seconds = time.perf_counter() - start
        jax_rate(jax_games, 5)
        return jax_rate(jax_games, 40), compile_seconds
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
    parser.add_argument(
        "--jax-sizes", default="1024,16384,65536", help="the batch sizes of the JAX engine"
    )
    parser.add_argument(
        "--only", default="", help="contenders whose name holds one of these (comma-separated)"
    )
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    n = args.players
    if args.child:
        kind, seed = args.child
        print(json.dumps(child(kind, n, args.envs, args.seconds, int(seed))))
        return
    sizes = [int(size) for size in args.jax_sizes.split(",")]
    runs = contenders(n, args.batch, args.envs, sizes)
    if args.only:  # the ceiling stays: the ratios are to it
        wanted = args.only.split(",")
        runs = {k: v for k, v in runs.items() if k == CEILING or any(w in k for w in wanted)}
    names = list(runs)
    rates: dict[str, list[float]] = {name: [] for name in names}
    compiles: dict[str, list[float]] = {name: [] for name in names}
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
            measured = json.loads(done.stdout.strip().splitlines()[-1])
            if isinstance(measured, list):  # the JAX engine's: its rate and compile time
                measured, seconds = measured
                compiles[name].append(seconds)
            rates[name].append(measured)
        print(f"round {r + 1} of {args.rounds} done", file=sys.stderr)
    print(
        f"decisions per CPU second on one core, {n} players, {args.rounds} rounds of fresh "
        "processes interleaved; median (spread)"
    )
    for name in names:
        ratio = [a / b for a, b in zip(rates[name], rates[CEILING], strict=True)]
        note = ""
        kind = runs[name]
        if kind.startswith("batch-") and int(kind.rsplit("-", 1)[1]) >= 16_384:  # its target's
            rate = statistics.median(rates[name])
            note = "  ok" if rate >= BATCH_TARGET else f"  BELOW the {BATCH_TARGET:,} target"
        numpy = name.replace("JAX engine", "batch engine")
        if compiles[name] and numpy in rates:  # the JAX engine to the NumPy one, round by round
            to_numpy = [a / b for a, b in zip(rates[name], rates[numpy], strict=True)]
            note += f"  {statistics.median(to_numpy):.2f} x the NumPy engine"
        if name.startswith("vector"):
            rate = statistics.median(rates[name])
            note = "  ok" if rate >= VECTOR_TARGET else f"  BELOW the {VECTOR_TARGET:,} target"
        if compiles[name]:
            note += f"  (first step, compiling: {statistics.median(compiles[name]):.1f} s)"
        print(f"{name:34}{spread(rates[name]):>38}{spread(ratio, 2):>26} x ceiling{note}")


if __name__ == "__main__":
    main()
