"""Counting in the words people use: "1 player", "3 players", "a penny", "2 pennies".

What a player's lives are called comes from the rules (``counter``, or game points where
the rules score them), so the rules text, the log, the table and the browser say the same.
Counted things, endings and the rule sets' calls are said in the current language
(:mod:`ninetynine.language`); :func:`plural` stays English, for the rules description.

>>> plural(1, "player"), plural(3, "player"), listed(["JS", "QH", "KD"])
('1 player', '3 players', 'JS, QH and KD')
>>> from ninetynine import load_rules
>>> pennies = counter(load_rules("P"))
>>> pennies(1), pennies(5), pennies.some(1), pennies.some(2)
('1 penny', '5 pennies', 'a penny', '2 pennies')
"""

from __future__ import annotations

from dataclasses import dataclass

from ninetynine.language import N_, Nn_, _, ntranslated, translated
from ninetynine.rules.settings import Rules, Scoring


def plural(n: int, one: str, many: str | None = None) -> str:
    """``n`` with the noun in the form the number needs."""
    return f"{n} {one if n == 1 else many or one + 's'}"


def listed(items: list[str], conj: str = "and") -> str:
    """``"JS, QH and KD"``: items as a sentence lists them ("and" and "or" in the current
    language)."""
    if len(items) == 1:
        return items[0]
    first, last = ", ".join(items[:-1]), items[-1]
    if conj == "and":
        return _("{first} and {last}").format(first=first, last=last)
    if conj == "or":
        return _("{first} or {last}").format(first=first, last=last)
    return f"{first} {conj} {last}"


@dataclass(frozen=True, slots=True)
class Noun:
    """A countable thing, singular and plural: ``Noun("penny", "pennies")``. Counted, it
    is said in the current language (its messages are in :data:`COUNTED`); ``one`` and
    ``many`` are its English words."""

    one: str
    many: str

    def __call__(self, n: int) -> str:
        return ntranslated(f"{{n}} {self.one}", f"{{n}} {self.many}", n).format(n=n)

    @property
    def a(self) -> str:
        """One of them, with its article: ``"a penny"``."""
        return translated(f"{'an' if self.one[0] in 'aeiou' else 'a'} {self.one}")

    @property
    def last(self) -> str:
        """The last one a player has: ``"the last penny"``."""
        return translated(f"the last {self.one}")

    def some(self, n: int) -> str:
        """``"a penny"`` for one, else ``"2 pennies"``."""
        return self.a if n == 1 else self(n)

    @property
    def word(self) -> str:
        """The singular alone, in the current language: ``"penny"`` (:data:`WORDS`)."""
        return translated(self.one)

    @property
    def words(self) -> str:
        """The plural alone, in the current language: ``"pennies"`` (:data:`WORDS`)."""
        return translated(self.many)


GAME_POINT = Noun("game point", "game points")

# What each counter (settings.CounterName) and a game point are called, for the catalogs:
# the messages that Noun's methods make from its words.
COUNTED = (
    (Nn_("{n} life", "{n} lives"), N_("a life"), N_("the last life")),
    (Nn_("{n} penny", "{n} pennies"), N_("a penny"), N_("the last penny")),
    (Nn_("{n} nickel", "{n} nickels"), N_("a nickel"), N_("the last nickel")),
    (Nn_("{n} coin", "{n} coins"), N_("a coin"), N_("the last coin")),
    (Nn_("{n} chip", "{n} chips"), N_("a chip"), N_("the last chip")),
    (Nn_("{n} token", "{n} tokens"), N_("a token"), N_("the last token")),
    (Nn_("{n} corner", "{n} corners"), N_("a corner"), N_("the last corner")),
    (Nn_("{n} game point", "{n} game points"), N_("a game point"), N_("the last game point")),
)


# Each counter's own words, uncounted ("Lost pennies go to the centre"): Noun.word, .words
WORDS = (
    (N_("life"), N_("lives")),
    (N_("penny"), N_("pennies")),
    (N_("nickel"), N_("nickels")),
    (N_("coin"), N_("coins")),
    (N_("chip"), N_("chips")),
    (N_("token"), N_("tokens")),
    (N_("corner"), N_("corners")),
    (N_("game point"), N_("game points")),
)


def counter(rules: Rules) -> Noun:
    """What a player loses: the rules' counter (life, penny, token...), or a game point."""
    if rules.scoring is Scoring.GAME_POINTS:
        return GAME_POINT
    return Noun(rules.counter.value, rules.counter.plural)


# Why a game ended, as the end of "Ann wins (...)"; keyed by ``statebase.EndReason``'s
# values (that module imports this one through the events).
ENDINGS = {
    "last_survivor": N_("the last player left"),
    "last_team": N_("the last team left"),
    "no_survivor": N_("the last players went out together"),
    "first_out": N_("a player went out, which ends the game"),
    "points": N_("the game-point target was reached"),
    "three_sixes": N_("three Sixes dealt: everyone loses"),
    "three_kings": N_("three Kings dealt"),
    "instant_win": N_("an instant hand"),
    "instant_loss": N_("an instant hand: everyone loses"),
    "given": N_("the position was written as over"),
}


def ending(reason: str) -> str:
    """Why a game ended, in words: ``ending("last_survivor") == "the last player left"``."""
    return translated(ENDINGS[reason])


# The calls the rule sets make (settings.Rules.calls and bust_call): said in the current
# language. A house rule's own call is said as it is written.
CALLS = (
    N_("{total} — bust"),
    N_("back on you {total}"),
    N_("pass to you {total}"),
    N_("nine is mine"),
    N_("pass me by"),
)


def said(template: str) -> str:
    """A call's template (``"pass to you {total}"``) in the current language; one of
    :data:`CALLS` is translated, any other left as it is."""
    return translated(template) if template in CALLS else template


def spoken(text: str, total: int) -> str:
    """A call as it is said in the current language: ``text`` is the call made at ``total``
    (``"pass to you 99"``); one of :data:`CALLS` is translated, any other left as it is."""
    for template in CALLS:
        if template.format(total=total) == text:
            return translated(template).format(total=total)
    return text
