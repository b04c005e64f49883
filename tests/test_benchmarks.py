"""The speed benchmarks still run: each on a tiny sample, so that a change in the API they
measure breaks the suite, not the next person's measurement (their figures are not checked:
speed lives in the benchmarks, not in timed tests)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


def run(script: str, *args: str) -> str:
    done = subprocess.run(
        [sys.executable, str(BENCHMARKS / script), *args], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def test_engine_speed_prints_every_contender_against_the_ceiling() -> None:
    out = run("engine_speed.py", "--rounds", "1", "--matches", "3", "--rules", "P,K")
    for name in ("minimal P engine (ceiling)", "fast path, K, 4 players", "checked API, P"):
        assert name in out
    assert "fast path, P, 4 players / ceiling:" in out
    assert "rule sets below 0.8 of P's fast path:" in out


def test_engine_speed_measures_another_checkout_in_the_same_run() -> None:
    root = str(BENCHMARKS.parent)  # this checkout against itself: the same engine
    out = run(
        "engine_speed.py", "--rounds", "1", "--matches", "3", "--rules", "P", "--against", root
    )
    assert re.search(r"^\S+: fast path, P, 4 players ", out, re.M), out
    assert re.search(r"fast path / \S+'s, in the same rounds:\n  P: \d+\.\d\d \(", out), out
    done = subprocess.run(
        [sys.executable, str(BENCHMARKS / "engine_speed.py"), "--against", str(BENCHMARKS)],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 2
    assert "no src/ninetynine there" in done.stderr.splitlines()[-1]


def test_rl_speed_prints_every_contender_against_the_ceiling() -> None:
    out = run(
        "rl_speed.py",
        *("--rounds", "1", "--seconds", "0.05", "--batch", "64", "--envs", "64"),
        *("--jax-sizes", "64"),
    )
    names = ["fast path + encoding (P)", "Gymnasium env", "OpenSpiel", "batch engine (J, 64)"]
    names += ["JAX engine (P, 64)"]
    names += [f"vector env (P, 64, {o})" for o in ("random", "greedy-keep", "heuristic-v1")]
    for name in names:
        assert name in out
    assert out.count("x ceiling") == 15  # each contender once, against the ceiling
