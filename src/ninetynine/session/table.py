"""A match at a table, independent of any front end: seats, the game, its record and log.

The :class:`Table` seats people and bots at a :class:`~ninetynine.records.match.Match` (the game,
its moves and its public log). Front ends ask :meth:`Table.pending` who must act,
call :meth:`Table.play` for a person's move and :meth:`Table.step_bot` for a bot's, and
read what a seat may see through :meth:`Table.view` (bots get nothing else).

Randomness is derived from the table's seed and the move number, so a game saved and
resumed goes on exactly as it would have without the pause.

Bots that run as processes (``cmd:`` protocol bots) are stopped when the game ends; a
front end that drops a table before then calls :meth:`Table.close`.

>>> from ninetynine import load_rules
>>> seats = [Seat("Ann"), Seat("Bot", SeatKind.BOT, "random")]
>>> table = Table.new(load_rules("P"), seats, seed=1)
>>> table.pending()
Pending(kind=<Waiting.HUMAN: 'human'>, seat=0)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from ninetynine.bots import Bot, BotFailure, ask, close_bot, make_bot, meet_bot
from ninetynine.bots.base import DIFFICULTIES
from ninetynine.engine.actions import Action
from ninetynine.engine.events import Event, narrate
from ninetynine.engine.state import State
from ninetynine.engine.view import View
from ninetynine.errors import NinetyNineError
from ninetynine.language import _
from ninetynine.records.match import Chance, Match
from ninetynine.records.record import Record
from ninetynine.rules.settings import Rules, Scoring
from ninetynine.rules.words import counter, ending, listed

__all__ = ["Pending", "Seat", "SeatKind", "Summary", "Table", "Waiting", "parse_seats"]


class SeatKind(StrEnum):
    """Who sits in a seat: a person at this keyboard, or a bot (as saves write it)."""

    HUMAN = "human"
    BOT = "bot"


class Waiting(StrEnum):
    """What the table waits for: a person's move, a bot's, or nothing (the game is over)."""

    HUMAN = "human"
    BOT = "bot"
    OVER = "over"


@dataclass(frozen=True, slots=True)
class Seat:
    """Who sits in a seat: a person at this keyboard, or a bot built from ``bot`` (a spec)."""

    name: str
    kind: SeatKind = SeatKind.HUMAN
    bot: str | None = None

    @property
    def is_human(self) -> bool:
        """True for a person's seat, False for a bot's."""
        return self.kind is SeatKind.HUMAN


@dataclass(frozen=True, slots=True)
class Pending:
    """What the table waits for, and from which seat (none once the game is over)."""

    kind: Waiting
    seat: int | None = None


@dataclass(frozen=True, slots=True)
class Summary:
    """The end of a game in numbers (seats 0-based): who won and the ending's reason, the hands
    played, and each seat's lives lost and score."""

    winners: tuple[int, ...]
    reason: str
    hands: int
    lives_lost: tuple[int, ...]
    scores: tuple[int, ...]


