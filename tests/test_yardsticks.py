"""The benchmarks' yardsticks play the games they stand for: the minimal engines
(``benchmarks/minimal_engine.py``), against which the fast path's speed is a ratio, make as
many decisions a game as the engine does on the same rules, in distribution (an engine that
played a shorter or simpler game would flatter the ratio)."""

from __future__ import annotations

import random
import statistics
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from ninetynine import load_rules, new_game

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

from minimal_engine import minimal_is_matches, minimal_p_matches, minimal_qc_matches  # noqa: E402


@pytest.mark.parametrize(
    ("rules", "players", "games", "minimal"),
    [
        ("P", 4, 300, lambda seed: minimal_p_matches(1, seed, 4)),
        ("P", 6, 200, lambda seed: minimal_p_matches(1, seed, 6, decks=2, lives=3)),
        ("IS", 4, 3000, lambda seed: minimal_is_matches(1, seed, 4)),
        ("QC", 4, 300, lambda seed: minimal_qc_matches(1, seed, 4)),
    ],
    ids=["P-4", "P-6-two-decks", "IS-4", "QC-4"],
)
def test_a_minimal_engine_plays_as_many_decisions_a_game_as_the_engine(
    rules: str, players: int, games: int, minimal: Callable[[int], int]
) -> None:
    played = load_rules(rules)
    rng = random.Random(5)
    engine = [new_game(played, players).play_random(rng) for _ in range(games)]
    yardstick = [minimal(seed) for seed in range(games)]
    error = (statistics.pvariance(engine) / games + statistics.pvariance(yardstick) / games) ** 0.5
    z = (statistics.fmean(yardstick) - statistics.fmean(engine)) / error
    assert abs(z) < 4, (
        f"{rules}: {statistics.fmean(yardstick):.1f} against {statistics.fmean(engine):.1f}"
    )
