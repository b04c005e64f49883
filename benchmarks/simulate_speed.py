"""How fast ``ninetynine simulate`` plays, beside the engine's own rate in the same run.

* One core, random bots, the fast path: simulate's games a second, its rows written to
  Parquet (what ``ninetynine simulate`` does) and kept in memory (the API without
  ``out``; the row objects are made when they are read, and that is not timed), against
  two baselines that play with the engine alone and write nothing down:

  - ``play_out``: :func:`ninetynine.play_out` on a new game, one generator for
    everything (the engine's plain rate);
  - the engine with simulate's seeds: the same games simulate plays, move for move (it
    checks that the moves add up to simulate's), on a plain state: chance drawn per hand
    as simulate must draw it for the arena's duplicate deals
    (``Random(hand_seed(deal_seed, hand, k))`` for the k-th chance event of a hand), and
    each seat's moves from its own generator (``Random(f"{bot_seed}:{seat}")``) with
    ``rng.choice(state.legal_codes())``. This is the engine's own rate for simulate's
    games; the target is 0.9 of it.

  And simulate with heuristic bots (no baseline: the bots are most of its time). Every
  fast-path kind passes ``engine="fast"``: a random line-up would go to the batch engine.
* One core, random bots, the batch engine (NumPy, its default chunks of 1000 games):
  simulate's games a second, rows to Parquet, against ``play_out`` in the same rounds.
* Two cores: the machine's bound, two independent processes of the engine with
  simulate's seeds at once against one (total games a second), beside simulate with two
  workers against one on the same games.
* Ray on this machine in steady state (timed after it has started and warmed up, over at
  least a minute of games in chunks of 200) against local processes (target: 0.8 of them).

Every measurement runs in a fresh process, the kinds take turns round after round (the
shared machines drift), and each figure is the median of its rounds with their spread
(min to max), never the best; a ratio is the median of the rounds' ratios, each round's
kinds having run one after the other. The rates are by the wall clock; the one-core ratios
are given by CPU time too (the process's own, which other work on a shared machine
disturbs less; it leaves out the waits for the disk, which the wall clock counts).

Where other work shares the machine, ``--instructions`` counts the instructions a game
takes instead (valgrind, one round of the one-core kinds): not time, but no other work
moves it.

Run: python benchmarks/simulate_speed.py [--rules P] [--players 4] [--rounds 5]
[--games N] [--ray-seconds 60] [--no-ray] [--instructions]
"""

from __future__ import annotations

import argparse
import atexit
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from valgrind_count import instructions_of

ROOT = Path(__file__).resolve().parents[1]
BATCH = "simulate, batch engine (NumPy)"
ENGINE_SHARE = 0.9  # simulate, one core, random bots, as a share of the engine's rate
RAY_SHARE = 0.8  # Ray in steady state, as a share of local processes


def engine_games(rules: Any, players: int, games: int, seed: int = 0) -> int:
    """Play simulate's games of a ``random`` line-up (``games`` of them, seed ``seed``)
    with the engine alone, on plain states; return the moves made."""
    from ninetynine import new_game
    from ninetynine.arena.game import seed_of
    from ninetynine.engine.state import CHANCE, OVER
    from ninetynine.records.match import hand_seed

    chance, moves = random.Random(0), 0
    for game in range(games):
        deal_seed = seed_of(seed, "deal", game)  # a deal a game: one bot in every seat
        bot_seed = seed_of(seed, "bots", game)
        state = new_game(rules, players)
        rngs = [random.Random(f"{bot_seed}:{seat}") for seat in range(players)]
        hand, k = 0, 0
        while (phase := state.phase) is not OVER:
            if phase is CHANCE:
                if state.hand_no != hand:
                    hand, k = state.hand_no, 0
                chance.seed(hand_seed(deal_seed, hand, k))
                k += 1
                state.play_chance(chance)
            else:
                state.apply_code(rngs[state.turn].choice(state.legal_codes()))
                moves += 1
    return moves


def child(
    kind: str, rules_id: str, players: int, games: int, workers: int, at: float = 0.0
) -> dict[str, float]:
    """Games a second of one kind of run, in this (fresh) process, and when its timed
    part began and ended (by the wall clock); ``at``: when to begin it, if later."""
    from ninetynine import load_rules
    from ninetynine.analysis import simulate

    rules = load_rules(rules_id)
    # every kind warms up alike (imports, the engine's tables, Parquet's first write),
    # checking on the way that the engine's baseline plays simulate's games
    turns = sum(r.turns for r in simulate(rules, players, "random", 40, engine="fast").game_rows())
    if engine_games(rules, players, 40) != turns:
        raise SystemExit("the engine's games are not simulate's")
    run = _timed(kind, rules, players, games, workers)
    time.sleep(max(0.0, at - time.time()))
    began = time.time()
    start, cpu = time.perf_counter(), time.process_time()
    run()
    took, used = time.perf_counter() - start, time.process_time() - cpu
    return {"rate": games / took, "cpu_rate": games / used, "began": began, "ended": began + took}


