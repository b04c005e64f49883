"""The files of a simulation: its parts, one per chunk and table, and its manifest.

``OUT/games/rules=K/players=N/lineup=L/part-C.parquet`` and the same under ``hands/`` and
``decisions/``: a Hive layout that DuckDB, pyarrow, pandas and polars read as one table
(``docs/analysis.md``). Every part holds its cell's columns too, so a part read alone is
whole. Where pyarrow is not installed the parts are JSON lines (``part-C.jsonl``), one row
an object. ``OUT/manifest.json`` records the configuration, the versions and every
finished chunk; the parts and the manifest are written to a temporary name and moved into
place, so a run killed at any moment leaves the last manifest whole, and a part that the
manifest does not list is written again on ``--resume``. A run writes its manifest in a
thread of its own (:class:`ManifestWriter`): the games go on while the disk takes it.
"""

from __future__ import annotations

import importlib.util
import json
import os
import typing
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import fields
from enum import StrEnum
from functools import cache
from pathlib import Path
from typing import Any, TypeVar

from ninetynine.analysis.rows import DecisionRow, GameRow, HandRow, Part
from ninetynine.errors import NinetyNineError

MANIFEST = "manifest.json"
R = TypeVar("R", GameRow, HandRow, DecisionRow)


class Table(StrEnum):
    """The tables of a simulation, each a folder of parts."""

    GAMES = "games"
    HANDS = "hands"
    DECISIONS = "decisions"

    @property
    def row(self) -> type[GameRow] | type[HandRow] | type[DecisionRow]:
        """The class of the table's rows."""
        return {Table.GAMES: GameRow, Table.HANDS: HandRow, Table.DECISIONS: DecisionRow}[self]


class Format(StrEnum):
    """How the parts are written."""

    PARQUET = "parquet"
    JSONL = "jsonl"


def available(module: str) -> bool:
    """Whether ``module`` can be imported (found, not imported: cheap)."""
    try:
        return importlib.util.find_spec(module) is not None
    except ImportError:  # a finder refused it
        return False


def default_format() -> Format:
    """Parquet where pyarrow is installed, else JSON lines."""
    return Format.PARQUET if available("pyarrow") else Format.JSONL


def part_path(out: Path, table: Table, cell_path: str, part: str, fmt: Format) -> Path:
    """Where part ``part`` (``part-C``) of a table is for the cell whose folder is
    ``cell_path``: ``OUT/TABLE/CELL/part-C.FORMAT``."""
    return out / table.value / cell_path / f"{part}.{fmt.value}"


