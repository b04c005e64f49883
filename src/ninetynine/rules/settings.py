"""The rules of one game of Ninety-Nine, as a frozen, validated value.

Every dimension in which the rulebooks differ is a field here (see ``docs/rules.md``).
Presets and house-rules files are mappings of these fields, checked by
:func:`rules_from_mapping`; a bad key or value fails with one line naming it and
what is accepted.
"""

from __future__ import annotations

import dataclasses
import difflib
import json
import types
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, NamedTuple, Union, get_args, get_origin, get_type_hints

from ninetynine.errors import RulesError
from ninetynine.launch import command
from ninetynine.rules.cards import (
    ALL_RANKS,
    CODES,
    KING,
    RANKS,
    SIX,
    format_card,
    parse_card,
    parse_rank,
    rank_of,
)
from ninetynine.rules.effects import Effect, Kind, format_effect, parse_effect


class Elimination(StrEnum):
    """When a player is out of the game (``Rules.elimination``)."""

    AT_ZERO = "at_zero"  # out when the last life is lost
    CANNOT_PAY = "cannot_pay"  # may sit at 0; out when a payment can't be made (honour)
    NEVER = "never"  # nobody is eliminated (game points)


class Pot(StrEnum):
    """Where lost lives go (``Rules.pot``, D06)."""

    NONE = "none"  # lives are only a count
    CENTRE = "centre"  # lost lives go to the centre
    WINNER_TAKES_ALL = "winner_takes_all"  # ... and the winner collects them


class CounterName(StrEnum):
    """What the table calls a player's lives (D04, D06): what its rulebook says they hold."""

    LIFE = "life"
    PENNY = "penny"
    NICKEL = "nickel"
    COIN = "coin"
    CHIP = "chip"
    TOKEN = "token"
    CORNER = "corner"  # of a dollar bill, folded over at each loss (P-DOLLAR)

    @property
    def plural(self) -> str:
        """The counter's plural as texts write it: ``'lives'``, ``'pennies'``, ``'chips'``."""
        return {"life": "lives", "penny": "pennies"}.get(self.value, self.value + "s")


class Scoring(StrEnum):
    """What players play for (``Rules.scoring``): to keep their lives, or game points."""

    LIVES = "lives"  # last survivor wins
    GAME_POINTS = "game_points"  # points each hand, cumulative, first to the target


class Starter(StrEnum):
    """Who leads each new hand (``Rules.starter``)."""

    LEFT_OF_DEALER = "left_of_dealer"
    LEFT_OF_LOSER = "left_of_loser"
    LOSER = "loser"  # the loser leads; if out, the next seat still in (BGA)
    RANDOM = "random"  # chance picks the leader of every new hand (PlayAural)


class GameEnd(StrEnum):
    """When a game scored in lives ends (``Rules.game_end``)."""

    LAST_SURVIVOR = "last_survivor"
    FIRST_OUT = "first_out"  # the first elimination ends the game; the most lives win


class ChoiceFilter(StrEnum):
    """Which of a card's values are offered (``Rules.choice_filter``)."""

    NONE = "none"
    DROP_BUSTING = "drop_busting"  # a card's choices over the limit are not offered


class EliminatedHand(StrEnum):
    """Where the cards of a player put out mid-hand go (``Rules.eliminated_hand``)."""

    KEEP = "keep"  # out of play until the next deal
    UNDER_PILE = "under_pile"  # face down under the discards: back at the next reshuffle
    FACE_UP = "face_up"  # face up onto the discards, for every seat to see (CN99, O44)


class EmptyHand(StrEnum):
    """What a player left with no card does (``Rules.empty_hand``)."""

    STUCK = "stuck"  # plays on, and at its turn has no legal play (``Rules.stuck``)
    OUT = "out"  # is out of the game at once, after the play that emptied it (CN99, O47)


class StartTotal(StrEnum):
    """What a hand's total starts at (``Rules.start_total``)."""

    ZERO = "zero"
    UPCARD = "upcard"  # the first ordinary card turned up from the stock


class BelowZero(StrEnum):
    """What a play that takes the total below 0 does (``Rules.below_zero``): it is allowed,
    the total stops at 0, or the play is illegal."""

    ALLOW = "allow"
    CLAMP = "clamp"
    ILLEGAL = "illegal"


class TwoPlayerReverse(StrEnum):
    """What a reverse card does with two players in the hand (``Rules.two_player_reverse``)."""

    HOLD = "hold"  # the other player is next, as after a hold card
    PLAY_AGAIN = "play_again"  # the same player draws and plays again
    PLAY_AGAIN_DRAW_LATER = "play_again_draw_later"  # plays again, draws at the end
    # draws, and may play again or decline (pass: the other player is next, same total)
    PLAY_AGAIN_OPTIONAL = "play_again_optional"


class NoLegalPlay(StrEnum):
    """What a player with no safe card does (``Rules.no_legal_play``)."""

    LAY_DOWN = "lay_down"  # play no card and lose
    PLAY_AND_BUST = "play_and_bust"  # play any card and lose


class Stuck(StrEnum):
    """What happens to a player with no legal play for another reason: the floor of 0, or an
    empty hand (``Rules.stuck``)."""

    BUST = "bust"  # no legal play for any reason costs a life
    PASS = "pass"  # blocked only by the floor or an empty hand: pass, no penalty


class ForcedCard(StrEnum):
    """Who picks the card of a forced losing play (``Rules.forced_card``)."""

    CHOOSE = "choose"
    AUTO = "auto"  # the lowest card is played for the player


