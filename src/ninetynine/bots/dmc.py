"""``dmc``: a value learned by Deep Monte Carlo (DouZero's method) against ``heuristic-v1``.

A small network Q(view, action) (features -> one hidden layer of ReLU units -> one number)
estimates, for each legal action, the chance that the seat keeps its life in this hand
when it plays that action and goes on playing its own greedy choices, at a table of
``heuristic-v1`` players. The bot plays the action with the highest Q. The weights come
from ``examples/train_dmc.py`` (``--export`` writes them into ``data/dmc.json``, one set
per rule set trained); the network runs here in pure Python (the bots layer has no NumPy).

The features come from the seat's view alone: the total, the hand by rank, the unseen
cards by rank, lives and hand sizes of the seat and of the next seat; per action, the
card's rank, the total it leaves, what trying it on a deal consistent with the view
changes (lives or points lost at once, the game ending, who plays next: all public facts,
the same on every such deal), the chance the next seat then holds no safe card (counted
from the unseen cards, as ``heuristic-v1`` counts it) and the keep value of the hand left.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import ClassVar

from ninetynine.bots.determinize import Determinizer
from ninetynine.bots.heuristic import keep_value_v1
from ninetynine.bots.knowledge import escape_cards, forced_move, safe_table
from ninetynine.bots.spec import Options
from ninetynine.engine.actions import Action
from ninetynine.engine.state import DOWN, DRAW, NODRAW, PARAM, PASS, State
from ninetynine.engine.tables import card_of
from ninetynine.engine.view import View
from ninetynine.records.match import standing
from ninetynine.rules.cards import rank_of
from ninetynine.rules.settings import Rules

BINS = 11  # totals in tens: below 0 (where allowed), 0-9 ... 90-99 and the limit
RANKS = 13
LIVES = 5  # own lives one-hot: 0..3, 4 or more (0: a team's pool spent, or game points)
# the state part of the features (the same for every action of a view)
S_TOTAL = 0  # bin one-hot
S_SCALARS = S_TOTAL + BINS  # total/limit, hand size, escapes held, stock, direction,
# alive share, next seat's lives and hand size, others' fewest and most lives
S_HAND = S_SCALARS + 10  # own cards by rank / decks
S_UNSEEN = S_HAND + RANKS  # unseen cards by rank / (4 * decks)
S_LIVES = S_UNSEEN + RANKS  # own lives one-hot
STATE_FEATURES = S_LIVES + LIVES
# the action part
A_KIND = STATE_FEATURES  # play, draw, pass, lay down / other
A_RANK = A_KIND + 4  # the card's rank one-hot
A_LEFT = A_RANK + RANKS  # bin one-hot of the total left
A_SCALARS = A_LEFT + BINS  # total left/limit, lost at once (mine, others'), game won,
# game lost, same hand goes on, next seat's danger, next seat's lives, direction flipped,
# the next seat is the one before, escape card, escapes kept, keep value of the hand left
FEATURES = A_SCALARS + 13


@cache
def _table() -> dict[str, dict[str, object]]:
    text = resources.files("ninetynine").joinpath("data/dmc.json").read_text()
    table: dict[str, dict[str, object]] = json.loads(text)
    return table


def trained() -> list[str]:
    """The ids of the rule sets ``data/dmc.json`` holds weights for, sorted."""
    return sorted(_table())


def has_weights(rules: Rules) -> bool:
    """Whether ``data/dmc.json`` holds trained weights for these rules (by rules id)."""
    return rules.id in _table()


@dataclass(frozen=True, slots=True)
class Net:
    """The network's weights: ``w1`` one row of hidden weights per feature."""

    w1: tuple[tuple[float, ...], ...]
    b1: tuple[float, ...]
    w2: tuple[float, ...]
    b2: float

    def value(self, base: list[float], x: Sequence[tuple[int, float]]) -> float:
        """Q from ``base`` (the hidden layer's input from the state part) and the action
        part's nonzero features as (index, value) pairs."""
        h = base[:]
        w1 = self.w1
        for i, v in x:
            row = w1[i]
            h = [a + v * b for a, b in zip(h, row, strict=True)]
        return self.b2 + sum(w * a for w, a in zip(self.w2, h, strict=True) if a > 0.0)

    def base(self, x: Sequence[tuple[int, float]]) -> list[float]:
        """The hidden layer's input from the state part of the features."""
        h = list(self.b1)
        w1 = self.w1
        for i, v in x:
            row = w1[i]
            h = [a + v * b for a, b in zip(h, row, strict=True)]
        return h


@cache
def dmc_net(rules: Rules) -> Net:
    """The trained :class:`Net` of a rules value, read once; raises TypeError (a bad bot
    option, as the search's ``rollout=learned`` does) where the rules have none."""
    found = _table().get(rules.id)
    if found is None:
        raise TypeError(
            f"dmc: no trained weights for rules {rules.id!r} (there are for {', '.join(trained())})"
        )
    w1 = found["w1"]
    b1, w2, b2 = found["b1"], found["w2"], found["b2"]
    assert isinstance(w1, list) and isinstance(b1, list) and isinstance(w2, list)
    assert isinstance(b2, (int, float))
    if len(w1) != FEATURES:
        raise TypeError(
            f"dmc: the weights for {rules.id!r} have {len(w1)} features, not {FEATURES}"
        )
    return Net(tuple(tuple(r) for r in w1), tuple(b1), tuple(w2), float(b2))


