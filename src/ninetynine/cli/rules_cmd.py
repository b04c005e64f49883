"""List the rule sets (presets), describe one, or list every key a house-rules file may set.

Examples: ``ninetynine rules``, ``ninetynine rules K``, ``ninetynine rules house.toml``,
``ninetynine rules --keys``."""

from __future__ import annotations

import argparse
import json

from ninetynine.describe import rules_text
from ninetynine.launch import command
from ninetynine.presets import open_rules, presets
from ninetynine.rules import keys_help, rules_to_mapping


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("rules", nargs="?", help="a preset id or alias, or a house-rules .toml")
    parser.add_argument("--keys", action="store_true", help="list every rules key and its values")
    parser.add_argument("--toml", action="store_true",
                        help="print every setting of the rule set as TOML-style key = value")


def run(args: argparse.Namespace) -> int:
    if args.keys:
        for key, accepted in keys_help():
            print(f"{key:22} {accepted}")
        return 0
    if args.rules is None:
        family = None
        print(f"  {'ID':17} {'KIND':9} {'FROM':18} NAME — DESCRIPTION")
        for preset in presets().values():
            if preset.family != family:
                family = preset.family
                print(f"\n{family}")
            print(f"  {preset.id:17} {preset.kind:9} {preset.origin:18} "
                  f"{preset.name} — {preset.description}")
        print(f"\nAliases, sources and details: {command('rules ID')}")
        return 0
    rules = open_rules(args.rules)
    if args.toml:
        for key, value in rules_to_mapping(rules).items():
            print(f"{key} = {json.dumps(value)}")
        return 0
    print(rules_text(rules), end="")
    aliases = presets()[rules.id].aliases if rules.id in presets() else ()
    if aliases:
        print(f"\nAliases: {', '.join(aliases)}")
    return 0
