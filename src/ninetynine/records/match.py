"""A game in progress, written once: where it started, every move since, what was said,
and how chance is drawn.

Every front end plays through a :class:`Match`: the terminal table, the web table, the
arena, ``replay``, saves and the step-through replay. The moves so far *are* the record
(:meth:`Match.record`) and their count is the state id (:attr:`Match.version`) that
clients quote. As python-chess keeps the move stack on the board and OpenSpiel keeps the
history on the state, the match keeps both on one object; as PokerKit declares which
chance steps run by themselves, a match says once how chance is drawn (:class:`Chance`)
and whether it draws by itself (``auto_chance``).

>>> from ninetynine import load_rules
>>> match = Match.new(load_rules("P"), 3, chance=Chance.by_move(7), names=["Ann", "Bob", "Cy"])
>>> match.version, match.state.is_chance   # the shuffle was drawn and the cards dealt
(1, False)
>>> _ = match.play(match.state.legal_actions()[0])
>>> Match.from_record(match.record()).state == match.state   # the moves are the record
True
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from ninetynine.engine.actions import Action, ChanceOutcome, Move
from ninetynine.engine.events import Event, LifeLost
from ninetynine.engine.game import new_game
from ninetynine.engine.state import State
from ninetynine.engine.view import View, observe
from ninetynine.errors import IllegalActionError, RecordError
from ninetynine.records.record import Record, move_text
from ninetynine.rules.settings import Rules, Scoring


class ChanceScheme(StrEnum):
    """How a match seeds the generator of each chance outcome (:class:`Chance`)."""

    BY_MOVE = "by_move"  # seeded by the move number: a resumed game goes on exactly
    BY_HAND = "by_hand"  # seeded by the hand: one seed deals the same cards in every hand
    SYSTEM = "system"  # the operating system's generator; outcomes live only in the moves


@dataclass(frozen=True, slots=True)
class Chance:
    """How a match draws its chance outcomes (shuffles, up-card depths)."""

    scheme: ChanceScheme
    seed: int | str = ""

    @classmethod
    def by_move(cls, seed: int | str) -> Chance:
        """``Random(f"{seed}/chance/{moves so far}")``: the terminal table's scheme."""
        return cls(ChanceScheme.BY_MOVE, seed)

    @classmethod
    def by_hand(cls, seed: int | str) -> Chance:
        """``Random(f"{seed}:{hand}:{k}")`` for the k-th chance event of a hand: the
        arena's duplicate deals, however the hands before went."""
        return cls(ChanceScheme.BY_HAND, seed)

    @classmethod
    def system(cls) -> Chance:
        """The operating system's generator (the web's shuffles)."""
        return cls(ChanceScheme.SYSTEM)


def hand_seed(seed: int | str, hand: int, k: int) -> str:
    """The seed of the ``k``-th chance event of ``hand`` (from 0 and 1) under
    :meth:`Chance.by_hand`: the arena's and the simulations' duplicate deals."""
    return f"{seed}:{hand}:{k}"


class Match:
    """A game from its start with every move since. Build with :meth:`new` or
    :meth:`from_record`."""

    def __init__(
        self,
        start: State,
        *,
        chance: Chance | None = None,
        names: Sequence[str] | None = None,
        from_position: bool = False,
        auto_chance: bool = True,
    ) -> None:
        self.start = start.clone()
        self.state = start.clone()
        self.moves: list[tuple[int | None, Move]] = []
        self.log: list[Event] = []  # every public event so far
        self.chance = chance or Chance.system()
        if names and len(names) != start.n:
            raise RecordError(f"{len(names)} names for {start.n} players")
        self.given_names = list(names or [])  # what the record keeps (none: P1, P2, ...)
        self.from_position = from_position
        self.auto_chance = auto_chance
        self._chance_in_hand: Counter[int] = Counter()
        if auto_chance:
            self.run_chance()

    @classmethod
    def new(
        cls,
        rules: Rules,
        players: int,
        *,
        first: int = 0,
        chance: Chance | None = None,
        names: Sequence[str] | None = None,
        auto_chance: bool = True,
    ) -> Match:
        """A match of a new game of ``players`` seats; ``first`` (0-based) plays first. With
        ``auto_chance`` the first shuffle is drawn and the cards dealt at once."""
        return cls(
            new_game(rules, players, first=first),
            chance=chance,
            names=names,
            auto_chance=auto_chance,
        )

    @classmethod
    def from_record(
        cls,
        record: Record,
        *,
        chance: Chance | None = None,
        names: Sequence[str] | None = None,
        auto_chance: bool = False,
    ) -> Match:
        """Replay a record's moves, each checked; a refused one is a :class:`RecordError`
        naming it. With ``auto_chance`` (a game going on) a pending chance node is then
        drawn, and later ones as they come."""
        match = cls(
            record.start,
            chance=chance,
            names=names or record.names,
            from_position=record.from_position,
            auto_chance=False,
        )
        for i, (seat, move) in enumerate(record.moves, start=1):
            try:
                match._apply(move, seat)
            except IllegalActionError as e:
                raise RecordError(
                    f"action {i} ('{move_text(seat, move, short=True)}'): {e}"
                ) from None
        match.auto_chance = auto_chance
        if auto_chance:
            match.run_chance()
        return match

    def record(self) -> Record:
        """The record so far: the start, every move and the players' names."""
        return Record(
            self.start.clone(), list(self.moves), self.from_position, list(self.given_names)
        )

    # What is going on -------------------------------------------------------------------

    @property
    def names(self) -> list[str]:
        """The players' names: as given, or P1, P2, ..."""
        return self.given_names or [f"P{i + 1}" for i in range(self.start.n)]

    @property
    def version(self) -> int:
        """The state id: how many moves (chance outcomes included) have been played."""
        return len(self.moves)

    @property
    def is_over(self) -> bool:
        """True once the game has ended."""
        return self.state.is_over

    def view(self, seat: int) -> View:
        """What ``seat`` may know, with the public log."""
        return observe(self.state, seat, tuple(self.log))

    def check(self, move: Move, seat: int | None = None) -> None:
        """Raise the typed error that :meth:`play` would raise for this move; change nothing."""
        if isinstance(move, Action):
            self.state.check(move, seat)
        else:
            self.state.check_chance(move)

    # Moving -----------------------------------------------------------------------------

    def play(self, move: Move, seat: int | None = None) -> list[Event]:
        """Play a move (checked: a refused one raises and changes nothing), then, with
        ``auto_chance``, every chance event it leads to. Returns the events."""
        events = self._apply(move, seat)
        if self.auto_chance:
            events += self.run_chance()
        return events

    def draw(self) -> ChanceOutcome:
        """The chance outcome this match's scheme draws for the pending chance node."""
        state, chance = self.state, self.chance
        if chance.scheme is ChanceScheme.BY_MOVE:
            rng: random.Random = random.Random(f"{chance.seed}/chance/{self.version}")
        elif chance.scheme is ChanceScheme.BY_HAND:
            k = self._chance_in_hand[state.hand_no]
            rng = random.Random(hand_seed(chance.seed, state.hand_no, k))
        else:
            rng = random.SystemRandom()
        return state.sample_chance(rng)

    def run_chance(self) -> list[Event]:
        """Draw and play every pending chance event (deals, reshuffles)."""
        events: list[Event] = []
        while self.state.is_chance:
            events += self._apply(self.draw(), None)
        return events

    def _apply(self, move: Move, seat: int | None) -> list[Event]:
        state = self.state
        chance = not isinstance(move, Action)
        hand = state.hand_no
        mover = None if chance else state.current_seat
        events = state.apply(move, seat)  # checks first: a refused move changes nothing
        self.moves.append((mover, move))
        if chance:
            self._chance_in_hand[hand] += 1
        self.log += events
        return events

    # The end ----------------------------------------------------------------------------

    def standings(self) -> list[Standing]:
        """Each seat's result so far: place, lives (or score) and what it lost."""
        return standings(self.state, self.log)


