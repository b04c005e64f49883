"""Shared set-up for the terminal game's tests: a private save folder and screen text."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path

import pytest
from rich.console import Console
from textual.app import App


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test saves under its own NINETYNINE_HOME, never the user's."""
    path = tmp_path / "home"
    monkeypatch.setenv("NINETYNINE_HOME", str(path))
    return path


def _screen_text(app: App) -> str:  # type: ignore[type-arg]
    """The characters on the screen (and the screens under a dialog), without colours."""
    console = Console(
        width=app.size.width,
        height=app.size.height,
        file=io.StringIO(),
        record=True,
        color_system=None,
        legacy_windows=False,
        safe_box=False,
    )
    console.print(
        app.screen._compositor.render_update(full=True, screen_stack=app._background_screens)
    )
    return "\n".join(line.rstrip() for line in console.export_text().splitlines())


@pytest.fixture
def screen_text() -> Callable[[App], str]:  # type: ignore[type-arg]
    return _screen_text
