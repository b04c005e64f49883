"""The bots at a web table: the bot seats' own bots, the stand-ins that play for absent or
timed-out people, and the pump that lets chance and bots move until a person is to play.

A bot sees only its seat's view (:meth:`~ninetynine.records.match.Match.view`, with the public
log) and thinks on the lobby's bot threads (theirs alone), within the server's time limit.
A bot that runs out of time is asked again with a quarter of the time, and if that runs
out too the takeover level plays that one move: being slow, which a busy server can cause,
never costs a seat its bot. A bot seat's bot that fails (crashes, answers garbage) is
replaced by the takeover level for good; a failing stand-in is started afresh on the next
try. The pump runs only at the driving process, while anybody is here (at a turn-based
table, whoever is here).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from concurrent.futures import Executor

from ninetynine.bots import Bot, BotFailure, ask, cap_time, close_bot, make_bot
from ninetynine.engine.actions import Action
from ninetynine.engine.view import View
from ninetynine.language import N_
from ninetynine.web.errors import ProtocolError
from ninetynine.web.settings import Settings
from ninetynine.web.table.authority import Authority
from ninetynine.web.table.clock import TurnClock
from ninetynine.web.table.fanout import Fanout
from ninetynine.web.table.seating import Seat, Seating
from ninetynine.web.table.sharing import Sharing

logger = logging.getLogger("ninetynine.web")


class Overloaded(BotFailure):
    """No bot answered in time, not even the takeover level: the server is too busy, which
    is never a seat's fault (its bot stays; the pump tries again on the next tick)."""


