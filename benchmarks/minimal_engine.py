"""The yardstick of the engine benchmarks: a minimal, hard-coded, pure-Python engine for the
base game P alone, written for speed and nothing else (no rules data, no events, no checks).

It plays whole 4-player matches of P with uniformly random legal choices, as the engine's
benchmarks do: 5 lives, 3 cards, one deck; the Ace 1 or 11, the Four holds and reverses,
the Nine holds, the Ten +10 or -10, Jack and Queen +10, the King sets 99; a player with no
card that stays at or under 99 lays down and loses a life, and the next hand is dealt from
a full shuffle, led by the seat after the new dealer. Each decision is one uniform choice
among the legal plays (the set the engine's ``legal_codes`` gives, unsorted), and a shuffle
is the same sort by random keys the engine uses: the two do the same work, so their ratio
is what the engine's generality costs. With two decks (``decks=2``, as P deals at six
players and more) it shuffles the 104 cards as the engine does and gives a card held twice
its plays once: the bound on what a second deck costs any engine.
"""

from __future__ import annotations

import random
from operator import itemgetter

_ADDS = ((1, 11), (2,), (3,), (0,), (5,), (6,), (7,), (8,), (0,), (-10, 10), (10,), (10,), ())


def _row(total: int) -> list[tuple[tuple[int, int], ...]]:
    """Per card, its safe plays at ``total`` as (card, new total)."""
    row = []
    for card in range(52):
        adds = _ADDS[card >> 2]
        news = (99,) if not adds else tuple(total + v for v in adds)
        row.append(tuple((card, t) for t in news if t <= 99))
    return row


# the plays at each total, built once a process: the ceiling is measured in its steady state
_ROWS: dict[int, list[tuple[tuple[int, int], ...]]] = {}


def minimal_p_matches(matches: int, seed: int, players: int = 4, decks: int = 1) -> int:
    """Play ``matches`` random matches of P; returns the decisions made."""
    pack = tuple(sorted([*range(52)] * decks)) if decks > 1 else None
    rng = random.Random(seed)
    rnd, choice = rng.random, rng.choice
    rows = _ROWS
    decisions = 0
    for _ in range(matches):
        lives, alive, left = [5] * players, [True] * players, players
        dealer, starter = players - 1, 0
        while left > 1:
            if pack is None:
                keys = [rnd() for _ in range(52)]
                stock = sorted(range(52), key=keys.__getitem__)
            else:
                keys = [rnd() for _ in pack]
                stock = list(itemgetter(*sorted(range(len(pack)), key=keys.__getitem__))(pack))
            hands: list[list[int]] = [[] for _ in range(players)]
            seats = [s % players for s in range(starter, starter + players) if alive[s % players]]
            for _ in range(3):
                for s in seats:
                    hands[s].append(stock.pop())
            pile: list[int] = []
            total, direction, turn = 0, 1, starter
            while True:
                hand = hands[turn]
                row = rows.get(total) or rows.setdefault(total, _row(total))
                moves: list[tuple[int, int]] = []
                for card in hand if pack is None else set(hand):
                    moves += row[card]
                decisions += 1
                if not moves:  # lay down: a life, and the hand ends
                    lives[turn] -= 1
                    if not lives[turn]:
                        alive[turn], left = False, left - 1
                    break
                card, total = choice(moves)
                hand.remove(card)
                pile.append(card)
                if card >> 2 == 3:
                    direction = -direction
                if not stock and len(pile) > 1:  # reshuffle the pile but its top card
                    keys = [rnd() for _ in range(len(pile) - 1)]
                    rest = pile[:-1]
                    stock = [rest[i] for i in sorted(range(len(rest)), key=keys.__getitem__)]
                    pile = pile[-1:]
                if stock:
                    hand.append(stock.pop())
                turn = (turn + direction) % players
                while not alive[turn]:
                    turn = (turn + direction) % players
            dealer = (dealer + 1) % players
            while not alive[dealer]:
                dealer = (dealer + 1) % players
            starter = (dealer + 1) % players
            while not alive[starter]:
                starter = (starter + 1) % players
    return decisions
