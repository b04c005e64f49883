"""The total coming back, and what a card is worth to keep from a given total on.

A play to a total is not only what it passes to the next seat: the other players play on
and the turn comes back, at a higher total more often than not. :class:`Comeback` models
that for a rule set: each other player, holding a random hand, plays what the rollout
policy (the heuristic's idea of a good play) plays, and a player with no safe card loses
(the hand ends, the total stays or goes back to 0, as the rules say). From it come the
chances of where the total stands when the turn returns, which is what decides whether the
cards kept now will still be safe then.

Everything is derived from the rules alone and built lazily, once per rule set and hand
size (a few milliseconds a total), so a decision costs table look-ups.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from functools import cache

from ninetynine.bots.knowledge import deck_cards, escape_cards, rollout_policy, safe_table
from ninetynine.engine.state import compiled
from ninetynine.rules.cards import CODES
from ninetynine.rules.settings import AfterBust, Rules

HANDS = 64  # random hands a total, for the chances of the next play
STUCK = -1  # a step's outcome where the player had no safe card


class Comeback:
    """Where the total goes while the other players play, for one rule set and hand size."""

    def __init__(self, rules: Rules, hand_size: int) -> None:
        self.rules, self.size = rules, hand_size
        self.limit = rules.limit
        self.table = safe_table(rules)
        self.steps: dict[int, dict[int, float]] = {}
        # per card, the totals (0 to the limit) at which it has a safe play, as bits
        self.masks = [
            sum(1 << t for t in range(self.limit + 1) if self.table.safe(card, t))
            for card in range(CODES)
        ]
        self.paths: dict[tuple[int, int], dict[int, float]] = {}

    def after_stuck(self, total: int) -> int | None:
        """The total after a player with no safe card at ``total`` loses: None where the
        hand ends (nothing comes back), the same where it sits out, else 0."""
        after = self.rules.after_bust
        if after is AfterBust.END_HAND:
            return None
        return total if after is AfterBust.SIT_OUT else 0

    def step(self, total: int) -> dict[int, float]:
        """The chances of the total after one other player's play from ``total`` (at most the
        limit; ``STUCK`` where it had no safe card). Measured on ``HANDS`` random hands drawn
        from a full deck with a fixed seed, so it is the same in every process."""
        total = max(0, min(total, self.limit))
        found = self.steps.get(total)
        if found is None:
            c, policy = compiled(self.rules), rollout_policy(self.rules)
            rng = random.Random(f"{self.rules.id}:{self.size}:{total}")
            deck = list(deck_cards(self.rules))
            counts: dict[int, float] = {}
            for _ in range(HANDS):
                hand = rng.sample(deck, self.size)
                codes = [code for card in hand for code in c.moves_of(card, total)[0]]
                new = STUCK
                if codes:
                    new = c.result(policy.best(total, codes, self.size), total)
                    new = max(0, new) if new <= self.limit else STUCK
                counts[new] = counts.get(new, 0.0) + 1.0 / HANDS
            found = self.steps[total] = counts
        return found

    def back(self, total: int, plays: int) -> dict[int, float]:
        """The chances of the total after ``plays`` other plays from ``total``, the turn still
        in this hand (the chance that the hand ended on the way is left out)."""
        total = max(0, min(total, self.limit))
        if plays <= 0:
            return {total: 1.0}
        key = (total, plays)
        found = self.paths.get(key)
        if found is None:
            found = {}
            for mid, p in self.back(total, plays - 1).items():
                for new, q in self.step(mid).items():
                    if new == STUCK:
                        then = self.after_stuck(mid)
                        if then is None:
                            continue
                        new = then
                    found[new] = found.get(new, 0.0) + p * q
            self.paths[key] = found
        return found

    def stuck_chance(
        self,
        total: int,
        plays: int,
        kept: Sequence[int],
        unsafe: Callable[[int], float],
        draws: int,
    ) -> float:
        """The chance of holding no safe card when the turn comes back after ``plays`` other
        plays from ``total``, keeping ``kept`` and drawing ``draws`` cards, each with no safe
        play at total ``t`` with the chance ``unsafe(t)``."""
        masks, held = self.masks, 0
        for card in kept:
            held |= masks[card]
        risk = 0.0
        for new, p in self.back(total, plays).items():
            if not held >> new & 1:
                risk += p * unsafe(new) ** draws
        return risk


@cache
def comeback(rules: Rules, hand_size: int) -> Comeback:
    """The :class:`Comeback` of a rule set and hand size, built once and kept."""
    return Comeback(rules, max(1, min(hand_size, 6)))


@cache
def escape_strength(rules: Rules) -> tuple[float, ...]:
    """Per card, how hard an escape card leaves it for the next seat near the limit, from 0
    (it brings the total down, out of danger: a Ten -10) to 1 (it leaves the total where
    the most cards go over: a King that sets 99); 0 for a card that is not an escape.

    Measured over the top tenth of the totals: the share of a full deck with no safe play
    after the card's most dangerous safe play, over that share at the limit."""
    c, limit, table = compiled(rules), rules.limit, safe_table(rules)
    deck = deck_cards(rules)
    unsafe = [sum(not table.safe(card, t) for card in deck) / len(deck) for t in range(limit + 1)]
    top = range(limit - limit // 10, limit + 1)
    out = []
    for card in range(CODES):
        if card not in escape_cards(rules) or not unsafe[limit]:
            out.append(0.0)
            continue
        worst = [
            max((unsafe[max(0, new)] for _, new, bust in c.options(card, t) if not bust), default=0)
            for t in top
        ]
        out.append(min(1.0, sum(worst) / len(worst) / unsafe[limit]))
    return tuple(out)


class KeepValues:
    """Per card, what it is worth to keep from a total on (about 0 to 2).

    An escape card is worth ``weak`` to 2 by :func:`escape_strength` (a King that leaves
    99 to the next seat is kept over a Ten that brings the total down). Another card is
    worth the share of the totals from the current one to the limit at which it is still
    safe: at 85 an Ace (safe to 98) is worth far more than a Five (safe to 94), at 10 they
    are close, and high cards are dumped while the total is low."""

    def __init__(self, rules: Rules, weak: float) -> None:
        self.rules, self.limit = rules, rules.limit
        strength, escapes = escape_strength(rules), escape_cards(rules)
        self.escape = {card: weak + (2.0 - weak) * strength[card] for card in escapes}
        self.rows: dict[int, tuple[float, ...]] = {}

    def row(self, total: int) -> tuple[float, ...]:
        """The values of the cards (by code) from ``total`` on."""
        total = max(0, min(total, self.limit))
        found = self.rows.get(total)
        if found is None:
            safe, span = safe_table(self.rules).safe, self.limit - total + 1
            found = self.rows[total] = tuple(
                self.escape[card]
                if card in self.escape
                else sum(safe(card, t) for t in range(total, self.limit + 1)) / span
                for card in range(CODES)
            )
        return found


@cache
def keep_values(rules: Rules, weak: float) -> KeepValues:
    """The :class:`KeepValues` of a rule set and weak escapes' worth, built once and kept."""
    return KeepValues(rules, weak)
