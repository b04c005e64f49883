"""Words and labels for the table, shared by the full-screen game and the ``--plain`` mode.

Nothing here imports Textual; everything takes a :class:`~ninetynine.view.View` (or the
public parts of a state), so what it prints is what the seat may see.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ninetynine.actions import Action, ActionKind
from ninetynine.cards import RANK_NAMES, RANKS
from ninetynine.coach.advice import Advice
from ninetynine.rules import Rules, Scoring
from ninetynine.view import View

SUIT_SYMBOLS = ("♠", "♥", "♦", "♣")
SUIT_NAMES = ("Spades", "Hearts", "Diamonds", "Clubs")
SPECIAL_LABELS = {ActionKind.DOWN: "lay down", ActionKind.PASS: "pass",
                  ActionKind.DRAW: "draw", ActionKind.NODRAW: "no draw"}


def card_label(card: int) -> str:
    """A card with its suit symbol, e.g. ``'10♥'``."""
    return RANKS[card >> 2] + SUIT_SYMBOLS[card & 3]


def card_markup(card: int) -> str:
    """Rich markup for a card: hearts and diamonds in red (readable on dark and light)."""
    label = card_label(card)
    return f"[bold red]{label}[/]" if card & 3 in (1, 2) else f"[bold]{label}[/]"


def card_name(card: int) -> str:
    return f"{RANK_NAMES[card >> 2]} of {SUIT_NAMES[card & 3]}"


def direction_text(direction: int) -> str:
    return "→ clockwise" if direction == 1 else "← counter-clockwise"


def lives_text(rules: Rules, view: View, seat: int) -> str:
    if rules.scoring is Scoring.GAME_POINTS:
        return f"pts {view.points[seat]} score {view.scores[seat]}"
    n = view.lives[seat]
    team = f" (team {seat % 2 + 1})" if rules.teams else ""  # partners share one pool
    return f"{n} {'life' if n == 1 else 'lives'}{team}"


def seat_status(view: View, seat: int) -> str:
    if not view.alive[seat]:
        return "out"
    if not view.in_hand[seat]:
        return "sits out"
    return ""


@dataclass(frozen=True, slots=True)
class HandItem:
    """One thing to pick in the hand bar: a card (with its legal plays) or a lone action."""

    label: str
    card: int | None
    actions: tuple[Action, ...]  # empty: may not be played now

    @property
    def playable(self) -> bool:
        return bool(self.actions)


def hand_items(hand: Sequence[int], legal: Sequence[Action]) -> list[HandItem]:
    """The hand in order, each card with its legal plays, then any legal non-card action."""
    items = []
    for card in sorted(hand):
        plays = tuple(a for a in legal if a.kind is ActionKind.PLAY and a.card == card)
        items.append(HandItem(card_label(card), card, plays))
    for a in legal:
        if a.kind is not ActionKind.PLAY:
            items.append(HandItem(SPECIAL_LABELS[a.kind], None, (a,)))
    return items


def choice_label(action: Action) -> str:
    return f"{action.value:+d}" if action.value is not None else str(action)


def coach_moves(advice: Advice, label: Callable[[Action], str] = str) -> list[str]:
    """Each legal move with the coach's figures, e.g. ``'K♠ 12%/70% ★'`` (★: its pick)."""
    out = []
    for m in advice.moves:
        game = "" if m.lose_game is None else f"/{100 * m.lose_game:.0f}%"
        star = " ★" if m.action == advice.best else ""
        out.append(f"{label(m.action)} {100 * m.lose_hand:.0f}%{game}{star}")
    return out


def action_label(action: Action) -> str:
    """A move as the hand shows it: ``'A♠+11'``, ``'K♥'``, ``'lay down'``."""
    if action.card is None:
        return SPECIAL_LABELS[action.kind]
    value = f"{action.value:+d}" if action.value is not None else ""
    return card_label(action.card) + value


def coach_line(advice: Advice, label: Callable[[Action], str] = action_label) -> str:
    """The coach's figures on one line: ``'Coach (chance of losing the hand/game): ...'``."""
    key = "hand" if advice.moves[0].lose_game is None else "hand/game"
    return f"Coach (chance of losing the {key}): " + "  ".join(coach_moves(advice, label))
