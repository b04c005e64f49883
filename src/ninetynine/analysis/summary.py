"""Every statistic of a run, cell by cell: what a report shows (``ninetynine report``)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

from ninetynine.analysis.card_value import CardValue, ControlledValue, observational
from ninetynine.analysis.chances import estimator
from ninetynine.analysis.excitement import Excitement, History, excitement
from ninetynine.analysis.fairness import Fairness, fairness
from ninetynine.analysis.groups import CellKey, by_cell
from ninetynine.analysis.ladder import Luck, Pair, luck, pairs
from ninetynine.analysis.length import Length, length
from ninetynine.analysis.losses import Losses, losses
from ninetynine.analysis.rows import DecisionRow, GameRow, HandRow


@dataclass(frozen=True)
class CellSummary:
    """One cell's statistics; the optional ones are None where the rows cannot give them."""

    cell: CellKey
    games: int
    fairness: Fairness
    length: Length
    losses: Losses | None  # None without hand rows
    card_values: list[CardValue]
    pairs: list[Pair]
    luck: Luck | None
    excitement: Excitement | None = None
    controlled: list[ControlledValue] = field(default_factory=list)


def histories(games: Sequence[GameRow], decisions: Sequence[DecisionRow]) -> list[History]:
    """The lead histories of the sampled games (those whose decisions carry chances)."""
    by_game: dict[int, list[DecisionRow]] = defaultdict(list)
    for d in decisions:
        if d.win_chances:
            by_game[d.game].append(d)
    out = []
    for g in games:
        if g.game in by_game:
            rows = sorted(by_game[g.game], key=lambda d: d.move)
            out.append(
                History([list(d.win_chances) for d in rows], list(g.winners), list(g.places))
            )
    return out


def summarize(
    games: Sequence[GameRow],
    hands: Sequence[HandRow] = (),
    decisions: Sequence[DecisionRow] = (),
) -> list[CellSummary]:
    """The statistics of every cell that has games."""
    hands_of, decisions_of = by_cell(hands), by_cell(decisions)
    out = []
    for cell, rows in by_cell(games).items():
        cell_hands = hands_of.get(cell, [])
        lead = histories(rows, decisions_of.get(cell, []))
        out.append(
            CellSummary(
                cell,
                len(rows),
                fairness(rows),
                length(rows),
                losses(cell_hands) if cell_hands else None,
                observational(rows, cell_hands) if cell_hands else [],
                pairs(rows),
                luck(rows),
                excitement(lead, estimator()) if lead else None,
            )
        )
    return out
