"""The JAX engine against the reference engine (the batch engine's differential test: the
same shuffles and actions give the same totals, lives, turns, hands and winners) and
against the NumPy batch engine with its own shuffles (the same distributions)."""

from __future__ import annotations

import jax
import numpy as np
import pytest

from ninetynine import load_rules
from ninetynine.errors import RulesError
from ninetynine.rl.batch import EMPTY, Batch
from ninetynine.rl.jax import JaxBatch, State, engine
from ninetynine.rules.settings import Rules
from tests.rl.test_batch import (
    HOUSE_CHAIN,
    HOUSE_DENSE,
    HOUSE_ONLINE,
    HOUSE_POINTS,
    HOUSE_RESET,
    HOUSE_SIT_OUT,
    MILESTONE_GAMES,
    ScriptedLeads,
    ScriptedShuffles,
    reference_game,
    replay,
)

# house rules (see tests/rl/test_batch.py): a reset for all with the pile taken away, and
# sitting out with an out player's hand under the pile and all of it reshuffled, a leader
# drawn for each hand
HOUSE_K = load_rules(HOUSE_RESET)
# pooled teams as P plays, the out side's hands under the pile, a penny from the pot for
# making 12 (early, while the pot is often empty)
HOUSE_TEAM_RULES = {
    "preset": "P",
    "rules": {
        "teams": "pooled",
        "players_min": 4,
        "players_max": 4,
        "eliminated_hand": "under_pile",
        "rule_69": "penny_from_pool",
        "rule_69_total": 12,
    },
}
HOUSE_TEAM = load_rules(HOUSE_TEAM_RULES)
HOUSE_P = load_rules(HOUSE_SIT_OUT)
# milestones every ten points and at 69, two lives and a skipping Five: a skipped seat put
# out by the play that skips it, and a game a payment at 69 ends before 69's penny
HOUSE_SKIP = load_rules(
    {
        "preset": "P-ONLINE",
        "rules": {
            "cards": {"5": "+5 skip"},
            "threshold_values": [10, 20, 30, 40, 50, 60, 69, 80, 90],
            "skip_counts": "before_eliminations",
            "rule_69": "penny_from_pool",
            "lives": 2,
        },
    }
)


@pytest.mark.parametrize(
    ("preset", "players"),
    [
        ("P", 2),
        ("P", 8),  # two decks
        ("K", 3),
        ("K", 6),
        ("G", 3),
        ("G", 8),
        ("J", 2),
        ("J", 5),
        ("BGA", 3),  # the loser leads
        ("P-TEN-MINUS", 4),  # a card that takes the total down
        ("98", 4),  # the first player out ends it
        ("WIKI", 2),  # a skipping card; a reverse flips nothing with two in the hand
        ("WIKI", 5),
        ("P-2P-AGAIN", 2),  # a reverse with two in the hand: play again
        ("P-1950", 3),  # out only when a life cannot be paid
        ("P-CONTINUE", 4),  # reset the others, the pile taken away, all of it reshuffled
        (HOUSE_K, 4),
        (HOUSE_P, 5),
        ("J-TEAM", 4),  # two partnerships, each spending one pool of lives
        (HOUSE_TEAM, 4),
        ("P-69", 4),  # a life from the pot for making 69
        (load_rules({"preset": "P", "rules": {"rule_69": "reset_to_zero"}}), 3),
        ("P-BORDERS", 3),  # game points: a point a border crossed, scores to 15
        ("P-BORDERS", 5),
        *MILESTONE_GAMES,
        # milestones with 33/66 left, sitting out, playing again, a skip an out seat
        # absorbs, the loser leading (none where 99 is made), 69's penny; every few points
        (load_rules(HOUSE_ONLINE), 4),
        (load_rules(HOUSE_ONLINE), 3),
        (load_rules(HOUSE_DENSE), 2),
        (load_rules(HOUSE_DENSE), 4),
        (
            load_rules(
                {
                    "preset": "P-ONLINE",
                    "rules": {"online_cross": "leave", "starter": "left_of_loser", "lives": 3},
                }
            ),
            4,
        ),
        (load_rules({**HOUSE_TEAM_RULES, "preset": "P-ONLINE"}), 4),  # partners pay together
        ("IS", 2),  # a no-draw chain (the Queen), a leader drawn for each hand
        ("IS", 4),
        ("IS", 8),
        (load_rules(HOUSE_CHAIN), 3),  # two chain cards, short hands, a reset for all
        (load_rules(HOUSE_CHAIN), 6),
        (load_rules(HOUSE_POINTS), 4),  # floored, ties shared, sitting out, 69's point
        (load_rules(HOUSE_POINTS), 2),
        (
            load_rules(
                {"preset": "P-BORDERS", "rules": {"points_tie": "shared", "points_target": 8}}
            ),
            4,
        ),
    ],
    ids=lambda p: p.id if isinstance(p, Rules) else str(p),
)
def test_the_jax_engine_plays_as_the_reference_engine(preset: str | Rules, players: int) -> None:
    games = [reference_game(preset, players, seed) for seed in range(12)]
    batch = JaxBatch(
        preset,
        players,
        len(games),
        seed=1,
        shuffler=ScriptedShuffles(games),
        leader=ScriptedLeads(games),
        first=np.array([g["first"] for g in games]),
    )
    assert replay(batch, games) > 150


