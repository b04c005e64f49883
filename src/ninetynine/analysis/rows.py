"""The rows a simulation writes: one per game, one per hand, and one per decision on request.

Every row carries its cell (the rules, the player count and the line-up) and the game's index
in that cell, so the three tables join on ``(rules, players, lineup, game)``. Seats are 0-based
here, as in the engine; a report numbers them from 1. Lists hold one entry per seat, seat 0
first. The files are Parquet under ``rules=K/players=N/lineup=L/`` (or JSON lines where pyarrow
is not installed), one part per chunk of games; see ``docs/analysis.md``.

A chunk's rows travel from the worker that played them to the driver that writes them as
a :class:`Part` per table, cheaper to make, pickle and convert than row objects: tuples
of the fields (:class:`TupleRows`), or the hand rows by column
(:class:`~ninetynine.analysis.columns.HandColumns`).
"""

from __future__ import annotations

import typing
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, fields
from functools import cache
from typing import Any, Protocol, TypeVar

from ninetynine.engine.ledger import LossCause

__all__ = [
    "ROWS_VERSION",
    "DecisionRow",
    "GameRow",
    "HandRow",
    "LossCause",
    "Part",
    "TupleRows",
    "row_maker",
]

ROWS_VERSION = 1  # bumped when a column changes meaning; stored in every manifest


@dataclass(frozen=True, slots=True)
class GameRow:
    """One game: who sat where, who won, and how long it took."""

    rules: str  # the rule set's id (a house-rules file's own id)
    rules_hash: str  # 16 hex digits of the rules' settings: two files with one id differ here
    players: int
    lineup: str  # the line-up's bot specs, comma-separated, in entrant order
    seats: list[str]  # the bot spec in each seat
    block: int  # the duplicate-deal block: its games share every deal (Cell.block_of;
    # batch engine: = game)
    rotation: int  # the block's game, its seats rotated by this much (0 with one bot)
    deal_seed: str  # the block's chance seed (``Chance.by_hand``); on the batch engine, its
    # batch's seed and the game's slot in it (``analysis.batch_play``): other cards
    game: int  # the game's index in its cell, from 0: block * players + rotation, or block
    winners: list[int]  # seats credited with the win (none when everyone lost)
    places: list[int]  # each seat's place: 1 for the winners, then by lives or score
    reason: str  # the engine's EndReason value
    hands: int  # hands played, the last included
    turns: int  # player moves (plays, lay-downs, passes, draws)
    opener: int  # the seat that played first in the first hand
    dealer: int  # the dealer of the first hand
    lives_lost: list[int]  # lives (or game points) each seat lost over the game
    engine: str  # ninetynine's version
    encoding: int  # ninetynine.rl.encoding's version (ENCODING_VERSION), for learned bots


@dataclass(frozen=True, slots=True)
class HandRow:
    """One hand: who led it, what each seat was dealt, and how it ended."""

    rules: str
    players: int
    lineup: str
    game: int
    hand: int  # 1 for the first hand of the game
    opener: int  # the seat that led the hand
    dealer: int
    opening: list[str]  # each seat's dealt cards in card notation, space-separated ("AS 7D KH")
    turns: int  # player moves in the hand
    loser: int  # the seat that lost the hand (went over or could not play), -1 for none
    ending_rank: int  # rank (0 = Ace .. 12 = King) of the last card played in the hand, -1
    lost_over: list[int]  # lives lost by each seat in the hand, by cause (LossCause)
    lost_cannot_play: list[int]
    lost_made_threshold: list[int]
    lost_crossed_threshold: list[int]
    lost_border: list[int]


@dataclass(frozen=True, slots=True)
class DecisionRow:
    """One decision (``--decisions``): the position, what was played, and, on the sampled
    games, each seat's chance of winning the game there (:mod:`ninetynine.analysis.chances`:
    rollouts from each seat's own view)."""

    rules: str
    players: int
    lineup: str
    game: int
    hand: int
    move: int  # the game's move number of this decision, from 0
    seat: int
    total: int  # the running total before the move
    legal: int  # how many legal moves there were
    action: str  # the move in the records' notation
    win_chances: list[float]  # each seat's estimated chance of winning the game; [] unsampled


R = TypeVar("R", GameRow, HandRow, DecisionRow)


@cache
def row_maker(row: type[R]) -> Callable[[Sequence[Any]], R]:
    """What makes a row of class ``row`` from its fields in order, as a simulation's
    workers send them back: a tuple, whose lists may come as tuples (cheaper to make,
    to keep and to pickle); the row gets lists."""
    lists = [
        i for i, kind in enumerate(typing.get_type_hints(row).values()) if typing.get_args(kind)
    ]

    def make(values: Sequence[Any]) -> R:
        found = list(values)
        for i in lists:
            found[i] = list(found[i])
        return row(*found)

    return make


class Part(Protocol):
    """The rows of one table that one part file holds, as a chunk sends them back."""

    @property
    def row(self) -> type:
        """The row class."""
        ...

    def __len__(self) -> int: ...

    def records(self) -> Iterable[Sequence[Any]]:
        """Each row's fields in order (a list field as any sequence)."""
        ...

    def rows(self) -> list[Any]:
        """The row objects."""
        ...

    def arrow_columns(self) -> dict[str, Any]:
        """The columns, by name, as ``pyarrow.table`` takes them with the row's schema."""
        ...


@dataclass
class TupleRows:
    """A :class:`Part` of rows kept as tuples of their fields in order."""

    row: type
    tuples: list[tuple[Any, ...]]

    def __len__(self) -> int:
        return len(self.tuples)

    def records(self) -> list[tuple[Any, ...]]:
        """The tuples."""
        return self.tuples

    def rows(self) -> list[Any]:
        """The row objects."""
        make = row_maker(self.row)
        return [make(t) for t in self.tuples]

    def arrow_columns(self) -> dict[str, Any]:
        """The columns, each a list of the rows' values."""
        names = [f.name for f in fields(self.row)]
        return dict(zip(names, map(list, zip(*self.tuples, strict=True)), strict=True))
