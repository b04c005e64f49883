"""Per-rules lookup tables for the engine's hot path.

Legal moves and resulting totals depend only on the rules, the card and the total, so
they are computed once per rules value and looked up afterwards.

A play's action code is ``card * 4 + choice`` (choice indexes the card's values). A play
that carries a number (the seat a card names, or the total a ``set-any`` card sets) is
``PARAM + card * 1024 + number``, above the special codes (``DOWN``...). A card played to
answer a challenge is ``ANSWER + card``, above those.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import cache, wraps
from typing import TypeVar

from ninetynine.engine.actions import Action
from ninetynine.rules.cards import CODES, rank_of
from ninetynine.rules.effects import Effect, Kind, resolve
from ninetynine.rules.settings import (
    AfterBust,
    BelowZero,
    ChoiceFilter,
    DeckCount,
    Direction,
    Draw,
    EliminatedHand,
    Elimination,
    EmptyHand,
    ForcedCard,
    GameEnd,
    InstantCheck,
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
    Starter,
    StartTotal,
    StockEmpty,
    Stuck,
    Teams,
    Thresholds,
    TwoPlayerReverse,
    table_refusal,
)

PARAM = 1 << 16
ANSWER = PARAM + (64 << 10)  # + card: a card that answers a challenge (above a joker's)
# The totals after plays are cached under total * AFTER_KEY + code: above every code, with
# low bits set so that the low bits of a key (which pick its dict slot) mix in the total.
AFTER_KEY = (1 << 17) + (1 << 8) + 1


def play_code(card: int, choice: int) -> int:
    """The action code of playing ``card`` for its value number ``choice``."""
    return card << 2 | choice


def param_code(card: int, number: int) -> int:
    """The action code of playing ``card`` with a number: the seat it names, or the
    total it sets."""
    return PARAM + (card << 10) + number


def answer_code(card: int) -> int:
    """The action code of answering a challenge with ``card``."""
    return ANSWER + card


def number_of(code: int) -> int:
    """The seat or total a play's code at or above ``PARAM`` carries."""
    return code & 1023


def card_of(code: int) -> int:
    """The card of a play's action code (an answer's too)."""
    if code < PARAM:  # (one comparison for the plain plays)
        return code >> 2
    return (code - PARAM) >> 10 if code < ANSWER else code - ANSWER


def choice_of(code: int) -> int:
    """Which of its card's values a play's action code (below ``PARAM``) chooses."""
    return code & 3


Row = tuple[tuple[int, ...], ...]  # per card, the codes of its plays at one total
# a play as State._quick_run reads it: its code, and its entry of ``RuleTables.quick`` or
# ``chain_quick`` (the total after, the turn step, the card), or NOT_QUICK's where it has none
Play = tuple[int, int | None, int, int]
# (no total after: the play is not a quick one; None, as a total may be below 0)
NOT_QUICK = (None, 0, 0)
PlayRow = tuple[tuple[Play, ...], ...]  # per card, its plays at one total


