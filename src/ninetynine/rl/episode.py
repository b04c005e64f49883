"""One game as the environments run it: the state, the environment's own generator for
chance (never the global ``random`` or ``numpy`` ones), and, where bots sit at the table,
the public event log their views carry."""

from __future__ import annotations

import random
from enum import StrEnum
from typing import Any

import numpy as np

from ninetynine.engine.events import BorderCrossed, Event, HandEnded, LifeLost
from ninetynine.engine.fields import ChanceKind
from ninetynine.engine.game import new_game
from ninetynine.engine.state import CHANCE, DOWN, State
from ninetynine.engine.tables import PARAM, card_of
from ninetynine.engine.view import View, observe
from ninetynine.errors import NinetyNineError
from ninetynine.rl.encoding import Encoding

_SHUFFLES = frozenset({ChanceKind.DEAL, ChanceKind.RESTOCK, ChanceKind.TOPUP})


class Reward(StrEnum):
    """What an environment rewards (its ``reward`` option). Each adds to the game's +1 or
    -1 at its end (a seat knocked out gets its -1 then) a smaller signal on the way, for
    learners that need one sooner than 80 decisions later."""

    GAME = "game"  # only the game's end
    HAND = "hand"  # also -1 for each hand the seat loses (HandEnded's loser)
    LIFE = "life"  # also -1 for each life (penny, token...) or game point the seat pays


def reward_kind(value: str | Reward) -> Reward:
    """A ``reward`` option, or one clear error naming those accepted."""
    try:
        return Reward(value)
    except ValueError:
        raise NinetyNineError(
            f"reward = {value!r}: expected one of {', '.join(repr(r.value) for r in Reward)}"
        ) from None


# An action mask for a seat whose episode is over: every action, since nothing it sends
# is played any more (a vector env resets instead), and a learner's masked distribution
# over no action at all would fail (a -inf everywhere)
def terminal_mask(actions: int) -> np.ndarray:
    """The mask a finished episode shows: all 1 (int8), never all 0."""
    return np.ones(actions, np.int8)


class Episode:
    """One game as an environment runs it: ``state``, the environment's generator ``rng`` for
    chance and, with ``log``, the public events. The first leader is drawn and the first
    deal made at once."""

    def __init__(self, encoding: Encoding, rng: random.Random, *, log: bool = False) -> None:
        self.encoding = encoding
        self.rng = rng
        # who leads the first hand is drawn too: the dealer sits to that seat's right
        first = rng.randrange(encoding.players)
        self.state: State = new_game(encoding.rules, encoding.players, first=first)
        self.log: list[Event] | None = [] if log else None
        # the cards played this hand since the last shuffle, by seat (the encoding's
        # version 2 reads them): the state does not know who played which card
        self.played: list[tuple[int, int]] = []
        self._hand = 0  # the hand they were played in
        self.run_chance()

    def run_chance(self) -> None:
        """Draw every pending chance outcome (deals, reshuffles) from the generator."""
        state, rng, log = self.state, self.rng, self.log
        while state.phase == CHANCE:
            if state.chance in _SHUFFLES:  # the cards played go back: counted afresh
                self.played = []
            if log is None:
                state.play_chance(rng)
            else:
                log += state.apply(state.sample_chance(rng))
        if state.hand_no != self._hand:  # a new hand (some rules deal on without a shuffle)
            self.played, self._hand = [], state.hand_no

    def play(self, index: int | np.integer[Any]) -> None:
        """Play a legal action index (one clear error for any other), then chance."""
        code = self.encoding.check(self.state, index)
        self.play_code(code)

    def play_code(self, code: int) -> None:
        """Play a legal engine code (unchecked), then chance."""
        state = self.state
        if code < DOWN or code >= PARAM:  # a card
            assert state.current_seat is not None
            self.played.append((state.current_seat, card_of(code)))
        if self.log is None:
            self.state.apply_code(code)
        else:
            self.log += self.state.apply(self.state.action_of(code))
        self.run_chance()

    def observe(self, seat: int) -> np.ndarray:
        """The encoding's observation of ``seat`` now."""
        return self.encoding.observe(self.state, seat, self.played)

    def view(self, seat: int) -> View:
        """What a bot in ``seat`` sees, with the public log."""
        return observe(self.state, seat, tuple(self.log or ()))

    def paid(self, since: int, reward: Reward) -> list[float]:
        """Each seat's signal on the way (0 for :attr:`Reward.GAME`) from the events logged
        after the first ``since`` of them: minus the hands lost, or minus the lives and
        game points paid."""
        out = [0.0] * self.encoding.players
        if reward is Reward.GAME:
            return out
        for event in (self.log or [])[since:]:
            match event:
                case HandEnded(_, loser) if reward is Reward.HAND and loser is not None:
                    out[loser] -= 1.0
                case LifeLost(seat, amount, _, _, unpaid) if reward is Reward.LIFE:
                    out[seat] -= amount - unpaid
                case BorderCrossed(seat) if reward is Reward.LIFE:
                    out[seat] -= 1.0
        return out

    def rewards(self) -> list[float]:
        """+1 for each winner and -1 for every other seat at the end; 0 before it."""
        outcome = self.state.outcome
        if outcome is None:
            return [0.0] * self.encoding.players
        return [1.0 if s in outcome.winners else -1.0 for s in range(self.encoding.players)]
