"""``ninetynine``: the entry point. Each subcommand lives in its own module with
``add_arguments(parser)`` and ``run(args) -> int``, imported only when it is the one asked
for; errors are one line, no traceback."""

from __future__ import annotations

import argparse
import importlib
import re
import sys
import textwrap
from collections.abc import Sequence

from ninetynine import __version__
from ninetynine.cli.extras import MissingExtraError
from ninetynine.errors import NinetyNineError
from ninetynine.language import Language, choose, using

# name -> (module, one-line help). Front ends import their heavy libraries inside run().
COMMANDS = {
    "play": ("ninetynine.cli.play_cmd", "play a game in the terminal (the default)"),
    "rules": ("ninetynine.cli.rules_cmd", "list the rule sets, or describe one"),
    "replay": ("ninetynine.cli.replay_cmd", "replay a record, or play moves from a position"),
    "review": (
        "ninetynine.cli.review_cmd",
        "review a game: each decision of a seat beside the coach's move",
    ),
    "random-game": ("ninetynine.cli.random_game_cmd", "write the record of a random game"),
    "arena": ("ninetynine.cli.arena_cmd", "play many games between bots: win rates, ratings"),
    "simulate": (
        "ninetynine.cli.simulate_cmd",
        "play many games of rule sets x players x bots: rows for the statistics",
    ),
    "serve": ("ninetynine.cli.serve_cmd", "play in the browser: start the web server"),
    "report": (
        "ninetynine.cli.report_cmd",
        "report a simulation's statistics: tables, and an HTML page of plots",
    ),
}


# the commands that write for a person at a terminal take --lang (LANG otherwise); serve's
# browser tables choose their own language, and records stay in English
SPOKEN = ("play", "rules", "replay", "review")


def add_lang(parser: argparse.ArgumentParser) -> None:
    """Adds ``--lang`` to ``parser`` (a command of :data:`SPOKEN`)."""
    parser.add_argument(
        "--lang",
        metavar="LANG",
        help=f"the language to write in: {', '.join(Language)} (default: from LANG, or en)",
    )


def plain_text(doc: str | None) -> str | None:
    """A module's docstring as a person reads it in ``--help``: reST's double backticks
    and roles (``:mod:`x```) dropped."""
    if doc is None:
        return None
    doc = re.sub(r":[a-z]+:`~?([^`]+)`", lambda m: m.group(1).rsplit(".", 1)[-1], doc)
    return doc.replace("``", "")


class HelpFormatter(argparse.HelpFormatter):
    """Each paragraph of a description wrapped to the terminal on its own (argparse's
    own formatter runs them all into one)."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        return "\n\n".join(
            textwrap.fill(
                " ".join(p.split()), width, initial_indent=indent, subsequent_indent=indent
            )
            for p in re.split(r"\n\s*\n", text.strip())
        )


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser of the command line. Only ``command``'s module is imported, to add its
    arguments; the others are listed by name and help line, so ``--help`` starts at once."""
    parser = argparse.ArgumentParser(
        prog="ninetynine",
        description="Ninety-Nine, the adding card game: play, replay and study every rule set.",
    )
    parser.add_argument("--version", action="version", version=f"ninetynine {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (module_name, help_text) in COMMANDS.items():
        if name != command:
            sub.add_parser(name, help=help_text)
            continue
        module = importlib.import_module(module_name)
        cmd = sub.add_parser(
            name,
            help=help_text,
            description=plain_text(module.__doc__),
            formatter_class=HelpFormatter,
        )
        module.add_arguments(cmd)
        if name in SPOKEN:
            add_lang(cmd)
        cmd.set_defaults(run=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Runs the command line ``argv`` (default ``sys.argv[1:]``; with no command, or options
    only, ``play``). Returns the exit status: 0, 2 after an error printed as one line, 130
    when interrupted."""
    args_list = list(sys.argv[1:] if argv is None else argv)
    lead: list[str] = []  # --lang before the command is the command's (--lang th rules K)
    while args_list and (args_list[0] == "--lang" or args_list[0].startswith("--lang=")):
        n = 2 if args_list[0] == "--lang" else 1
        lead, args_list = lead + args_list[:n], args_list[n:]
    if (
        not args_list
        or args_list[0].startswith("-")
        and args_list[0] not in ("-h", "--help", "--version")
    ):
        args_list.insert(0, "play")
    args_list[1:1] = lead
    parser = build_parser(args_list[0] if args_list[0] in COMMANDS else None)
    args = parser.parse_args(args_list)
    try:
        lang = choose(args.lang) if args.command in SPOKEN else None
        with using(lang):
            return int(args.run(args) or 0)
    except MissingExtraError as e:  # its message names the command and the extra
        print(e, file=sys.stderr)
        return 2
    except NinetyNineError as e:
        print(f"ninetynine: error: {e}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # the reader went away (e.g. piped into head): not an error
        sys.stderr.close()
        return 0
    except OSError as e:
        print(
            f"ninetynine: error: {e.strerror or e}: {e.filename or ''}".rstrip(": "),
            file=sys.stderr,
        )
        return 2
    except KeyboardInterrupt:
        print("ninetynine: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
