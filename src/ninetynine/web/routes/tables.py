"""The lobby's HTTP API: the presets and the server's config, the public tables, creating
and joining a table, and a table's summary and record (finished games only: it shows
every hand)."""

from __future__ import annotations

import re
import secrets
import tomllib
from typing import Any

from fastapi import APIRouter, Request, Response
from fastapi.responses import PlainTextResponse

from ninetynine.errors import RulesError
from ninetynine.rules.presets import find_preset, load_rules, preset_rules, presets
from ninetynine.rules.settings import Rules
from ninetynine.web import schema
from ninetynine.web.accounts.service import SESSION_COOKIE
from ninetynine.web.errors import ErrorCode, LimitError, ProtocolError
from ninetynine.web.limits import Limits, check_data_depth
from ninetynine.web.lobby import Creator
from ninetynine.web.routes.accounts import party, player_account
from ninetynine.web.routes.clubs import club_table, clubs
from ninetynine.web.routes.deps import LobbyDep, address, json_body

CLIENT_COOKIE = "nn_client"
SEAT_KEY = re.compile(r"^[0-9]{1,3}$")
router = APIRouter()


@schema.route(router, "GET /api/presets")
async def list_presets(lobby: LobbyDep) -> list[dict[str, Any]]:
    """The preset rule sets: each one's id, name, description and the players it allows, [fewest,
    most] (the most at this server's ``max_players``)."""
    limits = lobby.settings.limits
    return [
        {
            "id": p.id,
            "name": p.name,
            "description": p.description,
            "players": [
                (r := load_rules(p.id)).players_min,
                min(r.players_max, limits.max_players),
            ],
        }
        for p in presets().values()
    ]


@schema.route(router, "GET /api/config")
async def config(lobby: LobbyDep) -> dict[str, Any]:
    """What a client should know of this server: the bot levels it offers, the name of the process
    that answered where several share the database (else null), and the limits its forms need."""
    limits = lobby.settings.limits
    return {
        "bots": list(lobby.settings.bots),
        "process": lobby.storage.process or None,
        "limits": {
            k: getattr(limits, k)
            for k in ("max_players", "max_house_rules", "max_message", "chat_length")
        },
    }


@schema.route(router, "GET /api/tables")
async def open_tables(lobby: LobbyDep) -> list[dict[str, Any]]:
    """The public tables: to join (waiting for players, with somebody there) and to watch (playing);
    the waiting ones first, newest first within each."""
    return await lobby.listing()


@schema.route(router, "POST /api/tables")
async def create_table(request: Request, response: Response, lobby: LobbyDep) -> dict[str, Any]:
    """Creates a table from a preset or a house-rules file, with a bot at each seat ``bots`` names
    (seats from 2); the creator takes seat 1. A ``rated`` table (a signed-in creator, a preset's
    rules) moves its players' ratings when its game ends. Answers the table's id, the seat, its
    secret token and the invite path, and sets the ``nn_client`` cookie that counts a browser's
    tables."""
    limits = lobby.settings.limits
    where = address(request)
    lobby.throttle(where)
    body = await json_body(request, limits, schema.NewTable)
    rules = _rules_of(body, limits)
    players = body.get("players", 4)
    if not isinstance(players, int) or isinstance(players, bool):
        raise ProtocolError(
            ErrorCode.BAD_TABLE, f"players {str(players)[:20]!r}: expected a whole number"
        )
    clock = body.get("clock")
    if clock is not None and (not isinstance(clock, (int, float)) or isinstance(clock, bool)):
        raise ProtocolError(
            ErrorCode.BAD_TABLE, f"clock {str(clock)[:20]!r}: expected seconds or null"
        )
    turn_based = body.get("turn_based", False)
    if not isinstance(turn_based, bool):
        raise ProtocolError(
            ErrorCode.BAD_TABLE,
            "turn_based: expected true (a turn clock of hours or days, the game goes on "
            "while nobody is here) or false",
        )
    public = body.get("public", False)
    if not isinstance(public, bool):
        raise ProtocolError(
            ErrorCode.BAD_TABLE,
            "public: expected true (listed in the lobby) or false (invite only)",
        )
    club = body.get("club")
    if club is not None:
        if not isinstance(club, str) or public:
            raise ProtocolError(
                ErrorCode.BAD_TABLE,
                "club: expected the id of a club of yours, with public false (a club's table "
                "is for its members)",
            )
        party(request)  # the session cookie decides: this server's own Origin only
        await clubs(request).member(request.cookies.get(SESSION_COOKIE), club)
    rated = body.get("rated", False)
    if not isinstance(rated, bool):
        raise ProtocolError(
            ErrorCode.BAD_TABLE, "rated: expected true (the game moves ratings) or false"
        )
    account = await player_account(request)
    if rated and body.get("house_rules") not in (None, ""):
        raise ProtocolError(
            ErrorCode.BAD_TABLE,
            "rated: a rated table plays a preset's rules, not house rules (leave rated out)",
        )
    if rated and account is None:
        raise ProtocolError(
            ErrorCode.NOT_SIGNED_IN,
            "rated: only a signed-in player may create a rated table, from this server's "
            "page; sign in first, or leave rated out",
        )
    client = request.cookies.get(CLIENT_COOKIE)
    if not client or len(client) > 64:
        client = secrets.token_urlsafe(16)
        response.set_cookie(
            CLIENT_COOKIE, client, max_age=365 * 86400, httponly=True, samesite="strict"
        )
    table, token = await lobby.create(
        rules=rules,
        players=players,
        name=body.get("name"),
        clock=clock,
        turn_based=turn_based,
        public=public,
        bots=_bots_of(body.get("bots", {})),
        creator=Creator.of(client, where),
        club=club,
        account=account,
        rated=rated,
    )
    return {"table": table.id, "seat": 1, "token": token, "invite": f"/t/{table.id}"}


