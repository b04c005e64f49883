"""What happened, as frozen records: every transition of the engine emits some of these.

Events carry only public information (a drawn card is not named, a shuffle gives no
order), so a seat's history can be the same list for everyone. Seats are 0-based here;
:func:`event_to_json` and :func:`narrate` number them from 1, as people do; given the
rules, :func:`narrate` counts in their words (a penny, a token from the team's pool).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from ninetynine.rules.cards import format_card, show_card
from ninetynine.rules.settings import Elimination, Pot, Rules
from ninetynine.rules.words import GAME_POINT, Noun, counter, ending, plural


@dataclass(frozen=True, slots=True)
class Event:
    """Base of every event; its fields are public facts, seats 0-based."""

    @property
    def kind(self) -> str:
        """The event's class name (``'CardPlayed'``), the ``kind`` of its JSON form."""
        return type(self).__name__


@dataclass(frozen=True, slots=True)
class HandStarted(Event):
    """Hand number ``hand`` (from 1) begins: ``dealer`` deals and ``starter`` leads."""

    hand: int
    dealer: int
    starter: int


@dataclass(frozen=True, slots=True)
class Shuffled(Event):
    """Chance shuffled ``cards`` cards; ``reason`` is the chance kind: ``'deal'``,
    ``'restock'`` or ``'topup'``."""

    cards: int
    reason: str  # "deal", "restock" or "topup"


@dataclass(frozen=True, slots=True)
class Dealt(Event):
    """``seat`` was dealt ``count`` cards (which ones stays hidden)."""

    seat: int
    count: int


@dataclass(frozen=True, slots=True)
class UpCardTurned(Event):
    """``card`` was turned up from the stock onto the pile; the hand's total starts at
    ``total``."""

    card: int
    total: int


@dataclass(frozen=True, slots=True)
class UpCardReturned(Event):
    """The turned-up ``card`` is special and goes back into the stock (chance picks where)."""

    card: int


@dataclass(frozen=True, slots=True)
class CardPlayed(Event):
    """``seat`` played ``card``, taking the total from ``before`` to ``after`` (which may be
    over the limit: a bust follows)."""

    seat: int
    card: int
    value: int | None  # the chosen value for a card with a choice
    before: int
    after: int


@dataclass(frozen=True, slots=True)
class TotalCalled(Event):
    """What the player says aloud: "99", "pass to you 99", "back on you 97"."""

    seat: int
    total: int
    text: str


@dataclass(frozen=True, slots=True)
class Reversed(Event):
    """``seat``'s card reversed the direction of play."""

    seat: int
    direction: str  # "cw" or "ccw" after the change


@dataclass(frozen=True, slots=True)
class Skipped(Event):
    """``seat`` loses its turn to a skip card."""

    seat: int


@dataclass(frozen=True, slots=True)
class PlaysAgain(Event):
    """``seat`` plays again at once (a reverse with two players in the hand)."""

    seat: int


@dataclass(frozen=True, slots=True)
class MayPlayAgain(Event):
    """The seat may play again, or decline (two players, the optional reading of a reverse)."""

    seat: int


@dataclass(frozen=True, slots=True)
class Declined(Event):
    """The seat declined the turn it was offered: the other player is next, same total."""

    seat: int


@dataclass(frozen=True, slots=True)
class Named(Event):
    """A card's player named who plays next."""

    seat: int
    target: int


@dataclass(frozen=True, slots=True)
class ChainFaced(Event):
    """The seat must play ``count`` cards without drawing, or answer with a no-draw card."""

    seat: int
    count: int


@dataclass(frozen=True, slots=True)
class MustPlay(Event):
    """The seat started a run: ``count`` more cards to play without drawing."""

    seat: int
    count: int


@dataclass(frozen=True, slots=True)
class LeaderDrawn(Event):
    """Chance chose the seat that leads the new hand."""

    seat: int


@dataclass(frozen=True, slots=True)
class CardDrawn(Event):
    """``seat`` drew one card from the stock (which one stays hidden)."""

    seat: int


@dataclass(frozen=True, slots=True)
class DrawSkipped(Event):
    """``seat`` drew nothing; ``reason`` says why in words (``'the stock is empty'``,
    ``'no cards to reshuffle'``, ``'did not draw'``)."""

    seat: int
    reason: str


@dataclass(frozen=True, slots=True)
class StockReshuffled(Event):
    """``cards`` played cards are gathered to be shuffled into a new stock (a chance shuffle
    follows); ``kept_top``: the pile's top card stays face up."""

    cards: int
    kept_top: bool


@dataclass(frozen=True, slots=True)
class LaidDown(Event):
    """The seat could not play and played no card (lay down / out of this hand)."""

    seat: int


@dataclass(frozen=True, slots=True)
class Passed(Event):
    """``seat`` could not play and passed, with no penalty (``stuck = 'pass'``)."""

    seat: int


