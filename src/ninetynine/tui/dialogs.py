"""Screens over the table: the hot-seat hand-off, the rules help, a card's value choice,
and the end of the game."""

from __future__ import annotations

from collections.abc import Mapping

from rich.markup import escape
from rich.table import Table as RichTable
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Footer, Input, Static

from ninetynine.engine.actions import Action
from ninetynine.language import N_, _
from ninetynine.rules.describe import card_table, rules_text
from ninetynine.rules.settings import Rules
from ninetynine.tui.text import choice_question, choice_text, said_at, short_path
from ninetynine.tui.widgets import localize_bindings

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
    BINDINGS = [
        Binding("enter", "ready", N_("Ready")),
        Binding("q", "app.quit_game", N_("Save & quit")),
    ]

    def __init__(self, seat: int, name: str) -> None:
        super().__init__()
        localize_bindings(self)
        self.seat, self.name_ = seat, name

    def compose(self) -> ComposeResult:
        """The request to pass the device to the next person, and the button they press
        (``I am NAME``)."""
        with Vertical(id="pass"):
            name = escape(self.name_)
            yield Static(
                _("Pass the device to {name}.").format(name=f"[b]{name}[/b]")
                + "\n\n"
                + _("{name}: press Enter (or click) when nobody else can see the screen.").format(
                    name=name
                )
            )
            yield Button(_("I am {name}").format(name=self.name_), id="ready", variant="primary")

    def action_ready(self) -> None:
        """Enter: closes the screen with the seat (0-based) of the person who took the device."""
        self.dismiss(self.seat)

    def on_button_pressed(self) -> None:
        """The ``I am NAME`` button: as Enter."""
        self.dismiss(self.seat)


class HelpScreen(ModalScreen[None]):
    """The current rule set's rules and card effects, generated from the rules data."""

    CSS = """
    HelpScreen { align: center middle; }
    #help { width: 78; height: 22; border: thick $accent; background: $surface;
            padding: 0 1; }
    """
    BINDINGS = [Binding("escape,q,question_mark,f1", "close", N_("Close"))]

    def __init__(self, rules: Rules, total: int = 0) -> None:
        super().__init__()
        localize_bindings(self)
        self.rules = rules
        self.said = said_at(rules, total)  # the calls as said now: "back on you 57"

    def compose(self) -> ComposeResult:
        """The cards at a glance (each rank's effect and what is said, with the total of now in the
        calls), then the rules text, scrolling."""
        cards = RichTable(title=_("The cards at a glance"), expand=False, show_edge=False)
        for col in (_("Card"), _("Effect"), _("Say")):
            cards.add_column(col)
        for rank, effect, call in card_table(self.rules):
            # a call that is only the total ("#") says nothing more
            cards.add_row(rank, effect, "" if call == "#" else self.said.get(call, call))
        with VerticalScroll(id="help") as scroll:
            scroll.border_title = _("Rules · Esc, q or ? closes this help")
            yield Static("[dim]" + _("Esc, q or ? closes this help; ↑/↓ scroll.") + "[/]")
            yield Static(cards)
            text = rules_text(self.rules)
            for call, said in self.said.items():
                text = text.replace(f'"{call}"', f'"{said}"')
            yield Static("\n" + text, markup=False)
            yield Static("[dim]" + _("Esc or ? closes this help; ↑/↓ scroll.") + "[/]")

    def action_close(self) -> None:
        """Esc, q, ? or F1: closes the help."""
        self.dismiss(None)


