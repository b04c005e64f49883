"""The rules core imports only the standard library and itself; front ends sit on top."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "ninetynine"
CORE = ["actions", "cards", "dealing", "describe", "effects", "errors", "events", "game", "lookup",
        "launch", "match", "options",
        "penalties", "position", "statebase",
        "presets", "record", "rules", "state", "view"]
FRONT_ENDS = {"cli", "tui", "web", "bots", "arena", "table", "saves", "engine_protocol", "rl"}


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


@pytest.mark.parametrize("module", CORE)
def test_core_imports_only_stdlib_and_core(module: str) -> None:
    for name in imported_modules(SRC / f"{module}.py"):
        top = name.split(".")[0]
        if top == "ninetynine":
            sub = name.split(".")[1] if "." in name else ""
            assert sub == "" or sub in CORE, f"{module} imports front end {name}"
            assert sub not in FRONT_ENDS
        else:
            assert top in sys.stdlib_module_names or top == "__future__", \
                f"{module} imports third-party {name}"


def test_every_core_module_is_listed() -> None:
    """A new top-level module must be classified here as core or front end."""
    modules = {p.stem for p in SRC.glob("*.py")} - {"__init__", "__main__"}
    assert modules <= set(CORE) | FRONT_ENDS, modules - set(CORE) - FRONT_ENDS


def test_only_the_rl_package_imports_it() -> None:
    """The game-AI layer sits on top: the core, the bots and the other front ends run
    without its libraries (numpy, gymnasium, pettingzoo, open_spiel)."""
    rl = SRC / "rl"
    for path in SRC.rglob("*.py"):
        if rl in path.parents:
            continue
        for name in imported_modules(path):
            assert not name.startswith("ninetynine.rl"), f"{path.name} imports {name}"
            assert name.split(".")[0] not in ("numpy", "gymnasium", "pettingzoo", "pyspiel",
                                              "open_spiel"), f"{path.name} imports {name}"
