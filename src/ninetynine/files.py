"""Reading and writing the files a command is given (rules, a record, a save, an output
folder), with one wording for every command when one is missing or cannot be used."""

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


def write_text(path: str | Path, text: str, what: str) -> None:
    """Write the ``what`` at ``path``; a failure is one line, as for :func:`read_text`."""
    path = Path(path)
    if not path.parent.is_dir():
        raise NinetyNineError(f"cannot write {what} {path}: no such folder {path.parent}")
    if path.is_dir():
        raise NinetyNineError(f"cannot write {what} {path}: it is a folder; expected a file name")
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as e:
        raise NinetyNineError(f"cannot write {what} {path}: {e.strerror or e}") from None


def make_folder(path: str | Path, what: str) -> Path:
    """The folder at ``path``, made if missing (with its parents); one line if it cannot be."""
    path = Path(path)
    try:
        path.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise NinetyNineError(f"cannot make {what} {path}: a file is in the way") from None
    except OSError as e:
        raise NinetyNineError(f"cannot make {what} {path}: {e.strerror or e}") from None
    return path
