"""KC's King Challenge in the canonical encoding (FAMILIES.md §12.2): the King's target is a
seat named, and the challenged player's answers (a King: the challenger is out instead; a
Four: nobody is) and its acceptance are actions of their own, after every other; whose
challenge a seat faces is in its observation. Only KC's layout widens."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test

from ninetynine import load_rules
from ninetynine.engine.state import ACCEPT
from ninetynine.engine.tables import answer_code, param_code
from ninetynine.engine.view import observe
from ninetynine.rl.encoding import Encoding, encode, encoding_for
from ninetynine.rl.pettingzoo import env
from ninetynine.rules.cards import parse_card
from tests.rl.test_environments import episode_decisions


def test_the_layout_of_kc_adds_the_answers_and_the_challenger_alone() -> None:
    enc = Encoding("KC", 3)
    # 52 cards' plays, down/pass/draw/nodraw, four Kings naming 3 seats, then the answers:
    # the four Kings, the four Fours, and accepting
    assert enc.actions == 52 * 4 + 4 + 4 * 3 + 8 + 1
    assert enc.blocks["challenger"].size == 3
    king, four = parse_card("KH"), parse_card("4S")
    assert enc.text(enc.index_of(param_code(king, 2))) == "KH>3"
    assert enc.text(enc.index_of(answer_code(king))) == "KH"
    assert enc.text(enc.index_of(answer_code(four))) == "4S"
    assert enc.text(enc.index_of(ACCEPT)) == "accept"
    assert enc.index_of(ACCEPT) == enc.actions - 1
    p = Encoding("P", 4)  # as it was
    assert (p.actions, p.size, "challenger" in p.blocks) == (212, 359, False)


@pytest.mark.parametrize("players", [2, 3, 5])
def test_a_challenge_s_answers_are_the_mask_and_its_challenger_is_seen(players: int) -> None:
    answered = 0
    for seed in range(40):  # (a challenge in about one game of four)
        for episode in episode_decisions("KC", players, seed, limit=150):
            state = episode.state
            enc = encoding_for(state.rules, players)
            block = enc.blocks["challenger"]
            for seat in range(players):
                seen = episode.observe(seat)
                assert np.array_equal(encode(episode.view(seat)), seen)
                faced = seen[block.start : block.start + block.size]
                if state.challenger >= 0:  # every seat sees who challenged
                    assert faced[(state.challenger - seat) % players] == 1.0 and faced.sum() == 1
                else:
                    assert not faced.any()
            mask = enc.mask(state)
            assert sorted(enc.codes[i] for i in np.flatnonzero(mask)) == state.legal_codes()
            view = observe(state, state.current_seat)
            assert np.array_equal(enc.view_mask(view), mask)
            for index in np.flatnonzero(mask):  # each index is its own action of the view
                assert enc.action_for(view, int(index)) == state.action_of(enc.codes[index])
            if state.challenger >= 0:
                answered += 1
                assert enc.index_of(ACCEPT) in np.flatnonzero(mask)
    assert answered >= 5, "too few challenges were met"


def test_pettingzoo_plays_kc_through_its_api_test() -> None:
    api_test(env(rules=load_rules("KC"), players=3), num_cycles=200)