@schema.route(router, "GET /api/tables/{table_id}")
async def table_summary(table_id: str, request: Request, lobby: LobbyDep) -> dict[str, Any]:
    """A table's public summary: its status, rules, clock and seats (seats from 1); a club's
    table, for its members only."""
    return (await club_table(request, lobby, table_id)).summary()


@schema.route(router, "POST /api/tables/{table_id}/join")
async def join_table(table_id: str, request: Request, lobby: LobbyDep) -> dict[str, Any]:
    """Takes the first open seat of a table; answers the seat (from 1) and its secret token. 409
    where every seat is taken or the game is over."""
    lobby.throttle(address(request))
    body = await json_body(request, lobby.settings.limits, schema.JoinTable)
    table = await club_table(request, lobby, table_id)
    seat, token = await lobby.join(table, body.get("name"), await player_account(request))
    return {"table": table.id, "seat": seat + 1, "token": token}


@schema.route(router, "GET /api/tables/{table_id}/record")
async def record(table_id: str, request: Request, lobby: LobbyDep) -> Response:
    """A finished game's record, as a ``.toml`` download; 409 while the game goes on, since it shows
    every hand."""
    text = (await club_table(request, lobby, table_id)).record_text()
    return PlainTextResponse(
        text,
        media_type="application/toml",
        headers={"Content-Disposition": f'attachment; filename="ninetynine-{table_id}.toml"'},
    )


def _rules_of(body: dict[str, Any], limits: Limits) -> Rules:
    """A preset id, or the text of an uploaded house-rules file."""
    house = body.get("house_rules")
    try:
        if house is not None and house != "":  # as for a name: null or "" is none given
            if not isinstance(house, str):
                raise RulesError("house rules: expected the text of a .toml file")
            if len(house) > limits.max_house_rules:
                raise LimitError(
                    "max_house_rules",
                    f"house rules of {len(house)} characters: at most {limits.max_house_rules}",
                    code=ErrorCode.BAD_RULES,
                )
            try:
                data = tomllib.loads(house)
            except tomllib.TOMLDecodeError as e:
                raise RulesError(f"house rules: not valid TOML: {e}") from None
            except RecursionError:
                raise LimitError(
                    "max_depth", "house rules nested too deep", code=ErrorCode.TOO_DEEP
                ) from None
            check_data_depth(data, limits.max_depth, "house rules")
            rules = load_rules(data)
            if len(rules.name) > 60 or not rules.name.isprintable():
                raise RulesError("house rules name: expected 1 to 60 printable characters")
            return rules
        preset = body.get("rules", "P")
        if not isinstance(preset, str):
            raise RulesError(f'rules {str(preset)[:40]!r}: expected a preset id such as "P"')
        return preset_rules(find_preset(preset[:40]).id)  # never a path on the server
    except RulesError as e:
        raise ProtocolError(ErrorCode.BAD_RULES, str(e)) from None


def _bots_of(raw: object) -> dict[int, str]:
    """``{"2": "easy"}`` (seats from 1) -> {1: "easy"}; the lobby checks the levels."""
    if not isinstance(raw, dict):
        raise ProtocolError(ErrorCode.BAD_TABLE, 'bots: expected an object such as {"2": "easy"}')
    bots: dict[int, str] = {}
    for key, level in raw.items():
        if not SEAT_KEY.match(str(key)) or not isinstance(level, str):
            raise ProtocolError(
                ErrorCode.BAD_TABLE,
                f"bots: seat {str(key)[:10]!r} -> "
                f"{str(level)[:40]!r}: expected a seat number and a bot level "
                "(easy, medium, hard)",
            )
        bots[int(key) - 1] = level
    return bots
