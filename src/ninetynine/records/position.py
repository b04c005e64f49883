"""Positions: a game's complete state as a small TOML document a person can edit.

Only ``rules`` and ``hands`` are required; every other key has a sensible default
(see ``docs/records.md``)::

    rules = "P"
    total = 50
    turn = 1
    hands = ["KS 8D 2C", "9H 10D 3C", "4S 5C 6C", "4H 7C 8C"]

Seats are numbered from 1 in the text. The stock is listed top card first; left out,
it is the rest of the deck in deck order (AS AH AD AC 2S ...).
"""

from __future__ import annotations

import tomllib
from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any

from ninetynine.engine.game import new_game
from ninetynine.engine.state import (
    CHANCE,
    DEAL,
    DRAWING,
    LEAD,
    NO_CHANCE,
    OVER,
    PLAY,
    RESTOCK,
    STRIP,
    TAKE,
    TOPUP,
    UPCARD,
    ChanceKind,
    EndReason,
    Outcome,
    State,
    check_state,
)
from ninetynine.errors import NotationError, RecordError, RulesError
from ninetynine.rules.cards import format_card, format_cards, new_deck, parse_card, parse_cards
from ninetynine.rules.presets import load_rules, rules_spec
from ninetynine.rules.settings import Rules, Teams

# a position's phase: a player's (play, draw), chance's (what is due), or the end
PHASES = (PLAY, DRAWING, DEAL, RESTOCK, TOPUP, UPCARD, LEAD, TAKE, STRIP, OVER)
POSITION_KEYS = {
    "players",
    "phase",
    "total",
    "direction",
    "turn",
    "dealer",
    "starter",
    "hand",
    "lives",
    "out_of_game",
    "out_of_hand",
    "hands",
    "stock",
    "pile",
    "face_down",
    "out",
    "held",
    "turns_played",
    "points",
    "scores",
    "pot",
    "decks",
    "loser",
    "drawer",
    "draws_owed",
    "next_turn",
    "passes",
    "chain",
    "plays_left",
    "may_decline",
    "challenger",
    "victim",
    "known",
    "winners",
    "reason",
}


# Writing ----------------------------------------------------------------------------


def toml_value(value: Any) -> str:
    """A TOML literal for the simple values positions and records hold."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return '"' + "".join(_escape(ch) for ch in value) + '"'
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{_key(k)} = {toml_value(v)}" for k, v in value.items()) + "}"
    raise TypeError(f"cannot write {value!r} as TOML")


_TOML_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\t": "\\t", "\r": "\\r"}


def _escape(ch: str) -> str:
    """One character inside a TOML basic string: control characters become escapes."""
    if ch in _TOML_ESCAPES:
        return _TOML_ESCAPES[ch]
    return f"\\u{ord(ch):04x}" if ord(ch) < 32 or ord(ch) == 127 else ch


def _key(key: str) -> str:
    return key if key.replace("_", "").replace("-", "").isalnum() else toml_value(key)


def rules_lines(rules: Rules) -> list[str]:
    """``rules = ...`` as TOML lines: a preset id, or an inline table of changes."""
    return [f"rules = {toml_value(rules_spec(rules))}"]


def position_fields(state: State) -> dict[str, Any]:
    """Every key of a state's position, in a fixed order, as TOML-ready values."""
    seats = range(state.n)
    phase = state.chance if state.phase == CHANCE else state.phase
    fields: dict[str, Any] = {
        "players": state.n,
        "phase": phase,
        "total": state.total,
        "direction": "cw" if state.direction == 1 else "ccw",
        "turn": state.turn + 1,
        "dealer": state.dealer + 1,
        "starter": state.starter + 1,
        "hand": state.hand_no,
        "lives": list(state.lives),
        "out_of_game": [s + 1 for s in seats if not state.alive[s]],
        "out_of_hand": [s + 1 for s in seats if state.alive[s] and not state.in_hand[s]],
        "hands": [format_cards(h) for h in state.hands],
        "stock": format_cards(reversed(state.stock)),
        "pile": format_cards(state.pile),
        "face_down": state.face_down,
        "out": format_cards(state.out),
        "turns_played": list(state.turns_played),
        "points": list(state.points),
        "scores": list(state.scores),
        "pot": state.pot,
        "decks": state.decks,
        "loser": state.loser + 1,
        "passes": state.passes,
    }
    if state.held >= 0:
        fields["held"] = format_card(state.held)
    if state.phase == CHANCE and state.chance == RESTOCK or state.owed:
        fields["drawer"], fields["draws_owed"] = state.drawer + 1, state.owed
    if state.phase == DRAWING:
        fields["next_turn"] = state.next_turn + 1
    if state.phase == CHANCE and state.chance in (TAKE, STRIP):  # the taker, its victim,
        # who is next
        fields["drawer"], fields["victim"] = state.drawer + 1, state.victim + 1
        fields["next_turn"] = state.next_turn + 1
    if state.phase == CHANCE and state.chance == RESTOCK and state.victim >= 0:
        fields["victim"] = state.victim + 1  # a revival's joker player, who draws next
    if any(state.known):  # per seat, per seat: the cards the one knows in the other's hand
        n = state.n
        fields["known"] = [
            [format_cards(sorted(state.known[o * n + h])) for h in range(n)] for o in range(n)
        ]
    if state.chain:
        fields["chain"] = state.chain
    if state.plays_left:
        fields["plays_left"] = state.plays_left
    if state.may_decline:
        fields["may_decline"] = True
    if state.challenger >= 0:
        fields["challenger"] = state.challenger + 1
    if state.outcome is not None:
        fields["winners"] = [w + 1 for w in state.outcome.winners]
        fields["reason"] = state.outcome.reason
    return fields


