"""Where the program keeps its files, and how a person starts it again.

``bash play.sh`` runs the game from the project's own environment (``.venv``), where the
``ninetynine`` command is not on the person's PATH. The script says so (``NINETYNINE_VIA``,
``NINETYNINE_BIN``), and every hint the program prints (how to resume a game, where the
accepted rules keys are listed) is then written the way that person can type it.
"""

from __future__ import annotations

import os
from pathlib import Path


def home() -> Path:
    """Saved games, finished records and the web server's tables: ``$NINETYNINE_HOME``,
    else ``~/.local/share/ninetynine``."""
    env = os.environ.get("NINETYNINE_HOME")
    return Path(env) if env else Path.home() / ".local" / "share" / "ninetynine"


def command(args: str) -> str:
    """What to type to run ``ninetynine ARGS`` (``bash play.sh ...`` for a game started
    that way, the environment's own ``ninetynine`` for other commands)."""
    via, binary = os.environ.get("NINETYNINE_VIA"), os.environ.get("NINETYNINE_BIN")
    if via and (args == "play" or args.startswith("play ")):
        return f"bash {via}{args[4:]}"
    return f"{binary or 'ninetynine'} {args}"
