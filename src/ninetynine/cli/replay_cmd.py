"""Replay a game record, or play the listed moves from a position, and print the result.

The file is TOML (see docs/records.md): ``rules``, then either ``players`` for a new game
or position keys (``hands``, ``total``, ``turn``, ...), and ``actions``. Prints the final
state and the event log; ``--json`` prints them as one JSON object."""

from __future__ import annotations

import argparse
import json

from ninetynine.cli.extras import require
from ninetynine.engine.events import event_to_json, narrate
from ninetynine.engine.state import State
from ninetynine.files import read_text
from ninetynine.language import _, ngettext
from ninetynine.records.match import Match
from ninetynine.records.position import format_position
from ninetynine.records.record import parse_record
from ninetynine.rules.cards import format_card, format_cards
from ninetynine.rules.settings import Scoring
from ninetynine.rules.words import counter, ending, listed


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Adds the options of ``ninetynine replay`` to ``parser``: the record file, ``--json`` and
    ``--step``."""
    parser.add_argument("file", help="a record or position .toml file ('-' reads stdin)")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.add_argument(
        "--step", action="store_true", help="step through the game on the full-screen table view"
    )


def state_json(state: State) -> dict[str, object]:
    """The summary of a state that ``replay --json`` prints (seats numbered from 1)."""
    outcome = state.outcome
    seat = state.current_seat
    return {
        "rules": state.rules.id,
        "players": state.n,
        "phase": state.chance if state.is_chance else state.phase,
        "total": state.total,
        "direction": "cw" if state.direction == 1 else "ccw",
        "turn": None if seat is None else seat + 1,
        "dealer": state.dealer + 1,
        "hand": state.hand_no,
        "lives": [state.seat_lives(s) for s in range(state.n)],
        "out_of_game": [s + 1 for s in range(state.n) if not state.alive[s]],
        "out_of_hand": [s + 1 for s in range(state.n) if state.alive[s] and not state.in_hand[s]],
        "hands": [format_cards(h) for h in state.hands],
        "stock_size": len(state.stock),
        "pile_top": format_card(state.pile[-1]) if state.pile else None,
        "points": state.points,
        "scores": state.scores,
        "pot": state.pot,
        "legal": [str(a) for a in state.legal_actions()],
        "outcome": None
        if outcome is None
        else {"winners": [w + 1 for w in outcome.winners], "reason": outcome.reason},
    }


def run(args: argparse.Namespace) -> int:
    """Replays the record (each move checked) and prints the narrated events and the final
    state, or one JSON object (``--json``), or steps through it on the full screen
    (``--step``). Returns 0, or the step-through's status."""
    if args.step:
        require("tui", "replay --step", "the step-by-step replay")
    text = read_text(args.file, "record file")
    record = parse_record(text)
    match = Match.from_record(record)
    state, events, names = match.state, match.log, match.names
    if args.step:
        from ninetynine.tui.replay import run_replay  # Textual loads only for --step

        return run_replay(record)
    if args.json:
        out = state_json(state)
        out["events"] = [event_to_json(e) for e in events]
        out["position"] = format_position(state)
        print(json.dumps(out, indent=2))
        return 0
    for event in events:
        line = narrate(event, names, state.rules)
        if line:
            print(line)
    print()
    info = state_json(state)
    print(
        _("Rules {rules}, {players}, hand {hand}, phase {phase}").format(
            rules=info["rules"],
            players=ngettext("{n} player", "{n} players", state.n).format(n=state.n),
            hand=state.hand_no,
            phase=info["phase"],  # the engine's own word, as the JSON has it
        )
    )
    print(
        _("Total {total}, direction {direction}, turn {turn}").format(
            total=state.total,
            direction=_("clockwise") if state.direction == 1 else _("counter-clockwise"),
            turn=info["turn"] if info["turn"] else "-",
        )
    )
    noun, points = counter(state.rules), state.rules.scoring is Scoring.GAME_POINTS
    for s in range(state.n):
        status = (
            _("out of the game")
            if not state.alive[s]
            else _("out of this hand")
            if not state.in_hand[s]
            else ""
        )
        has = noun(state.points[s] if points else state.seat_lives(s))
        hand = format_cards(state.hands[s]) or "-"
        line = _("{name}: {has}  hand {cards}").format(name=names[s], has=has, cards=hand)
        print(f"  {line}  {status}".rstrip())
    stock = len(state.stock)
    print(
        _("Stock {cards}, pile top {card}").format(
            cards=ngettext("{n} card", "{n} cards", stock).format(n=stock),
            card=info["pile_top"] or "-",
        )
    )
    if info["legal"]:
        print(_("Legal: {moves}").format(moves=" ".join(info["legal"])))  # type: ignore[arg-type]
    if state.outcome is not None:
        winners = listed([names[w] for w in state.outcome.winners]) or _("nobody")
        reason = ending(state.outcome.reason)
        print(_("Game over: {winners} ({reason})").format(winners=winners, reason=reason))
    return 0
