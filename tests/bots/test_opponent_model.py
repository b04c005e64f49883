"""The search's model of the other seats (``ismcts`` ``model=known``): which seats play
heuristic-v1 is public, and only those are played by its clone; bots are told who sits
where wherever they are made for a game."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from ninetynine.analysis.columns import HandColumns
from ninetynine.analysis.play import Engine, play_on
from ninetynine.arena.game import play_game
from ninetynine.bots import base, make_bot, meet_bot
from ninetynine.bots.belief import HandReader
from ninetynine.bots.clone import HeuristicClone, HeuristicModel
from ninetynine.bots.determinize import Determinizer
from ninetynine.bots.ismcts import IsmctsBot, heuristic_weights
from ninetynine.bots.knowledge import rollout_policy
from ninetynine.engine.actions import Action
from ninetynine.engine.ledger import LedgerState
from ninetynine.engine.state import State
from ninetynine.engine.view import View, observe
from ninetynine.rules.presets import load_rules
from ninetynine.session.table import Seat, SeatKind, Table

from .test_hidden_info import played

KNOWN = "ismcts:iterations=120,belief=history,value=odds,model=known"


def searcher(spec: str, met: Sequence[str | None]) -> IsmctsBot:
    bot = make_bot(spec)
    assert isinstance(bot, IsmctsBot)
    meet_bot(bot, met)
    return bot


def a_view(seed: int = 1) -> View:
    state, history = played("P", 4, seed, plays=9)
    seat = state.current_seat
    assert seat is not None
    return observe(state, seat, history)


def test_only_seats_met_as_heuristic_v1_are_known() -> None:
    assert heuristic_weights("heuristic-v1") == heuristic_weights("heuristic") == (4.0, 1.5)
    assert heuristic_weights("medium") is None  # the level plays heuristic-v2
    assert heuristic_weights("heuristic-v1:push=2") == (2.0, 1.5)
    for other in ("heuristic-v2", "random", "hard", "beginner", "cmd:python bot.py", "nonsense"):
        assert heuristic_weights(other) is None
    view = a_view()
    met: list[str | None] = [None, "heuristic-v1", "heuristic-v2", "heuristic"]
    met[view.seat] = KNOWN
    found = searcher(KNOWN, met).known_seats(view)
    assert set(found) == {s for s in (1, 3) if s != view.seat}
    # the default model keeps the general one for everybody, whoever sits where
    assert searcher("ismcts:iterations=50", met).known_seats(view) == {}
    # a seat list that does not fit the table is not read
    assert searcher(KNOWN, met[:3]).known_seats(view) == {}


def test_a_persons_seat_never_gets_the_clone(monkeypatch: pytest.MonkeyPatch) -> None:
    moved: set[int] = set()
    best = HeuristicClone.best

    def spy(self: HeuristicClone, s: State, codes: Sequence[int]) -> int:
        moved.add(s.turn)
        return best(self, s, codes)

    monkeypatch.setattr(HeuristicClone, "best", spy)
    for seed in range(3):
        view = a_view(seed)
        met: list[str | None] = [None] * 4
        modelled = (view.seat + 2) % 4
        met[modelled], met[view.seat] = "heuristic-v1", KNOWN
        searcher(KNOWN, met).choose(view, random.Random(seed))
        assert moved == {modelled}  # the clone played, and only for the heuristic's seat
        moved.clear()
        met[modelled] = None  # everybody else a person: no clone at all
        searcher(KNOWN, met).choose(view, random.Random(seed))
        assert not moved


def test_the_known_model_is_deterministic_for_a_seed_and_changes_the_search() -> None:
    view = a_view(2)
    met: list[str | None] = ["heuristic-v1"] * 4
    met[view.seat] = KNOWN
    runs = [
        searcher(spec, met).evaluate(searcher(spec, met).determinizer(view), random.Random(7))
        for spec in (KNOWN, KNOWN, KNOWN.replace("known", "rollout"))
    ]
    assert runs[0] == runs[1]
    assert runs[0].rows != runs[2].rows


class Meeter:
    """A bot that writes down whom it met."""

    name = "meeter"
    met: list[list[str | None]] = []

    def meet(self, seats: Sequence[str | None]) -> None:
        Meeter.met.append(list(seats))

    def choose(self, view: View, rng: random.Random) -> Action:
        return view.legal[0]


@pytest.fixture
def meeter(monkeypatch: pytest.MonkeyPatch) -> type[Meeter]:
    monkeypatch.setitem(base._ADDED, "meeter", Meeter)
    monkeypatch.setattr(Meeter, "met", [])
    return Meeter


def test_the_arena_tells_each_bot_the_seats(meeter: type[Meeter]) -> None:
    specs = ["meeter", "heuristic-v1", "random"]
    play_game(load_rules("P"), specs, [1, 0, 2], index=0, chance_seed="c", bot_seed="b")
    assert meeter.met == [["heuristic-v1", "meeter", "random"]]


def test_the_analysis_tells_bots_made_for_the_game(meeter: type[Meeter]) -> None:
    rules = load_rules("P")
    seats = ["heuristic-v1", "meeter", "random"]
    hands = HandColumns(rules.id, 3, "test")
    play_on(LedgerState.start(rules, 3), seats, "d", "b", hands, Engine.CHECKED)
    assert meeter.met == [seats]


def test_a_table_tells_bots_the_seats_and_a_person_is_none(meeter: type[Meeter]) -> None:
    seats = [Seat("Ann"), Seat("Bot", SeatKind.BOT, "meeter"), Seat("H", SeatKind.BOT, "medium")]
    Table.new(load_rules("P"), seats, seed=3).close()
    assert meeter.met == [[None, "meeter", "medium"]]


def test_the_belief_weighs_a_known_seats_plays_by_its_bot() -> None:
    # The same plays read with the general model and with heuristic-v1's own: the
    # posteriors of the hands differ for some seat (the models do not always agree).
    differ = 0
    for seed in range(4):
        view = a_view(seed)
        det = Determinizer(view)
        policy = rollout_policy(view.rules)
        general = HandReader(view, policy)
        models = {s: HeuristicModel(view.rules, view.decks) for s in general.plays}
        known = HandReader(view, policy, models=models, side=det.template.side)
        for seat in general.plays:
            a, b = general.posterior(seat, det.pool), known.posterior(seat, det.pool)
            assert set(b) <= set(a)  # the same hands are possible
            norm_a, norm_b = sum(a.values()), sum(b.values())
            differ += any(abs(a[h] / norm_a - b[h] / norm_b) > 0.01 for h in b)
    assert differ
