"""How fast ``ninetynine simulate`` plays, beside the engine's own ``play_out`` in the same run.

* one core, random bots: simulate's games a second (its rows written to Parquet, and in
  memory) against ``play_out`` on the same rules and table (target: 0.9 of it), and
  against ``play_out`` drawing chance as simulate must (``Random(f"{seed}:{hand}:{k}")``
  for every chance event: the arena's duplicate deals); and with heuristic bots;
* one core, random bots, on the batch engine (NumPy, its default chunks of 1000 games):
  simulate's games a second, rows to Parquet, against ``play_out`` in the same run;
* one worker against two (local processes);
* Ray on this machine in steady state (timed after it has started and warmed up, over at
  least a minute of games in chunks of 200) against local processes (target: 0.8 of them).

Every measurement runs in a fresh process, the kinds take turns round after round (the
shared machines drift), and each figure is the median of its rounds with their spread
(min to max), never the best.

Run: python benchmarks/simulate_speed.py [--rules P] [--players 4] [--rounds 5]
[--games 400] [--ray-seconds 60] [--no-ray]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BATCH = "simulate, batch engine (NumPy)"
PLAY_OUT_SHARE = 0.9  # simulate, one core, random bots, as a share of play_out
RAY_SHARE = 0.8  # Ray in steady state, as a share of local processes


def child(kind: str, rules_id: str, players: int, games: int, workers: int) -> float:
    """Games a second of one kind of run, in this (fresh) process."""
    from ninetynine import load_rules, new_game, play_out
    from ninetynine.analysis import simulate

    rules = load_rules(rules_id)
    if kind == "by_hand":  # play_out, its chance drawn as simulate draws it (duplicate deals)
        from ninetynine.engine.state import CHANCE, OVER

        start = time.perf_counter()
        for g in range(games):
            state, rng, chance, k = new_game(rules, players), random.Random(g), random.Random(0), 0
            while state.phase is not OVER:
                if state.phase is CHANCE:
                    chance.seed(f"0:deal:{g}:{state.hand_no}:{k}")
                    k += 1
                    state.play_chance(chance)
                else:
                    state.apply_code(rng.choice(state.legal_codes()))
        return games / (time.perf_counter() - start)
    if kind == "play_out":
        start = time.perf_counter()
        for g in range(games):
            play_out(new_game(rules, players), random.Random(g))
        return games / (time.perf_counter() - start)
    bots = "heuristic" if kind == "heuristic" else "random"
    simulate(
        rules, players, bots, games=players, workers=1, engine="fast"
    )  # imports and tables, untimed
    with tempfile.TemporaryDirectory() as tmp:
        out = None if kind == "memory" else Path(tmp) / "out"
        if out is not None:  # pyarrow's first write, untimed
            simulate(
                rules,
                players,
                bots,
                games=players,
                workers=1,
                out=Path(tmp) / "warm",
                engine="fast",
            )
        start = time.perf_counter()
        simulate(rules, players, bots, games=games, workers=workers, out=out, engine="fast")
        return games / (time.perf_counter() - start)


def batch_child(rules_id: str, players: int, games: int) -> float:
    """Games a second of ``simulate`` on the batch engine (random bots, one core, its
    default chunks, rows written to Parquet), in this (fresh) process."""
    from ninetynine import load_rules
    from ninetynine.analysis import simulate

    rules = load_rules(rules_id)
    with tempfile.TemporaryDirectory() as tmp:  # imports, tables and the first write untimed
        simulate(rules, players, "random", games=players, workers=1, out=Path(tmp) / "warm")
        start = time.perf_counter()
        simulate(rules, players, "random", games=games, workers=1, out=Path(tmp) / "out")
        return games / (time.perf_counter() - start)


def report_batch(rates: dict[str, list[float]]) -> None:
    """The batch engine's rate as a share of ``play_out``'s in the same rounds."""
    engine = statistics.median(rates["play_out (the engine)"])
    batch = statistics.median(rates[BATCH])
    print(f"  {BATCH} / play_out: {batch / engine:.2f}")


def ray_child(rules_id: str, players: int, seconds: float, workers: int) -> dict[str, float]:
    """Ray in steady state against local processes, on the same games."""
    import logging

    import ray

    from ninetynine import load_rules
    from ninetynine.analysis import simulate

    rules = load_rules(rules_id)
    with tempfile.TemporaryDirectory() as tmp:
        warm = simulate(rules, players, "random", games=400, workers=workers, engine="fast")  # noqa: F841
        start = time.perf_counter()
        simulate(rules, players, "random", games=2000, workers=workers, engine="fast")
        local_guess = 2000 / (time.perf_counter() - start)
        games = int(local_guess * seconds)
        ray.init(num_cpus=workers, logging_level=logging.WARNING, include_dashboard=False)
        simulate(
            rules, players, "random", games=800, backend="ray", chunk=200, engine="fast"
        )  # warm-up
        start = time.perf_counter()
        simulate(
            rules,
            players,
            "random",
            games=games,
            backend="ray",
            chunk=200,
            out=Path(tmp) / "r",
            engine="fast",
        )
        on_ray = games / (time.perf_counter() - start)
        ray.shutdown()
        start = time.perf_counter()
        simulate(
            rules,
            players,
            "random",
            games=games,
            workers=workers,
            chunk=200,
            out=Path(tmp) / "l",
            engine="fast",
        )
        local = games / (time.perf_counter() - start)
    return {"games": games, "ray": on_ray, "local": local}


def run_child(*args: str) -> str:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    done = subprocess.run(
        [sys.executable, __file__, "--child", *args], capture_output=True, text=True, env=env
    )
    if done.returncode:
        raise SystemExit(done.stderr)
    return done.stdout.strip().splitlines()[-1]


def spread(values: list[float]) -> str:
    return f"{statistics.median(values):8.0f}  ({min(values):.0f} to {max(values):.0f})"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="P")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--games", type=int, default=400, help="random games a measurement")
    parser.add_argument("--ray-seconds", type=float, default=60.0)
    parser.add_argument("--no-ray", action="store_true")
    parser.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        kind, *rest = args.child
        if kind == "ray":
            print(json.dumps(ray_child(args.rules, args.players, args.ray_seconds, int(rest[0]))))
        elif kind == "batch":
            print(batch_child(args.rules, args.players, int(rest[0])))
        else:
            print(child(kind, args.rules, args.players, int(rest[0]), int(rest[1])))
        return 0
    n, g = args.players, args.games
    kinds = {  # name: (child kind, games, workers)
        "play_out (the engine)": ("play_out", g, 1),
        "play_out, chance seeded by hand": ("by_hand", g, 1),
        "simulate, rows to Parquet": ("files", g, 1),
        "simulate, rows in memory": ("memory", g, 1),
        "simulate, heuristic bots": ("heuristic", max(n, g // 8), 1),
        BATCH: ("batch", 5 * g, 1),
        "simulate, 2 workers": ("files", 4 * g, 2),
        "simulate, 1 worker (same games)": ("files", 4 * g, 1),
    }
    rates: dict[str, list[float]] = {name: [] for name in kinds}
    for _ in range(args.rounds):
        for name, (kind, games, workers) in kinds.items():
            rates[name].append(float(run_child(kind, str(games), str(workers))))
    print(f"{args.rules}, {n} players, {args.rounds} rounds; games a second, median (spread)")
    for name, values in rates.items():
        print(f"  {name:<34}{spread(values)}")
    engine = statistics.median(rates["play_out (the engine)"])
    by_hand = statistics.median(rates["play_out, chance seeded by hand"])
    print(f"  play_out with chance seeded by hand / play_out: {by_hand / engine:.2f}")
    for name in ("simulate, rows to Parquet", "simulate, rows in memory"):
        share = statistics.median(rates[name]) / engine
        print(f"  {name} / play_out seeded by hand: {share * engine / by_hand:.2f}")
        verdict = "ok" if share >= PLAY_OUT_SHARE else f"below the target {PLAY_OUT_SHARE}"
        print(f"  {name} / play_out: {share:.2f} ({verdict})")
    report_batch(rates)
    two = statistics.median(rates["simulate, 2 workers"])
    one = statistics.median(rates["simulate, 1 worker (same games)"])
    print(f"  2 workers / 1 worker: {two / one:.2f} (cores here: {os.cpu_count()})")
    if not args.no_ray:
        found = json.loads(run_child("ray", "2"))
        share = found["ray"] / found["local"]
        verdict = "ok" if share >= RAY_SHARE else f"below the target {RAY_SHARE}"
        print(
            f"  Ray, 2 CPUs, steady state, {found['games']:.0f} games in chunks of 200: "
            f"{found['ray']:.0f} games/s against {found['local']:.0f} for 2 local "
            f"processes: {share:.2f} ({verdict})"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
