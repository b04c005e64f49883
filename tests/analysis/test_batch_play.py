"""``simulate`` on the batch engine: its rows are the fast path's on the same games (the
same shuffles and moves fed to the batch), the same seed gives the same rows with one or
two workers, the engine is said and kept, ``--engine`` forces either, it falls back to the
fast path without NumPy, and its games agree with the fast path's in distribution."""

from __future__ import annotations

import math
import os
import random
import statistics
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

pytest.importorskip("numpy")

import numpy as np  # noqa: E402

from ninetynine.analysis import simulate  # noqa: E402
from ninetynine.analysis.batch_play import Recorder, batch_seed, distinct  # noqa: E402
from ninetynine.analysis.cells import Cell, Chunk  # noqa: E402
from ninetynine.analysis.play import Engine, GameRows, play_game  # noqa: E402
from ninetynine.analysis.simulation import _Run, plan_of  # noqa: E402
from ninetynine.arena.game import seed_of  # noqa: E402
from ninetynine.engine.actions import Reinsert, Shuffle  # noqa: E402
from ninetynine.engine.game import new_game  # noqa: E402
from ninetynine.engine.state import CHANCE, DOWN, OVER  # noqa: E402
from ninetynine.engine.tables import card_of  # noqa: E402
from ninetynine.errors import NinetyNineError  # noqa: E402
from ninetynine.records.match import hand_seed  # noqa: E402
from ninetynine.rl.batch import Batch  # noqa: E402
from ninetynine.rules.presets import open_rules  # noqa: E402
from tests.rl.test_batch import ScriptedDepths, ScriptedShuffles  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
BLOCK = ROOT / "tests" / "packaging" / "block_imports.py"


def replayed(cell: Cell, rows: GameRows, seed: int) -> dict[str, list[object]]:
    """The shuffles, up-card depths and moves of a fast-path game, played again with its
    seeds."""
    row = rows.game
    state = new_game(cell.rules, cell.players)
    bots = seed_of(seed, "bots", row.game)
    rngs = [random.Random(f"{bots}:{s}") for s in range(cell.players)]
    drawn: dict[int, int] = {}
    shuffles: list[object] = []
    depths: list[int] = []
    moves: list[object] = []
    while state.phase is not OVER:
        if state.phase is CHANCE:
            k = drawn.get(state.hand_no, 0)
            drawn[state.hand_no] = k + 1
            outcome = state.play_chance(random.Random(hand_seed(row.deal_seed, state.hand_no, k)))
            if isinstance(outcome, Reinsert):  # an up-card put back
                depths.append(outcome.depth)
            else:
                assert isinstance(outcome, Shuffle)
                shuffles.append(outcome.order)
        else:
            seat = state.turn
            code = rngs[seat].choice(state.legal_codes())
            state.apply_code(code)
            moves.append((seat, code))
    assert len(moves) == row.turns
    return {"shuffles": shuffles, "depths": depths, "moves": moves}


@pytest.mark.parametrize(
    ("preset", "players"),
    [
        ("P", 4),
        ("P", 8),
        ("K", 3),
        ("G", 3),
        ("J", 2),
        ("BGA", 3),
        ("P-TEN-MINUS", 4),
        ("98", 4),  # the first player out ends it
        ("WIKI", 3),
        ("P-CONTINUE", 4),
        ("P-2P-AGAIN", 2),
        ("P-ONLINE", 4),  # lives paid at milestones, by the player and by the others
        ("QC", 3),
        ("P-69", 4),
        ("J-TEAM", 4),  # pooled lives: both partners win
        ("P-UPCARD", 4),
        ("IS", 4),
        ("P-BORDERS", 4),  # ranked by score
        ("TW", 4),  # a Five that names who plays next
        ("E2", 3),
    ],
)
def test_batch_rows_are_the_fast_paths_on_the_same_games(preset: str, players: int) -> None:
    """Every row field but the deal's seed and block: the batch, fed the fast path's
    shuffles and moves, writes down what the fast path wrote down."""
    cell = Cell(open_rules(preset), players, ("random",))
    fast = [play_game(cell, game, 7, Engine.FAST) for game in range(12)]
    games = [replayed(cell, rows, 7) for rows in fast]
    count = len(games)
    batch = Batch(
        cell.rules,
        players,
        count,
        seed=1,
        shuffler=ScriptedShuffles(games),
        first=np.zeros(count, np.int64),
        reinserter=ScriptedDepths(games),
    )
    recorder = Recorder(cell, batch, Chunk(0, 0, 0, count), "scripted")
    step = [0] * count
    while recorder.playing:
        actions = batch.random_actions(batch.legal())  # games that ended play anything
        for g, game in enumerate(games):
            if step[g] < len(game["moves"]):
                seat, code = game["moves"][step[g]]  # type: ignore[misc]
                assert batch.turn[g] == seat
                hand = batch.hands[g, seat].tolist()
                actions[g] = (
                    batch.down if code == DOWN else batch.action(hand.index(card_of(code)), code)
                )
                step[g] += 1
        recorder.step(actions)
    out = recorder.rows()
    hands, games = out.parts()["hands"].rows(), out.parts()["games"].rows()
    assert [h.game for h in hands] == [h.game for rows in fast for h in rows.hands]
    for got, want in zip(games, fast, strict=True):
        same = replace(got, block=want.game.block, rotation=want.game.rotation)
        assert same == replace(want.game, deal_seed=got.deal_seed)
    assert hands == [h for rows in fast for h in rows.hands]


