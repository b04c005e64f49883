"""The progress of a simulation on standard error: games done, games a second, time left.

A bar with rich (the arena and tui extras bring it), else a plain line every few seconds;
nothing with ``quiet`` or where standard error is not a terminal.
"""

from __future__ import annotations

import sys
import time
from types import TracebackType
from typing import Any

from ninetynine.analysis.store import available

PLAIN_EVERY = 5.0  # seconds between two plain lines


class Progress:
    """``with Progress(total, shown) as p: p.advance(games)``."""

    def __init__(self, total: int, shown: bool = True, done: int = 0) -> None:
        self.total, self.done = total, done
        self.shown = shown and total > done and sys.stderr.isatty()
        self.started = self.last = time.monotonic()
        self._bar: Any = None
        self._task: Any = None
        self._first = done

    def __enter__(self) -> Progress:
        if self.shown and available("rich"):
            self._bar, self._task = _rich_bar(self.total, self.done)
            self._bar.start()
        return self

    def advance(self, games: int) -> None:
        """Count ``games`` more games as done; where shown, move the bar, or print a plain
        line if :data:`PLAIN_EVERY` seconds have passed since the last (or the start) or all
        are done."""
        self.done += games
        if not self.shown:
            return
        if self._bar is not None:
            self._bar.advance(self._task, games)
            return
        now = time.monotonic()
        if now - self.last >= PLAIN_EVERY or self.done >= self.total:
            self.last = now
            print(self.line(now), file=sys.stderr, flush=True)

    def line(self, now: float) -> str:
        """``simulate: 1200/10000 games, 310 games/s, 28 s left``"""
        rate = (self.done - self._first) / max(now - self.started, 1e-9)
        left = (self.total - self.done) / rate if rate else float("inf")
        return f"simulate: {self.done}/{self.total} games, {rate:.0f} games/s, {left:.0f} s left"

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if self._bar is not None:
            self._bar.stop()


def _rich_bar(total: int, done: int) -> tuple[Any, Any]:
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        ProgressColumn,
        TimeRemainingColumn,
    )
    from rich.progress import Progress as Bar
    from rich.text import Text

    class Rate(ProgressColumn):
        def render(self, task: Any) -> Text:
            speed = task.finished_speed or task.speed
            return Text(f"{speed:,.0f} games/s" if speed else "- games/s")

    bar = Bar(
        "simulate",
        BarColumn(),
        MofNCompleteColumn(),
        Rate(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=True,
    )
    return bar, bar.add_task("games", total=total, completed=done)
