"""The table screen: the total, the seats, the calls as they are made, and your hand.

It shows a :class:`~ninetynine.tui.scene.Scene` and reports what the person picks; the
app decides what happens next. Play and replay use the same screen.
"""

from __future__ import annotations

from typing import TypeVar

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.message import Message
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer, RichLog, Static

from ninetynine.language import _
from ninetynine.tui.scene import Scene
from ninetynine.tui.text import HandItem
from ninetynine.tui.widgets import CardItem, HandBar, SeatsPanel, TotalPanel

W = TypeVar("W", bound=Widget)


def _titled(widget: W, title: str) -> W:
    widget.border_title = title
    return widget


class GameScreen(Screen[None]):
    """The table screen, for play and replay: the title, the total and the seats, the calls as they
    are made, the coach's line and the hand. It shows a :class:`Scene` and posts :class:`Picked`;
    the app decides what happens next."""

    CSS = """
    GameScreen { layout: vertical; }
    #title { height: 1; padding: 0 1; background: $boost; text-style: bold; }
    #top { height: 9; }
    TotalPanel { width: 32; border: round $accent; padding: 0 1; }
    #total { width: auto; }
    SeatsPanel { width: 1fr; height: 9; border: round $accent; padding: 0 1; }
    #log { height: 1fr; border: round $secondary; padding: 0 1; scrollbar-size-vertical: 1; }
    HandBar { height: auto; max-height: 6; padding: 0 1; }
    #coach { height: auto; max-height: 3; padding: 0 1; color: $text-accent; display: none; }
    #coach.on { display: block; }
    #prompt { height: auto; max-height: 3; }  /* a long reason wraps, never cut */
    #cards { height: 3; }
    CardItem { width: auto; min-width: 7; height: 3; border: round $panel-lighten-2;
               padding: 0 1; margin-right: 1; }
    CardItem.legal { border: round $success; }
    CardItem.illegal { color: $text-muted; border: round $panel; }
    CardItem:focus { border: heavy $accent; }
    """

    class Picked(Message):
        """Posted when the person picks an item of the hand (a number key, or Enter or a click on a
        card); ``item`` is its :class:`HandItem`."""

        def __init__(self, item: HandItem) -> None:
            super().__init__()
            self.item = item

    def __init__(self, title: str) -> None:
        super().__init__()
        self.title_text = title
        self.items: list[HandItem] = []

    def compose(self) -> ComposeResult:
        """The title, the total and seats panels side by side, the calls log, the coach's line
        (hidden until :meth:`coach` shows it), the hand bar and the footer."""
        yield Static(self.title_text, id="title")
        with Horizontal(id="top"):
            yield _titled(TotalPanel(), _("Total"))
            yield _titled(SeatsPanel(), _("Seats"))
        log = RichLog(id="log", wrap=True, markup=False, auto_scroll=True)
        log.can_focus = False  # the arrow keys belong to the cards (and the replay steps)
        yield _titled(log, _("Calls"))
        yield Static(id="coach")
        yield HandBar()
        yield Footer()

    def show(self, scene: Scene) -> None:
        """Shows a scene on the panels and the hand bar, and keeps the hand's items for the number
        keys."""
        self.query_one(TotalPanel).show(scene)
        self.query_one(SeatsPanel).show(scene)
        self.items = self.query_one(HandBar).show(scene)

    def say(self, lines: list[str]) -> None:
        """Adds lines to the calls log."""
        log = self.query_one("#log", RichLog)
        for line in lines:
            log.write(line)

    def tell(self, text: str) -> None:
        """Say something to the person at the keyboard, in place of the prompt."""
        self.query_one("#prompt", Static).update(Text(text))

    def coach(self, text: str | None) -> None:
        """Show the coach's line (None hides it)."""
        panel = self.query_one("#coach", Static)
        panel.set_class(text is not None, "on")
        panel.update(Text(text or ""))

    def clear_log(self) -> None:
        """Empties the calls log (a rematch, a replay step)."""
        self.query_one("#log", RichLog).clear()

    def action_pick(self, number: int) -> None:
        """Posts :class:`Picked` for the hand's item ``number`` (from 1); a number past the hand
        does nothing."""
        if 1 <= number <= len(self.items):
            self.post_message(self.Picked(self.items[number - 1]))

    def on_card_item_chosen(self, message: CardItem.Chosen) -> None:
        """A card chosen by Enter or a click: posted on as :class:`Picked`."""
        message.stop()
        self.post_message(self.Picked(message.item))
