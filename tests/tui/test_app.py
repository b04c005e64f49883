"""The full-screen game, driven headless by Textual's pilot at 80x24."""

from __future__ import annotations

import asyncio
import subprocess
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from tests.helpers import CRASHING_BOT, EXAMPLE_BOT
from textual.pilot import Pilot

from ninetynine import load_rules
from ninetynine.coach import advise
from ninetynine.engine.events import CardPlayed, Declined, Named
from ninetynine.rules.cards import RANKS, format_card, rank_of
from ninetynine.session.saves import autosave, current_path, finish, load_save
from ninetynine.session.table import Pending, Seat, SeatKind, Table, Waiting
from ninetynine.tui.app import PlayApp
from ninetynine.tui.dialogs import ChoiceScreen, GameOverScreen, HandoffScreen, HelpScreen
from ninetynine.tui.text import card_label

ScreenText = Callable[[PlayApp], str]
SIZE = (80, 24)


def run(app: PlayApp, script: Callable[[Pilot[None]], Awaitable[None]]) -> None:
    async def go() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await script(pilot)

    asyncio.run(go())


def make_table(rules: str = "K", seats: list[Seat] | None = None, seed: int = 3) -> Table:
    seats = seats or [
        Seat("Ann"),
        Seat("Bo", SeatKind.BOT, "random"),
        Seat("Cy", SeatKind.BOT, "random"),
    ]
    table = Table.new(load_rules(rules), seats, seed=seed)
    table.on_move = autosave
    return table


def hidden_cards_on_screen(app: PlayApp, text: str) -> list[str]:
    """Cards of seats the person at the screen may not see that appear as card labels.

    The table shows cards with suit symbols (the log names played cards as "5H"), so a
    symbol label of another seat's card on screen is a leak (one deck: no duplicates)."""
    table = app.table
    leaks = []
    for seat, hand in enumerate(table.state.hands):
        if seat == table.viewer:
            continue
        for card in hand:
            if card_label(card) in text:
                leaks.append(f"{table.names[seat]}:{format_card(card)}")
    return leaks


async def first_playable(pilot: Pilot[None]) -> None:
    app = pilot.app
    assert isinstance(app, PlayApp)
    items = app.game.items
    number = next(i for i, item in enumerate(items, 1) if item.playable)
    await pilot.press(str(number % 10))
    await pilot.pause()


async def play_to_end(pilot: Pilot[None], screen_text: ScreenText, limit: int = 400) -> int:
    """Take the first legal choice every time; scan every screen for hidden cards."""
    app = pilot.app
    assert isinstance(app, PlayApp)
    for screens in range(1, limit + 1):
        text = screen_text(app)
        assert not hidden_cards_on_screen(app, text), text
        if isinstance(app.screen, GameOverScreen):
            return screens
        if isinstance(app.screen, HandoffScreen):
            await pilot.press("enter")
        elif isinstance(app.screen, ChoiceScreen):
            await pilot.press("1")
        else:
            await first_playable(pilot)
        await pilot.pause()
    raise AssertionError("the game did not end")


def test_a_whole_game_against_bots_then_quit(home: Path, screen_text: ScreenText) -> None:
    app = PlayApp(make_table(), finish=lambda t: str(finish(t)))

    async def script(pilot: Pilot[None]) -> None:
        assert await play_to_end(pilot, screen_text) > 3
        text = screen_text(app)
        assert "Game over" in text and "Hands played:" in text and "Rematch" in text
        await pilot.press("q")

    run(app, script)
    assert app.message is None  # a finished game needs no resume hint
    assert len(list((home / "games").iterdir())) == 1 and not current_path().exists()


def test_rematch_starts_a_new_game_at_the_same_table(screen_text: ScreenText) -> None:
    app = PlayApp(make_table(rules="K", seed=5))

    async def script(pilot: Pilot[None]) -> None:
        await play_to_end(pilot, screen_text)
        first = app.table
        await pilot.press("r")
        await pilot.pause()
        assert app.table is not first and not app.table.state.is_over
        assert app.table.seats == first.seats
        assert "A new game with the same table." in screen_text(app)

    run(app, script)


