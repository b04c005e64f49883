"""The engine as one thing: its modules, phases, kinds of chance and transitions are the
tables of ``docs/engine.md``, and nothing outside the engine reaches into its private parts."""

from __future__ import annotations

import ast
import random
import re
from pathlib import Path

import pytest

from ninetynine import load_rules, new_game
from ninetynine.engine import deal, fields, penalties
from ninetynine.engine.fields import ChanceKind, Phase, StateBase
from ninetynine.engine.state import OVER, State

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "ninetynine"
DOC = (ROOT / "docs" / "engine.md").read_text(encoding="utf-8")
# the transitions written in state.py (the rest of its methods answer questions)
STATE_TRANSITIONS = {
    "_apply_chance",
    "_restocked",
    "apply_code",
    "_quick_bust",
    "_quick_sit_out",
    "_special",
    "_extra_turn",
    "_named",
    "_skip_from",
    "_swap",
    "_take",
    "_took",
    "_after_moving",
}


def table_rows(heading: str) -> set[str]:
    """The first column of every table row under a heading of docs/engine.md."""
    part = DOC.split(heading, 1)[1].split("\n## ", 1)[0]
    return set(re.findall(r"^\| `([^`]+)` \|", part, re.M))


def methods(cls: type) -> set[str]:
    return {
        name for name, value in vars(cls).items() if callable(value) and not name.startswith("__")
    }


def test_every_module_of_the_engine_is_in_its_table() -> None:
    modules = {p.stem for p in (SRC / "engine").glob("*.py")} - {"__init__"}
    documented = table_rows("## How the engine moves")
    core = {"fields", "deal", "penalties", "state", "tables"}
    assert core <= documented
    # the others are named in the package's docstring
    import ninetynine.engine as engine

    assert all(f"``{m}``" in (engine.__doc__ or "") for m in modules), modules


def test_every_phase_and_kind_of_chance_is_in_the_tables() -> None:
    rows = table_rows("## How the engine moves")
    assert {p.value for p in Phase} <= rows
    assert {k.value for k in ChanceKind if k.value} <= rows


def test_every_transition_is_in_the_table() -> None:
    transitions = (
        methods(deal.Dealing)
        | methods(penalties.Penalties)
        | STATE_TRANSITIONS
        | {"_reverse", "_game_over"}
    )
    missing = transitions - table_rows("## How the engine moves")
    assert not missing, f"docs/engine.md lacks {sorted(missing)}"
    # and the table names no method that is gone
    every = (
        methods(State) | methods(penalties.Penalties) | methods(deal.Dealing) | methods(StateBase)
    )
    rows = {r for r in table_rows("| transition |") if r.startswith("_") or r == "apply_code"}
    assert rows <= every, rows - every


def test_the_layers_of_the_state_are_one_class_in_the_engine() -> None:
    assert State.__mro__[1:4] == (penalties.Penalties, deal.Dealing, fields.StateBase)


PRIVATE = sorted(
    n
    for cls in (State, penalties.Penalties, deal.Dealing, StateBase)
    for n in vars(cls)
    if n.startswith("_") and not n.startswith("__")
)


@pytest.mark.parametrize(
    "path",
    sorted(p for p in SRC.rglob("*.py") if (SRC / "engine") not in p.parents),
    ids=lambda p: p.relative_to(SRC).as_posix(),
)
def test_nothing_outside_the_engine_calls_its_private_methods(path: Path) -> None:
    calls = [
        node.func.attr
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in PRIVATE
        and not (isinstance(node.func.value, ast.Name) and node.func.value.id == "self")
    ]
    assert not calls, f"{path.name} calls {calls}"


def test_card_and_code_arithmetic_is_written_once() -> None:
    """A card's rank is ``rank_of`` and a play's code is ``play_code``, ``card_of`` and
    ``choice_of``: the bit layout lives in rules/cards.py and engine/tables.py alone."""
    homes = {SRC / "rules" / "cards.py", SRC / "engine" / "tables.py"}
    found = [
        f"{p.relative_to(SRC)}:{i}"
        for p in SRC.rglob("*.py")
        if p not in homes
        for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
        if re.search(r">> 2\b|<< 2\b", line)
    ]
    assert not found, found


def test_play_chance_is_the_checked_chance_without_the_checks() -> None:
    rules = load_rules("P")
    fast, checked = new_game(rules, 3), new_game(rules, 3)
    a, b, moves = random.Random(5), random.Random(5), random.Random(9)
    outcome = fast.play_chance(a)
    checked.apply(checked.sample_chance(b))
    assert fast == checked and outcome is not None
    while not fast.is_over:
        if fast.is_chance:
            fast.play_chance(a)
            checked.apply(checked.sample_chance(b))
        else:
            code = moves.choice(fast.legal_codes())
            checked.apply(checked.action_of(code))
            fast.apply_code(code)
        assert fast == checked
    assert fast.phase == OVER
