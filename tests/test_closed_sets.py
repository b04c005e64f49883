"""Closed sets are enums from the engine to the edges: the terminal's seats and what its
table waits for, the web's table status and error codes, the engine's phases; no front end
compares a state with a bare string, and a record's move has one name."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from ninetynine import load_rules
from ninetynine.errors import Refusal
from ninetynine.session.table import Seat, SeatKind, Table, Waiting

SRC = Path(__file__).resolve().parents[1] / "src" / "ninetynine"
FILES = sorted(SRC.rglob("*.py"))
# values of closed sets that code once compared as bare strings
WATCHED = {"over", "draw", "shared", "human", "bot", "waiting", "playing", "abandoned"}


def test_the_terminal_table_says_what_it_waits_for_in_enums() -> None:
    table = Table.new(load_rules("P"), [Seat("Ann"), Seat("Bo", SeatKind.BOT, "random")], seed=1)
    assert [s.kind for s in table.seats] == [SeatKind.HUMAN, SeatKind.BOT]
    pending = table.pending()
    assert isinstance(pending.kind, Waiting) and pending.kind is Waiting.HUMAN
    while table.pending().kind is not Waiting.OVER:
        p = table.pending()
        if p.kind is Waiting.BOT:
            table.step_bot()
        else:
            assert p.seat is not None
            table.play(table.state.legal_actions()[0])
    assert table.pending().seat is None


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.relative_to(SRC).as_posix())
def test_no_closed_set_is_compared_as_a_bare_string(path: Path) -> None:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Compare) and any(
            isinstance(op, (ast.Eq, ast.NotEq, ast.Is, ast.IsNot)) for op in node.ops
        ):
            for side in (node.left, *node.comparators):
                if isinstance(side, ast.Constant) and side.value in WATCHED:
                    found.append(f"{node.lineno}: {ast.unparse(node)}")
    assert not found, found


def test_a_move_has_one_name() -> None:
    homes = [
        f"{p.relative_to(SRC)}:{node.lineno}"
        for p in FILES
        for node in ast.walk(ast.parse(p.read_text(encoding="utf-8")))
        if isinstance(node, ast.Assign)
        and any(isinstance(t, ast.Name) and t.id == "Move" for t in node.targets)
    ]
    assert homes == ["engine/actions.py:" + homes[0].split(":")[1]], homes


def test_the_web_codes_and_the_engine_refusals_are_one_set_of_values() -> None:
    pytest.importorskip("fastapi")
    from ninetynine.web.errors import STATUS, ErrorCode

    assert not {c.value for c in ErrorCode} & {r.value for r in Refusal}
    assert set(STATUS) <= set(ErrorCode)
    server_md = (SRC.parents[1] / "docs" / "server.md").read_text(encoding="utf-8")
    missing = [c.value for c in (*ErrorCode, *Refusal) if f"`{c.value}`" not in server_md]
    assert not missing, f"docs/server.md does not list {missing}"


WEB = sorted((SRC / "web").rglob("*.py"))


@pytest.mark.parametrize("path", WEB, ids=lambda p: p.relative_to(SRC).as_posix())
def test_every_refusal_of_the_server_names_its_code_from_the_enums(path: Path) -> None:
    """A code is an :class:`ErrorCode` or a :class:`Refusal` member, never a string a typo
    could change unseen."""
    bare = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call):
            continue
        name = getattr(node.func, "id", getattr(node.func, "attr", ""))
        code = None
        if name == "ProtocolError" and node.args:
            code = node.args[0]
        for kw in node.keywords:
            if kw.arg == "code" and name in ("ProtocolError", "LimitError"):
                code = kw.value
        if isinstance(code, ast.Constant):
            bare.append(f"{node.lineno}: {code.value!r}")
        if isinstance(node.func, ast.Attribute) and node.func.attr == "send_json" and node.args:
            arg = node.args[0]
            keys = arg.keys if isinstance(arg, ast.Dict) else []
            if any(isinstance(k, ast.Constant) and k.value == "code" for k in keys):
                bare.append(f"{node.lineno}: a code written by hand")
    assert not bare, bare


def test_the_web_table_status_is_an_enum_the_api_lists() -> None:
    pytest.importorskip("fastapi")
    from ninetynine.web.schema import TableSummary
    from ninetynine.web.table.seating import TableStatus

    field = TableSummary.model_fields["status"]
    assert field.annotation is TableStatus
    assert {s.value for s in TableStatus} == {"waiting", "playing", "over", "abandoned"}