def assert_keys_reach_the_game(app: PlayApp) -> None:
    """Focus (if any) is on a widget still on the screen: keys on a removed card go nowhere."""
    assert app.focused is None or app.focused.is_attached, app.focused


async def play_a_card_by_number(pilot: Pilot[None]) -> None:
    """The person plays their first legal card with its number key (an Ace: its first value)."""
    app = pilot.app
    assert isinstance(app, PlayApp)
    assert app.table.pending() == Pending(Waiting.HUMAN, 0)
    before = len(app.table.record.moves)
    await first_playable(pilot)
    if isinstance(app.screen, ChoiceScreen):
        await pilot.press("1")
        await pilot.pause()
    after = len(app.table.record.moves)
    assert after > before, "the number key played nothing"


def test_after_a_rematch_the_keys_play_help_and_quit(home: Path, screen_text: ScreenText) -> None:
    app = PlayApp(make_table(rules="K", seed=5), finish=lambda t: str(finish(t)))

    async def script(pilot: Pilot[None]) -> None:
        await play_to_end(pilot, screen_text)
        await pilot.press("r")
        await pilot.pause()
        assert app.screen is app.game
        assert_keys_reach_the_game(app)
        await play_a_card_by_number(pilot)
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is app.game
        await pilot.press("q")
        await pilot.pause()

    run(app, script)
    assert app.message and "--resume" in app.message  # q saved the new game and quit
    saved = load_save()
    assert saved.record.moves == app.table.record.moves and saved.record.moves
    assert len(list((home / "games").iterdir())) == 1  # the first game, filed when it ended


def table_with_an_ace() -> tuple[Table, list[int]]:
    """A P table where the first seat holds an Ace, and its Aces."""
    for seed in range(300):
        table = make_table(rules="P", seed=seed)
        aces = [c for c in table.state.hands[0] if rank_of(c) == 0]
        if aces:
            return table, aces
    raise AssertionError("no seed below 300 deals the first seat an Ace")


def test_after_an_aces_value_is_chosen_the_number_keys_still_play() -> None:
    table, aces = table_with_an_ace()
    app = PlayApp(table)

    async def script(pilot: Pilot[None]) -> None:
        number = next(i for i, item in enumerate(app.game.items, 1) if item.card == aces[0])
        await pilot.press(str(number))
        await pilot.pause()
        await pilot.press("2")
        await pilot.pause()
        assert aces[0] not in table.state.hands[0]
        assert_keys_reach_the_game(app)
        await play_a_card_by_number(pilot)

    run(app, script)


def test_the_table_shows_total_direction_turn_seats_pile_stock_and_hand(
    screen_text: ScreenText,
) -> None:
    table = make_table(rules="P")
    app = PlayApp(table)

    async def script(pilot: Pilot[None]) -> None:
        await first_playable(pilot)
        text = screen_text(app)
        v = table.view(0)
        assert "clockwise" in text and "Ann to play" in text
        assert f"Stock {v.stock_size}" in text and f"Pile {card_label(v.pile_top or 0)}" in text
        for name in ("Ann", "Bo", "Cy"):
            assert name in text
        for card in v.hand:
            assert card_label(card) in text
        assert "Your turn, Ann" in text and "5 pennies" in text  # P counts in pennies

    run(app, script)


def test_an_ace_asks_for_its_value(screen_text: ScreenText) -> None:
    table, aces = table_with_an_ace()
    app = PlayApp(table)

    async def script(pilot: Pilot[None]) -> None:
        number = next(i for i, item in enumerate(app.game.items, 1) if item.card == aces[0])
        await pilot.press(str(number))
        await pilot.pause()
        assert isinstance(app.screen, ChoiceScreen)
        assert "how much does it count?" in screen_text(app)
        await pilot.press("escape")  # back: nothing is played
        await pilot.pause()
        assert aces[0] in table.state.hands[0]
        await pilot.press(str(number))
        await pilot.pause()
        await pilot.press("2")
        await pilot.pause()
        played = [e for e in table.log if isinstance(e, CardPlayed) and e.seat == 0]
        assert (played[0].card, played[0].value) == (aces[0], 11)
        assert f"Ann plays {card_label(aces[0])} as +11." in screen_text(app)

    run(app, script)


