"""``simulate``: many games of every cell of a grid (rule sets x player counts x line-ups),
their rows in memory or in a results folder, and ``read_results`` to open such a folder.

>>> results = simulate("P", 3, ["heuristic,random"], games=6, seed=1)
>>> [len(results.game_rows()), results.game_rows()[0].rules]
[6, 'P']
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass, fields
from functools import cached_property
from pathlib import Path
from typing import Any

from ninetynine import __version__
from ninetynine.analysis.backends import Backend, played
from ninetynine.analysis.batch_play import EngineChoice, choose_engine
from ninetynine.analysis.cells import (
    Cell,
    Chunk,
    check_lineup,
    chunks_of,
    rules_hash,
    split_specs,
    unplayable,
)
from ninetynine.analysis.play import ENCODING_VERSION, ChunkRows, Engine, Task
from ninetynine.analysis.progress import Progress
from ninetynine.analysis.rows import ROWS_VERSION, DecisionRow, GameRow, HandRow
from ninetynine.analysis.store import (
    Format,
    ManifestWriter,
    Table,
    available,
    default_format,
    part_path,
    read_manifest,
    read_part,
    write_manifest,
    write_part,
)
from ninetynine.errors import NinetyNineError
from ninetynine.rules.presets import load_rules, rules_spec
from ninetynine.rules.settings import Rules

CHUNK = 200  # games a chunk, about: long enough for Ray (20 s or so with heuristic bots)
# ... where random bots hold every seat: about a second of the fast path's games, since each
# chunk's part files cost about as much as 20 games to write, whatever its size
RANDOM_CHUNK = 1000
# ... on the batch engine, whose chunk is one batch: a wider one steps more games at once
BATCH_CHUNK = 1000
# the first games of a cell whose decisions get each seat's win chances (about half a second
# a game of P at four seats: ninetynine.analysis.chances)
CHANCE_GAMES = 30
KIND = "ninetynine simulation"


@dataclass(frozen=True)
class Plan:
    """What a simulation plays: every cell of rules x players x line-ups, ``games`` each."""

    rules: tuple[Rules, ...]
    players: tuple[int, ...]
    lineups: tuple[tuple[str, ...], ...]
    games: int
    seed: int = 0
    chunk: int | None = None  # None: CHUNK, RANDOM_CHUNK or BATCH_CHUNK, by the cell
    decisions: bool = False
    chance_games: int = CHANCE_GAMES
    engine: EngineChoice = EngineChoice.AUTO

    def cells(self) -> tuple[list[Cell], list[str]]:
        """The cells to play, in order, and a note for each one skipped."""
        cells, skipped = [], []
        for rules in self.rules:
            for n in self.players:
                for lineup in self.lineups:
                    cell = Cell(rules, n, lineup)
                    why = unplayable(cell)
                    if why is None:
                        cells.append(cell)
                    else:
                        skipped.append(f"skipped {cell.label}: {why}")
        return cells, skipped

    def to_json(self) -> dict[str, Any]:
        """The plan as the manifest keeps it (the rules as specs that load them again)."""
        return {
            "rules": [rules_spec(r) for r in self.rules],
            "players": list(self.players),
            "lineups": [list(lineup) for lineup in self.lineups],
            "games": self.games,
            "seed": self.seed,
            "chunk": self.chunk,
            "decisions": self.decisions,
            "chance_games": self.chance_games,
            "engine": self.engine.value,
        }


def plan_of(
    rules: str | Rules | Sequence[str | Rules],
    players: int | Sequence[int],
    lineups: str | Sequence[str | Sequence[str]],
    games: int,
    **options: Any,
) -> Plan:
    """A checked :class:`Plan` from the API's looser arguments: one or many rule sets
    (:class:`Rules`, or preset ids), player counts and line-ups (a line-up a list of specs
    or one comma-separated string). A bad value is one line naming it."""
    rule_list = [rules] if isinstance(rules, str | Rules) else list(rules)
    loaded = tuple(r if isinstance(r, Rules) else load_rules(r) for r in rule_list)
    counts = (players,) if isinstance(players, int) else tuple(players)
    given = [lineups] if isinstance(lineups, str) else list(lineups)
    lineup_list = tuple(tuple(split_specs(x)) if isinstance(x, str) else tuple(x) for x in given)
    for value, what in ((loaded, "rules"), (counts, "players"), (lineup_list, "line-ups")):
        if not value:
            raise NinetyNineError(f"no {what} given: expected at least one")
    if not all(isinstance(n, int) and not isinstance(n, bool) and n >= 2 for n in counts):
        raise NinetyNineError(f"players {list(counts)}: expected whole numbers, 2 or more")
    for lineup in lineup_list:
        check_lineup(lineup)
    choice = options.pop("engine", EngineChoice.AUTO)
    try:
        options["engine"] = EngineChoice(choice)
    except ValueError:
        raise NinetyNineError(f"engine {choice!r}: expected auto, fast or batch") from None
    plan = Plan(loaded, counts, lineup_list, games, **options)
    for key in ("games", "chunk"):
        value = getattr(plan, key)
        if key == "chunk" and value is None:
            continue
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise NinetyNineError(f"{key} {value!r}: expected a whole number, 1 or more")
    if not isinstance(plan.seed, int) or isinstance(plan.seed, bool):
        raise NinetyNineError(f"seed {plan.seed!r}: expected a whole number")
    return plan


class Results:
    """A simulation's rows: ``games``, ``hands`` and ``decisions`` as pandas DataFrames where
    pandas is installed (else lists of rows); :meth:`game_rows` and the others always give
    the row dataclasses, in cell order, then game order."""

    def __init__(
        self,
        manifest: dict[str, Any],
        out: Path | None = None,
        chunks: Sequence[ChunkRows] = (),
    ) -> None:
        self.manifest = manifest
        self.out = out
        self._chunks = sorted(chunks, key=lambda c: (c.chunk.cell, c.chunk.index))

    @property
    def cells(self) -> list[dict[str, Any]]:
        """Each cell: its rules (id and hash), players, line-up, folder, engine and games."""
        cells: list[dict[str, Any]] = self.manifest["cells"]
        return cells

    def _rows(self, table: Table) -> list[Any]:
        if self.out is None:
            return [row for c in self._chunks for row in c.parts()[table.value].rows()]
        fmt = Format(self.manifest["format"])
        rows: list[Any] = []
        for cell in self.cells:
            for index in range(len(cell["chunks"])):
                key = f"{cell['path']}/part-{index}"
                done = self.manifest["chunks"].get(key)
                if done and done.get(table.value):
                    path = part_path(self.out, table, cell["path"], f"part-{index}", fmt)
                    rows += read_part(path, table.row, fmt)
        return rows

    @cached_property
    def _game_rows(self) -> list[GameRow]:
        return self._rows(Table.GAMES)

    @cached_property
    def _hand_rows(self) -> list[HandRow]:
        return self._rows(Table.HANDS)

    @cached_property
    def _decision_rows(self) -> list[DecisionRow]:
        return self._rows(Table.DECISIONS)

    def game_rows(self) -> list[GameRow]:
        """The game rows (read once, a new list each call)."""
        return list(self._game_rows)

    def hand_rows(self) -> list[HandRow]:
        """The hand rows (read once, a new list each call)."""
        return list(self._hand_rows)

    def decision_rows(self) -> list[DecisionRow]:
        """The decision rows, none unless the simulation ran with ``decisions`` (read
        once, a new list each call)."""
        return list(self._decision_rows)

    @property
    def games(self) -> Any:
        """The games as a DataFrame (a list of :class:`GameRow` without pandas)."""
        return _frame(self._game_rows, GameRow)

    @property
    def hands(self) -> Any:
        """The hands as a DataFrame (a list of :class:`HandRow` without pandas)."""
        return _frame(self._hand_rows, HandRow)

    @property
    def decisions(self) -> Any:
        """The decisions as a DataFrame (a list of :class:`DecisionRow` without pandas)."""
        return _frame(self._decision_rows, DecisionRow)


def _frame(rows: list[Any], row: type) -> Any:
    if not available("pandas"):
        return list(rows)
    import pandas as pd

    names = [f.name for f in fields(row)]
    return pd.DataFrame([[getattr(r, n) for n in names] for r in rows], columns=names)


def read_results(path: str | Path) -> Results:
    """The results a simulation wrote in ``path``; one line if it holds none, or if a part
    the manifest lists is missing or malformed (when its rows are read)."""
    out = Path(path)
    return Results(read_manifest(out), out)


def simulate(
    rules: str | Rules | Sequence[str | Rules],
    players: int | Sequence[int],
    lineups: str | Sequence[str | Sequence[str]],
    games: int,
    *,
    seed: int = 0,
    workers: int = 0,
    out: str | Path | None = None,
    backend: Backend | str = Backend.LOCAL,
    address: str | None = None,
    decisions: bool = False,
    resume: bool = False,
    progress: bool = False,
    chunk: int | None = None,
    chance_games: int = CHANCE_GAMES,
    engine: EngineChoice | str = EngineChoice.AUTO,
) -> Results:
    """Play ``games`` games of every cell (each rule set x player count x line-up) and
    return their rows; with ``out``, write them there too (``docs/analysis.md``), and with
    ``resume`` go on with the run an earlier call left unfinished there. The same seed
    gives the same rows whatever ``workers`` and ``backend``. ``engine``: ``auto`` plays
    the cells of random bots on the batch engine where it can (NumPy: other games than the
    fast path's for the same seed), ``fast`` never, ``batch`` every cell or fails. With
    ``progress``, the engine of each cell and a progress bar go to standard error.
    ``chunk``: games a chunk (the unit of work and of ``resume``), by default
    :data:`CHUNK`, :data:`RANDOM_CHUNK` where random bots hold every seat, or
    :data:`BATCH_CHUNK` on the batch engine."""
    plan = plan_of(
        rules,
        players,
        lineups,
        games,
        seed=seed,
        chunk=chunk,
        decisions=decisions,
        chance_games=chance_games,
        engine=engine,
    )
    try:
        backend = Backend(backend)
    except ValueError:
        raise NinetyNineError(f"backend {backend!r}: expected local or ray") from None
    if workers < 0:
        raise NinetyNineError(f"workers {workers}: expected 0 (one per core) or more")
    run = _Run(plan, None if out is None else Path(out), resume)
    if progress:
        for note in run.notes:
            print(note, file=sys.stderr)
    tasks = run.tasks()
    try:
        with Progress(run.total, progress, run.total - sum(t.chunk.count for t in tasks)) as bar:
            for rows in played(tasks, backend, workers, address):
                run.finished(rows)
                bar.advance(rows.chunk.count)
        return run.results()
    finally:
        run.close()


class _Run:
    """The driver's side of one simulation: its cells, what is done, and the files."""

    def __init__(self, plan: Plan, out: Path | None, resume: bool) -> None:
        self.plan = plan
        self.out = out
        self.cells, self.notes = plan.cells()
        if not self.cells:
            raise NinetyNineError(
                "no cell can be played: "
                + "; ".join(n.removeprefix("skipped ") for n in self.notes)
            )
        chosen = [choose_engine(cell, plan.engine, plan.decisions) for cell in self.cells]
        self.engines = [engine for engine, _ in chosen]
        self.notes += [
            f"{cell.label}: {games_of(plan.games)}, {note}"
            for cell, (_, note) in zip(self.cells, chosen, strict=True)
        ]
        self.chunks = [
            chunks_of(i, c.block_size, plan.games, plan.chunk or _chunk_for(c, engine))
            for i, (c, engine) in enumerate(zip(self.cells, self.engines, strict=True))
        ]
        self.total = plan.games * len(self.cells)
        self.collected: list[ChunkRows] = []
        self.format = default_format()
        self.manifest = self._manifest()
        self.writer: ManifestWriter | None = None
        if out is not None:
            self._open(out, resume)
            self.writer = ManifestWriter(out)

    def _manifest(self) -> dict[str, Any]:
        return {
            "kind": KIND,
            "rows_version": ROWS_VERSION,
            "engine": __version__,
            "encoding": ENCODING_VERSION,
            "format": self.format.value,
            "config": self.plan.to_json(),
            "cells": [
                {
                    "rules": cell.rules.id,
                    "rules_hash": rules_hash(cell.rules),
                    "players": cell.players,
                    "lineup": cell.lineup_name,
                    "path": cell.path,
                    "engine": engine.value,
                    "games": self.plan.games,
                    "chunks": [c.count for c in chunks],
                }
                for cell, engine, chunks in zip(self.cells, self.engines, self.chunks, strict=True)
            ],
            "skipped": [n.removeprefix("skipped ") for n in self.notes if n.startswith("skipped")],
            "chunks": {},
            "done": False,
        }

    def _open(self, out: Path, resume: bool) -> None:
        if resume:
            if not (out / "manifest.json").exists():
                raise NinetyNineError(f"--resume: {out} holds no simulation to resume")
            old = read_manifest(out)
            for key in ("config", "format", "rows_version", "engine"):
                if old.get(key) != self.manifest[key]:
                    raise NinetyNineError(
                        f"--resume: {out} was written with another {key} "
                        f"({_differs(old.get(key), self.manifest[key])}): give the same "
                        "configuration, or another --out"
                    )
            engines = [c.get("engine") for c in old.get("cells", [])]
            now = [c["engine"] for c in self.manifest["cells"]]
            if engines != now:
                raise NinetyNineError(
                    f"--resume: {out} was played on other engines ({_differs(engines, now)}): "
                    "give the same --engine where NumPy is installed as it was, or another --out"
                )
            self.manifest["chunks"] = old["chunks"]
        elif out.exists() and (not out.is_dir() or any(out.iterdir())):
            raise NinetyNineError(
                f"--out {out} is not empty: give --resume to go on with the run there, "
                "or an empty or new folder"
            )
        try:
            out.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise NinetyNineError(f"cannot make --out folder {out}: {e.strerror or e}") from None
        write_manifest(out, self.manifest)

    def key(self, chunk: Chunk) -> str:
        return f"{self.cells[chunk.cell].path}/{chunk.part}"

    def tasks(self) -> list[Task]:
        """The chunks still to play, in cell and chunk order."""
        done = self.manifest["chunks"]
        return [
            Task(
                self.cells[c.cell],
                c,
                self.plan.seed,
                self.engines[c.cell],
                self.plan.decisions,
                self.plan.chance_games if self.plan.decisions else 0,
            )
            for chunks in self.chunks
            for c in chunks
            if self.key(c) not in done
        ]

    def finished(self, rows: ChunkRows) -> None:
        """A chunk's rows: its parts, then the manifest that counts it (or kept in memory)."""
        if self.out is None:
            self.collected.append(rows)
            return
        cell = self.cells[rows.chunk.cell]
        counts = {}
        parts = rows.parts()
        for table in Table:
            found = parts[table.value]
            counts[table.value] = len(found)
            if len(found):
                path = part_path(self.out, table, cell.path, rows.chunk.part, self.format)
                write_part(path, found, self.format)
        self.manifest["chunks"][self.key(rows.chunk)] = counts
        assert self.writer is not None
        self.writer.write(self.manifest)

    def results(self) -> Results:
        self.manifest["done"] = True
        if self.out is None:
            return Results(self.manifest, None, self.collected)
        self.close()
        write_manifest(self.out, self.manifest)
        return Results(self.manifest, self.out)

    def close(self) -> None:
        """Wait for the manifest's writes (the last one too, whatever stopped the run)."""
        if self.writer is not None:
            self.writer.close()


def _chunk_for(cell: Cell, engine: Engine) -> int:
    if engine is Engine.BATCH:
        return BATCH_CHUNK
    return RANDOM_CHUNK if set(cell.lineup) == {"random"} else CHUNK


def games_of(n: int) -> str:
    """``1 game``, ``2 games``."""
    return "1 game" if n == 1 else f"{n} games"


def _differs(old: Any, new: Any) -> str:
    """The first key where two configurations differ, as ``games 100, not 200``."""
    if isinstance(old, dict) and isinstance(new, dict):
        for key in sorted(set(old) | set(new)):
            if old.get(key) != new.get(key):
                return f"{key} {old.get(key)!r}, not {new.get(key)!r}"
    return f"{old!r}, not {new!r}"
