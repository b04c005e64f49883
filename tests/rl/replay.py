"""Replaying a batch's games on the reference engine: a recorder of everything that happens
in each slot of a :class:`Batch` (new games, shuffles, leaders drawn, moves, and what the
tests note), and an :class:`Episode` that draws its chance from those records."""

from __future__ import annotations

from typing import Any

import numpy as np

from ninetynine.engine.actions import Lead, Reinsert, Shuffle
from ninetynine.engine.game import new_game
from ninetynine.engine.state import CHANCE
from ninetynine.rl.batch import Batch
from ninetynine.rl.encoding import Encoding
from ninetynine.rl.episode import _SHUFFLES, Episode


class Recorder:
    """Per slot of ``batch``, the stream of ``("new", first)``, ``("chance", outcome)`` (a
    shuffle, a leader drawn or an up-card put back) and ``("move", code)`` from now on (with
    what a test adds by :meth:`note`)."""

    def __init__(self, batch: Batch) -> None:
        self.batch = batch
        self.streams: list[list[tuple[Any, ...]]] = [[] for _ in range(batch.size)]
        shuffler, leader, reinserter = batch.shuffler, batch.leader, batch.reinserter
        new_games, step = batch._new_games, batch.step

        def shuffle(slots: np.ndarray, cards: np.ndarray, counts: np.ndarray) -> np.ndarray:
            order = shuffler(slots, cards, counts)
            for row, slot in enumerate(slots):
                drawn = Shuffle(tuple(order[row, : counts[row]].tolist()))
                self.streams[slot].append(("chance", drawn))
            return order

        def lead(slots: np.ndarray, alive: np.ndarray) -> np.ndarray:
            seats = leader(slots, alive)
            for slot, seat in zip(slots.tolist(), seats.tolist(), strict=True):
                self.streams[slot].append(("chance", Lead(seat)))
            return seats

        def reinsert(slots: np.ndarray, low: np.ndarray, high: np.ndarray) -> np.ndarray:
            depths = reinserter(slots, low, high)
            for slot, depth in zip(slots.tolist(), depths.tolist(), strict=True):
                self.streams[slot].append(("chance", Reinsert(depth)))
            return depths

        def new(slots: np.ndarray, first: np.ndarray | None = None) -> None:
            marks = [len(self.streams[s]) for s in slots]
            new_games(slots, first)
            for s, m in zip(slots.tolist(), marks, strict=True):
                self.streams[s].insert(m, ("new", int(batch.starter[s])))

        def play(actions: np.ndarray, slots: np.ndarray | None = None) -> None:
            at = np.arange(batch.size) if slots is None else slots
            for s, code in zip(at.tolist(), batch.codes(actions, slots).tolist(), strict=True):
                self.streams[s].append(("move", code))
            step(actions, slots)

        batch.shuffler, batch.leader, batch.reinserter = shuffle, lead, reinsert
        batch._new_games = new  # type: ignore[method-assign]
        batch.step = play  # type: ignore[method-assign]

    def note(self, slot: int, *what: Any) -> None:
        self.streams[slot].append(what)

    def games(
        self, slot: int
    ) -> list[tuple[int, list[Shuffle | Lead | Reinsert], list[tuple[Any, ...]]]]:
        """The slot's games: (first, chance's outcomes, the other records in order)."""
        games: list[tuple[int, list[Shuffle | Lead | Reinsert], list[tuple[Any, ...]]]] = []
        for record in self.streams[slot]:
            if record[0] == "new":
                games.append((record[1], [], []))
            elif record[0] == "chance":
                games[-1][1].append(record[1])
            elif games:
                games[-1][2].append(record)
        return games


class Replay(Episode):
    """An episode of the reference engine whose chance is the recorded shuffles, leaders
    and depths
    (the rest is :class:`Episode`'s: the cards played by seat are kept as the environments
    keep them)."""

    def __init__(
        self,
        encoding: Encoding,
        first: int,
        chance: list[Shuffle | Lead | Reinsert],
        log: bool = False,
    ) -> None:
        self.encoding = encoding
        self.log = [] if log else None
        self.chance = list(chance)
        self.state = new_game(encoding.rules, encoding.players, first=first)
        self.played, self._hand = [], 0
        self.run_chance()

    def run_chance(self) -> None:
        state = self.state
        while state.phase == CHANCE:
            if state.chance in _SHUFFLES:
                self.played = []
            state.apply_chance(self.chance.pop(0))
        if state.hand_no != self._hand:
            self.played, self._hand = [], state.hand_no
