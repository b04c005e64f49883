"""Player actions and chance outcomes, with text forms that parse and print symmetrically.

===============  ===========================================================
``KS``           play the King of Spades
``AS+11``        play the Ace of Spades as 11 (cards with a choice need one)
``10H-10``       play the Ten of Hearts as minus ten
``5S>3``         play the Five of Spades and name seat 3 to play next (or, a challenge
                 card, challenge seat 3; the challenged answers with a plain ``KH``)
``AS=57``        play the Ace of Spades and set the total to 57 (a ``set-any`` card)
``down``         cannot play: lay down the hand (or go out of this hand)
``pass``         cannot play under a rule that lets you pass
``draw``         draw after playing (only where drawing is a separate step)
``nodraw``       end the turn without drawing
``accept``       a challenged player does not answer: out of the game
``shuffle ...``  chance: the new stock order, top card first
``insert N``     chance: a returned up-card goes back with N cards above it
``lead N``       chance: seat N leads the new hand (where the leader is drawn)
===============  ===========================================================

>>> str(parse_action("as+11")), str(parse_action("5s>3")), str(parse_action("AS = 57"))
('AS+11', '5S>3', 'AS=57')
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum

from ninetynine.errors import NotationError
from ninetynine.rules.cards import format_card, format_cards, parse_card, parse_cards, show_card


class ActionKind(StrEnum):
    """What a player's move is: a card played, or one of the moves that play no card."""

    PLAY = "play"
    DOWN = "down"
    PASS = "pass"
    DRAW = "draw"
    NODRAW = "nodraw"
    ACCEPT = "accept"  # a challenged player does not answer the challenge


@dataclass(frozen=True, slots=True, order=True)
class Action:
    """A player's move. ``value`` is the chosen amount for a card with a choice, ``to``
    the total a ``set-any`` card sets, ``target`` the seat (0-based) a card names."""

    kind: ActionKind
    card: int | None = None
    value: int | None = None
    to: int | None = None
    target: int | None = None

    def __str__(self) -> str:
        """The action as records and the protocol write it: ``'AS+11'``, ``'5S>3'``."""
        return self._written(format_card)

    def __repr__(self) -> str:
        """The notation, which names the action exactly: ``Action(AS+11)``.

        >>> Action.play(0, 11), Action(ActionKind.DRAW)
        (Action(AS+11), Action(draw))
        """
        return f"Action({self})"

    def shown(self) -> str:
        """The action as people read it, suit symbols for the card: ``'A♠+11'``."""
        return self._written(show_card)

    def _written(self, card_text: Callable[[int], str]) -> str:
        if self.kind is not ActionKind.PLAY:
            return self.kind.value
        assert self.card is not None
        text = card_text(self.card)
        if self.value is not None:
            text += f"{self.value:+d}"
        if self.to is not None:
            text += f"={self.to}"
        if self.target is not None:
            text += f">{self.target + 1}"
        return text

    @staticmethod
    def play(
        card: int, value: int | None = None, *, to: int | None = None, target: int | None = None
    ) -> Action:
        """A card play: ``value`` for a card with a choice, ``to`` for a ``set-any`` card,
        ``target`` (0-based) for a card that names the next seat."""
        return Action(ActionKind.PLAY, card, value, to, target)


@dataclass(frozen=True, slots=True)
class Shuffle:
    """Chance: the order of the cards being shuffled into the stock, top first."""

    order: tuple[int, ...]

    def __str__(self) -> str:
        return "shuffle " + format_cards(self.order)


@dataclass(frozen=True, slots=True)
class Reinsert:
    """Chance: where a special up-card goes back into the stock (cards above it)."""

    depth: int

    def __str__(self) -> str:
        return f"insert {self.depth}"


@dataclass(frozen=True, slots=True)
class Lead:
    """Chance: the seat (0-based) drawn to lead the new hand."""

    seat: int

    def __str__(self) -> str:
        return f"lead {self.seat + 1}"


ChanceOutcome = Shuffle | Reinsert | Lead
Move = Action | ChanceOutcome  # what a record holds: a player's action or chance's outcome

ACCEPTED = (
    "a card such as KS or 10H, a card with a value such as AS+11 or 10H-10, a card "
    "naming the next seat such as 5S>3, a card setting a chosen total such as "
    "AS=57, down, pass, draw, nodraw, accept, 'shuffle <cards>', 'insert <n>' or 'lead <seat>'"
)
_SUFFIX = {
    "+": "a signed number such as +11 or -10",
    "-": "a signed number such as +11 or -10",
    "=": "the total it sets, a whole number such as =57",
    ">": "the seat it names, a number from 1 such as >3",
}


def parse_action(text: str) -> Move:
    """Parse an action or chance outcome in its text form."""
    t = text.strip()
    low = t.lower()
    if low.startswith("shuffle"):
        return Shuffle(tuple(parse_cards(t[7:])))
    if low.startswith("insert"):
        depth = t[6:].strip()
        if not depth.isdigit():
            raise NotationError(f"bad action {text!r}: 'insert' needs a card count, e.g. insert 14")
        return Reinsert(int(depth))
    if low.startswith("lead"):
        seat = t[4:].strip()
        if not seat.isdigit() or int(seat) < 1:
            raise NotationError(f"bad action {text!r}: 'lead' needs a seat from 1, e.g. lead 3")
        return Lead(int(seat) - 1)
    if low in ActionKind._value2member_map_ and low != "play":
        return Action(ActionKind(low))
    for i, ch in enumerate(t[1:], start=1):
        if ch in _SUFFIX:
            card_text, mark, number = t[:i].strip(), ch, t[i + 1 :].strip()
            break
    else:
        card_text, mark, number = t, "", ""
    try:
        card = parse_card(card_text)
    except NotationError:
        raise NotationError(f"bad action {text!r}: expected {ACCEPTED}") from None
    if not mark:
        return Action.play(card)
    if not number.isdigit() or mark == ">" and int(number) < 1:
        raise NotationError(
            f"bad action {text!r}: after {card_text.upper()}{mark} comes {_SUFFIX[mark]}"
        )
    if mark == "=":
        return Action.play(card, to=int(number))
    if mark == ">":
        return Action.play(card, target=int(number) - 1)
    return Action.play(card, int(mark + number))
