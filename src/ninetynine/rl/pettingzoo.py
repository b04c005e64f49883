"""Ninety-Nine as a PettingZoo AEC environment, for any preset or house rules (a
:class:`~ninetynine.rules.settings.Rules`) and any table size the rules allow.

>>> from ninetynine.rl.pettingzoo import env
>>> table = env(rules="P", players=4)
>>> table.reset(seed=1)
>>> obs, reward, terminated, truncated, info = table.last()
>>> sorted(obs), int(obs["action_mask"].sum()) > 0
(['action_mask', 'observation'], True)

Agents are ``player_0`` ... in seat order. Each observation is a dict of ``observation``
(the canonical encoding of :mod:`ninetynine.rl.encoding`, only what that seat may know)
and ``action_mask`` (int8; all zero while another agent is to act, all one once the
agent is done: never all zero for the agent that :meth:`last` is about). A player knocked
out of the game is terminated with reward -1 and leaves after its next (``None``) step, as
PettingZoo expects, unless it may still win: where a card brings players back (CN99's big
joker) or a side of alternate seats wins for its players who are out, it stays to the end
(its mask all zero while it is out). At the end every winner gets +1 and every other -1.
``reward="hand"`` or ``"life"`` adds -1 for each hand lost or life paid on the way
(:class:`~ninetynine.rl.episode.Reward`). An action
outside the mask raises :class:`~ninetynine.errors.IllegalActionError` naming the legal
ones. ``reset(seed=...)`` reproduces a game exactly: chance draws from the environment's
own generator, never the global ones.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ninetynine.rl.encoding import VERSION, Encoding
from ninetynine.rl.episode import Episode, Reward, reward_kind, terminal_mask
from ninetynine.rl.render import RENDER_MODES, RenderMode, table_text
from ninetynine.rules.settings import Rules, Teams


def env(
    rules: str | Rules = "P",
    players: int = 4,
    render_mode: str | None = None,
    reward: str = "game",
    version: int = VERSION,
) -> NinetyNineEnv:
    """A new environment (PettingZoo's usual constructor name)."""
    return NinetyNineEnv(rules, players, render_mode=render_mode, reward=reward, version=version)


class NinetyNineEnv(AECEnv[str, dict[str, np.ndarray], int]):  # type: ignore[misc]  # untyped
    """The ``ninetynine_v1`` AEC environment (``ninetynine_v0`` with ``version=1``): one
    agent per seat, ``player_0`` first; ``rules`` is a preset id or alias, or a
    :class:`~ninetynine.rules.settings.Rules`."""

    metadata = {
        "name": "ninetynine_v1",  # per instance: its encoding's version less one
        "render_modes": list(RENDER_MODES),
        "is_parallelizable": False,
    }

    def __init__(
        self,
        rules: str | Rules = "P",
        players: int = 4,
        render_mode: str | None = None,
        reward: str = "game",
        version: int = VERSION,
    ) -> None:
        super().__init__()
        self.reward = reward_kind(reward)
        if render_mode not in (None, *RENDER_MODES):
            raise ValueError(f"render_mode {render_mode!r}: expected None, 'ansi' or 'human'")
        self.encoding = enc = Encoding(rules, players, version)
        # a player out leaves for good only where nothing brings it back and no side wins
        # for it (it cannot act again, nor win)
        self._out_for_good = enc.rules.teams is not Teams.ALTERNATE and not any(
            e.revive for e in enc.rules.effects()
        )
        # the environment's name goes with its encoding's layout (docs/api.md)
        self.metadata = {**self.metadata, "name": f"ninetynine_v{version - 1}"}
        self.render_mode = render_mode
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        self._observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, (enc.size,), np.float32),
                "action_mask": spaces.Box(0, 1, (enc.actions,), np.int8),
            }
        )
        self._action_space: spaces.Space[Any] = spaces.Discrete(enc.actions)
        self.observation_spaces = dict.fromkeys(self.possible_agents, self._observation_space)
        self.action_spaces = dict.fromkeys(self.possible_agents, self._action_space)
        self._rng = random.Random()
        self.episode: Episode | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """Every agent's space: a Dict of ``observation`` (the canonical encoding) and
        ``action_mask``."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """Every agent's space: the canonical action indexes."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Starts a new game, dealt at once; ``seed`` reseeds the environment's own generator
        (without it the next game follows from the last); ``options`` are unused."""
        if seed is not None:
            self._rng = random.Random(seed)
        self.episode = Episode(self.encoding, self._rng, log=self.reward is not Reward.GAME)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._skip_agent_selection = None
        self._select()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """``agent``'s observation: its canonical encoding and its action mask (all zero while
        another agent is to act, all one once it is done)."""
        episode = self._started()
        seat = self.possible_agents.index(agent)
        done = self.terminations.get(agent) or self.truncations.get(agent)
        return {
            "observation": episode.observe(seat),
            "action_mask": terminal_mask(self.encoding.actions)
            if done
            else self.encoding.mask(episode.state, seat),
        }

    def step(self, action: int | None) -> None:
        """Plays the selected agent's action index, or (``None``) lets an agent that is done leave.
        An agent knocked out gets -1; at the end each winner gets +1 and the others -1. An index
        outside the mask raises :class:`~ninetynine.errors.IllegalActionError`."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        episode = self._started()
        if action is None:
            raise ValueError(f"{agent} is to act: None is only for players that are done")
        since = len(episode.log or ())
        episode.play(action)  # checked: an index outside the mask is one clear error
        self._cumulative_rewards[agent] = 0.0
        state = episode.state
        paid = episode.paid(since, self.reward)
        self.rewards = {a: paid[self.possible_agents.index(a)] for a in self.agents}
        final = episode.rewards() if state.outcome is not None else None
        for a in self.agents:
            seat = self.possible_agents.index(a)
            if final is not None:
                self.rewards[a] += final[seat]
                self.terminations[a] = True
            elif self._out_for_good and not state.alive[seat] and not self.terminations[a]:
                self.rewards[a] -= 1.0  # knocked out: it cannot win any more
                self.terminations[a] = True
        self._accumulate_rewards()
        self._select()
        if self.render_mode == RenderMode.HUMAN:
            self.render()

    def _select(self) -> None:
        """The agent to act, or the first one done (PettingZoo steps those first)."""
        seat = self._started().state.current_seat
        if seat is not None:
            self.agent_selection = self.possible_agents[seat]
        elif not hasattr(self, "agent_selection") or self.agent_selection not in self.agents:
            self.agent_selection = self.agents[0]
        self._deads_step_first()

    def _started(self) -> Episode:
        if self.episode is None:
            raise RuntimeError("call reset() before using the environment")
        return self.episode

    def render(self) -> str | None:
        """The table as text from the seat to act (seat 0 when none is): returned in ``'ansi'``
        mode, printed in ``'human'`` mode (then None); None with no render mode."""
        if self.render_mode is None:
            return None
        episode = self._started()
        seat = episode.state.current_seat
        text = table_text(episode.state, seat if seat is not None else 0)
        if self.render_mode == RenderMode.HUMAN:
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release: the environment holds no resources."""
        pass
