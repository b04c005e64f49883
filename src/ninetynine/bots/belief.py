"""Reading the other hands from every play of the hand, not only the last one.

Each other player was dealt some cards when the hand began, played a card at each of its
turns and drew after each. Its plays are public; which of the unseen cards it was dealt
or drew, and so which it held at each play, is not. The chance of each hand it may hold
now is found by a forward pass over its plays (a hidden Markov model whose state is the
hand, by ranks):

* the cards dealt and drawn are random: a card it later played, or one of the cards
  still unseen, each unseen rank as likely as the cards of it left unseen (draws are
  taken as independent, a close approximation while few cards are drawn);
* the card played at each turn must have been in the hand, and the opponent model (the
  rollout policy, the heuristic's idea of a good play) weighs the play: ``1 - slip`` if
  the policy plays that card with the hand then held, ``slip`` if not (players do
  sometimes play otherwise); a play with no safe card says nothing. A seat whose bot is
  known to be ``heuristic-v1`` (``models``) is weighed by that bot's play instead
  (:class:`~ninetynine.bots.clone.HeuristicModel`, with the cards face up at the time
  read back from the log), with the smaller slip ``KNOWN_SLIP``.

So every play counts, and so does how long a card can have been held. The pass is
exact under those assumptions and covers the last ``MAX_PLAYS`` plays of a player (an
earlier hand is the starting point, drawn at random). Each other hand is then drawn from
its own posterior over ranks, one player after another, with suits at random.
"""

from __future__ import annotations

import heapq
import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from functools import cache, lru_cache

from ninetynine.bots.clone import HeuristicModel
from ninetynine.bots.determinize import Determinizer
from ninetynine.bots.inference import this_hand
from ninetynine.bots.knowledge import RolloutPolicy
from ninetynine.engine import events as E
from ninetynine.engine.state import compiled
from ninetynine.engine.tables import card_of
from ninetynine.engine.view import View
from ninetynine.rules.cards import rank_of

MAX_PLAYS = 6  # plays of one player read back, per hand
SLIP = 0.05  # the chance the model gives a play that the policy would not make
KNOWN_SLIP = 0.02  # the same for a seat whose bot is known (the model is its own play)
# The most hands kept per step of the reading: three-card games never reach it (at most
# about 1,200), five-card games would reach tens of thousands; beyond it only the likeliest
# are kept, so a decision costs about the same whatever the hand size.
MAX_STATES = 2000

Hand = tuple[frozenset[int], tuple[int, ...]]  # (plays to come already held, other ranks)


class Plays:
    """One other player's plays in this hand, in order: (total before, card, total after,
    cards drawn after it); and how many cards it held before the first of them. ``at``:
    per play, its place among the hand's plays (everybody's), and ``then``: the seat
    that played after it (None: nobody yet)."""

    def __init__(self) -> None:
        self.plays: list[tuple[int, int, int, int]] = []
        self.held = 0
        self.at: list[int] = []
        self.then: list[int | None] = []


def hand_plays(view: View) -> dict[int, Plays]:
    """Per other seat that has played in this hand, its last ``MAX_PLAYS`` plays."""
    found: dict[int, Plays] = {}
    order: list[int] = []  # the seat of each play of the hand
    waiting: list[tuple[Plays, int]] = []  # plays whose next player is not known yet
    for ev in this_hand(view.history):
        if isinstance(ev, E.CardPlayed):
            for p, k in waiting:
                p.then[k] = ev.seat
            waiting = []
            order.append(ev.seat)
            if ev.seat == view.seat:
                continue
            p = found.setdefault(ev.seat, Plays())
            p.plays.append((ev.before, ev.card, ev.after, 0))
            p.at.append(len(order) - 1)
            p.then.append(None)
            waiting.append((p, len(p.plays) - 1))
        elif isinstance(ev, E.CardDrawn) and ev.seat in found:
            p = found[ev.seat]
            before, card, after, drawn = p.plays[-1]
            p.plays[-1] = (before, card, after, drawn + 1)
    for seat, p in found.items():
        p.plays, p.at, p.then = p.plays[-MAX_PLAYS:], p.at[-MAX_PLAYS:], p.then[-MAX_PLAYS:]
        p.held = view.hand_sizes[seat] + sum(1 - d for *_, d in p.plays)
    return {seat: p for seat, p in found.items() if p.held >= 1}


