"""The server's refusals: a typed code for programs, one line of text for people.

A move the rules refuse has the engine's own cause as its code
(:class:`ninetynine.errors.Refusal`: ``over_limit``, ``below_zero``, ``opening_ban``,
``not_in_hand``, ``choice_required``, ...) and the moves allowed instead under ``legal``.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from ninetynine.errors import NinetyNineError, Refusal
from ninetynine.language import N_, Language


class ErrorCode(StrEnum):
    """Why the server refused a request or a message, where the rules did not: a move the
    rules refuse has its :class:`~ninetynine.errors.Refusal` as its code instead (the two
    sets share no value, so a client reads one field either way)."""

    MALFORMED = "malformed"  # a body or message of the wrong shape (naming the field)
    BAD_HOST = "bad_host"
    BAD_NAME = "bad_name"
    BAD_RECORD = "bad_record"
    BAD_RULES = "bad_rules"
    BAD_TABLE = "bad_table"
    BAD_TOKEN = "bad_token"  # a seat's secret that does not open it
    DUPLICATE = "duplicate"  # a move already made (its id seen before)
    STALE = "stale"  # a move for a state that has moved on
    NOT_STARTED = "not_started"
    NOT_FINISHED = "not_finished"
    SPECTATOR = "spectator"  # a watcher asked for what only a seat may do
    NO_TABLE = "no_table"
    TABLE_FULL = "table_full"
    FORBIDDEN_ORIGIN = "forbidden_origin"
    UNSUPPORTED_MEDIA_TYPE = "unsupported_media_type"
    NOT_FOUND = "not_found"  # no such route (Starlette's own 404)
    METHOD_NOT_ALLOWED = "method_not_allowed"
    HTTP = "http"  # any other refusal of Starlette's
    LIMIT = "limit"  # over a server limit with no code of its own
    TOO_LARGE = "too_large"
    TOO_DEEP = "too_deep"
    RATE_LIMITED = "rate_limited"
    TOO_MANY_TABLES = "too_many_tables"
    TOO_MANY_CONNECTIONS = "too_many_connections"
    TOO_MANY_REFUSALS = "too_many_refusals"
    CROWDED = "crowded"  # a table with as many watchers as it takes
    BUSY = "busy"  # the workers' queue is full
    SERVER = "server"  # a storage failure: nothing was changed
    NOT_SIGNED_IN = "not_signed_in"  # an account's request without a live session
    SIGNED_IN = "signed_in"  # a sign-up while signed in (that adds a passkey instead)
    NAME_TAKEN = "name_taken"  # an account of that name exists
    BAD_CHALLENGE = "bad_challenge"  # a passkey's answer to no live challenge (used, expired)
    BAD_PASSKEY = "bad_passkey"  # a new passkey that did not verify
    SIGN_IN_FAILED = "sign_in_failed"  # whatever the reason: it says nothing of who exists
    SIGN_COUNT = "sign_count"  # a passkey's counter that did not move up (a copy, a replay)
    BAD_RECOVERY = "bad_recovery"  # a recovery code that opens no account
    NO_CLUB = "no_club"  # no such club, or none the caller is a member of (the same answer)
    NOT_OWNER = "not_owner"  # a member asked for what only the club's owner may do
    OWNER_STAYS = "owner_stays"  # the owner may not leave its club (it deletes it instead)
    NO_MEMBER = "no_member"  # the owner named an account that is no member
    BAD_INVITE = "bad_invite"  # an invite token that is no club's (mistyped, or rotated)
    TOO_MANY_CLUBS = "too_many_clubs"
    CLUB_FULL = "club_full"
    NOT_PLAYER = "not_player"  # only a player of the table may do that (share its game)
    NO_SHARE = "no_share"  # a share link's token that opens no shared game
    NO_PLAYER = "no_player"  # no such account, or one the caller shares no club with
    NO_SEAT = "no_seat"  # the signed-in account holds no seat at that table
    BAD_EMAIL = "bad_email"
    BAD_WEBHOOK = "bad_webhook"  # not http(s), or an address the server may not post to
    BAD_UNSUBSCRIBE = "bad_unsubscribe"  # an unsubscribe link that is no account's
    WORK_TIMEOUT = "work_timeout"
    WORK_MEMORY = "work_memory"


Code = ErrorCode | Refusal  # every code a client can be sent

# What a person is told of each code in their language (``said``). The English ``message``
# is written for people too, and names the input and the limit: English readers get it
# as it is; a translation says what the code means, as the message cannot be translated.
SAID: dict[Code, str] = {
    ErrorCode.MALFORMED: N_("The server could not read that request."),
    ErrorCode.BAD_HOST: N_("This server does not answer to that address."),
    ErrorCode.BAD_NAME: N_("That name cannot be used: choose another."),
    ErrorCode.BAD_RECORD: N_("That file is not a game record this server can read."),
    ErrorCode.BAD_RULES: N_("Those rules cannot be played: check the rule set and its settings."),
    ErrorCode.BAD_TABLE: N_("That table cannot be set up: check its seats and players."),
    ErrorCode.BAD_TOKEN: N_("Your seat at this table is no longer yours in this browser."),
    ErrorCode.DUPLICATE: N_("That move was already played."),
    ErrorCode.STALE: N_("The game moved on before your move arrived: look again and play."),
    ErrorCode.NOT_STARTED: N_("The game starts when every seat is taken."),
    ErrorCode.NOT_FINISHED: N_("That can be done when the game is over."),
    ErrorCode.SPECTATOR: N_("You are watching this table: only its players can do that."),
    ErrorCode.NO_TABLE: N_("There is no such table: it may have ended."),
    ErrorCode.TABLE_FULL: N_("Every seat at this table is taken."),
    ErrorCode.FORBIDDEN_ORIGIN: N_("Play from this server's own page."),
    ErrorCode.UNSUPPORTED_MEDIA_TYPE: N_("The server could not read that request."),
    ErrorCode.NOT_FOUND: N_("There is nothing at that address."),
    ErrorCode.METHOD_NOT_ALLOWED: N_("The server could not read that request."),
    ErrorCode.HTTP: N_("The server refused that request."),
    ErrorCode.LIMIT: N_("That is over one of this server's limits."),
    ErrorCode.TOO_LARGE: N_("That is too large for this server."),
    ErrorCode.TOO_DEEP: N_("The server could not read that request."),
    ErrorCode.RATE_LIMITED: N_("Too many requests at once: wait a moment and try again."),
    ErrorCode.TOO_MANY_TABLES: N_("Too many tables are open: try again later."),
    ErrorCode.TOO_MANY_CONNECTIONS: N_("Too many pages of this server are open here: close some."),
    ErrorCode.TOO_MANY_REFUSALS: N_("Too many messages were refused: the connection is closed."),
    ErrorCode.CROWDED: N_("This table has as many watchers as it takes: try again later."),
    ErrorCode.BUSY: N_("The server is busy: try again in a moment."),
    ErrorCode.SERVER: N_("The server could not save that: nothing changed; try again."),
    ErrorCode.NOT_SIGNED_IN: N_("Sign in first."),
    ErrorCode.SIGNED_IN: N_("You are signed in already."),
    ErrorCode.NAME_TAKEN: N_("An account of that name exists: choose another name."),
    ErrorCode.BAD_CHALLENGE: N_("The sign-in took too long: try again."),
    ErrorCode.BAD_PASSKEY: N_("That passkey could not be checked: try again."),
    ErrorCode.SIGN_IN_FAILED: N_("The sign-in failed."),
    ErrorCode.SIGN_COUNT: N_("That passkey may have been copied: the sign-in was refused."),
    ErrorCode.BAD_RECOVERY: N_("That recovery code opens no account."),
    ErrorCode.NO_CLUB: N_("There is no such club of yours."),
    ErrorCode.NOT_OWNER: N_("Only the club's owner can do that."),
    ErrorCode.OWNER_STAYS: N_("The owner cannot leave the club: delete it instead."),
    ErrorCode.NO_MEMBER: N_("That player is not a member of the club."),
    ErrorCode.BAD_INVITE: N_("That invite link opens no club: ask a member for a new one."),
    ErrorCode.TOO_MANY_CLUBS: N_("You are in as many clubs as an account may be."),
    ErrorCode.CLUB_FULL: N_("The club has as many members as it may have."),
    ErrorCode.NOT_PLAYER: N_("Only a player of this table can do that."),
    ErrorCode.NO_SHARE: N_("That share link opens no game."),
    ErrorCode.NO_PLAYER: N_("There is no such player among your clubs."),
    ErrorCode.NO_SEAT: N_("Your account has no seat at that table."),
    ErrorCode.BAD_EMAIL: N_("That is not an e-mail address."),
    ErrorCode.BAD_WEBHOOK: N_("That address cannot be used for a webhook."),
    ErrorCode.BAD_UNSUBSCRIBE: N_("That unsubscribe link is no account's."),
    ErrorCode.WORK_TIMEOUT: N_("That took longer than the server allows: it was stopped."),
    ErrorCode.WORK_MEMORY: N_("That needed more memory than the server allows: it was stopped."),
    Refusal.GAME_OVER: N_("The game is over."),
    Refusal.CHANCE_PENDING: N_("Wait: the cards are being dealt."),
    Refusal.NOT_YOUR_TURN: N_("It is not your turn."),
    Refusal.NOT_IN_HAND: N_("That card is not in your hand."),
    Refusal.CHOICE_REQUIRED: N_("That card needs a choice of value."),
    Refusal.BAD_VALUE: N_("That card cannot count that value."),
    Refusal.OVER_LIMIT: N_("That card would take the total over the limit: play another."),
    Refusal.BELOW_ZERO: N_("That card would take the total below zero."),
    Refusal.OPENING_BAN: N_("That card cannot be played in your first turns."),
    Refusal.CHAIN: N_("That card cannot be played now: the chain allows other cards."),
    Refusal.BAD_TARGET: N_("That player cannot be named."),
    Refusal.CHALLENGE: N_("You are challenged: answer it or accept it."),
    Refusal.NOT_ALLOWED: N_("That move is not allowed now."),
    Refusal.BAD_CHANCE: N_("The server could not read that request."),
}

# The HTTP status of each code that is not a plain bad request (400).
STATUS = {
    ErrorCode.NO_TABLE: 404,
    ErrorCode.NOT_FOUND: 404,
    ErrorCode.TABLE_FULL: 409,
    ErrorCode.NOT_FINISHED: 409,
    ErrorCode.FORBIDDEN_ORIGIN: 403,
    ErrorCode.METHOD_NOT_ALLOWED: 405,
    ErrorCode.UNSUPPORTED_MEDIA_TYPE: 415,
    ErrorCode.TOO_LARGE: 413,
    ErrorCode.RATE_LIMITED: 429,
    ErrorCode.TOO_MANY_TABLES: 429,
    ErrorCode.TOO_MANY_CONNECTIONS: 429,
    ErrorCode.CROWDED: 429,
    ErrorCode.BUSY: 429,
    ErrorCode.SERVER: 503,
    ErrorCode.NOT_SIGNED_IN: 401,
    ErrorCode.SIGN_IN_FAILED: 401,
    ErrorCode.SIGN_COUNT: 401,
    ErrorCode.BAD_RECOVERY: 401,
    ErrorCode.SIGNED_IN: 409,
    ErrorCode.NAME_TAKEN: 409,
    ErrorCode.NO_CLUB: 404,
    ErrorCode.NOT_OWNER: 403,
    ErrorCode.OWNER_STAYS: 409,
    ErrorCode.NO_MEMBER: 404,
    ErrorCode.BAD_INVITE: 404,
    ErrorCode.TOO_MANY_CLUBS: 429,
    ErrorCode.CLUB_FULL: 409,
    ErrorCode.NOT_PLAYER: 403,
    ErrorCode.NO_SHARE: 404,
    ErrorCode.NO_PLAYER: 404,
    ErrorCode.NO_SEAT: 404,
    ErrorCode.BAD_UNSUBSCRIBE: 404,
    ErrorCode.WORK_TIMEOUT: 503,
    ErrorCode.WORK_MEMORY: 503,
}


class ProtocolError(NinetyNineError):
    """A client request or message that was refused; ``code`` says why (stale, illegal, ...)."""

    def __init__(self, code: Code, message: str, *, legal: list[str] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.legal = legal  # a refused move: the moves allowed instead

    @property
    def status(self) -> int:
        """The HTTP status of the refusal: the one :data:`STATUS` gives its code, else 400 (always
        400 for a move the rules refuse)."""
        return STATUS.get(self.code, 400) if isinstance(self.code, ErrorCode) else 400

    def said(self, lang: Language) -> str:
        """The refusal in ``lang``, for a person (see :data:`SAID`)."""
        return str(self) if lang is Language.EN else lang.translation().gettext(SAID[self.code])

    def details(self, lang: Language = Language.EN) -> dict[str, Any]:
        """What the WebSocket frame and the HTTP body both hold: ``code``, ``message``, ``said``
        (for a person reading ``lang``) and, for a refused move, ``legal``."""
        out: dict[str, Any] = {"code": self.code, "message": str(self), "said": self.said(lang)}
        if self.legal is not None:
            out["legal"] = self.legal
        return out

    def json(self, lang: Language = Language.EN) -> dict[str, Any]:
        """The WebSocket frame."""
        return {"type": "error", **self.details(lang)}

    def http_json(self, lang: Language = Language.EN) -> dict[str, Any]:
        """The body of an HTTP error response."""
        return {"error": str(self), **self.details(lang)}


class LimitError(ProtocolError):
    """A request over one of the server's limits (:mod:`ninetynine.web.limits`); ``limit``
    names the setting, so the operator knows which ``serve --limit`` to look at."""

    def __init__(self, limit: str, message: str, code: ErrorCode = ErrorCode.LIMIT) -> None:
        super().__init__(code, f"{message} (server limit {limit})")
        self.limit = limit

    def details(self, lang: Language = Language.EN) -> dict[str, Any]:
        """As :meth:`ProtocolError.details`, with ``limit``: the name of the setting."""
        return {**super().details(lang), "limit": self.limit}
