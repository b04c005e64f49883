"""Ratings: OpenSkill's Plackett-Luce model, as the arena rates its bots
(:mod:`ninetynine.arena.stats`), one rating per account and rules family.

Every seat of a rated game is a one-player team ranked by its place. An account's seat starts
at OpenSkill's default (mu 25, sigma 25/3) and moves; a bot's seat counts at its level's rating
measured in the arena (``data/bot_ratings.json``, written by ``scripts/bot_ratings.py``) and a
guest's at the default, and neither moves: only accounts are rated.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from ninetynine.web.history.store import Rating

DEFAULT = Rating(25.0, 25.0 / 3)


@cache
def bot_ratings() -> dict[str, Rating]:
    """Each bot level's fixed rating, from the arena (a level not measured: the default)."""
    text = (resources.files("ninetynine") / "data" / "bot_ratings.json").read_text("utf-8")
    return {
        level: Rating(float(r["mu"]), float(r["sigma"]))
        for level, r in json.loads(text)["levels"].items()
    }


@dataclass(frozen=True, slots=True)
class Entrant:
    """A seat of a rated game: its place, and the account rated there (None: a fixed rating,
    a bot's or a guest's)."""

    place: int
    rating: Rating
    account: str | None = None


def rate(entrants: list[Entrant]) -> dict[str, Rating]:
    """The accounts' new ratings after one game (each with one more game)."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    teams: list[list[Any]] = [
        [model.rating(mu=e.rating.mu, sigma=e.rating.sigma)] for e in entrants
    ]
    rated = model.rate(teams, ranks=[float(e.place) for e in entrants])
    return {
        e.account: Rating(new.mu, new.sigma, e.rating.games + 1)
        for e, (new,) in zip(entrants, rated, strict=True)
        if e.account is not None
    }
