"""Typed errors, one class per cause, so callers can tell them apart.

Every message is a single line that quotes the offending input and says what is accepted.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum


class NinetyNineError(Exception):
    """Base of every error the package raises on purpose."""


class RulesError(NinetyNineError, ValueError):
    """A rules file or combination of settings is malformed or contradictory."""


class NotationError(NinetyNineError, ValueError):
    """Text (a card, an action, a position, a record) could not be parsed."""


class RecordError(NinetyNineError, ValueError):
    """A game record or position is well-formed text but describes an impossible game."""


class Refusal(StrEnum):
    """Why the rules refuse an action: one value for every cause."""

    GAME_OVER = "game_over"
    CHANCE_PENDING = "chance_pending"  # a shuffle or an up-card must be decided first
    NOT_YOUR_TURN = "not_your_turn"
    NOT_IN_HAND = "not_in_hand"
    CHOICE_REQUIRED = "choice_required"  # an Ace or a Ten needs its value
    BAD_VALUE = "bad_value"  # a value the card cannot count
    OVER_LIMIT = "over_limit"  # over the limit while a safe play exists
    BELOW_ZERO = "below_zero"  # under 0 where the rules forbid it
    OPENING_BAN = "opening_ban"  # the limit-setting card in a player's first turns
    CHAIN = "chain"  # a card the no-draw chain does not allow now
    BAD_TARGET = "bad_target"  # naming yourself, or a player out of the hand
    CHALLENGE = "challenge"  # a challenged player may only answer it or accept
    NOT_ALLOWED = "not_allowed"  # any other move the rules do not offer now
    BAD_CHANCE = "bad_chance"  # a chance outcome that does not fit what is due


class IllegalActionError(NinetyNineError):
    """An action that the rules do not allow in this state.

    ``reason`` is its cause, ``why`` the sentence that explains it (no list of moves) and
    ``legal`` the moves allowed instead; ``str()`` is one line with both, for logs.
    """

    reason = Refusal.NOT_ALLOWED

    def __init__(
        self, why: str, *, legal: Sequence[object] = (), reason: Refusal | None = None
    ) -> None:
        self.why, self.legal = why, tuple(legal)
        if reason is not None:
            self.reason = reason
        shown = ", ".join(str(a) for a in self.legal)
        super().__init__(f"{why}; legal: {shown}" if shown else why)


class NotYourTurnError(IllegalActionError):
    """A seat acted while it was another seat's (or chance's) turn."""

    reason = Refusal.NOT_YOUR_TURN


class CardNotInHandError(IllegalActionError):
    """The card played is not in the acting seat's hand."""

    reason = Refusal.NOT_IN_HAND


class OverLimitError(IllegalActionError):
    """The card would take the total over the limit while a safe play exists."""

    reason = Refusal.OVER_LIMIT


class BelowZeroError(IllegalActionError):
    """The card would take the total below 0 where the rules forbid it."""

    reason = Refusal.BELOW_ZERO


class OpeningBanError(IllegalActionError):
    """The card that sets the total to the limit, in a player's first turns."""

    reason = Refusal.OPENING_BAN


class ChoiceRequiredError(IllegalActionError):
    """The card has a choice of values (Ace 1/11, Ten +/-10) and none was given."""

    reason = Refusal.CHOICE_REQUIRED


class GameOverError(IllegalActionError):
    """The game has already ended."""

    reason = Refusal.GAME_OVER
