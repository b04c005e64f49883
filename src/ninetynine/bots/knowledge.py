"""What a sensible player knows about the cards of a rule set, precomputed for speed.

Everything here is derived from the rules alone (no game state), so the heuristic bot and
the fast rollout policy of the search share one idea of which cards are worth keeping.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache

from ninetynine.engine.actions import Action, ActionKind
from ninetynine.engine.game import new_game
from ninetynine.engine.state import ACCEPT, CHANCE, DOWN, DRAW, OVER, compiled
from ninetynine.engine.tables import PARAM, card_of
from ninetynine.rules.cards import ALL_RANKS, CODES, RANKS, new_deck, rank_of
from ninetynine.rules.settings import Rules


@cache
def deck_cards(rules: Rules) -> tuple[int, ...]:
    """The cards of one of the rules' decks, each once: the 52, and the jokers where played.
    (Tables indexed by card run to ``CODES``; shares of a deck count these.)"""
    return tuple(new_deck(1, rules.jokers))


@cache
def escape_cards(rules: Rules) -> frozenset[int]:
    """Cards that can be played safely even at the limit (hold, set, minus, halve...)."""
    c = compiled(rules)
    return frozenset(
        card
        for card in deck_cards(rules)
        if any(not busts for _, _, busts in c.options(card, rules.limit))
    )


@cache
def keep_value(rules: Rules) -> tuple[float, ...]:
    """Per card, how valuable it is to keep in hand (about 0 to 2).

    An escape card saves you at any total: worth 2. Another card is worth the share of
    totals at which it is still safe, so low cards are kept and high ones dumped early.
    """
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


class SafeTable:
    """Whether a card has a safe play at a total, cached per (card, total)."""

    def __init__(self, rules: Rules) -> None:
        self.c = compiled(rules)
        self.cache: dict[int, bool] = {}

    def safe(self, card: int, total: int) -> bool:
        """True when ``card`` has a play at ``total`` that does not go over the limit."""
        key = total * 64 + self.c.same[card]
        found = self.cache.get(key)
        if found is None:
            found = self.cache[key] = any(not b for _, _, b in self.c.options(card, total))
        return found


@cache
def safe_table(rules: Rules) -> SafeTable:
    """The :class:`SafeTable` of a rules value, built once per rules and kept."""
    return SafeTable(rules)


BUSTS = -500.0  # rollout scores below this are plays over the limit
PUSH = 4.0  # weight of the next seat being left with no safe card
KEEP = 1.5  # weight per unit of keep value in the hand after the play
# above code * 16 + size for every action code, with low bits set so that the low bits of
# a key (which pick its dict slot) mix in the total
TOTAL_KEY = (1 << 21) + (1 << 8) + 1


class RolloutPolicy:
    """A fast policy on action codes for playouts inside the search: the heuristic's idea.

    It weighs the same things as the ``heuristic`` bot, from tables: a play over the limit
    is the worst; otherwise it pushes danger on (the chance that a hand of the mover's
    size, drawn from a full deck, holds no safe card at the new total) and keeps the cards
    worth keeping (escape cards, low cards) for later. So a playout plays roughly as the
    heuristic bot would, at a fraction of its cost.
    """

    def __init__(self, rules: Rules, push: float = PUSH, keep: float = KEEP) -> None:
        self.c = compiled(rules)
        table, limit, deck = safe_table(rules), rules.limit, deck_cards(rules)
        self.unsafe = [
            sum(not table.safe(card, t) for card in deck) / len(deck) for t in range(limit + 1)
        ]
        self.push = push
        self.keep = [keep * v for v in keep_value(rules)]
        self.scores: dict[int, float] = {}

    def score(self, total: int, code: int, size: int) -> float:
        """Higher is better; cached in ``scores`` under ``total * TOTAL_KEY + code * 16 +
        size`` (``size`` is the mover's hand size, at most 15: larger hands are as safe)."""
        key = total * TOTAL_KEY + code * 16 + size
        found = self.scores.get(key)
        if found is None:
            if DOWN <= code < PARAM:  # accepting a challenge while holding an answer: out,
                # which answering never is (KC, O57)
                found = 1.0 if code == DRAW else -500.0 if code == ACCEPT else 0.0
            else:
                new = self.c.result(code, total)
                if new > self.c.limit:
                    found = -1000.0 - new
                else:
                    danger = self.unsafe[new] ** size if new >= 0 else 0.0
                    found = self.push * danger - self.keep[card_of(code)]
            self.scores[key] = found
        return found

    def best(self, total: int, codes: list[int], size: int) -> int:
        """The code the policy plays among ``codes`` (ties go to the higher card, as in
        the heuristic)."""
        size = min(size, 15)
        return max(reversed(sorted(codes)), key=lambda k: self.score(total, k, size))


@cache
def rollout_policy(rules: Rules) -> RolloutPolicy:
    """The :class:`RolloutPolicy` of a rules value with the default weights, built once per
    rules and kept."""
    return RolloutPolicy(rules)


@cache
def hand_weights(rules: Rules, players: int, games: int = 100) -> tuple[float, ...]:
    """Per rank (the jokers' too, where played), how much likelier a card of that rank is
    to be in another player's hand than anywhere else unseen, when everybody plays the
    rollout policy.

    Sensible players keep escape and low cards and dump high ones, so their hands hold
    more of the first than a uniform deal of the unseen cards would give them. Measured
    once per rule set and table size in ``games`` seeded self-play games (a fraction of
    a second); each weight is the count found in hands over the count a uniform deal
    would put there, within 1/4 and 4.
    """
    policy, rng = rollout_policy(rules), random.Random(0)
    ranks = len(ALL_RANKS if rules.jokers else RANKS)
    found, expected = [0.0] * ranks, [0.0] * ranks
    for _ in range(games):
        s = new_game(rules, players)
        while s.phase != OVER:
            if s.phase == CHANCE:
                s.play_chance(rng)
                continue
            me, total, codes = s.turn, s.total, s.legal_codes()
            hidden = [c for seat, hand in enumerate(s.hands) if seat != me for c in hand]
            if len(codes) > 1 and hidden:
                pool = hidden + s.stock + s.pile[: s.face_down]
                share = len(hidden) / len(pool)
                for c in hidden:
                    found[rank_of(c)] += 1
                for c in pool:
                    expected[rank_of(c)] += share
            s.apply_code(policy.best(total, codes, len(s.hands[me])))
    return tuple(
        min(4.0, max(0.25, f / e)) if e else 1.0 for f, e in zip(found, expected, strict=True)
    )


def forced_move(legal: Sequence[Action]) -> Action | None:
    """The move a bot that scores plays makes without scoring: the only legal action, or,
    where no card may be played, a draw (it keeps more options open) else the first
    action; None where there are plays to choose from."""
    if len(legal) == 1:
        return legal[0]
    if any(a.kind is ActionKind.PLAY for a in legal):
        return None
    return next((a for a in legal if a.kind is ActionKind.DRAW), legal[0])
