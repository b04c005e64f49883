"""The report's plots, drawn by matplotlib as SVG text to inline in a page (no script, no
file and no address in them: the page opens offline). Needs the analysis extra."""

from __future__ import annotations

import io
import math
import re
from collections.abc import Sequence

import matplotlib

matplotlib.use("Agg")  # no display: draw to memory only

import matplotlib.pyplot as plt  # noqa: E402  (the backend is chosen first)
from matplotlib.figure import Figure  # noqa: E402

from ninetynine.analysis.card_value import CardValue, ControlledValue  # noqa: E402
from ninetynine.analysis.excitement import Excitement  # noqa: E402
from ninetynine.analysis.groups import CellKey  # noqa: E402
from ninetynine.analysis.intervals import Estimate  # noqa: E402
from ninetynine.analysis.ladder import Pair  # noqa: E402
from ninetynine.analysis.rows import LossCause  # noqa: E402
from ninetynine.analysis.summary import CellSummary  # noqa: E402

plt.rcParams.update(
    {
        "svg.hashsalt": "ninetynine",  # the same ids every time: the same file for the same data
        "svg.fonttype": "none",  # text as text, in the page's font
        "font.size": 9,
        "axes.spines.top": False,
        "axes.spines.right": False,
    }
)
_HEAD = re.compile(r"\A.*?(?=<svg)", re.S)  # the XML prolog and DOCTYPE
_METADATA = re.compile(r"\s*<metadata>.*?</metadata>", re.S)  # its addresses of RDF vocabularies


def to_svg(fig: Figure, title: str) -> str:
    """The figure as an ``<svg>`` element (no XML prolog, no DOCTYPE), titled for
    screen readers; the figure is closed."""
    buf = io.StringIO()
    fig.savefig(buf, format="svg", metadata={"Date": None, "Creator": None}, bbox_inches="tight")
    plt.close(fig)
    svg = _METADATA.sub("", _HEAD.sub("", buf.getvalue(), count=1), count=1)
    return svg.replace(">", f' role="img" aria-label="{_attr(title)}">', 1)


def _attr(text: str) -> str:
    return text.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")


def _errors(estimates: Sequence[Estimate]) -> list[list[float]]:
    return [
        [max(0.0, e.value - e.low) for e in estimates],
        [max(0.0, e.high - e.value) for e in estimates],
    ]


def seat_rates(summary: CellSummary) -> str:
    """Win rate by position from the opener (and from the dealer), with intervals and the
    fair share's line."""
    f = summary.fairness
    n = len(f.from_opener)
    fig, ax = plt.subplots(figsize=(4.6, 2.8))
    xs = list(range(1, n + 1))
    for shift, rates, label in (
        (-0.12, f.from_opener, "from the opener"),
        (0.12, f.from_dealer, "from the dealer's left"),
    ):
        ordered = rates if label == "from the opener" else rates[1:] + rates[:1]
        ax.errorbar(
            [x + shift for x in xs],
            [e.value for e in ordered],
            yerr=_errors(ordered),
            fmt="o",
            capsize=3,
            label=label,
        )
    ax.axhline(f.fair_share, color="grey", linestyle="--", label=f"fair share {f.fair_share:.3f}")
    ax.set_xticks(xs)
    ax.set_ylim(bottom=0)
    ax.set_xlabel("seat in order of play (1 = first)")
    ax.set_ylabel("win rate")
    ax.set_title(f"{summary.cell.label} ({summary.games} games)")
    ax.legend(fontsize=7, frameon=False)
    return to_svg(fig, f"win rate by seat, {summary.cell.label}")


def lengths(summaries: Sequence[CellSummary], rules: str, what: str = "turns") -> str:
    """The distribution of turns (or hands) per game of one rule set, a line per player
    count."""
    fig, ax = plt.subplots(figsize=(4.6, 2.8))
    for s in summaries:
        dist = s.length.turns if what == "turns" else s.length.hands
        total = sum(dist.counts.values())
        xs = sorted(dist.counts)
        ax.step(
            xs,
            [dist.counts[x] / total for x in xs],
            where="mid",
            label=f"{s.cell.players} players (mean {dist.mean.value:.1f})",
        )
    ax.set_ylim(bottom=0)
    ax.set_xlabel(f"{what} per game")
    ax.set_ylabel("share of games")
    ax.set_title(f"{rules}: {what} per game")
    ax.legend(fontsize=7, frameon=False)
    return to_svg(fig, f"{what} per game, {rules}")


