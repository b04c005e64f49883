"""The bot interface, the table of bots by name and the one way to ask a bot for a move."""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Sequence
from typing import Protocol, cast

from ninetynine.bots.spec import Options, read_options
from ninetynine.engine.actions import Action
from ninetynine.engine.state import State
from ninetynine.engine.view import View
from ninetynine.errors import NinetyNineError


class Bot(Protocol):
    """Chooses an action from a seat's view; ``view.legal`` lists what it may play.

    A bot class may declare ``sees_hidden_cards = True``: it is a yardstick that reads
    the real game (the other hands), such as ``oracle``. Only the arena seats one, and
    gives it the state through :class:`SeeingBot`; :func:`make_bot` refuses it anywhere
    else, so a table (terminal or web) that builds its bots with :func:`make_bot` can
    never seat one. Every other bot gets the view alone.
    """

    name: str

    def choose(self, view: View, rng: random.Random) -> Action:
        """The action for ``view.seat``: one of ``view.legal``. ``rng`` is the bot's only source of
        chance, so a seeded game replays."""


class SeeingBot(Protocol):
    """A yardstick that plays from the real state (``sees_hidden_cards`` is True)."""

    name: str
    sees_hidden_cards: bool

    def choose_seeing(self, view: View, state: State, rng: random.Random) -> Action:
        """The action for ``view.seat``, read from ``state``: a copy of the real game, every hand
        in it."""


def sees_hidden_cards(bot: object) -> bool:
    """Whether a bot (or a bot class) reads the real game, not only its seat's view."""
    return bool(getattr(bot, "sees_hidden_cards", False))


BotFactory = Callable[..., Bot]


class BotFailure(NinetyNineError):
    """A bot could not give a move: it crashed, hung past its time or answered garbage.

    Whoever runs the game (the arena, the table) scores that game as a loss for the seat.
    """


def ask(bot: Bot, view: View, rng: random.Random, state: State | None = None) -> Action:
    """The bot's move for this view. Whatever goes wrong (the bot raises, or answers
    something that is not one of ``view.legal``) comes out as one :class:`BotFailure`
    naming the bot, for the caller's own policy: stop the game, forfeit, replace the bot.

    ``state`` is the real game, which only the arena passes, and only a yardstick that
    :func:`sees_hidden_cards` is given (a copy of) it; every other bot gets the view alone.
    """
    try:
        if sees_hidden_cards(bot):
            if state is None:
                raise BotFailure(
                    "it sees the other players' cards, and only the arena gives it the real game"
                )
            action = cast(SeeingBot, bot).choose_seeing(view, state.clone(), rng)
        else:
            action = bot.choose(view, rng)
    except BotFailure as e:  # a protocol bot's message names it already
        why = str(e)
        named = bot.name in why or repr(bot.name) in why
        raise BotFailure(why if named else f"bot {bot.name!r}: {why}") from e
    except Exception as e:  # a bug in a bot must not take its caller down
        raise BotFailure(f"bot {bot.name!r} raised {type(e).__name__}: {e}") from e
    if not isinstance(action, Action) or action not in view.legal:
        raise BotFailure(
            f"bot {bot.name!r} chose {action}, which is not legal here; legal: "
            + ", ".join(str(a) for a in view.legal)
        )
    return action


def start_bot(bot: Bot) -> None:
    """Start a bot that runs as a process (``cmd:``) now, so that one that cannot start
    fails with its reason before a game; other bots have no start and need none."""
    start = getattr(bot, "start", None)
    if start is not None:
        start()


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


# Difficulty levels offered to players, as bot specs. ``easy`` plays with a beginner's
# mistakes (not random cards); ``hard`` is the strongest honest bot measured (README: the
# strength table).
HARD = "ismcts:iterations=300,belief=history,value=odds"
DIFFICULTIES = {"easy": "beginner", "medium": "heuristic-v2", "hard": HARD}
# The bots that come with the game, by name: "module:factory", imported when first built.
# Naming them here (rather than each module registering itself when imported) keeps one
# list to read and costs no import until a bot is wanted.
BUILTIN: dict[str, str] = {
    "random": "ninetynine.bots.random_bot:RandomBot",
    "beginner": "ninetynine.bots.beginner:BeginnerBot",
    "greedy": "ninetynine.bots.greedy:GreedyBot",
    "greedy-keep": "ninetynine.bots.greedy:GreedyKeepBot",
    # the yardstick, frozen; "heuristic" names it too, so every figure and saved match
    # that says "heuristic" keeps its meaning
    "heuristic": "ninetynine.bots.heuristic:HeuristicBot",
    "heuristic-v1": "ninetynine.bots.heuristic:HeuristicBot",
    "heuristic-v2": "ninetynine.bots.medium:MediumBot",  # the medium level
    "ismcts": "ninetynine.bots.ismcts:IsmctsBot",
    "dmc": "ninetynine.bots.dmc:DmcBot",  # a value learned by Deep Monte Carlo (P only)
    "oracle": "ninetynine.bots.oracle:OracleBot",
    "cmd": "ninetynine.bots.protocol:ProtocolBot",
    "proc": "ninetynine.bots.protocol:ProtocolBot",
    "policy": "ninetynine.rl.policy:policy_bot",  # a trained policy (the rl extra)
}
# Bots whose spec after the colon is passed whole (a command line).
_RAW: set[str] = {"cmd", "proc", "policy"}
_ADDED: dict[str, BotFactory] = {}  # bots a program (or a test) adds with register()


