"""The turn-based tables' HTTP API (:mod:`ninetynine.web.turns`): an account's unfinished
games, its turn first (``GET /api/account/tables``); a signed-in account (re)opening its
own seat on any device (``POST /api/tables/{id}/seat``); its e-mail address and which
"your turn" it gets (``/api/account/contact``); a club's webhook, for its owner
(``/api/clubs/{id}/webhook``); and the unsubscribe links (``/u/{token}``: a GET only asks
to confirm, so a mail scanner that follows every link turns nothing off; the POST, from
that page's button or a mail reader's one-click unsubscribe of RFC 8058, does it).

Each POST carries this server's own ``Origin`` (:func:`~.accounts.posted`); each answer
reads the account and its memberships from the database. An account's e-mail address is
shown to that account only, a club's webhook to its owner only.
"""

from __future__ import annotations

import html
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from ninetynine.web import schema
from ninetynine.web.errors import ErrorCode, ProtocolError
from ninetynine.web.lobby import Lobby
from ninetynine.web.routes.accounts import accounts, posted, session_cookie
from ninetynine.web.routes.clubs import club_table, clubs
from ninetynine.web.routes.deps import LobbyDep, address
from ninetynine.web.table.room import Table
from ninetynine.web.turns.links import read_token
from ninetynine.web.turns.send import check_webhook, clean_email
from ninetynine.web.turns.store import Channel, Contact

router = APIRouter()


def _flag(body: dict[str, Any], name: str, now: bool) -> bool:
    value = body.get(name, now)
    if not isinstance(value, bool):
        raise ProtocolError(ErrorCode.MALFORMED, f"{name}: expected true or false")
    return value


def _my_game(table: Table, seat: int) -> dict[str, Any]:
    state, seating = table.state, table.seating
    turn = state.current_seat if table.started and not table.finished else None
    return {
        "table": table.id,
        "link": f"/t/{table.id}",
        "rules": {"id": table.rules.id, "name": table.rules.name},
        "status": table.status,
        "seat": seat + 1,
        "players": [
            {
                "seat": i + 1,
                "name": s.name,
                "kind": "bot" if s.bot else "open" if s.is_open else "human",
            }
            for i, s in enumerate(table.seats)
        ],
        "turn": None if turn is None else turn + 1,
        "my_turn": turn == seat and not seating.bot_plays(seat),
        "turn_based": table.clock.turn_based,
        "clock": table.meta.get("clock"),
        "deadline": table.deadline(),
        "clock_left": table.clock.left() if table.deadline() is not None else None,
        "club": table.meta.get("club"),
    }


@schema.route(router, "GET /api/account/tables")
async def my_tables(request: Request, lobby: LobbyDep) -> dict[str, Any]:
    """The signed-in account's unfinished games (the tables where it holds a seat): those
    where it is to play first (the soonest deadline first), then the others, newest first."""
    cookie = session_cookie(request)
    account = await accounts(request).require(cookie)
    found = await lobby.storage.call(
        lobby.turns.store.live_tables_of, account.id, lobby.settings.limits.my_tables_shown
    )
    games = []
    for table_id, meta in found:
        club = meta.get("club")
        if club and not await clubs(request).is_member(cookie, str(club)):
            continue  # no longer the club's member: its tables are not theirs to see
        try:
            table = await lobby.get(table_id)
        except ProtocolError:
            continue  # one that cannot be rebuilt is left out, as in the lobby
        seat = next(
            (i for i, s in enumerate(table.seats) if s.account == account.id and s.bot is None),
            None,
        )
        if seat is not None and not table.finished:
            games.append((table.meta.get("created", 0), _my_game(table, seat)))
    games.sort(key=lambda g: -g[0])
    games.sort(key=lambda g: (not g[1]["my_turn"], g[1]["deadline"] is None, g[1]["deadline"] or 0))
    return {"tables": [g for _, g in games]}


@schema.route(router, "POST /api/tables/{table_id}/seat")
async def reopen_seat(table_id: str, request: Request, lobby: LobbyDep) -> dict[str, Any]:
    """The signed-in account's seat at this table, on this device: a new secret token whose
    hash replaces the seat's, so the old token (another device's) opens nothing from now on
    and its connections are closed. ``no_seat`` where the account holds none there."""
    await posted(request, lobby, schema.NoFields)
    account = await accounts(request).require(session_cookie(request))
    table = await club_table(request, lobby, table_id)
    seat, token = await lobby.reopen(table, account.id)
    return {"table": table.id, "seat": seat + 1, "token": token}


def _contact_json(contact: Contact, email_sent: bool) -> dict[str, Any]:
    return {
        "email": contact.email,
        "email_on": not contact.email_off,
        "webhook_on": not contact.webhook_off,
        "email_sent": email_sent,
    }


