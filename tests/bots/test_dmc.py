"""The ``dmc`` bot (a value learned by Deep Monte Carlo): its weights, its features and its
games. That it reads no hidden cards is checked with every honest bot in test_hidden_info."""

from __future__ import annotations

import random
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ninetynine import load_rules, new_game
from ninetynine.bots import make_bot
from ninetynine.bots.base import ask
from ninetynine.bots.determinize import Determinizer
from ninetynine.bots.dmc import FEATURES, Featurizer, dmc_net, has_weights, trained
from ninetynine.bots.knowledge import forced_move
from ninetynine.engine.view import observe
from ninetynine.errors import NinetyNineError

from .test_bots_play import play
from .test_hidden_info import played, swap_hidden

TRAINED = trained()
ROOT = Path(__file__).resolve().parents[2]


def test_the_weights_load_and_are_small() -> None:
    assert "P" in TRAINED
    assert (ROOT / "src/ninetynine/data/dmc.json").stat().st_size < 200_000
    for rules_id in TRAINED:
        net = dmc_net(load_rules(rules_id))
        assert len(net.w1) == FEATURES and len(net.b1) == len(net.w2) == len(net.w1[0])


def test_rules_without_weights_give_one_clear_line() -> None:
    rules = load_rules("TW")
    assert not has_weights(rules)
    with pytest.raises(TypeError, match=r"dmc: no trained weights for rules 'TW' \(there"):
        dmc_net(rules)
    state = new_game(rules, 3)
    rng = random.Random(1)
    while state.is_chance or forced_move(state.legal_actions()) is not None:
        if state.is_chance:
            state.play_chance(rng)
        else:
            state.apply_code(state.legal_codes()[0])
    assert state.turn is not None
    view = observe(state, state.turn)
    with pytest.raises(NinetyNineError, match="bot 'dmc' raised TypeError: dmc: no trained"):
        ask(make_bot("dmc"), view, rng)


@pytest.mark.parametrize("preset", TRAINED)
def test_it_finishes_games_legally_and_the_same_for_a_seed(preset: str) -> None:
    moves = play(preset, 4, ["dmc", "heuristic-v1"], seed=3)
    assert moves and moves == play(preset, 4, ["dmc", "heuristic-v1"], seed=3)
    assert play(preset, 3, ["dmc"], seed=4)  # every seat the bot


def test_features_read_only_what_every_consistent_deal_shares() -> None:
    # the bot tries its actions on a deal drawn from its view: the features it reads must
    # come out the same on the real state and on any such deal (and on another real deal)
    feat = Featurizer(load_rules("P"))
    rng = random.Random(2)
    for seed in range(4):
        state, _ = played("P", 4, seed)
        seat = state.turn
        view = observe(state, seat)
        codes = state.legal_codes()
        real = feat.action_parts(view, state, codes)
        assert len({tuple(x) for x in real}) > 1  # the actions differ
        for _ in range(3):
            assert feat.action_parts(view, Determinizer(view).sample(rng), codes) == real
        twin = swap_hidden(state, seat, rng)
        assert feat.action_parts(observe(twin, seat), twin, codes) == real
        assert feat.state_part(observe(twin, seat)) == feat.state_part(view)


def test_its_values_are_chances_of_keeping_a_life() -> None:
    # Q is fitted to 0/1 hand results (about 3 hands in 4 keep the life in P; in K, where a
    # bust sits out and the hand goes on, only the last one left keeps it): its values in
    # played positions must look like such chances
    for rules_id in TRAINED:
        rules, rng = load_rules(rules_id), random.Random(7)
        feat, net, values = Featurizer(rules), dmc_net(rules), []
        for _ in range(3):
            state = new_game(rules, 4)
            while not state.is_over:
                if state.is_chance:
                    state.play_chance(rng)
                    continue
                view = observe(state, state.turn)
                if forced_move(view.legal) is None:
                    base = net.base(feat.state_part(view))
                    parts = feat.action_parts(view, state, state.legal_codes())
                    values += [net.value(base, x) for x in parts]
                state.apply_code(rng.choice(state.legal_codes()))
        assert min(values) > -0.2 and max(values) < 1.2
        assert (0.5 if rules_id == "P" else 0.1) < sum(values) / len(values) < 0.95


def test_the_training_command_runs() -> None:
    began = time.time()
    out = subprocess.run(
        [sys.executable, str(ROOT / "examples/train_dmc.py"), "--games", "8"]
        + ["--eval-games", "4", "--batch", "32"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "final" in out.stdout and "8 games" in out.stdout
    assert time.time() - began < 20
