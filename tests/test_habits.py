"""Habits of the code base that a reviewer should not have to check by hand.

Every public name has a docstring: each module, each class and function whose name does not
start with ``_``, and the methods and properties of public classes (dunders and nested
functions excluded). The packages covered are listed in PACKAGES, which a test checks holds
every folder of modules under ``ninetynine/``; ``<root>`` is the modules at its top.
"""

from __future__ import annotations

import ast
import re
import tomllib
from pathlib import Path

import pytest

# each package with its subpackages (web: web/table and web/routes too)
PACKAGES = [
    "engine",
    "rules",
    "records",
    "session",
    "bots",
    "coach",
    "arena",
    "rl",
    "tui",
    "web",
    "cli",
    "analysis",
    "<root>",
]

SRC = Path(__file__).resolve().parents[1] / "src" / "ninetynine"


def undocumented(source: str, where: str) -> list[str]:
    """``where:line:name`` for each public name of a module's source with no docstring."""
    tree = ast.parse(source)
    missing = [] if ast.get_docstring(tree) is not None else [f"{where}:1:<module>"]

    def walk(body: list[ast.stmt], prefix: str) -> None:
        for node in body:
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                continue
            if node.name.startswith("_"):
                continue
            if ast.get_docstring(node) is None:
                missing.append(f"{where}:{node.lineno}:{prefix}{node.name}")
            if isinstance(node, ast.ClassDef):
                walk(node.body, f"{prefix}{node.name}.")

    walk(tree.body, "")
    return missing


def modules(package: str) -> list[Path]:
    return sorted(SRC.glob("*.py") if package == "<root>" else (SRC / package).rglob("*.py"))


def unlisted(src: Path, packages: list[str]) -> list[str]:
    """The folders right under ``src`` that hold modules (at any depth) but are not in
    ``packages``: the packages whose docstrings no test would check."""
    holding = {path.relative_to(src).parts[0] for path in src.rglob("*.py") if path.parent != src}
    return sorted(holding - set(packages))


@pytest.mark.parametrize("package", PACKAGES)
def test_every_public_name_has_a_docstring(package: str) -> None:
    found = modules(package)
    assert found, f"no modules in {package}"
    missing = [
        name
        for path in found
        for name in undocumented(
            path.read_text(encoding="utf-8"), path.relative_to(SRC.parent).as_posix()
        )
    ]
    assert not missing, "public names without a docstring:\n" + "\n".join(missing)


def test_the_check_finds_what_has_no_docstring() -> None:
    source = (
        '"""A module."""\n'
        "class Open:\n"
        "    def method(self): ...\n"
        "    @property\n"
        "    def value(self):\n"
        '        """Documented."""\n'
        "    def __eq__(self, other): ...\n"
        "def _private(): ...\n"
        "class _Hidden:\n"
        "    def method(self): ...\n"
        "def outer():\n"
        '    """Documented."""\n'
        "    def inner(): ...\n"
    )
    assert undocumented(source, "m.py") == ["m.py:2:Open", "m.py:3:Open.method"]
    assert undocumented("x = 1\n", "m.py") == ["m.py:1:<module>"]


def test_a_package_is_checked_with_its_subpackages() -> None:
    assert {"web", "table", "routes"} <= {path.parent.name for path in modules("web")}


def test_every_package_is_in_the_list() -> None:
    """A new package (a folder of modules under ``ninetynine/``) cannot escape the check."""
    missing = unlisted(SRC, PACKAGES)
    assert not missing, f"packages missing from PACKAGES in {Path(__file__).name}: {missing}"


def test_the_list_check_finds_a_package_left_out(tmp_path: Path) -> None:
    for name in ("top.py", "done/__init__.py", "new/__init__.py", "loose/deep/m.py", "data/x.toml"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("", encoding="utf-8")
    assert unlisted(tmp_path, ["done", "<root>"]) == ["loose", "new"]


ROOT = SRC.parents[1]


def test_the_suite_checks_the_format_and_strict_types() -> None:
    """``test.sh`` (the README's test command, which CI runs) fails on code that ``ruff
    format`` would change, and mypy runs in strict mode over the package."""
    script = (ROOT / "test.sh").read_text(encoding="utf-8")
    assert "ruff format --check src tests" in script
    assert "\nruff check" in script or "ruff check src" in script
    mypy = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
    assert mypy["strict"] is True and mypy["files"] == ["src/ninetynine"]


def test_the_suite_runs_every_test_folder() -> None:
    """``test.sh`` runs pytest twice, in parallel and then the tests that must run alone: the
    parallel run leaves out exactly the paths the serial one runs."""
    script = (ROOT / "test.sh").read_text(encoding="utf-8")
    lines = script.replace("\\\n", " ").splitlines()  # a command continued is one line
    parallel = next(line for line in lines if line.startswith("pytest -n"))
    serial = next(line for line in lines if line.startswith("pytest tests/"))
    left_out = re.findall(r"--ignore=(\S+)", parallel)
    assert left_out and sorted(left_out) == sorted(serial.split()[1:]), (parallel, serial)