@dataclass
class Table:
    """One game at a table. Build with :meth:`new` or :meth:`resume`."""

    seats: list[Seat]
    seed: int
    pace: float  # seconds a front end waits before each bot move
    match: Match  # the game itself: start, moves, log; chance seeded by the move number
    revealed: int | None = None  # hot-seat: the person who has taken the device
    on_move: Callable[[Table], None] | None = None  # e.g. autosave after every change
    coach: bool = False  # the person's coach is on (key c, 'coach'): kept with the save
    _bots: dict[int, Bot] = field(default_factory=dict, init=False, repr=False)

    @classmethod
    def new(
        cls,
        rules: Rules,
        seats: Sequence[Seat],
        *,
        seed: int | None = None,
        pace: float = 0.0,
        first: int = 0,
    ) -> Table:
        """A fresh game; ``seed`` None picks one at random (it is kept for the save)."""
        if seed is None:
            seed = random.SystemRandom().randrange(2**32)
        match = Match.new(
            rules,
            len(seats),
            first=first,
            chance=Chance.by_move(seed),
            names=[s.name for s in seats],
        )
        return cls(seats=list(seats), seed=seed, pace=pace, match=match)._with_bots()

    @classmethod
    def resume(
        cls, record: Record, seats: Sequence[Seat], *, seed: int, pace: float = 0.0
    ) -> Table:
        """Continue a game from its record so far (replayed, so every check runs again)."""
        if len(seats) != record.start.n:
            raise NinetyNineError(
                f"the save names {len(seats)} seats but its record has {record.start.n} players"
            )
        match = Match.from_record(
            record, chance=Chance.by_move(seed), names=[s.name for s in seats], auto_chance=True
        )
        return cls(seats=list(seats), seed=seed, pace=pace, match=match)._with_bots()

    def rematch(self) -> Table:
        """A new game with the same seats and rules; the next seat starts."""
        first = (self.match.start.starter + 1) % self.state.n
        table = Table.new(self.rules, self.seats, seed=self.seed + 1, pace=self.pace, first=first)
        table.on_move, table.coach = self.on_move, self.coach
        if table.on_move is not None:
            table.on_move(table)
        return table

    def set_coach(self, on: bool) -> None:
        """Turn the person's coach on or off; ``on_move`` saves it with the game."""
        self.coach = on
        if self.on_move is not None:
            self.on_move(self)

    def _with_bots(self) -> Table:
        for i, seat in enumerate(self.seats):
            if not seat.is_human:
                if not seat.bot:
                    raise NinetyNineError(
                        f"seat {i + 1} ({seat.name}) is a bot but names no "
                        "bot spec, e.g. random or medium"
                    )
                self._bots[i] = make_bot(seat.bot)
        # who sits where is public (a person's seat: None, never its cards)
        met = [None if seat.is_human else seat.bot for seat in self.seats]
        for bot in self._bots.values():
            meet_bot(bot, met)
        return self

    def close(self) -> None:
        """Stop the bots that run as processes; safe to call again (their close is)."""
        for bot in self._bots.values():
            close_bot(bot)

    # What is going on ---------------------------------------------------------------

    @property
    def rules(self) -> Rules:
        """The rule set the game is played by."""
        return self.match.state.rules

    @property
    def state(self) -> State:
        """The game's current state, every hand in it: what a seat may see is :meth:`view`."""
        return self.match.state

    @property
    def log(self) -> list[Event]:
        """Every public event so far, in order (no hidden card in it)."""
        return self.match.log

    @property
    def record(self) -> Record:
        """The game's record so far (its start, every move, the names): a new copy at each read."""
        return self.match.record()

    @property
    def names(self) -> list[str]:
        """Each seat's name, by seat (0-based)."""
        return [s.name for s in self.seats]

    @property
    def humans(self) -> list[int]:
        """The people's seats (0-based), in order."""
        return [i for i, s in enumerate(self.seats) if s.is_human]

    def pending(self) -> Pending:
        """Who must act now: a person or a bot, and at which seat (0-based); ``Waiting.OVER`` (no
        seat) once the game is over."""
        seat = self.state.current_seat
        if self.state.is_over or seat is None:
            return Pending(Waiting.OVER)
        return Pending(Waiting.HUMAN if self.seats[seat].is_human else Waiting.BOT, seat)

    @property
    def hot_seat(self) -> bool:
        """Several people share the keyboard, so hands hide between their turns."""
        return len(self.humans) > 1

    def needs_handoff(self) -> bool:
        """A person must take the device (and confirm) before their hand is shown."""
        p = self.pending()
        return self.hot_seat and p.kind is Waiting.HUMAN and self.revealed != p.seat

    def reveal(self, seat: int) -> None:
        """The person at ``seat`` has the device: their hand may be shown."""
        self.revealed = seat

    @property
    def viewer(self) -> int | None:
        """The seat whose private cards may be on screen now, or None (nobody's)."""
        humans = self.humans
        if len(humans) == 1:
            return humans[0]
        return self.revealed

    def view(self, seat: int) -> View:
        """What ``seat`` may know, with the public log."""
        return self.match.view(seat)

    def lines(self, events: Sequence[Event]) -> list[str]:
        """The table talk for some events, with the seats' names."""
        return [line for e in events if (line := narrate(e, self.names, self.rules))]

    # Moving ------------------------------------------------------------------------

    def play(self, action: Action) -> list[Event]:
        """A person's move for the seat to act; raises a typed error if it is not legal."""
        p = self.pending()
        if p.kind is not Waiting.HUMAN or p.seat is None:
            raise NinetyNineError("it is not a person's turn to play")
        events = self._apply(action, p.seat)
        if self.hot_seat:
            self.revealed = None
        return events

    def step_bot(self) -> list[Event]:
        """Let the bot to act choose and play one move (it sees only its own view)."""
        seat, action = self.bot_choice()
        return self.play_bot(seat, action)

    def bot_choice(self) -> tuple[int, Action]:
        """The bot to act and the move it chooses; changes nothing, so a front end may
        run it in the background and hand the result to :meth:`play_bot`. A bot that
        fails stops the game with its reason (:class:`BotFailure`)."""
        p = self.pending()
        if p.kind is not Waiting.BOT or p.seat is None:
            raise NinetyNineError("it is not a bot's turn to play")
        rng = random.Random(f"{self.seed}/bot/{self.match.version}")
        try:
            return p.seat, ask(self._bots[p.seat], self.view(p.seat), rng)
        except BotFailure as e:
            raise BotFailure(f"seat {p.seat + 1} ({self.names[p.seat]}) failed: {e}") from e

    def play_bot(self, seat: int, action: Action) -> list[Event]:
        """Play a bot's chosen move; it must still be that bot's turn."""
        if self.pending() != Pending(Waiting.BOT, seat):
            raise NinetyNineError(f"it is no longer seat {seat + 1}'s turn")
        return self._apply(action, seat)

    def _apply(self, action: Action, seat: int) -> list[Event]:
        events = self.match.play(action, seat)
        if self.state.is_over:
            self.close()  # protocol bots are told the game is over (a rematch makes new ones)
        if self.on_move is not None:
            self.on_move(self)
        return events

    # The end -----------------------------------------------------------------------

    def summary(self) -> Summary | None:
        """The end of the game in numbers, or None while it goes on."""
        outcome = self.state.outcome
        if outcome is None:
            return None
        # hand_no moves on only when another hand is dealt, so it counts the last one too
        return Summary(
            winners=outcome.winners,
            reason=outcome.reason,
            hands=self.state.hand_no,
            lives_lost=tuple(s.lost for s in self.match.standings()),
            scores=tuple(self.state.scores),
        )

    def summary_lines(self) -> list[str]:
        """The end of the game as lines for the screen: who won and why, the hands played, then each
        seat's lives lost (or its score, with game points); empty while the game goes on."""
        s = self.summary()
        if s is None:
            return []
        names = self.names
        won = " and ".join(names[w] for w in s.winners)
        why = ending(s.reason)
        lines = [
            (
                _("Nobody wins ({why}).").format(why=why)
                if not s.winners
                else _("{who} wins ({why}).").format(who=won, why=why)
                if len(s.winners) == 1
                else _("{who} win ({why}).").format(
                    who=listed([names[w] for w in s.winners]), why=why
                )
            ),
            _("Hands played: {n}.").format(n=s.hands),
        ]
        if self.rules.scoring is Scoring.GAME_POINTS:
            score = _("{name}: score {score}")
            lines += [
                "  " + score.format(name=names[i], score=s.scores[i]) for i in range(len(names))
            ]
        else:
            noun, lost = counter(self.rules), _("{name}: lost {amount}")
            lines += [
                "  " + lost.format(name=names[i], amount=noun(s.lives_lost[i]))
                for i in range(len(names))
            ]
        return lines


