"""The match controller: whole games, determinism, hot-seat, what bots are shown."""

from __future__ import annotations

import random
import subprocess

import pytest
from tests.helpers import CRASHING_BOT, EXAMPLE_BOT

from ninetynine import load_rules, presets
from ninetynine.bots import BotFailure, register
from ninetynine.engine.actions import Action, ActionKind, Shuffle
from ninetynine.engine.events import GameOver, LifeLost
from ninetynine.engine.game import new_game
from ninetynine.engine.options import stuck_explanation
from ninetynine.engine.view import View
from ninetynine.errors import IllegalActionError, NinetyNineError
from ninetynine.records.match import replay
from ninetynine.rules.cards import new_deck, parse_card, parse_cards
from ninetynine.session.table import Seat, SeatKind, Table, Waiting, parse_seats


def bots(n: int, spec: str = "random") -> list[Seat]:
    return [Seat(f"B{i + 1}", SeatKind.BOT, spec) for i in range(n)]


def play_to_end(table: Table, rng: random.Random) -> None:
    for _ in range(5000):
        p = table.pending()
        if p.kind is Waiting.OVER:
            return
        if p.kind is Waiting.BOT:
            table.step_bot()
        else:
            table.play(rng.choice(table.view(p.seat or 0).legal))
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("preset", list(presets()))
def test_every_preset_plays_to_the_end_with_a_summary(preset: str) -> None:
    rules = load_rules(preset)
    n = min(max(3, rules.players_min), rules.players_max)
    table = Table.new(rules, [Seat("Me"), *bots(n - 1)], seed=11)
    play_to_end(table, random.Random(1))
    summary = table.summary()
    assert summary is not None and table.state.outcome is not None
    assert summary.winners == table.state.outcome.winners
    assert summary.hands == table.state.hand_no >= 1
    lost = [
        sum(e.amount - e.unpaid for e in table.log if isinstance(e, LifeLost) and e.seat == s)
        for s in range(n)
    ]
    assert list(summary.lives_lost) == lost
    assert isinstance(table.log[-1], GameOver)
    # the record written along the way replays to the same end
    final, _ = replay(table.record)
    assert final == table.state


def test_same_seed_same_game_and_a_different_seed_differs() -> None:
    rules = load_rules("K")
    games = []
    for seed in (5, 5, 6):
        t = Table.new(rules, bots(4), seed=seed)
        play_to_end(t, random.Random(0))
        games.append([str(m) for _, m in t.record.moves])
    assert games[0] == games[1]
    assert games[0] != games[2]


def test_resuming_from_the_record_goes_on_exactly_as_before() -> None:
    rules = load_rules("P")
    whole = Table.new(rules, bots(3), seed=9)
    play_to_end(whole, random.Random(0))
    half = Table.new(rules, bots(3), seed=9)
    for _ in range(40):
        half.step_bot()
    again = Table.resume(half.record, half.seats, seed=9)
    assert again.state == half.state and again.log == half.log
    play_to_end(again, random.Random(0))
    assert [str(m) for _, m in again.record.moves] == [str(m) for _, m in whole.record.moves]


def test_a_persons_illegal_move_is_refused_and_leaves_no_trace() -> None:
    table = Table.new(load_rules("P"), [Seat("Me"), *bots(2)], seed=3)
    hand = table.state.hands[0]
    missing = next(c for c in range(52) if c not in hand)
    moves, state = len(table.record.moves), table.state.clone()
    with pytest.raises(IllegalActionError):
        table.play(Action.play(missing))
    assert len(table.record.moves) == moves and table.state == state
    with pytest.raises(NinetyNineError):
        table.step_bot()  # it is the person's turn, not a bot's


def test_bots_are_shown_only_their_own_view() -> None:
    seen: list[tuple[View, list[int]]] = []
    table_ref: list[Table] = []

    @register("spy-for-tests")
    class Spy:
        name = "spy-for-tests"

        def choose(self, view: View, rng: random.Random) -> Action:
            seen.append((view, sorted(table_ref[0].state.hands[view.seat])))
            return rng.choice(view.legal)

    table = Table.new(load_rules("P"), bots(3, "spy-for-tests"), seed=4)
    table_ref.append(table)
    for _ in range(30):
        table.step_bot()
    assert len(seen) == 30
    for view, own in seen:
        assert isinstance(view, View)
        assert list(view.hand) == own  # its own cards and nobody else's
        assert view.turn == view.seat


def test_hot_seat_hides_hands_until_the_next_person_takes_the_device() -> None:
    table = Table.new(load_rules("P"), [Seat("Ann"), Seat("Bea"), *bots(1)], seed=2)
    assert table.hot_seat and table.pending().seat == 0
    assert table.needs_handoff() and table.viewer is None
    table.reveal(0)
    assert not table.needs_handoff() and table.viewer == 0
    table.play(table.view(0).legal[0])
    assert table.viewer is None  # hidden again straight after the move
    assert table.pending().kind is Waiting.HUMAN and table.pending().seat == 1
    assert table.needs_handoff()


