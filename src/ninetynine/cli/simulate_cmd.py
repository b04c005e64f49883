"""Play many games for rule sets x player counts x line-ups of bots, and write a row per
game and per hand (and per decision with --decisions) into a results folder.

Example: ``ninetynine simulate --rules P,K --players 3,4 --bots heuristic --bots
heuristic,random --games 1000 --seed 1 --out results/``, or ``ninetynine simulate
study.toml`` with the same settings in a file (docs/analysis.md gives its keys).

Each --bots is one line-up: its bot specs are the entrants, repeated in order to fill
the seats. With different bots the seats rotate every game and each block of games deals
the same cards; with one bot in every seat each game has a deal of its own.
The rows are Parquet files in a Hive layout (JSON lines where pyarrow is not installed)
that DuckDB, pandas and polars read as one table. The same seed gives the same rows
whatever --workers and --backend. A run that was stopped goes on with --resume.
Line-ups of random bots play on the batch engine (NumPy, the rl extra) where it plays
their rules, other games than the fast path's for the same seed; each cell's note says
which engine played it (--engine fast: never the batch engine).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ninetynine.cli.extras import require


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Adds the options of ``ninetynine simulate`` to ``parser``: a configuration, or the
    rule sets, player counts and line-ups, and the games, seed, workers, backend and folder."""
    parser.add_argument("config", nargs="?", metavar="CONFIG", help="a configuration file (TOML)")
    parser.add_argument(
        "--rules", help="comma-separated preset ids or house-rules .toml files (default: P)"
    )
    parser.add_argument("--players", help="comma-separated player counts (default: 4)")
    parser.add_argument(
        "--bots",
        action="append",
        metavar="LINEUP",
        help="one line-up of comma-separated bot specs; repeat for more line-ups "
        "(default: heuristic)",
    )
    parser.add_argument("--games", type=int, help="games per cell (default: 100)")
    parser.add_argument("--seed", type=int, help="the seed (default: 0)")
    parser.add_argument("--workers", type=int, help="processes (default: 0, one per core)")
    parser.add_argument("--out", metavar="DIR", help="the results folder (required)")
    parser.add_argument(
        "--backend", choices=["local", "ray"], help="where to play (default: local)"
    )
    parser.add_argument("--address", help="a Ray cluster to join (with --backend ray)")
    parser.add_argument(
        "--engine",
        choices=["auto", "fast", "batch"],
        help="auto (default): cells of random bots on the batch engine (NumPy) where it "
        "plays their rules, the others on the fast path; fast: never the batch engine; "
        "batch: every cell on it, or one line saying why not",
    )
    parser.add_argument("--resume", action="store_true", help="go on with the run in --out")
    parser.add_argument("--decisions", action="store_true", help="also a row per decision")
    parser.add_argument(
        "--chunk",
        type=int,
        help="games a chunk (default: 200; 1000 where random bots hold every seat, "
        "and on the batch engine)",
    )
    parser.add_argument("--quiet", action="store_true", help="no progress bar and no notes")


def _numbers(text: str, what: str) -> list[int]:
    from ninetynine.errors import NinetyNineError

    try:
        return [int(p) for p in text.split(",")]
    except ValueError:
        raise NinetyNineError(f"{what} {text!r}: expected comma-separated whole numbers") from None


def settings(args: argparse.Namespace) -> dict[str, Any]:
    """The simulation's arguments: the configuration file's, then the options given."""
    from ninetynine.analysis.config import Config, read_config
    from ninetynine.errors import NinetyNineError

    config = read_config(args.config) if args.config else Config()
    given: dict[str, Any] = {
        "rules": args.rules.split(",") if args.rules else None,
        "players": _numbers(args.players, "--players") if args.players else None,
        "lineups": args.bots,
        "games": args.games,
        "seed": args.seed,
        "out": args.out,
        "workers": args.workers,
        "backend": args.backend,
        "engine": args.engine,
        "address": args.address,
        "decisions": args.decisions or None,
        "chunk": args.chunk,
    }
    defaults: dict[str, Any] = {
        "rules": ["P"],
        "players": [4],
        "lineups": ["heuristic"],
        "games": 100,
        "seed": 0,
        "workers": 0,
        "backend": "local",
        "engine": "auto",
        "decisions": False,
    }
    out: dict[str, Any] = {}
    for key in (*given, "chance_games"):
        value = given.get(key)
        if value is None:
            value = getattr(config, key)
        if value is None:
            value = defaults.get(key)
        if value is not None:
            out[key] = value
    if "out" not in out:
        raise NinetyNineError("expected --out DIR (or out = ... in the configuration file)")
    return out


def run(args: argparse.Namespace) -> int:
    """Plays the simulation's games into its results folder with a progress bar; returns 0,
    or raises the one-line error of a bad configuration, rules file, bot or folder."""
    from ninetynine.analysis.simulation import simulate
    from ninetynine.rules.presets import open_rules

    chosen = settings(args)
    if chosen["backend"] == "ray":
        require("ray", "simulate", "--backend ray")
    chosen["rules"] = [open_rules(r) for r in chosen["rules"]]
    results = simulate(
        chosen.pop("rules"),
        chosen.pop("players"),
        chosen.pop("lineups"),
        chosen.pop("games"),
        resume=args.resume,
        progress=not args.quiet,
        **chosen,
    )
    chunks = results.manifest["chunks"].values()
    if not args.quiet:
        print(
            f"wrote {sum(c['games'] for c in chunks)} games and "
            f"{sum(c['hands'] for c in chunks)} hands to {results.out}",
            file=sys.stderr,
        )
    return 0
