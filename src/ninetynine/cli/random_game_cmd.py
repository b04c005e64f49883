"""Play a game with uniformly random legal moves and write its record.

Example: ``ninetynine random-game --rules K --players 4 --seed 7 -o game.toml``"""

from __future__ import annotations

import argparse
import random
import sys

from ninetynine.files import write_text
from ninetynine.records.match import Match
from ninetynine.records.record import format_record
from ninetynine.rules.presets import open_rules


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Adds the options of ``ninetynine random-game`` to ``parser``: the rules, players, seed, first
    seat (from 1) and output file."""
    parser.add_argument(
        "--rules", default="P", help="preset id or alias, or a house-rules .toml (default: P)"
    )
    parser.add_argument(
        "--players",
        type=int,
        default=None,
        help="number of seats (default: 4, or the rule set's nearest)",
    )
    parser.add_argument("--seed", type=int, default=None, help="random seed (default: random)")
    parser.add_argument("--first", type=int, default=1, help="the seat that plays first")
    parser.add_argument("-o", "--output", help="write the record here instead of stdout")


def run(args: argparse.Namespace) -> int:
    """Plays a game of uniformly random moves (one generator for chance and choices, so a
    seed is one game) and writes its record to ``--output`` or stdout. Returns 0."""
    rules = open_rules(args.rules)
    players = args.players or min(max(4, rules.players_min), rules.players_max)
    rng = random.Random(args.seed)
    match = Match.new(rules, players, first=args.first - 1, auto_chance=False)
    state = match.state
    while not state.is_over:  # one stream for chance and choices, so a seed is one game
        match.play(
            state.sample_chance(rng) if state.is_chance else rng.choice(state.legal_actions())
        )
    text = format_record(match.record(), state)
    if args.output:
        write_text(args.output, text, "record file")
        print(
            f"wrote {args.output}: {match.version} moves, "
            f"winner(s) {[w + 1 for w in state.outcome.winners] if state.outcome else '-'}",
            file=sys.stderr,
        )
    else:
        sys.stdout.write(text)
    return 0
