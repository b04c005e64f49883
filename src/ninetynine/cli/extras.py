"""The optional parts of ninetynine: which extra installs each front end's libraries, and the
one-line answer a command gives when its extra is missing (the base package needs only the
standard library). The extras themselves are listed in pyproject.toml."""

from __future__ import annotations

import importlib.util

from ninetynine.errors import NinetyNineError

# extra -> the top-level modules it provides (what a command checks before it starts)
EXTRAS: dict[str, tuple[str, ...]] = {
    "tui": ("textual", "rich"),
    "web": ("fastapi", "uvicorn", "websockets"),
    "postgres": ("psycopg", "psycopg_pool"),
    "arena": ("openskill", "rich"),
    "rl": ("numpy", "gymnasium", "pettingzoo", "pyspiel"),
    "analysis": ("pyarrow", "pandas", "matplotlib"),
    "ray": ("ray", "pyarrow", "pandas", "matplotlib"),
}

# extras that ``all`` leaves out: Ray is a cluster's engine, heavy to install (hundreds of MB)
NOT_IN_ALL = ("ray",)


class MissingExtraError(NinetyNineError):
    """A command needs an extra that is not installed; its message is the whole line."""


def installed(extra: str) -> bool:
    """Whether every module of ``extra`` can be imported (found, not imported: cheap)."""
    for module in EXTRAS[extra]:
        try:
            if importlib.util.find_spec(module) is None:
                return False
        except ImportError:  # a finder refused it
            return False
    return True


def missing_note(command: str, need: str, extra: str) -> str:
    """``ninetynine serve: the browser table needs the web extra: pip install ...``"""
    return (
        f'ninetynine {command}: {need} needs the {extra} extra: pip install "ninetynine[{extra}]"'
    )


def require(extra: str, command: str, need: str) -> None:
    """Raise :class:`MissingExtraError` unless ``extra`` is installed."""
    if not installed(extra):
        raise MissingExtraError(missing_note(command, need, extra))
