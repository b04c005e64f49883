"""MkDocs hook (mkdocs.yml ``hooks:``): one page per rule set, generated at build time from
the presets by the code behind ``ninetynine rules ID``, so the site cannot disagree with the
engine. ``rule-sets/index.md`` lists them; ``rule-sets/ID.md`` describes one."""

from __future__ import annotations

from typing import Any

from mkdocs.structure.files import File, Files

from ninetynine.cli.rules_cmd import describe, settings_text
from ninetynine.rules.presets import load_rules, presets

FOLDER = "rule-sets"


def rule_set_page(preset_id: str) -> str:
    preset = presets()[preset_id]
    rules = load_rules(preset_id)
    based = f", based on [{preset.parent}]({preset.parent}.md)" if preset.parent else ""
    return f"""# {preset.id}: {preset.name}

{preset.description}

Kind: {preset.kind}, in the {preset.family} family{based}; from {preset.origin}.
Play it with `ninetynine play --rules {preset.id}`.

## The rules

What `ninetynine rules {preset.id}` prints:

```text
{describe(rules)}```

## Every setting

As a house-rules file would set them (`ninetynine rules {preset.id} --toml`; the keys are in
[the rules settings](../rules.md)):

```toml
{settings_text(rules)}```
"""


def index_page() -> str:
    rows = "\n".join(
        f"| [{p.id}]({p.id}.md) | {p.name} | {p.family} | {p.kind} | {p.origin} |"
        for p in presets().values()
    )
    return f"""# Rule sets

Every rule set ninetynine plays, as `ninetynine rules` lists them. Each page is generated
from the preset's data file by the same code as `ninetynine rules ID`.

| id | name | family | kind | from |
|---|---|---|---|---|
{rows}
"""


def on_config(config: Any) -> Any:
    """The nav's "Rule sets" entry becomes a section: the list, then every rule set."""
    pages = [f"{FOLDER}/index.md"] + [
        {f"{p.id}: {p.name}": f"{FOLDER}/{p.id}.md"} for p in presets().values()
    ]

    def expand(items: list[Any]) -> list[Any]:
        return [
            {"Rule sets": pages}
            if item == {"Rule sets": f"{FOLDER}/index.md"}
            else {k: expand(v) if isinstance(v, list) else v for k, v in item.items()}
            if isinstance(item, dict)
            else item
            for item in items
        ]

    config["nav"] = expand(config["nav"])
    return config


def on_files(files: Files, config: Any) -> Files:
    files.append(File.generated(config, f"{FOLDER}/index.md", content=index_page()))
    for preset_id in presets():
        files.append(
            File.generated(config, f"{FOLDER}/{preset_id}.md", content=rule_set_page(preset_id))
        )
    return files
