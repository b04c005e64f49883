"""``simulate`` and its results folder: the same rows whatever the workers, a killed run
resumed, the layout read by DuckDB, pandas and polars, JSON lines without pyarrow, and one
line for each bad input."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ninetynine.analysis import read_results, simulate
from ninetynine.analysis.store import MANIFEST
from ninetynine.errors import NinetyNineError

ROOT = Path(__file__).resolve().parents[2]
BLOCK = ROOT / "tests" / "packaging" / "block_imports.py"
GRID = {"rules": ["P", "K"], "players": [3], "lineups": ["heuristic,random", "random"]}


def small(out: Path | None = None, **options: object) -> object:
    return simulate(**GRID, games=12, seed=4, chunk=6, out=out, **options)  # type: ignore[arg-type]


def cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    return subprocess.run(
        [sys.executable, "-m", "ninetynine", *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd,
        timeout=120,
    )


def test_the_same_seed_gives_the_same_rows_with_one_or_two_workers(tmp_path: Path) -> None:
    one = small(tmp_path / "one", workers=1)
    two = small(tmp_path / "two", workers=2)
    memory = small(workers=2)
    for table in ("game_rows", "hand_rows"):
        rows = getattr(one, table)()
        assert rows == getattr(two, table)() == getattr(memory, table)()
    games = one.game_rows()  # type: ignore[attr-defined]
    assert len(games) == 4 * 12
    assert [g.game for g in games[:12]] == list(range(12))
    # the parts are the same bytes: nothing in them depends on who played them
    for part in (tmp_path / "one").rglob("*.parquet"):
        twin = tmp_path / "two" / part.relative_to(tmp_path / "one")
        assert part.read_bytes() == twin.read_bytes()


def test_the_cells_share_their_deals_and_the_rotation_is_the_arenas() -> None:
    rows = small(workers=1, engine="fast").game_rows()  # type: ignore[attr-defined]
    by_cell: dict[tuple[str, str], list[object]] = {}
    for row in rows:
        by_cell.setdefault((row.rules, row.lineup), []).append(row)
    seeds = {
        lineup: {
            tuple(r.deal_seed for r in cell) for (_, x), cell in by_cell.items() if x == lineup
        }
        for lineup in GRID["lineups"]
    }
    # two bots: a block of three games a deal; one bot: a deal a game (the same seeds)
    assert seeds["heuristic,random"] == {tuple(f"4:deal:{g // 3}" for g in range(12))}
    assert seeds["random"] == {tuple(f"4:deal:{g}" for g in range(12))}
    mixed = by_cell[("P", "heuristic,random")]
    assert [r.seats for r in mixed[:3]] == [  # type: ignore[attr-defined]
        ["heuristic", "random", "heuristic"],
        ["random", "heuristic", "heuristic"],
        ["heuristic", "heuristic", "random"],
    ]


def test_decision_rows_on_request(tmp_path: Path) -> None:
    results = simulate("P", 3, "random", games=3, decisions=True, chance_games=1, out=tmp_path)
    decisions = results.decision_rows()
    games = results.game_rows()
    assert len(decisions) == sum(g.turns for g in games)
    first = [d for d in decisions if d.game == 0]
    assert all(len(d.win_chances) == 3 and all(0 <= c <= 1 for c in d.win_chances) for d in first)
    assert abs(sum(first[0].win_chances) - 1) < 0.35  # each seat's estimate from its own view
    assert all(d.win_chances == [] for d in decisions if d.game > 0)
    assert all(d.legal >= 1 and d.action for d in decisions)
    assert list((tmp_path / "decisions").rglob("part-0.parquet"))


def test_duckdb_pandas_and_polars_read_the_layout_as_one_table(tmp_path: Path) -> None:
    duckdb = pytest.importorskip("duckdb")
    pd = pytest.importorskip("pandas")
    pl = pytest.importorskip("polars")
    results = small(tmp_path)
    games = f"{tmp_path}/games/**/*.parquet"
    count = duckdb.sql(
        f"select count(*), count(distinct lineup) from read_parquet('{games}', "
        "hive_partitioning=true)"
    ).fetchall()[0]
    assert count == (48, 2)
    frame = pd.read_parquet(tmp_path / "games", partitioning=None)
    assert len(frame) == 48 and set(frame["lineup"]) == {"heuristic,random", "random"}
    assert pl.read_parquet(games, hive_partitioning=True).height == 48
    hands = pl.read_parquet(f"{tmp_path}/hands/**/*.parquet")
    assert hands.height == len(results.hand_rows())  # type: ignore[attr-defined]
    assert len(results.games) == 48  # type: ignore[attr-defined]  # a DataFrame


def test_the_docs_duckdb_queries_run(tmp_path: Path) -> None:
    duckdb = pytest.importorskip("duckdb")
    small(tmp_path)
    text = (ROOT / "docs" / "analysis.md").read_text(encoding="utf-8")
    queries = [block.split("```")[0].strip() for block in text.split("```sql")[1:]]
    assert len(queries) >= 5
    for query in queries:
        found = duckdb.sql(query.replace("OUT/", f"{tmp_path}/")).fetchall()
        assert found, query


def test_json_lines_where_pyarrow_is_missing(tmp_path: Path) -> None:
    out = tmp_path / "out"
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    done = subprocess.run(
        [sys.executable, str(BLOCK), "pyarrow", "simulate", "--rules", "P", "--players", "3",
         "--bots", "random", "--games", "6", "--seed", "4", "--out", str(out), "--quiet"],
        capture_output=True, text=True, env=env, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    parts = sorted(p.relative_to(out).as_posix() for p in out.rglob("part-*"))
    assert parts == [
        "games/rules=P/players=3/lineup=random/part-0.jsonl",
        "hands/rules=P/players=3/lineup=random/part-0.jsonl",
    ]
    with_arrow = simulate("P", 3, "random", games=6, seed=4)
    assert read_results(out).game_rows() == with_arrow.game_rows()
    assert read_results(out).hand_rows() == with_arrow.hand_rows()


def test_a_killed_run_resumes_with_nothing_lost_and_nothing_twice(tmp_path: Path) -> None:
    out = tmp_path / "out"
    args = [
        *("simulate", "--rules", "P", "--players", "3", "--bots", "heuristic", "--games", "36"),
        *("--chunk", "3", "--seed", "2", "--workers", "1", "--out", str(out), "--quiet"),
    ]
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    proc = subprocess.Popen([sys.executable, "-m", "ninetynine", *args], env=env)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:  # a few chunks done, then killed mid-run
            manifest = out / MANIFEST
            if manifest.exists() and len(json.loads(manifest.read_text())["chunks"]) >= 3:
                break
            time.sleep(0.05)
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.wait()
    done_before = json.loads((out / MANIFEST).read_text())["chunks"]
    assert 3 <= len(done_before) < 12
    refused = cli(*args[:-1])  # without --resume: a non-empty folder is refused
    assert refused.returncode == 2
    assert refused.stderr.count("\n") == 1 and "--resume" in refused.stderr
    resumed = cli(*args, "--resume")
    assert resumed.returncode == 0, resumed.stderr
    whole = simulate("P", 3, "heuristic", games=36, seed=2, chunk=3, workers=1)
    results = read_results(out)
    assert results.game_rows() == whole.game_rows()
    assert results.hand_rows() == whole.hand_rows()
    assert results.manifest["done"] is True
    assert not list(out.rglob("*.tmp"))


@pytest.mark.parametrize(
    ("files", "args", "line"),
    [
        ({"bad.toml": "games = 'many'\n"}, ["bad.toml"],
         "bad.toml: games = 'many': expected a whole number, 1 or more"),
        ({"bad.toml": "gmaes = 3\n"}, ["bad.toml"],
         "bad.toml: unknown key 'gmaes': expected one of rules,"),
        ({"bad.toml": "games = [\n"}, ["bad.toml"], "bad.toml: not valid TOML"),
        ({"house.toml": "preset = 'P'\nlives = 'x'\n"}, ["--rules", "house.toml"], "house.toml:"),
        ({}, ["--bots", "heuristic,nosuchbot"], "unknown bot 'nosuchbot': expected one of"),
        ({}, ["--bots", "ismcts:iterations=-1"],
         "ismcts: iterations='-1': expected a whole number"),
        ({}, ["--players", "three"], "--players 'three': expected comma-separated whole numbers"),
        ({}, ["--rules", "NOPE"], "NOPE"),
    ],
)  # fmt: skip
def test_bad_input_is_one_line(
    files: dict[str, str], args: list[str], line: str, tmp_path: Path
) -> None:
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    done = cli("simulate", *args, "--games", "3", "--out", "out", "--quiet", cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert line in done.stderr, done.stderr
    assert not (tmp_path / "out").exists()


def test_a_bad_results_folder_is_one_line(tmp_path: Path) -> None:
    with pytest.raises(NinetyNineError, match="no manifest.json"):
        read_results(tmp_path)
    (tmp_path / MANIFEST).write_text("{")
    with pytest.raises(NinetyNineError, match="not a simulation's manifest"):
        read_results(tmp_path)
    out = tmp_path / "run"
    small(out)
    part = next((out / "games").rglob("part-0.parquet"))
    part.write_bytes(b"not parquet")
    with pytest.raises(NinetyNineError, match="part-0.parquet: not a part of GameRows"):
        read_results(out).game_rows()
    part.unlink()
    with pytest.raises(NinetyNineError, match="missing, but the manifest lists it"):
        read_results(out).game_rows()
