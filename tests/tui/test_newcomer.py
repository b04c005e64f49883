"""What a newcomer reads at the full-screen table (issue 24, item 8), read off the screen
that Textual's pilot draws at 80x24."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from ninetynine import load_rules
from ninetynine.records.position import position_from_mapping
from ninetynine.records.record import Record
from ninetynine.session.saves import autosave, finish, load_save
from ninetynine.session.table import Pending, Seat, SeatKind, Table, Waiting
from ninetynine.tui.app import PlayApp
from ninetynine.tui.dialogs import ChoiceScreen, GameOverScreen, HelpScreen

ScreenText = Callable[[PlayApp], str]


def at(position: dict[str, Any], rules: str = "P") -> Table:
    """Ann (the person) and a bot at a written position, Ann to play."""
    state = position_from_mapping({"rules": rules, **position})
    table = Table.resume(
        Record(state, [], from_position=True),
        [Seat("Ann"), Seat("Bo", SeatKind.BOT, "random")],
        seed=1,
    )
    table.on_move = autosave
    return table


def run(app: PlayApp, script: Callable[[Pilot[None]], Awaitable[None]]) -> None:
    async def go() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await script(pilot)

    asyncio.run(go())


def flat(text: str) -> str:
    """The screen's words in one line, as a person reads a wrapped text."""
    return " ".join(text.replace("│", " ").split())


def dialog(text: str) -> str:
    """The words inside the dialog over the table (between its █ edges), in one line."""
    return flat(" ".join(line.split("█")[1] for line in text.splitlines() if line.count("█") >= 2))


def test_a_long_prompt_wraps_instead_of_being_cut(screen_text: ScreenText) -> None:
    table = at({"total": 95, "hands": ["QS JS 8D", "2C 3C 4C"]})
    app = PlayApp(table)
    prompt = (
        "You cannot play: 8♦, J♠ and Q♠ would take the total over 99. You lay down "
        "your hand and lose a penny. (press 1-4 or click)"
    )

    async def script(pilot: Pilot[None]) -> None:
        text = screen_text(app)
        assert prompt in flat(text), text
        assert max(len(line) for line in text.splitlines()) <= 80

    run(app, script)


@pytest.mark.parametrize(
    "card, name, buttons",
    [
        ("AS", "Ace", ["1: +1 → 61", "2: +11 → 71"]),
        ("10S", "Ten", ["1: -10 → 50", "2: +10 → 70"]),
    ],
)
def test_a_card_with_a_choice_shows_the_total_each_choice_makes(
    screen_text: ScreenText, card: str, name: str, buttons: list[str]
) -> None:
    table = at({"total": 60, "hands": ["AS 10S 2C", "2D 3C 4C"]})
    app = PlayApp(table)

    async def script(pilot: Pilot[None]) -> None:
        number = next(
            i
            for i, item in enumerate(app.game.items, 1)
            if item.card is not None and item.label.startswith(card[:-1])
        )
        await pilot.press(str(number))
        await pilot.pause()
        assert isinstance(app.screen, ChoiceScreen)
        await pilot.pause(0.05)  # the dialog's first full frame
        text = screen_text(app)
        assert f"The {name} of Spades: how much does it count? (the total is 60)" in dialog(text)
        for button in buttons:
            assert button in text, text

    run(app, script)


def test_the_coach_setting_is_kept_with_the_save(screen_text: ScreenText) -> None:
    table = Table.new(load_rules("P"), [Seat("Ann"), Seat("Bo", SeatKind.BOT, "random")], seed=2)
    table.on_move = autosave
    app = PlayApp(table)
    app.coach_playouts = 20

    async def script(pilot: Pilot[None]) -> None:
        await pilot.press("c")
        await pilot.pause()
        await pilot.press("q")

    run(app, script)
    resumed = load_save()
    assert resumed.coach
    resumed.on_move = autosave  # as play --resume sets it
    again = PlayApp(resumed)  # no coach flag: the save turns it on
    again.coach_playouts = 20
    seen: list[str] = []

    async def look(pilot: Pilot[None]) -> None:
        for _ in range(200):  # the coach thinks in the background
            await pilot.pause(0.02)
            if "Coach (chance of losing" in screen_text(again):
                break
        seen.append(screen_text(again))
        await pilot.press("c")  # off again, and saved so
        await pilot.pause()

    run(again, look)
    assert "Coach (chance of losing the hand/game)" in seen[0]
    assert not load_save().coach


