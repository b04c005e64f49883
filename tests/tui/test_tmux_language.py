"""The full-screen table in Thai and Traditional Chinese, in a real terminal (tmux), read
back with ``tmux capture-pane``: the prompts, panels, footer and log in the language, and
every line aligned by terminal cells (Thai's marks above and below take none, a Chinese
character two), as Rich measures them."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from rich.cells import cell_len

WIDTH, HEIGHT = 110, 38

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")

CASES = {
    "th": {
        "name": "สมศักดิ์",
        "seen": ["ยอดรวม", "ที่นั่ง", "การขาน", "ตาคุณแล้ว สมศักดิ์: กด 1-3", "บันทึกและออก", "สมศักดิ์ ลง"],
        "lives": "3 ชีวิต",
    },
    "zh_TW": {
        "name": "王小明",
        "seen": [
            "總數",
            "座位",
            "喊數",
            "輪到你了，王小明：按 1-3",
            "儲存並離開",
            "王小明 打出 3♠。",
        ],
        "lives": "3 條命",
    },
}


def _tmux(socket: str, *args: str) -> str:
    return subprocess.run(
        ["tmux", "-L", socket, *args], capture_output=True, text=True, check=True
    ).stdout


def _screen(socket: str, until: str, timeout: float = 30) -> str:
    """The pane's text once ``until`` shows on it (fails with the screen after ``timeout``)."""
    end = time.monotonic() + timeout
    text = ""
    while time.monotonic() < end:
        text = _tmux(socket, "capture-pane", "-p", "-t", "t")
        if until in text:
            return text
        time.sleep(0.2)
    raise AssertionError(f"{until!r} never showed:\n{text}")


@pytest.mark.parametrize("lang", list(CASES))
def test_the_full_screen_table_in_a_wide_or_combining_script_is_aligned(
    lang: str, home: Path, tmp_path: Path
) -> None:
    case = CASES[lang]
    socket = f"ninetynine-test-{os.getpid()}-{lang}"
    src = str(Path(__file__).resolve().parents[2] / "src")
    env = {"PYTHONPATH": src, "NINETYNINE_HOME": str(home), "TERM": "xterm-256color"}
    game = [sys.executable, "-m", "ninetynine", "play", "--lang", lang, "--rules", "K"]
    game += ["--players", "3", "--bots", "random", "--seed", "4", "--pace", "0", "--new"]
    game += ["--name", str(case["name"])]
    # (not the COLUMNS and LINES of the test's own terminal: the pane's size decides)
    command = "env -u COLUMNS -u LINES " + " ".join(f"{k}={v}" for k, v in env.items())
    command += " " + " ".join(game)
    _tmux(socket, "new-session", "-d", "-s", "t", "-x", str(WIDTH), "-y", str(HEIGHT), command)
    try:
        _screen(socket, "1-3")  # the table is up, the person's turn
        _tmux(socket, "send-keys", "-t", "t", "1")
        seen = list(case["seen"])
        text = _screen(socket, seen[-1])  # the log tells the card played
        (tmp_path / f"{lang}.txt").write_text(text, encoding="utf-8")
    finally:
        subprocess.run(["tmux", "-L", socket, "kill-server"], check=False)
    for words in seen:
        assert words in text, (words, text)
    lines = text.splitlines()
    boxed = [line for line in lines if line[:1] in "│╭╰"]
    assert len(boxed) > 20
    # every boxed line fills the width exactly, measured in cells, and ends on its border
    assert {cell_len(line) for line in boxed} == {WIDTH}, text
    assert all(line[-1] in "│╮╯" for line in boxed)
    # the two top panels' borders stand in the same cell columns on every row
    top = [line for line in boxed[: boxed.index(next(x for x in boxed if x.startswith("╰")))]]
    corners = {cell_len(top[0][:i]) for i, c in enumerate(top[0]) if c in "╭╮"}
    assert len(corners) == 4
    for row in top[1:]:
        assert corners <= {cell_len(row[:i]) for i, c in enumerate(row) if c == "│"}, row
    # the seats' lives line up after names of every width: measured, as len() would not
    rows = [line for line in lines if str(case["lives"]) in line]
    assert len(rows) == 3
    assert len({cell_len(r[: r.index(str(case["lives"]))]) for r in rows}) == 1, rows
    assert len({r.index(str(case["lives"])) for r in rows}) > 1
