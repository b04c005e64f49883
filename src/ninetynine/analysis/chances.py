"""Each seat's chance of winning the game at a decision, for the lead histories of
:mod:`ninetynine.analysis.excitement`.

The coach (:mod:`ninetynine.coach.advice`) estimates, for the seat to act only, its
chance of losing the hand and of losing the game, by the hard bot's search: playouts to
the end of the hand, each worth the seat's chance of winning from the lives left then
(:mod:`ninetynine.bots.odds`, each later hand a fair lottery). We derive every seat's
chance the same way, cheaply and honestly: for each seat, from *that seat's view only*,
``samples`` deals of the cards it cannot see, each played on by the search's rollout
policy to the same horizon, each worth that seat's odds there; the estimate is their
mean. No search (the coach's 2000 playouts a move would take hours over a sample), and
no seat ever reads another's cards. Rule sets not won by lives (game points) have no
odds model: their games get no estimates.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ninetynine.analysis.excitement import History
from ninetynine.analysis.playing import close_all, make_bots, play_on
from ninetynine.bots.determinize import Determinizer
from ninetynine.bots.ismcts import play_to_horizon
from ninetynine.bots.odds import game_odds
from ninetynine.engine.game import new_game
from ninetynine.engine.state import State
from ninetynine.engine.view import observe
from ninetynine.records.match import standing
from ninetynine.rules.settings import Rules

SAMPLES = 8  # deals per seat and decision
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


def places(state: State) -> list[int]:
    """Each seat's final place: 1 for the winners, then by lives (or score) left."""
    assert state.outcome is not None
    have = standing(state)
    key = [(seat in state.outcome.winners, have[seat]) for seat in range(state.n)]
    return [1 + sum(other > mine for other in key) for mine in key]


def sample_histories(
    rules: Rules,
    players: int,
    bots: Sequence[str],
    games: int,
    seed: int | str = 0,
    samples: int = SAMPLES,
) -> list[History]:
    """Play ``games`` games and record every decision's estimates (the lead histories)."""
    return [h for g in range(games) if (h := _history(rules, players, bots, g, seed, samples))]


def _history(
    rules: Rules, players: int, bots: Sequence[str], game: int, seed: int | str, samples: int
) -> History | None:
    """One sampled game's lead history (None where the rules have no odds model)."""
    rng = random.Random(f"{seed}:estimate:{game}")
    chances: list[list[float]] = []
    state = new_game(rules, players)
    table = make_bots(bots)
    try:
        play_on(
            state,
            table,
            f"{seed}:excite:{game}",
            f"{seed}:excite-bots:{game}",
            on_decision=lambda s: chances.append(win_chances(s, rng, samples)),
        )
    finally:
        close_all(table)
    assert state.outcome is not None
    if not chances or not chances[0]:
        return None
    return History(chances, list(state.outcome.winners), places(state))
