"""The environments' text rendering: the table as one seat sees it (never another hand)."""

from __future__ import annotations

from enum import StrEnum

from ninetynine.engine.state import State
from ninetynine.rules.cards import format_cards


class RenderMode(StrEnum):
    """How an environment renders: Gymnasium's and PettingZoo's names."""

    ANSI = "ansi"  # render() returns the text
    HUMAN = "human"  # the text is printed at every step


RENDER_MODES = tuple(m.value for m in RenderMode)  # as the libraries list them: plain str


def table_text(state: State, seat: int) -> str:
    """The public table and ``seat``'s own hand, a few lines of text."""
    rules, n = state.rules, state.n
    face_up = state.pile[state.face_down :]
    lines = [
        f"{rules.id}: total {state.total} of {rules.limit}, "
        f"{'clockwise' if state.direction > 0 else 'counter-clockwise'}, "
        f"stock {len(state.stock)}, pile top {format_cards(face_up[-1:]) or '-'}"
    ]
    for s in range(n):
        mark = ">" if s == state.current_seat else " "
        status = "out" if not state.alive[s] else "" if state.in_hand[s] else "sits out"
        hand = format_cards(sorted(state.hands[s])) if s == seat else f"{len(state.hands[s])} cards"
        lines.append(f"{mark} P{s + 1}: lives {state.seat_lives(s)}  {hand}  {status}".rstrip())
    if state.outcome is not None:
        lines.append(
            "winners: " + (", ".join(f"P{w + 1}" for w in state.outcome.winners) or "none")
        )
    return "\n".join(lines)
