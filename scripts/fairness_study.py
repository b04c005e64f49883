"""Generate the published study, docs/fairness.md and its plots, from one configuration.

    python scripts/fairness_study.py [--small] [--workers N] [--config studies/fairness.toml]
        [--out PAGE]

``--small`` plays the sizes of the configuration's ``[small]`` section (seconds: the test
that proves the command runs); the default writes docs/fairness.md and docs/fairness/*.svg.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ninetynine.analysis.study import read_config, run_study, write_page
from ninetynine.errors import NinetyNineError

ROOT = Path(__file__).resolve().parents[1]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--config", type=Path, default=ROOT / "studies" / "fairness.toml")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "fairness.md")
    parser.add_argument("--small", action="store_true", help="the [small] sizes: seconds")
    parser.add_argument(
        "--workers", type=int, default=0, help="processes (default: 0, one per core)"
    )
    args = parser.parse_args(argv)
    try:
        config = read_config(args.config, small=args.small)
        if args.workers < 0:
            raise NinetyNineError(f"--workers {args.workers}: expected 0 (one per core) or more")
        study = run_study(config, args.workers)
    except NinetyNineError as e:
        print(f"fairness_study: error: {e}", file=sys.stderr)
        return 2
    command = "python scripts/fairness_study.py" + (" --small" if args.small else "")
    write_page(study, args.out, command)
    print(f"wrote {args.out} in {sum(study.seconds.values()):.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
