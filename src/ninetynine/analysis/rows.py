"""The rows a simulation writes: one per game, one per hand, and one per decision on request.

Every row carries its cell (the rules, the player count and the line-up) and the game's index
in that cell, so the three tables join on ``(rules, players, lineup, game)``. Seats are 0-based
here, as in the engine; a report numbers them from 1. Lists hold one entry per seat, seat 0
first. The files are Parquet under ``rules=K/players=N/lineup=L/`` (or JSON lines where pyarrow
is not installed), one part per chunk of games; see ``docs/analysis.md``.
"""

from __future__ import annotations

from dataclasses import dataclass

from ninetynine.engine.ledger import LossCause

__all__ = ["ROWS_VERSION", "DecisionRow", "GameRow", "HandRow", "LossCause"]

ROWS_VERSION = 1  # bumped when a column changes meaning; stored in every manifest


@dataclass(frozen=True, slots=True)
class GameRow:
    """One game: who sat where, who won, and how long it took."""

    rules: str  # the rule set's id (a house-rules file's own id)
    rules_hash: str  # 16 hex digits of the rules' settings: two files with one id differ here
    players: int
    lineup: str  # the line-up's bot specs, comma-separated, in entrant order
    seats: list[str]  # the bot spec in each seat
    block: int  # the duplicate-deal block: its games share every deal (Cell.block_of;
    # batch engine: = game)
    rotation: int  # the block's game, its seats rotated by this much (0 with one bot)
    deal_seed: str  # the block's chance seed (``Chance.by_hand``); on the batch engine, its
    # batch's seed and the game's slot in it (``analysis.batch_play``): other cards
    game: int  # the game's index in its cell, from 0: block * players + rotation, or block
    winners: list[int]  # seats credited with the win (none when everyone lost)
    places: list[int]  # each seat's place: 1 for the winners, then by lives or score
    reason: str  # the engine's EndReason value
    hands: int  # hands played, the last included
    turns: int  # player moves (plays, lay-downs, passes, draws)
    opener: int  # the seat that played first in the first hand
    dealer: int  # the dealer of the first hand
    lives_lost: list[int]  # lives (or game points) each seat lost over the game
    engine: str  # ninetynine's version
    encoding: int  # ninetynine.rl.encoding's version (ENCODING_VERSION), for learned bots


@dataclass(frozen=True, slots=True)
class HandRow:
    """One hand: who led it, what each seat was dealt, and how it ended."""

    rules: str
    players: int
    lineup: str
    game: int
    hand: int  # 1 for the first hand of the game
    opener: int  # the seat that led the hand
    dealer: int
    opening: list[str]  # each seat's dealt cards in card notation, space-separated ("AS 7D KH")
    turns: int  # player moves in the hand
    loser: int  # the seat that lost the hand (went over or could not play), -1 for none
    ending_rank: int  # rank (0 = Ace .. 12 = King) of the last card played in the hand, -1
    lost_over: list[int]  # lives lost by each seat in the hand, by cause (LossCause)
    lost_cannot_play: list[int]
    lost_made_threshold: list[int]
    lost_crossed_threshold: list[int]
    lost_border: list[int]


@dataclass(frozen=True, slots=True)
class DecisionRow:
    """One decision (``--decisions``): the position, what was played, and, on the sampled
    games, each seat's chance of winning the game there (:mod:`ninetynine.analysis.chances`:
    rollouts from each seat's own view)."""

    rules: str
    players: int
    lineup: str
    game: int
    hand: int
    move: int  # the game's move number of this decision, from 0
    seat: int
    total: int  # the running total before the move
    legal: int  # how many legal moves there were
    action: str  # the move in the records' notation
    win_chances: list[float]  # each seat's estimated chance of winning the game; [] unsampled
