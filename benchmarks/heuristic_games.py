"""The decisions of games in which every seat plays ``heuristic``, for the benchmarks."""

from __future__ import annotations

import random
from collections.abc import Iterator

from ninetynine import new_game
from ninetynine.bots import make_bot
from ninetynine.engine.actions import Action
from ninetynine.engine.events import Event
from ninetynine.engine.state import State
from ninetynine.engine.view import View, observe
from ninetynine.rules.settings import Rules


def decisions(
    rules: Rules, players: int, games: int, rng: random.Random
) -> Iterator[tuple[State, View, Action]]:
    """Each decision of ``games`` games: the state (not to be changed), the view of the
    seat to act (with the public history, as at a real table) and the heuristic's move,
    which is played when the caller asks for the next decision."""
    bot = make_bot("heuristic")
    for _ in range(games):
        state, history = new_game(rules, players), list[Event]()
        while not state.is_over:
            if state.is_chance:
                history += state.apply(state.sample_chance(rng))
                continue
            seat = state.current_seat
            assert seat is not None
            view = observe(state, seat, tuple(history))
            move = bot.choose(view, random.Random(rng.random()))
            yield state, view, move
            history += state.apply(move, seat)
