"""Reading the other hands from the other players' last plays."""

from __future__ import annotations

import random

from ninetynine import load_rules, new_game
from ninetynine.bots import Determinizer, make_bot
from ninetynine.bots.inference import LastPlays
from ninetynine.bots.knowledge import rollout_policy
from ninetynine.engine.events import Event
from ninetynine.engine.view import observe


def test_real_hands_fit_the_last_plays_of_sensible_players_and_random_deals_often_do_not() -> None:
    rules, bot, rng = load_rules("K"), make_bot("heuristic"), random.Random(3)
    checks = fitting = deals = 0
    for _ in range(3):
        state, history = new_game(rules, 4), list[Event]()
        while not state.is_over:
            if state.is_chance:
                history += state.apply(state.sample_chance(rng))
                continue
            seat = state.current_seat
            assert seat is not None
            view = observe(state, seat, tuple(history))
            if seat == 0 and len(view.legal) > 1:
                plays = LastPlays(view, rollout_policy(rules))
                checks += len(plays.checks)
                assert plays.misfits(state.hands) == 0  # heuristic players: what the policy does
                det = Determinizer(view)
                for _ in range(10):
                    deals += 1
                    fitting += plays.misfits(det.sample(rng).hands) == 0
            history += state.apply(bot.choose(view, rng), seat)
    assert checks > 50
    assert fitting < 0.6 * deals


def test_no_plays_in_this_hand_no_checks() -> None:
    rules = load_rules("P")
    state = new_game(rules, 3)
    rng = random.Random(0)
    history = list[Event]()
    while state.is_chance:
        history += state.apply(state.sample_chance(rng))
    seat = state.current_seat
    assert seat is not None
    plays = LastPlays(observe(state, seat, tuple(history)), rollout_policy(rules))
    assert plays.checks == [] and plays.misfits(state.hands) == 0
