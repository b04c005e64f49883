"""A web table's clocks: the turn clock (a person who runs out of time has a bot play that
turn) and the grace period (a player away longer has a bot play for them until they
come back). Only the process driving the table runs them (:meth:`TurnClock.tick`)."""

from __future__ import annotations

from ninetynine.web.settings import Settings
from ninetynine.web.table.fanout import Fanout
from ninetynine.web.table.seating import Seating


class TurnClock:
    """When the turn started, when anybody was last here, and whose turn ran out."""

    def __init__(self, seating: Seating, fanout: Fanout, settings: Settings) -> None:
        self.seating, self.fanout, self.settings = seating, fanout, settings
        self.turn_started = self.last_seen = settings.clock()
        self.expired: int | None = None  # the state id at which the turn clock ran out

    def moved(self) -> None:
        """A move was played: the next turn starts now."""
        self.turn_started = self.last_seen = self.settings.clock()

    def left(self) -> float | None:
        """Seconds left on the turn clock of the person to play, or None (no clock, or
        nobody's turn, or a bot's)."""
        clock = self.seating.meta.get("clock")
        seat = self.seating.match.state.current_seat
        if clock and seat is not None and self.seating.started and not self.seating.bot_plays(seat):
            return max(0.0, round(float(clock) - (self.settings.clock() - self.turn_started), 1))
        return None

    def tick(self, now: float) -> bool:
        """Start the grace periods that are due and the turn clock's bot; True when a bot
        now has a move to make."""
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
                self.fanout.note(i, "TakenOver", f"{s.name} is away: a bot plays for them.")
                seating.persist_seats()
        seat = seating.match.state.current_seat
        version = seating.match.version
        clock = seating.meta.get("clock")
        if (
            seat is not None
            and clock
            and self.fanout.attended
            and not seating.bot_plays(seat)
            and self.expired != version
            and now - self.turn_started >= clock
        ):
            self.fanout.note(
                seat,
                "TimedOut",
                f"{seating.seats[seat].name} ran out of time: a bot plays this turn.",
            )
            self.expired = version
            changed = True
        return changed
