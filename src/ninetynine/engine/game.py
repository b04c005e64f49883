"""The public way into the engine: start a game, ask what is legal, move on.

>>> import random
>>> from ninetynine import load_rules, new_game
>>> state = new_game(load_rules("P"), players=4)
>>> state.is_chance                      # the deck must be shuffled first
True
>>> rng = random.Random(1)
>>> _ = state.apply(state.sample_chance(rng))
>>> bool(state.legal_actions())          # the first player has moves
True
"""

from __future__ import annotations

import random
from typing import TypeVar

from ninetynine.engine.actions import Move
from ninetynine.engine.events import Event
from ninetynine.engine.state import CHANCE, DEAL, OVER, State, compiled
from ninetynine.errors import RecordError
from ninetynine.rules.cards import new_deck
from ninetynine.rules.settings import Rules


def new_game(rules: Rules, players: int, *, first: int = 0) -> State:
    """A new game at its first chance node (the shuffle before the deal).

    ``first`` is the seat (0-based) that plays first: the dealer sits to its right.
    """
    return set_up(State.__new__(State), rules, players, first)


S = TypeVar("S", bound=State)


def set_up(s: S, rules: Rules, players: int, first: int = 0) -> S:
    """Fill a bare state (a :class:`State`, or a subclass's, made with ``__new__``) as
    :func:`new_game` starts a game: a subclass's game starts without a copy."""
    c = compiled(rules)
    why, decks, lives, pools = c.starts.get(players) or c.start(players)
    if why is not None:
        raise RecordError(why)
    if not 0 <= first < players:
        raise RecordError(f"first player {first + 1} is not a seat of a {players}-player table")
    s.rules, s.c, s.n = rules, c, players
    s.decks = decks
    s.hands = [[] for _ in range(players)]
    s.stock, s.pile, s.out, s.face_down = new_deck(s.decks, rules.jokers), [], [], 0
    s.total, s.direction = 0, 1
    s.starter, s.dealer, s.turn = first, (first - 1) % players, first
    s.lives = [lives] * pools
    s.alive, s.in_hand = [True] * players, [True] * players
    s.turns_played = [0] * players
    s.points, s.scores = [rules.points_per_hand] * players, [0] * players
    s.pot, s.hand_no = 0, 1
    s.phase, s.chance = CHANCE, DEAL
    s.drawer, s.owed, s.next_turn, s.held, s.loser, s.passes = -1, 0, -1, -1, -1, 0
    s.chain = s.plays_left = 0
    s.may_decline, s.challenger, s.victim = False, -1, -1
    s.known = [[] for _ in range(players * players)] if c.moving else []
    s.outcome, s._ev, s._before = None, None, []
    return s


def step(state: State, action: Move, seat: int | None = None) -> tuple[State, list[Event]]:
    """Apply a checked action to a copy; the given state is left as it was."""
    new = state.clone()
    events = new.apply(action, seat)
    return new, events


def play_out(
    state: State, rng: random.Random, *, fast: bool = True, max_steps: int = 1_000_000
) -> State:
    """Play random legal actions (and sample chance) until the game ends, in place: on the
    fast path in one call (:meth:`State.play_random`), else through the checked API."""
    if fast:
        state.play_random(rng, max_steps)
        return state
    choice = rng.choice
    for _ in range(max_steps):
        if state.phase == OVER:
            return state
        if state.phase == CHANCE:
            state.apply(state.sample_chance(rng))
        else:
            state.apply(choice(state.legal_actions()))
    raise RuntimeError(f"no end after {max_steps} steps: {state!r}")
