"""The four-colour deck (``play --deck four-colour``): diamonds blue and clubs green on the
full-screen table, besides hearts red; the usual deck keeps two colours."""

from __future__ import annotations

import asyncio

import pytest

from ninetynine import load_rules
from ninetynine.cli.main import main
from ninetynine.rules.cards import parse_card
from ninetynine.session.table import Seat, SeatKind, Table
from ninetynine.tui.app import PlayApp
from ninetynine.tui.text import Deck, card_markup
from ninetynine.tui.widgets import CardItem


def test_each_suit_has_its_colour_in_the_four_colour_deck() -> None:
    styles = {s: card_markup(parse_card(f"7{s}"), Deck.FOUR) for s in "SHDC"}
    assert styles == {"S": "[bold]7♠[/]", "H": "[bold red]7♥[/]", "D": "[bold blue]7♦[/]",
                      "C": "[bold green]7♣[/]"}  # fmt: skip
    assert card_markup(parse_card("7D")) == "[bold red]7♦[/]"  # two colours by default
    assert card_markup(parse_card("7C")) == "[bold]7♣[/]"


def _hand_styles(deck: Deck) -> dict[str, str]:
    """The cards of the hand bar as the person sees them: label -> the card's style."""
    seats = [Seat("Me"), Seat("B", SeatKind.BOT, "random"), Seat("C", SeatKind.BOT, "random")]
    app = PlayApp(Table.new(load_rules("K"), seats, seed=4), deck=deck)
    seen: dict[str, str] = {}

    async def go() -> None:
        async with app.run_test(size=(100, 40)) as pilot:
            await pilot.pause()
            for item in app.screen.query(CardItem):
                content = item.render()
                card = str(content)[2:]
                seen[card] = next(str(s.style) for s in content.spans if s.start == 2)

    asyncio.run(go())
    return seen


def test_the_hand_shows_diamonds_blue_only_with_the_four_colour_deck() -> None:
    four, two = _hand_styles(Deck.FOUR), _hand_styles(Deck.TWO)
    assert four == {"3♠": "bold", "J♠": "bold", "J♦": "bold blue"}
    assert two == {"3♠": "bold", "J♠": "bold", "J♦": "bold red"}


def test_an_unknown_deck_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["play", "--deck", "three-colour"])
    err = capsys.readouterr().err
    assert "--deck: invalid choice: 'three-colour'" in err and "four-colour" in err