class RuleTables:
    """Per-rules lookup tables for the hot path."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.effects: tuple[Effect, ...] = tuple(rules.effect_of(c) for c in range(CODES))
        self.limit = rules.limit
        self.moves: dict[tuple[int, int], tuple[tuple[int, int, bool], ...]] = {}
        self.ban_cards = rules.opening_ban_cards()  # the limit-setting cards' opening ban
        self.opening_ban = rules.king_ban_turns if self.ban_cards else 0
        # what a play may score (Penalties._score_play): borders crossed, online milestones, 69
        self.borders = rules.thresholds is Thresholds.BORDERS
        self.online = rules.thresholds is Thresholds.ONLINE
        self.sixty_nine = rules.rule_69 is not Rule69.NONE
        self.scoring_on_play = self.borders or self.online or self.sixty_nine
        self.instant_on_draw = (
            rules.instant_hands and rules.instant_check is InstantCheck.DEAL_AND_DRAW
        )
        self.eager = rules.restock is Restock.EAGER and rules.stock_empty is not StockEmpty.NO_DRAW
        self.may_bust = rules.may_bust
        self.explicit_draw = rules.draw is Draw.EXPLICIT
        self.draw_later = rules.two_player_reverse is TwoPlayerReverse.PLAY_AGAIN_DRAW_LATER
        # the turn a two-player reverse gives may be declined (State.may_decline)
        self.optional_again = rules.two_player_reverse is TwoPlayerReverse.PLAY_AGAIN_OPTIONAL
        # a draw is just taking the top card: the hot path of simulations
        self.plain_draw = not (
            self.explicit_draw or self.draw_later or self.eager or self.instant_on_draw
        )
        # cards whose play names a seat (their codes get a seat each): who plays next, or
        # whom a challenge card challenges; and no-draw cards
        self.naming = frozenset(c for c in range(CODES) if self.effects[c].names_seat)
        self.challenging = frozenset(c for c in range(CODES) if self.effects[c].challenge)
        # the cards that answer a challenge: a challenge card (the challenger is out) or a
        # rank that cancels it
        cancel = set(rules.challenge_cancel)
        self.answers = (
            self.challenging | frozenset(c for c in range(CODES) if rank_of(c) in cancel)
            if self.challenging
            else frozenset()
        )
        # cards whose play moves cards between hands, or between a hand and the stock: a
        # swap, a take, a strip or a revival (CN99, O46-O49)
        self.moving = frozenset(c for c in range(CODES) if self.effects[c].moves_cards)
        # naming cards that only say who plays next (TW's Five): State._quick_run names the
        # seats itself
        self.plain_naming = bool(self.naming) and not self.naming & (self.moving | self.challenging)
        self.chain_cards = frozenset(c for c in range(CODES) if self.effects[c].no_draw)
        # whether a no-draw chain or a challenge may be pending (the rows then wait for it)
        self.may_pend = bool(self.chain_cards or self.challenging)
        # the legal plays and turns need more than the tables (State._extra_codes): seats
        # to name, chains, and set-any codes out of the card order
        self.extras = bool(self.naming or self.chain_cards) or any(
            e.kind is Kind.SET_ANY for e in self.effects
        )
        self.unusual = self.extras or self.may_bust  # legal plays beyond the safe ones
        # the plays of the row of a total (``row``: the safe ones, and the busting ones
        # where a player may bust), when there are any, are the legal ones (State.legal_codes
        # names the seats and, with two decks, drops a second copy's); not under an opening
        # ban, nor where a pass may decline an offered turn
        self.rows_suffice = not (self.opening_ban or self.optional_again)
        # ... and with none, whatever the hand holds, the player lays down
        self.down_if_none_safe = (
            rules.no_legal_play is NoLegalPlay.LAY_DOWN and rules.stuck is Stuck.BUST
        )
        # ... and where no play of the row is legal, laying down is the one legal move,
        # whatever else the hand holds (nothing is played over the limit by choice)
        self.down_alone = self.down_if_none_safe and not rules.may_bust
        # ... or playing any card over the limit is (play_and_bust, the J family): the
        # hand's busting plays are the legal moves, but where plays are unusual
        self.bust_alone = (
            rules.no_legal_play is NoLegalPlay.PLAY_AND_BUST
            and rules.forced_card is ForcedCard.CHOOSE
            and rules.stuck is Stuck.BUST
            and not self.unusual
        )
        # cards after which their player draws nothing (CN99's 7 and J, O42), and whether a
        # play that empties a hand puts its player out at once (O47): both off the fast lane
        self.no_draw_cards = frozenset(c for c in range(CODES) if rank_of(c) in rules.no_draw_after)
        self.empty_out = rules.empty_hand is EmptyHand.OUT
        # card -> how its play passes the turn on (a step: NEXT, REVERSE...) where, short of
        # a bust or a score, the play does no more than that and draw a card: the fast lane
        # of State.apply_code (see ``quick``)
        plain = self.plain_draw and not self.empty_out
        # with two seats in the hand, a reverse gives no extra turn
        self.reverse_holds = rules.two_player_reverse is TwoPlayerReverse.HOLD
        plain_reverse = rules.reverse_with_two_players and self.reverse_holds
        self.skip_with_two = rules.skip_with_two_players
        self.turn_steps = {
            c: step
            for c, e in enumerate(self.effects)
            if plain
            and c not in self.no_draw_cards
            and (step := turn_step(e, plain_reverse)) is not None
        }
        # ... and the chain cards' (the Icelandic Queen) where, but for the chain, they would
        # be such plays: State._quick_run keeps the chain (``chain_quick``)
        self.chain_steps = {
            c: step
            for c in self.chain_cards
            if plain
            and c not in self.no_draw_cards
            and (step := turn_step(replace(self.effects[c], no_draw=False), plain_reverse))
            is not None
        }
        # the rules' choices that each bust, payment and new hand reads, as plain values: a
        # member read off an Enum class costs a metaclass hook each read (Python 3.11)
        after = rules.after_bust
        self.game_points = rules.scoring is Scoring.GAME_POINTS
        self.bust_ends_hand = after is AfterBust.END_HAND
        self.bust_resets_all = after is AfterBust.RESET_ALL
        self.bust_resets_others = after is AfterBust.RESET_OTHERS
        self.bust_reverts = after is AfterBust.REVERT
        self.out_unpaid = rules.elimination is Elimination.CANNOT_PAY
        self.out_at_zero = rules.elimination is Elimination.AT_ZERO
        self.pot = rules.pot is not Pot.NONE
        self.solo = rules.teams is Teams.NONE  # each seat its own pool of lives and side
        self.first_out_ends = rules.game_end is GameEnd.FIRST_OUT
        self.hand_under_pile = rules.eliminated_hand is EliminatedHand.UNDER_PILE
        self.hand_face_up = rules.eliminated_hand is EliminatedHand.FACE_UP
        self.random_lead = rules.starter is Starter.RANDOM
        self.left_of_dealer = rules.starter is Starter.LEFT_OF_DEALER
        self.left_of_loser = rules.starter is Starter.LEFT_OF_LOSER
        self.direction_resets = rules.direction is Direction.RESET
        self.ban_by_hand = rules.king_ban_scope is Scope.HAND
        self.decks_each_hand = rules.deck_count is DeckCount.EACH_HAND
        self.full_reshuffle = rules.new_round_deal is NewRoundDeal.FULL_RESHUFFLE
        self.upcard = rules.start_total is StartTotal.UPCARD
        # a bust that a random playout finishes at once, with the next hand, where its
        # player keeps a life (State._quick_end): it ends the hand, the player alone pays,
        # and the next hand is led in turn with the same decks; a play over the limit too
        # where it scores nothing else (Penalties._score_play: no milestone paid by a bust,
        # as QC pays none; borders need game points, which quick_end leaves out; 69 is not
        # looked at)
        self.quick_end = (
            self.bust_ends_hand
            and self.solo
            and not (self.game_points or self.random_lead or self.upcard)
            and not (self.decks_each_hand or rules.instant_hands)
        )
        self.quick_over = self.quick_end and not (self.online and rules.milestones_on_bust)
        # a lay-down that sits its player out of the hand (a reverting rule reverts no
        # card for it), alone: State._quick_sit_out, where the others play on
        self.quick_sit_out = (
            after in (AfterBust.SIT_OUT, AfterBust.REVERT)
            and self.solo
            and not (self.game_points or self.first_out_ends)
        )
        # cards whose action carries a number: a seat to name or a total to set
        self.param_cards = frozenset(c for c in range(CODES) if self.effects[c].has_param)
        # per card, the lowest card with the same rank and effect: cards a player cannot
        # tell apart in play (bots merge their moves)
        self.same = tuple(
            next(d for d in range(c & ~3, c + 1) if self.effects[d] == self.effects[c])
            for c in range(CODES)
        )
        # (total * 64 + card) -> (safe codes, busting codes);
        # (total * AFTER_KEY + code) -> the total after the play
        self.card_moves: dict[int, tuple[tuple[int, ...], tuple[int, ...]]] = {}
        # total -> the codes of each card's plays at that total, by card (the hot path's row)
        self.rows: dict[int, Row] = {}
        self.play_rows: dict[int, PlayRow] = {}  # ... as plays (``play_row``)
        # (total * 64 + card) -> a naming card's play naming each seat, by seat
        self.named_plays: dict[int, tuple[Play, ...]] = {}
        self.after: dict[int, int] = {}
        # (total * AFTER_KEY + code) -> (the total after, its card's turn step, the card)
        # for the plays of ``turn_steps`` that neither bust nor score (thresholds, borders,
        # 69): the plays State.apply_code finishes at once; filled beside ``after``, for a
        # row's every play when the row is built
        self.quick: dict[int, tuple[int, int, int]] = {}
        self.chain_quick: dict[int, tuple[int, int, int]] = {}  # ... of ``chain_steps``
        # ... and of ``turn_steps`` that pay online milestones (33, 66: made exactly, the
        # others pay; crossed, the player does) but neither end the round nor score
        # otherwise, with what each other seat pays (made exactly) and what the player pays
        # (crossed): a one-call playout pays them in its loop where nobody goes out by it
        # (State._quick_pay), without teams
        self.paying: dict[int, tuple[tuple[int, int, int], int, int]] = {}
        self.pays_quick = self.online and not (self.borders or self.sixty_nine) and self.solo
        self.actions: dict[int, Action] = {}  # code -> its action (see State.action_of)
        # players -> what a new game at that table starts with (see ``start``)
        self.starts: dict[int, tuple[str | None, int, int, int]] = {}

    def start(self, players: int) -> tuple[str | None, int, int, int]:
        """What a game of ``players`` starts with: why the rules refuse the table (or
        None), the decks, each pool's lives and the pools (read once a table size: a random
        playout of a short game starts many)."""
        found = self.starts.get(players)
        if found is None:
            rules = self.rules
            found = self.starts[players] = (
                table_refusal(rules, players),
                rules.decks_for(players),
                rules.lives_for(players),
                rules.teams.pools(players),
            )
        return found

    def moves_of(self, card: int, total: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The safe and the busting action codes of one card at a total (a naming card's
        plain code, which :meth:`State.legal_codes` gives a seat)."""
        key = total * 64 + card
        found = self.card_moves.get(key)
        if found is None:
            opts = self.options(card, total)
            base = (
                param_code(card, 0)
                if self.effects[card].kind is Kind.SET_ANY
                else play_code(card, 0)
            )
            found = self.card_moves[key] = (
                tuple(base + ch for ch, _, busts in opts if not busts),
                tuple(base + ch for ch, _, busts in opts if busts),
            )
        return found

    def row(self, total: int) -> Row:
        """The codes of every card's plays at ``total``, indexed by card: the safe ones, and
        where a player may bust, the busting ones too."""
        found = self.rows.get(total)
        if found is None:
            moves = [self.moves_of(card, total) for card in range(CODES)]
            found = tuple(safe + busting if self.may_bust else safe for safe, busting in moves)
            self._fill_after(total, found)
            self.rows[total] = found
        return found

    def play_row(self, total: int) -> PlayRow:
        """:meth:`row` with each code's entry of ``quick`` beside it (:data:`Play`): a random
        playout reads a play whole, where looking its entry up would cost each decision."""
        found = self.play_rows.get(total)
        if found is None:
            found = self.play_rows[total] = tuple(
                self.plays(codes, total) for codes in self.row(total)
            )
        return found

    def naming_plays(self, card: int, total: int) -> tuple[Play, ...]:
        """The plays of a card that names who plays next at ``total``, one naming each seat
        (by seat number)."""
        key = total * 64 + card
        found = self.named_plays.get(key)
        if found is None:
            base = param_code(card, 0)
            seats = range(self.rules.players_max)
            found = self.named_plays[key] = self.plays([base + s for s in seats], total)
        return found

    def plays(self, codes: Sequence[int], total: int) -> tuple[Play, ...]:
        """The :data:`Play` of each of ``codes`` at ``total`` (a chain card's from
        ``chain_quick``: State._quick_chain_run's, the one loop of rules with such cards)."""
        quick, chain, base = self.quick, self.chain_quick, total * AFTER_KEY
        return tuple(
            (code, *(quick.get(base + code) or chain.get(base + code) or NOT_QUICK))
            for code in codes
        )

    def _fill_after(self, total: int, row: Row) -> None:
        """The totals after (and the quick entries of) every play of a row, and of each
        seat a naming card's play may name: a random game meets most of them, and a miss
        costs a play the slow lane."""
        seats = range(self.rules.players_max)
        for card, codes in enumerate(row):
            for code in codes:
                if card in self.naming:
                    for seat in seats:
                        self.result(param_code(card, seat), total)
                else:
                    self.result(code, total)

    def result(self, code: int, total: int) -> int:
        """The total after playing action ``code`` at ``total`` (floor policy applied)."""
        key = total * AFTER_KEY + code
        found = self.after.get(key)
        if found is None:
            if code >= ANSWER:  # an answer to a challenge counts nothing
                found = total
            elif code < PARAM:
                found = self.new_total(card_of(code), choice_of(code), total)
            else:  # a seat named (a card with one value), or the total set
                card = card_of(code)
                found = (
                    number_of(code)
                    if self.effects[card].kind is Kind.SET_ANY
                    else self.new_total(card, 0, total)
                )
            self.after[key] = found
            card = card_of(code)
            step = self.turn_steps.get(card) if code < ANSWER else None
            if step is not None and found <= self.limit:
                if self.quiet(total, found):
                    self.quick[key] = (found, step, card)
                # (the limit ends the round; a seat named may be out after the payments)
                elif self.pays_quick and found != self.limit and step != NAMED:
                    met = milestones(self.rules, total, found)
                    others = sum(amount for _, made, amount in met if made)
                    mine = sum(amount for _, made, amount in met if not made)
                    self.paying[key] = ((found, step, card), others, mine)
            step = self.chain_steps.get(card) if code < ANSWER else None
            if step is not None and found <= self.limit and self.quiet(total, found):
                self.chain_quick[key] = (found, step, card)
        return found

    def quiet(self, old: int, new: int) -> bool:
        """Whether a play from ``old`` to ``new`` (not over the limit) scores nothing:
        crosses no border, meets no milestone, makes no 69 (Penalties._score_play)."""
        rules = self.rules
        if self.borders and crossed_borders(rules, old, new):
            return False
        if self.online and milestones(rules, old, new):
            return False
        return not (self.sixty_nine and makes_69(rules, old, new))

    def new_total(self, card: int, choice: int, total: int) -> int:
        """The total after a card's choice, clamped at 0 where the rules clamp."""
        new = resolve(self.effects[card], total, choice, self.limit, self.rules.halve_over)
        if new < 0 and new < total and self.rules.below_zero is BelowZero.CLAMP:
            return 0
        return new

    def options(self, card: int, total: int) -> tuple[tuple[int, int, bool], ...]:
        """(choice, new total, busts) for each allowed choice of a card at a total; a
        ``set-any`` card's choice is the total it sets. Cards that do the same share an
        entry (a small cache keeps the hot path's memory close together)."""
        key = (self.same[card], total)
        found = self.moves.get(key)
        if found is None:
            eff = self.effects[card]
            if eff.kind is Kind.SET_ANY:
                found = self.moves[key] = tuple((t, t, False) for t in range(self.limit + 1))
                return found
            out = []
            for choice in range(len(eff.values) if eff.kind is Kind.ADD else 1):
                new = self.new_total(card, choice, total)
                if new < 0 and new < total and self.rules.below_zero is BelowZero.ILLEGAL:
                    continue
                out.append((choice, new, new > self.limit))
            if self.rules.choice_filter is ChoiceFilter.DROP_BUSTING and len(out) > 1:
                # the choices over the limit are not offered; if all are, the least one is
                safe = [o for o in out if not o[2]]
                out = safe or [min(out, key=lambda o: o[1])]
            found = self.moves[key] = tuple(out)
        return found


