"""The command line: rules, replay and random-game, with one-line errors and exit codes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from ninetynine import presets
from ninetynine.cli.main import main
from ninetynine.rules.presets import FAMILIES
from tests.helpers import CRASHING_BOT


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_rules_lists_every_preset(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rules")
    assert code == 0
    for pid in presets():
        assert f"\n  {pid} " in out


def test_rules_groups_presets_by_family_with_their_sources(
    capsys: pytest.CaptureFixture[str],
) -> None:
    _, out, _ = run(capsys, "rules")
    lines = out.splitlines()
    heads = [i for i, line in enumerate(lines) if line in FAMILIES]
    assert [lines[i] for i in heads] == list(FAMILIES)
    below = {lines[i]: lines[i + 1].split()[0] for i in heads}
    assert below["Ninety-Eight"] == "98" and below["Bicycle and Board Game Arena"] == "BICYCLE"
    assert "BGA-QUICK         overlay   Board Game Arena" in out
    assert "P-ONLINE          variation pagat.com" in out
    _, tw, _ = run(capsys, "rules", "TW")
    assert "Source: betaveros" in tw and "https://blog.vero.site/post/99" in tw
    assert "Ace of Spades: set to 0" in tw and "Five: hold (+0), name who plays next" in tw


def test_rules_keys_lists_the_new_keys(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "rules", "--keys")
    for key in (
        "suit_cards",
        "game_end",
        "skip_with_two_players",
        "name_self",
        "choice_filter",
        "eliminated_hand",
        "milestones_on_bust",
        "border_cross_backward_costs",
        "decks_by_players",
    ):
        assert f"\n{key} " in out
    assert "'first_out'" in out and "'loser'" in out and "'random'" in out


@pytest.mark.parametrize("pid", list(presets()))
def test_rules_summary_comes_from_the_data(capsys: pytest.CaptureFixture[str], pid: str) -> None:
    code, out, _ = run(capsys, "rules", pid)
    assert code == 0
    assert out.startswith(f"{pid}: ")
    assert "Cards" in out and "Winning" in out


def test_rules_summary_reflects_settings(capsys: pytest.CaptureFixture[str]) -> None:
    _, k_text, _ = run(capsys, "rules", "K")
    assert "Queen: +20" in k_text and 'say "nine is mine"' in k_text
    _, g_text, _ = run(capsys, "rules", "G")
    assert "Nine: set to 99" in g_text and "King: hold (+0), reverse direction" in g_text


def test_house_rules_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    house = tmp_path / "house.toml"
    house.write_text(
        'name = "Friday"\npreset = "K"\noverlays = ["P-ACE-1-11"]\n[rules]\nlives = 5\n'
    )
    code, out, _ = run(capsys, "rules", str(house))
    assert code == 0 and "Friday" in out and "5 lives each" in out and "Ace: +1 or +11" in out


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('preset = "K"\n[rules]\nlivs = 5\n', "unknown rules key 'livs'"),
        ('preset = "K"\n[rules]\nbelow_zero = "maybe"\n', "'below_zero' = 'maybe'"),
        ('preset = "J"\noverlays = ["J-TEAM"]\n[rules]\nplayers_max = 5\n', "exactly 4 players"),
        ('preset = "ZZ"\n', "unknown rule set 'ZZ'"),
        ("preset = = 1\n", "not valid TOML"),
        (
            'preset = "BGA-QUICK"\n[rules]\nscoring = "game_points"\nthresholds = "borders"\n'
            'elimination = "never"\n',
            "'game_end' = 'first_out' is not allowed",
        ),
        (
            'preset = "TW"\n[rules.cards]\n5 = "hold name reverse"\n',
            "cards.5': bad card effect 'hold name reverse'",
        ),
        ('preset = "TW"\n[rules.suit_cards]\nAX = "set 0"\n', "suit_cards.AX': not a card"),
        ('preset = "P"\n[rules]\nmilestones_on_bust = false\n', "thresholds = 'online'"),
    ],
)
def test_bad_rules_file_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, content: str, message: str
) -> None:
    house = tmp_path / "bad.toml"
    house.write_text(content)
    code, out, err = run(capsys, "rules", str(house))
    assert code == 2 and out == ""
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


def test_random_game_then_replay(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    record = tmp_path / "game.toml"
    code, _, _ = run(
        capsys, "random-game", "--rules", "K", "--players", "3", "--seed", "4", "-o", str(record)
    )
    assert code == 0
    code, out, _ = run(capsys, "replay", str(record), "--json")
    assert code == 0
    data = json.loads(out)
    for key in ("total", "direction", "turn", "lives", "hands", "stock_size", "events", "outcome"):
        assert key in data
    assert data["outcome"]["winners"] and data["turn"] is None
    code, text, _ = run(capsys, "replay", str(record))
    assert code == 0 and "Game over" in text


def test_random_game_is_deterministic(capsys: pytest.CaptureFixture[str]) -> None:
    _, first, _ = run(capsys, "random-game", "--rules", "G", "--players", "3", "--seed", "9")
    _, second, _ = run(capsys, "random-game", "--rules", "G", "--players", "3", "--seed", "9")
    assert first == second and first.startswith("# ninetynine game record")


def test_replay_from_a_hand_written_position(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """MATRIX T01: the S000 four-player sequence, written by hand."""
    pos = tmp_path / "t01.toml"
    pos.write_text(
        'rules = "P"\ntotal = 50\nturn = 1\n'
        'hands = ["KS 8D 2C", "9H 10D 3C", "4S 5C 6C", "4H 7C 8C"]\n'
        'actions = ["1: KS", "2: 9H", "3: 4S", "2: 10D-10", "1: 8D", "4: 4H"]\n'
    )
    code, out, _ = run(capsys, "replay", str(pos), "--json")
    assert code == 0
    data = json.loads(out)
    calls = [e["text"] for e in data["events"] if e["kind"] == "TotalCalled"]
    assert calls == ["99", "pass to you 99", "back on you 99", "89", "97", "back on you 97"]
    assert data["total"] == 97 and data["turn"] == 1 and data["direction"] == "cw"
    assert all(len(h.split()) == 3 for h in data["hands"])


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (
            'rules = "P"\nturn = 1\nhands = ["KS 8D 2C", "9H 10D 3C"]\nactions = ["2: 9H"]\n',
            "it is P1's turn",
        ),
        (
            'rules = "P"\ntotal = 95\nhands = ["5S 8D 2C", "9H 10D 3C"]\nactions = ["1: 8D"]\n',
            "would make 103",
        ),
        (
            'rules = "P"\nhands = ["AS 8D 2C", "9H 10D 3C"]\nactions = ["1: AS"]\n',
            "A♠ needs a value",
        ),
        (
            'rules = "P"\nhands = ["AS 8D 2C", "9H 10D 3C"]\nactions = ["1: KH"]\n',
            "not in P1's hand",
        ),
        ('rules = "P"\nhands = ["AS 8D 2C", "AS 10D 3C", "AS AS 2C"]\n', "too many AS"),
        ('rules = "P"\nhands = ["AS 8D 2C"]\n', "for 2 to 10"),
        ('rules = "P"\nhands = ["AS 8D 2C", "9H 10D 3C"]\ntotal = "x"\n', "'total' = 'x'"),
        ('rules = "P"\nhands = ["AS 8D 2C", "9H 10D 3C"]\ncolour = 1\n', "unknown position key"),
        ('rules = "P"\nhands = ["AS 8D 2C", "9H 10D 3C"]\nactions = ["1: XX"]\n', "action 1"),
        # the new actions: malformed, or not what the card does
        (
            'rules = "TW"\nhands = ["5S 2C 3C 4C 6C", "9H 10D 3D 4D 6D"]\nactions = ["1: 5S>x"]\n',
            "after 5S> comes the seat it names",
        ),
        (
            'rules = "TW"\nhands = ["5S 2C 3C 4C 6C", "9H 10D 3D 4D 6D"]\nactions = ["1: 5S=4"]\n',
            "5♠ names who plays next",
        ),
        (
            'rules = "TW"\nhands = ["5S 2C 3C 4C 6C", "9H 10D 3D 4D 6D"]\nactions = ["1: 5S"]\n',
            "5♠ names who plays next: 5S>2",
        ),
        (
            'rules = "TW"\nhands = ["5S 2C 3C 4C 6C", "9H 10D 3D 4D 6D"]\nactions = ["1: 5S>1"]\n',
            "names yourself",
        ),
        (
            'rules = "TW"\nhands = ["5S 2C 3C 4C 6C", "9H 10D 3D 4D 6D"]\nactions = ["1: 5S>7"]\n',
            "seats 1 to 2",
        ),
        (
            'rules = "TW"\nhands = ["5S 2C 3C 4C 6C", "9H 10D 3D 4D 6D"]\nactions = ["1: 2C>2"]\n',
            "2♣ does not name the next player",
        ),
        (
            'rules = "P"\nhands = ["AS 8D 2C", "9H 10D 3C"]\nactions = ["lead x"]\n',
            "'lead' needs a seat",
        ),
        (
            'rules = "P"\nhands = ["AS 8D 2C", "9H 10D 3C"]\nactions = ["lead 2"]\n',
            "'lead 2' is a chance outcome, but it is P1 to play",
        ),
        (
            'rules = "IS"\nhands = ["QS 2C 3C 4C 6C", "QH 10D 3D 4D 6D"]\nplays_left = 1\n'
            'actions = ["1: QS"]\n',
            "must play 1 more card without drawing",
        ),
        (
            'rules = "IS"\nhands = ["QS 2C 3C 4C 6C", "QH 10D 3D 4D 6D"]\n'
            "chain = 1\nplays_left = 1\n",
            "not both above 0",
        ),
    ],
)
def test_bad_records_are_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, content: str, message: str
) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(content)
    code, _, err = run(capsys, "replay", str(path))
    assert code == 2
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


def test_missing_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run(capsys, "replay", str(tmp_path / "nope.toml"))
    assert code == 2
    assert err == f"ninetynine: error: no such record file: {tmp_path / 'nope.toml'}\n"


def test_installed_entry_point() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "ninetynine", "rules", "J"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0 and done.stdout.startswith("J: Jaques-style")


def _cli(
    args: list[str], home: Path, stdin: str = "", **env: str
) -> subprocess.CompletedProcess[str]:
    import os

    environment = {k: v for k, v in os.environ.items() if not k.startswith("NINETYNINE_")}
    environment.update(NINETYNINE_HOME=str(home), **env)
    return subprocess.run(
        [sys.executable, "-m", "ninetynine.cli.main", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        env=environment,
    )


def test_without_a_terminal_the_game_falls_back_to_plain_lines(tmp_path: Path) -> None:
    """Started with no terminal (a pipe, a script), the full-screen game does not spin:
    it says so in one line and plays in --plain mode, which reads the pipe."""
    done = _cli(["play", "--seed", "1"], tmp_path, stdin="quit\n")
    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines()[0] == (
        "ninetynine: no terminal here: playing in --plain mode (text lines)"
    )
    assert "Game saved. Resume it with: ninetynine play --resume" in done.stdout
    assert (tmp_path / "current.toml").exists()


def test_hints_say_what_to_type_after_play_sh(tmp_path: Path) -> None:
    """``bash play.sh`` puts no ``ninetynine`` on the person's PATH: the hints name the
    script (for games) or the environment's own program (for the rest)."""
    via = {"NINETYNINE_VIA": "play.sh", "NINETYNINE_BIN": "./.venv/bin/ninetynine"}
    done = _cli(["play", "--seed", "1", "--plain"], tmp_path, stdin="quit\n", **via)
    assert "Game saved. Resume it with: bash play.sh --resume" in done.stdout
    again = _cli(["play", "--resume", "--plain"], tmp_path, stdin="quit\n", **via)
    assert again.returncode == 0 and "bash play.sh --resume" in again.stdout
    broken = tmp_path / "house.toml"
    broken.write_text("[rules]\nlivez = 3\n")
    bad = _cli(["rules", str(broken)], tmp_path, **via)
    assert bad.returncode == 2 and "see './.venv/bin/ninetynine rules --keys'" in bad.stderr


