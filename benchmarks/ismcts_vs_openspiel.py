"""Our ISMCTS against OpenSpiel's own ISMCTS bot at the same iteration budget, in games.

Two-player games through the OpenSpiel game (:mod:`ninetynine.rl.openspiel`): OpenSpiel's
``ISMCTSBot`` as it ships (random rollouts, UCT c = 2, a new determinization every
iteration from our ``resample_from_infostate``) against ``ismcts:iterations=N`` (its
playouts and the OpenSpiel bot's simulations are the same count). Each deal is played
twice with the seats swapped, the same cards in every hand (the arena's duplicate deals:
each hand's shuffles are drawn from a generator seeded by the deal, the hand and the
shuffle's number in the hand); the interval is the 95% normal interval over the deals.

Run: python benchmarks/ismcts_vs_openspiel.py [--rules K] [--deals 20] [--iterations 100]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import Counter

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import ninetynine.rl.openspiel  # noqa: F401  (registers python_ninetynine)
from ninetynine.arena.stats import Z95, wilson
from ninetynine.bots.ismcts import IsmctsBot
from ninetynine.engine.actions import Reinsert, Shuffle
from ninetynine.engine.events import Event
from ninetynine.engine.view import observe


def play(rules: str, deal: int, ours_seat: int, iterations: int) -> tuple[bool, float, float]:
    """One game: (whether our bot won, our seconds, OpenSpiel's seconds)."""
    # the deal is replayed card by card from the engine's own shuffle
    game = pyspiel.load_game("python_ninetynine", {"rules": rules, "players": 2, "chance": "card"})
    state = game.new_initial_state()
    engine = state._t.state  # the game's own engine state, read for our bot's views
    shadow = engine.clone()  # the same moves with events: the public log our bot reads
    log: list[Event] = []
    theirs = ismcts.ISMCTSBot(
        game,
        mcts.RandomRolloutEvaluator(1, np.random.RandomState(deal)),
        uct_c=2.0,
        max_simulations=iterations,
        random_state=np.random.RandomState(deal),
    )
    ours, rng = IsmctsBot(iterations=iterations), random.Random(f"{deal}/{ours_seat}")
    chance_in_hand: Counter[int] = Counter()
    spent = [0.0, 0.0]
    while not state.is_terminal():
        if state.is_chance_node():
            hand = engine.hand_no
            seeded = random.Random(f"{deal}:{hand}:{chance_in_hand[hand]}")
            chance_in_hand[hand] += 1
            outcome = engine.sample_chance(seeded)
            log += shadow.apply(outcome)
            if isinstance(outcome, Shuffle):
                for card in outcome.order:
                    state.apply_action(card)
            else:
                state.apply_action(outcome.depth if isinstance(outcome, Reinsert) else outcome.seat)
            continue
        seat = state.current_player()
        start = time.process_time()
        if seat == ours_seat:
            action = ours.choose(observe(shadow, seat, tuple(log)), rng)
            index = state._t.encoding.index_of(shadow.code_of(action))
        else:
            index = theirs.step(state)
            action = shadow.action_of(state._t.encoding.codes[index])
        spent[seat != ours_seat] += time.process_time() - start
        log += shadow.apply(action)
        state.apply_action(index)
    winners = engine.outcome.winners if engine.outcome else ()
    return ours_seat in winners, spent[0], spent[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="K")
    parser.add_argument("--deals", type=int, default=20, help="each played in both seats")
    parser.add_argument("--iterations", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    per_deal, wins, ours_s, theirs_s = [], 0, 0.0, 0.0
    for d in range(args.deals):
        deal = args.seed * 100_000 + d
        won = 0
        for seat in (0, 1):
            result, mine, other = play(args.rules, deal, seat, args.iterations)
            won += result
            ours_s += mine
            theirs_s += other
        wins += won
        per_deal.append(won / 2)
    games = 2 * args.deals
    rate = wins / games
    if args.deals >= 2 and statistics.stdev(per_deal) > 0:
        half = Z95 * statistics.stdev(per_deal) / len(per_deal) ** 0.5
        low, high = max(0.0, rate - half), min(1.0, rate + half)
    else:
        low, high = wilson(wins, games)
    print(
        f"{args.rules}, 2 players, {games} games ({args.deals} deals, both seats), "
        f"{args.iterations} iterations a move for both"
    )
    print(
        f"our ismcts wins {rate:.1%}  95% [{low:.1%}, {high:.1%}] against OpenSpiel's "
        f"ISMCTSBot (an even share: 50%)"
    )
    print(f"CPU time thinking: ours {ours_s:.1f} s, OpenSpiel's {theirs_s:.1f} s")


if __name__ == "__main__":
    main()
