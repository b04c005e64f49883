"""Command-line start-up: CPU seconds of ``ninetynine --help`` (the target: under 0.1 s),
beside Python's own start-up (``python -c pass``) in the same run; each the best of a few.

Run: python benchmarks/cli_start.py [--runs 7]
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys

TARGET = 0.1  # CPU seconds for ninetynine --help


def cpu_seconds(command: list[str], runs: int) -> float:
    """The least CPU time (user + system) of ``runs`` runs of ``command``."""
    best = float("inf")
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(command, stdout=subprocess.DEVNULL, check=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        best = min(best, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    python = cpu_seconds([sys.executable, "-c", "pass"], args.runs)
    cli = [sys.executable, "-m", "ninetynine.cli.main"]
    for words in (["--help"], ["--version"], ["rules", "--help"]):
        spent = cpu_seconds(cli + words, args.runs)
        note = f"  (target under {TARGET} s)" if words == ["--help"] else ""
        print(f"ninetynine {' '.join(words):14} {spent:6.3f} s CPU{note}")
    print(f"python -c pass            {python:6.3f} s CPU (the interpreter alone)")


if __name__ == "__main__":
    main()
