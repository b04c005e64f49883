"""The statistics as plain tables: the terminal's report, and the tables of the HTML page
(the same rows, so the two never disagree)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ninetynine.analysis.compare import Difference
from ninetynine.analysis.excitement import Excitement
from ninetynine.analysis.groups import CellKey
from ninetynine.analysis.ladder import order
from ninetynine.analysis.rows import LossCause
from ninetynine.analysis.summary import CellSummary


@dataclass(frozen=True, slots=True)
class Table:
    """A titled table of text cells; ``note`` says how its figures were made."""

    title: str
    header: list[str]
    rows: list[list[str]]
    note: str = ""

    def text(self) -> str:
        """The table as aligned text, the first column left, the others right."""
        widths = [
            max(len(r[i]) for r in [self.header, *self.rows]) for i in range(len(self.header))
        ]

        def line(cells: Sequence[str]) -> str:
            return "  ".join(
                c.ljust(w) if i == 0 else c.rjust(w)
                for i, (c, w) in enumerate(zip(cells, widths, strict=True))
            ).rstrip()

        out = [self.title, line(self.header), *map(line, self.rows)]
        if self.note:
            out.append(f"  ({self.note})")
        return "\n".join(out)

    def markdown(self) -> str:
        """The table in Markdown, its title above and its note below."""

        def line(cells: Sequence[str]) -> str:
            return "| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |"

        rule = "|" + "|".join(":--" if i == 0 else "--:" for i in range(len(self.header))) + "|"
        out = [f"**{self.title}**", "", line(self.header), rule, *map(line, self.rows)]
        if self.note:
            out += ["", f"<small>{self.note}</small>"]
        return "\n".join(out)


def cells_table(summaries: Sequence[CellSummary]) -> Table:
    """Each cell's games, its mean hands and turns per game, and the median and quartiles
    of its turns."""
    return Table(
        "Cells",
        ["cell", "games", "hands/game", "turns/game", "median turns", "quartiles"],
        [
            [
                s.cell.label,
                str(s.games),
                s.length.hands.mean.plain(1),
                s.length.turns.mean.plain(1),
                f"{s.length.turns.median:g}",
                f"{s.length.turns.q1:g}–{s.length.turns.q3:g}",
            ]
            for s in summaries
        ],
        "means with Student t 95% intervals",
    )


def fairness_table(summaries: Sequence[CellSummary]) -> Table:
    """Each cell's fair share and win rate by seat in order of play from the opener, with
    CardStock's Fairness and Ludii's Balance."""
    most = max(s.cell.players for s in summaries)
    rows = []
    for s in summaries:
        f = s.fairness
        seats = [e.percent() for e in f.from_opener] + [""] * (most - len(f.from_opener))
        rows.append(
            [
                s.cell.label,
                f"{100 * f.fair_share:.1f}%",
                *seats,
                f"{f.cardstock:.2f}",
                f"{f.balance:.2f}",
            ]
        )
    methods = sorted({str(e.method) for s in summaries for e in s.fairness.from_opener})
    return Table(
        "Win rate by seat, in order of play from the opener",
        ["cell", "fair", *[f"seat {i + 1}" for i in range(most)], "Fairness", "Balance"],
        rows,
        f"95% intervals: {', '.join(methods)}; Fairness: CardStock's, of seat 1; Balance: Ludii's",
    )


def dealer_table(summaries: Sequence[CellSummary]) -> Table:
    """Each cell's win rate by seat counted from the first hand's dealer (0 = the dealer)."""
    most = max(s.cell.players for s in summaries)
    rows = []
    for s in summaries:
        rates = s.fairness.from_dealer
        rows.append([s.cell.label, *[e.percent() for e in rates] + [""] * (most - len(rates))])
    return Table(
        "Win rate by seat, counted from the dealer (0 = the dealer, 1 = its left)",
        ["cell", *[str(i) for i in range(most)]],
        rows,
    )


def losses_table(summaries: Sequence[CellSummary]) -> Table:
    """Each cell's lives lost, and the share of them by cause (cells without hand rows
    left out)."""
    rows = []
    for s in summaries:
        if s.losses is None:
            continue
        rows.append(
            [s.cell.label, str(s.losses.lives), *[s.losses.share[c].percent(0) for c in LossCause]]
        )
    return Table(
        "Lives lost by cause (share of all lives lost)",
        ["cell", "lives", *[c.value.replace("_", " ") for c in LossCause]],
        rows,
        "Wilson 95% intervals",
    )


def ending_table(summaries: Sequence[CellSummary]) -> Table:
    """Each cell's share of the hands ended on a card that each rank ended (cells without
    hand rows left out)."""
    with_hands = [s for s in summaries if s.losses is not None]
    ranks = list(with_hands[0].losses.ending) if with_hands and with_hands[0].losses else []
    return Table(
        "Which rank ends a hand (share of hands ended on a card)",
        ["cell", *ranks],
        [
            [s.cell.label, *[f"{100 * e.value:.0f}%" for e in s.losses.ending.values()]]
            for s in with_hands
            if s.losses is not None
        ],
    )


def card_value_table(summary: CellSummary) -> Table:
    """One cell's card values by rank: the observed chance of keeping the hand with the
    rank dealt and without, the observed differences for the hand and the game, and the
    controlled difference for the hand with its deals where it was measured."""
    controlled = {c.rank: c for c in summary.controlled}
    rows = []
    for v in summary.card_values:
        c = controlled.get(v.rank)
        rows.append(
            [
                v.rank,
                v.hand_with.percent(),
                v.hand_without.percent(),
                f"{100 * v.hand.difference.value:+.1f} pts",
                f"{100 * v.game.difference.value:+.1f} pts",
                f"{c.hand.difference.points()} ({c.deals})" if c else "",
            ]
        )
    return Table(
        f"Card value, {summary.cell.label}: not losing the hand with the rank dealt, and without",
        ["rank", "with", "without", "hand", "game", "controlled hand (deals)"],
        rows,
        "observed: Newcombe intervals in the HTML; controlled: the same deal with the rank "
        "swapped in or out, paired t by deal",
    )


def ladder_table(summaries: Sequence[CellSummary]) -> Table:
    """Every ladder pair of every cell: each bot's win rate, the difference with its
    interval and p-value; the note gives Order over all the pairs."""
    measured = [(s, p) for s in summaries for p in s.pairs]
    share = order([p for _, p in measured])
    return Table(
        "Skill ladder: the better bot's win rate against the weaker's",
        ["cell", "better", "rate", "weaker", "rate", "difference [95%]", "p"],
        [
            [
                s.cell.label,
                p.better,
                p.better_rate.percent(),
                p.weaker,
                p.weaker_rate.percent(),
                p.difference.difference.points(),
                f"{p.difference.p_value:.3g}",
            ]
            for s, p in measured
        ],
        "Order (the share of pairs the better bot won): "
        + ("n/a" if share is None else f"{share:.2f}"),
    )


def luck_table(summaries: Sequence[CellSummary]) -> Table:
    """Each cell's luck of the deal, where it was measured: the shares of the variance of
    a chair's result that the deal, the chair and the play explain."""
    return Table(
        "Luck of the deal: what a chair's result varies with",
        ["cell", "blocks", "the deal", "the chair", "the play"],
        [
            [
                s.cell.label,
                str(s.luck.blocks),
                f"{100 * s.luck.deal:.0f}%",
                f"{100 * s.luck.chair:.0f}%",
                f"{100 * s.luck.play:.0f}%",
            ]
            for s in summaries
            if s.luck is not None
        ],
        "shares of the variance of a chair's win: ICC(1) over the deal's replays, "
        "the chairs' means, the rest",
    )


