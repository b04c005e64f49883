"""Every bot finishes games under every preset without an illegal move, deterministically."""

from __future__ import annotations

import random
from itertools import pairwise
from typing import Any

import pytest

from ninetynine import load_rules, new_game, presets
from ninetynine.bots import DIFFICULTIES, bot_names, make_bot
from ninetynine.bots.base import with_options
from ninetynine.engine.actions import Action
from ninetynine.engine.events import Event
from ninetynine.engine.view import observe
from ninetynine.errors import NinetyNineError
from tests.rules.test_cn99 import MOVING as CN99_MOVING
from tests.rules.test_cn99 import PLAIN as CN99_PLAIN
from tests.rules.test_cn99 import TEAMS as CN99_TEAMS

BOTS = ["random", "heuristic", "ismcts:iterations=25,depth=12"]
NEW = ["greedy", "greedy-keep", with_options("hard", iterations=25, depth=12)]
# the medium level beside the frozen yardstick it is measured against
LEVELS = ["medium", "heuristic-v1"]
# the search's endgame (max^n from any total) and learned rollouts, at small budgets
SEARCH = [
    with_options("hard", iterations=25, depth=12, endgame=99, plies=2),
    with_options("hard", iterations=25, depth=12, rollout="learned"),
]
# the easy level (the beginner) beside random, whose games cost about as little
EASY = ["beginner", "random", "easy"]


def play(preset: str | dict[str, Any], players: int, specs: list[str], seed: int) -> list[str]:
    """Play a game through the checked API (an illegal move raises); return the moves."""
    rules = load_rules(preset)
    state = new_game(rules, players)
    # the oracle (a yardstick the arena seats) is given the real state
    bots = [make_bot(specs[s % len(specs)], seeing=True) for s in range(players)]
    rng = random.Random(seed)
    rngs = [random.Random(seed * 100 + s) for s in range(players)]
    history: list[Event] = []
    moves: list[str] = []
    while not state.is_over:
        if state.is_chance:
            history += state.apply(state.sample_chance(rng))
            continue
        seat = state.current_seat
        assert seat is not None
        view = observe(state, seat, tuple(history))
        bot = bots[seat]
        action = (
            bot.choose_seeing(view, state, rngs[seat])
            if hasattr(bot, "choose_seeing")
            else bot.choose(view, rngs[seat])
        )
        assert isinstance(action, Action) and action in view.legal, (preset, str(action))
        moves.append(f"{seat}:{action}")
        history += state.apply(action, seat)
    return moves


def table(preset: str) -> int:
    r = load_rules(preset)
    return min(max(3, r.players_min), r.players_max)


def short(preset: str, lives: int = 2) -> dict[str, Any]:
    """``preset`` with at most ``lives`` lives: whole games, a few hands long, for the
    searches (a game of P-ONLINE's nine lives is a minute of theirs)."""
    return {"preset": preset, "rules": {"lives": min(lives, load_rules(preset).lives)}}


@pytest.mark.parametrize("preset", sorted(presets()))
def test_every_bot_finishes_every_preset(preset: str) -> None:
    for specs in (BOTS, NEW, SEARCH, LEVELS, EASY):
        game = short(preset) if specs is SEARCH else preset
        moves = play(game, table(preset), specs, seed=11)
        assert moves  # somebody played


@pytest.mark.parametrize("specs", [BOTS, NEW, SEARCH, LEVELS, EASY])
def test_every_bot_finishes_a_game_with_jokers(specs: list[str]) -> None:
    """The jokers' codes (52 and up) are in every table the bots read (CN99's plain part)."""
    moves = play(CN99_PLAIN, 4, specs, seed=5)
    assert any(m.split(":")[1].upper().startswith(("SJ", "BJ")) for m in moves), moves


@pytest.mark.parametrize("specs", [BOTS, NEW, SEARCH, LEVELS, EASY])
def test_every_bot_finishes_a_game_with_swaps_and_takes(specs: list[str]) -> None:
    """CN99's 7 swaps hands and J takes a card (O46, O47): each bot names a seat for them,
    and its samples keep the cards it knows in their holders' hands."""
    moves = play(CN99_MOVING, 4, specs, seed=5)
    assert any(">" in m and m.split(":")[1][0] in "7J" for m in moves), moves


