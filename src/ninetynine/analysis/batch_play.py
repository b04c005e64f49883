"""Playing a chunk on the batch engine (:mod:`ninetynine.rl.batch`): all its games at once,
one NumPy step for all of them, written down as the same rows the fast path writes.

It plays a cell whose seats are all the one ``random`` bot, on rules that
:func:`~ninetynine.rl.batch.check_supported` accepts, without decision rows (those, and
their win chances, need a :class:`~ninetynine.engine.state.State` at every move: with
``--decisions`` such a cell takes the fast path). The batch draws its shuffles and its
moves from one NumPy stream, seeded from the simulation's seed and the chunk's first game
and size (a cell's chunks are fixed by the plan: :func:`~ninetynine.analysis.cells.chunks_of`),
so the same seed gives the same rows whatever the workers or the backend, but not the
fast path's games: each cell's engine is in the manifest, and ``simulate`` says which it
used. Each game has its own deals (block = game, rotation 0: the seats are all alike);
its ``deal_seed`` names the batch's seed and the game's slot in it.

NumPy is optional (the ``rl`` extra): this module imports it, and the batch engine, only
inside the functions that play or ask, so the analysis layer runs without it and
``--engine auto`` then takes the fast path.
"""

from __future__ import annotations

import gc
import hashlib
from array import array
from collections.abc import Iterator
from contextlib import contextmanager
from enum import StrEnum
from typing import TYPE_CHECKING

from ninetynine import __version__
from ninetynine.analysis.cells import Cell, Chunk, rules_hash
from ninetynine.analysis.columns import HandColumns
from ninetynine.analysis.play import ENCODING_VERSION, ChunkRows, Engine, Row, Task, engine_for
from ninetynine.arena.game import seed_of
from ninetynine.bots.base import close_bot, make_bot
from ninetynine.bots.random_bot import RandomBot
from ninetynine.engine.fields import EndReason
from ninetynine.engine.ledger import BORDER, CAUSES, CROSSED, MADE
from ninetynine.errors import NinetyNineError, RulesError
from ninetynine.rules.cards import rank_of
from ninetynine.rules.settings import GameEnd, Scoring, Teams

if TYPE_CHECKING:  # for the annotations only: NumPy is imported where a chunk is played
    import numpy as np

    from ninetynine.rl.batch import Batch

_RANK = tuple(rank_of(card) for card in range(52))  # a card's rank, by its number


class EngineChoice(StrEnum):
    """Which engine ``simulate`` may use (``--engine``)."""

    AUTO = "auto"  # the batch engine for the cells it plays, else the fast path
    FAST = "fast"  # never the batch engine: the fast path (or the checked API)
    BATCH = "batch"  # the batch engine for every cell, or one line saying why not


def all_random(cell: Cell) -> bool:
    """Whether every seat of ``cell`` holds one spec, and it makes the ``random`` bot."""
    if len(set(cell.lineup)) != 1:
        return False
    bot = make_bot(cell.lineup[0], seeing=True)  # (as engine_for makes it: oracle too)
    try:
        return type(bot) is RandomBot
    finally:
        close_bot(bot)


def batch_refusal(cell: Cell, decisions: bool = False) -> str | None:
    """Why the batch engine cannot play ``cell`` (None: it can)."""
    if not all_random(cell):
        return "the batch engine plays line-ups of one random bot only"
    if decisions:
        return "the batch engine writes no decision rows"
    try:
        from ninetynine.rl.batch import check_supported
    except ModuleNotFoundError as e:  # NumPy (or the rest of the rl extra) is missing
        return (
            'the batch engine needs NumPy, of the rl extra: pip install "ninetynine[rl]" '
            f"(no module {e.name!r})"
        )
    try:
        check_supported(cell.rules)
    except RulesError as e:
        return str(e)
    return None


def choose_engine(cell: Cell, choice: EngineChoice, decisions: bool) -> tuple[Engine, str]:
    """The engine that plays ``cell``, and how ``simulate`` names it: ``engine: batch
    (NumPy)``, or the fast path (or checked API) with, for a cell of random bots, why not
    the batch engine. ``choice`` batch on a cell it cannot play is one line saying why."""
    refused = None
    if choice is not EngineChoice.FAST:
        refused = batch_refusal(cell, decisions)
        if refused is None:
            return Engine.BATCH, "engine: batch (NumPy)"
        if choice is EngineChoice.BATCH:
            raise NinetyNineError(
                f"--engine batch: {cell.label}: {refused} (--engine auto plays such a cell "
                "on the fast path)"
            )
    engine = engine_for(cell)
    note = (
        "engine: fast path"
        if engine is Engine.FAST
        else "engine: checked API (a bot reads the log)"
    )
    if choice is EngineChoice.AUTO and all_random(cell):
        note += f" ({refused})"
    return engine, note


