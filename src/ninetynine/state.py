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
from collections import Counter
from dataclasses import dataclass
from operator import itemgetter

from ninetynine import events as E
from ninetynine.actions import Action, ActionKind, ChanceOutcome, Reinsert, Shuffle
from ninetynine.cards import KING, format_card, format_cards, new_deck
from ninetynine.effects import Kind, display_order
from ninetynine.errors import (
    BelowZeroError,
    CardNotInHandError,
    ChoiceRequiredError,
    GameOverError,
    IllegalActionError,
    NotYourTurnError,
    OpeningBanError,
    OverLimitError,
    RecordError,
    Refusal,
)
from ninetynine.lookup import RuleTables, compiled
from ninetynine.penalties import Penalties
from ninetynine.rules import ForcedCard, NoLegalPlay, SkipCounts, Stuck, TwoPlayerReverse
from ninetynine.statebase import (
    CHANCE,
    DEAL,
    DRAWING,
    OVER,
    PLAY,
    RESTOCK,
    TOPUP,
    UPCARD,
    Outcome,
    StateBase,
)

__all__ = ["CHANCE", "DEAL", "DOWN", "DRAW", "DRAWING", "FIELDS", "NODRAW", "OVER", "PASS",
           "PLAY", "RESTOCK", "TOPUP", "UPCARD", "ChanceRequest", "Outcome", "RuleTables",
           "State", "check_state", "compiled"]

DOWN, PASS, DRAW, NODRAW = 1000, 1001, 1002, 1003
FIELDS = StateBase.__slots__  # every field of a state
_SPECIAL = {DOWN: ActionKind.DOWN, PASS: ActionKind.PASS, DRAW: ActionKind.DRAW,
            NODRAW: ActionKind.NODRAW}
_CODE_OF_KIND = {kind: code for code, kind in _SPECIAL.items()}


@dataclass(frozen=True, slots=True)
class ChanceRequest:
    """What chance must decide now: a shuffle of ``cards``, or an insert depth in a range."""

    kind: str
    cards: tuple[int, ...] = ()
    depths: range = range(0)


