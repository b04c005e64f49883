"""The game state and the engine that moves it.

One mutable :class:`State` holds everything needed to continue a game. It moves in
two ways: the checked API (:meth:`State.apply`, typed errors, returns the events) and
the unchecked fast path for bots and simulation (:meth:`State.legal_codes` and
:meth:`State.apply_code`, plain integers, no events). Both run the same transition
code, so they cannot disagree. :func:`ninetynine.game.step` gives the immutable view.

Seats are numbered from 0 clockwise. Cards are ints (see :mod:`ninetynine.cards`). The
stock is stored with its top card *last*; the pile with its top card last.

An action code is ``card * 4 + choice`` for a play (choice indexes the rank's values),
or one of :data:`DOWN`, :data:`PASS`, :data:`DRAW`, :data:`NODRAW`, so sorted codes
are sorted actions.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

from ninetynine import events as E
from ninetynine.actions import Action, ActionKind, ChanceOutcome, Reinsert, Shuffle
from ninetynine.cards import KING, SIX, format_card, format_cards, new_deck
from ninetynine.effects import Effect, Kind, display_order, resolve
from ninetynine.errors import (
    CardNotInHandError,
    ChoiceRequiredError,
    GameOverError,
    IllegalActionError,
    NotYourTurnError,
    OverLimitError,
    RecordError,
)
from ninetynine.rules import (
    AfterBust,
    BelowZero,
    Direction,
    Draw,
    Elimination,
    EmptyDraw,
    ForcedCard,
    InstantCheck,
    InstantOrder,
    NewRoundDeal,
    NoLegalPlay,
    OnlineCross,
    Pot,
    Restock,
    Rule69,
    Rule69From,
    Rules,
    Scope,
    Scoring,
    SkipCounts,
    Starter,
    StartTotal,
    StockEmpty,
    Stuck,
    Thresholds,
    TwoPlayerReverse,
)

if TYPE_CHECKING:
    from ninetynine.view import View

DOWN, PASS, DRAW, NODRAW = 1000, 1001, 1002, 1003
_SPECIAL = {DOWN: ActionKind.DOWN, PASS: ActionKind.PASS, DRAW: ActionKind.DRAW,
            NODRAW: ActionKind.NODRAW}
_CODE_OF_KIND = {kind: code for code, kind in _SPECIAL.items()}

# Phases
PLAY, DRAWING, CHANCE, OVER = "play", "draw", "chance", "over"
# Chance kinds
DEAL, RESTOCK, TOPUP, UPCARD = "deal", "restock", "topup", "upcard"


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended: the winning seats (none when everyone loses) and why."""

    winners: tuple[int, ...]
    reason: str


@dataclass(frozen=True, slots=True)
class ChanceRequest:
    """What chance must decide now: a shuffle of ``cards``, or an insert depth in a range."""

    kind: str
    cards: tuple[int, ...] = ()
    depths: range = range(0)