def _write_atomic(path: Path, write: typing.Callable[[Path], object]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    write(tmp)
    os.replace(tmp, path)


@cache
def _arrow_schema(row: type) -> Any:
    """The Arrow schema of a row class, from its annotations (so that a column of empty
    lists still has its element type)."""
    import pyarrow as pa

    scalar = {str: pa.string(), int: pa.int64(), float: pa.float64()}
    columns = []
    for name, kind in typing.get_type_hints(row).items():
        args = typing.get_args(kind)
        columns.append(pa.field(name, pa.list_(scalar[args[0]]) if args else scalar[kind]))
    return pa.schema(columns)


@cache
def _encodings(row: type) -> dict[str, Any]:
    """How a row class's columns are encoded in Parquet: a dictionary for the scalars and
    the lists of strings (few values, often repeated; not the opening hands, nearly every
    one different, whose dictionary Parquet would build for each page only to give it up),
    and the lists of ints (lives lost by
    seat: small, mostly 0) delta- and bit-packed: a hands part of P is then 4% smaller and
    a quarter quicker to write than with a dictionary for every column (its lives lost by
    cause are five such lists). Statistics (which let a reader skip what a filter rules
    out) for the scalar columns only: the least and greatest element of a column of lists
    rule little out, and cost 3% of a hands part's writing."""
    import pyarrow as pa

    schema = _arrow_schema(row)
    int_lists = [f.name for f in schema if f.type == pa.list_(pa.int64())]
    return {
        "use_dictionary": [f.name for f in schema if f.name not in [*int_lists, "opening"]],
        "column_encoding": {f"{name}.list.element": "DELTA_BINARY_PACKED" for name in int_lists},
        "write_statistics": [f.name for f in schema if not isinstance(f.type, pa.ListType)],
    }


def write_part(path: Path, part: Part, fmt: Format) -> None:
    """One part file: the rows of ``part``, all of one class."""
    if fmt is Format.PARQUET:
        import pyarrow as pa
        import pyarrow.parquet as pq

        table = pa.table(part.arrow_columns(), schema=_arrow_schema(part.row))
        sink = pa.BufferOutputStream()  # then one write: Arrow opens a file slower
        pq.write_table(table, sink, **_encodings(part.row))
        data = sink.getvalue()
        _write_atomic(path, lambda tmp: tmp.write_bytes(memoryview(data)))
        return
    names = [f.name for f in fields(part.row)]
    dumps = json.JSONEncoder(separators=(",", ":")).encode
    lines = "".join(dumps(dict(zip(names, r, strict=True))) + "\n" for r in part.records())
    _write_atomic(path, lambda tmp: tmp.write_text(lines, encoding="utf-8"))


def read_part(path: Path, row: type[R], fmt: Format) -> list[R]:
    """The rows of one part file; one line naming the file if it cannot be read."""
    try:
        if fmt is Format.PARQUET:
            import pyarrow.parquet as pq

            records = pq.read_table(path).to_pylist()
        else:
            text = path.read_text(encoding="utf-8")
            records = [json.loads(line) for line in text.splitlines() if line.strip()]
        return [row(**record) for record in records]
    except FileNotFoundError:
        raise NinetyNineError(f"{path}: missing, but the manifest lists it as written") from None
    except (OSError, ValueError, TypeError) as e:  # pyarrow's errors are ValueErrors too
        raise NinetyNineError(f"{path}: not a part of {row.__name__}s: {e}") from None


def write_manifest(out: Path, manifest: dict[str, Any]) -> None:
    """The manifest, moved into place whole."""
    _write_text(out / MANIFEST, json.dumps(manifest, indent=1) + "\n")


def _write_text(path: Path, text: str) -> None:
    _write_atomic(path, lambda tmp: tmp.write_text(text, encoding="utf-8"))


class ManifestWriter:
    """Writes a results folder's manifest as :func:`write_manifest` does, in a thread of
    its own: moving a file over another makes ext4 (and other file systems) put it on disk
    first, milliseconds that the games need not wait for. The writes keep their order,
    each a copy of the manifest as it was given (a write overtaken by a newer one before it
    began is skipped); :meth:`close` waits for the last and raises what failed."""

    def __init__(self, out: Path) -> None:
        self.out = out
        self._pool = ThreadPoolExecutor(1, thread_name_prefix="manifest")
        self._given = 0
        self._writes: list[Future[None]] = []

    def write(self, manifest: dict[str, Any]) -> None:
        """Write ``manifest`` (as it is now) soon."""
        self._raise_failed()
        self._given += 1
        text = json.dumps(manifest, indent=1) + "\n"
        self._writes.append(self._pool.submit(self._write, self._given, text))

    def _write(self, number: int, text: str) -> None:
        if number == self._given:  # else a newer manifest waits: this one is stale
            _write_text(self.out / MANIFEST, text)

    def _raise_failed(self) -> None:
        while self._writes and self._writes[0].done():
            self._writes.pop(0).result()

    def close(self) -> None:
        """Wait for the writes; raise the error of one that failed."""
        self._pool.shutdown(wait=True)
        self._raise_failed()


def read_manifest(out: Path) -> dict[str, Any]:
    """A results folder's manifest; one line if the folder holds none, or a bad one."""
    path = out / MANIFEST
    if not out.is_dir():
        raise NinetyNineError(f"no such results folder: {out}")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise NinetyNineError(
            f"{out}: not a simulation's results (no {MANIFEST}); "
            "expected the --out folder of 'ninetynine simulate'"
        ) from None
    except (OSError, ValueError) as e:
        raise NinetyNineError(f"{path}: not a simulation's manifest: {e}") from None
    if not isinstance(data, dict) or data.get("kind") != "ninetynine simulation":
        raise NinetyNineError(
            f"{path}: not a simulation's manifest (expected kind = 'ninetynine simulation')"
        )
    for key, kind in (("cells", list), ("chunks", dict), ("format", str)):
        if not isinstance(data.get(key), kind):
            raise NinetyNineError(f"{path}: '{key}' is missing or not a {kind.__name__}")
    if data["format"] not in set(Format):
        raise NinetyNineError(f"{path}: format {data['format']!r}: expected parquet or jsonl")
    return data
