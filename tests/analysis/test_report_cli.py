"""``ninetynine report`` on a real (tiny) simulation, and one line for a broken one."""

from __future__ import annotations

from pathlib import Path

import pytest

from ninetynine.analysis import simulate
from ninetynine.cli.main import main


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("run")
    simulate(["P"], [3], ["heuristic,random"], 6, seed=1, workers=1, out=out, decisions=True)
    return out


def test_report_prints_tables_and_writes_the_page(
    results: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    page = tmp_path / "report.html"
    assert main(["report", str(results), "-o", str(page), "--compare", str(results)]) == 0
    out = capsys.readouterr().out
    for title in (
        "Win rate by seat",
        "Lives lost by cause",
        "Card value",
        "Skill ladder",
        "A minus B",
    ):
        assert title in out
    assert "paired t by deal" in out  # a run against itself shares every deal
    text = page.read_text(encoding="utf-8")
    assert text.count('<figure class="plot"') >= 5 and "<script" not in text


def test_a_folder_without_results_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["report", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and str(tmp_path) in err


def test_a_broken_part_is_one_line_naming_it(
    results: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = tmp_path / "broken"
    broken.mkdir()
    for path in results.rglob("*"):
        target = broken / path.relative_to(results)
        if path.is_dir():
            target.mkdir(parents=True, exist_ok=True)
        else:
            target.write_bytes(path.read_bytes())
    part = next(p for p in broken.rglob("part-*") if "games" in p.parts)
    part.write_bytes(b"not a table\n")
    assert main(["report", str(broken)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and part.name in err, err
