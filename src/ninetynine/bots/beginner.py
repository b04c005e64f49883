"""``beginner``: plays like someone in their first games, the ``easy`` level.

A beginner knows the one rule that matters most, *do not go over the limit*, and little
else. Its model of play and of mistakes, from its own view only:

* **It never busts when it sees a safe card.** A play is safe when the total it leaves is
  at most the limit; while one is legal it plays one. With none (or one legal move) it
  takes what it must: a draw, a pass that declines an offered extra turn, else the first
  legal move.
* **Its favourite play dumps high cards:** the ordinary card that takes the total highest
  without going over (an Ace or a Ten counted high where that is safe; ties to the
  higher card), as ``greedy`` does.
* **It slips** (chance ``slip`` per decision, default 0.3, only when more than one
  ordinary card is safe): it misses its favourite and plays the first safe card it sees in
  its hand (the lowest), counted high where that is safe.
* **It has no sense of timing for escape cards** (those still safe at the limit: holds,
  reverses, sets, minus cards). With chance ``eager`` per decision (default 0.15) it spends
  the first one in its hand while an ordinary card is safe (too early: at any total, counted
  high where that is safe); otherwise it hoards them all until nothing else is safe (too
  long), then plays the first one it sees, for the lowest total it can.
* **It counts no cards and reads nobody:** the unseen cards, the pile, the next player's
  hand size, the lives and the scoring at thresholds or 69 play no part in its choice. A
  card that names the next player names one of the others at random.

The chances are drawn from the bot's ``rng`` only, so a seeded game replays. It costs
about what ``random`` costs: no deal is sampled, nothing is searched.
"""

from __future__ import annotations

import random
from typing import ClassVar

from ninetynine.bots.knowledge import escape_cards
from ninetynine.bots.spec import BotOption, Options
from ninetynine.engine.actions import Action, ActionKind
from ninetynine.engine.tables import RuleTables, compiled
from ninetynine.engine.view import View

SLIP = 0.3  # chance of missing the favourite play when several ordinary cards are safe
EAGER = 0.15  # chance of spending an escape card while an ordinary card is safe


class BeginnerBot:
    """The ``beginner`` bot: never busts when it sees a safe card, otherwise plays with a
    beginner's mistakes (see the module docstring); ``slip`` and ``eager`` are their chances."""

    name = "beginner"
    OPTIONS: ClassVar[Options] = {
        "slip": BotOption(float, least=0, most=1),
        "eager": BotOption(float, least=0, most=1),
    }

    def __init__(self, slip: float = SLIP, eager: float = EAGER) -> None:
        self.slip, self.eager = slip, eager

    def choose(self, view: View, rng: random.Random) -> Action:
        """A safe play chosen as a beginner would; a draw, a pass or the first legal move when
        no play is safe."""
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        c = compiled(view.rules)
        escapes = escape_cards(view.rules)
        # per card, its safe plays as (total left, action), in the order of the hand
        ordinary: dict[int, list[tuple[int, Action]]] = {}
        escape: dict[int, list[tuple[int, Action]]] = {}
        for action in legal:
            if action.kind is not ActionKind.PLAY or action.card is None:
                continue
            new = _total_after(c, action, view.total)
            if new <= c.limit:
                kind = escape if action.card in escapes else ordinary
                kind.setdefault(action.card, []).append((new, action))
        if not ordinary and not escape:
            for action in legal:  # drawing, or declining an extra turn, rather than busting
                if action.kind in (ActionKind.DRAW, ActionKind.PASS):
                    return action
            return legal[0]
        if ordinary and escape and rng.random() < self.eager:
            return _high(escape[min(escape)], rng)  # spent too early
        if not ordinary:  # hoarded until now: the first escape seen, for the lowest total
            return _low(escape[min(escape)], rng)
        if len(ordinary) > 1 and rng.random() < self.slip:
            return _high(ordinary[min(ordinary)], rng)  # the first safe card seen
        best = max(max(new for new, _ in plays) for plays in ordinary.values())
        card = max(card for card, plays in ordinary.items() if any(n == best for n, _ in plays))
        return _pick([a for new, a in ordinary[card] if new == best], rng)


def _total_after(c: RuleTables, action: Action, total: int) -> int:
    """The total a legal card play leaves (a set-any card's chosen total; a named seat
    changes nothing)."""
    assert action.card is not None
    if action.to is not None:
        return action.to
    effect = c.effects[action.card]
    choice = effect.values.index(action.value) if action.value is not None else 0
    return c.new_total(action.card, choice, total)


def _high(plays: list[tuple[int, Action]], rng: random.Random) -> Action:
    """One card's play that leaves the highest total."""
    best = max(new for new, _ in plays)
    return _pick([a for new, a in plays if new == best], rng)


def _low(plays: list[tuple[int, Action]], rng: random.Random) -> Action:
    """One card's play that leaves the lowest total."""
    least = min(new for new, _ in plays)
    return _pick([a for new, a in plays if new == least], rng)


def _pick(actions: list[Action], rng: random.Random) -> Action:
    """The one action, or (a card that names the next player) one of them at random."""
    return actions[0] if len(actions) == 1 else rng.choice(actions)
