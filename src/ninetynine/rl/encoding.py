"""The canonical encoding of Ninety-Nine for learning agents (version :data:`VERSION`).

One :class:`Encoding` per rule set and table size gives

* a dense **action index** ``0 .. actions - 1`` covering every action the rules can ask for:
  a card played with a choice of value, down, pass, draw, nodraw, a card that names the
  next seat (``5S>3``) and a card that sets a chosen total (``AS=57``);
* the **legal-action mask** of a state, and
* the **observation** of one seat: a float32 vector in [0, 1], built from the state on the
  engine's fast path (no :class:`~ninetynine.engine.view.View`), holding only what that seat may
  know: its own hand, the face-up cards, how many of each rank it has not seen, the total,
  the direction, each seat's lives, hand size and standing in seat order from its own, the
  cards last played, where the turn is and (version 2) which ranks each seat has played
  this hand (since the stock was last reshuffled).

CN99's cards (FAMILIES.md §12.1) widen the layout of their own rules only, so every other
rule set's is unchanged: the jokers are card slots 52 and 53 (rank slots 13 and 14, action
codes ``4 * 52`` and ``4 * 56`` on, as the engine's), and where a swap or a take moves
cards each seat's observation says which cards it knows in each other hand. KC's challenge
(FAMILIES.md §12.2) widens its own too: an action per card that may answer a challenge and
one to accept it, after every other, and the challenger's seat in the observation.

The layout is documented in ``docs/ai.md``; any change to it raises :data:`VERSION`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np

from ninetynine.engine.actions import Action, ActionKind
from ninetynine.engine.events import (
    CardPlayed,
    ChallengeAnswered,
    HandStarted,
    Shuffled,
    StockReshuffled,
)
from ninetynine.engine.game import new_game
from ninetynine.engine.state import (
    ACCEPT,
    DOWN,
    DRAW,
    DRAWING,
    NODRAW,
    PASS,
    PLAY,
    SPECIAL_KINDS,
    Phase,
    State,
)
from ninetynine.engine.tables import (
    ANSWER,
    PARAM,
    answer_code,
    card_of,
    choice_of,
    compiled,
    number_of,
    param_code,
)
from ninetynine.engine.view import View
from ninetynine.errors import IllegalActionError, NinetyNineError, RecordError
from ninetynine.rules.cards import JOKERS, format_card, rank_of
from ninetynine.rules.effects import Effect, Kind
from ninetynine.rules.presets import load_rules
from ninetynine.rules.settings import Rules, Scoring

VERSION = 2  # the default; VERSIONS are all still made
VERSIONS = (1, 2)

PLAYS = 52 * 4  # card * 4 + choice: the engine's own code for a play
SPECIAL = {DOWN: PLAYS, PASS: PLAYS + 1, DRAW: PLAYS + 2, NODRAW: PLAYS + 3}
NAMING_BASE = PLAYS + 4  # then one block of seats per naming card, then the set-any cards
# with jokers: the cards a pack can hold (the codes 53-55 are never dealt), their slots in
# the card blocks (52, 53 for the jokers) and each rank's copies in a pack
DEALT = (*range(52), *JOKERS)
SLOT = (*range(52), 52, 52, 52, 52, 53)  # by card code
PER_PACK = (4,) * 13 + (1, 1)  # each rank's copies in a pack, the jokers' too


def rules_for(rules: str | Rules, players: int) -> Rules:
    """The rules (a preset id or alias, or a :class:`Rules`: a file is never read), checked for
    ``players``: one line of error naming what is wrong and what is accepted."""
    loaded = load_rules(rules) if isinstance(rules, str) else rules
    if (
        not isinstance(players, int)
        or isinstance(players, bool)
        or not loaded.players_min <= players <= loaded.players_max
    ):
        raise RecordError(
            f"players = {players!r}: {loaded.id} is for {loaded.players_min} to "
            f"{loaded.players_max} players"
        )
    return loaded


@cache
def encoding_for(rules: Rules, players: int, version: int = VERSION) -> Encoding:
    """The encoding of a rule set and table size, made once."""
    return Encoding(rules, players, version)


# (seat, card) of each card played this hand since the last reshuffle of the stock, in
# order: while a hand goes on, the played cards can come back to be played again
Played = Sequence[tuple[int, int]]


def encode(game: State | View, seat: int | None = None, played: Played | None = None) -> np.ndarray:
    """The observation of a seat (version :data:`VERSION`): from its
    :class:`~ninetynine.engine.view.View` alone (:meth:`Encoding.observe_view`), or of
    ``seat`` in a state with the cards ``played`` this hand (:meth:`Encoding.observe`); the
    two are equal."""
    if isinstance(game, View):
        return encoding_for(game.rules, game.players).observe_view(game)
    if seat is None:
        raise TypeError("encode(state, seat): a state needs the seat to observe")
    return encoding_for(game.rules, game.n).observe(game, seat, played)


def legal_mask(state: State) -> np.ndarray:
    """The legal actions of the seat to act as 0/1 (:meth:`Encoding.mask`)."""
    return encoding_for(state.rules, state.n).mask(state)


@dataclass(frozen=True, slots=True)
class Block:
    """A named run of the observation vector."""

    name: str
    start: int
    size: int


class Encoding:
    """Action indexes, masks and observations for one rule set at one table size, in
    layout ``version`` (1 or 2, see ``docs/ai.md``; the action index is the same)."""

    def __init__(self, rules: str | Rules, players: int, version: int = VERSION) -> None:
        if version not in VERSIONS:
            raise NinetyNineError(
                f"encoding version {version!r}: expected one of {', '.join(map(str, VERSIONS))}"
            )
        self.version = version
        self.rules = rules_for(rules, players)
        self.players = n = players
        c = self.c = compiled(self.rules)
        self.limit = limit = self.rules.limit
        # the counts' scale: version 1, the most decks at any table size of the rules (one
        # scale for every size); version 2, this table's own
        self.decks = (
            max(
                self.rules.decks_for(k)
                for k in range(self.rules.players_min, self.rules.players_max + 1)
            )
            if version == 1
            else self.rules.decks_for(players)
        )
        # Actions --------------------------------------------------------------------
        jokers = self.rules.jokers
        cards = DEALT if jokers else range(52)
        self.naming = sorted(c.naming.intersection(cards))
        self.setting = [card for card in cards if c.effects[card].kind is Kind.SET_ANY]
        plays = [4 * card + choice for card in cards for choice in range(4)]
        self.special = len(plays)  # the index of `down`, then pass, draw, nodraw
        self.set_base = self.special + 4 + len(self.naming) * n
        codes = plays + sorted(SPECIAL, key=SPECIAL.__getitem__)
        for card in self.naming:
            codes += [param_code(card, seat) for seat in range(n)]
        for card in self.setting:
            codes += [param_code(card, total) for total in range(limit + 1)]
        # a challenge's answers (KC): each card that may answer it, then accepting it
        self.challenging = bool(c.challenging)
        if self.challenging:
            codes += [answer_code(card) for card in sorted(c.answers.intersection(cards))]
            codes.append(ACCEPT)
        self.actions = len(codes)
        self.codes = codes  # index -> engine code
        self.index = {code: i for i, code in enumerate(codes)}  # engine code -> index
        # Observation ----------------------------------------------------------------
        self.recent = n  # face-up cards last played, newest first
        self.slots = slots = len(cards)  # card slots: 52, or 54 with the jokers
        self.ranks = ranks = 15 if jokers else 13
        # each rank's copies in the decks of the counts' scale
        self.copies = tuple(k * self.decks for k in PER_PACK[:ranks])
        self._unseen_scale = np.asarray(self.copies, np.float32)
        sizes = [
            ("hand", slots),
            ("seen", slots),
            ("unseen", ranks),
            ("total", limit + 1),
            ("total_scalar", 2),
            ("recent", self.recent * ranks),
            ("seats", n * 7),
            ("table", 8),
        ]
        if version >= 2:  # who played what this hand, per seat from the observer's
            sizes.append(("played", n * ranks))
        self.knowing = any(e.moves_cards for e in self.rules.effects())
        if self.knowing:  # the cards a swap or a take showed it, per other seat from its own
            sizes.append(("known", (n - 1) * slots))
        if self.challenging:  # whose challenge the seat to act answers, from the observer's
            sizes.append(("challenger", n))
        self.blocks: dict[str, Block] = {}
        start = 0
        for name, size in sizes:
            self.blocks[name] = Block(name, start, size)
            start += size
        self.size = start
        self.lives = max(1, self.rules.lives_for(n))
        self.deck_size = self.rules.pack * self.decks
        self.points = self.rules.points_target if self.rules.scoring is Scoring.GAME_POINTS else 1
        self._codes: dict[Action, int] = {}  # a legal action -> its code (see _code_of)

    # Actions ------------------------------------------------------------------------

    def code_of(self, index: int | np.integer[Any]) -> int:
        """The engine code of an action index (any index in range, legal or not)."""
        if not isinstance(index, int | np.integer) or not 0 <= index < self.actions:
            raise IllegalActionError(
                f"action {index!r} is not an action index: expected a "
                f"whole number from 0 to {self.actions - 1}"
            )
        return self.codes[int(index)]

    def index_of(self, code: int) -> int:
        """The action index of an engine code (a KeyError for a code these rules never make)."""
        return self.index[code]

    def legal_indexes(self, state: State) -> list[int]:
        """The action indexes of the seat to act's legal actions, in engine code order; empty
        at a chance node or after the game."""
        index = self.index
        return [index[code] for code in state.legal_codes()]

    def mask(self, state: State, seat: int | None = None) -> np.ndarray:
        """The legal actions as 0/1 (int8); all 0 unless ``seat`` (default: the seat to
        act) is to act."""
        mask = np.zeros(self.actions, np.int8)
        if seat is None or seat == state.current_seat:
            mask[self.legal_indexes(state)] = 1
        return mask

    def check(self, state: State, index: int | np.integer[Any]) -> int:
        """The engine code of a legal action index, or one clear error."""
        code = self.code_of(index)
        legal = state.legal_codes()
        if code not in legal:
            shown = ", ".join(f"{self.index[c]} ({self.text(self.index[c])})" for c in legal)
            raise IllegalActionError(
                f"action {index} ({self.text(int(index))}) is not legal "
                f"now: the legal actions are {shown or 'none'}"
            )
        return code

    def text(self, index: int) -> str:
        """An action index in the records' notation (``AS+11``, ``5S>3``, ``down``)."""
        code = self.code_of(index)
        if code >= ANSWER:  # an answer is written as its card alone
            return format_card(card_of(code))
        if code >= PARAM:
            card, number = card_of(code), number_of(code)
            mark = f">{number + 1}" if card in self.c.naming else f"={number}"
            return format_card(card) + mark
        if code >= DOWN:
            return SPECIAL_KINDS[code].value
        card, choice = card_of(code), choice_of(code)
        eff = self.c.effects[card]
        if eff.has_choice and choice < len(eff.values):
            return f"{format_card(card)}{eff.values[choice]:+d}"
        if choice == 0 and _alone(eff):
            return format_card(card)
        return f"{format_card(card)} with choice {choice}, which these rules do not have"

    # Observations -------------------------------------------------------------------

    def observe(self, state: State, seat: int, played: Played | None = None) -> np.ndarray:
        """The observation of ``seat``: only what it may know (see the module docs).
        Version 2 needs the cards ``played`` this hand (the environments keep them: the
        state does not know who played which card)."""
        return self._observation(
            _Facts(
                seat,
                state.hands[seat],
                state.pile[state.face_down :],
                state.out,
                state.decks,
                state.total,
                state.direction,
                len(state.stock),
                state.phase,
                state.chain,
                state.plays_left,
                state.owed,
                state.current_seat,
                state.dealer,
                state.alive,
                state.in_hand,
                [len(h) for h in state.hands],
                [state.seat_lives(s) for s in range(state.n)],
                state.points,
                state.scores,
                played,
                state.known_to(seat) if self.knowing else (),
                state.challenger if state.challenger >= 0 else None,
            )
        )

    def observe_view(self, view: View) -> np.ndarray:
        """The observation of ``view.seat`` from its view alone: equal to :meth:`observe`
        of the state the view was taken of, so a policy trained here can take a seat
        anywhere a bot does (:class:`~ninetynine.rl.policy.PolicyBot`)."""
        return self._observation(
            _Facts(
                view.seat,
                view.hand,
                view.pile,
                view.out,
                view.decks,
                view.total,
                view.direction,
                view.stock_size,
                view.phase,
                view.chain,
                view.plays_left,
                view.owed,
                view.turn,
                view.dealer,
                view.alive,
                view.in_hand,
                view.hand_sizes,
                view.lives,
                view.points,
                view.scores,
                _played_in(view) if self.version >= 2 else None,
                view.known,
                view.challenger,
            )
        )

    def view_mask(self, view: View) -> np.ndarray:
        """The legal actions of ``view.seat`` as 0/1 (int8), from its view: :meth:`mask`."""
        mask = np.zeros(self.actions, np.int8)
        for action in view.legal:
            mask[self.index[self._code_in(view, action)]] = 1
        return mask

    def action_for(self, view: View, index: int | np.integer[Any]) -> Action:
        """The action of ``view.legal`` that an index stands for, or one clear error."""
        code = self.code_of(index)
        for action in view.legal:
            if self._code_in(view, action) == code:
                return action
        shown = ", ".join(f"{self.index[self._code_in(view, a)]} ({a.shown()})" for a in view.legal)
        raise IllegalActionError(
            f"action {index} ({self.text(int(index))}) is not legal now: the legal actions "
            f"are {shown or 'none'}"
        )

    def _code_in(self, view: View, action: Action) -> int:
        """The engine code of one of a view's legal actions: a challenged seat's card is
        its answer (written as the card alone, as a plain play of it is)."""
        if view.challenger is not None and action.kind is ActionKind.PLAY:
            assert action.card is not None
            return answer_code(action.card)
        return self._code_of(action)

    def _code_of(self, action: Action) -> int:
        """The engine code of an action these rules can ask for (every index's action is
        made once, by a state of these rules, and looked up by value; an answer, which
        reads as its card's plain play, by :meth:`_code_in`)."""
        if not self._codes:
            state = new_game(self.rules, self.players)
            self._codes = {
                state.action_of(code): code
                for code in self.codes
                if code < ANSWER and self._made(code)
            }
        return self._codes[action]

    def _made(self, code: int) -> bool:
        """Whether these rules make the action of a code: any code but a play with a
        choice that its card does not have."""
        if code >= DOWN:
            return True
        eff = self.c.effects[card_of(code)]
        choice = choice_of(code)
        return choice < len(eff.values) if eff.has_choice else choice == 0 and _alone(eff)

    def _observation(self, f: _Facts) -> np.ndarray:
        out = np.zeros(self.size, np.float32)
        b, n = self.blocks, self.players
        unit = 1.0 / self.decks
        hand, seen, ranks, slot = b["hand"].start, b["seen"].start, self.ranks, SLOT
        unseen = [k * f.decks for k in PER_PACK[:ranks]]
        for card in f.hand:
            out[hand + slot[card]] += unit
            unseen[rank_of(card)] -= 1
        for cards in (f.face_up, f.out):
            for card in cards:
                out[seen + slot[card]] += unit
                unseen[rank_of(card)] -= 1
        base = b["unseen"].start
        out[base : base + ranks] = np.asarray(unseen, np.float32) / self._unseen_scale
        total, limit = f.total, self.limit
        out[b["total"].start + min(max(total, 0), limit)] = 1.0
        base = b["total_scalar"].start
        out[base] = min(max(total, 0), limit) / limit
        out[base + 1] = min(max(-total, 0), limit) / limit  # how far below 0 (where allowed)
        base = b["recent"].start
        for k, card in enumerate(reversed(f.face_up[-self.recent :])):
            out[base + ranks * k + rank_of(card)] = 1.0
        self._seats(f, out, b["seats"].start)
        base = b["table"].start
        out[base] = f.direction > 0
        out[base + 1] = min(f.stock / self.deck_size, 1.0)
        out[base + 2] = f.phase == PLAY
        out[base + 3] = f.phase == DRAWING
        out[base + 4] = min(f.chain, n) / n
        out[base + 5] = min(f.plays_left, n) / n
        out[base + 6] = min(f.owed, 4) / 4
        out[base + 7] = f.turn == f.seat
        if self.version >= 2:
            if f.played is None:
                raise NinetyNineError(
                    "encoding version 2 observes who played what this hand: give the cards "
                    "played (the environments keep them), a view with its history, or use "
                    "version 1"
                )
            base, copies = b["played"].start, self.copies
            for seat, card in f.played:
                rank = rank_of(card)
                out[base + ranks * ((seat - f.seat) % n) + rank] += 1.0 / copies[rank]
        if self.knowing:  # per other seat from the observer's, the cards it knows there
            base, slots = b["known"].start, self.slots
            for k in range(1, n):
                for card in f.known[(f.seat + k) % n]:
                    out[base + slots * (k - 1) + slot[card]] += unit
        if self.challenging and f.challenger is not None:
            out[b["challenger"].start + (f.challenger - f.seat) % n] = 1.0
        return out

    def _seats(self, f: _Facts, out: np.ndarray, base: int) -> None:
        """Per seat from ``f.seat`` on: alive, in the hand, to act, dealer, hand size, lives
        (or game points) and score, each in [0, 1]."""
        n, turn, rules = self.players, f.turn, self.rules
        size = max(1, rules.hand_size)
        game_points = rules.scoring is Scoring.GAME_POINTS
        for k in range(n):
            s = (f.seat + k) % n
            at = base + 7 * k
            out[at] = f.alive[s]
            out[at + 1] = f.in_hand[s]
            out[at + 2] = s == turn
            out[at + 3] = s == f.dealer
            out[at + 4] = min(f.sizes[s] / (2 * size), 1.0)
            if game_points:
                out[at + 5] = min(max(f.points[s], 0) / (2 * rules.points_per_hand or 1), 1.0)
                out[at + 6] = min(max(f.scores[s], 0) / self.points, 1.0)
            else:
                out[at + 5] = min(f.lives[s] / (2 * self.lives), 1.0)


