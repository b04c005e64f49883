"""The batch engine against the reference engine: the same shuffles and the same actions
give the same totals, lives, turns and winners, on random games of every base game, and
the same hands, leaders, dealers and lives paid by cause (what a simulation's rows read)."""

from __future__ import annotations

import random
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from ninetynine import load_rules
from ninetynine.engine.actions import Lead, Reinsert, Shuffle
from ninetynine.engine.ledger import BORDER, CROSSED, MADE, LedgerState
from ninetynine.engine.state import CHANCE, DOWN, OVER
from ninetynine.engine.tables import card_of
from ninetynine.errors import RulesError
from ninetynine.rl.batch import EMPTY, Batch, check_supported
from ninetynine.rules.cards import parse_card
from ninetynine.rules.presets import presets
from ninetynine.rules.settings import Rules, Starter

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

from batch_distribution import batched, reference, z_score  # noqa: E402

# house rules for what no preset the batch engine plays combines (the encoding and JAX
# tests play them too): leaders drawn, sitting out, an out player's hand under the pile
# and all of it reshuffled; a reset for all with the pile taken away
HOUSE_SIT_OUT = {
    "preset": "P",
    "rules": {
        "starter": "random",
        "after_bust": "sit_out",
        "eliminated_hand": "under_pile",
        "stock_empty": "reshuffle_all",
        "hand_size": 5,
    },
}
HOUSE_RESET = {
    "preset": "K",
    "rules": {
        "after_bust": "reset_all",
        "clear_pile_on_reset": True,
        "eliminated_hand": "under_pile",  # (a hand never ends: one leader)
    },
}

# milestones with what no preset combines them with: 33 and 66 left costing too, the loser
# leading (nobody, where 99 is made), sitting out, a reverse with two in the hand playing
# again, a skip an eliminated seat absorbs, the pot paying 69
# naming under lives and hands: a Five names who plays next, the player too; a Jack that
# skips, an opening ban on the King, the loser leading
HOUSE_NAMING = {
    "preset": "P",
    "rules": {
        "cards": {"5": "+5 name", "J": "+10 skip"},
        "name_self": True,
        "king_ban_turns": 2,
        "starter": "loser",
    },
}
# the presets with milestones, for both engines' differential tests: the others pay for 33,
# 66 and 99 made, the player for crossing; a Two that halves an even total and doubles an
# odd one (P-ONLINE-TEACH); any card may go over, which pays for going over alone (QC; two
# decks with 7)
MILESTONE_GAMES = [
    ("P-ONLINE", 3),
    ("P-ONLINE", 6),
    ("P-ONLINE-TEACH", 4),
    ("QC", 2),
    ("QC", 5),
    ("QC", 7),
]
HOUSE_ONLINE = {
    "preset": "P-ONLINE",
    "rules": {
        "online_cross": "leave",
        "starter": "loser",
        "after_bust": "sit_out",
        "no_legal_play": "lay_down",
        "two_player_reverse": "play_again",
        "reverse_with_two_players": True,
        "skip_counts": "before_eliminations",
        "rule_69": "penny_from_pool",
        "lives": 4,
    },
}

# milestones every few points, few lives and a 69 early: what is rare elsewhere is common
# here (a payment ending the game before the next is due, a skipped seat put out, 69 made
# with nothing in the pot)
HOUSE_DENSE = {
    "preset": "P-ONLINE",
    "rules": {
        "threshold_values": [10, 20, 40, 80],
        "online_cross": "leave",
        "skip_counts": "before_eliminations",
        "rule_69": "penny_from_pool",
        "rule_69_total": 8,
        "lives": 4,
    },
}

# pooled teams with milestones (a partner pays for a milestone its partner crossed, both
# for one the other side made), 69's penny and the out side's hands under the pile
HOUSE_TEAM = {
    "preset": "P-ONLINE",
    "rules": {
        "teams": "pooled",
        "players_min": 4,
        "players_max": 4,
        "rule_69": "penny_from_pool",
        "eliminated_hand": "under_pile",
    },
}

