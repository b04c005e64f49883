"""Two runs compared, cell by cell: each figure's difference with its interval and test.

Where both runs played a cell's block on the same deal seed, the block's games share every
deal (same rules, players and line-up; a block is one game where one bot holds every seat),
and the difference is paired by deal: Student's t on the per-block differences, which
takes the luck of the deal out of the comparison. A
cell whose runs share fewer than two blocks' deals is compared unpaired (Welch's t on the
games). Runs of
different rule sets (a house rule against its preset) are matched by player count and
line-up, and compared unpaired: their deals are not known to be the same cards.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ninetynine.analysis.groups import CellKey, by_block, by_cell
from ninetynine.analysis.intervals import Comparison, paired_difference, unpaired_difference
from ninetynine.analysis.rows import GameRow

Figure = Callable[[GameRow], float]

FIGURES: dict[str, Figure] = {
    "turns per game": lambda g: float(g.turns),
    "hands per game": lambda g: float(g.hands),
    "opener's win rate": lambda g: float(g.opener in g.winners),
}


@dataclass(frozen=True, slots=True)
class Difference:
    """One figure of one cell: run A's mean, run B's, and A minus B."""

    cell: CellKey
    against: CellKey  # run B's cell: the same, or another rule set's
    figure: str
    a: float
    b: float
    comparison: Comparison


def compare_cell(a: Sequence[GameRow], b: Sequence[GameRow], figure: Figure) -> Comparison:
    """A figure's difference between two runs of one cell, paired by deal where two blocks
    or more share theirs."""
    if a[0].rules != b[0].rules:
        return unpaired_difference([figure(g) for g in a], [figure(g) for g in b])
    blocks_a, blocks_b = by_block(a), by_block(b)
    shared = [
        k
        for k in blocks_a.keys() & blocks_b.keys()
        if blocks_a[k][0].deal_seed == blocks_b[k][0].deal_seed
    ]
    if len(shared) >= 2:
        return paired_difference(
            [
                (
                    statistics.fmean(figure(g) for g in blocks_a[k]),
                    statistics.fmean(figure(g) for g in blocks_b[k]),
                )
                for k in sorted(shared)
            ]
        )
    return unpaired_difference([figure(g) for g in a], [figure(g) for g in b])


def compare(a: Sequence[GameRow], b: Sequence[GameRow]) -> list[Difference]:
    """Every figure of every cell both runs played; where they share no cell, the cells
    of one player count and line-up (the runs' rule sets differ)."""
    cells_a, cells_b = by_cell(a), by_cell(b)
    matched = [(c, c) for c in sorted(cells_a.keys() & cells_b.keys())]
    if not matched:
        matched = [
            (ca, cb)
            for ca in cells_a
            for cb in cells_b
            if (ca.players, ca.lineup) == (cb.players, cb.lineup)
        ]
    out = []
    for cell, other in matched:
        for name, figure in FIGURES.items():
            ga, gb = cells_a[cell], cells_b[other]
            out.append(
                Difference(
                    cell,
                    other,
                    name,
                    statistics.fmean(figure(g) for g in ga),
                    statistics.fmean(figure(g) for g in gb),
                    compare_cell(ga, gb, figure),
                )
            )
    return out
