"""A JAX engine: the batch engine's games on ``jax.numpy``, jit-compiled and vmapped.

In the style of Pgx, one game is a pytree of small arrays (:class:`State`) and the rules are
pure functions of one game, :meth:`Engine.init` and :meth:`Engine.step`, that ``jax.vmap``
runs over a batch; :class:`JaxBatch` wraps them in :class:`~ninetynine.rl.batch.Batch`'s
API. It plays what the NumPy batch engine plays but the up-card and the opening ban
(:data:`PLAYS`, :data:`KINDS`: a one-line refusal names the setting) from the NumPy
engine's own tables, made once per rule set and table size and closed over as constants:
the rules are written once.

A step is three parts, so that a shuffle or a leader can come from outside (as the NumPy
engine's ``shuffler`` and ``leader`` do, for the differential test): the play (a card, or
laying down, and what a lost life brings: a new hand or a new game), the leader and the
stock it asks for (a seat still in, drawn; the whole deck, or the pile under its top card
when the stock is empty), and the deal or draw after it. By
default nothing is sorted (XLA's sort is slow on the CPU): a new stock is left in order and
each card dealt or drawn is a random one of it, which is a shuffle in distribution; a
shuffler's orders are dealt and drawn from the top, as the reference engine does.

>>> games = JaxBatch("P", 4, 8, seed=1)
>>> games.step(games.random_actions(games.legal()))
>>> games.decisions
8
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any, NamedTuple, TypeVar

import numpy as np

try:
    import jax
    import jax.numpy as jnp
except ModuleNotFoundError as e:  # one line naming the extra, as ninetynine.rl's
    raise ModuleNotFoundError(
        'ninetynine.rl.jax needs the jax extra: pip install "ninetynine[jax]" '
        f"(no module {e.name!r})",
        name=e.name,
    ) from e

from ninetynine.engine.ledger import CANNOT_PLAY, OVER_
from ninetynine.engine.state import DOWN
from ninetynine.engine.tables import choice_of
from ninetynine.errors import RulesError
from ninetynine.rl.batch import (
    EMPTY,
    HALVES_EVEN,
    HALVES_OVER,
    KINDS,
    SUPPORTED,
    Batch,
    Leader,
    Shuffler,
    check_supported,
)
from ninetynine.rl.encoding import rules_for
from ninetynine.rules.settings import (
    AfterBust,
    Direction,
    EliminatedHand,
    Elimination,
    GameEnd,
    NewRoundDeal,
    NoLegalPlay,
    PointsTie,
    Rule69,
    Rule69From,
    Rules,
    Starter,
    StartTotal,
    StockEmpty,
)

# what the JAX engine plays: the NumPy engine's settings and cards but the up-card and the
# opening ban
PLAYS = tuple(
    (key, tuple(v for v in values if v is not StartTotal.UPCARD)) for key, values in SUPPORTED
) + (("king_ban_turns", (0,)),)
NONE, DECK, PILE = 0, 1, 2  # what a step shuffles: nothing, every card, the pile but its top
I32 = jnp.int32
T = TypeVar("T")


class State(NamedTuple):
    """One game (a batch of them under ``vmap``), each field as the NumPy engine's array of
    the same name and type (:class:`~ninetynine.rl.batch.Batch` describes them)."""

    hands: jax.Array  # (players, hand_size): cards, EMPTY for none
    stock: jax.Array  # (52 * decks,): its first stock_len cards, top card last
    stock_len: jax.Array
    total: jax.Array
    direction: jax.Array  # +1 clockwise
    turn: jax.Array
    dealer: jax.Array
    starter: jax.Array
    lives: jax.Array  # (players,)
    alive: jax.Array  # a bit per seat
    in_hand: jax.Array  # a bit per seat
    top: jax.Array  # the pile's top card
    hand_no: jax.Array
    over: jax.Array  # the game ended this step (a new one is dealt)
    winners: jax.Array
    loser: jax.Array  # the seat that lost a life this step, -1 for none
    paid: jax.Array
    cause: jax.Array
    final_lives: jax.Array
    final_hands: jax.Array
    pot: jax.Array  # (1,) under 69's penny: the lives paid in; (0,) otherwise
    # under game points (else of width 0): each seat's points this hand and score, the
    # points the seat to act lost at borders this step, and a game's final scores
    points: jax.Array
    scores: jax.Array
    borders_lost: jax.Array
    final_scores: jax.Array
    # under a no-draw chain (else of width 0): the chain the seat to act faces, and the
    # cards left in its run
    chain: jax.Array
    plays_left: jax.Array
    # under online milestones (else of width 0): what each seat paid at them this step
    milestones_paid: jax.Array


class Pending(NamedTuple):
    """What the play leaves to do: a leader to draw (``lead``: a new hand under a random
    starter), ``shuffle`` (NONE, DECK or PILE) into the stock, then ``deal`` a hand from
    the stock, or draw into hand slot ``draw_into`` (-1 for none) of seat ``draw_seat`` if
    the stock has a card."""

    shuffle: jax.Array
    deal: jax.Array
    draw_into: jax.Array
    draw_seat: jax.Array
    lead: jax.Array


def pending(
    shuffle: Any = NONE, deal: Any = False, into: Any = -1, seat: Any = 0, lead: Any = False
) -> Pending:
    """A :class:`Pending` with fixed types (the branches of a step are selected field by
    field: each must have the same)."""
    return Pending(
        jnp.asarray(shuffle, I32),
        jnp.asarray(deal, bool),
        jnp.asarray(into, I32),
        jnp.asarray(seat, I32),
        jnp.asarray(lead, bool),
    )


def select(cond: jax.Array, yes: T, no: T) -> T:
    """``yes`` where ``cond``, else ``no``, leaf by leaf (both branches were computed: under
    ``vmap`` a branch is a choice of values, not of work)."""
    chosen: T = jax.tree.map(lambda a, b: jnp.where(cond, a, b), yes, no)
    return chosen


def put(s: State, **fields: Any) -> State:
    """``s`` with ``fields`` replaced, each stored back in the field's compact type (the
    step computes in int32)."""
    return s._replace(**{k: jnp.asarray(v).astype(getattr(s, k).dtype) for k, v in fields.items()})


def const(table: Any) -> jax.Array:
    """A NumPy table as a JAX constant (int32: JAX's default integer)."""
    return jnp.asarray(np.asarray(table).astype(np.int32))


class Engine:
    """The pure functions of one rule set and table size (see :func:`engine`)."""

    def __init__(self, rules: Rules, players: int) -> None:
        check_supported(rules, PLAYS, "the JAX engine", KINDS, naming=False)
        t = Batch(rules, players, 1, seed=0)  # the tables
        self.rules, self.n, self.hand_size = rules, players, t.hand_size
        if 4 * t.hand_size + 1 > 31:  # the legal patterns' two bit fields in an int32
            raise RulesError(f"the JAX engine plays hands of at most 7 cards, not {t.hand_size}")
        self.decks, self.actions, self.down = t.decks, t.actions, t.down
        self.cards = 52 * t.decks
        self.limit, self.clamp, self.start_lives = t.limit, t.clamp, t.start_lives
        self.low, self.field = t.low, t.field
        self.add, self.set_to, self.flip = const(t.add), const(t.set_to), const(t.flip)
        self.skip, self.skips = const(t.skip), t.skips
        self.skip_two, self.flip_two, self.again_two = t.skip_two, t.flip_two, t.again_two
        self.slot_bits = const(np.stack(t.slot_bits))  # (hand_size, (limit + 2) * 53)
        self.next_seat, self.popcount = const(t.next_seat), const(t.popcount)
        self.place, self.count, self.pick = const(t.place), const(t.count), const(t.pick)
        self.deck = const(np.sort(t.deck))
        self.copy = const(np.arange(self.cards) % self.decks)  # which copy of its card
        # a game's arrays: the NumPy engine's, one game's part of each
        self.blank = State(**{f: jnp.asarray(getattr(t, f)[0]) for f in State._fields})
        self.restocks = rules.stock_empty is not StockEmpty.NO_DRAW
        self.keep_top = rules.stock_empty is StockEmpty.RESHUFFLE_KEEP_TOP
        # pooled teams: per seat, the seats spending the same lives, and as bits
        self.pooled, self.partners, self.pool_bits = t.pooled, const(t.partners), t.pool_bits
        self.rule_69, self.pays_pot = rules.rule_69, t.pays_pot
        self.points_game, self.border_values = t.points_game, t.border_values
        # cards that double or halve; online milestones
        self.doubles, self.doubling, self.halve_over = t.doubles, const(t.doubling), t.halve_over
        self.online, self.leave, self.skip_before = t.online, t.leave, t.skip_before
        # a leader drawn for each hand: the k-th seat still in
        self.random_lead, self.kth = rules.starter is Starter.RANDOM, const(t.kth)
        # a no-draw chain: its cards, and each hand slot's bits (to forbid a card)
        self.chains, self.chain_card = t.chains, const(t.chain_card)
        self.slot_bits_all = const(t.slot_bits_all)
        # the batch functions, compiled on first use for each batch size
        self.legal_batch: Callable[[State], jax.Array] = jax.jit(jax.vmap(self.legal))
        self.random_batch: Callable[[jax.Array, jax.Array], jax.Array] = jax.jit(
            self.random_actions
        )
        self.play_batch: Callable[..., tuple[State, Pending]] = jax.jit(jax.vmap(self.play))
        self.cards_batch: Callable[..., tuple[jax.Array, jax.Array]] = jax.jit(
            jax.vmap(self.to_shuffle)
        )
        self.stocked_batch: Callable[..., State] = jax.jit(jax.vmap(self.stocked))
        self.finish_batch: Callable[..., State] = jax.jit(jax.vmap(self.finish))
        self.led_batch: Callable[..., State] = jax.jit(jax.vmap(self.led))
        self.leaders_batch: Callable[..., jax.Array] = jax.jit(jax.vmap(self.drawn_leader))
        self.step_batch: Callable[..., State] = jax.jit(self._step_batch)
        self.init_batch: Callable[..., State] = jax.jit(self._init_batch)

    # Per game: Pgx's init and step ----------------------------------------------------

    def init(self, key: jax.Array, first: Any = None) -> State:
        """A new game, dealt (``first`` leads; drawn at random when None)."""
        k1, k2 = jax.random.split(key)
        if first is None:
            first = jax.random.randint(k1, (), 0, self.n)
        return self.chance(*self.new_game(self.blank, jnp.asarray(first, I32)), k2)

    def step(self, s: State, action: jax.Array, key: jax.Array) -> State:
        """Play ``action`` (legal: see :meth:`legal`) in game ``s``; chance from ``key``."""
        k1, k2 = jax.random.split(key)
        return self.chance(*self.play(s, action, jax.random.randint(k1, (), 0, self.n)), k2)

    def chance(self, s: State, p: Pending, key: jax.Array) -> State:
        """The leader and the stock ``p`` asks for, then the deal or draw, drawn from
        ``key``."""
        k1, k2, k3 = jax.random.split(key, 3)
        if self.random_lead:
            s = self.led(s, p, self.drawn_leader(s, jax.random.uniform(k3)))
        s = select(p.shuffle == PILE, self.restocked(s, p), s)
        s = self.to_deal(s, p, jax.random.uniform(k1, (self.n * self.hand_size,)))
        return self.finish(s, p, jax.random.uniform(k2))

    def legal(self, s: State) -> jax.Array:
        """The legal actions of the seat to act, a bit per action (as ``Batch.legal``)."""
        base = (jnp.clip(s.total.astype(I32), -1, self.limit) + 1) * 53
        held = s.hands[s.turn.astype(I32)].astype(I32)
        # the slots' bit fields are apart: their sum is their union
        pattern = self.slot_bits[jnp.arange(self.hand_size), base + held].sum()
        if self.chains:  # a card the chain forbids now has no choice at all
            pattern &= ~jnp.where(self.forbidden(s, held), self.slot_bits_all, 0).sum()
        safe, allowed = pattern & self.low, pattern >> self.field
        rules = self.rules
        if rules.may_bust:
            legal = allowed
        elif rules.no_legal_play is NoLegalPlay.LAY_DOWN:
            legal = safe
        else:
            legal = jnp.where(safe != 0, safe, allowed)
        return jnp.where(legal == 0, 1 << self.down, legal)

    def forbidden(self, s: State, held: jax.Array) -> jax.Array:
        """Per hand slot, whether its card may not be played now: a chain card in a run,
        any other card where the run the chain asks for is too long to finish."""
        in_run, faced = s.plays_left[0] > 0, s.chain[0]
        chained = self.chain_card[held] == 1
        others = (~chained & (held != EMPTY)).sum()
        return jnp.where(chained, in_run, ~in_run & (faced > others))

    def random_actions(self, legal: jax.Array, key: jax.Array) -> jax.Array:
        """One legal action per bit pattern of ``legal`` (any shape), uniformly."""
        k = jax.random.randint(key, legal.shape, 0, self.count[legal])
        return self.pick[legal * self.actions + k]

    # The play ---------------------------------------------------------------------------

    def next_of(self, mask: jax.Array, seat: jax.Array, clockwise: jax.Array) -> jax.Array:
        """The first seat of ``mask`` after ``seat``, clockwise or not."""
        return self.next_seat[(mask.astype(I32) * self.n + seat) * 2 + clockwise.astype(I32)]

    def play(self, s: State, action: jax.Array, first: jax.Array) -> tuple[State, Pending]:
        """The card (or laying down) and what follows a lost life; ``first`` leads a new
        game if this one ends."""
        turn, total = s.turn.astype(I32), s.total.astype(I32)
        down = action == self.down
        slot = jnp.minimum(action >> 1, self.hand_size - 1)
        held = s.hands[turn, slot]
        card = jnp.where(down, EMPTY, held.astype(I32))
        new = self.result(card, action & 1, total)
        lost = (new > self.limit) | down
        # a milestone may end the hand (the limit made) or the game, or put the player out
        ended = over = out = jnp.asarray(False)
        in_before = s.in_hand.astype(I32)  # (who was in before, where a skip counts them)
        if self.online:
            s, ended, over, out = self.pay_milestones(s, turn, total, new, down)
            lost &= ~over
        in_hand, flip = s.in_hand.astype(I32), self.flip[card]
        if not self.flip_two:  # a reverse flips nothing with two in the hand
            flip = jnp.where(self.popcount[in_hand] > 2, flip, 1)
        direction = s.direction * flip
        nxt = self.next_of(in_hand, turn, direction > 0)
        if self.skips:  # the seat after the next (with two in the hand, if the rules say)
            skip = self.skip[card] == 1
            if not self.skip_two:
                skip &= self.popcount[in_hand] > 2
            skipped = self.next_of(in_before, turn, direction > 0) if self.skip_before else nxt
            nxt = jnp.where(skip, self.next_of(in_hand, skipped, direction > 0), nxt)
        if self.again_two:  # a reverse with two in the hand: the same seat plays again
            again = (self.flip[card] < 0) & (self.popcount[in_hand] == 2)
            nxt = jnp.where(again & (in_hand >> turn & 1 == 1), turn, nxt)
        stays = jnp.asarray(False)  # a run's card: no draw, and the turn stays
        if self.chains:
            left, faced = s.plays_left[0].astype(I32), s.chain[0].astype(I32)
            chained, in_run = self.chain_card[card] == 1, left > 0
            starts = ~in_run & (faced > 0) & ~chained  # a run's first card
            run_left = jnp.where(in_run, left - 1, jnp.where(starts, faced - 1, 0))
            stays = in_run | starts
            nxt = jnp.where(run_left > 0, turn, nxt)
            s = put(  # (a life lost ends the chain: every hand ends so)
                s,
                plays_left=jnp.where(lost, 0, run_left)[None],
                chain=jnp.where(lost | ~chained, 0, faced + 1)[None],
            )
        if self.rule_69 is not Rule69.NONE:  # the 69 rule, for a play not over the limit
            target = self.rules.rule_69_total
            makes = ~(lost | over) & (new == target) & (total != target)
            if self.rules.rule_69_from is Rule69From.BELOW:
                makes &= total < target
            if self.rule_69 is Rule69.RESET_TO_ZERO:
                new = jnp.where(makes, 0, new)
            elif self.rule_69 is Rule69.PENNY_FROM_POOL:  # a life from the pot, if any
                gain = makes & (s.pot[0] > 0)
                s = self.set_lives(s, turn, s.lives[turn] + gain)
                s = put(s, pot=s.pot - gain)
            elif self.rule_69 is Rule69.EXTRA_POINT:
                s = put(s, points=s.points.at[turn].add(makes.astype(s.points.dtype)))
        if self.points_game:  # a point for each border the play crossed
            low, high = jnp.minimum(total, new), jnp.maximum(total, new)
            borders = jnp.asarray(self.border_values, I32)
            crossed = ((low <= borders) & (borders < high)).sum()
            if not self.rules.border_cross_backward_costs:
                crossed = jnp.where(new < total, 0, crossed)
            s = put(
                s,
                points=s.points.at[turn].add(-crossed.astype(s.points.dtype)),
                borders_lost=crossed[None],
            )
        s = put(
            s,
            direction=direction,
            top=jnp.where(down, s.top, card),
            total=jnp.where(lost, total, new),
            hands=s.hands.at[turn, slot].set(jnp.where(down, held, EMPTY).astype(held.dtype)),
            turn=jnp.where(lost, turn, nxt),
            over=False,
            loser=-1,
            paid=0,
            cause=-1,
        )
        # a card played that is not lost is replaced from the stock, restocked if empty
        # (not a run's, nor where a milestone ended the hand or put the player out)
        keeps = stays | ended | out
        draw = pending(
            jnp.where(keeps, NONE, self.restock(s)), into=jnp.where(keeps, -1, slot), seat=turn
        )
        on = (s, draw)
        if self.online:
            on = select(ended, self.end_hand(s, jnp.asarray(-1), first), on)
            on = select(over, self.new_game(self.game_over(s), first), on)
        return select(lost, self.lose(s, turn, ~down, slot, first), on)

    def result(self, card: jax.Array, choice: jax.Array, total: jax.Array) -> jax.Array:
        """The total after playing ``card`` (``EMPTY`` adds nothing) with ``choice`` at
        ``total``, floored at 0 where the rules clamp (``Batch.results``)."""
        set_to = self.set_to[card]
        new = jnp.where(set_to >= 0, set_to, total + self.add[card * 2 + choice])
        if self.doubles:  # halve an even total (if over), else double
            how = self.doubling[card]
            over = (how == HALVES_OVER) & (total > self.halve_over)
            halve = (total % 2 == 0) & ((how == HALVES_EVEN) | over)
            new = jnp.where(how > 0, jnp.where(halve, total // 2, total * 2), new)
        if self.clamp:
            new = jnp.where((new < 0) & (new < total), 0, new)
        return new

    def pay_milestones(
        self, s: State, seat: jax.Array, old: jax.Array, new: jax.Array, down: jax.Array
    ) -> tuple[State, jax.Array, jax.Array, jax.Array]:
        """The online milestones of ``seat``'s play from ``old`` to ``new``, in the reference
        engine's order (``Batch._pay_milestones``): each of the others for one made exactly
        (the limit 2, 33 and 66 1), the player for 33 or 66 crossed (or left), each while
        still in and the game on. Returns the game, and whether the hand ends (the limit
        made), the game ended, the player is out."""
        rules, n = self.rules, self.n
        met = ~down  # (a play over the limit pays only for that, where the rules say)
        if not rules.milestones_on_bust:
            met &= new <= self.limit
        made_limit = (new == self.limit) & (old < new)
        # one payment a row, in the reference engine's order: whether it happens, the lives
        # due and the payer (a seat after the player's; 0: the player)
        events: list[tuple[jax.Array, int, range]] = [(made_limit, 2, range(1, n))]
        for t in rules.threshold_values:
            crossed = (old < t) & (t < new)
            if self.leave:
                crossed |= (old == t) & (t < new)
            events += [((new == t) & (old < t), 1, range(1, n)), (crossed, 1, range(1))]
        happens = jnp.stack([met & h for h, _, ks in events for _ in ks])
        due = jnp.asarray([a for _, a, ks in events for _ in ks], I32)
        after = jnp.asarray([k for _, _, ks in events for k in ks], I32)

        def pay(i: jax.Array, carry: tuple[State, jax.Array, jax.Array]) -> Any:
            # (a loop, not one trace per payment: milestones every ten points compile in
            # a fraction of the time)
            s, over, paid_each = carry
            payer = (seat + after[i]) % n
            pays = happens[i] & ~over & (s.alive.astype(I32) >> payer & 1 == 1)
            s, paid, gone = self.charge(s, payer, jnp.where(pays, due[i], 0))
            s, ends = self.eliminate(s, payer, pays & gone)
            return s, over | pays & ends, paid_each.at[payer].add(paid)

        start = (s, jnp.asarray(False), jnp.zeros(n, I32))
        s, over, paid_each = jax.lax.fori_loop(0, happens.shape[0], pay, start)
        out = ~over & (s.alive.astype(I32) >> seat & 1 == 0)
        # (where the game ended too, the play takes the new game's way: see play)
        return put(s, milestones_paid=paid_each), made_limit & met, over, out

    def charge(self, s: State, seat: jax.Array, due: jax.Array) -> tuple[State, Any, Any]:
        """``seat`` pays ``due`` lives, or what it has (into the pot, where 69 takes from
        it): returns the game, what it paid and whether it is out by the rules' elimination
        (at 0 lives, or owing more than it had)."""
        held = s.lives[seat].astype(I32)
        paid = jnp.minimum(held, due)
        s = self.set_lives(s, seat, held - paid)
        if self.pays_pot:
            s = put(s, pot=s.pot + paid)
        out = held < due if self.rules.elimination is Elimination.CANNOT_PAY else held <= due
        return s, paid, out

    def eliminate(self, s: State, seat: jax.Array, out: jax.Array) -> tuple[State, jax.Array]:
        """Put ``seat`` (and, pooled, its partners) out where ``out``, the hands under the
        pile where the rules say; returns the game and whether that ends it (one seat or
        side left in, or the first player out)."""
        if self.pooled:
            mine, bits = self.partners[seat] == 1, jnp.asarray(self.pool_bits)[seat]
        else:
            mine, bits = jnp.arange(self.n) == seat, 1 << seat
        alive = jnp.where(out, s.alive & ~bits, s.alive)
        hands = s.hands
        if self.rules.eliminated_hand is EliminatedHand.UNDER_PILE:  # face down
            hands = jnp.where(out & mine[:, None], EMPTY, hands).astype(hands.dtype)
        s = put(s, alive=alive, in_hand=jnp.where(out, s.in_hand & ~bits, s.in_hand), hands=hands)
        if self.rules.game_end is GameEnd.FIRST_OUT or self.pooled:  # (two sides: one left)
            return s, out
        return s, self.popcount[alive.astype(I32)] <= 1

    def game_over(self, s: State) -> State:
        """``s`` as a game over: its winners (the last seats in, or the first one out's
        rule) and final lives and hands."""
        first_out = self.rules.game_end is GameEnd.FIRST_OUT
        winners = self.most_lives(s) if first_out else s.alive
        return put(s, over=True, winners=winners, final_lives=s.lives, final_hands=s.hand_no)

    def restock(self, s: State) -> jax.Array:
        """The shuffle a draw from this stock needs: the pile's, if it is empty."""
        return jnp.where(self.restocks & (s.stock_len == 0), PILE, NONE)

    def lose(
        self, s: State, seat: jax.Array, played: jax.Array, slot: jax.Array, first: jax.Array
    ) -> tuple[State, Pending]:
        """The seat went over (``played``) or laid down: a life, then the game's end or the
        rules' way on."""
        penalty = self.rules.bust_penalty
        if self.points_game:  # no life: a game point for laying down, and nobody out
            laid = (~played).astype(I32)
            s = put(
                s,
                loser=seat,
                cause=jnp.where(played, OVER_, CANNOT_PLAY),
                paid=laid,
                points=s.points.at[seat].add(-laid.astype(s.points.dtype)),
            )
            return self.after_bust(s, seat, played, slot, first)
        # (a seat a milestone of this play put out has no lives left: it pays 0)
        s, paid, out = self.charge(s, seat, jnp.asarray(penalty))
        s, ends = self.eliminate(s, seat, out)
        s = put(s, loser=seat, cause=jnp.where(played, OVER_, CANNOT_PLAY), paid=paid)
        return select(
            ends,
            self.new_game(self.game_over(s), first),
            self.after_bust(s, seat, played, slot, first),
        )

    def set_lives(self, s: State, seat: jax.Array, lives: jax.Array) -> State:
        """``seat``'s lives are now ``lives``: its own, or (pooled) its side's, each
        partner holding a copy."""
        lives = lives.astype(s.lives.dtype)
        if self.pooled:
            return put(s, lives=jnp.where(self.partners[seat] == 1, lives, s.lives))
        return put(s, lives=s.lives.at[seat].set(lives))

    def most_lives(self, s: State) -> jax.Array:
        """The seats still in with the most lives (a bit per seat): who wins a game that the
        first player out ends."""
        seats = jnp.arange(self.n)
        alive = (s.alive.astype(I32) >> seats & 1) == 1
        lives = jnp.where(alive, s.lives.astype(I32), -1)
        return ((alive & (lives == lives.max())).astype(I32) << seats).sum()

    def after_bust(
        self, s: State, seat: jax.Array, played: jax.Array, slot: jax.Array, first: jax.Array
    ) -> tuple[State, Pending]:
        """A new hand, the seat sitting out, or the total back to 0 (the rules' after_bust;
        ``first`` leads a new game if game points end this one)."""
        after = self.rules.after_bust
        if after is AfterBust.END_HAND:
            return self.end_hand(s, seat, first)
        clockwise = s.direction > 0
        if after is AfterBust.RESET_ALL:
            # a card played over the limit is replaced if its seat is still in
            draws = played & (s.in_hand >> seat & 1 == 1) & self.rules.draw_after_bust
            on = put(self.reset_total(s), turn=self.next_of(s.in_hand, seat, clockwise))
            return on, pending(
                jnp.where(draws, self.restock(s), NONE), into=jnp.where(draws, slot, -1), seat=seat
            )
        in_hand = s.in_hand & ~(1 << seat)  # the seat sits the hand out
        s = put(s, in_hand=in_hand)
        on = put(s, turn=self.next_of(in_hand, seat, clockwise))
        if after is AfterBust.RESET_OTHERS:  # ... and the others go on from 0
            on = self.reset_total(on)
        return select(self.popcount[in_hand] <= 1, self.end_hand(s, seat, first), (on, pending()))

    def reset_total(self, s: State) -> State:
        """The total back to 0 after a bust, the pile taken away if the rules say (its
        cards come back at the next restock)."""
        return put(s, total=0, top=EMPTY if self.rules.clear_pile_on_reset else s.top)

    # Hands and games --------------------------------------------------------------------

    def new_game(self, s: State, first: jax.Array) -> tuple[State, Pending]:
        """Every seat back with its lives, ``first`` to lead, every card shuffled."""
        s = put(
            s,
            lives=jnp.full(self.n, self.start_lives),
            alive=(1 << self.n) - 1,
            starter=first,
            dealer=(first - 1) % self.n,
            direction=1,
            hand_no=1,
            top=EMPTY,
            pot=jnp.zeros_like(s.pot),
            scores=jnp.zeros_like(s.scores),
        )
        return s, pending(DECK, deal=True)

    def end_hand(self, s: State, loser: jax.Array, first: jax.Array) -> tuple[State, Pending]:
        """The hand is over (``loser`` lost it): its game points scored, ending the game at
        the target (``first`` leads the next), or the next leader and the new deal."""
        if self.points_game:
            rules = self.rules
            points = jnp.maximum(s.points, 0) if rules.points_floor_zero else s.points
            scores = (s.scores + points).astype(s.scores.dtype)
            s = put(s, scores=scores)
            top = scores.max()
            leaders = scores == top
            over = (top >= rules.points_target) & (
                (leaders.sum() == 1) | (rules.points_tie is PointsTie.SHARED)
            )
            winners = (leaders.astype(I32) << jnp.arange(self.n)).sum()
            ended = put(
                s,
                over=True,
                winners=winners,
                final_lives=s.lives,
                final_hands=s.hand_no,
                final_scores=scores,
            )
            return select(over, self.new_game(ended, first), self.next_hand(s, loser))
        return self.next_hand(s, loser)

    def next_hand(self, s: State, loser: jax.Array) -> tuple[State, Pending]:
        """The next leader and the new deal."""
        alive, cw = s.alive, jnp.asarray(True)
        starter = self.rules.starter
        lead = starter is Starter.RANDOM  # (drawn with the chance: Engine.led)
        if lead:
            leader, dealer = s.starter, s.dealer
        elif starter is Starter.LEFT_OF_DEALER:
            dealer = self.next_of(alive, s.dealer.astype(I32), cw)
            leader = self.next_of(alive, dealer, cw)
        else:  # with no loser (the limit made), the seat after the last leader leads
            none = loser < 0
            loser = jnp.where(none, s.starter.astype(I32), loser)
            leader = self.next_of(alive, loser, cw)
            if starter is Starter.LOSER:  # the loser leads; if out, the next seat still in
                leader = jnp.where(~none & (alive >> loser & 1 == 1), loser, leader)
            dealer = self.next_of(alive, leader, ~cw)
        s = put(s, hand_no=s.hand_no + 1, dealer=dealer, starter=leader)
        if self.rules.new_round_deal is NewRoundDeal.FULL_RESHUFFLE:
            return put(s, top=EMPTY), pending(DECK, deal=True, lead=lead)
        # from the stock: the old hands go face down under the pile; every card is
        # shuffled if the stock is short
        enough = s.stock_len >= self.popcount[alive] * self.hand_size
        s = put(s, hands=jnp.full_like(s.hands, EMPTY), top=jnp.where(enough, s.top, EMPTY))
        return s, pending(jnp.where(enough, NONE, DECK), deal=True, lead=lead)

    # Chance -------------------------------------------------------------------------------

    def drawn_leader(self, s: State, u: jax.Array) -> jax.Array:
        """A seat still in, from a uniform number ``u``."""
        alive = s.alive.astype(I32)
        k = jnp.minimum((u * self.popcount[alive]).astype(I32), self.popcount[alive] - 1)
        return self.kth[alive * self.n + k]

    def led(self, s: State, p: Pending, leader: jax.Array) -> State:
        """``leader`` leads the new hand where ``p`` asks for a leader; the dealer sits
        before it."""
        dealer = self.next_of(s.alive, leader, jnp.asarray(False))
        return put(
            s,
            starter=jnp.where(p.lead, leader, s.starter),
            dealer=jnp.where(p.lead, dealer, s.dealer),
        )

    def shuffling(self, s: State, kind: jax.Array) -> jax.Array:
        """Which cards of the sorted deck (``deck``: each card ``decks`` times) a shuffle of
        ``kind`` orders: every one, or the pile's (the cards not in a hand nor on top)."""
        kept = s.top if self.keep_top else jnp.asarray(EMPTY, s.top.dtype)  # (all of it, else)
        out = jnp.concatenate([s.hands.ravel(), kept[None]]).astype(I32)
        left = self.decks - (jnp.arange(52)[:, None] == out).sum(1)
        return (kind == DECK) | (self.copy < left[self.deck])

    def to_shuffle(self, s: State, kind: jax.Array) -> tuple[jax.Array, jax.Array]:
        """The cards a shuffle of ``kind`` orders, sorted and padded with EMPTY (as a
        :data:`~ninetynine.rl.batch.Shuffler` is given them), and their count."""
        inside = self.shuffling(s, kind)
        return jnp.sort(jnp.where(inside, self.deck, EMPTY)), inside.sum()

    def stocked(self, s: State, kind: jax.Array, order: jax.Array, count: jax.Array) -> State:
        """The stock after a shuffle of ``kind``: ``order``'s first ``count`` cards, the top
        card first (the stock as it was for NONE)."""
        back = jnp.maximum(count - 1 - jnp.arange(self.cards), 0)
        shuffled = kind != NONE
        return put(
            s,
            stock=jnp.where(shuffled, order[back], s.stock),
            stock_len=jnp.where(shuffled, count, s.stock_len),
            top=s.top if self.keep_top else jnp.where(kind == PILE, EMPTY, s.top),
        )

    def restocked(self, s: State, p: Pending) -> State:
        """The pile (sorted) as the stock, for a draw that finds it empty (the draws are
        random: see :meth:`to_deal`)."""
        cards, count = self.to_shuffle(s, p.shuffle)
        return self.stocked(s, p.shuffle, cards, count)

    def to_deal(self, s: State, p: Pending, u: jax.Array) -> State:
        """Before a deal, a new deck (sorted) for a shuffle of every card, and the cards to
        deal brought to the top of the stock at random (a partial Fisher-Yates shuffle, from
        ``u``: a uniform number per card dealt). Together with draws from random places in
        the stock (:meth:`finish`) this plays as a shuffle without sorting anything (XLA's
        sort is slow on the CPU); a ``u`` of ones keeps the stock's order."""
        deck = p.shuffle == DECK
        stock = jnp.where(deck, self.deck, s.stock)
        size = jnp.where(deck, self.cards, s.stock_len.astype(I32))
        dealt = self.popcount[s.alive.astype(I32)] * self.hand_size

        def swap(i: jax.Array, stock: jax.Array) -> jax.Array:
            top = jnp.maximum(size - 1 - i, 0)
            j = jnp.minimum((u[i] * (top + 1)).astype(I32), top)
            a, b = stock[top], stock[j]
            on = p.deal & (i < dealt)
            return stock.at[top].set(jnp.where(on, b, a)).at[j].set(jnp.where(on, a, b))

        stock = jax.lax.fori_loop(0, u.shape[0], swap, stock)
        return put(s, stock=stock, stock_len=size)

    def finish(self, s: State, p: Pending, u: jax.Array) -> State:
        """The deal of a new hand off the top of the stock, or the draw, that ``p`` asks
        for."""
        h = self.hand_size
        alive, starter = s.alive.astype(I32), s.starter.astype(I32)
        place = self.place[alive, starter]  # each seat's place in the deal, -1 if out
        m = self.popcount[alive]
        depth = jnp.arange(h)[None, :] * m + place[:, None]
        dealt = s.stock[jnp.maximum(s.stock_len - 1 - jnp.maximum(depth, 0), 0)]
        direction = 1 if self.rules.direction is Direction.RESET else s.direction
        deal = put(
            s,
            hands=jnp.where(place[:, None] >= 0, dealt, EMPTY),
            stock_len=s.stock_len - m * h,
            total=0,
            turn=starter,
            in_hand=alive,
            direction=direction,
            points=jnp.full_like(s.points, self.rules.points_per_hand),
        )
        # the draw: a card from a random place (``u``'s; 1 for the top), the top card moved
        # into its place
        size = s.stock_len.astype(I32)
        can = (p.draw_into >= 0) & (size > 0)
        top = jnp.maximum(size - 1, 0)
        at = jnp.minimum((u * size).astype(I32), top)
        into = jnp.maximum(p.draw_into, 0)
        card = jnp.where(can, s.stock[at], s.hands[p.draw_seat, into])
        draw = put(
            s,
            hands=s.hands.at[p.draw_seat, into].set(card),
            stock=s.stock.at[at].set(s.stock[top]),
            stock_len=size - can,
        )
        return select(p.deal, deal, draw)

    # A batch at once ----------------------------------------------------------------------

    def _step_batch(self, s: State, actions: jax.Array, key: jax.Array) -> State:
        """Every game's step, its chance drawn from ``key`` for the whole batch."""
        k1, k2 = jax.random.split(key)
        size = actions.shape[0]
        s, p = jax.vmap(self.play)(s, actions, jax.random.randint(k1, (size,), 0, self.n))
        return self.chance_batch(s, p, k2)

    def chance_batch(self, s: State, p: Pending, key: jax.Array) -> State:
        """:meth:`chance` for a batch: restocks and deals (a few games in a step) for the
        games that have them alone, a chunk at a time."""
        k1, k2, k3, k4 = jax.random.split(key, 4)
        size = p.shuffle.shape[0]
        if self.random_lead:
            u = jax.random.uniform(k4, (size,))
            s = jax.vmap(self.led)(s, p, jax.vmap(self.drawn_leader)(s, u))
        restock = jax.vmap(lambda s, p, _: self.restocked(s, p))
        s = self.some(s, p, p.shuffle == PILE, max(64, size // 64), restock, k1)
        s = self.some(s, p, p.deal, max(64, size // 8), jax.vmap(self.to_deal), k2)
        return jax.vmap(self.finish)(s, p, jax.random.uniform(k3, (size,)))

    def some(
        self, s: State, p: Pending, need: jax.Array, chunk: int, update: Any, key: jax.Array
    ) -> State:
        """The stocks after ``update(games, pendings, u)`` (batched) of the games in
        ``need``, ``chunk`` of them at a time (``u``: a uniform number per card dealt)."""
        size = need.shape[0]
        width = self.n * self.hand_size

        def chunked(
            carry: tuple[State, jax.Array, jax.Array],
        ) -> tuple[State, jax.Array, jax.Array]:
            s, need, key = carry
            key, drawn = jax.random.split(key)
            (rows,) = jnp.nonzero(need, size=chunk, fill_value=size)  # size: none
            games, pend = jax.tree.map(lambda a: a[rows], (s, p))  # the rows past: dropped
            done = update(games, pend, jax.random.uniform(drawn, (chunk, width)))
            s = s._replace(
                stock=s.stock.at[rows].set(done.stock, mode="drop"),
                stock_len=s.stock_len.at[rows].set(done.stock_len, mode="drop"),
            )
            return s, need.at[rows].set(False, mode="drop"), key

        return jax.lax.while_loop(lambda c: c[1].any(), chunked, (s, need, key))[0]

    def _init_batch(self, key: jax.Array, first: jax.Array) -> State:
        return jax.vmap(self.init)(jax.random.split(key, first.shape[0]), first)

    def begin_batch(self, first: jax.Array) -> tuple[State, Pending]:
        """New games (before their shuffle) in a batch, ``first`` leading each."""
        blank = jax.tree.map(lambda a: jnp.broadcast_to(a, (first.shape[0], *a.shape)), self.blank)
        return jax.vmap(self.new_game)(blank, first)


@jax.jit
def split(key: jax.Array) -> tuple[jax.Array, jax.Array]:
    """Two keys from ``key``."""
    first, second = jax.random.split(key)
    return first, second


@cache
def engine(rules: Rules, players: int) -> Engine:
    """The engine of a rule set and table size, made (and compiled, for each batch size)
    once."""
    return Engine(rules, players)


class JaxBatch:
    """``batch`` games of ``rules`` for ``players`` players on the JAX engine, with the
    API of :class:`~ninetynine.rl.batch.Batch` (every slot always at a decision; a game
    that ends starts again in its slot). :meth:`legal`, :meth:`random_actions` and
    :meth:`step` take and give JAX arrays (they stay on the device); the state's fields
    (:class:`State`'s, as ``Batch`` names them: ``total``, ``turn``, ``hands``, ``over``...)
    read as NumPy arrays. Chance is drawn from ``seed``, or the orders come from a
    ``shuffler`` (as ``Batch``'s: on the host, slow, for tests), and with it the leaders
    drawn for new hands from a ``leader`` (``Batch``'s too); ``first`` gives each game's
    first leader. Compiling takes seconds, once per rule set, table size and batch
    size in a process."""

    def __init__(
        self,
        rules: str | Rules,
        players: int,
        batch: int,
        *,
        seed: int | None = None,
        shuffler: Shuffler | None = None,
        leader: Leader | None = None,
        first: np.ndarray | None = None,
    ) -> None:
        self.rules = rules_for(rules, players)
        self.engine = e = engine(self.rules, players)
        self.n, self.size, self.hand_size = players, batch, e.hand_size
        self.actions, self.down, self.limit = e.actions, e.down, e.limit
        self.points_game = e.points_game  # (``points``, ``scores``... have width 0 else)
        self.shuffler, self.leader = shuffler, leader
        self.decisions = 0
        seed = int(np.random.SeedSequence(seed).generate_state(1)[0]) if seed is None else seed
        self.key, k1, k2 = jax.random.split(jax.random.key(seed), 3)
        starts = jax.random.randint(k1, (batch,), 0, players) if first is None else first
        starts = jnp.asarray(starts, I32)
        if shuffler is None:
            self.state = e.init_batch(k2, starts)
        else:
            self.state = self._chance(*e.begin_batch(starts))
        self._numpy: dict[str, np.ndarray] = {}

    def _next_key(self) -> jax.Array:
        keys: tuple[jax.Array, jax.Array] = split(self.key)  # compiled: an eager split
        self.key = keys[0]  # costs as much as a step of a thousand games
        return keys[1]

    def legal(self) -> jax.Array:
        """The legal actions of each game's seat to act, a bit per action (int32)."""
        return self.engine.legal_batch(self.state)

    def random_actions(self, legal: jax.Array) -> jax.Array:
        """One legal action per game, uniformly at random."""
        return self.engine.random_batch(jnp.asarray(legal, I32), self._next_key())

    def step(self, actions: Any) -> None:
        """Play one (legal) action in every game."""
        actions = jnp.asarray(actions, I32)
        e = self.engine
        if self.shuffler is None:
            self.state = e.step_batch(self.state, actions, self._next_key())
        else:
            first = jax.random.randint(self._next_key(), (self.size,), 0, self.n)
            self.state = self._chance(*e.play_batch(self.state, actions, first))
        self.decisions += self.size
        self._numpy = {}

    def _chance(self, s: State, p: Pending) -> State:
        """The shuffles ``p`` asks for from the shuffler (on the host), then the deals and
        draws."""
        assert self.shuffler is not None
        e = self.engine
        if e.random_lead:  # the leaders from the leader (on the host) or drawn
            if self.leader is None:
                drawn = e.leaders_batch(s, jax.random.uniform(self._next_key(), (self.size,)))
            else:
                slots = np.flatnonzero(np.asarray(p.lead))
                leaders = np.zeros(self.size, np.int32)
                if len(slots):
                    alive = np.asarray(s.alive)[slots].astype(np.int64)
                    leaders[slots] = self.leader(slots, alive)
                drawn = jnp.asarray(leaders)
            s = e.led_batch(s, p, drawn)
        kind = np.asarray(p.shuffle)
        slots = np.flatnonzero(kind)
        if len(slots):
            cards, counts = (np.asarray(a) for a in e.cards_batch(s, p.shuffle))
            orders = np.full(cards.shape, EMPTY, np.int32)
            orders[slots] = self.shuffler(slots, cards[slots], counts[slots])
            s = e.stocked_batch(s, p.shuffle, jnp.asarray(orders), jnp.asarray(counts))
        return e.finish_batch(s, p, jnp.ones(self.size))  # the top card: the shuffler's order

    def codes(self, actions: Any) -> np.ndarray:
        """The engine's action codes (``card * 4 + choice``, or ``DOWN``) of each game's
        action."""
        actions = np.asarray(actions).astype(np.int64)
        slot = np.minimum(actions >> 1, self.hand_size - 1)
        rows = np.arange(self.size)
        card = self.hands[rows, self.turn.astype(np.intp), slot].astype(np.int64)
        return np.where(actions == self.down, DOWN, card * 4 + (actions & 1))

    def action(self, slot: int, code: int) -> int:
        """The action that plays the engine's ``code`` from hand ``slot``."""
        return 2 * slot + choice_of(code)

    def __getattr__(self, name: str) -> np.ndarray:
        """A field of the state as a NumPy array (read once a step)."""
        if name not in State._fields:
            raise AttributeError(name)
        if name not in self._numpy:
            self._numpy[name] = np.asarray(getattr(self.state, name))
        return self._numpy[name]

    @property
    def bytes_per_game(self) -> float:
        """The memory a game's state takes."""
        return float(sum(a.nbytes for a in jax.tree.leaves(self.state))) / self.size
