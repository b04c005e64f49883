"""What the server says, as schemas: the models of its OpenAPI document
(``GET /api/openapi.json``) and the JSON Schema of every WebSocket frame it sends.

The handlers build their answers as plain dicts and parse request bodies by hand (one
precise line per mistake); the models here describe both for clients and fuzzers and parse
nothing (a body's model only names the fields it may hold). Every model forbids fields it
does not name, so an answer that grows a field the schema does not know fails
tests/web/test_fuzz.py.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Annotated, Any, Literal, TypeVar, Union, get_args, get_origin, get_type_hints

from fastapi import APIRouter, FastAPI, Response
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.utils import get_openapi
from fastapi.responses import FileResponse
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, create_model

from ninetynine.engine import events
from ninetynine.engine.fields import Phase
from ninetynine.errors import Refusal as RuleRefusal
from ninetynine.rules.presets import presets
from ninetynine.web.errors import ErrorCode, ProtocolError
from ninetynine.web.table.seating import MAX_NAME, TableStatus

F = TypeVar("F", bound=Callable[..., Any])


class Model(BaseModel):
    """The base of every model here: it forbids the fields it does not name
    (``additionalProperties: false``)."""

    model_config = ConfigDict(extra="forbid")


# Errors ---------------------------------------------------------------------------------


class Refusal(Model):
    """A refusal (:class:`ninetynine.web.errors.ProtocolError`): ``code`` for programs,
    ``message`` for people and logs, ``said`` for a person in the language asked for."""

    code: ErrorCode | RuleRefusal
    message: str
    said: str = Field(
        "",
        description="the refusal in the request's language (?lang=, else Accept-Language; "
        "the message itself in English)",
    )
    legal: list[str] = Field(
        default_factory=list, description="a refused move: the moves allowed instead"
    )
    limit: str = Field("", description="the server limit refused (serve --limit NAME=...)")


class Error(Refusal):
    """An HTTP refusal's body; ``error`` repeats the message."""

    error: str


ERROR_TEXT = {
    400: "Bad request: a malformed body or parameter, or a host name not served here (bad_host)",
    401: "Not signed in, or a sign-in (passkey, recovery code) that was refused",
    403: "A browser page of another site (forbidden_origin), or a club's member asking for "
    "what only its owner may do (not_owner)",
    404: "No such table (no_table), club (no_club: or none of yours), member or invite, or "
    "player (no_player: or none you share a club with)",
    409: "The table or club is full, the game is not over yet, the account name is taken, "
    "or the owner asked to leave its own club",
    413: "A request body over the server's limit (too_large)",
    415: "A body that is not application/json",
    429: "Over one of the server's rate limits",
    503: "A storage failure: nothing was changed, try again",
}


def errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The documented error responses of a route (every one an :class:`Error`)."""
    return {s: {"model": Error, "description": ERROR_TEXT[s]} for s in statuses}


# Starlette's own refusals (no such route, no such method) as the API's error codes.
HTTP_CODES = {404: ErrorCode.NOT_FOUND, 405: ErrorCode.METHOD_NOT_ALLOWED}


def parameter_error(exc: RequestValidationError) -> ProtocolError:
    """A path or query parameter of the wrong type (the bodies are read by hand), as one
    line naming it: ``seat 'x': expected a whole number``."""
    first = exc.errors()[0] if exc.errors() else {}
    where = first.get("loc", ("", "parameter"))[-1]
    value = first.get("input")
    expected = {"int_parsing": "a whole number"}.get(first.get("type", ""), first.get("msg", ""))
    return ProtocolError(ErrorCode.MALFORMED, f"{where} {str(value)[:20]!r}: expected {expected}")


# Request bodies (described only) -------------------------------------------------------


class NewTable(Model):
    """``POST /api/tables``."""

    rules: str = Field(
        "P",
        description="a preset id (GET /api/presets; an alias too)",
        json_schema_extra={"enum": list(presets())},
    )
    house_rules: str | None = Field(
        None, description="the text of a house-rules .toml file (instead of rules)"
    )
    players: int = Field(
        4,
        ge=2,
        le=12,
        description="seats (at most the server's max_players and the rules' own most)",
    )
    name: str | None = Field(None, max_length=MAX_NAME, description="the creator's name")
    clock: float | None = Field(
        None,
        ge=1,
        le=30 * 86400,
        description="seconds per turn (1 to 3600; a turn-based table's: the server's "
        "turn_clock_min to turn_clock_max, hours or days), or null for no clock",
    )
    turn_based: bool = Field(
        False,
        description="a turn-based table: its clock runs while nobody is here, it is never "
        "abandoned, and its players are told when it is their turn",
    )
    public: bool = Field(False, description="listed in the lobby (else invite only)")
    club: str | None = Field(
        None,
        max_length=100,
        description="a club of the signed-in account's: the table is the club's, for its "
        "members only (not public)",
    )
    bots: dict[str, str] = Field(
        default_factory=dict,
        description="seat (from 2) -> a bot level the server offers "
        '(GET /api/config), e.g. {"2": "easy"}',
        json_schema_extra={"propertyNames": {"pattern": r"^[0-9]{1,3}$"}},
    )
    rated: bool = Field(
        False,
        description="the game moves its signed-in players' ratings (the creator signed in, "
        "a preset's rules, not house rules)",
    )


class JoinTable(Model):
    """``POST /api/tables/{id}/join``."""

    name: str | None = Field(None, max_length=MAX_NAME)


class UploadedRecord(Model):
    """``POST /api/replay``."""

    record: str = Field(description="the text of a record .toml")
    seat: int | None = Field(
        None, ge=1, description="the seat whose view to show (from 1); null: every hand open"
    )


class RecordToReview(Model):
    """``POST /api/review``."""

    record: str = Field(description="the text of a record .toml")
    seat: int = Field(ge=1, description="the seat whose decisions to review (from 1)")


# HTTP answers ----------------------------------------------------------------------------


class Preset(Model):
    """A preset rule set: its id, name and description, and ``players``, [fewest, most] (the most at
    the server's ``max_players``)."""

    id: str
    name: str
    description: str
    players: list[int] = Field(min_length=2, max_length=2, description="[fewest, most]")


class AccountName(Model):
    """``POST /api/account/register/options``: a new account's name (signed out), or nothing
    (signed in: one more passkey for this account)."""

    name: str | None = Field(
        None, max_length=MAX_NAME, description="the new account's name; leave out when signed in"
    )


class PasskeyAnswer(Model):
    """``POST /api/account/register/verify`` and ``/signin/verify``: the browser's answer."""

    credential: dict[str, Any] = Field(
        description="the PublicKeyCredential, as its toJSON() gives it (base64url fields)"
    )


class RecoveryCode(Model):
    """``POST /api/account/recover``."""

    code: str = Field(max_length=80, description="the recovery code last shown")


class DeleteAccount(Model):
    """``POST /api/account/delete``."""

    confirm: str = Field(description="the account's name, to confirm")


class LinkToken(Model):
    """``POST /api/account/link/use``."""

    token: str = Field(min_length=20, max_length=100, description="the sign-in link's token")


class Link(Model):
    """``POST /api/account/link``: a token that signs one new device in, once."""

    token: str
    seconds: float = Field(description="how long it works for")


class ClubName(Model):
    """``POST /api/clubs`` and ``/api/clubs/{id}/rename``: the club's name."""

    name: str = Field(max_length=40, description="1 to 40 printable characters")


class InviteToken(Model):
    """``POST /api/clubs/join``: the token of a club's invite link."""

    token: str = Field(min_length=16, max_length=64)


class RemoveMember(Model):
    """``POST /api/clubs/{id}/remove``: the member to remove."""

    account: str = Field(max_length=100, description="the member's account id")


class ShareTable(Model):
    """``POST /api/tables/{id}/share``: who asks (a seat's token; none: the signed-in
    account that holds a seat)."""

    token: str | None = Field(
        default=None, max_length=100, description="the seat's secret token, as the table gave it"
    )


class Shared(Model):
    """``POST /api/tables/{id}/share``'s answer: the game's share token and its page's path."""

    token: str = Field(description="22 characters, random")
    link: str = Field(description="the page's path, ``/s/{token}``")


class NoFields(Model):
    """A request whose body is an empty JSON object."""


class AccountView(Model):
    """An account as its owner sees it."""

    id: str
    name: str
    passkeys: int = Field(description="how many passkeys it has")


class Me(Model):
    """``GET /api/account/me``: the signed-in account, or null for a guest."""

    account: AccountView | None


class SignedIn(Model):
    """A sign-in's answer (the session is in the ``nn_session`` cookie); after a sign-up or a
    recovery, the recovery code, shown this once."""

    account: AccountView
    recovery_code: str | None = None


class PasskeyOptions(Model):
    """The ``publicKey`` options for navigator.credentials.create() or .get(), as JSON."""

    publicKey: dict[str, Any]


class LanguageName(Model):
    """A language the client offers: its BCP 47 tag and its name in itself."""

    tag: str
    native: str


class LanguageCatalog(Model):
    """A language's messages for the browser (:func:`ninetynine.web.catalogs.catalog_json`):
    each English message id's text, or a plural message's forms in the order of
    ``plural``'s CLDR categories (as ``Intl.PluralRules`` names them)."""

    lang: str
    plural: list[str]
    messages: dict[str, str | list[str]]
    languages: list[LanguageName]


class Done(Model):
    """A sign-out or a deletion that was done."""

    ok: bool


class ConfigLimits(Model):
    """The server's limits a client's forms need (named as ``serve --limit`` names them)."""

    max_players: int
    max_house_rules: int
    max_message: int
    chat_length: int


class Config(Model):
    """``GET /api/config``: the bot levels offered, the name of the process that answered where
    several share the database (else null), and the limits a client should know."""

    bots: list[str]
    process: str | None
    limits: ConfigLimits


class RulesName(Model):
    """A rule set's id and name."""

    id: str
    name: str


class SeatSummary(Model):
    """One seat of a table (``seat`` from 1): ``kind`` bot, open or human; ``bot``, a bot seat's
    level; ``connected`` (a bot seat always is); ``bot_playing``, a bot plays for its absent
    player."""

    seat: int
    name: str | None
    kind: Literal["bot", "open", "human"]
    bot: str | None
    connected: bool
    bot_playing: bool


class TableSummary(Model):
    """A table's public summary: its id, status and rules, the players, the turn clock in seconds
    and what is left of the current turn (null: no clock runs), whether it is listed in the lobby,
    the rematch's table, and its seats."""

    id: str
    status: TableStatus
    rules: RulesName
    players: int
    clock: float | None
    clock_left: float | None
    turn_based: bool = Field(False, description="the clock runs while nobody is here")
    deadline: float | None = Field(
        None, description="a turn-based table's current turn runs out then (Unix seconds)"
    )
    public: bool
    rated: bool = Field(description="its game moves its signed-in players' ratings")
    next: str | None = Field(description="the rematch's table, once there is one")
    seats: list[SeatSummary]


class ClubSummary(Model):
    """One of the signed-in account's clubs: its id, name, how many members, whether the
    account owns it."""

    id: str
    name: str
    members: int
    owner: bool


class MyClubs(Model):
    """``GET /api/clubs``: the signed-in account's clubs."""

    clubs: list[ClubSummary]


class ClubMember(Model):
    """A member of a club: the account's id and name, and whether it is the owner."""

    id: str
    name: str
    owner: bool


class ClubPage(Model):
    """A club as its members see it: its id and name, the owner's and the caller's account
    ids, the members, the live invite token (a link ``/c/{invite}``) and its live tables."""

    id: str
    name: str
    owner: str
    you: str
    members: list[ClubMember]
    invite: str
    tables: list[TableSummary]


class SeatToken(Model):
    """A seat a guest played: the table's id and the seat's secret token."""

    table: str = Field(max_length=40)
    token: str = Field(max_length=100)


class ClaimSeats(Model):
    """``POST /api/account/claim``: the seat tokens this browser kept (at most the server's
    ``claims_at_once``)."""

    seats: list[SeatToken]


class Claimed(Model):
    """A seat claimed: its table, the seat (from 1), and whether its game was over (then its
    result is stored, never rated)."""

    table: str
    seat: int
    finished: bool


class ClaimRefused(Model):
    """A seat not claimed, and why (no such table, a token that opens no seat, another
    account's seat)."""

    table: str
    reason: str


class Claims(Model):
    """``POST /api/account/claim``'s answer: each seat claimed or refused."""

    claimed: list[Claimed]
    refused: list[ClaimRefused]


class RatingView(Model):
    """An OpenSkill rating: mu, sigma and the ordinal (mu - 3 sigma) leaderboards sort by."""

    mu: float
    sigma: float
    ordinal: float


class RatingMove(Model):
    """What a rated game did to the account's rating: before, after, the ordinal's change."""

    before: RatingView
    after: RatingView
    ordinal: float


class GameLinks(Model):
    """Where to see a finished game: its replay from the account's seat, the same with the
    coach's review started, and its record (.toml)."""

    replay: str
    review: str
    record: str


class FinishedGame(Model):
    """One of the account's finished games."""

    table: str
    finished: float = Field(description="when it ended (seconds since 1970)")
    rules: RulesName
    family: str
    players: list[str] = Field(description="every seat's name, by seat")
    seat: int = Field(description="the account's seat (from 1)")
    place: int = Field(description="1 for the winners")
    won: bool
    rated: bool
    rating: RatingMove | None = Field(description="a rated game's change, else null")
    club: str | None
    links: GameLinks


class MyGames(Model):
    """``GET /api/account/games``: a page of finished games, newest first; ``next`` is the
    ``before`` of the next page (null: none)."""

    games: list[FinishedGame]
    next: str | None


class RulesPlayed(Model):
    """Games and wins at one rule set."""

    id: str
    name: str
    games: int
    wins: int


class RatingPoint(RatingView):
    """A rating after one rated game, and when."""

    at: float


class FamilyRating(RatingView):
    """A rating in one rules family, after ``games`` rated games, with its history (oldest
    first)."""

    family: str
    games: int
    points: list[RatingPoint]


class Profile(Model):
    """``GET /api/players/{id}``: a player's games and wins per rule set and ratings per
    family."""

    id: str
    name: str
    rules: list[RulesPlayed]
    ratings: list[FamilyRating]


class Leader(RatingView):
    """A player on a leaderboard; a club's also has the account's id (for its profile) and
    its rated games."""

    name: str
    id: str | None = None
    games: int | None = None


class FamilyBoard(Model):
    """One family's best players, best first (by ordinal)."""

    family: str
    players: list[Leader]


class Leaderboard(Model):
    """``GET /api/leaderboard`` and ``GET /api/clubs/{id}/leaderboard``: per rules family."""

    families: list[FamilyBoard]


class Invite(Model):
    """``POST /api/clubs/{id}/invite``: the new invite token (the old one opens nothing)."""

    invite: str


class Created(Model):
    """``POST /api/tables``'s answer: the new table's id, the creator's seat (1), its secret token
    and the invite path (``/t/{id}``)."""

    table: str
    seat: int
    token: str = Field(description="the seat's secret: send it in the WebSocket hello")
    invite: str


class Joined(Model):
    """``POST /api/tables/{id}/join``'s answer: the table's id, the seat taken (from 1) and its
    secret token."""

    table: str
    seat: int
    token: str


class MyPlayer(Model):
    """A seat of one of my games (``seat`` from 1)."""

    seat: int
    name: str
    kind: Literal["bot", "open", "human"]


class MyGame(Model):
    """One of the signed-in account's unfinished games: the table and the link that opens it
    (``POST /api/tables/{id}/seat`` gives this device the seat), its rules, status, my seat
    (from 1), the players, whose turn it is (a seat from 1, null: nobody's), whether it is
    mine, the clock and a turn-based table's deadline (Unix seconds) with the seconds left of
    it, its club."""

    table: str
    link: str
    rules: RulesName
    status: TableStatus
    seat: int
    players: list[MyPlayer]
    turn: int | None
    my_turn: bool
    turn_based: bool
    clock: float | None
    deadline: float | None
    clock_left: float | None = Field(description="seconds left of the current turn, or null")
    club: str | None


class MyTables(Model):
    """``GET /api/account/tables``: my unfinished games, those where it is my turn first."""

    tables: list[MyGame]


class ContactView(Model):
    """The signed-in account's e-mail address (shown to it alone), whether it gets "your
    turn" e-mails and its clubs' webhook messages, and whether this server sends e-mails."""

    email: str | None
    email_on: bool
    webhook_on: bool
    email_sent: bool


class ContactChange(Model):
    """``POST /api/account/contact``: what to change (a field left out stays)."""

    email: str | None = Field(None, max_length=254, description='an address, or "" for none')
    email_on: bool | None = Field(None, description='"your turn" e-mails')
    webhook_on: bool | None = Field(None, description="my turns in my clubs' webhooks")


class Webhook(Model):
    """A club's webhook URL (null: none), as its owner sees it."""

    url: str | None


class WebhookChange(Model):
    """``POST /api/clubs/{id}/webhook``: the URL (a public http(s) address), or ``""``."""

    url: str = Field(max_length=500, description='an http(s) URL, or "" for none')


class Counter(Model):
    """What a player loses, singular and plural: the rules' counter (``penny``, ``pennies``) or
    ``game point``."""

    one: str
    many: str


class Outcome(Model):
    """How the game ended: the winners (seats from 1), the reason's code and the same in words."""

    winners: list[int]
    reason: str
    why: str


class View(Model):
    """A seat's view (:func:`ninetynine.web.wire.view_json`): seats from 1."""

    seat: int | None
    phase: Phase
    turn: int | None
    total: int
    limit: int
    direction: Literal["cw", "ccw"]
    dealer: int | None
    hand_no: int
    hand: list[str]
    hand_sizes: list[int]
    lives: list[int]
    alive: list[bool]
    in_hand: list[bool]
    points: list[int]
    scores: list[int]
    scoring: str
    counter: Counter
    pot: int
    pile: list[str]
    pile_size: int
    stock_size: int
    chain: int
    plays_left: int
    may_decline: bool
    challenger: int | None = None  # whose challenge the seat to act must answer (KC), from 1
    known: list[list[str]] = Field(
        default_factory=list,
        description="per seat, the cards this seat knows in that seat's hand (a swap or a "
        "take showed them, CN99); empty where no cards move between hands",
    )
    legal: list[str]
    outcome: Outcome | None
    hands: list[list[str]] = Field(
        default_factory=list, description="a replay with every hand open: each seat's hand"
    )


class CardLabel(Model):
    """A card's effect in a few words, whether it is special (does more than count its face
    value), and what the seat its play names is for, if it names one."""

    label: str
    special: bool
    names: Literal["next", "challenge", "swap", "take", "strip", "revive"] | None = Field(
        None,
        description="the seat a play names: who plays next, whom it challenges, whose hand it "
        "takes for the player's own, whom it takes a card from, whose hand it strips to one "
        "card, or whom it brings back or fills up",
    )


class RulesLabels(Model):
    """What a client needs to label the cards: the rule set's id, name and limit, each rank's label
    (by rank: ``A``, ``2``, ..., ``K``, and ``SJ``, ``BJ`` where the jokers are in play) and the
    suit exceptions' (by card: ``QS``)."""

    id: str
    name: str
    limit: int
    ranks: dict[str, CardLabel]
    suits: dict[str, CardLabel]


class SeatStanding(Model):
    """One seat's result (``seat`` from 1): its place (1 for the winners), its lives left (its
    side's in teams; its score with game points), the lives or points it lost, and whether it
    won."""

    seat: int
    place: int
    lives: int
    lost: int
    won: bool


class Standings(Model):
    """The standings at the end: the hands played and each seat's result."""

    hands: int
    seats: list[SeatStanding]


class ReplayCall(Model):
    """A call made aloud in a replay's step: the seat (from 1) and what it said, in the replay's
    language (its speech bubble)."""

    seat: int
    call: str


class ReplayStep(Model):
    """One step of a replay: its number (from 0), how many of the record's moves were made by then,
    the view after them, and the table talk since the step before (in the replay's language, with
    the calls made in it)."""

    step: int
    moves: int
    view: View
    talk: list[str]
    calls: list[ReplayCall]


class Replay(Model):
    """A game step by step: the card labels, the players' names, the steps, the seat whose view they
    show (from 1; null: every hand open), and the standings where the game is over."""

    rules: RulesLabels
    names: list[str]
    steps: list[ReplayStep]
    seat: int | None
    standings: Standings | None


class MoveAdvice(Model):
    """One legal move beside the coach: its chance (0 to 1) of losing the hand, and the game (null
    where the game is not won by lives), whether it is the coach's pick, and whether it is tied with
    it."""

    action: str
    actions: list[str] = Field(
        description="every legal action the move stands for (the "
        "same card in other suits, where suits do not matter)"
    )
    lose_hand: float
    lose_game: float | None
    best: bool
    tied: bool = Field(description="within the noise of the best move's figures")


class Advice(Model):
    """The coach's figures for one seat's decision (``seat`` from 1): its best move, the moves tied
    with it, the deals every move was tried on, and each legal move's figures."""

    seat: int
    best: str
    tied: list[str] = Field(
        description="the moves tied for the best; empty where the best stands out"
    )
    deals: int
    note: str | None = Field(
        description="how the figures were made, where a person should "
        "know (the game's odds estimated at a table of many lives)"
    )
    calibration: int | None = Field(
        description="the version of the coach's calibration the figures went through; "
        "null: the search's own figures (no map fitted for these rules' family)"
    )
    moves: list[MoveAdvice]


class Decision(Model):
    """One reviewed decision: the action's number in the record (from 1), the hand and total it was
    made at, the move played and the coach's, the points (0-100) of chance of losing the hand it
    cost and their standard error, its flag (``?!``, ``?``, ``??`` as the cost grows) and the
    coach's advice."""

    action_number: int
    hand: int
    total: int
    played: str
    best: str
    agrees: bool = Field(description="the move played is the coach's, or one tied with it")
    cost: float
    error: float | None = Field(
        description="the cost's standard error; null: too few deals to tell"
    )
    flag: Literal["", "?!", "?", "??"]
    advice: Advice


class Review(Model):
    """One seat's decisions reviewed by the coach (``seat`` from 1, with ``playouts`` per decision),
    and the numbers of the costliest flagged ones, costliest first."""

    seat: int
    playouts: int
    decisions: list[Decision]
    costliest: list[int]


# WebSocket frames (server to client) ---------------------------------------------------


class Play(Model):
    """One legal play of a card: the action as text and the total it makes."""

    action: str
    total: int


class Refused(Model):
    """Why a card may not be played now: the engine's refusal code and its reason in words."""

    reason: str
    why: str


class CardChoices(Model):
    """What a card of the hand would do now: its legal plays, or (``refused``, else null) why it may
    not be played."""

    plays: list[Play]
    refused: Refused | None


# The server's own lines in the log (not engine events), by kind.
NOTES = ("Joined", "Returned", "TakenOver", "TimedOut", "BotReplaced", "BotHurried", "Abandoned")


class Note(Model):
    """A server line in the log: who sat down, left, came back, ran out of time."""

    kind: Literal[NOTES]  # type: ignore[valid-type]
    seat: int
    text: str


def _wire_type(name: str, hint: Any) -> Any:
    """An event field's type as :func:`ninetynine.engine.events.event_to_json` writes it."""
    if name == "card":
        return str
    if name == "cards" and hint is not int:
        return list[str]
    if get_origin(hint) is tuple:
        return list[get_args(hint)[0]]  # type: ignore[misc]
    return hint


def _event_model(cls: type[events.Event]) -> type[BaseModel]:
    """An engine event as :func:`ninetynine.web.wire.event_json` writes it: its fields,
    seats from 1, cards as text, and its line of table talk (``call``: what was said, and
    ``said``: the same in the connection's language)."""
    hints = get_type_hints(cls)
    fields: dict[str, Any] = {"kind": (Literal[cls.__name__], ...)}
    for f in dataclasses.fields(cls):
        fields[f.name] = (_wire_type(f.name, hints[f.name]), ...)
    if cls is events.TotalCalled:
        fields["call"] = (str, ...)  # its own text moves here: "text" is the narration
        # the call in the connection's language, for its speech bubble (wire.in_language)
        fields["said"] = (str | None, None)
    fields["text"] = (str | None, ...)
    model: type[BaseModel] = create_model(cls.__name__, __base__=Model, **fields)
    return model


# from the module's names: __subclasses__() also lists each slots dataclass's first class
EVENTS = [
    _event_model(c)
    for c in vars(events).values()
    if isinstance(c, type) and issubclass(c, events.Event) and c is not events.Event
]
# one line of the log: a union built from the events module, so it is no static type
LogLine: Any = Annotated[Union[tuple([Note, *EVENTS])], Field(discriminator="kind")]  # noqa: UP007


class ChatLine(Model):
    """A chat line: the seat (from 1; null: a spectator), the name shown, the text and when it was
    said (Unix seconds)."""

    seat: int | None
    name: str | None
    text: str
    at: int


class TableFrame(Model):
    """``sync`` (on hello: also the card labels and the recent chat) and ``update``."""

    type: Literal["sync", "update"]
    state: int
    table: TableSummary
    view: View
    events: list[LogLine]
    options: dict[str, CardChoices] = Field(
        default_factory=dict, description="on the seat's turn: what each card would do"
    )
    stuck: str | None = Field(None, description="on the seat's turn: why no card may be played")
    standings: Standings | None = None
    rules: RulesLabels | None = None
    chat: list[ChatLine] = Field(default_factory=list)


class ErrorFrame(Refusal):
    """``error``: a message was refused and changed nothing."""

    type: Literal["error"]


class ChatFrame(ChatLine):
    """``chat``: a line somebody at the table said."""

    type: Literal["chat"]


class CoachFrame(Advice):
    """``coach``: the coach's figures for the seat's decision at state id ``state``."""

    type: Literal["coach"]
    state: int


class PongFrame(Model):
    """``pong``: the answer to ``ping``, with the current state id."""

    type: Literal["pong"]
    state: int


class RematchFrame(Model):
    """``rematch``: the id of the rematch's table."""

    type: Literal["rematch"]
    table: str


class LobbyFrame(Model):
    """``lobby`` (``/ws/lobby``): the public tables, sent again whenever they change."""

    type: Literal["lobby"]
    tables: list[TableSummary]


Frame = Annotated[
    TableFrame | ErrorFrame | ChatFrame | CoachFrame | PongFrame | RematchFrame | LobbyFrame,
    Field(discriminator="type"),
]

# Every frame the server sends on /ws/{table} and /ws/lobby, as JSON Schema.
FRAME_SCHEMA: dict[str, Any] = TypeAdapter(Frame).json_schema()


# The routes ------------------------------------------------------------------------------

READ = (400, 503)  # what any route of the API may answer (the Guard's host check, storage)
WRITE = (400, 403, 413, 415, 429, 503)  # and a POST (the Guard's origin, type, size; rate)


LANG_PARAMETER = {
    "name": "lang",
    "in": "query",
    "required": False,
    "description": "the language (a tag or locale name: th, zh-TW, de_DE);"
    " none: the first of ours that Accept-Language asks for, else English",
    "schema": {"type": "string"},
}


def _json(
    answer: Any,
    *statuses: int,
    body: tuple[type[BaseModel], str] | None = None,
    seat: tuple[str, bool] | None = None,
    lang: bool = False,
) -> dict[str, Any]:
    """A JSON route's decorator arguments: its answer and refusals, the body it reads by
    hand, and its ``seat`` and ``lang`` query parameters (read by hand too; the route hides
    FastAPI's)."""
    extra: dict[str, Any] = {}
    if body is not None:
        extra["requestBody"] = {
            "required": True,
            "description": body[1],
            "content": {"application/json": {"schema": body[0].model_json_schema()}},
        }
    if seat is not None:
        extra["parameters"] = [
            {
                "name": "seat",
                "in": "query",
                "required": seat[1],
                "description": seat[0],
                "schema": {"type": "integer", "minimum": 1},
            }
        ]
    if lang:
        extra.setdefault("parameters", []).append(LANG_PARAMETER)
    return {
        "response_model": None,
        "openapi_extra": extra or None,
        "responses": {200: {"model": answer}, **errors(*statuses)},
    }


def _text(
    media_type: str, description: str, response_class: type[Response], *statuses: int
) -> dict[str, Any]:
    return {
        "response_class": response_class,
        "responses": {
            200: {
                "description": description,
                "content": {media_type: {"schema": {"type": "string"}}},
            },
            **errors(*statuses),
        },
    }


def _shared_page() -> dict[str, Any]:
    """A share link's page: the client's page, with a 404 (the same page, which then says
    the link opens nothing) for a token that is no shared game's."""
    spec = _text("text/html", "the client's page", FileResponse, 400)
    spec["responses"][404] = {
        "description": "no shared game at this link: the client's page, which says so",
        "content": {"text/html": {"schema": {"type": "string"}}},
    }
    return spec


# Each route's decorator arguments, by method and path.
ROUTES: dict[str, dict[str, Any]] = {
    "GET /api/presets": _json(list[Preset], 400),
    "GET /api/config": _json(Config, *READ),
    "GET /api/tables": _json(list[TableSummary], *READ),
    "POST /api/tables": _json(Created, *WRITE, 401, 404, body=(NewTable, "the table to create")),
    "GET /api/tables/{table_id}": _json(TableSummary, *READ, 404),
    "POST /api/tables/{table_id}/join": _json(
        Joined, *WRITE, 404, 409, body=(JoinTable, "the joining player")
    ),
    "GET /api/tables/{table_id}/record": _text(
        "application/toml", "a finished game's record", Response, *READ, 404, 409
    ),
    "GET /api/tables/{table_id}/replay": _json(
        Replay,
        *READ,
        404,
        409,
        seat=("the seat whose view to show (from 1); none: every hand open", False),
        lang=True,
    ),
    "GET /api/tables/{table_id}/review": _json(
        Review, *READ, 404, 409, 429, seat=("the seat whose decisions to review (from 1)", True)
    ),
    "POST /api/tables/{table_id}/share": _json(
        Shared, *WRITE, 404, 409, body=(ShareTable, "the player who shares the game")
    ),
    "GET /api/shared/{token}/replay": _json(
        Replay,
        *READ,
        404,
        seat=("the seat whose view to show (from 1); none: every hand open", False),
        lang=True,
    ),
    "GET /api/shared/{token}/review": _json(
        Review, *READ, 404, 429, seat=("the seat whose decisions to review (from 1)", True)
    ),
    "GET /api/shared/{token}/record": _text(
        "application/toml", "a shared game's record", Response, *READ, 404
    ),
    "POST /api/review": _json(
        Review, *WRITE, body=(RecordToReview, "the record and the seat to review")
    ),
    "POST /api/replay": _json(
        Replay, *WRITE, body=(UploadedRecord, "the record and the seat's view"), lang=True
    ),
    "POST /api/account/register/options": _json(
        PasskeyOptions, *WRITE, 401, 409, body=(AccountName, "the new account's name")
    ),
    "POST /api/account/register/verify": _json(
        SignedIn, *WRITE, 401, 409, body=(PasskeyAnswer, "the new passkey")
    ),
    "POST /api/account/signin/options": _json(
        PasskeyOptions, *WRITE, body=(NoFields, "nothing (no name is asked)")
    ),
    "POST /api/account/signin/verify": _json(
        SignedIn, *WRITE, 401, body=(PasskeyAnswer, "the passkey's signature")
    ),
    "POST /api/account/recover": _json(
        SignedIn, *WRITE, 401, body=(RecoveryCode, "the recovery code")
    ),
    "POST /api/account/link": _json(Link, *WRITE, 401, body=(NoFields, "nothing")),
    "POST /api/account/link/use": _json(
        SignedIn, *WRITE, body=(LinkToken, "the sign-in link's token")
    ),
    "GET /api/account/me": _json(Me, *READ),
    "POST /api/account/signout": _json(Done, *WRITE, body=(NoFields, "nothing")),
    "POST /api/account/delete": _json(
        Done, *WRITE, 401, body=(DeleteAccount, "the account's name, to confirm")
    ),
    "GET /api/clubs": _json(MyClubs, *READ, 401),
    "POST /api/clubs": _json(ClubPage, *WRITE, 401, body=(ClubName, "the new club's name")),
    "POST /api/clubs/join": _json(
        ClubPage, *WRITE, 401, 404, 409, body=(InviteToken, "the invite link's token")
    ),
    "GET /api/clubs/{club_id}": _json(ClubPage, *READ, 401, 404),
    "POST /api/clubs/{club_id}/rename": _json(
        ClubPage, *WRITE, 401, 404, body=(ClubName, "the club's new name")
    ),
    "POST /api/clubs/{club_id}/invite": _json(Invite, *WRITE, 401, 404, body=(NoFields, "nothing")),
    "POST /api/clubs/{club_id}/leave": _json(
        Done, *WRITE, 401, 404, 409, body=(NoFields, "nothing")
    ),
    "POST /api/clubs/{club_id}/remove": _json(
        Done, *WRITE, 401, 404, 409, body=(RemoveMember, "the member to remove")
    ),
    "POST /api/clubs/{club_id}/delete": _json(Done, *WRITE, 401, 404, body=(NoFields, "nothing")),
    "GET /api/account/games": _json(MyGames, *READ, 401),
    "GET /api/account/records": _text(
        "application/zip", "every finished game's record, one .toml each", Response, *READ, 401
    ),
    "POST /api/account/claim": _json(
        Claims, *WRITE, 401, body=(ClaimSeats, "the seat tokens this browser kept")
    ),
    "GET /api/players/{account_id}": _json(Profile, *READ, 401, 404),
    "GET /api/clubs/{club_id}/leaderboard": _json(Leaderboard, *READ, 401, 404),
    "GET /api/leaderboard": _json(Leaderboard, *READ),
    "GET /api/account/tables": _json(MyTables, *READ, 401),
    "POST /api/tables/{table_id}/seat": _json(Joined, *WRITE, 401, 404, body=(NoFields, "nothing")),
    "GET /api/account/contact": _json(ContactView, *READ, 401),
    "POST /api/account/contact": _json(
        ContactView, *WRITE, 401, body=(ContactChange, "what to change")
    ),
    "GET /api/clubs/{club_id}/webhook": _json(Webhook, *READ, 401, 403, 404),
    "POST /api/clubs/{club_id}/webhook": _json(
        Webhook, *WRITE, 401, 404, body=(WebhookChange, "the club's webhook")
    ),
    "GET /u/{token}": _text("text/html", "the page asking to confirm", Response, 404),
    "POST /u/{token}": _text(
        "text/html", "the page saying it is done", Response, 403, 404, 413, 429, 503
    ),
    "GET /t/{table_id}": _text("text/html", "the client's page", FileResponse, 400),
    "GET /c/{invite}": _text("text/html", "the client's page", FileResponse, 400),
    "GET /club/{club_id}": _text("text/html", "the client's page", FileResponse, 400),
    "GET /s/{token}": _shared_page(),
    "GET /": _text("text/html", "the client's page", FileResponse, 400),
    "GET /sw.js": _text("text/javascript", "the client's service worker", FileResponse, 400),
    "GET /api/language": {
        **_json(LanguageCatalog, *READ),
        "openapi_extra": {"parameters": [LANG_PARAMETER]},
    },
}


def route(app: FastAPI | APIRouter, label: str) -> Callable[[F], F]:
    """``@route(router, "GET /api/presets")``: the route, with what :data:`ROUTES` says of it."""
    method, path = label.split(" ", 1)
    decorate: Callable[[F], F] = app.api_route(path, methods=[method], **ROUTES[label])
    return decorate


def openapi_document(app: FastAPI) -> dict[str, Any]:
    """The app's OpenAPI document. FastAPI's own ``422`` validation answer never happens
    here (app.py answers a bad parameter as a ``400`` :class:`Error`), so it is left out."""
    doc = get_openapi(
        title=app.title,
        version=app.version,
        routes=app.routes,
        description="The ninetynine game server's lobby API (docs/server.md)",
    )
    for path in doc.get("paths", {}).values():
        for operation in path.values():
            operation.get("responses", {}).pop("422", None)
    schemas = doc.get("components", {}).get("schemas", {})
    schemas.pop("HTTPValidationError", None)
    schemas.pop("ValidationError", None)
    return doc