def batch_seed(seed: int, start: int, count: int) -> str:
    """The seed of the batch that plays games ``start`` to ``start + count - 1`` of a
    cell (its stream depends on its size too)."""
    return seed_of(seed, "batch", start, count)


def _numeric(text: str) -> int:
    """A seed string as NumPy's seed: 64 bits of its SHA-256 (stable everywhere)."""
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


@contextmanager
def _collector_paused() -> Iterator[None]:
    """The cycle collector off while a chunk's rows are made: they hold no cycles, and
    its passes over a heap of fresh rows took as long as making them."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def play_batch_chunk(task: Task) -> ChunkRows:
    """Play a chunk's games on the batch engine, all at once; the rows in game order."""
    import numpy as np

    from ninetynine.rl.batch import Batch

    cell, chunk = task.cell, task.chunk
    text = batch_seed(task.seed, chunk.start, chunk.count)
    first = np.zeros(chunk.count, np.int64)  # seat 0 leads, as on the fast path
    batch = Batch(cell.rules, cell.players, chunk.count, seed=_numeric(text), first=first)
    recorder = Recorder(cell, batch, chunk, text)
    while recorder.playing:
        recorder.step(batch.random_actions(distinct(batch, batch.legal())))
    return recorder.rows()


def distinct(batch: Batch, legal: np.ndarray) -> np.ndarray:
    """The legal actions with a card's copies after the first in its hand left out, so
    that a random move is uniform over the legal *codes*, as a ``random`` seat's is."""
    import numpy as np

    if batch.decks == 1:
        return legal
    held = batch.hands[np.arange(batch.size), batch.turn]
    w = batch.width  # (a hand slot's actions)
    for k in range(1, batch.hand_size):
        copy = (held[:, :k] == held[:, k : k + 1]).any(axis=1)
        legal = legal & ~(copy * (((1 << w) - 1) << (w * k)))
    return legal


def _ints(values: np.ndarray) -> array[int]:
    """A NumPy array's values, row by row, as HandColumns keeps ``lost``."""
    import numpy as np

    return array("q", np.ascontiguousarray(values, np.int64).tobytes())


