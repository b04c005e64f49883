"""Reading a file a command was given (rules, a record, a save), with one wording for
every command when it is missing or cannot be read."""

from __future__ import annotations

import sys
from pathlib import Path

from ninetynine.errors import NinetyNineError


def read_text(path: str | Path, what: str) -> str:
    """The text of the ``what`` (e.g. ``"rules file"``) at ``path``; ``-`` reads standard
    input. Any failure is one line naming the file and what went wrong."""
    if str(path) == "-":
        return sys.stdin.read()
    try:
        return Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise NinetyNineError(f"no such {what}: {path}") from None
    except IsADirectoryError:
        raise NinetyNineError(f"{what} {path} is a folder: expected a file") from None
    except UnicodeDecodeError:
        raise NinetyNineError(f"{what} {path} is not text (UTF-8)") from None
    except OSError as e:
        raise NinetyNineError(f"cannot read {what} {path}: {e.strerror or e}") from None
