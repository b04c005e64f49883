"""Who is likelier to be stuck: each other seat's chance of holding no safe card, read from
its last play in the hand.

Counting cards alone gives every other seat the same chance (the cards it may hold are the
same unseen cards). A seat's last play says more: a sensible player plays the card it likes
best, so the cards it kept are those with which the rollout policy (the heuristic's idea
of a good play) would have made that play. A Ten -10 played at 99 says the seat kept no
hold, reverse or King; a Four played at 99, no Nine or King (the policy plays those
first). The kinds of the kept cards are enumerated exactly, each multiset weighted by how
many ways the unseen cards make it and by how likely players are to keep each kind
(:func:`~ninetynine.bots.knowledge.hand_weights`); those the policy would not have played
so are dropped, and the cards drawn since are random unseen cards. Only the view is read:
the public log and the unseen cards.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import cache
from itertools import combinations_with_replacement
from math import comb

from ninetynine.bots.knowledge import deck_cards, rollout_policy, safe_table
from ninetynine.engine import events as E
from ninetynine.engine.state import compiled
from ninetynine.engine.tables import RuleTables, card_of
from ninetynine.engine.view import View
from ninetynine.rules.cards import rank_of
from ninetynine.rules.settings import Rules

MAX_KEPT = 3  # kept cards read exactly; a seat that kept more is counted as unseen cards
READ_ABOVE = 0.15  # the share of unsafe unseen cards from which a seat's last play is read


class SeatReading:
    """For one decision: per other seat and total, the chance the seat cannot play safely."""

    def __init__(
        self,
        view: View,
        fits: Fits,
        read: bool = True,
        weights: Sequence[float] | None = None,
        unseen: Sequence[int] | None = None,
    ) -> None:
        """``fits``: the rule set's :func:`fits`; ``read``: read the last plays (without,
        every seat is dealt the unseen cards alike, as ``heuristic-v1`` counts them);
        ``weights``: per rank, how much likelier a card is in a hand than elsewhere unseen
        (:func:`~ninetynine.bots.knowledge.hand_weights`: players keep escape cards);
        ``unseen``: ``view.unseen()``, where the caller has it already."""
        self.fits, self.c, self.table = fits, fits.c, fits.table
        if unseen is None:
            unseen = view.unseen()
        self.count = len(unseen)
        same = self.c.same
        self.kinds = Counter(same[card] for card in unseen)
        self.weight = {k: weights[rank_of(k)] if weights else 1.0 for k in self.kinds}
        self.weighted: dict[int, float] = {}
        self.history = view.history if read else ()
        self.sizes = view.hand_sizes
        self.unsafe: dict[int, float] = {}
        self.kept: dict[int, list[tuple[float, Combo]] | None] = {}
        self.drawn: dict[int, int] = {}
        self.found: dict[tuple[int, int], float] = {}

    def uniform(self, total: int) -> float:
        """The share of the unseen cards with no safe play at ``total``."""
        found = self.unsafe.get(total)
        if found is None:
            safe = self.table.safe
            bad = sum(k for kind, k in self.kinds.items() if not safe(kind, total))
            found = self.unsafe[total] = bad / self.count if self.count else 0.0
        return found

    def held(self, total: int) -> float:
        """The chance that a card held in a hand, not read from any play, has no safe play
        at ``total`` (the unseen cards weighted by how likely players keep them)."""
        found = self.weighted.get(total)
        if found is None:
            safe, weight = self.table.safe, self.weight
            bad = all_ = 0.0
            for kind, k in self.kinds.items():
                all_ += k * weight[kind]
                if not safe(kind, total):
                    bad += k * weight[kind]
            found = self.weighted[total] = bad / all_ if all_ else 0.0
        return found

    def stuck(self, seat: int, total: int) -> float:
        """The chance that ``seat`` holds no safe card at ``total``."""
        key = (seat, total)
        found = self.found.get(key)
        if found is None:
            found = self.found[key] = self._stuck(seat, total)
        return found

    def _stuck(self, seat: int, total: int) -> float:
        size = self.sizes[seat]
        if size <= 0 or not self.count:
            return 0.0
        uniform = self.uniform(total)
        if uniform < READ_ABOVE:  # little danger whatever it kept: not worth reading
            return self.held(total) ** size
        kept = self._kept(seat)
        if kept is None:
            return self.held(total) ** size
        safe, weight, stuck = self.table.safe, 0.0, 0.0
        for w, kinds in kept:
            weight += w
            if not any(safe(kind, total) for kind, _ in kinds):
                stuck += w
        return stuck / weight * uniform ** self.drawn[seat]

    def _kept(self, seat: int) -> list[tuple[float, Combo]] | None:
        """The kinds the seat may have kept since its last play, each with its weight (only
        those that fit the play); None where the play tells nothing to read."""
        if seat in self.kept:
            return self.kept[seat]
        found: list[tuple[float, Combo]] | None = None
        last = self._last_play(seat)
        if last is not None:
            played, drawn = last
            keep = self.sizes[seat] - drawn
            self.drawn[seat] = drawn
            if 0 < keep <= MAX_KEPT and played.before >= self.c.limit // 2:
                kinds, weight, out = self.kinds, self.weight, []
                for combo in self.fits(played.before, played.card, played.after, keep):
                    ways = 1.0
                    for kind, k in combo:
                        ways *= comb(kinds[kind], k) * weight.get(kind, 1.0) ** k
                    if ways:
                        out.append((ways, combo))
                found = out or None
        self.kept[seat] = found
        return found

    def _last_play(self, seat: int) -> tuple[E.CardPlayed, int] | None:
        """The seat's last play in this hand and the cards it has drawn since."""
        drawn = 0
        for ev in reversed(self.history):
            if isinstance(ev, E.CardPlayed):
                if ev.seat == seat:
                    return ev, drawn
            elif isinstance(ev, E.CardDrawn):
                drawn += ev.seat == seat
            elif isinstance(ev, E.HandStarted):
                break
        return None