# How a quick play passes the turn on (RuleTables.turn_steps): to the next seat; to the
# seat it names; reversing the direction first; the same where more than two seats are in
# the hand (with two, the rules may hold the direction or give another turn: the slow
# lane); skipping a seat (with two, where the rules skip, the player plays again)
NEXT, NAMED, REVERSE, REVERSE_PAST_TWO, SKIP = 1, 0, -1, -2, 2


def turn_step(effect: Effect, plain_reverse: bool) -> int | None:
    """How a play of a card with ``effect`` passes the turn on where it does nothing else
    (no chain, challenge or cards moved; None where it may do more); ``plain_reverse``: a
    reverse always flips the direction and gives no extra turn."""
    if effect.no_draw or effect.challenge or effect.moves_cards:
        return None
    if effect.name + effect.reverse + effect.skip > 1:  # (no preset's card does two)
        return None
    if effect.name:
        return NAMED
    if effect.reverse:
        return REVERSE if plain_reverse else REVERSE_PAST_TWO
    return SKIP if effect.skip else NEXT


def crossed_borders(rules: Rules, old: int, new: int) -> list[int]:
    """The borders a play from ``old`` to ``new`` crosses, each a game point lost."""
    if new < old and not rules.border_cross_backward_costs:
        return []
    low, high = min(old, new), max(old, new)
    return [border for border in rules.border_values if low <= border < high]


