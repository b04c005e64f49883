"""Ninety-Nine, the adding card game: every rule set in the rulebooks, as data."""

from ninetynine.actions import Action, ActionKind, Lead, Reinsert, Shuffle, parse_action
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
from ninetynine.game import new_game, play_out, step
from ninetynine.match import Chance, Match
from ninetynine.presets import find_preset, load_rules, preset_rules, presets
from ninetynine.rules import Rules
from ninetynine.state import Outcome, State

__all__ = [
    "Action", "ActionKind", "CardNotInHandError", "Chance", "ChoiceRequiredError", "GameOverError",
    "IllegalActionError", "Lead", "Match", "NinetyNineError", "NotYourTurnError", "NotationError",
    "Outcome", "OverLimitError", "RecordError", "Reinsert", "Rules", "RulesError", "Shuffle",
    "State", "find_preset", "load_rules", "new_game", "parse_action", "play_out", "preset_rules",
    "presets", "step",
]
__version__ = "0.1.0"