class _Compiled:
    """Per-rules lookup tables for the hot path."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.effects: tuple[Effect, ...] = rules.cards
        self.limit = rules.limit
        self.moves: dict[tuple[int, int], tuple[tuple[int, int, bool], ...]] = {}
        self.floor_blocked: set[tuple[int, int]] = set()
        self.king_ban = rules.king_ban_turns if rules.king_is_banned_card else 0
        self.scoring_on_play = (rules.thresholds is not Thresholds.NONE
                                or rules.rule_69 is not Rule69.NONE)
        self.instant_on_draw = rules.instant_hands and \
            rules.instant_check is InstantCheck.DEAL_AND_DRAW
        self.eager = rules.restock is Restock.EAGER and rules.stock_empty is not StockEmpty.NO_DRAW
        self.explicit_draw = rules.draw is Draw.EXPLICIT
        self.draw_later = rules.two_player_reverse is TwoPlayerReverse.PLAY_AGAIN_DRAW_LATER
        # (total * 64 + card) -> (safe codes, busting codes); (total * 256 + code) -> new total
        self.card_moves: dict[int, tuple[tuple[int, ...], tuple[int, ...]]] = {}
        self.after: dict[int, int] = {}

    def moves_of(self, card: int, total: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The safe and the busting action codes of one card at a total."""
        key = total * 64 + card
        found = self.card_moves.get(key)
        if found is None:
            opts = self.options(card >> 2, total)
            found = self.card_moves[key] = (
                tuple(card * 4 + ch for ch, _, busts in opts if not busts),
                tuple(card * 4 + ch for ch, _, busts in opts if busts))
        return found

    def result(self, code: int, total: int) -> int:
        """The total after playing action ``code`` at ``total`` (floor policy applied)."""
        key = total * 256 + code
        found = self.after.get(key)
        if found is None:
            eff = self.effects[code >> 4]
            found = resolve(eff, total, code & 3, self.limit)
            if found < 0 and found < total and self.rules.below_zero is BelowZero.CLAMP:
                found = 0
            self.after[key] = found
        return found

    def options(self, rank: int, total: int) -> tuple[tuple[int, int, bool], ...]:
        """(choice, new total, busts) for each allowed choice of a rank at a total."""
        key = (rank, total)
        found = self.moves.get(key)
        if found is None:
            eff, out = self.effects[rank], []
            for choice in range(len(eff.values) if eff.kind is Kind.ADD else 1):
                new = resolve(eff, total, choice, self.limit)
                if new < 0 and new < total:
                    if self.rules.below_zero is BelowZero.ILLEGAL:
                        self.floor_blocked.add(key)
                        continue
                    if self.rules.below_zero is BelowZero.CLAMP:
                        new = 0
                out.append((choice, new, new > self.limit))
            found = self.moves[key] = tuple(out)
        return found


@cache
def compiled(rules: Rules) -> _Compiled:
    return _Compiled(rules)


