"""The clone of ``heuristic-v1`` that plays inside the search (bots/clone.py) plays as the
bot itself: on positions of seeded games, the same move from the same state."""

from __future__ import annotations

import random
from collections import Counter

from ninetynine.bots.clone import HeuristicClone, HeuristicModel
from ninetynine.bots.heuristic import HeuristicBot
from ninetynine.engine.game import new_game
from ninetynine.engine.state import CHANCE, OVER, State
from ninetynine.engine.view import observe
from ninetynine.rules.presets import preset_rules
from ninetynine.rules.settings import Rules

# P, K, G and J, a partnership set, a points set, 69 scoring, two decks and others
TABLES = [
    ("P", 3), ("P", 4), ("K", 3), ("K", 4), ("G", 3), ("G", 4), ("J", 3), ("J", 4),
    ("J-TEAM", 4), ("P-BORDERS", 3), ("P-69", 4), ("98", 3), ("IS", 4), ("QC", 3),
    ("TW", 2), ("E2", 5), ("WIKI", 4), ("P-2P-AGAIN", 2),
]  # fmt: skip
PER_TABLE = 112  # about 2000 positions in all


def positions(rules: Rules, players: int, count: int, seed: str) -> list[tuple[State, float]]:
    """``count`` states of games played by heuristic-v1, each at a seat with a choice,
    with the seed its move was drawn with."""
    bot, rng = HeuristicBot(), random.Random(seed)
    found: list[tuple[State, float]] = []
    while len(found) < count:
        s = new_game(rules, players)
        while s.phase != OVER and len(found) < count:
            if s.phase == CHANCE:
                s.play_chance(rng)
                continue
            key = rng.random()
            if len(s.legal_codes()) > 1:
                found.append((s.clone(), key))
            seat = s.turn
            s.apply_code(s.code_of(bot.choose(observe(s, seat), random.Random(key))))
    return found


def test_the_clone_picks_heuristic_v1s_move() -> None:
    bot, same, total = HeuristicBot(), Counter[str](), Counter[str]()
    for preset, n in TABLES:
        rules = preset_rules(preset)
        clone = HeuristicClone(rules)
        for s, key in positions(rules, n, PER_TABLE, f"{preset}:{n}"):
            want = bot.choose(observe(s, s.turn), random.Random(key))
            got = s.action_of(clone.best(s, s.legal_codes()))
            total[preset] += 1
            same[preset] += got == want
    rate = sum(same.values()) / sum(total.values())
    assert sum(total.values()) >= 2000
    # measured: 2016 of 2016; heuristic-v1 tries each play on a deal of its own, so a play
    # whose cost at once depends on the hidden cards may differ
    assert rate >= 0.99, {p: f"{same[p]}/{total[p]}" for p in total}


def test_the_clone_counts_danger_from_the_cards_unseen() -> None:
    # The same position with the pile full of unsafe cards: fewer of them are left unseen,
    # so the danger passed on is smaller, as heuristic-v1's view counts it.
    rules = preset_rules("P")
    clone = HeuristicClone(rules)
    none = clone.seen([], 1)
    kings = clone.seen([48, 49, 50, 51, 44, 45, 46, 47], 1)  # kings and queens seen
    assert clone.stuck(kings, 95, 3) < clone.stuck(none, 95, 3)
    assert clone.stuck(none, 95, 0) == 0.0


def test_the_belief_model_plays_as_the_clone_where_it_has_what_it_needs() -> None:
    # Held ranks, the total and the cards face up, as the belief reads them back: where
    # every play is safe the model's rank and new total are the clone's (the model sees
    # ranks, not suits, so a suit-dependent rule could differ). Measured: 299 of 300.
    rules = preset_rules("P")
    clone, model = HeuristicClone(rules), HeuristicModel(rules, 1)
    same = total = 0
    for s, _key in positions(rules, 4, 300, "belief"):
        me = s.turn
        codes = s.legal_codes()
        if len(codes) != sum(1 for c in codes if c < 1000) or len(s.stock) < 2:
            continue
        k = clone.best(s, codes)
        nxt = (me + s.direction) % 4
        public = Counter(s.pile[s.face_down :]) + Counter(s.out)
        ranks = tuple(sorted(c >> 2 for c in s.hands[me]))
        got = model.choice(ranks, s.total, public, len(s.hands[nxt]), False)
        total += 1
        same += got == (k >> 4, s.c.result(k, s.total))
    assert total > 200 and same / total >= 0.95
