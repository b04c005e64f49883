"""The coach at a web table: each legal move's chance of losing the hand and the game for
the seat whose turn it is (:mod:`ninetynine.coach`), from that seat's view only, worked
out on the bots' threads once a turn; and a finished game's reviews, kept once made."""

from __future__ import annotations

import asyncio
from typing import Any

from ninetynine.coach import advice_json, advise
from ninetynine.web.errors import LimitError, ProtocolError
from ninetynine.web.settings import Settings
from ninetynine.web.table.authority import Authority
from ninetynine.web.table.bots import TableBots


class Coaching:
    """The coach's figures at one table, once per seat and state id."""

    def __init__(self, authority: Authority, bots: TableBots, settings: Settings) -> None:
        self.authority, self.bots, self.settings = authority, bots, settings
        # the coach's figures, once per seat and state id (asking again costs nothing)
        self.coached: dict[int, tuple[int, asyncio.Future[dict[str, Any]]]] = {}
        self.reviews: dict[int, dict[str, Any]] = {}  # a finished game's, by seat

    async def coach(self, seat: int | None) -> dict[str, Any]:
        """The coach's figures for the seat whose turn it is, from that seat's view."""
        authority, seating = self.authority, self.authority.seating
        if seat is None:
            raise ProtocolError("spectator", "spectators have no moves to be coached on")
        if not seating.started or seating.finished or authority.state.current_seat != seat:
            raise ProtocolError("not_your_turn", "the coach advises on your turn")
        version = authority.version
        asked = self.coached.get(seat)
        if asked is None or asked[0] != version:
            view, playouts = authority.match.view(seat), self.settings.limits.coach_playouts
            future = asyncio.get_running_loop().run_in_executor(
                self.bots.pool, lambda: advice_json(advise(view, playouts=playouts, seed=version)))
            asked = self.coached[seat] = (version, future)
        try:
            figures = await asyncio.wait_for(asyncio.shield(asked[1]),
                                             self.settings.limits.bot_seconds)
        except TimeoutError:
            raise LimitError("bot_seconds", "the coach ran out of time on this decision",
                             code="coach_timeout") from None
        return {"type": "coach", "state": version, **figures}