def test_an_illegal_card_is_refused_with_a_reason(screen_text: ScreenText) -> None:
    # K: the total may not pass 99 while a safe card is held; find a hand with an idle card
    for seed in range(500):
        table = make_table(rules="P", seed=seed)
        for _ in range(60):
            p = table.pending()
            if p.kind is Waiting.OVER:
                break
            if p.kind is Waiting.HUMAN:
                items = [a for a in table.view(0).legal]
                hand = table.state.hands[0]
                if any(not any(a.card == c for a in items) for c in hand) and items:
                    break
                table.play(items[0])
            else:
                table.step_bot()
        else:
            continue
        if table.pending().kind is Waiting.HUMAN:
            break
    app = PlayApp(table)

    async def script(pilot: Pilot[None]) -> None:
        number = next(i for i, item in enumerate(app.game.items, 1) if not item.playable)
        before = len(table.record.moves)
        assert "✗" in screen_text(app)
        await pilot.press(str(number))
        await pilot.pause()
        assert len(table.record.moves) == before
        said = next(
            line for line in screen_text(app).splitlines() if "cannot be played now" in line
        )
        card = app.game.items[number - 1].card
        assert card is not None and card_label(card) in said  # 8♣, as the hand shows it...
        assert format_card(card) not in said  # ...and never the record's '8C'

    run(app, script)


def test_hot_seat_hand_off_hides_everything_private(screen_text: ScreenText) -> None:
    seats = [Seat("Ann"), Seat("Bea"), Seat("Bot", SeatKind.BOT, "random")]
    table = make_table(rules="P", seats=seats)
    app = PlayApp(table)

    async def script(pilot: Pilot[None]) -> None:
        for _ in range(4):
            assert isinstance(app.screen, HandoffScreen)
            text = screen_text(app)
            who = table.names[table.pending().seat or 0]
            assert f"Pass the device to {who}" in text
            for hand in table.state.hands:
                for card in hand:
                    assert card_label(card) not in text
            await pilot.press("enter")
            await pilot.pause()
            assert table.viewer == table.pending().seat
            text = screen_text(app)
            assert not hidden_cards_on_screen(app, text)
            for card in table.state.hands[table.viewer or 0]:
                assert card_label(card) in text
            await first_playable(pilot)

    run(app, script)


def test_help_shows_the_rules_of_this_rule_set(screen_text: ScreenText) -> None:
    app = PlayApp(make_table(rules="J"))

    async def script(pilot: Pilot[None]) -> None:
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        text = screen_text(app)
        assert "The cards at a glance" in text and all(f" {r} " in text for r in RANKS[:9])
        assert load_rules("J").name in text
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, HelpScreen)

    run(app, script)


def test_save_and_quit_then_resume_in_the_same_place(home: Path, screen_text: ScreenText) -> None:
    table = make_table(rules="P", seed=12)
    app = PlayApp(table)

    async def script(pilot: Pilot[None]) -> None:
        await first_playable(pilot)
        await first_playable(pilot)
        await pilot.press("q")

    run(app, script)
    assert app.message and "--resume" in app.message
    resumed = load_save()
    resumed.on_move = autosave
    assert resumed.state == table.state and resumed.log == table.log
    app2 = PlayApp(resumed)

    async def again(pilot: Pilot[None]) -> None:
        text = screen_text(app2)
        assert "Your turn, Ann" in text
        for card in table.state.hands[0]:
            assert card_label(card) in text
        await first_playable(pilot)
        assert len(load_save().record.moves) > len(table.record.moves)

    run(app2, again)


