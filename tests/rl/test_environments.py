"""What the environments promise beyond the frameworks' checks: masks, reproducibility with
the global generators stirred, hidden information, players leaving, clear errors."""

from __future__ import annotations

import random

import gymnasium
import numpy as np
import pyspiel
import pytest

import ninetynine.rl  # noqa: F401  (registers NinetyNine-v1)
import ninetynine.rl.openspiel  # noqa: F401  (registers python_ninetynine)
from ninetynine import IllegalActionError, NinetyNineError, load_rules, presets
from ninetynine.engine.game import new_game
from ninetynine.engine.state import CHANCE, OVER, PASS, State
from ninetynine.errors import RecordError, RulesError
from ninetynine.rl.encoding import SPECIAL, VERSIONS, Encoding
from ninetynine.rl.episode import Episode
from ninetynine.rl.pettingzoo import env
from ninetynine.rules.settings import Rules

ENCODED = presets()  # the encoding encodes every preset


def typical(preset: str) -> int:
    rules = load_rules(preset)
    return min(max(4, rules.players_min), rules.players_max)


def decisions(preset: str | Rules, players: int, seed: int, limit: int = 400):
    """The states at the decisions of a random game (the state is shared: use at once)."""
    rng = random.Random(seed)
    rules = preset if isinstance(preset, Rules) else load_rules(preset)
    state = new_game(rules, players, first=seed % players)
    for _ in range(limit):
        while state.phase == CHANCE:
            state.play_chance(rng)
        if state.phase == OVER:
            return
        yield state
        state.apply_code(rng.choice(state.legal_codes()))


def episode_decisions(preset: str | Rules, players: int, seed: int, limit: int = 400):
    """The decisions of a random game as the environments play it (an :class:`Episode`,
    which keeps the public log and the cards played: version 2 reads them), shared."""
    rng = random.Random(seed)
    episode = Episode(Encoding(preset, players), random.Random(seed), log=True)
    for _ in range(limit):
        if episode.state.phase == OVER:
            return
        yield episode
        episode.play_code(rng.choice(episode.state.legal_codes()))


@pytest.mark.parametrize("preset", ENCODED)
def test_the_mask_is_the_legal_actions_and_never_empty_at_a_decision(preset: str) -> None:
    players = typical(preset)
    enc = Encoding(preset, players)
    for seed in range(3):
        for state in decisions(preset, players, seed):
            mask = enc.mask(state)
            assert mask.sum() >= 1
            legal = sorted(state.legal_codes())
            assert sorted(enc.codes[i] for i in np.flatnonzero(mask)) == legal
            for index in np.flatnonzero(mask):  # the index names the engine's action
                assert enc.text(int(index)) == str(state.action_of(enc.codes[index]))
            seat = state.current_seat
            other = (seat + 1) % players
            assert not enc.mask(state, other).any(), "only the seat to act has actions"


def test_the_mask_offers_pass_exactly_when_an_extra_turn_may_be_declined() -> None:
    """P-2P-AGAIN read as a right: the decline is the engine's pass, at its usual index."""
    rules = load_rules(
        {"preset": "P-2P-AGAIN", "rules": {"two_player_reverse": "play_again_optional"}}
    )
    enc = Encoding(rules, 2)
    offered = 0
    for seed in range(4):
        for state in decisions(rules, 2, seed):
            mask = enc.mask(state)
            assert sorted(enc.codes[i] for i in np.flatnonzero(mask)) == state.legal_codes()
            assert bool(mask[SPECIAL[PASS]]) == state.may_decline
            assert enc.text(SPECIAL[PASS]) == "pass"
            offered += state.may_decline
    assert offered > 5


def reshuffled_hidden(state: State, seat: int, rng: random.Random) -> State:
    """The same state with every card ``seat`` cannot see dealt again at random: the other
    hands, the stock and the face-down part of the pile keep their sizes."""
    new = state.clone()
    others = [s for s in range(state.n) if s != seat]
    hidden = (
        [c for s in others for c in state.hands[s]] + state.stock + state.pile[: state.face_down]
    )
    rng.shuffle(hidden)
    for s in others:
        size = len(state.hands[s])
        new.hands[s], hidden = hidden[:size], hidden[size:]
    new.pile = hidden[: state.face_down] + state.pile[state.face_down :]
    new.stock = hidden[state.face_down :]
    return new


@pytest.mark.parametrize(
    "preset", ["P", "K", "G", "J", "TW", "IS", "J-TEAM", "P-UPCARD", "QC", "P-BORDERS"]
)
def test_observations_hold_nothing_a_seat_may_not_see(preset: str) -> None:
    players = typical(preset)
    rng = random.Random(7)
    changed = 0
    for version in VERSIONS:
        enc = Encoding(preset, players, version)
        for seed in range(3):
            for episode in episode_decisions(preset, players, seed, limit=150):
                state, played = episode.state, episode.played  # the cards played are public
                for seat in range(players):
                    other = reshuffled_hidden(state, seat, rng)
                    changed += other.hands != state.hands
                    seen = enc.observe(state, seat, played)
                    assert np.array_equal(seen, enc.observe(other, seat, played))
                    assert np.array_equal(enc.mask(state, seat), enc.mask(other, seat))
    assert changed > 200, "the hidden cards were reshuffled"


