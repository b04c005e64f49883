"""Arena: rotation, statistics on known cases, determinism across workers, the CLI."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from ninetynine.arena import (
    ArenaConfig,
    GameResult,
    play_game,
    rotation,
    run_games,
    summarize,
    wilson,
)
from ninetynine.arena.stats import MIN_BLOCKS, block_interval, labels_of
from ninetynine.cli.main import main
from ninetynine.records.match import replay
from ninetynine.records.record import parse_record
from ninetynine.rules.presets import load_rules


def test_rotation_puts_every_bot_in_every_chair_once_per_block() -> None:
    for n in (2, 3, 4, 5):
        block = [rotation(g, n) for g in range(n)]
        for seat in range(n):
            assert sorted(r[seat] for r in block) == list(range(n))
        for r in block:
            assert sorted(r) == list(range(n))
    assert rotation(0, 3) == [0, 1, 2] and rotation(1, 3) == [1, 2, 0]
    assert rotation(5, 4) == rotation(1, 4)


def test_wilson_interval_known_values() -> None:
    lo, hi = wilson(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-4) and hi == pytest.approx(0.5962, abs=1e-4)
    lo, hi = wilson(0, 10)
    assert lo == 0.0 and hi == pytest.approx(0.2775, abs=1e-4)
    lo, hi = wilson(10, 10)
    assert hi == pytest.approx(1.0) and lo == pytest.approx(0.7225, abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)


def test_summary_counts_wins_per_entrant_not_per_chair() -> None:
    # Entrant 0 wins whichever chair it sits in; entrant 1 once forfeits.
    results = [
        GameResult(0, [0, 1], [0], "last_survivor"),
        GameResult(1, [1, 0], [1], "last_survivor"),
        GameResult(2, [0, 1], [0], "last_survivor", forfeits={1: "crashed"}),
        GameResult(3, [1, 0], [1], "last_survivor"),
    ]
    stats = summarize(["a", "b"], results)
    assert [s.seat_games for s in stats] == [4, 4]
    assert [s.wins for s in stats] == [4, 0]
    assert [s.forfeits for s in stats] == [0, 1]
    assert stats[0].win_rate == 1.0 and stats[0].mu > stats[1].mu
    assert stats[0].interval == wilson(4, 4)


def test_block_interval_known_values() -> None:
    # rates 0.25 and 0.75 alternating: sd = sqrt(40 * 0.0625 / 39), half = z * sd / sqrt(40)
    lo, hi = block_interval(0.5, [0.25, 0.75] * 20)
    half = 1.959963984540054 * math.sqrt(40 * 0.0625 / 39) / math.sqrt(40)
    assert (lo, hi) == (pytest.approx(0.5 - half), pytest.approx(0.5 + half))
    assert block_interval(0.25, [0.25] * 40) == (0.25, 0.25)
    assert block_interval(0.95, [0.5, 1.0] * 20)[1] == 1.0  # clamped


def _block(index: int, winner: int) -> list[GameResult]:
    """A block of two games, seats rotated, entrant ``winner`` winning both."""
    return [
        GameResult(2 * index, [0, 1], [winner], "x"),
        GameResult(2 * index + 1, [1, 0], [1 - winner], "x"),
    ]


def test_intervals_come_from_rotation_blocks_when_there_are_enough() -> None:
    # Entrant 0 wins one game of every block, as equal bots on shared cards do: the
    # block interval knows its win rate is exactly 1/2; a coin-toss interval cannot.
    even = [
        r
        for b in range(MIN_BLOCKS)
        for r in (GameResult(2 * b, [0, 1], [0], "x"), GameResult(2 * b + 1, [1, 0], [0], "x"))
    ]
    stats = summarize(["a", "b"], even, ratings=False)
    assert stats[0].blocks == [0.5] * MIN_BLOCKS
    assert stats[0].interval == (0.5, 0.5)
    # A block whose second game is missing does not count as a block.
    assert len(summarize(["a", "b"], even[:-1], ratings=False)[0].blocks) == MIN_BLOCKS - 1
    assert summarize(["a", "b"], even[:-1], ratings=False)[0].interval == wilson(
        MIN_BLOCKS, 2 * MIN_BLOCKS - 1
    )
    # Blocks won outright by one entrant or the other: wide, as they should be.
    mixed = [r for b in range(MIN_BLOCKS) for r in _block(b, b % 2)]
    lo, hi = summarize(["a", "b"], mixed, ratings=False)[0].interval
    assert lo < 0.5 - 0.15 and hi > 0.5 + 0.15


def test_the_games_of_a_block_deal_the_same_cards_in_every_hand() -> None:
    # Different bots play different hands, but hand h gets the same deal in both games.
    rules = load_rules("P")
    deals = []
    for specs in (["heuristic", "random", "random"], ["random", "random", "random"]):
        result = play_game(
            rules,
            specs,
            [0, 1, 2],
            index=0,
            chance_seed="1:deal:0",
            bot_seed="1:bots:0",
            keep_record=True,
        )
        assert result.record is not None
        record = parse_record(result.record)
        state, dealt = record.start.clone(), {}
        for seat, move in record.moves:
            if seat is None:
                dealt[state.hand_no] = (*dealt.get(state.hand_no, ()), str(move))
            state.apply(move, seat)
        deals.append(dealt)
    assert deals[0] != deals[1]  # the games went differently...
    common = deals[0].keys() & deals[1].keys()
    assert len(common) >= 3
    assert all(deals[0][h][0] == deals[1][h][0] for h in common)  # ...on the same deals


def test_labels_tell_repeated_specs_apart() -> None:
    assert labels_of(["heuristic", "random", "random"]) == ["heuristic", "random", "random (2)"]


def test_results_do_not_depend_on_the_worker_count() -> None:
    config = ArenaConfig("K", 3, ("heuristic", "random", "random"), games=6, seed=4)
    one = run_games(config, workers=1)
    two = run_games(config, workers=2)
    assert [(r.seats, r.winners, r.moves) for r in one] == [
        (r.seats, r.winners, r.moves) for r in two
    ]
    assert [r.seats for r in one] == [rotation(g, 3) for g in range(6)]


def test_arena_cli_writes_results_and_records(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "run"
    code = main(
        [
            "arena",
            "--rules",
            "P",
            "--players",
            "3",
            "--bots",
            "heuristic,random,random",
            "--games",
            "6",
            "--seed",
            "2",
            "--workers",
            "1",
            "--out",
            str(out),
            "--no-progress",
        ]
    )
    assert code == 0
    text = capsys.readouterr().out
    assert "heuristic" in text and "95% interval" in text and "random (2)" in text
    data = json.loads((out / "results.json").read_text())
    assert [e["seat_games"] for e in data["entrants"]] == [6, 6, 6]
    assert sum(e["wins"] for e in data["entrants"]) == sum(
        len(g["winners"]) for g in data["game_results"]
    )
    records = sorted((out / "records").glob("*.toml"))
    assert len(records) == 6
    final, _ = replay(parse_record(records[0].read_text()))
    assert final.outcome is not None
    assert [w + 1 for w in final.outcome.winners] == data["game_results"][0]["winners"]


@pytest.mark.parametrize(
    "argv, words",
    [
        (["--bots", "heuristic,random", "--players", "3"], "one per seat"),
        (["--bots", "heuristic,nobot"], "unknown bot"),
        (["--bots", "heuristic,random", "--games", "0"], "at least 1"),
        (["--rules", "G", "--bots", "random,random"], "3 to 8 players"),
    ],
)
def test_arena_cli_bad_input_is_one_line(
    argv: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["arena", "--no-progress", *argv]) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1


@pytest.mark.parametrize("name", ["ninetynine.arena", "ninetynine.analysis.cells"])  # split_specs
def test_docstring_examples(name: str) -> None:
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(name))
    assert result.failed == 0 and result.attempted > 0


def test_bots_option_with_commas_stays_with_its_bot(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        [
            "arena",
            "--rules",
            "K",
            "--bots",
            "ismcts:iterations=5,depth=4,random",
            "--games",
            "2",
            "--workers",
            "1",
            "--no-progress",
        ]
    )
    assert code == 0
    assert "ismcts:iterations=5,depth=4" in capsys.readouterr().out


def test_a_mirror_match_is_reported_by_seat(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "mirror"
    argv = ["arena", "--rules", "P", "--players", "3", "--bots", "greedy,greedy,greedy"]
    argv += ["--games", "30", "--seed", "4", "--workers", "1", "--out", str(out)]
    assert main([*argv, "--no-progress"]) == 0
    text = capsys.readouterr().out
    assert "a mirror match: greedy in every seat" in text and "greedy (2)" not in text
    data = json.loads((out / "results.json").read_text())
    assert data["mirror"] is True
    # by entrant each wins exactly a third (the point of saying so); by seat it varies
    assert {e["wins"] for e in data["entrants"]} == {10}
    seats = data["by_seat"]
    assert [s["games"] for s in seats] == [30, 30, 30]
    wins = [sum(seat in g["winners"] for g in data["game_results"]) for seat in (1, 2, 3)]
    assert [s["wins"] for s in seats] == wins
    for seat, won in zip(seats, wins, strict=True):
        assert f"{seat['seat']:<8}{30:>6}{won:>6}" in text
