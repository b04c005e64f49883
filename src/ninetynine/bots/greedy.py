"""``greedy`` and ``greedy-keep``: the rules other Ninety-Nine programs ship, as yardsticks.

* ``greedy`` plays the card that takes the total highest without going over the limit
  (an Ace or Ten counted whichever way is higher; a card that sets the total counts as
  what it sets). Ties go to the higher card.
* ``greedy-keep`` does the same with its ordinary cards, and keeps its escape cards
  (those still safe at the limit: holds, sets, minus cards) until no ordinary card is
  safe; then it plays the escape that leaves the total lowest.

When no card is safe both play what is legal: a draw before not drawing, a pass that
declines an offered extra turn (``play_again_optional``), else the first legal action (the
lowest card). With a safe card they always take the extra turn.
"""

from __future__ import annotations

import random
from typing import ClassVar

from ninetynine.bots.determinize import Determinizer
from ninetynine.bots.knowledge import escape_cards
from ninetynine.bots.spec import Options
from ninetynine.engine.actions import Action, ActionKind
from ninetynine.engine.state import compiled
from ninetynine.engine.view import View


class GreedyBot:
    """The ``greedy`` yardstick: the safe play that takes the total highest."""

    name = "greedy"
    keep = False
    OPTIONS: ClassVar[Options] = {}

    def choose(self, view: View, rng: random.Random) -> Action:
        """The safe play that leaves the highest total (ties to the higher card); with ``keep``,
        escape cards only once no ordinary card is safe, the one that leaves the lowest total.
        With no safe play: a draw, a pass that declines an extra turn, else the first legal
        action."""
        c, limit = compiled(view.rules), view.rules.limit
        code_of = Determinizer(view).template.code_of  # the engine's code for each play
        escapes = escape_cards(view.rules) if self.keep else frozenset()
        ordinary: list[tuple[int, int, Action]] = []  # (new total, card, action)
        escape: list[tuple[int, int, Action]] = []
        for action in view.legal:
            if action.kind is not ActionKind.PLAY or action.card is None:
                continue
            new = c.result(code_of(action), view.total)
            if new <= limit:
                (escape if action.card in escapes else ordinary).append((new, action.card, action))
        if ordinary:
            return max(ordinary, key=lambda x: (x[0], x[1]))[2]
        if escape:
            return min(escape, key=lambda x: (x[0], -x[1]))[2]
        for action in view.legal:  # drawing, or declining an extra turn rather than busting
            if action.kind in (ActionKind.DRAW, ActionKind.PASS):
                return action
        return view.legal[0]


class GreedyKeepBot(GreedyBot):
    """The ``greedy-keep`` yardstick: ``greedy`` that saves its escape cards for when no
    ordinary card is safe."""

    name = "greedy-keep"
    keep = True
