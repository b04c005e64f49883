"""Saved games under ``$NINETYNINE_HOME`` (default ``~/.local/share/ninetynine``).

The game in progress is ``current.toml``: its record so far plus a ``[table]`` section
(names, seat kinds, bot specs, seed, pace, whether the coach is on). It is rewritten after
every move, atomically (a temporary file, then a rename), so a crash never loses more than
the move being made.
Finished games are plain records in ``games/``; a game in progress that a new game
would replace is kept in ``unfinished/``.
"""

from __future__ import annotations

import os
import tempfile
import time
import tomllib
from pathlib import Path
from typing import Any

from ninetynine.errors import NinetyNineError
from ninetynine.files import read_text
from ninetynine.launch import command, home
from ninetynine.records.position import toml_value
from ninetynine.records.record import format_record, record_from_mapping
from ninetynine.session.table import Seat, SeatKind, Table


def current_path() -> Path:
    """Where the game in progress is saved: ``current.toml`` under the home folder
    (``$NINETYNINE_HOME``, default ``~/.local/share/ninetynine``)."""
    return home() / "current.toml"


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` so that readers see the old file or the new, never half."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def format_save(table: Table) -> str:
    """The record so far, then the table's metadata."""
    meta = [
        "",
        "[table]",
        f"names = {toml_value(table.names)}",
        f"kinds = {toml_value([s.kind for s in table.seats])}",
        f"bots = {toml_value([s.bot or '' for s in table.seats])}",
        f"seed = {table.seed}",
        f"pace = {table.pace!r}",
        f"coach = {toml_value(table.coach)}",
    ]
    return format_record(table.record) + "\n".join(meta) + "\n"


def parse_save(text: str, where: str = "save") -> Table:
    """A table from a save's text, replayed up to where it stopped."""
    try:
        data: dict[str, Any] = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise NinetyNineError(f"{where}: not valid TOML: {e}") from None
    meta = data.pop("table", None)
    if not isinstance(meta, dict):
        raise NinetyNineError(
            f"{where}: no [table] section: this is not a saved game "
            f"(to watch a finished game, use: {command('replay FILE --step')})"
        )
    try:
        names, kinds, bots = meta["names"], meta["kinds"], meta["bots"]
        seed, pace = int(meta["seed"]), float(meta["pace"])
    except (KeyError, TypeError, ValueError) as e:
        raise NinetyNineError(
            f"{where}: [table] needs names, kinds, bots, seed and pace ({e})"
        ) from None
    if not (
        isinstance(names, list)
        and isinstance(kinds, list)
        and isinstance(bots, list)
        and len(names) == len(kinds) == len(bots)
    ):
        raise NinetyNineError(
            f"{where}: [table] names, kinds and bots must be lists of one entry per seat"
        )
    coach = meta.get("coach", False)  # (saves from before the coach was kept have none)
    if not isinstance(coach, bool):
        raise NinetyNineError(f"{where}: [table] coach = {coach!r}: expected true or false")
    seats = []
    for i, (name, kind, bot) in enumerate(zip(names, kinds, bots, strict=True), start=1):
        if kind not in set(SeatKind):
            raise NinetyNineError(f"{where}: seat {i} kind {kind!r}: expected human or bot")
        seat_kind = SeatKind(kind)
        seats.append(Seat(str(name), seat_kind, str(bot) if seat_kind is SeatKind.BOT else None))
    try:
        record = record_from_mapping(data)
        table = Table.resume(record, seats, seed=seed, pace=pace)
    except NinetyNineError as e:
        raise NinetyNineError(f"{where}: {e}") from None
    table.coach = coach
    return table


def save_current(table: Table) -> Path:
    """Write the game in progress; returns where."""
    path = current_path()
    write_atomic(path, format_save(table))
    return path


def autosave(table: Table) -> None:
    """The hook a front end sets as ``table.on_move``: the game is saved after every move."""
    save_current(table)


def load_save(path: Path | None = None) -> Table:
    """The saved game in progress (or the save at ``path``)."""
    if path is None and not current_path().exists():
        raise NinetyNineError(
            f"no saved game at {current_path()}: start one with '{command('play')}'"
        )
    path = path or current_path()
    return parse_save(read_text(path, "save file"), str(path))


def describe_save(table: Table) -> str:
    """A saved game in a few words: ``'P, 4 players (Ann, Bo, Cy, Di), hand 2, move 14'``."""
    state = table.state
    return (
        f"{table.rules.id}, {state.n} players ({', '.join(table.names)}), "
        f"hand {state.hand_no}, move {table.match.version}"
    )


def _stamp() -> str:
    return time.strftime("%Y%m%d-%H%M%S")


def _free(folder: Path, stem: str) -> Path:
    path, i = folder / f"{stem}.toml", 1
    while path.exists():
        i += 1
        path = folder / f"{stem}-{i}.toml"
    return path


def finish(table: Table) -> Path:
    """File a finished game under ``games/`` as a record and clear the game in progress."""
    path = _free(home() / "games", f"{_stamp()}-{table.rules.id}")
    write_atomic(path, format_record(table.record, table.state))
    current_path().unlink(missing_ok=True)
    return path


def set_aside() -> Path | None:
    """Keep the game in progress in ``unfinished/`` before a new one replaces it."""
    current = current_path()
    if not current.exists():
        return None
    path = _free(home() / "unfinished", _stamp())
    path.parent.mkdir(parents=True, exist_ok=True)
    os.replace(current, path)
    return path
