"""Card effects: what a rank does to the running total and to the turn order.

This is the one place where effects are described and interpreted. In a rules file
each rank maps to a short spec:

====================  =========================================================
``"+7"``, ``"-10"``   add this amount (``"hold"`` is ``"+0"``; ``"pass"`` is the same)
``"+1/+11"``          add one of these amounts, at the player's choice
``"set"``             set the total to the limit (99)
``"set 0"``           set the total to this number (Taiwanese Ace of Spades)
``"set-any"``         set the total to any number from 0 to the limit, the player's choice
``"double"``          double the total
``"halve-or-double"`` halve the total if it is even and over 49, else double it
``"halve-even"``      halve the total if it is even, double it if it is odd
``... reverse``       also reverse the direction of play (``"hold reverse"``)
``... skip``          also skip the next player (``"+10 skip"``)
``... name``          the player names who plays next (``"hold name"``; not themself,
                      unless the rules' ``name_self``)
``... no-draw``       the next player plays without drawing, or answers with another
                      such card; facing a chain of n, they play n cards (Icelandic Queen)
``... challenge``     the player names another player to eliminate, who may answer with
                      a card of this effect (the challenger is out instead) or with a
                      rank of the rules' ``challenge_cancel`` (nobody is): the King Challenge
``... swap``          the player names another player in the hand, and the two exchange
                      their whole hands (CN99's Seven, FAMILIES §12.1, O46)
``... take``          the player names another player in the hand and takes one card of
                      theirs, blind: chance picks it (CN99's Jack, O47)
``... strip``         the player names another player in the hand holding a card, who
                      keeps one of their cards, picked blind by chance; the others are
                      shuffled into the stock (CN99's small joker, O48)
``... revive``        the player names a player out of the hand, who comes back with a
                      full hand from the stock, or a player in the hand (themself
                      included) holding fewer cards than a full hand, whose hand is filled
                      up; with nobody to name, the card is played alone (CN99's big
                      joker, O49)
====================  =========================================================

>>> e = parse_effect("+1/+11")
>>> e.values, format_effect(e)
((1, 11), '+1/+11')
>>> resolve(parse_effect("halve-or-double"), 62, 0, 99)
31
>>> resolve(parse_effect("set 0"), 57, 0, 99), format_effect(parse_effect("pass"))
(0, 'hold')
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from ninetynine.errors import RulesError
from ninetynine.language import _


class Kind(StrEnum):
    """How an effect changes the total; the modifiers (reverse, skip...) are separate flags."""

    ADD = "add"
    SET = "set"  # to ``Effect.to``, or to the limit
    SET_ANY = "set-any"  # to a total the player chooses, 0 to the limit
    DOUBLE = "double"
    HALVE_OR_DOUBLE = "halve-or-double"
    HALVE_EVEN = "halve-even"


class Named(StrEnum):
    """What the seat a play names is for: the question a front end asks the player."""

    NEXT = "next"  # who plays next
    CHALLENGE = "challenge"  # whom it challenges
    SWAP = "swap"  # whose hand it takes for the player's own
    TAKE = "take"  # whom it takes a card from
    STRIP = "strip"  # whose hand it strips to one card
    REVIVE = "revive"  # whom it brings back, or whose hand it fills up


MODIFIERS = ("reverse", "skip", "name", "no-draw", "challenge", "swap", "take", "strip", "revive")


@dataclass(frozen=True, slots=True, kw_only=True)
class Effect:
    """What one rank (or one card) does. ``values`` holds the choices for an ``add``
    effect; ``to`` is a ``set`` effect's number (None: the limit)."""

    kind: Kind = Kind.ADD
    values: tuple[int, ...] = (0,)  # ascending, so choice indexes sort like the actions
    reverse: bool = False
    skip: bool = False
    to: int | None = None
    name: bool = False  # the player names the next player
    no_draw: bool = False  # the next player plays without drawing (a chain)
    challenge: bool = False  # the player names another to eliminate (KC's King)
    swap: bool = False  # the player swaps hands with another it names (CN99's Seven)
    take: bool = False  # the player takes a card, blind, from another it names (CN99's Jack)
    strip: bool = False  # the player strips another it names to one card (CN99's small joker)
    revive: bool = False  # the player brings back or refills one it names (CN99's big joker)

    def __post_init__(self) -> None:
        object.__setattr__(self, "values", tuple(sorted(self.values)))

    @property
    def has_choice(self) -> bool:
        """True when the player picks one of several ``values`` (an Ace's +1/+11)."""
        return len(self.values) > 1

    @property
    def has_param(self) -> bool:
        """The action carries a number beyond the card: a named seat or a chosen total."""
        return self.names_seat or self.kind is Kind.SET_ANY

    @property
    def names_seat(self) -> bool:
        """The play names a seat: who plays next, whom it challenges, swaps hands with,
        takes a card from, strips or revives."""
        return self.name or self.challenge or self.moves_cards

    @property
    def named(self) -> Named | None:
        """What the seat a play of this effect names is for; None where it names none."""
        for aim, on in (
            (Named.SWAP, self.swap),
            (Named.TAKE, self.take),
            (Named.STRIP, self.strip),
            (Named.REVIVE, self.revive),
            (Named.CHALLENGE, self.challenge),
            (Named.NEXT, self.name),
        ):
            if on:
                return aim
        return None

    @property
    def moves_cards(self) -> bool:
        """The play moves cards between hands or between a hand and the stock (a swap, a
        take, a strip or a revival)."""
        return self.swap or self.take or self.strip or self.revive

    @property
    def has_param_value(self) -> bool:
        """A choice the player makes about the total: several values, or ``set-any``."""
        return self.has_choice or self.kind is Kind.SET_ANY

    @property
    def is_hold(self) -> bool:
        """Leaves the total as it is (a Nine in most games, a reverse card)."""
        return self.kind is Kind.ADD and self.values == (0,)


