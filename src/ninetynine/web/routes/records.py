"""Games step by step (replay) and beside the coach (review): a finished table's, or an
uploaded record's (``{"record": TEXT, "seat": N}``).

An uploaded record is read within the server's bounds (its rules, players, decks, moves and
position: :func:`~ninetynine.web.limits.admit`, the same check as a new table's). A review
is seconds of CPU: its cost (the seat's decisions times ``review_playouts``) is estimated
from the record and refused above ``review_budget`` before it starts, only
``reviews_at_once`` run at a time, and each runs in a worker process that is killed after
``review_seconds`` (:mod:`ninetynine.web.work`), never on the bots' threads."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator
from typing import Any

from fastapi import APIRouter, Query, Request
from pydantic import BaseModel

from ninetynine.errors import NinetyNineError
from ninetynine.language import Language
from ninetynine.records.record import Record, parse_record
from ninetynine.web import schema
from ninetynine.web.errors import ErrorCode, LimitError, ProtocolError
from ninetynine.web.limits import admit, check_record
from ninetynine.web.lobby import Lobby
from ninetynine.web.routes.clubs import club_table
from ninetynine.web.routes.deps import LobbyDep, address, json_body, language
from ninetynine.web.table.room import Table
from ninetynine.web.wire import replay_json, review_replay_json

router = APIRouter()


class Reviewing:
    """How many reviews run now, kept on ``app.state.reviewing``."""

    def __init__(self) -> None:
        self.running = 0


@schema.route(router, "GET /api/tables/{table_id}/replay")
async def table_replay(
    table_id: str,
    request: Request,
    lobby: LobbyDep,
    seat: int | None = Query(None, include_in_schema=False),
) -> dict[str, Any]:
    """A finished game step by step: from one seat's view, or every hand open."""
    table = await club_table(request, lobby, table_id)
    return await finished_replay(table, seat, language(request))


@schema.route(router, "GET /api/tables/{table_id}/review")
async def table_review(
    table_id: str,
    request: Request,
    lobby: LobbyDep,
    seat: int | None = Query(None, include_in_schema=False),
) -> dict[str, Any]:
    """A finished game's decisions of one seat beside the coach's moves."""
    return await finished_review(request, lobby, await club_table(request, lobby, table_id), seat)


async def finished_replay(table: Table, seat: object, lang: Language) -> dict[str, Any]:
    """A finished table's game step by step (a table's replay, a shared game's), its words
    in ``lang``."""
    if not table.finished:
        raise ProtocolError(ErrorCode.NOT_FINISHED, "a game can be replayed when it is over")
    return await asyncio.to_thread(
        replay_json, table.match.record(), _replay_seat(seat, len(table.seats)), lang
    )


async def finished_review(
    request: Request, lobby: Lobby, table: Table, seat: object
) -> dict[str, Any]:
    """A finished table's decisions of one seat beside the coach's (kept: it never changes)."""
    if not table.finished:
        raise ProtocolError(ErrorCode.NOT_FINISHED, "a game can be reviewed when it is over")
    who = _review_seat(seat, len(table.seats))
    reviews = table.coaching.reviews
    if who not in reviews:  # a finished game's review never changes
        reviews[who] = await _reviewed(request, lobby, table.match.record(), who)
    return reviews[who]


@schema.route(router, "POST /api/review")
async def record_review(request: Request, lobby: LobbyDep) -> dict[str, Any]:
    """An uploaded record's decisions of one seat (``{"record": TEXT, "seat": N}``)."""
    record, seat = await _uploaded(request, lobby, schema.RecordToReview)
    with _bad_record():
        return await _reviewed(request, lobby, record, _review_seat(seat, record.start.n))


@schema.route(router, "POST /api/replay")
async def record_replay(request: Request, lobby: LobbyDep) -> dict[str, Any]:
    """An uploaded record (``{"record": TEXT, "seat": N or null}``) step by step."""
    lang = language(request)
    record, seat = await _uploaded(request, lobby, schema.UploadedRecord)
    with _bad_record():
        return await asyncio.to_thread(
            replay_json, record, _replay_seat(seat, record.start.n), lang
        )


async def _reviewed(request: Request, lobby: Lobby, record: Record, seat: int) -> dict[str, Any]:
    limits = lobby.settings.limits
    decisions = sum(who == seat for who, _ in record.moves)  # at most: some have one move
    cost = decisions * limits.review_playouts
    if cost > limits.review_budget:
        raise LimitError(
            "review_budget",
            f"reviewing seat {seat + 1} of this game would run "
            f"up to {cost:,} playouts ({decisions} moves of that seat, "
            f"{limits.review_playouts} each): at most {limits.review_budget:,}",
            code=ErrorCode.TOO_LARGE,
        )
    reviewing: Reviewing = request.app.state.reviewing
    if reviewing.running >= limits.reviews_at_once:
        raise LimitError(
            "reviews_at_once",
            "the server is reviewing other games: try again in a minute",
            code=ErrorCode.BUSY,
        )
    reviewing.running += 1
    try:
        return await lobby.workers.run(
            review_replay_json,
            record,
            seat,
            limits.review_playouts,
            seconds=limits.review_seconds,
            limit="review_seconds",
            what="the review",
        )
    finally:
        reviewing.running -= 1


async def _uploaded(
    request: Request, lobby: Lobby, fields: type[BaseModel]
) -> tuple[Record, object]:
    """The record a client sent (``{"record": TEXT, "seat": ...}``) and its seat."""
    lobby.throttle(address(request))
    body = await json_body(request, lobby.settings.limits, fields)
    text = body.get("record")
    if not isinstance(text, str) or not text.strip():
        raise ProtocolError(ErrorCode.BAD_RECORD, "record: expected the text of a record .toml")
    limits = lobby.settings.limits
    with _bad_record():
        record = parse_record(text, admit(limits))
    check_record(record, limits)
    return record, body.get("seat")


@contextlib.contextmanager
def _bad_record() -> Iterator[None]:
    """A record that cannot be read or replayed is a typed refusal naming what is wrong."""
    try:
        yield
    except RecursionError:
        raise LimitError("max_depth", "a record nested too deep", code=ErrorCode.TOO_DEEP) from None
    except ProtocolError:
        raise
    except NinetyNineError as e:
        raise ProtocolError(ErrorCode.BAD_RECORD, str(e)) from None


def _review_seat(seat: object, players: int) -> int:
    """The seat a review is of: required, from 1."""
    if seat is None:
        raise ProtocolError(
            ErrorCode.BAD_RECORD, f"seat: expected the seat to review, from 1 to {players}"
        )
    who = _replay_seat(seat, players)
    assert who is not None
    return who


def _replay_seat(seat: object, players: int) -> int | None:
    """A replay's point of view: a seat from 1 (its view), or none (every hand open)."""
    if seat is None:
        return None
    if not isinstance(seat, int) or isinstance(seat, bool) or not 1 <= seat <= players:
        raise ProtocolError(
            ErrorCode.BAD_RECORD,
            f"seat {str(seat)[:10]!r}: expected a seat from 1 to "
            f"{players}, or none for every hand open",
        )
    return seat - 1
