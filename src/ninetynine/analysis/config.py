"""A simulation's configuration file (TOML), as ``ninetynine simulate CONFIG`` reads it.

Every key is optional, and a command-line option given as well wins::

    rules = ["P", "K", "house.toml"]     # preset ids or house-rules files
    players = [3, 4]
    lineups = ["heuristic", "heuristic,random"]   # or lists: [["heuristic", "random"]]
    games = 1000                         # per cell
    seed = 1
    out = "results/fairness"
    workers = 0                          # processes (0: one per core)
    backend = "local"                    # or "ray"
    engine = "auto"                      # "fast": never the batch engine; "batch": always
    address = "ray://head:10001"         # a Ray cluster to join (backend = "ray")
    decisions = false                    # also a row per decision
    chunk = 200                          # games a chunk (the unit of work and of --resume;
                                         # default 200, or 1000 on the batch engine)
    chance_games = 30                    # games a cell whose decisions get win chances

Paths (house-rules files, ``out``) are read from the file's own folder. A key that is
unknown or of the wrong kind is one line naming it and what it accepts.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ninetynine.errors import NinetyNineError
from ninetynine.files import read_text

# key -> what it accepts, in words
KEYS = {
    "rules": "a preset id or house-rules file, or a list of them",
    "players": "a whole number, 2 or more, or a list of them",
    "lineups": "a list of line-ups, each a list of bot specs or one comma-separated string",
    "games": "a whole number, 1 or more",
    "seed": "a whole number",
    "out": "a folder",
    "workers": "a whole number, 0 (one per core) or more",
    "backend": "'local' or 'ray'",
    "engine": "'auto', 'fast' or 'batch'",
    "address": "a Ray cluster's address",
    "decisions": "true or false",
    "chunk": "a whole number, 1 or more",
    "chance_games": "a whole number, 0 or more",
}


@dataclass(frozen=True)
class Config:
    """What a configuration file sets (None: not set)."""

    rules: list[str] | None = None
    players: list[int] | None = None
    lineups: list[list[str] | str] | None = None
    games: int | None = None
    seed: int | None = None
    out: str | None = None
    workers: int | None = None
    backend: str | None = None
    engine: str | None = None
    address: str | None = None
    decisions: bool | None = None
    chunk: int | None = None
    chance_games: int | None = None


def read_config(path: str | Path) -> Config:
    """The configuration in ``path``; one line naming the file and the bad key."""
    path = Path(path)
    text = read_text(path, "configuration file")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise NinetyNineError(f"{path}: not valid TOML: {e}") from None
    values: dict[str, Any] = {}
    for key, value in data.items():
        if key not in KEYS:
            raise NinetyNineError(f"{path}: unknown key {key!r}: expected one of {', '.join(KEYS)}")
        try:
            values[key] = _read(key, value, path.parent)
        except (TypeError, ValueError):
            raise NinetyNineError(f"{path}: {key} = {value!r}: expected {KEYS[key]}") from None
    return Config(**values)


def _whole(value: Any, least: int | None) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(value)
    if least is not None and value < least:
        raise ValueError(value)
    return value


def _listed(value: Any) -> list[Any]:
    return value if isinstance(value, list) else [value]


def _read(key: str, value: Any, folder: Path) -> Any:
    """A key's value, checked (TypeError or ValueError if it is not one ``KEYS`` accepts)."""
    if key == "rules":
        names = _listed(value)
        if not names or not all(isinstance(n, str) and n for n in names):
            raise TypeError(value)
        # a file beside the configuration is named from there; a preset id stays as it is
        return [str(folder / n) if n.endswith(".toml") else n for n in names]
    if key == "players":
        counts = [_whole(n, 2) for n in _listed(value)]
        if not counts:
            raise ValueError(value)
        return counts
    if key == "lineups":
        lineups = _listed(value)
        for lineup in lineups:
            specs = lineup if isinstance(lineup, list) else [lineup]
            if not specs or not all(isinstance(s, str) and s for s in specs):
                raise TypeError(value)
        if not lineups:
            raise ValueError(value)
        return lineups
    if key in ("games", "chunk"):
        return _whole(value, 1)
    if key in ("workers", "chance_games"):
        return _whole(value, 0)
    if key == "seed":
        return _whole(value, None)
    if key == "decisions":
        if not isinstance(value, bool):
            raise TypeError(value)
        return value
    if key == "backend" and value not in ("local", "ray"):
        raise ValueError(value)
    if key == "engine" and value not in ("auto", "fast", "batch"):
        raise ValueError(value)
    if not isinstance(value, str) or not value:
        raise TypeError(value)
    return str(folder / value) if key == "out" else value
