"""The accounts' HTTP API (:mod:`ninetynine.web.accounts`), under ``/api/account``: sign up
and add a passkey (``register/options``, ``register/verify``), sign in (``signin/options``,
``signin/verify``), ``recover``, a new device by a link (``link``, ``link/use``), ``me``,
``signout`` and ``delete``.

Each POST must carry this server's own ``Origin`` (browsers always send it): the guard refuses
another site's, and these routes refuse a request without one too, since they set and end
sessions (cross-site request forgery). The session is the ``nn_session`` cookie: HttpOnly,
SameSite=Lax, Secure unless ``serve --insecure-cookies``.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request, Response
from starlette.requests import HTTPConnection

from ninetynine.web import schema
from ninetynine.web.accounts.passkeys import Party
from ninetynine.web.accounts.service import SESSION_COOKIE, Accounts, SignedIn
from ninetynine.web.errors import ErrorCode, ProtocolError
from ninetynine.web.lobby import Lobby
from ninetynine.web.routes.deps import LobbyDep, address, json_body

router = APIRouter()


def accounts(connection: HTTPConnection) -> Accounts:
    """The server's accounts (kept on ``app.state`` by the app's lifespan)."""
    found: Accounts = connection.app.state.accounts
    return found


AccountsDep = Annotated[Accounts, Depends(accounts)]


def party(request: Request) -> Party:
    """The relying party this request reached; a POST without this very origin is refused."""
    host = request.headers.get("host", "")
    here = Party.of(request.url.scheme, host)
    origin = request.headers.get("origin")
    if request.method == "POST" and (origin or "").strip().lower().rstrip("/") != here.origin:
        raise ProtocolError(
            ErrorCode.FORBIDDEN_ORIGIN,
            f"an account's request must come from this server's own page ({here.origin[:60]}) "
            "with its Origin header",
        )
    return here


async def posted(request: Request, lobby: Lobby, fields: type[schema.Model]) -> dict[str, Any]:
    """The JSON body of an account's or a club's POST: from this server's own Origin
    (:func:`party`), within the address's request rate, with only ``fields``'s fields."""
    party(request)
    lobby.throttle(address(request))
    return await json_body(request, lobby.settings.limits, fields)


def session_cookie(request: Request) -> str | None:
    """The session cookie the request came with (None: a guest's)."""
    return request.cookies.get(SESSION_COOKIE)


async def player_account(request: Request) -> str | None:
    """The account id of a signed-in player taking a seat, or None (a guest). Only a
    request from this server's own page (its Origin) seats the account: another site's
    forged request, or a script's without an Origin, plays as a guest."""
    cookie = session_cookie(request)
    if cookie is None:
        return None
    try:
        party(request)
    except ProtocolError:
        return None
    account = await accounts(request).current(cookie)
    return None if account is None else account.id


def _signed_in(response: Response, accounts: Accounts, done: SignedIn) -> dict[str, Any]:
    settings = accounts.settings
    response.set_cookie(
        SESSION_COOKIE,
        done.session,
        max_age=int(settings.limits.session_days * 86400),
        httponly=True,
        samesite="lax",
        secure=settings.secure_cookies,
        path="/",
    )
    return {"account": done.account.json(), "recovery_code": done.recovery_code}


def _signed_out(response: Response, accounts: Accounts) -> None:
    response.delete_cookie(
        SESSION_COOKIE,
        httponly=True,
        samesite="lax",
        secure=accounts.settings.secure_cookies,
        path="/",
    )


@schema.route(router, "POST /api/account/register/options")
async def register_options(
    request: Request, lobby: LobbyDep, accounts: AccountsDep
) -> dict[str, Any]:
    """Options for a new passkey: a new account's first (with ``name``, signed out), or one more
    of the signed-in account's (without)."""
    here = party(request)
    body = await posted(request, lobby, schema.AccountName)
    options = await accounts.register_options(
        here, address(request), session_cookie(request), body.get("name")
    )
    return {"publicKey": options}


@schema.route(router, "POST /api/account/register/verify")
async def register_verify(
    request: Request, response: Response, lobby: LobbyDep, accounts: AccountsDep
) -> dict[str, Any]:
    """Stores the new passkey: a new account is signed in at once and its recovery code shown
    (this once); a signed-in account's passkey is added."""
    here = party(request)
    body = await posted(request, lobby, schema.PasskeyAnswer)
    done = await accounts.register_verify(here, session_cookie(request), body.get("credential"))
    if isinstance(done, SignedIn):
        return _signed_in(response, accounts, done)
    return {"account": done.json(), "recovery_code": None}


@schema.route(router, "POST /api/account/signin/options")
async def sign_in_options(
    request: Request, lobby: LobbyDep, accounts: AccountsDep
) -> dict[str, Any]:
    """Options for signing in with any passkey of this server: they name no account."""
    here = party(request)
    await posted(request, lobby, schema.NoFields)
    return {"publicKey": await accounts.sign_in_options(here, address(request))}


@schema.route(router, "POST /api/account/signin/verify")
async def sign_in_verify(
    request: Request, response: Response, lobby: LobbyDep, accounts: AccountsDep
) -> dict[str, Any]:
    """Signs in with the passkey that signed the challenge: a new session (the browser's old one
    ends)."""
    here = party(request)
    body = await posted(request, lobby, schema.PasskeyAnswer)
    done = await accounts.sign_in_verify(here, session_cookie(request), body.get("credential"))
    return _signed_in(response, accounts, done)


@schema.route(router, "POST /api/account/recover")
async def recover(
    request: Request, response: Response, lobby: LobbyDep, accounts: AccountsDep
) -> dict[str, Any]:
    """Signs in with the recovery code, which is spent; the new one is shown, this once. Signed
    in, the account may then add a passkey."""
    body = await posted(request, lobby, schema.RecoveryCode)
    done = await accounts.recover(session_cookie(request), address(request), body.get("code"))
    return _signed_in(response, accounts, done)


@schema.route(router, "POST /api/account/link")
async def make_link(request: Request, lobby: LobbyDep, accounts: AccountsDep) -> dict[str, Any]:
    """A token that signs a new device in to this account, once and for ``link_seconds``; a page
    puts it in a link's fragment (``#link=...``), which no server or log sees."""
    await posted(request, lobby, schema.NoFields)
    token = await accounts.make_link(session_cookie(request))
    return {"token": token, "seconds": lobby.settings.limits.link_seconds}


@schema.route(router, "POST /api/account/link/use")
async def use_link(
    request: Request, response: Response, lobby: LobbyDep, accounts: AccountsDep
) -> dict[str, Any]:
    """Signs this device in with a link's token (spent); it may then add a passkey."""
    body = await posted(request, lobby, schema.LinkToken)
    done = await accounts.use_link(session_cookie(request), address(request), body.get("token"))
    return _signed_in(response, accounts, done)


@schema.route(router, "GET /api/account/me")
async def me(request: Request, accounts: AccountsDep) -> dict[str, Any]:
    """The signed-in account, or null for a guest (or a session that has ended)."""
    account = await accounts.current(session_cookie(request))
    return {"account": account.json() if account else None}


@schema.route(router, "POST /api/account/signout")
async def sign_out(
    request: Request, response: Response, lobby: LobbyDep, accounts: AccountsDep
) -> dict[str, Any]:
    """Ends the session here and on every process; the cookie is cleared."""
    await posted(request, lobby, schema.NoFields)
    await accounts.sign_out(session_cookie(request))
    _signed_out(response, accounts)
    return {"ok": True}


@schema.route(router, "POST /api/account/delete")
async def delete(
    request: Request, response: Response, lobby: LobbyDep, accounts: AccountsDep
) -> dict[str, Any]:
    """Deletes the signed-in account and everything of it: its passkeys, sessions, clubs it
    owns, memberships, finished games' results and ratings."""
    body = await posted(request, lobby, schema.DeleteAccount)
    await accounts.delete(session_cookie(request), body.get("confirm"))
    await lobby.club_changed(None)  # its memberships are gone: its club seats close
    _signed_out(response, accounts)
    return {"ok": True}
