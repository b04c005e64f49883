"""The environments against their frameworks' own conformance checks: PettingZoo's
``api_test`` and ``seed_test`` over every preset, Gymnasium's ``check_env``, OpenSpiel's
``random_sim_test`` for 2 to 8 players where the rules allow."""

from __future__ import annotations

import warnings

import gymnasium
import pyspiel
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

import ninetynine.rl  # noqa: F401  (registers NinetyNine-v1)
import ninetynine.rl.openspiel  # noqa: F401  (registers python_ninetynine)
from ninetynine import load_rules, presets
from ninetynine.rl.pettingzoo import env

ENCODED = presets()  # the encoding encodes every preset


def typical(preset: str) -> int:
    rules = load_rules(preset)
    return min(max(4, rules.players_min), rules.players_max)


@pytest.mark.parametrize("preset", ENCODED)
def test_pettingzoo_api_and_seeds(preset: str) -> None:
    players = typical(preset)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # its advice for dict observations and so on
        api_test(env(preset, players), num_cycles=200)
        seed_test(lambda: env(preset, players), num_cycles=200)


@pytest.mark.parametrize(
    ("preset", "players"), [("P", 2), ("K", 6), ("G", 8), ("J", 3), ("BGA", 12), ("J-TEAM", 4)]
)
def test_pettingzoo_api_at_other_table_sizes(preset: str, players: int) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(env(preset, players), num_cycles=200)


@pytest.mark.parametrize(
    ("preset", "players", "opponents"),
    [
        ("P", 4, "random"),
        ("K", 3, "random"),
        ("G", 5, "random"),
        ("J", 2, "heuristic"),
        ("TW", 4, "random"),
    ],
)
def test_gymnasium_check_env(preset: str, players: int, opponents: str) -> None:
    made = gymnasium.make("NinetyNine-v1", rules=preset, players=players, opponents=opponents)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(made.unwrapped, skip_render_check=True)


def openspiel_tables() -> list[tuple[str, int]]:
    tables = []
    for preset in ("P", "K", "G", "J"):
        rules = load_rules(preset)
        tables += [
            (preset, n) for n in range(max(2, rules.players_min), min(8, rules.players_max) + 1)
        ]
    # naming, chains, up-cards, a drawn leader, teams, game points, milestones; jokers and
    # cards that move between hands (swaps, takes, strips, revivals)
    return tables + [
        ("CN99", 3),
        ("TW", 4),
        ("IS", 3),
        ("P-UPCARD", 4),
        ("QC", 3),
        ("J-TEAM", 4),
        ("P-BORDERS", 3),
        ("P-ONLINE", 4),
    ]


@pytest.mark.parametrize(("preset", "players"), openspiel_tables())
def test_openspiel_random_sim_test(preset: str, players: int) -> None:
    game = pyspiel.load_game("python_ninetynine", {"rules": preset, "players": players})
    pyspiel.random_sim_test(game, num_sims=1, serialize=players == 3, verbose=False)


@pytest.mark.parametrize(("preset", "players"), [("P", 4), ("P-UPCARD", 3), ("J", 3), ("CN99", 4)])
def test_openspiel_random_sim_test_with_a_chance_node_a_card(preset: str, players: int) -> None:
    params = {"rules": preset, "players": players, "chance": "card"}
    game = pyspiel.load_game("python_ninetynine", params)
    pyspiel.random_sim_test(game, num_sims=1, serialize=players == 3, verbose=False)
