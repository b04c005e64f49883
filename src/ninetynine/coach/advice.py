"""The coach: for each legal move of a seat, the chance of losing this hand and the game.

Everything comes from the seat's :class:`~ninetynine.engine.view.View` (its own hand, the public
facts and the public log): the coach runs the search of the ``hard`` bot on it, with
every move tried on the same sampled deals, and reads where each playout ended:

* **lose this hand**: the share of playouts in which the seat (its side, in teams)
  loses a life or points before the search's horizon: the end of the hand, or where a
  bust resets the total and play goes on, the next life anyone loses;
* **lose the game**: one minus the seat's chance to win the game from the lives
  everyone has where the playout ended, each later hand taken as a fair lottery
  (:mod:`ninetynine.bots.odds`); None where the game is not won by lives. Where the
  table holds too many lives to count exactly, the odds are an estimate and
  :attr:`Advice.note` says so.

Both figures go through the calibration of the rules' family
(:mod:`ninetynine.coach.calibration`: monotone maps fitted on self-play, versioned);
:attr:`Advice.calibration` names the version applied; where the family has no map the
figures are the search's own and it is None (no note: version 1 changes no figure, so a
note on the other families would only mislead).

Plays that differ only in their card's suit, where the rules give suits no meaning for
that card (the rules' ``same`` table: a suit card of its own, such as the Ace of Spades of
rules TW, stays apart), are one move: one line of figures for all of them.

The coach's move (★, ``best``) is the move with the best figures: the least chance of
losing the hand, then of losing the game. Figures come from sampling: the moves whose chance
of losing the hand is within :data:`SIGNIFICANT` standard errors of the best's (the error of
the difference, the moves compared on the same deals) are ``tied`` with it, and a front end
says so rather than star one of them.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field, replace
from typing import Any

from ninetynine.bots.base import make_bot, with_options
from ninetynine.bots.ismcts import IsmctsBot
from ninetynine.bots.odds import game_odds
from ninetynine.coach.calibration import Calibration, shipped
from ninetynine.engine.actions import Action
from ninetynine.engine.state import State
from ninetynine.engine.view import View
from ninetynine.errors import NinetyNineError
from ninetynine.language import N_
from ninetynine.records.match import standing

PLAYOUTS = 2000  # playouts per decision, shared by the moves (under a second a decision)
SIGNIFICANT = 2.0  # standard errors a difference must exceed to tell two moves apart
ESTIMATED = N_(
    "the chances of losing the game are estimated: this table has too many lives "
    "to count them exactly"
)


@dataclass(frozen=True)
class MoveFigures:
    """One move and what the coach expects of it (chances from 0 to 1). ``actions``: every
    legal action it stands for (the same card in other suits, where suits do not matter),
    ``action`` first."""

    action: Action
    lose_hand: float
    lose_game: float | None  # None where the game is not won by lives
    actions: tuple[Action, ...] = ()


@dataclass(frozen=True)
class Advice:
    """The coach's figures for every move of ``seat``, one per move (actions that differ
    only in suit are one), in ``view.legal`` order. ``best`` has the best figures;
    ``tied``: the moves whose chance of losing the hand is within the noise of the best's,
    ``best`` first (just ``best`` where it stands out)."""

    seat: int
    moves: tuple[MoveFigures, ...]
    best: Action
    tied: tuple[Action, ...]
    deals: int  # the sampled deals every move was tried on
    # per move, per iteration, whether the seat lost the hand (for the errors)
    _lost: tuple[tuple[float, ...], ...] = field(repr=False, compare=False)
    note: str | None = None  # what a person should know of how the figures were made
    calibration: int | None = None  # the version of the calibration applied (None: raw)

    def figures(self, action: Action) -> MoveFigures:
        """The figures of the move ``action`` is (any of its suits)."""
        return self.moves[self._index(action)]

    def _index(self, action: Action) -> int:
        for i, figures in enumerate(self.moves):
            if action in figures.actions:
                return i
        raise NinetyNineError(
            f"'{action}' is not one of the legal moves: "
            + ", ".join(str(a) for m in self.moves for a in m.actions)
        )

    def gap(self, action: Action) -> tuple[float, float]:
        """How much likelier ``action`` makes losing the hand than the best move, and the
        standard error of that difference (moves compared on the same deals)."""
        return _paired(self._lost[self._index(action)], self._lost[self._index(self.best)])


def _paired(a: tuple[float, ...], b: tuple[float, ...]) -> tuple[float, float]:
    """The mean of ``a - b`` by deal and its standard error (inf below two deals)."""
    diffs = [x - y for x, y in zip(a, b, strict=True)]
    n = len(diffs)
    if n < 2:
        return 0.0, math.inf
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean, math.sqrt(var / n)


def _tied(gap: float, error: float) -> bool:
    """Whether a move ``gap`` worse than the best, give or take ``error``, is tied with it."""
    return gap <= SIGNIFICANT * error


def advise(
    view: View,
    *,
    playouts: int = PLAYOUTS,
    seed: int = 0,
    calibration: Calibration | None | bool = True,
) -> Advice:
    """The coach's figures for the seat of ``view`` (its turn), from that view only.

    ``calibration``: True for the shipped maps (:mod:`ninetynine.coach.calibration`),
    False or None for the search's raw figures, or a calibration to apply. The maps take
    the raw figures only; the order of the moves and the ties are the raw figures' (a map
    may make two figures equal, never reverse them). Deterministic for a ``seed``. Raises
    NinetyNineError when the seat has no move to make.
    """
    if not view.my_turn or not view.legal:
        raise NinetyNineError(
            f"P{view.seat + 1} has no move to make now: the coach advises the seat whose turn it is"
        )
    if playouts < 1:
        raise NinetyNineError(f"playouts {playouts}: expected at least 1")
    bot = make_bot(with_options("hard", iterations=playouts))
    assert isinstance(bot, IsmctsBot)
    bot.settle = False  # every move gets the whole budget, so its figures are steady
    det = bot.determinizer(view)
    me = view.seat
    start = standing(det.template)[me]
    odds = game_odds(view.rules)
    lost: list[list[float]] = []
    win: list[list[float]] = []

    def on_end(j: int, s: State) -> None:
        while len(lost) <= j:
            lost.append([])
            win.append([])
        lost[j].append(float(standing(s)[me] < start))
        if odds is not None:
            win[j].append(odds.of_state(s)[me])

    rng = random.Random(seed)
    found = bot.evaluate(det, rng, on_end)
    if not found.rows:  # one move only: nothing to choose, but its figures still count
        bot.search(det, [det.template.code_of(view.legal[found.moves[0]])], rng, on_end)
    figures = []
    for j, i in enumerate(found.moves):
        n = len(lost[j])
        figures.append(
            MoveFigures(
                view.legal[i],
                sum(lost[j]) / n,
                1 - sum(win[j]) / n if odds is not None else None,
                tuple(a for a, g in zip(view.legal, found.group, strict=True) if g == j),
            )
        )
    order = sorted(
        range(len(figures)), key=lambda j: (figures[j].lose_hand, figures[j].lose_game or 0.0, j)
    )
    top = order[0]
    tied = [j for j in order if j == top or _tied(*_paired(tuple(lost[j]), tuple(lost[top])))]
    notes = [] if odds is None or odds.exact_at(det.template) else [ESTIMATED]
    used = (
        shipped()
        if calibration is True
        else calibration
        if isinstance(calibration, Calibration)
        else None
    )
    maps = None if used is None else used.maps(view.rules)
    if maps is not None:
        game = maps.lose_game
        figures = [
            replace(
                m,
                lose_hand=maps.lose_hand(m.lose_hand),
                lose_game=m.lose_game if m.lose_game is None or game is None else game(m.lose_game),
            )
            for m in figures
        ]
    return Advice(
        me,
        tuple(figures),
        figures[top].action,
        tuple(figures[j].action for j in tied),
        len(lost[0]),
        tuple(tuple(x) for x in lost),
        "; ".join(notes) or None,
        None if maps is None or used is None else used.version,
    )


def advice_json(advice: Advice) -> dict[str, Any]:
    """The advice as JSON (seats and chances as a front end shows them: seats from 1,
    chances from 0 to 1 rounded to 3 places). ``tied`` lists the moves tied for the best
    (empty where the best stands out); a move's ``actions``: every action it stands for."""
    tied = advice.tied if len(advice.tied) > 1 else ()
    return {
        "seat": advice.seat + 1,
        "best": str(advice.best),
        "tied": [str(a) for a in tied],
        "deals": advice.deals,
        "note": advice.note,
        "calibration": advice.calibration,
        "moves": [
            {
                "action": str(m.action),
                "actions": [str(a) for a in m.actions],
                "lose_hand": round(m.lose_hand, 3),
                "lose_game": None if m.lose_game is None else round(m.lose_game, 3),
                "best": m.action == advice.best,
                "tied": m.action in tied,
            }
            for m in advice.moves
        ],
    }