def test_observations_show_what_a_seat_sees() -> None:
    """The own hand, the total and the lives are in the observation: a change shows."""
    enc = Encoding("P", 4, 1)
    state = next(decisions("P", 4, 1))
    seat = state.current_seat
    before = enc.observe(state, seat)
    other = state.clone()
    other.hands[seat] = other.hands[seat][1:] + other.stock[:1]
    other.stock = other.stock[1:] + state.hands[seat][:1]
    assert not np.array_equal(before, enc.observe(other, seat))
    other = state.clone()
    other.total += 1
    assert not np.array_equal(before, enc.observe(other, seat))
    other = state.clone()
    other.lives[(seat + 2) % 4] -= 1
    assert not np.array_equal(before, enc.observe(other, seat))
    assert ((before >= 0) & (before <= 1)).all()


def stir() -> None:
    """Move the global generators, which the environments must not depend on."""
    random.random()
    np.random.random(3)


@pytest.mark.parametrize("preset", ["P", "K", "G", "J", "TW", "IS"])
def test_pettingzoo_games_reproduce_from_their_seed(preset: str) -> None:
    players = typical(preset)
    for seed in range(8):
        runs = []
        for _ in range(2):
            table = env(preset, players)
            table.reset(seed=seed)
            chooser = np.random.default_rng(seed)
            seen = []
            for agent in table.agent_iter(600):
                obs, reward, terminated, truncated, _ = table.last()
                seen.append((agent, obs["observation"].tobytes(), reward, terminated))
                stir()
                if terminated or truncated:
                    table.step(None)
                    continue
                legal = np.flatnonzero(obs["action_mask"])
                table.step(int(chooser.choice(legal)))
            runs.append(seen)
        assert runs[0] == runs[1]


def test_gymnasium_episodes_reproduce_from_their_seed() -> None:
    made = gymnasium.make("NinetyNine-v1", rules="K", players=3, opponents="heuristic")
    runs = []
    for _ in range(2):
        obs, info = made.reset(seed=5)
        chooser = np.random.default_rng(0)
        seen = [obs.tobytes()]
        done = False
        while not done:
            stir()
            action = int(chooser.choice(np.flatnonzero(info["action_mask"])))
            obs, reward, done, _, info = made.step(action)
            seen.append((obs.tobytes(), reward))
        runs.append(seen)
    assert runs[0] == runs[1]
    assert runs[0][-1][1] in (-1.0, 1.0)


def test_players_knocked_out_leave_and_the_rewards_add_up() -> None:
    table = env("K", 4)
    table.reset(seed=3)
    chooser = np.random.default_rng(3)
    left, totals = [], dict.fromkeys(table.possible_agents, 0.0)
    for agent in table.agent_iter(5000):
        obs, reward, terminated, truncated, _ = table.last()
        totals[agent] += reward
        if terminated:
            left.append(agent)
            table.step(None)
            continue
        table.step(int(chooser.choice(np.flatnonzero(obs["action_mask"]))))
    assert not table.agents and sorted(left) == sorted(table.possible_agents)
    winners = [a for a, r in totals.items() if r == 1.0]
    assert len(winners) == 1 and sorted(totals.values()) == [-1.0, -1.0, -1.0, 1.0]
    assert left[-1] == winners[0] or winners[0] in left[-2:]  # the winner leaves at the end


def one_line(error: Exception) -> str:
    text = str(error)
    assert "\n" not in text and text
    return text


def test_bad_input_gets_one_clear_error() -> None:
    with pytest.raises(RulesError) as e:
        env("NOPE", 4)
    assert "NOPE" in one_line(e.value)
    with pytest.raises(RecordError) as e:
        env("K", 7)
    assert "2 to 6" in one_line(e.value)
    with pytest.raises(RecordError):
        gymnasium.make("NinetyNine-v1", rules="G", players=2)
    with pytest.raises(RulesError):
        pyspiel.load_game("python_ninetynine", {"rules": "nope", "players": 4})
    with pytest.raises(NinetyNineError) as e:
        gymnasium.make("NinetyNine-v1", rules="P", players=4, opponents="wizard")
    assert "wizard" in one_line(e.value)
    table = env("P", 4)
    table.reset(seed=1)
    mask = table.last()[0]["action_mask"]
    outside = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(IllegalActionError) as e:
        table.step(outside)
    text = one_line(e.value)
    assert "not legal now" in text and "legal actions are" in text
    with pytest.raises(IllegalActionError) as e:
        table.step(10_000)
    assert "from 0 to" in one_line(e.value)
    assert np.array_equal(table.last()[0]["action_mask"], mask), "a refused action changes nothing"


