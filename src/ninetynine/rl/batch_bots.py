"""Bots that play many games of a :class:`~ninetynine.rl.batch.Batch` at once, in NumPy.

A batch bot takes the batch, the slots where it is to act and their legal bits
(:meth:`Batch.legal`) and returns one batch action per slot. ``random`` chooses uniformly
among the legal batch actions (as among the legal actions, but where a hand holds two
equal cards); ``greedy`` and ``greedy-keep`` choose what
:mod:`ninetynine.bots.greedy` does, and ``heuristic-v1`` what
:mod:`ninetynine.bots.heuristic` does, move for move (a test plays them side by side: the
heuristic's scores are summed in its own order, so that its ties break alike).
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum
from typing import Any

import numpy as np

from ninetynine.bots.heuristic import KEEP, LIFE, PUSH, keep_value_v1
from ninetynine.bots.knowledge import escape_cards
from ninetynine.engine.tables import by_rules_object, compiled
from ninetynine.errors import NinetyNineError, RulesError
from ninetynine.rl.batch import EMPTY, SUPPORTED, Batch, check_supported
from ninetynine.rules.cards import format_card
from ninetynine.rules.effects import Kind
from ninetynine.rules.settings import (
    AfterBust,
    EliminatedHand,
    Elimination,
    GameEnd,
    Rule69,
    Rules,
    Scoring,
    Starter,
    StartTotal,
    StockEmpty,
    Teams,
    Thresholds,
    TwoPlayerReverse,
)

BatchBot = Callable[[Batch, np.ndarray, np.ndarray], np.ndarray]

_NONE = np.iinfo(np.int64).min  # the score of a choice that is not a candidate


# What the batch engine plays of the base games' parts (P, K, G, J and the settings their
# variations use): heuristic-v1's estimates of what a play leads to know no more
_BEYOND_BASE: dict[str, tuple[Any, ...]] = {
    "scoring": (Scoring.LIVES,),
    "thresholds": (Thresholds.NONE,),
    "teams": (Teams.NONE,),
    "start_total": (StartTotal.ZERO,),
    "rule_69": (Rule69.NONE,),
    "game_end": (GameEnd.LAST_SURVIVOR,),
    "elimination": (Elimination.AT_ZERO,),
    "eliminated_hand": (EliminatedHand.KEEP,),
    "starter": (Starter.LEFT_OF_DEALER, Starter.LEFT_OF_LOSER, Starter.LOSER),
    "two_player_reverse": (TwoPlayerReverse.HOLD,),
    "after_bust": (AfterBust.END_HAND, AfterBust.SIT_OUT, AfterBust.RESET_ALL),
    "stock_empty": (StockEmpty.RESHUFFLE_KEEP_TOP, StockEmpty.NO_DRAW),
}
BASE_PARTS = tuple((key, _BEYOND_BASE.get(key, values)) for key, values in SUPPORTED) + (
    ("king_ban_turns", (0,)),
    ("reverse_with_two_players", (True,)),
    ("clear_pile_on_reset", (False,)),
)


def check_base_parts(rules: Rules, engine: str) -> None:
    """Raise :class:`RulesError` naming the first setting or card outside the base games'
    parts (:data:`BASE_PARTS`, and no skipping card) that ``engine`` does not play."""
    check_supported(rules, BASE_PARTS, engine, (Kind.ADD, Kind.SET), chains=False, naming=False)
    skipping = [card for card in range(52) if rules.effect_of(card).skip]
    if skipping:
        raise RulesError(
            f"{engine} does not play card {format_card(skipping[0])} of these rules (it "
            "skips): it plays cards that add (one or two values), set or reverse"
        )


class BatchBotName(StrEnum):
    """The batch bots by name (a vector env's ``opponents``)."""

    RANDOM = "random"
    GREEDY = "greedy"
    GREEDY_KEEP = "greedy-keep"
    HEURISTIC = "heuristic-v1"


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
    h, w, limit = batch.hand_size, batch.width, batch.limit
    held = batch.hands[slots, batch.turn[slots]].astype(np.int64)  # (k, h)
    total = batch.total[slots][:, None]
    card = np.repeat(held, w, axis=1)  # (k, w * h): batch action j plays slot j // w
    choice = np.tile(np.arange(w), h)[None, :]
    on = (legal[:, None] >> np.arange(w * h)[None, :] & 1).astype(bool)
    new = batch.results(card, batch.values(card, choice), total)
    safe = on & (new <= limit) & (card != EMPTY)
    escape = _escapes(batch.rules)[card] if keep else np.zeros_like(safe)
    ordinary = np.where(safe & ~escape, new * 64 + card, _NONE)
    saving = np.where(safe & escape, -new * 64 + card, _NONE)
    # (a naming card's ties: the lowest seat, as the scalar bot meets them in code order)
    lowest = np.where(on & (card != EMPTY), -batch.play_codes(card, choice), _NONE)
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


def heuristic_bot(batch: Batch, slots: np.ndarray, legal: np.ndarray) -> np.ndarray:
    """:class:`~ninetynine.bots.heuristic.HeuristicBot` (``heuristic-v1``, its default
    weights) in each slot, bit for bit: each legal play scored by the lives it costs (and
    -100 where it loses the game), the danger it passes to the next seat and the keep value
    of the hand left, in the scalar bot's order of operations; ties to the higher action
    code; down where nothing else is legal. Needs an ``observed`` batch (the face-up cards
    it counts)."""
    if not batch.observed:
        raise NinetyNineError("the heuristic batch bot reads an observed batch")
    rules, h, limit = batch.rules, batch.hand_size, batch.limit
    keep, kinds, unsafe = _heuristic_tables(rules)
    k, rows = len(slots), np.arange(len(slots))
    me = batch.turn[slots]
    held = batch.hands[slots, me].astype(np.int64)  # (k, h)
    card = np.repeat(held, 2, axis=1)  # (k, 2h): batch action j plays slot j >> 1
    choice = np.tile(np.arange(2), h)[None, :]
    on = (legal[:, None] >> np.arange(2 * h)[None, :] & 1).astype(bool) & (card != EMPTY)
    code = np.where(on, card * 4 + choice, -1)
    total = batch.total[slots][:, None]
    new = batch.results(card, choice, total)
    lost = new > limit
    # the lives it costs, and whether that ends the game (the others' lives never move)
    lives = batch.lives[slots, me][:, None]
    paid = np.where(lost, np.minimum(lives, rules.bust_penalty), 0)
    bit = np.int64(1) << me
    out = lost & (lives - rules.bust_penalty <= 0)
    alive = batch.alive[slots][:, None]
    ended = out & (batch.popcount[alive & ~bit[:, None]] <= 1)
    score = LIFE * -paid.astype(np.float64)
    # who acts next, at what total, in the same hand (else no danger is counted)
    direction = batch.direction[slots][:, None] * batch.flip[card]
    in_hand = np.broadcast_to(batch.in_hand[slots][:, None], card.shape)
    after_total = np.where(lost, total, new)
    same_hand = ~lost
    if rules.after_bust is AfterBust.SIT_OUT:  # the others go on while two are left
        in_hand = np.where(lost, in_hand & ~bit[:, None], in_hand)
        same_hand = ~lost | (batch.popcount[in_hand] >= 2)
    elif rules.after_bust is AfterBust.RESET_ALL:  # all go on from 0 (but a seat knocked out)
        in_hand = np.where(out, in_hand & ~bit[:, None], in_hand)
        same_hand = np.ones_like(lost)
        after_total = np.where(lost, 0, after_total)
    nxt = batch._next(
        in_hand, np.broadcast_to(me[:, None], card.shape), (direction > 0).astype(np.int64)
    )
    # a draw from an empty stock that reshuffles the pile leaves chance to act next
    sizes = (batch.hands[slots] != EMPTY).sum(axis=2)  # each seat's, before the play
    chance = np.zeros(k, bool)
    if rules.stock_empty is StockEmpty.RESHUFFLE_KEEP_TOP:
        chance = (batch.stock_len[slots] == 0) & (len(batch.deck) - sizes.sum(axis=1) >= 1)
    draws = ~lost | (rules.after_bust is AfterBust.RESET_ALL and rules.draw_after_bust)
    counted = same_hand & ~(draws & chance[:, None]) & (nxt != me[:, None]) & ~ended
    # the chance that the next seat's hand (of unseen cards) has no safe play
    counts = np.zeros((k, 53), np.int64)
    for j in range(h):
        counts[rows, held[:, j]] += 1
    unseen = batch.decks - counts[:, :52] - batch.face_up_counts(slots)  # (k, 52)
    # the unseen cards with no safe play at every total (by classes of cards alike), exact
    # in float64, then at each play's total
    by_total = (unseen @ kinds) @ unsafe  # (k, totals)
    unsafe_count = by_total[rows[:, None], np.clip(after_total, -1, limit) + 1]
    count = unseen.sum(axis=1)[:, None]
    size = sizes[rows[:, None], nxt]
    ratio = unsafe_count / np.maximum(count, 1)
    danger = np.where((count > 0) & (size > 0), ratio ** size.astype(np.float64), 0.0)
    score = np.where(counted, score + PUSH * danger, score)
    # the keep value of the hand left, summed in card order as the bot's view holds it
    ordered = np.sort(held, axis=1)  # (k, h), EMPTY last
    first = (ordered[:, None, :] == card[:, :, None]).argmax(axis=2)  # (k, 2h)
    worth = keep[ordered]
    kept = np.zeros(card.shape)
    for q in range(h):
        kept = kept + np.where(first == q, 0.0, worth[:, q][:, None])
    score = np.where(ended, score + -100.0, score + KEEP * kept)
    # the best score, ties to the higher code (the later of the legal actions)
    score = np.where(on, score, -np.inf)
    best = score.max(axis=1)[:, None]
    pick = np.where(on & (score == best), code, -1).argmax(axis=1)
    found: np.ndarray = np.where(on.any(axis=1), pick, batch.down)
    return found


@by_rules_object
def _heuristic_tables(rules: Rules) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``heuristic-v1``'s keep value of each card (0 for ``EMPTY``); the cards' classes
    (cards alike in safety: a 0/1 matrix, card by class); and, per class and total from -1
    (where every total below 0 plays) to the limit, whether it has no safe play."""
    check_plays(BatchBotName.HEURISTIC, rules)
    c, limit = compiled(rules), rules.limit
    keep = np.zeros(53)
    keep[:52] = keep_value_v1(rules)[:52]  # the batch engine plays no jokers
    unsafe = np.array(
        [
            [all(busts for _, _, busts in c.options(card, t)) for t in range(-1, limit + 1)]
            for card in range(52)
        ],
        np.float64,
    )  # (card, total)
    rows, kind = np.unique(unsafe, axis=0, return_inverse=True)
    kinds = np.zeros((52, len(rows)))
    kinds[np.arange(52), kind.ravel()] = 1.0
    return keep, kinds, rows


def greedy_keep_bot(batch: Batch, slots: np.ndarray, legal: np.ndarray) -> np.ndarray:
    """``greedy-keep`` (:func:`greedy_bot` with ``keep``)."""
    return greedy_bot(batch, slots, legal, keep=True)


@by_rules_object
def _escapes(rules: Rules) -> np.ndarray:
    """Per card (and ``EMPTY``), whether it is an escape card of the rules."""
    table = np.zeros(53, bool)
    table[sorted(escape_cards(rules))] = True
    return table


BATCH_BOTS: dict[BatchBotName, BatchBot] = {
    BatchBotName.RANDOM: random_bot,
    BatchBotName.GREEDY: greedy_bot,
    BatchBotName.GREEDY_KEEP: greedy_keep_bot,
    BatchBotName.HEURISTIC: heuristic_bot,
}


def check_plays(name: BatchBotName, rules: Rules) -> None:
    """Raise :class:`RulesError` where the batch bot ``name`` does not play ``rules``:
    ``heuristic-v1``'s estimates of what a play leads to know the base games' parts alone."""
    if name is BatchBotName.HEURISTIC:
        check_base_parts(rules, "the batched heuristic-v1 bot")


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
