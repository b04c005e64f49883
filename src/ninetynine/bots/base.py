"""The bot interface and the registry of bots by name."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Protocol

from ninetynine.actions import Action
from ninetynine.errors import NinetyNineError
from ninetynine.state import State
from ninetynine.view import View


class Bot(Protocol):
    """Chooses an action from a seat's view; ``view.legal`` lists what it may play.

    A bot class may declare ``sees_hidden_cards = True``: it is a yardstick that reads
    the real game (the other hands), such as ``oracle``. Only the arena seats one, and
    gives it the state through :class:`SeeingBot`; :func:`make_bot` refuses it anywhere
    else, so a table (terminal or web) that builds its bots with :func:`make_bot` can
    never seat one. Every other bot gets the view alone.
    """

    name: str

    def choose(self, view: View, rng: random.Random) -> Action: ...


class SeeingBot(Protocol):
    """A yardstick that plays from the real state (``sees_hidden_cards`` is True)."""

    name: str
    sees_hidden_cards: bool

    def choose_seeing(self, view: View, state: State, rng: random.Random) -> Action: ...


def sees_hidden_cards(bot: object) -> bool:
    """Whether a bot (or a bot class) reads the real game, not only its seat's view."""
    return bool(getattr(bot, "sees_hidden_cards", False))


BotFactory = Callable[..., Bot]


class BotFailure(NinetyNineError):
    """A bot could not give a move: it crashed, hung past its time or answered garbage.

    Whoever runs the game (the arena, the table) scores that game as a loss for the seat.
    """

# Difficulty levels offered to players, as bot specs. ``hard`` is the strongest honest
# bot measured (README: the strength table; about 30-60 ms a move).
HARD = "ismcts:iterations=300,belief=history,value=odds"
DIFFICULTIES = {"easy": "random", "medium": "heuristic", "hard": HARD}
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


def honest_bot_names() -> list[str]:
    """The bots that see only their seat's view (those a table may seat)."""
    return [name for name in bot_names() if not sees_hidden_cards(_REGISTRY[name])]


def make_bot(spec: str, *, seeing: bool = False) -> Bot:
    """Build a bot from ``name`` or ``name:key=value,key=value``.

    A bot that sees the hidden cards (``oracle``) is refused unless ``seeing`` is given:
    only the arena, which hands such a bot the real state, passes it.
    """
    _load_builtin()
    spec = DIFFICULTIES.get(spec.strip(), spec)
    name, _, opts = spec.partition(":")
    factory = _REGISTRY.get(name.strip())
    if factory is None:
        raise NinetyNineError(f"unknown bot {name!r}: expected one of "
                              f"{', '.join(honest_bot_names())}")
    if sees_hidden_cards(factory) and not seeing:
        raise NinetyNineError(f"bot {name.strip()!r} sees the other players' cards: it is a "
                              "yardstick for the arena and cannot play at a table; expected "
                              f"one of {', '.join(honest_bot_names())}")
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


def with_options(spec: str, **options: object) -> str:
    """``spec`` (a bot spec or difficulty) with more options; later ones win:
    ``with_options("hard", iterations=500)``."""
    spec = DIFFICULTIES.get(spec.strip(), spec.strip())
    extra = ",".join(f"{key}={value}" for key, value in options.items())
    return f"{spec}{',' if ':' in spec else ':'}{extra}" if extra else spec


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
    from ninetynine.bots import greedy, heuristic, ismcts, oracle, random_bot  # noqa: F401
