"""Ninety-Nine as a single-agent Gymnasium environment: one seat learns, the others are
bots (``random``, ``heuristic``, ``ismcts``... any spec of :func:`ninetynine.bots.make_bot`).

>>> import gymnasium
>>> import ninetynine.rl
>>> env = gymnasium.make("NinetyNine-v1", rules="K", players=3, opponents="random")
>>> obs, info = env.reset(seed=1)
>>> obs.shape == env.observation_space.shape, int(info["action_mask"].sum()) > 0
(True, True)

The observation is the canonical encoding (:mod:`ninetynine.rl.encoding`) of the agent's
seat; its legal actions are ``env.action_masks()`` (where sb3-contrib's ``MaskablePPO``
looks) and ``info["action_mask"]``. Once the episode is over the mask is all 1, never all 0
(nothing sent then is played; a masked distribution over no action would fail). The reward
is +1 if the agent wins, -1 when it loses (knocked out, or the game ends without it among
the winners), 0 before; ``reward="hand"`` adds -1 for each hand it loses on the way, and
``reward="life"`` -1 for each life (or game point) it pays (:class:`~ninetynine.rl.episode.Reward`).
An action outside the mask ends the episode as a loss, with the reason in
``info["illegal_action"]`` (``illegal_action="lose"``, the default: Gymnasium's checker and
unmasked learners send any action of the space), or raises
:class:`~ninetynine.errors.IllegalActionError` (``illegal_action="raise"``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from ninetynine.bots import Bot, ask, make_bot
from ninetynine.errors import IllegalActionError, NinetyNineError
from ninetynine.rl.encoding import VERSION, Encoding
from ninetynine.rl.episode import Episode, reward_kind, terminal_mask
from ninetynine.rl.render import RENDER_MODES, RenderMode, table_text
from ninetynine.rules.settings import Rules

ILLEGAL = ("lose", "raise")


class NinetyNineGymEnv(gymnasium.Env[np.ndarray, np.int64]):
    """The ``NinetyNine-v1`` environment (``NinetyNine-v0`` with ``version=1``): the agent
    plays ``seat`` (0-based) and bots made from ``opponents`` (one spec or bot for all, or
    one per other seat in seat order) play the rest; a bot given made (a
    :class:`~ninetynine.rl.policy.PolicyBot`) is used as it is. Bad arguments raise
    :class:`~ninetynine.errors.NinetyNineError`."""

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 4}

    def __init__(
        self,
        rules: str | Rules = "P",
        players: int = 4,
        opponents: str | Bot | Sequence[str | Bot] = "heuristic",
        seat: int = 0,
        illegal_action: str = "lose",
        render_mode: str | None = None,
        reward: str = "game",
        version: int = VERSION,
    ) -> None:
        self.encoding = enc = Encoding(rules, players, version)
        self.reward = reward_kind(reward)
        specs = (
            [opponents] * (players - 1)
            if isinstance(opponents, str) or not isinstance(opponents, Sequence)
            else list(opponents)
        )
        if len(specs) != players - 1:
            raise NinetyNineError(
                f"opponents: {len(specs)} bot(s) for the {players - 1} other "
                "seats; give one spec for all or one per seat"
            )
        # a spec, or a bot made already (a PolicyBot: a trained policy as an opponent)
        self.bots: list[Bot] = [make_bot(s) if isinstance(s, str) else s for s in specs]
        if not isinstance(seat, int) or not 0 <= seat < players:
            raise NinetyNineError(f"seat = {seat!r}: expected a seat from 0 to {players - 1}")
        if illegal_action not in ILLEGAL:
            raise NinetyNineError(
                f"illegal_action = {illegal_action!r}: expected one of "
                + ", ".join(repr(m) for m in ILLEGAL)
            )
        if render_mode not in (None, *RENDER_MODES):
            raise NinetyNineError(
                f"render_mode = {render_mode!r}: expected None, 'ansi' or 'human'"
            )
        self.seat, self.illegal_action, self.render_mode = seat, illegal_action, render_mode
        self.observation_space = spaces.Box(0.0, 1.0, (enc.size,), np.float32)
        self.action_space = spaces.Discrete(enc.actions)
        self.episode: Episode | None = None
        # the bots' seats, in seat order around the agent
        self._bot_of = {
            s: self.bots[i] for i, s in enumerate(s for s in range(players) if s != seat)
        }

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Starts a new game (``seed`` reseeds the environment's generator; ``options`` are
        unused) and lets the bots play up to the agent's first turn; the info holds
        ``action_mask``."""
        super().reset(seed=seed)
        rng = random.Random(int(self.np_random.integers(2**62)))
        self.episode = Episode(self.encoding, rng, log=True)  # the bots' views carry the log
        self._bots_play()
        return self._observation(), self._info()

    def step(self, action: np.int64 | int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """Plays the agent's action index, then the bots' moves up to its next turn. The episode
        terminates when the game ends or the agent is knocked out (never truncated); an action
        outside the mask loses at once or raises, as ``illegal_action`` says. A step after the
        end raises :class:`~ninetynine.errors.NinetyNineError`."""
        episode = self._started()
        if self._done():
            raise NinetyNineError("the episode is over: call reset()")
        try:
            code = self.encoding.check(episode.state, action)
        except IllegalActionError as e:
            if self.illegal_action == "raise":
                raise
            info = self._info()
            info["illegal_action"] = str(e)
            return self._observation(), -1.0, True, False, info
        since = len(episode.log or ())
        episode.play_code(code)
        self._bots_play()
        if self.render_mode == RenderMode.HUMAN:
            self.render()
        reward = self._reward() + episode.paid(since, self.reward)[self.seat]
        return self._observation(), reward, self._done(), False, self._info()

    def _bots_play(self) -> None:
        """The bots move until the agent is to act or its game is over."""
        episode = self._started()
        state = episode.state
        while not self._done() and state.current_seat != self.seat:
            seat = state.current_seat
            assert seat is not None
            action = ask(self._bot_of[seat], episode.view(seat), episode.rng)
            episode.play_code(state.code_of(action))

    def _done(self) -> bool:
        state = self._started().state
        return state.is_over or not state.alive[self.seat]

    def _reward(self) -> float:
        state = self._started().state
        if state.outcome is not None:
            return 1.0 if self.seat in state.outcome.winners else -1.0
        return -1.0 if not state.alive[self.seat] else 0.0

    def _observation(self) -> np.ndarray:
        return self._started().observe(self.seat)

    def action_masks(self) -> np.ndarray:
        """The agent's legal actions as 0/1 (int8); all 1 once the episode is over."""
        if self._done():
            return terminal_mask(self.encoding.actions)
        return self.encoding.mask(self._started().state, self.seat)

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.action_masks()}

    def _started(self) -> Episode:
        if self.episode is None:
            raise NinetyNineError("call reset() before step()")
        return self.episode

    # Gymnasium types render with a method-level TypeVar no override can name
    def render(self) -> str | None:  # type: ignore[override]
        """The table as text from the agent's seat: returned in ``'ansi'`` mode, printed in
        ``'human'`` mode (then None); None with no render mode."""
        if self.render_mode is None:
            return None
        text = table_text(self._started().state, self.seat)
        if self.render_mode == RenderMode.HUMAN:
            print(text)
            return None
        return text