def test_a_single_person_always_sees_their_own_hand() -> None:
    table = Table.new(load_rules("P"), [*bots(1), Seat("Me"), *bots(1)], seed=2)
    assert not table.hot_seat and table.viewer == 1 and not table.needs_handoff()


def test_stuck_explanation_names_the_consequence() -> None:
    state = new_game(load_rules("P"), 2)
    top = parse_cards("JS 2S QH 3S JD 5C")  # dealt one at a time, seat 1 first
    state.apply(Shuffle(tuple(top + [c for c in new_deck() if c not in top])))
    assert sorted(state.hands[0]) == sorted(parse_cards("JS QH JD"))
    state.total = 95
    assert [a.kind for a in state.legal_actions()] == [ActionKind.DOWN]
    why = stuck_explanation(state)
    assert why is not None and "over 99" in why and "lose a penny" in why  # P: pennies
    state.total = 10
    assert stuck_explanation(state) is None


def test_parse_seats() -> None:
    seats = parse_seats(None, players=3, bots=["easy", "random"], name="Zed")
    assert [s.kind for s in seats] == [SeatKind.HUMAN, SeatKind.BOT, SeatKind.BOT]
    assert seats[0].name == "Zed" and [s.bot for s in seats[1:]] == ["easy", "random"]
    seats = parse_seats(["random", "@Ann", "you"], players=4, bots=["easy"], name="Me")
    assert [s.name for s in seats][1:] == ["Ann", "Me"]
    for words, message in (
        (["random", "random"], "no person"),
        (["you", "@Me"], "two seats"),
        (["you", "nosuchbot"], "unknown bot"),
        (["you", "@"], "needs a name"),
        (["you", "@A\tB"], "printable"),
    ):
        with pytest.raises(NinetyNineError, match=message):
            parse_seats(words, players=2, bots=["easy"], name="Me")


def test_rematch_keeps_the_table_and_moves_the_first_seat() -> None:
    table = Table.new(load_rules("K"), [Seat("Me"), *bots(2)], seed=1)
    play_to_end(table, random.Random(2))
    again = table.rematch()
    assert again.seats == table.seats and again.rules == table.rules
    assert again.record.start.starter == 1 and not again.state.is_over
    assert parse_card("AS") == 0  # cards are ints, as the record text assumes


def test_protocol_bots_stop_when_the_game_ends_or_the_table_is_closed(
    bot_processes: list[subprocess.Popen[str]],
) -> None:
    seats = [Seat("Me"), Seat("Px", SeatKind.BOT, EXAMPLE_BOT)]
    table = Table.new(load_rules("K"), seats, seed=1)
    play_to_end(table, random.Random(2))
    assert len(bot_processes) == 1
    assert bot_processes[0].poll() == 0  # told the game is over, it exited by itself
    table = Table.new(load_rules("K"), seats, seed=2)
    rng = random.Random(3)
    while len(bot_processes) < 2:  # a game dropped once the bot has moved
        if table.pending().kind is Waiting.BOT:
            table.step_bot()
        else:
            table.play(rng.choice(table.view(0).legal))
    assert bot_processes[1].poll() is None
    table.close()
    table.close()  # again: nothing left to stop
    assert bot_processes[1].poll() is not None


def test_a_failing_bot_is_one_line_naming_its_seat_the_bot_and_the_reason() -> None:
    @register("boom-for-tests")
    class Boom:
        name = "boom-for-tests"

        def choose(self, view, rng):  # type: ignore[no-untyped-def]
            raise ValueError("out of ideas")

    for spec, reasons in (
        (CRASHING_BOT, ("exited (code 3)", "its last error line: no luck")),
        ("boom-for-tests", ("ValueError: out of ideas",)),
    ):
        table = Table.new(load_rules("P"), [Seat("Px", SeatKind.BOT, spec), Seat("Me")], seed=1)
        with pytest.raises(BotFailure) as e:
            table.step_bot()
        table.close()
        message = str(e.value)
        assert message.startswith(f"seat 1 (Px) failed: bot {spec!r}")
        assert message.count(repr(spec)) == 1
        assert all(reason in message for reason in reasons)
        assert "\n" not in message
        assert table.pending().seat == 0 and table.record.moves[-1][0] is None  # nothing played


def test_parse_seats_closes_the_bots_it_builds_to_check_their_specs() -> None:
    closed = []

    @register("closable-for-tests")
    class Closable:
        name = "closable-for-tests"

        def choose(self, view, rng):  # type: ignore[no-untyped-def]
            return view.legal[0]

        def close(self) -> None:
            closed.append(self)

    parse_seats(["you", "closable-for-tests", "random"], players=3, bots=["easy"], name="Me")
    assert len(closed) == 1
