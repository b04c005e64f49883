"""The study's one command runs (on a small configuration of its own: seconds), its plays
are deterministic, and a wrong configuration is one line."""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path

import pytest

from ninetynine.analysis.card_value import controlled, controlled_values
from ninetynine.analysis.cells import Cell
from ninetynine.analysis.chances import chances_at, win_chances
from ninetynine.analysis.play import Engine, play_game
from ninetynine.analysis.playing import deal
from ninetynine.analysis.summary import histories
from ninetynine.engine.game import new_game
from ninetynine.rules.presets import open_rules

ROOT = Path(__file__).resolve().parents[2]
SMALL = """
[study]
seed = 1
title = "A small study"
[rule_sets]
rules = ["P", "98-CS"]
players = [3]
bots = ["heuristic"]
games = 3
[cardstock]
rules = ["98-CS", "98-CS-K0"]
players = [2, 4]
bots = ["random"]
games = 8
[ladder]
rules = ["P"]
players = [2]
bots = ["random", "greedy-keep", "heuristic"]
games = 4
[card_value]
rules = ["P"]
players = [3]
bots = ["heuristic"]
ranks = ["K"]
deals = 2
[excitement]
rules = ["P"]
players = [3]
bots = ["heuristic"]
games = 1
[small]
games = 2
deals = 1
sampled = 1
"""


def _script() -> object:
    spec = importlib.util.spec_from_file_location(
        "fairness_study", ROOT / "scripts" / "fairness_study.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_study_command_writes_its_page_and_plots(tmp_path: Path) -> None:
    config = tmp_path / "study.toml"
    config.write_text(SMALL, encoding="utf-8")
    page = tmp_path / "fairness.md"
    args = ["--config", str(config), "--out", str(page), "--small", "--workers", "1"]
    assert _script().main(args) == 0  # type: ignore[attr-defined]
    text = page.read_text(encoding="utf-8")
    for heading in (
        "CardStock's Ninety-Eight",
        "Does the seat matter?",
        "What is a card worth?",
        "Skill or luck?",
        "Is it exciting?",
    ):
        assert f"## {heading}" in text
    images = [
        line.split("](")[1].rstrip(")") for line in text.splitlines() if line.startswith("![")
    ]
    assert len(images) >= 6 and all((tmp_path / image).exists() for image in images)


def test_the_checked_in_configuration_reads() -> None:
    from ninetynine.analysis.study import read_config

    config = read_config(ROOT / "studies" / "fairness.toml")
    assert len(config.rule_sets.rules) > 30 and config.cardstock.rules == ["98-CS", "98-CS-K0"]
    assert read_config(ROOT / "studies" / "fairness.toml", small=True).rule_sets.games < 10


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (("games = 3", "games = 0"), "[rule_sets] games = 0: expected a whole number above 0"),
        (
            ('ranks = ["K"]', 'ranks = ["Z"]'),
            "[card_value] ranks: 'Z': expected A, 2-10, J, Q or K",
        ),
        (('rules = ["P", "98-CS"]', 'rules = ["NOPE"]'), "[rule_sets] rules:"),
        (("[ladder]", "[ladders]"), "[ladder] is missing"),
    ],
)
def test_a_wrong_configuration_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], change: tuple[str, str], said: str
) -> None:
    config = tmp_path / "study.toml"
    config.write_text(SMALL.replace(*change, 1), encoding="utf-8")
    assert _script().main(["--config", str(config), "--out", str(tmp_path / "x.md")]) == 2  # type: ignore[attr-defined]
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and said in err and str(config) in err, err


def test_controlled_value_is_deterministic_and_paired() -> None:
    rules = open_rules("98-CS")
    a = controlled(rules, 4, ["random"] * 4, 12, 30, seed=5)
    b = controlled(rules, 4, ["random"] * 4, 12, 30, seed=5)
    assert a == b and a.hand.paired and a.deals + a.skipped == 30
    # the same on two processes, its deals cut into parts
    assert controlled_values(rules, 4, ["random"] * 4, [0, 12], 30, 5, workers=2)[1] == a


def test_win_chances_come_from_each_seats_view() -> None:
    state = new_game(open_rules("P"), 3)
    rng = random.Random(2)
    while state.is_chance:
        state.play_chance(rng)
    chances = win_chances(state, random.Random(1), samples=4)
    assert len(chances) == 3 and all(0 <= c <= 1 for c in chances)
    assert sum(chances) == pytest.approx(1.0, abs=0.35)  # each seat's own estimate
    # the decision rows carry the same estimator, seeded by the seed, the game and the move
    cell = Cell(open_rules("P"), 3, ("random",))
    rows = play_game(cell, 1, 3, Engine.FAST, decisions=True, chances=True)
    again = play_game(cell, 1, 3, Engine.FAST, decisions=True, chances=True)
    assert [d.win_chances for d in rows.decisions] == [d.win_chances for d in again.decisions]
    dealt, _drawn = deal(cell, rows.game.deal_seed)  # the game before its first move
    assert rows.decisions[0].win_chances == chances_at(dealt, 3, 1, 0)
    assert rows.decisions[0].win_chances != [1 / 3] * 3  # the rollouts, not the lives alone
    (history,) = histories([rows.game], rows.decisions)
    assert len(history.chances) == rows.game.turns and all(len(c) == 3 for c in history.chances)
    assert sorted(history.places)[0] == 1 and history.winners
    borders = new_game(open_rules("P-BORDERS"), 3)  # won by game points: no odds model
    while borders.is_chance:
        borders.play_chance(rng)
    assert win_chances(borders, rng) == []
