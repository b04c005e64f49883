"""A fast clone of ``heuristic-v1`` for the search's model of a seat known to play it.

:class:`~ninetynine.bots.heuristic.HeuristicBot` builds a view and deals a determinization
for every move. Inside a search the deal is already made, so :class:`HeuristicClone`
scores the same terms on that :class:`~ninetynine.engine.state.State` directly: the cost
at once (lives or points, its own at full weight and the others' at half, 100 for a game
won or lost, by trying the play on a copy), the danger passed on (the chance that the next
seat, with its hand size before the play, holds no safe card at the new total, counted
from the cards the mover has not seen in this deal: every card less its own hand, the
face-up pile and the cards out, as :meth:`~ninetynine.engine.view.View.unseen` counts
them) and the keep value of the hand left; ties go to the later legal action, and moves
that need no scoring are :func:`~ninetynine.bots.knowledge.forced_move`'s. It reads only
the mover's hand and the public cards of the state it is given, so on a determinization
it knows nothing the searching seat does not.

:class:`HeuristicModel` is the same idea for the belief (:mod:`ninetynine.bots.belief`):
the play the bot would have made holding some ranks at an earlier total, read from the
public cards of that time; it leaves out the cost at once (the belief reads safe plays
only) and takes the next seat's hand size and side as the log shows them.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from typing import NamedTuple

from ninetynine.bots.heuristic import KEEP, LIFE, PUSH, keep_value_v1
from ninetynine.bots.knowledge import deck_cards, safe_table
from ninetynine.engine.state import DOWN, DRAW, State, compiled
from ninetynine.engine.tables import AFTER_KEY, NEXT, PARAM, REVERSE, card_of
from ninetynine.records.match import standing
from ninetynine.rules.cards import rank_of
from ninetynine.rules.settings import Rules


def _is_play(code: int) -> bool:
    return code < DOWN or code >= PARAM


class HeuristicClone:
    """``heuristic-v1``'s choice on a state (see the module docstring); ``push`` and
    ``keep`` are its weights."""

    def __init__(self, rules: Rules, push: float = PUSH, keep: float = KEEP) -> None:
        self.c = compiled(rules)
        self.table = safe_table(rules)
        self.values = keep_value_v1(rules)
        self.push, self.keep = push, keep
        self.limit, self.deck = rules.limit, deck_cards(rules)
        # per total, the cards of one deck with no safe play there, as bits (card c: 1 << c)
        self.unsafe_bits: dict[int, int] = {}

    def _unsafe(self, total: int) -> int:
        found = self.unsafe_bits.get(total)
        if found is None:
            safe = self.table.safe
            found = sum(1 << card for card in self.deck if not safe(card, total))
            self.unsafe_bits[total] = found
        return found

    def best(self, s: State, codes: Sequence[int]) -> int:
        """The code heuristic-v1 plays among ``codes`` (the sorted legal codes of ``s``)."""
        if len(codes) == 1:
            return codes[0]
        if not any(_is_play(k) for k in codes):
            return DRAW if DRAW in codes else codes[0]
        me, c, n = s.turn, self.c, s.n
        start: list[float] | None = None
        others = [p for p in range(n) if s.side(p) != s.side(me)]
        hand = sorted(s.hands[me])
        seen: Seen | None = None
        danger: dict[tuple[int, int], float] = {}
        best_v, best_k = -math.inf, codes[0]
        values, keep, push = self.values, self.keep, self.push
        # a play that only passes the turn on (and draws) changes no one's lives or points:
        # scored here without trying it on a copy (what apply_code's own fast path does)
        quick = len(s.stock) > 1 and not (s.owed or s.chain or s.plays_left) and s._ev is None
        after_of, quick_of, total, in_hand = c.after, c.quick, s.total, s.in_hand
        for k in codes:
            passing = None
            if quick and k < DOWN:
                at = total * AFTER_KEY + k
                if at not in after_of:
                    c.result(k, total)  # (fills the quick table too)
                passing = quick_of.get(at)
            # (a seat named, skipped or a reverse that depends on the seats: on a copy, below)
            if passing is not None and (passing[1] == NEXT or passing[1] == REVERSE):
                v = 0.0
                new, step, _ = passing
                d_ = -s.direction if step == REVERSE else s.direction
                nxt: int | None = (me + d_) % n
                assert nxt is not None
                for _ in range(n):
                    if in_hand[nxt]:
                        break
                    nxt = (nxt + d_) % n
                same_hand = True
            else:
                if start is None:
                    start = standing(s)
                after = s.clone()
                after.apply_code(k)
                now = standing(after)
                v = LIFE * (now[me] - start[me])
                if others:
                    lost = sum(start[p] - now[p] for p in others)
                    v += LIFE * 0.5 * lost / len(others)
                if after.outcome is not None:
                    v += 100.0 if me in after.outcome.winners else -100.0
                    if v >= best_v:
                        best_v, best_k = v, k
                    continue
                nxt, new, same_hand = after.current_seat, after.total, after.hand_no == s.hand_no
            if nxt is not None and nxt != me and same_hand:
                size = len(s.hands[nxt])
                key = (new, size)
                d = danger.get(key)
                if d is None:
                    if seen is None:
                        seen = self.seen(hand + s.pile[s.face_down :] + s.out, s.decks)
                    d = danger[key] = self.stuck(seen, new, size)
                v += push * (-d if s.side(nxt) == s.side(me) else d)
            left = hand[:]
            if _is_play(k):
                left.remove(card_of(k))
            v += keep * sum(values[x] for x in left)
            if v >= best_v:  # ties: the later action, as max() over (score, index)
                best_v, best_k = v, k
        return best_k

    def seen(self, cards: list[int], decks: int) -> Seen:
        """The cards seen, as :meth:`stuck` reads them: as bits with one deck, else as a list."""
        if decks == 1:
            bits = 0
            for card in cards:
                bits |= 1 << card
            return Seen(1, len(cards), bits, ())
        return Seen(decks, len(cards), 0, tuple(cards))

    def stuck(self, seen: Seen, total: int, size: int) -> float:
        """The chance a hand of ``size`` cards drawn from those not ``seen`` has no safe play
        at ``total`` (as ``heuristic-v1`` counts it from its view's unseen cards)."""
        count = 52 * seen.decks - seen.size
        if count <= 0 or size <= 0:
            return 0.0
        bits = self._unsafe(total)
        if seen.decks == 1:
            unsafe = bits.bit_count() - (bits & seen.bits).bit_count()
        else:
            unsafe = seen.decks * bits.bit_count() - sum(bits >> c & 1 for c in seen.cards)
        return (unsafe / count) ** size


class Seen(NamedTuple):
    """Cards a player has seen: how many decks, how many cards, and the cards (as bits
    with one deck, else as a tuple)."""

    decks: int
    size: int
    bits: int
    cards: tuple[int, ...]


class HeuristicModel:
    """heuristic-v1's play holding some ranks at an earlier total, for the belief: danger
    counted from the cards unseen by the player then, the rest as
    :class:`HeuristicClone` (see the module docstring)."""

    def __init__(self, rules: Rules, decks: int, push: float = PUSH, keep: float = KEEP) -> None:
        self.clone = HeuristicClone(rules, push, keep)
        self.decks = decks

    def choice(
        self,
        ranks: tuple[int, ...],
        total: int,
        public: Counter[int],
        next_size: int,
        partner: bool,
    ) -> tuple[int, int] | None:
        """The rank and new total the bot plays holding ``ranks`` at ``total`` with the
        cards ``public`` face up (None if every play busts); the next seat holds
        ``next_size`` cards and is a partner when ``partner``."""
        cl = self.clone
        c = cl.c
        held = [r * 4 for r in ranks]
        codes = sorted(code for card in held for code in c.moves_of(card, total)[0])
        if not codes:
            return None
        seen = cl.seen(held + list(public.elements()), self.decks)
        best_v, best = -math.inf, codes[0]
        for k in codes:
            new = c.result(k, total)
            d = cl.stuck(seen, new, next_size) if new <= cl.limit else 0.0
            left = held[:]
            left.remove(card_of(k))
            v = cl.push * (-d if partner else d) + cl.keep * sum(cl.values[x] for x in left)
            if v >= best_v:
                best_v, best = v, k
        return rank_of(card_of(best)), c.result(best, total)
