"""Bots for the front ends' tests: protocol bots (``cmd:`` subprocesses) and a search that
keeps the views it is given."""

from __future__ import annotations

import random
import shlex
import sys
from pathlib import Path
from typing import ClassVar

from ninetynine.bots import make_bot, register
from ninetynine.engine.actions import Action
from ninetynine.engine.view import View

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE_BOT = "cmd:" + shlex.join([sys.executable, str(ROOT / "examples" / "protocol_bot.py")])
# Exits at once, before answering its first request, with a line on stderr.
CRASHING_BOT = "cmd:" + shlex.join(
    [sys.executable, "-c", "import sys; print('no luck', file=sys.stderr); sys.exit(3)"]
)


# The history-reading search (``hard``'s belief) on a small budget, registered as
# ``viewed``: it keeps every view it is asked with, so a test can compare what a front end
# gave its bot with ``Match.view`` (the seat's view with the public log).
VIEWED_SEARCH = "ismcts:iterations=40,belief=history"


@register("viewed")
class ViewedSearch:
    """The search of :data:`VIEWED_SEARCH`, keeping the views it was asked with."""

    name = "viewed"
    views: ClassVar[list[View]] = []

    def __init__(self) -> None:
        self.search = make_bot(VIEWED_SEARCH)

    def choose(self, view: View, rng: random.Random) -> Action:
        ViewedSearch.views.append(view)
        return self.search.choose(view, rng)