class KeyedChance:
    """Shuffles and leaders that hang on the slot and how many it has had alone, so that
    two engines asking in another order get the same ones."""

    def __init__(self) -> None:
        self.shuffles: dict[int, int] = {}
        self.leads: dict[int, int] = {}

    def rng(self, slot: int, kind: dict[int, int], tag: int) -> np.random.Generator:
        kind[slot] = kind.get(slot, 0) + 1
        return np.random.default_rng([tag, slot, kind[slot]])

    def shuffle(self, slots: np.ndarray, cards: np.ndarray, counts: np.ndarray) -> np.ndarray:
        out = np.full(cards.shape, EMPTY, np.int64)
        for row, slot in enumerate(slots.tolist()):
            asked = cards[row, : counts[row]]
            out[row, : counts[row]] = self.rng(slot, self.shuffles, 0).permutation(asked)
        return out

    def lead(self, slots: np.ndarray, alive: np.ndarray) -> np.ndarray:
        return np.array(
            [
                self.rng(slot, self.leads, 1).choice([s for s in range(8) if mask >> s & 1])
                for slot, mask in zip(slots.tolist(), alive.tolist(), strict=True)
            ]
        )


@pytest.mark.parametrize(
    ("preset", "players"),
    [
        ("IS", 3),
        ("IS", 6),
        (load_rules(HOUSE_CHAIN), 4),
        (HOUSE_P, 5),
        ("QC", 5),
        (load_rules(HOUSE_DENSE), 4),
        (HOUSE_SKIP, 4),
    ],
)
def test_the_jax_engine_offers_the_batch_engines_legal_actions(
    preset: str | Rules, players: int
) -> None:
    """The JAX and NumPy engines side by side, with the same shuffles, leaders and random
    actions: the same legal actions at every step (the replay only asks that the
    reference's move be among them), totals, turns and hands, in each slot's first game
    (the next one's leader is each engine's own draw)."""
    size = 64
    first = np.arange(size) % players
    engines = [
        cls(preset, players, size, seed=1, shuffler=c.shuffle, leader=c.lead, first=first)
        for cls, c in ((JaxBatch, KeyedChance()), (Batch, KeyedChance()))
    ]
    ours, numpy = engines
    rng = np.random.default_rng(3)
    live = np.ones(size, bool)
    compared = 0
    while live.any():
        legal = np.asarray(ours.legal()).astype(np.int64)
        numpy_legal = numpy.legal()
        assert legal[live].tolist() == numpy_legal[live].tolist()
        for name in ("total", "turn", "hands", "lives", "starter", "dealer", "milestones_paid"):
            assert np.array_equal(getattr(ours, name)[live], getattr(numpy, name)[live]), name
        compared += int(live.sum())
        bits = [np.flatnonzero(pattern >> np.arange(ours.actions) & 1) for pattern in legal]
        actions = np.array([rng.choice(b) for b in bits])
        ours.step(actions)
        numpy.step(np.where(live, actions, numpy.random_actions(numpy_legal)))
        assert np.array_equal(ours.over[live], numpy.over[live])
        done = live & numpy.over
        for name in ("winners", "final_lives", "final_hands"):
            assert np.array_equal(getattr(ours, name)[done], getattr(numpy, name)[done]), name
        live &= ~numpy.over
    assert compared > 500


def outcomes(batch: Batch | JaxBatch, steps: int) -> dict[str, np.ndarray]:
    """Random games' hands, winners' lives and decisions, for the games that ended."""
    hands, lives, decisions = [], [], []
    started = np.zeros(batch.size, np.int64)
    for step in range(steps):
        batch.step(batch.random_actions(batch.legal()))
        over = np.flatnonzero(batch.over)
        hands += batch.final_hands[over].tolist()
        lives += batch.final_lives[over].max(axis=1).tolist()
        decisions += (step + 1 - started[over]).tolist()
        started[over] = step + 1
    return {"hands": np.array(hands), "lives": np.array(lives), "decisions": np.array(decisions)}


