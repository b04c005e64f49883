"""What goes over the wire: a seat's view and the public log as JSON (seats from 1).

Only :func:`ninetynine.view.observe` output is serialised here, field by field, so a
client never receives another hand, the stock order or a shuffle.
"""

from __future__ import annotations

from typing import Any

from ninetynine.cards import format_card
from ninetynine.events import Event, event_to_json, narrate
from ninetynine.view import View


def view_json(view: View, *, spectator: bool = False) -> dict[str, Any]:
    """A seat's view; a spectator's copy has no hand and no legal actions."""
    outcome = view.outcome
    return {
        "seat": None if spectator else view.seat + 1,
        "phase": view.phase,
        "turn": None if view.turn is None else view.turn + 1,
        "total": view.total,
        "limit": view.rules.limit,
        "direction": "cw" if view.direction == 1 else "ccw",
        "dealer": view.dealer + 1,
        "hand_no": view.hand_no,
        "hand": [] if spectator else [format_card(c) for c in view.hand],
        "hand_sizes": list(view.hand_sizes),
        "lives": list(view.lives),
        "alive": list(view.alive),
        "in_hand": list(view.in_hand),
        "points": list(view.points),
        "scores": list(view.scores),
        "scoring": str(view.rules.scoring),
        "pot": view.pot,
        "pile": [format_card(c) for c in view.pile[-8:]],
        "pile_size": len(view.pile),
        "stock_size": view.stock_size,
        "chain": view.chain,
        "plays_left": view.plays_left,
        "legal": [] if spectator else [str(a) for a in view.legal],
        "outcome": None if outcome is None else {
            "winners": [w + 1 for w in outcome.winners], "reason": outcome.reason},
    }


def event_json(event: Event, names: list[str]) -> dict[str, Any]:
    """A public event with its line of table talk under ``text``."""
    out = event_to_json(event)
    out["text"] = narrate(event, names)
    return out
