"""The coach at a web table: each legal move's chance of losing the hand and the game for
the seat whose turn it is (:mod:`ninetynine.coach`), from that seat's view only, worked
out once a turn in a worker process (never on the bots' threads: see
:mod:`ninetynine.web.work`); and a finished game's reviews, kept once made."""

from __future__ import annotations

import asyncio
from typing import Any

from ninetynine.errors import Refusal
from ninetynine.web.errors import ErrorCode, ProtocolError
from ninetynine.web.settings import Settings
from ninetynine.web.table.authority import Authority
from ninetynine.web.wire import coach_json
from ninetynine.web.work import Workers


class Coaching:
    """The coach's figures at one table, once per seat and state id."""

    def __init__(self, authority: Authority, settings: Settings) -> None:
        self.authority, self.settings = authority, settings
        self.workers: Workers | None = None  # the lobby's (set when the table is served)
        # the coach's figures, once per seat and state id (asking again costs nothing)
        self.coached: dict[int, tuple[int, asyncio.Future[dict[str, Any]]]] = {}
        self.reviews: dict[int, dict[str, Any]] = {}  # a finished game's, by seat

    async def coach(self, seat: int | None) -> dict[str, Any]:
        """The coach's figures for the seat whose turn it is, from that seat's view."""
        authority, seating = self.authority, self.authority.seating
        if seat is None:
            raise ProtocolError(ErrorCode.SPECTATOR, "spectators have no moves to be coached on")
        if not seating.started or seating.finished or authority.state.current_seat != seat:
            raise ProtocolError(Refusal.NOT_YOUR_TURN, "the coach advises on your turn")
        assert self.workers is not None
        version = authority.version
        asked = self.coached.get(seat)
        if asked is None or asked[0] != version:
            limits = self.settings.limits
            work = self.workers.run(
                coach_json,
                authority.match.view(seat),
                limits.coach_playouts,
                version,
                seconds=limits.bot_seconds,
                limit="bot_seconds",
                what="the coach",
            )
            asked = self.coached[seat] = (version, asyncio.ensure_future(work))
        figures = await asyncio.shield(asked[1])
        return {"type": "coach", "state": version, **figures}