# the up-card with lives to lose (hands go on, from the stock), a ban over the game's first
# turns that lifts at the limit, every card special but the Sixes, Sevens and Tens (many
# go back; a Ten turned up counts -10)
HOUSE_UPCARD = {
    "preset": "P-UPCARD",
    "rules": {
        "lives": 3,
        "king_ban_turns": 3,
        "king_ban_scope": "game",
        "king_ban_at_limit": False,
        "new_round_deal": "from_stock",
        "upcard_special": ["A", "2", "3", "4", "5", "8", "9", "J", "Q", "K"],
    },
}

# the no-draw chain with short hands (a run too long to begin is common), Queens and Jacks
# both chain cards that count, and a bust (played when stuck) after which the hand goes on
# from 0
HOUSE_CHAIN = {
    "preset": "IS",
    "rules": {
        "hand_size": 3,
        "lives": 3,
        "after_bust": "reset_all",
        "no_legal_play": "play_and_bust",
        "cards": {"Q": "+10 no-draw", "J": "+1 no-draw"},
    },
}

# one game point a hand, floored at 0, ties at the target shared, a border crossed going
# down free, the bust sitting out, and 69 an extra point
HOUSE_POINTS = {
    "preset": "P-BORDERS",
    "rules": {
        "points_per_hand": 1,
        "points_floor_zero": True,
        "points_tie": "shared",
        "points_target": 3,
        "border_cross_backward_costs": False,
        "after_bust": "sit_out",
        "no_legal_play": "lay_down",
        "rule_69": "extra_point",
    },
}


def reference_game(preset: str | Rules, players: int, seed: int) -> dict:
    """A random game on the reference engine: its first seat, every shuffle and leader
    drawn (``starter = "random"``), and after
    each decision (chance drawn) the seat, its code, the total, lives and seat to act, and
    what the ledger and the deal say then (:func:`dealt`)."""
    rng = random.Random(seed)
    first = rng.randrange(players)
    rules = preset if isinstance(preset, Rules) else load_rules(preset)
    state = LedgerState.start(rules, players, first=first)
    shuffles: list[tuple[int, ...]] = []
    leads: list[int] = []
    depths: list[int] = []
    moves = []

    def chance() -> None:
        while state.phase == CHANCE:
            outcome = state.play_chance(rng)
            if isinstance(outcome, Lead):
                leads.append(outcome.seat)
            elif isinstance(outcome, Reinsert):
                depths.append(outcome.depth)
            else:
                assert isinstance(outcome, Shuffle)
                shuffles.append(outcome.order)

    chance()
    deals = [dealt(state, 0)]
    while state.phase != OVER:
        seat, code = state.turn, rng.choice(state.legal_codes())
        paid = len(state.paid)
        state.apply_code(code)
        chance()
        moves.append(
            (
                seat,
                code,
                state.total,
                [state.seat_lives(s) for s in range(players)],
                state.current_seat,
            )
        )
        deals.append(dealt(state, paid))
    assert state.outcome is not None
    return {
        "first": first,
        "shuffles": shuffles,
        "leads": leads,
        "depths": depths,
        "moves": moves,
        "deals": deals,
        "winners": sum(1 << w for w in state.outcome.winners),
        "lives": [state.seat_lives(s) for s in range(players)],
        "hands": state.hand_no,
    }


def dealt(state: LedgerState, paid: int) -> dict:
    """The hand's number, leader, dealer and (sorted) hands, and the ledger's entries
    since entry ``paid``: (seat, lives, cause)."""
    return {
        "hand": state.hand_no,
        "leader": (state.starter, state.dealer),
        "hands": [sorted(h) for h in state.hands],
        "paid": state.paid[paid:],
        "points": (list(state.points), list(state.scores)),
    }


