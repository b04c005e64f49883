"""A batch engine: thousands of games of one rule set stepped at once with NumPy.

Every slot of a :class:`Batch` is always at a decision: chance (deals, restocks) is drawn
inside the step, and a game that ends starts again in its slot. It plays 34 of the 37
presets (the base games P, K, G, J, QC, IS and TW among them) and any rules built from the
same parts; :func:`check_supported` names the first setting or card it does not play
(docs/ai.md lists them: CN99's and KC's own cards and rules, instant hands). A differential
test replays random games of the reference engine through it, shuffle for shuffle and
move for move.

Actions are per hand *slot*, not per card: action ``width * slot + choice`` plays the card
in that slot of the hand with that choice of value (0 for a card with one value; for a card
with two, 0 is the lower and 1 the higher, as in the engine), and action ``width *
hand_size`` is ``down`` (lay down, when nothing else is legal). ``width`` is 2, or, where a
card names who plays next (TW's Five), the number of seats: such a card's choice is the
seat it names. :meth:`Batch.codes` gives the engine's action codes (which are the canonical
indexes of :mod:`ninetynine.rl.encoding` for plays).

>>> batch = Batch("P", 4, 8, seed=1)
>>> legal = batch.legal()                  # one bit per action, per slot
>>> batch.step(batch.random_actions(legal))
>>> batch.decisions
8
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ninetynine.engine.ledger import CANNOT_PLAY, OVER_
from ninetynine.engine.tables import PARAM, choice_of, compiled, number_of, param_code, play_code
from ninetynine.errors import RulesError
from ninetynine.rl.encoding import rules_for
from ninetynine.rules.cards import format_card, rank_of
from ninetynine.rules.effects import Effect, Kind, Named
from ninetynine.rules.settings import (
    AfterBust,
    BelowZero,
    DeckCount,
    Direction,
    Draw,
    EliminatedHand,
    Elimination,
    EmptyDraw,
    EmptyHand,
    ForcedCard,
    GameEnd,
    NewRoundDeal,
    NoLegalPlay,
    OnlineCross,
    PointsTie,
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
    Teams,
    Thresholds,
    TwoPlayerReverse,
)

EMPTY = 52  # an empty hand slot (and no pile top)
CARD = np.int8  # a card (or EMPTY) in the per-game arrays: card * 4 outgrows it, widen first
# each card's rank (EMPTY's: 13), the engine's rank_of as a NumPy lookup: the bit layout is
# written in rules/cards.py and engine/tables.py alone
RANK_OF = np.array([rank_of(card) for card in range(EMPTY)] + [13], np.int64)

# (key, the values the batch engine plays): the first setting outside them is named
SUPPORTED: tuple[tuple[str, tuple[Any, ...]], ...] = (
    ("scoring", (Scoring.LIVES, Scoring.GAME_POINTS)),
    ("thresholds", (Thresholds.NONE, Thresholds.ONLINE, Thresholds.BORDERS)),
    (
        "rule_69",
        (
            Rule69.NONE,
            Rule69.RESET_TO_ZERO,
            Rule69.PENNY_FROM_POOL,
            Rule69.OTHERS_DRINK,
            Rule69.EXTRA_POINT,
        ),
    ),
    ("instant_hands", ((),)),  # none
    ("start_total", (StartTotal.ZERO, StartTotal.UPCARD)),
    ("draw", (Draw.AUTO,)),
    ("restock", (Restock.LAZY,)),
    ("teams", (Teams.NONE, Teams.POOLED)),
    ("game_end", (GameEnd.LAST_SURVIVOR, GameEnd.FIRST_OUT)),
    ("elimination", (Elimination.AT_ZERO, Elimination.CANNOT_PAY, Elimination.NEVER)),
    ("eliminated_hand", (EliminatedHand.KEEP, EliminatedHand.UNDER_PILE)),
    ("starter", (Starter.LEFT_OF_DEALER, Starter.LEFT_OF_LOSER, Starter.LOSER, Starter.RANDOM)),
    ("stuck", (Stuck.BUST,)),
    ("forced_card", (ForcedCard.CHOOSE,)),
    ("two_player_reverse", (TwoPlayerReverse.HOLD, TwoPlayerReverse.PLAY_AGAIN)),
    (
        "after_bust",
        (AfterBust.END_HAND, AfterBust.SIT_OUT, AfterBust.RESET_ALL, AfterBust.RESET_OTHERS),
    ),
    (
        "stock_empty",
        (StockEmpty.RESHUFFLE_KEEP_TOP, StockEmpty.RESHUFFLE_ALL, StockEmpty.NO_DRAW),
    ),
    ("empty_draw", (EmptyDraw.SKIP,)),
    ("new_round_deal", (NewRoundDeal.FULL_RESHUFFLE, NewRoundDeal.FROM_STOCK)),
    ("deck_count", (DeckCount.AT_START,)),
    ("jokers", (False,)),
    ("empty_hand", (EmptyHand.STUCK,)),
    ("no_draw_after", ((),)),
)


def fit(*values: int) -> type[np.signedinteger[Any]]:
    """The smallest signed integer type that holds ``values`` (per-game arrays are compact:
    signed, so that -1 and comparisons with negatives mean what they say)."""
    for kind in (np.int8, np.int16, np.int32):
        info = np.iinfo(kind)
        if info.min <= min(values) and max(values) <= info.max:
            return kind
    return np.int64


# A shuffler takes the slots to shuffle for and, per slot, the cards (sorted; padded with
# EMPTY) with their counts; it returns each slot's order, top card first, padded likewise.
Shuffler = Callable[[np.ndarray, np.ndarray, np.ndarray], np.ndarray]
# A leader (under ``starter = "random"``) takes the slots whose new hand needs a leader and,
# per slot, the seats still in (a bit per seat); it returns each slot's leader.
Leader = Callable[[np.ndarray, np.ndarray], np.ndarray]
# A reinserter (under ``start_total = "upcard"``) takes the slots whose up-card is special
# and the lowest and highest depths it may go back into the stock at (from the top, as the
# reference engine's Reinsert); it returns each slot's depth.
Reinserter = Callable[[np.ndarray, np.ndarray, np.ndarray], np.ndarray]


# the card kinds the batch engine plays (a card may also reverse or skip), and in words
KINDS = (Kind.ADD, Kind.SET, Kind.DOUBLE, Kind.HALVE_OR_DOUBLE, Kind.HALVE_EVEN)
# how each kind of card changes the total where the add and set tables do not: by index
DOUBLES, HALVES_OVER, HALVES_EVEN = 1, 2, 3
_DOUBLING = {Kind.DOUBLE: DOUBLES, Kind.HALVE_OR_DOUBLE: HALVES_OVER, Kind.HALVE_EVEN: HALVES_EVEN}
_KIND_WORDS = {
    Kind.ADD: "add (one or two values)",
    Kind.SET: "set",
    Kind.DOUBLE: "double",
    Kind.HALVE_OR_DOUBLE: "halve",
    Kind.HALVE_EVEN: "halve",
}


def check_supported(
    rules: Rules,
    supported: tuple[tuple[str, tuple[Any, ...]], ...] = SUPPORTED,
    engine: str = "the batch engine",
    kinds: tuple[Kind, ...] = KINDS,
    chains: bool = True,
    naming: bool = True,
) -> None:
    """Raise :class:`RulesError` naming the first setting ``engine`` does not play (of
    ``supported``), or the first card whose effect it does not play (of ``kinds``; a card
    that starts a no-draw chain, unless ``chains``; one that names who plays next, unless
    ``naming``)."""
    for key, accepted in supported:
        value = getattr(rules, key)
        if value not in accepted:
            shown = ", ".join(_shown(v) for v in accepted)
            raise RulesError(
                f"{engine} does not play rules key {key!r} = {_shown(value)}: it plays {shown}"
            )
    for card in range(52):
        why = _unplayed_effect(rules.effect_of(card), kinds, chains, naming)
        if why is not None:
            words = list(dict.fromkeys(_KIND_WORDS[kind] for kind in kinds))
            shown = ", ".join(words[:-1]) + f" or {words[-1]}" if len(words) > 1 else words[0]
            named = ", name who plays next" if naming else ""
            raise RulesError(
                f"{engine} does not play card {format_card(card)} of these rules ({why}): it "
                f"plays cards that {shown}, and that may reverse or skip{named}"
            )
    if rules.thresholds is Thresholds.ONLINE and any(rules.effect_of(c).name for c in range(52)):
        raise RulesError(  # (a milestone's payment may put the seat named out)
            f"{engine} does not play a card that names who plays next under rules key "
            "'thresholds' = 'online': it plays them under 'none' or 'borders'"
        )


def _shown(value: Any) -> str:
    """A setting's value as a rules file writes it (``'sit_out'``, ``['3xK win']``)."""
    if isinstance(value, tuple):
        return "[" + ", ".join(_shown(v) for v in value) + "]"
    plain = getattr(value, "value", value)
    return repr(plain if isinstance(plain, bool | int | float | str) else str(plain))