def test_gymnasium_actions_outside_the_mask_lose_or_raise() -> None:
    made = gymnasium.make("NinetyNine-v1", rules="P", players=3, opponents="random")
    obs, info = made.reset(seed=2)
    outside = int(np.flatnonzero(info["action_mask"] == 0)[0])
    obs, reward, terminated, _, info = made.step(outside)
    assert terminated and reward == -1.0 and "not legal now" in info["illegal_action"]
    strict = gymnasium.make(
        "NinetyNine-v1", rules="P", players=3, opponents="random", illegal_action="raise"
    )
    obs, info = strict.reset(seed=2)
    with pytest.raises(IllegalActionError):
        strict.step(outside)


def test_openspiel_resampling_keeps_what_the_player_knows() -> None:
    game = pyspiel.load_game("python_ninetynine", {"rules": "J", "players": 3})
    state = game.new_initial_state()
    rng = random.Random(4)
    while state.is_chance_node() or len(state.history()) < 70:
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    player = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    differs = 0
    for _ in range(10):
        sample = state.resample_from_infostate(player, sampler)
        assert sample.information_state_string(player) == state.information_state_string(player)
        assert sample.observation_tensor(player) == state.observation_tensor(player)
        assert sample.legal_actions() == state.legal_actions()
        differs += sample._t.state.hands != state._t.state.hands
    assert differs > 0, "the hidden cards are dealt anew"


def chance_nodes_and_decisions(chance: str, seed: int) -> tuple[int, int, tuple[int, ...]]:
    game = pyspiel.load_game("python_ninetynine", {"rules": "P", "players": 4, "chance": chance})
    state, rng = game.new_initial_state(), random.Random(seed)
    nodes = moves = 0
    first_hand: tuple[int, ...] = ()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            assert sum(probs) == pytest.approx(1.0)
            state.apply_action(rng.choices(actions, probs)[0])
            nodes += 1
        else:
            first_hand = first_hand or tuple(sorted(state._t.state.hands[0]))
            state.apply_action(rng.choice(state.legal_actions()))
            moves += 1
    return nodes, moves, first_hand


def test_openspiel_shuffles_in_a_few_chance_nodes_and_deals_every_hand() -> None:
    seeded = [chance_nodes_and_decisions("shuffle", seed) for seed in range(3)]
    by_card = [chance_nodes_and_decisions("card", seed) for seed in range(3)]
    per_move = sum(n for n, _, _ in seeded) / sum(m for _, m, _ in seeded)
    assert per_move < 0.5  # measured 0.30 (936 chance nodes a game by card: 3.8 per move)
    assert sum(n for n, _, _ in by_card) / sum(m for _, m, _ in by_card) > 5 * per_move
    hands = {hand for _, _, hand in seeded}
    assert len(hands) == 3, "each seed deals its own cards"
    game = pyspiel.load_game("python_ninetynine", {"rules": "P", "players": 4})
    state = game.new_initial_state()
    assert [a for a, _ in state.chance_outcomes()] == list(range(256))
    with pytest.raises(pyspiel.SpielError, match="seed byte is 0-255; got 256"):
        state.apply_action(256)


def test_openspiel_chance_mode_is_checked() -> None:
    message = "unknown chance mode 'dice'; expected one of shuffle, card"
    with pytest.raises(ValueError, match=message):
        pyspiel.load_game("python_ninetynine", {"rules": "P", "players": 4, "chance": "dice"})


def test_openspiel_s_evaluate_bots_seats_its_ismcts_beside_ours() -> None:
    from open_spiel.python.algorithms import evaluate_bots, ismcts, mcts

    from ninetynine.rl.openspiel import SpielBot

    game = pyspiel.load_game("python_ninetynine", {"rules": "K", "players": 2})
    rng = np.random.RandomState(3)
    bot = ismcts.ISMCTSBot(
        game, mcts.RandomRolloutEvaluator(1, rng), uct_c=2.0, max_simulations=5, random_state=rng
    )
    ours = SpielBot("heuristic", 1, seed=2)
    assert sorted(pyspiel.evaluate_bots(game.new_initial_state(), [bot, ours], 5)) == [-1.0, 1.0]
    # the Python evaluate_bots restarts every bot at the state, which OpenSpiel's ISMCTS
    # cannot; ours can, against OpenSpiel's uniform random bot
    bots = [pyspiel.make_uniform_random_bot(0, 1), ours]
    assert sorted(evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rng)) == [-1.0, 1.0]


def test_openspiel_ismcts_plays_the_game() -> None:
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game("python_ninetynine", {"rules": "K", "players": 2})
    state = game.new_initial_state()
    rng = np.random.RandomState(1)
    bot = ismcts.ISMCTSBot(
        game, mcts.RandomRolloutEvaluator(1, rng), uct_c=2.0, max_simulations=20, random_state=rng
    )
    for _ in range(60):
        if state.is_terminal():
            break
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
