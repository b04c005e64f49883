"""Game records: rules, a start (a new game or a position) and every action.

A record is a TOML document. Chance outcomes are written out (``shuffle ...``,
``insert N``), so a record replays exactly with no seed. Player actions carry their
seat (``"2: 9H"``), which replay checks::

    rules = "P"
    players = 3
    actions = ["shuffle AS 2H ...", "1: KS", "2: 9H"]

A record that also has position keys (``hands``, ``total``, ...) starts from that
position instead of a new game: this is how a person sets up a situation and plays
moves from it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ninetynine.engine.actions import Action, Move, parse_action
from ninetynine.engine.game import new_game
from ninetynine.engine.state import State
from ninetynine.errors import NotationError, RecordError, RulesError
from ninetynine.records.position import (
    POSITION_KEYS,
    Admit,
    load_toml,
    position_from_mapping,
    position_lines,
    rules_lines,
    rules_of,
    toml_value,
)


@dataclass
class Record:
    """A start state and the moves played from it, each with the seat that made it, and
    the players' names (``P1``, ``P2``, ... when none were given). Play it with
    :meth:`ninetynine.records.match.Match.from_record`."""

    start: State
    moves: list[tuple[int | None, Move]] = field(default_factory=list)
    from_position: bool = False
    names: list[str] = field(default_factory=list)


def move_text(seat: int | None, move: Move, *, short: bool = False) -> str:
    """A move as records write it: ``"2: KS"``, or a chance outcome such as ``"insert 3"``."""
    text = str(move)
    if short and len(text) > 40:
        text = text[:37] + "..."
    return text if seat is None else f"{seat + 1}: {text}"


def format_record(record: Record, result: State | None = None) -> str:
    """The TOML text of a record; ``result`` (the final state) adds a [result] note."""
    start = record.start
    lines = ["# ninetynine game record", *rules_lines(start.rules)]
    if record.from_position:
        lines += position_lines(start)
    else:
        lines += [f"players = {start.n}", f"first = {start.starter + 1}"]
    if record.names:
        lines.append(f"names = {toml_value(record.names)}")
    lines.append("actions = [")
    for seat, move in record.moves:
        lines.append(f"  {toml_value(move_text(seat, move))},")
    lines.append("]")
    if result is not None and result.outcome is not None:
        lines += [
            "",
            "[result]",
            f"winners = {toml_value([w + 1 for w in result.outcome.winners])}",
            f"reason = {toml_value(result.outcome.reason)}",
        ]
    return "\n".join(lines) + "\n"


def parse_record(text: str, admit: Admit | None = None) -> Record:
    """Read a record (or a position with optional actions) from TOML text; ``admit``
    bounds the rules, players and decks before the game is built."""
    return record_from_mapping(load_toml(text), admit)


def record_from_mapping(data: Mapping[str, Any], admit: Admit | None = None) -> Record:
    """A record from parsed TOML (see :func:`parse_record`): a position, or ``rules``,
    ``players`` and ``first`` (from 1); its ``actions`` are parsed, not played
    (:meth:`~ninetynine.records.match.Match.from_record` checks them). Every fault in the data
    is a :class:`RecordError`."""
    from_position = bool(POSITION_KEYS & (set(data) - {"players"}))
    if from_position:
        start = position_from_mapping(data, admit)
    else:
        try:
            rules = rules_of(data)
        except RulesError as e:
            raise RecordError(f"rules: {e}") from None
        players, first = data.get("players"), data.get("first", 1)
        if not isinstance(players, int) or not isinstance(first, int):
            raise RecordError(
                "a record without a position needs 'players' (a number) and "
                "optionally 'first' (the seat that plays first)"
            )
        if not 1 <= first <= players:
            raise RecordError(f"'first' = {first}: expected a seat from 1 to {players}")
        if admit is not None:
            admit(rules, players, rules.decks_for(players))
        start = new_game(rules, players, first=first - 1)
    unknown = set(data) - POSITION_KEYS - {"rules", "actions", "first", "result", "names"}
    if unknown:
        raise RecordError(f"unknown key(s) {', '.join(sorted(unknown))}")
    actions = data.get("actions", [])
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise RecordError('\'actions\' must be a list of texts such as ["1: KS", "2: AH+11"]')
    names = data.get("names", [])
    if (
        not isinstance(names, list)
        or not all(isinstance(n, str) and n.strip() for n in names)
        or names
        and len(names) != start.n
    ):
        raise RecordError(
            f'\'names\' must list one name for each of the {start.n} players, e.g. ["Ann", "Bob"]'
        )
    record = Record(start, from_position=from_position, names=list(names))
    for i, text in enumerate(actions, start=1):
        try:
            record.moves.append(parse_move(text, start.n))
        except RecordError as e:
            raise RecordError(f"action {i}: {e}") from None
    return record


def parse_move(text: str, players: int) -> tuple[int | None, Move]:
    """A move as records write it: ``"2: KS"`` (seat 2; seats from 1) or a chance outcome
    such as ``"insert 14"`` (no seat)."""
    seat: int | None = None
    body = text
    head, sep, rest = text.partition(":")
    if sep and head.strip().isdigit():
        seat = int(head) - 1
        if not 0 <= seat < players:
            raise RecordError(
                f"{text[:40]!r}: seat {seat + 1} is not at this {players}-player table"
            )
        body = rest.strip()
    try:
        move = parse_action(body)
    except NotationError as e:
        raise RecordError(str(e)) from None
    if seat is not None and not isinstance(move, Action):
        raise RecordError(f"{text[:40]!r}: chance outcomes have no seat")
    if seat is None and isinstance(move, Action):
        raise RecordError(f'{text[:40]!r}: a player\'s move needs its seat, e.g. "1: KS"')
    return seat, move
