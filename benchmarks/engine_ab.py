"""Engine speed against another checkout (e.g. main), in one process, on CPU time.

The shared machines drift too much for two runs of ``engine_speed.py`` to tell a few per cent
apart. This copies both engines under their own package names into a temporary folder,
imports both, and times the same seeded random matches on the fast path (or the checked API)
with each in turn, round after round, keeping each engine's best round: a ratio near 1.00
means no change. (Two copies of one engine measure 0.998 to 1.002 this way.)

Run: python benchmarks/engine_ab.py /work/main [--presets P,K,G,J] [--rounds 20]
     [--matches 100] [--checked]
"""

from __future__ import annotations

import argparse
import importlib
import random
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType

HERE = Path(__file__).resolve().parents[1]


def copy_as(src: Path, dest: Path, name: str) -> None:
    """The package at ``src`` as package ``name`` under ``dest`` (its imports renamed)."""
    target = dest / name
    shutil.copytree(src, target, ignore=shutil.ignore_patterns("__pycache__", "web", "tui"))
    for path in target.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        path.write_text(re.sub(r"\bninetynine\b", name, text), encoding="utf-8")


def matches(pkg: ModuleType, rules: object, count: int, checked: bool) -> int:
    """Play ``count`` seeded random matches of 4 players; returns the decisions made."""
    try:  # the engine's package since 1.1, its root module before
        state_mod = importlib.import_module(pkg.__name__ + ".engine.state")
    except ModuleNotFoundError:
        state_mod = importlib.import_module(pkg.__name__ + ".state")
    chance, over = state_mod.CHANCE, state_mod.OVER
    decisions = 0
    for m in range(count):
        rng = random.Random(m)
        s = pkg.new_game(rules, 4)
        while s.phase != over:
            if s.phase == chance:
                if checked:
                    s.apply(s.sample_chance(rng))
                elif hasattr(s, "play_chance"):
                    s.play_chance(rng)
                else:  # a checkout from before play_chance was public
                    s._apply_chance(s.sample_chance(rng))
            elif checked:
                s.apply(rng.choice(s.legal_actions()))
                decisions += 1
            else:
                s.apply_code(rng.choice(s.legal_codes()))
                decisions += 1
    return decisions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("other", help="the other checkout (its src/ninetynine is the baseline)")
    parser.add_argument("--presets", default="P,K,G,J,P-ONLINE")
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--matches", type=int, default=100)
    parser.add_argument("--checked", action="store_true", help="time the checked API")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        copy_as(Path(args.other) / "src" / "ninetynine", Path(tmp), "nn_base")
        copy_as(HERE / "src" / "ninetynine", Path(tmp), "nn_this")
        sys.path.insert(0, tmp)
        engines = {name: importlib.import_module(name) for name in ("nn_base", "nn_this")}
        print(
            f"{'rules':10} {'baseline':>14} {'this tree':>14}  this/baseline   "
            f"({'checked API' if args.checked else 'fast path'}, best of {args.rounds})"
        )
        for preset in args.presets.split(","):
            rules = {n: pkg.load_rules(preset) for n, pkg in engines.items()}
            best: dict[str, float] = {}
            decisions = 0
            for _ in range(args.rounds):
                for name, pkg in engines.items():
                    start = time.process_time()
                    decisions = matches(pkg, rules[name], args.matches, args.checked)
                    best[name] = min(best.get(name, 1e9), time.process_time() - start)
            base, this = decisions / best["nn_base"], decisions / best["nn_this"]
            print(f"{preset:10} {base:10,.0f} d/s {this:10,.0f} d/s  {this / base:13.3f}")


if __name__ == "__main__":
    main()
