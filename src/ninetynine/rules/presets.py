"""The named rule sets shipped as data files, and house rules written by players.

Each preset is a TOML file in ``ninetynine/data/presets/``: an id, aliases, a one-line
description, the family it belongs to, the rulebook or published source it comes from
(named as players know it, with a ``url`` where that is a web page; the four rulebooks'
presets also carry the project's tag for their text, ``rulebook = "S000"``), an optional
parent preset, and a ``[rules]`` table of the settings it changes. A preset that names
no family has its parent's family, origin, url and rulebook tag. A house-rules file names
a preset, optional overlays (other presets whose changes are layered on top) and its own
``[rules]`` changes::

    name = "Friday night"
    preset = "K"
    overlays = ["P-ACE-1-11"]
    [rules]
    lives = 5

>>> load_rules("pagat").id
'P'
>>> load_rules({"preset": "K", "overlays": ["P-ACE-1-11"]}).cards[0].values
(1, 11)
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from ninetynine.errors import NinetyNineError, RulesError
from ninetynine.files import read_text
from ninetynine.launch import command
from ninetynine.rules.settings import Rules, apply_overrides, rules_to_mapping

RULEBOOKS = {
    "S000": "000_db738501d50b6bab.txt",
    "S002": "002_c5b8b3aaa3a58ca1.txt",
    "S003": "003_ff7316abfbfeb014.txt",
    "S004": "004_61da5dde7861e660.txt",
}


# The families in the order they are listed: the four rulebooks' (the rules matrix),
# then the other published rule sets (``docs/sources/rules/FAMILIES.md``, F1 to F8).
FAMILIES = (
    "Pagat-style",
    "Kitchen-table house",
    "Get Out of 99",
    "Jaques-style",
    "Wikipedia",
    "Bicycle and Board Game Arena",
    "Ninety-Eight",
    "Taiwanese",
    "Icelandic",
    "everything2",
    "Quentin C milestones",
    "Chinese 99 points",
    "King Challenge",
)


@dataclass(frozen=True, slots=True, kw_only=True)
class Preset:
    """One shipped rule set, as its TOML file describes it: ``changes`` are its own
    ``[rules]`` settings, applied over its parent's rules (:func:`preset_rules`)."""

    id: str
    name: str
    aliases: tuple[str, ...]
    kind: str  # base, variation or overlay
    family: str  # one of FAMILIES
    parent: str | None
    source: str  # the rulebook or published source, as players know it, and its section
    origin: str  # the source in a word or two, e.g. "pagat.com"
    url: str  # the published source's address ("" where it has none)
    description: str
    changes: Mapping[str, Any]
    tag: str | None = None  # the rulebook's tag (S000 ...) in the project's rules matrix

    @property
    def rulebook(self) -> str | None:
        """The rulebook file this preset comes from, in ``docs/sources/rulebooks/`` (None for a
        published source)."""
        return RULEBOOKS.get(self.tag or "")


@cache
def presets() -> dict[str, Preset]:
    """Every shipped preset by id, by family (in the order of FAMILIES), each family's
    base first, the rulebooks' variations in the order of the rules matrix."""
    found: dict[str, dict[str, Any]] = {}
    for entry in (resources.files("ninetynine") / "data" / "presets").iterdir():
        if entry.name.endswith(".toml"):
            data = tomllib.loads(entry.read_text(encoding="utf-8"))
            found[data["id"]] = data

    def inherited(data: dict[str, Any], key: str) -> Any:
        """A key of the preset, else of its parent (a family's base has its own source)."""
        if key in data or "parent" not in data or "family" in data:
            return data.get(key)
        return inherited(found[data["parent"]], key)

    made = {
        pid: Preset(
            id=pid,
            name=data["name"],
            aliases=tuple(data.get("aliases", ())),
            kind=data["kind"],
            family=inherited(data, "family"),
            parent=data.get("parent"),
            source=data["source"],
            origin=inherited(data, "origin"),
            url=inherited(data, "url") or "",
            description=data["description"],
            changes=data.get("rules", {}),
            tag=inherited(data, "rulebook"),
        )
        for pid, data in found.items()
    }
    return dict(
        sorted(
            made.items(),
            key=lambda kv: (
                FAMILIES.index(kv[1].family),
                kv[1].kind != "base",
                _ORDER.get(kv[0], 99),
                kv[0],
            ),
        )
    )


_ORDER = {
    name: i
    for i, name in enumerate(
        (
            "P-NICKELS",
            "P-SEVEN",
            "P-DOLLAR",
            "P-CONTINUE",
            "P-SWAP-9K",
            "P-SWAP-49",
            "P-TEN-MINUS",
            "P-ACE-1-11",
            "P-2P-AGAIN",
            "P-1950",
            "P-BORDERS",
            "P-69",
            "P-UPCARD",
            "P-UPCARD-INSTANT",
            "P-ONLINE",
            "P-ONLINE-TEACH",
            "J-PURE",
            "J-4TOKEN",
            "J-TEAM",
            "J-REVERSE",
            "BICYCLE",
            "BGA",
            "BGA-QUICK",
            "98",
            "98-CS",
            "98-CS-K0",
        )
    )
}


