"""Bots that play many games of a :class:`~ninetynine.rl.batch.Batch` at once, in NumPy.

A batch bot takes the batch, the slots where it is to act and their legal bits
(:meth:`Batch.legal`) and returns one batch action per slot. ``random`` chooses uniformly
among the legal batch actions (as among the legal actions, but where a hand holds two
equal cards); ``greedy`` and ``greedy-keep`` choose what
:mod:`ninetynine.bots.greedy` does, move for move (a test plays them side by side).
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum
from functools import cache

import numpy as np

from ninetynine.bots.knowledge import escape_cards
from ninetynine.errors import NinetyNineError
from ninetynine.rl.batch import EMPTY, Batch
from ninetynine.rules.settings import Rules

BatchBot = Callable[[Batch, np.ndarray, np.ndarray], np.ndarray]

_NONE = np.iinfo(np.int64).min  # the score of a choice that is not a candidate


class BatchBotName(StrEnum):
    """The batch bots by name (a vector env's ``opponents``)."""

    RANDOM = "random"
    GREEDY = "greedy"
    GREEDY_KEEP = "greedy-keep"


def random_bot(batch: Batch, slots: np.ndarray, legal: np.ndarray) -> np.ndarray:
    """A legal batch action in each slot, uniformly at random (the batch's generator)."""
    return batch.random_actions(legal)


def greedy_bot(
    batch: Batch, slots: np.ndarray, legal: np.ndarray, keep: bool = False
) -> np.ndarray:
    """:class:`~ninetynine.bots.greedy.GreedyBot` (``keep``: ``GreedyKeepBot``) in each slot:
    the safe play that leaves the highest total, ties to the higher card (with ``keep``,
    escape cards only once no ordinary card is safe, the one that leaves the lowest total,
    ties to the higher card); with no safe play, the lowest legal play, else down."""
    h, limit = batch.hand_size, batch.limit
    held = batch.hands[slots, batch.turn[slots]]  # (k, h)
    total = batch.total[slots][:, None]
    card = np.repeat(held, 2, axis=1)  # (k, 2h): batch action j plays slot j >> 1
    choice = np.tile(np.arange(2), h)[None, :]
    on = (legal[:, None] >> np.arange(2 * h)[None, :] & 1).astype(bool)
    set_to = batch.set_to[card]
    new = np.where(set_to >= 0, set_to, total + batch.add[card * 2 + choice])
    if batch.clamp:
        new = np.where((new < 0) & (new < total), 0, new)
    safe = on & (new <= limit) & (card != EMPTY)
    escape = _escapes(batch.rules)[card] if keep else np.zeros_like(safe)
    ordinary = np.where(safe & ~escape, new * 64 + card, _NONE)
    saving = np.where(safe & escape, -new * 64 + card, _NONE)
    lowest = np.where(on & (card != EMPTY), -(card * 4 + choice), _NONE)
    best_ordinary, best_saving = ordinary.max(axis=1), saving.max(axis=1)
    pick = np.where(
        best_ordinary > _NONE,
        ordinary.argmax(axis=1),
        np.where(best_saving > _NONE, saving.argmax(axis=1), lowest.argmax(axis=1)),
    )
    found: np.ndarray = np.where(
        (best_ordinary > _NONE) | (best_saving > _NONE) | (lowest.max(axis=1) > _NONE),
        pick,
        batch.down,
    )
    return found


def greedy_keep_bot(batch: Batch, slots: np.ndarray, legal: np.ndarray) -> np.ndarray:
    """``greedy-keep`` (:func:`greedy_bot` with ``keep``)."""
    return greedy_bot(batch, slots, legal, keep=True)


@cache
def _escapes(rules: Rules) -> np.ndarray:
    """Per card (and ``EMPTY``), whether it is an escape card of the rules."""
    table = np.zeros(53, bool)
    table[sorted(escape_cards(rules))] = True
    return table


BATCH_BOTS: dict[BatchBotName, BatchBot] = {
    BatchBotName.RANDOM: random_bot,
    BatchBotName.GREEDY: greedy_bot,
    BatchBotName.GREEDY_KEEP: greedy_keep_bot,
}


def batch_bot(name: str) -> BatchBot:
    """The batch bot of a name, or one clear error naming those there are."""
    try:
        return BATCH_BOTS[BatchBotName(name)]
    except ValueError:
        raise NinetyNineError(
            f"opponents = {name!r}: the batch bots are "
            + ", ".join(repr(b.value) for b in BatchBotName)
            + ", or give a policy: a function of (observations, masks) to action indexes"
        ) from None
