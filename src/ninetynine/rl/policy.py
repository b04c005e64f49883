"""A trained policy in a seat: :class:`PolicyBot` plays any function of the canonical
observation and mask wherever a bot plays (the arena, a table, the coach's comparisons, an
environment's opponents), seeing only its seat's view.

>>> import numpy as np
>>> from ninetynine.rl.policy import PolicyBot
>>> first_legal = PolicyBot(lambda obs, mask: int(np.flatnonzero(mask)[0]))

As a bot spec, ``policy:MODULE:NAME`` imports ``NAME`` from ``MODULE`` (a policy function,
or a :class:`PolicyBot`): ``ninetynine arena --bots policy:my_agent:act,heuristic,...``.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from typing import Any

import numpy as np

from ninetynine.engine.actions import Action
from ninetynine.engine.view import View
from ninetynine.errors import NinetyNineError
from ninetynine.rl.encoding import VERSION, encoding_for

# observation (float32, the canonical encoding), mask (int8) -> an action index
Policy = Callable[[np.ndarray, np.ndarray], int | np.integer[Any]]


class PolicyBot:
    """A bot that plays ``policy``'s action index, from the seat's view alone
    (:meth:`~ninetynine.rl.encoding.Encoding.observe_view`, in the encoding's ``version``
    the policy was trained on); an index outside the mask is
    :class:`~ninetynine.errors.IllegalActionError` naming the legal ones."""

    def __init__(self, policy: Policy, name: str = "policy", version: int = VERSION) -> None:
        self.policy, self.name, self.version = policy, name, version

    def choose(self, view: View, rng: random.Random) -> Action:
        """The action of the index the policy gives for this view (``rng`` unused: the
        policy is the bot's only choice)."""
        encoding = encoding_for(view.rules, view.players, self.version)
        index = self.policy(encoding.observe_view(view), encoding.view_mask(view))
        return encoding.action_for(view, index)


def policy_bot(target: str) -> PolicyBot:
    """The bot of the spec ``policy:MODULE:NAME``: ``NAME`` imported from ``MODULE``."""
    module, _, attr = target.strip().partition(":")
    if not module or not attr:
        raise NinetyNineError(
            f"policy:{target}: expected policy:MODULE:NAME, a policy function (observation, "
            "mask -> action index) or a PolicyBot, e.g. policy:my_agent:act"
        )
    try:
        found = getattr(importlib.import_module(module), attr)
    except (ImportError, AttributeError) as e:
        raise NinetyNineError(f"policy:{target}: {e}") from None
    if isinstance(found, PolicyBot):
        return found
    if not callable(found):
        raise NinetyNineError(
            f"policy:{target}: {attr} is a {type(found).__name__}, not a policy function"
        )
    return PolicyBot(found, name=f"policy:{target.strip()}")