ACCEPTED = (
    '"+N" or "-N" (add), "+1/+11" (a choice), "hold" (or "pass"), "set", "set N", '
    '"set-any", "double", "halve-or-double", "halve-even", each optionally followed by '
    '"reverse", "skip", "name", "no-draw", "challenge", "swap", "take", "strip" and/or '
    '"revive"'
)


def parse_effect(spec: str) -> Effect:
    """Parse an effect spec such as ``"+4 reverse"``; raises :class:`RulesError`."""
    words = spec.lower().split()
    if not words:
        raise RulesError(f"empty card effect {spec!r}: expected {ACCEPTED}")
    head, mods = words[0], words[1:]
    to = None
    if head == "set" and mods and mods[0].isdigit():
        to, mods = int(mods[0]), mods[1:]
    bad = [m for m in mods if m not in MODIFIERS] or (len(set(mods)) < len(mods))
    if bad:
        raise RulesError(f"bad card effect {spec!r}: expected {ACCEPTED}")
    flags = Effect(
        reverse="reverse" in mods,
        skip="skip" in mods,
        name="name" in mods,
        no_draw="no-draw" in mods,
        challenge="challenge" in mods,
        swap="swap" in mods,
        take="take" in mods,
        strip="strip" in mods,
        revive="revive" in mods,
    )
    if head in ("hold", "pass"):
        effect = flags
    elif head in ("set", "set-any", "double", "halve-or-double", "halve-even"):
        effect = dataclasses.replace(flags, kind=Kind(head), to=to)
    else:
        try:
            values = tuple(_parse_amount(v) for v in head.split("/"))
        except ValueError:
            raise RulesError(f"bad card effect {spec!r}: expected {ACCEPTED}") from None
        if len(set(values)) != len(values):
            raise RulesError(f"bad card effect {spec!r}: the choices repeat a value")
        effect = dataclasses.replace(flags, values=values)
    if effect.name and (effect.reverse or effect.skip):
        raise RulesError(
            f"bad card effect {spec!r}: a card that names the next player "
            "cannot also reverse or skip (who would play next?)"
        )
    if effect.name and (effect.has_choice or effect.kind is Kind.SET_ANY):
        raise RulesError(
            f"bad card effect {spec!r}: a card that names the next player "
            "cannot also have a choice of value"
        )
    if effect.challenge and (
        effect.name or effect.reverse or effect.skip or effect.no_draw or effect.has_param_value
    ):
        raise RulesError(
            f"bad card effect {spec!r}: a challenge card names whom it challenges, so it "
            "cannot also name the next player, reverse, skip, start a chain or have a "
            "choice of value"
        )
    if effect.moves_cards and (
        effect.swap + effect.take + effect.strip + effect.revive + effect.name + effect.challenge
        > 1
        or effect.reverse
        or effect.skip
        or effect.no_draw
        or effect.has_param_value
    ):
        raise RulesError(
            f"bad card effect {spec!r}: a card that swaps hands, takes a card, strips or "
            "revives names the player it does it with, so it cannot also name the next "
            "player, challenge, do two of these, reverse, skip, start a chain or have a "
            "choice of value"
        )
    return effect


def _parse_amount(text: str) -> int:
    if not text or text[0] not in "+-" or not text[1:].isdigit():
        raise ValueError(text)
    return int(text)


def display_order(values: tuple[int, ...]) -> list[int]:
    """Values in the order people write them: additions first (``+10/-10``, ``+1/+11``)."""
    return sorted(values, key=lambda v: (v < 0, abs(v)))


