"""Generate the published study, docs/fairness.md and its plots, from one configuration.

    python scripts/fairness_study.py [--small] [--config studies/fairness.toml] [--out PAGE]

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
    args = parser.parse_args(argv)
    try:
        config = read_config(args.config, small=args.small)
        study = run_study(config)
    except NinetyNineError as e:
        print(f"fairness_study: error: {e}", file=sys.stderr)
        return 2
    command = "python scripts/fairness_study.py" + (" --small" if args.small else "")
    write_page(study, args.out, command)
    print(f"wrote {args.out} in {sum(study.seconds.values()):.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
