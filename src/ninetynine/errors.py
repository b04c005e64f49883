"""Typed errors, one class per cause, so callers can tell them apart.

Every message is a single line that quotes the offending input and says what is accepted.
"""


class NinetyNineError(Exception):
    """Base of every error the package raises on purpose."""


class RulesError(NinetyNineError, ValueError):
    """A rules file or combination of settings is malformed or contradictory."""


class NotationError(NinetyNineError, ValueError):
    """Text (a card, an action, a position, a record) could not be parsed."""


class RecordError(NinetyNineError, ValueError):
    """A game record or position is well-formed text but describes an impossible game."""


class IllegalActionError(NinetyNineError):
    """An action that the rules do not allow in this state."""


class NotYourTurnError(IllegalActionError):
    """A seat acted while it was another seat's (or chance's) turn."""


class CardNotInHandError(IllegalActionError):
    """The card played is not in the acting seat's hand."""


class OverLimitError(IllegalActionError):
    """The card would take the total over the limit while a safe play exists."""


class ChoiceRequiredError(IllegalActionError):
    """The card has a choice of values (Ace 1/11, Ten +/-10) and none was given."""


class GameOverError(IllegalActionError):
    """The game has already ended."""
