"""A policy takes a seat (issue 31): the observation and mask built from a seat's view alone
equal the environment's, for every preset; :class:`PolicyBot` plays the index it is given,
in the arena through its spec and as an environment's opponent."""

from __future__ import annotations

import random

import numpy as np
import pytest

from ninetynine import IllegalActionError, NinetyNineError, presets
from ninetynine.arena.runner import ArenaConfig, run_games
from ninetynine.bots import make_bot
from ninetynine.engine.view import observe
from ninetynine.rl.encoding import Encoding, encode, encoding_for
from ninetynine.rl.gymnasium import NinetyNineGymEnv
from ninetynine.rl.policy import PolicyBot
from tests.rl.test_environments import decisions, episode_decisions, typical

ENCODED = presets()  # the encoding encodes every preset


def lowest(obs: np.ndarray, mask: np.ndarray) -> int:
    """A policy: the lowest legal index (importable, for the spec policy:MODULE:NAME)."""
    return int(np.flatnonzero(mask)[0])


_WEIGHTS: dict[tuple[int, int], np.ndarray] = {}


def linear(obs: np.ndarray, mask: np.ndarray) -> int:
    """A policy that reads the whole observation: the legal action that a fixed random
    linear map of it scores highest (the hidden-information test seats it)."""
    shape = (mask.size, obs.size)
    if shape not in _WEIGHTS:
        _WEIGHTS[shape] = np.random.default_rng(0).normal(size=shape)
    scores = _WEIGHTS[shape] @ obs
    return int(np.flatnonzero(mask)[np.argmax(scores[mask == 1])])


@pytest.mark.parametrize("preset", ENCODED)
def test_a_view_gives_the_environment_s_observation_and_mask(preset: str) -> None:
    players = typical(preset)
    seen = 0
    for seed in range(3):
        for episode in episode_decisions(preset, players, seed, limit=100):
            state = episode.state
            for seat in range(players):  # version 2: the view's log says who played what
                view = episode.view(seat)
                assert np.array_equal(encode(view), episode.observe(seat)), (preset, seat)
                v1 = encoding_for(state.rules, players, 1)
                assert np.array_equal(
                    v1.observe_view(observe(state, seat)), v1.observe(state, seat)
                )
            enc = encoding_for(state.rules, players)
            view = observe(state, state.current_seat)
            assert np.array_equal(enc.view_mask(view), enc.mask(state))
            seen += 1
    assert seen > 20


def test_version_2_counts_who_played_what_and_needs_to_know_it() -> None:
    episodes = episode_decisions("P", 4, 5, limit=30)
    for episode in episodes:
        played = episode.played
    assert len(played) >= 4
    seat = episode.state.current_seat
    enc = encoding_for(episode.state.rules, 4)
    block = enc.blocks["played"]
    obs = episode.observe(seat)[block.start : block.start + block.size].reshape(4, 13)
    expected = np.zeros((4, 13), np.float32)
    for who, card in played:
        expected[(who - seat) % 4, card >> 2] += 0.25  # one deck: four of each rank
    assert np.allclose(obs, expected)
    with pytest.raises(NinetyNineError, match="version 2 observes who played what"):
        enc.observe(episode.state, seat)
    with pytest.raises(NinetyNineError, match="this view has none"):
        encode(observe(episode.state, seat))
    with pytest.raises(NinetyNineError, match="encoding version 3: expected one of 1, 2"):
        Encoding("P", 4, 3)


def test_policy_bot_plays_the_index_the_policy_gives() -> None:
    rng = random.Random(3)
    for state in decisions("K", 3, 3, limit=60):
        enc = encoding_for(state.rules, 3)
        legal = enc.legal_indexes(state)
        wanted = rng.choice(legal)
        bot = PolicyBot(lambda obs, mask, wanted=wanted: wanted, version=1)  # views, no log
        action = bot.choose(observe(state, state.current_seat), rng)
        assert enc.index_of(state.code_of(action)) == wanted
    outside = next(i for i in range(enc.actions) if i not in legal)
    with pytest.raises(IllegalActionError, match="is not legal now: the legal actions are"):
        PolicyBot(lambda obs, mask: outside, version=1).choose(
            observe(state, state.current_seat), rng
        )


def test_a_policy_plays_in_the_arena_by_its_spec_and_as_an_opponent() -> None:
    spec = "policy:tests.rl.test_policy:lowest"
    config = ArenaConfig("P", 3, (spec, "random", "random"), games=6, seed=1)
    results = run_games(config, workers=1)
    assert len(results) == 6 and all(not r.forfeits for r in results)
    env = NinetyNineGymEnv("P", 3, opponents=PolicyBot(lowest))
    _, info = env.reset(seed=2)
    done = False
    while not done:
        _, reward, done, _, info = env.step(int(np.flatnonzero(info["action_mask"])[-1]))
    assert reward in (1.0, -1.0)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("policy:nowhere", "expected policy:MODULE:NAME"),
        ("policy:no_such_module_here:act", "No module named 'no_such_module_here'"),
        ("policy:math:pi", "pi is a float, not a policy function"),
    ],
)
def test_a_bad_policy_spec_is_one_clear_line(spec: str, message: str) -> None:
    with pytest.raises(NinetyNineError, match=message):
        make_bot(spec)


def test_a_ninetynine_bot_takes_a_seat_in_openspiel_s_evaluate_bots() -> None:
    import pyspiel

    from ninetynine.rl.openspiel import SpielBot

    game = pyspiel.load_game("python_ninetynine", {"rules": "K", "players": 3})
    bots = [SpielBot("heuristic", 0, seed=1), pyspiel.make_uniform_random_bot(1, 1)]
    bots.append(SpielBot(PolicyBot(linear), 2, seed=1))
    won = []
    for game_no in range(30):
        returns = pyspiel.evaluate_bots(game.new_initial_state(), bots, game_no)
        assert sorted(returns) in ([-1.0, -1.0, 1.0], [-1.0, -1.0, -1.0])
        won.append(returns[0] == 1.0)
    assert sum(won) >= 15  # heuristic beats two bots that do not count (a third is even)
    again = pyspiel.evaluate_bots(game.new_initial_state(), bots, 7)
    assert again == pyspiel.evaluate_bots(game.new_initial_state(), bots, 7)