class TableBots:
    """Who plays by bot at one table, and the task that moves them."""

    def __init__(
        self,
        seating: Seating,
        fanout: Fanout,
        clock: TurnClock,
        authority: Authority,
        sharing: Sharing,
        settings: Settings,
    ) -> None:
        self.seating, self.fanout, self.clock = seating, fanout, clock
        self.authority, self.sharing, self.settings = authority, sharing, settings
        self.by_seat: dict[int, Bot] = {}  # the bot seats' bots
        self.stand_ins: dict[int, Bot] = {}  # takeover bots, by seat
        self.pool: Executor | None = None  # the lobby's bot threads (None: the default)
        self.rng: random.Random = random.SystemRandom()  # the bots' own generators' seeds
        # a seeded server's table: each decision's generator comes from this, the move's
        # number and the try (the seat's bot, the hurried one, the takeover), so the game
        # does not depend on how long any decision took
        self.seed: str | None = None
        self.complained = -1e9  # when a failing pump was last logged
        self._pump: asyncio.Task[None] | None = None

    def new_bot(self, level: str, seconds: float | None = None) -> Bot:
        """A bot of an offered level, told to answer within ``seconds`` (the limit)."""
        bot = make_bot(self.settings.bots[level])
        cap_time(bot, self.settings.limits.bot_seconds if seconds is None else seconds)
        return bot

    # The pump -----------------------------------------------------------------------

    @property
    def awake(self) -> bool:
        """The bots may move: somebody is at the table, or it is turn-based (its bots play
        at once, whoever is here)."""
        return self.fanout.attended or self.clock.turn_based

    def kick(self) -> None:
        """Let chance and bots move until a person is to play (while anybody is here, or at
        once at a turn-based table)."""
        if self.sharing.driving and self.awake and (self._pump is None or self._pump.done()):
            self._pump = asyncio.get_running_loop().create_task(self._run_pump())

    async def _run_pump(self) -> None:
        seating, authority = self.seating, self.authority
        while seating.started and not seating.finished and self.awake and self.sharing.driving:
            if authority.state.is_chance:
                async with authority.lock:
                    if authority.state.is_chance:
                        with contextlib.suppress(ProtocolError):
                            await authority.commit(None, authority.match.draw())
                continue
            seat = authority.state.current_seat
            if seat is None:
                return
            if self.clock.expired == authority.version:  # the turn clock ran out: a bot plays
                await self.bot_move(seat)
                continue
            if not seating.bot_plays(seat):
                return
            version = authority.version
            await asyncio.sleep(self.settings.bot_delay)
            if authority.version == version and seating.bot_plays(seat):
                await self.bot_move(seat)

    def pump_failed(self, now: float) -> bool:
        """The pump stopped on an error (e.g. the database refused a write): say so (now and
        then) and let the next kick try again. True if it had."""
        pump = self._pump
        if pump is None or not pump.done() or pump.cancelled() or not pump.exception():
            return False
        if now - self.complained > 30:
            self.complained = now
            logger.warning("table %s: %s", self.seating.id, pump.exception())
        self._pump = None
        return True

    async def bot_move(self, seat: int) -> None:
        """Has a bot make ``seat``'s (0-based) move: the seat's own bot or the stand-in; out of
        time, a fresh one with a quarter of the time, then the takeover level. The move is committed
        unless the game moved on or the person came back meanwhile. A seat's own bot that fails is
        replaced for good; any other failure raises :class:`BotFailure` (:class:`Overloaded`: no bot
        answered in time)."""
        authority = self.authority
        bot = self.by_seat.get(seat) or self.stand_in(seat)
        view = authority.match.view(seat)
        version = authority.version
        limit = self.settings.limits.bot_seconds
        level = self.seating.seats[seat].bot or self.settings.takeover_bot
        try:
            action = await self._think(bot, view, limit, 0)
            if action is None:  # out of time: once more in a hurry (a fresh bot: the
                action = await self._think_once(level, view, limit / 4, 1)  # first still thinks)
            if action is None:  # then the takeover level, this once
                takeover = self.settings.takeover_bot
                action = await self._think_once(takeover, view, limit, 2)
                if action is not None:
                    self.fanout.note(
                        seat,
                        "BotHurried",
                        N_("{who} ran out of time; {bot} played this move for it."),
                        who=self.seating.seats[seat].name,
                        bot=takeover,
                    )
            if action is None:
                raise Overloaded(
                    f"no bot answered within {limit:g} s (server limit "
                    "bot_seconds): the server is very busy"
                )
        except BotFailure as e:
            if seat in self.by_seat and not isinstance(e, Overloaded):
                await self.replace_bot(seat, e)  # the pump goes on with the new bot
                return
            if self.stand_ins.get(seat) is not bot and seat not in self.by_seat:
                return  # stopped while thinking: the person came back
            self.release_stand_in(seat)  # the next try starts a fresh one
            raise
        async with authority.lock:  # unless the game moved on or the person came back meanwhile
            if authority.version == version and bot in (
                self.by_seat.get(seat),
                self.stand_ins.get(seat),
            ):
                with contextlib.suppress(ProtocolError):  # (another process moved first)
                    await authority.commit(seat, action)

    async def _think_once(
        self, level: str, view: View, seconds: float, attempt: int
    ) -> Action | None:
        """The move of a fresh bot of ``level`` given ``seconds``, closed after."""
        bot = self.new_bot(level, seconds)
        try:
            return await self._think(bot, view, self.settings.limits.bot_seconds, attempt)
        finally:
            close_bot(bot)

    async def _think(self, bot: Bot, view: View, seconds: float, attempt: int) -> Action | None:
        """The bot's move (try number ``attempt`` at this move), asked on the bots'
        threads; None if it took over ``seconds`` (its thread goes on to the end of its own
        budget, its answer unused)."""
        thinking = asyncio.get_running_loop().run_in_executor(
            self.pool, ask, bot, view, self.generator(attempt)
        )
        try:
            return await asyncio.wait_for(thinking, seconds)
        except TimeoutError:
            logger.warning(
                "table %s: bot %r thought for more than %g s", self.seating.id, bot.name, seconds
            )
            return None

    def generator(self, attempt: int) -> random.Random:
        """The random generator of a decision: seeded by the system's, or on a seeded
        table by the seed, the number of moves played and ``attempt``."""
        if self.seed is None:
            return random.Random(self.rng.random())
        return random.Random(f"{self.seed}/{self.authority.version}/{attempt}")

    # Who plays by bot ---------------------------------------------------------------

    async def replace_bot(self, seat: int, error: BotFailure) -> None:
        """A seat's bot failed (crashed, hung, answered garbage): the takeover bot plays
        that seat from now on, so the game goes on, and everybody is told why."""
        seating = self.seating
        level = self.settings.takeover_bot
        seats = list(seating.seats)
        s = seats[seat] = Seat(seating.seats[seat].name, bot=level)
        await seating.change_meta(lambda: seating.meta_with(seats))
        close_bot(self.by_seat[seat])
        seating.seats[seat], self.by_seat[seat] = s, self.new_bot(level)
        self.fanout.note(
            seat,
            "BotReplaced",
            N_("{who} failed ({error}); {bot} plays this seat from now on."),
            who=s.name,
            error=str(error),
            bot=level,
        )

    def follow(self, changed: set[int]) -> None:
        """The seats changed at another process: start the bots of the seats whose level
        changed (in ``changed``), and stop the stand-ins of people no longer played for."""
        for i, s in enumerate(self.seating.seats):
            if i in changed:
                if i in self.by_seat:
                    close_bot(self.by_seat.pop(i))
                if s.bot:
                    self.by_seat[i] = self.new_bot(s.bot)
            if not s.takeover:
                self.release_stand_in(i)

    def stand_in(self, seat: int) -> Bot:
        """The takeover bot playing for a person, kept until they return (so a ``cmd:``
        bot is one process, not one per move)."""
        bot = self.stand_ins.get(seat)
        if bot is None:
            bot = self.stand_ins[seat] = self.new_bot(self.settings.takeover_bot)
        return bot

    def release_stand_in(self, seat: int) -> None:
        """Stops and forgets the stand-in playing for ``seat``, if there is one."""
        bot = self.stand_ins.pop(seat, None)
        if bot is not None:
            close_bot(bot)

    def close(self) -> None:
        """Stop the seats' process bots: the game is over or the server is stopping."""
        for bot in self.by_seat.values():
            close_bot(bot)
        for seat in list(self.stand_ins):
            self.release_stand_in(seat)