def excitement_table(figures: Sequence[tuple[CellKey, Excitement]]) -> Table:
    """Each cell's excitement figures with its sample size; the note says how the chances
    were estimated."""
    rows = []
    notes = set()
    for cell, e in figures:
        notes.add(e.estimator)
        rows.append(
            [
                cell.label,
                str(e.games),
                e.drama.plain(),
                e.security.plain(),
                e.lead_changes.plain(3),
                e.decisiveness.plain(),
                e.stability.plain(3),
            ]
        )
    return Table(
        "Excitement, on a sample of games (sample size in the second column)",
        ["cell", "games", "Drama", "Security", "lead changes/move", "Decisiveness", "Stability"],
        rows,
        "; ".join(sorted(notes)) + "; means with Student t 95% intervals",
    )


def compare_table(differences: Sequence[Difference]) -> Table:
    """Each figure of each cell two runs share: run A's mean, run B's, A minus B with its
    interval, the test and its p-value."""
    return Table(
        "A minus B",
        ["cell", "figure", "A", "B", "A − B [95%]", "test", "p"],
        [
            [
                d.cell.label if d.cell == d.against else f"{d.cell.label} vs {d.against.rules}",
                d.figure,
                f"{d.a:.3f}",
                f"{d.b:.3f}",
                d.comparison.difference.plain(3),
                d.comparison.test,
                f"{d.comparison.p_value:.3g}",
            ]
            for d in differences
        ],
        "paired by deal where the runs share their deals, else unpaired (Welch)",
    )


def all_tables(
    summaries: Sequence[CellSummary], differences: Sequence[Difference] = ()
) -> list[Table]:
    """Every table of a report, in its order."""
    tables = [cells_table(summaries), fairness_table(summaries), dealer_table(summaries)]
    if any(s.losses for s in summaries):
        tables += [losses_table(summaries), ending_table(summaries)]
    tables += [card_value_table(s) for s in summaries if s.card_values]
    if any(s.pairs for s in summaries):
        tables.append(ladder_table(summaries))
    if any(s.luck for s in summaries):
        tables.append(luck_table(summaries))
    excited = [(s.cell, s.excitement) for s in summaries if s.excitement is not None]
    if excited:
        tables.append(excitement_table(excited))
    if differences:
        tables.append(compare_table(differences))
    return tables


def text(summaries: Sequence[CellSummary], differences: Sequence[Difference] = ()) -> str:
    """The whole report as terminal text."""
    return "\n\n".join(t.text() for t in all_tables(summaries, differences)) + "\n"
