"""Determinization: a full :class:`State` consistent with what one seat has seen.

A bot's only input is its :class:`~ninetynine.engine.view.View`. To search, it deals the cards it
has not seen (``view.unseen()``) at random into the other hands (their sizes are public),
the stock and the face-down part of the pile. The real hands and stock order are never read.

:class:`Determinizer` builds the public part of the state once and then makes as many
samples as the search needs, cheaply.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from ninetynine.engine.game import new_game
from ninetynine.engine.state import CHANCE, DRAWING, NO_CHANCE, OVER, PLAY, State
from ninetynine.engine.view import View
from ninetynine.rules.cards import rank_of


class Determinizer:
    """Makes random states consistent with ``view``: the template is built once."""

    def __init__(
        self,
        view: View,
        weights: Sequence[float] | None = None,
        known: Sequence[Sequence[int]] | None = None,
    ) -> None:
        """``weights``: per rank, how much likelier a card is in a hand than elsewhere.
        ``known``: per seat, cards known to be in its hand (only a yardstick that sees
        the real game knows any: :mod:`ninetynine.bots.oracle`); they are dealt to it
        first, in the order given, and the rest of its hand is drawn like any other. By
        default, the cards the view knows in other hands (``view.known``: a swap or a take
        showed them), which are never dealt elsewhere."""
        if view.phase not in (PLAY, DRAWING):
            raise ValueError(
                f"cannot determinize a view in phase {view.phase!r}: only a seat to act can search"
            )
        self.view = view
        self.seat = view.seat
        self.unseen = view.unseen()
        self.others = [s for s in range(view.players) if s != view.seat]
        self.sizes = [view.hand_sizes[s] for s in self.others]
        hidden = len(self.unseen) - sum(self.sizes) - view.stock_size
        if hidden < 0:
            raise ValueError("inconsistent view: more hidden cards in hands and stock than unseen")
        self.face_down = hidden
        self.template = _public_state(view)
        if known is None and any(view.known):
            known = view.known
        self.known = [list(known[s]) if known is not None else [] for s in self.others]
        pool = Counter(self.unseen) - Counter(c for cards in self.known for c in cards)
        self.pool = sorted(pool.elements())  # the cards dealt at random
        # Efraimidis-Spirakis exponents: a card of weight w is dealt into a hand first
        # with the chance of a weighted draw without replacement.
        self.exponents = (
            [(card, 1 / weights[rank_of(card)]) for card in self.pool]
            if weights is not None
            else None
        )
        self.in_hands = sum(self.sizes)
        self.drawn_in_hands = self.in_hands - sum(len(k) for k in self.known)

    def sample(self, rng: random.Random) -> State:
        """A new state: the unseen cards dealt at random, everything public as seen."""
        return self.deal(self.shuffled(rng))

    def shuffled(self, rng: random.Random) -> list[int]:
        """The unseen cards in a random order (what :meth:`deal` takes); with weights,
        the cards for the other hands are drawn by weight and the rest shuffled."""
        return self.rest_shuffled(self.hands_drawn(rng), rng)

    def hands_drawn(self, rng: random.Random) -> list[int]:
        """The unseen cards, those for the other hands first and in random order (drawn
        by weight, with weights); the rest come in no particular order until
        :meth:`rest_shuffled` shuffles them. A search that may reject the hands shuffles
        the rest only of the deal it keeps."""
        rnd = rng.random  # sorting by random keys: a uniform shuffle, cheaper than shuffle()
        k = self.drawn_in_hands
        if self.exponents is None:
            drawn = sorted(self.pool, key=lambda _card: rnd())
        else:  # the hands' cards go in random order too: none is drawn first
            drawn = [c for c, _ in sorted(self.exponents, key=lambda ce: -(rnd() ** ce[1]))]
            drawn[:k] = sorted(drawn[:k], key=lambda _card: rnd())
        if not any(self.known):
            return drawn
        cards, i = [], 0
        for size, known in zip(self.sizes, self.known, strict=True):
            fill = size - len(known)
            cards += known + drawn[i : i + fill]
            i += fill
        return cards + drawn[i:]

    def rest_shuffled(self, cards: list[int], rng: random.Random) -> list[int]:
        """``cards`` from :meth:`hands_drawn` with the cards after the hands shuffled."""
        if self.exponents is None:
            return cards  # a uniform shuffle already
        rnd, k = rng.random, self.in_hands
        return cards[:k] + sorted(cards[k:], key=lambda _card: rnd())

    def hands(self, cards: list[int]) -> list[list[int]]:
        """The other hands :meth:`deal` makes of ``cards``, by seat (the seat's own empty)."""
        hands: list[list[int]] = [[] for _ in range(self.view.players)]
        i = 0
        for seat, size in zip(self.others, self.sizes, strict=True):
            hands[seat] = cards[i : i + size]
            i += size
        return hands

    def deal(self, cards: list[int]) -> State:
        """A new state with the unseen ``cards`` dealt in this order: the other hands in
        seat order, then the face-down pile, then the stock."""
        t = self.template
        s = t.clone()
        hands = self.hands(cards)
        hands[self.seat] = list(self.view.hand)
        s.hands = hands
        i = self.in_hands
        s.pile = cards[i : i + self.face_down] + t.pile
        s.face_down = self.face_down  # under the visible pile, unseen as in the real game
        i += self.face_down
        s.stock = cards[i:]
        return s


def determinize(view: View, rng: random.Random) -> State:
    """One random state consistent with ``view`` (see :class:`Determinizer`)."""
    return Determinizer(view).sample(rng)


def _public_state(view: View) -> State:
    """A state holding every public fact of ``view``; hands, stock and face-down left empty."""
    n, rules = view.players, view.rules
    s = new_game(rules, n)
    s.decks = view.decks
    s.phase, s.chance = view.phase, NO_CHANCE
    s.total, s.direction = view.total, view.direction
    s.turn = view.turn if view.turn is not None else view.seat
    s.dealer, s.hand_no, s.starter = view.dealer, view.hand_no, view.starter
    s.hands = [[] for _ in range(n)]
    s.pile, s.out, s.stock = list(view.pile), list(view.out), []
    s.face_down = 0  # set per deal: the hidden cards go under the visible pile
    lives = [0] * rules.teams.pools(n)
    for seat in range(n):
        lives[s.pool(seat)] = view.lives[seat]
    s.lives = lives
    s.alive, s.in_hand = list(view.alive), list(view.in_hand)
    s.turns_played, s.points = list(view.turns_played), list(view.points)
    s.scores, s.pot = list(view.scores), view.pot
    s.passes, s.owed = view.passes, view.owed
    s.chain, s.plays_left, s.may_decline = view.chain, view.plays_left, view.may_decline
    s.challenger = -1 if view.challenger is None else view.challenger
    s.drawer, s.held, s.loser = -1, -1, -1
    s.next_turn = -1 if view.next_turn is None else view.next_turn
    s.outcome, s._ev, s._before = None, None, list(view.in_hand)
    assert s.phase not in (CHANCE, OVER)
    return s