@schema.route(router, "GET /api/account/contact")
async def contact(request: Request, lobby: LobbyDep) -> dict[str, Any]:
    """The signed-in account's e-mail address and the "your turn" it gets (``email_sent``:
    whether this server sends e-mails at all)."""
    account = await accounts(request).require(session_cookie(request))
    found = await lobby.storage.call(lobby.turns.store.contact, account.id)
    return _contact_json(found, lobby.settings.smtp is not None)


@schema.route(router, "POST /api/account/contact")
async def set_contact(request: Request, lobby: LobbyDep) -> dict[str, Any]:
    """Changes the signed-in account's e-mail address (``""``: none) and which "your turn"
    it gets; a field left out stays as it was."""
    body = await posted(request, lobby, schema.ContactChange)
    account = await accounts(request).require(session_cookie(request))
    store = lobby.turns.store
    now = await lobby.storage.call(store.contact, account.id)
    email = clean_email(body["email"]) if "email" in body else now.email
    new = Contact(
        email,
        email_off=not _flag(body, "email_on", not now.email_off),
        webhook_off=not _flag(body, "webhook_on", not now.webhook_off),
    )
    await lobby.storage.call(store.set_contact, account.id, new)
    return _contact_json(new, lobby.settings.smtp is not None)


@schema.route(router, "GET /api/clubs/{club_id}/webhook")
async def club_webhook(club_id: str, request: Request, lobby: LobbyDep) -> dict[str, Any]:
    """The club's webhook URL (null: none), for its owner."""
    _, club = await clubs(request).owned(session_cookie(request), club_id)
    return {"url": await lobby.storage.call(lobby.turns.store.webhook, club.id)}


@schema.route(router, "POST /api/clubs/{club_id}/webhook")
async def set_club_webhook(club_id: str, request: Request, lobby: LobbyDep) -> dict[str, Any]:
    """The owner sets the club's webhook (``""``: none): "your turn" at the club's
    turn-based tables is posted there as ``{"content": ..., "text": ...}`` (Discord, Slack).
    Only a public http(s) address is accepted (unless the operator allows private ones)."""
    body = await posted(request, lobby, schema.WebhookChange)
    _, club = await clubs(request).owned(session_cookie(request), club_id)
    raw = body.get("url")
    url = None if raw == "" else await check_webhook(raw, lobby.settings.private_webhooks)
    await lobby.storage.call(lobby.turns.store.set_webhook, club.id, url)
    return {"url": url}


_PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>ninetynine</title><link rel="stylesheet" href="/static/style.css"></head>
<body><main class="notice"><h1>{title}</h1><p>{text}</p>{form}<p><a href="/">To the lobby</a></p>
</main></body></html>"""


async def _unsubscribing(token: str, lobby: Lobby) -> tuple[str, Channel]:
    """The account and channel of an unsubscribe link; ``bad_unsubscribe`` (404) for a
    link this server did not make."""
    found = read_token(await lobby.turns.key(), token)
    if found is None:
        raise ProtocolError(
            ErrorCode.BAD_UNSUBSCRIBE,
            "this unsubscribe link is not one this server made (mistyped, or cut short)",
        )
    return found


def _what(channel: Channel) -> str:
    return "e-mails" if channel is Channel.EMAIL else "messages to your club's webhook"


@schema.route(router, "GET /u/{token}")
async def confirm_unsubscribe(token: str, lobby: LobbyDep) -> HTMLResponse:
    """An unsubscribe link of a "your turn" message: a page that asks to confirm, with a
    button that POSTs the same link. Nothing changes here: mail scanners open links."""
    _, channel = await _unsubscribing(token, lobby)
    text = f"Stop the &ldquo;your turn&rdquo; {html.escape(_what(channel))}?"
    form = (
        f'<form method="post" action="/u/{html.escape(token)}">'
        '<button type="submit" class="primary">Unsubscribe</button></form>'
    )
    return HTMLResponse(_PAGE.format(title="Unsubscribe", text=text, form=form))


@schema.route(router, "POST /u/{token}")
async def unsubscribe(token: str, request: Request, lobby: LobbyDep) -> HTMLResponse:
    """Turns the link's channel off for its account, without signing in (the confirming
    page's button, or a mail reader's one-click ``List-Unsubscribe=One-Click`` POST, whose
    body is not needed), and the page says so."""
    lobby.throttle(address(request))
    account, channel = await _unsubscribing(token, lobby)
    await lobby.storage.call(lobby.turns.store.unsubscribe, account, channel)
    text = (
        f"You will get no more &ldquo;your turn&rdquo; {html.escape(_what(channel))}. "
        "You can turn them on again in your account's settings."
    )
    return HTMLResponse(_PAGE.format(title="Unsubscribed", text=text, form=""))
