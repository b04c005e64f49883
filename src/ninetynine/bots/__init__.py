"""Bots: each sees only its seat's :class:`~ninetynine.engine.view.View` and returns an action.

Bots are listed by name (``base.BUILTIN``) and built from a spec with options, e.g.
``make_bot("ismcts:iterations=2000")``. Every bot gets its random generator injected.

>>> import random
>>> bot = make_bot("random")
>>> bot.name
'random'
"""

from ninetynine.bots.base import (
    DIFFICULTIES,
    Bot,
    BotFailure,
    ask,
    bot_names,
    cap_time,
    close_bot,
    make_bot,
    meet_bot,
    register,
)
from ninetynine.bots.determinize import Determinizer, determinize

__all__ = [
    "DIFFICULTIES",
    "Bot",
    "BotFailure",
    "Determinizer",
    "ask",
    "bot_names",
    "cap_time",
    "close_bot",
    "determinize",
    "make_bot",
    "meet_bot",
    "register",
]
