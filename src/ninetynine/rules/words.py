"""Counting in the words people use: "1 player", "3 players", "a penny", "2 pennies".

What a player's lives are called comes from the rules (``counter``, or game points where
the rules score them), so the rules text, the log, the table and the browser say the same.

>>> plural(1, "player"), plural(3, "player"), listed(["JS", "QH", "KD"])
('1 player', '3 players', 'JS, QH and KD')
>>> from ninetynine import load_rules
>>> pennies = counter(load_rules("P"))
>>> pennies(1), pennies(5), pennies.some(1), pennies.some(2)
('1 penny', '5 pennies', 'a penny', '2 pennies')
"""

from __future__ import annotations

from dataclasses import dataclass

from ninetynine.rules.settings import Rules, Scoring


def plural(n: int, one: str, many: str | None = None) -> str:
    """``n`` with the noun in the form the number needs."""
    return f"{n} {one if n == 1 else many or one + 's'}"


def listed(items: list[str], conj: str = "and") -> str:
    """``"JS, QH and KD"``: items as a sentence lists them."""
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} {conj} {items[-1]}"


@dataclass(frozen=True, slots=True)
class Noun:
    """A countable thing, singular and plural: ``Noun("penny", "pennies")``."""

    one: str
    many: str

    def __call__(self, n: int) -> str:
        return plural(n, self.one, self.many)

    @property
    def a(self) -> str:
        """One of them, with its article: ``"a penny"``."""
        return f"{'an' if self.one[0] in 'aeiou' else 'a'} {self.one}"

    def some(self, n: int) -> str:
        """``"a penny"`` for one, else ``"2 pennies"``."""
        return self.a if n == 1 else self(n)


GAME_POINT = Noun("game point", "game points")


def counter(rules: Rules) -> Noun:
    """What a player loses: the rules' counter (life, penny, token...), or a game point."""
    if rules.scoring is Scoring.GAME_POINTS:
        return GAME_POINT
    return Noun(rules.counter.value, rules.counter.plural)


# Why a game ended, as the end of "Ann wins (...)"; keyed by ``statebase.EndReason``'s
# values (that module imports this one through the events).
ENDINGS = {
    "last_survivor": "the last player left",
    "last_team": "the last team left",
    "no_survivor": "the last players went out together",
    "first_out": "a player went out, which ends the game",
    "points": "the game-point target was reached",
    "three_sixes": "three Sixes dealt: everyone loses",
    "three_kings": "three Kings dealt",
    "instant_win": "an instant hand",
    "instant_loss": "an instant hand: everyone loses",
    "given": "the position was written as over",
}


def ending(reason: str) -> str:
    """Why a game ended, in words: ``ending("last_survivor") == "the last player left"``."""
    return ENDINGS[reason]
