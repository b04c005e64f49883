"""``ninetynine replay FILE --step``: step through a record on the table screen.

A finished game has no secrets, so every hand is shown face up. One step is one player
move together with the shuffles it caused.
"""

from __future__ import annotations

from textual.app import App
from textual.binding import Binding

from ninetynine.engine.events import narrate
from ninetynine.language import N_, _
from ninetynine.records.match import steps
from ninetynine.records.record import Record
from ninetynine.tui.dialogs import HelpScreen
from ninetynine.tui.game_screen import GameScreen
from ninetynine.tui.scene import replay_scene
from ninetynine.tui.widgets import localize_bindings

LOG_LINES = 300  # the log shows the latest calls only, to keep stepping quick


class ReplayApp(App[None]):
    """``replay --step``: a record's steps on the table screen, every hand face up. → and ← step,
    Home and End jump to the ends, ? shows the rules, q quits."""

    TITLE = "Ninety-Nine replay"
    BINDINGS = [
        Binding("right,space,n", "go(1)", N_("Next")),
        Binding("left,p", "go(-1)", N_("Back")),
        Binding("home", "go_to(0)", N_("Start"), show=False),
        Binding("end", "go_to(-1)", N_("End"), show=False),
        Binding("question_mark,f1", "help", N_("Rules")),
        Binding("q,escape", "quit", N_("Quit")),
    ]

    def __init__(self, record: Record, names: list[str] | None = None) -> None:
        super().__init__()
        self.record = record
        self.names = names or record.names or [f"P{s + 1}" for s in range(record.start.n)]
        self.shots, self.events = steps(record)
        self.index = 0
        rules = record.start.rules
        localize_bindings(self)
        self.game = GameScreen(
            _("Replay · {id}: {name} · ←/→ step · q quit").format(id=rules.id, name=rules.name)
        )

    async def on_mount(self) -> None:
        """Shows the table screen at the first step."""
        await self.push_screen(self.game)
        self.show()

    def show(self) -> None:
        """Shows the current step: its scene, and the calls up to it (those of its last
        :data:`LOG_LINES` events)."""
        shot = self.shots[self.index]
        self.game.show(replay_scene(shot.state, self.names, self.index, len(self.shots) - 1))
        self.game.clear_log()
        start = max(0, shot.events - LOG_LINES)
        self.game.say(
            [
                line
                for e in self.events[start : shot.events]
                if (line := narrate(e, self.names, self.record.start.rules))
            ]
        )

    def action_go(self, delta: int) -> None:
        """→ or ←: ``delta`` steps on or back, stopping at the first and the last."""
        self.action_go_to(min(max(self.index + delta, 0), len(self.shots) - 1))

    def action_go_to(self, index: int) -> None:
        """Home or End: step ``index`` (from 0; -1 is the last)."""
        self.index = index % len(self.shots)
        self.show()

    def action_help(self) -> None:
        """? or F1: the rules help, unless it is open already."""
        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen(self.record.start.rules))


def run_replay(record: Record) -> int:
    """Steps through ``record`` on the full screen until the person quits. Returns 0."""
    ReplayApp(record).run()
    return 0
