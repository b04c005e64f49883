"""List the rule sets (presets), describe one, or list every key a house-rules file may set.

Examples: ``ninetynine rules``, ``ninetynine rules K``, ``ninetynine rules house.toml``,
``ninetynine rules --keys``."""

from __future__ import annotations

import argparse
import json

from ninetynine.describe import rules_text
from ninetynine.launch import command
from ninetynine.presets import load_rules, presets
from ninetynine.rules import Rules, keys_help, rules_to_mapping


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
    rules = load_rules(args.rules)
    if args.toml:
        print(settings_text(rules), end="")
        return 0
    print(describe(rules), end="")
    return 0


def describe(rules: Rules) -> str:
    """What ``ninetynine rules ID`` prints: the rules text and the preset's aliases (the
    documentation site's rule-set pages show the same text)."""
    aliases = presets()[rules.id].aliases if rules.id in presets() else ()
    return rules_text(rules) + (f"\nAliases: {', '.join(aliases)}\n" if aliases else "")


def settings_text(rules: Rules) -> str:
    """What ``ninetynine rules ID --toml`` prints: every setting as ``key = value``."""
    return "".join(f"{key} = {json.dumps(value)}\n"
                   for key, value in rules_to_mapping(rules).items())