def milestones(rules: Rules, old: int, new: int) -> list[tuple[int, bool, int]]:
    """The online milestones a play from ``old`` to ``new`` meets, in paying order:
    (milestone, made exactly (the others pay) or crossed (the player pays), amount)."""
    found = [(new, True, 2)] if new == rules.limit and old < new else []
    leave = rules.online_cross is OnlineCross.LEAVE
    for t in rules.threshold_values:
        if new == t and old < t:
            found.append((t, True, 1))
        elif old < t < new or (leave and old == t < new):
            found.append((t, False, 1))
    return found


def makes_69(rules: Rules, old: int, new: int) -> bool:
    """Whether a play from ``old`` to ``new`` makes the rules' 69 total."""
    target = rules.rule_69_total
    return (
        new == target and old != target and (rules.rule_69_from is Rule69From.ANY or old < target)
    )


T = TypeVar("T")


def by_rules_object(build: Callable[[Rules], T]) -> Callable[[Rules], T]:
    """``build`` made once per rules object and found by the object itself, not by
    hashing its hundred fields (half of ``new_game``'s time, if hashed each call). Each
    entry holds its rules, so an id is not reused while it is kept; the store is bounded."""
    made: dict[int, tuple[Rules, T]] = {}

    @wraps(build)
    def lookup(rules: Rules) -> T:
        found = made.get(id(rules))
        if found is not None and found[0] is rules:
            return found[1]
        if len(made) >= _BY_OBJECT_MAX:
            made.clear()
        value = build(rules)
        made[id(rules)] = (rules, value)
        return value

    return lookup


_BY_OBJECT_MAX = 256


@cache
def _compiled(rules: Rules) -> RuleTables:
    return RuleTables(rules)


@by_rules_object
def compiled(rules: Rules) -> RuleTables:
    """The lookup tables of a rules value, built once and cached for the process (equal
    rules share them)."""
    return _compiled(rules)
