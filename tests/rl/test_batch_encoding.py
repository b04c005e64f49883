"""The batch's canonical encoding against the reference: random games of the batch engine
replayed on the reference engine, shuffle for shuffle and move for move, give every seat to
act the same observation, mask and action indexes as :class:`Encoding` does."""

from __future__ import annotations

import numpy as np
import pytest

from ninetynine import load_rules
from ninetynine.engine.state import OVER
from ninetynine.rl.batch import Batch
from ninetynine.rl.batch_encoding import BatchEncoding
from ninetynine.rl.encoding import Encoding
from ninetynine.rules.settings import Rules

from .replay import Recorder, Replay
from .test_batch import HOUSE_SIT_OUT

HOUSE = load_rules(HOUSE_SIT_OUT)


@pytest.mark.parametrize(
    ("preset", "players", "version"),
    [
        ("P", 4, 2),
        ("P", 2, 2),
        ("P", 6, 1),
        ("K", 4, 2),
        ("K", 6, 2),
        ("G", 3, 2),
        ("J", 5, 2),
        ("BGA", 3, 2),
        ("P-TEN-MINUS", 4, 2),
        ("BICYCLE", 4, 2),
        ("P-CONTINUE", 4, 2),  # the pile taken away at a reset; all of it reshuffled
        ("WIKI", 3, 2),  # skipping cards
        ("98", 4, 2),  # the first player out ends the game
        ("P-2P-AGAIN", 2, 2),
        ("QC", 4, 2),  # milestones, a Two that halves or doubles
        ("P-69", 3, 2),
        ("J-TEAM", 4, 2),  # each partner shows the pool's lives
        ("P-UPCARD", 4, 2),  # the up-card face up; the opening ban in the mask
        ("IS", 5, 2),  # the chain faced and the run left; chain cards out of the mask
        ("P-BORDERS", 4, 2),  # each seat's game points and score
        (HOUSE, 5, 2),  # leaders drawn; an out player's hand under the pile
    ],
    ids=str,
)
def test_batch_observations_and_masks_are_the_encodings(
    preset: str | Rules, players: int, version: int
) -> None:
    slots = 6
    batch = Batch(preset, players, slots, seed=7, observed=True)
    enc = Encoding(preset, players, version)
    coded = BatchEncoding(enc, batch)
    rec = Recorder(batch)
    every = np.arange(slots)
    batch._new_games(every)  # recorded from here
    for _ in range(250):
        legal = batch.legal()
        obs = coded.observe(every, batch.turn)
        mask = coded.mask(every, legal)
        actions = batch.random_actions(legal)
        indexes = np.array([enc.index[c] for c in batch.codes(actions).tolist()], np.int64)
        back, ok = coded.slot_actions(every, indexes, legal)
        assert ok.all()
        assert (batch.codes(back) == batch.codes(actions)).all()
        for s in range(slots):
            rec.note(s, "obs", int(batch.turn[s]), obs[s], mask[s])
        batch.step(actions)
    compared = 0
    for s in range(slots):
        for first, chance, records in rec.games(s):
            game = Replay(enc, first, chance)
            for record in records:
                if record[0] == "move":
                    game.play_code(record[1])
                    continue
                _, seat, obs, mask = record
                state = game.state
                assert state.phase != OVER and state.current_seat == seat
                np.testing.assert_array_equal(obs, game.observe(seat))
                np.testing.assert_array_equal(mask, enc.mask(state))
                compared += 1
    assert compared == 250 * slots
