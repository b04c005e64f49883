"""A policy learned by self-play, on action codes: the search's ``rollout=learned``.

The weights come from ``examples/learn_selfplay.py`` (REINFORCE on the batch engine, every
seat playing the policy; ``--export`` writes them into ``data/learned.json``, one list per
rule set it plays: P, K, G and J). The policy is linear in three features of each action:
the card's rank at the current total (in tens), the total it leaves (in tens) and how
many escape cards stay in hand; this module plays its most likely action.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources

from ninetynine.bots.knowledge import escape_cards
from ninetynine.engine.state import DOWN, compiled
from ninetynine.engine.tables import PARAM, card_of
from ninetynine.rules.cards import rank_of
from ninetynine.rules.settings import Rules

BINS = 11  # totals in tens: below 0 (where allowed) and 0-9 ... 90-99 and the limit
RANKS = 13
RANK_AT = 0  # rank * BINS + bin of the current total
LEAVES = RANK_AT + RANKS * BINS  # + bin of the total left
KEEPS = LEAVES + BINS  # + escape cards kept (0..4+)
LAY_DOWN = KEEPS + 5  # laying down (only ever the one legal action)
FEATURES = LAY_DOWN + 1


@cache
def _table() -> dict[str, list[float]]:
    text = resources.files("ninetynine").joinpath("data/learned.json").read_text()
    table: dict[str, list[float]] = json.loads(text)
    return table


def has_weights(rules: Rules) -> bool:
    """Whether ``data/learned.json`` holds learned weights for these rules (by rules id)."""
    return rules.id in _table()


class LearnedPolicy:
    """The learned policy's choice among action codes, for the hand that holds them."""

    def __init__(self, rules: Rules) -> None:
        weights = _table().get(rules.id)
        if weights is None:
            raise TypeError(
                f"rollout=learned: no learned weights for rules {rules.id!r} "
                f"(there are for {', '.join(sorted(_table()))})"
            )
        self.w, self.c, self.limit = weights, compiled(rules), rules.limit
        self.escapes = escape_cards(rules)
        self.cache: dict[tuple[int, int, int], float] = {}

    def _bin(self, total: int) -> int:
        return 0 if total < 0 else 1 + min(total, self.limit) * (BINS - 2) // self.limit

    def score(self, total: int, code: int, escapes: int) -> float:
        """The action's logit; ``escapes``: the escape cards in hand before it."""
        key = (total, code, escapes)
        found = self.cache.get(key)
        if found is None:
            if DOWN <= code < PARAM:
                found = self.w[LAY_DOWN]
            else:
                card = card_of(code)
                left = self.c.result(code, total)
                kept = escapes - (card in self.escapes)
                w = self.w
                found = (
                    w[RANK_AT + min(rank_of(card), RANKS - 1) * BINS + self._bin(total)]
                    + w[LEAVES + self._bin(left)]
                    + w[KEEPS + min(kept, 4)]
                )
            self.cache[key] = found
        return found

    def best(self, total: int, codes: list[int], hand: list[int]) -> int:
        """The code among ``codes`` with the highest :meth:`score`; ``hand`` is the mover's hand,
        whose escape cards are counted."""
        escapes = sum(card in self.escapes for card in hand)
        return max(codes, key=lambda k: self.score(total, k, escapes))


@cache
def learned_policy(rules: Rules) -> LearnedPolicy:
    """The :class:`LearnedPolicy` of a rules value, built once per rules and kept; raises
    TypeError (a bad bot option) where the rules have no weights."""
    return LearnedPolicy(rules)