class Recorder:
    """What a batch's games do, step by step, written down as rows: each slot plays one
    game (the games the batch starts after it in that slot are not written down). A step
    notes in arrays the hands and games that ended in it; :meth:`rows` makes the rows."""

    def __init__(self, cell: Cell, batch: Batch, chunk: Chunk, seed: str) -> None:
        import numpy as np

        self.np = np
        self.cell, self.batch, self.chunk, self.seed = cell, batch, chunk, seed
        self.first_game, self.rules_hash = chunk.start, rules_hash(cell.rules)
        # how its games end: the last one (or pooled team) in, the first one out, or a
        # score at the target (the batch plays no other)
        if cell.rules.game_end is GameEnd.FIRST_OUT:
            reason = EndReason.FIRST_OUT
        elif cell.rules.scoring is Scoring.GAME_POINTS:
            reason = EndReason.POINTS
        elif cell.rules.teams is Teams.POOLED:
            reason = EndReason.LAST_TEAM
        else:
            reason = EndReason.LAST_SURVIVOR
        self.end_reason = reason.value
        k, n = batch.size, cell.players
        self.slots = np.arange(k)
        self.live = np.ones(k, bool)  # the slot's game is still being written down
        self.playing = k
        self.moves = np.zeros(k, np.int64)  # the game's moves so far
        self.last = np.full(k, -1, np.int64)  # the last card played in the hand
        self.hand_no = batch.hand_no.copy()
        self.lost = np.zeros((k, len(CAUSES), n), np.int64)  # the hand's lives paid, by cause
        self.loser = np.full(k, -1, np.int64)  # the seat that lost the hand (last)
        self.game_lost = np.zeros((k, n), np.int64)
        # each slot's hand as it began: number, leader, dealer, moves before it, cards dealt
        self.opened = np.zeros((k, 4), np.int64)
        self.dealt = batch.hands.copy()
        self._open(self.slots)
        self.first = self.opened[:, 1:3].copy()  # the first hand's leader and dealer
        self.hand_log: list[tuple[np.ndarray, ...]] = []  # per step: the hands that ended
        self.game_log: list[tuple[np.ndarray, ...]] = []  # ... and the games

    def _open(self, slots: np.ndarray) -> None:
        b = self.batch
        self.opened[slots] = self.np.stack(
            [b.hand_no[slots], b.starter[slots], b.dealer[slots], self.moves[slots]], axis=1
        )
        self.dealt[slots] = b.hands[slots]
        self.last[slots] = -1
        self.lost[slots] = 0
        self.loser[slots] = -1

    def step(self, actions: np.ndarray) -> None:
        """Play ``actions`` (one per slot) and write down what they did."""
        np, b = self.np, self.batch
        played = actions != b.down
        mover = b.turn.copy()
        card = b.hands[self.slots, mover, b.split(actions)[0]]
        b.step(actions)
        live = self.live
        self.moves += live
        self.last = np.where(played, card, self.last)
        lost = np.nonzero((b.loser >= 0) & live)[0]
        if len(lost):  # one loser a slot at most: plain indexing adds once
            seat, paid = b.loser[lost], b.paid[lost]
            self.lost[lost, b.cause[lost], seat] += paid
            self.game_lost[lost, seat] += paid
            self.loser[lost] = seat
        if b.points_game:  # borders: the player's points
            crossed = np.where(live, b.borders_lost[:, 0], 0)
            self.lost[self.slots, BORDER, mover] += crossed
            self.game_lost[self.slots, mover] += crossed
        if b.online:  # milestones: the player paid for crossing, the others for making
            paid = np.where(live[:, None], b.milestones_paid, 0)
            if paid.any():
                mine = np.arange(b.n)[None, :] == mover[:, None]
                self.lost[:, CROSSED] += np.where(mine, paid, 0)
                self.lost[:, MADE] += np.where(mine, 0, paid)
                self.game_lost += paid
        ended = np.nonzero(live & (b.over | (b.hand_no != self.hand_no)))[0]
        if len(ended):
            self.hand_log.append(
                (
                    ended,
                    self.opened[ended],
                    self.moves[ended],
                    self.dealt[ended],
                    self.loser[ended],
                    self.last[ended],
                    self.lost[ended],
                )
            )
            over = b.over[ended]
            done = ended[over]
            if len(done):
                self.game_log.append(
                    (
                        done,
                        b.winners[done],
                        # what the places rank by: lives left, or the score
                        (b.final_scores if b.points_game else b.final_lives)[done],
                        b.final_hands[done],
                        self.moves[done],
                        self.game_lost[done],
                    )
                )
                live[done] = False
                self.playing -= len(done)
            self._open(ended[~over])
        np.copyto(self.hand_no, b.hand_no)

    def rows(self) -> ChunkRows:
        """The rows of every game (each must have ended), in game order then hand order."""
        assert not self.playing
        with _collector_paused():
            return self._rows()

    def _rows(self) -> ChunkRows:
        np, cell = self.np, self.cell
        games: list[Row] = [()] * self.batch.size
        for slot, winners, lives, hands, moves, lost in zip(
            *(np.concatenate(column).tolist() for column in zip(*self.game_log, strict=True)),
            strict=True,
        ):
            games[slot] = self._game_row(slot, winners, lives, hands, moves, lost)
        slot, opened, moves, dealt, loser, last, lost = (
            np.concatenate(column) for column in zip(*self.hand_log, strict=True)
        )
        order = np.lexsort((opened[:, 0], slot))  # by game, then hand
        opened, dealt, last = opened[order], dealt[order], last[order]
        hands = HandColumns(cell.rules.id, cell.players, cell.lineup_name)
        hands.game = (slot[order] + self.first_game).tolist()
        hands.starts = opened[:, :3].ravel().tolist()  # hand, opener, dealer
        ending = np.where(last >= 0, np.asarray(_RANK)[np.maximum(last, 0)], -1)
        turns = moves[order] - opened[:, 3]
        hands.ends = np.stack([turns, loser[order], ending], axis=1).ravel().tolist()
        held = dealt < 52  # a hand's empty places hold 52 or more
        hands.cards = dealt[held].tolist()  # row by row, seat by seat
        hands.sizes = held.sum(axis=2).ravel().tolist()
        # by row, cause, seat, as HandColumns keeps them
        hands.lost = _ints(lost[order])
        return ChunkRows(self.chunk, hands, games)

    def _game_row(
        self, slot: int, mask: int, lives: list[int], hands: int, moves: int, lost: list[int]
    ) -> Row:
        """A game's row as a tuple of :class:`GameRow`'s fields, in order."""
        cell, n = self.cell, self.cell.players
        winners = [s for s in range(n) if mask >> s & 1]
        rank = [(s in winners, lives[s]) for s in range(n)]
        opener, dealer = self.first[slot].tolist()
        game = self.first_game + slot
        return (
            cell.rules.id,
            self.rules_hash,
            n,
            cell.lineup_name,
            list(cell.seat_specs),
            game,  # block: a deal per game (the seats are all alike, rotating them is moot)
            0,  # rotation
            f"{self.seed}:{slot}",  # deal seed
            game,
            winners,
            [1 + sum(r > rank[s] for r in rank) for s in range(n)],  # places
            self.end_reason,
            hands,
            moves,  # turns
            opener,
            dealer,
            lost,  # lives lost
            __version__,
            ENCODING_VERSION,
        )