# G for the reshuffles of every card and of the pile, J for the deals from the stock,
# P-CONTINUE for the whole pile reshuffled after one taken away, IS for the no-draw chain,
# P-ONLINE for milestones
@pytest.mark.parametrize(
    ("preset", "players"), [("G", 5), ("J", 4), ("P-CONTINUE", 4), ("IS", 3), ("P-ONLINE", 4)]
)
def test_the_jax_engine_plays_the_batch_engines_distributions(preset: str, players: int) -> None:
    """Thousands of games with each engine's own shuffles: the same mean game length (in
    hands and decisions) and winner's lives, within five standard errors."""
    size, steps = 1024, 700
    ours = outcomes(JaxBatch(preset, players, size, seed=5), steps)
    numpy = outcomes(Batch(preset, players, size, seed=5), steps)
    assert len(ours["hands"]) > 1500
    for name, a in ours.items():
        b = numpy[name]
        error = np.sqrt(a.var() / len(a) + b.var() / len(b))
        assert abs(a.mean() - b.mean()) <= 5 * error, (name, a.mean(), b.mean())


def test_the_jax_engine_draws_each_hands_leader_among_the_seats_still_in() -> None:
    """Under a random starter, each new hand's leader is a seat still in, every seat as
    often as another (within five standard errors), the dealer the seat still in before
    it."""
    n = 5
    batch = JaxBatch(HOUSE_P, n, 512, seed=3)
    seats = np.arange(n)
    counts = np.zeros(n)
    for _ in range(150):
        before = batch.hand_no.copy()
        batch.step(batch.random_actions(batch.legal()))
        new = np.flatnonzero((batch.hand_no != before) & ~batch.over)
        starter, dealer = batch.starter[new], batch.dealer[new]
        alive = batch.alive[new, None] >> seats & 1 == 1
        assert alive[np.arange(len(new)), starter].all()
        # the dealer: the last seat still in before the leader
        between = (seats - dealer[:, None]) % n < (starter - dealer)[:, None] % n
        assert alive[np.arange(len(new)), dealer].all()
        assert not (alive & between & (seats != dealer[:, None])).any()
        counts += np.bincount(starter, minlength=n)
    share = counts.sum() / n
    assert counts.sum() > 1500
    assert (abs(counts - share) <= 5 * np.sqrt(share)).all(), counts


def test_the_per_game_functions_vmapped_play_whole_games() -> None:
    """Pgx's way: ``init`` and ``step`` of one game, vmapped and jitted (with the loop) by
    the caller."""
    e = engine(load_rules("G"), 5)
    legal, step = jax.vmap(e.legal), jax.vmap(e.step)

    def one(state: State, key: jax.Array) -> tuple[State, tuple[jax.Array, ...]]:
        allowed = legal(state)
        k1, k2 = jax.random.split(key)
        state = step(state, e.random_actions(allowed, k1), jax.random.split(k2, 64))
        return state, (allowed, state.total, e.popcount[state.alive], state.over)

    state = jax.jit(jax.vmap(e.init))(jax.random.split(jax.random.key(0), 64))
    play = jax.jit(lambda state, keys: jax.lax.scan(one, state, keys))
    _, (allowed, total, alive, over) = play(state, jax.random.split(jax.random.key(1), 300))
    assert (np.asarray(allowed) != 0).all()
    assert (np.asarray(total) <= e.limit).all() and (np.asarray(alive) >= 2).all()
    assert int(over.sum()) > 10


@pytest.mark.parametrize(
    ("preset", "named"),
    [
        ("TW", "card 5S of these rules (it names a seat"),  # the NumPy engine plays it
        ("P-UPCARD", "'start_total' = 'upcard'"),  # the NumPy engine plays it
        (load_rules({"preset": "P", "rules": {"king_ban_turns": 5}}), "'king_ban_turns' = 5"),
        ("CN99", "'eliminated_hand' = 'face_up'"),  # neither engine plays it
    ],
)
def test_the_jax_engine_names_what_it_does_not_play(preset: str | Rules, named: str) -> None:
    with pytest.raises(RulesError) as e:
        JaxBatch(preset, 4, 8)
    assert str(e.value).startswith("the JAX engine does not play") and "\n" not in str(e.value)
    assert named in str(e.value)


def test_a_game_is_compact() -> None:
    assert JaxBatch("P", 4, 16, seed=1).bytes_per_game <= 200
