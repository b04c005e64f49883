"""``oracle``: the search given the real hands. A yardstick, never an opponent for people.

It runs the ``ismcts`` search, but deals every other hand as it really is (only the stock
and the face-down cards are shuffled: it does not know the future draws). Its win rate
against honest bots is the ceiling line of a strength table: how much of the game a
seat could win if it could read the others' cards perfectly.

It declares ``sees_hidden_cards = True``: :func:`~ninetynine.bots.base.make_bot`
refuses it unless asked with ``seeing=True``, which only the arena does, and the arena
gives it the real state through ``choose_seeing``. A front end must never seat a bot
with that attribute.

Options: those of ``ismcts``, by default those of the ``hard`` difficulty (``iterations=300,
value=odds``), so the oracle is the hard bot given the real hands; and ``see``
(``hands``, the default: every card of the other hands; ``kept``: only the cards each
other player has held since its last play in this hand, the most that reading its plays
could ever tell; the cards it drew since and the hands of players who have not played
yet are dealt at random).
"""

from __future__ import annotations

import random
from enum import StrEnum
from typing import ClassVar

from ninetynine.bots.base import BotFailure
from ninetynine.bots.determinize import Determinizer
from ninetynine.bots.inference import drawn_since_play
from ninetynine.bots.ismcts import IsmctsBot, option
from ninetynine.bots.spec import BotOption, Options
from ninetynine.engine.actions import Action
from ninetynine.engine.state import State
from ninetynine.engine.view import View


class Sight(StrEnum):
    """Which of the other players' cards the oracle is shown."""

    HANDS = "hands"  # all of them
    KEPT = "kept"  # those held since the player's last play in this hand


class OracleBot(IsmctsBot):
    """The ``oracle`` yardstick: the ``ismcts`` search dealt the other hands as they really
    are (``see`` says how much of them)."""

    name = "oracle"
    sees_hidden_cards = True
    OPTIONS: ClassVar[Options] = {**IsmctsBot.OPTIONS, "see": BotOption(Sight)}

    def __init__(self, see: str = "hands", **options: float | str) -> None:
        self.see = option(Sight, "see", see)
        super().__init__(**{"iterations": 300, "value": "odds", **options})  # type: ignore[arg-type]

    def choose(self, view: View, rng: random.Random) -> Action:
        """Always raises :class:`BotFailure`: the oracle plays only from the real game
        (:meth:`choose_seeing`)."""
        raise BotFailure("the oracle plays from the real game, which only the arena gives it")

    def choose_seeing(self, view: View, state: State, rng: random.Random) -> Action:
        """The search's move with the other hands dealt as ``state`` holds them (with
        ``see=kept``, only the cards held since each player's last play in the hand); the only
        legal action at once."""
        if len(view.legal) == 1:
            return view.legal[0]
        hands = [list(hand) for hand in state.hands]
        if self.see is Sight.KEPT:
            drawn = drawn_since_play(view)
            for seat, hand in enumerate(hands):
                # a hand never played from in this hand is as unknown as when dealt
                hands[seat] = hand[: len(hand) - drawn[seat]] if seat in drawn else []
        return self.decide(Determinizer(view, known=hands), rng)