@dataclass(frozen=True, slots=True)
class Busted(Event):
    """``seat`` went over the limit, making ``total``, or (``total`` None) could not play."""

    seat: int
    total: int | None  # the over-limit total, or None when no card was played


@dataclass(frozen=True, slots=True)
class LifeLost(Event):
    """The seat owed ``amount`` (for ``reason``); ``unpaid`` of it was more than its side
    had, so it has ``left`` = 0. ``by`` is the seat whose play made the others pay."""

    seat: int
    amount: int
    left: int
    reason: str
    unpaid: int = 0
    by: int | None = None


@dataclass(frozen=True, slots=True)
class LifeGained(Event):
    """``seat`` gained ``amount`` lives (for ``reason``) and now has ``left`` (its team's pool,
    in team play)."""

    seat: int
    amount: int
    left: int
    reason: str


@dataclass(frozen=True, slots=True)
class PlayerOut(Event):
    """Eliminated from the game."""

    seat: int


@dataclass(frozen=True, slots=True)
class SatOut(Event):
    """Out of this hand only."""

    seat: int


@dataclass(frozen=True, slots=True)
class TotalReset(Event):
    """The total went back to ``total`` (a reset after a bust, or the 69 rule);
    ``pile_cleared``: the pile was taken out of play."""

    total: int
    pile_cleared: bool


@dataclass(frozen=True, slots=True)
class BorderCrossed(Event):
    """The seat lost a game point for crossing ``border``:``border + 1``, or for laying
    down (``border`` None); it has ``points`` left this hand."""

    seat: int
    border: int | None
    points: int


@dataclass(frozen=True, slots=True)
class SixtyNine(Event):
    """``seat`` made exactly the rules' ``rule_69_total``; ``effect`` is their ``rule_69`` value."""

    seat: int
    effect: str


@dataclass(frozen=True, slots=True)
class HandEnded(Event):
    """Hand number ``hand`` is over, lost by ``loser`` (None when nobody lost it); another
    hand follows."""

    hand: int
    loser: int | None


@dataclass(frozen=True, slots=True)
class HandScored(Event):
    """Game points at a hand's end: ``points`` this hand and ``scores`` the totals, per seat."""

    points: tuple[int, ...]
    scores: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class InstantHand(Event):
    """``seat`` holds the instant hand ``what`` (in words); ``cards`` are its cards, now shown."""

    seat: int
    what: str  # "three kings", "three sixes": the rules' instant hand, in words
    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class GameOver(Event):
    """The game ended: ``winners`` (none when everyone loses), ``reason`` (an
    :class:`~ninetynine.engine.fields.EndReason`) and what the winners collect."""

    winners: tuple[int, ...]
    reason: str
    collects: int  # what the winner takes (pot and stakes), 0 if nothing


_SEAT_FIELDS = {"seat", "dealer", "starter", "loser", "target", "by"}


def event_to_json(event: Event) -> dict[str, Any]:
    """A JSON-ready dict: ``{"kind": ..., fields...}``, seats 1-based, cards as text."""
    out: dict[str, Any] = {"kind": event.kind}
    for f in dataclasses.fields(event):
        value = getattr(event, f.name)
        if f.name in _SEAT_FIELDS and value is not None:
            value += 1
        elif f.name == "winners":
            value = [s + 1 for s in value]
        elif f.name == "card":
            value = format_card(value)
        elif f.name == "cards" and isinstance(value, tuple):
            value = [format_card(c) for c in value]
        elif isinstance(value, tuple):
            value = list(value)
        out[f.name] = value
    return out


# a payment whose cause the line before it already told (the bust, the lay-down)
_TOLD = frozenset({"over the limit", "cannot play"})


