"""Protocol bots (``cmd:`` subprocesses) for the front ends' tests."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE_BOT = "cmd:" + shlex.join([sys.executable, str(ROOT / "examples" / "protocol_bot.py")])
# Exits at once, before answering its first request, with a line on stderr.
CRASHING_BOT = "cmd:" + shlex.join(
    [sys.executable, "-c", "import sys; print('no luck', file=sys.stderr); sys.exit(3)"])
