"""Reading the other hands from the other players' last plays.

A sensible player plays the card it likes best. So when a player played a card, a deal
that gives it a card it would have liked better is unlikely: the search prefers deals in
which each other player's last play in this hand is the one the rollout policy (the
heuristic's idea of a good play) would have made with the cards dealt to it.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from ninetynine.bots.determinize import Determinizer
from ninetynine.bots.knowledge import RolloutPolicy
from ninetynine.engine import events as E
from ninetynine.engine.state import compiled
from ninetynine.engine.tables import card_of
from ninetynine.engine.view import View


def this_hand(history: Sequence[E.Event]) -> Sequence[E.Event]:
    """The public events since the current hand began."""
    for i in range(len(history) - 1, -1, -1):
        if isinstance(history[i], E.HandStarted):
            return history[i:]
    return history


def last_plays(view: View) -> dict[int, tuple[E.CardPlayed, int]]:
    """Per seat that has played in this hand, its last play and the cards drawn since."""
    drawn: dict[int, int] = {}
    found: dict[int, tuple[E.CardPlayed, int]] = {}
    for ev in reversed(this_hand(view.history)):
        if isinstance(ev, E.CardDrawn):
            drawn[ev.seat] = drawn.get(ev.seat, 0) + 1
        elif isinstance(ev, E.CardPlayed) and ev.seat not in found:
            found[ev.seat] = (ev, drawn.get(ev.seat, 0))
    return found


def drawn_since_play(view: View) -> dict[int, int]:
    """Per seat that has played in this hand, the cards it has drawn since its last play."""
    return {seat: drawn for seat, (_, drawn) in last_plays(view).items()}


class LastPlays:
    """The other players' last plays in the current hand, as checks on a deal."""

    def __init__(self, view: View, policy: RolloutPolicy) -> None:
        self.policy = policy
        self.c = compiled(view.rules)
        # (seat, total before, card played, total after, cards drawn since)
        self.checks = [
            (seat, ev.before, ev.card, ev.after, drawn)
            for seat, (ev, drawn) in last_plays(view).items()
            if seat != view.seat
        ]
        self.fits: dict[tuple[int, ...], bool] = {}

    def draw(self, det: Determinizer, rng: random.Random, tries: int = 10) -> list[int]:
        """Unseen cards in an order (for ``det.deal``) whose deal fits the last plays, or
        of ``tries`` draws the one that fits most of them."""
        if not self.checks:
            return det.shuffled(rng)
        best, fewest = [], math.inf
        for _ in range(tries):
            cards = det.hands_drawn(rng)
            misfits = self.misfits(det.hands(cards))
            if misfits < fewest:
                best, fewest = cards, misfits
                if not misfits:
                    break
        return det.rest_shuffled(best, rng)

    def misfits(self, hands: list[list[int]]) -> int:
        """How many of the last plays the policy would not have made with ``hands``
        (the cards drawn since a play are taken to be the last ones of a hand)."""
        count, fits, same = 0, self.fits, self.c.same
        for i, (seat, before, card, after, drawn) in enumerate(self.checks):
            hand = hands[seat]
            kept = hand[: len(hand) - drawn] if drawn <= len(hand) else []
            # the answer depends on what the cards do only: cached per check and kinds held
            key = (i, *sorted(same[c] for c in kept))
            fit = fits.get(key)
            if fit is None:
                fit = fits[key] = self.choice(kept + [card], before) in (None, (same[card], after))
            count += not fit
        return count

    def choice(self, held: list[int], total: int) -> tuple[int, int] | None:
        """The kind of card (see ``RuleTables.same``) and new total the policy plays from
        ``held`` at ``total`` (None if every card busts: then the play says nothing)."""
        codes = [code for card in held for code in self.c.moves_of(card, total)[0]]
        if not codes:
            return None
        best = self.policy.best(total, codes, len(held))
        return self.c.same[card_of(best)], self.c.result(best, total)
