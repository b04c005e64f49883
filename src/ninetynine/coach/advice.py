"""The coach: for each legal move of a seat, the chance of losing this hand and the game.

Everything comes from the seat's :class:`~ninetynine.view.View` (its own hand, the public
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

The move the coach prefers is the one the ``hard`` bot plays with this budget.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import Any

from ninetynine.actions import Action
from ninetynine.bots.base import make_bot, with_options
from ninetynine.bots.ismcts import IsmctsBot
from ninetynine.bots.odds import game_odds
from ninetynine.errors import NinetyNineError
from ninetynine.match import standing
from ninetynine.state import State
from ninetynine.view import View

PLAYOUTS = 2000  # playouts per decision, shared by the moves (under a second a decision)
ESTIMATED = ("the chances of losing the game are estimated: this table has too many lives "
             "to count them exactly")


@dataclass(frozen=True)
class MoveFigures:
    """One legal move and what the coach expects of it (chances from 0 to 1)."""

    action: Action
    lose_hand: float
    lose_game: float | None  # None where the game is not won by lives


@dataclass(frozen=True)
class Advice:
    """The coach's figures for every legal move of ``seat``, in ``view.legal`` order."""

    seat: int
    moves: tuple[MoveFigures, ...]
    best: Action
    deals: int  # the sampled deals every move was tried on
    # per distinct move, per iteration, whether the seat lost the hand (for the errors)
    _lost: tuple[tuple[float, ...], ...] = field(repr=False, compare=False)
    _group: tuple[int, ...] = field(repr=False, compare=False)
    note: str | None = None  # what a person should know of how the figures were made

    def figures(self, action: Action) -> MoveFigures:
        for figures in self.moves:
            if figures.action == action:
                return figures
        raise NinetyNineError(f"'{action}' is not one of the legal moves: "
                              + ", ".join(str(m.action) for m in self.moves))

    def gap(self, action: Action) -> tuple[float, float]:
        """How much likelier ``action`` makes losing the hand than the best move, and the
        standard error of that difference (moves compared on the same deals)."""
        actions = [m.action for m in self.moves]
        a, b = self._group[actions.index(action)], self._group[actions.index(self.best)]
        diffs = [x - y for x, y in zip(self._lost[a], self._lost[b], strict=True)]
        n = len(diffs)
        if n < 2:
            return 0.0, math.inf
        mean = sum(diffs) / n
        var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
        return mean, math.sqrt(var / n)


def advise(view: View, *, playouts: int = PLAYOUTS, seed: int = 0) -> Advice:
    """The coach's figures for the seat of ``view`` (its turn), from that view only.

    Deterministic for a ``seed``. Raises NinetyNineError when the seat has no move to
    make.
    """
    if not view.my_turn or not view.legal:
        raise NinetyNineError(f"P{view.seat + 1} has no move to make now: the coach "
                              "advises the seat whose turn it is")
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
    for i, action in enumerate(view.legal):
        j = found.group[i]
        n = len(lost[j])
        figures.append(MoveFigures(action, sum(lost[j]) / n,
                                   1 - sum(win[j]) / n if odds is not None else None))
    note = None if odds is None or odds.exact_at(det.template) else ESTIMATED
    return Advice(me, tuple(figures), view.legal[found.choice], len(lost[0]),
                  tuple(tuple(x) for x in lost), tuple(found.group), note)


def advice_json(advice: Advice) -> dict[str, Any]:
    """The advice as JSON (seats and chances as a front end shows them: seats from 1,
    chances from 0 to 1 rounded to 3 places)."""
    return {
        "seat": advice.seat + 1,
        "best": str(advice.best),
        "deals": advice.deals,
        "note": advice.note,
        "moves": [{"action": str(m.action), "lose_hand": round(m.lose_hand, 3),
                   "lose_game": None if m.lose_game is None else round(m.lose_game, 3),
                   "best": m.action == advice.best} for m in advice.moves],
    }
