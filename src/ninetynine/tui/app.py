"""``ninetynine play``: the full-screen game. The app only connects the table screen to a
:class:`~ninetynine.session.table.Table`: it asks who must act, paces the bots, asks people for
their moves, and covers the screen between two people's turns."""

from __future__ import annotations

import contextlib
import contextvars
import threading
from collections.abc import Callable
from functools import partial

from textual.app import App
from textual.binding import Binding
from textual.timer import Timer

from ninetynine.coach.advice import PLAYOUTS, advise
from ninetynine.engine.actions import Action
from ninetynine.engine.events import Event
from ninetynine.engine.options import card_options
from ninetynine.engine.view import View
from ninetynine.errors import IllegalActionError, NinetyNineError
from ninetynine.language import N_, _
from ninetynine.launch import command
from ninetynine.session.table import Pending, Table, Waiting
from ninetynine.tui.dialogs import ChoiceScreen, GameOverScreen, HandoffScreen, HelpScreen
from ninetynine.tui.game_screen import GameScreen
from ninetynine.tui.scene import play_scene
from ninetynine.tui.text import Deck, action_label, coach_line
from ninetynine.tui.widgets import localize_bindings

Finisher = Callable[[Table], str | None]  # files a finished game; returns where


class PlayApp(App[None]):
    """``ninetynine play`` on the full screen: drives ``table`` through the table screen. ``finish``
    files a finished game and returns where; ``coach`` turns the coach on. :attr:`message` is what
    to print once the app has closed."""

    TITLE = "Ninety-Nine"
    BINDINGS = [
        *(
            Binding(str(k % 10), f"pick({k})", N_("Play a card"), show=k == 1, key_display="1-9")
            for k in range(1, 11)
        ),
        Binding("left", "focus_previous", N_("Previous"), show=False),
        Binding("right", "focus_next", N_("Next"), show=False),
        Binding("question_mark,f1", "help", N_("Rules")),
        Binding("q", "quit_game", N_("Save & quit")),
        Binding("f", "faster", N_("Bots faster")),
        Binding("c", "coach", N_("Coach")),
    ]

    def __init__(
        self,
        table: Table,
        *,
        finish: Finisher | None = None,
        coach: bool = False,
        deck: Deck = Deck.TWO,
    ) -> None:
        super().__init__()
        self.deck = deck  # how the suits are coloured
        self.table = table
        self.finish = finish
        if coach:
            table.coach = True
        self.coach_playouts = PLAYOUTS
        self._coached: tuple[int, int] | None = None  # (seat, move number) last asked
        self.message: str | None = None  # printed after the app closes
        self._bot_timer: Timer | None = None
        self._over_shown = False
        self.fast = False  # the person asked the bots to stop pausing
        localize_bindings(self)
        self.game = GameScreen(self._title())

    def _title(self) -> str:
        r = self.table.rules
        return _("Ninety-Nine · {id}: {name} · ? rules · q save & quit").format(
            id=r.id, name=r.name
        )

    async def on_mount(self) -> None:
        """Shows the table screen with the log so far and starts the game's flow."""
        await self.push_screen(self.game)
        self.game.say(self.table.lines(self.table.log))
        self.advance()

    @property
    def pace(self) -> float:
        """Seconds before each bot move: the table's pace, or 0 once the person asked for faster
        bots."""
        return 0.0 if self.fast else self.table.pace

    # The flow ---------------------------------------------------------------------

    def advance(self) -> None:
        """Show the table, then start whatever must happen next."""
        table = self.table
        self.game.show(play_scene(table, self.deck))
        self._coach()
        p = table.pending()
        if p.kind is Waiting.OVER:
            self._game_over()
        elif p.kind is Waiting.BOT:
            if self.pace > 0:
                if self._bot_timer is None:
                    self._bot_timer = self.set_timer(self.pace, self._bot_move)
            else:
                self._bot_move()
        elif p.kind is Waiting.HUMAN and table.needs_handoff():
            assert p.seat is not None
            if not isinstance(self.screen, HandoffScreen):
                self.push_screen(HandoffScreen(p.seat, table.names[p.seat]), self._handed_over)

    def _bot_move(self) -> None:
        self._bot_timer = None
        if self.pace > 0:  # think in the background, so keys (quit, help) still work
            # a daemon thread: quitting does not wait for a slow bot to finish thinking
            threading.Thread(target=self._think, args=(self.table,), daemon=True).start()
            return
        events: list[Event] = []
        try:  # with no pacing, play every bot move up to the next person's turn at once
            while self.table.pending().kind is Waiting.BOT:
                events += self.table.step_bot()
        except NinetyNineError as e:
            self._broken_bot(e)
            return
        self.game.say(self.table.lines(events))
        self.advance()

    def _think(self, table: Table) -> None:
        """In a thread: the bot reads only its view; the main thread plays the move."""
        try:
            seat, action = table.bot_choice()
        except Exception as e:  # any failure must reach the person, not hang the game
            error = (
                e
                if isinstance(e, NinetyNineError)
                else NinetyNineError(f"a bot failed: {type(e).__name__}: {e}")
            )
            self._deliver(self._bot_failed, table, error)
            return
        self._deliver(self._bot_chose, table, seat, action)

    def _deliver(self, callback: Callable[..., None], *args: object) -> None:
        with contextlib.suppress(RuntimeError):  # the app closed while the bot was thinking
            self.call_from_thread(callback, *args)

    def _bot_chose(self, table: Table, seat: int, action: Action) -> None:
        if (
            table is not self.table
            or not self.is_running
            or table.pending() != Pending(Waiting.BOT, seat)
        ):
            return  # a rematch or a quit came first
        try:
            events = table.play_bot(seat, action)
        except NinetyNineError as e:
            self._broken_bot(e)
            return
        self.game.say(table.lines(events))
        self.advance()

    def _bot_failed(self, table: Table, error: NinetyNineError) -> None:
        if table is self.table and self.is_running:  # not a bot stopped by a quit
            self._broken_bot(error)

    def _broken_bot(self, error: NinetyNineError) -> None:
        """A bot that fails stops the game (saved up to here) with its reason."""
        self.message = f"ninetynine: error: {error}"
        self.exit(return_code=2)

    # The coach ----------------------------------------------------------------------

    def _coach(self) -> None:
        """On the person's turn with the coach on, work out its figures in the background
        (from that seat's view only); otherwise hide them."""
        table, p = self.table, self.table.pending()
        if (
            not table.coach
            or p.kind is not Waiting.HUMAN
            or p.seat != table.viewer
            or p.seat is None
        ):
            self._coached = None
            self.game.coach(_("Coach: on (it speaks on your turn)") if table.coach else None)
            return
        key = (p.seat, table.match.version)
        if key == self._coached:
            return
        self._coached = key
        self.game.coach(_("Coach: thinking…"))
        view = table.view(p.seat)
        seed = table.match.version
        run = contextvars.copy_context().run  # the coach's line in the table's language
        args = (self._advise, table, key, view, seed)
        threading.Thread(target=run, args=args, daemon=True).start()

    def _advise(self, table: Table, key: tuple[int, int], view: View, seed: int) -> None:
        """In a thread: the coach reads the view it was given; the main thread shows it."""
        try:
            text = coach_line(
                advise(view, playouts=self.coach_playouts, seed=seed),
                partial(action_label, declining=view.may_decline),
            )
        except NinetyNineError as e:
            text = _("Coach: {why}").format(why=e)
        self._deliver(self._advised, table, key, text)

    def _advised(self, table: Table, key: tuple[int, int], text: str) -> None:
        if table is self.table and table.coach and self._coached == key:
            self.game.coach(text)

    def action_coach(self) -> None:
        """Key c: turns the coach on or off (saved with the game) and shows or hides its figures."""
        self.table.set_coach(not self.table.coach)  # (and saved with the game)
        self._coached = None
        self._coach()

    def _handed_over(self, seat: int | None) -> None:
        if seat is not None:
            self.table.reveal(seat)
        self.advance()

    def on_game_screen_picked(self, message: GameScreen.Picked) -> None:
        """An item of the hand picked: played, or a card with several plays asks which in a dialog.
        Refused with the reason when it is not this person's turn or the item may not be played
        now."""
        p = self.table.pending()
        if p.kind is not Waiting.HUMAN or p.seat != self.table.viewer:
            self.game.tell(_("Not your turn yet."))
            return
        choice = message.item
        if not choice.playable:
            self.game.tell(f"{choice.label} cannot be played now: {self._why_not(choice.card)}")
            return
        if len(choice.actions) > 1 and choice.card is not None:
            assert p.seat is not None
            totals = {a: t for o in card_options(self.table.state, p.seat) for a, t in o.plays}
            self.push_screen(
                ChoiceScreen(
                    choice.card,
                    choice.actions,
                    self.table.state.total,
                    tuple(self.table.names),
                    totals,
                    self.table.rules,
                ),
                self._chosen,
            )
            return
        self.play(choice.actions[0])

    def _why_not(self, card: int | None) -> str:
        """The engine's own reason, without its list of legal moves (the hand shows them)."""
        state = self.table.state
        if card is None:
            return _("that is not a move now")
        try:
            state.check(state.plays_of(card)[0])
        except IllegalActionError as e:
            return e.why
        return _("the rules do not allow it here")

    def _chosen(self, action: Action | None) -> None:
        if action is not None:
            self.play(action)

    def play(self, action: Action) -> None:
        """Plays the person's move and goes on, or shows why it was refused."""
        try:
            events = self.table.play(action)
        except NinetyNineError as e:
            self.game.tell(str(e))
            return
        self.game.say(self.table.lines(events))
        self.advance()

    def _game_over(self) -> None:
        if self._over_shown:
            return
        self._over_shown = True
        saved = self.finish(self.table) if self.finish else None
        self.push_screen(GameOverScreen(self.table.summary_lines(), saved), self._after_game)

    def _after_game(self, what: str | None) -> None:
        if what != "rematch":
            self.exit()
            return
        old, self.table = self.table, self.table.rematch()
        old.close()
        self._over_shown = False
        self.game.clear_log()
        self.game.say(["A new game with the same table."] + self.table.lines(self.table.log))
        self.advance()

    # Keys -------------------------------------------------------------------------

    def action_pick(self, number: int) -> None:
        """Keys 1 to 9, and 0 for the tenth: picks the hand's item ``number`` (from 1), on the table
        screen only."""
        if self.screen is self.game:  # not through a dialog
            self.game.action_pick(number)

    def action_help(self) -> None:
        """? or F1: the rules help, its calls said at the total of now."""
        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen(self.table.rules, self.table.state.total))

    def action_faster(self) -> None:
        """Bots move at once from now on (this sitting only: the save keeps its pace)."""
        self.fast = True
        if self._bot_timer is not None:
            self._bot_timer.stop()
            self._bot_move()
        # a bot already thinking in the background plays on, then the rest follow at once

    def action_quit_game(self) -> None:
        """Key q: closes the app; while the game goes on, :attr:`message` is the command that
        resumes it (the table's ``on_move`` has saved it already)."""
        if not self.table.state.is_over:
            self.message = _("Game saved. Resume it with: {command}").format(
                command=command("play --resume")
            )
        self.exit()

    def on_unmount(self) -> None:
        """However the app ends, stops the table's process bots."""
        self.table.close()  # however the app ends (quit, a failed bot, ctrl+c), no bot outlives it
