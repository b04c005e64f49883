"""How well the search reads the other hands: its sampled deals scored against the real ones.

At the decisions of ``heuristic`` games where the total is 60 or more (where the others'
cards decide the hand), the seat to act samples deals as ``ismcts`` would, three ways:

- ``uniform``: the unseen cards dealt at random;
- ``weights``: by the cards sensible players keep (``knowledge.hand_weights``);
- ``last plays``: by weight, redrawn when another player's last play does not fit
  (``inference.LastPlays``), the default of ``ismcts``.

Two scores, lower is better: the Brier score of the chance that the next player holds an
escape card (0 knows the real hands; a constant guess of the base rate scores about 0.15),
and the log-loss per unseen card of the chance that it is in each other hand.

Run: python benchmarks/bots_belief.py [--presets P,K,G,J] [--players 4] [--games 10]
     [--samples 200]
"""

from __future__ import annotations

import argparse
import math
import random
from collections import Counter
from collections.abc import Callable

from heuristic_games import decisions

from ninetynine import load_rules
from ninetynine.bots.belief import HandReader
from ninetynine.bots.determinize import Determinizer
from ninetynine.bots.inference import LastPlays
from ninetynine.bots.knowledge import escape_cards, hand_weights, rollout_policy
from ninetynine.engine.view import View
from ninetynine.rules.settings import Rules

WAYS = ("uniform", "weights", "last plays", "history")


def sampler(
    way: str, view: View, rules: Rules
) -> tuple[Determinizer, Callable[[random.Random], list[int]]]:
    """The determinizer and the deal-drawing function of one way of reading the hands."""
    weights = hand_weights(rules, view.players) if way != "uniform" else None
    det = Determinizer(view, weights)
    if way == "history":
        det = Determinizer(view)
        reader = HandReader(view, rollout_policy(rules))
        return det, lambda rng: reader.draw(det, rng)
    if way == "last plays":
        plays = LastPlays(view, rollout_policy(rules))
        return det, lambda rng: plays.draw(det, rng)
    return det, det.shuffled


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presets", default="P,K,G,J")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--samples", type=int, default=200)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    print(
        f"Sampled deals against the real hands, {args.players} players, {args.games} "
        f"heuristic games a rule set, {args.samples} deals a decision (total >= 60)"
    )
    print(
        f"{'rules':5} {'way':10} {'decisions':>9} {'Brier(next holds escape)':>25} "
        f"{'log-loss/card':>14}"
    )
    for preset in args.presets.split(","):
        rules, rng = load_rules(preset), random.Random(args.seed)
        escapes = escape_cards(rules)
        brier, loss, seen = Counter[str](), Counter[str](), 0
        for state, view, _ in decisions(rules, args.players, args.games, rng):
            if len(view.legal) > 1 and state.total >= 60:
                seen += 1
                following = (view.seat + state.direction) % state.n
                real = any(c in escapes for c in state.hands[following])
                for way in WAYS:
                    det, draw = sampler(way, view, rules)
                    b, lo = _scores(det, draw, state.hands, following, escapes, real, args.samples)
                    brier[way] += b
                    loss[way] += lo
        for way in WAYS:
            print(
                f"{preset:5} {way:10} {seen:9} {brier[way] / seen:25.4f} {loss[way] / seen:14.4f}",
                flush=True,
            )


def _scores(
    det: Determinizer,
    draw: Callable[[random.Random], list[int]],
    hands: list[list[int]],
    following: int,
    escapes: frozenset[int],
    real: bool,
    samples: int,
) -> tuple[float, float]:
    """The Brier score and the log-loss per card of ``samples`` deals from ``draw``."""
    rng, holds, where = random.Random(1), 0, Counter[tuple[int, int]]()
    for _ in range(samples):
        dealt = det.hands(draw(rng))
        holds += any(c in escapes for c in dealt[following])
        where.update((seat, c) for seat in det.others for c in dealt[seat])
    loss, count = 0.0, 0
    for seat in det.others:
        held = set(hands[seat])
        for card in det.unseen:
            p = (where[seat, card] + 0.5) / (samples + 1)
            loss -= math.log(p if card in held else 1 - p)
            count += 1
    return (holds / samples - real) ** 2, loss / count


if __name__ == "__main__":
    main()