class State(Penalties):
    """Everything needed to continue a game. Use :func:`ninetynine.game.new_game`."""

    __slots__ = ()

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

    def clone(self) -> State:
        new = State.__new__(State)
        for name in FIELDS:
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
        return all(getattr(self, s) == getattr(other, s) for s in FIELDS
                   if s not in ("c", "_ev", "_before"))

    def __repr__(self) -> str:
        return (f"<State {self.rules.id} {self.phase} total={self.total} turn={self.turn + 1} "
                f"hands={[format_cards(h) for h in self.hands]}>")

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
        # sorting by random keys: a uniform shuffle, several times cheaper than rng.shuffle
        cards, rnd = req.cards, rng.random
        if len(cards) < 2:
            return Shuffle(cards)
        keys = [rnd() for _ in cards]
        return Shuffle(itemgetter(*sorted(range(len(cards)), key=keys.__getitem__))(cards))

    def apply_chance(self, outcome: ChanceOutcome) -> None:
        """Apply a chance outcome after checking that it fits the request."""
        self.check_chance(outcome)
        self._apply_chance(outcome)

    def check_chance(self, outcome: ChanceOutcome) -> None:
        """Raise the typed error of a chance outcome that does not fit what is due."""
        req = self.chance_request()
        if req is None:
            raise NotYourTurnError(f"'{outcome}' is a chance outcome, but it is "
                                   f"{'over' if self.is_over else f'P{self.turn + 1} to play'}")
        if req.kind == UPCARD:
            if not isinstance(outcome, Reinsert) or outcome.depth not in req.depths:
                raise IllegalActionError(f"'{outcome}' does not fit: expected 'insert N' with N "
                                         f"from {req.depths.start} to {req.depths.stop - 1}",
                                         reason=Refusal.BAD_CHANCE)
        elif not isinstance(outcome, Shuffle) or sorted(outcome.order) != list(req.cards):
            raise IllegalActionError(f"'{str(outcome)[:40]}...' does not fit: expected 'shuffle' "
                                     f"and an order of exactly these {len(req.cards)} cards: "
                                     f"{format_cards(req.cards)}", reason=Refusal.BAD_CHANCE)

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
        base, previous = total * 64, -1
        for card in sorted(hand):
            if card == previous or banned and card >> 2 == KING:
                continue  # a second copy of a card (two decks) adds no new action
            previous = card
            found = moves.get(base + card) or moves_of(card, total)
            safe += found[0]
            if found[1]:
                busting += found[1]
        if c.may_bust:
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
                                         " or ".join(f"{v:+d}" for v in display_order(eff.values)),
                                         reason=Refusal.BAD_VALUE)
            return action.card * 4 + eff.values.index(action.value)
        if action.value is not None and (eff.kind is not Kind.ADD or action.value != eff.values[0]):
            raise IllegalActionError(f"{name} has no choice of value: play it as {name}",
                                     reason=Refusal.BAD_VALUE)
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
                self.apply_code(self.check(action, seat))
        finally:
            self._ev = None
        return events

    def is_legal(self, action: Action, seat: int | None = None) -> bool:
        try:
            self.check(action, seat)
        except IllegalActionError:
            return False
        return True

    def check(self, action: Action, seat: int | None = None) -> int:
        """The code of a legal action, or the typed error that says why it is refused
        (``.reason``, ``.why``, ``.legal``). ``seat``, when given, must be the seat to act."""
        if self.phase == OVER:
            raise GameOverError(f"the game is over; '{action}' cannot be played")
        if self.phase == CHANCE:
            raise NotYourTurnError(f"'{action}' cannot be played now: the {self.chance} "
                                   "shuffle must be decided first",
                                   reason=Refusal.CHANCE_PENDING)
        if seat is not None and seat != self.turn:
            raise NotYourTurnError(f"it is P{self.turn + 1}'s turn, not P{seat + 1}'s")
        legal = self.legal_codes()
        shown = [self.action_of(c) for c in legal]
        if action.kind is ActionKind.PLAY and action.card not in self.hands[self.turn]:
            assert action.card is not None
            raise CardNotInHandError(f"{format_card(action.card)} is not in P{self.turn + 1}'s "
                                     f"hand ({format_cards(self.hands[self.turn])})", legal=shown)
        try:
            code = self.code_of(action)
        except IllegalActionError as e:
            raise type(e)(e.why, legal=shown, reason=e.reason) from None
        if code in legal:
            return code
        if action.kind is not ActionKind.PLAY:
            raise IllegalActionError(f"'{action}' is not allowed now", legal=shown)
        assert action.card is not None
        if (action.card >> 2) == KING and self.c.king_ban and \
                self.turns_played[self.turn] < self.c.king_ban:
            raise OpeningBanError(f"no King to {self.c.limit} in your first "
                                  f"{self.c.king_ban} turns", legal=shown)
        new = self.c.new_total(action.card >> 2, code & 3, self.total)
        if new > self.c.limit:
            raise OverLimitError(f"'{action}' would make {new}, over {self.c.limit}",
                                 legal=shown)
        if new < 0:
            raise BelowZeroError(f"'{action}' would take the total below 0", legal=shown)
        raise IllegalActionError(f"'{action}' is not allowed now", legal=shown)

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


def check_state(state: State) -> None:
    """Raise :class:`RecordError` if a state is impossible (used when parsing positions)."""
    n, rules = state.n, state.rules
    if not rules.players_min <= n <= rules.players_max:
        raise RecordError(f"{n} players: {rules.id} is for {rules.players_min} to "
                          f"{rules.players_max}")
    deck = sorted(new_deck(state.decks))
    have = sorted(state.all_cards())
    if have != deck:
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
