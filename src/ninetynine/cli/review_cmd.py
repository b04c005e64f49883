"""Review a finished game: each decision of one seat beside the move the coach prefers.

For every decision of the seat where it had a real choice, prints the move played and
the coach's move, each with the chance of losing the hand and the game, computed from
what that seat could see then. Costly decisions are flagged as a chess program flags
mistakes: ?! (inaccuracy, 5 points or more of chance of losing the hand), ? (mistake,
10 or more), ?? (blunder, 20 or more), where the cost is more than twice its standard
error. The costliest decisions are listed at the end. See docs/coach.md."""

from __future__ import annotations

import argparse
import json
import sys

from ninetynine.coach.advice import PLAYOUTS, MoveFigures
from ninetynine.coach.review import FLAGS, costliest, review, review_json
from ninetynine.errors import NinetyNineError
from ninetynine.files import read_text
from ninetynine.records.record import parse_record


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Adds the options of ``ninetynine review`` to ``parser``: the record file, the seat (from 1),
    the playouts, the seed, ``--all`` and ``--json``."""
    parser.add_argument("file", help="a game record .toml file ('-' reads stdin)")
    parser.add_argument("--seat", type=int, required=True, help="the seat to review, from 1")
    parser.add_argument(
        "--playouts",
        type=int,
        default=PLAYOUTS,
        help=f"playouts a decision, shared by the moves (default {PLAYOUTS})",
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--all",
        action="store_true",
        help="list every decision, not only those that differ from the coach's",
    )
    parser.add_argument("--json", action="store_true", help="print the review as JSON")


def run(args: argparse.Namespace) -> int:
    """Reviews one seat's decisions in the record and prints them beside the coach's moves,
    flagged by cost, or as JSON. Returns 0; ``--playouts`` below 1 raises
    :class:`NinetyNineError`."""
    text = read_text(args.file, "record file")
    record = parse_record(text)
    playouts = args.playouts
    if playouts < 1:
        raise NinetyNineError(f"--playouts {playouts}: expected at least 1")
    tty = sys.stderr.isatty()

    def progress(done: int, total: int) -> None:
        if tty:
            print(f"\rreviewing: move {done} of {total}", end="", file=sys.stderr, flush=True)

    decisions = review(record, args.seat - 1, playouts=playouts, seed=args.seed, progress=progress)
    if tty:
        print("\r" + " " * 40 + "\r", end="", file=sys.stderr, flush=True)
    if args.json:
        print(json.dumps(review_json(decisions), indent=1))
        return 0
    n, names = record.start.n, {flag: name for flag, name, _ in FLAGS}
    print(
        f"Review of P{args.seat} ({record.start.rules.id}, {n} players); decisions with a "
        f"choice: {len(decisions)}. Each move: chance of losing the hand / the game."
    )
    differ = [d for d in decisions if not d.agrees]
    print(
        f"The coach would have played otherwise {len(differ)} times (the same card in "
        "another suit, or a move tied with the coach's, agrees)."
    )
    for d in decisions if args.all else differ:
        line = f"move {d.number:>4}  hand {d.hand:>2}  total {d.total:>3}  played {_move(d.played)}"
        if d.played.action not in d.best.actions:
            line += f"   best {_move(d.best)}   cost {d.cost:4.1f} ± {d.error:.1f}"
            line += "  tied" if d.agrees else ""
        print(line + (f"  {d.flag} {names[d.flag]}" if d.flag else ""))
    worst = costliest(decisions)
    if worst:
        print(
            "Costliest decisions: "
            + ", ".join(
                f"move {d.number} {d.played.action}{d.flag} (best {d.best.action}, "
                f"+{d.cost:.0f} points)"
                for d in worst
            )
        )
    else:
        print("No costly decision flagged.")
    return 0


def _move(figures: MoveFigures) -> str:
    game = "  -" if figures.lose_game is None else f"{100 * figures.lose_game:3.0f}%"
    return f"{str(figures.action):<7} {100 * figures.lose_hand:3.0f}% / {game}"