def held(batch: Batch, slot: int) -> list[list[int]]:
    return [sorted(c for c in hand if c != EMPTY) for hand in batch.hands[slot].tolist()]


def check_paid(batch: Batch, slot: int, paid: list[tuple[int, int, int]], mover: int) -> None:
    """The batch's loser, lives paid and cause this step, and what each seat paid at
    milestones (crossed by ``mover``, made by it for the others), are the ledger's entries
    (summed by seat and cause)."""
    want: Counter[tuple[int, int]] = Counter()
    for seat, lives, cause in paid:
        want[seat, cause] += lives
    got: Counter[tuple[int, int]] = Counter()
    if batch.loser[slot] < 0:
        assert batch.cause[slot] == -1 and not batch.paid[slot]
    elif batch.paid[slot]:
        got[int(batch.loser[slot]), int(batch.cause[slot])] += int(batch.paid[slot])
    milestones = getattr(batch, "milestones_paid", None)  # (the JAX engine plays none)
    for seat, lives in enumerate([] if milestones is None else milestones[slot].tolist()):
        if lives:
            got[seat, CROSSED if seat == mover else MADE] += lives
    if getattr(batch, "points_game", False) and batch.borders_lost[slot, 0]:
        got[mover, BORDER] += int(batch.borders_lost[slot, 0])  # game points at borders
    assert got == want


class ScriptedShuffles:
    """The reference games' shuffles, slot by slot; asks for the same cards or fails."""

    def __init__(self, games: list[dict]) -> None:
        self.queues = [list(g["shuffles"]) for g in games]
        self.rng = np.random.default_rng(0)

    def __call__(self, slots: np.ndarray, cards: np.ndarray, counts: np.ndarray) -> np.ndarray:
        out = np.full(cards.shape, EMPTY, np.int64)
        for row, slot in enumerate(slots):
            asked = cards[row, : counts[row]]
            queue = self.queues[slot]
            if queue:  # the reference game goes on: the same cards, in its order
                order = queue.pop(0)
                assert sorted(order) == asked.tolist(), f"slot {slot} shuffles other cards"
                out[row, : counts[row]] = order
            else:  # a new game after the reference one ended
                out[row, : counts[row]] = self.rng.permutation(asked)
        return out


class ScriptedLeads:
    """The reference games' leaders drawn, slot by slot, each one of the seats still in."""

    def __init__(self, games: list[dict]) -> None:
        self.queues = [list(g["leads"]) for g in games]
        self.rng = np.random.default_rng(0)

    def __call__(self, slots: np.ndarray, alive: np.ndarray) -> np.ndarray:
        out = np.zeros(len(slots), np.int64)
        for row, (slot, mask) in enumerate(zip(slots.tolist(), alive.tolist(), strict=True)):
            seats = [s for s in range(8) if mask >> s & 1]
            queue = self.queues[slot]
            out[row] = queue.pop(0) if queue else self.rng.choice(seats)
            assert out[row] in seats, f"slot {slot}: a leader who is out"
        return out


class ScriptedDepths:
    """The reference games' up-cards put back, slot by slot, each at a depth in range."""

    def __init__(self, games: list[dict]) -> None:
        self.queues = [list(g["depths"]) for g in games]
        self.rng = np.random.default_rng(0)

    def __call__(self, slots: np.ndarray, low: np.ndarray, high: np.ndarray) -> np.ndarray:
        out = np.zeros(len(slots), np.int64)
        for row, slot in enumerate(slots.tolist()):
            queue = self.queues[slot]
            out[row] = queue.pop(0) if queue else self.rng.integers(low[row], high[row] + 1)
            assert low[row] <= out[row] <= high[row], f"slot {slot}: a depth out of range"
        return out