class ChoiceScreen(ModalScreen[Action | None]):
    """Asks what a card with a choice should do: count (Ace 1/11, Ten +/-10), name who
    plays next (a Taiwanese Five), or set the total to (a chosen number)."""

    CSS = "ChoiceScreen { align: center middle; }" + DIALOG_CSS
    BINDINGS = [
        Binding("escape", "cancel", N_("Back")),
        *(Binding(str(k), f"pick({k})", show=False) for k in range(1, 10)),
    ]

    def __init__(
        self,
        card: int,
        choices: tuple[Action, ...],
        total: int,
        names: tuple[str, ...] = (),
        totals: Mapping[Action, int] | None = None,
        rules: Rules | None = None,
    ) -> None:
        super().__init__()
        localize_bindings(self)
        self.card, self.choices, self.total, self.names = card, choices, total, names
        self.rules = rules  # (a challenge card asks whom it challenges)
        self.totals = totals  # the total each choice makes, shown on its button
        self.typed = choices[0].to is not None  # a total to type, not a button to press

    def compose(self) -> ComposeResult:
        """The question, then one numbered button per choice (with the total it makes), or a field
        to type the total in where the card sets one."""
        with Vertical(id="dialog"):
            yield Static(
                choice_question(self.card, self.choices, self.total, self.rules), markup=False
            )
            if self.typed:
                yield Input(placeholder=_("a number"), type="integer", id="number")
                yield Static("", id="problem")
                yield Static(
                    "[dim]"
                    + _("Type the total and press Enter, or Esc to choose another card.")
                    + "[/]"
                )
                return
            with Horizontal():
                for i, action in enumerate(self.choices, 1):
                    yield Button(
                        f"{i}: {choice_text(action, self.names, self.totals)}", id=f"choice-{i}"
                    )
            yield Static("[dim]" + _("Press a number, or Esc to choose another card.") + "[/]")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """A typed total: closes with the action that sets it, or says which totals may be set and
        waits."""
        text = event.value.strip()
        for action in self.choices:
            if text.isdigit() and action.to == int(text):
                self.dismiss(action)
                return
        self.query_one("#problem", Static).update(
            _("{text} is not a total you may set: type a number from {low} to {high}.").format(
                text=text or _("Nothing"),
                low=min(a.to or 0 for a in self.choices),
                high=max(a.to or 0 for a in self.choices),
            )
        )

    def action_pick(self, number: int) -> None:
        """Keys 1 to 9: closes with choice ``number`` (from 1); ignored where a total is typed or
        past the last choice."""
        if not self.typed and 1 <= number <= len(self.choices):
            self.dismiss(self.choices[number - 1])

    def action_cancel(self) -> None:
        """Esc: closes with None, back to the hand."""
        self.dismiss(None)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """A choice's button: as its number key."""
        self.action_pick(int((event.button.id or "choice-0").split("-")[1]))


class GameOverScreen(ModalScreen[str]):
    """The winner and a summary; returns "rematch" or "quit"."""

    CSS = "GameOverScreen { align: center middle; }" + DIALOG_CSS
    BINDINGS = [
        Binding("r", "choose('rematch')", N_("Rematch")),
        Binding("q,escape", "choose('quit')", N_("Quit")),
    ]

    def __init__(self, lines: list[str], saved: str | None) -> None:
        super().__init__()
        localize_bindings(self)
        self.lines, self.saved = lines, saved

    def compose(self) -> ComposeResult:
        """The title "Game over", the summary lines, where the record was saved, the Rematch and
        Quit buttons, and this dialog's keys."""
        with Vertical(id="dialog"):
            yield Static("[b]" + _("Game over") + "[/b]\n")
            yield Static("\n".join(self.lines), markup=False)
            if self.saved:
                saved = _("The record is saved in {path}").format(path=short_path(self.saved))
                yield Static("\n" + saved, markup=False)
            with Horizontal():
                yield Button("r: " + _("Rematch"), id="rematch", variant="primary")
                yield Button("q: " + _("Quit"), id="quit")
        yield Footer()  # this dialog's keys, not the table's under it

    def action_choose(self, what: str) -> None:
        """r, or q and Esc: closes with ``what`` (``'rematch'`` or ``'quit'``)."""
        self.dismiss(what)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """A button: closes with its id (``'rematch'`` or ``'quit'``)."""
        self.dismiss(event.button.id or "quit")