class State:
    """Everything needed to continue a game. Use :func:`ninetynine.game.new_game`."""

    __slots__ = (
        "rules", "c", "n", "hands", "stock", "pile", "out", "total", "direction", "turn",
        "dealer", "starter", "lives", "alive", "in_hand", "turns_played", "points", "scores",
        "pot", "hand_no", "phase", "chance", "drawer", "owed", "next_turn", "held", "loser",
        "passes", "decks", "face_down", "outcome", "_ev", "_before",
    )

    rules: Rules
    c: _Compiled
    n: int
    hands: list[list[int]]
    stock: list[int]
    pile: list[int]
    out: list[int]
    total: int
    direction: int
    turn: int
    dealer: int
    starter: int
    lives: list[int]
    alive: list[bool]
    in_hand: list[bool]
    turns_played: list[int]
    points: list[int]
    scores: list[int]
    pot: int
    hand_no: int
    phase: str
    chance: str
    drawer: int
    owed: int
    next_turn: int
    held: int
    loser: int
    passes: int
    decks: int
    face_down: int  # cards at the bottom of the pile that nobody saw (old hands)
    outcome: Outcome | None
    _ev: list[E.Event] | None
    _before: list[bool]  # who was in the hand before the play's penalties (for skips)

    # Queries ---------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    @property
    def is_chance(self) -> bool:
        return self.phase == CHANCE

    @property
    def current_seat(self) -> int | None:
        """The seat to act, or None at a chance node or after the game."""
        return self.turn if self.phase in (PLAY, DRAWING) else None

    def side(self, seat: int) -> int:
        """Whose lives a seat spends: its own, or its team's (seats 0 & 2, 1 & 3)."""
        return seat % 2 if self.rules.teams else seat

    def seat_lives(self, seat: int) -> int:
        return self.lives[self.side(seat)]

    def clone(self) -> State:
        new = State.__new__(State)
        for name in State.__slots__:
            setattr(new, name, getattr(self, name))
        new.hands = [h[:] for h in self.hands]
        for name in ("stock", "pile", "out", "lives", "alive", "in_hand", "turns_played",
                     "points", "scores"):
            setattr(new, name, getattr(self, name)[:])
        new._ev = None
        return new

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return all(getattr(self, s) == getattr(other, s) for s in State.__slots__
                   if s not in ("c", "_ev", "_before"))

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (f"<State {self.rules.id} {self.phase} total={self.total} turn={self.turn + 1} "
                f"hands={[format_cards(h) for h in self.hands]}>")

    def all_cards(self) -> list[int]:
        """Every card in the game, wherever it is (for conservation checks)."""
        cards = [c for h in self.hands for c in h] + self.stock + self.pile + self.out
        return cards + ([self.held] if self.held >= 0 else [])

    def observe(self, seat: int) -> View:
        from ninetynine.view import observe
        return observe(self, seat)

    # Chance ------------------------------------------------------------------------

    def chance_request(self) -> ChanceRequest | None:
        if self.phase != CHANCE:
            return None
        if self.chance == UPCARD:
            # the middle third (Q40), but never above the next ordinary card, so that
            # turning up always ends (each return puts one special card below it)
            stock, special = self.stock, self.rules.upcard_special
            size = len(stock)
            above = next((i for i, c in enumerate(reversed(stock)) if (c >> 2) not in special),
                         size - 1)
            low = max(-(-size // 3), above + 1)
            return ChanceRequest(UPCARD, depths=range(low, max(low, 2 * size // 3) + 1))
        cards = self.pile[:-1] if self.chance == TOPUP else self.stock
        return ChanceRequest(self.chance, cards=tuple(sorted(cards)))

    def sample_chance(self, rng: random.Random) -> ChanceOutcome:
        """Draw the pending chance outcome with the caller's generator."""
        req = self.chance_request()
        if req is None:
            raise IllegalActionError("no chance event is pending: it is a player's turn")
        if req.kind == UPCARD:
            return Reinsert(rng.choice(req.depths))
        rnd = rng.random  # sorting by random keys: a uniform shuffle, cheaper than rng.shuffle
        return Shuffle(tuple(sorted(req.cards, key=lambda _card: rnd())))

    def apply_chance(self, outcome: ChanceOutcome) -> None:
        """Apply a chance outcome after checking that it fits the request."""
        req = self.chance_request()
        if req is None:
            raise NotYourTurnError(f"'{outcome}' is a chance outcome, but it is "
                                   f"{'over' if self.is_over else f'P{self.turn + 1} to play'}")
        if req.kind == UPCARD:
            if not isinstance(outcome, Reinsert) or outcome.depth not in req.depths:
                raise IllegalActionError(f"'{outcome}' does not fit: expected 'insert N' with N "
                                         f"from {req.depths.start} to {req.depths.stop - 1}")
        elif not isinstance(outcome, Shuffle) or sorted(outcome.order) != list(req.cards):
            raise IllegalActionError(f"'{str(outcome)[:40]}...' does not fit: expected 'shuffle' "
                                     f"and an order of exactly these {len(req.cards)} cards: "
                                     f"{format_cards(req.cards)}")
        self._apply_chance(outcome)

    def _apply_chance(self, outcome: ChanceOutcome) -> None:
        kind = self.chance
        if kind == UPCARD:
            assert isinstance(outcome, Reinsert)
            self.stock.insert(len(self.stock) - outcome.depth, self.held)
            self.held = -1
            self._turn_upcard()
            return
        assert isinstance(outcome, Shuffle)
        order = list(reversed(outcome.order))
        if self._ev is not None:
            self._ev.append(E.Shuffled(len(order), kind))
        if kind == TOPUP:
            self.pile[:-1] = []
            self.face_down = 0
            self.stock[:0] = order
            self._deal()
        elif kind == DEAL:
            self.stock = order
            self._deal()
        else:
            self.stock = order
            self.phase, self.chance = PLAY, ""
            drawer, owed = self.drawer, self.owed
            self.drawer, self.owed = -1, 0
            self._draw(drawer, owed)

    # Legal actions -----------------------------------------------------------------

    def legal_codes(self) -> list[int]:
        """Sorted codes of the legal actions of the seat to act ([] at chance or over)."""
        if self.phase != PLAY:
            return [DRAW, NODRAW] if self.phase == DRAWING else []
        c, seat = self.c, self.turn
        hand = self.hands[seat]
        if not hand:
            return [PASS] if self.rules.stuck is Stuck.PASS else [DOWN]
        total, moves, moves_of = self.total, c.card_moves, c.moves_of
        banned = c.king_ban and self.turns_played[seat] < c.king_ban and (
            self.rules.king_ban_at_limit or total != c.limit)
        safe: list[int] = []
        busting: list[int] = []
        base = total * 64
        for card in sorted(set(hand)) if len(hand) > 1 else hand:
            if banned and card >> 2 == KING:
                continue
            found = moves.get(base + card) or moves_of(card, total)
            safe += found[0]
            if found[1]:
                busting += found[1]
        if self.rules.may_bust:
            if safe or busting:
                return sorted(safe + busting) if safe and busting else safe or busting
        elif safe:
            return safe
        elif busting:
            if self.rules.no_legal_play is NoLegalPlay.LAY_DOWN:
                return [DOWN]
            return busting[:1] if self.rules.forced_card is ForcedCard.AUTO else busting
        return [PASS] if self.rules.stuck is Stuck.PASS else [DOWN]

    def legal_actions(self) -> list[Action]:
        return [self.action_of(code) for code in self.legal_codes()]

    def action_of(self, code: int) -> Action:
        if code in _SPECIAL:
            return Action(_SPECIAL[code])
        card, choice = code >> 2, code & 3
        eff = self.c.effects[card >> 2]
        return Action.play(card, eff.values[choice] if eff.has_choice else None)

    def code_of(self, action: Action) -> int:
        """The code of an action, checking that its value fits the card (not legality)."""
        if action.kind is not ActionKind.PLAY:
            return _CODE_OF_KIND[action.kind]
        assert action.card is not None
        eff = self.c.effects[action.card >> 2]
        name = format_card(action.card)
        if eff.has_choice:
            if action.value is None:
                raise ChoiceRequiredError(f"{name} needs a value: " + " or ".join(
                    f"{name}{v:+d}" for v in display_order(eff.values)))
            if action.value not in eff.values:
                raise IllegalActionError(f"{name} cannot count {action.value:+d}: choose " +
                                         " or ".join(f"{v:+d}" for v in display_order(eff.values)))
            return action.card * 4 + eff.values.index(action.value)
        if action.value is not None and (eff.kind is not Kind.ADD or action.value != eff.values[0]):
            raise IllegalActionError(f"{name} has no choice of value: play it as {name}")
        return action.card * 4

    # Applying actions --------------------------------------------------------------

    def apply(self, action: Action | ChanceOutcome, seat: int | None = None) -> list[E.Event]:
        """Check and apply an action (or chance outcome); return the events it caused.

        ``seat``, when given, is who is acting: it must be the seat to play.
        """
        events: list[E.Event] = []
        self._ev = events
        try:
            if isinstance(action, (Shuffle, Reinsert)):
                self.apply_chance(action)
            else:
                self.apply_code(self._check(action, seat))
        finally:
            self._ev = None
        return events

    def _check(self, action: Action, seat: int | None) -> int:
        if self.phase == OVER:
            raise GameOverError(f"the game is over; '{action}' cannot be played")
        if self.phase == CHANCE:
            raise NotYourTurnError(f"'{action}' cannot be played now: the {self.chance} "
                                   "shuffle must be decided first")
        if seat is not None and seat != self.turn:
            raise NotYourTurnError(f"it is P{self.turn + 1}'s turn, not P{seat + 1}'s")
        code = self.code_of(action)
        legal = self.legal_codes()
        if code in legal:
            return code
        shown = ", ".join(str(self.action_of(c)) for c in legal)
        if action.kind is ActionKind.PLAY:
            assert action.card is not None
            if action.card not in self.hands[self.turn]:
                raise CardNotInHandError(f"{format_card(action.card)} is not in P{self.turn + 1}'s "
                                         f"hand ({format_cards(self.hands[self.turn])})")
            if (action.card >> 2) == KING and self.c.king_ban and \
                    self.turns_played[self.turn] < self.c.king_ban:
                raise IllegalActionError(f"no King to {self.c.limit} in your first "
                                         f"{self.c.king_ban} turns; legal: {shown}")
            for choice, new, busts in self.c.options(action.card >> 2, self.total):
                if choice == code & 3 and busts:
                    raise OverLimitError(f"'{action}' would make {new}, over {self.c.limit}; "
                                         f"legal: {shown}")
            raise IllegalActionError(f"'{action}' would take the total below 0; legal: {shown}")
        raise IllegalActionError(f"'{action}' is not allowed now; legal: {shown}")

    def apply_code(self, code: int) -> None:
        """Apply a legal action code without checking it (the fast path)."""
        if code >= DOWN:
            self._special(code)
        else:
            self._play(self.turn, code >> 2, code & 3)

    # Transitions -------------------------------------------------------------------

    def _special(self, code: int) -> None:
        seat, ev = self.turn, self._ev
        if code == DOWN:
            if ev is not None:
                ev.append(E.LaidDown(seat))
            self._bust(seat, played=False)
        elif code == PASS:
            if ev is not None:
                ev.append(E.Passed(seat))
            self.passes += 1
            if self.passes >= sum(self.in_hand):
                self._end_hand(None)
            else:
                self.turn = self._next_seat(seat, 1)
        elif code == DRAW:
            self.phase, self.turn = PLAY, self.next_turn
            owed, self.owed = self.owed, 0  # before drawing: a restock records what is owed
            self._draw(seat, 1 + owed)
        else:
            if ev is not None:
                ev.append(E.DrawSkipped(seat, "did not draw"))
            self.phase, self.turn, self.owed = PLAY, self.next_turn, 0

    def _play(self, seat: int, card: int, choice: int) -> None:
        c, rules, ev = self.c, self.rules, self._ev
        self.hands[seat].remove(card)
        self.pile.append(card)
        self.turns_played[seat] += 1
        self.passes = 0
        rank = card >> 2
        eff = c.effects[rank]
        old = self.total
        code = card * 4 + choice
        new = self.total = c.after.get(old * 256 + code) or c.result(code, old)
        bust = new > c.limit
        if ev is not None:
            ev.append(E.CardPlayed(seat, card, eff.values[choice] if eff.has_choice else None,
                                   old, new))
            text = (rules.bust_call if bust else rules.calls[rank]).format(total=new)
            ev.append(E.TotalCalled(seat, new, text))
        if c.scoring_on_play:  # reverses after the play's penalties (Q18, Q47)
            if self._score_play(seat, eff, old, new, bust):
                return
        else:
            if eff.reverse:
                self._reverse(seat)
            if bust:
                self._bust(seat, played=True)
                return
        if eff.reverse and rules.two_player_reverse is not TwoPlayerReverse.HOLD \
                and sum(self.in_hand) == 2 and self.in_hand[seat]:
            if ev is not None:
                ev.append(E.PlaysAgain(seat))
            nxt = seat
        elif eff.skip:
            nxt = self._skip_from(seat, self._before if c.scoring_on_play else self.in_hand)
        else:
            nxt = (seat + self.direction) % self.n
            if not self.in_hand[nxt]:
                nxt = self._next_seat(nxt, 1)
        if self.in_hand[seat]:
            self._end_turn(seat, nxt)
        else:  # paid out of the game by a threshold penalty: no draw
            self.turn = nxt

    def _score_play(self, seat: int, eff: Effect, old: int, new: int, bust: bool) -> bool:
        """Borders, thresholds and 69 after a play; returns True if the turn is over."""
        rules = self.rules
        if rules.thresholds is Thresholds.BORDERS:
            self._cross_borders(seat, old, new)
        self._before = self.in_hand[:]
        end_round = False
        if rules.thresholds is Thresholds.ONLINE:
            end_round = self._online_scoring(seat, old, new)
            if self.phase == OVER:
                return True
        if eff.reverse:
            self._reverse(seat)
        if bust:
            self._bust(seat, played=True)
            return True
        if rules.rule_69 is not Rule69.NONE and new == 69 and old != 69 and (
                rules.rule_69_from is Rule69From.ANY or old < 69):
            self._sixty_nine(seat)
        if end_round:
            self._end_hand(None)
            return True
        return False

    def _reverse(self, seat: int) -> None:
        """A reverse card: flip the direction (unless the rules keep it with two players)."""
        if not self.rules.reverse_with_two_players and sum(self.in_hand) <= 2:
            return
        self.direction = -self.direction
        if self._ev is not None:
            self._ev.append(E.Reversed(seat, "cw" if self.direction == 1 else "ccw"))

    def _skip_from(self, seat: int, before: list[bool]) -> int:
        """The seat after skipping one; ``before`` is who was in the hand before the play."""
        if self.rules.skip_counts is SkipCounts.BEFORE_ELIMINATIONS:
            now, self.in_hand = self.in_hand, before
            skipped = self._next_seat(seat, 1)
            self.in_hand = now
            if not now[skipped]:  # the eliminated seat absorbs the skip
                return self._next_seat(skipped, 1)
        else:
            skipped = self._next_seat(seat, 1)
        if self._ev is not None:
            self._ev.append(E.Skipped(skipped))
        return self._next_seat(skipped, 1)

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

    def _next_seat(self, seat: int, steps: int) -> int:
        n, d, in_hand = self.n, self.direction, self.in_hand
        for _ in range(steps):
            for _ in range(n):
                seat = (seat + d) % n
                if in_hand[seat]:
                    break
        return seat

    # Drawing -----------------------------------------------------------------------

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
        cards = self.pile[:-1] if keep_top else self.pile + self.out
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
        self.stock, self.pile, self.out = sorted(cards), top, [] if not keep_top else self.out
        self.face_down = 0
        if ev is not None:
            ev.append(E.StockReshuffled(len(cards), keep_top))
        self.phase, self.chance, self.drawer, self.owed = CHANCE, RESTOCK, seat, count

    # Busts, payments and eliminations ------------------------------------------------

    def _bust(self, seat: int, played: bool) -> None:
        """``seat`` went over by playing a card (``played``) or could not play."""
        rules, ev = self.rules, self._ev
        if ev is not None:
            ev.append(E.Busted(seat, self.total if played else None))
        if rules.scoring is Scoring.GAME_POINTS:
            if not played:
                self._lose_points(seat, 1, rules.limit)
        elif self.alive[seat]:  # not already paid out by a threshold penalty of this play
            self._pay(seat, rules.bust_penalty, "over the limit" if played else "cannot play")
            if self.phase == OVER:
                return
        after = rules.after_bust
        if after is AfterBust.END_HAND:
            self._end_hand(seat)
            return
        if after is AfterBust.RESET_ALL:
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
        if after is AfterBust.RESET_OTHERS:
            self._reset_total()
        self.turn = self._next_seat(seat, 1)

    def _reset_total(self) -> None:
        self.total = 0
        clear = self.rules.clear_pile_on_reset
        if clear:
            self.out.extend(self.pile)
            self.pile, self.face_down = [], 0
        if self._ev is not None:
            self._ev.append(E.TotalReset(0, clear))

    def _pay(self, seat: int, amount: int, reason: str) -> None:
        """``seat`` loses ``amount`` lives; eliminate its side if the rules say so."""
        rules, side = self.rules, self.side(seat)
        have = self.lives[side]
        cannot_pay = rules.elimination is Elimination.CANNOT_PAY and have < amount
        paid = min(have, amount)
        self.lives[side] = have - paid
        if rules.pot is not Pot.NONE:
            self.pot += paid
        if self._ev is not None:
            self._ev.append(E.LifeLost(seat, amount, self.lives[side], reason))
        if cannot_pay or (rules.elimination is Elimination.AT_ZERO and self.lives[side] <= 0):
            self._eliminate(side)

    def _eliminate(self, side: int) -> None:
        for seat in range(self.n):
            if self.side(seat) == side and self.alive[seat]:
                self.alive[seat] = self.in_hand[seat] = False
                if self._ev is not None:
                    self._ev.append(E.PlayerOut(seat))
        sides = {self.side(s) for s in range(self.n) if self.alive[s]}
        if len(sides) <= 1:
            winners = tuple(s for s in range(self.n) if self.alive[s])
            reason = "last_team" if self.rules.teams else "last_survivor"
            self._game_over(winners, reason if winners else "no_survivor")

    def _lose_points(self, seat: int, amount: int, border: int) -> None:
        self.points[seat] -= amount
        if self._ev is not None:
            self._ev.append(E.BorderCrossed(seat, border, self.points[seat]))

    def _cross_borders(self, seat: int, old: int, new: int) -> None:
        low, high = min(old, new), max(old, new)
        for border in self.rules.border_values:
            if low <= border < high:
                self._lose_points(seat, 1, border)

    def _online_scoring(self, seat: int, old: int, new: int) -> bool:
        """Exact 33/66/limit and crossing 33/66; returns whether the round ends."""
        rules = self.rules
        dues: list[tuple[int, int, str]] = []  # (seat, amount, reason), in paying order
        others = [(seat + k) % self.n for k in range(1, self.n)]
        if new == rules.limit and old < new:
            dues = [(s, 2, f"P{seat + 1} made exactly {new}") for s in others]
        for t in rules.threshold_values:
            if new == t and old < t:
                dues += [(s, 1, f"P{seat + 1} made exactly {t}") for s in others]
            elif old < t < new or (rules.online_cross is OnlineCross.LEAVE and old == t < new):
                dues.append((seat, 1, f"crossed {t}"))
        for payer, amount, reason in dues:
            if self.alive[payer] and self.phase != OVER:
                self._pay(payer, amount, reason)
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
            side = self.side(seat)
            self.lives[side] += 1
            if ev is not None:
                ev.append(E.LifeGained(seat, 1, self.lives[side], "a penny from the pool for 69"))
        elif effect is Rule69.EXTRA_POINT:
            self.points[seat] += 1

    def _game_over(self, winners: tuple[int, ...], reason: str) -> None:
        self.phase, self.outcome = OVER, Outcome(winners, reason)
        rules = self.rules
        collects = 0
        if winners:
            collects = rules.stake * self.n + (self.pot if rules.pot is Pot.WINNER_TAKES_ALL else 0)
        if self._ev is not None:
            self._ev.append(E.GameOver(winners, reason, collects))

    # Hands ---------------------------------------------------------------------------

    def _end_hand(self, loser: int | None) -> None:
        rules, ev = self.rules, self._ev
        if ev is not None:
            ev.append(E.HandEnded(self.hand_no, loser))
        if rules.scoring is Scoring.GAME_POINTS:
            for s in range(self.n):
                self.scores[s] += max(self.points[s], 0) if rules.points_floor_zero \
                    else self.points[s]
            if ev is not None:
                ev.append(E.HandScored(tuple(self.points), tuple(self.scores)))
            top = max(self.scores)
            if top >= rules.points_target:
                leaders = tuple(s for s in range(self.n) if self.scores[s] == top)
                if len(leaders) == 1 or rules.points_tie.value == "shared":
                    self._game_over(leaders, "points")
                    return
        self.hand_no += 1
        self.loser = -1 if loser is None else loser
        n, alive = self.n, self.alive
        if rules.starter is Starter.LEFT_OF_LOSER:
            self.starter = self._next_alive(self.starter if loser is None else loser)
            self.dealer = self._next_alive(self.starter, -1)
        else:
            self.dealer = self._next_alive(self.dealer)
            self.starter = self._next_alive(self.dealer)
        if rules.direction is Direction.RESET:
            self.direction = 1
        self.in_hand = alive[:]
        if rules.king_ban_scope is Scope.HAND:
            self.turns_played = [0] * n
        self.points = [rules.points_per_hand] * n
        self.owed = self.passes = 0
        decks = rules.decks_for(sum(alive)) if rules.deck_count.value == "each_hand" else self.decks
        need = rules.hand_size * sum(alive) + (rules.start_total is StartTotal.UPCARD)
        if rules.new_round_deal is NewRoundDeal.FULL_RESHUFFLE or decks != self.decks:
            self.decks = decks
            self._gather(new_deck(decks))
            return
        old_hands = [c for hand in self.hands for c in hand]
        self.hands = [[] for _ in range(n)]
        self.pile[:0] = old_hands  # face down under the discards
        self.face_down += len(old_hands)
        if len(self.stock) >= need:
            self._deal()
        elif rules.new_round_deal is NewRoundDeal.FROM_STOCK:
            self._gather(self.all_cards())
        else:
            if ev is not None:
                ev.append(E.StockReshuffled(len(self.pile) - 1, True))
            self.phase, self.chance = CHANCE, TOPUP

    def _next_alive(self, seat: int, d: int = 1) -> int:
        for _ in range(self.n):
            seat = (seat + d) % self.n
            if self.alive[seat]:
                return seat
        return seat

    def _gather(self, cards: list[int]) -> None:
        """Collect every card for a full shuffle before the deal."""
        self.hands = [[] for _ in range(self.n)]
        self.stock, self.pile, self.out = sorted(cards), [], []
        self.face_down = 0
        self.phase, self.chance = CHANCE, DEAL

    def _deal(self) -> None:
        rules, ev = self.rules, self._ev
        self.total, self.phase, self.chance = 0, PLAY, ""
        if ev is not None:
            ev.append(E.HandStarted(self.hand_no, self.dealer, self.starter))
        seats = [(self.starter + k) % self.n for k in range(self.n)]
        seats = [s for s in seats if self.alive[s]]
        stock = self.stock
        for _ in range(rules.hand_size):
            for s in seats:
                self.hands[s].append(stock.pop())
        if ev is not None:
            ev.extend(E.Dealt(s, rules.hand_size) for s in seats)
        self.turn = self.starter
        if rules.start_total is StartTotal.UPCARD:
            self._turn_upcard()
        elif rules.instant_hands:
            self._check_instant(seats)

    def _turn_upcard(self) -> None:
        stock, special = self.stock, self.rules.upcard_special
        # with no ordinary card left to turn (tiny decks only) the count starts at 0
        if any((c >> 2) not in special for c in stock):
            card = stock.pop()
            if (card >> 2) in special:
                self.held, self.phase, self.chance = card, CHANCE, UPCARD
                if self._ev is not None:
                    self._ev.append(E.UpCardReturned(card))
                return
            self.pile.append(card)
            self.total = min((card >> 2) + 1, 10)
            if self._ev is not None:
                self._ev.append(E.UpCardTurned(card, self.total))
        self.phase, self.chance = PLAY, ""
        if self.rules.instant_hands:
            self._check_instant([(self.starter + k) % self.n for k in range(self.n)])

    def _check_instant(self, seats: Sequence[int]) -> None:
        found: list[tuple[int, str]] = []
        for s in seats:
            if self.alive[s]:
                ranks = [c >> 2 for c in self.hands[s]]
                if ranks.count(SIX) >= 3:
                    found.append((s, "three sixes"))
                elif ranks.count(KING) >= 3:
                    found.append((s, "three kings"))
        if not found:
            return
        if self.rules.instant_order is InstantOrder.SEAT_ORDER:
            found = found[:1] if found[0][1] == "three sixes" else \
                [f for f in found if f[1] == "three kings"]
            found = found[:1] if found[0][1] == "three sixes" else found
        if self._ev is not None:
            for s, kind in found:
                rank = SIX if kind == "three sixes" else KING
                cards = tuple(c for c in self.hands[s] if c >> 2 == rank)
                self._ev.append(E.InstantHand(s, kind, cards))
        sixes = [s for s, kind in found if kind == "three sixes"]
        if sixes:
            self._game_over((), "three_sixes")
        else:
            self._game_over(tuple(s for s, _ in found), "three_kings")


def check_state(state: State) -> None:
    """Raise :class:`RecordError` if a state is impossible (used when parsing positions)."""
    n, rules = state.n, state.rules
    if not rules.players_min <= n <= rules.players_max:
        raise RecordError(f"{n} players: {rules.id} is for {rules.players_min} to "
                          f"{rules.players_max}")
    deck = sorted(new_deck(state.decks))
    have = sorted(state.all_cards())
    if have != deck:
        from collections import Counter
        extra, missing = Counter(have) - Counter(deck), Counter(deck) - Counter(have)
        parts = []
        if extra:
            parts.append("too many " + format_cards(sorted(extra.elements())))
        if missing:
            parts.append("missing " + format_cards(sorted(missing.elements())))
        raise RecordError(f"the cards do not make {state.decks} deck(s): " + "; ".join(parts))
    if state.phase in (PLAY, DRAWING) and not (0 <= state.turn < n and state.in_hand[state.turn]):
        raise RecordError(f"turn = {state.turn + 1}: that seat is not in the hand")
    for s in range(n):
        if state.in_hand[s] and not state.alive[s]:
            raise RecordError(f"seat {s + 1} is out of the game but still in the hand")