def test_a_random_move_is_uniform_over_the_legal_codes_with_two_decks() -> None:
    """With two decks a hand can hold a card twice: the copy's actions are left out, so
    each legal code is one action, as a random seat draws among the codes."""
    batch = Batch("P", 8, 256, seed=2)
    assert batch.decks == 2
    copies = 0
    for _ in range(60):
        legal = batch.legal()
        kept = distinct(batch, legal)
        for g in range(batch.size):
            actions = [a for a in range(batch.actions) if legal[g] >> a & 1]
            chosen = [a for a in range(batch.actions) if kept[g] >> a & 1]
            seen = [code_of(batch, g, a) for a in actions]
            left = [code_of(batch, g, a) for a in chosen]
            assert sorted(set(seen)) == sorted(left)
            copies += len(seen) - len(left)
        batch.step(batch.random_actions(kept))
    assert copies > 20


def code_of(batch: Batch, slot: int, action: int) -> int:
    if action == batch.down:
        return DOWN
    return int(batch.hands[slot, batch.turn[slot], action >> 1]) * 4 + (action & 1)


GRID = {"rules": ["P", "K"], "players": [3], "lineups": ["random"]}


def test_the_same_seed_gives_the_same_batch_rows_with_one_or_two_workers(tmp_path: Path) -> None:
    one = simulate(**GRID, games=40, seed=3, chunk=12, workers=1, out=tmp_path / "one")  # type: ignore[arg-type]
    two = simulate(**GRID, games=40, seed=3, chunk=12, workers=2, out=tmp_path / "two")  # type: ignore[arg-type]
    assert [c["engine"] for c in one.cells] == ["batch"] * 2
    assert one.game_rows() == two.game_rows() and one.hand_rows() == two.hand_rows()
    games = one.game_rows()
    assert len(games) == 80 and len({(g.rules, g.deal_seed) for g in games}) == 80
    first = [g for g in games if g.rules == "P"]
    # a deal per game, from its chunk's batch: chunks of 12 games at 3 players
    assert [(g.game, g.block, g.rotation) for g in first[:2]] == [(0, 0, 0), (1, 1, 0)]
    assert first[13].deal_seed == f"{batch_seed(3, 12, 12)}:1"
    assert first[-1].deal_seed == f"{batch_seed(3, 36, 4)}:3"
    assert {g.opener for g in games} == {0} and all(
        g.seats == ["random"] * g.players for g in games
    )
    fast = simulate(**GRID, games=40, seed=3, chunk=12, workers=1, engine="fast")  # type: ignore[arg-type]
    assert [c["engine"] for c in fast.cells] == ["fast"] * 2
    assert fast.game_rows() != games  # other random streams


def test_a_batch_cell_plays_in_wider_chunks() -> None:
    """A chunk is one batch: 1000 games by default, 200 on the fast path (one-bot line-ups:
    a deal a game, so no block to keep whole)."""
    plan = plan_of("P", 3, ["random", "heuristic"], 1200)
    run = _Run(plan, None, resume=False)  # the cells and chunks, nothing played
    assert [c["chunks"] for c in run.manifest["cells"]] == [[1000, 200], [200] * 6]
    assert [c["engine"] for c in run.manifest["cells"]] == ["batch", "fast"]


def test_random_bots_on_the_fast_path_play_in_wider_chunks() -> None:
    """Where random bots hold every seat a chunk is 1000 games on the fast path too (a
    second or so: a part file costs as much to write whatever its size); 200 elsewhere."""
    plan = plan_of("P", 3, ["random", "heuristic"], 1200, engine="fast")
    run = _Run(plan, None, resume=False)
    assert [c["chunks"] for c in run.manifest["cells"]] == [[1000, 200], [200] * 6]
    assert [c["engine"] for c in run.manifest["cells"]] == ["fast", "fast"]


def notes(capsys: pytest.CaptureFixture[str], *args: object, **options: object) -> list[str]:
    simulate(*args, games=3, progress=True, **options)  # type: ignore[arg-type]
    return [line for line in capsys.readouterr().err.splitlines() if "engine:" in line]