@pytest.mark.parametrize(
    ("preset", "players"),
    [
        ("P", 2),
        ("P", 4),
        ("P", 5),
        ("P", 8),
        ("K", 2),
        ("K", 4),
        ("K", 6),
        ("G", 3),
        ("G", 5),
        ("G", 8),
        ("J", 2),
        ("J", 4),
        ("J", 5),
        ("BGA", 3),  # the loser leads
        ("P-TEN-MINUS", 4),  # a card that takes the total down
        ("BICYCLE", 4),
        ("P-2P-AGAIN", 2),  # a reverse with two in the hand: play again
        ("P-2P-AGAIN", 4),
        ("P-1950", 3),  # out only when a life is owed and cannot be paid
        ("WIKI", 2),  # a skipping card; a reverse flips nothing with two in the hand
        ("WIKI", 5),
        ("98", 4),  # the first player out ends the game: the most lives win
        ("98-CS", 3),
        ("BGA-QUICK", 4),
        ("98-CS-K0", 5),
        ("P-CONTINUE", 4),  # reset the others, the pile taken away, all reshuffled
        # house rules: what no preset the batch engine plays combines
        (HOUSE_SIT_OUT, 5),
        (HOUSE_RESET, 4),
        ({"preset": "WIKI", "rules": {"skip_with_two_players": False}}, 3),
        *MILESTONE_GAMES,
        ("P-69", 4),  # a life back from the pot for 69
        # house rules: milestones with leaving 33/66, sitting out, playing again, a skip
        # that an eliminated seat absorbs, the loser leading (none where 99 is made)
        (HOUSE_ONLINE, 4),
        (HOUSE_ONLINE, 3),
        (
            {
                "preset": "P-ONLINE",
                "rules": {"online_cross": "leave", "starter": "left_of_loser", "lives": 3},
            },
            4,
        ),
        ({"preset": "P", "rules": {"rule_69": "reset_to_zero", "rule_69_from": "below"}}, 4),
        (HOUSE_DENSE, 2),
        (HOUSE_DENSE, 4),
        ("J-TEAM", 4),  # two partnerships of opposite seats, each sharing one pool of lives
        ("P-UPCARD", 4),  # an up-card starts the total; no King to 99 in five first turns
        ("P-UPCARD", 2),
        (HOUSE_UPCARD, 3),
        (HOUSE_UPCARD, 5),
        ("IS", 2),  # the Queen's no-draw chain: another Queen, or a run of cards undrawn
        ("IS", 4),
        ("IS", 8),
        (HOUSE_CHAIN, 3),
        (HOUSE_CHAIN, 6),
        ("P-BORDERS", 3),  # game points: a point a border crossed, scores to 15
        ("P-BORDERS", 5),
        (HOUSE_POINTS, 4),
        (HOUSE_POINTS, 2),
        ({"preset": "P-BORDERS", "rules": {"points_tie": "shared", "points_target": 8}}, 4),
        (HOUSE_TEAM, 4),
        (
            {
                "preset": "G",
                "rules": {"two_player_reverse": "play_again", "reverse_with_two_players": False},
            },
            3,
        ),
        ("TW", 3),  # a Five that names who plays next (any other seat in the hand)
        ("TW", 8),
        ("E2", 5),
        (HOUSE_NAMING, 4),
        (HOUSE_NAMING, 2),
    ],
    ids=str,
)
def test_batch_plays_as_the_reference_engine(preset: str | dict, players: int) -> None:
    rules = load_rules(preset)
    short = rules.lives_for(players) == 1  # (98: a game is a hand or two)
    games = [reference_game(rules, players, seed) for seed in range(90 if short else 30)]
    drawn = rules.starter is Starter.RANDOM and any(g["hands"] > 1 for g in games)
    assert any(g["leads"] for g in games) == drawn  # (IS: one hand, its leader the first)
    assert replay(scripted(rules, players, games), games) > 500


def scripted(rules: str | Rules, players: int, games: list[dict]) -> Batch:
    """A batch of the reference ``games``: their first seats, shuffles and leaders."""
    return Batch(
        rules,
        players,
        len(games),
        seed=1,
        shuffler=ScriptedShuffles(games),
        first=np.array([g["first"] for g in games]),
        leader=ScriptedLeads(games),
        reinserter=ScriptedDepths(games),
    )


