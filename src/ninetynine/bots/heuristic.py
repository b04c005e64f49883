"""``heuristic-v1`` (also ``heuristic``): plays like a sensible person, following the
rulebooks' strategy tips. It is the fixed yardstick of the strength tables, frozen as it was
when ``medium`` (:mod:`ninetynine.bots.medium`) replaced it as the medium level: its weights
and keep values are its own copies, so tuning the search's or ``medium``'s cannot move it,
and ``tests/bots/test_heuristic_v1.py`` replays its recorded choices.

For each legal action it weighs, from its own view only:

* what the play costs at once (lives or points lost or won, by trying it on a
  determinized copy: this covers busts, thresholds, 69 and every rule set's scoring);
* the danger it passes on: the chance that the seat to act next holds no safe card at
  the new total, counted from the cards this seat has not seen (card counting; it
  counts against us when that seat is a partner);
* what is left in hand: escape cards (hold, set, minus, reverse...) are kept for high
  totals and high cards are dumped while the total is low.

The Ace's choice and the reverse are just more candidate actions, so the bot uses them
to push danger onto the next player when that pays.
"""

from __future__ import annotations

import random
from collections import Counter
from functools import cache
from typing import ClassVar

from ninetynine.bots.determinize import Determinizer
from ninetynine.bots.knowledge import escape_cards, forced_move, safe_table
from ninetynine.bots.spec import BotOption, Options
from ninetynine.engine.actions import Action
from ninetynine.engine.state import State, compiled
from ninetynine.engine.view import View
from ninetynine.records.match import standing
from ninetynine.rules.cards import CODES
from ninetynine.rules.settings import Rules

LIFE = 10.0  # one life (or game point) of our own
# frozen copies of knowledge.PUSH and knowledge.KEEP as they were
PUSH = 4.0  # weight of the next seat being left with no safe card
KEEP = 1.5  # weight per unit of keep value in the hand after the play


class HeuristicBot:
    """The ``heuristic-v1`` bot. ``push`` weighs the danger passed to the next seat, ``keep``
    the value of the cards left in hand (see the module docstring)."""

    name = "heuristic-v1"
    OPTIONS: ClassVar[Options] = {"push": BotOption(float), "keep": BotOption(float)}

    def __init__(self, push: float = PUSH, keep: float = KEEP) -> None:
        self.push, self.keep = push, keep

    def choose(self, view: View, rng: random.Random) -> Action:
        """The legal action with the best :meth:`score` on one deal of the unseen cards drawn
        with ``rng``; a draw (else the first action) when no card may be played."""
        legal = view.legal
        forced = forced_move(legal)
        if forced is not None:
            return forced
        state = Determinizer(view).sample(rng)
        scored = [(self.score(view, state, a), i) for i, a in enumerate(legal)]
        return legal[max(scored)[1]]

    def score(self, view: View, state: State, action: Action) -> float:
        """What ``action`` is worth to ``view.seat`` when tried on ``state`` (a deal consistent
        with the view); higher is better, and one of its own lives counts 10: its own lives or
        points, the others' losses at half weight, 100 for a game won or lost, the danger passed
        to the next seat and the keep value of the hand left."""
        me, rules = view.seat, view.rules
        after = state.clone()
        after.apply_code(state.code_of(action))
        score = LIFE * (standing(after)[me] - standing(state)[me])
        others = [s for s in range(view.players) if state.side(s) != state.side(me)]
        if others:
            lost = sum(standing(state)[s] - standing(after)[s] for s in others)
            score += LIFE * 0.5 * lost / len(others)
        if after.outcome is not None:
            return score + (100.0 if me in after.outcome.winners else -100.0)
        nxt = after.current_seat
        if nxt is not None and nxt != me and after.hand_no == state.hand_no:
            danger = _stuck_chance(view, after.total, view.hand_sizes[nxt])
            score += self.push * (-danger if state.side(nxt) == state.side(me) else danger)
        hand = list(view.hand)
        if action.card is not None:
            hand.remove(action.card)
        values = keep_value_v1(rules)
        score += self.keep * sum(values[c] for c in hand)
        return score


def _stuck_chance(view: View, total: int, hand_size: int) -> float:
    """The chance that a hand of ``hand_size`` unseen cards has no safe play at ``total``."""
    unseen = Counter(view.unseen())
    count = sum(unseen.values())
    if not count or hand_size <= 0:
        return 0.0
    table = safe_table(view.rules)
    unsafe = sum(k for card, k in unseen.items() if not table.safe(card, total))
    return (unsafe / count) ** hand_size


@cache
def keep_value_v1(rules: Rules) -> tuple[float, ...]:
    """Per card, how valuable it is to keep in hand (about 0 to 2): a frozen copy of
    ``knowledge.keep_value`` as it was. An escape card is worth 2; another card the share of
    totals at which it is still safe, so low cards are kept and high ones dumped early."""
    c, limit, escapes = compiled(rules), rules.limit, escape_cards(rules)
    values = []
    for card in range(CODES):
        if card in escapes:
            values.append(2.0)
            continue
        safe_max = max(
            (t for t in range(0, limit + 1) if any(not b for _, _, b in c.options(card, t))),
            default=-1,
        )
        values.append(max(safe_max, 0) / limit)
    return tuple(values)
