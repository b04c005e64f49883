"""The pieces of the table screen: the total, the seats, the hand and its cards."""

from __future__ import annotations

import dataclasses

from rich.markup import escape
from rich.table import Table as RichTable
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.dom import DOMNode
from textual.message import Message
from textual.widgets import Digits, Static

from ninetynine.engine.view import View
from ninetynine.language import N_, _, cells, ngettext, pad_left, pad_right
from ninetynine.rules.settings import Scoring
from ninetynine.tui.scene import Scene
from ninetynine.tui.text import (
    Deck,
    HandItem,
    card_markup,
    direction_text,
    hand_items,
    lives_text,
    seat_status,
)


class TotalPanel(Vertical):
    """The running total, large, with the direction, whose turn, the pile and the stock."""

    def compose(self) -> ComposeResult:
        """The large total (``#total``) and the lines of facts under it (``#facts``)."""
        yield Digits("0", id="total")
        yield Static(id="facts")

    def show(self, scene: Scene) -> None:
        """Shows the scene's total, the direction, whose turn it is, the pile's top card, the
        stock's size, the hand number and the rules' id and limit."""
        v = scene.view
        self.query_one("#total", Digits).update(str(v.total))
        turn = (
            _("{name} to play").format(name=f"[b]{escape(scene.names[v.turn])}[/b]")
            if v.turn is not None
            else "—"
        )
        top = card_markup(v.pile_top, scene.deck) if v.pile_top is not None else _("none")
        pile = _("Pile {card}   Stock {n}").format(card=top, n=v.stock_size)
        hand = _("Hand {n} · {rules}, limit {limit}").format(
            n=v.hand_no, rules=v.rules.id, limit=v.rules.limit
        )
        self.query_one("#facts", Static).update(
            f"{direction_text(v.direction)}\n{turn}\n{pile}\n{hand}"
        )


class SeatsPanel(Static):
    """Every seat: whose turn (▶), the dealer (D), lives, cards in hand, who is out."""

    def on_mount(self) -> None:
        """Puts the key to the markers (▶ to play, D deals) on the border."""
        self.border_subtitle = _("▶ to play · D deals")

    ROWS = 7  # inside the border; bigger tables get two seats a row

    def show(self, scene: Scene) -> None:
        """One row per seat: its marker, name, lives, and cards in hand or status, and in a replay
        its cards face up. A table of more than :attr:`ROWS` seats (outside a replay) gets two
        shortened seats a row."""
        v = scene.view
        if v.players > self.ROWS and scene.face_up is None:
            self.update(self._compact(scene))
            return
        table = RichTable.grid(padding=(0, 1))
        for _col in range(4 if scene.face_up is None else 5):
            table.add_column()
        for s in range(v.players):
            row = [
                Text(_marker(v, s), style="bold"),
                Text(scene.names[s][:20], style=_style(v, s)),
                Text(lives_text(v.rules, v, s)),
                Text(seat_status(v, s) or _cards(v.hand_sizes[s])),
            ]
            if scene.face_up is not None:
                faces = " ".join(card_markup(c, scene.deck) for c in scene.face_up[s])
                row.append(Text.from_markup(faces))
            table.add_row(*row)
        self.update(table)

    def _compact(self, scene: Scene) -> RichTable:
        v = scene.view
        table = RichTable.grid(padding=(0, 1))
        for _col in range(2):
            table.add_column()
        seats = []
        for s in range(v.players):
            lives = (
                f"{v.points[s]}pt" if v.rules.scoring is Scoring.GAME_POINTS else f"{v.lives[s]}♥"
            )
            status = seat_status(v, s) or f"{v.hand_sizes[s]}c"
            seats.append(
                Text(
                    f"{_marker(v, s)} {pad_right(_cut(scene.names[s], 11), 11)} "
                    f"{pad_left(lives, 3)} {status}",
                    style=_style(v, s),
                )
            )
        half = (len(seats) + 1) // 2
        for left, right in zip(seats[:half], seats[half:] + [Text("")], strict=False):
            table.add_row(left, right)
        return table


def _cards(n: int) -> str:
    return ngettext("{n} card", "{n} cards", n).format(n=n)


def _cut(text: str, width: int) -> str:
    """``text`` cut to at most ``width`` terminal cells (a wide character takes two)."""
    while cells(text) > width:
        text = text[:-1]
    return text


def localize_bindings(node: DOMNode) -> None:
    """Gives ``node``'s bindings their descriptions in the current language (the class's
    are English, made at import): what the footer shows. Each node holds its own copy of
    its class's bindings, so only this node changes."""
    table = node._bindings.key_to_bindings
    for key, bindings in table.items():
        table[key] = [
            dataclasses.replace(b, description=_(b.description)) if b.description else b
            for b in bindings
        ]


def _marker(v: View, seat: int) -> str:
    """``▶`` for the seat to play, ``D`` for the dealer: both, ``▶D``, when the dealer plays."""
    dealer = v.rules.dealer and v.dealer == seat  # (G has no dealer)
    return ("▶" if v.turn == seat else " ") + ("D" if dealer else " ")


def _style(v: View, seat: int) -> str:
    return "dim" if not v.in_hand[seat] else ("bold" if v.turn == seat else "")


class CardItem(Static, can_focus=True):
    """One card (or lone action) of the hand; Enter or a click chooses it."""

    BINDINGS = [Binding("enter", "choose", N_("Play"), show=False)]

    class Chosen(Message):
        """Posted when the item is chosen (Enter or a click); ``item`` is its :class:`HandItem`."""

        def __init__(self, item: HandItem) -> None:
            super().__init__()
            self.item = item

    def __init__(self, index: int, item: HandItem, active: bool, deck: Deck = Deck.TWO) -> None:
        label = card_markup(item.card, deck) if item.card is not None else item.label
        # a mark besides the colour, for terminals without colour
        key = ("✗" if active else " ") if not item.playable else f"{index % 10}"
        label = label if item.card is not None else escape(label)
        super().__init__(
            f"[dim]{key}[/] {label}",
            classes="legal" if item.playable else "idle" if not active else "illegal",
        )
        self.item = item

    def action_choose(self) -> None:
        """Enter: posts :class:`Chosen` for this item."""
        self.post_message(self.Chosen(self.item))

    def on_click(self) -> None:
        """A click: posts :class:`Chosen` for this item."""
        self.post_message(self.Chosen(self.item))


class HandBar(Vertical):
    """The prompt, and the hand of the person at the screen (and nothing else)."""

    def compose(self) -> ComposeResult:
        """The prompt line (``#prompt``) and the row of cards (``#cards``)."""
        yield Static(id="prompt")
        yield Horizontal(id="cards")

    def show(self, scene: Scene) -> list[HandItem]:
        """Shows the scene's prompt and, where the scene shows the hand, one :class:`CardItem` per
        card and lone action, keyed 1 to 9 then 0 (the unplayable ones marked). Returns those items
        in order, or none when the hand is hidden."""
        self.query_one("#prompt", Static).update(Text(scene.prompt))
        row = self.query_one("#cards", Horizontal)
        for old in row.query(CardItem):
            # leaving: a dialog closing now (rematch, an Ace's value) re-focuses the screen
            # before the removal ends; focus on a removed card would take the keys with it
            old.can_focus = False
        row.remove_children()
        if not scene.show_hand:
            return []
        items = hand_items(scene.view.hand, scene.legal, scene.view.may_decline)
        row.mount_all(
            CardItem(i, item, bool(scene.legal), scene.deck) for i, item in enumerate(items, 1)
        )
        return items
