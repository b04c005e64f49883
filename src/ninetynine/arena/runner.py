"""Running many games on all cores, deterministically, and writing the results.

Seats rotate every game: in game ``g`` seat ``i`` is played by entrant ``(i + g) % N``,
so over each block of N games every entrant sits in every chair once. The games of a
block share their deal seed, and every hand of them gets the same cards (duplicate style:
the same cards go round the chairs), which takes much of the luck out of the comparison;
the intervals are computed from the blocks (:mod:`ninetynine.arena.stats`). Every game's
seeds are derived from the arena seed and the game number only, so results do not depend
on the number of workers.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ninetynine.arena.game import GameResult, play_game, seed_of
from ninetynine.arena.stats import EntrantStats, by_seat, labels_of, summarize
from ninetynine.bots.base import BotFailure, close_bot, make_bot, start_bot
from ninetynine.errors import NinetyNineError
from ninetynine.rules.presets import open_rules
from ninetynine.rules.settings import Rules, table_refusal


@dataclass(frozen=True)
class ArenaConfig:
    """One arena run: ``games`` games of ``rules`` (as :func:`~ninetynine.rules.presets.open_rules`
    takes it) for ``players`` seats, ``bots`` one spec per entrant (seats rotate every game),
    every seed derived from ``seed``; ``records``: each result keeps its game's record."""

    rules: str  # a preset id, alias or house-rules path, as open_rules takes it
    players: int
    bots: tuple[str, ...]
    games: int
    seed: int = 0
    records: bool = False


def rotation(game: int, players: int) -> list[int]:
    """Which entrant plays each seat in game number ``game`` (0-based)."""
    return [(seat + game) % players for seat in range(players)]


def check_config(config: ArenaConfig) -> Rules:
    """Load the rules and build every bot once, so bad input fails before any game."""
    rules = open_rules(config.rules)
    n = config.players
    if (why := table_refusal(rules, n)) is not None:
        raise NinetyNineError(f"--players {n}: {why}")
    if len(config.bots) != n:
        raise NinetyNineError(
            f"--bots names {len(config.bots)} bot(s) for {n} players: give "
            "one per seat, e.g. --bots ismcts,heuristic,heuristic"
        )
    if config.games < 1:
        raise NinetyNineError(f"--games {config.games}: expected at least 1")
    for spec in config.bots:
        bot = make_bot(spec, seeing=True)  # a bad spec fails here, with its own message;
        # the arena may seat a yardstick that sees hidden cards (the oracle)
        try:
            start_bot(bot)  # a program that cannot start would forfeit every game
        except BotFailure as e:
            raise NinetyNineError(f"{e} (no game was played)") from None
        finally:
            close_bot(bot)
    return rules