def test_bots_are_paced(screen_text: ScreenText) -> None:
    seats = [Seat("Bo", SeatKind.BOT, "random"), Seat("Ann"), Seat("Cy", SeatKind.BOT, "random")]
    # a pace well above the app's start-up time on a loaded machine, so the bot still waits
    table = Table.new(load_rules("P"), seats, seed=1, pace=2.0)
    app = PlayApp(table)

    async def script(pilot: Pilot[None]) -> None:
        assert table.pending().seat == 0 and "Bo is thinking" in screen_text(app)
        await pilot.pause(2.5)
        assert table.pending().kind is Waiting.HUMAN

    run(app, script)


def test_f_makes_the_bots_move_at_once(screen_text: ScreenText) -> None:
    seats = [Seat("Bo", SeatKind.BOT, "random"), Seat("Ann"), Seat("Cy", SeatKind.BOT, "random")]
    table = Table.new(load_rules("P"), seats, seed=1, pace=30.0)
    app = PlayApp(table)

    async def script(pilot: Pilot[None]) -> None:
        assert table.pending().seat == 0
        await pilot.press("f")
        await pilot.pause()
        assert table.pending().seat == 1 and table.pace == 30.0

    run(app, script)


@pytest.mark.parametrize("pace", [0.0, 0.05])  # played at once, or thought in a thread
def test_a_bot_that_breaks_the_rules_stops_the_game_with_its_reason(pace: float) -> None:
    from ninetynine.bots import register
    from ninetynine.engine.actions import Action

    @register("cheat-for-tests")
    class Cheat:
        name = "cheat-for-tests"

        def choose(self, view, rng):  # type: ignore[no-untyped-def]
            return Action.play(next(c for c in range(52) if c not in view.hand))

    table = Table.new(
        load_rules("P"),
        [Seat("X", SeatKind.BOT, "cheat-for-tests"), Seat("Ann")],
        seed=1,
        pace=pace,
    )
    app = PlayApp(table)

    async def script(pilot: Pilot[None]) -> None:
        await pilot.pause(0.5)

    run(app, script)
    assert app.return_code == 2 and app.message
    assert "seat 1 (X) failed: bot 'cheat-for-tests' chose AS, which is not legal" in app.message


def test_a_protocol_bot_plays_a_whole_game_and_no_bot_process_outlives_the_app(
    bot_processes: list[subprocess.Popen[str]], screen_text: ScreenText
) -> None:
    app = PlayApp(make_table(rules="K", seats=[Seat("Ann"), Seat("Px", SeatKind.BOT, EXAMPLE_BOT)]))

    async def script(pilot: Pilot[None]) -> None:
        await play_to_end(pilot, screen_text)
        assert len(bot_processes) == 1 and bot_processes[0].poll() == 0  # the game is over
        await pilot.press("r")  # a rematch: the bot (seat 2) starts the new game at once
        await pilot.pause()
        assert len(bot_processes) == 2 and bot_processes[1].poll() is None
        # then the app ends in the middle of the game

    run(app, script)
    assert all(proc.poll() is not None for proc in bot_processes)


def test_save_and_quit_stops_the_protocol_bots(bot_processes: list[subprocess.Popen[str]]) -> None:
    app = PlayApp(make_table(rules="K", seats=[Seat("Ann"), Seat("Px", SeatKind.BOT, EXAMPLE_BOT)]))

    async def script(pilot: Pilot[None]) -> None:
        await first_playable(pilot)  # then the bot plays
        assert len(bot_processes) == 1 and bot_processes[0].poll() is None
        await pilot.press("q")

    run(app, script)
    assert app.message and "--resume" in app.message
    assert bot_processes[0].poll() is not None