def _alone(eff: Effect) -> bool:
    """Whether a card of this effect can be played as itself, with no seat or total: any
    card without one, and CN99's big joker where there is nobody to name (O49)."""
    return not eff.has_param or eff.revive


@dataclass(frozen=True, slots=True)
class _Facts:
    """What one seat's observation is made of, read from a state or from that seat's view
    alike (so the two give the same vector)."""

    seat: int
    hand: Sequence[int]
    face_up: Sequence[int]
    out: Sequence[int]
    decks: int  # in play at this table
    total: int
    direction: int
    stock: int  # cards in it
    phase: Phase
    chain: int
    plays_left: int
    owed: int
    turn: int | None
    dealer: int
    alive: Sequence[bool]
    in_hand: Sequence[bool]
    sizes: Sequence[int]  # each seat's cards in hand
    lives: Sequence[int]  # each seat's to spend (a team's pool for each partner)
    points: Sequence[int]
    scores: Sequence[int]
    played: Played | None  # this hand's cards played by seat (version 2), in order
    known: Sequence[Sequence[int]]  # per seat, the cards it is known to hold (swaps, takes)
    challenger: int | None  # whose challenge the seat to act must answer (KC)


def _played_in(view: View) -> Played:
    """The cards played this hand since the stock was last reshuffled, by seat, from a
    view's public history; one clear error for a view without it."""
    played: list[tuple[int, int]] = []
    for event in reversed(view.history):
        # (any shuffle of the stock: a restock, a top-up, or the stripped cards shuffled in)
        if isinstance(event, HandStarted | StockReshuffled | Shuffled):
            return played[::-1]
        if isinstance(event, CardPlayed | ChallengeAnswered):  # (an answer goes on the pile)
            played.append((event.seat, event.card))
    raise NinetyNineError(
        "encoding version 2 reads who played what this hand from the view's history, and "
        "this view has none: observe a view with the public log (a match's), or use version 1"
    )