class HandReader:
    """Deals of the unseen cards drawn from each other player's posterior (see above).

    ``models``: per seat whose bot is known, the model of its plays (the others' are the
    rollout policy's); ``side(seat)``: its side (the template state's), for partners."""

    def __init__(
        self,
        view: View,
        policy: RolloutPolicy,
        slip: float = SLIP,
        models: Mapping[int, HeuristicModel] | None = None,
        side: Callable[[int], int] | None = None,
    ) -> None:
        self.policy = policy
        self.c = compiled(view.rules)
        self.slip = slip
        self.view = view
        self.plays = hand_plays(view)
        self.models = dict(models or {})
        self.side = side if side is not None else (lambda seat: seat)
        self._choice = lru_cache(maxsize=None)(self._choice_of)
        self.posteriors: dict[int, tuple[list[tuple[int, ...]], list[float]]] | None = None

    def posterior(self, seat: int, pool: Sequence[int]) -> dict[tuple[int, ...], float]:
        """The chance of each hand ``seat`` may hold now, by sorted ranks (unnormalised);
        ``pool`` holds the unseen cards it may have been dealt or drawn."""
        p = self.plays[seat]
        counts = Counter(rank_of(card) for card in pool)
        ranks = sorted(counts)
        played = [rank_of(card) for _, card, _, _ in p.plays]
        m, slip = len(played), self.slip
        choose: Callable[[tuple[int, ...], int], tuple[int, int] | None] = self._choice
        model = self.models.get(seat)
        if model is not None:
            slip, choose = KNOWN_SLIP, self._known_choice(seat, model)
        states: dict[Hand, float] = {(frozenset(), ()): 1.0}
        for _ in range(p.held):
            states = _likeliest(_draw(states, 0, m, ranks, counts))
        for k, (before, _, after, drawn) in enumerate(p.plays):
            played_now: dict[Hand, float] = {}
            for (early, rest), w in states.items():
                if k not in early:  # the card played at play k was not in hand yet
                    continue
                held = tuple(sorted(rest + tuple(played[j] for j in early)))
                fit = choose(held, before if model is None else k)
                like = 1.0 if fit is None else 1 - slip if fit == (played[k], after) else slip
                key = (early - {k}, rest)
                played_now[key] = played_now.get(key, 0.0) + w * like
            states = _likeliest(played_now)
            for _ in range(drawn):
                states = _likeliest(_draw(states, k + 1, m, ranks, counts))
        out: dict[tuple[int, ...], float] = {}
        for (early, rest), w in states.items():
            if not early:
                out[rest] = out.get(rest, 0.0) + w
        return out

    def draw(self, det: Determinizer, rng: random.Random) -> list[int]:
        """Unseen cards in an order for ``det.deal``: the other hands drawn from their
        posteriors (a player who has not played in this hand at random), the rest
        shuffled."""
        if not self.plays:
            return det.shuffled(rng)
        if self.posteriors is None:
            self.posteriors = {}
            for seat in self.plays:
                found = self.posterior(seat, det.pool)
                self.posteriors[seat] = (list(found), list(found.values()))
        rnd = rng.random
        pool = sorted(det.pool, key=lambda _card: rnd())
        by_rank: dict[int, list[int]] = {}
        for card in pool:
            by_rank.setdefault(rank_of(card), []).append(card)
        hands: dict[int, list[int]] = {}
        # players whose hands are read first, then the others from what is left
        for seat in sorted(det.others, key=lambda s: s not in self.plays):
            size = det.view.hand_sizes[seat]
            hand = self._hand_of(seat, size, by_rank, rng)
            for card in hand:
                by_rank[rank_of(card)].remove(card)
            hands[seat] = hand
        left = set(c for cards in by_rank.values() for c in cards)
        rest = [c for c in pool if c in left]
        return [c for seat in det.others for c in hands[seat]] + rest

    def _hand_of(
        self, seat: int, size: int, by_rank: dict[int, list[int]], rng: random.Random
    ) -> list[int]:
        """Cards for ``seat``: ranks from its posterior where the cards left allow (a few
        tries), else cards at random from those left."""
        assert self.posteriors is not None
        if seat in self.posteriors and size:
            options, weights = self.posteriors[seat]
            if options and any(weights):
                for ranks in rng.choices(options, weights, k=4):
                    need = Counter(ranks)
                    if len(ranks) == size and all(
                        len(by_rank.get(r, ())) >= k for r, k in need.items()
                    ):
                        return [card for r, k in need.items() for card in rng.sample(by_rank[r], k)]
        left = [c for cards in by_rank.values() for c in cards]
        return rng.sample(left, min(size, len(left)))

    def _known_choice(
        self, seat: int, model: HeuristicModel
    ) -> Callable[[tuple[int, ...], int], tuple[int, int] | None]:
        """The known bot's play at ``seat``'s play number k holding some ranks: the cards
        face up then are those face up now less those played since (a reshuffle of the
        pile in between is not read back); the next seat is the one that played next."""
        view, p = self.view, self.plays[seat]
        hand = [ev for ev in this_hand(view.history) if isinstance(ev, E.CardPlayed)]
        public = Counter(view.pile) + Counter(view.out)
        then: list[tuple[Counter[int], int, bool]] = []
        for at, nxt in zip(p.at, p.then, strict=True):
            nxt = view.seat if nxt is None else nxt
            later = Counter(ev.card for ev in hand[at:])
            then.append((public - later, view.hand_sizes[nxt], self.side(nxt) == self.side(seat)))

        @cache
        def choice(ranks: tuple[int, ...], k: int) -> tuple[int, int] | None:
            seen, size, partner = then[k]
            return model.choice(ranks, p.plays[k][0], seen, size, partner)

        return choice

    def _choice_of(self, ranks: tuple[int, ...], total: int) -> tuple[int, int] | None:
        """The rank and new total the policy plays holding ``ranks`` (None if all bust)."""
        codes = [code for rank in ranks for code in self.c.moves_of(rank * 4, total)[0]]
        if not codes:
            return None
        best = self.policy.best(total, codes, len(ranks))
        return rank_of(card_of(best)), self.c.result(best, total)


def _draw(
    states: dict[Hand, float], k: int, m: int, ranks: list[int], counts: Counter[int]
) -> dict[Hand, float]:
    """One more card into every hand: a card played later (at play ``k`` or after, not
    yet held) or an unseen rank, weighted by how many such cards there are."""
    out: dict[Hand, float] = {}
    for (early, rest), w in states.items():
        for j in range(k, m):
            if j not in early:
                key = (early | {j}, rest)
                out[key] = out.get(key, 0.0) + w
        for r in ranks:
            key = (early, tuple(sorted(rest + (r,))))
            out[key] = out.get(key, 0.0) + w * counts[r]
    return out


def _likeliest(states: dict[Hand, float]) -> dict[Hand, float]:
    """The :data:`MAX_STATES` likeliest of ``states`` (all of them when fewer)."""
    if len(states) <= MAX_STATES:
        return states
    return dict(heapq.nlargest(MAX_STATES, states.items(), key=lambda item: item[1]))