def _play_one(rules: Rules, config: ArenaConfig, game: int) -> GameResult:
    n = config.players
    return play_game(
        rules,
        list(config.bots),
        rotation(game, n),
        index=game,
        chance_seed=seed_of(config.seed, "deal", game // n),
        bot_seed=seed_of(config.seed, "bots", game),
        keep_record=config.records,
    )


def run_games(
    config: ArenaConfig, workers: int = 0, progress: Callable[[GameResult], None] | None = None
) -> list[GameResult]:
    """Play every game (on ``workers`` processes; 0 = one per core); results in game order."""
    rules = check_config(config)
    workers = workers or os.cpu_count() or 1
    results: list[GameResult] = []
    if workers == 1 or config.games == 1:
        for game in range(config.games):
            results.append(_play_one(rules, config, game))
            if progress is not None:
                progress(results[-1])
        return results
    with ProcessPoolExecutor(max_workers=min(workers, config.games)) as pool:
        futures = [pool.submit(_play_one, rules, config, g) for g in range(config.games)]
        for future in as_completed(futures):
            results.append(future.result())
            if progress is not None:
                progress(results[-1])
    return sorted(results, key=lambda r: r.index)


def results_json(
    config: ArenaConfig, results: Sequence[GameResult], stats: Sequence[EntrantStats]
) -> dict[str, Any]:
    """Everything about a run as JSON: settings, per-entrant figures, and every game."""
    labels = labels_of(config.bots)
    return {
        "rules": config.rules,
        "players": config.players,
        "bots": list(config.bots),
        "games": config.games,
        "seed": config.seed,
        "seating": "rotated: in game g (0-based) seat i is played by bot (i + g) mod N; "
        "each block of N games deals the same cards in every hand; intervals "
        "from whole blocks where there are 30 or more",
        "mirror": is_mirror(config),
        "by_seat": [
            {
                "seat": st.seat + 1,
                "games": st.games,
                "wins": st.wins,
                "win_rate": st.win_rate,
                "ci95": list(st.interval),
            }
            for st in by_seat(results, config.players)
        ],
        "entrants": [
            {
                "bot": st.label,
                "spec": st.spec,
                "seat_games": st.seat_games,
                "wins": st.wins,
                "win_rate": st.win_rate,
                "ci95": list(st.interval),
                "forfeits": st.forfeits,
                "rating": {
                    "model": "openskill PlackettLuce",
                    "mu": st.mu,
                    "sigma": st.sigma,
                    "ordinal": st.ordinal,
                },
            }
            for st in stats
        ],
        "game_results": [
            {
                "game": r.index + 1,
                "seats": [labels[e] for e in r.seats],
                "winners": [s + 1 for s in r.winners],
                "reason": r.reason,
                "moves": r.moves,
                "forfeits": {str(s + 1): why for s, why in sorted(r.forfeits.items())},
            }
            for r in results
        ],
    }


def write_results(
    out: Path, config: ArenaConfig, results: Sequence[GameResult], stats: Sequence[EntrantStats]
) -> None:
    """``out/results.json`` and, when kept, ``out/records/game-00001.toml`` per game."""
    out.mkdir(parents=True, exist_ok=True)
    data = results_json(config, results, stats)
    (out / "results.json").write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    if any(r.record is not None for r in results):
        folder = out / "records"
        folder.mkdir(exist_ok=True)
        for r in results:
            if r.record is not None:
                (folder / f"game-{r.index + 1:05d}.toml").write_text(r.record, encoding="utf-8")


def is_mirror(config: ArenaConfig) -> bool:
    """One bot in every seat: over a block of duplicate deals each entrant then plays the
    same games from every seat, so by entrant each wins exactly 1/N."""
    return len(set(config.bots)) == 1


def format_table(
    config: ArenaConfig, stats: Sequence[EntrantStats], results: Sequence[GameResult] = ()
) -> str:
    """The results as a text table, one line per entrant; for a mirror match (given the
    results) one line per seat instead, since the entrants are alike."""
    n = config.players
    head = (
        f"{config.rules}, {n} players, {config.games} games, seed {config.seed}; seats "
        f"rotated; an even share is {100 / n:.1f}%"
    )
    if is_mirror(config) and results:
        lines = [
            head,
            f"a mirror match: {config.bots[0]} in every seat, so each entrant wins 1/{n} of "
            "its games by construction; by seat instead (seat 1 plays first):",
            f"{'seat':<8}{'games':>6}{'wins':>6}{'win rate':>10}   95% interval",
        ]
        for seat in by_seat(results, n):
            lo, hi = seat.interval
            lines.append(
                f"{seat.seat + 1:<8}{seat.games:>6}{seat.wins:>6}{100 * seat.win_rate:>9.1f}%"
                f"   [{100 * lo:4.1f}%, {100 * hi:5.1f}%]"
            )
        return "\n".join(lines)
    width = max(len(st.label) for st in stats) + 2
    lines = [
        head,
        f"{'bot':<{width}}{'games':>6}{'wins':>6}{'win rate':>10}   {'95% interval':<17}"
        f"{'rating (mu ± sigma)':>20}",
    ]
    for st in stats:
        lo, hi = st.interval
        line = (
            f"{st.label:<{width}}{st.seat_games:>6}{st.wins:>6}{100 * st.win_rate:>9.1f}%"
            f"   [{100 * lo:4.1f}%, {100 * hi:5.1f}%]  {st.mu:>8.1f} ± {st.sigma:.1f}"
        )
        if st.forfeits:
            line += f"   ({st.forfeits} forfeited)"
        lines.append(line)
    return "\n".join(lines)


__all__ = [
    "ArenaConfig",
    "format_table",
    "results_json",
    "rotation",
    "run_games",
    "summarize",
    "write_results",
]
