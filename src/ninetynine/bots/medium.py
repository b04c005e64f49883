"""``heuristic-v2``, the ``medium`` level: the heuristic with issue 27's flaws fixed.

It scores each legal action as ``heuristic-v1`` does (what the play costs at once, tried on
one deal of the unseen cards; the danger passed to the next seat; what is left in hand),
with four changes:

* **who is likelier stuck**: the danger passed on is the next seat's own chance of holding
  no safe card, read from its last play in the hand (:mod:`ninetynine.bots.reading`), not
  the same chance for every seat; so at 99 with a Four and a Nine the direction goes to the
  seat likelier to be stuck;
* **the total coming back**: the chance of holding no safe card when the turn returns,
  from the cards kept and where the others' plays take the total
  (:mod:`ninetynine.bots.comeback`), so it does not push into the mid-90s with its last
  low cards;
* **keep values that depend on the total**: a card is worth the share of the totals from
  here to the limit at which it is safe (at 85 an Ace is worth far more than a Five);
* **an escape ranking**: an escape card is worth more the harder it leaves it for the next
  seat (a King over a Ten -10, which brings the total down). Measured in games, it pays
  where the total goes back to 0 after a bust and play goes on (G: the Ten is spent first);
  elsewhere spending the Ten before the King cost games, even heads-up, so there escapes
  stay level (``weak`` is 2).

The weights are options (``push``, ``keep``, ``back``, ``weak``, ``duel``: ``weak`` when only
two players are left in the hand, ``read``), measured in games against ``heuristic-v1``
(``benchmarks/bots_strength.py``; figures in docs/bots.md).
"""

from __future__ import annotations

import random
from typing import ClassVar

from ninetynine.bots.comeback import Comeback, comeback, keep_values
from ninetynine.bots.determinize import Determinizer
from ninetynine.bots.knowledge import forced_move, hand_weights
from ninetynine.bots.reading import SeatReading, fits
from ninetynine.bots.spec import BotOption, Options
from ninetynine.engine.actions import Action
from ninetynine.engine.state import State
from ninetynine.engine.view import View
from ninetynine.records.match import standing
from ninetynine.rules.settings import AfterBust, Rules

LIFE = 10.0  # one life (or game point) of our own
PUSH = 4.0  # weight of the next seat being left with no safe card
KEEP = 1.5  # weight per unit of keep value in the hand after the play
BACK = 1.0  # weight (in lives) of holding no safe card when the turn comes back
# keep value of an escape card that brings the total down (strong ones: 2): ranked below
# the others where the total goes back to 0 after a bust and play goes on (G), level with
# them elsewhere (measured in games: docs/bots.md)
WEAK_AFTER_RESET, WEAK = 1.2, 2.0


class MediumBot:
    """The ``heuristic-v2`` bot (see the module docstring for what it weighs)."""

    name = "heuristic-v2"
    OPTIONS: ClassVar[Options] = {
        "push": BotOption(float, 0),
        "keep": BotOption(float, 0),
        "back": BotOption(float, 0),
        "weak": BotOption(float, 0, most=3),
        "duel": BotOption(float, 0, most=3),
        "read": BotOption(int, 0, most=1),
    }

    def __init__(
        self,
        push: float = PUSH,
        keep: float = KEEP,
        back: float = BACK,
        weak: float | None = None,
        read: int = 1,
        duel: float | None = None,
    ) -> None:
        self.push, self.keep, self.back, self.read = push, keep, back, read
        self.weak, self.duel = weak, duel
        self._rules: Rules | None = None  # the rule set and table size the tables are for
        self._players = 0

    def _tables(self, rules: Rules, players: int) -> None:
        """Look the rule set's tables up once (hashing a rules value is not free)."""
        if rules is not self._rules or players != self._players:
            self._rules, self._players, self._fits = rules, players, fits(rules)
            self._weights = hand_weights(rules, players)
            reset = rules.after_bust in (AfterBust.RESET_ALL, AfterBust.RESET_OTHERS)
            weak = self.weak if self.weak is not None else WEAK_AFTER_RESET if reset else WEAK
            self._values = keep_values(rules, weak)
            duel = self.duel if self.duel is not None else weak
            self._duel = keep_values(rules, duel)
            self._comeback: dict[int, Comeback] = {}

    def choose(self, view: View, rng: random.Random) -> Action:
        """The legal action with the best score on one deal of the unseen cards drawn with
        ``rng``; a draw (else the first action) when no card may be played."""
        legal = view.legal
        forced = forced_move(legal)
        if forced is not None:
            return forced
        self._tables(view.rules, view.players)
        det = Determinizer(view)
        state = det.sample(rng)
        reading = SeatReading(view, self._fits, bool(self.read), self._weights, det.unseen)
        before = standing(state)
        scored = [(self.score(view, state, reading, a, before), i) for i, a in enumerate(legal)]
        return legal[max(scored)[1]]

    def score(
        self,
        view: View,
        state: State,
        reading: SeatReading,
        action: Action,
        before: list[float] | None = None,
    ) -> float:
        """What ``action`` is worth to ``view.seat`` when tried on ``state`` (a deal consistent
        with the view; ``before``: its standing, if the caller has it); higher is better, one
        of its own lives counts 10 (the others' at half weight, 100 for a game won or lost,
        as in ``heuristic-v1``)."""
        me = view.seat
        after = state.clone()
        after.apply_code(state.code_of(action))
        before = before or standing(state)
        now = standing(after)
        score = LIFE * (now[me] - before[me])
        others = [s for s in range(view.players) if state.side(s) != state.side(me)]
        if others:
            lost = sum(before[s] - now[s] for s in others)
            score += LIFE * 0.5 * lost / len(others)
        if after.outcome is not None:
            return score + (100.0 if me in after.outcome.winners else -100.0)
        hand = list(view.hand)
        if action.card is not None:
            hand.remove(action.card)
        duel = sum(view.in_hand) == 2  # heads-up in the hand: ``duel``'s escape values
        values = (self._duel if duel else self._values).row(view.total)
        score += self.keep * sum(values[c] for c in hand)
        if after.hand_no != state.hand_no:
            return score
        nxt, total = after.current_seat, after.total
        if nxt is not None and nxt != me:
            danger = reading.stuck(nxt, total)
            score += self.push * (-danger if state.side(nxt) == state.side(me) else danger)
        if self.back and after.in_hand[me]:
            plays = 0 if nxt == me else sum(after.in_hand) - 1
            draws = max(0, len(after.hands[me]) - len(hand))
            size = max(view.hand_sizes)
            model = self._comeback.get(size)
            if model is None:
                model = self._comeback[size] = comeback(view.rules, size)
            risk = model.stuck_chance(total, plays, hand, reading.uniform, draws)
            score -= self.back * LIFE * risk
        return score
