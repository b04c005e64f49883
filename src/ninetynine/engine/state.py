"""The game state and the engine that moves it.

One mutable :class:`State` holds everything needed to continue a game. It moves in
two ways: the checked API (:meth:`State.apply`, typed errors, returns the events) and
the unchecked fast path for bots and simulation (:meth:`State.legal_codes`,
:meth:`State.apply_code` and :meth:`State.play_chance`: plain integers, no events). Both
run the same transitions (``docs/engine.md`` lists them), so they cannot disagree.
:func:`ninetynine.engine.game.step` leaves the state as it was and returns a new one.

Seats are numbered from 0 clockwise. Cards are ints (see :mod:`ninetynine.rules.cards`).
The stock and the pile are stored with their top card last. Rules questions cited in
comments (Q18, Q40...) are in ``docs/rules.md``.

An action code (:mod:`ninetynine.engine.tables` makes and reads them) is
:func:`~ninetynine.engine.tables.play_code` of a card and its value's index for a play, one
of :data:`DOWN`, :data:`PASS`, :data:`DRAW`, :data:`NODRAW`, or ``PARAM + card * 1024 +
number`` for a play that names a seat or sets a chosen total, ``ANSWER + card`` for a card
that answers a challenge, :data:`ACCEPT` for not answering it. Sorted, the codes list the
plays by card (rank, then suit), then the special moves, then the plays with a number:
the order of :meth:`State.legal_actions` (not the order of sorted :class:`Action` values).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from operator import itemgetter
from typing import Protocol, TypeVar

from ninetynine.engine import events as E
from ninetynine.engine.actions import (
    Action,
    ActionKind,
    ChanceOutcome,
    Lead,
    Move,
    Reinsert,
    Shuffle,
)
from ninetynine.engine.fields import (
    CHANCE,
    DEAL,
    DRAWING,
    LEAD,
    NO_CHANCE,
    OVER,
    PLAY,
    RESTOCK,
    STRIP,
    TAKE,
    TOPUP,
    UPCARD,
    ChanceKind,
    EndReason,
    Outcome,
    Phase,
    StateBase,
)
from ninetynine.engine.penalties import Penalties
from ninetynine.engine.tables import (
    AFTER_KEY,
    ANSWER,
    NAMED,
    NEXT,
    PARAM,
    REVERSE,
    REVERSE_PAST_TWO,
    SKIP,
    Play,
    RuleTables,
    answer_code,
    card_of,
    choice_of,
    compiled,
    number_of,
    param_code,
    play_code,
)
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
from ninetynine.language import _, ngettext
from ninetynine.rules.cards import (
    RANKS,
    format_card,
    format_cards,
    full_pack,
    new_deck,
    rank_name,
    rank_of,
    show_card,
    show_cards,
)
from ninetynine.rules.effects import Effect, Kind, display_order
from ninetynine.rules.settings import ForcedCard, NoLegalPlay, SkipCounts, Stuck, table_refusal

T = TypeVar("T")


class Choose(Protocol):
    """A uniform choice of one item of a sequence (``random.Random.choice``)."""

    def __call__(self, seq: Sequence[T], /) -> T: ...


__all__ = [
    "ACCEPT",
    "ANSWER",
    "CHANCE",
    "DEAL",
    "DOWN",
    "DRAW",
    "DRAWING",
    "FIELDS",
    "LEAD",
    "LIST_FIELDS",
    "NODRAW",
    "NO_CHANCE",
    "OVER",
    "PARAM",
    "PASS",
    "PLAY",
    "RESTOCK",
    "SPECIAL_KINDS",
    "STRIP",
    "TAKE",
    "TOPUP",
    "UPCARD",
    "ChanceKind",
    "ChanceRequest",
    "EndReason",
    "Outcome",
    "Phase",
    "RuleTables",
    "State",
    "check_state",
    "compiled",
]

DOWN, PASS, DRAW, NODRAW, ACCEPT = 1000, 1001, 1002, 1003, 1004
LAY_DOWN = (DOWN,)  # the legal moves of a player with no safe play who must lay down
FIELDS = StateBase.__slots__  # every field of a state
# the fields that hold lists (``hands`` a list of lists): a copy must copy them too
LIST_FIELDS = (
    "hands",
    "stock",
    "pile",
    "out",
    "lives",
    "alive",
    "in_hand",
    "turns_played",
    "points",
    "scores",
    "_before",
    "known",
)
_new_state = object.__new__
SPECIAL_KINDS = {  # the code of each move that plays no card
    DOWN: ActionKind.DOWN,
    PASS: ActionKind.PASS,
    DRAW: ActionKind.DRAW,
    NODRAW: ActionKind.NODRAW,
    ACCEPT: ActionKind.ACCEPT,
}
_CODE_OF_KIND = {kind: code for code, kind in SPECIAL_KINDS.items()}


def _shuffled(cards: Sequence[int], rnd: Callable[[], float]) -> list[int]:
    """A stock of ``cards`` (sorted: the whole pack, or those of a stock that ran out)
    shuffled as :meth:`State.sample_chance` shuffles them (the sort by random keys from
    ``rnd``; none drawn for fewer than two cards), its top at the end: a random playout's."""
    if len(cards) < 2:
        return list(cards)
    keys = [rnd() for _ in cards]
    order = sorted(range(len(cards)), key=keys.__getitem__)
    order.reverse()
    return order if cards is _ONE_PACK else list(itemgetter(*order)(cards))  # (card i is i)


_ONE_PACK = full_pack(1, False)


def _said(action: Action) -> str:
    """An action in a refusal: a card as people read it (8♣), a move as typed ('pass')."""
    return action.shown() if action.kind is ActionKind.PLAY else f"'{action}'"


@dataclass(frozen=True, slots=True)
class ChanceRequest:
    """What chance must decide now: a shuffle of ``cards``, an insert depth in a range, or
    the seat that leads the new hand, one of ``seats``."""

    kind: ChanceKind
    cards: tuple[int, ...] = ()
    depths: range = range(0)
    seats: tuple[int, ...] = ()