@pytest.mark.parametrize("pace", [0.0, 0.05])  # played at once, or thought in a thread
def test_a_bot_that_crashes_stops_the_game_with_one_line_and_the_game_is_saved(
    pace: float, bot_processes: list[subprocess.Popen[str]]
) -> None:
    table = make_table(rules="P", seats=[Seat("Ann"), Seat("Px", SeatKind.BOT, CRASHING_BOT)])
    table.pace = pace
    app = PlayApp(table)

    async def script(pilot: Pilot[None]) -> None:
        await first_playable(pilot)
        await pilot.pause(0.5)

    run(app, script)
    assert app.return_code == 2 and app.message and "\n" not in app.message
    assert app.message.startswith(
        f"ninetynine: error: seat 2 (Px) failed: bot {CRASHING_BOT!r} exited (code 3)"
    )
    assert app.message.endswith("its last error line: no luck")
    saved = load_save()  # up to Ann's move, waiting for the bot
    assert saved.record.moves == table.record.moves and saved.pending() == Pending(Waiting.BOT, 1)
    assert len(bot_processes) == 1 and bot_processes[0].poll() == 3


def test_a_card_can_be_played_with_the_mouse() -> None:
    from ninetynine.tui.widgets import CardItem

    table = make_table(rules="P", seed=4)
    app = PlayApp(table)

    async def script(pilot: Pilot[None]) -> None:
        card = next(w for w in app.game.query(CardItem) if w.item.playable)
        assert card.item.card is not None
        await pilot.click(card)
        await pilot.pause()
        if isinstance(app.screen, ChoiceScreen):
            await pilot.click("#choice-1")
            await pilot.pause()
        played = [e for e in table.log if isinstance(e, CardPlayed) and e.seat == 0]
        assert played and played[0].card == card.item.card

    run(app, script)


def table_at(position: dict[str, object]) -> Table:
    """Ann (a person) and random bots (Bo, Cy), from a position written by hand."""
    from ninetynine.records.position import position_from_mapping
    from ninetynine.records.record import Record

    state = position_from_mapping(position)
    seats = [Seat("Ann"), Seat("Bo", SeatKind.BOT, "random"), Seat("Cy", SeatKind.BOT, "random")][
        : state.n
    ]
    return Table.resume(Record(state, from_position=True), seats, seed=2)


def test_a_five_asks_who_plays_next_by_name(screen_text: ScreenText) -> None:
    table = table_at(
        {
            "rules": "TW",
            "total": 30,
            "turn": 1,
            "hands": ["5S 2S 3S 6S 7S", "4H 6H 7H 8H 9H", "4D 6D 7D 8D 9D"],
        }
    )
    app = PlayApp(table)

    async def script(pilot: Pilot[None]) -> None:
        number = next(
            i
            for i, item in enumerate(app.game.items, 1)
            if item.card is not None and format_card(item.card) == "5S"
        )
        await pilot.press(str(number))
        await pilot.pause()
        assert isinstance(app.screen, ChoiceScreen)
        text = screen_text(app)
        assert "The Five of Spades: who plays next?" in text
        assert "1: Bo" in text and "2: Cy" in text and ": Ann" not in text
        await pilot.press("2")
        await pilot.pause()
        assert "Ann names Cy to play next." in screen_text(app)

    run(app, script)
    named = [e for e in table.log if isinstance(e, Named)]
    assert [(e.seat, e.target) for e in named[:1]] == [(0, 2)]


def test_a_card_that_sets_any_total_asks_for_a_number(screen_text: ScreenText) -> None:
    table = table_at(
        {
            "rules": {"preset": "P", "cards": {"A": "set-any"}},
            "total": 40,
            "turn": 1,
            "hands": ["AS 2S 3S", "4H 6H 7H", "4D 6D 7D"],
        }
    )
    app = PlayApp(table)

    async def script(pilot: Pilot[None]) -> None:
        await pilot.press("1")  # the Ace is the first card
        await pilot.pause()
        assert isinstance(app.screen, ChoiceScreen)
        assert "The Ace of Spades: new total, 0 to 99? (now 40)" in screen_text(app)
        await pilot.press("1", "5", "0", "enter")
        await pilot.pause()
        assert "150 is not a total you may set" in screen_text(app)
        for _ in range(3):
            await pilot.press("backspace")
        await pilot.press("8", "7", "enter")
        await pilot.pause()
        assert 'Ann: "87"' in screen_text(app)

    run(app, script)


