"""List the rule sets (presets), describe one, or list every key a house-rules file may set.

Examples: ``ninetynine rules``, ``ninetynine rules K``, ``ninetynine rules house.toml``,
``ninetynine rules --keys``."""

from __future__ import annotations

import argparse
import json
import shutil
import textwrap

from ninetynine.language import _
from ninetynine.launch import command
from ninetynine.rules.describe import rules_text
from ninetynine.rules.presets import open_rules, preset_rules, presets
from ninetynine.rules.settings import Rules, keys_help, rules_to_mapping


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Adds the options of ``ninetynine rules`` to ``parser``: the rule set to describe, ``--keys``
    and ``--toml``."""
    parser.add_argument("rules", nargs="?", help="a preset id or alias, or a house-rules .toml")
    parser.add_argument(
        "--keys",
        action="store_true",
        help="list every rules key: its value in P, what it means and accepts",
    )
    parser.add_argument(
        "--toml",
        action="store_true",
        help="print every setting of the rule set as TOML-style key = value",
    )


def wrap(text: str, width: int, indent: int = 2) -> str:
    """Each line of ``text`` wrapped to ``width``; a line's continuations keep its own
    indentation, ``indent`` more."""
    out = []
    for line in text.splitlines():
        lead = " " * (len(line) - len(line.lstrip()))
        out.append(
            textwrap.fill(
                line,
                width,
                subsequent_indent=lead + " " * indent,
                break_on_hyphens=False,
                break_long_words=False,
            )
            or ""
        )
    return "\n".join(out)


def run(args: argparse.Namespace) -> int:
    """Prints the list of presets, one rule set described (or its settings, ``--toml``), or
    every rules key (``--keys``), wrapped to the terminal. Returns 0."""
    width = max(shutil.get_terminal_size().columns - 1, 40)
    if args.keys:
        print(
            wrap(
                'Every key a house-rules file may set (a .toml: preset = "K", then the '
                "keys to change), with its value in P, where a file without a preset "
                "starts; then what it means and accepts.",
                width,
                0,
            )
        )
        for row in keys_help(preset_rules("P")):
            print("\n" + wrap(f"{row.key} = {row.default}", width, 4))
            print(wrap(f"    {row.meaning}; {row.accepted}", width))
        return 0
    if args.rules is None:
        family = None
        print(f"  {'ID':17} {'KIND':9} {'FROM':18} NAME — DESCRIPTION")
        for preset in presets().values():
            if preset.family != family:
                family = preset.family
                print(f"\n{family}")
            print(
                wrap(
                    f"  {preset.id:17} {preset.kind:9} {preset.origin:18} "
                    f"{preset.name} — {preset.description}",
                    width,
                    4,
                )
            )
        print(f"\nAliases, sources and details: {command('rules ID')}")
        return 0
    rules = open_rules(args.rules)
    if args.toml:
        print(settings_text(rules), end="")
        return 0
    print(describe(rules, width), end="")
    return 0


def describe(rules: Rules, width: int = 79) -> str:
    """What ``ninetynine rules ID`` prints, wrapped to ``width``: the rules text and the
    preset's aliases (the documentation site's rule-set pages show the same text, at the
    width of a terminal of 80 columns)."""
    aliases = presets()[rules.id].aliases if rules.id in presets() else ()
    also = _("Aliases: {aliases}").format(aliases=", ".join(aliases)) if aliases else ""
    return wrap(rules_text(rules), width) + "\n" + (f"\n{also}\n" if also else "")


def settings_text(rules: Rules) -> str:
    """What ``ninetynine rules ID --toml`` prints: every setting as ``key = value``."""
    return "".join(
        f"{key} = {json.dumps(value)}\n" for key, value in rules_to_mapping(rules).items()
    )
