"""Play Ninety-Nine in the terminal against bots (placeholder until the terminal UI lands)."""

from __future__ import annotations

import argparse


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--rules", default="P", help="preset id or alias, or a house-rules .toml")


def run(args: argparse.Namespace) -> int:
    print("The terminal game is not built yet (issue 3).")
    return 1