def _timed(kind: str, rules: Any, players: int, games: int, workers: int) -> Any:
    """What a child times: a function of nothing, its set-up done."""
    from ninetynine import new_game, play_out
    from ninetynine.analysis import simulate

    if kind == "engine":
        return lambda: engine_games(rules, players, games)
    if kind == "play_out":
        play_out(new_game(rules, players), random.Random(0))

        def plain() -> None:
            for g in range(games):
                play_out(new_game(rules, players), random.Random(g))

        return plain
    bots = "heuristic" if kind == "heuristic" else "random"
    engine = "batch" if kind == "batch" else "fast"
    simulate(rules, players, bots, games=players, workers=1, engine=engine)
    tmp = Path(tempfile.mkdtemp())
    atexit.register(shutil.rmtree, tmp, ignore_errors=True)
    simulate(rules, players, bots, games=players, workers=1, out=tmp / "warm", engine=engine)
    out = None if kind == "memory" else tmp / "out"
    return lambda: simulate(
        rules, players, bots, games=games, workers=workers, out=out, engine=engine
    )


def ray_child(rules_id: str, players: int, seconds: float, workers: int) -> dict[str, float]:
    """Ray in steady state against local processes, on the same games."""
    import logging

    import ray

    from ninetynine import load_rules
    from ninetynine.analysis import simulate

    rules = load_rules(rules_id)
    with tempfile.TemporaryDirectory() as tmp:
        fast = "fast"  # the fast path: Ray's overhead beside the same work done locally
        simulate(rules, players, "random", games=400, workers=workers, engine=fast)
        start = time.perf_counter()
        simulate(rules, players, "random", games=2000, workers=workers, engine=fast)
        local_guess = 2000 / (time.perf_counter() - start)
        games = int(local_guess * seconds)
        ray.init(num_cpus=workers, logging_level=logging.WARNING, include_dashboard=False)
        simulate(rules, players, "random", games=800, backend="ray", chunk=200, engine=fast)
        start = time.perf_counter()
        simulate(
            rules,
            players,
            "random",
            games=games,
            backend="ray",
            chunk=200,
            out=Path(tmp) / "r",
            engine=fast,
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
            engine=fast,
        )
        local = games / (time.perf_counter() - start)
    return {"games": games, "ray": on_ray, "local": local}


