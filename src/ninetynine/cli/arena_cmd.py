"""Play many games between bots with seats rotated; print win rates and ratings.

Example: ``ninetynine arena --rules P --players 4 --bots ismcts,heuristic,heuristic,heuristic
--games 400 --seed 1 --out results/``

Each bot is a spec: random, heuristic, ismcts:iterations=2000 (or ms=500), easy/medium/hard,
or a program speaking the engine protocol: "cmd:python examples/protocol_bot.py" (see
docs/bot-protocol.md). A bot that crashes, hangs or plays an illegal move loses that game
and a random player finishes it in its seat; the arena goes on. A program that
cannot start stops the arena before the first game.

Seats rotate every game, and each block of N games deals the same cards in every hand, so
the luck of the cards is shared; the 95% intervals are computed from the blocks (with 30
or more; Wilson's otherwise). A last, partial block counts in the win rates, not in the
intervals."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ninetynine.cli.extras import require


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Adds the options of ``ninetynine arena`` to ``parser``: the rules, the bots, the games, the
    seed, the workers and the results folder."""
    parser.add_argument(
        "--rules", default="P", help="preset id or alias, or a house-rules .toml (default: P)"
    )
    parser.add_argument(
        "--players", type=int, default=None, help="seats at the table (default: the number of bots)"
    )
    parser.add_argument(
        "--bots",
        default=None,
        help="comma-separated bot specs, one per seat (in the first game); "
        "options stay with their bot: ismcts:iterations=500,c=1,random",
    )
    parser.add_argument(
        "--bot",
        action="append",
        default=[],
        metavar="SPEC",
        help="one bot spec per seat, repeated (for specs with commas)",
    )
    parser.add_argument("--games", type=int, default=100, help="games to play (default: 100)")
    parser.add_argument("--seed", type=int, default=0, help="arena seed (default: 0)")
    parser.add_argument(
        "--workers", type=int, default=0, help="processes to use (default: one per core)"
    )
    parser.add_argument(
        "--out",
        default=None,
        metavar="DIR",
        help="write DIR/results.json and DIR/records/game-NNNNN.toml",
    )
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")


def run(args: argparse.Namespace) -> int:
    """Plays ``ninetynine arena``'s games and prints the table of win rates and ratings and
    the first forfeits; with ``--out`` writes ``results.json`` and the records. Returns 0;
    bad input raises :class:`NinetyNineError` before any game."""
    require("arena", "arena", "the bot arena")
    from ninetynine.analysis.cells import split_specs
    from ninetynine.arena import ArenaConfig, format_table, run_games, summarize, write_results
    from ninetynine.arena.runner import check_config
    from ninetynine.errors import NinetyNineError
    from ninetynine.files import make_folder

    specs = split_specs(args.bots or "") + args.bot
    if not specs or not all(specs):
        raise NinetyNineError(
            "--bots: expected one bot spec per seat, e.g. --bots heuristic,random,random"
        )
    if args.workers < 0:
        raise NinetyNineError(f"--workers {args.workers}: expected 0 (one per core) or more")
    config = ArenaConfig(
        args.rules,
        args.players or len(specs),
        tuple(specs),
        args.games,
        args.seed,
        records=args.out is not None,
    )
    check_config(config)  # bad input fails before any note or game
    if args.out:
        make_folder(args.out, "--out folder")  # before the games, not after them
    if config.games % config.players:
        print(
            f"note: {config.games} games is not a multiple of {config.players} players, so "
            "the seats are not rotated evenly",
            file=sys.stderr,
        )
    if args.no_progress:
        results = run_games(config, args.workers)
    else:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

        with Progress(
            "[progress.description]{task.description}",
            BarColumn(),
            MofNCompleteColumn(),
            TimeRemainingColumn(),
            console=Console(stderr=True),
            transient=True,
        ) as bar:
            task = bar.add_task("games", total=config.games)
            results = run_games(config, args.workers, lambda _r: bar.advance(task))
    stats = summarize(config.bots, results)
    print(format_table(config, stats, results))
    lost = [
        f"game {r.index + 1}: P{seat + 1} ({config.bots[r.seats[seat]]}) lost: {why}"
        for r in results
        for seat, why in sorted(r.forfeits.items())
    ]
    if lost:
        print("\n".join(lost[:10]))
    if len(lost) > 10:
        print(f"... and {len(lost) - 10} more forfeits (all in results.json with --out)")
    if args.out:
        out = Path(args.out)
        write_results(out, config, results, stats)
        print(
            f"wrote {out / 'results.json'}"
            + (f" and {len(results)} records in {out / 'records'}" if config.records else ""),
            file=sys.stderr,
        )
    return 0
