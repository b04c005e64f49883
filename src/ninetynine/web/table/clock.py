"""A web table's clocks: the turn clock (a person who runs out of time has a bot play that
turn) and the grace period (a player away longer has a bot play for them until they
come back). Only the process driving the table runs them (:meth:`TurnClock.tick`).

A turn-based table (its metadata's ``turn_based``) has a turn clock of hours or days that
runs on the wall clock whether or not anybody is here, with a deadline that is stored
(:mod:`ninetynine.web.turns`), so that a restarted server or another process plays the
takeover when it passes; it has no grace period (its players come and go between turns).
"""

from __future__ import annotations

import logging

from ninetynine.language import N_
from ninetynine.web.settings import Settings
from ninetynine.web.table.fanout import Fanout
from ninetynine.web.table.seating import Seating
from ninetynine.web.wire import clock_text

logger = logging.getLogger("ninetynine.web")


class TurnClock:
    """When the turn started, when anybody was last here, and whose turn ran out."""

    def __init__(self, seating: Seating, fanout: Fanout, settings: Settings) -> None:
        self.seating, self.fanout, self.settings = seating, fanout, settings
        self.turn_started = self.last_seen = settings.clock()
        self.expired: int | None = None  # the state id at which the turn clock ran out
        # turn-based: the wall-clock time the current turn runs out (None: not known yet)
        self.deadline: float | None = None

    @property
    def turn_based(self) -> bool:
        """The table's clock is a turn-based one (it runs while nobody is here)."""
        return bool(self.seating.meta.get("turn_based"))

    def moved(self) -> None:
        """A move was played: the next turn starts now."""
        self.turn_started = self.last_seen = self.settings.clock()
        if self.turn_based:
            self.deadline = self.next_deadline()

    def next_deadline(self) -> float:
        """The deadline of a turn starting now (wall clock): the clock's length for a
        person's turn; now for a bot's or a shuffle (due at once: a restarted server's
        sweep finds it and plays it)."""
        now = self.settings.wall()
        seat = self.seating.match.state.current_seat
        clock = self.seating.meta.get("clock")
        if clock and seat is not None and self.seating.started and not self.seating.bot_plays(seat):
            return now + float(clock)
        return now

    def left(self) -> float | None:
        """Seconds left on the turn clock of the person to play, or None (no clock, or
        nobody's turn, or a bot's)."""
        clock = self.seating.meta.get("clock")
        seat = self.seating.match.state.current_seat
        if clock and seat is not None and self.seating.started and not self.seating.bot_plays(seat):
            if self.turn_based:
                if self.deadline is None:
                    return float(clock)
                return max(0.0, round(self.deadline - self.settings.wall(), 1))
            return max(0.0, round(float(clock) - (self.settings.clock() - self.turn_started), 1))
        return None

    def _grace(self, now: float) -> bool:
        changed = False
        seating = self.seating
        for i, s in enumerate(seating.seats):
            if s.bot is not None or s.takeover:
                continue
            if seating.connected(i):
                s.away_since = None
            elif s.away_since is None:
                s.away_since = now
            elif now - s.away_since >= self.settings.grace:
                s.takeover = True
                changed = True
                self.fanout.note(
                    i, "TakenOver", N_("{who} is away: a bot plays for them."), who=s.name
                )
                seating.persist_seats()
        return changed

    def _ran_out(self, now: float) -> bool:
        clock = self.seating.meta.get("clock")
        if not clock:
            return False
        if not self.turn_based:
            return self.fanout.attended and now - self.turn_started >= clock
        if self.deadline is None:
            self.deadline = self.next_deadline()
        return self.settings.wall() >= self.deadline

    def tick(self, now: float) -> bool:
        """Start the grace periods that are due and the turn clock's bot; True when a bot
        now has a move to make."""
        seating = self.seating
        changed = False if self.turn_based else self._grace(now)
        seat = seating.match.state.current_seat
        version = seating.match.version
        if (
            seat is not None
            and not seating.bot_plays(seat)
            and self.expired != version
            and self._ran_out(now)
        ):
            name = seating.seats[seat].name
            if self.turn_based:
                clock = float(seating.meta["clock"])
                text = f"{name} did not play within the turn clock ({clock_text(clock)})"
                logger.info("table %s: seat %d: %s: a bot plays", seating.id, seat + 1, text)
                self.fanout.note(
                    seat,
                    "TimedOut",
                    N_(
                        "{who} did not play within the turn clock ({clock}): a bot plays this turn."
                    ),
                    who=name,
                    clock=clock,
                )
            else:
                self.fanout.note(
                    seat, "TimedOut", N_("{who} ran out of time: a bot plays this turn."), who=name
                )
            self.expired = version
            changed = True
        return changed
