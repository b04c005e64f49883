"""What the server accepts, as data: sizes, rates, counts and house-rules bounds.

Every limit is a field of :class:`Limits` with a default a public server can live with;
``ninetynine serve --limit NAME=VALUE`` changes one and ``--limits`` lists them all. A
request or message over a limit is refused with a :class:`LimitError` that names it, so
the person (or the operator reading the log) knows which setting to look at.
"""

from __future__ import annotations

import dataclasses
import json
import time
from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from ninetynine.errors import NinetyNineError
from ninetynine.records.position import Admit
from ninetynine.records.record import Record
from ninetynine.rules.settings import Rules
from ninetynine.web.errors import ErrorCode, LimitError, ProtocolError


def _limit(default: float, help: str) -> Any:
    return field(default=default, metadata={"help": help})


@dataclass(frozen=True, slots=True)
class Limits:
    """Every limit of one server, with a default a public server can live with; each field's
    ``help`` metadata says what it bounds (``serve --limits``). A value of 0 or below raises
    :class:`NinetyNineError`."""

    # sizes
    max_body: int = _limit(65536, "bytes in an HTTP request body")
    max_message: int = _limit(4096, "characters in a WebSocket message")
    max_depth: int = _limit(16, "nesting depth of a JSON body or message, or of house rules")
    max_house_rules: int = _limit(20000, "characters of an uploaded house-rules file")
    max_record: int = _limit(400000, "bytes of a record uploaded to be replayed")
    chat_length: int = _limit(200, "characters in a chat line")
    # house rules a table may be created with
    max_players: int = _limit(12, "seats at a table")
    max_decks: int = _limit(4, "decks of cards a game may use")
    max_lives: int = _limit(99, "lives (or a team's pool, or game points) a player starts with")
    max_hand_size: int = _limit(13, "cards in a hand")
    max_total_limit: int = _limit(
        999,
        "the limit the total must stay under (and any total or amount a card or a threshold names)",
    )
    max_setting: int = _limit(
        99,
        "any other whole number of house rules (turns of the King "
        "ban, the most players a rule set allows, ...)",
    )
    max_moves: int = _limit(10000, "moves in a record uploaded to be replayed or reviewed")
    # who may ask for how much
    tables_per_client: int = _limit(5, "live tables one browser may have created")
    tables_per_address: int = _limit(20, "live tables one network address may have created")
    requests_per_second: float = _limit(
        2.0, "state-changing HTTP requests a second per address (after the burst)"
    )
    requests_burst: int = _limit(20, "state-changing HTTP requests an address may make at once")
    messages_per_second: float = _limit(
        10.0, "WebSocket messages a second per connection (after the burst)"
    )
    messages_burst: int = _limit(30, "WebSocket messages a connection may send at once")
    connections_per_address: int = _limit(200, "open WebSockets per network address")
    unseated_per_address: int = _limit(
        20, "open WebSockets per network address that hold no seat (spectators and lobby pages)"
    )
    refusals_per_connection: int = _limit(
        10, "refused messages in a row after which a WebSocket is closed"
    )
    # accounts (rates per network address, in this process)
    max_accounts: int = _limit(100000, "accounts on this server")
    passkeys_per_account: int = _limit(10, "passkeys one account may have")
    sign_ups_per_hour: float = _limit(
        20.0, "accounts an address may start to create in an hour (after the burst)"
    )
    sign_up_burst: int = _limit(5, "accounts an address may start to create at once")
    sign_ins_per_minute: float = _limit(
        10.0, "sign-ins and recoveries an address may try a minute (after the burst)"
    )
    sign_in_burst: int = _limit(20, "sign-ins and recoveries an address may try at once")
    session_days: float = _limit(30.0, "days a sign-in lasts")
    challenge_seconds: float = _limit(
        300.0, "seconds a passkey's challenge (sign-up or sign-in options) may be answered in"
    )
    link_seconds: float = _limit(
        600.0, "seconds a link that signs a new device in (made on a signed-in one) works for"
    )
    # clubs
    clubs_per_account: int = _limit(20, "clubs one account may belong to (its own among them)")
    members_per_club: int = _limit(100, "members one club may have (its owner among them)")
    # finished games (ninetynine.web.history)
    games_per_page: int = _limit(20, "finished games in one page of an account's history")
    records_per_download: int = _limit(
        500, "game records in an account's download (its newest games)"
    )
    records_seconds: float = _limit(
        60.0, "seconds the replays of an account's download may run before its worker is killed"
    )
    claims_at_once: int = _limit(50, "seats a guest-turned-member may claim in one request")
    leaderboard_size: int = _limit(50, "players shown on a leaderboard, per rules family")
    rating_points: int = _limit(200, "rating history points a profile shows, per family")
    spectators_per_table: int = _limit(100, "spectators watching one table")
    send_queue: int = _limit(
        256, "frames queued for a client that does not read them before it is dropped"
    )
    # turn-based tables (their turn clock is hours or days)
    turn_clock_max: int = _limit(
        30 * 86400, "seconds a turn-based table's turn clock may be (30 days)"
    )
    turn_clock_min: int = _limit(
        600, "seconds a turn-based table's turn clock must be at least (10 minutes)"
    )
    my_tables_shown: int = _limit(50, "unfinished tables an account's 'my games' list shows")
    notices_at_once: int = _limit(8, "'your turn' e-mails and webhooks a process sends at once")
    # time
    bot_seconds: float = _limit(5.0, "seconds a bot may think about one move")
    review_playouts: int = _limit(
        500,
        "playouts the coach runs for each decision of a game "
        "reviewed after its end (a game of 50 decisions: a few "
        "seconds)",
    )
    reviews_at_once: int = _limit(
        2, "games the server reviews at the same time (more are refused until one is done)"
    )
    review_budget: int = _limit(
        100000,
        "playouts one review may cost in all (the seat's "
        "decisions times review_playouts), estimated from the record "
        "before it starts",
    )
    review_seconds: float = _limit(120.0, "seconds a review may run before its worker is killed")
    workers: int = _limit(
        2,
        "worker processes for the coach and reviews (the bots have "
        "their own threads, which these never take)",
    )
    work_queue: int = _limit(
        8, "coach and review requests that may wait for a worker; more are refused"
    )
    worker_memory: int = _limit(
        768,
        "MiB of memory a worker may use (beyond the engine it starts with) before it is stopped",
    )
    coach_playouts: int = _limit(
        1000,
        "playouts the coach runs for a player's decision (about "
        "half a second each 1,000; once a turn, shared by the moves)",
    )
    idle_seconds: float = _limit(
        3600.0, "seconds without a connection or a move before a table is ended as abandoned"
    )
    linger_seconds: float = _limit(
        60.0, "seconds a finished table stays in memory once nobody watches it"
    )

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
                raise NinetyNineError(f"limit {f.name} = {value!r}: expected a number above 0")

    def replace(self, pairs: list[str]) -> Limits:
        """A copy with ``NAME=VALUE`` settings applied (``serve --limit``)."""
        changes: dict[str, Any] = {}
        types = {f.name: f.type for f in dataclasses.fields(self)}
        for pair in pairs:
            name, eq, text = pair.partition("=")
            name = name.strip().replace("-", "_")
            if not eq or name not in types:
                raise NinetyNineError(
                    f"--limit {pair!r}: expected NAME=VALUE with NAME one of {', '.join(types)}"
                )
            try:
                changes[name] = int(text) if types[name] in (int, "int") else float(text)
            except ValueError:
                raise NinetyNineError(f"--limit {pair!r}: expected a number") from None
        return dataclasses.replace(self, **changes)

    def describe(self) -> list[tuple[str, str, str]]:
        """Each limit's name, value and meaning, for ``serve --limits``."""
        return [
            (f.name, _shown(getattr(self, f.name)), f.metadata["help"])
            for f in dataclasses.fields(self)
        ]


