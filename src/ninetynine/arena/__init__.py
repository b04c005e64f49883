"""The arena: many games between bots, seats rotated, on all cores, with statistics.

>>> from ninetynine.arena import ArenaConfig, run_games, summarize
>>> config = ArenaConfig("P", 2, ("heuristic", "random"), games=4, seed=1)
>>> stats = summarize(config.bots, run_games(config, workers=1))
>>> [st.seat_games for st in stats]
[4, 4]
"""

from ninetynine.arena.game import GameResult, play_game
from ninetynine.arena.runner import (
    ArenaConfig,
    format_table,
    results_json,
    rotation,
    run_games,
    write_results,
)
from ninetynine.arena.stats import EntrantStats, summarize, wilson

__all__ = [
    "ArenaConfig",
    "EntrantStats",
    "GameResult",
    "format_table",
    "play_game",
    "results_json",
    "rotation",
    "run_games",
    "summarize",
    "wilson",
    "write_results",
]