def test_facing_a_no_draw_chain_the_prompt_says_so(screen_text: ScreenText) -> None:
    table = table_at(
        {
            "rules": "IS",
            "total": 20,
            "turn": 1,
            "chain": 2,
            "hands": ["QS 2S 3S 6S 8S", "4H 6H 7H 8H 9H", "4D 6D 7D 8D 9D"],
        }
    )
    app = PlayApp(table)

    async def script(pilot: Pilot[None]) -> None:
        text = screen_text(app)
        assert "Your turn, Ann: play 2 cards without drawing, or another no-draw card." in text

    run(app, script)


EXTRA_TURN = {
    "rules": {"preset": "P-2P-AGAIN", "rules": {"two_player_reverse": "play_again_optional"}},
    "total": 30,
    "turn": 1,
    "may_decline": True,
    "hands": ["2S 3S JD", "KC 9C 3C"],
}


def test_an_extra_turn_may_be_declined_by_its_key(screen_text: ScreenText) -> None:
    table = table_at(EXTRA_TURN)
    app = PlayApp(table)

    async def script(pilot: Pilot[None]) -> None:
        text = screen_text(app)
        assert "Your turn, Ann: the reverse gives you another turn" in text  # (wrapped)
        labels = [item.label for item in app.game.items]
        assert labels[-1] == "decline" and len(labels) == 4
        await pilot.press("4")
        await pilot.pause()
        assert "Ann declines the extra turn." in screen_text(app)
        declined = [e for e in table.log if isinstance(e, Declined)]
        assert declined == [Declined(0)]
        assert "decline" not in [item.label for item in app.game.items]

    run(app, script)


def test_the_coach_shows_each_legal_card_s_chances_on_your_turn_and_c_hides_it(
    screen_text: ScreenText,
) -> None:
    table = make_table(rules="P", seed=4)
    app = PlayApp(table)
    app.coach_playouts = 60

    async def coach_text(pilot: Pilot[None]) -> str:
        for _ in range(200):  # the coach thinks in the background
            await pilot.pause(0.02)
            text = screen_text(app)
            if "Coach (chance of losing" in text:
                return text
        raise AssertionError("the coach said nothing")

    async def script(pilot: Pilot[None]) -> None:
        assert table.pending() == Pending(Waiting.HUMAN, 0)
        assert "Coach" not in screen_text(app).split("Save & quit")[0]
        await pilot.press("c")
        text = await coach_text(pilot)
        line = next(x for x in text.splitlines() if "Coach (chance of losing" in x)
        assert "hand/game" in line and "%/" in line
        advice = advise(table.view(0), playouts=60, seed=table.match.version)
        if len(advice.tied) == 1:  # a star on the best move, or the tie said
            assert "★" in line and "tied" not in text
        else:
            assert "★" not in text and "tied: " in text
        for action in table.view(0).legal:  # every legal move, with its figures
            assert card_label(action.card or 0) in text.split("Coach (")[1]
        assert not hidden_cards_on_screen(app, text)
        await first_playable(pilot)  # the coach speaks again on the next turn
        while table.pending().kind is not Waiting.HUMAN:
            await pilot.pause(0.05)
        await coach_text(pilot)
        await pilot.press("c")
        await pilot.pause()
        assert "Coach (" not in screen_text(app)

    run(app, script)


def test_the_seat_list_marks_a_dealer_only_where_the_rules_have_one() -> None:
    from ninetynine import new_game
    from ninetynine.engine.view import observe
    from ninetynine.tui.widgets import _marker

    for preset, dealer in (("P", True), ("G", False)):
        view = observe(new_game(load_rules(preset), 3), 0)
        assert any("D" in _marker(view, s) for s in range(3)) is dealer, preset