def test_serve_keeps_its_tables_under_the_home_folder(tmp_path: Path) -> None:
    import os
    import socket
    import time

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {k: v for k, v in os.environ.items() if not k.startswith("NINETYNINE_")}
    env["NINETYNINE_HOME"] = str(tmp_path / "home")
    server = subprocess.Popen(
        [sys.executable, "-m", "ninetynine.cli.main", "serve", "--port", str(port)],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        assert f"(database {tmp_path / 'home' / 'web.sqlite3'})" in line
        deadline = time.monotonic() + 10
        while not (tmp_path / "home" / "web.sqlite3").exists():
            assert time.monotonic() < deadline
            time.sleep(0.05)
        assert not list(tmp_path.glob("*.sqlite3"))  # nothing in the folder it was run from
    finally:
        server.kill()
        server.wait(10)


# A newcomer's second hour (issue 24, item 12) -------------------------------------------


@pytest.mark.parametrize(
    "bot, why",
    [
        ("cmd:/nonexistent/bot-program", "could not start: No such file or directory"),
        (
            CRASHING_BOT,
            "exited (code 3) as soon as it started, before its first move; its last "
            "error line: no luck",
        ),
    ],
)
def test_arena_with_a_bot_that_cannot_start_stops_before_the_first_game(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, bot: str, why: str
) -> None:
    out_dir = tmp_path / "results"
    code, out, err = run(
        capsys,
        "arena",
        "--bot",
        bot,
        "--bot",
        "random",
        "--games",
        "4",
        "--no-progress",
        "--out",
        str(out_dir),
    )
    assert code == 2 and out == "" and not out_dir.exists()  # no game, no table, no file
    assert err == f"ninetynine: error: bot {bot!r} {why} (no game was played)\n"


def test_serve_on_an_address_it_cannot_listen_on_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import socket

    monkeypatch.setenv("NINETYNINE_HOME", str(tmp_path))
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        code, out, err = run(capsys, "serve", "--port", str(port))
        assert code == 2 and out == ""
        assert err == (
            f"ninetynine: error: --host 127.0.0.1 --port {port}: cannot listen "
            "there: Address already in use (expected an address of this machine, "
            "e.g. 127.0.0.1 or 0.0.0.0, and a free port)\n"
        )
    code, _, err = run(capsys, "serve", "--host", "203.0.113.7", "--port", str(port))
    assert code == 2 and err.count("\n") == 1
    assert err.startswith("ninetynine: error: --host 203.0.113.7 --port")
    code, _, err = run(capsys, "serve", "--host", "no-such-host.invalid")
    assert code == 2 and err.startswith(
        "ninetynine: error: --host no-such-host.invalid: not an address or a host name known here"
    )
    assert not (tmp_path / "web.sqlite3").exists()  # it stopped before opening a database


@pytest.mark.parametrize("content", ["", "\n# only a comment\n"])
def test_an_empty_house_rules_file_is_an_error_not_p(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, content: str
) -> None:
    house = tmp_path / "house.toml"
    house.write_text(content)
    for command in (["rules", str(house)], ["random-game", "--rules", str(house)]):
        code, out, err = run(capsys, *command)
        assert code == 2 and out == ""
        assert err == (
            f"ninetynine: error: {house}: no settings: a house-rules file names "
            'at least its preset, e.g. preset = "P" (see: ninetynine rules '
            "--keys)\n"
        )


@pytest.mark.parametrize(
    "args, what",
    [
        (["rules", "{f}"], "rules file"),
        (["random-game", "--rules", "{f}"], "rules file"),
        (["arena", "--rules", "{f}", "--bots", "random,random"], "rules file"),
        (["play", "--plain", "--rules", "{f}"], "rules file"),
        (["play", "--plain", "--resume", "{f}"], "save file"),
        (["replay", "{f}"], "record file"),
        (["review", "{f}", "--seat", "1"], "record file"),
    ],
)
def test_every_command_names_a_missing_file_the_same_way(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    args: list[str],
    what: str,
) -> None:
    monkeypatch.setenv("NINETYNINE_HOME", str(tmp_path / "home"))
    missing = tmp_path / "missing.toml"
    code, out, err = run(capsys, *(a.format(f=missing) for a in args))
    assert code == 2 and out == ""
    assert err == f"ninetynine: error: no such {what}: {missing}\n"


def test_an_output_that_cannot_be_written_is_one_line_before_any_game(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, _, err = run(capsys, "random-game", "-o", str(tmp_path / "no" / "game.toml"))
    assert code == 2 and err == (
        f"ninetynine: error: cannot write record file "
        f"{tmp_path / 'no' / 'game.toml'}: no such folder "
        f"{tmp_path / 'no'}\n"
    )
    code, _, err = run(capsys, "random-game", "-o", str(tmp_path))
    assert code == 2 and err == (
        f"ninetynine: error: cannot write record file {tmp_path}: "
        "it is a folder; expected a file name\n"
    )
    blocker = tmp_path / "file"
    blocker.write_text("")
    code, out, err = run(
        capsys,
        "arena",
        "--bots",
        "random,random",
        "--games",
        "2",
        "--no-progress",
        "--out",
        str(blocker / "results"),
    )
    assert code == 2 and out == ""  # no game was played
    assert err.startswith(f"ninetynine: error: cannot make --out folder {blocker / 'results'}: ")
    assert err.count("\n") == 1


def test_a_folder_given_for_a_file_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, _, err = run(capsys, "replay", str(tmp_path))
    assert code == 2
    assert err == f"ninetynine: error: record file {tmp_path} is a folder: expected a file\n"


@pytest.mark.parametrize(
    "command", ["play", "rules", "replay", "review", "random-game", "arena", "serve"]
)
def test_help_is_plain_text(
    capsys: pytest.CaptureFixture[str], command: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    with pytest.raises(SystemExit):
        main([command, "--help"])
    out = capsys.readouterr().out
    assert "``" not in out and ":mod:" not in out and ":class:" not in out
    assert max(len(line) for line in out.splitlines()) <= 80
    if command == "play":  # the examples, as typed, and the docstring's paragraphs
        assert "Examples: ninetynine play --rules K" in " ".join(out.split())
    if command == "arena":
        assert "\n\nSeats rotate every game" in out


def test_arena_out_with_a_trailing_slash_joins_paths(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    code, _, err = run(
        capsys,
        "arena",
        "--bots",
        "random,random",
        "--games",
        "2",
        "--no-progress",
        "--workers",
        "1",
        "--out",
        "results/",
    )
    assert code == 0
    assert "wrote results/results.json and 2 records in results/records" in err
    assert "//" not in err and (tmp_path / "results" / "results.json").exists()


@pytest.mark.parametrize("args", [[], ["P"], ["K"], ["QC"], ["--keys"]])
def test_rules_wraps_to_the_terminal_width(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, args: list[str]
) -> None:
    for columns in (70, 100):
        monkeypatch.setenv("COLUMNS", str(columns))
        code, out, _ = run(capsys, "rules", *args)
        assert code == 0
        assert max(len(line) for line in out.splitlines()) < columns, out
    wide = max(len(line) for line in out.splitlines())
    assert wide > 70  # at 100 columns the lines use the room


def test_rules_keys_give_each_keys_meaning_and_value_in_p(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from ninetynine.rules.settings import FIELDS, MEANINGS, META

    monkeypatch.setenv("COLUMNS", "200")
    _, out, _ = run(capsys, "rules", "--keys")
    assert (
        "\nhalve_over = 49\n    halve-or-double halves an even total above this, else "
        "doubles; a whole number\n"
    ) in out
    assert "\nlives = 5\n    lives (pennies, tokens...) each player starts with" in out
    assert (
        '\nbelow_zero = "allow"\n    a total below 0 is allowed, raised to 0, or an '
        "illegal play; one of 'allow', 'clamp', 'illegal'\n" in out
    )
    assert set(MEANINGS) == set(FIELDS) - set(META)  # every key has its meaning
    # the jokers' effects are no key of their own: they are written as cards.SJ and cards.BJ
    for key in MEANINGS.keys() - {"joker_cards"}:
        assert f"\n{key} = " in out and MEANINGS[key] in out
    assert "with cards.SJ and cards.BJ" in out