def causes(summaries: Sequence[CellSummary]) -> str:
    """Lives lost by cause: each cell's share of lives lost by each cause, stacked."""
    rows = [s for s in summaries if s.losses is not None and s.losses.lives]
    fig, ax = plt.subplots(figsize=(6.4, 0.6 + 0.32 * max(1, len(rows))))
    left = [0.0] * len(rows)
    for cause in LossCause:
        share = [s.losses.share[cause].value if s.losses else 0.0 for s in rows]
        ax.barh(range(len(rows)), share, left=left, label=cause.value.replace("_", " "))
        left = [a + b for a, b in zip(left, share, strict=True)]
    ax.set_yticks(range(len(rows)), [s.cell.label for s in rows], fontsize=7)
    ax.invert_yaxis()
    ax.set_xlabel("share of lives lost")
    ax.legend(
        fontsize=7,
        frameon=False,
        ncols=3,
        loc="upper center",
        bbox_to_anchor=(0.5, -0.35 if len(rows) < 4 else -0.08),
    )
    return to_svg(fig, "lives lost by cause")


def card_values(summary: CellSummary, controlled: Sequence[ControlledValue] = ()) -> str:
    """Each rank's worth in the hand: observed (with minus without), and controlled."""
    values: Sequence[CardValue] = summary.card_values
    fig, ax = plt.subplots(figsize=(6.0, 2.8))
    xs = list(range(len(values)))
    obs = [v.hand.difference for v in values]
    ax.errorbar(
        [x - 0.1 for x in xs],
        [e.value for e in obs],
        yerr=_errors(obs),
        fmt="o",
        capsize=2,
        label="observed",
    )
    if controlled:
        ranks = [v.rank for v in values]
        at = [ranks.index(c.rank) for c in controlled]
        ctl = [c.hand.difference for c in controlled]
        ax.errorbar(
            [x + 0.1 for x in at],
            [e.value for e in ctl],
            yerr=_errors(ctl),
            fmt="s",
            capsize=2,
            label="controlled (swapped)",
        )
    ax.axhline(0, color="grey", linewidth=0.8)
    ax.set_xticks(xs, [v.rank for v in values])
    ax.set_xlabel("rank in the opening hand")
    ax.set_ylabel("not losing the hand:\nwith minus without")
    ax.set_title(summary.cell.label)
    ax.legend(fontsize=7, frameon=False)
    return to_svg(fig, f"card values, {summary.cell.label}")


def ladder(measured: Sequence[tuple[str, Pair]]) -> str:
    """Each ladder pair: the better bot's win rate minus the weaker's, with intervals."""
    fig, ax = plt.subplots(figsize=(6.0, 0.8 + 0.3 * max(1, len(measured))))
    ys = list(range(len(measured)))
    diffs = [p.difference.difference for _, p in measured]
    ax.errorbar([e.value for e in diffs], ys, xerr=_errors(diffs), fmt="o", capsize=3)
    ax.axvline(0, color="grey", linestyle="--")
    ax.set_yticks(ys, [f"{p.better} − {p.weaker} ({where})" for where, p in measured], fontsize=7)
    ax.invert_yaxis()
    ax.set_xlabel("win rate per seat-game: better bot minus weaker")
    return to_svg(fig, "the skill ladder")


def means(summaries: Sequence[CellSummary], what: str = "turns") -> str:
    """Each cell's mean turns (or hands) per game with its interval, one line per cell."""
    fig, ax = plt.subplots(figsize=(6.0, 0.8 + 0.22 * max(1, len(summaries))))
    ys = list(range(len(summaries)))
    est = [(s.length.turns if what == "turns" else s.length.hands).mean for s in summaries]
    ax.errorbar([e.value for e in est], ys, xerr=_errors(est), fmt="o", markersize=3, capsize=2)
    ax.set_yticks(ys, [s.cell.label for s in summaries], fontsize=6)
    ax.invert_yaxis()
    ax.set_xlabel(f"mean {what} per game (95% interval)")
    return to_svg(fig, f"mean {what} per game")


def trend(summary: CellSummary | CellKey, excite: Excitement) -> str:
    """CardStock's average trend: each final place's mean win estimate over the game."""
    fig, ax = plt.subplots(figsize=(4.6, 2.8))
    for place, line in excite.trend.items():
        bins = len(line)
        xs = [(i + 0.5) / bins for i in range(bins)]
        ys = [y for y in line]
        ax.plot(
            [x for x, y in zip(xs, ys, strict=True) if not math.isnan(y)],
            [y for y in ys if not math.isnan(y)],
            label=f"place {place}",
        )
    ax.axhline(0.5, color="grey", linestyle=":", linewidth=0.8)
    ax.set_ylim(0, 1)
    ax.set_xlabel("share of the game played")
    ax.set_ylabel("estimated chance of winning")
    cell = summary if isinstance(summary, CellKey) else summary.cell
    ax.set_title(f"{cell.label} ({excite.games} sampled games)")
    ax.legend(fontsize=7, frameon=False)
    return to_svg(fig, f"average trend, {cell.label}")
