"""Cards on the move: the end of a turn, draws, reshuffles, the end of a hand and the deal.

Rules questions cited in comments (D46, Q42) are in ``docs/rules.md``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from ninetynine.engine import events as E
from ninetynine.engine.fields import (
    CHANCE,
    DEAL,
    DRAWING,
    LEAD,
    NO_CHANCE,
    PLAY,
    RESTOCK,
    TOPUP,
    UPCARD,
    EndReason,
    StateBase,
)
from ninetynine.rules.cards import new_deck, rank_of
from ninetynine.rules.settings import (
    RULEBOOK_INSTANT,
    BelowZero,
    EmptyDraw,
    InstantOrder,
    InstantRule,
    NewRoundDeal,
    PointsTie,
    StockEmpty,
)


class Dealing(StateBase):
    """The layer of :class:`~ninetynine.engine.state.State` that moves the cards: deals, draws,
    restocks, up-cards, instant hands and the end of a hand."""

    __slots__ = ()

    def _end_turn(self, seat: int, nxt: int) -> None:
        """Draw for the player who just played, then hand the turn to ``nxt``."""
        if self.c.explicit_draw:
            self.phase, self.next_turn = DRAWING, nxt
            return
        if nxt == seat and self.c.draw_later:
            self.owed += 1
            return
        owed, self.owed = self.owed, 0
        self.turn = nxt
        self._draw(seat, 1 + owed)

    def _draw(self, seat: int, count: int) -> None:
        hand, stock, ev = self.hands[seat], self.stock, self._ev
        for i in range(count):
            if not stock:
                self._restock(seat, count - i)
                return
            hand.append(stock.pop())
            if ev is not None:
                ev.append(E.CardDrawn(seat))
        if not stock and count and self.c.eager and len(self.pile) > 1:
            self._restock(seat, 0)
            return
        if self.c.instant_on_draw:
            self._check_instant([seat])

    def _restock(self, seat: int, count: int) -> None:
        """The stock is empty and ``seat`` still needs ``count`` cards."""
        rules, ev = self.rules, self._ev
        mode = rules.stock_empty
        if mode is StockEmpty.NO_DRAW:
            if ev is not None:
                ev.append(E.DrawSkipped(seat, "the stock is empty"))
            return
        keep_top = mode is StockEmpty.RESHUFFLE_KEEP_TOP
        # a pile cleared at a reset (``out``) is played cards too: it comes back here
        cards = (self.pile[:-1] if keep_top else self.pile) + self.out
        if not cards:
            if count == 0:
                return
            fallback = rules.empty_draw
            if fallback is EmptyDraw.END_ROUND:
                self._end_hand(None)
                return
            if fallback is EmptyDraw.SKIP or not (self.pile or self.out):
                if ev is not None:
                    ev.append(E.DrawSkipped(seat, "no cards to reshuffle"))
                return
            cards, keep_top = self.pile + self.out, False
        top = self.pile[-1:] if keep_top else []
        self.stock, self.pile, self.out = sorted(cards), top, []
        self.face_down = 0
        if ev is not None:
            ev.append(E.StockReshuffled(len(cards), keep_top))
        self.phase, self.chance, self.drawer, self.owed = CHANCE, RESTOCK, seat, count

    def _end_hand(self, loser: int | None) -> None:
        """The hand is over: score it, end the game or go on to the next hand. The game's
        end closes its last hand: HandEnded is logged only where another hand follows, as
        where a lost life ends a game (one order of events for every rule set)."""
        rules, c, ev = self.rules, self.c, self._ev
        if c.game_points:
            for s in range(self.n):
                self.scores[s] += (
                    max(self.points[s], 0) if rules.points_floor_zero else self.points[s]
                )
            top = max(self.scores)
            leaders = tuple(s for s in range(self.n) if self.scores[s] == top)
            over = top >= rules.points_target and (
                len(leaders) == 1 or rules.points_tie is PointsTie.SHARED
            )
            if ev is not None:
                if not over:
                    ev.append(E.HandEnded(self.hand_no, loser))
                ev.append(E.HandScored(tuple(self.points), tuple(self.scores)))
            if over:
                self._game_over(leaders, EndReason.POINTS)
                return
        elif ev is not None:
            ev.append(E.HandEnded(self.hand_no, loser))
        self.hand_no += 1
        self.loser = -1 if loser is None else loser
        if c.random_lead:
            self.phase, self.chance = CHANCE, LEAD
            return
        self.dealer, self.starter = self._next_dealer(loser)
        self._redeal()

    def _quick_end(self, seat: int, order: list[int] | None) -> None:
        """``seat`` went over or could not play and pays (keeping a life), and the next
        hand is dealt: from ``order``, the whole pack shuffled, where the rules gather
        every card (else None, and as _redeal deals): what _bust, _end_hand, _redeal and
        the deal's chance do where ``RuleTables.quick_end`` says that is all (a random
        playout's most common end of a hand). A test plays every preset both ways."""
        penalty = self.rules.bust_penalty
        self.lives[seat] -= penalty
        if self.c.pot:
            self.pot += penalty
        self.hand_no += 1
        self.loser = seat
        self.dealer, self.starter = self._next_dealer(seat)
        if order is None:
            self._redeal()
            return
        self._clear_hand()
        self._gather(order)
        self._deal()

    def _next_dealer(self, loser: int | None) -> tuple[int, int]:
        """The next hand's dealer and the seat that leads it, after a hand that ``loser``
        lost (None: nobody)."""
        c = self.c
        if c.left_of_dealer and self.rules.dealer:
            dealer = self._next_alive(self.dealer)
            return dealer, self._next_alive(dealer)
        if c.left_of_dealer:  # no deal to follow: the next opener
            leader = self._next_alive(self.starter)
        elif c.left_of_loser:
            leader = self._next_alive(self.starter if loser is None else loser)
        elif loser is None:  # no loser (a round ended by the stock): the deal passes left
            leader = self._next_alive(self.starter)
        else:  # the loser leads; if out, the next seat still in (BGA's "following player")
            leader = loser if self.alive[loser] else self._next_alive(loser)
        return self._next_alive(leader, -1), leader

    def _lead(self, leader: int) -> None:
        """``leader`` starts the new hand; the dealer sits before it."""
        self.starter, self.dealer = leader, self._next_alive(leader, -1)
        self._redeal()

    def _clear_hand(self) -> None:
        """The fields a new hand starts afresh."""
        c, n = self.c, self.n
        if c.direction_resets:
            self.direction = 1
        self.in_hand = self.alive[:]
        if c.ban_by_hand:
            self.turns_played = [0] * n
        self.points = [self.rules.points_per_hand] * n
        self.owed = self.passes = self.chain = self.plays_left = 0
        self.may_decline, self.challenger = False, -1

    def _redeal(self) -> None:
        """Set up the next hand and deal it (or ask chance for the shuffle)."""
        rules, c, ev = self.rules, self.c, self._ev
        self._clear_hand()
        alive = self.alive
        decks = rules.decks_for(sum(alive)) if c.decks_each_hand else self.decks
        if c.full_reshuffle or decks != self.decks:
            self.decks = decks
            self._gather(new_deck(decks, rules.jokers))
            return
        need = rules.hand_size * sum(alive) + c.upcard
        old_hands = [c for hand in self.hands for c in hand]
        self.hands = [[] for _ in range(self.n)]
        self.pile[:0] = old_hands  # face down under the discards
        self.face_down += len(old_hands)
        if len(self.stock) >= need:
            self._deal()
        elif rules.new_round_deal is NewRoundDeal.FROM_STOCK:
            self._gather(sorted(self.all_cards()))
        else:
            if ev is not None:
                ev.append(E.StockReshuffled(len(self.pile) - 1, True))
            self.phase, self.chance = CHANCE, TOPUP

    def _gather(self, cards: list[int]) -> None:
        """Collect every card (``cards``, sorted) for a full shuffle before the deal."""
        self.hands = [[] for _ in range(self.n)]
        self.stock, self.pile, self.out = cards, [], []
        self.face_down = 0
        self.phase, self.chance = CHANCE, DEAL

    def _deal(self) -> None:
        rules, ev = self.rules, self._ev
        self.total, self.phase, self.chance = 0, PLAY, NO_CHANCE
        if self.known:  # new hands: nobody knows another's cards
            self.known = [[] for _ in self.known]
        if ev is not None:
            ev.append(E.HandStarted(self.hand_no, self.dealer, self.starter))
        n, alive, hands, stock, starter = self.n, self.alive, self.hands, self.stock, self.starter
        seats = [s % n for s in range(starter, starter + n) if alive[s % n]]
        # a card at a time round the table from the top (the end of the list): the j-th
        # seat's cards are every m-th of the dealt cards, top first (a deal's hands are empty)
        m = len(seats)
        dealt = len(stock) - rules.hand_size * m
        top = stock[dealt:]
        top.reverse()
        del stock[dealt:]
        for j, s in enumerate(seats):
            hands[s] = top[j::m]
        if ev is not None:
            ev.extend(E.Dealt(s, rules.hand_size) for s in seats)
        self.turn = starter
        if self.c.upcard:
            self._turn_upcard()
        elif rules.instant_hands:
            self._check_instant(seats)

    def _turn_upcard(self) -> None:
        stock, special = self.stock, self.rules.upcard_special
        # with no ordinary card left to turn (tiny decks only) the count starts at 0
        if any(rank_of(c) not in special for c in stock):
            card = stock.pop()
            if rank_of(card) in special:
                self.held, self.phase, self.chance = card, CHANCE, UPCARD
                if self._ev is not None:
                    self._ev.append(E.UpCardReturned(card))
                return
            self.pile.append(card)
            total = self.c.new_total(card, 0, 0)  # what the card counts, from 0
            if self.rules.below_zero is not BelowZero.ALLOW:
                total = max(total, 0)  # a house rule's minus card turned up starts at 0
            self.total = min(total, self.rules.limit)
            if self._ev is not None:
                self._ev.append(E.UpCardTurned(card, self.total))
        self.phase, self.chance = PLAY, NO_CHANCE
        if self.rules.instant_hands:
            self._check_instant([(self.starter + k) % self.n for k in range(self.n)])

    def _check_instant(self, seats: Sequence[int]) -> None:
        """The rules' instant hands (D46): the first of their list that a seat holds
        counts for it; the list's order (or the first seat, Q42 Alt) says which decides."""
        kinds = self.rules.instant_hands
        found: list[tuple[int, InstantRule]] = []
        for s in seats:
            if self.alive[s]:
                ranks = Counter(rank_of(c) for c in self.hands[s])
                held = next((h for h in kinds if ranks[h.rank] >= h.count), None)
                if held is not None:
                    found.append((s, held))
        if not found:
            return
        if self.rules.instant_order is InstantOrder.SEAT_ORDER:
            found = found[:1]
        if self._ev is not None:
            for s, held in found:
                cards = tuple(c for c in self.hands[s] if rank_of(c) == held.rank)
                self._ev.append(E.InstantHand(s, held.name, cards))
        first = min((held for _, held in found), key=kinds.index)
        if first.wins:
            self._game_over(tuple(s for s, held in found if held == first), _end_reason(first))
        else:
            self._game_over((), _end_reason(first))


def _end_reason(hand: InstantRule) -> EndReason:
    """The rulebook's two instant hands keep their names; others are a win or a loss."""
    if hand == RULEBOOK_INSTANT[0]:
        return EndReason.THREE_SIXES
    if hand == RULEBOOK_INSTANT[1]:
        return EndReason.THREE_KINGS
    return EndReason.INSTANT_WIN if hand.wins else EndReason.INSTANT_LOSS