@pytest.mark.parametrize("specs", [BOTS, NEW, SEARCH, LEVELS, EASY])
def test_every_bot_finishes_a_cn99_team_game(specs: list[str]) -> None:
    """CN99 in teams of alternate seats (O51), six seats: each bot plays to the end, whose
    players go out one at a time and may be brought back, partners included."""
    assert play(CN99_TEAMS, 6, specs, seed=7)


OPTIONAL = {"preset": "P-2P-AGAIN", "rules": {"two_player_reverse": "play_again_optional"}}


@pytest.mark.parametrize(
    "spec", [*BOTS, *NEW, *SEARCH, "heuristic-v2", "beginner", "oracle:iterations=25,depth=12"]
)
def test_every_bot_plays_the_declinable_extra_turn(spec: str) -> None:
    """P-2P-AGAIN read as a right: each bot is offered the extra turn and answers legally."""
    offered = declined = 0
    for seed in range(3):
        moves = play(OPTIONAL, 2, [spec], seed=seed)
        # a Four followed by a move of the same seat: the extra turn
        offered += sum(a.split(":")[1][:-1] == "4" and a[0] == b[0] for a, b in pairwise(moves))
        declined += sum(m.endswith(":pass") for m in moves)
    assert offered
    if spec.startswith("heuristic"):
        assert declined  # it weighs declining as one more move


@pytest.mark.parametrize("spec", [*BOTS, *NEW, *SEARCH, "heuristic-v2", "beginner"])
def test_bots_are_deterministic_for_a_seed(spec: str) -> None:
    for preset in ("P", "G", "P-ONLINE"):
        first = play(short(preset, 1), 3, [spec], seed=5)  # a whole game of one hand
        assert play(short(preset, 1), 3, [spec], seed=5) == first


def test_ismcts_depends_on_its_seed() -> None:
    runs = {tuple(play("P", 3, ["ismcts:iterations=25,depth=12"], seed=s)) for s in (1, 2, 3)}
    assert len(runs) > 1


def test_registry_and_difficulties() -> None:
    assert {"random", "heuristic", "heuristic-v1", "heuristic-v2", "ismcts", "cmd", "proc"} <= set(
        bot_names()
    )
    assert make_bot("easy").name == "beginner"
    assert make_bot("medium").name == "heuristic-v2"
    assert make_bot("heuristic").name == "heuristic-v1"  # the old name is the frozen yardstick
    assert make_bot("hard").name == "ismcts"
    assert set(DIFFICULTIES) == {"easy", "medium", "hard"}
    bot = make_bot("ismcts:iterations=123,c=1.5")
    assert bot.iterations == 123 and bot.c == 1.5  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "spec, words",
    [
        ("nosuchbot", "unknown bot"),
        ("ismcts:iterations", "expected key=value"),
        ("ismcts:speed=3", "option 'speed' is unknown"),
        ("ismcts:iterations=0", "ms above 0"),
        ("ismcts:rollout=smart", "expected heuristic or learned"),
        ("ismcts:endgame=-1", "0 or more"),
        ("cmd:", "empty bot command"),
    ],
)
def test_bad_specs_say_what_is_wrong(spec: str, words: str) -> None:
    with pytest.raises(NinetyNineError, match=words):
        make_bot(spec)


def test_ismcts_time_budget_stops() -> None:
    rules = load_rules("P")
    state = new_game(rules, 4)
    state.apply(state.sample_chance(random.Random(4)))
    bot = make_bot("ismcts:ms=30")
    assert bot.iterations > 10**6  # type: ignore[attr-defined]  # not cut short at 3000
    while len(state.legal_codes()) < 2:
        state.apply_code(state.legal_codes()[0])
    view = observe(state, state.current_seat or 0)
    bot.choose(view, random.Random(1))
    assert bot.last_iterations > 0  # type: ignore[attr-defined]


def test_learned_weights_ship_for_the_base_games() -> None:
    from ninetynine.bots.learned import FEATURES, has_weights, learned_policy

    for preset in ("P", "K", "G", "J"):
        rules = load_rules(preset)
        assert has_weights(rules)
        assert len(learned_policy(rules).w) == FEATURES
