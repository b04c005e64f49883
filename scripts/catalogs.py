"""Extract, update and compile the game's translation catalogs with Babel (docs/translating.md).

    python scripts/catalogs.py extract   # the template, src/ninetynine/locale/ninetynine.pot
    python scripts/catalogs.py update    # the template, then every language's .po merged with it
    python scripts/catalogs.py compile   # every .po to the .mo that gettext reads
    python scripts/catalogs.py init LANG # a new language's .po (then add it to Language)

Each is the ``pybabel`` command it prints, with this project's mapping (``babel.cfg``) and
keywords; ``tests/test_language.py`` runs :func:`extract` to check the catalogs against the
source. Babel is a development tool here (the ``dev`` extra): the package reads the
compiled catalogs with the standard library's ``gettext``.
"""

from __future__ import annotations

import sys
from pathlib import Path

from babel.messages.frontend import CommandLineInterface

ROOT = Path(__file__).resolve().parents[1]
LOCALE = ROOT / "src" / "ninetynine" / "locale"
TEMPLATE = LOCALE / "ninetynine.pot"
DOMAIN = "ninetynine"
# Babel's own keywords (_, ngettext, N_...) and the marker of a message with a plural
KEYWORDS = ["Nn_:1,2"]
# no source locations: a catalog then changes only when its messages do
EXTRACT = [
    "extract",
    "--mapping-file", str(ROOT / "babel.cfg"),
    "--no-location",
    "--sort-by-file",
    "--add-comments", "TRANSLATORS:",
    "--project", "ninetynine",
    "--copyright-holder", "the ninetynine authors",
    *(arg for k in KEYWORDS for arg in ("--keyword", k)),
]  # fmt: skip


def pybabel(*args: str) -> None:
    """Runs ``pybabel args`` in the repository root, printing the command first."""
    print("pybabel", " ".join(args), file=sys.stderr)
    CommandLineInterface().run(["pybabel", "--quiet", *args])


def extract(output: Path = TEMPLATE) -> None:
    """Writes the template of every message in the source to ``output``."""
    output.parent.mkdir(parents=True, exist_ok=True)
    pybabel(*EXTRACT, "--output-file", str(output), str(ROOT / "src"))


def main(argv: list[str]) -> int:
    """The command line: ``extract``, ``update``, ``compile`` or ``init LANG``."""
    match argv:
        case ["extract"]:
            extract()
        case ["update"]:
            extract()
            pybabel("update", "-i", str(TEMPLATE), "-d", str(LOCALE), "-D", DOMAIN,
                    "--no-fuzzy-matching", "--ignore-obsolete")  # fmt: skip
        case ["compile"]:
            pybabel("compile", "-d", str(LOCALE), "-D", DOMAIN, "--statistics")
        case ["init", lang]:
            pybabel("init", "-i", str(TEMPLATE), "-d", str(LOCALE), "-D", DOMAIN, "-l", lang)
        case _:
            print(__doc__, file=sys.stderr)
            return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
