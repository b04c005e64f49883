"""What each card in a hand would do now: the total each of its plays makes, or the
engine's own reason why it cannot be played. Front ends show this on the cards
("+10 → 29", "no King to 99 in your first 5 turns") instead of working it out themselves.

>>> from ninetynine.position import position_from_mapping
>>> state = position_from_mapping({"rules": "P", "total": 95,
...                                "hands": ["AS 10S 8D", "2C 3C 4C"]})
>>> for o in card_options(state, 0):
...     print(o.card, [(str(a), t) for a, t in o.plays], o.refused and o.refused.why)
0 [('AS+1', 96)] None
30 [] '8D' would make 103, over 99
36 [('10S-10', 85)] None
"""

from __future__ import annotations

from dataclasses import dataclass

from ninetynine.actions import Action
from ninetynine.errors import IllegalActionError
from ninetynine.state import State


@dataclass(frozen=True, slots=True)
class CardOption:
    """One card of the seat's hand: its legal plays with the total each makes, or why
    none is legal (``refused``, the typed error the engine raises)."""

    card: int
    plays: tuple[tuple[Action, int], ...] = ()
    refused: IllegalActionError | None = None


def card_options(state: State, seat: int) -> list[CardOption]:
    """Each distinct card in ``seat``'s hand, in order, while it is that seat's turn."""
    plays: dict[int, list[tuple[Action, int]]] = {}
    if state.current_seat == seat:
        for code in state.legal_codes():
            action = state.action_of(code)
            if action.card is not None:
                plays.setdefault(action.card, []).append((action,
                                                          state.c.result(code, state.total)))
    out = []
    for card in sorted(set(state.hands[seat])):
        if card in plays:
            out.append(CardOption(card, tuple(plays[card])))
            continue
        try:
            state.check(state.plays_of(card)[0], seat)
        except IllegalActionError as e:
            out.append(CardOption(card, refused=e))
        else:  # cannot happen: a legal play would be listed
            out.append(CardOption(card))
    return out