def _unplayed_effect(
    eff: Effect, kinds: tuple[Kind, ...], chains: bool, naming: bool
) -> str | None:
    """What of a card's effect an engine playing ``kinds`` (and no-draw chains, if
    ``chains``; cards that name who plays next and do nothing more, if ``naming``) does not
    play (None: all)."""
    if eff.names_seat:
        if not naming or eff.named is not Named.NEXT:
            return f"it names a seat: {eff.named}"
        if eff.no_draw:  # (the rules let a naming card neither reverse, skip nor choose)
            return "it names who plays next and starts a no-draw chain"
    if eff.no_draw and not chains:
        return "no draw after it"
    if eff.kind not in kinds:
        return f"it is of kind {eff.kind.value!r}"
    if len(eff.values) > 2:
        return f"{len(eff.values)} values"
    if eff.skip and eff.reverse:
        return "it skips and reverses"
    return None


class Batch:
    """``batch`` games of ``rules`` for ``players`` players, stepped together.

    The state is in arrays (slot ``b``, seat ``s``): ``hands[b, s, k]`` (cards, ``EMPTY``
    for none), ``stock[b, :stock_len[b]]`` (top card last), ``total``, ``direction`` (+1
    clockwise), ``turn``, ``lives[b, s]`` (pooled teams: each partner holds its side's
    pool), ``alive`` and ``in_hand`` (bit ``s`` per seat),
    ``dealer``, ``starter`` and ``top`` (the pile's top card). After each :meth:`step`,
    ``over[b]`` tells the games that ended (their slot has a new game) with ``winners[b]``
    (a bit per seat), and ``loser[b]`` the seat that lost a life (-1 for none), with
    ``paid[b]`` the lives it paid and ``cause[b]`` why (the index of
    :data:`~ninetynine.engine.ledger.CAUSES`: over the limit or could not play; -1 for
    none); under online milestones ``milestones_paid[b, s]`` the lives each seat paid at
    them (the player for 33 or 66 crossed, the others for one made; width 0 under other
    rules), under 69's penny ``pot[b, 0]`` the lives paid in, under an opening ban
    ``turns[b, s]`` each seat's turns played (counted up to the ban), under a no-draw
    chain ``chain[b, 0]`` the chain the seat to act faces and ``plays_left[b, 0]`` the cards
    left in its run, and under game points each seat's ``points[b, s]`` this hand and
    ``scores[b, s]``, the points the seat to act lost at borders this step
    (``borders_lost[b, 0]``) and a game's ``final_scores``. ``hand_no[b]`` counts
    the hands of each game from 1; a game that ended leaves
    its last lives and hand count in ``final_lives[b]`` and ``final_hands[b]``. Each array
    is in the smallest signed type that holds its values (:func:`fit`; cards are ``CARD``,
    int8): widen before arithmetic that can outgrow it (``card * 4``);
    :attr:`bytes_per_game` sums them.

    What an observation reads besides (:mod:`ninetynine.rl.batch_encoding`), kept up
    only when ``observed`` (a cost to the step that a simulation does without):
    ``played[b, s, r]`` counts the cards of rank ``r`` seat ``s`` played this hand since
    the stock was last reshuffled, ``face_up[b, j]`` the cards face up on the pile (and
    those taken away with it at a reset, until a restock) as bit words (bit ``card`` of
    word ``j`` where ``j + 1`` copies or more are face up: :meth:`face_up_counts` counts
    them) and
    ``recent[b, k]`` its ``players`` top cards, newest first (``EMPTY`` for none); without
    ``observed`` the three are of width 0. A callable ``on_over``, when set, is given the
    slots whose games just ended before new games start in them (their final state).
    """

    def __init__(
        self,
        rules: str | Rules,
        players: int,
        batch: int,
        *,
        seed: int | None = None,
        shuffler: Shuffler | None = None,
        first: np.ndarray | None = None,
        observed: bool = False,
        leader: Leader | None = None,
        reinserter: Reinserter | None = None,
    ) -> None:
        self.rules = r = rules_for(rules, players)
        self.observed = observed
        check_supported(r)
        n = self.n = players
        self.size = batch
        self.hand_size = h = r.hand_size
        self.decks = r.decks_for(players)
        self.deck = np.repeat(np.arange(52, dtype=CARD), self.decks)
        self.rng = np.random.default_rng(seed)
        self.shuffler = shuffler or self._random_orders
        self.leader = leader or self._random_leaders
        self.reinserter = reinserter or self._random_depths
        self._tables()
        self.decisions = 0
        b, decks, lives = batch, self.decks, self.start_lives
        # each per-game array in the smallest type that holds its values (see fit); the
        # step computes in int64 (the tables' type) and stores back
        seat, seats = fit(-1, n), fit((1 << n) - 1)  # a seat (-1: none), a bit per seat
        # a total below 0 under below_zero = allow has no floor the rules set
        low = -(2**31) if r.below_zero is BelowZero.ALLOW else min(0, int(self.set_to.min()))
        total = fit(low, self.limit)
        count = fit(n * lives + 1)  # hands of a game: a new one only after a life lost
        # (a penny from the pot for 69 can take a seat above its first lives)
        life = fit(-r.bust_penalty, lives * n if self.penny else lives)
        # hands and stocks are views of flat arrays; the step writes through the flat
        # ones, a laid-down hand's write going to one scratch cell past the hands
        self._hands = np.full(b * n * h + 1, EMPTY, CARD)
        self._scratch = b * n * h
        self.hands = self._hands[:-1].reshape(b, n, h)
        self._stock = np.zeros(b * 52 * decks, CARD)
        self.stock = self._stock.reshape(b, 52 * decks)
        self._first_row = np.arange(b) * n  # each slot's first row of hands
        self._first_card = np.arange(b) * 52 * decks  # ... and first card of stock
        self.stock_len = np.zeros(b, fit(52 * decks))
        self.total = np.zeros(b, total)
        self.direction = np.ones(b, np.int8)
        self.turn = np.zeros(b, seat)
        self.dealer = np.zeros(b, seat)
        self.starter = np.zeros(b, seat)
        self.lives = np.zeros((b, n), life)
        self.alive = np.zeros(b, seats)
        self.in_hand = np.zeros(b, seats)
        self.top = np.full(b, EMPTY, CARD)
        self.over = np.zeros(b, bool)
        self.winners = np.zeros(b, seats)
        self.loser = np.full(b, -1, seat)
        self.paid = np.zeros(b, life)
        self.cause = np.full(b, -1, np.int8)
        # the lives each seat paid at online milestones this step, and the pot that 69's
        # penny comes from: width 0 where the rules have neither
        self.milestones_paid = np.zeros((b, n if self.online else 0), life)
        self.pot = np.zeros((b, 1 if self.pays_pot else 0), fit(n * lives))
        # under an opening ban, each seat's turns played (counted up to the ban's length)
        self.turns = np.zeros((b, n if self.ban else 0), fit(self.ban))
        # under a no-draw chain: the chain the seat to act faces, and the cards left in a run
        chain = 1 if self.chains else 0
        self.chain = np.zeros((b, chain), fit(4 * decks + 1))
        self.plays_left = np.zeros((b, chain), fit(4 * decks + 1))
        # under game points: each seat's points this hand and score, the points the seat
        # to act lost at borders this step, and a game's final scores
        points = n if self.points_game else 0
        # (a hand's points move by a border or two a play, a 69, a lay-down)
        plays, start = 52 * decks, r.points_per_hand
        self.points = np.zeros((b, points), fit(start - 2 * plays, start + plays))
        self.scores = np.zeros((b, points), np.int16)
        self.borders_lost = np.zeros((b, 1 if self.points_game else 0), np.int8)
        self.final_scores = np.zeros((b, points), np.int16)
        self.hand_no = np.ones(b, count)
        self.final_lives = np.zeros((b, n), life)
        self.final_hands = np.zeros(b, count)
        # what observations read: none kept (width 0) unless observed; flat, with one
        # scratch cell at the end for the writes of a laid-down hand
        width = 1 if observed else 0
        self._played = np.zeros(b * n * 13 * width + 1, fit(4 * decks))
        self.played = self._played[:-1].reshape(b, n, 13 * width)
        self.face_up = np.zeros((b, decks * width), np.int64)  # bits 0 to 51 of each word
        self.recent = np.full((b, n * width), EMPTY, CARD)
        self.on_over: Callable[[np.ndarray], None] | None = None
        self._slots = np.arange(b)
        self._new_games(self._slots, first)

    # the arrays with a part per game (the others are tables, the same for any batch size;
    # hands, stock and played are views of _hands, _stock and _played)
    PER_GAME = (
        "_hands",
        "_stock",
        "stock_len",
        "total",
        "direction",
        "turn",
        "dealer",
        "starter",
        "lives",
        "alive",
        "in_hand",
        "top",
        "over",
        "winners",
        "loser",
        "paid",
        "cause",
        "milestones_paid",
        "pot",
        "turns",
        "chain",
        "plays_left",
        "points",
        "scores",
        "borders_lost",
        "final_scores",
        "hand_no",
        "final_lives",
        "final_hands",
        "_played",
        "face_up",
        "recent",
        "_first_row",
        "_first_card",
        "_slots",
    )

    @property
    def bytes_per_game(self) -> float:
        """The memory a game takes: the bytes of the per-game arrays over the batch size."""
        arrays: list[np.ndarray] = [getattr(self, name) for name in self.PER_GAME]
        return sum(a.nbytes for a in arrays) / self.size

    # Tables -------------------------------------------------------------------------

    def _tables(self) -> None:
        """Everything the step looks up: card effects, the legal choices of every card at
        every total, seats in turn order, dealing order and random choices of patterns."""
        r, n, h = self.rules, self.n, self.hand_size
        c = compiled(r)
        self.limit = limit = r.limit
        add = np.zeros((53, 2), np.int64)  # the amount of each choice of each card
        self.set_to = np.full(53, -1, np.int64)  # the total a card sets, or -1
        # -1 for a card that reverses the direction (in the direction's type, as the
        # seats below are in the seats': what the step stores needs no cast)
        self.flip = np.ones(53, np.int8)
        # how a doubling or halving card changes the total (DOUBLES ...; 0 for the others)
        self.doubling = np.zeros(53, np.int64)
        for card in range(52):
            eff = c.effects[card]
            if eff.kind is Kind.SET:
                self.set_to[card] = limit if eff.to is None else eff.to
            elif eff.kind is Kind.ADD:
                add[card, : len(eff.values)] = eff.values
                add[card, len(eff.values) :] = eff.values[-1]
            else:
                self.doubling[card] = _DOUBLING[eff.kind]
            self.flip[card] = -1 if eff.reverse else 1
        self.add = add.ravel()  # by card * 2 + choice
        self.doubles = bool(self.doubling.any())
        self.halve_over = r.halve_over
        # what a play pays beyond going over: online milestones (33, 66 and the limit made
        # exactly, the others pay; crossed, the player pays), the 69 rule
        self.online = r.thresholds is Thresholds.ONLINE
        self.milestones_on_bust = r.milestones_on_bust
        self.leave = r.online_cross is OnlineCross.LEAVE
        self.rule_69 = r.rule_69
        self.penny = r.rule_69 is Rule69.PENNY_FROM_POOL
        self.pays_pot = self.penny and r.pot is not Pot.NONE  # (the pot only 69 reads)
        # what passes the turn beyond the next seat, each a flag so that rules without it
        # pay nothing: skipping cards (not with two in the hand unless the rules say so), a
        # reverse that flips nothing with two in the hand, one that gives them another turn
        self.skip = np.array([c.effects[card].skip for card in range(52)] + [False])
        self.skips = bool(self.skip.any())
        self.skip_two = r.skip_with_two_players
        self.skip_before = (
            self.online and self.skips and r.skip_counts is SkipCounts.BEFORE_ELIMINATIONS
        )
        self.flip_two = r.reverse_with_two_players
        self.again_two = r.two_player_reverse is TwoPlayerReverse.PLAY_AGAIN
        self.clamp = r.below_zero is BelowZero.CLAMP
        # cards that name who plays next (TW's Five): the choice of such a play is the seat
        # named, so that each hand slot spans as many actions as there are seats
        self.naming = np.array([c.effects[card].name for card in range(52)] + [False])
        self.names = bool(self.naming.any())
        self.name_self = r.name_self
        self.width = w = max(2, n) if self.names else 2
        self.actions, self.down = w * h + 1, w * h
        if self.actions > 63:  # (a bit per action in an int64)
            raise RulesError(
                f"the batch engine plays a card that names a seat with at most 62 seats "
                f"times cards in a hand, not {n} x {h}"
            )
        # legal choices: per slot k, a table over (total + 1, card) of the choices' bits
        # at w * k (safe) and, in the same word where both fit, w * h + 1 + w * k (allowed
        # at all; else in ``slot_allowed``); totals below 0 play as -1 does. A naming
        # card's bit is choice 0's: the legal patterns widen it to the seats it may name
        totals = range(-1, limit + 1)
        bits = np.zeros((len(totals), 53, 2), np.int64)
        for t, total in enumerate(totals):
            for card in range(52):
                for choice, _new, busts in c.options(card, total):
                    bits[t, card, 1] |= 1 << choice
                    if not busts:
                        bits[t, card, 0] |= 1 << choice
        self.low = (1 << (w * h)) - 1
        slot_all = (1 << w) - 1
        if self.names:  # two words
            self.slot_bits = [(bits[:, :, 0] << (w * k)).ravel() for k in range(h)]
            self.slot_allowed = [(bits[:, :, 1] << (w * k)).ravel() for k in range(h)]
            self.slot_bits_all = [slot_all << (w * k) for k in range(h)]
        else:
            self.field = w * h + 1  # where the "allowed" bits start
            self.slot_bits = [
                ((bits[:, :, 0] << (w * k)) | (bits[:, :, 1] << (self.field + w * k))).ravel()
                for k in range(h)
            ]
            self.slot_bits_all = [
                slot_all << (w * k) | slot_all << (self.field + w * k) for k in range(h)
            ]
        # seats: the next seat in a mask of seats after a seat, each way round
        masks = 1 << n
        nxt = np.zeros((masks, n, 2), fit(-1, n))
        for mask in range(masks):
            for seat in range(n):
                for way, d in ((0, -1), (1, 1)):
                    s = seat
                    for _ in range(n):
                        s = (s + d) % n
                        if mask >> s & 1:
                            break
                    nxt[mask, seat, way] = s
        self.next_seat = nxt.ravel()
        self.popcount = np.array([bin(m).count("1") for m in range(masks)], np.int64)
        # dealing order: the place of each seat in the deal from a starter, -1 if out
        place = np.full((masks, n, n), -1, np.int64)
        for mask in range(masks):
            for starter in range(n):
                k = 0
                for j in range(n):
                    s = (starter + j) % n
                    if mask >> s & 1:
                        place[mask, starter, s] = k
                        k += 1
        self.place = place
        # random choice of one action among a pattern's bits: a pattern's count and its
        # k-th bit, looked up whole or (wider patterns) a chunk of bits at a time
        self.chunk = bits_ = min(self.actions, 11) if self.names else self.actions
        patterns = 1 << bits_
        self.count = np.array([bin(p).count("1") for p in range(patterns)], np.int64)
        pick = np.zeros((patterns, bits_), np.int64)
        for p in range(patterns):
            on = [a for a in range(bits_) if p >> a & 1] or [self.down]
            pick[p, : len(on)] = on
        self.pick = pick.ravel()
        # the k-th seat of a mask of seats (a random leader is one of them)
        kth = np.zeros((masks, n), fit(-1, n))
        for mask in range(masks):
            on = [s for s in range(n) if mask >> s & 1]
            kth[mask, : len(on)] = on
        self.kth = kth.ravel()
        self.start_lives: int = r.lives_for(n)
        # an up-card starts each hand's total (the special ranks go back); an opening ban
        # on the cards that set the limit for each seat's first turns (of the hand or game)
        self.upcard = r.start_total is StartTotal.UPCARD
        self.special = np.array([rank_of(c) in r.upcard_special for c in range(52)] + [True])
        self.ban = r.king_ban_turns if r.opening_ban_cards() else 0
        self.ban_by_hand = r.king_ban_scope is Scope.HAND
        self.banned = np.array([c in r.opening_ban_cards() for c in range(53)])
        # a no-draw chain (the Icelandic Queen): the next seat plays another chain card,
        # or as many other cards in a row as the chain is long, drawing none
        self.chain_card = np.array([c.effects[card].no_draw for card in range(52)] + [False])
        self.chains = bool(self.chain_card.any())
        # game points (the borders game): a hand's points, lost a point a border crossed
        # (33:34, 66:67, 99:100) and for laying down, summed into scores at its end
        self.points_game = r.scoring is Scoring.GAME_POINTS
        self.border_values = r.border_values
        # pooled teams: per seat, the seats spending the same lives (as bits too)
        self.pooled = r.teams is Teams.POOLED
        self.partners = np.array(
            [[r.teams.pool(t) == r.teams.pool(s) for t in range(n)] for s in range(n)]
        )
        self.pool_bits = (self.partners.astype(np.int64) << np.arange(n)).sum(axis=1)

    # Chance -------------------------------------------------------------------------

    def _random_orders(
        self, slots: np.ndarray, cards: np.ndarray, counts: np.ndarray
    ) -> np.ndarray:
        """Uniform shuffles of each slot's cards (the default shuffler)."""
        if (counts == cards.shape[1]).all():  # whole decks: a permutation of each row
            return self.rng.permuted(cards, axis=1)
        keys = self.rng.random(cards.shape)
        keys[np.arange(cards.shape[1]) >= counts[:, None]] = 2.0  # padding sorts last
        return np.take_along_axis(cards, np.argsort(keys, axis=1), axis=1)

    def _random_depths(self, slots: np.ndarray, low: np.ndarray, high: np.ndarray) -> np.ndarray:
        """A depth from ``low`` to ``high`` uniformly at random, per slot (the default
        reinserter)."""
        found: np.ndarray = self.rng.integers(low, high + 1)
        return found

    def _random_leaders(self, slots: np.ndarray, alive: np.ndarray) -> np.ndarray:
        """A seat still in, uniformly at random, per slot (the default leader)."""
        k = (self.rng.random(len(slots)) * self.popcount[alive]).astype(np.int64)
        found: np.ndarray = self.kth[alive.astype(np.intp) * self.n + k]
        return found

    def _deal_from_deck(self, slots: np.ndarray) -> None:
        """Shuffle every card and deal the new hand (the stock is what is left)."""
        k, size = len(slots), len(self.deck)
        cards = np.broadcast_to(self.deck, (k, size)).copy()
        order = self.shuffler(slots, cards, np.full(k, size, np.int64))
        self.stock[slots] = order[:, ::-1]  # top card last
        self.stock_len[slots] = size
        self.top[slots] = EMPTY
        self.face_up[slots] = 0
        self.recent[slots] = EMPTY
        self._deal(slots)

    def _deal(self, slots: np.ndarray) -> None:
        """Deal ``hand_size`` cards to each seat still in, from the starter round, off the
        top of the stock; the starter leads at total 0."""
        h, n = self.hand_size, self.n
        alive, starter = self.alive[slots], self.starter[slots]
        place = self.place[alive, starter]  # (k, n)
        m = self.popcount[alive]
        depth = np.arange(h)[None, None, :] * m[:, None, None] + place[:, :, None]  # (k,n,h)
        from_top = self.stock_len[slots][:, None, None] - 1 - np.maximum(depth, 0)
        dealt = np.take_along_axis(self.stock[slots], from_top.reshape(len(slots), -1), axis=1)
        self.hands[slots] = np.where(place[:, :, None] >= 0, dealt.reshape(-1, n, h), EMPTY)
        self.stock_len[slots] -= m * h
        self.total[slots] = 0
        self.turn[slots] = starter
        self.in_hand[slots] = alive
        self.played[slots] = 0  # a new hand
        if self.rules.direction is Direction.RESET:
            self.direction[slots] = 1
        if self.ban and self.ban_by_hand:
            self.turns[slots] = 0
        if self.chains:
            self.chain[slots] = self.plays_left[slots] = 0
        if self.points_game:
            self.points[slots] = self.rules.points_per_hand
        if self.upcard:
            self._turn_upcard(slots)

    def _turn_upcard(self, slots: np.ndarray) -> None:
        """Turn up the top card of each slot's stock to start the total; a special one goes
        back into the stock (at a depth the reinserter draws, in the reference engine's
        range) and the next is turned, until an ordinary one is (with none left to turn,
        the total starts at 0)."""
        while len(slots):
            size = self.stock_len[slots].astype(np.int64)
            rows = self.stock[slots]
            at = np.arange(rows.shape[1])
            ordinary = ~self.special[rows] & (at < size[:, None])
            has = ordinary.any(axis=1)
            slots, size, rows, ordinary = slots[has], size[has], rows[has], ordinary[has]
            card = rows[np.arange(len(slots)), size - 1]
            special = self.special[card]
            turned, up = slots[~special], card[~special]
            self.stock_len[turned] -= 1
            self.top[turned] = up
            total = self.results(up, np.zeros_like(up), np.zeros(len(up), np.int64))
            if self.rules.below_zero is not BelowZero.ALLOW:
                total = np.maximum(total, 0)  # a house rule's minus card starts at 0
            self.total[turned] = np.minimum(total, self.limit)
            if self.observed:
                self.face_up[turned] = self._face_up_with(
                    self.face_up[turned], up, np.zeros(len(up), bool)
                )
                self.recent[turned] = np.concatenate(
                    [up[:, None], self.recent[turned][:, :-1]], axis=1
                )
            # a special card back in, from the top: not above the next ordinary card, in
            # the middle third of the stock (Q40)
            back = np.nonzero(special)[0]
            slots, card, rows = slots[back], card[back], rows[back]
            size = size[back] - 1  # the stock without it
            highest = np.where(ordinary[back], at, -1).max(axis=1)
            low = np.maximum(-(-size // 3), size - highest)
            depth = self.reinserter(slots, low, np.maximum(low, 2 * size // 3))
            place = (size - depth)[:, None]  # from the bottom
            moved = np.take_along_axis(rows, np.where(at < place, at, np.maximum(at - 1, 0)), 1)
            self.stock[slots] = np.where(at == place, card[:, None], moved)

    def _restock(self, slots: np.ndarray) -> np.ndarray:
        """Shuffle the pile (but its top card, where the rules keep it) into the empty
        stock of each slot; returns the slots that have a stock again (none for an empty
        pile: the draw is skipped)."""
        k = len(slots)
        keep_top = self.rules.stock_empty is StockEmpty.RESHUFFLE_KEEP_TOP
        # the pile is every card not in a hand nor kept on top (the stock is empty)
        held = self.hands[slots].reshape(k, -1)
        if keep_top:
            held = np.concatenate([held, self.top[slots, None]], 1)
        rows = np.repeat(np.arange(k) * 53, held.shape[1])
        left = (
            self.decks - np.bincount(rows + held.ravel(), minlength=53 * k).reshape(k, 53)[:, :52]
        )
        counts = left.sum(axis=1)
        has = counts > 0
        slots, left, counts = slots[has], left[has], counts[has]
        k = len(slots)
        if not k:
            return slots
        width = int(counts.max())
        # each row's pile, sorted, padded with EMPTY
        flat = np.repeat(np.tile(np.arange(52), k), left.ravel())
        row = np.repeat(np.arange(k), counts)
        at = np.arange(len(flat)) - np.repeat(np.cumsum(counts) - counts, counts)
        cards = np.full((k, width), EMPTY, CARD)
        cards[row, at] = flat
        order = self.shuffler(slots, cards, counts)
        # the stock holds the order reversed (top card last)
        back = np.maximum(counts[:, None] - 1 - np.arange(width), 0)
        stock = np.take_along_axis(order, back, axis=1)
        self.stock[slots, :width] = stock
        self.stock_len[slots] = counts
        if not keep_top:  # the whole pile went into the stock
            self._clear_pile(slots)
        if self.observed:  # the cards seen and played are counted afresh
            self.played[slots] = 0
            self.face_up[slots] = 0
            if keep_top:  # the pile is its top card alone, face up
                top = self.top[slots]
                kept = top != EMPTY  # (a pile taken away at a reset has none)
                self.face_up[slots[kept], 0] = np.int64(1) << top[kept].astype(np.int64)
                self.recent[slots] = EMPTY
                self.recent[slots, 0] = top
        return slots

    @staticmethod
    def _face_up_with(words: np.ndarray, card: np.ndarray, down: np.ndarray) -> np.ndarray:
        """``words`` (face-up bit words, one row per slot) with each slot's ``card`` put
        face up (nothing where ``down``): its bit set in the first word without it."""
        bit = np.where(down, 0, np.int64(1) << card.astype(np.int64))
        words = words.copy()
        for j in range(words.shape[1]):
            free = bit & ~words[:, j]
            words[:, j] |= free
            bit &= ~free
        return words

    def face_up_counts(self, slots: np.ndarray) -> np.ndarray:
        """How many copies of each card are face up (or seen taken away) in each of
        ``slots``: (slots, 52) ints, of an ``observed`` batch."""
        bits = self.face_up[slots][:, :, None] >> np.arange(52) & 1
        counts: np.ndarray = bits.sum(axis=1)
        return counts

    def _clear_pile(self, slots: np.ndarray) -> None:
        """The pile of each slot is gone (into the stock, or taken away at a reset): no card
        is on top (those taken away stay seen in ``face_up`` until a restock)."""
        self.top[slots] = EMPTY
        if self.observed:
            self.recent[slots] = EMPTY

    def _draw(self, slots: np.ndarray, into: np.ndarray) -> None:
        """The seat to act in each slot draws into hand slot ``into`` (the card it played
        was there), restocking first where the stock is empty."""
        empty = self.stock_len[slots] == 0
        if empty.any():
            if self.rules.stock_empty is not StockEmpty.NO_DRAW:
                refilled = self._restock(slots[empty])
                empty[np.isin(slots, refilled)] = False
            slots, into = slots[~empty], into[~empty]
        top = self.stock[slots, self.stock_len[slots] - 1]
        self.hands[slots, self.turn[slots], into] = top
        self.stock_len[slots] -= 1

    # Game and hand ------------------------------------------------------------------

    def restart(self, slots: np.ndarray) -> None:
        """Start a new game in each of ``slots`` (its first leader drawn), whatever the old
        one was at."""
        self._new_games(slots)

    def _new_games(self, slots: np.ndarray, first: np.ndarray | None = None) -> None:
        n = self.n
        if first is None:
            first = self.rng.integers(0, n, len(slots))
        self.lives[slots] = self.start_lives
        self.alive[slots] = (1 << n) - 1
        if self.pays_pot:
            self.pot[slots] = 0
        if self.ban:
            self.turns[slots] = 0
        if self.points_game:
            self.scores[slots] = 0
        self.starter[slots] = first
        self.dealer[slots] = (first - 1) % n
        self.direction[slots] = 1
        self.hand_no[slots] = 1
        self._deal_from_deck(slots)

    def _next(self, mask: np.ndarray, seat: np.ndarray, way: np.ndarray) -> np.ndarray:
        """The first seat of ``mask`` after ``seat``, clockwise (way 1) or not (0)."""
        found: np.ndarray = self.next_seat[(mask.astype(np.intp) * self.n + seat) * 2 + way]
        return found

    def _end_hand(self, slots: np.ndarray, loser: np.ndarray) -> None:
        """The hand is over (``loser`` lost it; -1: nobody, a milestone ended it): its
        points scored (ending the game at the target), the next leader and the new deal."""
        if self.points_game:
            over = self._score_hand(slots)
            if over.any():
                slots, loser = slots[~over], loser[~over]
                if not len(slots):
                    return
        alive = self.alive[slots]
        self.hand_no[slots] += 1
        cw = np.ones(len(slots), np.int64)
        starter = self.rules.starter
        if starter is Starter.LEFT_OF_DEALER:
            dealer = self._next(alive, self.dealer[slots], cw)
            self.dealer[slots] = dealer
            self.starter[slots] = self._next(alive, dealer, cw)
        else:
            if starter is Starter.RANDOM:
                leader = self.leader(slots, alive)
            else:  # with no loser, the seat after the last leader leads
                none = loser < 0
                loser = np.where(none, self.starter[slots], loser)
                after = self._next(alive, loser, cw)
                if starter is Starter.LEFT_OF_LOSER:
                    leader = after
                else:  # the loser leads; if out, the next seat still in
                    leader = np.where(~none & (alive >> loser & 1 == 1), loser, after)
            self.starter[slots] = leader
            self.dealer[slots] = self._next(alive, leader, 0 * cw)
        if self.rules.new_round_deal is NewRoundDeal.FULL_RESHUFFLE:
            self._deal_from_deck(slots)
            return
        # from the stock: the old hands go face down under the pile
        self.hands[slots] = EMPTY
        need = self.popcount[alive] * self.hand_size + self.upcard
        enough = self.stock_len[slots] >= need
        if enough.any():
            self._deal(slots[enough])
        if not enough.all():
            self._deal_from_deck(slots[~enough])

    # Moves --------------------------------------------------------------------------

    def _patterns(self, slots: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Per slot (all, or ``slots``) of the seat to act: the bits of its safe choices
        and of those allowed at all (bit ``width * k + choice`` for hand slot ``k``)."""
        h = self.hand_size
        at: slice | np.ndarray = slice(None) if slots is None else slots
        base = (np.clip(self.total[at], -1, self.limit).astype(np.intp) + 1) * 53
        row = self._first_row[at] + self.turn[at]
        held = self.hands.reshape(-1, h)[row]  # (b, h)
        if self.names:
            return self._named_patterns(at, base, row, held)
        pattern = self.slot_bits[0][base + held[:, 0]]
        for k in range(1, h):
            pattern |= self.slot_bits[k][base + held[:, k]]
        if self.ban or self.chains:  # a card these rules forbid now has no choice at all
            off = self._forbidden(at, row, held)
            for k in range(h):
                pattern &= ~np.where(off[:, k], self.slot_bits_all[k], 0)
        return pattern & self.low, pattern >> self.field

    def _named_patterns(
        self, at: slice | np.ndarray, base: np.ndarray, row: np.ndarray, held: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`_patterns` where a card names who plays next: the safe and the allowed
        bits in a word each, a naming card's bit widened to the seats it may name (those
        in the hand; the player too where the rules let it name itself)."""
        w = self.width
        safe = np.zeros(len(held), np.int64)
        allowed = np.zeros(len(held), np.int64)
        for k in range(self.hand_size):
            safe |= self.slot_bits[k][base + held[:, k]]
            allowed |= self.slot_allowed[k][base + held[:, k]]
        if self.ban or self.chains:
            off = self._forbidden(at, row, held)
            for k in range(self.hand_size):
                cut = ~np.where(off[:, k], self.slot_bits_all[k], 0)
                safe &= cut
                allowed &= cut
        seats = self.in_hand[at].astype(np.int64)
        if not self.name_self:
            seats &= ~(1 << self.turn[at].astype(np.int64))
        for k in range(self.hand_size):
            names = self.naming[held[:, k]]
            if names.any():
                for bits in (safe, allowed):
                    on = names & (bits >> (w * k) & 1 == 1)
                    bits[on] = bits[on] & ~(1 << (w * k)) | seats[on] << (w * k)
        return safe, allowed

    def _forbidden(self, at: slice | np.ndarray, row: np.ndarray, held: np.ndarray) -> np.ndarray:
        """Per slot and hand slot, the cards ``held`` that may not be played now: a card
        under the opening ban, a chain card in a run, any other card where the run the
        chain asks for is too long to finish."""
        off = np.zeros(held.shape, bool)
        if self.ban:
            banning = self.turns.reshape(-1)[row] < self.ban
            if not self.rules.king_ban_at_limit:
                banning &= self.total[at] != self.limit
            off |= banning[:, None] & self.banned[held]
        if self.chains:
            in_run, faced = self.plays_left[at, 0] > 0, self.chain[at, 0]
            chained = self.chain_card[held]
            others = (~chained & (held != EMPTY)).sum(axis=1)
            short = ~in_run & (faced > others)
            off |= np.where(chained, in_run[:, None], short[:, None])
        return off

    def legal(self, slots: np.ndarray | None = None) -> np.ndarray:
        """The legal actions of each slot's (or each of ``slots``') seat to act, one bit per
        action (int64)."""
        safe, allowed = self._patterns(slots)
        rules = self.rules
        if rules.may_bust:
            legal = allowed
        elif rules.no_legal_play is NoLegalPlay.LAY_DOWN:
            legal = safe
        else:
            legal = np.where(safe != 0, safe, allowed)
        legal[legal == 0] = 1 << self.down
        found: np.ndarray = legal
        return found

    def random_actions(self, legal: np.ndarray) -> np.ndarray:
        """One legal action per row of ``legal``, uniformly at random."""
        if self.chunk < self.actions:
            return self._random_wide(legal)
        k = (self.rng.random(len(legal)) * self.count[legal]).astype(np.int64)
        picked: np.ndarray = self.pick[legal * self.actions + k]
        return picked

    def _random_wide(self, legal: np.ndarray) -> np.ndarray:
        """:meth:`random_actions` for patterns wider than the tables: the k-th bit found
        a chunk of bits at a time."""
        c = self.chunk
        parts = [legal >> j & ((1 << c) - 1) for j in range(0, self.actions, c)]
        counts = [self.count[part] for part in parts]
        k = (self.rng.random(len(legal)) * sum(counts)).astype(np.int64)
        picked = np.full(len(legal), self.down, np.int64)
        for j, (part, count) in enumerate(zip(parts, counts, strict=True)):
            here = (k >= 0) & (k < count)
            picked[here] = self.pick[part[here] * c + k[here]] + j * c
            k -= count
        return picked

    def split(self, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The hand slot and the choice (the value's, or the seat a naming card names) of
        each of ``actions`` (``down``: the last slot, choice 0)."""
        if self.names:
            slot, choice = np.divmod(actions, self.width)
        else:
            slot, choice = actions >> 1, actions & 1
        return np.minimum(slot, self.hand_size - 1), choice  # (down = width * hand_size)

    def action(self, slot: int, code: int) -> int:
        """The action that plays the engine's ``code`` from hand ``slot``."""
        return self.width * slot + (number_of(code) if code >= PARAM else choice_of(code))

    def codes(self, actions: np.ndarray, slots: np.ndarray | None = None) -> np.ndarray:
        """The engine's action codes (``card * 4 + choice``, or ``DOWN``) of actions (one
        per slot, or per slot of ``slots``)."""
        from ninetynine.engine.state import DOWN

        at = self._slots if slots is None else slots
        slot, choice = self.split(actions)
        card = self.hands[at, self.turn[at], slot].astype(np.int64)
        return np.where(actions == self.down, DOWN, self.play_codes(card, choice))

    def play_codes(self, card: Any, choice: Any) -> np.ndarray:
        """The engine's codes of playing ``card`` with ``choice`` (integer arrays that
        broadcast: the tables' functions are plain arithmetic)."""
        plays: np.ndarray = np.asarray(play_code(card, self.values(card, choice)))
        if self.names:
            plays = np.where(self.naming[card], param_code(card, choice), plays)
        return plays

    def values(self, card: Any, choice: Any) -> Any:
        """Which of its values ``card`` is played for with ``choice`` (that of a card
        naming a seat is the seat: its one value)."""
        if not self.names:
            return choice
        found: np.ndarray = np.where(self.naming[card], 0, np.minimum(choice, 1))
        return found

    def results(self, card: np.ndarray, choice: np.ndarray, total: np.ndarray) -> np.ndarray:
        """The total after playing ``card`` (``EMPTY`` adds nothing) with ``choice`` at
        ``total`` (arrays that broadcast; int64), floored at 0 where the rules clamp."""
        set_to = self.set_to[card]
        new = np.where(set_to >= 0, set_to, total + self.add[card * 2 + choice])
        if self.doubles:  # as rules.effects.resolve: halve an even total (if over), else double
            t = np.asarray(total, np.int64)
            how = self.doubling[card]
            over = (how == HALVES_OVER) & (t > self.halve_over)
            halve = (t % 2 == 0) & ((how == HALVES_EVEN) | over)
            new = np.where(how > 0, np.where(halve, t // 2, t * 2), new)
        if self.clamp:
            new = np.where((new < 0) & (new < total), 0, new)
        found: np.ndarray = new
        return found

    def step(self, actions: np.ndarray, slots: np.ndarray | None = None) -> None:
        """Play one action in every slot, or in each of ``slots`` (distinct; the others
        wait): legal ones, see :meth:`legal`."""
        h, n = self.hand_size, self.n
        # ``at`` reads and writes the slots stepped (a slice, a view, for all of them);
        # ``where`` names them, for the rare paths that take slot numbers
        at: slice | np.ndarray = slice(None) if slots is None else slots
        where = self._slots if slots is None else slots
        self.decisions += len(where)
        self.loser.fill(-1)
        self.paid.fill(0)
        self.cause.fill(-1)
        self.over.fill(False)
        turn, total = self.turn[at], self.total[at]
        down = actions == self.down
        slot, choice = self.split(actions)
        flat = (self._first_row[at] + turn) * h + slot
        card = self._hands[flat]
        card[down] = EMPTY
        named = self.naming[card] if self.names else None
        new = self.results(card, self.values(card, choice), total)
        lost = (new > self.limit) | down
        if self.points_game:  # a point for each border the play crossed
            self.borders_lost.fill(0)
            crossed = self._borders_crossed(total, new)
            if crossed.any():
                row = self._first_row[at] + turn
                points = self.points.reshape(-1)
                points[row] -= crossed
                self.borders_lost[at, 0] = crossed
        if self.ban:  # a turn played (counted as far as the ban)
            turns, row = self.turns.reshape(-1), (self._first_row[at] + turn)[~down]
            turns[row] = np.minimum(turns[row] + 1, self.ban)
        # the seat to act draws and passes the turn unless it went over, or a milestone
        # ended the hand (the limit made) or the game, or put it out (``ended``, ``over``
        # and ``out``, per slot stepped: under milestones alone)
        moves_on = ~lost
        ended = over = None
        # who was in before a milestone put anyone out (where a skip counts them)
        in_before = self.in_hand[at].copy() if self.skip_before else None
        if self.online:
            self.milestones_paid.fill(0)
            ended, over, out = (np.zeros(len(where), bool) for _ in range(3))
            paying = np.nonzero(self._meets(total, new, down))[0]
            if len(paying):
                ended[paying], over[paying], out[paying] = self._pay_milestones(
                    where[paying], turn[paying], total[paying], new[paying]
                )
                lost &= ~over
                moves_on &= ~(ended | over | out)
        in_hand = self.in_hand[at]
        flip = self.flip[card]
        if not self.flip_two:  # a reverse flips nothing with two in the hand
            flip = np.where(self.popcount[in_hand] > 2, flip, 1)
        if over is not None:  # a game the milestones ended: no reverse
            flip = np.where(over, 1, flip)
        direction = self.direction[at] * flip
        self._set("direction", at, direction)
        self._set("top", at, np.where(down, self.top[at], card))
        self._set("total", at, np.where(lost, total, new))
        if self.observed:  # what the observations read: the card played, by whom, face up
            scratch = len(self._played) - 1
            self._played[np.where(down, scratch, (where * n + turn) * 13 + RANK_OF[card])] += 1
            self._set("face_up", at, self._face_up_with(self.face_up[at], card, down))
            recent = self.recent[at]
            self._set(
                "recent",
                at,
                np.where(down[:, None], recent, np.concatenate([card[:, None], recent[:, :-1]], 1)),
            )
        if self.chains:  # a run's cards draw none, and the turn stays till it is played out
            left, faced = self.plays_left[at, 0], self.chain[at, 0]
            chained, in_run = self.chain_card[card], left > 0
            starts = ~in_run & (faced > 0) & ~chained  # a run's first card
            run_left = np.where(in_run, left - 1, np.where(starts, faced - 1, 0))
            moves_on &= ~(in_run | starts)
            self.plays_left[at, 0] = np.where(lost, 0, run_left)
            self.chain[at, 0] = np.where(lost | ~chained, 0, faced + 1)
        # the card leaves the hand, and a play that moves on draws into its slot
        stock_len = self.stock_len[at]
        stocked = stock_len > 0
        draws = moves_on & stocked
        drawn = self._stock[self._first_card[at] + np.maximum(stock_len - 1, 0)]
        self._hands[np.where(down, self._scratch, flat)] = np.where(draws, drawn, EMPTY)
        self._set("stock_len", at, stock_len - draws)
        dry = np.nonzero(moves_on & ~stocked)[0]
        if len(dry):  # the stock is empty: restock (or play on a card short)
            self._draw(where[dry], slot[dry])
        way = direction > 0
        nxt = self._next(in_hand, turn, way)
        if self.skips:  # the seat after the next (with two in the hand, if the rules say)
            skip = self.skip[card]
            if not self.skip_two:
                skip &= self.popcount[in_hand] > 2
            skipped = nxt if in_before is None else self._next(in_before, turn, way)
            nxt = np.where(skip, self._next(in_hand, skipped, way), nxt)
        if self.again_two:  # a reverse with two in the hand: the same seat plays again
            again = (self.flip[card] < 0) & (self.popcount[in_hand] == 2)
            nxt = np.where(again & (in_hand >> turn & 1 == 1), turn, nxt)
        if self.chains:
            nxt = np.where(run_left > 0, turn, nxt)
        if named is not None:  # the seat named plays next
            nxt = np.where(named, choice, nxt)
        self._set("turn", at, np.where(lost, turn, nxt))
        if self.rule_69 is not Rule69.NONE:
            self._sixty_nine(where, turn, total, new, ~lost if over is None else ~(lost | over))
        bad = np.nonzero(lost)[0]
        if len(bad):
            self._lose(where[bad], ~down[bad], slot[bad])
        if ended is not None and ended.any():  # the limit made: a new hand, nobody lost it
            self._end_hand(where[ended], np.full(int(ended.sum()), -1))
        if over is not None and over.any():
            self._finish(where[over])

    def _most_lives(self, slots: np.ndarray) -> np.ndarray:
        """The seats still in with the most lives (a bit per seat): who wins a game that
        the first player out ends."""
        seats = np.arange(self.n)
        alive = (self.alive[slots, None].astype(np.int64) >> seats & 1).astype(bool)
        lives = np.where(alive, self.lives[slots], -1)
        best = alive & (lives == lives.max(axis=1, keepdims=True))
        found: np.ndarray = (best.astype(np.int64) << seats).sum(axis=1)
        return found

    def _set(self, name: str, at: slice | np.ndarray, value: np.ndarray) -> None:
        """Write a stepped array: all of it is replaced (no copy where ``value`` has its
        type), or its ``at`` rows."""
        if isinstance(at, slice):
            setattr(self, name, value.astype(getattr(self, name).dtype, copy=False))
        else:
            getattr(self, name)[at] = value

    def _lose(self, slots: np.ndarray, played: np.ndarray, slot: np.ndarray) -> None:
        """The seat to act went over (``played``) or laid down: a life, then the rules'
        way on: a new hand, sitting out, or the total back to 0."""
        rules = self.rules
        seat = self.turn[slots]
        bit = np.int64(1) << seat
        self.loser[slots] = seat
        self.cause[slots] = np.where(played, OVER_, CANNOT_PLAY)
        if self.points_game:  # no life: a game point for laying down, and nobody out
            self.paid[slots] = ~played
            self.points[slots, seat] -= ~played
            ended = np.zeros(len(slots), bool)
        else:  # (a seat a milestone of this play put out has no lives left: it pays 0)
            self.paid[slots], out = self._charge(slots, seat, rules.bust_penalty)
            ended = self._eliminate(slots, seat, out)
        if ended.any():
            self._finish(slots[ended])
            keep = ~ended
            slots, played, slot, seat, bit = (
                slots[keep],
                played[keep],
                slot[keep],
                seat[keep],
                bit[keep],
            )
            if not len(slots):
                return
        after = rules.after_bust
        if after is AfterBust.END_HAND:
            self._end_hand(slots, seat)
            return
        way = (self.direction[slots] > 0).astype(np.int64)
        if after is AfterBust.RESET_ALL:
            self._reset_total(slots)
            nxt = self._next(self.in_hand[slots], seat, way)
            draws = played & (self.in_hand[slots] >> seat & 1).astype(bool) & rules.draw_after_bust
            self._draw(slots[draws], slot[draws])
            self.turn[slots] = nxt
            return
        # the seat sits out the rest of the hand; the others go on with the same total
        # (or from 0: reset_others)
        self.in_hand[slots] &= ~bit
        last = self.popcount[self.in_hand[slots]] <= 1
        if last.any():
            self._end_hand(slots[last], seat[last])
        on = ~last
        if after is AfterBust.RESET_OTHERS:
            self._reset_total(slots[on])
        self.turn[slots[on]] = self._next(self.in_hand[slots[on]], seat[on], way[on])

    def _charge(
        self, slots: np.ndarray, seat: np.ndarray, due: int | np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """``seat`` of each slot pays ``due`` lives, or what it has (into the pot, where
        69 takes from it): returns what each paid and whether it is out by the rules'
        elimination (at 0 lives, or owing more than it had)."""
        held = self.lives[slots, seat].astype(np.int64)
        paid = np.minimum(held, due)
        self._set_lives(slots, seat, held - paid)
        if self.pays_pot:
            self.pot[slots, 0] += paid
        out = held < due if self.rules.elimination is Elimination.CANNOT_PAY else held <= due
        return paid, out

    def _set_lives(self, slots: np.ndarray, seat: np.ndarray, lives: np.ndarray) -> None:
        """``seat``'s lives in each slot are now ``lives``: its own, or (pooled teams) its
        side's, which each partner holds a copy of."""
        if self.pooled:
            mine = self.partners[seat]  # (k, n): the seats spending the same lives
            self.lives[slots] = np.where(mine, lives[:, None], self.lives[slots])
        else:
            self.lives[slots, seat] = lives

    def _eliminate(self, slots: np.ndarray, seat: np.ndarray, out: np.ndarray) -> np.ndarray:
        """Put ``seat`` (and, pooled, its partners) out of each slot where ``out``; returns
        where that ends the game (one seat or side left in, or the first player out)."""
        bits = self.pool_bits[seat] if self.pooled else np.int64(1) << seat
        self.alive[slots] = np.where(out, self.alive[slots] & ~bits, self.alive[slots])
        self.in_hand[slots] = np.where(out, self.in_hand[slots] & ~bits, self.in_hand[slots])
        if self.rules.eliminated_hand is EliminatedHand.UNDER_PILE and out.any():
            for k in range(self.n):  # face down under the pile
                gone = out & (bits >> k & 1 == 1)
                self.hands[slots[gone], k] = EMPTY
        if self.rules.game_end is GameEnd.FIRST_OUT or self.pooled:  # (two sides: one left)
            return out
        found: np.ndarray = self.popcount[self.alive[slots]] <= 1
        return found

    def _finish(self, done: np.ndarray, winners: np.ndarray | None = None) -> None:
        """The games of ``done`` are over: their winners (by default the last seats in, or
        the first one out's rule) and final state (shown to ``on_over``), then new games in
        their slots."""
        self.over[done] = True
        if winners is None:  # (a pooled side goes out together: both partners win)
            first_out = self.rules.game_end is GameEnd.FIRST_OUT
            winners = self._most_lives(done) if first_out else self.alive[done]
        self.winners[done] = winners
        if self.points_game:
            self.final_scores[done] = self.scores[done]
        self.final_lives[done] = self.lives[done]
        self.final_hands[done] = self.hand_no[done]
        if self.on_over is not None:
            self.on_over(done)
        self._new_games(done)

    # Game points --------------------------------------------------------------------

    def _borders_crossed(self, old: np.ndarray, new: np.ndarray) -> np.ndarray:
        """How many borders a play from ``old`` to ``new`` crosses (those at or above the
        lower total and below the higher; going back costs only where the rules say)."""
        low, high = np.minimum(old, new), np.maximum(old, new)
        crossed = sum((low <= border) & (border < high) for border in self.border_values)
        if not self.rules.border_cross_backward_costs:
            crossed = np.where(new < old, 0, crossed)
        found: np.ndarray = np.asarray(crossed, np.int64)
        return found

    def _score_hand(self, slots: np.ndarray) -> np.ndarray:
        """Add each slot's hand points to the scores (at least 0 each, where the rules
        floor them); where the top score has reached the target (alone, or shared where
        ties share), the game is over, won by the leaders. Returns where."""
        rules = self.rules
        points = self.points[slots]
        if rules.points_floor_zero:
            points = np.maximum(points, 0)
        scores = self.scores[slots] + points
        self.scores[slots] = scores
        top = scores.max(axis=1, keepdims=True)
        leaders = scores == top
        alone = leaders.sum(axis=1) == 1
        over = (top[:, 0] >= rules.points_target) & (alone | (rules.points_tie is PointsTie.SHARED))
        if over.any():
            bits = (leaders[over].astype(np.int64) << np.arange(self.n)).sum(axis=1)
            self._finish(slots[over], bits)
        found: np.ndarray = over
        return found

    # Milestones and 69 --------------------------------------------------------------

    def _meets(self, old: np.ndarray, new: np.ndarray, down: np.ndarray) -> np.ndarray:
        """Where a play from ``old`` to ``new`` meets an online milestone: the limit made
        exactly, or 33 or 66 made or crossed (left, where the rules say)."""
        met = (new == self.limit) & (old < new)
        for t in self.rules.threshold_values:
            met |= (old < t) & (t <= new)
            if self.leave:
                met |= (old == t) & (t < new)
        met &= ~down
        if not self.milestones_on_bust:  # a play over the limit pays only for that (QC)
            met &= new <= self.limit
        found: np.ndarray = met
        return found

    def _pay_milestones(
        self, slots: np.ndarray, seat: np.ndarray, old: np.ndarray, new: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The payments of ``seat``'s play in each slot, in the reference engine's order
        (:func:`~ninetynine.engine.tables.milestones`): each of the others for a milestone
        made exactly, the player for one crossed, each while still in and the game on.
        Returns, per slot: the hand ends (the limit made), the game ended, the player is
        out."""
        n, limit = self.n, self.limit
        made_limit = (new == limit) & (old < new)
        events = [(made_limit, True, 2)]
        for t in self.rules.threshold_values:
            crossed = (old < t) & (t < new)
            if self.leave:
                crossed |= (old == t) & (t < new)
            events += [((new == t) & (old < t), True, 1), (crossed, False, 1)]
        over = np.zeros(len(slots), bool)
        for met, made, amount in events:
            for k in range(1, n) if made else (0,):
                payer = (seat + k) % n
                pays = np.nonzero(met & ~over & (self.alive[slots] >> payer & 1 == 1))[0]
                if not len(pays):
                    continue
                at, who = slots[pays], payer[pays]
                paid, out = self._charge(at, who, amount)
                self.milestones_paid[at, who] += paid
                over[pays] |= self._eliminate(at, who, out)
        out = ~over & (self.alive[slots] >> seat & 1 == 0)
        return made_limit & ~over, over, out

    def _sixty_nine(
        self, slots: np.ndarray, seat: np.ndarray, old: np.ndarray, new: np.ndarray, on: np.ndarray
    ) -> None:
        """The 69 rule for the plays of ``seat`` (where ``on``: neither over the limit nor
        ending the game) that make the rules' 69 total: the total back to 0, or a life from
        the pot while it has one."""
        target = self.rules.rule_69_total
        makes = on & (new == target) & (old != target)
        if self.rules.rule_69_from is Rule69From.BELOW:
            makes &= old < target
        if self.rule_69 is Rule69.RESET_TO_ZERO:
            self.total[slots[makes]] = 0
        elif self.rule_69 is Rule69.EXTRA_POINT:
            self.points[slots[makes], seat[makes]] += 1
        elif self.penny:
            makes &= self.pot[slots, 0] > 0
            at, who = slots[makes], seat[makes]
            self.pot[at, 0] -= 1
            self._set_lives(at, who, self.lives[at, who] + 1)

    def _reset_total(self, slots: np.ndarray) -> None:
        """The total back to 0 after a bust, the pile taken away if the rules say (its
        cards come back at the next restock)."""
        self.total[slots] = 0
        if self.rules.clear_pile_on_reset:
            self._clear_pile(slots)
