"""Each seat's chance of winning the game at a decision: the decision rows' ``win_chances``
(``ninetynine simulate --decisions``, on a cell's first ``chance_games`` games), from which
:mod:`ninetynine.analysis.excitement` draws its lead histories, in a report and in the study.

The coach (:mod:`ninetynine.coach.advice`) estimates, for the seat to act only, its
chance of losing the hand and of losing the game, by the hard bot's search: playouts to
the end of the hand, each worth the seat's chance of winning from the lives left then
(:mod:`ninetynine.bots.odds`, each later hand a fair lottery). We derive every seat's
chance the same way, cheaply and honestly: for each seat, from *that seat's view only*,
:data:`SAMPLES` deals of the cards it cannot see, each played on by the search's rollout
policy to the same horizon, each worth that seat's odds there; the estimate is their
mean. No search (the coach's 2000 playouts a move would take hours over a sample), and
no seat ever reads another's cards. The odds from the lives alone would move only when a
life is lost; the rollouts see what the cards in hand promise. Rule sets not won by
lives (game points) have no odds model: their decisions get no estimates.

The rollouts draw from a generator of the decision's own, seeded by the simulation's
seed, the game's number in its cell and the move's (:func:`chances_at`): a decision's
estimate is the same whoever plays the game, in whichever chunk.
"""

from __future__ import annotations

import random

from ninetynine.bots.determinize import Determinizer
from ninetynine.bots.ismcts import play_to_horizon
from ninetynine.bots.odds import game_odds
from ninetynine.engine.state import State
from ninetynine.engine.view import observe

SAMPLES = 8  # deals per seat and decision: about 2 ms a decision of four seats
ESTIMATOR = (
    "each seat's mean odds of winning (from the lives left) after {samples} rollouts to the "
    "end of the hand from its own view"
)


def estimator(samples: int = SAMPLES) -> str:
    """How the chances were made, for a report."""
    return ESTIMATOR.format(samples=samples)


def win_chances(state: State, rng: random.Random, samples: int = SAMPLES) -> list[float]:
    """Each seat's estimated chance of winning the game at this decision ([] where the
    rules are not won by lives)."""
    odds = game_odds(state.rules)
    if odds is None:
        return []
    out = []
    for seat in range(state.n):
        det = Determinizer(observe(state, seat))
        total = 0.0
        for _ in range(samples):
            s = det.sample(rng)
            play_to_horizon(s, rng)
            total += odds.of_state(s)[seat]
        out.append(total / samples)
    return out


def chances_at(state: State, seed: int | str, game: int, move: int) -> list[float]:
    """:func:`win_chances` at move ``move`` of game ``game`` of a simulation with ``seed``,
    from the generator ``Random(f"{seed}:chances:{game}:{move}")``."""
    return win_chances(state, random.Random(f"{seed}:chances:{game}:{move}"))
