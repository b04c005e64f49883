"""Games played on the engine's fast path for the statistics that must play their own:
the controlled card value (the same deal with one card swapped) and the sampled win
estimates of the excitement figures.

Chance follows the arena's duplicate deals exactly (``Chance.by_hand``): the k-th chance
event of hand h draws from ``Random(f"{deal_seed}:{h}:{k}")``, so a game's later hands
get the same cards whatever happened before; each seat's bot draws from
``Random(f"{bot_seed}:{seat}")``. Bots see their seat's view only (no event history: the
bots that read one, ``belief=history``, play as if it were empty).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence

from ninetynine.bots.base import Bot, ask, close_bot, make_bot
from ninetynine.engine.state import State
from ninetynine.engine.view import observe
from ninetynine.records.match import hand_seed, standing

OnDecision = Callable[[State], None]


def deal_chance(state: State, deal_seed: str, drawn: Counter[int]) -> None:
    """Draw and play the pending chance event as ``Chance.by_hand(deal_seed)`` would;
    ``drawn`` counts the chance events of each hand so far."""
    hand = state.hand_no
    state.play_chance(random.Random(hand_seed(deal_seed, hand, drawn[hand])))
    drawn[hand] += 1


def make_bots(specs: Sequence[str]) -> list[Bot]:
    return [make_bot(spec, seeing=True) for spec in specs]


def play_on(
    state: State,
    bots: Sequence[Bot],
    deal_seed: str,
    bot_seed: str,
    *,
    drawn: Counter[int] | None = None,
    on_decision: OnDecision | None = None,
) -> list[float]:
    """Play ``state`` to its end in place (bots in their seats, chance by the deal seed);
    ``on_decision`` sees the state before every move. Returns each seat's standing at
    the end of the first hand played here (lives, or points: higher is better)."""
    drawn = Counter() if drawn is None else drawn
    rngs = [random.Random(f"{bot_seed}:{seat}") for seat in range(state.n)]
    first_hand = state.hand_no
    after_first: list[float] | None = None
    while not state.is_over:
        if state.hand_no != first_hand and after_first is None:
            after_first = standing(state)
        if state.is_chance:
            deal_chance(state, deal_seed, drawn)
            continue
        seat = state.current_seat
        assert seat is not None
        if on_decision is not None:
            on_decision(state)
        action = ask(bots[seat], observe(state, seat), rngs[seat], state)
        state.apply_code(state.code_of(action))
    return standing(state) if after_first is None else after_first


def close_all(bots: Sequence[Bot]) -> None:
    for bot in bots:
        close_bot(bot)
