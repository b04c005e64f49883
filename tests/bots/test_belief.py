"""Reading the other hands from every play of the hand, and the odds of the game by lives."""

from __future__ import annotations

import math
import random
from collections import Counter

import pytest

from ninetynine import load_rules, new_game
from ninetynine.bots import Determinizer, make_bot
from ninetynine.bots.belief import HandReader, hand_plays
from ninetynine.bots.knowledge import rollout_policy
from ninetynine.bots.odds import game_odds
from ninetynine.engine.events import Event
from ninetynine.engine.state import State
from ninetynine.engine.view import View, observe
from ninetynine.rules.cards import rank_of


def heuristic_decisions(
    preset: str, players: int, games: int, seed: int
) -> list[tuple[State, View]]:
    """Seat 0's decisions with a choice in games of heuristic bots (states copied)."""
    rules, bot, rng = load_rules(preset), make_bot("heuristic"), random.Random(seed)
    found = []
    for _ in range(games):
        state, history = new_game(rules, players), list[Event]()
        while not state.is_over:
            if state.is_chance:
                history += state.apply(state.sample_chance(rng))
                continue
            seat = state.current_seat
            assert seat is not None
            view = observe(state, seat, tuple(history))
            if seat == 0 and len(view.legal) > 1:
                found.append((state.clone(), view))
            history += state.apply(bot.choose(view, rng), seat)
    return found


def uniform_chance(ranks: tuple[int, ...], pool: list[int]) -> float:
    """The chance that a uniform deal of ``len(ranks)`` cards of ``pool`` has these ranks."""
    counts = Counter(rank_of(c) for c in pool)
    ways = math.prod(math.comb(counts[r], k) for r, k in Counter(ranks).items())
    return ways / math.comb(len(pool), len(ranks))


def test_the_real_hands_are_likelier_under_the_posterior_than_under_a_uniform_deal() -> None:
    # Scored on the ranks each other player really holds: the posterior's log-likelihood
    # of them beats that of uniform deals of the same unseen cards.
    rules = load_rules("P")
    gain, read = 0.0, 0
    for state, view in heuristic_decisions("P", 4, 2, seed=5):
        reader = HandReader(view, rollout_policy(rules))
        det = Determinizer(view)
        for seat, _ in hand_plays(view).items():
            posterior = reader.posterior(seat, det.pool)
            real = tuple(sorted(rank_of(c) for c in state.hands[seat]))
            p = posterior.get(real, 0.0) / sum(posterior.values())
            q = uniform_chance(real, det.pool)
            assert p > 0  # the real hand is never ruled out
            gain += (p > q) - (p < q)
            read += 1
    assert read > 40 and gain > read // 4


def test_a_low_card_dumped_at_a_low_total_says_the_rest_of_the_hand_is_low_or_escapes() -> None:
    # P: at a low total the policy dumps its highest ordinary card, so a player that
    # played a Two kept nothing higher; only the card it drew since is unknown.
    rules = load_rules("P")
    for _, view in heuristic_decisions("P", 3, 6, seed=2):
        plays = hand_plays(view)
        for seat, p in plays.items():
            before, card, _, drawn = p.plays[-1]
            if rank_of(card) == 1 and before < 40 and drawn == 1 and len(p.plays) == 1:
                reader = HandReader(view, rollout_policy(rules), slip=0.0)
                posterior = reader.posterior(seat, Determinizer(view).pool)
                high = {5, 6, 7, 10, 11}  # six, seven, eight, Jack, Queen: dumped first
                for ranks, w in posterior.items():
                    if w > 0:
                        assert sum(r in high for r in ranks) <= 1, ranks
                return
    pytest.fail("no early Two played in these games")


def test_deals_from_the_reader_agree_with_the_view() -> None:
    rules = load_rules("J")
    for state, view in heuristic_decisions("J", 3, 1, seed=4)[:15]:
        det = Determinizer(view)
        reader = HandReader(view, rollout_policy(rules))
        deck = Counter(state.all_cards())
        rng = random.Random(0)
        for _ in range(10):
            sample = det.deal(reader.draw(det, rng))
            assert Counter(sample.all_cards()) == deck
            assert observe(sample, view.seat, view.history) == view


def test_game_odds_by_lives() -> None:
    p, k = game_odds(load_rules("P")), game_odds(load_rules("K"))
    assert p is not None and k is not None and game_odds(load_rules("P-BORDERS")) is None
    even = p.chances((5, 5, 5, 5))
    assert even == pytest.approx((0.25,) * 4)
    after = p.chances((4, 5, 5, 5))
    assert after[0] < 0.15 and after[1] == after[2] == after[3] > 0.28
    assert sum(p.chances((3, 1, 2))) == pytest.approx(1.0)
    # with one life left, seat 0 would rather the player with three lost one than the
    # player with one: knocked out, it no longer shares the risk of the next hands
    assert p.chances((1, 1, 2))[0] > p.chances((1, 0, 3))[0]
    assert p.chances((0, 2, 1)) == pytest.approx((0.0, 0.75, 0.25))
    # where all but one lose a life in a hand, two sides at one life: a coin toss
    assert k.chances((1, 1)) == pytest.approx((0.5, 0.5))
    assert k.chances((1, 2))[1] == pytest.approx(0.75)