def find_preset(name: str) -> Preset:
    """A preset by id or alias, case-insensitively."""
    key = name.strip().lower()
    for preset in presets().values():
        if key == preset.id.lower() or key in (a.lower() for a in preset.aliases):
            return preset
    ids = ", ".join(presets())
    raise RulesError(f"unknown rule set {name[:40]!r}: expected a preset id or alias ({ids})")


@cache
def preset_rules(preset_id: str) -> Rules:
    """The full rules of a preset: its parent's rules with its changes on top."""
    preset = find_preset(preset_id)
    base = preset_rules(preset.parent) if preset.parent else Rules()
    rules = apply_overrides(base, preset.changes, where=f"preset {preset.id}")
    source = f"{preset.source} ({preset.url})" if preset.url else preset.source
    return rules.replace(
        id=preset.id, name=preset.name, description=preset.description, source=source
    )


RulesSpec = str | Mapping[str, Any]
"""Rules as data: a preset id or alias, or a table of house rules (``{preset, rules, ...}``).
Never a file name, so rules that arrive from a record or a request cannot open a file."""


def load_rules(spec: RulesSpec) -> Rules:
    """Rules from a preset id or alias, or a house-rules mapping; text is always a preset's
    name (:func:`open_rules` is the one way to read a file, for command lines)."""
    if isinstance(spec, Mapping):
        return rules_from_spec(spec)
    if not isinstance(spec, str):
        raise RulesError(
            f"rules {str(spec)[:40]!r}: expected a preset id or a table of house rules"
        )
    return preset_rules(find_preset(spec).id)


def open_rules(name_or_file: str | Path) -> Rules:
    """What a command line names: a house-rules TOML file on this machine, or a preset."""
    text = str(name_or_file)
    if isinstance(name_or_file, Path) or text.endswith(".toml") or Path(text).is_file():
        return load_house_rules(Path(text))
    try:
        return load_rules(text)
    except RulesError as e:
        raise RulesError(f"{e}, or a house-rules .toml file") from None


def load_house_rules(path: Path) -> Rules:
    """Read a house-rules file; errors name the file and the bad key."""
    try:
        text = read_text(path, "rules file")
    except NinetyNineError as e:
        raise RulesError(str(e)) from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise RulesError(f"{path}: not valid TOML: {e}") from None
    if not data:  # an empty file is a mistake, not a silent P
        raise RulesError(
            f"{path}: no settings: a house-rules file names at least its "
            f'preset, e.g. preset = "P" (see: {command("rules --keys")})'
        )
    try:
        return rules_from_spec(data)
    except RulesError as e:
        raise RulesError(f"{path}: {e}") from None


_SPEC_KEYS = ("preset", "overlays", "rules", "name", "id", "description")


def rules_from_spec(data: Mapping[str, Any]) -> Rules:
    """Rules from ``{preset, overlays, rules, name}``; ``rules`` keys may also sit at the top."""
    preset = data.get("preset", "P")
    if not isinstance(preset, str):
        raise RulesError(f"'preset' = {preset!r}: expected a preset id such as \"K\"")
    rules = preset_rules(find_preset(preset).id)
    overlays = data.get("overlays", [])
    if not isinstance(overlays, list) or not all(isinstance(o, str) for o in overlays):
        raise RulesError(f"'overlays' = {overlays!r}: expected a list of preset ids")
    for overlay in overlays:
        rules = apply_overrides(rules, find_preset(overlay).changes, where=f"overlay {overlay}")
    table = data.get("rules", {})
    if not isinstance(table, Mapping):
        raise RulesError(
            f"'rules' = {table!r}: expected a table of rules keys, e.g. "
            f"{{lives = 5}}; see '{command('rules --keys')}'"
        )
    changes = dict(table)
    changes.update({k: v for k, v in data.items() if k not in _SPEC_KEYS})
    rules = apply_overrides(rules, changes)
    custom = bool(overlays or changes)
    return rules.replace(
        id=str(data.get("id", f"{rules.id}+house" if custom else rules.id)),
        name=str(data.get("name", rules.name + (" (house rules)" if custom else ""))),
        description=str(data.get("description", rules.description)),
    )


def base_rules(rules: Rules) -> Rules:
    """The preset that ``rules`` are built on (by their id: ``"K+house"`` is K's), or P."""
    try:
        return preset_rules(find_preset(rules.id.split("+")[0]).id)
    except RulesError:
        return preset_rules("P")


def rules_spec(rules: Rules) -> str | dict[str, Any]:
    """The shortest spec that :func:`load_rules` turns back into ``rules``."""
    base = base_rules(rules)
    if rules == base:
        return base.id
    changes = rules_to_mapping(rules, base)
    return {"preset": base.id, **changes}
