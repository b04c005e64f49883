"""``ninetynine play --setup``: choose the rule set, the seats and your name on a form.

The form fills in the same settings as the command-line flags; the ``build`` function it
is given checks them (and makes the table), so a mistake is shown on the form, not lost.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Footer, Input, Label, Select, Static

from ninetynine.errors import NinetyNineError
from ninetynine.language import N_, _
from ninetynine.rules.presets import presets
from ninetynine.session.table import Table
from ninetynine.tui.widgets import localize_bindings


@dataclass(frozen=True, slots=True)
class Choices:
    """What the set-up form holds: the rules (a preset id), the players (you included), your name,
    the bots' level, the other people at this keyboard and the seconds a bot waits before each
    move."""

    rules: str
    players: int
    name: str
    bots: str
    people: tuple[str, ...]  # other people at this keyboard
    pace: float

    def seat_words(self) -> list[str]:
        """The seats as ``--seats`` words: you, then the other people, then bots."""
        people = ["you", *(f"@{p}" for p in self.people)]
        return people + [self.bots] * max(0, self.players - len(people))


class SetupApp(App[Table]):
    """The set-up form. It exits with the table ``build`` makes from the form, or None when
    cancelled."""

    TITLE = "Ninety-Nine: set up a table"
    CSS = """
    Screen { align: center top; }
    #form { width: 78; height: auto; padding: 0 1; }
    .row { height: 1; margin-bottom: 1; }
    .row Label { width: 26; }
    .row Input, .row Select { width: 1fr; }
    #error { height: 2; color: $error; }
    """
    BINDINGS = [
        Binding("escape", "cancel", N_("Cancel")),
        Binding("ctrl+s", "start", N_("Start the game")),
    ]

    def __init__(self, build: Callable[[Choices], Table], defaults: Choices) -> None:
        super().__init__()
        localize_bindings(self)
        self.title = _("Ninety-Nine: set up a table")
        self.build, self.defaults = build, defaults

    def compose(self) -> ComposeResult:
        """The form: the rule set, the players, your name, the other people here, the bots' level,
        the seconds per bot move, a line for the error and the Start button."""
        d = self.defaults
        options = [(f"{p.id}: {p.name}", p.id) for p in presets().values()]
        with Vertical(id="form"):
            yield Static(
                "[b]"
                + _("Set up a table")
                + "[/b]  "
                + _("(Tab moves, Enter starts, Esc cancels)")
                + "\n"
            )
            yield from self._row(
                _("Rule set"),
                Select(options, value=d.rules, allow_blank=False, id="rules", compact=True),
            )
            yield from self._row(
                _("Players (you included)"),
                Input(str(d.players), id="players", type="integer", compact=True),
            )
            yield from self._row(_("Your name"), Input(d.name, id="name", compact=True))
            yield from self._row(
                _("Other people here"),
                Input(
                    ", ".join(d.people),
                    id="people",
                    compact=True,
                    placeholder=_("names, comma-separated (hot-seat)"),
                ),
            )
            yield from self._row(
                _("Bots"),
                Select(
                    [
                        (_("easy (beginner)"), "easy"),
                        (_("medium (heuristic)"), "medium"),
                        (_("hard (search)"), "hard"),
                    ],
                    value=d.bots if d.bots in ("easy", "medium", "hard") else "medium",
                    allow_blank=False,
                    id="bots",
                    compact=True,
                ),
            )
            yield from self._row(
                _("Seconds per bot move"),
                Input(str(d.pace), id="pace", type="number", compact=True),
            )
            yield Static(id="error")
            yield Button(_("Start the game"), id="start", variant="primary")
        yield Footer()

    @staticmethod
    def _row(label: str, field: Input | Select[str]) -> ComposeResult:
        with Horizontal(classes="row"):
            yield Label(label)
            yield field

    def choices(self) -> Choices:
        """What the form says now; raises with a one-line reason if a field is bad."""

        def number(field: str, kind: type[int] | type[float]) -> float:
            text = self.query_one(f"#{field}", Input).value.strip()
            try:
                return kind(text)
            except ValueError:
                raise NinetyNineError(
                    _("{field}: {text} is not a number").format(field=field, text=repr(text))
                ) from None

        rules = self.query_one("#rules", Select).value
        bots = self.query_one("#bots", Select).value
        people = tuple(
            p.strip() for p in self.query_one("#people", Input).value.split(",") if p.strip()
        )
        return Choices(
            rules=str(rules),
            players=int(number("players", int)),
            name=self.query_one("#name", Input).value.strip(),
            bots=str(bots),
            people=people,
            pace=number("pace", float),
        )

    def action_start(self) -> None:
        """Ctrl+S (and Enter, and the Start button): exits with the table ``build`` makes from the
        form, or shows on the form why it cannot."""
        try:
            table = self.build(self.choices())
        except NinetyNineError as e:
            self.query_one("#error", Static).update(Text(str(e)))
            return
        self.exit(table)

    def on_button_pressed(self) -> None:
        """The Start button: as Ctrl+S."""
        self.action_start()

    def on_input_submitted(self) -> None:
        """Enter in a field: as Ctrl+S."""
        self.action_start()

    def action_cancel(self) -> None:
        """Esc: exits with None (no game)."""
        self.exit(None)
