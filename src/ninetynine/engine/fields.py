"""The fields of a game state, and the seat arithmetic every part of the engine uses.

:class:`~ninetynine.engine.state.State` builds on this in layers:
:class:`~ninetynine.engine.deal.Dealing` moves the cards (deals, draws, reshuffles, the end
of a hand) and :class:`~ninetynine.engine.penalties.Penalties` prices a play (busts, lives,
thresholds, borders, 69).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from ninetynine.engine import events as E
from ninetynine.engine.tables import RuleTables
from ninetynine.rules.settings import Pot, Rules


class Phase(StrEnum):
    """What the game waits for: a player to play (or lay down, pass), a player to draw, chance,
    or nothing (over)."""

    PLAY = "play"  # a player is to play a card (or lay down, pass)
    DRAWING = "draw"  # a player is to draw, or not (where drawing is a move)
    CHANCE = "chance"  # chance must decide: a shuffle, an up-card, who leads
    OVER = "over"


class ChanceKind(StrEnum):
    """What a pending chance node decides (``NONE`` when none is pending)."""

    NONE = ""
    DEAL = "deal"  # the deck shuffled for a new hand
    RESTOCK = "restock"  # the discards shuffled into a new stock to draw from
    TOPUP = "topup"  # the discards shuffled under the stock for a new deal
    UPCARD = "upcard"  # where a special up-card goes back into the stock
    LEAD = "lead"  # who leads the next hand (where chance says)
    TAKE = "take"  # which card a take (CN99's Jack) draws, blind, from the victim's hand
    STRIP = "strip"  # which card a strip (CN99's small joker) leaves, blind, in the victim's hand


class EndReason(StrEnum):
    """Why a game ended."""

    LAST_SURVIVOR = "last_survivor"
    LAST_TEAM = "last_team"
    NO_SURVIVOR = "no_survivor"  # the last players went out together
    FIRST_OUT = "first_out"  # the first elimination ends it; most lives win
    POINTS = "points"  # the game-point target was reached
    THREE_SIXES = "three_sixes"  # an instant hand: everyone loses
    THREE_KINGS = "three_kings"  # an instant hand: its holder wins
    INSTANT_WIN = "instant_win"  # a house rule's instant hand: its holder wins
    INSTANT_LOSS = "instant_loss"  # a house rule's instant hand: everyone loses
    GIVEN = "given"  # a position written as over, without a reason


PLAY, DRAWING, CHANCE, OVER = Phase.PLAY, Phase.DRAWING, Phase.CHANCE, Phase.OVER
NO_CHANCE, DEAL, RESTOCK, TOPUP, UPCARD, LEAD, TAKE, STRIP = ChanceKind


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended: the winning seats (none when everyone loses) and why."""

    winners: tuple[int, ...]
    reason: EndReason


class StateBase:
    """Everything needed to continue a game (see :class:`ninetynine.engine.state.State`)."""

    __slots__ = (
        "rules",
        "c",
        "n",
        "hands",
        "stock",
        "pile",
        "out",
        "total",
        "direction",
        "turn",
        "dealer",
        "starter",
        "lives",
        "alive",
        "in_hand",
        "turns_played",
        "points",
        "scores",
        "pot",
        "hand_no",
        "phase",
        "chance",
        "drawer",
        "owed",
        "next_turn",
        "held",
        "loser",
        "passes",
        "decks",
        "face_down",
        "chain",
        "plays_left",
        "may_decline",
        "challenger",
        "victim",
        "known",
        "outcome",
        "_ev",
        "_before",
    )

    rules: Rules
    c: RuleTables
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
    phase: Phase
    chance: ChanceKind
    drawer: int
    owed: int
    next_turn: int
    held: int
    loser: int
    passes: int
    decks: int
    face_down: int  # cards at the bottom of the pile that nobody saw (old hands)
    chain: int  # no-draw cards in a row that the seat to act faces
    plays_left: int  # cards the seat to act must still play in this run, without drawing
    may_decline: bool  # the seat to act may decline the turn a two-player reverse gave it
    challenger: int  # the seat whose challenge card the seat to act must answer (-1: none)
    # the seat a pending take or strip (chance TAKE, STRIP) takes from; during a restock
    # after a revival (CN99's big joker), the joker's player, who draws after the refill
    victim: int  # (-1: none)
    # known[observer * n + holder]: cards ``observer`` knows to be in ``holder``'s hand,
    # learnt from a swap or a take (O46, O47); [] under rules that move no cards
    known: list[list[int]]
    outcome: Outcome | None
    _ev: list[E.Event] | None
    _before: list[bool]  # who was in the hand before the play's penalties (for skips)

    def side(self, seat: int) -> int:
        """The side a seat wins or loses with: its own, or its team's (seats 0, 2...)."""
        return self.rules.teams.side(seat)

    def pool(self, seat: int) -> int:
        """Whose lives a seat spends (an index of ``lives``): its own, or its team's pool."""
        return self.rules.teams.pool(seat)

    def seat_lives(self, seat: int) -> int:
        """The lives a seat can spend: its own, or its team's pool."""
        return self.lives[self.pool(seat)]

    def all_cards(self) -> list[int]:
        """Every card in the game, wherever it is (for conservation checks)."""
        cards = [c for h in self.hands for c in h] + self.stock + self.pile + self.out
        return cards + ([self.held] if self.held >= 0 else [])

    def _next_seat(self, seat: int, steps: int) -> int:
        n, d, in_hand = self.n, self.direction, self.in_hand
        for _ in range(steps):
            for _ in range(n):
                seat = (seat + d) % n
                if in_hand[seat]:
                    break
        return seat

    def _next_alive(self, seat: int, d: int = 1) -> int:
        for _ in range(self.n):
            seat = (seat + d) % self.n
            if self.alive[seat]:
                return seat
        return seat

    def _reverse(self, seat: int) -> None:
        """A reverse card: flip the direction (unless the rules keep it with two players)."""
        if not self.rules.reverse_with_two_players and sum(self.in_hand) <= 2:
            return
        self.direction = -self.direction
        if self._ev is not None:
            self._ev.append(E.Reversed(seat, "cw" if self.direction == 1 else "ccw"))

    def _game_over(self, winners: tuple[int, ...], reason: EndReason) -> None:
        self.phase, self.outcome = OVER, Outcome(winners, reason)
        self.may_decline, self.challenger = False, -1
        if self._ev is not None:  # (what the winners collect: for the event alone)
            rules = self.rules
            collects = 0
            if winners:
                pot = self.pot if rules.pot is Pot.WINNER_TAKES_ALL else 0
                collects = rules.stake * self.n + pot
            self._ev.append(E.GameOver(winners, reason, collects))
