"""Screens over the table: the hot-seat hand-off, the rules help, a card's value choice,
and the end of the game."""

from __future__ import annotations

from rich.markup import escape
from rich.table import Table as RichTable
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Static

from ninetynine.actions import Action
from ninetynine.describe import card_table, rules_text
from ninetynine.rules import Rules
from ninetynine.tui.text import card_name, choice_label

DIALOG_CSS = """
    #dialog { width: 64; height: auto; max-height: 22; border: thick $accent;
              background: $surface; padding: 1 2; }
    #dialog Horizontal { height: auto; margin-top: 1; }
    #dialog Button { margin-right: 2; }
"""


class HandoffScreen(Screen[int]):
    """Covers the whole table until the next person says they have the device."""

    CSS = """
    HandoffScreen { align: center middle; background: $background; }
    #pass { width: 60; height: auto; border: thick $accent; padding: 1 2;
            text-align: center; }
    """
    BINDINGS = [Binding("enter", "ready", "Ready"), Binding("q", "app.quit_game",
                                                                       "Save & quit")]

    def __init__(self, seat: int, name: str) -> None:
        super().__init__()
        self.seat, self.name_ = seat, name

    def compose(self) -> ComposeResult:
        with Vertical(id="pass"):
            name = escape(self.name_)
            yield Static(f"Pass the device to [b]{name}[/b].\n\n"
                         f"{name}: press Enter (or click) when nobody else can see "
                         "the screen.")
            yield Button(f"I am {self.name_}", id="ready", variant="primary")

    def action_ready(self) -> None:
        self.dismiss(self.seat)

    def on_button_pressed(self) -> None:
        self.dismiss(self.seat)


class HelpScreen(ModalScreen[None]):
    """The current rule set's rules and card effects, generated from the rules data."""

    CSS = """
    HelpScreen { align: center middle; }
    #help { width: 78; height: 22; border: thick $accent; background: $surface;
            padding: 0 1; }
    """
    BINDINGS = [Binding("escape,q,question_mark,f1", "close", "Close")]

    def __init__(self, rules: Rules) -> None:
        super().__init__()
        self.rules = rules

    def compose(self) -> ComposeResult:
        cards = RichTable(title="The cards at a glance", expand=False, show_edge=False)
        for col in ("Card", "Effect", "Say"):
            cards.add_column(col)
        for rank, effect, call in card_table(self.rules):
            cards.add_row(rank, effect, "" if call == "#" else call)
        with VerticalScroll(id="help"):
            yield Static(cards)
            yield Static("\n" + rules_text(self.rules), markup=False)
            yield Static("[dim]Esc or ? closes this help; ↑/↓ scroll.[/]")

    def action_close(self) -> None:
        self.dismiss(None)


class ChoiceScreen(ModalScreen[Action | None]):
    """Asks what a card with a choice (Ace 1/11, Ten +/-10) should count."""

    CSS = "ChoiceScreen { align: center middle; }" + DIALOG_CSS
    BINDINGS = [Binding("escape", "cancel", "Back"),
                *(Binding(str(k), f"pick({k})", show=False) for k in range(1, 5))]

    def __init__(self, card: int, choices: tuple[Action, ...], total: int) -> None:
        super().__init__()
        self.card, self.choices, self.total = card, choices, total

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(f"The {card_name(self.card)}: how much does it count? "
                         f"(the total is {self.total})")
            with Horizontal():
                for i, action in enumerate(self.choices, 1):
                    yield Button(f"{i}: {choice_label(action)}", id=f"choice-{i}")
            yield Static("[dim]Press a number, or Esc to choose another card.[/]")

    def action_pick(self, number: int) -> None:
        if 1 <= number <= len(self.choices):
            self.dismiss(self.choices[number - 1])

    def action_cancel(self) -> None:
        self.dismiss(None)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.action_pick(int((event.button.id or "choice-0").split("-")[1]))


class GameOverScreen(ModalScreen[str]):
    """The winner and a summary; returns "rematch" or "quit"."""

    CSS = "GameOverScreen { align: center middle; }" + DIALOG_CSS
    BINDINGS = [Binding("r", "choose('rematch')", "Rematch"),
                Binding("q,escape", "choose('quit')", "Quit")]

    def __init__(self, lines: list[str], saved: str | None) -> None:
        super().__init__()
        self.lines, self.saved = lines, saved

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static("[b]Game over[/b]\n")
            yield Static("\n".join(self.lines), markup=False)
            if self.saved:
                yield Static(f"\nThe record is saved in {self.saved}", markup=False)
            with Horizontal():
                yield Button("r: Rematch", id="rematch", variant="primary")
                yield Button("q: Quit", id="quit")

    def action_choose(self, what: str) -> None:
        self.dismiss(what)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id or "quit")
