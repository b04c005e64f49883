"""What happened, as frozen records: every transition of the engine emits some of these.

Events carry only public information (a drawn card is not named, a shuffle gives no
order), so a seat's history can be the same list for everyone. Seats are 0-based here;
:func:`event_to_json` and :func:`narrate` number them from 1, as people do; given the
rules, :func:`narrate` counts in their words (a penny, a token from the team's pool), in
the current language or the one it is given (:mod:`ninetynine.language`); the events
themselves, and their JSON, stay in English, as records and the protocols do.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from typing import Any

from ninetynine.language import N_, Language, _, ngettext, translated, using
from ninetynine.rules.cards import format_card, show_card, show_cards
from ninetynine.rules.settings import Elimination, Pot, Rules, Teams
from ninetynine.rules.words import Noun, counter, ending, spoken


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
class Challenged(Event):
    """``seat``'s challenge card names ``target`` to be out of the game; the target may
    answer (the King Challenge)."""

    seat: int
    target: int


@dataclass(frozen=True, slots=True)
class HandsSwapped(Event):
    """``seat`` swapped its whole hand with ``target``'s (CN99's Seven, O46): now holding
    ``count`` cards, the target ``target_count``. Which cards stays with the two of them
    (each now knows the other's hand: :attr:`~ninetynine.engine.view.View.known`)."""

    seat: int
    target: int
    count: int
    target_count: int


@dataclass(frozen=True, slots=True)
class CardTaken(Event):
    """``seat`` took one card, blind, from ``target``'s hand (CN99's Jack, O47). Which card
    only the two of them know (:attr:`~ninetynine.engine.view.View.known`)."""

    seat: int
    target: int


@dataclass(frozen=True, slots=True)
class HandStripped(Event):
    """``seat`` stripped ``target``'s hand to one card (CN99's small joker, O48): chance
    picks the card it keeps, blind; its ``count`` other cards are shuffled face down into
    the stock. Which card it keeps only the target knows."""

    seat: int
    target: int
    count: int


@dataclass(frozen=True, slots=True)
class PlayerRevived(Event):
    """``seat`` brought ``target``, who was out, back into the game (CN99's big joker, O49):
    it draws ``count`` cards from the stock, and plays when play next reaches its seat."""

    seat: int
    target: int
    count: int


@dataclass(frozen=True, slots=True)
class HandFilled(Event):
    """``seat`` filled ``target``'s short hand (its own, maybe) up to a full hand from the
    stock (CN99's big joker, O49): ``target`` draws ``count`` cards."""

    seat: int
    target: int
    count: int


@dataclass(frozen=True, slots=True)
class ChallengeAnswered(Event):
    """The challenged ``seat`` answered with ``card``: ``out`` is the challenger, now out
    instead, or None when the answer cancelled the challenge."""

    seat: int
    card: int
    out: int | None


@dataclass(frozen=True, slots=True)
class Conceded(Event):
    """The challenged ``seat`` did not answer (could not, or chose not to): it is out."""

    seat: int


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
class HandShown(Event):
    """``seat``, put out, laid ``cards`` face up onto the discards (CN99, O44)."""

    seat: int
    cards: tuple[int, ...]


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


_SEAT_FIELDS = {"seat", "dealer", "starter", "loser", "target", "by", "out"}


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
_TOLD = frozenset({"over the limit", "cannot play", "challenge"})

# The words events carry (their JSON keeps them in English, as the protocols do), for the
# catalogs: narrate says them in the current language.
REASONS = (
    N_("the stock is empty"),  # DrawSkipped
    N_("no cards to reshuffle"),
    N_("did not draw"),
    N_("a penny from the pool for 69"),  # LifeGained
    N_("three sixes"),  # InstantHand, the rulebook's instant hands
    N_("three kings"),
    N_("reset to zero"),  # SixtyNine: settings.Rule69's values, in words
    N_("penny from pool"),
    N_("extra point"),
    N_("others drink"),
    N_("none"),
    N_("empty hand"),  # LifeLost: an empty hand puts its player out (CN99, O47)
)
_PAID_FOR = re.compile(r"(made exactly|crossed) (\d+)")


def _reason(reason: str) -> str:
    """An event's reason in the current language: ``"made exactly 33"``, ``"crossed 55"``,
    one of :data:`REASONS`, or (a reason no catalog knows) as it is."""
    if m := _PAID_FOR.fullmatch(reason):
        made = m[1] == "made exactly"
        text = _("made exactly {total}") if made else _("crossed {total}")
        return text.format(total=int(m[2]))
    return translated(reason)


def narrate(
    event: Event,
    names: list[str] | None = None,
    rules: Rules | None = None,
    lang: Language | None = None,
) -> str | None:
    """One line of table talk for an event, or None for bookkeeping events. With the
    rules, what a player loses is counted in their words ("a penny", "2 tokens from the
    team's pool") and a game with no dealer names only who opens. The line is in ``lang``,
    or the current language (:mod:`ninetynine.language`)."""
    with using(lang):
        return _narrate(event, names, rules)


def _narrate(event: Event, names: list[str] | None, rules: Rules | None) -> str | None:
    def who(seat: int) -> str:
        return names[seat] if names else f"P{seat + 1}"

    def from_pool(amount: str) -> str:
        if rules is not None and rules.teams is Teams.POOLED:
            return _("{amount} from the team's pool").format(amount=amount)
        return amount

    noun = counter(rules) if rules is not None else Noun("life", "lives")
    match event:
        case HandStarted(hand, dealer, starter):
            if rules is not None and not rules.dealer:
                return _("Hand {hand}: {who} opens.").format(hand=hand, who=who(starter))
            return _("Hand {hand}: {dealer} deals, {starter} starts.").format(
                hand=hand, dealer=who(dealer), starter=who(starter)
            )
        case UpCardTurned(card, total):
            return _("Up-card {card}: the count starts at {total}.").format(
                card=show_card(card), total=total
            )
        case UpCardReturned(card):
            return _("Up-card {card} is special: back into the deck.").format(card=show_card(card))
        case CardPlayed(seat, card, value, _, _):
            if value is not None:
                return _("{who} plays {card} as {value}.").format(
                    who=who(seat), card=show_card(card), value=f"{value:+d}"
                )
            return _("{who} plays {card}.").format(who=who(seat), card=show_card(card))
        case TotalCalled(seat, total, text):
            return _('{who}: "{call}"').format(who=who(seat), call=spoken(text, total))
        case Reversed(_, direction):
            if names is not None and len(names) == 2:
                return None  # with two at the table there is no direction to tell
            if direction == "cw":
                return _("Play now goes clockwise.")
            return _("Play now goes counter-clockwise.")
        case Skipped(seat):
            return _("{who} is skipped.").format(who=who(seat))
        case PlaysAgain(seat):
            return _("{who} plays again.").format(who=who(seat))
        case MayPlayAgain(seat):
            return _("{who} may play again, or decline.").format(who=who(seat))
        case Declined(seat):
            return _("{who} declines the extra turn.").format(who=who(seat))
        case Named(seat, target):
            return _("{who} names {target} to play next.").format(who=who(seat), target=who(target))
        case Challenged(seat, target):
            return _("{who} challenges {target}: out, unless they answer.").format(
                who=who(seat), target=who(target)
            )
        case HandsSwapped(seat, target, count, target_count):
            return _(
                "{who} swaps hands with {target}: {who} now holds {count}, {target} {other}."
            ).format(who=who(seat), target=who(target), count=count, other=target_count)
        case CardTaken(seat, target):
            return _("{who} takes a card from {target}'s hand, unseen.").format(
                who=who(seat), target=who(target)
            )
        case HandStripped(seat, target, count):
            return ngettext(
                "{who} strips {target} to one card, unseen: {count} card goes into the stock.",
                "{who} strips {target} to one card, unseen: {count} cards go into the stock.",
                count,
            ).format(who=who(seat), target=who(target), count=count)
        case PlayerRevived(seat, target, count):
            return ngettext(
                "{who} brings {target} back into the game with {count} card.",
                "{who} brings {target} back into the game with {count} cards.",
                count,
            ).format(who=who(seat), target=who(target), count=count)
        case HandFilled(seat, target, count):
            return ngettext(
                "{who} fills {target}'s hand up: {count} card drawn.",
                "{who} fills {target}'s hand up: {count} cards drawn.",
                count,
            ).format(who=who(seat), target=who(target), count=count)
        case ChallengeAnswered(seat, card, out) if out is not None:
            return _("{who} answers with {card}: {out} is out instead.").format(
                who=who(seat), card=show_card(card), out=who(out)
            )
        case ChallengeAnswered(seat, card, _):
            return _("{who} answers with {card}: the challenge is off.").format(
                who=who(seat), card=show_card(card)
            )
        case Conceded(seat):
            return _("{who} does not answer the challenge.").format(who=who(seat))
        case ChainFaced(seat, count):
            return ngettext(
                "{who} must play a card without drawing, or answer with another no-draw card.",
                "{who} must play {count} cards without drawing, or answer with another "
                "no-draw card.",
                count,
            ).format(who=who(seat), count=count)
        case MustPlay(seat, count):
            return ngettext(
                "{who} plays {count} more card without drawing.",
                "{who} plays {count} more cards without drawing.",
                count,
            ).format(who=who(seat), count=count)
        case LeaderDrawn(seat):
            return _("{who} is drawn to lead the next hand.").format(who=who(seat))
        case DrawSkipped(seat, reason):
            return _("{who} cannot draw ({reason}).").format(who=who(seat), reason=_reason(reason))
        case StockReshuffled(cards, kept_top):
            if kept_top:
                text = ngettext(
                    "The stock ran out: {count} played card is shuffled into a new stock, "
                    "the top card stays.",
                    "The stock ran out: {count} played cards are shuffled into a new stock, "
                    "the top card stays.",
                    cards,
                )
            else:
                text = ngettext(
                    "The stock ran out: {count} played card is shuffled into a new stock.",
                    "The stock ran out: {count} played cards are shuffled into a new stock.",
                    cards,
                )
            return text.format(count=cards)
        case LaidDown(seat):
            return _("{who} cannot play and lays down.").format(who=who(seat))
        case Passed(seat):
            return _("{who} cannot play and passes.").format(who=who(seat))
        case Busted(seat, total) if total is not None:  # laying down is told by LaidDown
            return _("{who} goes over with {total}.").format(who=who(seat), total=total)
        case LifeLost(seat, amount, left, reason, unpaid, by):
            why = (
                ""
                if reason in _TOLD
                else " " + _("({who} {reason})").format(who=who(by), reason=_reason(reason))
                if by is not None
                else " " + _("({reason})").format(reason=_reason(reason))
            )
            paid = amount - unpaid
            if unpaid and (rules is None or rules.elimination is Elimination.CANNOT_PAY):
                has = _("only {paid}").format(paid=paid) if paid else _("none")
                return _("{who} owes {amount}{why} but has {has}: {unpaid} unpaid.").format(
                    who=who(seat),
                    amount=from_pool(noun.some(amount)),
                    why=why,
                    has=has,
                    unpaid=noun(unpaid),
                )
            if unpaid:  # out at 0: what was left is all there is to take
                last = noun.last if paid == 1 else _("all {count} left").format(count=noun(paid))
                return _("{who} loses {last}{why} (owing {amount}).").format(
                    who=who(seat), last=from_pool(last), why=why, amount=amount
                )
            return _("{who} loses {amount}{why}; {left} left.").format(
                who=who(seat), amount=from_pool(noun.some(amount)), why=why, left=left
            )
        case LifeGained(seat, amount, left, reason):
            return _("{who} gains {amount} ({reason}); {left} left.").format(
                who=who(seat),
                amount=from_pool(noun.some(amount)),
                reason=_reason(reason),
                left=left,
            )
        case PlayerOut(seat):
            return _("{who} is out of the game.").format(who=who(seat))
        case HandShown(seat, cards):
            return _("{who} lays their cards face up on the discards: {cards}.").format(
                who=who(seat), cards=show_cards(cards)
            )
        case SatOut(seat):
            return _("{who} is out of this hand.").format(who=who(seat))
        case TotalReset(total, cleared):
            if cleared:
                return _("The total goes back to {total} and the pile is taken away.").format(
                    total=total
                )
            return _("The total goes back to {total}.").format(total=total)
        case BorderCrossed(seat, border, points):
            if border is None:
                return _("{who} loses a game point for laying down; {points} left.").format(
                    who=who(seat), points=points
                )
            return _(
                "{who} loses a game point for crossing {border}:{next}; {points} left."
            ).format(who=who(seat), border=border, next=border + 1, points=points)
        case SixtyNine(seat, effect):
            made = rules.rule_69_total if rules is not None else 69
            return _("{who} makes {total}: {effect}.").format(
                who=who(seat), total=made, effect=_reason(effect.replace("_", " "))
            )
        case HandEnded(hand, _):
            return _("Hand {hand} is over.").format(hand=hand)
        case HandScored(_, scores):
            return _("Scores: {scores}.").format(
                scores=", ".join(f"{who(i)} {s}" for i, s in enumerate(scores))
            )
        case InstantHand(seat, what, _):
            return _("{who} holds {what}!").format(who=who(seat), what=_reason(what))
        case GameOver(winners, reason, collects):
            if not winners:
                return _("Game over: nobody wins ({why}).").format(why=ending(reason))
            together = who(winners[0])
            for w in winners[1:]:
                together = _("{first} and {second}").format(first=together, second=who(w))
            if collects:
                return ngettext(
                    "{winners} wins and collects {what} ({why}).",
                    "{winners} win and collect {what} ({why}).",
                    len(winners),
                ).format(
                    winners=together,
                    what=_collected(collects, noun, rules, names),
                    why=ending(reason),
                )
            return ngettext(
                "{winners} wins ({why}).", "{winners} win ({why}).", len(winners)
            ).format(winners=together, why=ending(reason))
    return None


def _collected(amount: int, noun: Noun, rules: Rules | None, names: list[str] | None) -> str:
    """What a winner collects, in words: ``"12 pennies"``, ``"4 in stakes"``."""
    if rules is None:
        return str(amount)
    if not rules.stake:
        return noun(amount)  # the pot: what the others lost
    if rules.pot is not Pot.WINNER_TAKES_ALL:
        return _("{amount} in stakes").format(amount=amount)
    if names is None:
        return _("{amount} in stakes and the pot").format(amount=amount)
    stakes = rules.stake * len(names)
    return _("{stakes} in stakes and {pot}").format(stakes=stakes, pot=noun(amount - stakes))
