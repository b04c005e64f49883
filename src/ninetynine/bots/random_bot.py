"""``random``: uniform over the legal actions."""

from __future__ import annotations

import random
from typing import ClassVar

from ninetynine.bots.spec import Options
from ninetynine.engine.actions import Action
from ninetynine.engine.view import View


class RandomBot:
    """The ``random`` bot: any legal action, each as likely."""

    name = "random"
    OPTIONS: ClassVar[Options] = {}

    def choose(self, view: View, rng: random.Random) -> Action:
        """A legal action drawn uniformly with ``rng``."""
        return rng.choice(view.legal)
