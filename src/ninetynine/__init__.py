"""Ninety-Nine, the adding card game: every rule set in the rulebooks, as data.

The names below are loaded when first used, so that a program importing one part (the
command line's ``--help``) does not pay for the rest. ``presets`` is bound at once: it is
also the name of a module, which would otherwise shadow the function once imported.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from ninetynine.rules.presets import find_preset, load_rules, open_rules, preset_rules, presets

if TYPE_CHECKING:
    from ninetynine.engine.actions import Action, ActionKind, Lead, Reinsert, Shuffle, parse_action
    from ninetynine.engine.game import new_game, play_out, step
    from ninetynine.engine.state import Outcome, State
    from ninetynine.errors import (
        CardNotInHandError,
        ChoiceRequiredError,
        GameOverError,
        IllegalActionError,
        NinetyNineError,
        NotationError,
        NotYourTurnError,
        OverLimitError,
        RecordError,
        RulesError,
    )
    from ninetynine.records.match import Chance, Match
    from ninetynine.rules.settings import Rules

_LAZY = {
    "ninetynine.engine.actions": (
        "Action",
        "ActionKind",
        "Lead",
        "Reinsert",
        "Shuffle",
        "parse_action",
    ),
    "ninetynine.errors": (
        "CardNotInHandError",
        "ChoiceRequiredError",
        "GameOverError",
        "IllegalActionError",
        "NinetyNineError",
        "NotationError",
        "NotYourTurnError",
        "OverLimitError",
        "RecordError",
        "RulesError",
    ),
    "ninetynine.engine.game": ("new_game", "play_out", "step"),
    "ninetynine.records.match": ("Chance", "Match"),
    "ninetynine.rules.settings": ("Rules",),
    "ninetynine.engine.state": ("Outcome", "State"),
}
_MODULE_OF = {name: module for module, names in _LAZY.items() for name in names}

__all__ = [
    "Action",
    "ActionKind",
    "CardNotInHandError",
    "Chance",
    "ChoiceRequiredError",
    "GameOverError",
    "IllegalActionError",
    "Lead",
    "Match",
    "NinetyNineError",
    "NotYourTurnError",
    "NotationError",
    "Outcome",
    "OverLimitError",
    "RecordError",
    "Reinsert",
    "Rules",
    "RulesError",
    "Shuffle",
    "State",
    "find_preset",
    "load_rules",
    "new_game",
    "open_rules",
    "parse_action",
    "play_out",
    "preset_rules",
    "presets",
    "step",
]
__version__ = "1.0.0"  # the package version (pyproject.toml reads it); semantic versioning


def __getattr__(name: str) -> Any:
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module 'ninetynine' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
