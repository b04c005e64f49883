"""Read a simulation's results and report their statistics: tables in the terminal and
one self-contained HTML page of tables and plots (no script, no network: it opens
offline).

Example: ``ninetynine report results/ -o report.html --compare other-results/``

The figures come with 95% intervals, each naming its method: Wilson's for proportions
(counting each deal block once where its games share every deal: Student t over the blocks
from 10 of them), Student t for means. With
``--compare`` each cell's turns, hands and opener's win rate are compared between the two
runs, paired by deal where they share their deals (the same rules, seed and blocks),
unpaired (Welch) otherwise. Excitement figures (Drama, Security, lead changes,
decisiveness) need decision rows with win chances (``ninetynine simulate --decisions``).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from ninetynine.cli.extras import require


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Adds the options of ``ninetynine report``: the results folder, the HTML file and the
    run to compare it with."""
    parser.add_argument(
        "results", metavar="RESULTS", help="a results folder of ninetynine simulate"
    )
    parser.add_argument(
        "-o", "--out", default=None, metavar="FILE", help="write the HTML report to FILE"
    )
    parser.add_argument(
        "--compare", default=None, metavar="OTHER", help="a second results folder: A minus B"
    )


def run(args: argparse.Namespace) -> int:
    """Prints a run's statistics (and its differences from ``--compare``'s) as tables and
    writes the HTML page with ``-o``; returns 0, or raises the one-line error of a bad folder."""
    require("analysis", "report", "the report")
    from ninetynine.analysis import read_results
    from ninetynine.analysis.compare import compare
    from ninetynine.analysis.summary import summarize
    from ninetynine.analysis.tables import text

    results = read_results(Path(args.results))
    games = results.game_rows()
    summaries = summarize(games, results.hand_rows(), results.decision_rows())
    differences = []
    if args.compare:
        other = read_results(Path(args.compare))
        differences = compare(games, other.game_rows())
    print(text(summaries, differences), end="")
    if args.out:
        from ninetynine.analysis.page import render

        intro = f"Results: {args.results}" + (
            f"; A minus B against {args.compare}" if args.compare else ""
        )
        Path(args.out).write_text(render(summaries, differences, intro=intro), encoding="utf-8")
        print(f"wrote {args.out}")
    return 0
