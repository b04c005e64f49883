"""Each command whose extra is missing says in one line which extra to install (exit 2);
run here with that extra's modules refused (block_imports.py), as on an install without it."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from ninetynine.cli.extras import EXTRAS, NOT_IN_ALL

BLOCK = Path(__file__).with_name("block_imports.py")
ROOT = Path(__file__).resolve().parents[2]


def blocked(block: str, *args: str, tmp: Path, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NINETYNINE_HOME": str(tmp)}
    return subprocess.run(
        [sys.executable, str(BLOCK), block, *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )


@pytest.mark.parametrize(
    ("block", "args", "line"),
    [
        (
            "fastapi,uvicorn,websockets",
            ["serve"],
            "ninetynine serve: the browser table needs the web extra: "
            'pip install "ninetynine[web]"',
        ),
        (
            "psycopg,psycopg_pool",
            ["serve", "--database", "postgresql://nn@localhost/nn"],
            "ninetynine serve: a PostgreSQL database needs the postgres extra: "
            'pip install "ninetynine[postgres]"',
        ),
        (
            "openskill",
            ["arena", "--bots", "random,random", "--games", "2", "--no-progress"],
            "ninetynine arena: the bot arena needs the arena extra: "
            'pip install "ninetynine[arena]"',
        ),
        (
            "textual",
            ["replay", "--step", "-"],
            "ninetynine replay --step: the step-by-step replay needs the tui extra: "
            'pip install "ninetynine[tui]"',
        ),
    ],
)
def test_a_missing_extra_is_one_line_naming_it(
    block: str, args: list[str], line: str, tmp_path: Path
) -> None:
    done = blocked(block, *args, tmp=tmp_path)
    assert (done.returncode, done.stdout, done.stderr) == (2, "", line + "\n")


def test_the_extras_named_for_commands_are_the_packages_extras() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    extras = project["optional-dependencies"]
    assert set(EXTRAS) <= set(extras)
    in_all = [e for e in EXTRAS if e not in NOT_IN_ALL]
    assert extras["all"] == [f"ninetynine[{','.join(in_all)}]"]  # every front end
    assert project["dependencies"] == []  # the base package: the standard library only


def test_importing_the_rl_package_without_its_extra_names_the_extra() -> None:
    script = (
        "import sys; from block_imports import Refuse; "
        "sys.meta_path.insert(0, Refuse('numpy,gymnasium')); import ninetynine.rl"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=BLOCK.parent, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 1
    assert done.stderr.splitlines()[-1] == (
        "ModuleNotFoundError: ninetynine.rl needs the rl extra: "
        "pip install \"ninetynine[rl]\" (no module 'gymnasium')"
    )
