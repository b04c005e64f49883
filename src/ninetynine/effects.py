"""Card effects: what a rank does to the running total and to the turn order.

This is the one place where effects are described and interpreted. In a rules file
each rank maps to a short spec:

====================  =========================================================
``"+7"``, ``"-10"``   add this amount (``"hold"`` is ``"+0"``)
``"+1/+11"``          add one of these amounts, at the player's choice
``"set"``             set the total to the limit (99)
``"halve-or-double"`` halve the total if it is even and over 49, else double it
``"halve-even"``      halve the total if it is even, double it if it is odd
``... reverse``       also reverse the direction of play (``"hold reverse"``)
``... skip``          also skip the next player (``"+10 skip"``)
====================  =========================================================

>>> e = parse_effect("+1/+11")
>>> e.values, format_effect(e)
((1, 11), '+1/+11')
>>> resolve(parse_effect("halve-or-double"), 62, 0, 99)
31
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from ninetynine.errors import RulesError


class Kind(StrEnum):
    ADD = "add"
    SET = "set"
    HALVE_OR_DOUBLE = "halve-or-double"
    HALVE_EVEN = "halve-even"


@dataclass(frozen=True, slots=True, kw_only=True)
class Effect:
    """What one rank does. ``values`` holds the choices for an ``add`` effect."""

    kind: Kind = Kind.ADD
    values: tuple[int, ...] = (0,)  # ascending, so choice indexes sort like the actions
    reverse: bool = False
    skip: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "values", tuple(sorted(self.values)))

    @property
    def has_choice(self) -> bool:
        return len(self.values) > 1

    @property
    def is_hold(self) -> bool:
        """Leaves the total as it is (a Nine in most games, a reverse card)."""
        return self.kind is Kind.ADD and self.values == (0,)


ACCEPTED = (
    '"+N" or "-N" (add), "+1/+11" (a choice), "hold", "set", "halve-or-double", '
    '"halve-even", each optionally followed by "reverse" and/or "skip"'
)


def parse_effect(spec: str) -> Effect:
    """Parse an effect spec such as ``"+4 reverse"``; raises :class:`RulesError`."""
    words = spec.lower().split()
    if not words:
        raise RulesError(f"empty card effect {spec!r}: expected {ACCEPTED}")
    head, mods = words[0], words[1:]
    bad = [m for m in mods if m not in ("reverse", "skip")] or (len(set(mods)) < len(mods))
    if bad:
        raise RulesError(f"bad card effect {spec!r}: expected {ACCEPTED}")
    reverse, skip = "reverse" in mods, "skip" in mods
    if head == "hold":
        return Effect(values=(0,), reverse=reverse, skip=skip)
    if head in ("set", "halve-or-double", "halve-even"):
        return Effect(kind=Kind(head), reverse=reverse, skip=skip)
    try:
        values = tuple(_parse_amount(v) for v in head.split("/"))
    except ValueError:
        raise RulesError(f"bad card effect {spec!r}: expected {ACCEPTED}") from None
    if len(set(values)) != len(values):
        raise RulesError(f"bad card effect {spec!r}: the choices repeat a value")
    return Effect(values=values, reverse=reverse, skip=skip)


def _parse_amount(text: str) -> int:
    if not text or text[0] not in "+-" or not text[1:].isdigit():
        raise ValueError(text)
    return int(text)


def display_order(values: tuple[int, ...]) -> list[int]:
    """Values in the order people write them: additions first (``+10/-10``, ``+1/+11``)."""
    return sorted(values, key=lambda v: (v < 0, abs(v)))


def format_effect(effect: Effect) -> str:
    """The spec text of an effect; ``parse_effect(format_effect(e)) == e``."""
    if effect.kind is not Kind.ADD:
        head = effect.kind.value
    elif effect.is_hold:
        head = "hold"
    else:
        head = "/".join(f"{v:+d}" for v in display_order(effect.values))
    return " ".join([head] + ["reverse"] * effect.reverse + ["skip"] * effect.skip)


def resolve(effect: Effect, total: int, choice: int, limit: int) -> int:
    """The new total after playing a card with this effect (before any floor at 0)."""
    kind = effect.kind
    if kind is Kind.ADD:
        return total + effect.values[choice]
    if kind is Kind.SET:
        return limit
    if kind is Kind.HALVE_OR_DOUBLE:
        return total // 2 if total % 2 == 0 and total > 49 else total * 2
    return total // 2 if total % 2 == 0 else total * 2


def describe_effect(effect: Effect, limit: int) -> str:
    """A short English phrase for an effect, e.g. ``'+1 or +11'``, ``'set to 99'``."""
    if effect.kind is Kind.SET:
        text = f"set to {limit}"
    elif effect.kind is Kind.HALVE_OR_DOUBLE:
        text = "halve if even and over 49, else double"
    elif effect.kind is Kind.HALVE_EVEN:
        text = "halve if even, double if odd"
    elif effect.is_hold:
        text = "hold (+0)"
    else:
        text = " or ".join(f"{v:+d}" for v in display_order(effect.values))
    if effect.reverse:
        text += ", reverse direction"
    if effect.skip:
        text += ", skip the next player"
    return text
