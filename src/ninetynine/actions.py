"""Player actions and chance outcomes, with text forms that parse and print symmetrically.

===============  ===========================================================
``KS``           play the King of Spades
``AS+11``        play the Ace of Spades as 11 (cards with a choice need one)
``10H-10``       play the Ten of Hearts as minus ten
``down``         cannot play: lay down the hand (or go out of this hand)
``pass``         cannot play under a rule that lets you pass
``draw``         draw after playing (only where drawing is a separate step)
``nodraw``       end the turn without drawing
``shuffle ...``  chance: the new stock order, top card first
``insert N``     chance: a returned up-card goes back with N cards above it
===============  ===========================================================

>>> str(parse_action("as+11"))
'AS+11'
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from ninetynine.cards import format_card, format_cards, parse_card, parse_cards
from ninetynine.errors import NotationError


class ActionKind(StrEnum):
    PLAY = "play"
    DOWN = "down"
    PASS = "pass"
    DRAW = "draw"
    NODRAW = "nodraw"


@dataclass(frozen=True, slots=True, order=True)
class Action:
    """A player's move. ``value`` is the chosen amount for a card with a choice."""

    kind: ActionKind
    card: int | None = None
    value: int | None = None

    def __str__(self) -> str:
        if self.kind is not ActionKind.PLAY:
            return self.kind.value
        assert self.card is not None
        text = format_card(self.card)
        return text if self.value is None else f"{text}{self.value:+d}"

    @staticmethod
    def play(card: int, value: int | None = None) -> Action:
        return Action(ActionKind.PLAY, card, value)


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


ChanceOutcome = Shuffle | Reinsert

ACCEPTED = ("a card such as KS or 10H, a card with a value such as AS+11 or 10H-10, "
            "down, pass, draw, nodraw, 'shuffle <cards>' or 'insert <n>'")


def parse_action(text: str) -> Action | ChanceOutcome:
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
    if low in ActionKind._value2member_map_ and low != "play":
        return Action(ActionKind(low))
    for i, ch in enumerate(t[1:], start=1):
        if ch in "+-":
            card_text, value_text = t[:i], t[i:]
            break
    else:
        card_text, value_text = t, ""
    try:
        card = parse_card(card_text)
    except NotationError:
        raise NotationError(f"bad action {text!r}: expected {ACCEPTED}") from None
    if value_text:
        if not value_text[1:].isdigit():
            raise NotationError(f"bad action {text!r}: the value after the card must be a "
                                "signed number such as +11 or -10")
        return Action.play(card, int(value_text))
    return Action.play(card)