def test_each_cell_says_which_engine_played_it(capsys: pytest.CaptureFixture[str]) -> None:
    assert notes(capsys, ["P", "P-UPCARD-INSTANT"], 3, ["random", "heuristic"]) == [
        "P, 3 players, random: 3 games, engine: batch (NumPy)",
        "P, 3 players, heuristic: 3 games, engine: fast path",
        "P-UPCARD-INSTANT, 3 players, random: 3 games, engine: fast path (the batch engine "
        "does not play rules key 'instant_hands' = ['3x6 lose', '3xK win']: it plays [])",
        "P-UPCARD-INSTANT, 3 players, heuristic: 3 games, engine: fast path",
    ]
    assert notes(capsys, "P", 3, "random", engine="fast") == [
        "P, 3 players, random: 3 games, engine: fast path"
    ]
    assert notes(capsys, "P", 3, "random", decisions=True) == [
        "P, 3 players, random: 3 games, engine: fast path (the batch engine writes no "
        "decision rows)"
    ]
    assert notes(capsys, "P", 3, "random,random", engine="batch") == [
        "P, 3 players, random,random: 3 games, engine: batch (NumPy)"
    ]


@pytest.mark.parametrize(
    ("lineup", "options", "why"),
    [
        ("random,heuristic", {}, "line-ups of one random bot only"),
        ("random", {"rules": "P-UPCARD-INSTANT"}, "rules key 'instant_hands' = ['3x6 lose'"),
        ("random", {"decisions": True}, "writes no decision rows"),
    ],
)
def test_engine_batch_where_it_cannot_play_is_one_line(
    lineup: str, options: dict[str, object], why: str
) -> None:
    rules = options.pop("rules", "P")
    with pytest.raises(NinetyNineError) as e:
        simulate(rules, 3, lineup, games=3, engine="batch", **options)  # type: ignore[arg-type]
    text = str(e.value)
    assert text.startswith("--engine batch: ") and why in text and "\n" not in text
    with pytest.raises(NinetyNineError, match="engine 'numpy': expected auto, fast or batch"):
        simulate("P", 3, "random", games=3, engine="numpy")


def test_a_resumed_run_keeps_its_engines(tmp_path: Path) -> None:
    simulate("P", 3, "random", games=6, chunk=3, out=tmp_path, engine="fast")
    with pytest.raises(NinetyNineError, match="--resume: .* another config"):
        simulate("P", 3, "random", games=6, chunk=3, out=tmp_path, resume=True)


def blocked(out: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``ninetynine simulate`` of P, three random bots, with NumPy refused."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    return subprocess.run(
        [sys.executable, str(BLOCK), "numpy", "simulate", "--rules", "P", "--players", "3",
         "--bots", "random", "--games", "6", "--out", str(out), *args],
        capture_output=True, text=True, env=env, timeout=120,
    )  # fmt: skip


def test_without_numpy_auto_takes_the_fast_path(tmp_path: Path) -> None:
    done = blocked(tmp_path / "out")
    assert done.returncode == 0, done.stderr
    assert (
        "P, 3 players, random: 6 games, engine: fast path (the batch engine needs NumPy, of "
        """the rl extra: pip install "ninetynine[rl]" (no module 'numpy'))"""
    ) in done.stderr.splitlines()
    simulate("P", 3, "random", games=6, out=tmp_path / "with")  # on the batch engine
    elsewhere = blocked(tmp_path / "with", "--resume")
    assert elsewhere.returncode == 2 and "was played on other engines" in elsewhere.stderr
    refused = blocked(tmp_path / "refused", "--engine", "batch")
    assert refused.returncode == 2 and refused.stderr.count("\n") == 1
    assert refused.stderr.startswith(
        "ninetynine: error: --engine batch: P, 3 players, random: the batch engine needs NumPy"
    )


def z_score(a: list[float], b: list[float]) -> float:
    spread = math.sqrt(statistics.variance(a) / len(a) + statistics.variance(b) / len(b))
    return (statistics.fmean(a) - statistics.fmean(b)) / spread


def test_the_batch_engines_games_agree_with_the_fast_paths_in_distribution() -> None:
    """A few thousand games of each: game length, hands, the opener's (seat 0's) win rate,
    a hand's length, its loser's seat and how the lives were lost agree within 4 standard
    errors (a real difference of a tenth of a turn a hand would show; chance alone fails
    this about once in 15,000 runs of a figure)."""
    runs = {
        engine: simulate("K", 3, "random", games=2400, seed=5, chunk=1200, workers=1, engine=engine)
        for engine in ("batch", "fast")
    }
    assert [r.cells[0]["engine"] for r in runs.values()] == ["batch", "fast"]
    games = {e: r.game_rows() for e, r in runs.items()}
    hands = {e: r.hand_rows() for e, r in runs.items()}
    figures = {
        "turns": {e: [float(g.turns) for g in rows] for e, rows in games.items()},
        "hands": {e: [float(g.hands) for g in rows] for e, rows in games.items()},
        "seat 0 wins": {e: [float(0 in g.winners) for g in rows] for e, rows in games.items()},
        "hand turns": {e: [float(h.turns) for h in rows] for e, rows in hands.items()},
        "hand loser": {e: [float(h.loser) for h in rows] for e, rows in hands.items()},
        "laid down": {
            e: [float(sum(h.lost_cannot_play)) for h in rows] for e, rows in hands.items()
        },
        "ending rank": {e: [float(h.ending_rank) for h in rows] for e, rows in hands.items()},
    }
    for name, values in figures.items():
        z = z_score(values["batch"], values["fast"])
        assert abs(z) < 4, f"{name}: z = {z:.1f}"