def format_effect(effect: Effect) -> str:
    """The spec text of an effect; ``parse_effect(format_effect(e)) == e``."""
    if effect.kind is Kind.SET and effect.to is not None:
        head = f"set {effect.to}"
    elif effect.kind is not Kind.ADD:
        head = effect.kind.value
    elif effect.is_hold:
        head = "hold"
    else:
        head = "/".join(f"{v:+d}" for v in display_order(effect.values))
    return " ".join(
        [head]
        + ["reverse"] * effect.reverse
        + ["skip"] * effect.skip
        + ["name"] * effect.name
        + ["no-draw"] * effect.no_draw
        + ["challenge"] * effect.challenge
        + ["swap"] * effect.swap
        + ["take"] * effect.take
        + ["strip"] * effect.strip
        + ["revive"] * effect.revive
    )


def resolve(effect: Effect, total: int, choice: int, limit: int, halve_over: int = 49) -> int:
    """The new total after playing a card with this effect (before any floor at 0);
    ``choice`` indexes the values of an ``add`` effect, or is the total chosen for
    ``set-any``."""
    kind = effect.kind
    if kind is Kind.ADD:
        return total + effect.values[choice]
    if kind is Kind.SET:
        return limit if effect.to is None else effect.to
    if kind is Kind.SET_ANY:
        return choice
    if kind is Kind.DOUBLE:
        return total * 2
    if kind is Kind.HALVE_OR_DOUBLE:
        return total // 2 if total % 2 == 0 and total > halve_over else total * 2
    return total // 2 if total % 2 == 0 else total * 2


def describe_effect(effect: Effect, limit: int, halve_over: int = 49) -> str:
    """A short phrase for an effect in the current language, e.g. ``'+1 or +11'``,
    ``'set to 99'``."""
    if effect.kind is Kind.SET:
        text = _("set to {total}").format(total=limit if effect.to is None else effect.to)
    elif effect.kind is Kind.SET_ANY:
        text = _("set to any total from 0 to {limit}, your choice").format(limit=limit)
    elif effect.kind is Kind.DOUBLE:
        text = _("double")
    elif effect.kind is Kind.HALVE_OR_DOUBLE:
        text = _("halve if even and over {n}, else double").format(n=halve_over)
    elif effect.kind is Kind.HALVE_EVEN:
        text = _("halve if even, double if odd")
    elif effect.is_hold:
        text = _("hold (+0)")
    else:
        text = _or(f"{v:+d}" for v in display_order(effect.values))
    if effect.reverse:
        text += _(", reverse direction")
    if effect.skip:
        text += _(", skip the next player")
    if effect.name:
        text += _(", name who plays next")
    if effect.no_draw:
        text += _(
            "; the next player plays without drawing, or answers with another such "
            "card (facing n in a row, they play n cards)"
        )
    if effect.challenge:
        text += _(
            "; name another player to eliminate: they are out unless they answer with "
            "the same card (then you are out) or a card that cancels the challenge"
        )
    if effect.swap:
        text += _("; name another player still in the hand: you exchange your whole hands")
    if effect.take:
        text += _("; name another player still in the hand: you take one of their cards, unseen")
    if effect.strip:
        text += _(
            "; name another player still in the hand: they keep one of their cards, picked "
            "unseen, and the others are shuffled into the stock"
        )
    if effect.revive:
        text += _(
            "; name a player who is out (they come back with a full hand) or one in the "
            "hand, yourself included, whose hand is short (it is filled up)"
        )
    return text


def _or(items: Iterable[str]) -> str:
    """``"+1 or +11"``: alternatives joined with the current language's "or"."""
    return _(" or ").join(items)


def effect_label(effect: Effect, limit: int) -> str:
    """A few words for a card's corner in the current language: ``"±10"``, ``"reverses"``,
    ``"sets 99"``."""
    kind = effect.kind
    if kind is Kind.SET:
        # TRANSLATORS: a card's corner label, a few words (as the ones below)
        head = _("sets {total}").format(total=limit if effect.to is None else effect.to)
    elif kind is Kind.SET_ANY:
        head = _("sets any total")
    elif kind is Kind.DOUBLE:
        head = _("doubles")
    elif kind in (Kind.HALVE_OR_DOUBLE, Kind.HALVE_EVEN):
        head = _("halves or doubles")
    elif effect.is_hold:
        quiet = (
            effect.reverse or effect.name or effect.no_draw or effect.challenge
        ) or effect.moves_cards
        head = "" if quiet else _("holds")
    elif sorted(effect.values) == [-10, 10]:
        head = "±10"
    else:
        head = _or(f"{v:+d}" for v in display_order(effect.values))
    words = [head] if head else []
    words += [_("reverses")] * effect.reverse + [_("skips")] * effect.skip
    words += [_("names next")] * effect.name + [_("no draw")] * effect.no_draw
    words += [_("challenges")] * effect.challenge
    words += [_("swaps hands")] * effect.swap + [_("takes a card")] * effect.take
    words += [_("strips a hand")] * effect.strip + [_("revives or refills")] * effect.revive
    return _(", ").join(words)
