"""The bot interface and the registry of bots by name."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Protocol

from ninetynine.actions import Action
from ninetynine.errors import NinetyNineError
from ninetynine.view import View


class Bot(Protocol):
    """Chooses an action from a seat's view; ``view.legal`` lists what it may play."""

    name: str

    def choose(self, view: View, rng: random.Random) -> Action: ...


BotFactory = Callable[..., Bot]


class BotFailure(NinetyNineError):
    """A bot could not give a move: it crashed, hung past its time or answered garbage.

    Whoever runs the game (the arena, the table) scores that game as a loss for the seat.
    """

def ask(bot: Bot, view: View, rng: random.Random) -> Action:
    """The bot's move for this view. Whatever goes wrong (the bot raises, or answers
    something that is not one of ``view.legal``) comes out as one :class:`BotFailure`
    naming the bot, for the caller's own policy: stop the game, forfeit, replace the bot."""
    try:
        action = bot.choose(view, rng)
    except BotFailure as e:  # a protocol bot's message names it already
        why = str(e)
        named = bot.name in why or repr(bot.name) in why
        raise BotFailure(why if named else f"bot {bot.name!r}: {why}") from e
    except Exception as e:  # a bug in a bot must not take its caller down
        raise BotFailure(f"bot {bot.name!r} raised {type(e).__name__}: {e}") from e
    if not isinstance(action, Action) or action not in view.legal:
        raise BotFailure(f"bot {bot.name!r} chose {action}, which is not legal here; legal: "
                         + ", ".join(str(a) for a in view.legal))
    return action


def close_bot(bot: Bot) -> None:
    """Stop a bot that runs as a process (a ``cmd:`` protocol bot); others have no close."""
    close = getattr(bot, "close", None)
    if close is not None:
        close()


def cap_time(bot: Bot, seconds: float) -> None:
    """Ask a bot to answer within ``seconds``, where it budgets its own time: a search stops
    searching, a program bot stops waiting. Bots that always answer at once have no
    ``cap_time`` method and need none."""
    cap = getattr(bot, "cap_time", None)
    if cap is not None:
        cap(seconds)


# Difficulty levels offered to players, as bot specs.
DIFFICULTIES = {"easy": "random", "medium": "heuristic", "hard": "ismcts"}
_REGISTRY: dict[str, BotFactory] = {}
_RAW: set[str] = set()  # bots whose spec after the colon is passed whole (a command line)


def register(name: str, *, raw: bool = False) -> Callable[[BotFactory], BotFactory]:
    """Class decorator: make a bot available to :func:`make_bot` under ``name``.

    With ``raw``, the text after ``name:`` is given to the factory as one string
    instead of being parsed as ``key=value`` options (for ``cmd:python my_bot.py``).
    """
    def wrap(factory: BotFactory) -> BotFactory:
        _REGISTRY[name] = factory
        if raw:
            _RAW.add(name)
        return factory
    return wrap


def bot_names() -> list[str]:
    _load_builtin()
    return sorted(_REGISTRY)


def make_bot(spec: str) -> Bot:
    """Build a bot from ``name`` or ``name:key=value,key=value``."""
    _load_builtin()
    spec = DIFFICULTIES.get(spec.strip(), spec)
    name, _, opts = spec.partition(":")
    factory = _REGISTRY.get(name.strip())
    if factory is None:
        raise NinetyNineError(f"unknown bot {name!r}: expected one of "
                              f"{', '.join(sorted(_REGISTRY))}")
    if name.strip() in _RAW:
        return factory(opts.strip())
    kwargs: dict[str, object] = {}
    for item in filter(None, (o.strip() for o in opts.split(","))):
        key, eq, value = item.partition("=")
        if not eq:
            raise NinetyNineError(f"bad bot option {item!r} in {spec!r}: expected key=value")
        kwargs[key.strip()] = _parse_value(value.strip())
    try:
        return factory(**kwargs)
    except TypeError as e:
        raise NinetyNineError(f"bad options for bot {name!r}: {e}") from None


def _parse_value(text: str) -> object:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def _load_builtin() -> None:
    # Importing the modules registers their bots.
    from ninetynine import engine_protocol  # noqa: F401
    from ninetynine.bots import heuristic, ismcts, random_bot  # noqa: F401
