"""The examples in the core's docstrings run and print what they say."""

from __future__ import annotations

import doctest
import importlib
import re
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"
# every module whose docstrings hold an example
MODULES = sorted(
    ".".join(p.relative_to(SRC).with_suffix("").parts).removesuffix(".__init__")
    for p in (SRC / "ninetynine").rglob("*.py")
    if ">>> " in p.read_text(encoding="utf-8")
)


def test_the_examples_are_found() -> None:
    assert {"ninetynine.engine.game", "ninetynine.rules.cards", "ninetynine.records.match"} <= set(
        MODULES
    )


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


ROOT = Path(__file__).resolve().parents[1]
DOCS = sorted(
    p.relative_to(ROOT).as_posix()
    for p in (ROOT / "docs").glob("*.md")
    if ">>> " in p.read_text(encoding="utf-8")
)


def test_the_docs_have_examples_to_run() -> None:
    assert "docs/engine.md" in DOCS


@pytest.mark.parametrize("page", DOCS)
def test_the_docs_examples_print_what_they_say(page: str) -> None:
    """Each page's ``>>>`` code blocks run in order, sharing names, and print what they show."""
    blocks = re.findall(
        r"^```pycon\n(.*?)^```$", (ROOT / page).read_text(encoding="utf-8"), re.M | re.S
    )
    assert blocks, f"{page}: its >>> examples are not in ```pycon blocks"
    test = doctest.DocTestParser().get_doctest("\n".join(blocks), {}, page, page, 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.summarize(verbose=False).failed == 0
