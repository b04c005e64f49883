"""The report as one self-contained HTML page: the tables and the plots inline (SVG), its
style in the page, no script, no link out: a Content-Security-Policy forbids the page any
request, so it opens the same offline. Needs the analysis extra (matplotlib)."""

from __future__ import annotations

import html
from collections import defaultdict
from collections.abc import Sequence

from ninetynine.analysis import plots
from ninetynine.analysis.compare import Difference
from ninetynine.analysis.summary import CellSummary
from ninetynine.analysis.tables import Table, all_tables

STYLE = """
body { font: 15px/1.45 system-ui, sans-serif; max-width: 68rem; margin: 1.5rem auto;
       padding: 0 1rem; color: #1a1a1a; }
h1 { font-size: 1.5rem; } h2 { font-size: 1.2rem; margin-top: 2rem; }
table { border-collapse: collapse; margin: .6rem 0; font-size: .85rem; }
th, td { padding: .2rem .5rem; border-bottom: 1px solid #ddd; text-align: right; }
th:first-child, td:first-child { text-align: left; }
caption { text-align: left; font-weight: 600; padding-bottom: .3rem; }
.note { color: #555; font-size: .8rem; }
.plots { display: flex; flex-wrap: wrap; gap: 1rem; }
figure { margin: 0; } figcaption { font-size: .8rem; color: #555; }
svg { max-width: 100%; height: auto; }
"""
CSP = "default-src 'none'; style-src 'unsafe-inline'"


def _table(t: Table) -> str:
    head = "".join(f"<th>{html.escape(c)}</th>" for c in t.header)
    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>" for row in t.rows
    )
    note = f'<p class="note">{html.escape(t.note)}</p>' if t.note else ""
    return (
        f"<table><caption>{html.escape(t.title)}</caption><thead><tr>{head}</tr></thead>"
        f"<tbody>{body}</tbody></table>{note}"
    )


def _figure(kind: str, svg: str, caption: str) -> str:
    return (
        f'<figure class="plot" data-plot="{kind}">{svg}'
        f"<figcaption>{html.escape(caption)}</figcaption></figure>"
    )


def figures(summaries: Sequence[CellSummary]) -> dict[str, list[str]]:
    """Every plot of a report, as ``<figure>`` elements by section."""
    out: dict[str, list[str]] = defaultdict(list)
    for s in summaries:
        out["Fairness"].append(
            _figure(
                "seat-rates",
                plots.seat_rates(s),
                "win rate by seat with 95% intervals; dashed: the fair share",
            )
        )
    by_rules: dict[str, list[CellSummary]] = defaultdict(list)
    for s in summaries:
        by_rules[s.cell.rules].append(s)
    for rules, group in by_rules.items():
        out["Length"].append(
            _figure(
                "turns", plots.lengths(group, rules, "turns"), "turns per game, by player count"
            )
        )
        out["Length"].append(
            _figure(
                "hands", plots.lengths(group, rules, "hands"), "hands per game, by player count"
            )
        )
    if any(s.losses and s.losses.lives for s in summaries):
        out["Lives lost"].append(_figure("causes", plots.causes(summaries), "lives lost by cause"))
    for s in summaries:
        if s.card_values:
            out["Card value"].append(
                _figure(
                    "card-value",
                    plots.card_values(s, s.controlled),
                    "with minus without, 95% intervals",
                )
            )
    measured = [(s.cell.label, p) for s in summaries for p in s.pairs]
    if measured:
        out["Skill"].append(
            _figure("ladder", plots.ladder(measured), "the better bot's rate minus the weaker's")
        )
    for s in summaries:
        if s.excitement is not None and s.excitement.trend:
            out["Excitement"].append(
                _figure(
                    "trend",
                    plots.trend(s, s.excitement),
                    "average trend of each place's win estimate "
                    f"({s.excitement.games} sampled games)",
                )
            )
    return out


SECTIONS = {  # the tables of each section, by their title's start
    "Fairness": ("Cells", "Win rate by seat"),
    "Length": (),
    "Lives lost": ("Lives lost", "Which rank"),
    "Card value": ("Card value",),
    "Skill": ("Skill ladder", "Luck"),
    "Excitement": ("Excitement",),
    "Comparison": ("A minus B",),
}


def render(
    summaries: Sequence[CellSummary],
    differences: Sequence[Difference] = (),
    *,
    title: str = "Ninety-Nine: simulation report",
    intro: str = "",
) -> str:
    """The whole page."""
    tables = all_tables(summaries, differences)
    plotted = figures(summaries)
    parts = [f"<h1>{html.escape(title)}</h1>"]
    if intro:
        parts.append(f"<p>{html.escape(intro)}</p>")
    for section, starts in SECTIONS.items():
        chosen = [t for t in tables if t.title.startswith(starts)] if starts else []
        if not chosen and not plotted.get(section):
            continue
        parts.append(f"<section><h2>{section}</h2>")
        parts += [_table(t) for t in chosen]
        if plotted.get(section):
            parts.append('<div class="plots">' + "".join(plotted[section]) + "</div>")
        parts.append("</section>")
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{html.escape(title)}</title><style>{STYLE}</style></head><body>"
        + "\n".join(parts)
        + "</body></html>\n"
    )
