"""The cells of a simulation (one rule set, one player count, one line-up) and the
grouping of rows by cell and by deal block, which every statistic starts from."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol, TypeVar

from ninetynine.analysis.rows import GameRow


class InCell(Protocol):
    """Any row: each carries its cell."""

    @property
    def rules(self) -> str:
        """The rule set's id."""

    @property
    def players(self) -> int:
        """The player count."""

    @property
    def lineup(self) -> str:
        """The line-up's bot specs, comma-separated."""


R = TypeVar("R", bound=InCell)


@dataclass(frozen=True, slots=True, order=True)
class CellKey:
    """The cell a row belongs to, by its columns: a rule set's id, a player count and a
    line-up as the rows write it (:class:`~ninetynine.analysis.cells.Cell` is the cell played)."""

    rules: str
    players: int
    lineup: str

    @property
    def label(self) -> str:
        """``'P, 4 players, heuristic×4'``: a line-up of one bot is written once."""
        specs = self.lineup.split(",")
        bots = f"{specs[0]}×{self.players}" if len(set(specs)) == 1 else self.lineup
        return f"{self.rules}, {self.players} players, {bots}"


def cell_of(row: InCell) -> CellKey:
    """The cell ``row`` belongs to, from its columns."""
    return CellKey(row.rules, row.players, row.lineup)


def by_cell(rows: Iterable[R]) -> dict[CellKey, list[R]]:
    """Rows grouped by cell, cells in order."""
    out: dict[CellKey, list[R]] = defaultdict(list)
    for row in rows:
        out[cell_of(row)].append(row)
    return dict(sorted(out.items()))


def by_block(games: Iterable[GameRow]) -> dict[int, list[GameRow]]:
    """A cell's games by deal block (its games share every deal), blocks in order."""
    out: dict[int, list[GameRow]] = defaultdict(list)
    for game in games:
        out[game.block].append(game)
    return dict(sorted(out.items()))