class AfterBust(StrEnum):
    """What follows a bust (``Rules.after_bust``)."""

    END_HAND = "end_hand"  # redeal
    SIT_OUT = "sit_out"  # the buster is out of the hand; the same total continues
    RESET_ALL = "reset_all"  # the total goes to 0 and everyone continues
    RESET_OTHERS = "reset_others"  # the total goes to 0, the buster sits out the hand
    # the total goes back to its value before the busting card, the buster sits out the
    # hand and the next seat plays (KC, O61: "as not having played")
    REVERT = "revert"


class StockEmpty(StrEnum):
    """What happens when the stock runs out (``Rules.stock_empty``)."""

    RESHUFFLE_KEEP_TOP = "reshuffle_keep_top"
    RESHUFFLE_ALL = "reshuffle_all"  # every played card, total kept
    NO_DRAW = "no_draw"


class Restock(StrEnum):
    """When an empty stock is rebuilt (``Rules.restock``)."""

    LAZY = "lazy"  # when a draw meets an empty stock
    EAGER = "eager"  # as soon as the last card is drawn


class EmptyDraw(StrEnum):
    """What a draw does when the stock is empty and there is nothing to reshuffle
    (``Rules.empty_draw``)."""

    SKIP = "skip"  # nothing to reshuffle: play on a card short
    END_ROUND = "end_round"  # the round ends with no loser
    FULL_RESHUFFLE = "full_reshuffle"  # gather every card not in a hand


class NewRoundDeal(StrEnum):
    """Which cards a new hand is dealt from (``Rules.new_round_deal``)."""

    FULL_RESHUFFLE = "full_reshuffle"
    FROM_STOCK = "from_stock"  # old hands to the discards; deal from the stock if it can
    FROM_STOCK_KEEP_TOP = "from_stock_keep_top"  # ...else refill it from the discards


class Draw(StrEnum):
    """Whether drawing after a play is automatic or the player's own move (``Rules.draw``)."""

    AUTO = "auto"
    EXPLICIT = "explicit"  # the player draws (or forgets to) as an action


class Thresholds(StrEnum):
    """Payments at set totals such as 33 and 66 (``Rules.thresholds``)."""

    NONE = "none"
    ONLINE = "online"  # exact 33/66/limit rewards, crossing 33/66 costs
    BORDERS = "borders"  # a game point per border crossed


class OnlineCross(StrEnum):
    """Which plays cross a threshold under ``thresholds = 'online'`` (``Rules.online_cross``)."""

    STRICT = "strict"  # crossing T means old < T < new
    LEAVE = "leave"  # old <= T < new: leaving 33/66 upward also costs


class Rule69(StrEnum):
    """What making exactly ``Rules.rule_69_total`` does (``Rules.rule_69``)."""

    NONE = "none"
    RESET_TO_ZERO = "reset_to_zero"
    PENNY_FROM_POOL = "penny_from_pool"
    EXTRA_POINT = "extra_point"
    OTHERS_DRINK = "others_drink"


class Rule69From(StrEnum):
    """Whether the 69 rule counts from any total or only from below it (``Rules.rule_69_from``)."""

    ANY = "any"
    BELOW = "below"


class Scope(StrEnum):
    """What the opening ban's turns are counted over: the hand or the game
    (``Rules.king_ban_scope``)."""

    HAND = "hand"
    GAME = "game"


class InstantCheck(StrEnum):
    """When instant hands are checked: after the deal and every draw, or after the deal only
    (``Rules.instant_check``)."""

    DEAL_AND_DRAW = "deal_and_draw"
    DEAL = "deal"


class InstantOrder(StrEnum):
    """Which instant hand decides when several players hold one at once: the first in
    ``Rules.instant_hands``' list (its holders share), or the first holder in seat order
    (``Rules.instant_order``)."""

    SIXES_FIRST = "sixes_first"
    SEAT_ORDER = "seat_order"


class SkipCounts(StrEnum):
    """Which seat a skip card passes over (``Rules.skip_counts``)."""

    REMAINING = "remaining"  # skip the next player still in after eliminations
    BEFORE_ELIMINATIONS = "before_eliminations"  # an eliminated seat absorbs the skip


class Direction(StrEnum):
    """Which way a new hand is played (``Rules.direction``)."""

    RESET = "reset"  # clockwise at the start of every hand
    CARRY = "carry"


class DeckCount(StrEnum):
    """When the number of decks is set: once at the start, or each hand from the players
    still in (``Rules.deck_count``)."""

    AT_START = "at_start"
    EACH_HAND = "each_hand"


class PointsTie(StrEnum):
    """What a tie for the lead at the game-points target does (``Rules.points_tie``): another
    hand, or a shared win."""

    PLAY_ON = "play_on"
    SHARED = "shared"


class Teams(StrEnum):
    """Who plays with whom (``Rules.teams``): each for themselves, or two sides of alternate
    seats (seats 1, 3, 5... against 2, 4, 6...; at four, partners sit opposite). The two
    team modes differ in the lives: one pool per side, or each player's own."""

    NONE = "none"
    POOLED = "pooled"  # two partnerships of opposite seats sharing one pool (J-TEAM)
    ALTERNATE = "alternate"  # each plays their own lives, out one at a time (CN99, O51)

    def side(self, seat: int) -> int:
        """The side a seat wins or loses with: its own, or its team (0: seats 1, 3...)."""
        return seat if self is Teams.NONE else seat % 2

    def pool(self, seat: int) -> int:
        """Whose lives a seat spends: its own, or (pooled) its team's."""
        return seat % 2 if self is Teams.POOLED else seat

    def pools(self, players: int) -> int:
        """How many pools of lives a table of ``players`` keeps."""
        return 2 if self is Teams.POOLED else players


_COUNT_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven")
_RANK_PLURALS = (
    "aces",
    "twos",
    "threes",
    "fours",
    "fives",
    "sixes",
    "sevens",
    "eights",
    "nines",
    "tens",
    "jacks",
    "queens",
    "kings",
)


