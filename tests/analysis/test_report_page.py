"""The HTML report renders in headless Chromium with every plot, and asks for nothing."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Request

from ninetynine.analysis.compare import compare
from ninetynine.analysis.page import render
from ninetynine.analysis.summary import summarize
from tests.analysis.rows_by_hand import synthetic_run
from tests.browser import launch


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    yield from launch()


def test_the_page_shows_every_plot_offline(browser: Browser, tmp_path: Path) -> None:
    games, hands, decisions = synthetic_run(games=30, players=3)
    two = synthetic_run(games=20, players=2, seed=3, lineup="heuristic,random")
    summaries = summarize(games + two[0], hands + two[1], decisions)
    page_file = tmp_path / "report.html"
    page_file.write_text(render(summaries, compare(games, games)), encoding="utf-8")
    text = page_file.read_text(encoding="utf-8")
    # no script and no address but the SVG namespaces' names (which are never fetched)
    assert "<script" not in text and "://" not in re.sub(r'xmlns(:\w+)?="[^"]*"', "", text)

    page = browser.new_page()
    asked: list[str] = []

    def note(request: Request) -> None:
        if request.url != page_file.as_uri():
            asked.append(request.url)

    page.on("request", note)
    page.goto(page_file.as_uri())
    kinds = page.eval_on_selector_all(
        "figure.plot",
        "fs => fs.map(f => f.dataset.plot + ':' + f.querySelectorAll('svg path').length)",
    )
    drawn = {k.split(":")[0] for k in kinds if int(k.split(":")[1]) > 0}
    assert drawn == {"seat-rates", "turns", "hands", "causes", "card-value", "ladder", "trend"}
    assert all(int(k.split(":")[1]) > 0 for k in kinds), kinds
    for figure in page.locator("figure.plot svg").all():
        box = figure.bounding_box()
        assert box is not None and box["width"] > 100 and box["height"] > 50
    assert page.locator("table").count() >= 8
    assert asked == []
    page.close()
