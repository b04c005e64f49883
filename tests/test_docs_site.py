"""The documentation site: ``mkdocs build --strict`` passes (a broken link or reference fails
it), and each rule set's generated page shows exactly what ``ninetynine rules ID`` prints."""

from __future__ import annotations

import html
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import ninetynine
from ninetynine.cli.main import main
from ninetynine.engine.game import new_game
from ninetynine.rules.presets import find_preset, presets

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}  # Material's banner, not a warning
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "--site-dir", str(out)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return out


def code_blocks(page: Path) -> list[str]:
    """The text of each code block of a built page, as a reader sees it."""
    blocks = re.findall(r"<pre[^>]*>(.*?)</pre>", page.read_text(encoding="utf-8"), re.S)
    return [html.unescape(re.sub(r"<[^>]+>", "", block)) for block in blocks]


def printed(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *args: str) -> str:
    monkeypatch.setenv("COLUMNS", "80")  # the width the pages are written at
    assert main(list(args)) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("preset_id", list(presets()))
def test_each_rule_set_page_shows_what_the_rules_command_prints(
    site: Path, preset_id: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    rules_block, settings_block = code_blocks(site / "rule-sets" / preset_id / "index.html")
    assert rules_block.rstrip("\n") == printed(capsys, monkeypatch, "rules", preset_id).rstrip("\n")
    assert settings_block.rstrip("\n") == printed(
        capsys, monkeypatch, "rules", preset_id, "--toml"
    ).rstrip("\n")


def test_the_rule_sets_index_links_every_rule_set(site: Path) -> None:
    page = (site / "rule-sets" / "index.html").read_text(encoding="utf-8")
    linked = re.findall(r'<a href="([^"/]+)/">\1</a>', page)
    assert linked == list(presets())


def test_the_api_reference_is_generated_from_the_docstrings(site: Path) -> None:
    page = (site / "reference" / "index.html").read_text(encoding="utf-8")
    for documented in (find_preset, new_game):  # docstrings in plain words
        first_line = (documented.__doc__ or "").strip().splitlines()[0]
        assert f"<p>{html.escape(first_line, quote=False)}</p>" in page


def test_the_public_api_page_names_exactly_what_ninetynine_exports() -> None:
    text = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    section = text.split("## What `ninetynine` exports", 1)[1].split("\n## ", 1)[0]
    table = [line.split("|")[1] for line in section.splitlines() if line.startswith("| `")]
    named = {name for cell in table for name in re.findall(r"`(\w+)`", cell)}
    assert named == set(ninetynine.__all__)