@dataclass(frozen=True, slots=True)
class InstantRule:
    """A hand that decides the game as soon as a player holds it (D46): ``count`` cards
    of ``rank``; the holder wins, or (``wins`` false) everyone loses. Written ``"3x6 lose"``,
    ``"3xK win"``."""

    count: int
    rank: int
    wins: bool

    def __str__(self) -> str:
        return f"{self.count}x{RANKS[self.rank]} {'win' if self.wins else 'lose'}"

    @property
    def name(self) -> str:
        """``"three sixes"``, as the table says it."""
        count = _COUNT_WORDS[self.count] if self.count < len(_COUNT_WORDS) else str(self.count)
        return f"{count} {_RANK_PLURALS[self.rank]}"

    @classmethod
    def parse(cls, text: str) -> InstantRule:
        """The rule written as ``"3x6 lose"`` or ``"3xK win"``; any other text raises
        ValueError."""
        count, x, rest = text.strip().partition("x")
        rank, _, result = rest.strip().partition(" ")
        if not x or not count.isdigit() or result.strip() not in ("win", "lose"):
            raise ValueError(text)
        return cls(int(count), parse_rank(rank), result.strip() == "win")


# The rulebook's instant hands (S000): three sixes, everyone loses; three Kings win.
RULEBOOK_INSTANT = (InstantRule(3, SIX, False), InstantRule(3, KING, True))


