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
from collections.abc import Iterator
from contextlib import contextmanager
from enum import StrEnum
from typing import TYPE_CHECKING

from ninetynine import __version__
from ninetynine.analysis.cells import Cell, rules_hash
from ninetynine.analysis.play import ENCODING_VERSION, ChunkRows, Engine, Task, engine_for
from ninetynine.analysis.rows import GameRow, HandRow
from ninetynine.arena.game import seed_of
from ninetynine.bots.base import close_bot, make_bot
from ninetynine.bots.random_bot import RandomBot
from ninetynine.engine.fields import EndReason
from ninetynine.engine.ledger import CANNOT_PLAY, CAUSES, OVER_
from ninetynine.errors import NinetyNineError, RulesError
from ninetynine.rules.cards import format_card

if TYPE_CHECKING:  # for the annotations only: NumPy is imported where a chunk is played
    import numpy as np

    from ninetynine.rl.batch import Batch

NAMES = [format_card(card) for card in range(52)]
_TEXTS: dict[int, str] = {}  # a sorted hand as one number -> its cards in notation


class EngineChoice(StrEnum):
    """Which engine ``simulate`` may use (``--engine``)."""

    AUTO = "auto"  # the batch engine for the cells it plays, else the fast path
    FAST = "fast"  # never the batch engine: the fast path (or the checked API)
    BATCH = "batch"  # the batch engine for every cell, or one line saying why not


def all_random(cell: Cell) -> bool:
    """Whether every seat of ``cell`` is the one ``random`` bot."""
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
    recorder = Recorder(cell, batch, chunk.start, text)
    while recorder.playing:
        recorder.step(batch.random_actions(distinct(batch, batch.legal())))
    return recorder.rows(ChunkRows(chunk))


def distinct(batch: Batch, legal: np.ndarray) -> np.ndarray:
    """The legal actions with a card's copies after the first in its hand left out, so
    that a random move is uniform over the legal *codes*, as a ``random`` seat's is."""
    import numpy as np

    if batch.decks == 1:
        return legal
    held = batch.hands[np.arange(batch.size), batch.turn]
    for k in range(1, batch.hand_size):
        copy = (held[:, :k] == held[:, k : k + 1]).any(axis=1)
        legal = legal & ~(copy * (3 << (2 * k)))
    return legal


class Recorder:
    """What a batch's games do, step by step, written down as rows: each slot plays one
    game (the games the batch starts after it in that slot are not written down). A step
    notes in arrays the hands and games that ended in it; :meth:`rows` makes the rows."""

    def __init__(self, cell: Cell, batch: Batch, first_game: int, seed: str) -> None:
        import numpy as np

        self.np = np
        self.cell, self.batch, self.first_game, self.seed = cell, batch, first_game, seed
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
        card = b.hands[self.slots, b.turn, np.minimum(actions >> 1, b.hand_size - 1)]
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
                        b.final_lives[done],
                        b.final_hands[done],
                        self.moves[done],
                        self.game_lost[done],
                    )
                )
                live[done] = False
                self.playing -= len(done)
            self._open(ended[~over])
        np.copyto(self.hand_no, b.hand_no)

    def rows(self, out: ChunkRows) -> ChunkRows:
        """The rows of every game (each must have ended), in game order then hand order."""
        assert not self.playing
        with _collector_paused():
            return self._rows(out)

    def _rows(self, out: ChunkRows) -> ChunkRows:
        np = self.np
        games: list[GameRow | None] = [None] * self.batch.size
        for slot, winners, lives, hands, moves, lost in zip(
            *(np.concatenate(column).tolist() for column in zip(*self.game_log, strict=True)),
            strict=True,
        ):
            games[slot] = self._game_row(slot, winners, lives, hands, moves, lost)
        for game in games:
            assert game is not None
            out.games.append(game)
        slot, opened, moves, dealt, loser, last, lost = (
            np.concatenate(column) for column in zip(*self.hand_log, strict=True)
        )
        order = np.lexsort((opened[:, 0], slot))  # by game, then hand
        columns = (
            slot + self.first_game,
            opened[:, 0],
            opened[:, 1],
            opened[:, 2],
            moves - opened[:, 3],
            loser,
            np.where(last >= 0, last >> 2, -1),  # rules.cards.rank_of, as a vector
            lost[:, OVER_],  # the only causes the batch engine plays
            lost[:, CANNOT_PLAY],
        )
        cell, n = self.cell, self.cell.players
        rules, lineup = cell.rules.id, cell.lineup_name
        for game, hand, opener, dealer, turns, who, rank, over, cannot, opening in zip(
            *(column[order].tolist() for column in columns),
            self._openings(dealt[order]),
            strict=True,
        ):
            out.hands.append(
                HandRow(
                    rules=rules,
                    players=n,
                    lineup=lineup,
                    game=game,
                    hand=hand,
                    opener=opener,
                    dealer=dealer,
                    opening=opening,
                    turns=turns,
                    loser=who,
                    ending_rank=rank,
                    lost_over=over,
                    lost_cannot_play=cannot,
                    # no thresholds nor game points on the batch engine: nobody pays these
                    lost_made_threshold=[0] * n,
                    lost_crossed_threshold=[0] * n,
                    lost_border=[0] * n,
                )
            )
        return out

    def _openings(self, dealt: np.ndarray) -> list[list[str]]:
        """Each hand's cards dealt, seat by seat, in card notation (sorted, as the fast
        path writes them). A hand of up to ten cards is one number, and its text is made
        once a process (:data:`_TEXTS`)."""
        np = self.np
        m, n, h = dealt.shape
        cards = np.sort(dealt.reshape(m * n, h), axis=1)
        if h > 10:  # 53 ** h would not fit 64 bits
            flat = [" ".join(NAMES[c] for c in hand if c < 52) for hand in cards.tolist()]
        else:
            keys = (cards @ (53 ** np.arange(h, dtype=np.int64))).tolist()
            texts = _TEXTS if len(_TEXTS) < 500_000 else {}
            new = [i for i, key in enumerate(keys) if key not in texts]
            for i, hand in zip(new, cards[new].tolist(), strict=True):
                texts[keys[i]] = " ".join(NAMES[c] for c in hand if c < 52)
            flat = [texts[key] for key in keys]
        return [flat[i : i + n] for i in range(0, m * n, n)]

    def _game_row(
        self, slot: int, mask: int, lives: list[int], hands: int, moves: int, lost: list[int]
    ) -> GameRow:
        cell, n = self.cell, self.cell.players
        winners = [s for s in range(n) if mask >> s & 1]
        rank = [(s in winners, lives[s]) for s in range(n)]
        opener, dealer = self.first[slot].tolist()
        game = self.first_game + slot
        return GameRow(
            rules=cell.rules.id,
            rules_hash=rules_hash(cell.rules),
            players=n,
            lineup=cell.lineup_name,
            seats=list(cell.seat_specs),
            block=game,  # a deal per game: the seats are all alike, rotating them is moot
            rotation=0,
            deal_seed=f"{self.seed}:{slot}",
            game=game,
            winners=winners,
            places=[1 + sum(r > rank[s] for r in rank) for s in range(n)],
            reason=EndReason.LAST_SURVIVOR.value,  # the only end the batch engine plays
            hands=hands,
            turns=moves,
            opener=opener,
            dealer=dealer,
            lives_lost=lost,
            engine=__version__,
            encoding=ENCODING_VERSION,
        )
