"""A web table served by several processes at once (PostgreSQL): who is at the table at
the others, which process drives its bots and clocks (it holds the table's lease), and
the moves the others stored. With one process (SQLite) this process always drives."""

from __future__ import annotations

from collections.abc import Callable

from ninetynine.web.storage import Storage
from ninetynine.web.table.authority import Authority
from ninetynine.web.table.background import later
from ninetynine.web.table.clock import TurnClock
from ninetynine.web.table.fanout import Fanout
from ninetynine.web.table.seating import Seating


class Sharing:
    """This process's part in serving a table that other processes serve too."""

    def __init__(
        self,
        seating: Seating,
        fanout: Fanout,
        clock: TurnClock,
        authority: Authority,
        storage: Storage,
        *,
        kick: Callable[[], None],
    ) -> None:
        self.seating, self.fanout, self.clock, self.authority = seating, fanout, clock, authority
        self.storage = storage
        self.kick = kick  # let the bots move (they sit above the sharing)
        self.driving = not storage.shared
        self.wake: Callable[[], None] = lambda: None  # asks for a driver at once

    def publish_presence(self, seat: int | None) -> None:
        """Tell the others how many connections this seat (None: spectators) has here."""
        if self.storage.shared:
            self.wake()
            count = self.fanout.spectators if seat is None else self.seating.seats[seat].connections
            later(
                self.seating.id,
                self.storage.call(
                    self.storage.set_presence, self.seating.id, -1 if seat is None else seat, count
                ),
                "presence",
            )

    def presence_changed(self, elsewhere: dict[tuple[str, int], int]) -> None:
        """Who is at the table at the other processes (seat -1: spectators)."""
        if elsewhere != self.seating.elsewhere:
            self.seating.elsewhere = elsewhere
            self.fanout.broadcast([])
            self.kick()

    def set_driving(self, driving: bool) -> None:
        """This process holds (or lost) the right to move the table's bots and clocks."""
        if driving and not self.driving:
            self.clock.turn_started = self.clock.settings.clock()  # a new driver: a full turn
        self.driving = driving
        self.kick()

    def stored_move(self, index: int, text: str) -> None:
        """Another process stored move ``index``: play it here too (and any missed)."""
        authority = self.authority

        async def follow() -> None:
            async with authority.lock:
                if index == authority.version:
                    authority.play_stored([text])
                elif index > authority.version:
                    await authority.catch_up()

        later(self.seating.id, follow(), "following a move")
