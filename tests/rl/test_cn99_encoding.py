"""CN99's cards in the canonical encoding (FAMILIES.md §12.1): the jokers as cards and ranks
of their own, the 7's swap, the J's take and the jokers' strip and revival as seats named,
and what a swap or a take showed a seat of another hand; the same from a view as from the
state, nothing more than the seat may know, and every other rule set's layout as it was."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest
from pettingzoo.test import api_test

from ninetynine import load_rules
from ninetynine.engine.state import State
from ninetynine.engine.tables import param_code
from ninetynine.engine.view import observe
from ninetynine.rl.encoding import VERSIONS, Encoding, encode, encoding_for
from ninetynine.rl.pettingzoo import env
from ninetynine.rules.cards import BIG_JOKER, SMALL_JOKER
from ninetynine.rules.settings import Rules
from tests.rl.test_environments import decisions, episode_decisions
from tests.rules.test_cn99 import MOVING

RULES = load_rules(MOVING)  # the swap and the take alone
CN99 = load_rules("CN99")  # the preset: the jokers strip and revive too


def test_the_layout_of_cn99_widens_for_the_jokers_and_the_known_cards_alone() -> None:
    enc = Encoding(RULES, 3)
    sizes = {name: block.size for name, block in enc.blocks.items()}
    assert sizes["hand"] == sizes["seen"] == 54 and sizes["unseen"] == 15
    assert sizes["recent"] == sizes["played"] == 3 * 15 and sizes["known"] == 2 * 54
    # 54 cards' plays, down/pass/draw/nodraw, then A, 7, J of four suits naming 3 seats
    assert enc.actions == 54 * 4 + 4 + 12 * 3
    assert enc.text(enc.index_of(4 * SMALL_JOKER)) == "SJ"
    assert enc.text(enc.index_of(4 * BIG_JOKER)) == "BJ"
    assert enc.text(enc.index_of(4 * BIG_JOKER) + 1).startswith("BJ with choice 1")
    p = Encoding("P", 4)  # as it was: 212 actions, 359 floats, no known cards
    assert (p.actions, p.size, "known" in p.blocks) == (212, 359, False)


@pytest.mark.parametrize(
    ("rules", "players"), [(RULES, 2), (RULES, 3), (RULES, 6), (CN99, 3), (CN99, 5)]
)
def test_a_view_gives_the_state_s_observation_and_the_mask_is_the_legal_moves(
    rules: Rules, players: int
) -> None:
    knew = 0
    for seed in range(3):
        for episode in episode_decisions(rules, players, seed, limit=120):
            state = episode.state
            enc = encoding_for(state.rules, players)
            for seat in range(players):
                assert np.array_equal(encode(episode.view(seat)), episode.observe(seat))
                v1 = encoding_for(state.rules, players, 1)
                assert np.array_equal(
                    v1.observe_view(observe(state, seat)), v1.observe(state, seat)
                )
                knew += any(state.known_to(seat))
            mask = enc.mask(state)
            assert sorted(enc.codes[i] for i in np.flatnonzero(mask)) == state.legal_codes()
            for index in np.flatnonzero(mask):
                assert enc.text(int(index)) == str(state.action_of(enc.codes[index]))
            assert np.array_equal(enc.view_mask(observe(state, state.current_seat)), mask)
    assert knew > 20, "no seat came to know cards in another hand"


def reshuffled_unknown(state: State, seat: int, rng: random.Random) -> State:
    """The same state with every card ``seat`` neither sees nor knows dealt again at
    random: each other hand keeps its size and the cards ``seat`` knows to be there."""
    new = state.clone()
    others = [s for s in range(state.n) if s != seat]
    known = state.known_to(seat)
    kept = {s: list((Counter(state.hands[s]) & Counter(known[s])).elements()) for s in others}
    loose = [c for s in others for c in (Counter(state.hands[s]) - Counter(kept[s])).elements()]
    hidden = loose + state.stock + state.pile[: state.face_down]
    rng.shuffle(hidden)
    for s in others:
        size = len(state.hands[s]) - len(kept[s])
        new.hands[s], hidden = kept[s] + hidden[:size], hidden[size:]
    new.pile = hidden[: state.face_down] + state.pile[state.face_down :]
    new.stock = hidden[state.face_down :]
    return new


@pytest.mark.parametrize("rules", [RULES, CN99])
def test_an_observation_holds_what_the_seat_knows_and_nothing_it_may_not(rules: Rules) -> None:
    rng, changed, known = random.Random(3), 0, 0
    for version in VERSIONS:
        enc = Encoding(rules, 3, version)
        block = enc.blocks["known"]
        for seed in range(4):
            for episode in episode_decisions(rules, 3, seed, limit=100):
                state, played = episode.state, episode.played
                for seat in range(3):
                    seen = enc.observe(state, seat, played)
                    other = reshuffled_unknown(state, seat, rng)
                    changed += other.hands != state.hands
                    assert np.array_equal(seen, enc.observe(other, seat, played))
                    # the known block is the cards it knows, each other seat in turn
                    counted = seen[block.start : block.start + block.size].reshape(2, 54)
                    for k in (1, 2):
                        cards = state.known_to(seat)[(seat + k) % 3]
                        assert counted[k - 1].sum() * enc.decks == pytest.approx(len(cards))
                        known += bool(cards)
    assert changed > 200 and known > 20


def test_jokers_count_as_cards_of_their_own_rank() -> None:
    enc = Encoding(RULES, 3)
    unseen, hand = enc.blocks["unseen"], enc.blocks["hand"]
    for state in decisions(RULES, 3, 11):
        seat = state.current_seat
        obs = enc.observe(state, seat, [])
        jokers = [c for c in state.hands[seat] if c >= SMALL_JOKER]
        for card, slot in ((SMALL_JOKER, 52), (BIG_JOKER, 53)):
            assert obs[hand.start + slot] == jokers.count(card)
        if jokers:
            # a joker held is one of the one in the pack not unseen
            rank = 13 if SMALL_JOKER in jokers else 14
            assert obs[unseen.start + rank] == 0.0
            return
    pytest.fail("no joker was dealt to the seat to act in this game")


@pytest.mark.parametrize("rules", [RULES, CN99])
def test_pettingzoo_plays_cn99_through_its_api_test(rules: Rules) -> None:
    api_test(env(rules=rules, players=3), num_cycles=200)


def test_the_big_joker_with_nobody_to_name_is_an_action_of_its_own() -> None:
    enc = Encoding(CN99, 3)
    alone = enc.index_of(4 * BIG_JOKER)
    assert enc.text(alone) == "BJ"
    assert enc.text(enc.index_of(param_code(BIG_JOKER, 2))) == "BJ>3"


def test_a_player_brought_back_plays_on_in_pettingzoo() -> None:
    """A player out may come back (the big joker, O49): it stays an agent to the end, its
    mask all zero while it is out, and acts again once revived."""
    back = 0
    for seed in range(12):  # (a revival in about a third of random games at six seats)
        table = env(rules=CN99, players=6)
        table.reset(seed=seed)
        rng, was_out = random.Random(seed), set()
        for agent in table.agent_iter(max_iter=5000):
            obs, _reward, done, cut, _info = table.last()
            if done or cut:
                table.step(None)
                continue
            seat = table.possible_agents.index(agent)
            back += seat in was_out
            was_out.discard(seat)
            table.step(int(rng.choice(list(np.flatnonzero(obs["action_mask"])))))
            state = table.episode.state
            was_out |= {s for s in range(6) if not state.alive[s]}
            assert table.agents == table.possible_agents or state.is_over
    assert back > 0, "nobody came back"
