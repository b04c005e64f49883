"""``ninetynine play --plain``, driven by feeding it lines of input."""

from __future__ import annotations

import io
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
from tests.helpers import CRASHING_BOT, EXAMPLE_BOT, VIEWED_SEARCH, ViewedSearch

from ninetynine import load_rules, presets
from ninetynine.bots import ask, make_bot
from ninetynine.cli.main import main
from ninetynine.coach import advise
from ninetynine.engine.events import CardPlayed
from ninetynine.rules.cards import format_cards, rank_of, show_cards
from ninetynine.session.saves import current_path, load_save
from ninetynine.session.table import Pending, Seat, SeatKind, Table, Waiting
from ninetynine.tui.plain import PlainGame
from ninetynine.tui.text import coach_line


def run_cli(
    args: list[str], stdin: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(["play", "--plain", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_a_whole_game_by_always_choosing_the_first_legal_move(
    home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run_cli(
        ["--rules", "K", "--players", "3", "--bots", "random", "--seed", "4"],
        "1\n" * 400 + "n\n",
        monkeypatch,
        capsys,
    )
    assert code == 0
    assert "Game over." in out and "Hands played:" in out and "Rematch? (y/n)" in out
    games = list((home / "games").iterdir())
    assert len(games) == 1 and f"saved in {games[0]}" in out
    assert not current_path().exists()
    assert "Player, your move> 1\n" in out  # input from a pipe is echoed into the transcript


def test_quit_saves_and_resume_continues(
    home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run_cli(["--seed", "8", "--bots", "random"], "1\nquit\n", monkeypatch, capsys)
    assert code == 0 and "Game saved. Resume it with: ninetynine play --resume" in out
    saved = current_path().read_text()
    moves_before = saved.count('",\n')
    code, out, _ = run_cli(["--resume"], "1\n", monkeypatch, capsys)  # then EOF quits
    assert code == 0 and "Game saved" in out
    assert current_path().read_text().count('",\n') > moves_before
    assert "Player plays" in out


def test_help_bad_input_and_numbers_out_of_range(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run_cli(
        ["--seed", "1", "--bots", "random"], "help\nZZ\n42\nKS+3\nquit\n", monkeypatch, capsys
    )
    assert code == 0
    assert "The last player with pennies left wins." in out  # the rules, from the data
    assert "'ZZ' is not a move: type a number from 1 to" in out
    assert "No move 42: choose 1 to" in out
    assert "Not allowed: K♠ is not in P1's hand (A♣ 3♣ Q♥)" in out


def test_an_unknown_move_lists_only_what_this_player_may_type_now(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    typed = ["ZZ", "shuffle", "lead 2", "insert 3", "AS+x"]
    code, out, _ = run_cli(
        ["--seed", "1", "--bots", "random"], "\n".join(typed) + "\nquit\n", monkeypatch, capsys
    )
    assert code == 0
    legal = out.split("You may play: ")[1].splitlines()[0]
    moves = [m.split(") ")[1] for m in legal.split("  ")]  # "1) AC  2) 3C" -> AC, 3C
    for text in typed:
        line = next(x for x in out.splitlines() if x.startswith(f"{text!r} is not a move"))
        told = line.split("is not a move")[1]
        assert told == (
            f": type a number from 1 to {len(moves)}, or one of "
            f"{', '.join(moves)}; or help, hand, coach, quit"
        ), line
        assert not any(step in told for step in ("shuffle", "insert", "lead"))


def test_a_card_with_a_choice_asks_for_its_value(monkeypatch: pytest.MonkeyPatch) -> None:
    # Find a seed where the person holds an Ace at the start.
    for seed in range(200):
        t = Table.new(load_rules("P"), [Seat("Me"), Seat("B", SeatKind.BOT, "random")], seed=seed)
        aces = [c for c in t.state.hands[0] if rank_of(c) == 0]
        if aces:
            break
    ace, shown = format_cards(aces[:1]), show_cards(aces[:1])  # typed; read
    out = io.StringIO()
    game = PlainGame(t, io.StringIO(f"{ace}\n7\n+11\nquit\n"), out, sleep=lambda _: None)
    assert game.run() == 0
    text = out.getvalue()
    assert f"{shown} counts +1 or +11? " in text and "Type +1 or +11" in text
    assert f"Me plays {shown} as +11." in text


def test_hot_seat_hand_off_and_only_the_acting_persons_hand_is_printed() -> None:
    seats = [Seat("Ann"), Seat("Bea"), Seat("Bot", SeatKind.BOT, "random")]
    table = Table.new(load_rules("P"), seats, seed=6)
    shown: list[tuple[str, str]] = []

    class Watch(io.StringIO):
        def write(self, s: str) -> int:
            if s.startswith("Your hand: "):
                p = table.pending()
                assert p.seat is not None and table.viewer == p.seat
                shown.append((s, show_cards(sorted(table.state.hands[p.seat]))))
            return super().write(s)

    out = Watch()
    game = PlainGame(table, io.StringIO("\n1\n\n1\n\n1\nquit\n"), out, sleep=lambda _: None)
    game.run()
    text = out.getvalue()
    assert text.count("Pass the device to Ann") >= 1 and "Pass the device to Bea" in text
    assert len(shown) >= 2
    for line, hand in shown:
        assert line.strip() == f"Your hand: {hand}"


def test_bad_setup_is_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for args, message in (
        (["--rules", "nope"], "unknown rule set"),
        (["--players", "12"], "P is for 2 to 10"),
        (["--bots", "nosuch"], "unknown bot"),
        (["--seats", "you", "random", "--players", "3"], "--players 3"),
        (["--pace", "-1", "--bots", "random"], "--pace"),
        (["--resume"], "no saved game"),
    ):
        code, _, err = run_cli(args, "", monkeypatch, capsys)
        assert code == 2 and message in err and err.count("\n") == 1, (args, err)


@pytest.mark.parametrize("preset", list(presets()))
def test_a_whole_game_under_every_preset(preset: str) -> None:
    rules = load_rules(preset)
    n = min(max(3, rules.players_min), rules.players_max)
    seats = [Seat("Me"), *(Seat(f"B{i}", SeatKind.BOT, "random") for i in range(n - 1))]
    table = Table.new(rules, seats, seed=21)
    out = io.StringIO()
    code = PlainGame(table, io.StringIO("1\n" * 2000 + "n\n"), out, sleep=lambda _: None).run()
    assert code == 0 and table.state.is_over and "Game over." in out.getvalue()


def test_a_house_rules_file(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    house = tmp_path / "house.toml"
    house.write_text('preset = "K"\nname = "Our table"\nlives = 1\n')
    code, out, _ = run_cli(
        ["--rules", str(house), "--players", "2", "--bots", "random", "--seed", "2"],
        "1\n" * 300 + "n\n",
        monkeypatch,
        capsys,
    )
    assert code == 0 and "Our table" in out and "Game over." in out
    assert "Hands played: 1." in out  # one life each: the first bust ends it


def test_a_new_game_keeps_the_unfinished_one_which_can_be_resumed(
    home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    run_cli(["--seed", "1", "--bots", "random", "--name", "First"], "quit\n", monkeypatch, capsys)
    code, _, err = run_cli(
        ["--seed", "2", "--bots", "random", "--name", "Second"], "quit\n", monkeypatch, capsys
    )
    kept = list((home / "unfinished").iterdir())
    assert code == 0 and len(kept) == 1 and f"kept in {kept[0]}" in err
    assert '"Second"' in current_path().read_text()
    code, out, err = run_cli(["--resume", str(kept[0])], "quit\n", monkeypatch, capsys)
    assert code == 0 and "First, your move>" in out
    assert not kept[0].exists() and '"First"' in current_path().read_text()
    assert len(list((home / "unfinished").iterdir())) == 1  # now "Second" waits there


class _Keyboard(io.StringIO):
    """Lines typed at a terminal."""

    def isatty(self) -> bool:
        return True


def _save_a_game(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> str:
    run_cli(
        ["--seed", "3", "--bots", "random", "--name", "First"], "1\nquit\n", monkeypatch, capsys
    )
    return current_path().read_text()


def test_play_with_a_game_saved_offers_it_and_enter_resumes(
    home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    saved = _save_a_game(monkeypatch, capsys)
    monkeypatch.setattr(sys, "stdin", _Keyboard("\nquit\n"))
    code = main(["play", "--plain"])
    out, err = capsys.readouterr()
    assert code == 0 and err == ""
    assert out.startswith(
        "A game is saved: P, 4 players (First, Ben (random), Cleo (random), "
        "Dev (random)), hand 1, move "
    )
    assert "\nResume it? [Y/n] " in out and "First, your move>" in out
    assert not (home / "unfinished").exists() and current_path().read_text() == saved


def test_play_with_a_game_saved_n_starts_a_new_game_and_keeps_the_old(
    home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    saved = _save_a_game(monkeypatch, capsys)
    monkeypatch.setattr(sys, "stdin", _Keyboard("n\nquit\n"))
    code = main(["play", "--plain", "--name", "Second"])
    out, err = capsys.readouterr()
    kept = list((home / "unfinished").iterdir())
    assert code == 0 and "Resume it? [Y/n] " in out and "Second, your move>" in out
    assert len(kept) == 1 and kept[0].read_text() == saved and f"kept in {kept[0]}" in err


def test_without_a_terminal_a_bare_play_resumes_and_says_so(
    home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _save_a_game(monkeypatch, capsys)
    code, out, err = run_cli([], "quit\n", monkeypatch, capsys)
    assert code == 0 and "First, your move>" in out and "Resume it?" not in out
    assert err.startswith("Resuming the saved game: P, 4 players (First, ")
    assert err.rstrip().endswith("(to start a new one instead: ninetynine play --new)")
    assert not (home / "unfinished").exists()
    # options that describe a new game, or --new, start one (the saved one is kept)
    code, out, err = run_cli(["--name", "Second"], "quit\n", monkeypatch, capsys)
    assert "Second, your move>" in out and "kept in" in err
    code, out, err = run_cli(["--new"], "quit\n", monkeypatch, capsys)
    assert "Player, your move>" in out and "kept in" in err
    assert len(list((home / "unfinished").iterdir())) == 2


def test_at_a_terminal_the_screen_is_cleared_before_each_hand_off() -> None:
    from ninetynine.tui.plain import CLEAR

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    seats = [Seat("Ann"), Seat("Bea")]
    out = Terminal()
    PlainGame(
        Table.new(load_rules("P"), seats, seed=6),
        io.StringIO("\n1\n\n1\nquit\n"),
        out,
        sleep=lambda _: None,
    ).run()
    text = out.getvalue()
    for name in ("Ann", "Bea"):
        assert f"{CLEAR}Pass the device to {name}" in text
    assert text.count(CLEAR) == text.count("Pass the device to")


def test_a_protocol_bot_plays_a_whole_game_then_stops(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    bot_processes: list[subprocess.Popen[str]],
) -> None:
    code, out, _ = run_cli(
        ["--rules", "K", "--seats", "you", EXAMPLE_BOT, "--seed", "4"],
        "1\n" * 400 + "n\n",
        monkeypatch,
        capsys,
    )
    assert code == 0 and "Game over." in out and "Ben (cmd) plays" in out
    assert len(bot_processes) == 1 and bot_processes[0].poll() == 0


def test_quit_stops_the_protocol_bots(bot_processes: list[subprocess.Popen[str]]) -> None:
    seats = [Seat("Me"), Seat("Px", SeatKind.BOT, EXAMPLE_BOT)]
    table = Table.new(load_rules("K"), seats, seed=4)
    inp = io.StringIO("1\nquit\n")  # the bot plays after the first move
    assert PlainGame(table, inp, io.StringIO(), sleep=lambda _: None).run() == 0
    assert len(bot_processes) == 1 and bot_processes[0].poll() is not None


def test_a_bot_that_crashes_is_one_line_and_the_game_stays_saved(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    bot_processes: list[subprocess.Popen[str]],
) -> None:
    code, out, err = run_cli(
        ["--seats", "you", CRASHING_BOT, "--seed", "4"], "1\n" * 5, monkeypatch, capsys
    )
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in out + err
    assert err.startswith(
        f"ninetynine: error: seat 2 (Ben (cmd)) failed: bot {CRASHING_BOT!r} exited (code 3)"
    ) and err.endswith("its last error line: no luck\n")
    assert load_save().pending() == Pending(Waiting.BOT, 1)  # saved after the person's move
    assert len(bot_processes) == 1 and bot_processes[0].poll() == 3


def plain_at(position: dict[str, object], lines: str) -> str:
    """Play a hand-written position as Ann (a person) against two random bots."""
    from ninetynine.records.position import position_from_mapping
    from ninetynine.records.record import Record

    state = position_from_mapping(position)
    seats = [Seat("Ann"), Seat("Bo", SeatKind.BOT, "random"), Seat("Cy", SeatKind.BOT, "random")][
        : state.n
    ]
    table = Table.resume(Record(state, from_position=True), seats, seed=2)
    out = io.StringIO()
    PlainGame(table, io.StringIO(lines), out, sleep=lambda _: None).run()
    return out.getvalue()


TW = {
    "rules": "TW",
    "total": 30,
    "turn": 1,
    "hands": ["5S 2S 3S 6S 7S", "4H 6H 7H 8H 9H", "4D 6D 7D 8D 9D"],
}


def test_a_five_typed_alone_asks_who_plays_next() -> None:
    text = plain_at(TW, "5s\nzed\n3\nquit\n")
    assert "5S>2 (Bo next)" in text and "5S>3 (Cy next)" in text  # the list of moves
    assert "5♠: who plays next? 2) Bo  3) Cy " in text
    assert "Type a seat number or name (or 'back')" in text
    assert "Ann names Cy to play next." in text


def test_the_named_player_may_be_typed_by_name_or_in_full() -> None:
    assert "Ann names Bo to play next." in plain_at(TW, "5S\nbo\nquit\n")
    assert "Ann names Cy to play next." in plain_at(TW, "5S>3\nquit\n")


def test_a_card_that_sets_any_total_asks_for_the_number() -> None:
    position = {
        "rules": {"preset": "P", "cards": {"A": "set-any"}},
        "total": 40,
        "turn": 1,
        "hands": ["AS 2S 3S", "4H 6H 7H", "4D 6D 7D"],
    }
    text = plain_at(position, "AS\n120\n64\nquit\n")
    assert "A♠ sets the total to (a number from 0 to 99)? " in text
    assert "Type a number from 0 to 99 (or 'back')" in text and 'Ann: "64"' in text


def test_the_extra_turn_of_a_four_may_be_declined_by_name() -> None:
    position = {
        "rules": {"preset": "P-2P-AGAIN", "rules": {"two_player_reverse": "play_again_optional"}},
        "total": 30,
        "turn": 1,
        "hands": ["4S 2S 3S", "KC 9C 3C"],
    }
    text = plain_at(position, "4S\ndecline\nquit\n")
    assert "You may play: 1) pass (decline the extra turn)" not in text  # not before the Four
    assert "Ann may play again, or decline." in text
    assert "The reverse gives you another turn: play a card, or decline it." in text
    assert "pass (decline the extra turn)" in text
    assert "Ann declines the extra turn." in text


def test_a_no_draw_chain_is_told_to_the_player_who_faces_it() -> None:
    position = {
        "rules": "IS",
        "total": 20,
        "turn": 1,
        "chain": 1,
        "hands": ["QS 2S 3S 6S 8S", "4H 6H 7H 8H 9H", "4D 6D 7D 8D 9D"],
    }
    assert "Play a card without drawing, or another no-draw card." in plain_at(position, "quit\n")


def test_the_coach_gives_each_legal_move_s_chances_and_coach_turns_it_off(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run_cli(
        ["--seed", "1", "--bots", "random", "--coach"], "coach\nquit\n", monkeypatch, capsys
    )
    assert code == 0
    line = next(x for x in out.splitlines() if x.startswith("Coach (chance of losing"))
    legal = out.split("You may play: ")[1].splitlines()[0]
    for move in legal.split("  "):  # "1) KS" ...: each move is in the coach's line
        assert re.search(rf"[ /]{re.escape(move.split(') ')[1])}[ /]", line + " ")
    assert ("★" in line) != ("tied: " in line)  # a star on the best move, or a tie said
    assert "Coach off." in out


def test_counts_are_in_the_words_people_use() -> None:
    text = plain_at(
        {"rules": "P", "total": 20, "turn": 1, "hands": ["2S 3S 6S", "4H", "4D 6D 7D"]}, "quit\n"
    )
    assert "Bo: 5 pennies, 1 card" in text and "1 cards" not in text
    assert "Ann: 5 pennies, 3 cards" in text


def test_the_bots_and_the_coach_see_the_match_view_with_its_log() -> None:
    """Issue 23: at the terminal table a bot and the coach read the seat's ``Match.view``
    (with the public log, which ``hard``'s belief reads): the same view, move and figures
    as asking them directly from the same position and seed."""
    table = Table.new(load_rules("P"), [Seat("Ann"), Seat("Bot", SeatKind.BOT, "viewed")], seed=3)
    table.play(table.state.legal_actions()[0])
    ViewedSearch.views.clear()
    view, version = table.match.view(1), table.match.version
    assert any(isinstance(e, CardPlayed) for e in view.history)  # Ann's card is in it
    seat, action = table.bot_choice()
    assert ViewedSearch.views == [view]
    assert (seat, action) == (
        1,
        ask(make_bot(VIEWED_SEARCH), view, random.Random(f"3/bot/{version}")),
    )
    table.play_bot(seat, action)
    while table.pending() != Pending("human", 0):
        table.step_bot()
    out = io.StringIO()
    PlainGame(table, io.StringIO(), out, coach=True, coach_playouts=60).coach(0)
    mine = table.match.view(0)
    assert mine.history == tuple(table.match.log)
    expected = coach_line(advise(mine, playouts=60, seed=table.match.version), str)
    assert expected in out.getvalue()


KC = {"rules": "KC", "total": 50, "turn": 1, "hands": ["KS 4S", "5C 6C", "7D 8D"]}


def test_a_king_typed_alone_asks_whom_it_challenges() -> None:
    """KC (FAMILIES §12.2): the King names another player to be out."""
    text = plain_at(KC, "ks\n3\nquit\n")
    assert "KS>2 (challenge Bo)" in text and "KS>3 (challenge Cy)" in text
    assert "K♠: whom do you challenge? 2) Bo  3) Cy " in text
    assert "Ann challenges Cy: out, unless they answer." in text
    assert "Cy does not answer the challenge." in text and "Cy is out of the game." in text


def test_a_challenged_player_is_told_and_answers() -> None:
    position = {**KC, "hands": ["KH 4H", "5C 6C", "7D 8D"], "challenger": 2}
    text = plain_at(position, "4h\nquit\n")
    assert "P2 challenges you: answer with 4♥ or K♥, or accept (you are out)." in text
    assert "accept (you are out)" in text
    assert "Ann answers with 4♥: the challenge is off." in text
    text = plain_at(position, "kh\nquit\n")
    assert "Ann answers with K♥: Bo is out instead." in text


def test_the_app_asks_whom_a_king_challenges() -> None:
    """The full-screen table's question (its dialog reads the same function)."""
    from ninetynine.records.position import position_from_mapping
    from ninetynine.tui.text import choice_question

    state = position_from_mapping(KC)
    king = state.hands[0][1] if state.hands[0][1] >= 48 else state.hands[0][0]
    choices = state.plays_of(king)
    assert (
        choice_question(king, choices, 50, state.rules)
        == "The King of Spades: whom do you challenge?"
    )
    tw = position_from_mapping(TW)
    five = next(c for c in tw.hands[0] if c // 4 == 4)
    assert choice_question(five, tw.plays_of(five), 30, tw.rules).endswith("who plays next?")


@pytest.mark.parametrize("lang", ["th", "zh_TW", "de"])
def test_a_whole_game_in_another_language_has_no_english_line_left(
    lang: str, home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The same game, seed and keys in English and in ``lang``: every line that has words
    differs, but for the rule set's own data (its name and description) and the table talk
    that is only a name and a number; the words typed (help, 1, KS) stay as they are."""
    args = ["--rules", "K", "--players", "3", "--bots", "random", "--seed", "4"]
    keys = "help\nxyz\n9\n" + "1\n" * 400 + "n\n"
    _, english, _ = run_cli(args, keys, monkeypatch, capsys)
    _, told, _ = run_cli([*args, "--lang", lang], keys, monkeypatch, capsys)
    en_lines, lines = english.splitlines(), told.splitlines()
    assert len(lines) == len(en_lines)
    rules = load_rules("K")
    same = [
        en
        for en, line in zip(en_lines, lines, strict=True)
        if en == line and re.search("[A-Za-z]{3}", re.sub(r"Player|Ben|Cleo|random", "", en))
    ]
    assert all(rules.name in en or rules.description in en for en in same), same
    assert "Game over." in english and "Game over." not in told


def test_the_replay_summary_is_in_the_language(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    record = tmp_path / "game.toml"
    main(["random-game", "--rules", "K", "--players", "3", "--seed", "4", "-o", str(record)])
    capsys.readouterr()
    assert main(["replay", str(record), "--lang", "de"]) == 0
    out = capsys.readouterr().out
    assert "Regeln K, 3 Spieler, Runde " in out and "Spiel vorbei: " in out
    assert "Stapel " in out and "Game over" not in out and "Stock" not in out
