"""The coach: what each legal move risks, from a seat's view only, and reviews of games.

>>> from ninetynine import load_rules, new_game
>>> from ninetynine.engine.view import observe
>>> import random
>>> state = new_game(load_rules("P"), 3)
>>> state.apply(state.sample_chance(random.Random(1)))  # the deal
[...]
>>> advice = advise(observe(state, state.current_seat), playouts=50)
>>> all(0 <= m.lose_hand <= 1 for m in advice.moves)
True
"""

from ninetynine.coach.advice import Advice, MoveFigures, advice_json, advise
from ninetynine.coach.review import FLAGS, Decision, costliest, review, review_json

__all__ = [
    "FLAGS",
    "Advice",
    "Decision",
    "MoveFigures",
    "advice_json",
    "advise",
    "costliest",
    "review",
    "review_json",
]
