"""The yardsticks of the engine benchmarks: minimal, hard-coded, pure-Python engines, written
for speed and nothing else (no rules data, no events, no checks).

The first plays whole matches of the base game P with uniformly random legal choices, as
the engine's benchmarks do: 5 lives (3 above four players), 3 cards, one deck; the Ace 1
or 11, the Four holds and reverses, the Nine holds, the Ten +10 or -10, Jack and Queen +10,
the King sets 99; a player with no card that stays at or under 99 lays down and loses a
life, and the next hand is dealt from a full shuffle, led by the seat after the new dealer.
Each decision is one uniform choice among the legal plays (the set the engine's
``legal_codes`` gives, unsorted), and a shuffle is the same sort by random keys the engine
uses: the two do the same work, so their ratio is what the engine's generality costs. With
two decks (``decks=2``, as P deals at six players and more) it shuffles the 104 cards as
the engine does and gives a card held twice its plays once: the bound on what a second
deck costs any engine. The second plays IS (:func:`minimal_is_matches`): what that game's
structure (one short game, a Queen's no-draw chain) costs an engine that does nothing else,
and the third QC (:func:`minimal_qc_matches`): any card may go over, milestones pay.
``tests/test_yardsticks.py`` checks that each plays as many decisions a game as the engine.
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


def minimal_p_matches(
    matches: int, seed: int, players: int = 4, decks: int = 1, lives: int = 5
) -> int:
    """Play ``matches`` random matches of P (``lives`` each: P gives 3 above four players);
    returns the decisions made."""
    pack = tuple(sorted([*range(52)] * decks)) if decks > 1 else None
    rng = random.Random(seed)
    rnd, choice = rng.random, rng.choice
    rows = _ROWS
    decisions = 0
    for _ in range(matches):
        held, alive, left = [lives] * players, [True] * players, players
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
                    held[turn] -= 1
                    if not held[turn]:
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


# IS (the Icelandic rules, BurstBot's): the Ace 1 or 14, the Four +0 and the Seven +7
# reverse, the Five +5 skips, the Nine sets 99, the Ten -10 (not below 0) or +10, the Jack
# +11, the Queen +0 starts or lengthens a no-draw chain, the King +0
_IS_ADDS = ((1, 14), (2,), (3,), (0,), (5,), (6,), (7,), (8,), (), (-10, 10), (11,), (0,), (0,))
_IS_ROWS: dict[int, list[tuple[tuple[int, int], ...]]] = {}


def _is_row(total: int) -> list[tuple[tuple[int, int], ...]]:
    """Per card, its safe plays at ``total`` under IS as (card, new total)."""
    row = []
    for card in range(52):
        adds = _IS_ADDS[card >> 2]
        news = (99,) if not adds else tuple(max(total + v, 0) if v < 0 else total + v for v in adds)
        row.append(tuple((card, t) for t in news if t <= 99))
    return row


def minimal_is_matches(matches: int, seed: int, players: int = 4) -> int:
    """Play ``matches`` random games of IS: one life each, five cards, a bust (a player
    with no safe card lays down) puts its player out of the game, its hand under the pile,
    and the others play on from the same total until one is left (one hand a game). A
    player facing a chain of n Queens plays a Queen (and draws) or n other cards in a row
    without drawing (none of them a Queen; a player with fewer than n other cards may only
    play a Queen); a bust ends the chain. An empty stock takes the whole pile, shuffled.
    Returns the decisions made."""
    rng = random.Random(seed)
    rnd, choice = rng.random, rng.choice
    rows = _IS_ROWS
    decisions = 0
    for _ in range(matches):
        keys = [rnd() for _ in range(52)]
        stock = sorted(range(52), key=keys.__getitem__)
        hands: list[list[int]] = [[] for _ in range(players)]
        for _ in range(5):
            for s in range(players):
                hands[s].append(stock.pop())
        in_hand, left = [True] * players, players
        pile: list[int] = []
        total, direction, turn, chain, run = 0, 1, 0, 0, 0
        while True:
            hand = hands[turn]
            row = rows.get(total) or rows.setdefault(total, _is_row(total))
            moves: list[tuple[int, int]] = []
            for card in hand:
                moves += row[card]
            if run:  # a run holds no second Queen
                moves = [m for m in moves if m[0] >> 2 != 11]
            elif chain and chain > sum(c >> 2 != 11 for c in hand):  # short of a run
                moves = [m for m in moves if m[0] >> 2 == 11]
            decisions += 1
            if not moves:  # lay down: out of the game, the hand under the pile
                in_hand[turn], left = False, left - 1
                pile[:0] = hand
                hand.clear()
                chain = run = 0
                if left == 1:
                    break
                turn = (turn + direction) % players
                while not in_hand[turn]:
                    turn = (turn + direction) % players
                continue
            card, total = choice(moves)
            hand.remove(card)
            pile.append(card)
            rank = card >> 2
            if rank == 3 or rank == 6:
                direction = -direction
            nxt = (turn + direction) % players
            while not in_hand[nxt]:
                nxt = (nxt + direction) % players
            if rank == 4:  # skip one
                nxt = (nxt + direction) % players
                while not in_hand[nxt]:
                    nxt = (nxt + direction) % players
            if run:  # inside a run: no draw
                run -= 1
                turn = turn if run else nxt
                continue
            if chain and rank != 11:  # the first card of a run: no draw
                run, chain = chain - 1, 0
                turn = turn if run else nxt
                continue
            if rank == 11:
                chain += 1
            if not stock and pile:  # the whole pile, shuffled
                keys = [rnd() for _ in pile]
                stock = [pile[i] for i in sorted(range(len(pile)), key=keys.__getitem__)]
                pile = []
            if stock:
                hand.append(stock.pop())
            turn = nxt
    return decisions


# QC (qcsalon's online 33/66/99): the Ace 1 or 11, the Two halves an even total over 49 and
# doubles any other, the Four +4 and reverses (not with two in the hand), the Nine +0, the
# Ten -10 (not below 0) or +10, the Jack +10 and skips, the Queen and King +10
_QC_ADDS = ((1, 11), (), (3,), (4,), (5,), (6,), (7,), (8,), (0,), (-10, 10), (10,), (10,), (10,))
_QC_ROWS: dict[int, list[tuple[tuple[int, int], ...]]] = {}


def _qc_row(total: int) -> list[tuple[tuple[int, int], ...]]:
    """Per card, its plays at ``total`` under QC as (card, new total): any card, over the
    limit or not, but a value over it is not offered where the card has another (and of
    two values both over it, only the lower)."""
    row = []
    for card in range(52):
        adds = _QC_ADDS[card >> 2]
        if not adds:  # the Two
            news: tuple[int, ...] = (total // 2 if total % 2 == 0 and total > 49 else total * 2,)
        else:
            news = tuple(max(total + v, 0) if v < 0 else total + v for v in adds)
            if len(news) > 1:
                news = tuple(t for t in news if t <= 99) or (min(news),)
        row.append(tuple((card, t) for t in news))
    return row


def minimal_qc_matches(matches: int, seed: int, players: int = 4) -> int:
    """Play ``matches`` random games of QC: 9 tokens each, three cards, one deck; any card
    may be played, and one over 99 costs its player 2 and ends the hand; 33 or 66 made
    exactly costs each other player 1 (99 made, 2, and ends the hand), crossed costs the
    player 1; out at 0 tokens (the others play on), the last one in wins. Each hand is
    dealt from a full shuffle, led by the seat after the new dealer; an empty stock takes
    the pile but its top card, shuffled. Returns the decisions made."""
    rng = random.Random(seed)
    rnd, choice = rng.random, rng.choice
    rows = _QC_ROWS
    decisions = 0
    for _ in range(matches):
        held, alive, left = [9] * players, [True] * players, players
        dealer, starter = players - 1, 0
        while left > 1:
            keys = [rnd() for _ in range(52)]
            stock = sorted(range(52), key=keys.__getitem__)
            hands: list[list[int]] = [[] for _ in range(players)]
            seats = [s % players for s in range(starter, starter + players) if alive[s % players]]
            for _ in range(3):
                for s in seats:
                    hands[s].append(stock.pop())
            pile: list[int] = []
            total, direction, turn = 0, 1, starter
            while True:
                hand = hands[turn]
                row = rows.get(total) or rows.setdefault(total, _qc_row(total))
                moves: list[tuple[int, int]] = []
                for card in hand:
                    moves += row[card]
                decisions += 1
                card, new = choice(moves)
                hand.remove(card)
                pile.append(card)
                old, total = total, new
                if new > 99:  # over: 2 tokens, and the hand ends
                    held[turn] -= 2
                    if held[turn] <= 0:
                        alive[turn], left = False, left - 1
                    break
                # milestones: the others pay for one made, the player for one crossed
                payers: list[tuple[int, int]] = []
                if new == 99 and old < new:
                    payers += [((turn + k) % players, 2) for k in range(1, players)]
                for t in (33, 66):
                    if new == t and old < t:
                        payers += [((turn + k) % players, 1) for k in range(1, players)]
                    elif old < t < new:
                        payers.append((turn, 1))
                for s, due in payers:
                    if alive[s] and left > 1:
                        held[s] -= due
                        if held[s] <= 0:
                            alive[s], left = False, left - 1
                if left <= 1 or new == 99 and old < new:
                    break
                rank = card >> 2
                if rank == 3 and left > 2:
                    direction = -direction
                nxt = (turn + direction) % players
                while not alive[nxt]:
                    nxt = (nxt + direction) % players
                if rank == 10:  # skip one
                    nxt = (nxt + direction) % players
                    while not alive[nxt]:
                        nxt = (nxt + direction) % players
                if alive[turn]:
                    if not stock and len(pile) > 1:  # reshuffle the pile but its top card
                        keys = [rnd() for _ in range(len(pile) - 1)]
                        rest = pile[:-1]
                        stock = [rest[i] for i in sorted(range(len(rest)), key=keys.__getitem__)]
                        pile = pile[-1:]
                    if stock:
                        hand.append(stock.pop())
                turn = nxt
            dealer = (dealer + 1) % players
            while not alive[dealer]:
                dealer = (dealer + 1) % players
            starter = (dealer + 1) % players
            while not alive[starter]:
                starter = (starter + 1) % players
    return decisions
