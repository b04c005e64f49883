"""Counting a command's instructions with valgrind (cachegrind, no cache simulation): what
a benchmark reports where other work shares the machine, since no other work moves it
(instructions are not time, but a guide to it)."""

from __future__ import annotations

import os
import re
import subprocess
import sys


def instructions_of(args: list[str], pythonpath: str) -> tuple[int, str]:
    """Run ``python ARGS`` under valgrind; return its instructions and its standard output."""
    env = {**os.environ, "PYTHONPATH": pythonpath, "PYTHONHASHSEED": "0"}
    done = subprocess.run(
        [
            *("valgrind", "--tool=cachegrind", "--cache-sim=no"),
            "--cachegrind-out-file=/dev/null",
            *(sys.executable, *args),
        ],
        capture_output=True,
        text=True,
        env=env,
    )
    if done.returncode:
        raise SystemExit(done.stderr[-2000:])
    found = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
    assert found is not None, done.stderr[-2000:]
    return int(found[1].replace(",", "")), done.stdout
