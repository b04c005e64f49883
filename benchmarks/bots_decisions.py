"""Which of the heuristic's moves a bot changes, and whether the changes help.

A win rate needs about a thousand games to move by three points; this asks the same
question of single decisions, which is far cheaper. In ``heuristic`` games (every seat
``heuristic``, the public history kept as at a real table), at each decision of seat 0
with a real choice, each bot under test chooses from the seat's view. Where it chooses
another move than the heuristic did, both moves are scored on the *real* deal (the real
hands; only the stock, which nobody has seen, is reshuffled): ``--continuations``
playouts each, every player following the search's rollout policy with no random moves,
the two moves on the same shuffles. A move's value is the search's own: 1 if the seat
comes out of what the move decides (the hand, or the next life or point) among those who
lost least, 0 among those who lost most.

The gain of a bot is the mean over all decisions (0 where it agrees with the heuristic),
with a 95% interval over decisions. Compare bots within one rule set: what a gain is worth
in games depends on how many decisions a game has and what a hand decides. Yardsticks, at
4 players: ``heuristic:push=8`` (pushing danger on twice as hard) loses 0.006-0.010 a
decision in P and 6.6 points of win rate in the arena (18.4%, 2,000 games); in J it loses
0.002 a decision, and 0.2 points (24.8%, [23.6, 25.9]).

The scoring knows the real hands; the bots do not (they get the seat's view only), but for
the yardsticks that declare they see hidden cards (``oracle``, ``oracle:see=kept``), which
are given the real state as in the arena.

Run: python benchmarks/bots_decisions.py [--presets P,K,G,J] [--players 4] [--games 10]
     [--bots "ismcts:iterations=300;heuristic:push=8"] [--continuations 400]
"""

from __future__ import annotations

import argparse
import math
import random
import time
from typing import cast

from heuristic_games import decisions

from ninetynine import load_rules
from ninetynine.bots import make_bot
from ninetynine.bots.base import SeeingBot, sees_hidden_cards
from ninetynine.bots.ismcts import move_key, playout_values
from ninetynine.engine.state import State
from ninetynine.errors import NinetyNineError


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presets", default="P,K,G,J")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=10, help="heuristic games a rule set")
    parser.add_argument(
        "--bots",
        default="ismcts:iterations=300;heuristic:push=8",
        help="bot specs separated by ';' (a spec may hold commas)",
    )
    parser.add_argument("--continuations", type=int, default=400, help="playouts scoring each move")
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()
    specs = [s.strip() for s in args.bots.split(";") if s.strip()]
    try:
        tables = [load_rules(preset) for preset in args.presets.split(",")]
        bots = [make_bot(spec, seeing=True) for spec in specs]
    except NinetyNineError as e:
        parser.error(str(e))
    print(
        f"Moves changed from the heuristic's, scored on the real deal: {args.players} "
        f"players, {args.games} games a rule set, {args.continuations} playouts a move"
    )
    print(
        f"{'rules':5} {'bot':32} {'decisions':>9} {'changed':>8} "
        f"{'gain/decision':>14} {'95% interval':>20} {'gain/change':>12} {'s':>6}"
    )
    for preset, rules in zip(args.presets.split(","), tables, strict=True):
        # The games do not depend on the bots under test: they have their own generator.
        games, rng = random.Random(args.seed), random.Random(f"{args.seed}:bots")
        gains: list[list[float]] = [[] for _ in specs]
        changed, seconds = [0] * len(specs), [0.0] * len(specs)
        for state, view, played in decisions(rules, args.players, args.games, games):
            same = state.c.same
            if view.seat != 0 or len({move_key(state.code_of(a), same) for a in view.legal}) == 1:
                continue
            base = state.code_of(played)
            scored: dict[int, float] = {}  # by move: bots choosing one move share its score
            shuffles = rng.randrange(2**32)
            for i, bot in enumerate(bots):
                start = time.perf_counter()
                r = random.Random(rng.random())
                move = (
                    cast(SeeingBot, bot).choose_seeing(view, state.clone(), r)
                    if sees_hidden_cards(bot)
                    else bot.choose(view, r)
                )
                code = state.code_of(move)
                seconds[i] += time.perf_counter() - start
                key = move_key(code, same)
                if key == move_key(base, same):
                    gains[i].append(0.0)
                    continue
                changed[i] += 1
                if key not in scored:
                    scored[key] = _value(state, code, shuffles, args.continuations) - _value(
                        state, base, shuffles, args.continuations
                    )
                gains[i].append(scored[key])
        for i, spec in enumerate(specs):
            d = len(gains[i])
            if not d:
                print(f"{preset:5} {spec:32} no decision with a choice at seat 0")
                continue
            mean = sum(gains[i]) / d
            sd = math.sqrt(sum((g - mean) ** 2 for g in gains[i]) / max(1, d - 1))
            half = 1.96 * sd / math.sqrt(d)
            per_change = sum(gains[i]) / changed[i] if changed[i] else 0.0
            interval = f"[{mean - half:+.4f}, {mean + half:+.4f}]"
            print(
                f"{preset:5} {spec:32} {d:9} {changed[i]:8} {mean:+14.4f} {interval:>20} "
                f"{per_change:+12.4f} {seconds[i]:6.0f}",
                flush=True,
            )


def _value(state: State, code: int, seed: int, continuations: int) -> float:
    """The seat's mean value after playing ``code`` on the real deal, the stock reshuffled
    (the same shuffles for every move scored with ``seed``)."""
    me, total = state.current_seat, 0.0
    assert me is not None
    for k in range(continuations):
        s, rng = state.clone(), random.Random(seed * 100_003 + k)
        rng.shuffle(s.stock)
        total += playout_values(s, code, rng)[me]
    return total / continuations


if __name__ == "__main__":
    main()
