"""The canonical encoding (:mod:`ninetynine.rl.encoding`) of a :class:`~ninetynine.rl.batch.Batch`,
computed for many games at once from the batch's arrays: each seat's observation, the
legal-action masks in the canonical action index, and the translation between that index
and the batch's per-slot actions.

The observation equals :meth:`Encoding.observe <ninetynine.rl.encoding.Encoding.observe>`
of the same position (a differential test replays the batch's games through the reference
engine), and reads, like it, only what the seat may know: its own hand, the face-up pile,
the public counts and who played what.
"""

from __future__ import annotations

import numpy as np

from ninetynine.engine.ledger import OVER_
from ninetynine.engine.state import DOWN
from ninetynine.rl.batch import EMPTY, RANK_OF, Batch
from ninetynine.rl.encoding import Encoding


class BatchEncoding:
    """Observations, masks and action translation of ``batch`` in ``encoding``'s layout (the
    same rules and table size)."""

    def __init__(self, encoding: Encoding, batch: Batch) -> None:
        if encoding.rules != batch.rules or encoding.players != batch.n:
            raise ValueError("the encoding and the batch are of other rules or table sizes")
        if not batch.observed:
            raise ValueError("the batch keeps what observations read only when made observed")
        self.enc, self.batch = encoding, batch
        self.down = encoding.index[DOWN]
        self.actions = encoding.actions
        # each play's canonical index by card and batch choice (the engine's code, or a
        # naming card's index for the seat it names; ``actions``, no action, for none),
        # and the card and choice of each canonical index that is a play
        w = batch.width
        self.index = np.full((53, w), self.actions, np.int64)
        self.card = np.full(self.actions, EMPTY, np.int64)
        self.choice = np.zeros(self.actions, np.int64)
        for card in range(52):
            for choice in range(batch.n if batch.naming[card] else 2):
                code = batch.play_codes(np.int64(card), np.int64(choice))
                i = self.index[card, choice] = encoding.index[int(code)]
                self.card[i], self.choice[i] = card, choice

    def observe(self, slots: np.ndarray, seats: np.ndarray, *, over: bool = False) -> np.ndarray:
        """The observation (float32, one row per slot) of ``seats[i]`` in ``slots[i]``; with
        ``over``, of a game that has ended there (nobody to act, as the reference engine
        shows a finished game)."""
        enc, bt = self.enc, self.batch
        b, n, k = enc.blocks, enc.players, len(slots)
        size = enc.size
        out = np.zeros((k, size + 1), np.float32)  # the last column takes writes for nothing
        rows = np.arange(k)[:, None]
        unit = np.float32(1.0 / enc.decks)
        held = bt.hands[slots, seats]  # (k, h)
        counts = np.zeros((k, 53), np.int64)
        for j in range(held.shape[1]):
            counts[rows[:, 0], held[:, j]] += 1
        counts = counts[:, :52]
        face_up = bt.face_up_counts(slots)
        hand, seen = b["hand"].start, b["seen"].start
        out[:, hand : hand + 52] = counts * unit
        out[:, seen : seen + 52] = face_up * unit
        known = (counts + face_up).reshape(k, 13, 4).sum(axis=2)
        base = b["unseen"].start
        out[:, base : base + 13] = (4 * bt.decks - known) / np.float32(4 * enc.decks)
        limit = enc.limit
        total = bt.total[slots].astype(np.int64)
        if over:  # the reference engine leaves a game lost over the limit at that total
            total = np.where(bt.cause[slots] == OVER_, limit + 1, total)
        up, below = np.clip(total, 0, limit), np.clip(-total, 0, limit)
        out[rows[:, 0], b["total"].start + up] = 1.0
        base = b["total_scalar"].start
        out[:, base] = up / limit
        out[:, base + 1] = below / limit
        base = b["recent"].start
        recent = bt.recent[slots]
        for j in range(enc.recent):
            card = recent[:, j]
            out[rows[:, 0], np.where(card == EMPTY, size, base + 13 * j + RANK_OF[card])] = 1.0
        turn = np.full(k, -1, np.int64) if over else bt.turn[slots]
        self._seats(out, slots, seats, turn)
        base = b["table"].start
        out[:, base] = bt.direction[slots] > 0
        out[:, base + 1] = np.minimum(bt.stock_len[slots] / enc.deck_size, 1.0)
        out[:, base + 2] = not over  # in play (the batch draws at once: never drawing)
        # base + 3 and 6: drawing, cards owed: none in the rules the batch plays
        if bt.chains:  # the no-draw chain faced, and the cards left to play in a run
            out[:, base + 4] = np.minimum(bt.chain[slots, 0], n) / n
            out[:, base + 5] = np.minimum(bt.plays_left[slots, 0], n) / n
        out[:, base + 7] = turn == seats
        if enc.version >= 2:
            base, copies = b["played"].start, np.float32(4 * enc.decks)
            played = bt.played[slots]  # (k, n, 13)
            for j in range(n):
                s = (seats + j) % n
                out[:, base + 13 * j : base + 13 * j + 13] = played[np.arange(k), s] / copies
        return out[:, :size]

    def _seats(
        self, out: np.ndarray, slots: np.ndarray, seats: np.ndarray, turn: np.ndarray
    ) -> None:
        """Per seat from the observer's on: alive, in the hand, to act, dealer, hand size and
        lives (or game points and score), as
        :meth:`Encoding._seats <ninetynine.rl.encoding.Encoding._seats>`."""
        enc, bt = self.enc, self.batch
        n, base = enc.players, enc.blocks["seats"].start
        size = max(1, enc.rules.hand_size)
        alive, in_hand, dealer = bt.alive[slots], bt.in_hand[slots], bt.dealer[slots]
        sizes = (bt.hands[slots] != EMPTY).sum(axis=2)  # (k, n)
        lives = bt.lives[slots]
        rules = enc.rules
        points, scores = bt.points[slots], bt.scores[slots]  # (width 0 without game points)
        k = np.arange(len(slots))
        for j in range(n):
            s = (seats + j) % n
            at = base + 7 * j
            out[:, at] = alive >> s & 1
            out[:, at + 1] = in_hand >> s & 1
            out[:, at + 2] = s == turn
            out[:, at + 3] = s == dealer
            out[:, at + 4] = np.minimum(sizes[k, s] / (2 * size), 1.0)
            if bt.points_game:
                top = 2 * rules.points_per_hand or 1
                out[:, at + 5] = np.minimum(np.maximum(points[k, s], 0) / top, 1.0)
                out[:, at + 6] = np.minimum(np.maximum(scores[k, s], 0) / enc.points, 1.0)
            else:
                out[:, at + 5] = np.minimum(lives[k, s] / (2 * enc.lives), 1.0)

    def mask(self, slots: np.ndarray, legal: np.ndarray) -> np.ndarray:
        """The canonical legal-action masks (int8, one row per slot) of the seat to act in
        ``slots``, from their batch ``legal`` bits (:meth:`Batch.legal`)."""
        bt, k = self.batch, len(slots)
        mask = np.zeros((k, self.actions + 1), np.int8)  # the last column: no action
        rows = np.arange(k)
        held = bt.hands[slots, bt.turn[slots]].astype(np.int64)
        w = bt.width
        for j in range(w * bt.hand_size):
            on = (legal >> j & 1).astype(bool)
            mask[rows, np.where(on, self.index[held[:, j // w], j % w], self.actions)] = 1
        mask[rows, np.where(legal >> bt.down & 1, self.down, self.actions)] = 1
        return mask[:, :-1]

    def slot_actions(
        self, slots: np.ndarray, indexes: np.ndarray, legal: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """The batch actions of canonical action ``indexes`` in ``slots`` (the first hand
        slot that holds the card) and, per row, whether it is legal there (``legal`` bits)."""
        bt = self.batch
        indexes = np.asarray(indexes, np.int64)
        held = bt.hands[slots, bt.turn[slots]]
        safe = np.clip(indexes, 0, self.actions - 1)  # the others are not plays: refused below
        card, choice = self.card[safe], self.choice[safe]
        match = held == card[:, None]
        slot = match.argmax(axis=1)
        play = (indexes >= 0) & (indexes < self.actions) & (card != EMPTY) & match.any(axis=1)
        actions = np.where(indexes == self.down, bt.down, bt.width * slot + choice)
        ok = (play | (indexes == self.down)) & (legal >> actions & 1).astype(bool)
        return actions, ok