def _default_cards() -> tuple[Effect, ...]:
    pips = [Effect(values=(v,)) for v in range(1, 10)]
    return (
        *pips,
        Effect(values=(10,)),
        Effect(values=(10,)),
        Effect(values=(10,)),
        Effect(values=(10,)),
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class Rules:
    """One rule set. Defaults are the project's plain reading; presets change them."""

    id: str = "custom"
    name: str = "Custom rules"
    description: str = ""
    source: str = ""
    # A. table and set-up
    players_min: int = 2
    players_max: int = 10
    decks: int = 1
    jokers: bool = False  # each pack holds a small and a big joker too: 54 cards (CN99)
    decks_by_players: tuple[tuple[int, int], ...] = ()  # (from this many players, decks)
    big_table_over: int = 0  # more players than this: big_table_decks and _lives (0 = off)
    big_table_decks: int = 2
    big_table_lives: int = 0  # 0 = same as lives
    deck_count: DeckCount = DeckCount.AT_START
    hand_size: int = 3
    lives: int = 3
    counter: CounterName = CounterName.LIFE  # what a life is called: P's pennies, J's tokens...
    elimination: Elimination = Elimination.AT_ZERO
    pot: Pot = Pot.NONE
    stake: int = 0  # what each player puts up for the winner (P-DOLLAR's dollar bill)
    starter: Starter = Starter.LEFT_OF_DEALER
    dealer: bool = True  # False: nobody deals or leads by the deal (G, D07): the opener of
    # a new hand is the next player still in after the last one's (with left_of_dealer)
    game_end: GameEnd = GameEnd.LAST_SURVIVOR
    direction: Direction = Direction.RESET
    start_total: StartTotal = StartTotal.ZERO
    upcard_special: tuple[int, ...] = (0, 3, 8, 9, 12)  # A 4 9 10 K
    limit: int = 99
    halve_over: int = 49  # halve-or-double halves an even total above this, else doubles
    # B. card effects
    cards: tuple[Effect, ...] = field(default_factory=_default_cards)
    joker_cards: tuple[Effect, Effect] = (Effect(), Effect())  # SJ, BJ (with ``jokers``)
    suit_cards: tuple[tuple[int, Effect], ...] = ()  # (card, effect) where a suit differs
    calls: tuple[str, ...] = ("{total}",) * 13
    bust_call: str = "{total} — bust"  # said on going over (Q05); e.g. "0" to call the reset
    below_zero: BelowZero = BelowZero.ALLOW
    two_player_reverse: TwoPlayerReverse = TwoPlayerReverse.HOLD
    reverse_with_two_players: bool = True  # False: a reverse card keeps the direction when
    # no more than two players are in the hand (P-ONLINE's Four "if there are more than 2")
    king_ban_turns: int = 0
    king_ban_scope: Scope = Scope.HAND
    king_ban_at_limit: bool = True  # the ban holds even when the total is already at the limit
    skip_counts: SkipCounts = SkipCounts.REMAINING
    skip_with_two_players: bool = True  # False: with two players in the hand a skip card
    # does not skip (the other player is next); True: the player plays again
    name_self: bool = False  # a card that names the next player may name its player
    challenge_cancel: tuple[int, ...] = (3,)  # ranks that cancel a challenge card's
    # challenge (KC's Four); a challenge card itself answers it by putting the challenger out
    choice_filter: ChoiceFilter = ChoiceFilter.NONE
    # C. legality, bust and hands
    may_bust: bool = False  # a card over the limit is legal even with a safe card in hand
    no_legal_play: NoLegalPlay = NoLegalPlay.LAY_DOWN
    stuck: Stuck = Stuck.BUST
    forced_card: ForcedCard = ForcedCard.CHOOSE
    bust_penalty: int = 1
    after_bust: AfterBust = AfterBust.END_HAND
    clear_pile_on_reset: bool = False
    draw_after_bust: bool = True
    eliminated_hand: EliminatedHand = EliminatedHand.KEEP
    empty_hand: EmptyHand = EmptyHand.STUCK
    no_draw_after: tuple[int, ...] = ()  # ranks whose player draws nothing after them (O42)
    # D. card flow
    stock_empty: StockEmpty = StockEmpty.RESHUFFLE_KEEP_TOP
    restock: Restock = Restock.LAZY
    empty_draw: EmptyDraw = EmptyDraw.SKIP
    new_round_deal: NewRoundDeal = NewRoundDeal.FULL_RESHUFFLE
    draw: Draw = Draw.AUTO
    # E. thresholds and special scoring
    thresholds: Thresholds = Thresholds.NONE
    threshold_values: tuple[int, ...] = (33, 66)
    online_cross: OnlineCross = OnlineCross.STRICT
    milestones_on_bust: bool = True  # False: a play over the limit pays only the bust
    border_values: tuple[int, ...] = (33, 66, 99)
    border_cross_backward_costs: bool = True  # False: only upward crossings cost (Wilson)
    rule_69: Rule69 = Rule69.NONE
    rule_69_from: Rule69From = Rule69From.ANY
    rule_69_total: int = 69  # the total that "69" means
    scoring: Scoring = Scoring.LIVES
    points_per_hand: int = 3
    points_target: int = 15
    points_floor_zero: bool = False
    points_tie: PointsTie = PointsTie.PLAY_ON
    instant_hands: tuple[InstantRule, ...] = ()  # in priority order (``true``: the rulebook's)
    instant_check: InstantCheck = InstantCheck.DEAL_AND_DRAW
    instant_order: InstantOrder = InstantOrder.SIXES_FIRST
    # F. teams
    teams: Teams = Teams.NONE
    team_lives: int = 0  # 0 = twice the lives

    def __post_init__(self) -> None:
        # a suit card that does what its rank does is no exception: drop it, so that
        # equal rules compare equal however they were written
        if not all(isinstance(e, tuple) and len(e) == 2 for e in self.suit_cards):
            raise RulesError(
                f"rules key 'suit_cards' = {self.suit_cards!r} is not allowed: "
                'expected a table card = effect, e.g. AS = "set 0"'
            )
        object.__setattr__(
            self,
            "suit_cards",
            tuple(
                sorted(
                    (card, eff)
                    for card, eff in dict(self.suit_cards).items()
                    if eff != self._rank_effect(card)
                )
            ),
        )
        _validate(self)

    # Derived values ---------------------------------------------------------------

    def effect_of(self, card: int) -> Effect:
        """What a card does: its suit's exception, or its rank's effect."""
        for c, eff in self.suit_cards:
            if c == card:
                return eff
        return self._rank_effect(card)

    def _rank_effect(self, card: int) -> Effect:
        rank = rank_of(card)
        return self.cards[rank] if rank < 13 else self.joker_cards[rank > 13]

    def effects(self) -> tuple[Effect, ...]:
        """Every distinct effect of these rules (ranks, jokers in play and suit exceptions)."""
        jokers = self.joker_cards if self.jokers else ()
        return tuple(dict.fromkeys(self.cards + jokers + tuple(e for _, e in self.suit_cards)))

    @property
    def pack(self) -> int:
        """The cards of one pack: 52, or 54 with the jokers."""
        return 54 if self.jokers else 52

    def decks_for(self, players: int) -> int:
        """How many packs (of 52, or 54 with jokers) a table of this many players uses."""
        if self.decks_by_players:
            return max((d for n, d in self.decks_by_players if players >= n), default=self.decks)
        big = self.big_table_over and players > self.big_table_over
        return self.big_table_decks if big else self.decks

    def lives_for(self, players: int) -> int:
        """Starting lives of each pool (a seat's, or a pooled team's)."""
        if self.teams is Teams.POOLED:
            return self.team_lives or 2 * self.lives
        big = self.big_table_over and players > self.big_table_over and self.big_table_lives
        return self.big_table_lives if big else self.lives

    def opening_ban_cards(self) -> frozenset[int]:
        """The cards a player may not play in their first ``king_ban_turns`` turns: those
        whose effect sets the total to the limit (the King, in P-UPCARD)."""
        if not self.king_ban_turns:
            return frozenset()
        return frozenset(
            card
            for card in range(CODES)
            if (eff := self.effect_of(card)).kind is Kind.SET and eff.to in (None, self.limit)
        )

    def replace(self, **changes: Any) -> Rules:
        """A copy with some fields changed, validated again; a setting with named values
        may be given as its text (``draw="explicit"``)."""
        for key, value in changes.items():
            hint = _HINTS.get(key)
            if isinstance(hint, type) and issubclass(hint, StrEnum) and not isinstance(value, hint):
                changes[key] = _convert(key, value)
        return dataclasses.replace(self, **changes)


# What each rules key means, for ``ninetynine rules --keys`` (docs/rules.md has the sources).
MEANINGS: dict[str, str] = {
    "players_min": "the fewest players the rule set is for",
    "players_max": "the most players the rule set is for",
    "decks": "packs shuffled together (52 cards, or 54 with jokers)",
    "jokers": "each pack holds a small and a big joker too (54 cards): set what they do "
    "with cards.SJ and cards.BJ",
    "decks_by_players": "decks by table size, overriding decks (Québec: 2 decks from 3 players)",
    "big_table_over": "above this many players, big_table_decks and big_table_lives apply (0: off)",
    "big_table_decks": "decks at a big table",
    "big_table_lives": "lives at a big table (0: the same as lives)",
    "deck_count": "decks fixed at the start of the game, or counted again each hand",
    "hand_size": "cards dealt to each player",
    "lives": "lives (pennies, tokens...) each player starts with",
    "counter": "what a life is called in every text",
    "elimination": "when a player is out: at 0 lives, when a payment cannot be made, or never",
    "pot": "where paid lives go: nowhere, a centre pot, or to the winner",
    "stake": "what each player puts up for the winner",
    "starter": "who leads each hand",
    "dealer": "whether someone deals (false: no dealer; the opener moves on each hand)",
    "game_end": "the game ends with one survivor, or at the first elimination (most lives win)",
    "direction": "each hand starts clockwise, or keeps the direction play ended in",
    "start_total": "the total starts at 0, or at what a turned-up card counts",
    "upcard_special": "ranks that, turned up, go back into the stock (with start_total = upcard)",
    "limit": "the total nobody may go over (99)",
    "halve_over": "halve-or-double halves an even total above this, else doubles",
    "cards": "what each rank does (SJ and BJ: the jokers, with jokers = true)",
    "joker_cards": "what the small and the big joker do (written as cards.SJ, cards.BJ)",
    "suit_cards": "single cards whose suit makes them differ from their rank",
    "calls": "what a player says on playing each rank",
    "bust_call": "what is said on going over the limit",
    "below_zero": "a total below 0 is allowed, raised to 0, or an illegal play",
    "two_player_reverse": "what a reverse does with two players in the hand",
    "reverse_with_two_players": "false: a reverse keeps the direction with two players in the hand",
    "king_ban_turns": "turns at the start in which the card that sets the limit may not be "
    "played (0: none)",
    "king_ban_scope": "the ban's turns count per hand or per game",
    "king_ban_at_limit": "the ban holds even when the total is at the limit",
    "skip_counts": "a skip passes the next player still in, or an eliminated seat absorbs it",
    "skip_with_two_players": "with two players a skip gives another turn (true) or does not skip",
    "name_self": "a card that names the next player may name its own player",
    "challenge_cancel": "ranks with which a challenged player cancels the challenge "
    "(a 'challenge' card)",
    "choice_filter": "drop_busting: a card's values that would go over are not offered",
    "may_bust": "a card over the limit may be played even with a safe card in hand",
    "no_legal_play": "with no safe card: lay down the hand, or play a card and go over",
    "stuck": "no legal play for another reason (an empty hand, the floor): lose a life, or pass",
    "forced_card": "a forced losing card is the player's choice, or the lowest",
    "bust_penalty": "lives lost on going over",
    "after_bust": "after a bust: a new hand, the buster sits out, the total resets, or "
    "(revert) it goes back to before the busting card and the buster sits out",
    "clear_pile_on_reset": "a reset after a bust also clears the pile away",
    "draw_after_bust": "the player who went over draws back to a full hand",
    "eliminated_hand": "the cards of a player put out mid-hand: kept out, face down under "
    "the pile, or face up onto it",
    "empty_hand": "a player whose play leaves no card: plays on (stuck at its turn), or is "
    "out at once",
    "no_draw_after": "ranks after which the player draws no card (CN99: 7 and J)",
    "stock_empty": "when the stock runs out: reshuffle the pile (keeping its top), all of "
    "it, or stop drawing",
    "restock": "rebuild the stock when a draw needs it, or as soon as it is empty",
    "empty_draw": "nothing to reshuffle: play on a card short, end the round, or gather every card",
    "new_round_deal": "a new hand is dealt from all the cards, or from the stock",
    "draw": "drawing is automatic, or the player's own action (who may forget)",
    "thresholds": "scoring at 33 and 66: none, online (rewards and costs), or borders "
    "(game points)",
    "threshold_values": "the totals thresholds = online watches",
    "online_cross": "what crosses a threshold: passing it (strict), or leaving it upward too",
    "milestones_on_bust": "a play over the limit also pays for the thresholds it crossed",
    "border_values": "the borders thresholds = borders counts",
    "border_cross_backward_costs": "a border crossed on the way down costs a point too",
    "rule_69": "what reaching rule_69_total does",
    "rule_69_from": "the 69 rule counts from any total, or only from below",
    "rule_69_total": "the total the 69 rule watches",
    "scoring": "players lose lives, or score game points",
    "points_per_hand": "game points each hand starts with (scoring = game_points)",
    "points_target": "the score that ends the game (scoring = game_points)",
    "points_floor_zero": "a hand's game points never go below 0",
    "points_tie": "a tie for the lead plays another hand, or shares the win",
    "instant_hands": "hands that win or lose at once when held (three sixes, three Kings)",
    "instant_check": "instant hands count when dealt and after each draw, or only when dealt",
    "instant_order": "which instant hand counts first when two do",
    "teams": "none; pooled: partners 1 & 3 against 2 & 4 sharing one pool of lives; "
    "alternate: seats 1, 3, 5... against 2, 4, 6..., each out on their own (CN99)",
    "team_lives": "a pooled team's shared lives (0: twice the lives)",
}

META = ("id", "name", "description", "source")  # what a rule set is called, not how it plays


def _validate(r: Rules) -> None:
    def fail(key: str, value: object, accepted: str) -> None:
        raise RulesError(f"rules key {key!r} = {value!r} is not allowed: {accepted}")

    for key in (
        "players_min",
        "players_max",
        "decks",
        "hand_size",
        "lives",
        "limit",
        "bust_penalty",
        "big_table_decks",
        "points_target",
    ):
        value = getattr(r, key)
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            fail(key, value, "expected a whole number of at least 1")
    for key in (
        "big_table_over",
        "big_table_lives",
        "king_ban_turns",
        "team_lives",
        "stake",
        "points_per_hand",
    ):
        value = getattr(r, key)
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            fail(key, value, "expected a whole number of at least 0")
    if r.players_min < 2:
        fail("players_min", r.players_min, "at least 2 players are needed")
    if r.players_max < r.players_min:
        fail("players_max", r.players_max, f"must be at least players_min ({r.players_min})")
    if not isinstance(r.bust_call, str) or "{" in r.bust_call.replace("{total}", ""):
        fail("bust_call", r.bust_call, "text whose only placeholder is {total}")
    if len(r.cards) != 13 or len(r.calls) != 13:
        fail("cards", len(r.cards), "every rank A..K needs an effect")
    for n in (r.players_min, r.players_max):
        need = n * r.hand_size + (1 if r.start_total is StartTotal.UPCARD else 0)
        have = r.pack * r.decks_for(n)
        if need > have:
            fail(
                "hand_size",
                r.hand_size,
                f"{n} players x {r.hand_size} cards need {need} cards but the deck has {have}",
            )
    if r.after_bust is AfterBust.SIT_OUT and (
        r.may_bust or r.no_legal_play is NoLegalPlay.PLAY_AND_BUST
    ):
        # The others go on "with the same total", so a bust must not have played a card.
        fail(
            "after_bust",
            "sit_out",
            "the same total continues after a bust, so the buster must "
            "lay down without playing: needs no_legal_play = 'lay_down' and may_bust = false",
        )
    _validate_teams(r, fail)
    if r.rule_69 is Rule69.EXTRA_POINT and r.scoring is not Scoring.GAME_POINTS:
        fail("rule_69", r.rule_69.value, "extra_point needs scoring = 'game_points'")
    if r.rule_69 is Rule69.PENNY_FROM_POOL and r.pot is Pot.NONE:
        fail(
            "rule_69",
            r.rule_69.value,
            "penny_from_pool needs a pot ('centre' or 'winner_takes_all')",
        )
    if r.scoring is Scoring.GAME_POINTS and r.elimination is not Elimination.NEVER:
        fail("elimination", r.elimination.value, "game_points scoring needs elimination = 'never'")
    if r.scoring is Scoring.LIVES and r.elimination is Elimination.NEVER:
        fail("elimination", "never", "with scoring = 'lives' players must be eliminated somehow")
    if r.thresholds is Thresholds.BORDERS and r.scoring is not Scoring.GAME_POINTS:
        fail(
            "thresholds",
            "borders",
            "border crossings cost game points: needs scoring = 'game_points'",
        )
    if r.scoring is Scoring.GAME_POINTS and r.thresholds is not Thresholds.BORDERS:
        fail(
            "thresholds",
            r.thresholds.value,
            "game points are only lost at borders: "
            "scoring = 'game_points' needs thresholds = 'borders'",
        )
    if r.scoring is Scoring.GAME_POINTS and r.after_bust is AfterBust.RESET_ALL:
        fail(
            "after_bust",
            "reset_all",
            "game points are scored when a hand ends and with "
            "reset_all no hand ends: use 'end_hand', 'sit_out' or 'reset_others'",
        )
    for key, values in (
        ("threshold_values", r.threshold_values),
        ("border_values", r.border_values),
        ("upcard_special", r.upcard_special),
        ("challenge_cancel", r.challenge_cancel),
        ("no_draw_after", r.no_draw_after),
    ):
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
            fail(key, values, "expected a list of whole numbers")
    if r.start_total is StartTotal.UPCARD and len(set(r.upcard_special)) >= 13:
        fail("upcard_special", r.upcard_special, "at least one rank must be ordinary")
    for players, decks in r.decks_by_players:
        if players < 2 or decks < 1:
            fail(
                "decks_by_players",
                {str(players): decks},
                "expected a table of players = "
                "decks, e.g. {3 = 2, 4 = 3}: from 2 players up, at least 1 deck",
            )
    if r.game_end is GameEnd.FIRST_OUT and r.scoring is Scoring.GAME_POINTS:
        fail(
            "game_end",
            "first_out",
            "the game ends at the first elimination, and with "
            "scoring = 'game_points' nobody is eliminated: needs scoring = 'lives'",
        )
    if not r.milestones_on_bust and r.thresholds is not Thresholds.ONLINE:
        fail(
            "milestones_on_bust",
            False,
            "it only changes the 33/66 payments of thresholds = 'online'",
        )
    if not r.border_cross_backward_costs and r.thresholds is not Thresholds.BORDERS:
        fail(
            "border_cross_backward_costs",
            False,
            "it only changes the border crossings of thresholds = 'borders'",
        )
    if any(e.challenge for e in r.effects()):
        if r.scoring is not Scoring.LIVES or r.elimination is not Elimination.AT_ZERO:
            fail(
                "cards",
                "challenge",
                "a challenge eliminates a player: needs scoring = 'lives' and "
                "elimination = 'at_zero'",
            )
        if r.teams is Teams.POOLED:
            fail(
                "teams",
                "pooled",
                "a challenge names one player to eliminate: needs teams = 'none' or 'alternate'",
            )
        if not all(isinstance(v, int) and 0 <= v < 13 for v in r.challenge_cancel):
            fail("challenge_cancel", r.challenge_cancel, 'expected a list of ranks such as ["4"]')
        if any(r.cards[v].challenge for v in r.challenge_cancel):
            fail(
                "challenge_cancel",
                [RANKS[v] for v in r.challenge_cancel],
                "a challenge card answers a challenge by putting the challenger out; it "
                "cannot also cancel it",
            )
    if any(e.moves_cards for e in r.effects()) and any(e.no_draw for e in r.effects()):
        fail(
            "cards",
            "no-draw",
            "a run of no-draw answers counts the cards played in it, and a swap or a take "
            "card moves hands in the middle of it: the two do not go together",
        )
    if any(e.strip or e.revive for e in r.effects()) and r.draw is Draw.EXPLICIT:
        fail(
            "draw",
            "explicit",
            "a strip or a revival card (CN99's jokers) draws for its player and its target "
            "after the stock is shuffled: needs draw = 'auto'",
        )
    if any(e.revive for e in r.effects()) and r.teams is Teams.POOLED:
        fail(
            "teams",
            "pooled",
            "a revival card brings back one player: needs teams = 'none' or 'alternate'",
        )
    if r.limit > 1023 and any(e.kind is Kind.SET_ANY for e in r.effects()):
        fail("limit", r.limit, "a 'set-any' card needs a limit of at most 1023")


def _validate_teams(r: Rules, fail: Callable[[str, object, str], None]) -> None:
    """Team play's tables: a pooled partnership is four players (J-TEAM); alternate seats
    need an even table of at least four (O51: the source's ``n>=4 && n%2===0``), and a
    game won by the last side standing (a team wins when every opponent is out)."""
    if r.teams is Teams.POOLED:
        for key in ("players_min", "players_max"):
            if getattr(r, key) != 4:
                fail(key, getattr(r, key), "team play (teams = 'pooled') needs exactly 4 players")
    elif r.teams is Teams.ALTERNATE:
        for key in ("players_min", "players_max"):
            n = getattr(r, key)
            if n < 4 or n % 2:
                fail(key, n, "teams = 'alternate' needs an even number of players, at least 4")
        if r.scoring is not Scoring.LIVES or r.game_end is not GameEnd.LAST_SURVIVOR:
            fail(
                "teams",
                "alternate",
                "a team wins when every opponent is out: needs scoring = 'lives' and "
                "game_end = 'last_survivor'",
            )


def table_refusal(rules: Rules, players: int) -> str | None:
    """Why ``rules`` cannot be played by ``players``, or None: outside the rules' range, or
    (alternate teams) an odd table."""
    if not rules.players_min <= players <= rules.players_max:
        return (
            f"{rules.id} is for {rules.players_min} to {rules.players_max} players, not {players}"
        )
    if rules.teams is Teams.ALTERNATE and players % 2:
        return f"{rules.id} plays in teams of alternate seats: needs an even table, not {players}"
    return None


# Reading and writing mappings (TOML tables) ----------------------------------------

_HINTS = get_type_hints(Rules)
FIELDS = tuple(f.name for f in dataclasses.fields(Rules))


def _accepted(hint: Any) -> str:
    if isinstance(hint, type) and issubclass(hint, StrEnum):
        return "one of " + ", ".join(repr(m.value) for m in hint)
    if hint is bool:
        return "true or false"
    if hint is int:
        return "a whole number"
    if hint is str:
        return "text"
    return "a list of whole numbers"


def _convert(key: str, value: Any) -> Any:
    hint = _HINTS[key]
    if key == "teams" and isinstance(value, bool):  # the older switch: true was the pool
        return Teams.POOLED if value else Teams.NONE
    if isinstance(hint, type) and issubclass(hint, StrEnum):
        try:
            return hint(value)
        except ValueError:
            pass
    elif hint is bool:
        if isinstance(value, bool):
            return value
    elif hint is int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    elif hint is str:
        if isinstance(value, str):
            return value
    elif key in ("upcard_special", "challenge_cancel", "no_draw_after"):
        if isinstance(value, list) and all(isinstance(v, str) for v in value):
            try:
                return tuple(sorted({parse_rank(v) for v in value}))
            except RulesError:
                pass
            except ValueError:
                pass
        raise RulesError(
            f"rules key {key!r} = {value!r} is not allowed: expected a list of ranks "
            f'such as ["A", "4", "K"]'
        )
    elif key == "instant_hands":
        if isinstance(value, bool):
            return RULEBOOK_INSTANT if value else ()
        if isinstance(value, list) and all(isinstance(v, str) for v in value):
            try:
                return tuple(InstantRule.parse(v) for v in value)
            except ValueError:
                pass
        raise RulesError(
            f"rules key {key!r} = {value!r} is not allowed: expected true (three "
            "sixes: everyone loses; three Kings: the holder wins), false, or a "
            'list such as ["3x6 lose", "3xK win"]'
        )
    elif key == "decks_by_players":
        if isinstance(value, Mapping) and all(
            str(k).isdigit() and isinstance(v, int) and not isinstance(v, bool)
            for k, v in value.items()
        ):
            return tuple(sorted((int(k), v) for k, v in value.items()))
        raise RulesError(
            f"rules key {key!r} = {value!r} is not allowed: expected a table of "
            "players = decks, e.g. {3 = 2, 4 = 3} (2 decks from 3 players, 3 "
            "from 4)"
        )
    elif isinstance(value, list) and all(
        isinstance(v, int) and not isinstance(v, bool) for v in value
    ):
        return tuple(value)
    raise RulesError(f"rules key {key!r} = {value!r} is not allowed: expected {_accepted(hint)}")


def _rank_table(key: str, table: Any) -> dict[int, str]:
    """A table of rank = text (``cards``, ``calls``) or, for ``suit_cards``, card = text."""
    by_card = key == "suit_cards"
    if not isinstance(table, Mapping):
        example = 'AS = "set 0"' if by_card else 'A = "+1/+11"'
        raise RulesError(
            f"rules key {key!r} must be a table of {'card' if by_card else 'rank'}"
            f" = value, e.g. {example}"
        )
    out: dict[int, str] = {}
    for text, spec in table.items():
        try:
            index = (parse_card if by_card else parse_rank)(str(text))
        except ValueError:
            accepted = (
                "not a card; expected a rank and a suit such as AS, 10H or KC"
                if by_card
                else f"unknown rank; expected one of {' '.join(ALL_RANKS)}"
            )
            raise RulesError(f"rules key '{key}.{text}': {accepted}") from None
        if not isinstance(spec, str):
            raise RulesError(f"rules key '{key}.{text}' = {spec!r}: expected text")
        out[index] = spec
    return out


def _effects(key: str, table: Any, current: dict[int, Effect]) -> dict[int, Effect]:
    """``current`` (rank or card -> effect) with the effects of a ``cards`` or
    ``suit_cards`` table written over it."""
    out = dict(current)
    for index, spec in _rank_table(key, table).items():
        try:
            out[index] = parse_effect(spec)
        except RulesError as e:
            name = format_card(index) if key == "suit_cards" else ALL_RANKS[index]
            raise RulesError(f"rules key '{key}.{name}': {e}") from None
    return out


def apply_overrides(base: Rules, overrides: Mapping[str, Any], *, where: str = "") -> Rules:
    """``base`` with the settings of a TOML-style mapping applied on top.

    ``cards`` and ``calls`` are tables keyed by rank that change only the ranks they name.
    """
    changes: dict[str, Any] = {}
    prefix = f"{where}: " if where else ""
    try:
        for key, value in overrides.items():
            if key == "cards":  # the jokers' effects (ranks 13, 14) too
                old = changes.get("cards", base.cards) + changes.get(
                    "joker_cards", base.joker_cards
                )
                new = tuple(_effects(key, value, dict(enumerate(old))).values())
                changes["cards"], changes["joker_cards"] = new[:13], new[13:]
            elif key == "suit_cards":
                cards = dict(changes.get("suit_cards", base.suit_cards))
                changes["suit_cards"] = tuple(_effects(key, value, cards).items())
            elif key == "calls":
                calls = list(changes.get("calls", base.calls))
                for rank, template in _rank_table(key, value).items():
                    if rank >= 13:
                        raise RulesError(
                            f"rules key 'calls.{ALL_RANKS[rank]}': a joker is called like "
                            "any play ({total}); expected a rank A..K"
                        )
                    if "{" in template.replace("{total}", ""):
                        raise RulesError(
                            f"rules key 'calls.{RANKS[rank]}' = {template!r}: the "
                            "only placeholder accepted is {total}"
                        )
                    calls[rank] = template
                changes["calls"] = tuple(calls)
            elif key == "joker_cards":
                raise RulesError(
                    "rules key 'joker_cards': write the jokers' effects in the cards "
                    'table, e.g. SJ = "hold", BJ = "hold"'
                )
            elif key in _HINTS:
                changes[key] = _convert(key, value)
            else:
                close = difflib.get_close_matches(str(key), FIELDS, n=3)
                hint = f" (did you mean {', '.join(close)}?)" if close else ""
                raise RulesError(
                    f"unknown rules key {str(key)[:40]!r}{hint}; accepted keys: "
                    f"see '{command('rules --keys')}'"
                )
        return dataclasses.replace(base, **changes)
    except RulesError as e:
        raise RulesError(prefix + str(e)) from None


def rules_to_mapping(rules: Rules, base: Rules | None = None) -> dict[str, Any]:
    """The settings of ``rules`` that differ from ``base`` (all of them if no base)."""
    out: dict[str, Any] = {}
    for name in FIELDS:
        value = getattr(rules, name)
        if base is not None and value == getattr(base, name):
            continue
        if name in ("cards", "calls", "joker_cards"):  # the jokers' written as cards.SJ, .BJ
            old = getattr(base, name) if base is not None else (None,) * 13
            first = 13 if name == "joker_cards" else 0
            table = {
                ALL_RANKS[first + i]: (format_effect(v) if name != "calls" else v)
                for i, v in enumerate(value)
                if v != old[i]
            }
            if table:
                out.setdefault("calls" if name == "calls" else "cards", {}).update(table)
        elif name == "suit_cards":  # the base's exceptions too, so that a dropped one goes
            old = dict(base.suit_cards) if base is not None else {}
            out[name] = {
                format_card(c): format_effect(rules.effect_of(c))
                for c in sorted(set(dict(value)) | set(old))
            }
        elif name == "decks_by_players":
            out[name] = {str(n): d for n, d in value}
        elif name == "instant_hands":
            out[name] = True if value == RULEBOOK_INSTANT else [str(h) for h in value] or False
        elif name in ("upcard_special", "challenge_cancel", "no_draw_after"):
            out[name] = [ALL_RANKS[v] for v in value]
        elif isinstance(value, tuple):
            out[name] = list(value)
        else:
            out[name] = value.value if isinstance(value, StrEnum) else value
    return out


class KeyHelp(NamedTuple):
    """One rules key as ``ninetynine rules --keys`` lists it."""

    key: str
    accepted: str  # the values it takes
    default: str  # its value in the rules a house-rules file starts from (TOML)
    meaning: str


def keys_help(start: Rules) -> list[KeyHelp]:
    """Every rules key: what it accepts, its value in ``start`` (P, where a house-rules
    file starts) and what it means."""
    values = rules_to_mapping(start)
    rows = []
    for name in FIELDS:
        if name in META or name == "joker_cards":  # (written in the cards table)
            continue
        hint = _HINTS[name]
        if name in ("cards", "calls"):
            text = (
                'a table rank = effect, e.g. A = "+1/+11", K = "set"'
                if name == "cards"
                else 'a table rank = call, e.g. 9 = "pass to you {total}"'
            )
        elif name in ("upcard_special", "challenge_cancel", "no_draw_after"):
            text = "a list of ranks"
        elif name == "suit_cards":
            text = 'a table card = effect where a suit differs, e.g. AS = "set 0"'
        elif name == "decks_by_players":
            text = "a table players = decks, e.g. {7 = 2}: 2 decks from 7 players"
        elif name == "instant_hands":
            text = (
                "true (the rulebook's: three sixes, everyone loses; three Kings win), "
                'false, or a list such as ["3x6 lose", "3xK win"]'
            )
        else:
            text = _accepted(
                hint if get_origin(hint) not in (Union, types.UnionType) else get_args(hint)[0]
            )
        rows.append(KeyHelp(name, text, _toml(values[name]), MEANINGS[name]))
    return rows


def _toml(value: Any) -> str:
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k} = {_toml(v)}" for k, v in value.items()) + "}"
    return json.dumps(value, ensure_ascii=False)