def register(name: str, *, raw: bool = False) -> Callable[[BotFactory], BotFactory]:
    """Class decorator for a program's own bot: make it available to :func:`make_bot`
    under ``name``, beside :data:`BUILTIN`.

    With ``raw``, the text after ``name:`` is given to the factory as one string
    instead of being parsed as ``key=value`` options (for ``cmd:python my_bot.py``).
    """

    def wrap(factory: BotFactory) -> BotFactory:
        _ADDED[name] = factory
        if raw:
            _RAW.add(name)
        return factory

    return wrap


def bot_names() -> list[str]:
    """Every bot name :func:`make_bot` knows, built in or :func:`register`-ed, sorted (the
    yardsticks that see hidden cards included; :func:`honest_bot_names` leaves them out)."""
    return sorted({*BUILTIN, *_ADDED})


def honest_bot_names() -> list[str]:
    """The bots that see only their seat's view (those a table may seat)."""
    # a raw bot (a program, a policy) is never a yardstick: nothing of it is imported here
    return [name for name in bot_names() if name in _RAW or not sees_hidden_cards(_factory(name))]


def _factory(name: str) -> BotFactory | None:
    if name in _ADDED:
        return _ADDED[name]
    if name not in BUILTIN:
        return None
    module, _, attr = BUILTIN[name].partition(":")
    try:
        found = importlib.import_module(module)
    except ModuleNotFoundError as e:  # a bot of an extra not installed (policy: the rl one)
        raise NinetyNineError(f"bot {name!r}: {e}") from None
    factory: Callable[..., Bot] = getattr(found, attr)
    return factory


def bot_options(name: str) -> Options | None:
    """The options bot ``name`` declares (None: it reads a command line, or declares none)."""
    factory = _factory(name)
    return None if name in _RAW else getattr(factory, "OPTIONS", None)


def make_bot(spec: str, *, seeing: bool = False) -> Bot:
    """Build a bot from ``name`` or ``name:key=value,key=value``.

    A bot that sees the hidden cards (``oracle``) is refused unless ``seeing`` is given:
    only the arena, which hands such a bot the real state, passes it.
    """
    level, _, more = spec.strip().partition(":")
    if level in DIFFICULTIES:  # a level, perhaps with more options: hard:iterations=50
        spec = with_options(level, **dict(o.partition("=")[::2] for o in more.split(",") if o))
    name, _, opts = spec.partition(":")
    factory = _factory(name.strip())
    if factory is None:
        raise NinetyNineError(
            f"unknown bot {name!r}: expected one of {', '.join(honest_bot_names())}"
        )
    if sees_hidden_cards(factory) and not seeing:
        raise NinetyNineError(
            f"bot {name.strip()!r} sees the other players' cards: it is a "
            "yardstick for the arena and cannot play at a table; expected "
            f"one of {', '.join(honest_bot_names())}"
        )
    name = name.strip()
    if name in _RAW:
        return factory(opts.strip())
    given: dict[str, str] = {}
    for item in filter(None, (o.strip() for o in opts.split(","))):
        key, eq, value = item.partition("=")
        if not eq:
            raise NinetyNineError(
                f"{name}: option {item!r} has no value: expected key=value, e.g. {name}:{item}=..."
            )
        given[key.strip()] = value.strip()
    options = bot_options(name)
    kwargs = (
        read_options(name, options, given)
        if options is not None  # checked as data
        else {key: _parse_value(text) for key, text in given.items()}
    )
    try:
        return factory(**kwargs)
    except TypeError as e:  # options that do not go together, or a program's own bot
        raise NinetyNineError(f"{name}: {e}") from None


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


def meet_bot(bot: Bot, seats: Sequence[str | None]) -> None:
    """Tell a bot who sits where before a game: the public bot spec of each seat, None
    for a person (as a lobby shows them). A bot that models its opponents (``ismcts``
    with ``model=known``) keeps them; others have no ``meet`` method and need none."""
    meet = getattr(bot, "meet", None)
    if meet is not None:
        meet(list(seats))