class State(Penalties):
    """Everything needed to continue a game. Use :func:`ninetynine.engine.game.new_game`."""

    __slots__ = ()

    # Queries ---------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        """True once the game has ended (:attr:`outcome` says how)."""
        return self.phase == OVER

    @property
    def is_chance(self) -> bool:
        """True while chance must decide (:meth:`chance_request` says what)."""
        return self.phase == CHANCE

    @property
    def current_seat(self) -> int | None:
        """The seat to act, or None at a chance node or after the game."""
        return self.turn if self.phase in (PLAY, DRAWING) else None

    def clone(self) -> State:
        """A copy that shares nothing that changes (the one copier: new games, positions
        and the bots' sampled deals start from :func:`ninetynine.engine.game.new_game` and copy
        with this). Written out field by field for speed; a test checks it copies every
        field of :data:`FIELDS` and copies each of :data:`LIST_FIELDS`."""
        new = _new_state(State)
        new.rules, new.c, new.n, new.decks = self.rules, self.c, self.n, self.decks
        new.total, new.direction, new.turn = self.total, self.direction, self.turn
        new.dealer, new.starter, new.hand_no = self.dealer, self.starter, self.hand_no
        new.phase, new.chance, new.outcome = self.phase, self.chance, self.outcome
        new.drawer, new.owed, new.next_turn = self.drawer, self.owed, self.next_turn
        new.held, new.loser, new.passes, new.pot = self.held, self.loser, self.passes, self.pot
        new.face_down, new.chain, new.plays_left = self.face_down, self.chain, self.plays_left
        new.may_decline, new.challenger = self.may_decline, self.challenger
        new.victim, new.known = self.victim, [k[:] for k in self.known]
        new._ev = None
        new.hands = [h[:] for h in self.hands]
        new.stock, new.pile, new.out = self.stock[:], self.pile[:], self.out[:]
        new.lives, new.alive, new.in_hand = self.lives[:], self.alive[:], self.in_hand[:]
        new.turns_played, new.points = self.turns_played[:], self.points[:]
        new.scores, new._before = self.scores[:], self._before[:]
        return new

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return all(
            getattr(self, s) == getattr(other, s)
            for s in FIELDS
            if s not in ("c", "_ev", "_before")
        )

    def __repr__(self) -> str:
        return (
            f"<State {self.rules.id} {self.phase} total={self.total} turn={self.turn + 1} "
            f"hands={[format_cards(h) for h in self.hands]}>"
        )

    # Chance ------------------------------------------------------------------------

    def chance_request(self) -> ChanceRequest | None:
        """What the pending chance node must decide, or None when a player is to act or the
        game is over."""
        if self.phase != CHANCE:
            return None
        if self.chance == UPCARD:
            # the middle third (Q40), but never above the next ordinary card, so that
            # turning up always ends (each return puts one special card below it)
            stock, special = self.stock, self.rules.upcard_special
            size = len(stock)
            above = next(
                (i for i, c in enumerate(reversed(stock)) if rank_of(c) not in special), size - 1
            )
            low = max(-(-size // 3), above + 1)
            return ChanceRequest(UPCARD, depths=range(low, max(low, 2 * size // 3) + 1))
        if self.chance == LEAD:
            return ChanceRequest(LEAD, seats=tuple(s for s in range(self.n) if self.alive[s]))
        cards = self._chance_cards()
        return ChanceRequest(self.chance, cards=tuple(sorted(cards)))

    def _chance_cards(self) -> list[int]:
        """The cards a pending shuffle orders: the discards under the top (a top-up), the
        victim's hand (a take: its first card is taken; a strip: its first card is kept)
        or the stock."""
        if self.chance == TOPUP:
            return self.pile[:-1]
        return self.hands[self.victim] if self.chance in (TAKE, STRIP) else self.stock

    def sample_chance(self, rng: random.Random) -> ChanceOutcome:
        """Draw the pending chance outcome with the caller's generator."""
        kind = self.chance
        if self.phase != CHANCE:
            raise IllegalActionError("no chance event is pending: it is a player's turn")
        if kind in (UPCARD, LEAD):
            req = self.chance_request()
            assert req is not None
            return (
                Reinsert(rng.choice(req.depths)) if kind == UPCARD else Lead(rng.choice(req.seats))
            )
        # the cards of chance_request(), without building it (a deal is on the hot path);
        # sorting by random keys: a uniform shuffle, several times cheaper than rng.shuffle
        rnd = rng.random
        held = self._chance_cards()
        if len(held) == 52 and self.decks == 1 and not self.rules.jokers:  # card i is i
            keys = [rnd() for _ in held]
            return Shuffle(tuple(sorted(range(52), key=keys.__getitem__)))
        pack = full_pack(self.decks, self.rules.jokers)
        cards: Sequence[int] = pack if len(held) == len(pack) else sorted(held)  # (sorted)
        if len(cards) < 2:
            return Shuffle(tuple(cards))
        keys = [rnd() for _ in cards]
        return Shuffle(itemgetter(*sorted(range(len(cards)), key=keys.__getitem__))(cards))

    def apply_chance(self, outcome: ChanceOutcome) -> None:
        """Apply a chance outcome after checking that it fits the request."""
        self.check_chance(outcome)
        self._apply_chance(outcome)

    def play_chance(self, rng: random.Random) -> ChanceOutcome:
        """Draw the pending chance outcome and apply it unchecked (the fast path, as
        :meth:`apply_code` is for moves); return it, for a caller that writes it down."""
        outcome = self.sample_chance(rng)
        self._apply_chance(outcome)
        return outcome

    def check_chance(self, outcome: ChanceOutcome) -> None:
        """Raise the typed error of a chance outcome that does not fit what is due."""
        req = self.chance_request()
        if req is None:
            raise NotYourTurnError(
                f"'{outcome}' is a chance outcome, but it is "
                f"{'over' if self.is_over else f'P{self.turn + 1} to play'}"
            )
        if req.kind == UPCARD:
            if not isinstance(outcome, Reinsert) or outcome.depth not in req.depths:
                raise IllegalActionError(
                    f"'{outcome}' does not fit: expected 'insert N' with N "
                    f"from {req.depths.start} to {req.depths.stop - 1}",
                    reason=Refusal.BAD_CHANCE,
                )
        elif req.kind == LEAD:
            if not isinstance(outcome, Lead) or outcome.seat not in req.seats:
                raise IllegalActionError(
                    f"'{str(outcome)[:40]}' does not fit: expected 'lead N' "
                    "with N a seat still in the game: " + ", ".join(str(s + 1) for s in req.seats),
                    reason=Refusal.BAD_CHANCE,
                )
        elif not isinstance(outcome, Shuffle) or sorted(outcome.order) != list(req.cards):
            raise IllegalActionError(
                f"'{str(outcome)[:40]}...' does not fit: expected 'shuffle' "
                f"and an order of exactly these {len(req.cards)} cards: "
                f"{format_cards(req.cards)}",
                reason=Refusal.BAD_CHANCE,
            )

    def _apply_chance(self, outcome: ChanceOutcome) -> None:
        kind = self.chance
        if kind == UPCARD:
            assert isinstance(outcome, Reinsert)
            self.stock.insert(len(self.stock) - outcome.depth, self.held)
            self.held = -1
            self._turn_upcard()
            return
        if kind == LEAD:
            assert isinstance(outcome, Lead)
            if self._ev is not None:
                self._ev.append(E.LeaderDrawn(outcome.seat))
            self._lead(outcome.seat)
            return
        assert isinstance(outcome, Shuffle)
        if kind == TAKE:
            self._took(outcome.order[0])
            return
        if kind == STRIP:
            self._stripped(outcome.order[0])
            return
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
            self._restocked(order)

    def _restocked(self, order: list[int]) -> None:
        """The stock that ran out is ``order`` (its top at the end): the drawer draws what
        it is owed, and a revival's joker player its card."""
        self.stock = order
        self.phase, self.chance = PLAY, NO_CHANCE
        drawer, owed = self.drawer, self.owed
        self.drawer, self.owed = -1, 0
        self._draw(drawer, owed)
        if self.victim >= 0 and self.phase == PLAY:  # a revival's joker player draws
            seat, self.victim = self.victim, -1
            self._draw(seat, 1)

    # Legal actions -----------------------------------------------------------------

    def legal_codes(self) -> list[int]:
        """Sorted codes of the legal actions of the seat to act ([] at chance or over)."""
        if self.phase != PLAY:
            return [DRAW, NODRAW] if self.phase == DRAWING else []
        c, hand = self.c, self.hands[self.turn]
        if c.rows_suffice and not (
            c.may_pend and (self.chain or self.plays_left or self.challenger >= 0)
        ):
            # the hot path: each card's plays from the row of this total
            row = c.rows.get(self.total) or c.row(self.total)
            codes: list[int] = []
            # (a second copy of a card, with two decks, adds no new action)
            for card in hand if self.decks == 1 else set(hand):
                codes += row[card]
            if codes and c.naming and not c.naming.isdisjoint(hand):
                # a play once per seat it may name (none where a card has nobody to name:
                # a take with no other hand holding a card, as if it had no safe play)
                codes = self._extra_codes(codes)
            elif codes:
                codes.sort()
            if codes:
                return codes
            if c.down_if_none_safe:
                return [DOWN]
        if self.challenger >= 0:
            return self._answer_codes(hand)
        codes = self._all_legal_codes(hand)
        if self.may_decline:  # the offered turn: playing on, or a pass that declines it,
            # which stands in for laying down or passing stuck (rows_suffice is off)
            return sorted({*codes, PASS} - {DOWN})
        return codes

    def _all_legal_codes(self, hand: list[int]) -> list[int]:
        """The legal codes, whatever the rules (:meth:`legal_codes` when the row of safe
        plays is not the answer)."""
        if not hand:
            return [PASS] if self.rules.stuck is Stuck.PASS else [DOWN]
        seat = self.turn
        c, total = self.c, self.total
        banned = (
            c.opening_ban
            and self.turns_played[seat] < c.opening_ban
            and (self.rules.king_ban_at_limit or total != c.limit)
        )
        moves, moves_of = c.card_moves, c.moves_of
        safe: list[int] = []
        busting: list[int] = []
        base, previous = total * 64, -1
        for card in sorted(hand):
            if card == previous or banned and card in c.ban_cards:
                continue  # a second copy of a card (two decks) adds no new action
            previous = card
            found = moves.get(base + card) or moves_of(card, total)
            safe += found[0]
            if found[1]:
                busting += found[1]
        if c.unusual:  # plays over the limit by choice, seats to name, chains, set-any
            if c.extras:
                safe, busting = self._extra_codes(safe), self._extra_codes(busting)
            if c.may_bust and busting:
                return sorted(safe + busting) if safe else busting
        if safe:
            return safe
        if busting:
            if self.rules.no_legal_play is NoLegalPlay.LAY_DOWN:
                return [DOWN]
            return busting[:1] if self.rules.forced_card is ForcedCard.AUTO else busting
        return [PASS] if self.rules.stuck is Stuck.PASS else [DOWN]

    def _answer_codes(self, hand: list[int]) -> list[int]:
        """A challenged player's moves: each card that answers, or accepting."""
        answers = self.c.answers
        return sorted({answer_code(card) for card in hand if card in answers} | {ACCEPT})

    def _extra_codes(self, codes: list[int]) -> list[int]:
        """``codes`` with a naming card's play once per seat it may name, and in the run
        of a no-draw chain without the chain cards; sorted."""
        c = self.c
        if self.plays_left:  # a run holds no second chain card
            codes = [code for code in codes if card_of(code) not in c.chain_cards]
        elif self._short_of_run():  # a run that cannot be finished is not started
            codes = [code for code in codes if card_of(code) in c.chain_cards]
        naming = c.naming
        if not naming:
            return sorted(codes)
        out: list[int] = []
        for code in codes:
            card = card_of(code)
            if code < PARAM and card in naming:
                base = param_code(card, 0)
                targets = self.name_targets(card)
                if targets or not c.effects[card].revive:
                    out += [base + s for s in targets]
                else:  # a revival with nobody to name is played alone (O49)
                    out.append(code)
            else:
                out.append(code)
        out.sort()
        return out

    def _short_of_run(self) -> bool:
        """Facing a chain of n with fewer than n other cards: only a chain card answers
        (BurstBot offers the other cards only if there are enough, FAMILIES §6.1)."""
        chain, chain_cards = self.chain, self.c.chain_cards
        return chain > 0 and chain > sum(card not in chain_cards for card in self.hands[self.turn])

    def name_targets(self, card: int | None = None) -> list[int]:
        """The seats the player to act may name to play next (or, with a challenge
        ``card``, challenge: any other player in the hand)."""
        seat, in_hand = self.turn, self.in_hand
        c = self.c
        if card is not None and card in c.moving:  # another player in the hand (O46-O48)
            eff, hands = c.effects[card], self.hands
            if eff.revive:  # one out, or one whose hand (after this card) is short (O49)
                full = self.rules.hand_size
                return [
                    s for s in range(self.n) if not in_hand[s] or len(hands[s]) - (s == seat) < full
                ]
            empty_ok = eff.swap
            return [s for s in range(self.n) if in_hand[s] and s != seat and (hands[s] or empty_ok)]
        own = self.rules.name_self and (card is None or card not in c.challenging)
        return [s for s in range(self.n) if in_hand[s] and (s != seat or own)]

    def plays_of(self, card: int) -> list[Action]:
        """Every well-formed play of ``card``, legal now or not: each value of a choice,
        each seat a naming card could name, each total a ``set-any`` card could set."""
        eff = self.c.effects[card]
        if self.challenger >= 0:  # answering a challenge: the card alone
            return [Action.play(card)]
        if eff.names_seat:  # the seats it may name first
            targets = self.name_targets(card) if self.phase == PLAY else []
            return [
                Action.play(card, target=s)
                for s in sorted(range(self.n), key=lambda s: s not in targets)
            ]
        if eff.kind is Kind.SET_ANY:
            return [Action.play(card, to=t) for t in range(self.c.limit + 1)]
        return [Action.play(card, v if eff.has_choice else None) for v in eff.values]

    def legal_actions(self) -> list[Action]:
        """The legal actions of the seat to act, in code order (see the module docstring); empty
        at a chance node or after the game."""
        return [self.action_of(code) for code in self.legal_codes()]

    def action_of(self, code: int) -> Action:
        """The action of a code (actions are immutable: each is made once per rules)."""
        found = self.c.actions.get(code)
        if found is None:
            found = self.c.actions[code] = self._make_action(code)
        return found

    def _make_action(self, code: int) -> Action:
        if code in SPECIAL_KINDS:
            return Action(SPECIAL_KINDS[code])
        if code >= ANSWER:
            return Action.play(card_of(code))
        if code >= PARAM:
            card, number = card_of(code), number_of(code)
            if self.c.effects[card].names_seat:
                return Action.play(card, target=number)
            return Action.play(card, to=number)
        card, choice = card_of(code), choice_of(code)
        eff = self.c.effects[card]
        return Action.play(card, eff.values[choice] if eff.has_choice else None)

    def code_of(self, action: Action) -> int:
        """The code of an action, checking that its value fits the card (not legality)."""
        if action.kind is not ActionKind.PLAY:
            return _CODE_OF_KIND[action.kind]
        assert action.card is not None
        card = action.card
        eff = self.c.effects[card]
        name, typed = show_card(card), format_card(card)  # a card named; a move as typed
        if self.challenger >= 0:
            if action.value is not None or action.to is not None or action.target is not None:
                raise IllegalActionError(
                    _("{move}: a card that answers a challenge is played alone, as {typed}").format(
                        move=action.shown(), typed=typed
                    ),
                    reason=Refusal.BAD_VALUE,
                )
            return answer_code(card)
        if (
            eff.revive
            and action.target is None
            and action.to is None
            and action.value is None
            and self.phase == PLAY
            and not self.name_targets(card)
        ):
            return play_code(card, 0)  # nobody to bring back or fill up: played alone (O49)
        if action.target is not None or action.to is not None or card in self.c.param_cards:
            return self._param_code(action, eff, name)
        if eff.has_choice:
            if action.value is None:
                raise ChoiceRequiredError(
                    _("{card} needs a value: {moves}").format(
                        card=name,
                        moves=_(" or ").join(f"{typed}{v:+d}" for v in display_order(eff.values)),
                    )
                )
            if action.value not in eff.values:
                raise IllegalActionError(
                    _("{card} cannot count {value}: choose {values}").format(
                        card=name,
                        value=f"{action.value:+d}",
                        values=_(" or ").join(f"{v:+d}" for v in display_order(eff.values)),
                    ),
                    reason=Refusal.BAD_VALUE,
                )
            return play_code(action.card, eff.values.index(action.value))
        if action.value is not None and (eff.kind is not Kind.ADD or action.value != eff.values[0]):
            raise IllegalActionError(
                _("{card} has no choice of value: play it as {move}").format(card=name, move=typed),
                reason=Refusal.BAD_VALUE,
            )
        return action.card * 4

    def _param_code(self, action: Action, eff: Effect, name: str) -> int:
        """The code of a play that names a seat or sets a chosen total."""
        assert action.card is not None
        base, limit = param_code(action.card, 0), self.c.limit
        typed = format_card(action.card)  # the moves it suggests, as they are typed
        if eff.names_seat:  # whom it names plays next, or is challenged
            if action.target is None:
                moves = _(" or ").join(f"{typed}>{s + 1}" for s in self.name_targets(action.card))
                if eff.challenge:
                    why = _("{card} challenges a player to be out: {moves}")
                elif eff.swap:
                    why = _("{card} swaps hands with a player you name: {moves}")
                elif eff.take:
                    why = _("{card} takes a card from a player you name: {moves}")
                elif eff.strip:
                    why = _("{card} strips a player you name to one card: {moves}")
                elif eff.revive:
                    why = _(
                        "{card} brings back a player who is out, or fills up a short hand: "
                        "name them: {moves}"
                    )
                else:
                    why = _("{card} names who plays next: {moves}")
                raise ChoiceRequiredError(why.format(card=name, moves=moves))
            if action.value is not None or action.to is not None:
                raise IllegalActionError(
                    (
                        _(
                            "{card} has no choice of value: play it as {move}>N, naming the "
                            "seat N it challenges"
                        )
                        if eff.challenge
                        else _(
                            "{card} has no choice of value: play it as {move}>N, naming the "
                            "seat N it swaps hands with or takes a card from"
                        )
                        if eff.swap or eff.take
                        else _(
                            "{card} has no choice of value: play it as {move}>N, naming the "
                            "seat N it strips, brings back or fills up"
                        )
                        if eff.moves_cards
                        else _(
                            "{card} has no choice of value: play it as {move}>N, naming the "
                            "seat N that plays next"
                        )
                    ).format(card=name, move=typed)
                )
            if not 0 <= action.target < self.n:
                raise IllegalActionError(
                    _("{move} names seat {seat}, but the table has seats 1 to {n}").format(
                        move=action.shown(), seat=action.target + 1, n=self.n
                    )
                )
            return base + action.target
        if action.target is not None:
            raise IllegalActionError(
                _("{card} does not name the next player: drop the '{part}'").format(
                    card=name, part=f">{action.target + 1}"
                )
            )
        if eff.kind is Kind.SET_ANY:
            if action.to is None:
                raise ChoiceRequiredError(
                    _("{card} sets the total to a number of your choice: {low} to {high}").format(
                        card=name, low=f"{typed}=0", high=f"{typed}={limit}"
                    )
                )
            if action.value is not None or not 0 <= action.to <= limit:
                raise IllegalActionError(
                    _("{move}: choose a total from 0 to {limit}, e.g. {example}").format(
                        move=action.shown(), limit=limit, example=f"{typed}={min(limit, 50)}"
                    )
                )
            return base + action.to
        raise IllegalActionError(
            _("{card} does not set a chosen total: drop the '{part}'").format(
                card=name, part=f"={action.to}"
            )
        )

    # Applying actions --------------------------------------------------------------

    def apply(self, action: Move, seat: int | None = None) -> list[E.Event]:
        """Check and apply an action (or chance outcome); return the events it caused.

        ``seat``, when given, is who is acting: it must be the seat to play.
        """
        events: list[E.Event] = []
        self._ev = events
        try:
            if isinstance(action, (Shuffle, Reinsert, Lead)):
                self.apply_chance(action)
            else:
                self.apply_code(self.check(action, seat))
        finally:
            self._ev = None
        return events

    def is_legal(self, action: Action, seat: int | None = None) -> bool:
        """Whether :meth:`check` accepts the action (from ``seat``, when given)."""
        try:
            self.check(action, seat)
        except IllegalActionError:
            return False
        return True

    def check(self, action: Action, seat: int | None = None) -> int:
        """The code of a legal action, or the typed error that says why it is refused
        (``.reason``, ``.why``, ``.legal``). ``seat``, when given, must be the seat to act."""
        if self.phase == OVER:
            raise GameOverError(
                _("the game is over; {move} cannot be played").format(move=_said(action))
            )
        if self.phase == CHANCE:
            raise NotYourTurnError(
                _("{move} cannot be played now: the {what} shuffle must be decided first").format(
                    move=_said(action), what=self.chance
                ),
                reason=Refusal.CHANCE_PENDING,
            )
        if seat is not None and seat != self.turn:
            raise NotYourTurnError(
                _("it is P{turn}'s turn, not P{seat}'s").format(turn=self.turn + 1, seat=seat + 1)
            )
        legal = self.legal_codes()
        shown = [self.action_of(c) for c in legal]
        if action.kind is ActionKind.PLAY and action.card not in self.hands[self.turn]:
            assert action.card is not None
            raise CardNotInHandError(
                _("{card} is not in P{seat}'s hand ({cards})").format(
                    card=show_card(action.card),
                    seat=self.turn + 1,
                    cards=show_cards(self.hands[self.turn]),
                ),
                legal=shown,
            )
        try:
            code = self.code_of(action)
        except IllegalActionError as e:
            raise type(e)(e.why, legal=shown, reason=e.reason) from None
        if code in legal:
            return code
        if self.challenger >= 0:
            answers = sorted({RANKS[rank_of(c)] for c in self.c.answers})
            raise IllegalActionError(
                _(
                    "{move} cannot be played now: P{seat} is challenged by P{challenger} and "
                    "answers with {answers}, or 'accept'"
                ).format(
                    move=_said(action),
                    seat=self.turn + 1,
                    challenger=self.challenger + 1,
                    answers=_(" or ").join(answers),
                ),
                legal=shown,
                reason=Refusal.CHALLENGE,
            )
        if action.kind is not ActionKind.PLAY:
            why = (
                _(
                    "{move} is not allowed now: a pass only declines the extra turn a reverse "
                    "card gives with two players"
                )
                if action.kind is ActionKind.PASS and self.c.optional_again
                else _("{move} is not allowed now")
            )
            raise IllegalActionError(why.format(move=_said(action)), legal=shown)
        assert action.card is not None
        if action.card in self.c.ban_cards and self.turns_played[self.turn] < self.c.opening_ban:
            raise OpeningBanError(
                ngettext(
                    "no {rank} to {total} in your first {n} turn",
                    "no {rank} to {total} in your first {n} turns",
                    self.c.opening_ban,
                ).format(
                    rank=rank_name(rank_of(action.card)), total=self.c.limit, n=self.c.opening_ban
                ),
                legal=shown,
            )
        if self.plays_left and action.card in self.c.chain_cards:
            raise IllegalActionError(
                ngettext(
                    "P{seat} must play {n} more card without drawing, none of them a {rank}",
                    "P{seat} must play {n} more cards without drawing, none of them a {rank}",
                    self.plays_left,
                ).format(seat=self.turn + 1, n=self.plays_left, rank=RANKS[rank_of(action.card)]),
                legal=shown,
                reason=Refusal.CHAIN,
            )
        if action.card not in self.c.chain_cards and self._short_of_run():
            raise IllegalActionError(
                _(
                    "P{seat} faces {n} no-draw cards with fewer other cards: only another "
                    "no-draw card answers"
                ).format(seat=self.turn + 1, n=self.chain),
                legal=shown,
                reason=Refusal.CHAIN,
            )
        if action.target is not None and action.target not in self.name_targets(action.card):
            revive = self.c.effects[action.card].revive
            why = (
                _(
                    "{move} names P{seat}, whose hand is full; name a player who is out or "
                    "whose hand is short"
                )
                if revive
                else _("{move} names yourself; name another player still in the hand")
                if action.target == self.turn
                else _("{move} names P{seat}, who holds no card to take; name another player")
                if self.in_hand[action.target]
                else _(
                    "{move} names P{seat}, who is not in the hand; name another player still in "
                    "the hand"
                )
            )
            raise IllegalActionError(
                why.format(move=action.shown(), seat=action.target + 1),
                legal=shown,
                reason=Refusal.BAD_TARGET,
            )
        new = self.c.result(code, self.total)
        if new > self.c.limit:
            raise OverLimitError(
                _("{move} would make {total}, over {limit}").format(
                    move=action.shown(), total=new, limit=self.c.limit
                ),
                legal=shown,
            )
        if new < 0:
            raise BelowZeroError(
                _("{move} would take the total below 0").format(move=action.shown()), legal=shown
            )
        raise IllegalActionError(
            _("{move} is not allowed now").format(move=action.shown()), legal=shown
        )

    # Transitions -------------------------------------------------------------------

    def _special(self, code: int) -> None:
        seat, ev = self.turn, self._ev
        if code == DOWN:
            if ev is not None:
                ev.append(E.LaidDown(seat))
            self._bust(seat, played=False)
        elif code == PASS and self.may_decline:  # the other player is next, same total
            if ev is not None:
                ev.append(E.Declined(seat))
            self.may_decline = False
            self.chain = self.plays_left = 0
            self.turn = self._next_seat(seat, 1)
        elif code == PASS:
            if ev is not None:
                ev.append(E.Passed(seat))
            self.passes += 1
            self.chain = self.plays_left = 0  # a pass ends a no-draw chain
            if self.passes >= sum(self.in_hand):
                self._end_hand(None)
            else:
                self.turn = self._next_seat(seat, 1)
        elif code == ACCEPT:
            self._concede(seat)
        elif code == DRAW:  # (next_turn is cleared: a position only has it while drawing)
            self.phase, self.turn, self.next_turn = PLAY, self.next_turn, -1
            owed, self.owed = self.owed, 0  # before drawing: a restock records what is owed
            self._draw(seat, 1 + owed)
        else:
            if ev is not None:
                ev.append(E.DrawSkipped(seat, "did not draw"))
            self.phase, self.turn, self.owed, self.next_turn = PLAY, self.next_turn, 0, -1

    def play_random(self, rng: random.Random, max_steps: int = 1_000_000) -> int:
        """Play uniformly random legal moves, and draw chance, until the game is over, in
        place: one call for a whole random playout; returns the decisions made. Each move
        is a uniform choice among the legal ones, as ``rng.choice(legal_codes())`` makes,
        but not the same draw: where the plays of the total's row are the legal moves, they
        are read unsorted, a run of plays that only pass the turn on and draw is played in
        local variables (:meth:`_quick_run`), a deal of the whole pack is shuffled
        straight into the stock (the keys and the sort of :meth:`sample_chance`), and a
        bust (laying down, or a play over the limit) ends the hand and deals the next at
        once where nothing else follows (:meth:`_quick_end`)."""
        c = self.c
        choice, apply_code, legal_codes = rng.choice, self.apply_code, self.legal_codes
        rnd, jokers = rng.random, self.rules.jokers
        decks, pack = self.decks, full_pack(self.decks, jokers)  # (the pack a deal shuffles)
        quick_run = self._quick_chain_run if c.chain_steps else self._quick_run
        rows_suffice = c.rows_suffice  # (else only legal_codes knows the legal moves)
        quick_end, quick_over, quick_sit_out = c.quick_end, c.quick_over, c.quick_sit_out
        decisions = 0
        for _step in range(max_steps):
            phase = self.phase
            if phase == PLAY:
                if rows_suffice:
                    run, code = quick_run(choice)
                    decisions += run
                else:
                    code = -1
                if (
                    quick_end
                    and (code == DOWN or quick_over and code >= 0)
                    and self._ev is None
                    and self._quick_bust(code, pack, rnd)
                ):
                    pass  # (the hand is over and the next dealt)
                elif code == DOWN and self._ev is None:  # the hand's end, or its player's
                    if not (quick_sit_out and self._quick_sit_out(self.turn)):
                        self._bust(self.turn, played=False)  # (as _special lays down)
                else:
                    apply_code(choice(legal_codes()) if code < 0 else code)
                decisions += 1
            elif phase == CHANCE:
                if self.decks != decks:  # (decks counted each hand)
                    decks, pack = self.decks, full_pack(self.decks, jokers)
                chance = self.chance if self._ev is None else None
                if chance == DEAL and len(self.stock) == len(pack):
                    self.stock = _shuffled(pack, rnd)
                    self._deal()
                elif chance == RESTOCK:
                    self._restocked(_shuffled(sorted(self.stock), rnd))
                else:
                    self.play_chance(rng)
            elif phase == OVER:
                return decisions
            else:  # a draw to take or decline
                apply_code(choice(legal_codes()))
                decisions += 1
        raise RuntimeError(f"no end after {max_steps} steps: {self!r}")

    def _quick_bust(self, code: int, pack: tuple[int, ...], rnd: Callable[[], float]) -> bool:
        """Finish ``code``, a random playout's play that ends its hand, at once where
        ``RuleTables.quick_end`` says that is all: laying down, or a play over the limit
        that scores nothing else (``quick_over``; played as _apply_code plays it), whose
        player keeps a life; the next hand is dealt (:meth:`_quick_end`: from ``pack``
        shuffled with ``rnd`` where the rules gather every card). False, and nothing
        done, elsewhere."""
        seat, c = self.turn, self.c
        if self.lives[seat] <= self.rules.bust_penalty:
            return False
        if code != DOWN:
            key = self.total * AFTER_KEY + code
            if c.after.get(key, 0) <= c.limit or self.known:
                return False
            card = card_of(code)
            self.hands[seat].remove(card)
            self.pile.append(card)
            self.turns_played[seat] += 1
            self.total = c.after[key]
            if c.effects[card].reverse:
                self._reverse(seat)
        self._quick_end(seat, _shuffled(pack, rnd) if c.full_reshuffle else None)
        return True

    def _quick_sit_out(self, seat: int) -> bool:
        """``seat`` lays down where the rules sit it out of the hand
        (``RuleTables.quick_sit_out``): it pays, is out of the game where that leaves it
        no life (its hand put away: _put_away), and the next seat in the hand plays on,
        as _bust plays it. False, and nothing done, where the hand ends by it."""
        c, lives, in_hand = self.c, self.lives, self.in_hand
        if sum(in_hand) <= 2:  # (and the game, where it puts its player out)
            return False
        have, penalty = lives[seat], self.rules.bust_penalty
        paid = min(have, penalty)
        lives[seat] = have - paid
        if c.pot:
            self.pot += paid
        self.chain = self.plays_left = 0
        in_hand[seat] = False
        if c.out_unpaid and have < penalty or c.out_at_zero and have <= penalty:
            self.alive[seat] = False
            self._put_away(seat)
        self.turn = self._next_seat(seat, 1)
        return True

    def _quick_run(self, choice: Choose) -> tuple[int, int]:
        """Random plays from the rows while each is one of apply_code's quick lane (it
        passes the turn on and its player draws), played as that lane plays it with the
        total, the turn and the direction held in local variables; returns how many, and
        the next play chosen, which the caller applies (-1: the row does not give the legal
        moves here; a hand with a card that names a seat, say). A test plays every preset
        both ways and compares the states."""
        c = self.c
        if c.may_pend and (self.chain or self.plays_left or self.challenger >= 0):
            return 0, -1
        rows, row_of, naming, quick_turn = c.play_rows, c.play_row, c.naming, self._quick_turn
        seat_plays = self._seat_plays
        paying, plain_naming = c.paying, c.plain_naming
        named: dict[int, list[int]] = {}  # the seats each seat may name
        total, seat, n, direction = self.total, self.turn, self.n, self.direction
        hands, pile, stock, in_hand = self.hands, self.pile, self.stock, self.in_hand
        played, one_deck, owed = self.turns_played, self.decks == 1, self.owed
        run, code = 0, -1
        while True:
            hand = hands[seat]
            row = rows.get(total) or row_of(total)
            plays: list[Play] = []
            # (a second copy of a card, with two decks, is no second move)
            if not naming or naming.isdisjoint(hand):
                for card in hand if one_deck else set(hand):
                    plays += row[card]
            elif plain_naming:  # a play for each seat named (the seats in the hand stay as
                # they are till the run ends)
                targets = named.get(seat)
                if targets is None:
                    self.turn = seat
                    targets = named[seat] = self.name_targets()
                for card in hand if one_deck else set(hand):
                    plays += seat_plays(row[card], targets, total) if card in naming else row[card]
            else:  # (legal_codes'; a swap or a challenge is no quick play: it ends the run)
                for card in hand if one_deck else set(hand):
                    plays += row[card]
                if plays:
                    self.turn = seat
                    plays = [*c.plays(self._extra_codes([p[0] for p in plays]), total)]
            if not plays:  # laying down or a card over the limit, as legal_codes says
                code = self._none_safe(choice, hand, total) if hand else -1
                break
            code, new, step, card = choice(plays)
            if new is None or owed or len(stock) < 2:
                # a play that pays milestones, where nobody goes out, is quick too
                if new is not None or owed or len(stock) < 2 or not paying:
                    break
                pays = paying.get(total * AFTER_KEY + code)
                if pays is None or pays[0][1] == REVERSE_PAST_TWO and sum(in_hand) < 3:
                    break  # (a reverse with two in the hand: the slow lane's turn)
                if not self._quick_pay(seat, pays[1], pays[2]):
                    break
                new, step, card = pays[0]
            if step == NEXT:
                nxt = (seat + direction) % n
            elif step == REVERSE:  # (as _quick_turn, without a call)
                direction = self.direction = -direction
                nxt = (seat + direction) % n
            else:  # a skip, or a reverse with two in the hand: the lane's own turn step
                nxt = quick_turn(step, seat, code)
                if nxt < 0:
                    break
                direction = self.direction
            total = new
            hand.remove(card)
            pile.append(card)
            played[seat] += 1
            while not in_hand[nxt]:  # (a seat out of the hand is passed over)
                nxt = (nxt + direction) % n
            seat = nxt
            hand.append(stock.pop())
            run += 1
        if run:
            self.total, self.turn, self.passes, self.may_decline = total, seat, 0, False
        return run, code

    def _quick_chain_run(self, choice: Choose) -> tuple[int, int]:
        """:meth:`_quick_run` for rules with a no-draw chain (the Icelandic Queen): a chain
        card, the plays of a player facing a chain and those of a run are quick too, played
        as _extra_turn plays them, the chain and the run's plays left held in local variables
        beside the total, the turn and the direction. (A loop of its own: the checks that
        the chain needs would cost P's loop 1.4% of its instructions.)"""
        c = self.c
        if c.may_pend and self.challenger >= 0:
            return 0, -1
        rows, row_of, naming, quick_turn = c.play_rows, c.play_row, c.naming, self._quick_turn
        total, seat, n, direction = self.total, self.turn, self.n, self.direction
        hands, pile, stock, in_hand = self.hands, self.pile, self.stock, self.in_hand
        played, one_deck, owed = self.turns_played, self.decks == 1, self.owed
        # a no-draw chain (the Icelandic Queen): the chain faced and the run's plays left
        chain_cards, chain, left = c.chain_cards, self.chain, self.plays_left
        run, code = 0, -1
        pending = chain or left  # (falsy but where a chain is under way)
        while True:
            hand = hands[seat]
            if naming and not naming.isdisjoint(hand):
                code = -1  # its plays, once per seat named: legal_codes'
                break
            row = rows.get(total) or row_of(total)
            # (a second copy of a card, with two decks, is no second move)
            cards: Iterable[int] = hand if one_deck else set(hand)
            if pending:  # as _extra_codes: a run holds no second chain card; a player
                # short of a run plays a chain card
                if left:
                    cards = [x for x in cards if x not in chain_cards]
                elif chain > sum(x not in chain_cards for x in hand):
                    cards = [x for x in cards if x in chain_cards]
            plays: list[Play] = []
            for card in cards:
                plays += row[card]
            if not plays:  # laying down or a card over the limit, as legal_codes says
                code = self._none_safe(choice, hand, total) if hand else -1
                break
            # a chain card's play is quick too (``chain_quick``): it starts or lengthens
            # the chain
            code, new, step, card = choice(plays)
            if new is None or owed or len(stock) < 2:
                break
            chained = card in chain_cards
            if step == NEXT:
                nxt = (seat + direction) % n
            elif step == REVERSE:  # (as _quick_turn, without a call)
                direction = self.direction = -direction
                nxt = (seat + direction) % n
            else:  # a skip, or a reverse with two in the hand: the lane's own turn step
                nxt = quick_turn(step, seat, code)
                if nxt < 0:
                    break
                direction = self.direction
            total = new
            hand.remove(card)
            pile.append(card)
            played[seat] += 1
            run += 1
            if pending or chained:  # as _extra_turn
                if left or not chained:  # a card of a run: no draw; the seat plays it out
                    left = left - 1 if left else chain - 1
                    chain = 0
                else:
                    chain += 1
                    hand.append(stock.pop())
                pending = chain or left
                if left:
                    continue
            else:
                hand.append(stock.pop())
            while not in_hand[nxt]:  # (a seat out of the hand is passed over)
                nxt = (nxt + direction) % n
            seat = nxt
        if run:
            self.total, self.turn, self.passes, self.may_decline = total, seat, 0, False
            self.chain, self.plays_left = chain, left
        return run, code

    def _seat_plays(self, plays: Sequence[Play], targets: list[int], total: int) -> list[Play]:
        """``plays`` at ``total`` with each card that names who plays next played once per
        seat of ``targets``, as _extra_codes names them, unsorted (RuleTables.plain_naming)."""
        c = self.c
        out: list[Play] = []
        for play in plays:
            code = play[0]
            card = card_of(code)
            if code < PARAM and card in c.naming:
                each = c.named_plays.get(total * 64 + card) or c.naming_plays(card, total)
                out += [each[s] for s in targets]
            else:
                out.append(play)
        return out

    def _quick_pay(self, seat: int, others: int, mine: int) -> bool:
        """Pay the milestones of ``seat``'s play (``RuleTables.paying``: ``others`` from
        each other seat still in, ``mine`` from the player) as _online_scoring pays them,
        where nobody goes out by it; False (and nothing paid) where somebody would."""
        lives, alive, n = self.lives, self.alive, self.n
        if mine and lives[seat] <= mine:
            return False
        payers = [s for s in range(n) if alive[s] and s != seat] if others else []
        for s in payers:
            if lives[s] <= others:
                return False
        for s in payers:
            lives[s] -= others
        lives[seat] -= mine
        if self.c.pot:  # what is paid goes into the pot
            self.pot += others * len(payers) + mine
        return True

    def _none_safe(self, choice: Choose, hand: list[int], total: int) -> int:
        """The move chosen for a hand with no safe play at ``total`` where the rules leave
        one kind of move (as :meth:`legal_codes` gives it): laying down, or one of the
        hand's plays over the limit; -1 where legal_codes must say."""
        c = self.c
        if c.down_alone:
            return choice(LAY_DOWN)
        if not c.bust_alone:
            return -1
        moves, moves_of, base = c.card_moves, c.moves_of, total * 64
        busting: list[int] = []
        for card in hand if self.decks == 1 else set(hand):
            busting += (moves.get(base + card) or moves_of(card, total))[1]
        busting.sort()  # (legal_codes' order: the same draw as a step at a time makes)
        return choice(busting) if busting else -1

    def apply_code(self, code: int) -> None:
        """Apply a legal action code without checking it (the fast path): the seat to act
        plays the card of a play's code (which holds its value's choice, or the seat it
        names or the total it sets), or makes a special move (:meth:`_special`)."""
        c = self.c
        quick = c.quick.get(self.total * AFTER_KEY + code)
        if quick is None or self._ev is not None or c.may_pend and (self.chain or self.plays_left):
            self._apply_code(code)
            return
        # most plays of a simulation: the turn passes on and the player draws (what
        # _apply_code does, without the checks that cannot apply)
        total, step, card = quick
        seat = self.turn
        if step == NEXT:
            nxt = (seat + self.direction) % self.n
        else:
            nxt = self._quick_turn(step, seat, code)
            if nxt < 0:
                self._apply_code(code)
                return
        hand = self.hands[seat]
        hand.remove(card)
        self.pile.append(card)
        self.turns_played[seat] += 1
        self.passes = 0
        self.may_decline = False
        self.total = total
        if not self.in_hand[nxt]:
            nxt = self._next_seat(nxt, 1)
        if len(self.stock) > 1 and not self.owed:
            self.turn = nxt
            hand.append(self.stock.pop())
        else:
            self._end_turn(seat, nxt)

    def _quick_turn(self, step: int, seat: int, code: int) -> int:
        """The seat a quick play's ``step`` (other than NEXT) passes the turn to, reversing
        the direction where it does; -1 where the play is not quick here after all (a
        reverse with two seats in the hand)."""
        if step == NAMED:
            return number_of(code)
        if step == SKIP:
            if self.c.skip_with_two or sum(self.in_hand) > 2:
                return self._next_seat(seat, 2)
        elif step == REVERSE or sum(self.in_hand) > 2:
            self.direction = -self.direction
        else:
            return -1
        return (seat + self.direction) % self.n

    def _apply_code(self, code: int) -> None:
        """:meth:`apply_code`, every case: special moves, answers and plays that do more than
        pass the turn (events written where asked)."""
        if code >= DOWN:  # (one comparison for the plain plays)
            if code < PARAM:
                self._special(code)
                return
            if code >= ANSWER:
                self._answer(card_of(code))
                return
        card = card_of(code)
        c, ev, seat = self.c, self._ev, self.turn
        self.hands[seat].remove(card)
        self.pile.append(card)
        self.turns_played[seat] += 1
        self.passes = 0
        self.may_decline = False
        old = self.total
        key = old * AFTER_KEY + code
        new = c.after.get(key)
        if new is None:
            new = c.result(code, old)
        self.total = new
        rules, eff, bust = self.rules, c.effects[card], new > c.limit
        if self.known:  # a card played is no longer in the hand anyone knew it in
            self._forget(seat, card)
        if ev is not None:
            value = eff.values[choice_of(code)] if eff.has_choice else None
            ev.append(E.CardPlayed(seat, card, value, old, new))
            call = rules.calls[rank_of(card)] if card < 52 else "{total}"  # (a joker: the total)
            text = (rules.bust_call if bust else call).format(total=new)
            ev.append(E.TotalCalled(seat, new, text))
        if c.scoring_on_play:  # reverses after the play's penalties (Q18, Q47)
            if self._score_play(seat, eff, old, new, bust):
                return
        else:
            if eff.reverse:
                self._reverse(seat)
            if bust:
                self._bust(seat, played=True, before=old)
                return
        if eff.reverse and not c.reverse_holds and sum(self.in_hand) == 2 and self.in_hand[seat]:
            # the optional reading offers the turn, but not to a card that names who is
            # next or starts a no-draw chain (nor inside a run: below)
            offer = c.optional_again and not (eff.name or eff.no_draw)
            if ev is not None:
                ev.append(E.MayPlayAgain(seat) if offer else E.PlaysAgain(seat))
            self.may_decline = offer
            nxt = seat
        elif eff.skip and (rules.skip_with_two_players or sum(self.in_hand) > 2):
            nxt = self._skip_from(seat, self._before if c.scoring_on_play else self.in_hand)
        else:
            nxt = (seat + self.direction) % self.n
            if not self.in_hand[nxt]:
                nxt = self._next_seat(nxt, 1)
        if c.extras:  # a named seat, a no-draw chain
            self._extra_turn(seat, eff, code, nxt)
            if self.plays_left:  # the turn goes on as a run of no-draw answers: no choice
                self.may_decline = False
        elif self.in_hand[seat] and card not in c.no_draw_cards:
            self._end_turn(seat, nxt)
        else:  # paid out of the game by a threshold penalty, or no draw after this card
            self.turn = nxt
        if (
            c.empty_out
            and not self.hands[seat]  # (a swap gave the seat another list)
            and self.in_hand[seat]
            and self.phase != OVER
            and self.chance not in (TAKE, STRIP)  # (the seat is still to take or draw)
            and not self._draw_due(seat)
        ):
            self._knock_out(seat, "empty hand")

    def _named(self, seat: int, target: int) -> int:
        """The seat a naming card names plays next (or, if this play put it out, the one
        after it)."""
        if self._ev is not None:
            self._ev.append(E.Named(seat, target))
        return target if self.in_hand[target] else self._next_seat(target, 1)

    def _extra_turn(self, seat: int, eff: Effect, code: int, nxt: int) -> None:
        """The end of a turn under rules with naming cards or a no-draw chain (the
        Icelandic Queen): the named seat plays next; a player facing a chain of n plays a
        chain card (and draws) or n cards in a row without drawing, and the turn then
        passes by the last card."""
        if eff.challenge:
            self._challenge(seat, number_of(code), nxt)
            return
        if eff.swap:
            self._swap(seat, number_of(code), card_of(code), nxt)
            return
        if eff.take:
            self._take(seat, number_of(code), nxt)
            return
        if eff.strip:
            self._strip(seat, number_of(code), nxt)
            return
        if eff.revive and code >= PARAM:  # (with nobody to name, a plain play: O49)
            self._revive(seat, number_of(code), card_of(code))
            return
        if eff.name:
            nxt = self._named(seat, number_of(code))
        if not self.c.chain_cards:
            if self.in_hand[seat] and card_of(code) not in self.c.no_draw_cards:
                self._end_turn(seat, nxt)
            else:
                self.turn = nxt
            return
        if not self.in_hand[seat]:
            self.plays_left, self.turn = 0, nxt
            return
        if self.plays_left:  # inside a run
            self.plays_left -= 1
            self.turn = seat if self.plays_left else nxt
            return
        if self.chain and not eff.no_draw:  # the first card of a run: nobody draws
            self.plays_left, self.chain = self.chain - 1, 0
            self.turn = seat if self.plays_left else nxt
            if self.plays_left and self._ev is not None:
                self._ev.append(E.MustPlay(seat, self.plays_left))
            return
        if eff.no_draw:
            self.chain += 1
            if self._ev is not None:
                self._ev.append(E.ChainFaced(nxt, self.chain))
        self._end_turn(seat, nxt)

    # Swaps and takes (CN99's Seven and Jack, FAMILIES §12.1, O46-O47) -------------------

    def _swap(self, seat: int, target: int, card: int, nxt: int) -> None:
        """``seat`` played a swap card naming ``target``: the two exchange their whole hands
        (the card already played); each now knows the other's new hand, the hand it gave
        away; what third players knew of either hand moves with it. No draw by either where
        the card is in ``no_draw_after`` (O42); a hand left empty puts its player out (O47)."""
        hands, n = self.hands, self.n
        mine, theirs = hands[seat], hands[target]
        hands[seat], hands[target] = theirs, mine
        if self._ev is not None:
            self._ev.append(E.HandsSwapped(seat, target, len(theirs), len(mine)))
        known = self.known
        for o in range(n):
            a, b = o * n + seat, o * n + target
            known[a], known[b] = known[b], known[a]
        known[seat * n + target] = sorted(mine)  # (kept sorted, as positions write them)
        known[target * n + seat] = sorted(theirs)
        known[seat * n + seat] = []
        known[target * n + target] = []
        self._after_moving(seat, card, nxt, target)

    def _take(self, seat: int, target: int, nxt: int) -> None:
        """``seat`` played a take card naming ``target``: chance picks the card it takes,
        blind (O47), by shuffling the target's hand (:meth:`_took` takes the first)."""
        if self._ev is not None:
            self._ev.append(E.CardTaken(seat, target))
        self.phase, self.chance = CHANCE, TAKE
        self.drawer, self.victim, self.next_turn = seat, target, nxt

    def _took(self, card: int) -> None:
        """The take's card is drawn: it moves from the victim's hand to the taker's, who
        knows it; the victim knows it is now the taker's; a third player who knew cards in
        the victim's hand no longer knows which of them went (O47)."""
        seat, target, nxt, n = self.drawer, self.victim, self.next_turn, self.n
        self.hands[target].remove(card)
        self.hands[seat].append(card)
        known = self.known
        for o in range(n):
            if o != seat and o != target:
                known[o * n + target] = []
        mine = known[seat * n + target]
        if card in mine:
            mine.remove(card)
        known[target * n + seat] = sorted([*known[target * n + seat], card])
        self.phase, self.chance = PLAY, NO_CHANCE
        self.drawer = self.victim = self.next_turn = -1
        self.turn = seat
        # the take card is the pile's top (unless a reset cleared the pile: then it draws)
        self._after_moving(seat, self.pile[-1] if self.pile else -1, nxt, target)

    def _after_moving(self, seat: int, card: int, nxt: int, target: int) -> None:
        """The turn after a swap or a take: the player draws unless ``card`` is a no-draw
        card (O42); a seat left with no card is out where an empty hand is (O47)."""
        if self.in_hand[seat] and card not in self.c.no_draw_cards:
            self._end_turn(seat, nxt)
        else:
            self.turn = nxt
        if self.c.empty_out:
            for s in (target, seat):
                if not self.hands[s] and self.in_hand[s] and self.phase != OVER:
                    self._knock_out(s, "empty hand")
                    if self.turn == s and self.phase != OVER:  # (a restock is pending)
                        self.turn = self._next_seat(s, 1)

    def _draw_due(self, seat: int) -> bool:
        """A restock is pending after which ``seat`` draws (so an empty hand is not out)."""
        return self.chance == RESTOCK and (
            self.drawer == seat and self.owed > 0 or self.victim == seat
        )

    # The jokers' strip and revival (CN99, FAMILIES §12.1, O48-O49) ----------------------

    def _strip(self, seat: int, target: int, nxt: int) -> None:
        """``seat`` played a strip card naming ``target``: chance picks, blind, the one
        card the target keeps (:meth:`_stripped` keeps the first of its shuffled hand)."""
        if self._ev is not None:
            self._ev.append(E.HandStripped(seat, target, len(self.hands[target]) - 1))
        self.phase, self.chance = CHANCE, STRIP
        self.drawer, self.victim, self.next_turn = seat, target, nxt

    def _stripped(self, card: int) -> None:
        """The strip's kept card is drawn: the target keeps only ``card``; its other cards
        go face down into the stock, which is shuffled (a restock, after which the joker's
        player draws as after any card, O48). Nobody else knows which card is left, so
        what other seats knew of the target's hand is forgotten; the target knows what it
        lost, but those cards are now in the stock, where nobody knows them."""
        seat, target, nxt, n = self.drawer, self.victim, self.next_turn, self.n
        hand = self.hands[target]
        hand.remove(card)
        rest = hand[:]
        hand[:] = [card]
        self.stock += rest
        known = self.known
        for o in range(n):
            if o != target:
                known[o * n + target] = []
        top = self.pile[-1] if self.pile else -1
        draws = int(self.in_hand[seat] and top not in self.c.no_draw_cards)
        self.victim = self.next_turn = -1
        self.turn = nxt
        self.phase, self.chance, self.drawer, self.owed = CHANCE, RESTOCK, seat, draws
        if self.c.empty_out and not draws and not self.hands[seat] and self.in_hand[seat]:
            self._knock_out(seat, "empty hand")

    def _revive(self, seat: int, target: int, card: int) -> None:
        """``seat`` played a revival card naming ``target``: a target out of the hand comes
        back into the game, where it plays when play next reaches its seat, and draws a
        full hand; a target in the hand (``seat`` itself, maybe) fills its hand up from
        the stock. The joker's player then draws as after any card, unless it filled its
        own hand: that is its draw (O49). Others' knowledge of a returning hand is void."""
        n, hands = self.n, self.hands
        back = not self.in_hand[target]
        if back:
            self.alive[target] = self.in_hand[target] = True
            pool = self.pool(target)
            self.lives[pool] = max(self.lives[pool], 1)
            if self.known:
                for o in range(n):
                    self.known[o * n + target] = []
        need = max(0, self.rules.hand_size - len(hands[target]))
        if self._ev is not None:
            event = E.PlayerRevived if back else E.HandFilled
            self._ev.append(event(seat, target, need))
        nxt = (seat + self.direction) % n
        if not self.in_hand[nxt]:
            nxt = self._next_seat(nxt, 1)
        self.turn = nxt
        draws = target != seat and self.in_hand[seat] and card not in self.c.no_draw_cards
        self._draw(target, need)
        if self.phase == CHANCE:  # the stock ran out: the joker's player draws after it
            self.victim = seat if draws and self.chance == RESTOCK else -1
            return
        if self.phase == PLAY and draws:
            self._end_turn(seat, nxt)

    def _forget(self, holder: int, card: int) -> None:
        """``card`` left ``holder``'s hand face up: nobody knows it there any more."""
        known, n = self.known, self.n
        for o in range(n):
            cards = known[o * n + holder]
            if card in cards:
                cards.remove(card)

    def known_to(self, seat: int) -> list[list[int]]:
        """Per seat, the cards ``seat`` knows to be in that seat's hand now (sorted; its own
        entry is empty: it sees its own hand): what a swap or a take taught it."""
        n = self.n
        found: list[list[int]] = [[] for _ in range(n)]
        if not self.known:
            return found
        for holder in range(n):
            cards = self.known[seat * n + holder]
            if holder == seat or not cards:
                continue
            left = Counter(self.hands[holder])
            for c in cards:
                if left[c] > 0:
                    left[c] -= 1
                    found[holder].append(c)
            found[holder].sort()
        return found

    # The King Challenge (KC, FAMILIES §12.2) -------------------------------------------

    def _challenge(self, seat: int, target: int, nxt: int) -> None:
        """``seat`` played a challenge card naming ``target``: it draws, and the target
        answers; a target with no card that answers is out at once (O58: not asked)."""
        if self._ev is not None:
            self._ev.append(E.Challenged(seat, target))
        if not any(card in self.c.answers for card in self.hands[target]):
            self._concede(target, seat)
            if self.phase != OVER and self.in_hand[seat]:
                self._end_turn(seat, self.turn)
            return
        self.challenger = seat
        self._end_turn(seat, target)

    def _concede(self, target: int, attacker: int = -1) -> None:
        """The challenged ``target`` does not answer: it is out of the game; the seat after
        the challenger's plays next (O60)."""
        attacker = self.challenger if attacker < 0 else attacker
        self.challenger = -1
        if self._ev is not None:
            self._ev.append(E.Conceded(target))
        self._knock_out(target)
        if self.phase != OVER:
            self.turn = self._next_seat(attacker, 1)

    def _answer(self, card: int) -> None:
        """The challenged seat answers with ``card``: a challenge card puts the challenger
        out instead, any other answer cancels the challenge. The card goes on the pile
        without counting, the answerer draws back at once, and the seat after the
        challenger's plays next (O56, O60)."""
        seat, attacker = self.turn, self.challenger
        self.hands[seat].remove(card)
        self.pile.append(card)
        self.challenger = -1
        if self.known:
            self._forget(seat, card)
        reflected = card in self.c.challenging
        if self._ev is not None:
            self._ev.append(E.ChallengeAnswered(seat, card, attacker if reflected else None))
        if reflected:
            self._knock_out(attacker)
            if self.phase == OVER:
                return
        self.turn = self._next_seat(attacker, 1)
        self._draw(seat, 1)

    def _knock_out(self, seat: int, reason: str = "challenge") -> None:
        """A challenge (or an empty hand, O47) puts ``seat`` out of the game: it pays every
        life it has left; if it was to play, the next seat in the hand plays."""
        self._pay(seat, self.seat_lives(seat), reason)
        self.in_hand[seat] = False
        if self.turn == seat and self.phase == PLAY:
            self.turn = self._next_seat(seat, 1)

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
    if (why := table_refusal(rules, n)) is not None:
        raise RecordError(f"{n} players: {why}")
    deck = sorted(new_deck(state.decks, rules.jokers))
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
    if state.may_decline and not (
        state.c.optional_again
        and sum(state.in_hand) == 2
        and state.phase in (PLAY, DRAWING, CHANCE)
    ):
        raise RecordError(
            "may_decline = true needs two_player_reverse = 'play_again_optional', "
            "two players in the hand and a turn under way"
        )
    if state.challenger >= 0 and not (
        state.c.challenging
        and state.challenger < n
        and state.challenger != state.turn
        and state.in_hand[state.challenger]
        and state.phase in (PLAY, DRAWING, CHANCE)
    ):
        raise RecordError(
            f"challenger = {state.challenger + 1}: needs a rules' challenge card, a turn under "
            "way and another seat still in the hand than the one to answer"
        )
    if state.chance in (TAKE, STRIP) and not (
        0 <= state.victim < n
        and state.hands[state.victim]
        and 0 <= state.drawer < n
        and state.drawer != state.victim
        and 0 <= state.next_turn < n
    ):
        raise RecordError(
            f"a {state.chance} is due, but victim = {state.victim + 1}, drawer = "
            f"{state.drawer + 1} and next_turn = {state.next_turn + 1} are not two seats, "
            "the victim holding a card, and the seat to play next"
        )
    if state.chance == RESTOCK and state.phase == CHANCE and state.victim >= n:
        raise RecordError(f"victim = {state.victim + 1}: no such seat to draw after the restock")
    for s in range(n):
        if state.in_hand[s] and not state.alive[s]:
            raise RecordError(f"seat {s + 1} is out of the game but still in the hand")
