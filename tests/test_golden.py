"""Golden playthroughs: a fixed-seed game of every preset must play exactly as recorded.

After an intended change of behaviour, regenerate with ``python scripts/regen_golden.py``
and review the diff.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from ninetynine import presets
from ninetynine.records.match import replay
from ninetynine.records.record import parse_record

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("regen_golden", ROOT / "scripts" / "regen_golden.py")
assert _spec and _spec.loader
regen = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(regen)


@pytest.mark.parametrize("preset", list(presets()))
def test_playthrough_is_unchanged(preset: str) -> None:
    golden = (ROOT / "tests" / "golden" / f"{preset}.toml").read_text(encoding="utf-8")
    assert regen.playthrough(preset) == golden


@pytest.mark.parametrize("preset", list(presets()))
def test_golden_record_replays_to_its_result(preset: str) -> None:
    text = (ROOT / "tests" / "golden" / f"{preset}.toml").read_text(encoding="utf-8")
    state, _ = replay(parse_record(text))
    assert state.outcome is not None
    assert f'reason = "{state.outcome.reason}"' in text
