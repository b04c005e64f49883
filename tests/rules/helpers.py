"""Shared helpers so that the rules scenarios read like the rulebooks.

Seats are 0-based in code: seat 0 is "P1". Cards and actions use the text notation
("KS", "10H-10", "AS+11", "down").
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

from ninetynine import parse_action
from ninetynine.engine import events as E
from ninetynine.engine.actions import Action, Shuffle
from ninetynine.engine.state import State
from ninetynine.records.position import position_from_mapping
from ninetynine.rules.cards import format_card, format_cards, new_deck, parse_cards

Spec = str | Mapping[str, Any]


def _rules_value(spec: Spec, changes: Mapping[str, Any]) -> Spec:
    if not changes:
        return spec
    base: dict[str, Any] = {"preset": spec} if isinstance(spec, str) else dict(spec)
    base["rules"] = {**dict(base.get("rules", {})), **changes}
    return base


def pos(
    rules: Spec,
    hands: list[str],
    *,
    changes: Mapping[str, Any] | None = None,
    top: str | None = None,
    rest: str = "stock",
    **keys: Any,
) -> State:
    """A position: ``pos("P", ["KS 8D 2C", ...], total=50, turn=1)``; ``turn`` is 1-based.

    ``top`` lists the stock's top cards (first drawn first); the rest of the deck then
    goes below them (``rest="stock"``) or onto the pile under ``pile`` (``rest="pile"``,
    so that the stock holds exactly ``top``).
    """
    data: dict[str, Any] = {"rules": _rules_value(rules, changes or {}), "hands": hands, **keys}
    if top is not None:
        probe = position_from_mapping({k: v for k, v in data.items() if k != "stock"})
        used = parse_cards(
            " ".join(hands + [top] + [keys.get(k, "") for k in ("pile", "out", "held")])
        )
        left = Counter(new_deck(probe.decks, probe.rules.jokers)) - Counter(used)
        spare = format_cards(sorted(left.elements()))
        if rest == "stock":
            data["stock"] = f"{top} {spare}"
        else:
            data["stock"] = top
            data["pile"] = f"{spare} {keys.get('pile', '')}".strip()
    return position_from_mapping(data)


def play(state: State, *moves: str) -> list[E.Event]:
    """Apply moves in order (checked); returns all their events."""
    out: list[E.Event] = []
    for move in moves:
        out += state.apply(parse_action(move))
    return out


def card_text(move: str) -> str:
    """The card of a move's text: ``"10S-10"`` -> ``"10S"``, ``"5S>3"`` -> ``"5S"``."""
    action = parse_action(move)
    assert isinstance(action, Action) and action.card is not None
    return format_card(action.card)


def legal(state: State) -> set[str]:
    return {str(a) for a in state.legal_actions()}


def calls(events: Iterable[E.Event]) -> list[str]:
    return [e.text for e in events if isinstance(e, E.TotalCalled)]


def of(events: Iterable[E.Event], kind: type) -> list[Any]:
    return [e for e in events if isinstance(e, kind)]


def deal(state: State, order: str | None = None) -> list[E.Event]:
    """Decide the pending shuffle: ``order`` lists the top cards, first dealt first
    ("KS 2S ..."); the rest follow in deck order."""
    req = state.chance_request()
    assert req is not None, "no chance event is pending"
    cards = list(req.cards)
    if order is not None:
        top = parse_cards(order)
        rest = list(cards)
        for c in top:
            rest.remove(c)
        cards = top + rest
    return state.apply(Shuffle(tuple(cards)))
