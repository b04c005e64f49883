"""The storage layer, against SQLite and a real PostgreSQL server."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from ninetynine.web.storage import (
    DuplicateMoveError,
    PostgresStorage,
    SQLiteStorage,
    Storage,
    StorageError,
    open_storage,
)


@pytest.fixture(params=["sqlite", "postgres"])
def storage(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Storage]:
    if request.param == "sqlite":
        store: Storage = SQLiteStorage(tmp_path / "t.sqlite3")
    else:
        store = PostgresStorage(request.getfixturevalue("postgres_url"))
    yield store
    store.close()


def test_tables_and_moves_round_trip(storage: Storage) -> None:
    tid = uuid.uuid4().hex
    storage.create_table(tid, {"rules": "P", "players": 2, "seats": []})
    for i, move in enumerate(["shuffle AS 2H", "1: AS", "2: 2H"]):
        storage.append_move(tid, i, move)
    storage.update_meta(tid, {"rules": "K", "players": 2, "seats": [{"name": "Ann"}]})
    loaded = storage.load(tid)
    assert loaded is not None
    assert loaded.meta == {"rules": "K", "players": 2, "seats": [{"name": "Ann"}]}
    assert loaded.moves == ["shuffle AS 2H", "1: AS", "2: 2H"]
    assert storage.live_metas()[tid] == loaded.meta
    assert storage.load("no-such-table") is None
    storage.update_meta(tid, {"rules": "K", "finished": True})
    assert tid not in storage.live_metas()  # start-up skips finished tables
    assert storage.load(tid).moves == loaded.moves  # type: ignore[union-attr]


def test_a_database_from_before_the_finished_column_is_upgraded(tmp_path: Path) -> None:
    import json
    import sqlite3

    path = tmp_path / "old.sqlite3"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE nn_tables (id TEXT PRIMARY KEY, meta TEXT NOT NULL)")
    db.execute(
        "CREATE TABLE nn_moves (table_id TEXT NOT NULL, idx INTEGER NOT NULL, "
        "move TEXT NOT NULL, PRIMARY KEY (table_id, idx))"
    )
    db.execute(
        "INSERT INTO nn_tables VALUES ('done', ?), ('live', ?)",
        (json.dumps({"finished": True}), json.dumps({"finished": False})),
    )
    db.commit()
    db.close()
    storage = SQLiteStorage(path)
    assert list(storage.live_metas()) == ["live"]
    assert storage.load("done") is not None
    storage.close()


def test_a_move_index_is_written_once(storage: Storage) -> None:
    tid = uuid.uuid4().hex
    storage.create_table(tid, {})
    storage.append_move(tid, 0, "1: KS")
    with pytest.raises(DuplicateMoveError):
        storage.append_move(tid, 0, "1: QS")
    assert storage.load(tid).moves == ["1: KS"]  # type: ignore[union-attr]
    storage.append_move(tid, 1, "2: QS")  # the failed write left the connection usable
    assert storage.load(tid).moves == ["1: KS", "2: QS"]  # type: ignore[union-attr]


def test_data_survives_reopening(tmp_path: Path, postgres_url: str) -> None:
    for url in (str(tmp_path / "again.sqlite3"), postgres_url):
        tid = uuid.uuid4().hex
        first = open_storage(url)
        first.create_table(tid, {"n": 1})
        first.append_move(tid, 0, "insert 3")
        first.close()
        second = open_storage(url)
        assert second.load(tid).moves == ["insert 3"]  # type: ignore[union-attr]
        second.close()


def test_bad_database_settings_are_one_line_errors(tmp_path: Path) -> None:
    with pytest.raises(StorageError, match="unsupported database 'mysql://x'"):
        open_storage("mysql://x")
    with pytest.raises(StorageError, match="cannot open PostgreSQL"):
        open_storage("postgresql://nobody@127.0.0.1:1/none")
    (tmp_path / "dir.sqlite3").mkdir()
    with pytest.raises(StorageError, match="cannot open SQLite"):
        open_storage(str(tmp_path / "dir.sqlite3"))
