"""Reviewing a finished game: each decision of one seat beside the move the coach prefers.

The record is replayed; at each decision of the seat where it had a real choice (two
moves or more that differ by more than a card's suit), the coach
(:func:`~ninetynine.coach.advice.advise`) is asked from that seat's view as it was then,
with the public log so far. The cost of a decision is how much likelier the move played
made losing the hand than the move the coach prefers, in points of chance (0 to 100). The
move played agrees with the coach's where it is the same move (the same card in another
suit, where suits do not matter) or one tied with it (within the noise: see
:mod:`ninetynine.coach.advice`); the others are the decisions where the coach would have
played otherwise.

Costly decisions are flagged as a chess program flags mistakes, where the cost is also
more than twice its standard error (so noise is not flagged):

=====  ===========  ====================================================
flag   name         cost (points of chance of losing the hand)
=====  ===========  ====================================================
?!     inaccuracy   5 or more
?      mistake      10 or more
??     blunder      20 or more
=====  ===========  ====================================================
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from ninetynine.bots.ismcts import move_key
from ninetynine.coach.advice import PLAYOUTS, SIGNIFICANT, Advice, MoveFigures, advice_json, advise
from ninetynine.engine.actions import Action
from ninetynine.errors import NinetyNineError
from ninetynine.records.match import Match
from ninetynine.records.record import Record

# (flag, name, least cost in points of chance of losing the hand), worst first
FLAGS = (("??", "blunder", 20.0), ("?", "mistake", 10.0), ("?!", "inaccuracy", 5.0))


@dataclass(frozen=True)
class Decision:
    """One reviewed decision: ``number`` is the action's number in the record (from 1);
    ``played.action`` is the move as played, ``played`` the figures of its move."""

    number: int
    hand: int
    total: int
    played: MoveFigures
    best: MoveFigures
    cost: float  # points of chance of losing the hand the move played added (0-100)
    error: float  # the cost's standard error, in points
    flag: str  # "", "?!", "?" or "??"
    advice: Advice

    @property
    def agrees(self) -> bool:
        """Whether the move played is the coach's: the same move, or one tied with it."""
        return self.advice.figures(self.played.action).action in self.advice.tied


def flag_of(cost: float, error: float) -> str:
    """The flag of a decision that cost ``cost`` points, give or take ``error``."""
    if cost <= SIGNIFICANT * error:
        return ""
    for flag, _, least in FLAGS:
        if cost >= least:
            return flag
    return ""


def review(
    record: Record,
    seat: int,
    *,
    playouts: int = PLAYOUTS,
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
) -> list[Decision]:
    """Every decision of ``seat`` (from 0) with a real choice, in the order played.

    ``progress(done, total)`` is called after each move of the record.
    """
    n = record.start.n
    if not 0 <= seat < n:
        raise NinetyNineError(f"--seat {seat + 1}: this game has seats 1 to {n}")
    match = Match(record.start, auto_chance=False)  # the record holds the chance events
    found: list[Decision] = []
    for number, (who, move) in enumerate(record.moves, start=1):
        state = match.state
        if isinstance(move, Action) and state.current_seat == seat:
            view = match.view(seat)
            same = state.c.same
            if (
                move in view.legal
                and len({move_key(state.code_of(a), same) for a in view.legal}) > 1
            ):
                advice = advise(view, playouts=playouts, seed=seed + number)
                found.append(_decision(number, state.hand_no, state.total, move, advice))
        try:
            match.play(move, who)
        except NinetyNineError as e:
            raise NinetyNineError(f"action {number} ('{move}'): {e}") from None
        if progress is not None:
            progress(number, len(record.moves))
    return found


def _decision(number: int, hand: int, total: int, played: Action, advice: Advice) -> Decision:
    cost, error = advice.gap(played)
    cost, error = 100 * cost, 100 * error
    return Decision(
        number,
        hand,
        total,
        replace(advice.figures(played), action=played),
        advice.figures(advice.best),
        cost,
        error,
        flag_of(cost, error),
        advice,
    )


def costliest(decisions: list[Decision], count: int = 5) -> list[Decision]:
    """The flagged decisions that cost most, costliest first (at most ``count``)."""
    flagged = [d for d in decisions if d.flag]
    return sorted(flagged, key=lambda d: -d.cost)[:count]


def review_json(decisions: list[Decision]) -> list[dict[str, Any]]:
    """The review as JSON: one object per decision (chances 0 to 1, cost in points; the
    cost's error is null where too few deals were played to tell, which JSON cannot say as
    infinity)."""
    return [
        {
            "action_number": d.number,
            "hand": d.hand,
            "total": d.total,
            "played": str(d.played.action),
            "best": str(d.best.action),
            "agrees": d.agrees,
            "cost": round(d.cost, 1),
            "error": round(d.error, 1) if math.isfinite(d.error) else None,
            "flag": d.flag,
            "advice": advice_json(d.advice),
        }
        for d in decisions
    ]
