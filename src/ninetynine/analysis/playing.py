"""A deal played twice, for the controlled card value (:mod:`ninetynine.analysis.card_value`):
deal a game's first hand, change it, and play each version on to the end.

The versions are played by the simulations' own loop (:func:`ninetynine.analysis.play.play_on`),
so they follow its rules: the k-th chance event of hand h draws from
``Random(hand_seed(deal_seed, h, k))`` (the arena's duplicate deals, ``Chance.by_hand``),
counting on from the events that dealt the first hand, so a version's later hands and
restocks get the same cards as the other's wherever the play allows; each seat's bot draws
from ``Random(f"{bot_seed}:{seat}")``; bots see their seat's view without the public log
(the fast path: the bots that read one, ``belief=history``, play as if it were empty).
"""

from __future__ import annotations

import random

from ninetynine.analysis.cells import Cell
from ninetynine.analysis.columns import HandColumns
from ninetynine.analysis.play import Engine, play_on
from ninetynine.analysis.rows import HandRow
from ninetynine.engine.ledger import LedgerState
from ninetynine.engine.state import State
from ninetynine.records.match import hand_seed


def deal(cell: Cell, deal_seed: str) -> tuple[State, int]:
    """A new game of ``cell`` with its first hand dealt (every chance event before the
    first move, drawn as :func:`~ninetynine.analysis.play.play_on` draws them), and the
    chance events drawn so far."""
    state = LedgerState.start(cell.rules, cell.players)
    drawn = 0
    while state.is_chance:
        state.play_chance(random.Random(hand_seed(deal_seed, state.hand_no, drawn)))
        drawn += 1
    return state, drawn


def play_version(
    cell: Cell, version: State, deal_seed: str, bot_seed: str, drawn: int
) -> tuple[HandRow, State]:
    """Play ``version`` (a copy of a :func:`deal`, changed or not, which this takes over)
    on to its end with the cell's bots in their seats: the row of its first hand, and the
    game at its end."""
    state = LedgerState.of(version)
    hands = HandColumns(cell.rules.id, cell.players, cell.lineup_name)
    play_on(state, cell.seat_specs, deal_seed, bot_seed, hands, Engine.FAST, drawn=drawn)
    hands.of_game(0)
    return hands.rows()[0], state
