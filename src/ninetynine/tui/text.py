"""Words and labels for the table, shared by the full-screen game and the ``--plain`` mode.

Nothing here imports Textual; everything takes a :class:`~ninetynine.view.View` (or the
public parts of a state), so what it prints is what the seat may see.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ninetynine.actions import Action, ActionKind
from ninetynine.cards import card_name, show_card
from ninetynine.coach.advice import Advice
from ninetynine.rules import Rules, Scoring
from ninetynine.state import Phase
from ninetynine.view import View
from ninetynine.words import counter

SPECIAL_LABELS = {ActionKind.DOWN: "lay down", ActionKind.PASS: "pass",
                  ActionKind.DRAW: "draw", ActionKind.NODRAW: "no draw"}
DECLINE_LABEL = "decline"  # a pass on the extra turn a two-player reverse offers


def special_label(kind: ActionKind, declining: bool = False) -> str:
    """A move that plays no card; ``declining``: the seat may decline an extra turn (its
    pass declines it)."""
    return DECLINE_LABEL if declining and kind is ActionKind.PASS else SPECIAL_LABELS[kind]


card_label = show_card  # a card with its suit symbol, e.g. ``'10♥'``


def card_markup(card: int) -> str:
    """Rich markup for a card: hearts and diamonds in red (readable on dark and light)."""
    label = card_label(card)
    return f"[bold red]{label}[/]" if card & 3 in (1, 2) else f"[bold]{label}[/]"


def direction_text(direction: int) -> str:
    return "→ clockwise" if direction == 1 else "← counter-clockwise"


def lives_text(rules: Rules, view: View, seat: int) -> str:
    if rules.scoring is Scoring.GAME_POINTS:
        return f"pts {view.points[seat]} score {view.scores[seat]}"
    team = f" (team {seat % 2 + 1})" if rules.teams else ""  # partners share one pool
    return counter(rules)(view.lives[seat]) + team  # "5 pennies", "1 token"


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


def hand_items(hand: Sequence[int], legal: Sequence[Action],
               declining: bool = False) -> list[HandItem]:
    """The hand in order, each card with its legal plays, then any legal non-card action
    (``declining``: see :func:`special_label`)."""
    items = []
    for card in sorted(hand):
        plays = tuple(a for a in legal if a.kind is ActionKind.PLAY and a.card == card)
        items.append(HandItem(card_label(card), card, plays))
    for a in legal:
        if a.kind is not ActionKind.PLAY:
            items.append(HandItem(special_label(a.kind, declining), None, (a,)))
    return items


def choice_label(action: Action, names: Sequence[str] = ()) -> str:
    """What tells a card's plays apart: its value (``+11``), the player it names, or the
    total it sets (``= 57``)."""
    if action.value is not None:
        return f"{action.value:+d}"
    if action.target is not None:
        return names[action.target] if action.target < len(names) else f"P{action.target + 1}"
    if action.to is not None:
        return f"= {action.to}"
    return str(action)


def choice_question(card: int, choices: Sequence[Action], total: int) -> str:
    """The question a card with several plays asks (the choices come from the data)."""
    first = choices[0]
    if first.target is not None:
        return f"The {card_name(card)}: who plays next?"
    if first.to is not None:
        return f"The {card_name(card)}: new total, 0 to {choices[-1].to}? (now {total})"
    return f"The {card_name(card)}: how much does it count? (the total is {total})"


def turn_note(view: View) -> str | None:
    """What a no-draw chain asks of the seat to act, or None."""
    if view.plays_left:
        more = "1 more card" if view.plays_left == 1 else f"{view.plays_left} more cards"
        return f"play {more} without drawing."
    if view.chain:
        cards = "a card" if view.chain == 1 else f"{view.chain} cards"
        return f"play {cards} without drawing, or another no-draw card."
    if view.may_decline and view.phase is Phase.PLAY:  # (not while drawing first)
        return "the reverse gives you another turn: play a card, or decline it."
    return None


def coach_moves(advice: Advice, label: Callable[[Action], str] = str) -> list[str]:
    """Each legal move with the coach's figures, e.g. ``'K♠ 12%/70% ★'`` (★: its pick)."""
    out = []
    for m in advice.moves:
        game = "" if m.lose_game is None else f"/{100 * m.lose_game:.0f}%"
        star = " ★" if m.action == advice.best else ""
        out.append(f"{label(m.action)} {100 * m.lose_hand:.0f}%{game}{star}")
    return out


def action_label(action: Action, declining: bool = False) -> str:
    """A move as the hand shows it: ``'A♠+11'``, ``'K♥'``, ``'lay down'``, ``'decline'``."""
    if action.card is None:
        return special_label(action.kind, declining)
    value = f"{action.value:+d}" if action.value is not None else ""
    return card_label(action.card) + value


def coach_line(advice: Advice, label: Callable[[Action], str] = action_label) -> str:
    """The coach's figures on one line: ``'Coach (chance of losing the hand/game): ...'``."""
    key = "hand" if advice.moves[0].lose_game is None else "hand/game"
    return f"Coach (chance of losing the {key}): " + "  ".join(coach_moves(advice, label))
