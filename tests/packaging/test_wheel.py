"""The release as people install it: the sdist and the wheel built once, checked by twine,
installed into fresh venvs (no extras, then ``[web]``) and run from there, never from the
tree. The extras' libraries come from a wheelhouse kept beside the test venv, so a second
run installs offline."""

from __future__ import annotations

import json
import os
import pty
import re
import select
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
import zipfile
from collections.abc import Iterator
from email.parser import Parser
from pathlib import Path
from typing import Any

import pytest

import ninetynine
from ninetynine.cli.extras import EXTRAS
from ninetynine.cli.rules_cmd import describe
from ninetynine.rules.presets import load_rules

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "src" / "ninetynine"
BLOCK = Path(__file__).with_name("block_imports.py")
PIP = [sys.executable, "-m", "pip", "--disable-pip-version-check"]
WHEELHOUSE = Path(sys.prefix) / "wheelhouse"


def run(cmd: list[str | Path], **kwargs: Any) -> subprocess.CompletedProcess[str]:
    """Run ``cmd``; it must succeed."""
    done = subprocess.run(
        [str(c) for c in cmd], capture_output=True, text=True, timeout=300, **kwargs
    )
    assert done.returncode == 0, f"{cmd}: {done.returncode}\n{done.stdout}\n{done.stderr}"
    return done


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``python -m build``: the sdist, then the wheel built from the sdist."""
    out = tmp_path_factory.mktemp("dist")
    run([sys.executable, "-m", "build", "--no-isolation", "--outdir", out, ROOT])
    return out


@pytest.fixture(scope="module")
def wheel(dist: Path) -> Path:
    (found,) = dist.glob("ninetynine-*.whl")
    return found


def fresh_venv(where: Path, requirement: str, *pip_args: str) -> Path:
    """A venv with nothing in it (not even pip: the tests' pip installs into it)."""
    run([sys.executable, "-m", "venv", "--without-pip", where])
    python = where / "bin" / "python"
    # without the tree on PYTHONPATH, which pip would take for an installed ninetynine
    run(
        [*PIP, "--python", python, "install", "--quiet", *pip_args, requirement],
        env=installed_env(where),
    )
    return where


def installed_env(home: Path) -> dict[str, str]:
    """The environment of an installed command: no PYTHONPATH pointing at the tree, and its
    saves under ``home``."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    return {**env, "NINETYNINE_HOME": str(home), "COLUMNS": "80"}


@pytest.fixture(scope="module")
def bare(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    # --no-index: were any dependency declared, the install would fail here
    return fresh_venv(tmp_path_factory.mktemp("bare") / "venv", str(wheel), "--no-index")


def test_twine_check_passes(dist: Path) -> None:
    files = sorted(dist.iterdir())
    version = ninetynine.__version__
    assert [f.name for f in files] == [
        f"ninetynine-{version}-py3-none-any.whl",
        f"ninetynine-{version}.tar.gz",
    ]
    out = run([sys.executable, "-m", "twine", "check", "--strict", *files]).stdout
    assert out.count("PASSED") == 2, out


def test_the_wheel_holds_the_presets_static_files_and_metadata(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    data = {
        str(p.relative_to(PACKAGE.parent))
        for sub in ("data", "web/static", "locale")
        for p in (PACKAGE / sub).rglob("*")
        if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pot"  # the template
    }
    assert any(n.endswith("presets/P.toml") for n in data)
    assert "ninetynine/locale/th/LC_MESSAGES/ninetynine.mo" in data
    assert data <= names, sorted(data - names)
    assert "ninetynine/py.typed" in names
    assert not any(n.startswith("tests/") for n in names)
    info = f"ninetynine-{ninetynine.__version__}.dist-info"
    meta = Parser().parsestr(zipfile.ZipFile(wheel).read(f"{info}/METADATA").decode())
    assert meta["Version"] == ninetynine.__version__
    assert set(EXTRAS) | {"all"} <= set(meta.get_all("Provides-Extra") or ())
    requires = meta.get_all("Requires-Dist")
    assert requires and all("extra ==" in r for r in requires), requires  # none in the base
    entry = zipfile.ZipFile(wheel).read(f"{info}/entry_points.txt").decode()
    assert "ninetynine = ninetynine.cli.main:main" in entry


def blocked(venv: Path, home: Path, *args: str, stdin: str = "") -> str:
    """``ninetynine ARGS`` from the venv, every module outside the standard library
    refused; ``-I``: neither PYTHONPATH nor the script's folder is on the path."""
    done = run(
        [venv / "bin" / "python", "-I", BLOCK, "*", *args], input=stdin, env=installed_env(home)
    )
    return done.stdout


def test_the_bare_install_plays_replays_and_describes_with_the_standard_library_only(
    bare: Path, tmp_path: Path
) -> None:
    where = run(
        [bare / "bin" / "python", "-I", "-c", "import ninetynine; print(ninetynine.__file__)"],
        env=installed_env(tmp_path),
    )
    assert Path(where.stdout.strip()).is_relative_to(bare)  # the installed package, not the tree
    assert blocked(bare, tmp_path, "--version") == f"ninetynine {ninetynine.__version__}\n"
    assert blocked(bare, tmp_path, "rules", "K") == describe(load_rules("K"))  # 80 columns
    assert "ที่มา: " in blocked(bare, tmp_path, "rules", "K", "--lang", "th")  # the catalogs
    record = tmp_path / "game.toml"
    blocked(bare, tmp_path, "random-game", "--seed", "7", "-o", str(record))
    assert "Rules P, 4 players" in blocked(bare, tmp_path, "replay", str(record))
    game = blocked(
        bare,
        tmp_path,
        "play",
        "--plain",
        "--seats",
        "you",
        "easy",
        "--seed",
        "3",
        stdin="1\n" * 300,
    )
    assert "Hands played:" in game and "The record is saved in" in game


def in_a_terminal(cmd: list[str | Path], env: dict[str, str], keys: str) -> tuple[int, str]:
    """Run ``cmd`` with a pseudo-terminal as its standard input and output (as a person at a
    terminal would), type ``keys``, and read everything it shows until it exits."""
    main, side = pty.openpty()
    proc = subprocess.Popen(
        [str(c) for c in cmd], stdin=side, stdout=side, stderr=side, env=env, close_fds=True
    )
    os.close(side)
    os.write(main, keys.encode())
    shown = b""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        ready, _, _ = select.select([main], [], [], deadline - time.monotonic())
        try:
            chunk = os.read(main, 4096) if ready else b""
        except OSError:  # the terminal closed: the program ended
            break
        if not chunk:
            break
        shown += chunk
    os.close(main)
    return proc.wait(timeout=10), shown.decode(errors="replace").replace("\r\n", "\n")


def test_the_bare_install_plays_the_plain_game_at_a_terminal_and_says_why(
    bare: Path, tmp_path: Path
) -> None:
    code, shown = in_a_terminal(
        [bare / "bin" / "ninetynine", "play", "--seats", "you", "easy", "--seed", "3"],
        installed_env(tmp_path),
        "quit\n",
    )
    assert code == 0, shown
    assert (
        "ninetynine play: the full-screen game needs the tui extra: pip install "
        '"ninetynine[tui]"; playing in --plain mode (text lines)'
    ) in shown
    # the plain game's prompt, in the terminal, and its goodbye after "quit"
    assert "You may play: 1) 3C  2) 9C  3) KD\nPlayer, your move> " in shown
    assert "Game saved. Resume it with: ninetynine play --resume" in shown


def test_the_bare_install_names_the_extra_a_command_needs(bare: Path, tmp_path: Path) -> None:
    done = subprocess.run(
        [bare / "bin" / "ninetynine", "serve"],
        capture_output=True,
        text=True,
        env=installed_env(tmp_path),
        timeout=60,
    )
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == (
        'ninetynine serve: the browser table needs the web extra: pip install "ninetynine[web]"\n'
    )


def extra_venv(wheel: Path, extras: str, where: Path) -> Path:
    """A venv with ``wheel[extras]``, their libraries from the wheelhouse (downloaded into it
    the first time only)."""
    requirement = f"{wheel}[{extras}]"
    offline = ["--no-index", "--find-links", str(WHEELHOUSE)]
    try:
        return fresh_venv(where / "venv", requirement, *offline)
    except AssertionError:  # not all in the wheelhouse yet
        # pip download saves the project's own wheel too, and would then take that old
        # copy (and its old requirements) over the one just built
        for old in WHEELHOUSE.glob("ninetynine-*.whl"):
            old.unlink()
        run([*PIP, "download", "--quiet", "--dest", WHEELHOUSE, requirement])
        return fresh_venv(where / "venv-2", requirement, *offline)


@pytest.fixture(scope="module")
def web(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A venv with ``ninetynine[web]`` and nothing else."""
    return extra_venv(wheel, "web", tmp_path_factory.mktemp("web"))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def documented_service(home: Path, port: int) -> tuple[list[str], dict[str, str]]:
    """The systemd unit of docs/deploy.md: its ExecStart arguments (on ``port``) and its
    environment (the tables under ``home``)."""
    unit = (ROOT / "docs" / "deploy.md").read_text(encoding="utf-8")
    start = re.search(r"^ExecStart=\S*/ninetynine (.*)$", unit, re.M)
    assert start, "docs/deploy.md has no ExecStart line"
    args = re.sub(r"--port \d+", f"--port {port}", start.group(1)).split()
    env = dict(re.findall(r"^Environment=(\w+)=(\S*)$", unit, re.M))
    assert set(env) == {"NINETYNINE_HOME", "FORWARDED_ALLOW_IPS"}
    return args, {**installed_env(home), **env, "NINETYNINE_HOME": str(home)}


@pytest.fixture
def served(web: Path, tmp_path: Path) -> Iterator[str]:
    """The web venv's ``ninetynine`` run as deploy.md's service runs it; yields its address
    once it answers."""
    port = free_port()
    args, env = documented_service(tmp_path, port)
    assert args[:1] == ["serve"]
    proc = subprocess.Popen(
        [web / "bin" / "ninetynine", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            assert proc.poll() is None, proc.communicate()
            try:
                urllib.request.urlopen(url + "/api/config", timeout=5).close()
                break
            except OSError:
                assert time.monotonic() < deadline, "the server did not answer in 60 s"
                time.sleep(0.05)
        yield url
    finally:
        proc.terminate()
        proc.communicate(timeout=20)
    assert (tmp_path / "web.sqlite3").is_file()  # its tables were kept under NINETYNINE_HOME


def get(url: str, host: str | None = None) -> tuple[str, str]:
    """The content type and text of a page, asked for under ``host`` (as a proxy would)."""
    request = urllib.request.Request(url, headers={"Host": host} if host else {})
    with urllib.request.urlopen(request, timeout=10) as reply:
        return reply.headers.get_content_type(), reply.read().decode()


def test_the_web_extra_serves_its_page_and_presets(served: str) -> None:
    kind, page = get(served + "/", host="cards.example.org")  # through deploy.md's proxy
    assert kind == "text/html" and "<title>Ninety-Nine</title>" in page
    assert "Keep the total at 99 or under" in page
    kind, script = get(served + "/static/app.js")
    assert kind == "text/javascript" and "import" in script
    kind, listing = get(served + "/api/presets")
    shipped = sorted(p.stem for p in (PACKAGE / "data" / "presets").glob("*.toml"))
    assert sorted(p["id"] for p in json.loads(listing)) == shipped


def test_the_web_extra_answers_only_its_host_names_and_opens_a_websocket(served: str) -> None:
    with pytest.raises(urllib.error.HTTPError) as refused:
        get(served + "/", host="elsewhere.example")
    assert "does not answer to the host name 'elsewhere.example'" in refused.value.read().decode()
    from websockets.sync.client import connect  # the test's own client, not the venv's

    with connect(served.replace("http:", "ws:") + "/ws/lobby", open_timeout=10) as ws:
        first = json.loads(ws.recv(timeout=10))
    assert first["type"] == "lobby"


@pytest.fixture(scope="module")
def front_ends(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A venv with the wheel's other front ends: ``[tui,arena,postgres]``."""
    return extra_venv(wheel, "tui,arena,postgres", tmp_path_factory.mktemp("front-ends"))


def test_the_tui_arena_and_postgres_extras_bring_what_their_front_ends_import(
    front_ends: Path, tmp_path: Path
) -> None:
    env = installed_env(tmp_path)
    modules = "ninetynine.tui.app ninetynine.tui.setup ninetynine.tui.replay psycopg psycopg_pool"
    run(
        [front_ends / "bin" / "python", "-I", "-c", f"import {', '.join(modules.split())}"], env=env
    )
    arena = run(
        [
            front_ends / "bin" / "ninetynine",
            "arena",
            "--bots",
            "heuristic,random",
            "--games",
            "4",
            "--seed",
            "1",
            "--workers",
            "1",
        ],
        env=env,
    ).stdout
    assert "rating (mu ± sigma)" in arena, arena  # OpenSkill's ratings
    assert re.search(r"^heuristic +4 ", arena, re.M) and re.search(r"^random +4 ", arena, re.M)


def test_the_rl_extra_brings_the_environments(wheel: Path, tmp_path: Path) -> None:
    """``[rl]`` from the wheel: the Gymnasium environment plays a game to its end (a
    random legal agent), and the PettingZoo and OpenSpiel adapters import."""
    rl = extra_venv(wheel, "rl", tmp_path)
    script = (
        "import gymnasium, numpy as np, ninetynine.rl, ninetynine.rl.pettingzoo, "
        "ninetynine.rl.openspiel\n"
        "env = gymnasium.make('NinetyNine-v1', rules='P', players=4, opponents='random')\n"
        "obs, info = env.reset(seed=3)\n"
        "rng, done, steps = np.random.default_rng(3), False, 0\n"
        "while not done:\n"
        "    action = rng.choice(np.flatnonzero(info['action_mask']))\n"
        "    obs, reward, done, truncated, info = env.step(action)\n"
        "    steps += 1\n"
        "print('played', steps, 'reward', reward)\n"
    )
    out = run([rl / "bin" / "python", "-I", "-c", script], env=installed_env(tmp_path)).stdout
    assert re.match(r"played \d+ reward -?[01](\.0)?\n", out), out
