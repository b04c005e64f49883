"""``ninetynine serve``: bad settings are one-line errors; records replay with the CLI."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from ninetynine.cli.main import main
from ninetynine.web.limits import Limits
from tests.web.helpers import ServerThread, play_game


@pytest.mark.parametrize(
    "args,message",
    [
        (["--database", "mysql://x/y"], "unsupported database 'mysql://x/y'"),
        (["--database", "postgresql://nobody@127.0.0.1:1/none"], "cannot open PostgreSQL"),
        (["--takeover-bot", "genius"], "--takeover-bot 'genius': expected one of the bots offered"),
        (["--allow-bot", "mine=genius"], "unknown bot 'genius'"),
        (
            ["--allow-bot", "hard=ismcts:speed=9"],
            "ismcts: option 'speed' is unknown: expected iterations, ms,",
        ),
        (["--allow-bot", "hard=ismcts:ms=soon"], "ismcts: ms='soon': expected a number, 0 or more"),
        (["--allow-bot", "mine"], "--allow-bot 'mine': expected NAME=SPEC"),
        (["--allow-bot", "Bad Name=random"], "a name is 1 to 20 lower-case letters"),
        (["--limit", "max_body=lots"], "--limit 'max_body=lots': expected a number"),
        (["--limit", "max_bodies=3"], "expected NAME=VALUE with NAME one of max_body"),
        (["--limit", "max_body=0"], "limit max_body = 0: expected a number above 0"),
        (["--port", "70000"], "--port 70000: expected 1 to 65535"),
        (["--grace", "-1"], "--grace and --bot-delay must be 0 or more"),
    ],
)
def test_bad_settings_are_one_line_errors(
    args: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["serve", "--database", str(tmp_path / "x.sqlite3"), *args]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


def test_the_limits_are_listed_with_their_values(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--limits", "--limit", "max_players=6"]) == 0
    out = capsys.readouterr().out
    assert "max_players" in out and " 6  seats at a table" in out
    assert "bot_seconds" in out and "spectators_per_table" in out


def test_docs_server_md_lists_every_limit_with_its_default() -> None:
    """The limits table names each field of Limits once, with the value ``--limits`` prints."""
    page = (Path(__file__).resolve().parents[2] / "docs" / "server.md").read_text(encoding="utf-8")
    table = page.split("| limit | default |", 1)[1].split("\n\n", 1)[0]
    documented: dict[str, str] = {}
    for row in table.splitlines()[2:]:
        names, values = row.split(" | ")[:2]
        documented.update(zip(re.findall(r"`(\w+)`", names), values.split(", "), strict=True))
    assert documented == {name: value for name, value, _ in Limits().describe()}


def test_a_downloaded_record_replays_with_the_cli(
    server: ServerThread, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    created = server.create(name="Ann", rules="K", players=2)
    bob = server.join(created["table"], "Bob")
    a = server.client(created["table"], created["token"])
    b = server.client(created["table"], bob["token"])
    play_game([a, b], random.Random(8))
    path = tmp_path / "game.toml"
    path.write_text(server.get(f"/api/tables/{created['table']}/record").text)
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    winners = ", ".join(["Ann", "Bob"][w - 1] for w in a.view["outcome"]["winners"])
    assert f"Game over: {winners} (" in out  # the record keeps the players' names
    assert "Ann plays" in out