class Featurizer:
    """The features of a view and its actions (see the module docstring), for one rules."""

    def __init__(self, rules: Rules) -> None:
        self.rules, self.limit = rules, rules.limit
        self.escapes = escape_cards(rules)
        self.values = keep_value_v1(rules)
        self.table = safe_table(rules)

    def _bin(self, total: int) -> int:
        return 0 if total < 0 else 1 + min(total, self.limit) * (BINS - 2) // self.limit

    def state_part(self, view: View) -> list[tuple[int, float]]:
        """The nonzero state features of ``view`` (index, value)."""
        n, me, limit = view.players, view.seat, self.limit
        hand = view.hand
        out: list[tuple[int, float]] = [(S_TOTAL + self._bin(view.total), 1.0)]
        nxt = self.next_seat(view, me, view.direction)
        others = [view.lives[s] for s in range(n) if s != me and view.alive[s]]
        scalars = (
            view.total / limit,
            len(hand) / 5,
            sum(c in self.escapes for c in hand) / 4,
            view.stock_size / (52 * view.decks),
            float(view.direction),
            sum(view.alive) / n,
            view.lives[nxt] / 5 if nxt is not None else 0.0,
            view.hand_sizes[nxt] / 5 if nxt is not None else 0.0,
            min(others, default=0) / 5,
            max(others, default=0) / 5,
        )
        out += [(S_SCALARS + i, v) for i, v in enumerate(scalars) if v]
        for r, k in Counter(rank_of(c) for c in hand).items():
            out.append((S_HAND + r, k / view.decks))
        for r, k in Counter(rank_of(c) for c in view.unseen()).items():
            out.append((S_UNSEEN + r, k / (4 * view.decks)))
        out.append((S_LIVES + max(0, min(view.lives[me], LIVES - 1)), 1.0))
        return out

    @staticmethod
    def next_seat(view: View, seat: int, direction: int) -> int | None:
        """The seat still in this hand that plays after ``seat`` going ``direction``."""
        n = view.players
        for k in range(1, n):
            s = (seat + k * direction) % n
            if view.in_hand[s] and view.alive[s]:
                return s
        return None

    def action_parts(
        self, view: View, state: State, codes: Sequence[int]
    ) -> list[list[tuple[int, float]]]:
        """The nonzero action features of each of ``codes`` (the view's legal codes), tried
        on ``state``: any deal consistent with the view (only public results are read)."""
        me, limit = view.seat, self.limit
        unseen = Counter(view.unseen())
        count = sum(unseen.values())
        start = standing(state)
        others = [s for s in range(view.players) if state.side(s) != state.side(me)]
        held = list(view.hand)
        escapes_held = sum(c in self.escapes for c in held)
        before = self.next_seat(view, me, -view.direction)
        danger: dict[tuple[int, int], float] = {}
        parts = []
        for k in codes:
            x: list[tuple[int, float]] = []
            play = k < DOWN or k >= PARAM
            kind = 0 if play else 1 if k in (DRAW, NODRAW) else 2 if k == PASS else 3
            x.append((A_KIND + kind, 1.0))
            after = state.clone()
            after.apply_code(k)
            now = standing(after)
            mine = now[me] - start[me]
            lost = sum(start[s] - now[s] for s in others) / len(others) if others else 0.0
            won = lost_game = 0.0
            if after.outcome is not None:
                won = 1.0 if me in after.outcome.winners else 0.0
                lost_game = 1.0 - won
            going = after.outcome is None and after.hand_no == state.hand_no
            nxt = after.current_seat if going else None
            d = lives = 0.0
            if nxt is not None and nxt != me:
                size = view.hand_sizes[nxt]
                key = (after.total, size)
                found = danger.get(key)
                if found is None:
                    found = danger[key] = self.stuck(unseen, count, after.total, size)
                d, lives = found, view.lives[nxt] / 5
            flipped = after.direction != view.direction
            left_total = after.total if going else view.total
            kept, keep = escapes_held, 0.0
            if play:
                card = card_of(k)
                x.append((A_RANK + rank_of(card), 1.0))
                kept -= card in self.escapes
                keep = sum(self.values[c] for c in held) - self.values[card]
            else:
                keep = sum(self.values[c] for c in held)
            x.append((A_LEFT + self._bin(left_total), 1.0))
            scalars = (
                left_total / limit,
                mine,
                lost,
                won,
                lost_game,
                float(going),
                d,
                lives,
                float(flipped),
                float(nxt is not None and nxt == before),
                float(play and card_of(k) in self.escapes),
                kept / 4,
                keep / 5,
            )
            x += [(A_SCALARS + i, v) for i, v in enumerate(scalars) if v]
            parts.append(x)
        return parts

    def stuck(self, unseen: Counter[int], count: int, total: int, size: int) -> float:
        """The chance a hand of ``size`` unseen cards has no safe play at ``total``."""
        if not count or size <= 0:
            return 0.0
        safe = self.table.safe
        unsafe = sum(k for card, k in unseen.items() if not safe(card, total))
        return float((unsafe / count) ** size)


@cache
def featurizer(rules: Rules) -> Featurizer:
    """The :class:`Featurizer` of a rules value, built once."""
    return Featurizer(rules)


class DmcBot:
    """The ``dmc`` bot: the legal action of highest learned Q (see the module docstring)."""

    name = "dmc"
    OPTIONS: ClassVar[Options] = {}

    def choose(self, view: View, rng: random.Random) -> Action:
        """The action of highest Q, its effects tried on one deal drawn from the view with
        ``rng`` (the features read only what every such deal shares)."""
        net = dmc_net(view.rules)
        forced = forced_move(view.legal)
        if forced is not None:
            return forced
        state = Determinizer(view).sample(rng)
        codes = [state.code_of(a) for a in view.legal]
        f = featurizer(view.rules)
        base = net.base(f.state_part(view))
        parts = f.action_parts(view, state, codes)
        scores = [net.value(base, x) for x in parts]
        return view.legal[max(range(len(scores)), key=scores.__getitem__)]
