"""``random``: uniform over the legal actions."""

from __future__ import annotations

import random

from ninetynine.actions import Action
from ninetynine.view import View


class RandomBot:
    name = "random"

    def choose(self, view: View, rng: random.Random) -> Action:
        return rng.choice(view.legal)
