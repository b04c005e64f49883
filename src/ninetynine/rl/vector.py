"""Ninety-Nine as a Gymnasium vector environment on the batch engine: ``num_envs`` games
stepped at once in NumPy, one learner seat in each, the other seats played by batch bots
between its turns (``random``, ``greedy``, ``greedy-keep``, ``heuristic-v1``) or by a
batched policy.

>>> import gymnasium
>>> import ninetynine.rl
>>> envs = gymnasium.make_vec("NinetyNineVector-v1", num_envs=8, rules="P", players=4)
>>> obs, info = envs.reset(seed=1)
>>> obs.shape == (8, envs.single_observation_space.shape[0]), envs.action_masks().shape[0]
(True, 8)

What the learner sees and sends is what ``NinetyNine-v1`` gives its seat: the canonical
observation (:mod:`ninetynine.rl.encoding`, version 2 by default) and action index, with
its legal actions in ``action_masks()`` (where sb3-contrib's ``MaskablePPO`` looks) and
``info["action_mask"]``; every game is at the learner's turn after each ``reset`` and
``step``, so no mask is ever all 0. The rewards are the scalar env's (+1 win, -1 loss at
the game's end; ``reward="hand"`` or ``"life"`` add -1 per hand lost or life paid).

Autoreset is Gymnasium's ``SAME_STEP`` mode (``metadata["autoreset_mode"]``): the batch
engine starts a new game in a slot as one ends, so the step whose episode terminates (the
game over, or the learner knocked out) returns the first observation of the next game in
that slot, with the last one of the ended game in ``info["final_obs"]`` (an object array,
None elsewhere; ``info["_final_obs"]`` marks the slots). Nothing is ever truncated.

The learner sits in ``seat`` (0 by default; the first leader of each game is drawn, so any
seat leads as often), or with ``seat="rotate"`` in seat ``slot % players`` at ``reset``,
then the next seat for each new game of its slot.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from ninetynine.errors import IllegalActionError, NinetyNineError
from ninetynine.rl.batch import Batch
from ninetynine.rl.batch_bots import BatchBot, BatchBotName, batch_bot, check_plays
from ninetynine.rl.batch_encoding import BatchEncoding
from ninetynine.rl.encoding import VERSION, Encoding
from ninetynine.rl.episode import Reward, reward_kind
from ninetynine.rules.settings import Rules

# A batched policy: observations (k, size) float32 and masks (k, actions) int8 of the seats
# to act, to one action index each (k,)
Policy = Callable[[np.ndarray, np.ndarray], np.ndarray]

ROTATE = "rotate"
ILLEGAL = ("raise", "lose")


class NinetyNineVectorEnv(VectorEnv[np.ndarray, np.ndarray, np.ndarray]):
    """``num_envs`` games of ``rules`` for ``players`` on the batch engine, the learner in
    ``seat`` (a seat, or ``"rotate"``), ``opponents`` a batch bot's name or a
    :data:`Policy` for every other seat. An action outside the mask raises
    :class:`~ninetynine.errors.IllegalActionError` (``illegal_action="raise"``) or loses
    that game at once (``"lose"``). Rules the batch engine does not play, and bad
    arguments, raise one line of :class:`~ninetynine.errors.NinetyNineError`."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(
        self,
        rules: str | Rules = "P",
        players: int = 4,
        num_envs: int = 1024,
        opponents: str | Policy = "random",
        seat: int | str = 0,
        reward: str = "game",
        version: int = VERSION,
        illegal_action: str = "raise",
        seed: int | None = None,
    ) -> None:
        self.encoding = enc = Encoding(rules, players, version)
        if not isinstance(num_envs, int) or isinstance(num_envs, bool) or num_envs < 1:
            raise NinetyNineError(f"num_envs = {num_envs!r}: expected a whole number from 1")
        if seat != ROTATE and (
            not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < players
        ):
            raise NinetyNineError(
                f"seat = {seat!r}: expected a seat from 0 to {players - 1} or {ROTATE!r}"
            )
        if illegal_action not in ILLEGAL:
            raise NinetyNineError(
                f"illegal_action = {illegal_action!r}: expected one of "
                + ", ".join(repr(m) for m in ILLEGAL)
            )
        self.reward = reward_kind(reward)
        self.batch = Batch(
            enc.rules, players, num_envs, seed=seed, observed=True
        )  # checks the rules
        self.coded = BatchEncoding(enc, self.batch)
        self.opponent: BatchBot = (
            batch_bot(opponents) if isinstance(opponents, str) else self._policy(opponents)
        )
        if isinstance(opponents, str):
            check_plays(BatchBotName(opponents), enc.rules)
        self.num_envs, self.players = num_envs, players
        self.rotate, self.illegal_action = seat == ROTATE, illegal_action
        self.seats = np.full(num_envs, 0 if isinstance(seat, str) else seat, np.int64)
        self.single_observation_space = spaces.Box(0.0, 1.0, (enc.size,), np.float32)
        self.single_action_space = spaces.Discrete(enc.actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._every = np.arange(num_envs)
        self._legal = np.zeros(num_envs, np.int64)  # the learner's legal bits
        self._mask = np.zeros((num_envs, enc.actions), np.int8)
        self._rewards = np.zeros(num_envs, np.float64)
        self._done = np.zeros(num_envs, bool)
        self._final: np.ndarray = np.full(num_envs, None, object)
        self.batch.on_over = self._over
        self._started = False

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Starts a new game in every slot (``seed``, one whole number, reseeds the batch's
        generator, which the batch bots share; ``options`` are unused) and lets the
        opponents play up to the learner's first turn in each."""
        if seed is not None:
            if not isinstance(seed, int) or isinstance(seed, bool):
                raise NinetyNineError(f"seed = {seed!r}: expected one whole number or None")
            self.batch.rng = np.random.default_rng(seed)
        if self.rotate:
            self.seats = self._every % self.players
        self.batch.restart(self._every)
        self._clear()
        self._advance()
        self._started = True
        return self._observe(), {"action_mask": self._mask}

    def step(
        self, actions: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Plays the learner's action index in every game, then the opponents' moves up to
        its next turn; a game that ends starts again in its slot (see the module docs)."""
        if not self._started:
            raise NinetyNineError("call reset() before step()")
        every = self._every
        actions = np.asarray(actions)
        if actions.shape != (self.num_envs,):
            raise IllegalActionError(
                f"actions of shape {actions.shape}: expected one action index per game, "
                f"shape ({self.num_envs},)"
            )
        self._clear()
        moves, ok = self.coded.slot_actions(every, actions.astype(np.int64), self._legal)
        if ok.all():
            self._step(moves, None)
        else:
            bad = np.nonzero(~ok)[0]
            if self.illegal_action == "raise":
                g = int(bad[0])
                raise IllegalActionError(
                    f"game {g}: action {actions[g]!r} is not legal now (the legal actions "
                    f"are {np.flatnonzero(self._mask[g]).tolist()}); {len(bad)} game(s) sent "
                    "an illegal action"
                )
            self._step(moves[ok], every[ok])
            self._end(bad, -1.0)
        self._advance()
        info: dict[str, Any] = {"action_mask": self._mask}
        if self._done.any():
            info["final_obs"], info["_final_obs"] = self._final, self._done.copy()
        terminated = self._done.copy()
        return self._observe(), self._rewards.copy(), terminated, np.zeros_like(terminated), info

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions in each game as 0/1 (int8, shape (num_envs,
        actions)): never all 0."""
        return self._mask.copy()

    # Inside ---------------------------------------------------------------------------

    def _clear(self) -> None:
        self._rewards[:] = 0.0
        self._done[:] = False
        self._final = np.full(self.num_envs, None, object)

    def _step(self, moves: np.ndarray, slots: np.ndarray | None) -> None:
        """One batch step of ``slots`` (all for None), with what it pays the learner."""
        batch = self.batch
        at = self._every if slots is None else slots
        hands, seats = batch.hand_no[at], self.seats[at]  # before a game ends (and turns)
        was_in = (batch.alive[at] >> seats & 1).astype(bool)
        mine = batch.turn[at] == seats if batch.points_game else None  # (who played)
        batch.step(moves, slots)
        lost = batch.loser[at] == seats
        if self.reward is Reward.LIFE:
            paid = np.where(lost, batch.paid[at], 0)
            if batch.online:  # and what it paid at milestones (its own, or another's)
                paid = paid + batch.milestones_paid[at, seats]
            if mine is not None:  # and the game points its play lost at borders
                paid = paid + np.where(mine, batch.borders_lost[at, 0], 0)
            self._rewards[at] -= paid
        elif self.reward is Reward.HAND:
            ended = (batch.hand_no[at] > hands) & ~batch.over[at]
            self._rewards[at] -= lost & ended
        # the learner knocked out while the game goes on (by its play or, at a milestone,
        # another's): its episode is over
        out = was_in & ~batch.over[at] & ~(batch.alive[at] >> seats & 1).astype(bool)
        if out.any():
            self._end(at[out], -1.0, final=True)

    def _over(self, slots: np.ndarray) -> None:
        """The batch's games in ``slots`` ended (before they start again): the learner's
        outcome and last observation."""
        seats = self.seats[slots]
        won = (self.batch.winners[slots] >> seats & 1).astype(bool)
        self._finish(slots, np.where(won, 1.0, -1.0), self.coded.observe(slots, seats, over=True))

    def _end(self, slots: np.ndarray, reward: float, final: bool = False) -> None:
        """End the learner's episode in ``slots`` with ``reward`` (its last observation
        taken now with ``final``) and start a new game there."""
        obs = self.coded.observe(slots, self.seats[slots]) if final else None
        self._finish(slots, np.full(len(slots), reward), obs)
        self.batch.restart(slots)

    def _finish(self, slots: np.ndarray, reward: np.ndarray, obs: np.ndarray | None) -> None:
        self._rewards[slots] += reward
        self._done[slots] = True
        for i, slot in enumerate(slots.tolist()):
            self._final[slot] = None if obs is None else obs[i]
        if self.rotate:
            self.seats[slots] = (self.seats[slots] + 1) % self.players

    def _advance(self) -> None:
        """The opponents move wherever the learner is not to act, until it is everywhere."""
        batch = self.batch
        while len(waiting := np.nonzero(batch.turn != self.seats)[0]):
            self._step(self.opponent(batch, waiting, batch.legal(waiting)), waiting)
        self._legal = batch.legal()
        self._mask = self.coded.mask(self._every, self._legal)

    def _observe(self) -> np.ndarray:
        return self.coded.observe(self._every, self.seats)

    def _policy(self, policy: Policy) -> BatchBot:
        """A batch bot that asks ``policy`` with the canonical observations and masks."""
        coded = self.coded

        def play(batch: Batch, slots: np.ndarray, legal: np.ndarray) -> np.ndarray:
            obs = coded.observe(slots, batch.turn[slots])
            chosen = np.asarray(policy(obs, coded.mask(slots, legal)), np.int64)
            moves, ok = coded.slot_actions(slots, chosen, legal)
            if not ok.all():
                g = int(np.nonzero(~ok)[0][0])
                raise IllegalActionError(
                    f"the opponents' policy chose action {chosen[g]} in game {slots[g]}, "
                    "which is not legal there"
                )
            return moves

        return play
