"""One arena game: bots in seats, each seeing only its view; failures lose the game.

A bot that raises :class:`~ninetynine.bots.base.BotFailure` (a protocol bot that
crashed, hung or answered garbage), raises any other exception, or returns an action
that is not legal *forfeits*: the reason is recorded, a uniformly random player finishes
the game in its seat (so the game and its record stay legal and the other seats play
the game out), and the seat is scored as a loss whatever happens later. If a seat that
forfeited is among the winners at the end, it is removed from them; a game whose only
winners forfeited has no winner.

Chance is seeded per hand: the k-th chance event (deal, restock...) of hand h draws from
``Random(f"{chance_seed}:{h}:{k}")``. The arena gives the N games of a rotation block one
chance seed, so they deal the same cards in every hand and differ only where the bots'
choices differ: a comparison on shared luck (as in duplicate bridge), which is what makes
the arena's block intervals narrow (:mod:`ninetynine.arena.stats`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from ninetynine.bots.base import Bot, BotFailure, ask, close_bot, make_bot, meet_bot
from ninetynine.bots.random_bot import RandomBot
from ninetynine.records.match import Chance, Match
from ninetynine.records.record import format_record
from ninetynine.rules.settings import Rules


@dataclass
class GameResult:
    """What one game produced. ``seats[i]`` is the entrant (index into the bot list)."""

    index: int
    seats: list[int]
    winners: list[int]  # seats (0-based) credited with the win
    reason: str
    forfeits: dict[int, str] = field(default_factory=dict)  # seat -> why it lost the game
    moves: int = 0
    record: str | None = None


def seed_of(base: int, *parts: object) -> str:
    """A seed string for ``random.Random``: stable across runs, machines and workers."""
    return ":".join(str(p) for p in (base, *parts))


def play_game(
    rules: Rules,
    specs: list[str],
    seats: list[int],
    *,
    index: int,
    chance_seed: str,
    bot_seed: str,
    keep_record: bool = False,
) -> GameResult:
    """Play one game; ``seats[i]`` says which of ``specs`` plays seat ``i``."""
    n = len(seats)
    bots: list[Bot] = [make_bot(specs[e], seeing=True) for e in seats]
    for bot in bots:  # who sits where is public: a bot that models its opponents reads it
        meet_bot(bot, [specs[e] for e in seats])
    rngs = [random.Random(f"{bot_seed}:{seat}") for seat in range(n)]
    # Chance is seeded by the hand and the event's number in it, not by a stream: games
    # with one chance seed get the same cards in every hand, however the hands before
    # went (see the module's note on rotation blocks).
    match = Match.new(rules, n, chance=Chance.by_hand(chance_seed))
    forfeits: dict[int, str] = {}
    moves = 0
    try:
        while not match.is_over:
            seat = match.state.current_seat
            assert seat is not None
            view = match.view(seat)
            try:
                action = ask(bots[seat], view, rngs[seat], match.state)
            except BotFailure as e:  # any failure of a bot loses it the game, never the arena
                forfeits[seat] = str(e)
                close_bot(bots[seat])
                bots[seat] = RandomBot()
                action = bots[seat].choose(view, rngs[seat])
            match.play(action, seat)
            moves += 1
    finally:
        for bot in bots:
            close_bot(bot)
    state = match.state
    assert state.outcome is not None
    winners = [s for s in state.outcome.winners if s not in forfeits]
    reason: str = state.outcome.reason
    if state.outcome.winners and not winners:
        reason = "winner_forfeited"
    text = format_record(match.record(), state) if keep_record else None
    if text is not None and forfeits:
        text += "".join(f"# P{s + 1} forfeited: {why}\n" for s, why in sorted(forfeits.items()))
    return GameResult(index, list(seats), winners, reason, forfeits, moves, text)