def played_presets() -> list[str]:
    """Every preset the batch engine plays."""
    found = []
    for preset in presets():
        try:
            check_supported(load_rules(preset))
        except RulesError:
            continue
        found.append(preset)
    return found


PLAYED = played_presets()


def test_the_batch_plays_most_presets() -> None:
    """The presets it refuses are few, each for a setting docs/ai.md lists."""
    assert len(PLAYED) >= 28 and {"P", "K", "G", "J", "QC", "98", "WIKI", "P-CONTINUE"} <= set(
        PLAYED
    )


def seats_for(preset: str) -> int:
    """Four players, or the nearest table size the preset allows."""
    rules = load_rules(preset)
    return min(max(4, rules.players_min), rules.players_max)


@pytest.mark.parametrize("preset", PLAYED)
def test_every_preset_it_plays_replays_the_reference_engine(preset: str) -> None:
    players = seats_for(preset)
    games = [reference_game(preset, players, seed) for seed in range(8)]
    assert replay(scripted(preset, players, games), games) >= 8 * 10


@pytest.mark.parametrize("preset", PLAYED)
def test_every_preset_it_plays_agrees_with_the_reference_engine_in_distribution(
    preset: str,
) -> None:
    """The batch's own chance (its default shuffler and leaders) against the reference
    engine's: 300 games each, the mean decisions and hands a game and the first seat's wins
    within 5 standard errors (a bias in a shuffle or a turn shows in these; the long run is
    ``benchmarks/batch_distribution.py``)."""
    rules, players = load_rules(preset), seats_for(preset)
    want, got = reference(rules, players, 300, seed=5), batched(rules, players, 300, seed=11)
    for figure in want:
        z = z_score(want[figure], got[figure])
        assert abs(z) < 5, f"{preset}: {figure}: z = {z:.1f}"


def replay(batch: Any, games: list[dict]) -> int:
    """Play the reference ``games`` in ``batch`` (made with their shuffles and first seats:
    a :class:`Batch` or another engine with its API), checking every step; returns the
    decisions compared."""
    step = [0] * len(games)
    compared = 0
    for g, game in enumerate(games):  # the first hand as dealt
        assert held(batch, g) == game["deals"][0]["hands"]
        assert (batch.starter[g], batch.dealer[g]) == game["deals"][0]["leader"]
    while live := [g for g, game in enumerate(games) if step[g] < len(game["moves"])]:
        legal = np.asarray(batch.legal())
        actions = np.array(batch.random_actions(legal))  # ended slots play anything legal
        for g in live:
            seat, code = games[g]["moves"][step[g]][:2]
            assert batch.turn[g] == seat
            if code == DOWN:
                action = batch.down
            else:
                action = batch.action(list(batch.hands[g, seat]).index(card_of(code)), code)
            assert legal[g] >> action & 1, "the reference's action is legal in the batch"
            actions[g] = action
        assert batch.codes(actions)[live].tolist() == [games[g]["moves"][step[g]][1] for g in live]
        batch.step(actions)
        for g in live:
            game = games[g]
            mover, _, total, lives, turn = game["moves"][step[g]]
            step[g] += 1
            deal = game["deals"][step[g]]
            check_paid(batch, g, deal["paid"], mover)
            if step[g] == len(game["moves"]):
                assert batch.over[g] and batch.winners[g] == game["winners"]
                assert batch.final_lives[g].tolist() == game["lives"]
                assert batch.final_hands[g] == game["hands"]
                continue
            assert not batch.over[g]
            assert (batch.total[g], batch.lives[g].tolist(), batch.turn[g]) == (total, lives, turn)
            assert batch.hand_no[g] == deal["hand"]
            if getattr(batch, "points_game", False):  # game points: the hand's and scores
                points = (batch.points[g].tolist(), batch.scores[g].tolist())
                assert points == deal["points"]
            assert (batch.starter[g], batch.dealer[g]) == deal["leader"]
            if deal["hand"] != game["deals"][step[g] - 1]["hand"]:  # a new hand, as dealt
                assert held(batch, g) == deal["hands"]
            compared += 1
    return compared


