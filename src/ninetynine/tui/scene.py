"""What the table screen shows at one moment, built from a :class:`Table` or a replay.

A :class:`Scene` is the only input of the table screen, so the rule "a seat's cards
reach the screen only when that seat may see them" is decided here, in one place.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ninetynine.engine.actions import Action
from ninetynine.engine.options import stuck_explanation
from ninetynine.engine.state import DRAWING, State
from ninetynine.engine.view import View, observe
from ninetynine.language import _
from ninetynine.session.table import Table, Waiting
from ninetynine.tui.text import Deck, hand_items, turn_note


@dataclass(frozen=True, slots=True)
class Scene:
    """The table screen at one moment: ``view`` (the public facts, and the viewer's own hand where
    ``show_hand``), the seats' names, what the person at the screen may play now (``legal``), the
    prompt line, and in a replay every hand face up (``face_up``, by seat)."""

    view: View  # public facts, and the viewer's own hand when show_hand
    names: tuple[str, ...]
    show_hand: bool
    legal: tuple[Action, ...]  # what the person at the screen may play now
    prompt: str
    face_up: tuple[tuple[int, ...], ...] | None = None  # replays only: every hand
    deck: Deck = Deck.TWO  # how the suits are coloured


def play_scene(table: Table, deck: Deck = Deck.TWO) -> Scene:
    """The screen for the person at the keyboard: their hand only, and only when theirs."""
    state, names, p = table.state, tuple(table.names), table.pending()
    viewer = table.viewer
    seat = viewer if viewer is not None else (p.seat if p.seat is not None else 0)
    view = table.view(seat)
    legal: tuple[Action, ...] = ()
    if p.kind is Waiting.HUMAN and p.seat == viewer:
        legal = view.legal
        n = len(hand_items(view.hand, legal))
        why = stuck_explanation(state)
        name = names[seat]
        if why:
            prompt = _("{why} (press 1-{n} or click)").format(why=why, n=n)
        elif view.phase == DRAWING:
            prompt = _("{name}, draw your card now? (press 1-{n} or click)").format(name=name, n=n)
        elif note := turn_note(view):  # (the footer shows the keys)
            prompt = _("Your turn, {name}: {note}").format(name=name, note=note)
        else:
            prompt = _("Your turn, {name}: press 1-{n} or click a card").format(name=name, n=n)
    elif p.kind is Waiting.HUMAN:
        prompt = _("Hands are hidden: {name} takes the device next.").format(
            name=names[p.seat or 0]
        )
    elif p.kind is Waiting.BOT:
        prompt = _("{name} is thinking…").format(name=names[p.seat or 0])
    else:
        prompt = _("Game over.")
    shown = viewer is not None
    return Scene(view=view, names=names, show_hand=shown, legal=legal, prompt=prompt, deck=deck)


def replay_scene(state: State, names: Sequence[str], step: int, steps: int) -> Scene:
    """A finished game is public: every hand face up, nobody to play."""
    seat = state.current_seat if state.current_seat is not None else 0
    view = observe(state, seat)
    return Scene(
        view=view,
        names=tuple(names),
        show_hand=False,
        legal=(),
        prompt=_("Move {step} of {steps}: → next, ← back, Home/End, q to quit").format(
            step=step, steps=steps
        ),
        face_up=tuple(tuple(sorted(h)) for h in state.hands),
    )
