"""The turn keeper: a turn-based table's turns in the database, their deadlines kept, and
the "your turn" sent.

- After each move a process stores (:meth:`TurnKeeper.moved`), the table's new turn and its
  deadline are stored (a bot's turn, or a shuffle, is due at once).
- Every few ticks each process reads the unfinished tables whose turn is due
  (:meth:`TurnKeeper.sweep`) and loads those it does not have: loading a table starts its
  clock from the stored deadline, so the takeover of a missed clock (``TimedOut``) is
  played by whichever process drives the table, after a restart too, with nobody there.
- When a person's turn starts at a turn-based table, the account holding that seat is told
  (e-mail, where it gave an address and the operator set an SMTP server; the club's
  webhook, at a club's table), unless it unsubscribed from that channel or the seat is open
  at some browser right now (they see it). The turn's row in ``nn_turn_notices`` is made
  before anything is sent, by one process only: a turn is announced at most once, and a
  message that fails is logged, not sent again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import smtplib
import time
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

import httpx

from ninetynine.web.errors import ProtocolError
from ninetynine.web.settings import Settings
from ninetynine.web.storage import Storage, StorageError
from ninetynine.web.table.room import Table
from ninetynine.web.turns.links import unsubscribe_token
from ninetynine.web.turns.send import post_webhook, send_email
from ninetynine.web.turns.store import Channel, Turn, TurnStore
from ninetynine.web.wire import clock_text

logger = logging.getLogger("ninetynine.web")
DUE_AT_ONCE = 50  # due tables read per sweep


class TurnKeeper:
    """One process's part in keeping the turn-based tables' turns."""

    def __init__(
        self, storage: Storage, settings: Settings, load: Callable[[str], Awaitable[Table]]
    ) -> None:
        self.storage, self.settings, self.load = storage, settings, load
        self.store = TurnStore(storage)
        self.loaded: Callable[[str], bool] = lambda table_id: False  # in this process's memory
        self._key: str | None = None
        self._sending = asyncio.Semaphore(settings.limits.notices_at_once)
        self._tasks: set[asyncio.Task[None]] = set()

    async def key(self) -> str:
        """The key that signs the unsubscribe links (shared by every process)."""
        if self._key is None:
            self._key = await self.storage.call(self.store.secret, "unsubscribe")
        return self._key

    def link(self, path: str) -> str:
        """An absolute link to a path of this server (``serve --public-url``)."""
        return self.settings.public_url.rstrip("/") + path

    # Turns --------------------------------------------------------------------------

    def moved(self, table: Table) -> None:
        """A turn-based table's new turn (a move this process stored): stored, then
        announced to the account whose turn it is."""
        if table.finished:
            self._spawn(table.id, self.storage.call(self.store.forget, table.id))
            return
        deadline = table.clock.deadline
        if deadline is None:
            deadline = table.clock.deadline = table.clock.next_deadline()
        turn = Turn(table.id, table.version, table.state.current_seat, deadline)
        self._spawn(table.id, self._after_move(table, turn))

    async def restored(self, table: Table) -> None:
        """A turn-based table read back from the database: its clock runs from the stored
        deadline (a fresh turn where none is stored for its state)."""
        turn = await self.storage.call(self.store.turn, table.id)
        if turn is not None and turn.version == table.version:
            table.clock.deadline = turn.deadline
        else:
            table.clock.deadline = table.clock.next_deadline()
        table.kick()

    async def _after_move(self, table: Table, turn: Turn) -> None:
        await self.storage.call(self.store.set_turn, turn)
        seat = turn.seat
        if seat is None or table.seating.bot_plays(seat) or table.seating.connected(seat):
            return
        account = table.seats[seat].account
        if account is not None:
            await self.announce(table, turn, account)

    async def sweep(self) -> None:
        """Loads the unfinished tables whose turn is due that this process does not have."""
        due = await self.storage.call(self.store.due, self.settings.wall(), DUE_AT_ONCE)
        for table_id in due:
            if not self.loaded(table_id):
                with contextlib.suppress(ProtocolError):
                    await self.load(table_id)

    async def run_sweeps(self) -> None:
        """Calls :meth:`sweep` every eight ticks until cancelled."""
        while True:
            await asyncio.sleep(self.settings.tick * 8)
            try:
                await self.sweep()
            except StorageError as e:
                logger.warning("reading the turn-based tables that are due: %s", e)

    # "Your turn" --------------------------------------------------------------------

    async def announce(self, table: Table, turn: Turn, account: str) -> None:
        """Tells the account it is its turn, on each channel it has and did not turn off;
        once per turn, whichever process gets here first."""
        if not await self.storage.call(self.store.claim_notice, table.id, turn.version):
            return
        contact = await self.storage.call(self.store.contact, account)
        club = table.meta.get("club")
        hook = await self.storage.call(self.store.webhook, str(club)) if club else None
        key = await self.key()
        seat = table.seats[turn.seat or 0]
        others = ", ".join(s.name for i, s in enumerate(table.seats) if i != turn.seat)
        when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(turn.deadline))
        clock = clock_text(float(table.meta.get("clock") or 0))
        text = (
            f"Your turn, {seat.name}: {table.rules.name} with {others}. "
            f"Play by {when} (turn clock {clock}): {self.link('/t/' + table.id)}"
        )
        smtp = self.settings.smtp
        async with self._sending:
            if smtp is not None and contact.email is not None and contact.wants(Channel.EMAIL):
                stop = self.link("/u/" + unsubscribe_token(key, account, Channel.EMAIL))
                body = f"{text}\n\nNo more of these e-mails: {stop}\n"
                try:
                    await asyncio.to_thread(
                        send_email, smtp, contact.email, "Your turn at ninetynine", body, stop
                    )
                except (smtplib.SMTPException, OSError) as e:
                    logger.warning("table %s: the 'your turn' e-mail failed: %s", table.id, e)
            if hook is not None and contact.wants(Channel.WEBHOOK):
                stop = self.link("/u/" + unsubscribe_token(key, account, Channel.WEBHOOK))
                message = f"{text} (not for you, {seat.name}? {stop})"
                try:
                    await post_webhook(hook, message, self.settings.private_webhooks)
                except (httpx.HTTPError, ProtocolError) as e:
                    logger.warning("table %s: the club's webhook failed: %s", table.id, e)

    def _spawn(self, table_id: str, work: Coroutine[Any, Any, Any]) -> None:
        async def run() -> None:
            try:
                await work
            except (StorageError, ProtocolError) as e:
                logger.warning("table %s: keeping its turn: %s", table_id, e)

        task = asyncio.get_running_loop().create_task(run())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
