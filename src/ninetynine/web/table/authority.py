"""The authority over a web table's game: the :class:`~ninetynine.records.match.Match`, its state
id, and the one way a move is made (:meth:`Authority.commit`).

A move is checked on a copy of the state, stored, and only then applied and sent out
(under :attr:`Authority.lock`, so two moves never interleave), so a refused or failed
move changes nothing and an acknowledged move is never lost. Moves another process
stored are played here too (:meth:`Authority.catch_up`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

from ninetynine.engine.actions import Action, Move, parse_action
from ninetynine.engine.state import State
from ninetynine.errors import IllegalActionError, NotationError, Refusal
from ninetynine.records.record import move_text, parse_move
from ninetynine.web.errors import ErrorCode, ProtocolError
from ninetynine.web.storage import DuplicateMoveError, Storage, StorageError
from ninetynine.web.table.clock import TurnClock
from ninetynine.web.table.fanout import Fanout
from ninetynine.web.table.seating import Seating
from ninetynine.web.wire import event_json

logger = logging.getLogger("ninetynine.web")


class Authority:
    """Checks, stores, applies and sends every move of one table's match."""

    def __init__(
        self,
        seating: Seating,
        fanout: Fanout,
        clock: TurnClock,
        storage: Storage,
        *,
        kick: Callable[[], None],
        ended: Callable[[], None],
        turned: Callable[[], None] = lambda: None,
    ) -> None:
        self.seating, self.fanout, self.clock, self.storage = seating, fanout, clock, storage
        self.match = seating.match
        self.kick = kick  # let the bots move (they sit above the authority)
        self.ended = ended  # the game is over: stop the bots
        self.turned = turned  # this process stored a move: a new turn starts (turn-based)
        self.lock = asyncio.Lock()  # one move (check, store, apply) at a time
        self.last_accepted: dict[int, tuple[int, str]] = {}

    @property
    def state(self) -> State:
        """The match's current state, every hand in it: clients only ever get views of it."""
        return self.match.state

    @property
    def version(self) -> int:
        """The state id clients quote with their actions: the number of moves so far, chance
        outcomes (shuffles) included."""
        return self.match.version

    async def act(self, seat: int | None, msg: dict[str, Any]) -> None:
        """A client's move: refused with a typed error, or stored and applied."""
        if seat is None:
            raise ProtocolError(ErrorCode.SPECTATOR, "spectators cannot play")
        sid, text = msg.get("state"), msg.get("action")
        if (
            not isinstance(sid, int)
            or isinstance(sid, bool)
            or not isinstance(text, str)
            or len(text) > 40
        ):
            raise ProtocolError(
                ErrorCode.MALFORMED,
                "an action needs 'state' (the state id you saw, a "
                'number) and \'action\' (text such as "KS" or "AS+11")',
            )
        async with self.lock:
            code = self.check_move(seat, sid, text)
            await self.commit(seat, self.state.action_of(code))
            self.last_accepted[seat] = (sid, text)
        self.kick()

    def check_move(self, seat: int, sid: int, text: str) -> int:
        """The engine's code for a client's move, or its typed refusal."""
        if self.last_accepted.get(seat) == (sid, text):
            raise ProtocolError(ErrorCode.DUPLICATE, f"'{text}' for state {sid} was already played")
        if not self.seating.started:
            raise ProtocolError(ErrorCode.NOT_STARTED, "the game starts when every seat is taken")
        if self.seating.finished:
            raise ProtocolError(
                Refusal.GAME_OVER,
                "the game is over" if self.state.is_over else "the table was abandoned",
            )
        if sid != self.version:
            raise ProtocolError(
                ErrorCode.STALE,
                f"state {sid} is not the current state {self.version}: "
                "your action was not played; look again and resend",
            )
        if self.state.current_seat != seat:
            raise ProtocolError(Refusal.NOT_YOUR_TURN, "it is not your turn")
        try:
            action = parse_action(text)
        except NotationError as e:
            raise ProtocolError(ErrorCode.MALFORMED, str(e)) from None
        legal = [str(a) for a in self.state.legal_actions()]
        if not isinstance(action, Action):
            raise ProtocolError(
                Refusal.NOT_ALLOWED, f"'{text}' is not a player's move", legal=legal
            )
        try:  # the engine's own reading and reason (over the limit, below 0, the King ban)
            return self.state.check(action, seat)
        except IllegalActionError as e:
            raise ProtocolError(e.reason, e.why, legal=legal) from None

    async def commit(self, seat: int | None, move: Move) -> None:
        """Check on a copy, store, then apply and send: nothing changes if a step fails.
        The caller holds :attr:`lock`."""
        self.match.check(move, seat)
        try:
            await self.storage.call(
                self.storage.append_move, self.seating.id, self.version, move_text(seat, move)
            )
        except DuplicateMoveError:  # another process stored a move here first
            await self.catch_up()
            raise ProtocolError(
                ErrorCode.STALE,
                "another move was played first: your action was not played; look again and resend",
            ) from None
        events = self.match.play(move, seat)
        self.clock.moved()
        self.fanout.broadcast(
            [event_json(e, self.seating.names, self.fanout.rules) for e in events]
        )
        if self.state.is_over:
            self.ended()
            seating = self.seating
            try:
                await seating.change_meta(lambda: seating.meta_with(finished=True))
            except StorageError as e:  # the move stands; a restart marks the table finished
                logger.warning("table %s: could not mark the game finished: %s", seating.id, e)
        self.turned()

    async def catch_up(self) -> None:
        """Play the moves other processes stored since this table's state (under lock)."""
        self.play_stored(
            await self.storage.call(self.storage.moves_since, self.seating.id, self.version)
        )

    def play_stored(self, texts: list[str]) -> None:
        """Play moves that are stored already (another process's), and send them out."""
        events = []
        for text in texts:
            who, move = parse_move(text, len(self.seating.seats))
            events += self.match.play(move, who)
        if texts:
            self.clock.moved()
            self.fanout.broadcast(
                [event_json(e, self.seating.names, self.fanout.rules) for e in events]
            )
            if self.state.is_over:
                self.ended()
            self.kick()