Combo = tuple[tuple[int, int], ...]  # (kind, how many) of the cards a seat kept


class Fits:
    """Per rule set, the kinds a player may have kept with which the rollout policy makes a
    play (kept for the process: the same plays come back in every game)."""

    def __init__(self, rules: Rules) -> None:
        self.c, self.table = compiled(rules), safe_table(rules)
        self.kinds = sorted({self.c.same[card] for card in deck_cards(rules)})
        self.found: dict[tuple[int, int, int, int], list[Combo]] = {}

    def __call__(self, before: int, card: int, after: int, keep: int) -> list[Combo]:
        """The multisets of ``keep`` kinds with which the policy plays ``card`` from
        ``before`` to ``after`` (a kind stands for every card that does the same)."""
        played = self.c.same[card]
        key = (before, played, after, keep)
        found = self.found.get(key)
        if found is None:
            found = self.found[key] = [
                tuple(Counter(combo).items())
                for combo in combinations_with_replacement(self.kinds, keep)
                if _would_play(self.c, before, played, after, combo)
            ]
        return found


def _would_play(c: RuleTables, before: int, played: int, after: int, kept: tuple[int, ...]) -> bool:
    """Whether the rollout policy, holding ``kept`` and ``played``, plays ``played`` to
    ``after`` at ``before`` (or has no safe card, when a play tells nothing)."""
    held = [*kept, played]
    codes = [code for card in held for code in c.moves_of(card, before)[0]]
    if not codes:
        return True
    best = rollout_policy(c.rules).best(before, codes, len(held))
    return c.same[card_of(best)] == played and c.result(best, before) == after


@cache
def fits(rules: Rules) -> Fits:
    """The :class:`Fits` of a rule set, built once and kept."""
    return Fits(rules)
