"""Regenerate the golden playthroughs in tests/golden/ (one per preset).

Each is the record of a random game at a fixed seed followed by the narrated event log,
so a change in any rule's behaviour shows up as a readable diff. Run after an intended
change and review the diff: ``python scripts/regen_golden.py``.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

from ninetynine import load_rules, presets
from ninetynine.engine.events import narrate
from ninetynine.records.match import Match
from ninetynine.records.record import format_record

GOLDEN = Path(__file__).resolve().parents[1] / "tests" / "golden"


def playthrough(preset: str, seed: int = 1) -> str:
    """The golden text of one preset: its record, then what happened, one line per event."""
    rules = load_rules(preset)
    players = min(max(4, rules.players_min), rules.players_max)
    rng = random.Random(seed)
    match = Match.new(rules, players, auto_chance=False)
    state = match.state
    while not state.is_over:
        match.play(
            state.sample_chance(rng) if state.is_chance else rng.choice(state.legal_actions())
        )
    log = "\n".join(f"# {line}" for e in match.log if (line := narrate(e, rules=rules)))
    return format_record(match.record(), state) + "\n# What happened\n" + log + "\n"


def main() -> int:
    GOLDEN.mkdir(exist_ok=True)
    for preset in presets():
        (GOLDEN / f"{preset}.toml").write_text(playthrough(preset), encoding="utf-8")
    print(f"wrote {len(presets())} playthroughs to {GOLDEN}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
