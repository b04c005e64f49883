"""What a play costs: busts, lives and eliminations, thresholds, borders and 69."""

from __future__ import annotations

from ninetynine.engine import events as E
from ninetynine.engine.deal import Dealing
from ninetynine.engine.fields import OVER, EndReason
from ninetynine.engine.tables import crossed_borders, makes_69, milestones
from ninetynine.rules.effects import Effect
from ninetynine.rules.settings import Rule69, Teams


class Penalties(Dealing):
    """The layer of :class:`~ninetynine.engine.state.State` that prices a play: busts, payments
    and eliminations, thresholds, borders and 69."""

    __slots__ = ()

    def _score_play(self, seat: int, eff: Effect, old: int, new: int, bust: bool) -> bool:
        """Borders, thresholds and 69 after a play; returns True if the turn is over."""
        rules, c = self.rules, self.c
        if c.borders:
            self._cross_borders(seat, old, new)
        self._before = self.in_hand[:]
        end_round = False
        if c.online:
            end_round = self._online_scoring(seat, old, new, bust)
            if self.phase == OVER:
                return True
        if eff.reverse:
            self._reverse(seat)
        if bust:
            self._bust(seat, played=True, before=old)
            return True
        if c.sixty_nine and makes_69(rules, old, new):
            self._sixty_nine(seat)
        if end_round:
            self._end_hand(None)
            return True
        return False

    def _bust(self, seat: int, played: bool, before: int = 0) -> None:
        """``seat`` went over by playing a card (``played``, from the total ``before``) or
        could not play."""
        rules, c, ev = self.rules, self.c, self._ev
        self.chain = self.plays_left = 0  # a bust ends any no-draw chain
        if ev is not None:
            ev.append(E.Busted(seat, self.total if played else None))
        if c.game_points:
            if not played:
                self._lose_points(seat, 1, None)
        elif self.alive[seat]:  # not already paid out by a threshold penalty of this play
            self._pay(seat, rules.bust_penalty, "over the limit" if played else "cannot play")
            if self.phase == OVER:
                return
        if c.bust_ends_hand:
            self._end_hand(seat)
            return
        if c.bust_resets_all:
            self._reset_total()
            nxt = self._next_seat(seat, 1)
            if self.in_hand[seat] and rules.draw_after_bust and played:
                self._end_turn(seat, nxt)
            else:
                self.turn = nxt
            return
        if self.in_hand[seat]:
            self.in_hand[seat] = False
            if ev is not None:
                ev.append(E.SatOut(seat))
        if sum(self.in_hand) <= 1:
            self._end_hand(seat)
            return
        if c.bust_resets_others:
            self._reset_total()
        elif c.bust_reverts and played:  # as if the card had not counted (O61)
            self.total = before
            if ev is not None:
                ev.append(E.TotalReset(before, False))
        self.turn = self._next_seat(seat, 1)

    def _reset_total(self) -> None:
        self.total = 0
        clear = self.rules.clear_pile_on_reset
        if clear:
            self.out.extend(self.pile)
            self.pile, self.face_down = [], 0
        if self._ev is not None:
            self._ev.append(E.TotalReset(0, clear))

    def _pay(self, seat: int, amount: int, reason: str, by: int | None = None) -> None:
        """``seat`` loses ``amount`` lives (for ``by``'s play, where another seat made
        it pay); put out every seat of its pool if the rules say so."""
        c = self.c
        pool = seat if c.solo else self.pool(seat)
        have = self.lives[pool]
        cannot_pay = c.out_unpaid and have < amount
        paid = min(have, amount)
        self.lives[pool] = have - paid
        if c.pot:
            self.pot += paid
        if self._ev is not None:
            self._ev.append(E.LifeLost(seat, amount, self.lives[pool], reason, amount - paid, by))
        if cannot_pay or (c.out_at_zero and self.lives[pool] <= 0):
            self._eliminate(pool)

    def _eliminate(self, pool: int) -> None:
        """Put out the seats that spend ``pool``'s lives; the game ends where one side alone
        is left in it (or, with ``first_out``, at once)."""
        c, n, alive = self.c, self.n, self.alive
        for seat in (pool,) if c.solo else range(n):
            if alive[seat] and (c.solo or self.pool(seat) == pool):
                self.alive[seat] = self.in_hand[seat] = False
                if self._ev is not None:
                    self._ev.append(E.PlayerOut(seat))
                self._put_away(seat)
        sides = {s if c.solo else self.side(s) for s in range(n) if alive[s]}
        if c.first_out_ends:  # the rest are ranked by lives
            most = max((self.seat_lives(s) for s in range(self.n) if self.alive[s]), default=0)
            self._game_over(
                tuple(s for s in range(self.n) if self.alive[s] and self.seat_lives(s) == most),
                EndReason.FIRST_OUT,
            )
        elif len(sides) <= 1:
            self._last_side_wins(sides)

    def _put_away(self, seat: int) -> None:
        """The hand of ``seat``, out of the game, where the rules put it: under the pile,
        onto it face up, or kept till the next deal."""
        hand = self.hands[seat]
        if self.c.hand_under_pile:
            self.pile[:0] = hand  # face down: nobody sees them
            self.face_down += len(hand)
            hand.clear()
        elif self.c.hand_face_up:
            if self._ev is not None:
                self._ev.append(E.HandShown(seat, tuple(hand)))
            self.pile += hand  # on top, face up: every seat has seen them (O44)
            hand.clear()

    def _last_side_wins(self, sides: set[int]) -> None:
        """One side (or none) is left in the game: every seat of it wins, those already out
        too (a team wins together, O51)."""
        winners = tuple(s for s in range(self.n) if self.side(s) in sides)
        if not winners:
            reason = EndReason.NO_SURVIVOR
        elif self.rules.teams is Teams.NONE:
            reason = EndReason.LAST_SURVIVOR
        else:
            reason = EndReason.LAST_TEAM
        self._game_over(winners, reason)

    def _lose_points(self, seat: int, amount: int, border: int | None) -> None:
        self.points[seat] -= amount
        if self._ev is not None:
            self._ev.append(E.BorderCrossed(seat, border, self.points[seat]))

    def _cross_borders(self, seat: int, old: int, new: int) -> None:
        for border in crossed_borders(self.rules, old, new):
            self._lose_points(seat, 1, border)

    def _online_scoring(self, seat: int, old: int, new: int, bust: bool) -> bool:
        """Exact 33/66/limit and crossing 33/66; returns whether the round ends."""
        rules = self.rules
        if bust and not rules.milestones_on_bust:
            return False  # a play over the limit pays only for going over (QC)
        others = [(seat + k) % self.n for k in range(1, self.n)]
        for t, made, amount in milestones(rules, old, new):
            # who pays, in paying order: the others for a milestone made exactly, the
            # player for one crossed; the reason is written only for events
            for payer in others if made else (seat,):
                if self.alive[payer] and self.phase != OVER:
                    self._pay(
                        payer,
                        amount,
                        "" if self._ev is None else f"made exactly {t}" if made else f"crossed {t}",
                        seat if made else None,
                    )
        return new == rules.limit and old < new

    def _sixty_nine(self, seat: int) -> None:
        effect, ev = self.rules.rule_69, self._ev
        if ev is not None:
            ev.append(E.SixtyNine(seat, effect.value))
        if effect is Rule69.RESET_TO_ZERO:
            self.total = 0
            if ev is not None:
                ev.append(E.TotalReset(0, False))
        elif effect is Rule69.PENNY_FROM_POOL and self.pot > 0:
            self.pot -= 1
            pool = self.pool(seat)
            self.lives[pool] += 1
            if ev is not None:
                ev.append(E.LifeGained(seat, 1, self.lives[pool], "a penny from the pool for 69"))
        elif effect is Rule69.EXTRA_POINT:
            self.points[seat] += 1
