"""The --setup form: its fields become seats, and a bad field is shown, not lost."""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import Callable

import pytest
from textual.app import App
from textual.widgets import Input

from ninetynine.cli.play_cmd import add_arguments, setup_table
from ninetynine.session.table import SeatKind, Table
from ninetynine.tui.setup import Choices, SetupApp


def args(*words: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    return parser.parse_args(list(words))


def run_form(
    app: SetupApp, fill: dict[str, str], screen_text: Callable[[App[Table]], str]
) -> tuple[Table | None, str]:
    shown: list[str] = []

    async def go() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            for field, value in fill.items():
                app.query_one(f"#{field}", Input).value = value
            await pilot.click("#start")
            await pilot.pause()
            shown.append(screen_text(app))
            if app.is_running:
                await pilot.press("escape")

    asyncio.run(go())
    return app.return_value, shown[0]


def test_the_form_seats_you_the_other_people_and_bots(monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[Table] = []

    def fake_run(self: SetupApp) -> Table | None:
        async def go() -> None:
            async with self.run_test(size=(80, 24)) as pilot:
                await pilot.pause()
                self.query_one("#players", Input).value = "4"
                self.query_one("#name", Input).value = "Zoe"
                self.query_one("#people", Input).value = "Ann, Bea"
                await pilot.click("#start")
                await pilot.pause()

        asyncio.run(go())
        if self.return_value is not None:
            made.append(self.return_value)
        return self.return_value

    monkeypatch.setattr(SetupApp, "run", fake_run)
    table = setup_table(args("--seed", "3", "--bots", "random"))
    assert table is not None and made == [table]
    assert [s.name for s in table.seats][:3] == ["Zoe", "Ann", "Bea"]
    assert [s.kind for s in table.seats] == [SeatKind.HUMAN] * 3 + [SeatKind.BOT]
    assert table.seed == 3 and table.hot_seat


def test_a_bad_field_is_shown_on_the_form(screen_text: Callable[[App[Table]], str]) -> None:
    def build(c: Choices) -> Table:
        from ninetynine.cli.play_cmd import build_table

        return build_table(
            args("--rules", c.rules, "--players", str(c.players), "--bots", "random")
        )

    defaults = Choices(rules="K", players=4, name="Me", bots="easy", people=(), pace=0.0)
    table, text = run_form(SetupApp(build, defaults), {"players": "9"}, screen_text)
    assert table is None
    assert "9 players: K is for 2 to 6" in text


def test_the_form_in_german_with_its_error(screen_text: Callable[[App[Table]], str]) -> None:
    from ninetynine.language import Language, using

    defaults = Choices(rules="K", players=4, name="Me", bots="easy", people=(), pace=0.0)
    with using(Language.DE):  # as `play --setup --lang de` runs it
        app = SetupApp(lambda c: None, defaults)  # type: ignore[arg-type,return-value]
        table, text = run_form(app, {"pace": "bald"}, screen_text)
    assert table is None
    for words in ("Tisch einrichten", "Regelwerk", "Spieler (mit dir)", "Dein Name"):
        assert words in text, text
    assert "Spiel starten" in text and "Abbrechen" in text  # the button and the footer
    assert "pace: 'bald' ist keine Zahl" in text


def test_every_label_of_the_form_fits_its_column_in_every_language() -> None:
    from rich.cells import cell_len

    from ninetynine.language import Language, _, using

    labels = ["Rule set", "Players (you included)", "Your name", "Other people here", "Bots"]
    labels.append("Seconds per bot move")
    for lang in Language:
        with using(lang):
            assert all(cell_len(_(label)) <= 26 for label in labels), lang  # .row Label width
