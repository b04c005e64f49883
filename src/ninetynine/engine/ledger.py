"""A state that keeps a ledger: what each seat pays, and by what cause, as the engine charges
it, with no events (the fast path's answer to "who lost which lives, and why").

The engine charges in three places (:meth:`~ninetynine.engine.penalties.Penalties._bust`,
``_pay`` and ``_lose_points``); :class:`LedgerState` writes each charge down there, so a
simulation reads lives lost by cause and each hand's loser without the checked API's events.
"""

from __future__ import annotations

from enum import StrEnum

from ninetynine.engine.game import set_up
from ninetynine.engine.state import FIELDS, State
from ninetynine.rules.settings import Rules


class LossCause(StrEnum):
    """Why a seat lost lives (or game points): the engine's reasons, as a closed set."""

    OVER = "over"  # played a card that took the total over the limit
    CANNOT_PLAY = "cannot_play"  # laid down or was stuck: no card could be played
    MADE_THRESHOLD = "made_threshold"  # another seat made 33, 66 or the limit exactly
    CROSSED_THRESHOLD = "crossed_threshold"  # crossed 33 or 66 (or left it)
    BORDER = "border"  # a game point for each border the total crossed


CAUSES = tuple(LossCause)  # the ledger writes a cause as its index here
OVER_, CANNOT_PLAY, MADE, CROSSED, BORDER = range(len(CAUSES))


class LedgerState(State):
    """A state that writes down what each seat pays, and who goes over or lays down, as
    the engine charges it: lives lost by cause, without events."""

    __slots__ = ("paid", "busts", "_due")

    paid: list[tuple[int, int, int]]  # (seat, lives or points, why: CAUSES' index), in order
    busts: list[int]  # the seats that went over or could not play, in order
    _due: int  # the cause of the payment a bust is making (CAUSES' index), or -1

    @classmethod
    def start(cls, rules: Rules, players: int, *, first: int = 0) -> LedgerState:
        """A new game (as :func:`~ninetynine.engine.game.new_game` starts it, ``first``
        to play) with an empty ledger."""
        state = set_up(cls.__new__(cls), rules, players, first)
        state.paid, state.busts, state._due = [], [], -1
        return state

    @classmethod
    def of(cls, state: State) -> LedgerState:
        """``state`` with an empty ledger, from here on (it takes ``state``'s lists over:
        the caller gives ``state`` up, or passes a clone)."""
        ledger = cls.__new__(cls)
        for name in FIELDS:
            setattr(ledger, name, getattr(state, name))
        ledger.paid, ledger.busts, ledger._due = [], [], -1
        return ledger

    # the engine's methods are called by name, not through super(): these run once a
    # hand, on a simulation's hot path

    def _bust(self, seat: int, played: bool, before: int = 0) -> None:
        self.busts.append(seat)
        self._due = OVER_ if played else CANNOT_PLAY
        try:
            _bust(self, seat, played, before)
        finally:
            self._due = -1

    def _pay(self, seat: int, amount: int, reason: str, by: int | None = None) -> None:
        due, held = self._due, sum(self.lives)
        # (an empty hand that puts a player out, CN99's O47: no card could be played)
        cause = (
            due
            if due >= 0
            else MADE
            if by is not None
            else CANNOT_PLAY
            if reason == "empty hand"
            else CROSSED
        )
        self._due = -1  # a bust pays once; a later payment of the play has its own cause
        _pay(self, seat, amount, reason, by)
        paid = held - sum(self.lives)  # what _pay took: no more than the side held
        if paid:
            self.paid.append((seat, paid, cause))

    def _lose_points(self, seat: int, amount: int, border: int | None) -> None:
        _lose_points(self, seat, amount, border)
        self.paid.append((seat, amount, CANNOT_PLAY if border is None else BORDER))


_bust, _pay, _lose_points = State._bust, State._pay, State._lose_points
