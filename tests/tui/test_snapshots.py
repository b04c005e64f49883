"""The screen, character for character, at fixed seeds and 80x24.

The expected screens are text files in ``snapshots/``. After a deliberate change to the
look, regenerate them with ``NINETYNINE_UPDATE_SNAPSHOTS=1 pytest tests/tui`` and review
the diff."""

from __future__ import annotations

import asyncio
import os
import random
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from textual.app import App
from textual.pilot import Pilot

from ninetynine import load_rules
from ninetynine.engine.actions import Shuffle
from ninetynine.engine.game import new_game
from ninetynine.records.record import Record, parse_record
from ninetynine.session.table import Seat, SeatKind, Table
from ninetynine.tui.app import PlayApp
from ninetynine.tui.replay import ReplayApp

HERE = Path(__file__).parent / "snapshots"
Script = Callable[[Pilot[None]], Awaitable[None]]


def table(rules: str = "P", seats: list[Seat] | None = None, seed: int = 7) -> Table:
    """A table whose first deal is written out, so the screens do not depend on how the
    engine samples a shuffle (later shuffles and the bots still follow the seed)."""
    seats = seats or [
        Seat("Ann"),
        Seat("Bo", SeatKind.BOT, "random"),
        Seat("Cy", SeatKind.BOT, "random"),
        Seat("Di", SeatKind.BOT, "random"),
    ]
    start = new_game(load_rules(rules), len(seats))
    deck = sorted(start.stock)
    random.Random(seed).shuffle(deck)
    return Table.resume(Record(start, [(None, Shuffle(tuple(deck)))]), seats, seed=seed)


def check(
    name: str, app: App[None], script: Script | None, screen_text: Callable[[App[None]], str]
) -> None:
    shots: list[str] = []

    async def go() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            if script:
                await script(pilot)
            await pilot.pause()
            shots.append(screen_text(app))

    asyncio.run(go())
    path = HERE / f"{name}.txt"
    if os.environ.get("NINETYNINE_UPDATE_SNAPSHOTS"):
        path.parent.mkdir(exist_ok=True)
        path.write_text(shots[0] + "\n", encoding="utf-8")
    if not path.exists():
        pytest.fail(f"no snapshot {path}: run with NINETYNINE_UPDATE_SNAPSHOTS=1 to create it")
    assert shots[0] + "\n" == path.read_text(encoding="utf-8")


async def press(pilot: Pilot[None], *keys: str) -> None:
    for key in keys:
        await pilot.press(key)
        await pilot.pause()


def test_table_at_the_start(screen_text: Callable[[App[None]], str]) -> None:
    check("table_start", PlayApp(table()), None, screen_text)


def test_table_after_a_round_of_calls(screen_text: Callable[[App[None]], str]) -> None:
    check("table_after_moves", PlayApp(table()), lambda p: press(p, "1", "1"), screen_text)


def test_help_screen(screen_text: Callable[[App[None]], str]) -> None:
    check("help", PlayApp(table(rules="K")), lambda p: press(p, "question_mark"), screen_text)


def test_hand_off_screen(screen_text: Callable[[App[None]], str]) -> None:
    seats = [Seat("Ann"), Seat("Bea"), Seat("Bo", SeatKind.BOT, "random")]
    check("handoff", PlayApp(table(seats=seats)), None, screen_text)


def test_game_over_screen(
    screen_text: Callable[[App[None]], str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # the dialog shows the record's path: a home of fixed length (pytest's numbered tmp
    # folders grow a digit now and then)
    monkeypatch.setenv("NINETYNINE_HOME", tempfile.mkdtemp(prefix="nn-snap-"))
    t = table(rules="K", seats=[Seat("Ann"), Seat("Bo", SeatKind.BOT, "random")], seed=2)

    async def to_the_end(pilot: Pilot[None]) -> None:
        for _ in range(300):
            if t.state.is_over:
                return
            app = pilot.app
            assert isinstance(app, PlayApp)
            n = next(i for i, it in enumerate(app.game.items, 1) if it.playable)
            await press(pilot, str(n))
            if len(pilot.app.screen_stack) > 2:  # a value choice
                await press(pilot, "1")

    check("game_over", PlayApp(t), to_the_end, screen_text)


def test_replay_view(screen_text: Callable[[App[None]], str]) -> None:
    t = table(rules="K", seed=3)
    for _ in range(12):
        t.play(t.view(0).legal[0]) if t.pending().kind == "human" else t.step_bot()
    from ninetynine.records.record import format_record

    record = parse_record(format_record(t.record))
    check("replay", ReplayApp(record), lambda p: press(p, "right", "right", "right"), screen_text)


def test_replay_steps_forward_and_back_and_cli_step_opens_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    t = table(rules="K", seed=3)
    while not t.state.is_over:
        t.play(t.view(0).legal[0]) if t.pending().kind == "human" else t.step_bot()
    from ninetynine.records.record import format_record

    text = format_record(t.record, t.state)
    app = ReplayApp(parse_record(text))

    async def go() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await press(pilot, "right", "right")
            assert app.index == 2
            await press(pilot, "left")
            assert app.index == 1
            await press(pilot, "end")
            assert app.shots[app.index].state == t.state
            await press(pilot, "home")
            assert app.index == 0

    asyncio.run(go())
    # `ninetynine replay FILE --step` hands the record to the replay app
    import ninetynine.tui.replay as replay_module
    from ninetynine.cli.main import main

    got = []
    monkeypatch.setattr(replay_module, "run_replay", lambda record: got.append(record) or 0)
    path = tmp_path / "game.toml"
    path.write_text(text)
    assert main(["replay", str(path), "--step"]) == 0
    assert len(got) == 1 and len(got[0].moves) == len(t.record.moves)


def test_ten_seats_fit_in_two_columns(screen_text: Callable[[App[None]], str]) -> None:
    from ninetynine.session.table import parse_seats

    seats = parse_seats(None, players=10, bots=["random"], name="Ann")
    check("table_ten_seats", PlayApp(table(seats=seats)), None, screen_text)