@pytest.mark.parametrize("preset", ["P", "K", "G", "J"])
def test_the_batch_legal_actions_are_never_empty_and_games_end(preset: str) -> None:
    batch = Batch(preset, 4, 256, seed=3)
    ended = 0
    for _ in range(400):
        legal = batch.legal()
        assert (legal != 0).all()
        batch.step(batch.random_actions(legal))
        ended += int(batch.over.sum())
        assert (batch.total <= batch.limit).all()
        assert (batch.popcount[batch.alive] >= 2).all()
    assert ended > 50


def test_the_batch_names_what_it_does_not_play() -> None:
    with pytest.raises(RulesError) as e:
        Batch("KC", 4, 8)
    assert "batch engine" in str(e.value) and "\n" not in str(e.value)
    # a card that names who plays next and starts a chain, or under milestones; too many
    # seats for the actions' bits
    more = load_rules({"preset": "TW", "rules": {"cards": {"5": "+0 name no-draw"}}})
    with pytest.raises(RulesError, match="card 5S of these rules .it names who plays next and"):
        Batch(more, 4, 8)
    online = load_rules({"preset": "P-ONLINE", "rules": {"cards": {"5": "+5 name"}}})
    with pytest.raises(RulesError, match="names who plays next under rules key 'thresholds'"):
        Batch(online, 4, 8)
    with pytest.raises(RulesError, match="at most 62 seats times cards in a hand, not 10 x 7"):
        Batch(
            load_rules({"preset": "E2", "rules": {"hand_size": 7, "decks_by_players": {"9": 2}}}),
            10,
            8,
        )
    with pytest.raises(RulesError, match="'instant_hands'"):
        Batch("P-UPCARD-INSTANT", 4, 8)
    optional = load_rules(
        {"preset": "P-2P-AGAIN", "rules": {"two_player_reverse": "play_again_optional"}}
    )
    with pytest.raises(RulesError, match="'two_player_reverse' = 'play_again_optional'"):
        Batch(optional, 2, 8)


def test_a_random_action_among_more_bits_than_the_tables_hold_is_uniform() -> None:
    """E2 at ten seats: 51 actions, drawn a chunk of bits at a time; each legal one (in
    the first chunk, the last, or alone in one) as often as the others."""
    batch = Batch("E2", 10, 8, seed=4)
    assert batch.actions == 51 and batch.chunk < batch.actions
    on = [0, 5, 12, 30, 49, batch.down]
    legal = np.full(60_000, sum(1 << a for a in on), np.int64)
    counts = np.bincount(batch.random_actions(legal), minlength=batch.actions)
    assert set(np.flatnonzero(counts)) == set(on)
    assert all(abs(counts[a] - 10_000) < 5 * 91 for a in on)  # 5 sd of a binomial


def test_a_game_of_p_for_four_takes_at_most_200_bytes_observed_or_not() -> None:
    assert Batch("P", 4, 1024, seed=1).bytes_per_game <= 200  # 1,591 in int64
    assert Batch("P", 4, 1024, seed=1, observed=True).bytes_per_game <= 200  # 223 with counts


def test_every_array_with_a_part_per_game_is_counted() -> None:
    """The arrays outside ``PER_GAME`` (but its views) are tables: the same at any size."""
    small, big = Batch("G", 8, 3, observed=True), Batch("G", 8, 5, observed=True)
    for name, value in vars(small).items():
        if isinstance(value, np.ndarray) and name not in Batch.PER_GAME and value.base is None:
            assert value.shape == getattr(big, name).shape, name
    for name in Batch.PER_GAME:
        assert len(getattr(big, name)) > len(getattr(small, name)), name


