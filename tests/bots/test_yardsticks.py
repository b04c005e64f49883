"""The yardsticks: greedy, greedy-keep, and the oracle that only the arena may seat."""

from __future__ import annotations

import random

import pytest

from ninetynine import load_rules, presets
from ninetynine.arena import play_game
from ninetynine.bots import DIFFICULTIES, BotFailure, ask, make_bot
from ninetynine.bots.base import honest_bot_names, sees_hidden_cards
from ninetynine.engine.state import State
from ninetynine.engine.view import View, observe
from ninetynine.errors import NinetyNineError
from ninetynine.records.position import parse_position
from ninetynine.rules.cards import parse_card
from ninetynine.session.table import parse_seats
from tests.bots.test_hidden_info import played, swap_hidden


def position(hand: str, total: int, rules: str = "P") -> View:
    state = parse_position(
        f'rules = "{rules}"\ntotal = {total}\nturn = 1\n'
        f'hands = ["{hand}", "2C 3C 4C", "5C 6C 7C"]\n'
    )
    return observe(state, 0)


@pytest.mark.parametrize(
    "hand, total, greedy, keep",
    [
        ("5H 8D KS", 50, "KS", "8D"),  # the King sets 99, the highest total; keep saves it
        ("5H 9S KS", 95, "KS", "9S"),  # only escapes are safe: keep plays the lowest total
        ("QH 8D 4S", 91, "8D", "8D"),  # the Queen would go over
        ("10H 9S KS", 99, "KS", "10H"),  # ties go to the higher card; keep's Ten counts -10
    ],
)
def test_greedy_plays_the_highest_total_and_greedy_keep_keeps_escapes(
    hand: str, total: int, greedy: str, keep: str
) -> None:
    view = position(hand, total)
    rng = random.Random(1)
    g, k = make_bot("greedy").choose(view, rng), make_bot("greedy-keep").choose(view, rng)
    assert g.card == parse_card(greedy) and k.card == parse_card(keep)
    if keep == "10H":
        assert k.value == -10


def test_the_oracle_is_refused_outside_the_arena() -> None:
    assert "oracle" not in DIFFICULTIES.values() and "oracle" not in DIFFICULTIES
    assert "oracle" not in honest_bot_names() and "hard" not in honest_bot_names()
    with pytest.raises(NinetyNineError, match="sees the other players' cards"):
        make_bot("oracle")
    with pytest.raises(NinetyNineError, match="cannot play at a table"):
        parse_seats(["you", "oracle"], players=2, bots=["medium"], name="Ann")
    bot = make_bot("oracle:iterations=20", seeing=True)
    assert sees_hidden_cards(bot) and not sees_hidden_cards(make_bot("hard"))
    view = position("5H 8D KS", 50)
    with pytest.raises(NinetyNineError, match="only the arena"):
        bot.choose(view, random.Random(1))


class _Spy:
    """A bot that records what it is given."""

    name = "spy"

    def __init__(self, seeing: bool) -> None:
        self.sees_hidden_cards = seeing
        self.calls: list[tuple[object, ...]] = []

    def choose(self, view: View, rng: random.Random) -> object:
        self.calls.append((view,))
        return view.legal[0]

    def choose_seeing(self, view: View, state: State, rng: random.Random) -> object:
        self.calls.append((view, state))
        return view.legal[0]


def test_ask_gives_the_state_only_to_a_bot_that_declares_it_sees_hidden_cards() -> None:
    state = parse_position(
        'rules = "P"\ntotal = 50\nturn = 1\nhands = ["5H 8D KS", "2C 3C 4C", "5C 6C 7C"]\n'
    )
    view = observe(state, 0)
    honest, seeing = _Spy(False), _Spy(True)
    for spy in (honest, seeing):
        ask(spy, view, random.Random(1), state)  # type: ignore[arg-type]
    assert len(honest.calls[0]) == 1 and isinstance(honest.calls[0][0], View)
    given = seeing.calls[0][1]
    assert isinstance(given, State) and given.hands == state.hands and given is not state
    with pytest.raises(BotFailure, match="only the arena gives it the real game"):
        ask(_Spy(True), view, random.Random(1))  # type: ignore[arg-type]


def test_the_oracle_reads_the_hidden_cards_that_honest_bots_cannot() -> None:
    # Two states that look the same to the seat: honest bots choose alike in both (see
    # test_hidden_info), the oracle does not always.
    differs = 0
    for seed in range(8):
        state, history = played("P", 3, seed, plays=12)
        seat = state.current_seat
        assert seat is not None
        twin = swap_hidden(state, seat, random.Random(seed))
        view = observe(state, seat, history)
        assert view == observe(twin, seat, history)
        oracle = make_bot("oracle:iterations=300,prior=0", seeing=True)
        moves = {
            str(oracle.choose_seeing(view, s.clone(), random.Random(seed)))  # type: ignore[attr-defined]
            for s in (state, twin)
        }
        differs += len(moves) > 1
    assert differs >= 1


@pytest.mark.parametrize("preset", sorted(presets()))
def test_the_yardsticks_finish_every_preset_in_the_arena(preset: str) -> None:
    rules = load_rules(preset)
    n = min(max(3, rules.players_min), rules.players_max)
    specs = ["oracle:iterations=12,depth=10", "greedy", "greedy-keep"]
    result = play_game(
        rules, specs, [i % 3 for i in range(n)], index=0, chance_seed="y", bot_seed="y"
    )
    assert not result.forfeits, result.forfeits