def start_child(*args: str) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    return subprocess.Popen(
        [sys.executable, __file__, "--child", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )


def result(process: subprocess.Popen[str]) -> Any:
    out, err = process.communicate()
    if process.returncode:
        raise SystemExit(err)
    return json.loads(out.strip().splitlines()[-1])


def run_child(*args: str) -> Any:
    return result(start_child(*args))


def two_at_once(games: int) -> float:
    """Total games a second of two engine processes whose timed parts begin together
    (once both have started up), from the first beginning to the last end."""
    at = time.time() + 3.0  # time enough to start up
    found = [result(p) for p in [start_child("engine", str(games), "1", str(at)) for _ in "ab"]]
    took: float = max(f["ended"] for f in found) - min(f["began"] for f in found)
    return 2 * games / took


def instructions(kind: str, games: int) -> float:
    """Instructions a game of one kind of run, as valgrind counts them: the difference
    between ``games`` and a fifth as many, over the games between (what a run costs
    whatever else the machine does; instructions are not time, but a guide to it)."""

    def counted(count: int) -> int:
        args = [__file__, "--child", kind, str(count), "1"]
        return instructions_of(args, f"{ROOT / 'src'}{os.pathsep}{ROOT / 'benchmarks'}")[0]

    few = max(1, games // 5)
    return (counted(games) - counted(few)) / (games - few)


def by_instructions(games: int) -> None:
    """The one-core kinds by valgrind's count of instructions."""
    kinds = {
        "play_out (the engine, plain)": "play_out",
        "the engine with simulate's seeds": "engine",
        "simulate, rows to Parquet": "files",
        "simulate, rows in memory": "memory",
    }
    count = {name: instructions(kind, games) for name, kind in kinds.items()}
    print(f"instructions a game (valgrind), {games} games against {max(1, games // 5)}")
    for name, value in count.items():
        print(f"  {name:<36}{value / 1e6:8.2f} M")
    engine = count["the engine with simulate's seeds"]
    for name in ("simulate, rows to Parquet", "simulate, rows in memory"):
        print(f"  {f'{name} / the engine with its seeds':<56}{engine / count[name]:8.2f}")


def spread(values: list[float], digits: int = 0) -> str:
    middle = f"{statistics.median(values):.{digits}f}"
    return f"{middle:>8}  ({min(values):.{digits}f} to {max(values):.{digits}f})"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="P")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument(
        "--games",
        type=int,
        help="random games a measurement (default: 8000 by the clock, where fewer than a few "
        "thousand time a run's start-up too, not its steady state; 300 under valgrind)",
    )
    parser.add_argument("--ray-seconds", type=float, default=60.0)
    parser.add_argument("--no-ray", action="store_true")
    parser.add_argument(
        "--instructions",
        action="store_true",
        help="count instructions with valgrind (one round, one core), not time",
    )
    parser.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        kind, *rest = args.child
        if kind == "ray":
            print(json.dumps(ray_child(args.rules, args.players, args.ray_seconds, int(rest[0]))))
        else:
            at = float(rest[2]) if len(rest) > 2 else 0.0
            found = child(kind, args.rules, args.players, int(rest[0]), int(rest[1]), at)
            print(json.dumps(found))
        return 0
    n, g = args.players, args.games or (300 if args.instructions else 8000)
    if args.instructions:
        by_instructions(g)
        return 0
    one_core = {  # name: (child kind, games, workers)
        "play_out (the engine, plain)": ("play_out", g, 1),
        "the engine with simulate's seeds": ("engine", g, 1),
        "simulate, rows to Parquet": ("files", g, 1),
        "simulate, rows in memory": ("memory", g, 1),
        "simulate, heuristic bots": ("heuristic", max(n, g // 50), 1),
        BATCH: ("batch", 5 * g, 1),
    }
    two_cores = {
        "engine, 1 process": ("engine", 2 * g, 1),
        "engine, 2 processes at once": ("pair", g, 1),
        "simulate, 1 worker": ("files", 2 * g, 1),
        "simulate, 2 workers": ("files", 2 * g, 2),
    }
    rates: dict[str, list[float]] = {name: [] for name in {**one_core, **two_cores}}
    cpu_rates: dict[str, list[float]] = {name: [] for name in one_core}
    for _ in range(args.rounds):
        for name, (kind, games, workers) in {**one_core, **two_cores}.items():
            if kind == "pair":
                rates[name].append(two_at_once(games))
                continue
            found = run_child(kind, str(games), str(workers))
            rates[name].append(found["rate"])
            if name in cpu_rates:
                cpu_rates[name].append(found["cpu_rate"])

    def ratios(top: str, bottom: str, of: dict[str, list[float]] = rates) -> list[float]:
        return [a / b for a, b in zip(of[top], of[bottom], strict=True)]

    print(
        f"{args.rules}, {n} players, random bots but where named, {args.rounds} rounds of "
        f"{g} games a measurement; games a second, median (spread)"
    )
    for name in one_core:
        print(f"  {name:<36}{spread(rates[name])}")
    engine, plain = "the engine with simulate's seeds", "play_out (the engine, plain)"
    print(f"  {'one core, as a share:':<56}{'wall clock':>8}{'':15}{'CPU time':>8}")
    for top, bottom in [
        (engine, plain),
        ("simulate, rows to Parquet", plain),
        ("simulate, rows to Parquet", engine),
        ("simulate, rows in memory", plain),
        ("simulate, rows in memory", engine),
        (BATCH, plain),
    ]:
        wall, cpu = ratios(top, bottom), ratios(top, bottom, cpu_rates)
        target = ""
        if bottom == engine and top != engine:
            met = statistics.median(wall) >= ENGINE_SHARE
            target = f"  ({'ok' if met else 'below'}: the target is {ENGINE_SHARE})"
        short = "play_out" if bottom == plain else "the engine with its seeds"
        print(f"  {f'{top} / {short}':<56}{spread(wall, 2)}{spread(cpu, 2)}{target}")
    print(f"two cores ({os.cpu_count()} here), {2 * g} games a measurement")
    for name in two_cores:
        print(f"  {name:<36}{spread(rates[name])}")
    bound = ratios("engine, 2 processes at once", "engine, 1 process")
    speed_up = ratios("simulate, 2 workers", "simulate, 1 worker")
    machine = "the machine's bound, 2 engine processes / 1"
    print(f"  {machine:<56}{spread(bound, 2)}")
    print(f"  {'simulate, 2 workers / 1 worker':<56}{spread(speed_up, 2)}")
    if not args.no_ray:
        found = run_child("ray", "2")
        share_ray = found["ray"] / found["local"]
        verdict = "ok" if share_ray >= RAY_SHARE else f"below the target {RAY_SHARE}"
        print(
            f"  Ray, 2 CPUs, steady state, {found['games']:.0f} games in chunks of 200: "
            f"{found['ray']:.0f} games/s against {found['local']:.0f} for 2 local "
            f"processes: {share_ray:.2f} ({verdict})"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
