"""The examples in the core's docstrings run and print what they say."""

from __future__ import annotations

import doctest
import importlib

import pytest

CORE_MODULES = [f"ninetynine.{m}" for m in (
    "actions", "cards", "effects", "game", "presets", "bots", "bots.odds", "coach", "match",
    "options", "table", "words")]


@pytest.mark.parametrize("name", CORE_MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
