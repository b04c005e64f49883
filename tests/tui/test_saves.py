"""Saves: the game in progress after every move, finished games as records."""

from __future__ import annotations

from pathlib import Path

import pytest

from ninetynine import load_rules
from ninetynine.errors import NinetyNineError
from ninetynine.records.match import replay
from ninetynine.records.record import parse_record
from ninetynine.session.saves import (
    autosave,
    current_path,
    finish,
    format_save,
    load_save,
    parse_save,
    set_aside,
    write_atomic,
)
from ninetynine.session.table import Seat, SeatKind, Table


def table(seed: int = 3) -> Table:
    seats = [
        Seat('Ann "A" Lee'),
        Seat("Bot", SeatKind.BOT, "random"),
        Seat("Cy", SeatKind.BOT, "random"),
    ]
    return Table.new(load_rules("P"), seats, seed=seed, pace=0.25)


def test_the_save_round_trips_names_kinds_bots_seed_pace_and_position(home: Path) -> None:
    t = table()
    t.on_move = autosave
    t.play(t.view(0).legal[0])
    t.step_bot()
    assert current_path() == home / "current.toml" and current_path().exists()
    back = load_save()
    assert back.seats == t.seats and back.seed == t.seed and back.pace == 0.25
    assert back.state == t.state and back.log == t.log


def test_the_coach_setting_is_saved_and_an_old_save_without_it_has_it_off(home: Path) -> None:
    t = table()
    t.on_move = autosave
    t.set_coach(True)  # saved at once, not only at the next move
    assert "\ncoach = true\n" in current_path().read_text() and load_save().coach
    t.set_coach(False)
    assert not load_save().coach
    old = current_path().read_text().replace("coach = false\n", "")
    assert not parse_save(old).coach


def test_every_move_rewrites_the_save(home: Path) -> None:
    t = table()
    t.on_move = autosave
    counts = []
    for _ in range(3):
        p = t.pending()
        t.play(t.view(0).legal[0]) if p.kind == "human" else t.step_bot()
        counts.append(len(load_save().record.moves))
    assert counts == sorted(counts) and counts[0] < counts[-1]
    assert [p.name for p in home.iterdir()] == ["current.toml"]  # no temporary files left


def test_write_atomic_keeps_the_old_file_when_writing_fails(tmp_path: Path) -> None:
    path = tmp_path / "f.toml"
    write_atomic(path, "old")

    with pytest.raises(TypeError):
        write_atomic(path, 42)  # type: ignore[arg-type]
    assert path.read_text() == "old" and sorted(p.name for p in tmp_path.iterdir()) == ["f.toml"]


def test_finish_files_a_replayable_record_and_clears_the_game_in_progress(home: Path) -> None:
    t = table()
    t.on_move = autosave
    while t.pending().kind != "over":
        t.play(t.view(0).legal[0]) if t.pending().kind == "human" else t.step_bot()
    path = finish(t)
    assert path.parent == home / "games" and not current_path().exists()
    final, _ = replay(parse_record(path.read_text()))
    assert final == t.state and "[result]" in path.read_text()


def test_set_aside_keeps_an_unfinished_game(home: Path) -> None:
    assert set_aside() is None
    t = table()
    autosave(t)
    kept = set_aside()
    assert kept is not None and kept.parent == home / "unfinished"
    assert not current_path().exists()
    assert load_save(kept).state == t.state


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("rules = ", "not valid TOML"),
        ('rules = "P"\nplayers = 3\nactions = []\n', "no \\[table\\] section"),
        ('rules = "P"\nplayers = 3\nactions = []\n[table]\nnames = ["a"]\n', "needs names"),
        (
            'rules = "P"\nplayers = 2\nactions = []\n[table]\nnames = ["a", "b"]\n'
            'kinds = ["human", "robot"]\nbots = ["", ""]\nseed = 1\npace = 0\n',
            "robot",
        ),
        (
            'rules = "P"\nplayers = 3\nactions = []\n[table]\nnames = ["a", "b"]\n'
            'kinds = ["human", "bot"]\nbots = ["", "random"]\nseed = 1\npace = 0\n',
            "names 2 seats",
        ),
        (
            'rules = "P"\nplayers = 2\nactions = ["1: KS"]\n[table]\nnames = ["a", "b"]\n'
            'kinds = ["human", "bot"]\nbots = ["", "random"]\nseed = 1\npace = 0\n',
            "action 1",
        ),
        (
            'rules = "P"\nplayers = 2\nactions = []\n[table]\nnames = ["a", "b"]\n'
            'kinds = ["human", "bot"]\nbots = ["", "random"]\nseed = 1\npace = 0\ncoach = "on"\n',
            "coach = 'on': expected true or false",
        ),
    ],
)
def test_a_bad_save_is_one_clear_error(text: str, message: str) -> None:
    with pytest.raises(NinetyNineError, match=message):
        parse_save(text, "x.toml")


def test_no_save_to_resume(home: Path) -> None:
    with pytest.raises(NinetyNineError, match="no saved game"):
        load_save()


def test_the_save_text_is_a_record_plus_a_table_section() -> None:
    text = format_save(table())
    assert text.startswith("# ninetynine game record") and "\n[table]\n" in text
    assert 'names = ["Ann \\"A\\" Lee", "Bot", "Cy"]' in text