def _shown(value: float) -> str:
    """A limit as ``--limits`` prints it: a whole number in full, any other as short as it reads."""
    return str(value) if isinstance(value, int) else f"{value:g}"


def check_json_depth(text: str, max_depth: int) -> None:
    """Refuse JSON nested deeper than ``max_depth`` before parsing it (the parser recurses)."""
    depth = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > max_depth:
                raise LimitError(
                    "max_depth", f"JSON nested more than {max_depth} deep", code=ErrorCode.TOO_DEEP
                )
        elif ch in "]}":
            depth -= 1


def json_object(text: str, max_depth: int, what: str) -> dict[str, Any]:
    """``text`` read as a JSON object (``what``: "a message", "the request body"), or a
    typed refusal: nested deeper than ``max_depth`` (checked before parsing), or no object."""
    check_json_depth(text, max_depth)
    try:
        value = json.loads(text)
    except ValueError:
        value = None
    if not isinstance(value, dict):
        raise ProtocolError(ErrorCode.MALFORMED, f"{what} must be a JSON object")
    return value


def check_data_depth(value: object, max_depth: int, what: str) -> None:
    """Refuse parsed data (house rules) nested deeper than ``max_depth``."""
    stack: list[tuple[object, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if depth > max_depth:
            raise LimitError(
                "max_depth", f"{what} nested more than {max_depth} deep", code=ErrorCode.TOO_DEEP
            )
        if isinstance(item, dict):
            stack += [(v, depth + 1) for v in item.values()]
        elif isinstance(item, list):
            stack += [(v, depth + 1) for v in item]


# The limit that bounds each whole number the rules hold: every numeric setting is here
# (tests/web/test_security.py checks that none is missing), so no upload can ask the server
# for a huge deck, game or penalty. Amounts of lives share one bound, totals another.
RULE_BOUNDS: dict[str, str] = {
    "players_min": "max_players",
    "players_max": "max_setting",
    "big_table_over": "max_setting",
    "king_ban_turns": "max_setting",
    "upcard_special": "max_setting",
    "challenge_cancel": "max_setting",  # ranks (below 13): bounded like any setting
    "no_draw_after": "max_setting",  # ranks too
    "instant_hands": "max_hand_size",
    "decks": "max_decks",
    "big_table_decks": "max_decks",
    "decks_by_players": "max_decks",
    "hand_size": "max_hand_size",
    "lives": "max_lives",
    "big_table_lives": "max_lives",
    "team_lives": "max_lives",
    "points_target": "max_lives",
    "points_per_hand": "max_lives",
    "stake": "max_lives",
    "bust_penalty": "max_lives",
    "limit": "max_total_limit",
    "halve_over": "max_total_limit",
    "rule_69_total": "max_total_limit",
    "threshold_values": "max_total_limit",
    "border_values": "max_total_limit",
    "cards": "max_total_limit",
    "suit_cards": "max_total_limit",
    "joker_cards": "max_total_limit",
}


def rule_numbers(rules: Rules, players: int) -> Iterator[tuple[str, int]]:
    """Every whole number of ``rules`` by its key (a card effect's amounts under
    ``cards``), and what the table of ``players`` starts with (its decks and lives)."""
    yield "decks", rules.decks_for(players)
    yield "lives", rules.lives_for(players)
    for key in RULE_BOUNDS:
        value = getattr(rules, key)
        if key in ("cards", "suit_cards", "joker_cards"):
            for effect in value if key != "suit_cards" else (e for _, e in value):
                yield from ((key, abs(v)) for v in effect.values)
                if effect.to is not None:
                    yield key, abs(effect.to)
        elif key == "decks_by_players":
            yield from ((key, decks) for _, decks in value)
        elif key == "instant_hands":
            yield from ((key, hand.count) for hand in value)
        elif isinstance(value, tuple):
            yield from ((key, v) for v in value)
        else:
            yield key, value


def check_rules(rules: Rules, players: int, limits: Limits) -> None:
    """Refuse rules that would cost the server more than its limits allow: the one check
    of every way rules arrive (a new table, house rules, an uploaded record, a restart)."""
    if players > limits.max_players:
        raise LimitError(
            "max_players",
            f"{players} seats: at most {limits.max_players}",
            code=ErrorCode.BAD_TABLE,
        )
    for key, value in rule_numbers(rules, players):
        limit = RULE_BOUNDS[key]
        bound = getattr(limits, limit)
        if value > bound:
            raise LimitError(
                limit,
                f"rules key {key!r} = {value}: at most {bound} on this server (limit {limit})",
                code=ErrorCode.BAD_RULES,
            )


def admit(limits: Limits) -> Admit:
    """The bounds a record or position read from a request is built within
    (:func:`ninetynine.records.record.parse_record`): its rules, players and decks."""

    def check(rules: Rules, players: int, decks: int) -> None:
        check_rules(rules, players, limits)
        if decks > limits.max_decks:
            raise LimitError(
                "max_decks",
                f"position key 'decks' = {decks}: at most {limits.max_decks} on this server",
                code=ErrorCode.BAD_RECORD,
            )

    return check


def check_record(record: Record, limits: Limits) -> None:
    """Refuse an uploaded record longer than the server replays, or whose position holds
    more lives or a higher total than its rules could (read within :func:`admit`)."""
    if len(record.moves) > limits.max_moves:
        raise LimitError(
            "max_moves",
            f"a record of {len(record.moves)} moves: at most {limits.max_moves}",
            code=ErrorCode.BAD_RECORD,
        )
    start = record.start
    for key, values, limit in (
        ("lives", start.lives, "max_lives"),
        ("total", [abs(start.total)], "max_total_limit"),
    ):
        bound = getattr(limits, limit)
        if max(values, default=0) > bound:
            raise LimitError(
                limit,
                f"position key {key!r} = {max(values)}: at most {bound} on this server",
                code=ErrorCode.BAD_RECORD,
            )


@dataclass(slots=True)
class Bucket:
    """A token bucket: ``rate`` tokens a second, at most ``burst`` saved up."""

    rate: float
    burst: float
    tokens: float = -1.0
    stamp: float = 0.0

    def take(self, now: float | None = None) -> bool:
        """Takes one token: True, or False where less than one is saved up. ``rate`` tokens a second
        are added since the last take (a new bucket starts full); ``now`` is in seconds (default:
        the monotonic clock)."""
        now = time.monotonic() if now is None else now
        if self.tokens < 0:
            self.tokens, self.stamp = self.burst, now
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class Buckets:
    """One bucket per key (an address), the least recently used forgotten past ``size``."""

    def __init__(self, rate: float, burst: float, size: int = 10000) -> None:
        self.rate, self.burst, self.size = rate, burst, size
        self._buckets: OrderedDict[str, Bucket] = OrderedDict()

    def take(self, key: str) -> bool:
        """Takes one token from the bucket of ``key`` (a full one for a key not seen lately): True,
        or False where it is empty."""
        bucket = self._buckets.pop(key, None) or Bucket(self.rate, self.burst)
        self._buckets[key] = bucket
        if len(self._buckets) > self.size:
            self._buckets.popitem(last=False)
        return bucket.take()


class Slots:
    """Things an address holds open at once (its WebSockets), refused past ``cap`` with
    the limit ``limit`` named."""

    def __init__(self, limit: str, cap: int, what: str) -> None:
        self.limit, self.cap, self.what = limit, cap, what
        self._held: dict[str, int] = {}

    def take(self, address: str) -> None:
        """Holds one more slot for ``address``; raises :class:`LimitError`
        (``too_many_connections``) where it holds ``cap`` already."""
        if self._held.get(address, 0) >= self.cap:
            raise LimitError(
                self.limit,
                f"{self.cap} {self.what} from your address are open already",
                code=ErrorCode.TOO_MANY_CONNECTIONS,
            )
        self._held[address] = self._held.get(address, 0) + 1

    def give_back(self, address: str) -> None:
        """Frees one of the slots ``address`` holds."""
        left = self._held.pop(address, 1) - 1
        if left:
            self._held[address] = left