def narrate(event: Event, names: list[str] | None = None, rules: Rules | None = None) -> str | None:
    """One line of table talk for an event, or None for bookkeeping events. With the
    rules, what a player loses is counted in their words ("a penny", "2 tokens from the
    team's pool") and a game with no dealer names only who opens."""

    def who(seat: int) -> str:
        return names[seat] if names else f"P{seat + 1}"

    noun = counter(rules) if rules is not None else Noun("life", "lives")
    pool = " from the team's pool" if rules is not None and rules.teams else ""
    match event:
        case HandStarted(hand, dealer, starter):
            if rules is not None and not rules.dealer:
                return f"Hand {hand}: {who(starter)} opens."
            return f"Hand {hand}: {who(dealer)} deals, {who(starter)} starts."
        case UpCardTurned(card, total):
            return f"Up-card {show_card(card)}: the count starts at {total}."
        case UpCardReturned(card):
            return f"Up-card {show_card(card)} is special: back into the deck."
        case CardPlayed(seat, card, value, _, _):
            chosen = f" as {value:+d}" if value is not None else ""
            return f"{who(seat)} plays {show_card(card)}{chosen}."
        case TotalCalled(seat, _, text):
            return f'{who(seat)}: "{text}"'
        case Reversed(_, direction):
            if names is not None and len(names) == 2:
                return None  # with two at the table there is no direction to tell
            return f"Play now goes {'clockwise' if direction == 'cw' else 'counter-clockwise'}."
        case Skipped(seat):
            return f"{who(seat)} is skipped."
        case PlaysAgain(seat):
            return f"{who(seat)} plays again."
        case MayPlayAgain(seat):
            return f"{who(seat)} may play again, or decline."
        case Declined(seat):
            return f"{who(seat)} declines the extra turn."
        case Named(seat, target):
            return f"{who(seat)} names {who(target)} to play next."
        case ChainFaced(seat, count):
            cards = "a card" if count == 1 else f"{count} cards"
            return (
                f"{who(seat)} must play {cards} without drawing, or answer with another "
                "no-draw card."
            )
        case MustPlay(seat, count):
            return f"{who(seat)} plays {plural(count, 'more card', 'more cards')} without drawing."
        case LeaderDrawn(seat):
            return f"{who(seat)} is drawn to lead the next hand."
        case DrawSkipped(seat, reason):
            return f"{who(seat)} cannot draw ({reason})."
        case StockReshuffled(cards, kept_top):
            top = ", the top card stays" if kept_top else ""
            played = "1 played card is" if cards == 1 else f"{cards} played cards are"
            return f"The stock ran out: {played} shuffled into a new stock{top}."
        case LaidDown(seat):
            return f"{who(seat)} cannot play and lays down."
        case Passed(seat):
            return f"{who(seat)} cannot play and passes."
        case Busted(seat, total) if total is not None:  # laying down is told by LaidDown
            return f"{who(seat)} goes over with {total}."
        case LifeLost(seat, amount, left, reason, unpaid, by):
            why = (
                ""
                if reason in _TOLD
                else f" ({who(by)} {reason})"
                if by is not None
                else f" ({reason})"
            )
            paid = amount - unpaid
            if unpaid and (rules is None or rules.elimination is Elimination.CANNOT_PAY):
                has = f"only {paid}" if paid else "none"
                return (
                    f"{who(seat)} owes {noun.some(amount)}{pool}{why} but has {has}: "
                    f"{noun(unpaid)} unpaid."
                )
            if unpaid:  # out at 0: what was left is all there is to take
                last = f"the last {noun.one}" if paid == 1 else f"all {noun(paid)} left"
                return f"{who(seat)} loses {last}{pool}{why} (owing {amount})."
            return f"{who(seat)} loses {noun.some(amount)}{pool}{why}; {left} left."
        case LifeGained(seat, amount, left, reason):
            return f"{who(seat)} gains {noun.some(amount)}{pool} ({reason}); {left} left."
        case PlayerOut(seat):
            return f"{who(seat)} is out of the game."
        case SatOut(seat):
            return f"{who(seat)} is out of this hand."
        case TotalReset(total, cleared):
            return f"The total goes back to {total}" + (
                " and the pile is taken away." if cleared else "."
            )
        case BorderCrossed(seat, border, points):
            how = "laying down" if border is None else f"crossing {border}:{border + 1}"
            return f"{who(seat)} loses {GAME_POINT.a} for {how}; {points} left."
        case SixtyNine(seat, effect):
            made = rules.rule_69_total if rules is not None else 69
            return f"{who(seat)} makes {made}: {effect.replace('_', ' ')}."
        case HandEnded(hand, _):
            return f"Hand {hand} is over."
        case HandScored(_, scores):
            return "Scores: " + ", ".join(f"{who(i)} {s}" for i, s in enumerate(scores)) + "."
        case InstantHand(seat, what, _):
            return f"{who(seat)} holds {what}!"
        case GameOver(winners, reason, collects):
            if not winners:
                return f"Game over: nobody wins ({ending(reason)})."
            takes = f" and collects {_collected(collects, noun, rules, names)}" if collects else ""
            return (
                f"{' and '.join(who(w) for w in winners)} win{'s' * (len(winners) == 1)}"
                f"{takes} ({ending(reason)})."
            )
    return None


def _collected(amount: int, noun: Noun, rules: Rules | None, names: list[str] | None) -> str:
    """What a winner collects, in words: ``"12 pennies"``, ``"4 in stakes"``."""
    if rules is None:
        return str(amount)
    if not rules.stake:
        return noun(amount)  # the pot: what the others lost
    if rules.pot is not Pot.WINNER_TAKES_ALL:
        return f"{amount} in stakes"
    if names is None:
        return f"{amount} in stakes and the pot"
    stakes = rules.stake * len(names)
    return f"{stakes} in stakes and {noun(amount - stakes)}"