# Setting up seats from command-line words ------------------------------------------

BOT_NAMES = ("Ada", "Ben", "Cleo", "Dev", "Eve", "Finn", "Gus", "Hana", "Ivo")


def bot_seat_name(seat: int, what: str) -> str:
    """A bot's name at a table, by its seat (0-based), e.g. ``"Ben (medium)"``.

    >>> bot_seat_name(1, "medium"), bot_seat_name(10, "easy")
    ('Ben (medium)', 'Ben2 (easy)')
    """
    rounds, k = divmod(seat, len(BOT_NAMES))
    return f"{BOT_NAMES[k]}{rounds + 1 if rounds else ''} ({what})"


def parse_seats(
    words: Sequence[str] | None, *, players: int, bots: Sequence[str], name: str
) -> list[Seat]:
    """Seats from ``--seats`` words (``you``, ``@NAME`` for another person, or a bot spec
    or difficulty), else ``players`` seats: you first, then ``bots`` in turn."""
    if not bots:
        raise NinetyNineError(
            "--bots needs at least one bot spec or difficulty (easy, medium, hard)"
        )
    if not words:
        words = ["you", *(bots[i % len(bots)] for i in range(players - 1))]
    seats: list[Seat] = []
    for i, word in enumerate(words):
        w = word.strip()
        if w.lower() == "you":
            seats.append(Seat(name, SeatKind.HUMAN))
        elif w.startswith("@"):
            if not w[1:]:
                raise NinetyNineError(f"seat {i + 1}: '@' needs a name, e.g. @Ann")
            seats.append(Seat(w[1:], SeatKind.HUMAN))
        elif w:
            close_bot(make_bot(w))  # fail now, with the bot's own message, if the spec is bad
            base = DIFFICULTIES.get(w, w).partition(":")[0]
            seats.append(Seat(bot_seat_name(i, base), SeatKind.BOT, w))
        else:
            raise NinetyNineError(f"seat {i + 1} is empty: expected you, @NAME or a bot spec")
    names = [s.name for s in seats]
    for n in names:
        if not n.strip() or not n.isprintable():
            raise NinetyNineError(f"name {n!r}: expected printable characters, e.g. Ann")
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise NinetyNineError(
            f"two seats are called {dupes[0]!r}: give each person a different name"
        )
    if not any(s.is_human for s in seats):
        raise NinetyNineError("no person at the table: put 'you' or @NAME in --seats")
    return seats