def test_game_over_has_its_own_keys_and_a_short_path(
    home: Path, screen_text: ScreenText, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(home.parent))  # the save folder is under ~
    table = at({"total": 95, "hands": ["QS JS 8D", "2C 3C 4C"], "lives": [1, 1]}, "P")
    app = PlayApp(table, finish=lambda t: str(finish(t)))

    async def script(pilot: Pilot[None]) -> None:
        assert table.pending() == Pending(Waiting.HUMAN, 0)
        await pilot.press("4")  # lay down: the last penny, the game
        for _ in range(100):
            await pilot.pause(0.02)
            if isinstance(app.screen, GameOverScreen):
                break
        text = screen_text(app)
        saved = next((home / "games").iterdir())
        assert f"The record is saved in ~/home/games/{saved.name}" in text, text
        assert text.splitlines()[-1].split() == ["r", "Rematch", "q", "Quit"]
        assert "Play a card" not in text and "Save & quit" not in text

    run(app, script)


def test_a_long_path_is_cut_at_the_front() -> None:
    from ninetynine.tui.text import short_path

    path = "/var/" + "x" * 30 + "/" + "y" * 20 + "/games/20261201-101010-P.toml"
    assert short_path(path) == f"…/{'y' * 20}/games/20261201-101010-P.toml"
    assert short_path(Path.home() / "g.toml") == "~/g.toml"


def test_the_seats_show_the_dealer_when_the_dealer_is_to_play(screen_text: ScreenText) -> None:
    table = at({"total": 10, "hands": ["2S 3S 4S", "2D 3C 4C"], "dealer": 1})
    app = PlayApp(table)

    async def script(pilot: Pilot[None]) -> None:
        text = screen_text(app)
        assert table.state.dealer == 0 and table.state.current_seat == 0
        assert "▶D Ann" in text, text

    run(app, script)


def test_help_says_how_to_close_it_first_and_shows_the_calls_at_the_total(
    screen_text: ScreenText,
) -> None:
    table = at({"total": 57, "hands": ["2S 3S 4S", "2D 3C 4C"]})
    app = PlayApp(table)

    async def script(pilot: Pilot[None]) -> None:
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        text = screen_text(app)
        lines = text.splitlines()
        top = next(i for i, line in enumerate(lines) if "closes this help" in line)
        assert top < next(i for i, line in enumerate(lines) if "The cards at a glance" in line)
        assert "Esc, q or ? closes this help" in lines[top]
        assert "back on you 57" in text and "#" not in text
        for _ in range(8):  # the rules text below the table: its calls are said too
            await pilot.press("pagedown")
            await pilot.pause()
            text = screen_text(app)
            assert "#" not in text, text
            if 'say "back on you 57"' in flat(text):
                break
        else:
            raise AssertionError("the rules text never said 'back on you 57'")

    run(app, script)


def test_each_call_is_said_with_the_total_its_card_makes() -> None:
    from ninetynine import load_rules
    from ninetynine.tui.text import said_at

    rules = load_rules(
        {"preset": "P", "rules": {"calls": {"7": "seven up to {total}", "K": "top at {total}"}}}
    )
    said = said_at(rules, 50)
    assert said["seven up to #"] == "seven up to 57" and said["top at #"] == "top at 99"
    assert said["back on you #"] == "back on you 50"  # the Four holds
    assert said["# — bust"] == "100 — bust"
