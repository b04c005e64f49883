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
from typing import cast

from ninetynine.actions import Action, ChanceOutcome
from ninetynine.bots.base import Bot, BotFailure, SeeingBot, make_bot, sees_hidden_cards
from ninetynine.bots.random_bot import RandomBot
from ninetynine.events import Event
from ninetynine.game import new_game
from ninetynine.record import Record, format_record
from ninetynine.rules import Rules
from ninetynine.state import State
from ninetynine.view import View, observe


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


def play_game(rules: Rules, specs: list[str], seats: list[int], *, index: int, chance_seed: str,
              bot_seed: str, keep_record: bool = False) -> GameResult:
    """Play one game; ``seats[i]`` says which of ``specs`` plays seat ``i``."""
    n = len(seats)
    bots: list[Bot] = [make_bot(specs[e], seeing=True) for e in seats]
    rngs = [random.Random(f"{bot_seed}:{seat}") for seat in range(n)]
    state = new_game(rules, n)
    record = Record(state.clone()) if keep_record else None
    history: list[Event] = []
    forfeits: dict[int, str] = {}
    moves = 0
    shuffles: dict[int, int] = {}  # chance events so far, per hand
    try:
        while not state.is_over:
            move: Action | ChanceOutcome
            if state.is_chance:
                # Seeded by the hand and the event's number in it, not by a stream: games
                # with one chance seed get the same cards in every hand, however the
                # hands before went (see the module's note on rotation blocks).
                k = shuffles[state.hand_no] = shuffles.get(state.hand_no, -1) + 1
                move = state.sample_chance(random.Random(f"{chance_seed}:{state.hand_no}:{k}"))
            else:
                seat = state.current_seat
                assert seat is not None
                view = observe(state, seat, tuple(history))
                move = _ask(bots, seat, view, rngs[seat], forfeits, state)
                moves += 1
            if record is not None:
                record.add(state, move)
            history += state.apply(move)
    finally:
        for bot in bots:
            close = getattr(bot, "close", None)
            if close is not None:
                close()
    assert state.outcome is not None
    winners = [s for s in state.outcome.winners if s not in forfeits]
    reason = state.outcome.reason
    if state.outcome.winners and not winners:
        reason = "winner_forfeited"
    text = format_record(record, state) if record is not None else None
    if text is not None and forfeits:
        text += "".join(f"# P{s + 1} forfeited: {why}\n" for s, why in sorted(forfeits.items()))
    return GameResult(index, list(seats), winners, reason, forfeits, moves, text)


def _ask(bots: list[Bot], seat: int, view: View, rng: random.Random,
         forfeits: dict[int, str], state: State) -> Action:
    """The seat's move. An honest bot gets its view only; a yardstick that declares
    ``sees_hidden_cards`` (the oracle) gets a copy of the real state as well."""
    bot = bots[seat]
    try:
        if sees_hidden_cards(bot):
            action = cast(SeeingBot, bot).choose_seeing(view, state.clone(), rng)
        else:
            action = bot.choose(view, rng)
        if not isinstance(action, Action) or action not in view.legal:
            raise BotFailure(f"{bot.name} played {action}, which is not legal here; legal: "
                             + ", ".join(str(a) for a in view.legal))
        return action
    except Exception as e:  # any failure of a bot loses it the game, never the arena
        reason = str(e) if isinstance(e, BotFailure) else \
            f"{bot.name} raised {type(e).__name__}: {e}"
        forfeits[seat] = reason
        close = getattr(bot, "close", None)
        if close is not None:
            close()
        bots[seat] = RandomBot()
        return bots[seat].choose(view, rng)