def position_lines(state: State) -> list[str]:
    """The ``key = value`` lines of a position (without the rules)."""
    return [f"{k} = {toml_value(v)}" for k, v in position_fields(state).items()]


def format_position(state: State) -> str:
    """The TOML text of a position; :func:`parse_position` reads it back exactly."""
    return "\n".join(rules_lines(state.rules) + position_lines(state)) + "\n"


# Reading ----------------------------------------------------------------------------


def load_toml(text: str) -> dict[str, Any]:
    """Parse TOML text; a syntax error becomes a one-line :class:`NotationError`."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise NotationError(f"not valid TOML: {e}") from None


def parse_position(text: str) -> State:
    """Read a position from TOML text (see :func:`format_position`)."""
    return position_from_mapping(load_toml(text))


def rules_of(data: Mapping[str, Any]) -> Rules:
    """The rules that a record or position's ``rules`` key names (a preset id, or a table
    of house rules); a missing or malformed key is a :class:`RecordError`, bad rules a
    :class:`RulesError`."""
    spec = data.get("rules")
    if spec is None:
        raise RecordError("missing 'rules': name a preset (rules = \"P\") or a table of changes")
    if not isinstance(spec, (str, Mapping)):
        raise RecordError(f"'rules' = {spec!r}: expected a preset id or a table")
    return load_rules(spec)


def _get(data: Mapping[str, Any], key: str, kind: type | tuple[type, ...], default: Any) -> Any:
    value = data.get(key, default)
    if not isinstance(value, kind) or isinstance(value, bool) and kind is int:
        raise RecordError(
            f"position key {key!r} = {value!r}: expected "
            f"{_KIND_TEXT.get(kind, 'a value of another type')}"
        )
    return value


_KIND_TEXT: dict[Any, str] = {
    int: "a whole number",
    str: "text",
    list: "a list",
    bool: "true or false",
}


def _seat(data: Mapping[str, Any], key: str, n: int, default: int) -> int:
    value: int = _get(data, key, int, default + 1)
    if not 1 <= value <= n:
        raise RecordError(f"position key {key!r} = {value}: expected a seat from 1 to {n}")
    return value - 1


def _seat_list(data: Mapping[str, Any], key: str, n: int) -> set[int]:
    seats = _get(data, key, list, [])
    if not all(isinstance(s, int) and 1 <= s <= n for s in seats):
        raise RecordError(f"position key {key!r} = {seats!r}: expected seats from 1 to {n}")
    return {s - 1 for s in seats}


def _int_list(data: Mapping[str, Any], key: str, length: int, default: list[int]) -> list[int]:
    values = _get(data, key, list, default)
    if len(values) != length or not all(
        isinstance(v, int) and not isinstance(v, bool) for v in values
    ):
        raise RecordError(f"position key {key!r} = {values!r}: expected {length} whole numbers")
    return list(values)


def _cards(data: Mapping[str, Any], key: str, default: str = "") -> list[int]:
    value = _get(data, key, str, default)
    try:
        return parse_cards(value)
    except NotationError as e:
        raise RecordError(f"position key {key!r}: {e}") from None


Admit = Callable[[Rules, int, int], None]
"""A reader's bounds on what it will build, called with the rules, the players and the
decks before a card is made: the web refuses a record of 50,000 decks before dealing one."""


def position_from_mapping(data: Mapping[str, Any], admit: Admit | None = None) -> State:
    """Build and check a state from the keys of a position (within ``admit``'s bounds)."""
    try:
        rules = rules_of(data)
    except RulesError as e:
        raise RecordError(f"rules: {e}") from None
    unknown = set(data) - POSITION_KEYS - {"rules", "actions", "first", "result"}
    if unknown:
        raise RecordError(
            f"unknown position key(s) {', '.join(sorted(unknown))}; accepted: "
            f"rules, {', '.join(sorted(POSITION_KEYS))}, actions"
        )
    hands_text = _get(data, "hands", list, None if "hands" not in data else [])
    if not all(isinstance(h, str) for h in hands_text):
        raise RecordError(
            "position key 'hands': expected a list of texts, one per seat, e.g. "
            '["KS 8D 2C", "9H 10D 3C"]'
        )
    n = _get(data, "players", int, len(hands_text))
    if len(hands_text) != n:
        raise RecordError(f"'hands' lists {len(hands_text)} seats but players = {n}")
    turn = _seat(data, "turn", n, 0)
    decks = _get(data, "decks", int, rules.decks_for(n) if n > 0 else rules.decks)
    if admit is not None:
        admit(rules, n, decks)
    state = new_game(rules, n, first=turn)
    phase = _get(data, "phase", str, "play")
    if phase not in PHASES:
        raise RecordError(f"position key 'phase' = {phase!r}: expected one of {', '.join(PHASES)}")
    try:
        state.hands = [parse_cards(h) for h in hands_text]
    except NotationError as e:
        raise RecordError(f"position key 'hands': {e}") from None
    state.total = _get(data, "total", int, 0)
    direction = _get(data, "direction", str, "cw")
    if direction not in ("cw", "ccw"):
        raise RecordError(f'position key \'direction\' = {direction!r}: expected "cw" or "ccw"')
    state.direction = 1 if direction == "cw" else -1
    state.turn = turn
    state.dealer = _seat(data, "dealer", n, (turn - 1) % n)
    state.starter = _seat(data, "starter", n, turn)
    state.hand_no = _get(data, "hand", int, 1)
    state.decks = decks
    out_of_game = _seat_list(data, "out_of_game", n)
    out_of_hand = _seat_list(data, "out_of_hand", n)
    sides = len(state.lives)
    default_lives = [
        0 if (rules.teams is not Teams.POOLED and s in out_of_game) else state.lives[s]
        for s in range(sides)
    ]
    state.lives = _int_list(data, "lives", sides, default_lives)
    state.alive = [s not in out_of_game for s in range(n)]
    state.in_hand = [s not in out_of_game and s not in out_of_hand for s in range(n)]
    state.pile = _cards(data, "pile")
    state.face_down = _get(data, "face_down", int, 0)
    state.out = _cards(data, "out")
    held = _get(data, "held", str, "")
    try:
        state.held = parse_card(held) if held else -1
    except NotationError as e:
        raise RecordError(f"position key 'held': {e}") from None
    state.turns_played = _int_list(data, "turns_played", n, [0] * n)
    state.points = _int_list(data, "points", n, state.points)
    state.scores = _int_list(data, "scores", n, [0] * n)
    state.pot = _get(data, "pot", int, 0)
    state.loser = _get(data, "loser", int, 0) - 1
    state.passes = _get(data, "passes", int, 0)
    state.drawer = _get(data, "drawer", int, 0) - 1
    state.owed = _get(data, "draws_owed", int, 0)
    state.next_turn = _get(data, "next_turn", int, 0) - 1
    state.chain = _get(data, "chain", int, 0)
    state.plays_left = _get(data, "plays_left", int, 0)
    state.may_decline = _get(data, "may_decline", bool, False)
    state.challenger = _get(data, "challenger", int, 0) - 1
    state.victim = _get(data, "victim", int, 0) - 1
    state.known = _known(data, n, state) if state.known or "known" in data else []
    if state.chain < 0 or state.plays_left < 0 or state.chain and state.plays_left:
        raise RecordError(
            f"chain = {state.chain}, plays_left = {state.plays_left}: expected "
            "whole numbers from 0, not both above 0 (a run ends the chain)"
        )
    if "stock" in data:
        state.stock = list(reversed(_cards(data, "stock")))
    else:
        state.stock = []
        rest = Counter(new_deck(state.decks, state.rules.jokers)) - Counter(state.all_cards())
        state.stock = sorted(rest.elements(), reverse=True)
    state.phase, state.chance = PLAY, NO_CHANCE
    if phase == DRAWING:
        state.phase = DRAWING
        if state.next_turn < 0:
            raise RecordError("phase = \"draw\" needs 'next_turn', the seat that plays next")
    elif phase == OVER:
        state.phase = OVER
        winners = _seat_list(data, "winners", n)
        reason = _get(data, "reason", str, EndReason.GIVEN.value)
        if reason not in EndReason._value2member_map_:
            raise RecordError(
                f"position key 'reason' = {reason!r}: expected one of "
                + ", ".join(r.value for r in EndReason)
            )
        state.outcome = Outcome(tuple(sorted(winners)), EndReason(reason))
    elif phase in (DEAL, RESTOCK, TOPUP, UPCARD, LEAD, TAKE, STRIP):
        state.phase, state.chance = CHANCE, ChanceKind(phase)
        if phase == UPCARD and state.held < 0:
            raise RecordError("phase = \"upcard\" needs 'held', the special card to put back")
        if phase in (TAKE, STRIP) and (state.victim < 0 or state.next_turn < 0):
            raise RecordError(
                f"phase = \"{phase}\" needs 'drawer' (the taker), 'victim' and 'next_turn'"
            )
        if phase == RESTOCK and state.drawer < 0:
            raise RecordError("phase = \"restock\" needs 'drawer', the seat waiting to draw")
    check_state(state)
    return state


def _known(data: Mapping[str, Any], n: int, state: State) -> list[list[int]]:
    """The ``known`` key: per seat, per seat, the cards the first knows in the second's
    hand (O46, O47); only under rules whose cards move between hands."""
    if not state.c.moving:
        raise RecordError("position key 'known': these rules move no cards between hands")
    rows = data.get("known", [[""] * n for _ in range(n)])
    if not (
        isinstance(rows, list)
        and len(rows) == n
        and all(isinstance(r, list) and len(r) == n for r in rows)
        and all(isinstance(t, str) for r in rows for t in r)
    ):
        raise RecordError(
            f"position key 'known': expected {n} lists of {n} strings of cards, the cards "
            "each seat knows in each seat's hand"
        )
    try:
        return [parse_cards(t) for r in rows for t in r]
    except NotationError as e:
        raise RecordError(f"position key 'known': {e}") from None