@dataclass(frozen=True, slots=True)
class Standing:
    """One seat's result in :meth:`Match.standings` (seats 0-based)."""

    seat: int
    place: int  # 1 for the winners (or the leaders while the game goes on)
    lives: int  # lives left (its side's, in teams), or the score with game points
    lost: int  # lives or points lost over the game
    won: bool


def standing(state: State) -> list[float]:
    """What each seat has: its lives (its side's, in teams), or with game points its score
    and the points it still holds this hand. Higher is better."""
    if state.rules.scoring is Scoring.GAME_POINTS:
        return [float(state.scores[i] + state.points[i]) for i in range(state.n)]
    return [float(state.seat_lives(i)) for i in range(state.n)]


def returns(state: State) -> list[float]:
    """Each seat's result (OpenSpiel's ``Returns()``): at the end 1 for a winner and 0 for
    the others; 0 for everybody while the game goes on."""
    winners = state.outcome.winners if state.outcome is not None else ()
    return [1.0 if seat in winners else 0.0 for seat in range(state.n)]


def standings(state: State, log: Sequence[Event]) -> list[Standing]:
    """Seats ranked: the winners first, all in the first place, then by lives left (or
    score, which is better higher); ``place`` is one more than the number of seats ranked
    strictly above."""
    n = state.n
    lost = [0] * n
    for e in log:
        if isinstance(e, LifeLost):
            lost[e.seat] += e.amount - e.unpaid  # what was paid
    if state.rules.scoring is Scoring.GAME_POINTS:
        keys = [float(state.scores[i]) for i in range(n)]
    else:
        keys = [float(state.seat_lives(i)) for i in range(n)]
    winners = set(state.outcome.winners) if state.outcome is not None else set()
    # the winners share the first place: a team wins together, its players out too (O51)
    rank = [(True, 0.0) if i in winners else (False, keys[i]) for i in range(n)]
    return [
        Standing(i, 1 + sum(r > rank[i] for r in rank), int(keys[i]), lost[i], i in winners)
        for i in range(n)
    ]


@dataclass(frozen=True, slots=True)
class Step:
    """A record stepped through: the state after a player's move (with the chance events
    it led to), and how many events and moves of the record had happened by then."""

    state: State
    events: int
    moves: int


def steps(record: Record) -> tuple[list[Step], list[Event]]:
    """Every step of a record (one per player move; the start first when a player is to
    move there), and every event. The record is checked as it is replayed."""
    match = Match(record.start, auto_chance=False)
    shots = [] if match.state.is_chance else [Step(match.state.clone(), 0, 0)]
    for i, (seat, move) in enumerate(record.moves):
        try:
            match.play(move, seat)
        except IllegalActionError as e:
            raise RecordError(
                f"action {i + 1} ('{move_text(seat, move, short=True)}'): {e}"
            ) from None
        following = record.moves[i + 1][1] if i + 1 < len(record.moves) else None
        if following is None or isinstance(following, Action):  # else: fold the chance in
            shots.append(Step(match.state.clone(), len(match.log), i + 1))
    if not shots:
        shots.append(Step(match.state.clone(), len(match.log), len(record.moves)))
    return shots, match.log


def replay(record: Record) -> tuple[State, list[Event]]:
    """Play a record to its end: the final state and every event (a refused move is a
    :class:`RecordError` naming it)."""
    match = Match.from_record(record)
    return match.state, match.log
