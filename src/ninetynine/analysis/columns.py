"""A chunk's hand rows as they are played: kept by column, not row by row.

A game of Ninety-Nine has many short hands (18 on average for four random players of P),
so the hand rows are most of what a simulation writes down. Made one by one (a tuple of
lists, the cards dealt sorted and spelt out) they cost a sixth of the game's own time, and
again as much to pickle and to convert to Arrow; kept by column they are a few appends a
hand: lists of ints (a hand's start and its end, three numbers each), the cards dealt as
the engine holds them (each seat's cards one after another, and how many), and each seat's
lives lost by cause in one flat ``array("q")`` (zeros mostly) that Arrow reads without a
copy. Sorting and spelling out the cards is left
to where the rows are read or written: :meth:`HandColumns.rows` for the row objects, and
:meth:`HandColumns.arrow_columns` for a Parquet part, where Arrow does it for the whole
chunk at once.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import accumulate
from typing import Any

from ninetynine.analysis.rows import HandRow
from ninetynine.engine.ledger import CAUSES
from ninetynine.rules.cards import CODES, format_card

# HandRow's lives lost by cause, in CAUSES' order
LOST_COLUMNS = (
    "lost_over",
    "lost_cannot_play",
    "lost_made_threshold",
    "lost_crossed_threshold",
    "lost_border",
)
assert len(LOST_COLUMNS) == len(CAUSES)
_TEXT = tuple(format_card(c) for c in range(CODES))  # (jokers too: CN99)


def _spelt(cards: list[int]) -> str:
    return " ".join([_TEXT[c] for c in sorted(cards)])


@dataclass
class HandColumns:
    """The hand rows of one cell's chunk, by column: row ``i`` is entry ``i`` of
    ``game``, entries ``3i`` to ``3i + 2`` of ``starts`` (its hand, opener and dealer)
    and of ``ends`` (its turns, loser and ending rank); ``sizes`` has ``players`` entries
    a row (how many cards each seat was dealt, whose cards follow one another in
    ``cards``), and ``lost`` one block a row of ``players`` entries for each cause."""

    rules: str
    players: int
    lineup: str
    game: list[int] = field(default_factory=list)
    starts: list[int] = field(default_factory=list)  # hand, opener, dealer; row after row
    ends: list[int] = field(default_factory=list)  # turns, loser, ending rank; row after row
    cards: list[int] = field(default_factory=list)
    sizes: list[int] = field(default_factory=list)
    lost: array[int] = field(default_factory=lambda: array("q"))

    row = HandRow

    def __len__(self) -> int:
        return len(self.game)

    def of_game(self, game: int) -> None:
        """The rows written since the last call are game ``game``'s."""
        self.game += [game] * (len(self.starts) // 3 - len(self.game))

    def no_loss(self) -> array[int]:
        """A row's block of ``lost`` before anything is paid."""
        return array("q", bytes(8 * len(CAUSES) * self.players))

    def records(self) -> Iterator[tuple[Any, ...]]:
        """Each row's fields, in HandRow's order."""
        n, lost, cards, starts, ends = self.players, self.lost, self.cards, self.starts, self.ends
        width = len(CAUSES) * n
        dealt = list(accumulate(self.sizes, initial=0))
        for i, game in enumerate(self.game):
            at, seat, j = i * width, i * n, 3 * i
            yield (
                self.rules,
                n,
                self.lineup,
                game,
                *starts[j : j + 3],
                [_spelt(cards[dealt[s] : dealt[s + 1]]) for s in range(seat, seat + n)],
                *ends[j : j + 3],
                *(lost[b : b + n].tolist() for b in range(at, at + width, n)),
            )

    def rows(self) -> list[HandRow]:
        """The row objects."""
        return [HandRow(*record) for record in self.records()]

    def arrow_columns(self) -> dict[str, Any]:
        """The columns as ``pyarrow.table`` takes them: Arrow arrays built for the whole
        chunk at once (the flat columns read without a copy where they can be)."""
        import pyarrow as pa
        import pyarrow.compute as pc

        count, n = len(self.game), self.players
        ints = pa.int64()

        def int64(values: list[int] | array[int]) -> Any:
            # an array("q") is read in place, where Arrow would convert a list value by value
            flat = values if isinstance(values, array) else array("q", values)
            return pa.Array.from_buffers(ints, len(flat), [None, pa.py_buffer(flat)])

        # each field of the starts and ends: every third entry (a list's slice is quicker
        # than Arrow's list_element on a fixed-size list)
        hand, opener, dealer = (int64(self.starts[i::3]) for i in range(3))
        turns, loser, ending = (int64(self.ends[i::3]) for i in range(3))
        # the opening: each seat's cards sorted (by seat, then card), spelt, joined
        # (bytes() turns a list of small ints into a buffer that Arrow reads several
        # times faster than it reads the list: a card is below 52, a hand far below 256)
        cards = pa.Array.from_buffers(
            pa.uint8(), len(self.cards), [None, pa.py_buffer(bytes(self.cards))]
        )
        sizes = pa.Array.from_buffers(
            pa.uint8(), len(self.sizes), [None, pa.py_buffer(bytes(self.sizes))]
        )
        dealt = pc.cumulative_sum(sizes.cast(pa.int32()))
        offsets = pa.concat_arrays([pa.array([0], pa.int32()), dealt])
        seat = pc.list_parent_indices(pa.ListArray.from_arrays(offsets, cards))
        order = pc.sort_indices(pc.add(pc.multiply(seat, 64), cards.cast(ints)))
        spelt = pc.take(pa.array(_TEXT, pa.string()), pc.take(cards, order))
        seats = pc.binary_join(pa.ListArray.from_arrays(offsets, spelt), " ")
        opening = pa.FixedSizeListArray.from_arrays(seats, n).cast(pa.list_(pa.string()))
        # lives lost: rows of causes of seats; cause c of every row is element c of each
        by_row = pa.FixedSizeListArray.from_arrays(
            pa.FixedSizeListArray.from_arrays(int64(self.lost), n), len(CAUSES)
        )
        return {
            "rules": pc.fill_null(pa.nulls(count, pa.string()), self.rules),
            "players": pc.fill_null(pa.nulls(count, ints), n),
            "lineup": pc.fill_null(pa.nulls(count, pa.string()), self.lineup),
            "game": int64(self.game),
            "hand": hand,
            "opener": opener,
            "dealer": dealer,
            "opening": opening,
            "turns": turns,
            "loser": loser,
            "ending_rank": ending,
            **{
                name: pc.list_element(by_row, c).cast(pa.list_(ints))
                for c, name in enumerate(LOST_COLUMNS)
            },
        }
