"""The rules core imports only the standard library and itself; front ends sit on top."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "ninetynine"
# the core: what the shared modules at the root, the rules, the engine and the records hold
SHARED = {"errors", "files", "language", "launch"}
CORE_PACKAGES = ("rules", "engine", "records")
CORE = sorted(
    [f"{m}.py" for m in SHARED]
    + [p.relative_to(SRC).as_posix() for pkg in CORE_PACKAGES for p in (SRC / pkg).glob("*.py")]
)


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
    for name in imported_modules(SRC / module):
        top = name.split(".")[0]
        if top == "ninetynine":
            sub = name.split(".")[1] if "." in name else ""
            assert sub in SHARED or sub in CORE_PACKAGES, f"{module} imports front end {name}"
        else:
            assert top in sys.stdlib_module_names or top == "__future__", (
                f"{module} imports third-party {name}"
            )


def test_the_package_root_holds_folders_and_shared_modules_only() -> None:
    """A new module goes into the folder of its part: rules, engine, records, session or a
    front end; the root keeps the exports, ``python -m`` and what every layer shares."""
    modules = {p.stem for p in SRC.glob("*.py")} - {"__init__", "__main__"}
    assert modules == SHARED, modules ^ SHARED


# The one exception, made on purpose: simulate plays line-ups of random bots on the batch
# engine, which is NumPy. That module imports it (and numpy) inside its functions only, so
# the analysis layer imports and runs without the rl extra (it falls back to the fast path).
LAZY_RL = {SRC / "analysis" / "batch_play.py": {"ninetynine.rl.batch", "numpy"}}


def eager_imports(path: Path) -> set[str]:
    """The modules ``path`` imports when it is imported: at module level, outside an
    ``if TYPE_CHECKING:`` block."""
    names: set[str] = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
        elif isinstance(node, ast.If | ast.Try | ast.With):  # imports nested at module level
            checking = isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING"
            if not checking:
                for inner in ast.walk(node):
                    if isinstance(inner, ast.Import):
                        names.update(alias.name for alias in inner.names)
                    elif isinstance(inner, ast.ImportFrom) and inner.module:
                        names.add(inner.module)
    return names


def test_the_batch_engine_is_imported_lazily_by_simulate() -> None:
    for path, lazy in LAZY_RL.items():
        assert lazy <= imported_modules(path), f"{path.name} no longer needs its exception"
        assert not lazy & eager_imports(path), f"{path.name} imports {lazy} when imported"


def test_only_the_rl_package_imports_it() -> None:
    """The game-AI layer sits on top: the core, the bots and the other front ends run
    without its libraries (numpy, gymnasium, pettingzoo, open_spiel, jax), but for the lazy
    imports of :data:`LAZY_RL`."""
    rl = SRC / "rl"
    for path in SRC.rglob("*.py"):
        if rl in path.parents:
            continue
        for name in imported_modules(path) - LAZY_RL.get(path, set()):
            assert not name.startswith("ninetynine.rl"), f"{path.name} imports {name}"
            assert name.split(".")[0] not in (
                "numpy",
                "gymnasium",
                "pettingzoo",
                "pyspiel",
                "open_spiel",
                "jax",
            ), f"{path.name} imports {name}"


# Layers from the bottom: a module may import its own group and lower layers only, so a
# front end sits on top and never underneath (the package's exports sit on the records).
LAYERS = [
    {"shared"},
    {"rules"},
    {"engine"},
    {"records"},
    {"exports"},
    {"bots"},
    {"coach", "rl"},
    {"arena", "session"},
    {"analysis"},
    {"tui", "web"},
    {"cli"},
    {"__main__"},
]
RANK = {group: rank for rank, groups in enumerate(LAYERS) for group in groups}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in SRC.rglob("*.py")}


def project_imports(path: Path) -> set[str]:
    """The project's modules that ``path`` imports anywhere (inside functions too)."""
    me = module_name(path)
    package = me if path.name == "__init__.py" else me.rsplit(".", 1)[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parts + ([node.module] if node.module else []))
            for alias in node.names:  # ``from pkg import module`` imports the module
                sub = f"{base}.{alias.name}"
                found.add(sub if sub in MODULES else base)
    return {m for m in found if m in MODULES and m != me}


def group_of(module: str) -> str:
    parts = module.split(".")
    if len(parts) == 1:
        return "exports"
    return "shared" if parts[1] in SHARED else parts[1]


GRAPH = {m: project_imports(p) for m, p in MODULES.items()}


def test_every_group_has_a_layer() -> None:
    assert {group_of(m) for m in MODULES} <= set(RANK)


def test_no_import_runs_from_a_lower_layer_to_a_higher_one() -> None:
    wrong = [
        f"{m} imports {d}"
        for m, deps in GRAPH.items()
        for d in deps
        if group_of(m) != group_of(d) and RANK[group_of(d)] >= RANK[group_of(m)]
    ]
    assert not wrong, wrong


def test_src_has_no_import_cycle() -> None:
    """Depth-first search over every import (inside functions too): no module reaches
    itself again."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(module: str) -> None:
        state[module] = 1
        path.append(module)
        for dep in sorted(GRAPH[module]):
            if state.get(dep) == 1:
                raise AssertionError(" -> ".join(path[path.index(dep) :] + [dep]))
            if dep not in state:
                visit(dep)
        path.pop()
        state[module] = 2

    for module in sorted(GRAPH):
        if module not in state:
            visit(module)
