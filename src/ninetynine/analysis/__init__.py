"""Questions people argue about, answered in games: simulations of many games for any rule
sets, player counts and line-ups of bots, their rows as tables, and the statistics and
reports drawn from them (``docs/analysis.md``).

>>> from ninetynine.analysis import simulate
>>> results = simulate(["P", "K"], 3, ["heuristic,random"], games=3, seed=1)
>>> len(results.game_rows())
6
"""

from __future__ import annotations

import importlib
from typing import Any

# the public names, imported when first used: the rows need no bots, engine or pyarrow
_LAZY = {
    "simulate": "ninetynine.analysis.simulation",
    "read_results": "ninetynine.analysis.simulation",
    "Results": "ninetynine.analysis.simulation",
    "Backend": "ninetynine.analysis.backends",
    "Engine": "ninetynine.analysis.play",
}

__all__ = sorted(_LAZY)


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module 'ninetynine.analysis' has no attribute {name!r}")
    return getattr(importlib.import_module(_LAZY[name]), name)
