"""The ``beginner`` bot (the ``easy`` level): safe when it sees a safe card, and its mistakes
come at the rates its docstring gives."""

from __future__ import annotations

import math
import random
import time

import pytest

from ninetynine import load_rules, new_game, presets
from ninetynine.bots import make_bot
from ninetynine.bots.beginner import EAGER, SLIP, BeginnerBot
from ninetynine.bots.knowledge import escape_cards
from ninetynine.engine.actions import Action, ActionKind
from ninetynine.engine.state import State, compiled
from ninetynine.engine.view import View, observe
from ninetynine.errors import NinetyNineError
from tests.bots.test_hidden_info import played, swap_hidden


def left(state: State, action: Action) -> int:
    """The total a play leaves, read through the engine (not the bot's own arithmetic)."""
    return compiled(state.rules).result(state.code_of(action), state.total)


def decisions(preset: str, players: int, games: int) -> list[tuple[State, View]]:
    """Every decision of ``games`` games of beginners at one table: the state and the view."""
    found = []
    rng = random.Random(preset)
    bot = BeginnerBot()
    for _ in range(games):
        state = new_game(load_rules(preset), players)
        while not state.is_over:
            if state.is_chance:
                state.apply(state.sample_chance(rng))
                continue
            seat = state.current_seat
            assert seat is not None
            view = observe(state, seat)
            found.append((state.clone(), view))
            state.apply(bot.choose(view, rng), seat)
    return found


def safe_plays(state: State, view: View) -> tuple[list[Action], list[Action]]:
    """The safe ordinary plays and the safe escape plays."""
    limit, escapes = state.rules.limit, escape_cards(state.rules)
    safe = [a for a in view.legal if a.kind is ActionKind.PLAY and left(state, a) <= limit]
    return [a for a in safe if a.card not in escapes], [a for a in safe if a.card in escapes]


def table_size(preset: str) -> int:
    rules = load_rules(preset)
    return min(max(3, rules.players_min), rules.players_max)


def test_it_never_busts_while_a_safe_play_is_legal() -> None:
    tempted = 0  # decisions where a busting card was legal beside a safe one
    for preset in sorted(presets()):
        for state, view in decisions(preset, table_size(preset), games=1):
            ordinary, escape = safe_plays(state, view)
            action = BeginnerBot().choose(view, random.Random(len(view.history)))
            if ordinary or escape:
                tempted += any(
                    a.kind is ActionKind.PLAY and left(state, a) > state.rules.limit
                    for a in view.legal
                )
                assert action in ordinary + escape, (preset, str(action))
            elif any(a.kind is ActionKind.DRAW for a in view.legal):
                assert action.kind is ActionKind.DRAW
    assert tempted > 30  # G and the other may-bust rule sets offered busting cards


def test_forced_it_takes_the_one_legal_move() -> None:
    for _, view in decisions("P", 4, games=3):
        if len(view.legal) == 1:
            assert BeginnerBot().choose(view, random.Random(0)) == view.legal[0]
            return
    raise AssertionError("no forced move in three games")


def within(count: int, trials: int, rate: float) -> bool:
    """``count`` of ``trials`` is within four standard errors of ``rate``."""
    return abs(count / trials - rate) <= 4 * math.sqrt(rate * (1 - rate) / trials)


def test_slips_and_eager_escapes_come_at_their_rates() -> None:
    slips = slip_trials = eager = eager_trials = 0
    rng = random.Random(7)  # one stream: the first draws of Random(k) for small k are few
    for preset in ("P", "K", "G", "J"):
        for state, view in decisions(preset, 4, games=6):
            ordinary, escape = safe_plays(state, view)
            if not ordinary:
                continue
            best = max(left(state, a) for a in ordinary)
            first = min(a.card for a in ordinary if a.card is not None)
            first_best = max(left(state, a) for a in ordinary if a.card == first)
            for _ in range(2):
                action = BeginnerBot().choose(view, rng)
                if escape:  # the eager chance is drawn first
                    eager_trials += 1
                    eager += action in escape
                elif first_best < best:  # a slip shows: the first card leaves less
                    slip_trials += 1
                    slips += left(state, action) < best
    assert slip_trials > 500 and eager_trials > 500
    assert within(eager, eager_trials, EAGER)
    # a slip is drawn only with two or more ordinary cards safe, which the views above have
    assert within(slips, slip_trials, SLIP)


def test_without_mistakes_it_plays_its_favourite() -> None:
    bot = make_bot("beginner:slip=0,eager=0")
    checked = 0
    for preset in ("P", "G", "J"):
        for state, view in decisions(preset, 4, games=4):
            ordinary, escape = safe_plays(state, view)
            action = bot.choose(view, random.Random(1))
            if ordinary:  # the highest total, escapes kept
                assert action in ordinary
                assert left(state, action) == max(left(state, a) for a in ordinary)
                checked += 1
            elif escape:  # the first escape seen, for the lowest total it can
                first = min(a.card for a in escape if a.card is not None)
                assert action.card == first
                assert left(state, action) == min(left(state, a) for a in escape if a.card == first)
    assert checked > 300


def test_it_decides_from_its_view_only() -> None:
    # two games that look the same to the seat get the same move, with a fresh generator
    for preset, players in (("G", 4), ("K", 3), ("J-TEAM", 4), ("P-ONLINE", 3)):
        for seed in range(8):
            state, history = played(preset, players, seed)
            seat = state.current_seat
            assert seat is not None
            twin = swap_hidden(state, seat, random.Random(seed))
            v1, v2 = observe(state, seat, history), observe(twin, seat, history)
            for k in range(3):
                one = BeginnerBot().choose(v1, random.Random(k))
                assert one == BeginnerBot().choose(v2, random.Random(k))


def test_it_is_the_easy_level_and_costs_about_what_random_costs() -> None:
    assert make_bot("easy").name == "beginner"
    assert make_bot("easy:slip=0.5").slip == 0.5  # type: ignore[attr-defined]
    found = decisions("P", 4, games=1)
    views = [v for _, v in found] * 20
    start = time.perf_counter()
    bot, rng = BeginnerBot(), random.Random(0)
    for view in views:
        bot.choose(view, rng)
    per_move = (time.perf_counter() - start) / len(views)
    assert per_move < 1e-3  # about 20 us here: it samples no deal and searches nothing


@pytest.mark.parametrize(
    "spec, words",
    [
        ("beginner:slip=2", "slip='2': expected a number from 0 to 1"),
        ("beginner:eager=-0.1", "eager='-0.1': expected a number from 0 to 1"),
        ("beginner:care=1", "option 'care' is unknown: expected slip, eager"),
    ],
)
def test_bad_options_say_what_is_accepted(spec: str, words: str) -> None:
    with pytest.raises(NinetyNineError, match=words):
        make_bot(spec)
