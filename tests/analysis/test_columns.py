"""The hand rows kept by column and the manifest written in a thread of its own: the
Parquet columns and the row objects agree (other hand sizes, two decks, seats out of the
game, teams, instant hands, every cause of a lost life), and the manifest on disk is the
last one given, as it was given."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ninetynine.analysis.cells import Cell, Chunk
from ninetynine.analysis.play import Engine, Task, play_chunk, play_game
from ninetynine.analysis.rows import HandRow
from ninetynine.analysis.store import MANIFEST, ManifestWriter, _arrow_schema
from ninetynine.rules.presets import open_rules

CASES = [
    ("P", 5),  # two decks
    ("P-SEVEN", 3),  # seven cards a hand
    ("G", 5),  # four
    ("P-BORDERS", 4),  # game points: border and cannot-play causes
    ("P-ONLINE", 3),  # threshold causes
    ("P-UPCARD-INSTANT", 4),  # instant hands, up-cards
    ("J-TEAM", 4),  # teams
]


@pytest.mark.parametrize(("pid", "players"), CASES)
def test_the_arrow_columns_are_the_rows(pid: str, players: int) -> None:
    pa = pytest.importorskip("pyarrow")
    cell = Cell(open_rules(pid), players, ("random",))
    games = 4 * players
    rows = play_chunk(Task(cell, Chunk(0, 0, 0, games), 7, Engine.FAST))
    hands = rows.hands.rows()
    table = pa.table(rows.hands.arrow_columns(), schema=_arrow_schema(HandRow))
    assert [HandRow(**r) for r in table.to_pylist()] == hands
    # game by game, as play_game gives them
    assert hands == [h for g in range(games) for h in play_game(cell, g, 7, Engine.FAST).hands]
    assert len(hands) == sum(g[12] for g in rows.games)  # each game's hands
    if pid == "P":  # seats out of the game are dealt nothing
        assert any(any(r.opening) and not all(r.opening) for r in hands)


def test_the_manifest_on_disk_is_the_last_one_as_given(tmp_path: Path) -> None:
    writer = ManifestWriter(tmp_path)
    manifest = {"kind": "test", "chunks": {}}
    for i in range(30):
        manifest["chunks"][str(i)] = i  # type: ignore[index]
        writer.write(manifest)
    manifest["chunks"]["late"] = -1  # type: ignore[index]  # after the last write
    writer.close()
    written = json.loads((tmp_path / MANIFEST).read_text())
    assert written["chunks"] == {str(i): i for i in range(30)}
    assert not list(tmp_path.glob("*.tmp"))


def test_a_failed_manifest_write_is_raised(tmp_path: Path) -> None:
    not_a_folder = tmp_path / "file"
    not_a_folder.write_text("x")
    writer = ManifestWriter(not_a_folder)
    writer.write({"kind": "test"})
    with pytest.raises(OSError):
        writer.close()