@pytest.mark.parametrize(
    ("rules", "players"),
    [
        ("P", 7),  # a total below 0 without a floor: int32
        ("G", 7),
        (load_rules({"preset": "J", "rules": {"limit": 300, "lives": 200}}), 5),  # int16
    ],
)
def test_the_state_keeps_its_compact_types_and_its_bounds(rules: str | Rules, players: int) -> None:
    batch = Batch(rules, players, 256, seed=2, observed=True)
    types = {name: getattr(batch, name).dtype for name in Batch.PER_GAME}
    rng = np.random.default_rng(2)
    for step in range(600):
        if step % 2:
            batch.step(batch.random_actions(batch.legal()))
        else:  # some slots only: written row by row
            slots = np.flatnonzero(rng.random(batch.size) < 0.5)
            batch.step(batch.random_actions(batch.legal(slots)), slots)
        assert (batch.total <= batch.limit).all()
        assert ((batch.lives >= 0) & (batch.lives <= batch.start_lives)).all()
    assert {name: getattr(batch, name).dtype for name in Batch.PER_GAME} == types
    assert batch.lives.dtype == (np.int16 if batch.start_lives > 127 else np.int8)
    assert batch.alive.dtype == np.int8 and batch.hands.dtype == np.int8


@pytest.mark.parametrize(
    ("house", "lives", "total", "card", "want"),
    [
        # 10+10 makes 33: seat 1, at 0 lives, cannot pay and is out; the Jack's skip counts
        # it before it went out (it absorbs the skip: seat 2 plays), or not (seat 3)
        ({"skip_counts": "before_eliminations"}, [3, 0, 3, 3], 23, "JS", {"turn": 2}),
        ({"skip_counts": "remaining"}, [3, 0, 3, 3], 23, "JS", {"turn": 3}),
        # the Two doubles 33 to 66, leaving 33: seat 0 cannot pay and is out, which ends the
        # game before seat 1 pays for 66 made
        ({"online_cross": "leave"}, [0, 3], 33, "2S", {"winners": 0b10, "lives": [0, 3]}),
        # making 69 gives a life back only while the pot has one: none, then the one
        # just paid for crossing 66
        ({"rule_69": "penny_from_pool"}, [3, 3, 3], 68, "AS", {"lives": [3, 3, 3]}),
        ({"rule_69": "penny_from_pool"}, [3, 3, 3], 62, "7S", {"lives": [3, 3, 3]}),
    ],
)
def test_a_position_with_milestones_plays_as_the_reference_engine(
    house: dict, lives: list[int], total: int, card: str, want: dict
) -> None:
    """A rare turn of the milestone rules, set up in both engines: the same outcome."""
    rules = load_rules({"preset": "P-ONLINE", "rules": house})
    n, played = len(lives), parse_card(card)
    state = LedgerState.start(rules, n, first=0)
    state.play_chance(random.Random(1))
    batch = Batch(rules, n, 1, seed=1, first=np.array([0]))
    hand = [played, *state.hands[0][1:]]
    state.hands[0] = list(hand)
    batch.hands[0, 0] = hand
    state.total = batch.total[0] = total
    state.lives, batch.lives[0] = list(lives), lives
    assert state.turn == batch.turn[0] == 0 and state.pot == 0
    state.apply_code(played * 4)
    batch.step(np.array([0]))
    if "turn" in want:
        assert state.turn == batch.turn[0] == want["turn"]
        assert [state.seat_lives(s) for s in range(n)] == batch.lives[0].tolist()
    if "winners" in want:
        assert state.outcome is not None and batch.over[0]
        assert sum(1 << w for w in state.outcome.winners) == batch.winners[0] == want["winners"]
        assert [state.seat_lives(s) for s in range(n)] == batch.final_lives[0].tolist()
    if "lives" in want and "winners" not in want:
        assert [state.seat_lives(s) for s in range(n)] == batch.lives[0].tolist() == want["lives"]
