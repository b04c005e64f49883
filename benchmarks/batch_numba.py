"""Would Numba win? A Numba-compiled loop over the games of a batch, for the base game P
alone (random legal choices, whole matches, each hand a full shuffle), timed beside the
NumPy batch engine (:class:`ninetynine.rl.batch.Batch`) in the same run on one thread.

This is a yardstick, not an engine: the project's batch engine is NumPy, and Numba (not a
dependency: ``pip install numba``) would only come in if it wins by enough to pay for a
second engine. The script says how much it wins.

Run: python benchmarks/batch_numba.py [--batch 16384] [--steps 200]
"""

from __future__ import annotations

import os

os.environ.setdefault("NUMBA_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402

from ninetynine.rl.batch import Batch  # noqa: E402

ADD = np.array(
    [
        [1, 11],
        [2, 2],
        [3, 3],
        [0, 0],
        [5, 5],
        [6, 6],
        [7, 7],
        [8, 8],
        [0, 0],
        [-10, 10],
        [10, 10],
        [10, 10],
        [0, 0],
    ],
    np.int64,
)  # P, by rank


def compiled_step():  # the two compiled functions: deal and steps
    from numba import njit

    @njit(cache=False)
    def deal(b, hands, stock, slen, alive, starter, n):
        deck = stock[b]
        for i in range(52):
            deck[i] = i
        for i in range(51, 0, -1):  # Fisher-Yates
            j = np.random.randint(0, i + 1)
            deck[i], deck[j] = deck[j], deck[i]
        top = 52
        for r in range(3):
            for k in range(n):
                s = (starter[b] + k) % n
                if alive[b, s]:
                    top -= 1
                    hands[b, s, r] = deck[top]
        slen[b] = top

    @njit(cache=False)
    def steps(count, hands, stock, slen, total, direction, turn, lives, alive, dealer, starter, n):
        decisions = 0
        legal = np.empty(7, np.int64)
        for _ in range(count):
            for b in range(hands.shape[0]):
                seat = turn[b]
                k = 0
                for slot in range(3):
                    card = hands[b, seat, slot]
                    if card < 0:
                        continue
                    rank = card >> 2
                    for choice in range(2 if rank in (0, 9) else 1):
                        new = 99 if rank == 12 else total[b] + ADD[rank, choice]
                        if new <= 99:
                            legal[k] = slot * 2 + choice
                            k += 1
                decisions += 1
                if k == 0:  # lay down: a life, a new hand
                    lives[b, seat] -= 1
                    if lives[b, seat] == 0:
                        alive[b, seat] = False
                    left = 0
                    for s in range(n):
                        left += alive[b, s]
                    if left <= 1:
                        for s in range(n):
                            lives[b, s] = 5
                            alive[b, s] = True
                    d = (dealer[b] + 1) % n
                    while not alive[b, d]:
                        d = (d + 1) % n
                    dealer[b] = d
                    s = (d + 1) % n
                    while not alive[b, s]:
                        s = (s + 1) % n
                    starter[b] = s
                    for s2 in range(n):
                        for r in range(3):
                            hands[b, s2, r] = -1
                    deal(b, hands, stock, slen, alive, starter, n)
                    total[b], direction[b], turn[b] = 0, 1, starter[b]
                    continue
                a = legal[np.random.randint(0, k)]
                slot, choice = a >> 1, a & 1
                card = hands[b, seat, slot]
                rank = card >> 2
                total[b] = 99 if rank == 12 else total[b] + ADD[rank, choice]
                if rank == 3:
                    direction[b] = -direction[b]
                if slen[b] > 0:
                    slen[b] -= 1
                    hands[b, seat, slot] = stock[b, slen[b]]
                else:  # a restock, simplified: a fresh deck less the hands
                    hands[b, seat, slot] = -1
                s = (seat + direction[b]) % n
                while not alive[b, s]:
                    s = (s + direction[b]) % n
                turn[b] = s
        return decisions

    return deal, steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batch", type=int, default=16_384)
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    try:
        deal, steps = compiled_step()
    except ImportError:
        print("Numba is not installed: pip install numba")
        return
    b, n = args.batch, args.players
    hands = np.full((b, n, 3), -1, np.int64)
    stock = np.zeros((b, 52), np.int64)
    slen = np.zeros(b, np.int64)
    alive = np.ones((b, n), np.bool_)
    starter = np.zeros(b, np.int64)
    for g in range(b):
        deal(g, hands, stock, slen, alive, starter, n)
    state = (
        np.zeros(b, np.int64),
        np.ones(b, np.int64),
        starter.copy(),
        np.full((b, n), 5, np.int64),
        alive,
        np.full(b, n - 1, np.int64),
        starter,
    )
    steps(1, hands, stock, slen, *state, n)  # compile
    start = time.process_time()
    done = steps(args.steps, hands, stock, slen, *state, n)
    numba_rate = done / (time.process_time() - start)
    batch = Batch("P", n, b, seed=1)
    start, before = time.process_time(), batch.decisions
    for _ in range(args.steps):
        batch.step(batch.random_actions(batch.legal()))
    numpy_rate = (batch.decisions - before) / (time.process_time() - start)
    print(f"P, {n} players, batch {b:,}, one thread, decisions per CPU second")
    print(f"Numba loop (P only, a yardstick): {numba_rate:13,.0f}")
    print(
        f"NumPy batch engine (any base game): {numpy_rate:11,.0f}   "
        f"Numba / NumPy = {numba_rate / numpy_rate:.1f}"
    )


if __name__ == "__main__":
    main()
